"""Played deals (issue 19, docs/PLAY.md): every card checked against the game's play rules, the facts
derived from the cards, contradictions refused with the field.

Deals come from shuffled packs played out by a simple rule-following player (tests/played_deals.py).
"""

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeep.rules import adjudicate
from scorekeep.rules.cards import CARD_WORDS
from tests.played_deals import SAUSPIEL_HANDS, SETUPS, Outcome, Setup, play_out, request_of

GAMES = sorted(SETUPS)
SEEDS = st.integers(0, 2**32 - 1)


def dealt(game: str, seed: int, break_at: int | None = None) -> tuple[Setup, Outcome, dict[str, Any]]:
    rnd = random.Random(seed)
    setup = SETUPS[game](rnd)
    outcome = play_out(setup, rnd, break_at)
    return setup, outcome, request_of(setup, outcome)


def side_count(setup: Setup, outcome: Outcome, points: dict[str, int]) -> tuple[int, int]:
    won = [(trick, w) for trick, w in zip(outcome.tricks, outcome.winners, strict=True) if w in setup.side]
    return sum(points.get(c, 0) for trick, _ in won for c in trick), len(won)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_a_legal_deal_is_accepted_and_its_totals_are_the_cards_counted(game: str, seed: int) -> None:
    setup, outcome, request = dealt(game, seed)
    verdict = adjudicate(request)

    assert verdict["ok"] is True, (verdict, request)
    p = verdict["play"]
    assert p["break"] is None
    assert [t["winner"] for t in p["tricks"]] == outcome.winners
    assert "Every card follows the rules of play" in verdict["explanation"]
    derived = p["derived"]
    contract = request["deal"]["contract"]
    from scorekeep.rules import kop
    from scorekeep.rules.cards import CARD_POINTS
    points = ({c: kop.CARD_POINTS[c[1:]] for t in outcome.tricks for c in t} if game == "kop"
              else {c: CARD_POINTS[c[1:]] for t in outcome.tricks for c in t} if game != "fipsen" else {})
    if contract == "ramsch":
        assert sum(derived["points"]) == 120
        assert sum(derived["tricks"]) == len(outcome.tricks)
        return
    side_points, side_tricks = side_count(setup, outcome, points)
    if game == "skat" and contract != "null":
        side_points += sum(CARD_POINTS[c[1:]] for c in setup.skat)
    tricks_key = {"skat": "declarer_tricks", "schafkopf": "declarer_tricks", "kop": "old_tricks",
                  "fipsen": "tricks_taken"}[game]
    assert derived[tricks_key] == side_tricks
    if "card_points" in derived:
        assert derived["card_points"] == side_points
    assert p["disagreements"] == []
    if "laufende" in derived:  # Schafkopf: the top trumps held in unbroken order by one side
        assert derived["laufende"] == laufende(setup, request["deal"])


def laufende(setup: Setup, deal: dict[str, Any]) -> int:
    """Counted here from the hands as dealt: Ober, Unter, then the trump suit (Wenz: the Unter alone)."""
    unter = ["CJ", "SJ", "HJ", "DJ"]
    if deal["contract"] == "wenz":
        top = unter
    elif deal["contract"] == "geier":
        top = ["CQ", "SQ", "HQ", "DQ"]
    elif deal["contract"] == "farbwenz":
        top = [*unter, *(deal["trump"] + r for r in ("A", "10", "K", "Q", "9", "8", "7"))]
    else:
        suit = deal.get("trump", "H")
        top = ["CQ", "SQ", "HQ", "DQ", *unter, *(suit + r for r in ("A", "10", "K", "9", "8", "7"))]
    side_cards = {card for seat in setup.side for card in setup.hands[seat]}
    run = 0
    while run < len(top) and (top[run] in side_cards) == (top[0] in side_cards):
        run += 1
    return run


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=80, deadline=None)
@given(seed=SEEDS, at=st.integers(0, 40))
def test_every_single_card_rule_break_is_named_at_that_card(game: str, seed: int, at: int) -> None:
    setup, outcome, request = dealt(game, seed, break_at=at)
    verdict = adjudicate(request)

    assert verdict["ok"] is True, (verdict, request)
    broken = verdict["play"]["break"]
    if outcome.broken is None:
        assert broken is None
        return
    trick, position, seat, card = outcome.broken
    assert broken is not None, request
    assert (broken["trick"], broken["seat"], broken["card"]) == (trick, seat, card)
    assert broken["field"] == f"deal.play.tricks.{trick}.{position}"
    said = " ".join(verdict["explanation"])
    assert f"Trick {trick + 1}: seat {seat} {'led' if position == 0 else 'played'} {CARD_WORDS[card]}" in said
    contract = request["deal"]["contract"]
    if contract == "ramsch":
        assert broken.get("side") is None
    elif game == "skat":  # ISkO: the offending side loses the game
        assert verdict["won"] is (seat not in setup.side)
        assert "ISkO: a side that breaks a rule of play loses the game" in said
    else:  # the rule pages do not say: the offending side losing first, and the cards as they fell
        assert verdict["won"] is (seat not in setup.side)
        assert "The rule page does not say what a broken rule of play costs" in said
        assert "as_played" in verdict["play"]


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_a_card_played_twice_is_refused_at_its_second_place(game: str, seed: int) -> None:
    _, outcome, request = dealt(game, seed)
    tricks = request["deal"]["play"]["tricks"]
    if len(tricks) < 2:
        return
    tricks[1][1] = tricks[0][0]
    answer = adjudicate(request)
    assert answer == {"ok": False, "errors": [{"field": "deal.play.tricks.1.1",
                                                "message": f"{tricks[0][0]} was played already (trick 1)"}]}


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_a_trick_of_the_wrong_size_is_refused(game: str, seed: int) -> None:
    _, _, request = dealt(game, seed)
    request["deal"]["play"]["tricks"][0].pop()
    [error] = adjudicate(request)["errors"]
    assert error["field"] == "deal.play.tricks.0"
    assert "a trick holds" in error["message"]


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_a_card_of_another_pack_is_refused(game: str, seed: int) -> None:
    _, _, request = dealt(game, seed)
    request["deal"]["play"]["tricks"][0][0] = "X9"
    [error] = adjudicate(request)["errors"]
    assert error["field"] == "deal.play.tricks.0.0"
    assert "is not a card of this game's pack" in error["message"]


FACTS = {"skat": ("card_points", "declarer_tricks"), "schafkopf": ("card_points", "declarer_tricks"),
         "kop": ("card_points", "old_tricks")}


@pytest.mark.parametrize("game", ["skat", "schafkopf", "kop"])
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_play_stopped_early_takes_each_hand_and_the_facts_entered(game: str, seed: int) -> None:
    setup, outcome, request = dealt(game, seed)
    if setup.stop is not None or request["deal"]["contract"] in ("ramsch", "null"):
        return
    whole = adjudicate(request)
    play = request["deal"]["play"]
    last = whole["play"]["tricks"][-1]
    play["tricks"].pop()
    [error] = adjudicate(request)["errors"]
    assert error["field"] == "deal.play.hands"

    play["hands"] = {str(seat): [card] for seat, card in zip(_rotation(request, last["leader"]), last["cards"],
                                                              strict=False)}
    for key in FACTS[game]:
        request["deal"][key] = whole["play"]["derived"][key]
    claimed = adjudicate(request)
    assert claimed["ok"] is True, claimed
    assert (claimed["won"], claimed["value"], claimed["scores"]) == (whole["won"], whole["value"], whole["scores"])
    assert claimed["play"]["complete"] is False

    request["deal"]["card_points"] = 0 if whole["play"]["tricks"][0]["winner"] in setup.side else 120
    taken = sum(t["points"] for t in claimed["play"]["tricks"] if t["winner"] in setup.side)
    if game == "skat" or taken == 0 and request["deal"]["card_points"] == 0:
        return
    [error] = adjudicate(request)["errors"]
    assert error["field"] == "deal.card_points"
    assert "the tricks played and the cards still held allow only" in error["message"]


def _rotation(request: dict[str, Any], leader: int) -> list[int]:
    """The seats in play order from `leader` (a 4-seat Skat table's dealer sits out)."""
    table = request.get("players", 3 if request["game"] == "skat" else 4)
    skip = request["dealer"] if request["game"] == "skat" and table == 4 else None
    return [s for k in range(table) if (s := (leader + k) % table) != skip]


@pytest.mark.parametrize("game", ["skat", "schafkopf", "kop"])
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_entered_card_points_that_disagree_with_the_tricks_are_reported(game: str, seed: int) -> None:
    _, _, request = dealt(game, seed)
    if request["deal"]["contract"] in ("ramsch", "null"):
        return
    counted = adjudicate(request)["play"]["derived"]["card_points"]
    entered = 62 if counted != 62 else 58
    request["deal"]["card_points"] = entered
    verdict = adjudicate(request)
    assert verdict["play"]["disagreements"] == [{"field": "deal.card_points", "entered": entered,
                                                 "cards": counted}]
    assert f"entered {entered} card points; the tricks hold {counted}" in verdict["explanation"]


# --- a Sauspiel's called Sau (schafkopf.ja.txt) ----------------------------------------------------

RUNNING_AWAY_HANDS = {**SAUSPIEL_HANDS, 0: ["CA", "C7", "C10", "CK", "DA", "D10", "DK", "D9"],
                      1: ["CQ", "SQ", "HQ", "DQ", "D8", "D7", "S7", "S8"]}


def sauspiel(dealer: int, hands: dict[int, list[str]], forced: tuple[str, ...]) -> dict[str, Any]:
    """Seat 2 plays a Sauspiel calling the Sau of Eichel (clubs), which seat 0 holds."""
    from scorekeep.rules import tricks
    playing = [(dealer + 1 + k) % 4 for k in range(4)]
    setup = Setup("schafkopf", {"game": "schafkopf", "dealer": dealer,
                                "deal": {"contract": "sauspiel", "declarer": 2, "called_ace": "C"}},
                  tricks.schafkopf("sauspiel", None, "CA"), playing, hands, [], 8, {0, 2}, called="CA")
    return adjudicate(request_of(setup, play_out(setup, random.Random(7), forced=forced)))


@pytest.mark.parametrize(("dealer", "hands", "forced", "rule", "where"), [
    (0, SAUSPIEL_HANDS, ("CQ", "CJ", "HA", "CA"), "the called Sau may not be thrown off on another suit",
     "deal.play.tricks.0.3"),
    (0, SAUSPIEL_HANDS, ("C10", "C9", "H7", "C7"), "the called Sau must be played when its suit is led",
     "deal.play.tricks.0.3"),
    (3, SAUSPIEL_HANDS, ("C7",), "leading the called suit, its holder must lead the Sau unless he holds four "
     "or more of the suit (running away)", "deal.play.tricks.0.0"),
], ids=["thrown-off", "must-fall", "must-lead"])
def test_the_called_sau_rules(dealer: int, hands: dict[int, list[str]], forced: tuple[str, ...], rule: str,
                              where: str) -> None:
    verdict = sauspiel(dealer, hands, forced)
    assert verdict["play"]["break"]["rule"] == rule
    assert verdict["play"]["break"]["field"] == where
    assert verdict["play"]["break"]["seat"] == 0
    assert verdict["play"]["declaring_side"] == [0, 2]


def test_running_away_with_four_of_the_called_suit_is_allowed() -> None:
    verdict = sauspiel(3, RUNNING_AWAY_HANDS, ("C7",))
    assert verdict["play"]["break"] is None
    assert verdict["play"]["tricks"][0]["cards"][0] == "C7"


def test_the_partner_follows_from_the_called_sau_and_an_entered_other_is_reported() -> None:
    from scorekeep.rules import tricks
    setup = Setup("schafkopf", {"game": "schafkopf", "dealer": 0,
                                "deal": {"contract": "sauspiel", "declarer": 2, "called_ace": "C", "partner": 1}},
                  tricks.schafkopf("sauspiel", None, "CA"), [1, 2, 3, 0], SAUSPIEL_HANDS, [], 8, {0, 2}, called="CA")
    verdict = adjudicate(request_of(setup, play_out(setup, random.Random(3))))
    assert {"field": "deal.partner", "entered": 1, "cards": 0} in verdict["play"]["disagreements"]
    assert "entered the partner seat 1; the called Sau was held by seat 0" in verdict["explanation"]


def test_a_declarer_cannot_call_the_sau_he_holds() -> None:
    from scorekeep.rules import tricks
    hands = {**SAUSPIEL_HANDS, 0: SAUSPIEL_HANDS[2], 2: SAUSPIEL_HANDS[0]}
    setup = Setup("schafkopf", {"game": "schafkopf", "dealer": 0,
                                "deal": {"contract": "sauspiel", "declarer": 2, "called_ace": "C"}},
                  tricks.schafkopf("sauspiel", None, "CA"), [1, 2, 3, 0], hands, [], 8, {2}, called="CA")
    answer = adjudicate(request_of(setup, play_out(setup, random.Random(3))))
    assert answer["errors"][0]["field"] == "deal.called_ace"


def test_old_requests_without_play_and_with_play_null_are_answered_as_before() -> None:
    request = {"game": "skat", "deal": {"contract": "grand", "declarer": 0, "bid": 48, "matadors": 2,
                                        "card_points": 70}}
    assert adjudicate({**request, "deal": {**request["deal"], "play": None}}) == adjudicate(request)
    assert "play" not in adjudicate(request)


def test_the_play_object_refuses_unknown_fields_and_fipsen_needs_its_trump() -> None:
    request = {"game": "skat", "deal": {"contract": "grand", "declarer": 0, "bid": 48,
                                        "play": {"tricks": [], "cut": 1}}}
    assert adjudicate(request)["errors"][0]["field"] == "deal.play.cut"
    fipsen = {"game": "fipsen", "deal": {"contract": "tricks", "declarer": 0, "bid": 2,
                                         "play": {"tricks": [["CA", "C7", "C8", "C9"]]}}}
    error = adjudicate(fipsen)["errors"][0]
    assert error["field"] == "deal.play.trump"


# --- never a crash ------------------------------------------------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 300) | st.sampled_from(["CJ", "H10", "D7", "x", ""]),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["0", "1", "9", "a"]),
                                                                                inner, max_size=3), max_leaves=8)
PLACES = ["contract", "declarer", "bid", "old", "partner", "called_ace", "trump", "ruten", "durch", "card_points",
          "play", "play.tricks", "play.skat", "play.hands", "play.trump", "play.tricks.0", "play.tricks.0.0",
          "play.hands.0", "players", "dealer"]


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=150, deadline=None)
@given(seed=SEEDS, place=st.sampled_from(PLACES), value=st.integers(0, 3) | JSON)
def test_any_value_anywhere_in_a_played_deal_is_answered_never_a_crash(game: str, seed: int, place: str,
                                                                       value: object) -> None:
    _, _, request = dealt(game, seed)
    target: Any = request if place in ("players", "dealer") else request["deal"]
    *path, last = place.split(".")
    for key in path:
        target = target.get(key) if isinstance(target, dict) else target[int(key)] if target else None
        if target is None:
            return
    if isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    answer = adjudicate(request)
    assert answer["ok"] in (True, False)
    if answer["ok"] is False:
        assert answer["errors"][0]["field"].split(".")[0] in ("deal", "players", "dealer", "rules")


def test_the_dealer_at_a_four_seat_skat_table_cannot_declare_a_played_deal() -> None:
    for seed in range(200):
        _, _, request = dealt("skat", seed)
        if request["players"] == 4 and request["deal"]["contract"] not in ("ramsch", "null"):
            break
    request["deal"]["declarer"] = request["dealer"]
    [error] = adjudicate(request)["errors"]
    assert error["field"] == "deal.declarer"
    assert "sits the deal out" in error["message"]


def test_fipsen_play_going_on_after_the_bid_is_made_is_durch() -> None:
    """fipsen.ja.txt (プレイ): the deal ends when the bid is made; playing on is Durch, lost with a trick given."""
    from scorekeep.rules import tricks as trick_rules
    hands = {0: ["HA", "HK", "HQ", "CA", "C7"], 1: ["H7", "H8", "H9", "SA", "CK"],
             2: ["SK", "SQ", "SJ", "S10", "CQ"], 3: ["S9", "S8", "S7", "D7", "CJ"]}
    setup = Setup("fipsen", {"game": "fipsen", "players": 4, "dealer": 3,
                             "deal": {"contract": "tricks", "declarer": 0, "bid": 2, "_trump": "H"}},
                  trick_rules.fipsen("H"), [0, 1, 2, 3], hands, [], 5, {0}, stop=lambda flags, played: played == 3)
    # HA, HK win; the bid of 2 is made; the declarer plays on with C7, which seat 1's CK takes.
    outcome = play_out(setup, random.Random(1), forced=("HA", "H7", "SK", "S9", "HK", "H8", "SQ", "S8",
                                                        "C7", "CK", "CQ", "CJ"))
    verdict = adjudicate(request_of(setup, outcome))
    assert verdict["play"]["derived"] == {"tricks_taken": 2, "durch": True}
    assert verdict["won"] is False  # Durch needs all five
    assert verdict["value"] == 4  # 2 × 2^1 (Durch)
