"""Played deals for the play checks (issue 19): shuffled packs played out by a simple rule-following player.

The player knows the play rules as the seed pages state them, written here a second time on purpose
(independently of `scorekeep.rules.play`): follow the suit led (jacks and Ober/Unter belong to the
trumps); Kop: else trump, and beat every card so far when able; a Sauspiel's called Sau must fall
when its suit is led, may not be thrown off, and leads its suit unless its holder runs away with four.
Only the order of the cards (which card is trump, which beats which) is taken from the engine.

`play_out(setup, rnd, break_at)` plays one deal; with `break_at` = the index of one card in play order,
that player plays an illegal card there if he holds one (the rest goes on by the rules).
"""

import random
from dataclasses import dataclass
from typing import Any

from scorekeep.rules import play, tricks

TRUMP = tricks.TRUMP


@dataclass
class Setup:
    game: str
    request: dict[str, Any]  # the request without deal.play
    rules: tricks.TrickRules
    playing: list[int]  # seats in play order from the first leader
    hands: dict[int, list[str]]
    skat: list[str]
    n_tricks: int
    side: set[int]  # the declaring side (known to the dealer of the test, not to the engine)
    stop: Any = None  # (side's trick flags, tricks played) -> play ends
    called: str | None = None


@dataclass
class Outcome:
    tricks: list[list[str]]
    winners: list[int]
    hands: dict[int, list[str]]  # cards never played
    broken: tuple[int, int, int, str] | None  # (trick, position, seat, card) of the one illegal card


def _legal(s: Setup, hand: list[str], trick: list[str], state: dict[str, bool]) -> list[str]:
    cls = s.rules.cls
    sau = s.called
    holder_bound = sau is not None and sau in hand and not state["searched"] and not state["ran_away"]
    if not trick:
        if holder_bound:
            assert sau is not None
            suit = [c for c in hand if cls[c] == sau[0]]
            if len(suit) < 4:
                return [c for c in hand if cls[c] != sau[0] or c == sau]
        return list(hand)
    led = cls[trick[0]]
    legal = [c for c in hand if cls[c] == led]
    if s.game == "kop":
        if not legal:
            legal = [c for c in hand if cls[c] == TRUMP] or list(hand)
        stronger = [c for c in legal if s.rules.beats(c, trick)]
        return stronger or legal
    legal = legal or list(hand)
    if holder_bound:
        assert sau is not None
        if led == sau[0]:
            return [sau]
        if len(hand) > 1:
            legal = [c for c in legal if c != sau] or legal
    return legal


def play_out(s: Setup, rnd: random.Random, break_at: int | None = None, forced: tuple[str, ...] = ()) -> Outcome:
    hands = {seat: list(cards) for seat, cards in s.hands.items()}
    n = len(s.playing)
    pos = 0
    out_tricks: list[list[str]] = []
    winners: list[int] = []
    flags: list[int] = []
    broken = None
    state = {"searched": False, "ran_away": False}
    index = 0
    for t in range(s.n_tricks):
        trick: list[str] = []
        for j in range(n):
            seat = s.playing[(pos + j) % n]
            hand = hands[seat]
            legal = _legal(s, hand, trick, state)
            illegal = [c for c in hand if c not in legal]
            if index < len(forced):
                card = forced[index]
                if card in illegal and broken is None:
                    broken = (t, j, seat, card)
            elif index == break_at and illegal and broken is None:
                card = rnd.choice(sorted(illegal))
                broken = (t, j, seat, card)
            else:
                card = rnd.choice(sorted(legal))
            if (j == 0 and s.called and card != s.called and s.called in hand
                    and s.rules.cls[card] == s.called[0]):
                state["ran_away"] = True
            hand.remove(card)
            trick.append(card)
            index += 1
        if s.called and s.rules.cls[trick[0]] == s.called[0]:
            state["searched"] = True
        w = s.rules.winner(trick)
        winner = s.playing[(pos + w) % n]
        pos = (pos + w) % n
        out_tricks.append(trick)
        winners.append(winner)
        flags.append(1 if winner in s.side else 0)
        if s.stop is not None and t < s.n_tricks - 1 and s.stop(flags, t + 1):
            break
    return Outcome(out_tricks, winners, hands, broken)


def request_of(s: Setup, o: Outcome, with_hands: bool = False) -> dict[str, Any]:
    """The request with ``deal.play``: the tricks, Skat's skat, Fipsen's trump, the cards never played."""
    deal = dict(s.request["deal"])
    trump = deal.pop("_trump", None)
    p: dict[str, Any] = {"tricks": [list(trick) for trick in o.tricks]}
    if s.skat:
        p["skat"] = list(s.skat)
    if trump:
        p["trump"] = trump
    if with_hands or any(o.hands.values()):
        p["hands"] = {str(seat): list(cards) for seat, cards in o.hands.items()}
    deal["play"] = p
    return {**s.request, "deal": deal}


def _order(first: int, players: int, skip: int | None = None) -> list[int]:
    return [seat for k in range(players) if (seat := (first + k) % players) != skip]


def skat(rnd: random.Random) -> Setup:
    players = rnd.choice((3, 4))
    dealer = rnd.randrange(players)
    playing = _order(dealer + 1, players, dealer if players == 4 else None)
    contract = rnd.choice(("clubs", "spades", "hearts", "diamonds", "grand", "null", "ramsch"))
    pack = sorted(play.FULL_PACK)
    rnd.shuffle(pack)
    hands = {seat: pack[10 * i:10 * i + 10] for i, seat in enumerate(playing)}
    deal: dict[str, Any] = {"contract": contract}
    side: set[int] = set()
    stop = None
    if contract != "ramsch":
        declarer = rnd.choice(playing)
        side = {declarer}
        deal.update(declarer=declarer, bid=23 if contract == "null" else 18)
        if contract == "null":
            def stop(flags: list[int], played: int) -> bool:
                return any(flags)
    return Setup("skat", {"game": "skat", "players": players, "dealer": dealer, "deal": deal},
                 tricks.skat(contract), playing, hands, pack[30:], 10, side, stop)


def schafkopf(rnd: random.Random) -> Setup:
    dealer = rnd.randrange(4)
    playing = _order(dealer + 1, 4)
    pack = sorted(play.FULL_PACK)
    rnd.shuffle(pack)
    hands = {seat: pack[8 * i:8 * i + 8] for i, seat in enumerate(playing)}
    declarer = rnd.randrange(4)
    preset = rnd.choice(("classic", "bsv"))
    contracts = ("sauspiel", "sauspiel", "solo", "wenz", "solo_tout")
    if preset == "bsv":  # its variants and Ramsch
        contracts += ("geier", "farbwenz", "bettel", "ramsch")
    contract = rnd.choice(contracts)
    deal: dict[str, Any] = {"contract": contract, "declarer": declarer}
    called = trump = None
    side = {declarer}
    stop = None
    if contract == "ramsch":
        del deal["declarer"]
        side = set()
    if contract == "bettel":
        def stop(flags: list[int], played: int) -> bool:
            return any(flags)
    if contract == "sauspiel":
        callable_ = [suit for suit in "CSD" if suit + "A" not in hands[declarer]
                     and any(c[0] == suit and c[1:] not in ("Q", "J") for c in hands[declarer])]
        if callable_:
            suit = rnd.choice(callable_)
            called = suit + "A"
            deal["called_ace"] = suit
            side.add(next(seat for seat, cards in hands.items() if called in cards))
        else:
            contract = deal["contract"] = "solo"
    if contract in ("solo", "solo_tout", "farbwenz"):
        trump = deal["trump"] = rnd.choice("CSHD")
    if contract == "solo_tout":
        def stop(flags: list[int], played: int) -> bool:
            return not all(flags)
    return Setup("schafkopf", {"game": "schafkopf", "rules": {"preset": preset}, "dealer": dealer, "deal": deal},
                 tricks.schafkopf(contract, trump, called), playing, hands, [], 8, side, stop, called)


def kop(rnd: random.Random) -> Setup:
    dealer = rnd.randrange(4)
    playing = _order(dealer + 1, 4)
    pack = sorted(play.KOP_PACK)
    rnd.shuffle(pack)
    hands = {seat: pack[4 * i:4 * i + 4] for i, seat in enumerate(playing)}
    preset = rnd.choice(("classic", "wolsztyn"))
    holder = {card: seat for seat, cards in hands.items() for card in cards}
    black = sorted({holder["CQ"], holder["SQ"]})
    if len(black) == 2 and rnd.random() < 0.8:
        contract, old = "normal", black
    else:
        contract, old = "zolo", [rnd.randrange(4)]
    from scorekeep.rules import kop as kop_rules
    order = tuple(kop_rules.parse_rules({"preset": preset}).trump_order)
    return Setup("kop", {"game": "kop", "rules": {"preset": preset}, "dealer": dealer,
                         "deal": {"contract": contract, "old": old}},
                 tricks.kop(order), playing, hands, [], 4, set(old))


def fipsen(rnd: random.Random) -> Setup:
    players = rnd.choice((3, 4))
    dealer = rnd.randrange(players)
    declarer = rnd.randrange(players)
    playing = _order(declarer, players)
    pack = sorted(play.FIPSEN_PACK)
    rnd.shuffle(pack)
    hands = {seat: pack[5 * i:5 * i + 5] for i, seat in enumerate(playing)}
    ruten = rnd.random() < 0.2
    trump = "D" if ruten else rnd.choice("CSH")
    kieker = rnd.random() < 0.2
    deal: dict[str, Any] = {"contract": "kieker" if kieker else "tricks", "declarer": declarer, "ruten": ruten,
                            "_trump": trump}
    bid = 5
    if not kieker:
        bid = deal["bid"] = rnd.choice((2, 3, 4, 5))
    all_five = bid == 5

    def stop(flags: list[int], played: int) -> bool:
        won = sum(flags)
        if all_five:
            return won < played
        return won >= bid or bid - won > 5 - played

    return Setup("fipsen", {"game": "fipsen", "players": players, "dealer": dealer, "deal": deal},
                 tricks.fipsen(trump), playing, hands, [], 5, {declarer}, stop)


# A Sauspiel's hands: seat 2 can call the Sau of Eichel (clubs), which seat 0 holds with one more club.
SAUSPIEL_HANDS = {0: ["CA", "C7", "DA", "D10", "DK", "D9", "D8", "D7"],
                  1: ["CQ", "SQ", "HQ", "DQ", "C10", "CK", "S7", "S8"],
                  2: ["CJ", "SJ", "HJ", "DJ", "C9", "C8", "SA", "S10"],
                  3: ["HA", "H10", "HK", "H9", "H8", "H7", "SK", "S9"]}

SETUPS = {"skat": skat, "schafkopf": schafkopf, "kop": kop, "fipsen": fipsen}
