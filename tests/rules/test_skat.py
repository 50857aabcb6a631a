"""Skat scoring: rule-book examples, every option of both presets, rejections, invariants."""

import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorekeep.rules import IllegalDeal, adjudicate, judge, skat
from tests.rules import vectors

ISKO = {"preset": "isko"}
CLASSIC = {"preset": "classic"}


def verdict(deal: dict, rules: dict | None = None, players: int = 3, dealer: int | None = None) -> dict:
    request = {"game": "skat", "deal": deal, "players": players}
    if rules is not None:
        request["rules"] = rules
    if dealer is not None:
        request["dealer"] = dealer
    result = adjudicate(request)
    assert result["ok"], result
    return result


def rejection(deal: dict, rules: dict | None = None, players: int = 3, dealer: int | None = None) -> dict:
    request = {"game": "skat", "deal": deal, "players": players, "rules": rules or ISKO}
    if dealer is not None:
        request["dealer"] = dealer
    result = adjudicate(request)
    assert result["ok"] is False, result
    (error,) = result["errors"]
    return error


def game(contract: str = "clubs", **facts: object) -> dict:
    return {"contract": contract, "declarer": 0, "bid": 18, **facts}


@pytest.mark.parametrize("vector", vectors.load("skat"))
def test_public_vector(vector: dict) -> None:
    vectors.check(vector, adjudicate(vector["input"]))


# --- game values (ISkO 4) ----------------------------------------------------------------------

@pytest.mark.parametrize("deal, rules, value, entry", [
    pytest.param(game("clubs", matadors=1, card_points=61), ISKO, 24, 24, id="clubs-with-1-is-24"),
    pytest.param(game("spades", matadors=-2, hand=True, bid=44, card_points=70), ISKO, 44, 44,
                 id="spades-without-2-hand-is-44"),
    pytest.param(game("grand", matadors=2, hand=True, bid=120, card_points=95), ISKO, 120, 120,
                 id="grand-hand-with-2-schneider-is-120"),
    pytest.param(game("grand", matadors=4, hand=True, announced="schneider", bid=216, card_points=120,
                      declarer_tricks=10), ISKO, 216, 216, id="grand-hand-with-4-schneider-announced-schwarz-216"),
    pytest.param(game("grand", matadors=1, hand=True, ouvert=True, bid=192, card_points=120), ISKO, 192, 192,
                 id="grand-ouvert-with-1-isko-is-192"),
    pytest.param(game("hearts", matadors=2, bid=30, card_points=55), ISKO, 30, -60, id="hearts-lost-after-pickup"),
    pytest.param(game("clubs", matadors=-11, card_points=61), ISKO, 144, 144, id="without-11-is-possible"),
    pytest.param(game("diamonds", matadors=11, card_points=120, declarer_tricks=10, bid=126), ISKO, 126, 126,
                 id="diamonds-with-11-schwarz-is-14x9"),
])
def test_game_value(deal: dict, rules: dict, value: int, entry: int) -> None:
    result = verdict(deal, rules)
    assert (result["value"], result["scores"][0]) == (value, entry)


@pytest.mark.parametrize("hand, ouvert, value", [(False, False, 23), (True, False, 35), (False, True, 46),
                                                 (True, True, 59)])
def test_null_values_are_fixed(hand: bool, ouvert: bool, value: int) -> None:
    result = verdict(game("null", bid=23, hand=hand, ouvert=ouvert, declarer_tricks=0), ISKO)
    assert result["value"] == value and result["scores"][0] == value and result["won"] is True


def test_null_lost_by_one_trick_counts_double_under_isko() -> None:
    assert verdict(game("null", bid=23, declarer_tricks=1), ISKO)["scores"][0] == -46


def test_null_worth_less_than_the_bid_cannot_be_announced() -> None:
    assert rejection(game("null", bid=24, declarer_tricks=0))["field"] == "deal.bid"


def test_sixty_card_points_lose() -> None:
    assert verdict(game("clubs", matadors=1, card_points=60), ISKO)["won"] is False
    assert verdict(game("clubs", matadors=1, card_points=61), ISKO)["won"] is True


def test_schneider_announced_needs_ninety() -> None:
    deal = game("clubs", matadors=1, hand=True, announced="schneider", bid=60)
    assert verdict({**deal, "card_points": 89}, ISKO)["won"] is False
    won = verdict({**deal, "card_points": 90}, ISKO)
    assert won["won"] is True and won["value"] == 60  # 1 + game + hand + schneider + announced = 5 × 12


def test_schwarz_announced_needs_every_trick() -> None:
    deal = game("grand", matadors=1, hand=True, announced="schwarz", bid=168)
    lost = verdict({**deal, "card_points": 120, "declarer_tricks": 9}, ISKO)
    assert lost["won"] is False and lost["value"] == 168 and lost["scores"][0] == -336
    assert verdict({**deal, "card_points": 120}, ISKO)["won"] is True  # 120 points taken as all tricks


def test_a_lost_announcement_counts_its_levels_once() -> None:
    """ISkO 4.1.4: schneider announced and missed still counts schneider and the announcement."""
    result = verdict(game("hearts", matadors=3, hand=True, announced="schneider", bid=70, card_points=85), ISKO)
    assert result["levels"] == ["hand", "schneider", "schneider announced"] and result["value"] == 70


@pytest.mark.parametrize("bid, charged", [(30, 36), (33, 36), (36, 36), (46, 54)])
def test_overbid_game_is_charged_at_the_next_multiple_of_the_base(bid: int, charged: int) -> None:
    result = verdict(game("diamonds", matadors=-1, card_points=90, bid=bid), ISKO)
    assert result["overbid"] is True and result["won"] is False
    assert result["value"] == charged and result["scores"][0] == -2 * charged


def test_an_overbid_game_states_the_multiplier_it_was_charged_at() -> None:
    """Spades with 1: × 2 as played (22); bid 36, charged at the next multiple 44 = 11 × 4 (ISkO 4.4)."""
    result = verdict(game("spades", matadors=1, card_points=70, bid=36), ISKO)
    assert (result["multiplier"], result["charged_multiplier"], result["value"]) == (2, 4, 44)
    assert verdict(game("spades", matadors=1, card_points=70, bid=18), ISKO)["charged_multiplier"] == 2


def test_schneider_can_rescue_a_game_from_being_overbid() -> None:
    result = verdict(game("clubs", matadors=1, card_points=95, bid=36), ISKO)  # 1 + 1 + schneider = 3 × 12
    assert result["won"] is True and result["value"] == 36 and result["overbid"] is False


# --- options --------------------------------------------------------------------------------------

def test_declarer_schneider_adds_a_level_after_pickup_in_both_presets() -> None:
    for rules in (ISKO, CLASSIC):
        result = verdict(game("diamonds", matadors=1, card_points=25), rules)
        assert result["value"] == 27 and result["scores"][0] == -54


def test_declarer_schwarz_in_a_hand_game_adds_levels_only_under_isko() -> None:
    deal = game("diamonds", matadors=1, hand=True, bid=27, card_points=0, declarer_tricks=0)
    assert verdict(deal, ISKO)["value"] == 45  # 1 + game + hand + schneider + schwarz = 5 × 9
    assert verdict(deal, CLASSIC)["value"] == 27
    assert verdict(deal, {"preset": "classic", "reverse_levels": "always"})["value"] == 45


def test_lost_hand_game_counts_single_under_classic_and_double_under_isko() -> None:
    deal = game("clubs", matadors=1, hand=True, bid=36, card_points=50)
    assert verdict(deal, CLASSIC)["scores"][0] == -36
    assert verdict(deal, ISKO)["scores"][0] == -72
    assert verdict(deal, {"preset": "classic", "lost_hand_doubled": True})["scores"][0] == -72


def test_conceded_game_is_charged_single_or_double_by_option() -> None:
    deal = game("hearts", matadors=1, bid=20, conceded=True, card_points=40)
    assert verdict(deal, CLASSIC)["scores"][0] == -20
    assert verdict(deal, ISKO)["scores"][0] == -40
    assert verdict({**deal, "card_points": None}, ISKO)["won"] is False  # card points optional when conceded


def test_classic_ouvert_adds_one_level_without_needing_hand() -> None:
    result = verdict(game("clubs", matadors=2, ouvert=True, bid=48, card_points=75), CLASSIC)
    assert result["won"] is True and result["value"] == 48


def test_isko_ouvert_needs_hand_and_every_trick() -> None:
    assert rejection(game("clubs", matadors=1, ouvert=True, card_points=120))["field"] == "deal.ouvert"
    lost = verdict(game("clubs", matadors=1, hand=True, ouvert=True, bid=96, card_points=119 - 9,
                        declarer_tricks=9), ISKO)
    assert lost["won"] is False and lost["value"] == 96  # (1 + 1 + 6 levels) × 12


def test_grand_ouvert_fixed_value_under_classic() -> None:
    result = verdict(game("grand", matadors=4, hand=True, ouvert=True, bid=36, card_points=120), CLASSIC)
    assert result["value"] == 36
    assert rejection(game("grand", matadors=1, ouvert=True, bid=48, card_points=80), CLASSIC)["field"] == "deal.bid"
    computed = verdict(game("grand", matadors=1, ouvert=True, bid=72, card_points=80),
                       {"preset": "classic", "grand_ouvert_fixed": None})
    assert computed["value"] == 72  # (1 + game + ouvert) × 24


def test_announcing_without_hand_needs_the_house_rule() -> None:
    deal = game("clubs", matadors=1, announced="schneider", bid=48, card_points=95)
    assert rejection(deal, CLASSIC)["field"] == "deal.announced"
    assert verdict(deal, {"preset": "classic", "announce_needs_hand": False})["value"] == 48


def test_kontra_and_re_double_the_entry_where_the_rule_set_has_them() -> None:
    deal = game("clubs", matadors=1, bid=24, card_points=50, kontra=True, re=True)
    assert verdict(deal, CLASSIC)["scores"][0] == -24 * 2 * 2 * 2
    assert rejection(deal, ISKO)["field"] == "deal.kontra"
    assert rejection({**deal, "kontra": False}, CLASSIC)["field"] == "deal.re"


def test_bock_doubles_where_the_rule_set_has_bock() -> None:
    deal = game("clubs", matadors=1, bid=24, card_points=70, bock=True)
    assert rejection(deal, ISKO)["field"] == "deal.bock"
    assert verdict(deal, {"preset": "isko", "bock": True})["scores"][0] == 48


def test_kontra_re_and_bock_leave_seeger_fabian_alone() -> None:
    result = verdict(game("clubs", matadors=1, bid=24, card_points=50, kontra=True, re=True), CLASSIC)
    assert result["seeger_fabian"] == [-50, 40, 40]


# --- seats ----------------------------------------------------------------------------------------

def test_four_seats_the_sitting_dealer_gets_thirty_when_the_declarer_loses() -> None:
    result = verdict(game("clubs", matadors=1, card_points=40), ISKO, players=4, dealer=0 + 3)
    assert result["scores"] == [-48, 0, 0, 0] and result["seeger_fabian"] == [-50, 30, 30, 30]


def test_the_sitting_dealer_cannot_declare() -> None:
    error = rejection({**game("clubs", matadors=1, card_points=70), "declarer": 2}, players=4, dealer=2)
    assert error["field"] == "deal.declarer"


# --- matadors from the cards ----------------------------------------------------------------------

@pytest.mark.parametrize("contract, cards, matadors", [
    ("grand", ["CJ", "SJ", "HJ", "DJ", "CA", "C10", "SA", "S10", "HA", "H10", "DA", "D7"], 4),
    ("grand", ["SJ", "HJ", "DJ", "CA", "C10", "CK", "SA", "S10", "HA", "H10", "DA", "D7"], -1),
    ("clubs", ["CJ", "SJ", "HJ", "DJ", "CA", "C10", "CK", "CQ", "C9", "C8", "C7", "D7"], 11),
    ("hearts", ["DJ", "H9", "H8", "H7", "CA", "C10", "CK", "CQ", "C9", "C8", "C7", "D7"], -3),
    ("diamonds", ["DK", "DQ", "D9", "D8", "CA", "C10", "SA", "S10", "HA", "H10", "HK", "CK"], -6),
    ("spades", ["SJ", "HJ", "DJ", "CA", "C10", "CK", "CQ", "C9", "C8", "C7", "D7", "D8"], -1),
], ids=["grand-with-4", "grand-without-1", "clubs-with-11", "hearts-without-3", "diamonds-without-6",
        "spades-without-1"])
def test_matadors_are_counted_from_the_cards(contract: str, cards: list, matadors: int) -> None:
    result = verdict(game(contract, cards=cards, card_points=61, bid=18), ISKO)
    assert result["matadors"] == matadors


@pytest.mark.parametrize("cards", [
    ["CJ"] * 12,
    ["CJ", "SJ", "HJ", "DJ", "CA", "C10", "SA", "S10", "HA", "H10", "DA"],
    ["CJ", "SJ", "HJ", "DJ", "CA", "C10", "SA", "S10", "HA", "H10", "DA", "X7"],
], ids=["a-card-twice", "eleven-cards", "no-such-card"])
def test_bad_card_lists_are_refused(cards: list) -> None:
    assert rejection(game("grand", cards=cards, card_points=61))["field"].startswith("deal.cards")


# --- Ramsch ---------------------------------------------------------------------------------------

def ramsch(points: list, tricks: list) -> dict:
    return {"contract": "ramsch", "points": points, "tricks": tricks}


def test_ramsch_tied_losers_each_lose_their_points() -> None:
    assert verdict(ramsch([55, 55, 10], [4, 4, 2]), CLASSIC)["scores"] == [-55, -55, 0]


def test_ramsch_jungfrau_doubles_unless_switched_off() -> None:
    deal = ramsch([70, 50, 0], [6, 4, 0])
    assert verdict(deal, CLASSIC)["scores"] == [-140, 0, 0]
    assert verdict(deal, {"preset": "classic", "ramsch_jungfrau": "none"})["scores"] == [-70, 0, 0]


def test_ramsch_durchmarsch_scores_plus_where_the_rule_set_has_it() -> None:
    deal = ramsch([0, 120, 0], [0, 10, 0])
    assert verdict(deal, {"preset": "classic", "ramsch_durchmarsch": 120})["scores"] == [0, 120, 0]
    assert verdict(deal, CLASSIC)["scores"] == [0, -240, 0]  # no Durchmarsch: most points, Jungfrau doubles


def test_ramsch_is_refused_where_all_passing_voids_the_deal() -> None:
    assert rejection(ramsch([50, 40, 30], [4, 3, 3]), ISKO)["field"] == "deal.contract"
    assert rejection({"contract": "passed"}, CLASSIC)["field"] == "deal.contract"


@pytest.mark.parametrize("points, tricks, field", [
    ([50, 40, 40], [4, 3, 3], "deal.points"),
    ([50, 40, 30], [4, 3, 2], "deal.tricks"),
    ([50, 40, 30], [5, 5, 0], "deal.points.2"),
], ids=["points-not-120", "tricks-not-10", "points-without-a-trick"])
def test_ramsch_contradictions_are_refused(points: list, tricks: list, field: str) -> None:
    assert rejection(ramsch(points, tricks), CLASSIC)["field"] == field


def test_ramsch_at_four_seats_leaves_the_dealer_out() -> None:
    assert rejection(ramsch([50, 0, 40, 30], [4, 0, 3, 3]), CLASSIC, players=4, dealer=0)["field"] == "deal.points.0"


# --- rejections the contract names ----------------------------------------------------------------

@pytest.mark.parametrize("deal, field", [
    (game("clubs", matadors=1, card_points=121), "deal.card_points"),
    (game("clubs", matadors=1, card_points=119), "deal.card_points"),
    (game("clubs", matadors=1, card_points=100, declarer_tricks=0), "deal.card_points"),
    (game("clubs", matadors=1, card_points=110, declarer_tricks=10), "deal.card_points"),
    (game("clubs", matadors=0, card_points=70), "deal.matadors"),
    (game("clubs", matadors=12, card_points=70), "deal.matadors"),
    (game("clubs", matadors=1, card_points=70, bid=19), "deal.bid"),
    (game("clubs", matadors=1, card_points=70, bid=265), "deal.bid"),
    (game("clubs", matadors=1, card_points="70"), "deal.card_points"),
    (game("clubs", matadors=1, card_points=70, hand="yes"), "deal.hand"),
    (game("clubs", matadors=1, card_points=70, schneider=True), "deal.schneider"),
    (game("null", bid=23, declarer_tricks=0, announced="schneider"), "deal.announced"),
    (game("null", bid=23, declarer_tricks=0, matadors=2), "deal.matadors"),
    ({"contract": "passed", "declarer": 1}, "deal.declarer"),
    ({**game("clubs", matadors=1, card_points=70), "declarer": 3}, "deal.declarer"),
    ({"contract": "clubs", "bid": 18, "matadors": 1, "card_points": 70}, "deal.declarer"),
], ids=["points-over-120", "points-119-impossible", "no-trick-many-points", "all-tricks-not-all-points",
        "matadors-0", "matadors-12", "bid-19", "bid-265", "points-as-text", "hand-as-text",
        "unknown-field", "announced-in-null", "matadors-in-null", "declarer-when-passed", "seat-3-of-3",
        "declarer-missing"])
def test_contradictions_and_bad_values_are_refused_naming_the_field(deal: dict, field: str) -> None:
    assert rejection(deal)["field"] == field


def test_passing_zero_false_and_null_for_unused_fields_is_fine() -> None:
    result = verdict({"contract": "passed", "declarer": 0, "bid": None, "hand": False, "points": []}, ISKO)
    assert result["scores"] == [0, 0, 0] and result["won"] is None


@pytest.mark.parametrize("rules, field", [
    ({"preset": "isko", "kontra": "yes"}, "rules.kontra"),
    ({"preset": "isko", "ouvert": "open"}, "rules.ouvert"),
    ({"preset": "isko", "house": 1}, "rules.house"),
    ({"preset": 3}, "rules.preset"),
    ("isko", "rules"),
], ids=["bool-as-text", "unknown-choice", "unknown-option", "preset-not-text", "rules-not-object"])
def test_bad_rule_sets_are_refused(rules: object, field: str) -> None:
    result = adjudicate({"game": "skat", "rules": rules, "deal": game("clubs", matadors=1, card_points=70)})
    assert result["ok"] is False and result["errors"][0]["field"] == field


def test_the_verdict_lists_every_option_applied() -> None:
    result = verdict(game("clubs", matadors=1, card_points=70), {"preset": "isko", "kontra": True})
    assert result["rules"] == {"preset": "isko", **skat.PRESETS["isko"], "kontra": True}


def test_explanation_names_each_step_of_the_arithmetic() -> None:
    lines = verdict(game("spades", matadors=1, bid=33, card_points=75), ISKO)["explanation"]
    assert lines[0] == "Spades game by seat 0, with 1: base value 11"
    assert "with 1, game 2 × 11 = 22" in lines
    assert any("overbid" in line and "33" in line for line in lines)
    assert any("−66" in line for line in lines)


# --- seats in the explanation and the messages ------------------------------------------------------

NAMES = ["Anna", "Bernd", "Clara", "Dieter"]
SEAT_NUMBER = re.compile(r"\bseats? \d", re.IGNORECASE)


def named(request: dict) -> list[str]:
    """The explanation as a page that knows the players writes it."""
    return judge(request).explain(NAMES.__getitem__)


def test_ramsch_explanation_names_seats_so_a_page_can_write_the_players() -> None:
    request = {"game": "skat", "rules": CLASSIC, "players": 4, "dealer": 1,
               "deal": ramsch([55, 0, 55, 10], [4, 0, 4, 2])}
    english = adjudicate(request)["explanation"]
    assert english[0] == ("Ramsch: only the jacks are trump; card points seat 0: 55, seat 2: 55, seat 3: 10 "
                          "(the skat went with the last trick)")
    assert english[1] == ("seats 0 and 2 tie on 55 card points: each of them loses "
                          "(Tie for most points in Ramsch: all tied players lose)")
    assert english[2] == "List: −55 for seats 0 and 2; everyone else 0"
    lines = named(request)
    assert lines[0].startswith("Ramsch: only the jacks are trump; card points Anna: 55, Clara: 55, Dieter: 10")
    assert lines[1].startswith("Anna and Clara tie on 55 card points")
    assert lines[2] == "List: −55 for Anna and Clara; everyone else 0"


@pytest.mark.parametrize("request_", [
    pytest.param({"game": "skat", "rules": CLASSIC, "deal": ramsch([70, 50, 0], [6, 4, 0])}, id="jungfrau"),
    pytest.param({"game": "skat", "rules": {**CLASSIC, "ramsch_durchmarsch": 120},
                  "deal": ramsch([0, 120, 0], [0, 10, 0])}, id="durchmarsch"),
    pytest.param({"game": "skat", "rules": ISKO, "players": 4, "dealer": 0,
                  "deal": game("null", declarer=2, bid=23, declarer_tricks=1)}, id="null-lost"),
    *(pytest.param(param.values[0]["input"], id=param.id) for param in vectors.load("skat")
      if param.values[0] and param.values[0]["expect"].get("ok")),
])
def test_every_seat_in_the_explanation_is_named_by_the_page(request_: dict) -> None:
    lines = named(request_)
    assert not [line for line in lines if SEAT_NUMBER.search(line)]
    assert len(lines) == len(adjudicate(request_)["explanation"])


@pytest.mark.parametrize("request_, english, names", [
    pytest.param({"game": "skat", "players": 4, "dealer": 1, "deal": game("clubs", declarer=1, matadors=1,
                                                                         card_points=70)},
                 "seat 1 deals at this 4-seat table and sits the deal out, so cannot declare; the declarer is one "
                 "of seats 0, 2 and 3",
                 "Bernd deals at this 4-seat table and sits the deal out, so cannot declare; the declarer is one "
                 "of Anna, Clara and Dieter", id="declarer-is-the-sitting-dealer"),
    pytest.param({"game": "skat", "players": 4, "dealer": 0, "rules": CLASSIC,
                  "deal": ramsch([50, 0, 40, 30], [4, 0, 3, 3])},
                 "seat 0 deals at this 4-seat table and sits the deal out: its card points and tricks are 0",
                 "Anna deals at this 4-seat table and sits the deal out: its card points and tricks are 0",
                 id="ramsch-points-for-the-sitting-dealer"),
    pytest.param({"game": "skat", "rules": CLASSIC, "deal": ramsch([50, 40, 30], [5, 5, 0])},
                 "seat 2 took no trick, so it has no card points, not 30",
                 "Clara took no trick, so it has no card points, not 30", id="ramsch-points-without-a-trick"),
    pytest.param({"game": "skat", "rules": CLASSIC, "deal": ramsch([100, 10, 10], [1, 5, 4])},
                 "seat 0 cannot hold 100 card points with 1 tricks",
                 "Anna cannot hold 100 card points with 1 tricks", id="ramsch-points-beyond-the-tricks"),
])
def test_a_rejection_names_its_seats_so_a_page_can_write_the_players(request_: dict, english: str,
                                                                     names: str) -> None:
    with pytest.raises(IllegalDeal) as caught:
        judge(request_)
    assert caught.value.message == english
    assert adjudicate(request_)["errors"][0]["message"] == english
    assert caught.value.render(NAMES.__getitem__) == names


# --- invariants -----------------------------------------------------------------------------------

trump_contracts = st.sampled_from(["clubs", "spades", "hearts", "diamonds", "grand"])
rule_sets = st.sampled_from([ISKO, CLASSIC, {"preset": "classic", "grand_ouvert_fixed": None}])


@st.composite
def trump_games(draw: st.DrawFn) -> tuple[dict, dict]:
    contract = draw(trump_contracts)
    top = 4 if contract == "grand" else 11
    rules = draw(rule_sets)
    hand = draw(st.booleans())
    ouvert = draw(st.booleans()) and (hand or rules["preset"] == "classic")
    deal = {
        "contract": contract, "declarer": draw(st.integers(0, 2)),
        "bid": draw(st.sampled_from(sorted(skat.BID_VALUES))),
        "matadors": draw(st.integers(1, top)) * draw(st.sampled_from([1, -1])),
        "hand": hand, "ouvert": ouvert,
        "announced": draw(st.sampled_from([None, "schneider", "schwarz"])) if hand else None,
    }
    return deal, rules


@given(trump_games(), st.integers(0, 119))
def test_more_card_points_never_turn_a_won_game_into_a_lost_one(game_and_rules: tuple, points: int) -> None:
    deal, rules = game_and_rules
    lower = adjudicate({"game": "skat", "rules": rules, "deal": {**deal, "card_points": points}})
    higher = adjudicate({"game": "skat", "rules": rules, "deal": {**deal, "card_points": points + 1}})
    if lower["ok"] and higher["ok"] and lower["won"]:
        assert higher["won"] is True


@given(trump_games())
def test_a_lost_game_never_scores_above_the_same_game_won(game_and_rules: tuple) -> None:
    deal, rules = game_and_rules
    won = adjudicate({"game": "skat", "rules": rules, "deal": {**deal, "card_points": 120, "declarer_tricks": 10}})
    lost = adjudicate({"game": "skat", "rules": rules, "deal": {**deal, "card_points": 60}})
    if won["ok"] and lost["ok"]:
        declarer = deal["declarer"]
        assert lost["won"] is False
        assert lost["scores"][declarer] < 0 <= max(won["scores"][declarer], 0)
        if won["won"]:
            assert lost["scores"][declarer] < won["scores"][declarer]


@given(trump_games(), st.integers(0, 120), st.sampled_from([None, *range(11)]), st.integers(3, 4))
def test_only_the_declarer_scores_and_seeger_fabian_follows_the_result(
        game_and_rules: tuple, points: int, tricks: int | None, players: int) -> None:
    deal, rules = game_and_rules
    request = {"game": "skat", "rules": rules, "players": players, "dealer": players - 1,
               "deal": {**deal, "card_points": points, "declarer_tricks": tricks}}
    try:
        result = judge(request)
    except IllegalDeal:
        result = None
    assume(result is not None)  # an impossible deal is no example of the rule
    assert result is not None
    declarer = deal["declarer"]
    assert all(score == 0 for seat, score in enumerate(result.scores) if seat != declarer)
    sf = result.extra["seeger_fabian"]
    if result.won:
        assert sf[declarer] == 50 and sum(sf) == 50
    else:
        assert sf[declarer] == -50 and sum(sf) == -50 + (players - 1) * (40 if players == 3 else 30)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-300, 300) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=10,
)
deal_keys = st.sampled_from(sorted(skat._ALL_FIELDS))


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.sampled_from([c.value for c in skat.Contract]),
       st.dictionaries(deal_keys, json_values | st.integers(0, 120) | st.lists(st.integers(0, 120), max_size=4),
                       max_size=8),
       rule_sets, st.integers(3, 4))
def test_every_request_gets_a_verdict_or_a_rejection(contract: str, deal: dict, rules: dict, players: int) -> None:
    deal = {**deal, "contract": contract}
    result = adjudicate({"game": "skat", "rules": rules, "players": players, "deal": deal})
    assert result["ok"] in (True, False)
    if not result["ok"]:
        assert result["errors"][0]["field"] and result["errors"][0]["message"]


@given(json_values | st.lists(json_values, min_size=3, max_size=3), json_values | st.lists(st.integers(0, 10)))
def test_ramsch_per_seat_lists_of_any_shape_get_a_verdict_or_a_rejection(points: object, tricks: object) -> None:
    result = adjudicate({"game": "skat", "deal": {"contract": "ramsch", "points": points, "tricks": tricks}})
    assert result["ok"] in (True, False)


def test_a_page_can_name_the_players_and_translate_the_vocabulary() -> None:
    """Steps keep seats and game words as values, so a page writes names and its own language."""
    result = judge({"game": "skat", "rules": ISKO, "deal": game("grand", declarer=1, matadors=-1, hand=True,
                                                                    bid=72, card_points=63)})
    german = {"Grand": "Grand", "with": "mit", "without": "ohne", "enough": "genug"}
    lines = result.explain(["Anna", "Bernd", "Clara"].__getitem__, lambda text: german.get(text, text))
    assert lines[0] == "Grand game by Bernd, ohne 1: base value 24"
    assert lines[1] == "The declarer has 63 card points, the opponents 57: genug (61 needed; 60 loses)"
    assert result.explanation[0] == "Grand game by seat 1, without 1: base value 24"  # the contract's English
