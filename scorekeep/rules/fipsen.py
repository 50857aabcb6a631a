"""Fipsen: trick bids with add-ons, Kieker, Siebener Fips — and the order of bids.

The rules are RULES.md's Fipsen section (the Prisdorf rules as the project's brief gives them),
played at 4 seats or 3 with a pack of 25 cards (clubs, spades, hearts A K Q J 10 9 8 7 and the
diamond 7); every hand holds five cards, so every game is over five tricks.

A deal's value is the contract's value: a trick bid of n with k add-ons (Hand, Ruten, Durch; a bid
of 5 carries Durch) is n × 2^k, a Kieker 10 (with Ruten 20), a Siebener Fips 30. Only the
declarer's entry changes: won +value, lost −2 × value, a surrendered Kieker −5.

Fipsen also settles bidding disputes (ADJUDICATION.md, the ``compare`` request): `parse_compare`
reads the bids, `compare` says which is higher — trick count first (Kieker between 4 and 5), then
the number of add-ons, then (option ``durch_outranks``) Durch, then the seat nearer the dealer's left.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from .errors import IllegalDeal
from .explain import Explanation, Seat, Step, Word, explanation, power, signed
from .fields import Option, Reader, boolean, check_choice, describe, is_empty, read_rules
from .glossary import Term
from .inputs import Input, Kind, Need, ask
from .records import quick_init
from .season import Basis, Measure
from .sheet import NOTHING, Column, Declared, Layout, PaperList, PaperRow, noted, result, side, spaced
from .verdict import Comparison, Table, Verdict, options_json, rules_memo

SEATS: tuple[int, ...] = (3, 4)
DEFAULT_SEATS = 4
DEFAULT_PRESET = "classic"

PRESETS: dict[str, dict[str, object]] = {
    "classic": {"durch_outranks": False},
}

OPTIONS: dict[str, Option] = {
    "durch_outranks": boolean,
}

TRICKS = 5
"""Every hand holds five cards: a game is five tricks (RULES.md Fipsen)."""

BID_MIN, BID_MAX = 2, 5
"""Trick bids run from 2 to 5; 5 carries Durch by itself (RULES.md Fipsen)."""

KIEKER_VALUE = 10
"""A Kieker is worth 10, with Ruten 20 (RULES.md Fipsen)."""

KIEKER_SURRENDERED = -5
"""A Kieker given up after the exchange costs its declarer 5, with or without Ruten (RULES.md Fipsen)."""

SIEBENER_FIPS_VALUE = 30
"""The holder of the Siebener Fips scores +30 and the deal ends (RULES.md Fipsen)."""


class Contract(StrEnum):
    TRICKS = "tricks"
    KIEKER = "kieker"
    SIEBENER_FIPS = "siebener_fips"
    PASSED = "passed"


CONTRACTS: dict[str, tuple[str, ...]] = {
    Contract.TRICKS: ("declarer", "bid", "hand", "ruten", "durch", "tricks_taken"),
    Contract.KIEKER: ("declarer", "ruten", "surrendered", "tricks_taken"),
    Contract.SIEBENER_FIPS: ("declarer",),
    Contract.PASSED: (),
}

_CONTRACT_BY_NAME = {c.value: c for c in Contract}
_DEAL_KEYS = frozenset({"contract"}.union(*CONTRACTS.values()))
_USED = {c: frozenset(("contract", *CONTRACTS[c])) for c in Contract}
_WHAT = {
    Contract.TRICKS: Word("a trick game"),
    Contract.KIEKER: Word("a Kieker"),
    Contract.SIEBENER_FIPS: Word("a Siebener Fips"),
    Contract.PASSED: Word("a deal everyone passed"),
}
# Why a seat or the tricks are required: `Word`s, so that a page translates them with the message.
_FOR_THE_FIPS_HOLDER = Word(" (the seat holding the Siebener Fips)")
_FOR_THE_DECLARER = Word(" (the declarer's seat)")
_FOR_A_PLAYED_KIEKER = Word(" for a Kieker that was played")
_FOR_A_TRICK_GAME = Word(" for a trick game")
_FOR_THE_BIDDER = Word(" (the seat that made this bid)")
_KIEKER_REFUSES = ("bid", "hand", "durch")
_BID_KEYS = frozenset({"bid", "hand", "ruten", "durch", "kieker", "seat"})


@dataclass(frozen=True, slots=True)
class Rules:
    """A Fipsen rule set: only ``durch_outranks`` varies (RULES.md Fipsen, default false)."""

    preset: str
    durch_outranks: bool


@quick_init
@dataclass(frozen=True, slots=True)
class Deal:
    """What the table declared: the contract, its declarer and add-ons, the declarer's tricks.

    `durch` is the add-on as said; a bid of 5 carries Durch whatever it says (see `carries_durch`).
    """

    contract: Contract
    declarer: int | None = None
    bid: int | None = None
    hand: bool = False
    ruten: bool = False
    durch: bool = False
    tricks_taken: int | None = None
    surrendered: bool = False


@dataclass(frozen=True, slots=True)
class Bid:
    """One side of a bidding dispute: a trick bid (`bid` 2…5 with add-ons) or, with `bid` None, a Kieker."""

    seat: int
    bid: int | None
    hand: bool = False
    ruten: bool = False
    durch: bool = False

    @property
    def kieker(self) -> bool:
        return self.bid is None


# --- the contract's words ------------------------------------------------------------------------

def carries_durch(bid: int | None, durch: bool) -> bool:
    """A trick bid carries Durch when it says so or when it is a 5 (RULES.md Fipsen); a Kieker never."""
    return bid is not None and (durch or bid == BID_MAX)


def add_ons(bid: int | None, hand: bool, ruten: bool, durch: bool) -> tuple[str, ...]:
    """The add-ons a bid carries, in the order players say them: Hand, Ruten, Durch.

    A bid of 5 carries Durch by itself and counts it once, said or not; a Kieker (`bid` None)
    takes Ruten only (RULES.md Fipsen).
    """
    names: tuple[str, ...] = ()
    if hand:
        names += ("Hand",)
    if ruten:
        names += ("Ruten",)
    if carries_durch(bid, durch):
        names += ("Durch",)
    return names


def spoken(bid: int | None, hand: bool, ruten: bool, durch: bool) -> str:
    """A bid as players say it: ``3 Hand Ruten``, ``Kieker with Ruten``; a 5's own Durch goes unsaid."""
    if bid is None:
        return "Kieker with Ruten" if ruten else "Kieker"
    words = [str(bid)]
    if hand:
        words.append("Hand")
    if ruten:
        words.append("Ruten")
    if durch and bid != BID_MAX:
        words.append("Durch")
    return " ".join(words)


def describe_bid(bid: Bid) -> str:
    """A compared bid as players say it, e.g. ``3 Hand Ruten`` or ``Kieker with Ruten``."""
    return spoken(bid.bid, bid.hand, bid.ruten, bid.durch)


def _add_on_list(names: tuple[str, ...], bid: int | None) -> str:
    """The add-ons for an explanation line; a Durch nobody said is shown as the 5's own."""
    if not names:
        return "none"
    if bid == BID_MAX:
        return ", ".join(names[:-1] + ("the 5's own Durch",))
    return ", ".join(names)


# The words of a bid as explanation lines use them, each a `Word` made once here so that a page can
# translate it; a bid's number stays a number. A trick bid is written ``{bid}{said}`` ("3" and
# " Hand Ruten"), a Kieker by its name alone.
_SAID: dict[tuple[bool, bool, bool], str] = {
    (hand, ruten, durch): Word(" " + spoken(BID_MIN, hand, ruten, durch).split(" ", 1)[1])
    if hand or ruten or durch else ""
    for hand in (False, True) for ruten in (False, True) for durch in (False, True)
}
"""By (hand, ruten, Durch said): the add-ons as players say them after the number."""
_ADD_ONS: dict[tuple[bool, bool, bool, bool], Word] = {
    (hand, ruten, carries_durch(bid, durch), bid == BID_MAX): Word(_add_on_list(add_ons(bid, hand, ruten, durch), bid))
    for bid in (BID_MIN, BID_MAX) for hand in (False, True) for ruten in (False, True) for durch in (False, True)
}
"""By (hand, ruten, carries Durch, a bid of 5): the add-ons listed, e.g. "Hand, the 5's own Durch"."""
_KIEKER_NAMES = {False: Word("Kieker"), True: Word("Kieker with Ruten")}
_KIEKER_HEIGHT = Word("Kieker (between 4 and 5)")


def _name(bid: Bid) -> tuple[int | Word, str]:
    """A compared bid as the pair ``{name}{said}`` of an explanation line (see `describe_bid`)."""
    if bid.bid is None:
        return _KIEKER_NAMES[bid.ruten], ""
    return bid.bid, _SAID[bid.hand, bid.ruten, bid.durch and bid.bid != BID_MAX]


# --- rule sets -----------------------------------------------------------------------------------

def parse_rules(obj: object) -> Rules:
    """The rule set a request's ``rules`` object picks; Fipsen's one option needs no cross-checks."""
    values = read_rules(obj, PRESETS, DEFAULT_PRESET, OPTIONS)
    return Rules(preset=values["preset"], durch_outranks=values["durch_outranks"])


@rules_memo
def _rules_json(rules: Rules) -> dict[str, Any]:
    """The verdict's ``rules`` object, the same for every deal under one rule set."""
    return options_json(rules)


SELDOM_PLAYED: frozenset[str] = frozenset()
CONTRACT_SIGNS: dict[str, str] = {}  # no game of it is named by a sign
"""The contracts few deals are (a page may fold them away): none, every contract is asked often."""


def contracts(rules: Rules) -> tuple[str, ...]:
    """Every Fipsen rule set allows all four contracts (RULES.md Fipsen)."""
    return tuple(CONTRACTS)


def deal_fields(contract: str, rules: Rules, table: Table) -> tuple[str, ...]:
    """The deal fields a contract uses; no Fipsen option adds or removes one."""
    return CONTRACTS[check_choice(contract, "deal.contract", CONTRACTS)]


# --- the game's words, and what a deal asks of the table -----------------------------------------

NAME = Word("Fipsen")
PACK: tuple[tuple[str, int], ...] = ()  # Fipsen counts tricks; no deal field counts card points
PRESET_LABELS = {"classic": Word("Classic (Prisdorf)")}
CONTRACT_LABELS: dict[str, Word] = {Contract.TRICKS: Word("Trick bid"), Contract.KIEKER: Word("Kieker"),
                   Contract.SIEBENER_FIPS: Word("Siebener Fips"), Contract.PASSED: Word("All passed")}
# The bids a bidding dispute compares, as a page offers them: each its choice's value, its fields in the compare
# request (`parse_compare`) and its words — every trick bid, and a Kieker.
COMPARE_BIDS: tuple[tuple[str, Mapping[str, object], object], ...] = (
    *((str(n), {"bid": n}, n) for n in range(BID_MIN, BID_MAX + 1)),
    (str(Contract.KIEKER), {"kieker": True}, CONTRACT_LABELS[Contract.KIEKER]))
OPTION_LABELS = {"durch_outranks": Word("Durch outranks at equal bids")}
CHOICE_LABELS: dict[tuple[str, str], Word] = {}
NONE_LABELS: dict[str, Word] = {}

FIELDS: dict[str, Input] = {f.key: f for f in (
    Input("declarer", Kind.SEAT, Word("Declarer"), Need.REQUIRED),
    Input("bid", Kind.COUNT, Word("Bid (tricks)"), Need.REQUIRED, lo=BID_MIN, hi=BID_MAX),
    Input("hand", Kind.FLAG, Word("Hand")),
    Input("ruten", Kind.FLAG, Word("Ruten")),
    Input("durch", Kind.FLAG, Word("Durch")),
    Input("surrendered", Kind.FLAG, Word("Surrendered after the exchange"), short=Word("surrendered")),
    Input("tricks_taken", Kind.COUNT, Word("Declarer's tricks"), Need.REQUIRED, hi=TRICKS),
)}
"""Every deal field of Fipsen as a page asks it; `inputs` adjusts them to a contract."""


_SURRENDERED_ON_A_PAGE = Word("a surrendered Kieker is given up before any trick is played: leave the declarer's "
                              "tricks empty, or untick “surrendered”")
"""The refusal of tricks for a surrendered Kieker in the words of the table's page, not the contract's keys."""


def inputs(contract: str, rules: Rules, table: Table) -> tuple[Input, ...]:
    """The fields `contract` asks: a Kieker's tricks are not needed once it is surrendered."""
    keys = deal_fields(str(contract), rules, table)
    if contract == Contract.KIEKER:
        return ask(FIELDS, keys, tricks_taken={"unless": ("surrendered",)})
    return ask(FIELDS, keys)



def complete(facts: dict[str, Any], rules: Rules, table: Table) -> dict[str, Any]:
    """What the other facts settle, filled in for a page: nothing in this game."""
    return facts


def entered(facts: dict[str, Any], rules: Rules, table: Table) -> dict[str, Any]:
    """A stored deal's facts as a page enters them: as they are in this game."""
    return facts

# --- at the table: seats -------------------------------------------------------------------------

PLAYERS = range(3, 8)  # three or four play; more sit out in turn
DEALER_SITS_OUT_AT = None
# The seating (rules/seating.py) in words, as the night's form explains it beside the players.
SEATING = Word("Fipsen is played by three or four. With five or more at the table, the dealer and everyone "
               "beyond the fourth player to his left sit out in turn.")
DECLARER_ALONE = True  # only the declarer's entry changes
ZERO_SUM = False
MONEY = False
AMOUNTS: frozenset[str] = frozenset()  # no option is money
SERIES: tuple[int, ...] = ()
SEEGER_FABIAN = False

# What a club's season may rank by (rules/season.py): the points of the score sheet.
SEASON_BASES = (Basis("points", Word("points"), Measure.TOTAL),)
BOCK_EVENTS: dict[str, Any] = {}  # Fipsen has no Bock deals


def round_placing(rules: Rules) -> tuple[int, ...] | None:
    """Fipsen places no rounds."""
    return None


def tournament_ranking(rules: Rules) -> tuple[str, ...]:
    """What a Fipsen tournament ranks by (`rules.ranking`): the points on the score sheet. The rule page
    names no tournament order; as the score is the declarers' games, tied players go by more games won as
    declarer, then fewer lost (the reading Skat's ordinance gives the same kind of list)."""
    return ("total", "won", "lost")


def tournament_solo(facts: Mapping[str, Any]) -> bool:
    """Fipsen counts no Soli apart: the declarer always plays alone."""
    return False


SHEET = (Column(Word("Declarer")), Column(Word("Bid")), Column(Word("Result")), Column(Word("Value")))
SHEET_RUNNING_FIRST = True  # the score sheet's number is each player's running score; the hand's value its note
PAPER = PaperList(Layout.SCORE_SHEET)  # the score sheet: running scores, the value of the hand with a note


def paper_row(facts: Mapping[str, Any], verdict: Mapping[str, Any]) -> PaperRow:
    """A deal's line on the score sheet: the bid in words; a result only where the deal was played out (a
    Siebener Fips is shown, not played); a deal everyone passed has no value."""
    return PaperRow(game_words(facts, verdict), passed=passed(facts), result=played_out(facts))
_SAID_ADD_ONS = (("hand", Word("Hand")), ("ruten", Word("Ruten")), ("durch", Word("Durch")))


def passed(facts: Mapping[str, Any]) -> bool:
    """A deal everyone passed."""
    return facts.get("contract") == Contract.PASSED


def played_out(facts: Mapping[str, Any]) -> bool:
    """Whether the deal was won or lost at play: a Siebener Fips is not played, only shown."""
    return facts.get("contract") != Contract.SIEBENER_FIPS


def game_words(facts: Mapping[str, Any], verdict: Mapping[str, Any]) -> object:
    """The bid with its add-ons as the score sheet writes it ("4 Hand"), a Kieker "Kieker Ruten"."""
    add_ons = [word for key, word in _SAID_ADD_ONS if facts.get(key)]
    contract = facts.get("contract")
    if contract == Contract.TRICKS:
        label = spaced([facts.get("bid", NOTHING), *add_ons])
    else:
        label = spaced([CONTRACT_LABELS.get(str(contract), NOTHING), *add_ons])
    return noted([label, Word("surrendered") if facts.get("surrendered") else NOTHING])


def _said(key: str, word: Word) -> Declared:
    return Declared(word, lambda facts, verdict: bool(facts.get(key)))


DECLARED = (Declared(Word("Bid"), lambda facts, verdict: facts.get("bid")),
            *(_said(key, word) for key, word in _SAID_ADD_ONS),
            Declared(Word("Surrendered"), lambda facts, verdict: bool(facts.get("surrendered"))))
"""The trick bid (none for a Kieker), its add-ons Hand, Ruten and Durch, and a surrendered game."""


def sheet_row(facts: Mapping[str, Any], verdict: Mapping[str, Any]) -> tuple[object, ...]:
    return (side(declaring_side(facts)), game_words(facts, verdict), result(verdict.get("won")), verdict["value"])


def declaring_side(facts: Mapping[str, Any]) -> list[int]:
    """The declarer (the Siebener Fips holder)."""
    return [facts["declarer"]] if isinstance(facts.get("declarer"), int) else []


# --- deals ---------------------------------------------------------------------------------------

def _refuse_kieker_extras(r: Reader) -> None:
    """A Kieker has no trick bid and takes Ruten as its only add-on (RULES.md, ADJUDICATION.md)."""
    for key in _KIEKER_REFUSES:
        if not is_empty(r.obj.get(key)):
            raise IllegalDeal(r.field(key), "a Kieker has no trick bid and takes Ruten as its only add-on: "
                              "leave {key} out", key=key)


def parse_deal(obj: object, rules: Rules, table: Table) -> Deal:
    """Read and check a Fipsen deal (ADJUDICATION.md, Fipsen fields); raises `IllegalDeal`."""
    r = Reader(obj, "deal", _DEAL_KEYS)
    contract = _CONTRACT_BY_NAME[r.choice("contract", CONTRACTS, required=True)]
    if contract is Contract.KIEKER:
        _refuse_kieker_extras(r)
    elif contract is Contract.TRICKS and not is_empty(r.obj.get("surrendered")):
        raise IllegalDeal("deal.surrendered", "only a Kieker can be surrendered; a trick game is won or lost "
                          "by the tricks taken: leave surrendered out")
    r.reject_unused(_USED[contract], _WHAT[contract])
    if contract is Contract.PASSED:
        return Deal(contract)
    last_seat = table.players - 1
    if contract is Contract.SIEBENER_FIPS:
        return Deal(contract, declarer=r.int("declarer", 0, last_seat, required=True,
                                             why=_FOR_THE_FIPS_HOLDER))
    declarer = r.int("declarer", 0, last_seat, required=True, why=_FOR_THE_DECLARER)
    ruten = r.bool("ruten")
    if contract is Contract.KIEKER:
        surrendered = r.bool("surrendered")
        if surrendered:
            # A surrendered Kieker is never played, so it has no tricks; 0 passes as "no value".
            if r.int("tricks_taken", 0, TRICKS):
                raise IllegalDeal("deal.tricks_taken", "a surrendered Kieker is given up before any trick "
                                  "is played: leave tricks_taken out, or give surrendered false",
                                  on_page=_SURRENDERED_ON_A_PAGE)
            return Deal(contract, declarer=declarer, ruten=ruten, surrendered=True)
        tricks_taken = r.int("tricks_taken", 0, TRICKS, required=True, why=_FOR_A_PLAYED_KIEKER)
        return Deal(contract, declarer=declarer, ruten=ruten, tricks_taken=tricks_taken)
    if not r.has("bid"):
        raise IllegalDeal("deal.bid", "is required for a trick game: the tricks bid, from {lo} to {hi}",
                          lo=BID_MIN, hi=BID_MAX)
    return Deal(contract, declarer=declarer, bid=r.int("bid", BID_MIN, BID_MAX), hand=r.bool("hand"),
                ruten=ruten, durch=r.bool("durch"),
                tricks_taken=r.int("tricks_taken", 0, TRICKS, required=True, why=_FOR_A_TRICK_GAME))


def score(deal: Deal, rules: Rules, table: Table) -> Verdict:
    """The verdict of one Fipsen deal: only the declarer's entry changes (RULES.md Fipsen)."""
    if deal.contract is Contract.TRICKS:
        return _score_tricks(deal, rules, table)
    if deal.contract is Contract.KIEKER:
        return _score_kieker(deal, rules, table)
    say, steps = explanation()
    if deal.contract is Contract.SIEBENER_FIPS:
        assert deal.declarer is not None  # the Fips holder's seat is required
        say("Siebener Fips: {seat} holds it and scores +{value}; the deal ends",
            seat=Seat(deal.declarer), value=SIEBENER_FIPS_VALUE)
        return _verdict(rules, table, True, SIEBENER_FIPS_VALUE, deal.declarer, SIEBENER_FIPS_VALUE, steps)
    say("All passed: no game is played and every entry is 0")
    return Verdict("fipsen", _rules_json(rules), None, 0, (0,) * table.players, tuple(steps))


def _score_tricks(deal: Deal, rules: Rules, table: Table) -> Verdict:
    """A trick bid of n with k add-ons is worth n × 2^k; won with at least n tricks, with Durch all
    five; won +value, lost −2 × value (RULES.md Fipsen)."""
    say, steps = explanation()
    assert deal.bid is not None and deal.declarer is not None and deal.tricks_taken is not None  # all required
    bid, seat, taken, hand, ruten = deal.bid, Seat(deal.declarer), deal.tricks_taken, deal.hand, deal.ruten
    five = bid == BID_MAX
    durch = deal.durch or five  # `carries_durch`
    k = hand + ruten + durch
    multiplier = 1 << k
    value = bid * multiplier
    say("{bid}{said} by {seat}: the bid doubled for each add-on, {bid} × {doubling} (add-ons: {add_ons}) = {value}",
        bid=bid, said=_SAID[hand, ruten, deal.durch and not five], seat=seat, doubling=power(2, k),
        add_ons=_ADD_ONS[hand, ruten, durch, five], value=value)
    if durch:
        won = taken == TRICKS
        say("Durch is won only with all {all} tricks; {seat} took {taken}",
            all=TRICKS, seat=seat, taken=taken)
    else:
        won = taken >= bid
        say("A bid of {bid} is won with at least {bid} tricks; {seat} took {taken}",
            bid=bid, seat=seat, taken=taken)
    extra = {"add_ons": k, "multiplier": multiplier}
    return _verdict(rules, table, won, value, seat, _entry(won, value, seat, say), steps, extra)


def _score_kieker(deal: Deal, rules: Rules, table: Table) -> Verdict:
    """A Kieker is worth 10, with Ruten 20, and is won only with all five tricks; surrendered after
    the exchange it costs −5 whatever its value (RULES.md Fipsen)."""
    say, steps = explanation()
    assert deal.declarer is not None  # required
    seat = Seat(deal.declarer)
    multiplier = 2 if deal.ruten else 1
    value = KIEKER_VALUE * multiplier
    if deal.ruten:
        say("Kieker with Ruten by {seat}: {base} doubled by Ruten = {value}",
            seat=seat, base=KIEKER_VALUE, value=value)
    else:
        say("Kieker by {seat}: value {value}", seat=seat, value=value)
    extra = {"add_ons": multiplier - 1, "multiplier": multiplier}
    if deal.surrendered:
        say("Surrendered after the exchange: lost, {seat} enters {entry} whatever the Kieker's value",
            seat=seat, entry=signed(KIEKER_SURRENDERED))
        return _verdict(rules, table, False, value, seat, KIEKER_SURRENDERED, steps, extra)
    won = deal.tricks_taken == TRICKS
    say("A Kieker is won only with all {all} tricks; {seat} took {taken}",
        all=TRICKS, seat=seat, taken=deal.tricks_taken)
    return _verdict(rules, table, won, value, seat, _entry(won, value, seat, say), steps, extra)


def _entry(won: bool, value: int, seat: Seat, say: Explanation) -> int:
    """Won +value, lost −2 × value (RULES.md Fipsen: a lost game counts double)."""
    if won:
        say("Won: {seat} enters +{value}", seat=seat, value=value)
        return value
    entry = -2 * value
    say("Lost: a lost game counts double, {seat} enters −2 × {value} = {entry}",
        seat=seat, value=value, entry=signed(entry))
    return entry


def _verdict(rules: Rules, table: Table, won: bool, value: int, declarer: int, entry: int,
             steps: list[Step], extra: dict[str, Any] | None = None) -> Verdict:
    scores = [0] * table.players
    scores[declarer] = entry
    return Verdict("fipsen", _rules_json(rules), won, value, tuple(scores), tuple(steps), extra or {})


# --- bidding disputes ----------------------------------------------------------------------------

def parse_compare(obj: object, rules: Rules, table: Table) -> tuple[Bid, ...]:
    """Read the bids of a dispute (ADJUDICATION.md, Fipsen): two or more, one per seat.

    Each is ``{"bid": 2…5, "hand", "ruten", "durch", "seat"}`` or ``{"kieker": true, "ruten", "seat"}``;
    ``"kieker": false`` is no bid by itself (the trick bid is then required).
    """
    if isinstance(obj, list) and len(obj) < 2:
        raise IllegalDeal("compare", "must be a list of two or more bids, one per seat, each a trick bid "
                          "(bid 2 to 5 with hand, ruten, durch) or a Kieker (kieker true, ruten) with its "
                          "seat; not a list of {n}", n=len(obj))
    if not isinstance(obj, list):
        raise IllegalDeal("compare", "must be a list of two or more bids, one per seat, each a trick bid "
                          "(bid 2 to 5 with hand, ruten, durch) or a Kieker (kieker true, ruten) with its "
                          "seat; not {got}", got=describe(obj))
    bids: list[Bid] = []
    bid_of_seat: dict[int, int] = {}
    last_seat = table.players - 1
    for index, item in enumerate(obj):
        r = Reader(item, f"compare.{index}", _BID_KEYS)
        seat = r.int("seat", 0, last_seat, required=True, why=_FOR_THE_BIDDER)
        if seat in bid_of_seat:
            raise IllegalDeal(r.field("seat"), "{seat} already made bid {other}: compare one bid per "
                              "seat, each from a different seat", seat=Seat(seat), other=bid_of_seat[seat])
        bid_of_seat[seat] = index
        if r.bool("kieker"):
            _refuse_kieker_extras(r)
            bids.append(Bid(seat, None, ruten=r.bool("ruten")))
        elif not r.has("bid"):
            raise IllegalDeal(r.field("bid"), "is required: the tricks bid, from {lo} to {hi} — or give "
                              "kieker true for a Kieker", lo=BID_MIN, hi=BID_MAX)
        else:
            bids.append(Bid(seat, r.int("bid", BID_MIN, BID_MAX), hand=r.bool("hand"), ruten=r.bool("ruten"),
                            durch=r.bool("durch")))
    return tuple(bids)


class Rank(NamedTuple):
    """A bid's place in the bid order (RULES.md Fipsen); ranks compare criterion by criterion, higher wins."""

    height: int  # trick count: 2n for a bid of n, 9 for a Kieker (between 4 and 5)
    add_ons: int  # how many of Hand, Ruten, Durch (a 5 carries Durch)
    durch: int  # 1 for a bid with Durch under durch_outranks, else 0: no criterion otherwise
    nearness: int  # minus the turn from the dealer's left: the nearer seat ranks higher, the dealer last


def rank(bid: Bid, rules: Rules, table: Table) -> Rank:
    """The bid order of RULES.md Fipsen: trick count (Kieker between 4 and 5), then the number of
    add-ons (a 5 carries Durch), then — only under ``durch_outranks`` — Durch over no Durch, then the
    seat nearer the dealer's left (ADJUDICATION.md: equal bids go to that seat; the dealer is last)."""
    durch = carries_durch(bid.bid, bid.durch)
    height = 9 if bid.kieker or bid.bid is None else 2 * bid.bid  # a bid is a Kieker or has a trick count
    return Rank(height, len(add_ons(bid.bid, bid.hand, bid.ruten, bid.durch)),
                int(durch and rules.durch_outranks), -table.left_of_dealer(bid.seat))


def _height(bid: Bid) -> int | Word:
    return _KIEKER_HEIGHT if bid.bid is None else bid.bid


def compare(bids: tuple[Bid, ...], rules: Rules, table: Table) -> Comparison:
    """Which compared bid is higher, with each bid's rank and the criterion that decided (RULES.md Fipsen)."""
    say, steps = explanation()
    if rules.durch_outranks:
        say("Bid order (rule set {preset}, where Durch outranks at equal bids): trick count first, Kieker "
            "between 4 and 5; then the number of add-ons, a 5 carrying Durch; then Durch over no Durch; then the "
            "seat nearer the dealer's left, the dealer ({dealer}) last", preset=PRESET_LABELS[rules.preset],
            dealer=Seat(table.dealer))
    else:
        say("Bid order (rule set {preset}, where Durch does not outrank at equal bids): trick count first, "
            "Kieker between 4 and 5; then the number of add-ons, a 5 carrying Durch; then the seat nearer the "
            "dealer's left, the dealer ({dealer}) last", preset=PRESET_LABELS[rules.preset],
            dealer=Seat(table.dealer))
    ranks = [rank(bid, rules, table) for bid in bids]
    for index, bid in enumerate(bids):
        name, said = _name(bid)
        durch = carries_durch(bid.bid, bid.durch)
        say("Bid {index}: {name}{said} by {seat}: trick count {height}; add-ons {count} ({add_ons}); "
            "turn {turn} of {players} from the dealer's left", index=index, name=name, said=said,
            seat=Seat(bid.seat), height=_height(bid), count=bid.hand + bid.ruten + durch,
            add_ons=_ADD_ONS[bid.hand, bid.ruten, durch, bid.bid == BID_MAX],
            turn=1 - ranks[index].nearness, players=table.players)
    higher = max(range(len(bids)), key=ranks.__getitem__)
    for index in range(len(bids)):
        if index != higher:
            _say_why(say, bids, ranks, higher, index, rules)
    name, said = _name(bids[higher])
    say("Higher: bid {index}, {name}{said} by {seat}", index=higher, name=name, said=said,
        seat=Seat(bids[higher].seat))
    return Comparison("fipsen", _rules_json(rules), higher, tuple(steps))


def _say_why(say: Explanation, bids: tuple[Bid, ...], ranks: list[Rank], win: int, lose: int,
             rules: Rules) -> None:
    """One line: the first criterion of the bid order on which the winner and another bid differ."""
    w, lo = ranks[win], ranks[lose]
    (win_name, win_said), (lose_name, lose_said) = _name(bids[win]), _name(bids[lose])
    both = {"win": win, "win_name": win_name, "win_said": win_said,
            "lose": lose, "lose_name": lose_name, "lose_said": lose_said}
    if w.height != lo.height:
        say("Bid {win} ({win_name}{win_said}) beats bid {lose} ({lose_name}{lose_said}): higher trick count, "
            "{a} over {b}", **both, a=_height(bids[win]), b=_height(bids[lose]))
    elif w.add_ons != lo.add_ons:
        say("Bid {win} ({win_name}{win_said}) beats bid {lose} ({lose_name}{lose_said}): same trick count, "
            "more add-ons, {a} over {b}", **both, a=w.add_ons, b=lo.add_ons)
    elif w.durch != lo.durch:
        say("Bid {win} ({win_name}{win_said}) beats bid {lose} ({lose_name}{lose_said}): same trick count and "
            "add-ons, and Durch beats no Durch (this rule set)", **both)
    else:
        seats = {"a": Seat(bids[win].seat), "ta": 1 - w.nearness, "b": Seat(bids[lose].seat), "tb": 1 - lo.nearness}
        if rules.durch_outranks:
            say("Bid {win} ({win_name}{win_said}) beats bid {lose} ({lose_name}{lose_said}): same trick count, "
                "add-ons and Durch, so the seat nearer the dealer's left: {a} (turn {ta}) before {b} (turn {tb})",
                **both, **seats)
        else:
            say("Bid {win} ({win_name}{win_said}) beats bid {lose} ({lose_name}{lose_said}): same trick count and "
                "add-ons, so the seat nearer the dealer's left: {a} (turn {ta}) before {b} (turn {tb})",
                **both, **seats)


# --- the glossary: the players' words and what they mean -----------------------------------------

ORIGINAL_LANGUAGE = "de"  # the language the players' own words (`Term.original`) are in
GLOSSARY = (
    Term("Spieler", Word("Declarer"),
         Word("The player with the highest bid, who must take the tricks he bid.")),
    Term("Stich", Word("trick bid"),
         Word("The declarer bids how many of the five tricks he will take.")),
    Term("Hand", Word("Hand"),
         Word("An add-on to a bid: each add-on doubles its value.")),
    Term("Ruten", Word("Ruten"),
         Word("An add-on to a bid: doubles its value; a Kieker with Ruten is worth 20.")),
    Term("Durch", Word("Durch"),
         Word("An add-on: all five tricks must be taken; a bid of five always carries it.")),
    Term("Kieker", Word("Kieker"),
         Word("A bid ranked between four and five, worth 10, won only with all five tricks; "
              "surrendered, it costs 5.")),
    Term("Siebener Fips", Word("Siebener Fips"),
         Word("Its holder scores +30 and the deal ends at once.")),
)
