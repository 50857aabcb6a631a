"""Fipsen scoring and the bid order (RULES.md Fipsen, ADJUDICATION.md Fipsen).

Seats at the four-seat table: Anna 0, Bernd 1, Clara 2, Dieter 3 (the dealer unless a test says
otherwise), so Anna is forehand, the seat at the dealer's left.
"""

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeep.rules import IllegalDeal, adjudicate, fipsen, judge
from scorekeep.rules.verdict import Comparison, Table, Verdict
from tests.rules import vectors

ANNA, BERND, CLARA, DIETER = 0, 1, 2, 3


def play(contract: str, players: int = 4, rules: dict | None = None, **fields: object) -> dict:
    """The verdict (or rejection) of one deal, through the contract's front door."""
    request: dict = {"game": "fipsen", "players": players, "deal": {"contract": contract, **fields}}
    if rules is not None:
        request["rules"] = rules
    return adjudicate(request)


def dispute(*bids: dict, players: int = 4, dealer: int | None = None, rules: dict | None = None) -> dict:
    """The answer to a bidding dispute between `bids`."""
    request: dict = {"game": "fipsen", "players": players, "compare": list(bids)}
    if dealer is not None:
        request["dealer"] = dealer
    if rules is not None:
        request["rules"] = rules
    return adjudicate(request)


def rejected_field(answer: dict) -> str:
    assert answer["ok"] is False, f"expected a rejection, got {answer}"
    (error,) = answer["errors"]
    assert error["message"]
    return error["field"]


# --- the public conformance vectors ---------------------------------------------------------------

@pytest.mark.parametrize("vector", vectors.load("fipsen"))
def test_public_vector(vector):
    vectors.check(vector, adjudicate(vector["input"]))


# --- trick bids -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("fields", "won", "value", "entry"), [
    pytest.param({"bid": 2, "tricks_taken": 2}, True, 2, 2, id="2-made-exactly"),
    pytest.param({"bid": 2, "tricks_taken": 5}, True, 2, 2, id="2-made-with-all-five"),
    pytest.param({"bid": 3, "tricks_taken": 2}, False, 3, -6, id="3-one-short"),
    pytest.param({"bid": 4, "ruten": True, "tricks_taken": 3}, False, 8, -16, id="4-ruten-lost"),
    pytest.param({"bid": 3, "hand": True, "ruten": True, "tricks_taken": 3}, True, 12, 12, id="3-hand-ruten-made"),
    pytest.param({"bid": 3, "hand": True, "ruten": True, "durch": True, "tricks_taken": 5}, True, 24, 24,
                 id="3-hand-ruten-durch-made"),
    pytest.param({"bid": 3, "hand": True, "ruten": True, "durch": True, "tricks_taken": 4}, False, 24, -48,
                 id="3-hand-ruten-durch-one-trick-given"),
    pytest.param({"bid": 2, "durch": True, "tricks_taken": 4}, False, 4, -8, id="2-durch-needs-all-five"),
    pytest.param({"bid": 5, "tricks_taken": 4}, False, 10, -20, id="5-carries-durch-so-4-loses"),
    pytest.param({"bid": 5, "durch": True, "tricks_taken": 5}, True, 10, 10, id="5-durch-said-counts-once"),
    pytest.param({"bid": 5, "hand": True, "ruten": True, "durch": True, "tricks_taken": 0}, False, 40, -80,
                 id="5-hand-ruten-lost-is-the-largest-loss"),
])
def test_trick_bid_is_worth_bid_times_two_per_add_on_and_a_loss_counts_double(fields, won, value, entry):
    verdict = play("tricks", declarer=CLARA, **fields)
    assert verdict["ok"] is True
    assert (verdict["won"], verdict["value"]) == (won, value)
    assert verdict["scores"] == [0, 0, entry, 0]


def test_trick_verdict_reports_add_ons_and_multiplier():
    verdict = play("tricks", declarer=ANNA, bid=5, hand=True, tricks_taken=5)
    assert (verdict["add_ons"], verdict["multiplier"]) == (2, 4)
    assert verdict["value"] == 20


def test_trick_explanation_lets_the_table_check_the_number():
    lines = play("tricks", declarer=BERND, bid=3, hand=True, durch=True, tricks_taken=4)["explanation"]
    text = "\n".join(lines)
    assert "3 Hand Durch by seat 1" in text
    assert "3 × 2² (add-ons: Hand, Durch) = 12" in text
    assert "all 5 tricks; seat 1 took 4" in text
    assert "−2 × 12 = −24" in text


def test_a_five_says_where_its_durch_comes_from():
    text = "\n".join(play("tricks", declarer=ANNA, bid=5, tricks_taken=5)["explanation"])
    assert "5 × 2¹ (add-ons: the 5's own Durch) = 10" in text


# --- Kieker, Siebener Fips, all passed ------------------------------------------------------------

@pytest.mark.parametrize(("fields", "won", "value", "entry"), [
    pytest.param({"tricks_taken": 5}, True, 10, 10, id="kieker-made"),
    pytest.param({"tricks_taken": 4}, False, 10, -20, id="kieker-four-tricks-is-lost"),
    pytest.param({"ruten": True, "tricks_taken": 5}, True, 20, 20, id="kieker-ruten-made"),
    pytest.param({"ruten": True, "tricks_taken": 0}, False, 20, -40, id="kieker-ruten-lost"),
    pytest.param({"surrendered": True}, False, 10, -5, id="kieker-surrendered"),
    pytest.param({"ruten": True, "surrendered": True}, False, 20, -5, id="kieker-ruten-surrendered-still-5"),
    pytest.param({"surrendered": True, "tricks_taken": 0}, False, 10, -5, id="surrendered-with-zero-tricks"),
])
def test_kieker_is_won_only_with_all_five_tricks_and_surrendered_costs_5(fields, won, value, entry):
    verdict = play("kieker", declarer=DIETER, **fields)
    assert verdict["ok"] is True
    assert (verdict["won"], verdict["value"], verdict["scores"]) == (won, value, [0, 0, 0, entry])


def test_siebener_fips_pays_30_to_its_holder():
    verdict = play("siebener_fips", declarer=BERND)
    assert (verdict["won"], verdict["value"], verdict["scores"]) == (True, 30, [0, 30, 0, 0])


def test_all_passed_scores_nothing_and_has_no_winner():
    verdict = play("passed", players=3)
    assert (verdict["won"], verdict["value"], verdict["scores"]) == (None, 0, [0, 0, 0])


@pytest.mark.parametrize("players", [3, 4])
def test_every_seat_can_declare_and_only_the_declarer_scores(players):
    for seat in range(players):
        verdict = play("tricks", players=players, declarer=seat, bid=2, tricks_taken=1)
        assert verdict["scores"] == [-4 if s == seat else 0 for s in range(players)]


def test_empty_values_of_unused_fields_pass():
    """ADJUDICATION.md: false, 0, null and [] pass in a field the contract does not use."""
    assert play("kieker", declarer=ANNA, bid=0, hand=False, durch=None, tricks_taken=5)["ok"] is True
    assert play("siebener_fips", declarer=ANNA, tricks_taken=0, surrendered=False)["ok"] is True
    assert play("passed", declarer=0, bid=None, ruten=False)["ok"] is True
    assert play("tricks", declarer=ANNA, bid=2, tricks_taken=2, surrendered=False)["ok"] is True


# --- rule sets ------------------------------------------------------------------------------------

def test_classic_is_the_default_and_the_only_preset():
    assert fipsen.PRESETS == {"classic": {"durch_outranks": False}}
    assert play("passed")["rules"] == {"preset": "classic", "durch_outranks": False}
    assert play("passed", rules={"preset": "classic"})["rules"] == {"preset": "classic", "durch_outranks": False}


def test_durch_outranks_is_applied_and_reported_but_leaves_deal_values_alone():
    on = play("tricks", rules={"durch_outranks": True}, declarer=ANNA, bid=3, durch=True, tricks_taken=5)
    off = play("tricks", declarer=ANNA, bid=3, durch=True, tricks_taken=5)
    assert on["rules"] == {"preset": "classic", "durch_outranks": True}
    assert (on["value"], on["scores"]) == (off["value"], off["scores"]) == (6, [6, 0, 0, 0])


@pytest.mark.parametrize(("rules", "field"), [
    pytest.param({"durch_outranks": "yes"}, "rules.durch_outranks", id="option-not-boolean"),
    pytest.param({"durch_outranks": 1}, "rules.durch_outranks", id="option-number-is-not-true"),
    pytest.param({"preset": "isko"}, "rules.preset", id="unknown-preset"),
    pytest.param({"kontra": True}, "rules.kontra", id="option-of-another-game"),
    pytest.param(["classic"], "rules", id="rules-not-an-object"),
])
def test_rule_set_rejections_name_the_option(rules, field):
    assert rejected_field(play("passed", rules=rules)) == field


def test_module_shape():
    rules = fipsen.parse_rules(None)
    assert rules == fipsen.Rules(preset="classic", durch_outranks=False)
    assert hash(rules) == hash(fipsen.parse_rules({"preset": "classic"}))
    assert set(fipsen.OPTIONS) == set(fipsen.PRESETS["classic"])
    assert fipsen.contracts(rules) == ("tricks", "kieker", "siebener_fips", "passed")
    assert fipsen.deal_fields("kieker", rules, Table(4, 3)) == ("declarer", "ruten", "surrendered", "tricks_taken")
    assert fipsen.deal_fields("passed", rules, Table(3, 2)) == ()
    with pytest.raises(IllegalDeal) as err:
        fipsen.deal_fields("null", rules, Table(4, 3))
    assert err.value.field == "deal.contract"
    assert isinstance(judge({"game": "fipsen", "deal": {"contract": "passed"}}), Verdict)


# --- deal rejections ------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "deal", "field"), [
    pytest.param(4, {}, "deal.contract", id="no-contract"),
    pytest.param(4, {"contract": "null"}, "deal.contract", id="unknown-contract"),
    pytest.param(4, {"contract": "tricks", "declarer": 0, "tricks_taken": 3}, "deal.bid", id="trick-game-without-bid"),
    pytest.param(4, {"contract": "tricks", "declarer": 0, "bid": 1, "tricks_taken": 3}, "deal.bid", id="bid-1"),
    pytest.param(4, {"contract": "tricks", "declarer": 0, "bid": 6, "tricks_taken": 3}, "deal.bid", id="bid-6"),
    pytest.param(4, {"contract": "tricks", "declarer": 0, "bid": True, "tricks_taken": 3}, "deal.bid",
                 id="bid-true"),
    pytest.param(4, {"contract": "tricks", "declarer": 0, "bid": 3}, "deal.tricks_taken", id="no-tricks-taken"),
    pytest.param(4, {"contract": "tricks", "declarer": 0, "bid": 3, "tricks_taken": 6}, "deal.tricks_taken",
                 id="six-tricks"),
    pytest.param(4, {"contract": "tricks", "declarer": 0, "bid": 3, "tricks_taken": -1}, "deal.tricks_taken",
                 id="negative-tricks"),
    pytest.param(4, {"contract": "tricks", "bid": 3, "tricks_taken": 3}, "deal.declarer", id="no-declarer"),
    pytest.param(4, {"contract": "tricks", "declarer": 4, "bid": 3, "tricks_taken": 3}, "deal.declarer",
                 id="declarer-5th-seat"),
    pytest.param(3, {"contract": "kieker", "declarer": 3, "tricks_taken": 5}, "deal.declarer",
                 id="declarer-4th-seat-at-3"),
    pytest.param(4, {"contract": "tricks", "declarer": 0, "bid": 3, "hand": "yes", "tricks_taken": 3},
                 "deal.hand", id="hand-not-boolean"),
    pytest.param(4, {"contract": "tricks", "declarer": 0, "bid": 3, "surrendered": True, "tricks_taken": 0},
                 "deal.surrendered", id="trick-game-surrendered"),
    pytest.param(4, {"contract": "tricks", "declarer": 0, "bid": 3, "tricks_taken": 3, "schneider": True},
                 "deal.schneider", id="unknown-field"),
    pytest.param(4, {"contract": "kieker", "declarer": 0, "bid": 4, "tricks_taken": 5}, "deal.bid",
                 id="kieker-with-bid"),
    pytest.param(4, {"contract": "kieker", "declarer": 0, "hand": True, "tricks_taken": 5}, "deal.hand",
                 id="kieker-with-hand"),
    pytest.param(4, {"contract": "kieker", "declarer": 0, "durch": True, "tricks_taken": 5}, "deal.durch",
                 id="kieker-with-durch"),
    pytest.param(4, {"contract": "kieker", "declarer": 0}, "deal.tricks_taken", id="kieker-played-no-tricks"),
    pytest.param(4, {"contract": "kieker", "declarer": 0, "surrendered": True, "tricks_taken": 2},
                 "deal.tricks_taken", id="surrendered-kieker-with-tricks"),
    pytest.param(4, {"contract": "kieker", "declarer": 0, "surrendered": 1}, "deal.surrendered",
                 id="surrendered-not-boolean"),
    pytest.param(4, {"contract": "siebener_fips"}, "deal.declarer", id="siebener-without-holder"),
    pytest.param(4, {"contract": "siebener_fips", "declarer": 1, "tricks_taken": 5}, "deal.tricks_taken",
                 id="siebener-with-tricks"),
    pytest.param(4, {"contract": "siebener_fips", "declarer": 1, "ruten": True}, "deal.ruten",
                 id="siebener-with-ruten"),
    pytest.param(4, {"contract": "passed", "declarer": 2}, "deal.declarer", id="passed-with-declarer"),
    pytest.param(4, {"contract": "passed", "bid": 3}, "deal.bid", id="passed-with-bid"),
])
def test_deal_rejections_name_the_field(players, deal, field):
    assert rejected_field(adjudicate({"game": "fipsen", "players": players, "deal": deal})) == field


@pytest.mark.parametrize(("request_", "field"), [
    pytest.param({"game": "fipsen", "players": 5, "deal": {"contract": "passed"}}, "players", id="five-seats"),
    pytest.param({"game": "fipsen", "players": 2, "deal": {"contract": "passed"}}, "players", id="two-seats"),
    pytest.param({"game": "fipsen", "deal": ["passed"]}, "deal", id="deal-not-an-object"),
    pytest.param({"game": "fipsen"}, "deal", id="neither-deal-nor-compare"),
    pytest.param({"game": "fipsen", "deal": {"contract": "passed"},
                  "compare": [{"bid": 2, "seat": 0}, {"bid": 3, "seat": 1}]}, "compare", id="deal-and-compare"),
])
def test_envelope_rejections_name_the_field(request_, field):
    assert rejected_field(adjudicate(request_)) == field


def test_a_surrendered_trick_game_says_only_a_kieker_can_be_surrendered():
    answer = play("tricks", declarer=ANNA, bid=3, surrendered=True, tricks_taken=0)
    assert "only a Kieker can be surrendered" in answer["errors"][0]["message"]


# --- the bid order --------------------------------------------------------------------------------

@pytest.mark.parametrize(("bids", "higher"), [
    pytest.param([{"bid": 3, "seat": CLARA}, {"bid": 2, "hand": True, "ruten": True, "durch": True, "seat": ANNA}],
                 0, id="trick-count-before-add-ons"),
    pytest.param([{"bid": 4, "hand": True, "ruten": True, "durch": True, "seat": ANNA},
                  {"kieker": True, "seat": DIETER}], 1, id="kieker-beats-any-4"),
    pytest.param([{"kieker": True, "ruten": True, "seat": ANNA}, {"bid": 5, "seat": DIETER}], 1,
                 id="any-5-beats-kieker"),
    pytest.param([{"kieker": True, "seat": ANNA}, {"kieker": True, "ruten": True, "seat": BERND}], 1,
                 id="kieker-ruten-beats-kieker"),
    pytest.param([{"bid": 5, "durch": True, "seat": ANNA}, {"bid": 5, "hand": True, "seat": CLARA}], 1,
                 id="5-durch-said-is-still-one-add-on"),
    pytest.param([{"bid": 3, "ruten": True, "seat": CLARA}, {"bid": 3, "hand": True, "seat": ANNA}], 1,
                 id="equal-bids-go-to-forehand"),
    pytest.param([{"bid": 4, "seat": DIETER}, {"bid": 4, "seat": CLARA}], 1, id="the-dealer-is-last"),
    pytest.param([{"bid": 2, "seat": ANNA}, {"bid": 3, "hand": True, "seat": BERND},
                  {"bid": 3, "durch": True, "seat": CLARA}, {"bid": 3, "seat": DIETER}], 1,
                 id="four-bids-forehand-among-equals"),
])
def test_bid_order_trick_count_then_add_ons_then_seat(bids, higher):
    assert dispute(*bids, dealer=DIETER)["higher"] == higher


@pytest.mark.parametrize(("durch_outranks", "higher"), [
    pytest.param(False, 0, id="off-seat-decides"),
    pytest.param(True, 1, id="on-durch-decides"),
])
def test_durch_outranks_decides_equal_counts_before_the_seat(durch_outranks, higher):
    bids = ({"bid": 3, "hand": True, "seat": ANNA}, {"bid": 3, "durch": True, "seat": CLARA})
    assert dispute(*bids, rules={"durch_outranks": durch_outranks})["higher"] == higher


@pytest.mark.parametrize("durch_outranks", [False, True])
def test_durch_outranks_never_beats_more_add_ons(durch_outranks):
    bids = ({"bid": 3, "durch": True, "seat": ANNA}, {"bid": 3, "hand": True, "ruten": True, "seat": DIETER})
    assert dispute(*bids, rules={"durch_outranks": durch_outranks})["higher"] == 1


def test_durch_outranks_leaves_two_fives_to_the_seat():
    bids = ({"bid": 5, "seat": DIETER}, {"bid": 5, "durch": True, "seat": BERND})
    assert dispute(*bids, rules={"durch_outranks": True})["higher"] == 1


@pytest.mark.parametrize(("players", "dealer", "seats", "higher"), [
    pytest.param(4, 1, [ANNA, DIETER], 1, id="dealer-bernd-clara-then-dieter-then-anna"),
    pytest.param(4, 0, [ANNA, BERND], 1, id="dealer-anna-bids-last"),
    pytest.param(3, 0, [2, 1], 1, id="three-seats-dealer-0"),
    pytest.param(3, None, [2, 0], 1, id="three-seats-default-dealer-is-seat-2"),
    pytest.param(4, None, [DIETER, CLARA, BERND], 2, id="four-seats-default-dealer-is-seat-3"),
])
def test_equal_bids_go_to_the_seat_nearer_the_dealers_left(players, dealer, seats, higher):
    bids = [{"bid": 2, "ruten": True, "seat": seat} for seat in seats]
    assert dispute(*bids, players=players, dealer=dealer)["higher"] == higher


def test_comparison_explains_each_rank_and_the_deciding_criterion():
    answer = dispute({"bid": 3, "ruten": True, "seat": CLARA}, {"bid": 3, "hand": True, "seat": ANNA},
                     {"kieker": True, "ruten": True, "seat": BERND}, {"bid": 5, "hand": True, "seat": DIETER},
                     dealer=DIETER)
    assert answer["higher"] == 3
    assert answer["rules"] == {"preset": "classic", "durch_outranks": False}
    text = "\n".join(answer["explanation"])
    assert "rule set Classic (Prisdorf), where Durch does not outrank at equal bids" in text
    assert "Bid 0: 3 Ruten by seat 2: trick count 3; add-ons 1 (Ruten); turn 3 of 4" in text
    assert "Bid 2: Kieker with Ruten by seat 1: trick count Kieker (between 4 and 5)" in text
    assert "Bid 3: 5 Hand by seat 3: trick count 5; add-ons 2 (Hand, the 5's own Durch); turn 4 of 4" in text
    assert "Bid 3 (5 Hand) beats bid 2 (Kieker with Ruten): higher trick count" in text
    assert answer["explanation"][-1] == "Higher: bid 3, 5 Hand by seat 3"


@pytest.mark.parametrize(("bids", "rules", "criterion"), [
    pytest.param(({"bid": 4, "seat": 0}, {"bid": 3, "seat": 1}), None, "higher trick count, 4 over 3", id="count"),
    pytest.param(({"bid": 3, "hand": True, "seat": 1}, {"bid": 3, "seat": 0}), None, "more add-ons, 1 over 0",
                 id="add-ons"),
    pytest.param(({"bid": 3, "durch": True, "seat": 1}, {"bid": 3, "ruten": True, "seat": 0}),
                 {"durch_outranks": True}, "Durch beats no Durch (this rule set)", id="durch"),
    pytest.param(({"bid": 3, "seat": 0}, {"bid": 3, "seat": 1}), None,
                 "same trick count and add-ons, so the seat nearer the dealer's left: seat 0 (turn 1) "
                 "before seat 1 (turn 2)", id="seat"),
    pytest.param(({"bid": 3, "seat": 0}, {"bid": 3, "seat": 1}), {"durch_outranks": True},
                 "same trick count, add-ons and Durch, so the seat nearer", id="seat-under-durch-outranks"),
])
def test_comparison_names_the_criterion_that_decided(bids, rules, criterion):
    answer = dispute(*bids, rules=rules)
    assert answer["higher"] == 0
    assert any(criterion in line for line in answer["explanation"]), answer["explanation"]


@pytest.mark.parametrize(("bid", "words"), [
    pytest.param(fipsen.Bid(0, 3, hand=True, ruten=True), "3 Hand Ruten", id="3-hand-ruten"),
    pytest.param(fipsen.Bid(0, 2, durch=True), "2 Durch", id="2-durch"),
    pytest.param(fipsen.Bid(0, 5, hand=True, durch=True), "5 Hand", id="5-durch-unsaid"),
    pytest.param(fipsen.Bid(0, None), "Kieker", id="kieker"),
    pytest.param(fipsen.Bid(0, None, ruten=True), "Kieker with Ruten", id="kieker-ruten"),
])
def test_describe_bid_reads_like_players_talk(bid, words):
    assert fipsen.describe_bid(bid) == words


def test_judge_answers_a_dispute_with_a_comparison():
    answer = judge({"game": "fipsen", "compare": [{"bid": 2, "seat": 0}, {"kieker": False, "bid": 2, "seat": 1}]})
    assert isinstance(answer, Comparison)
    assert answer.higher == 0


@pytest.mark.parametrize(("compare", "field"), [
    pytest.param({"bid": 3, "seat": 0}, "compare", id="not-a-list"),
    pytest.param([], "compare", id="empty"),
    pytest.param([{"bid": 3, "seat": 0}], "compare", id="one-bid"),
    pytest.param([3, {"bid": 3, "seat": 1}], "compare.0", id="bid-not-an-object"),
    pytest.param([{"bid": 3, "seat": 0, "schneider": True}, {"bid": 3, "seat": 1}], "compare.0.schneider",
                 id="unknown-key"),
    pytest.param([{"kieker": True, "durch": True, "seat": 0}, {"bid": 3, "seat": 1}], "compare.0.durch",
                 id="kieker-durch"),
    pytest.param([{"bid": 3, "seat": 0}, {"kieker": True, "hand": True, "seat": 1}], "compare.1.hand",
                 id="kieker-hand"),
    pytest.param([{"kieker": True, "bid": 4, "seat": 0}, {"bid": 3, "seat": 1}], "compare.0.bid",
                 id="kieker-with-bid"),
    pytest.param([{"kieker": False, "seat": 0}, {"bid": 3, "seat": 1}], "compare.0.bid",
                 id="kieker-false-is-no-bid"),
    pytest.param([{"bid": 3, "seat": 0}, {"hand": True, "seat": 1}], "compare.1.bid", id="no-bid"),
    pytest.param([{"bid": 6, "seat": 0}, {"bid": 3, "seat": 1}], "compare.0.bid", id="bid-6"),
    pytest.param([{"bid": 3, "seat": 0}, {"bid": 1, "seat": 1}], "compare.1.bid", id="bid-1"),
    pytest.param([{"bid": 3}, {"bid": 3, "seat": 1}], "compare.0.seat", id="no-seat"),
    pytest.param([{"bid": 3, "seat": 4}, {"bid": 3, "seat": 1}], "compare.0.seat", id="seat-out-of-range"),
    pytest.param([{"bid": 3, "seat": 2}, {"bid": 4, "seat": 2}], "compare.1.seat", id="same-seat-twice"),
    pytest.param([{"kieker": "yes", "seat": 0}, {"bid": 3, "seat": 1}], "compare.0.kieker",
                 id="kieker-not-boolean"),
    pytest.param([{"bid": 3, "ruten": 1, "seat": 0}, {"bid": 3, "seat": 1}], "compare.0.ruten",
                 id="ruten-not-boolean"),
])
def test_compare_rejections_name_the_field(compare, field):
    assert rejected_field(adjudicate({"game": "fipsen", "compare": compare})) == field


def test_seat_three_does_not_exist_at_three_seats():
    assert rejected_field(dispute({"bid": 2, "seat": 3}, {"bid": 2, "seat": 0}, players=3)) == "compare.0.seat"


def test_a_kieker_bid_may_carry_empty_trick_fields():
    answer = dispute({"kieker": True, "bid": None, "hand": False, "durch": 0, "seat": 0}, {"bid": 4, "seat": 1})
    assert answer["higher"] == 0


# --- seats as a page names them -------------------------------------------------------------------

NAMES = ["Anna", "Bernd", "Clara", "Dieter"]
SEAT_NUMBER = re.compile(r"\bseats? \d", re.IGNORECASE)


def named(request: dict) -> list[str]:
    """The explanation as a page that knows the players writes it."""
    return judge(request).explain(NAMES.__getitem__)


def test_explanation_names_seats_so_a_page_can_write_the_players():
    request = {"game": "fipsen", "compare": [{"bid": 3, "seat": ANNA}, {"bid": 3, "seat": BERND}]}
    assert adjudicate(request)["explanation"][-2].endswith("seat 0 (turn 1) before seat 1 (turn 2)")
    lines = named(request)
    assert lines[0].endswith("the dealer (Dieter) last")
    assert lines[1].startswith("Bid 0: 3 by Anna: trick count 3")
    assert lines[-2].endswith("Anna (turn 1) before Bernd (turn 2)")
    assert lines[-1] == "Higher: bid 0, 3 by Anna"
    deal = {"game": "fipsen", "deal": {"contract": "tricks", "declarer": CLARA, "bid": 3, "tricks_taken": 2}}
    assert named(deal)[1:] == ["A bid of 3 is won with at least 3 tricks; Clara took 2",
                               "Lost: a lost game counts double, Clara enters −2 × 3 = −6"]


@pytest.mark.parametrize("request_", [
    pytest.param({"game": "fipsen", "deal": {"contract": "tricks", "declarer": 1, "bid": 5, "tricks_taken": 5}},
                 id="durch-won"),
    pytest.param({"game": "fipsen", "deal": {"contract": "kieker", "declarer": 0, "surrendered": True}},
                 id="kieker-surrendered"),
    pytest.param({"game": "fipsen", "deal": {"contract": "kieker", "declarer": 0, "ruten": True,
                                             "tricks_taken": 4}}, id="kieker-ruten-lost"),
    pytest.param({"game": "fipsen", "deal": {"contract": "siebener_fips", "declarer": 2}}, id="siebener-fips"),
    pytest.param({"game": "fipsen", "rules": {"durch_outranks": True},
                  "compare": [{"bid": 3, "seat": 1}, {"bid": 3, "seat": 0}, {"kieker": True, "seat": 2}]},
                 id="three-bids-durch-outranks"),
    *(pytest.param(param.values[0]["input"], id=param.id) for param in vectors.load("fipsen")
      if param.values[0] and param.values[0]["expect"].get("ok")),
])
def test_every_seat_in_the_explanation_is_named_by_the_page(request_):
    lines = named(request_)
    assert not [line for line in lines if SEAT_NUMBER.search(line)]
    assert len(lines) == len(adjudicate(request_)["explanation"])


def test_a_seat_that_bids_twice_is_named_so_a_page_can_write_the_player():
    with pytest.raises(IllegalDeal) as caught:
        judge({"game": "fipsen", "compare": [{"bid": 2, "seat": CLARA}, {"bid": 3, "seat": CLARA}]})
    assert caught.value.message == ("seat 2 already made bid 0: compare one bid per seat, each from a different "
                                    "seat")
    assert caught.value.render(NAMES.__getitem__).startswith("Clara already made bid 0")


def test_a_page_can_name_the_players_and_translate_the_vocabulary():
    """A bid's add-ons are words of their own (its number stays a number), so a page writes names and
    its own language."""
    german = {" Hand": " Hand", "Hand": "Hand",
              "{bid}{said} by {seat}: the bid doubled for each add-on, {bid} × {doubling} (add-ons: {add_ons}) "
              "= {value}":
                  "{bid}{said} von {seat}: je Zusatz verdoppelt, {bid} × {doubling} (Zusätze: {add_ons}) = {value}",
              "Won: {seat} enters +{value}": "Gewonnen: {seat} schreibt +{value}"}
    request = {"game": "fipsen", "deal": {"contract": "tricks", "declarer": BERND, "bid": 4, "hand": True,
                                          "tricks_taken": 4}}
    lines = judge(request).explain(NAMES.__getitem__, lambda text: german.get(text, text))
    assert lines[0] == "4 Hand von Bernd: je Zusatz verdoppelt, 4 × 2¹ (Zusätze: Hand) = 8"
    assert lines[-1] == "Gewonnen: Bernd schreibt +8"
    assert adjudicate(request)["explanation"][0] == ("4 Hand by seat 1: the bid doubled for each add-on, "
                                                     "4 × 2¹ (add-ons: Hand) = 8")  # the contract's English


def test_a_page_can_translate_a_kieker_in_a_bidding_dispute():
    german = {"Kieker with Ruten": "Kieker mit Ruten", "Kieker (between 4 and 5)": "Kieker (zwischen 4 und 5)"}
    compared = judge({"game": "fipsen", "compare": [{"bid": 3, "seat": ANNA}, {"kieker": True, "ruten": True,
                                                                             "seat": BERND}]})
    lines = compared.explain(NAMES.__getitem__, lambda text: german.get(text, text))
    assert lines[-2] == "Bid 1 (Kieker mit Ruten) beats bid 0 (3): higher trick count, Kieker (zwischen 4 und 5) over 3"
    assert lines[-1] == "Higher: bid 1, Kieker mit Ruten by Bernd"


# --- properties -----------------------------------------------------------------------------------

JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2, 7), st.sampled_from(["", "5", "kieker"]))
FIELDS = ["contract", "declarer", "bid", "hand", "ruten", "durch", "tricks_taken", "surrendered", "schneider"]
WELL_TYPED = {"declarer": st.integers(0, 3), "bid": st.integers(2, 5), "hand": st.booleans(),
              "ruten": st.booleans(), "durch": st.booleans(), "tricks_taken": st.integers(0, 5),
              "surrendered": st.booleans()}


@st.composite
def any_deal(draw) -> dict:
    """Deals near the contract: each contract's fields well typed, then often one field spoiled."""
    contract = draw(st.sampled_from([str(c) for c in fipsen.CONTRACTS]))
    deal = {"contract": contract, **{key: draw(WELL_TYPED[key]) for key in fipsen.CONTRACTS[contract]
                                     if draw(st.booleans()) or key in ("declarer", "bid", "tricks_taken")}}
    if draw(st.booleans()):
        deal[draw(st.sampled_from(FIELDS))] = draw(JSON_SCALARS)
    return deal


@settings(max_examples=400, deadline=None)
@given(deal=any_deal(), players=st.sampled_from([3, 4, 5, None]), dealer=st.one_of(st.none(), st.integers(-1, 4)),
       rules=st.sampled_from([None, {}, {"durch_outranks": True}, {"durch_outranks": 1}]))
def test_any_request_gets_a_verdict_or_a_named_rejection(deal, players, dealer, rules):
    answer = adjudicate({"game": "fipsen", "players": players, "dealer": dealer, "rules": rules, "deal": deal})
    if answer["ok"]:
        seats = players or 4
        assert len(answer["scores"]) == seats
        assert answer["value"] >= 0
        assert sum(1 for s in answer["scores"] if s) <= 1
        assert answer["explanation"]
    else:
        (error,) = answer["errors"]
        assert error["field"].split(".")[0] in {"deal", "players", "dealer", "rules"}
        assert error["message"]


ANY_BID = st.dictionaries(st.sampled_from(["bid", "hand", "ruten", "durch", "kieker", "seat", "schneider"]),
                          st.one_of(JSON_SCALARS, st.integers(0, 3), st.integers(2, 5)))


@settings(max_examples=300, deadline=None)
@given(compare=st.one_of(JSON_SCALARS.filter(lambda v: v is not None),  # null compare: no dispute at all
                         st.lists(st.one_of(JSON_SCALARS, ANY_BID), max_size=6)),
       players=st.sampled_from([3, 4]))
def test_any_dispute_gets_an_answer_or_a_rejection_inside_compare(compare, players):
    answer = dispute(*compare, players=players) if isinstance(compare, list) else adjudicate(
        {"game": "fipsen", "compare": compare})
    if answer["ok"]:
        assert 0 <= answer["higher"] < len(compare)
        assert answer["explanation"][-1].startswith(f"Higher: bid {answer['higher']}")
    else:
        (error,) = answer["errors"]
        assert error["field"] == "compare" or error["field"].startswith("compare.")


tricks_deal = st.fixed_dictionaries({
    "declarer": st.integers(0, 3), "bid": st.integers(2, 5), "hand": st.booleans(), "ruten": st.booleans(),
    "durch": st.booleans(), "tricks_taken": st.integers(0, 5)})


@given(deal=tricks_deal)
def test_trick_value_is_bid_times_two_to_the_add_ons_and_entry_follows_won(deal):
    verdict = play("tricks", **deal)
    k = deal["hand"] + deal["ruten"] + (deal["durch"] or deal["bid"] == 5)
    assert verdict["value"] == deal["bid"] * 2 ** k <= 40
    assert (verdict["add_ons"], verdict["multiplier"]) == (k, 2 ** k)
    entry = verdict["value"] if verdict["won"] else -2 * verdict["value"]
    assert verdict["scores"] == [entry if seat == deal["declarer"] else 0 for seat in range(4)]
    needed = 5 if deal["durch"] or deal["bid"] == 5 else deal["bid"]
    assert verdict["won"] is (deal["tricks_taken"] >= needed)


@given(deal=tricks_deal, more=st.integers(1, 5))
def test_more_tricks_never_turn_a_won_game_into_a_lost_one(deal, more):
    fewer = play("tricks", **deal)
    deal["tricks_taken"] = min(5, deal["tricks_taken"] + more)
    assert not fewer["won"] or play("tricks", **deal)["won"]


@given(ruten=st.booleans(), tricks=st.integers(0, 5), seat=st.integers(0, 2))
def test_kieker_at_three_seats_is_all_or_nothing(ruten, tricks, seat):
    verdict = play("kieker", players=3, declarer=seat, ruten=ruten, tricks_taken=tricks)
    value = 20 if ruten else 10
    assert verdict["value"] == value
    assert verdict["scores"][seat] == (value if tricks == 5 else -2 * value)


def bids_at(players: int):
    """Lists of 2…players bids from distinct seats."""
    trick_bid = st.fixed_dictionaries({"bid": st.integers(2, 5), "hand": st.booleans(), "ruten": st.booleans(),
                                       "durch": st.booleans()})
    kieker = st.fixed_dictionaries({"kieker": st.just(True), "ruten": st.booleans()})
    return st.permutations(range(players)).flatmap(
        lambda seats: st.lists(st.one_of(trick_bid, kieker), min_size=2, max_size=players).map(
            lambda bids: [{**bid, "seat": seat} for bid, seat in zip(bids, seats, strict=False)]))


def height(bid: dict) -> float:
    return 4.5 if bid.get("kieker") else bid["bid"]


@given(players=st.sampled_from([3, 4]), data=st.data(), durch_outranks=st.booleans())
def test_the_winner_is_the_same_bid_in_any_order_and_beats_each_other_bid(players, data, durch_outranks):
    bids = data.draw(bids_at(players))
    dealer = data.draw(st.integers(0, players - 1))
    rules = {"durch_outranks": durch_outranks}
    answer = dispute(*bids, players=players, dealer=dealer, rules=rules)
    winner = bids[answer["higher"]]
    assert height(winner) == max(height(b) for b in bids)
    shuffled = data.draw(st.permutations(bids))
    assert shuffled[dispute(*shuffled, players=players, dealer=dealer, rules=rules)["higher"]] == winner
    for other in bids:
        if other is not winner:
            assert dispute(other, winner, players=players, dealer=dealer, rules=rules)["higher"] == 1


@given(bid=st.integers(2, 5), hand=st.booleans(), ruten=st.booleans(), durch=st.booleans(),
       other=st.integers(2, 5), other_durch=st.booleans(), durch_outranks=st.booleans(),
       seats=st.permutations(range(4)))
def test_saying_another_add_on_never_loses_a_dispute_that_was_won(bid, hand, ruten, durch, other, other_durch,
                                                                 durch_outranks, seats):
    mine = {"bid": bid, "hand": hand, "ruten": ruten, "durch": durch, "seat": seats[0]}
    theirs = {"bid": other, "durch": other_durch, "seat": seats[1]}
    rules = {"durch_outranks": durch_outranks}
    if dispute(mine, theirs, rules=rules)["higher"] != 0:
        return
    for add_on in ("hand", "ruten", "durch"):
        assert dispute({**mine, add_on: True}, theirs, rules=rules)["higher"] == 0


def test_any_two_bids_from_different_seats_are_ordered_one_way():
    """The order is total: for any two bids from different seats exactly one is higher."""
    rules, table = fipsen.parse_rules(None), Table(4, 3)
    kinds = [fipsen.Bid(0, None, ruten=r) for r in (False, True)] + [
        fipsen.Bid(0, n, h, r, d) for n in range(2, 6) for h, r, d in itertools.product((False, True), repeat=3)]
    for a, b in itertools.product(kinds, repeat=2):
        left, right = fipsen.Bid(0, a.bid, a.hand, a.ruten, a.durch), fipsen.Bid(1, b.bid, b.hand, b.ruten, b.durch)
        first = fipsen.compare((left, right), rules, table).higher
        second = fipsen.compare((right, left), rules, table).higher
        assert first == 1 - second
