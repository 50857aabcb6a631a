"""Kop scoring: RULES.md ("Kop") and ADJUDICATION.md, through the contract's own requests.

Seats: Anna 0, Bernd 1, Clara 2, Dieter 3; Dieter deals.
"""

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from scorekeep.rules import IllegalDeal, Table, Verdict, adjudicate, judge, kop
from tests.rules import vectors

ANNA, BERND, CLARA, DIETER = range(4)


def request(rules: object = None, **deal: object) -> dict:
    req: dict = {"game": "kop", "players": 4, "dealer": DIETER, "deal": deal}
    if rules is not None:
        req["rules"] = rules if isinstance(rules, dict) else {"preset": rules}
    return req


def verdict(rules: object = None, **deal: object) -> dict:
    answer = adjudicate(request(rules, **deal))
    assert answer["ok"] is True, answer
    return answer


def rejected_field(rules: object = None, **deal: object) -> str:
    answer = adjudicate(request(rules, **deal))
    assert answer["ok"] is False, answer
    (error,) = answer["errors"]
    assert error["message"]
    return error["field"]


def normal(points: int, tricks: int | None = None, doublings: tuple[int, ...] = (), old=(ANNA, CLARA),
           rules: object = None) -> dict:
    return verdict(rules, contract="normal", old=list(old), card_points=points, old_tricks=tricks,
                   doublings=list(doublings))


def lone(contract: str, points: int, tricks: int | None = None, doublings: tuple[int, ...] = (),
         seat: int = ANNA, rules: object = None) -> dict:
    return verdict(rules, contract=contract, old=[seat], card_points=points, old_tricks=tricks,
                   doublings=list(doublings))


# --- the public vectors ------------------------------------------------------------------------

@pytest.mark.parametrize("vector", vectors.load("kop"))
def test_public_vector(vector: dict) -> None:
    vectors.check(vector, adjudicate(vector["input"]))


# --- the pack ----------------------------------------------------------------------------------

def test_kop_pack_has_sixteen_cards_worth_104() -> None:
    assert len(kop.CARDS) == 16
    assert kop.TOTAL_POINTS == 104
    assert sum(kop.CARD_POINTS[card[1:]] for card in kop.CARDS) == 104


@pytest.mark.parametrize(("tricks", "lo", "hi", "gap"), [
    pytest.param(0, 0, 0, None, id="no-trick-no-points"),
    pytest.param(1, 8, 44, 13, id="one-trick-four-jacks-to-four-aces"),
    pytest.param(2, 20, 84, 21, id="two-tricks"),
    pytest.param(3, 60, 96, 65, id="three-tricks"),
    pytest.param(4, 104, 104, None, id="all-tricks-all-points"),
])
def test_points_a_number_of_tricks_can_hold(tricks: int, lo: int, hi: int, gap: int | None) -> None:
    totals = kop.TOTALS_BY_TRICKS[tricks]
    assert (min(totals), max(totals)) == (lo, hi)
    assert gap is None or gap not in totals


@pytest.mark.parametrize("points", [1, 7, 13, 30, 65, 90, 97, 103])
def test_points_no_whole_tricks_can_make_are_rejected(points: int) -> None:
    assert rejected_field(contract="normal", old=[0, 2], card_points=points) == "deal.card_points"


# --- winning, base and payment (RULES.md, Kop) -------------------------------------------------

@pytest.mark.parametrize(("points", "won"), [
    pytest.param(53, True, id="53-wins"),
    pytest.param(52, False, id="52-tie-old-loses-without-doubling"),
    pytest.param(51, False, id="51-loses"),
])
def test_old_side_needs_53(points: int, won: bool) -> None:
    assert normal(points)["won"] is won


@pytest.mark.parametrize(("points", "tricks", "preset", "won", "value"), [
    pytest.param(61, 2, "classic", True, 1, id="losers-43-base-1"),
    pytest.param(78, 3, "classic", True, 1, id="losers-26-base-1"),
    pytest.param(79, 3, "classic", True, 2, id="losers-25-base-2"),
    pytest.param(104, 4, "classic", True, 2, id="losers-no-trick-classic-2"),
    pytest.param(104, 4, "wolsztyn", True, 3, id="losers-no-trick-wolsztyn-3"),
    pytest.param(104, 4, "koscian", True, 3, id="losers-no-trick-koscian-3"),
    pytest.param(26, 1, "classic", False, 1, id="old-lost-with-26-base-1"),
    pytest.param(25, 1, "classic", False, 2, id="old-lost-with-25-base-2"),
    pytest.param(0, 0, "classic", False, 2, id="old-no-trick-classic-2"),
    pytest.param(0, 0, "wolsztyn", False, 3, id="old-no-trick-wolsztyn-3"),
])
def test_base_of_normal_game(points: int, tricks: int, preset: str, won: bool, value: int) -> None:
    v = normal(points, tricks, rules=preset)
    assert (v["won"], v["value"], v["base"]) == (won, value, value)


def test_wesele_is_scored_like_a_normal_game() -> None:
    v = verdict(None, contract="wesele", old=[BERND, DIETER], card_points=80, old_tricks=3)
    assert (v["won"], v["value"], v["scores"]) == (True, 2, [-2, 2, -2, 2])


def test_two_against_two_winners_receive_and_losers_pay_the_value() -> None:
    assert normal(61, doublings=(BERND,))["scores"] == [2, -2, 2, -2]
    assert normal(45, doublings=(BERND,))["scores"] == [-2, 2, -2, 2]


def test_one_against_three_lone_player_gets_three_times_the_value() -> None:
    won = lone("zolo", 70, 2)
    assert (won["value"], won["scores"]) == (5, [15, -5, -5, -5])
    lost = lone("zolo", 44, 1, seat=CLARA)
    assert (lost["won"], lost["value"], lost["scores"]) == (False, 5, [5, 5, -15, 5])


@pytest.mark.parametrize(("contract", "points", "tricks", "won", "value"), [
    pytest.param("cicha", 70, 2, True, 4, id="cicha-won-losers-34-base-1-times-4"),
    pytest.param("cicha", 40, 1, False, 4, id="cicha-lost-with-40-base-1-times-4"),
    pytest.param("zolo", 92, 3, True, 10, id="zolo-won-losers-12-base-2-times-5"),
    pytest.param("zolo", 20, 1, False, 10, id="zolo-lost-with-20-base-2-times-5"),
    pytest.param("zolo_du", 104, 4, True, 20, id="zolo-du-won-losers-no-trick-base-2-times-10"),
    pytest.param("zolo_du", 86, 3, False, 10, id="zolo-du-lost-with-86-base-1-times-10"),
    pytest.param("zolo_du", 0, 0, False, 20, id="zolo-du-no-trick-base-2-times-10"),
])
def test_classic_lone_games_are_base_times_factor(contract: str, points: int, tricks: int, won: bool,
                                                    value: int) -> None:
    v = lone(contract, points, tricks)
    assert (v["won"], v["value"]) == (won, value)


@pytest.mark.parametrize(("preset", "contract", "points", "tricks", "value"), [
    pytest.param("wolsztyn", "cicha", 92, None, 4, id="wolsztyn-cicha-flat-4"),
    pytest.param("wolsztyn", "zolo", 61, None, 5, id="wolsztyn-zolo-flat-5"),
    pytest.param("wolsztyn", "zolo_du", 104, 4, 10, id="wolsztyn-zolo-du-flat-10"),
    pytest.param("koscian", "zolo", 20, None, 5, id="koscian-zolo-lost-flat-5"),
    pytest.param("koscian", "zolo_du", 60, 3, 10, id="koscian-zolo-du-lost-flat-10"),
])
def test_tournament_lone_games_are_flat(preset: str, contract: str, points: int, tricks: int | None,
                                        value: int) -> None:
    v = lone(contract, points, tricks, rules=preset)
    assert v["value"] == value
    assert v["base"] is None


def test_zolo_du_is_won_only_with_all_four_tricks() -> None:
    assert lone("zolo_du", 96, 3)["won"] is False
    assert lone("zolo_du", 104, 4)["won"] is True


# --- doublings ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("doublings", "counted"), [
    pytest.param((), 0, id="none"),
    pytest.param((BERND,), 1, id="the-first-call-counts"),
    pytest.param((BERND, ANNA), 2, id="answered-by-the-other-side"),
    pytest.param((BERND, DIETER), 1, id="partner-of-the-last-caller-is-ignored"),
    pytest.param((BERND, DIETER, CLARA), 2, id="ignored-call-then-other-side"),
    pytest.param((BERND, DIETER, BERND), 1, id="same-side-again-is-ignored"),
    pytest.param((BERND, ANNA, DIETER, CLARA), 4, id="four-alternating"),
    pytest.param((ANNA, BERND), 2, id="old-side-may-call-first-in-a-normal-game"),
])
def test_a_call_counts_only_from_the_other_side_than_the_last_counted(doublings: tuple[int, ...],
                                                                      counted: int) -> None:
    v = normal(61, doublings=doublings)
    assert (v["counted_doublings"], v["value"]) == (counted, 1 << counted)


def test_ignored_call_is_explained_not_rejected() -> None:
    v = normal(61, doublings=(BERND, DIETER))
    assert any("ignored" in line for line in v["explanation"])


def test_lone_player_may_answer_a_doubling() -> None:
    v = lone("zolo", 70, doublings=(BERND, ANNA))
    assert (v["counted_doublings"], v["value"], v["scores"]) == (2, 20, [60, -20, -20, -20])


@pytest.mark.parametrize(("preset", "contract", "limit"), [
    ("classic", "normal", 4), ("classic", "wesele", 4), ("classic", "cicha", 4), ("classic", "zolo", 4),
    ("classic", "zolo_du", 4),
    ("wolsztyn", "normal", 4), ("wolsztyn", "wesele", 4), ("wolsztyn", "cicha", 3), ("wolsztyn", "zolo", 2),
    ("wolsztyn", "zolo_du", 2),
    ("koscian", "normal", 5), ("koscian", "wesele", 5), ("koscian", "cicha", 3), ("koscian", "zolo", 3),
    ("koscian", "zolo_du", 3),
])
def test_max_doublings_per_preset_and_contract(preset: str, contract: str, limit: int) -> None:
    old = [ANNA] if contract in kop.LONE else [ANNA, CLARA]
    points, tricks = (104, 4) if contract == "zolo_du" else (61, 2)
    calls = [BERND, ANNA] * 3
    deal = {"contract": contract, "old": old, "card_points": points, "old_tricks": tricks}
    at_limit = verdict(preset, **deal, doublings=calls[:limit])
    assert at_limit["counted_doublings"] == limit
    assert rejected_field(preset, **deal, doublings=calls[:limit + 1]) == "deal.doublings"


def test_ignored_calls_do_not_count_against_the_limit() -> None:
    v = lone("zolo", 61, doublings=(BERND, CLARA, ANNA), rules="wolsztyn")
    assert v["counted_doublings"] == 2


# --- the 52–52 tie -----------------------------------------------------------------------------

@pytest.mark.parametrize(("preset", "contract", "doublings", "won"), [
    pytest.param("classic", "normal", (), False, id="no-doubling-old-loses"),
    pytest.param("classic", "normal", (BERND,), True, id="young-doubled-last-young-loses"),
    pytest.param("classic", "normal", (BERND, ANNA), False, id="old-doubled-last-old-loses"),
    pytest.param("classic", "normal", (BERND, ANNA, CLARA), False, id="ignored-call-is-not-the-last-counted"),
    pytest.param("classic", "cicha", (BERND,), False, id="classic-lone-player-loses-whoever-doubled"),
    pytest.param("classic", "zolo", (), False, id="classic-lone-player-loses-without-doubling"),
    pytest.param("wolsztyn", "cicha", (BERND,), True, id="wolsztyn-young-doubled-last-lone-wins"),
    pytest.param("koscian", "zolo", (BERND, ANNA), False, id="koscian-lone-doubled-last-loses"),
    pytest.param("koscian", "zolo", (), False, id="koscian-no-doubling-lone-loses"),
    pytest.param({"preset": "wolsztyn", "tie_lone_loses": True}, "cicha", (BERND,), False,
                 id="tie-lone-loses-as-house-rule"),
    pytest.param({"preset": "classic", "tie_lone_loses": False}, "cicha", (BERND,), True,
                 id="tie-lone-loses-switched-off"),
    pytest.param({"preset": "classic", "tie_lone_loses": True}, "normal", (BERND,), True,
                 id="tie-lone-loses-leaves-two-against-two-alone"),
])
def test_tie_at_52(preset: object, contract: str, doublings: tuple[int, ...], won: bool) -> None:
    old = [ANNA] if contract in kop.LONE else [ANNA, CLARA]
    v = verdict(preset, contract=contract, old=old, card_points=52, old_tricks=2, doublings=list(doublings))
    assert v["won"] is won
    assert any("52–52" in line for line in v["explanation"])


def test_tie_in_zolo_du_is_simply_lost() -> None:
    assert lone("zolo_du", 52, 2, doublings=(BERND,), rules="wolsztyn")["won"] is False


# --- options -----------------------------------------------------------------------------------

CLASSIC_JSON = {
    "preset": "classic",
    "base_no_trick": 2,
    "solo_scoring": "times_base",
    "solo_factors": {"cicha": 4, "zolo": 5, "zolo_du": 10},
    "max_doublings": {"normal": 4, "wesele": 4, "cicha": 4, "zolo": 4, "zolo_du": 4},
    "tie_lone_loses": True,
    "trump_order": ["HA", "H10", "CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ", "DA", "D10"],
    "round_placing": None,
}
TOURNAMENT_TRUMPS = ["HA", "C10", "S10", "H10", "CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ", "DA", "D10"]


@pytest.mark.parametrize(("preset", "expected"), [
    pytest.param("classic", CLASSIC_JSON, id="classic"),
    pytest.param("wolsztyn", {
        "preset": "wolsztyn", "base_no_trick": 3, "solo_scoring": "flat",
        "solo_factors": {"cicha": 4, "zolo": 5, "zolo_du": 10},
        "max_doublings": {"normal": 4, "wesele": 4, "cicha": 3, "zolo": 2, "zolo_du": 2},
        "tie_lone_loses": False, "trump_order": TOURNAMENT_TRUMPS, "round_placing": [4, 3, 2, 1]}, id="wolsztyn"),
    pytest.param("koscian", {
        "preset": "koscian", "base_no_trick": 3, "solo_scoring": "flat",
        "solo_factors": {"cicha": 4, "zolo": 5, "zolo_du": 10},
        "max_doublings": {"normal": 5, "wesele": 5, "cicha": 3, "zolo": 3, "zolo_du": 3},
        "tie_lone_loses": False, "trump_order": TOURNAMENT_TRUMPS, "round_placing": [5, 3, 1, 0]}, id="koscian"),
])
def test_verdict_names_every_option_of_the_preset(preset: str, expected: dict) -> None:
    assert normal(61, 2, rules=preset)["rules"] == expected


def test_default_preset_is_classic() -> None:
    assert normal(61)["rules"] == CLASSIC_JSON


@pytest.mark.parametrize("preset", kop.PRESETS)
def test_rules_json_read_back_gives_the_same_rule_set(preset: str) -> None:
    rules = kop.parse_rules({"preset": preset})
    assert kop.parse_rules(kop.rules_json(rules)) == rules
    hash(rules)


def test_base_no_trick_override() -> None:
    v = normal(104, 4, rules={"preset": "classic", "base_no_trick": 4})
    assert (v["value"], v["base"]) == (4, 4)
    assert any("(rule set Classic: Base when the losers took no trick)" in line for line in v["explanation"])


def test_base_no_trick_does_not_touch_a_side_with_a_trick() -> None:
    assert normal(80, 3, rules="wolsztyn")["value"] == 2


def test_solo_scoring_flat_under_classic_uses_the_factor_alone() -> None:
    assert lone("zolo", 92, rules={"preset": "classic", "solo_scoring": "flat"})["value"] == 5


def test_solo_scoring_times_base_under_wolsztyn_uses_base_no_trick() -> None:
    v = lone("zolo_du", 104, 4, rules={"preset": "wolsztyn", "solo_scoring": "times_base"})
    assert (v["base"], v["value"]) == (3, 30)


def test_solo_factors_partial_override_keeps_the_others() -> None:
    rules = {"preset": "wolsztyn", "solo_factors": {"zolo": 6}}
    v = lone("zolo", 61, rules=rules)
    assert v["value"] == 6
    assert v["rules"]["solo_factors"] == {"cicha": 4, "zolo": 6, "zolo_du": 10}
    assert lone("cicha", 61, rules=rules)["value"] == 4


def test_max_doublings_integer_applies_to_every_contract_and_reads_back_as_object() -> None:
    rules = {"preset": "koscian", "max_doublings": 1}
    v = normal(80, 3, doublings=(BERND,), rules=rules)
    assert v["rules"]["max_doublings"] == {"normal": 1, "wesele": 1, "cicha": 1, "zolo": 1, "zolo_du": 1}
    assert rejected_field(rules, contract="cicha", old=[0], card_points=80, doublings=[1, 0]) == "deal.doublings"


def test_max_doublings_object_override_keeps_the_preset_for_the_rest() -> None:
    rules = {"preset": "wolsztyn", "max_doublings": {"zolo": 5}}
    v = lone("zolo", 61, doublings=(BERND, ANNA, BERND, ANNA, BERND), rules=rules)
    assert v["value"] == 5 * 32
    assert v["rules"]["max_doublings"] == {"normal": 4, "wesele": 4, "cicha": 3, "zolo": 5, "zolo_du": 2}


def test_max_doublings_zero_forbids_doubling() -> None:
    rules = {"preset": "classic", "max_doublings": 0}
    assert normal(61, rules=rules)["value"] == 1
    assert rejected_field(rules, contract="normal", old=[0, 2], card_points=61, doublings=[1]) == "deal.doublings"


def test_trump_order_is_for_play_checks_only() -> None:
    rules = {"preset": "classic", "trump_order": TOURNAMENT_TRUMPS}
    v = normal(61, doublings=(BERND,), rules=rules)
    assert v["rules"]["trump_order"] == TOURNAMENT_TRUMPS
    assert (v["value"], v["scores"]) == (2, [2, -2, 2, -2])


def test_round_placing_is_for_the_ledger_only() -> None:
    v = normal(61, 2, rules={"preset": "wolsztyn", "round_placing": [6, 4, 2, 0]})
    assert v["rules"]["round_placing"] == [6, 4, 2, 0]
    assert v["value"] == 1
    assert normal(61, 2, rules={"preset": "koscian", "round_placing": None})["rules"]["round_placing"] is None


@pytest.mark.parametrize(("rules", "field"), [
    pytest.param({"preset": "skat"}, "rules.preset", id="unknown-preset"),
    pytest.param({"bock": True}, "rules.bock", id="unknown-option"),
    pytest.param({"base_no_trick": 0}, "rules.base_no_trick", id="base-no-trick-zero"),
    pytest.param({"base_no_trick": True}, "rules.base_no_trick", id="base-no-trick-boolean"),
    pytest.param({"solo_scoring": "double"}, "rules.solo_scoring", id="solo-scoring-unknown"),
    pytest.param({"solo_factors": 4}, "rules.solo_factors", id="solo-factors-number"),
    pytest.param({"solo_factors": {"normal": 2}}, "rules.solo_factors.normal", id="solo-factors-normal"),
    pytest.param({"solo_factors": {"zolo": 0}}, "rules.solo_factors.zolo", id="solo-factors-zero"),
    pytest.param({"max_doublings": "4"}, "rules.max_doublings", id="max-doublings-text"),
    pytest.param({"max_doublings": -1}, "rules.max_doublings", id="max-doublings-negative"),
    pytest.param({"max_doublings": {"bettel": 1}}, "rules.max_doublings.bettel", id="max-doublings-unknown"),
    pytest.param({"max_doublings": {"zolo": None}}, "rules.max_doublings.zolo", id="max-doublings-null"),
    pytest.param({"tie_lone_loses": 1}, "rules.tie_lone_loses", id="tie-lone-loses-number"),
    pytest.param({"trump_order": ["HA"] * 12}, "rules.trump_order.1", id="trump-order-duplicate"),
    pytest.param({"trump_order": ["HK"] + TOURNAMENT_TRUMPS[1:]}, "rules.trump_order.0", id="trump-order-king"),
    pytest.param({"trump_order": TOURNAMENT_TRUMPS[:13]}, "rules.trump_order", id="trump-order-13"),
    pytest.param({"round_placing": [1, 2, 3, 4]}, "rules.round_placing.1", id="round-placing-rising"),
    pytest.param({"round_placing": [4, 3, 2]}, "rules.round_placing", id="round-placing-three"),
    pytest.param({"round_placing": [4, 3, 2, -1]}, "rules.round_placing.3", id="round-placing-negative"),
    pytest.param({"round_placing": "4 3 2 1"}, "rules.round_placing", id="round-placing-text"),
])
def test_bad_options_are_rejected(rules: object, field: str) -> None:
    assert rejected_field(rules, contract="normal", old=[0, 2], card_points=61) == field


def test_rules_must_be_an_object() -> None:
    req = request(None, contract="normal", old=[0, 2], card_points=61)
    req["rules"] = ["classic"]
    assert adjudicate(req)["errors"][0]["field"] == "rules"


# --- rejections (ADJUDICATION.md) --------------------------------------------------------------

@pytest.mark.parametrize(("rules", "deal", "field"), [
    pytest.param(None, {"contract": "baska", "old": [0, 2], "card_points": 61}, "deal.contract",
                 id="unknown-contract"),
    pytest.param(None, {"old": [0, 2], "card_points": 61}, "deal.contract", id="no-contract"),
    pytest.param(None, {"contract": "normal", "old": [0, 2], "card_points": 61, "tricks": 2}, "deal.tricks",
                 id="unknown-field"),
    pytest.param(None, {"contract": "normal", "card_points": 61}, "deal.old", id="no-old-side"),
    pytest.param(None, {"contract": "normal", "old": [0], "card_points": 61}, "deal.old",
                 id="normal-with-one-old-player"),
    pytest.param(None, {"contract": "wesele", "old": [0, 1, 2], "card_points": 61}, "deal.old",
                 id="wesele-with-three"),
    pytest.param(None, {"contract": "zolo", "old": [0, 2], "card_points": 61}, "deal.old",
                 id="zolo-with-two-old-players"),
    pytest.param(None, {"contract": "zolo", "old": 0, "card_points": 61}, "deal.old", id="old-not-a-list"),
    pytest.param(None, {"contract": "normal", "old": [2, 2], "card_points": 61}, "deal.old.1",
                 id="old-seat-twice"),
    pytest.param(None, {"contract": "normal", "old": [0, 4], "card_points": 61}, "deal.old.1",
                 id="old-seat-out-of-range"),
    pytest.param(None, {"contract": "normal", "old": [0, 2]}, "deal.card_points", id="no-card-points"),
    pytest.param(None, {"contract": "normal", "old": [0, 2], "card_points": 105}, "deal.card_points",
                 id="points-over-the-pack"),
    pytest.param(None, {"contract": "normal", "old": [0, 2], "card_points": -1}, "deal.card_points",
                 id="negative-points"),
    pytest.param(None, {"contract": "normal", "old": [0, 2], "card_points": 61.0}, "deal.card_points",
                 id="points-not-whole"),
    pytest.param(None, {"contract": "normal", "old": [0, 2], "card_points": 30, "old_tricks": 0},
                 "deal.card_points", id="no-trick-but-30-points"),
    pytest.param(None, {"contract": "normal", "old": [0, 2], "card_points": 20, "old_tricks": 0},
                 "deal.old_tricks", id="no-trick-but-20-points"),
    pytest.param(None, {"contract": "normal", "old": [0, 2], "card_points": 80, "old_tricks": 4},
                 "deal.old_tricks", id="all-tricks-without-all-points"),
    pytest.param(None, {"contract": "normal", "old": [0, 2], "card_points": 8, "old_tricks": 2},
                 "deal.old_tricks", id="two-tricks-cannot-hold-8"),
    pytest.param(None, {"contract": "normal", "old": [0, 2], "card_points": 61, "old_tricks": 5},
                 "deal.old_tricks", id="five-tricks"),
    pytest.param(None, {"contract": "zolo_du", "old": [0], "card_points": 104}, "deal.old_tricks",
                 id="zolo-du-needs-tricks"),
    pytest.param("wolsztyn", {"contract": "normal", "old": [0, 2], "card_points": 61}, "deal.old_tricks",
                 id="wolsztyn-values-a-trickless-side"),
    pytest.param({"preset": "classic", "base_no_trick": 3}, {"contract": "zolo", "old": [0], "card_points": 61},
                 "deal.old_tricks", id="times-base-with-base-no-trick-3"),
    pytest.param(None, {"contract": "normal", "old": [0, 2], "card_points": 61, "doublings": [1, 1]},
                 "deal.doublings.1", id="same-seat-twice-in-a-row"),
    pytest.param(None, {"contract": "cicha", "old": [2], "card_points": 61, "doublings": [2]},
                 "deal.doublings.0", id="lone-player-calls-first-cicha"),
    pytest.param(None, {"contract": "zolo", "old": [2], "card_points": 61, "doublings": [2, 1]},
                 "deal.doublings.0", id="lone-player-calls-first-zolo"),
    pytest.param(None, {"contract": "zolo_du", "old": [1], "card_points": 104, "old_tricks": 4,
                        "doublings": [1]}, "deal.doublings.0", id="lone-player-calls-first-zolo-du"),
    pytest.param(None, {"contract": "normal", "old": [0, 2], "card_points": 61, "doublings": [1, 0, 1, 0, 1]},
                 "deal.doublings", id="five-counted-under-classic"),
    pytest.param(None, {"contract": "normal", "old": [0, 2], "card_points": 61, "doublings": [1, 4]},
                 "deal.doublings.1", id="doubling-seat-out-of-range"),
    pytest.param(None, {"contract": "normal", "old": [0, 2], "card_points": 61, "doublings": 2},
                 "deal.doublings", id="doublings-as-a-count"),
    pytest.param(None, [], "deal", id="deal-not-an-object"),
])
def test_contradictions_are_rejected(rules: object, deal: object, field: str) -> None:
    req = request(rules)
    req["deal"] = deal
    answer = adjudicate(req)
    assert answer["ok"] is False, answer
    assert answer["errors"][0]["field"] == field


def test_kop_is_played_at_four_seats() -> None:
    req = request(None, contract="normal", old=[0, 2], card_points=61)
    req["players"] = 3
    assert adjudicate(req)["errors"][0]["field"] == "players"


def test_rejection_says_what_is_possible() -> None:
    answer = adjudicate(request(None, contract="normal", old=[0, 2], card_points=30, old_tricks=0))
    assert "29 and 32" in answer["errors"][0]["message"]
    answer = adjudicate(request(None, contract="normal", old=[0, 2], card_points=20, old_tricks=0))
    assert "1 or 2" in answer["errors"][0]["message"]


def test_unused_values_pass() -> None:
    v = verdict(None, contract="normal", old=[0, 2], card_points=61, old_tricks=None, doublings=[])
    assert v["value"] == 1


# --- explanation and public shape --------------------------------------------------------------

def test_explanation_lets_the_table_check_the_number() -> None:
    v = lone("zolo", 92, 3, doublings=(BERND, ANNA, CLARA))
    assert v["explanation"] == [
        "zolo: seat 0 alone took 92 card points, the three others 12: seat 0 wins (53 needed)",
        "call 1: seat 1 (young side) says Kontra: counted, 1 so far",
        "call 2: seat 0 (old side) says Re: counted, 2 so far",
        "call 3: seat 2 (young side) says Bok: counted, 3 so far",
        "base 2: the losing young side took 12 card points, 25 or fewer",
        "zolo: base 2 × 5 = 10 (rule set Classic: Lone games are scored: base × factor; Lone game factors)",
        "each counted call doubles: 10 × 2³ = 80",
        "value 80: seat 0 receives it from each of the three others, 240 in all",
    ]
    assert v["scores"] == [240, -80, -80, -80]


def test_explanation_names_seats_so_a_page_can_write_the_players() -> None:
    deal = {"contract": "normal", "old": [ANNA, CLARA], "card_points": 61, "doublings": [BERND]}
    result = judge(request(None, **deal))
    names = ["Anna", "Bernd", "Clara", "Dieter"]
    lines = result.explain(lambda seat: names[seat])
    assert lines[0].startswith("normal game: the old side (Anna and Clara) took 61 card points")
    assert lines[1] == "call 1: Bernd (young side) says Kontra: counted, 1 so far"


def test_a_page_can_name_the_players_and_translate_the_vocabulary() -> None:
    """Steps keep seats and game words (contracts, sides, won/lost) as values, so a page writes names
    and its own language."""
    names = ["Anna", "Bernd", "Clara", "Dieter"].__getitem__
    polish = {"normal game": "gra zwykła", "old": "stara", "young": "młoda", "zolo du": "zolo du", "won": "wygrane"}
    normal = judge(request(None, contract="normal", old=[ANNA, CLARA], card_points=61, doublings=[BERND]))
    lines = normal.explain(names, lambda text: polish.get(text, text))
    assert lines[0] == ("gra zwykła: the old side (Anna and Clara) took 61 card points, the young side (the other "
                        "two) 43: the stara side wins (53 needed)")
    assert lines[1] == "call 1: Bernd (młoda side) says Kontra: counted, 1 so far"
    zolo_du = judge(request(None, contract="zolo_du", old=[BERND], card_points=104, old_tricks=4))
    assert zolo_du.explain(names, lambda text: polish.get(text, text))[0].endswith("so it is wygrane")
    assert zolo_du.explanation[0].endswith("so it is won")  # the contract's English


def test_public_shape() -> None:
    assert kop.SEATS == (4,) and kop.DEFAULT_SEATS == 4 and kop.DEFAULT_PRESET == "classic"
    assert set(kop.PRESETS) == {"classic", "wolsztyn", "koscian"}
    assert all(set(options) == set(kop.OPTIONS) for options in kop.PRESETS.values())
    assert all(getattr(kop.OPTIONS[key], "kind", None) for key in kop.OPTIONS)
    rules = kop.parse_rules(None)
    assert kop.contracts(rules) == ("normal", "wesele", "cicha", "zolo", "zolo_du")
    table = Table(4, 3)
    for contract in kop.contracts(rules):
        assert kop.deal_fields(contract, rules, table) == ("old", "card_points", "old_tricks", "doublings")
    deal = kop.parse_deal({"contract": "zolo", "old": [1], "card_points": 61}, rules, table)
    assert isinstance(kop.score(deal, rules, table), Verdict)


# --- properties --------------------------------------------------------------------------------

JSON_LEAF = st.none() | st.booleans() | st.integers(-3, 110) | st.text(max_size=4) | st.floats(allow_nan=False)
ANY_JSON = st.recursive(JSON_LEAF, lambda inner: st.lists(inner, max_size=5)
                        | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)
CONTRACT = st.sampled_from(list(kop.CONTRACTS))
SEAT = st.integers(0, 3)
POINTS = sorted(kop.POSSIBLE_TOTALS)
HOUSE_RULES = {
    "base_no_trick": st.integers(1, 5),
    "solo_scoring": st.sampled_from(["times_base", "flat"]),
    "solo_factors": st.dictionaries(st.sampled_from(["cicha", "zolo", "zolo_du"]), st.integers(1, 12)),
    "max_doublings": st.integers(0, 6) | st.dictionaries(CONTRACT, st.integers(0, 6)),
    "tie_lone_loses": st.booleans(),
}
RULES = st.sampled_from(list(kop.PRESETS)).flatmap(
    lambda preset: st.fixed_dictionaries({"preset": st.just(preset)}, optional=HOUSE_RULES))
WELL_TYPED_DEAL = st.fixed_dictionaries({
    "contract": CONTRACT,
    "old": st.lists(SEAT, min_size=1, max_size=2),
    "card_points": st.integers(0, 104),
}, optional={
    "old_tricks": st.integers(0, 4),
    "doublings": st.lists(SEAT, max_size=7),
})


@st.composite
def plausible_deals(draw: st.DrawFn, contracts: tuple[str, ...] = tuple(kop.CONTRACTS)) -> dict:
    """Deals a table could declare: the right number of old seats, points that whole tricks can make,
    tricks that fit them (always for zolo du, else sometimes), no seat calling twice in a row."""
    contract = draw(st.sampled_from(contracts))
    seats = draw(st.permutations(range(4)))
    points = draw(st.sampled_from(POINTS))
    calls = draw(st.lists(SEAT, max_size=6))
    deal = {"contract": contract, "old": seats[:1] if contract in kop.LONE else sorted(seats[:2]),
            "card_points": points, "doublings": [c for i, c in enumerate(calls) if i == 0 or c != calls[i - 1]]}
    if contract == "zolo_du" or draw(st.booleans()):
        deal["old_tricks"] = draw(st.sampled_from([t for t, totals in enumerate(kop.TOTALS_BY_TRICKS)
                                                    if points in totals]))
    return deal


@given(rules=RULES, deal=WELL_TYPED_DEAL)
def test_well_typed_requests_give_a_verdict_or_an_illegal_deal(rules: dict, deal: dict) -> None:
    try:
        result = judge({"game": "kop", "rules": rules, "deal": deal})
    except IllegalDeal as err:
        assert err.field.startswith(("deal", "rules")) and err.message
        return
    assert isinstance(result, Verdict)


@given(deal=st.dictionaries(st.sampled_from(["contract", "old", "card_points", "old_tricks", "doublings", "x"]),
                            ANY_JSON | CONTRACT), rules=ANY_JSON)
def test_any_json_gives_a_verdict_or_a_rejection(deal: dict, rules: object) -> None:
    answer = adjudicate({"game": "kop", "rules": rules, "deal": deal})
    assert answer["ok"] in (True, False)
    if answer["ok"] is False:
        assert answer["errors"][0]["field"] and answer["errors"][0]["message"]


@given(rules=RULES, deal=plausible_deals())
def test_payments_sum_to_zero_and_each_loser_pays_the_value(rules: dict, deal: dict) -> None:
    try:
        result = judge({"game": "kop", "rules": rules, "deal": deal})
    except IllegalDeal as err:
        # Plausible deals are refused only for the doubling rules or missing tricks.
        assert err.field.startswith(("deal.doublings", "deal.old_tricks")), err
        return
    assert sum(result.scores) == 0
    assert result.value > 0
    lone_seat = deal["old"][0] if deal["contract"] in kop.LONE else None
    for seat, entry in enumerate(result.scores):
        on_old_side = seat in deal["old"]
        assert (entry > 0) is (on_old_side is result.won)
        assert abs(entry) == result.value * (3 if seat == lone_seat else 1)


@given(deal=plausible_deals(("normal", "wesele", "cicha", "zolo")), rules=RULES, more=st.sampled_from(POINTS))
def test_more_card_points_never_turn_a_win_into_a_loss(deal: dict, rules: dict, more: int) -> None:
    fewer = adjudicate({"game": "kop", "rules": rules, "deal": deal})
    assume(fewer["ok"])
    richer_deal = {**deal, "card_points": max(more, deal["card_points"])}
    if "old_tricks" in deal:
        richer_deal["old_tricks"] = min(t for t, totals in enumerate(kop.TOTALS_BY_TRICKS)
                                        if richer_deal["card_points"] in totals)
    richer = adjudicate({"game": "kop", "rules": rules, "deal": richer_deal})
    assert richer["ok"], richer
    assert richer["won"] or not fewer["won"]


@given(rules=RULES, deal=plausible_deals())
def test_each_counted_doubling_doubles_the_value(rules: dict, deal: dict) -> None:
    try:
        doubled = judge({"game": "kop", "rules": rules, "deal": deal})
    except IllegalDeal:
        doubled = None
    assume(doubled is not None)  # an impossible deal is no example of the rule
    assert doubled is not None
    plain = judge({"game": "kop", "rules": rules, "deal": {**deal, "doublings": []}})
    assert doubled.value == plain.value << doubled.extra["counted_doublings"]
    if deal["card_points"] != 52:
        assert doubled.won is plain.won


def test_tricks_for_names_the_trick_counts_the_points_allow() -> None:
    assert kop.tricks_for(0) == (0,) and kop.tricks_for(104) == (4,) and kop.tricks_for(8) == (1,)
    assert kop.tricks_for(60) == (2, 3) and kop.tricks_for(30) == ()


def test_every_trick_count_tricks_for_offers_is_one_the_engine_accepts() -> None:
    for points in range(105):
        for tricks in kop.tricks_for(points):
            verdict = adjudicate({"game": "kop", "rules": {"preset": "wolsztyn"}, "deal": {
                "contract": "normal", "old": [0, 2], "card_points": points, "old_tricks": tricks}})
            assert verdict["ok"], (points, tricks, verdict)
