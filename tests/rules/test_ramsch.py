"""A Ramsch as a table enters it (scorekeep/rules/ramsch.py): the card points of all players but one, taps on
who took no trick and who took every trick, tricks only where they decide — completed into the contract's
``points`` and ``tricks``, which the engine then judges like any other request."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeep.rules import GAMES, IllegalDeal, Table, Verdict, cards, complete, entered, judge

SKAT = GAMES["skat"].parse_rules({"preset": "classic"})
BSV = GAMES["schafkopf"].parse_rules({"preset": "bsv"})
THREE, FOUR_DEALER_3, FOUR_DEALER_1 = Table(3, 2), Table(4, 3), Table(4, 1)
SCHAFKOPF = Table(4, 3)


def completed(game: str, table: Table, rules: Any = None, **entered_facts: Any) -> dict[str, Any]:
    rules = rules if rules is not None else SKAT if game == "skat" else BSV
    return complete(game, {"contract": "ramsch", **entered_facts}, rules, table)


# ISkO's rule set voids a deal all pass; its Ramsch (with Durchmarsch) is played where a club says so.
ISKO_RAMSCH = {"preset": "isko", "passed": "ramsch"}


def verdict(game: str, table: Table, facts: dict[str, Any], rules: str | dict[str, Any]) -> Verdict:
    rules = {"preset": rules} if isinstance(rules, str) else rules
    judged = judge({"game": game, "rules": rules, "players": table.players, "dealer": table.dealer, "deal": facts})
    assert isinstance(judged, Verdict)
    return judged


def refused(game: str, table: Table, **entered_facts: Any) -> IllegalDeal:
    with pytest.raises(IllegalDeal) as err:
        completed(game, table, **entered_facts)
    return err.value


def holds(game: str, points: int, tricks: int) -> bool:
    per_trick = 3 if game == "skat" else 4
    return points in cards.TOTALS_BY_COUNT[per_trick * tricks] or (
        game == "skat" and tricks > 0 and points in cards.TOTALS_BY_COUNT[per_trick * tricks + 2])


# --- feasible entries ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("table", "points", "whole"), [
    pytest.param(THREE, [30, 40, None], [30, 40, 50], id="skat-3-seats"),
    pytest.param(FOUR_DEALER_3, [30, 40, None, 0], [30, 40, 50, 0], id="skat-4-seats-dealer-last"),
    pytest.param(FOUR_DEALER_1, [None, 0, 45, 45], [30, 0, 45, 45], id="skat-4-seats-dealer-second-first-left-empty"),
])
def test_a_skat_ramsch_gives_the_empty_player_the_rest_and_every_player_a_trick(
        table: Table, points: list[int | None], whole: list[int]) -> None:
    facts = completed("skat", table, points=points)
    assert facts["points"] == whole
    playing = [seat for seat in range(table.players) if not (table.players == 4 and seat == table.dealer)]
    assert sum(facts["tricks"]) == 10
    assert all(facts["tricks"][seat] >= 1 and holds("skat", whole[seat], facts["tricks"][seat]) for seat in playing)
    if table.players == 4:
        assert facts["tricks"][table.dealer] == 0  # the sitting dealer took nothing
    assert verdict("skat", table, facts, "classic").scores == tuple(
        -max(whole) if p == max(whole) else 0 for p in whole)  # the most points lose (a tie: all of them)


def test_a_schafkopf_ramsch_shares_eight_tricks_as_the_points_suggest() -> None:
    facts = completed("schafkopf", SCHAFKOPF, points=[30, 50, 25, None])
    assert facts == {"contract": "ramsch", "points": [30, 50, 25, 15], "tricks": [2, 3, 2, 1]}
    assert verdict("schafkopf", SCHAFKOPF, facts, "bsv").scores == (10, -30, 10, 10)


def test_a_jungfrau_is_a_tap_and_needs_no_card_points() -> None:
    facts = completed("skat", THREE, points=[30, None, None], no_trick=[2])
    assert facts["points"] == [30, 90, 0] and facts["tricks"][2] == 0 and min(facts["tricks"][:2]) >= 1
    assert verdict("skat", THREE, facts, "classic").scores == (0, -180, 0)  # the loss doubles


def test_several_players_can_take_no_trick_in_schafkopf() -> None:
    facts = completed("schafkopf", SCHAFKOPF, points=[None, 0, 40, 0], no_trick=[1, 3])
    assert facts["points"] == [80, 0, 40, 0] and facts["tricks"][1] == facts["tricks"][3] == 0
    assert verdict("schafkopf", SCHAFKOPF, facts, "bsv").scores == (-50, 20, 10, 20)


@pytest.mark.parametrize(("table", "sweeper"), [pytest.param(THREE, 1, id="skat-3"),
                                                pytest.param(FOUR_DEALER_1, 2, id="skat-4-dealer-out")])
def test_a_durchmarsch_is_one_tap_the_card_points_follow(table: Table, sweeper: int) -> None:
    facts = completed("skat", table, every_trick=sweeper)
    assert facts["points"] == [120 if seat == sweeper else 0 for seat in range(table.players)]
    assert facts["tricks"] == [10 if seat == sweeper else 0 for seat in range(table.players)]
    assert verdict("skat", table, facts, ISKO_RAMSCH).scores[sweeper] == 120


def test_a_schafkopf_durchmarsch_is_paid_as_a_solo_schwarz() -> None:
    facts = completed("schafkopf", SCHAFKOPF, every_trick=0)
    assert facts["tricks"] == [8, 0, 0, 0]
    assert verdict("schafkopf", SCHAFKOPF, facts, "bsv").scores == (210, -70, -70, -70)


def test_a_player_whose_card_points_are_all_zero_still_took_a_trick_unless_tapped() -> None:
    facts = completed("skat", THREE, points=[0, 60, None])  # three 7, 8 or 9s: a trick worth nothing
    assert facts["tricks"][0] >= 1
    assert verdict("skat", THREE, facts, "classic").scores == (0, -60, -60)  # no Jungfrau: not doubled


def test_tricks_typed_are_kept_and_the_rest_completed() -> None:
    facts = completed("schafkopf", SCHAFKOPF, points=[40, 40, 25, None], tricks=[3, 2, None, None])
    assert facts["tricks"][:2] == [3, 2] and sum(facts["tricks"]) == 8
    assert verdict("schafkopf", SCHAFKOPF, facts, "bsv").scores[0] < 0  # the tied player with more tricks loses


def test_a_skat_tie_needs_no_tricks_all_tied_players_lose() -> None:
    facts = completed("skat", THREE, points=[45, 45, None])
    assert verdict("skat", THREE, facts, "classic").scores == (-45, -45, 0)


def test_whole_lists_without_taps_are_left_to_the_contract() -> None:
    typed = {"contract": "ramsch", "points": [30, 40, 60], "tricks": [3, 3, 3]}
    assert complete("skat", typed, SKAT, THREE) == typed  # the contract refuses the sums, not the completion
    assert complete("skat", {"contract": "ramsch"}, SKAT, THREE) == {"contract": "ramsch"}  # nothing entered


def test_other_contracts_pass_as_they_are() -> None:
    grand = {"contract": "grand", "declarer": 0, "bid": 18, "matadors": 1, "card_points": 70}
    assert complete("skat", grand, SKAT, THREE) is grand
    assert entered("skat", grand, SKAT, THREE) is grand


# --- impossible entries, refused at the input at fault -----------------------------------------------------

@pytest.mark.parametrize(("game", "table", "facts", "field"), [
    pytest.param("skat", THREE, {"points": [30, None, None]}, "deal.points.2", id="two-left-empty"),
    pytest.param("skat", THREE, {"points": [80, 50, None]}, "deal.points.0", id="over-the-pack"),
    pytest.param("skat", THREE, {"points": [30, 40, 60]}, "deal.points.0", id="all-typed-not-120"),
    pytest.param("skat", THREE, {"points": [119, None, None], "no_trick": [1]}, "deal.points.0",
                 id="no-cards-add-up-to-119"),
    pytest.param("skat", THREE, {"points": [30, 40, None], "no_trick": [0]}, "deal.no_trick",
                 id="jungfrau-with-card-points"),
    pytest.param("skat", THREE, {"points": [0, 0, None], "no_trick": [0, 1, 2]}, "deal.no_trick",
                 id="nobody-took-a-trick"),
    pytest.param("skat", THREE, {"points": [30, 40, None], "every_trick": 2}, "deal.every_trick",
                 id="durchmarsch-but-others-have-points"),
    pytest.param("skat", THREE, {"every_trick": 1, "no_trick": [1]}, "deal.every_trick",
                 id="every-trick-and-no-trick-at-once"),
    pytest.param("skat", FOUR_DEALER_3, {"points": [30, 40, None, None], "no_trick": [3]}, "deal.no_trick",
                 id="the-sitting-dealer-cannot-be-tapped"),
    pytest.param("skat", THREE, {"points": [30, 40, None], "tricks": [0, None, None]}, "deal.tricks.0",
                 id="typed-no-trick-with-points"),
    pytest.param("schafkopf", SCHAFKOPF, {"points": [100, 10, 10, None], "tricks": [2, None, None, None]},
                 "deal.tricks.0", id="too-few-tricks-for-100"),
    pytest.param("schafkopf", SCHAFKOPF, {"points": [40, 40, 25, None], "tricks": [4, 4, 4, None]},
                 "deal.tricks", id="typed-tricks-over-eight"),
    pytest.param("schafkopf", SCHAFKOPF, {"points": [40, 40, 25, None]}, "deal.tricks.0",
                 id="a-tie-the-tricks-decide"),
    pytest.param("schafkopf", SCHAFKOPF, {"points": [40, 40, 25, None], "tricks": [3, None, None, None]},
                 "deal.tricks.1", id="a-tie-with-one-tied-players-tricks"),
])
def test_impossible_entries_are_refused_naming_the_input(game: str, table: Table, facts: dict[str, Any],
                                                         field: str) -> None:
    err = refused(game, table, **facts)
    assert err.field == field, err
    assert err.message


def test_a_refusal_says_why_in_the_players_terms() -> None:
    err = refused("schafkopf", SCHAFKOPF, points=[40, 40, 25, None])
    assert err.message == "seats 0 and 1 tie on 40 card points, and the tricks decide who loses: enter their tricks"
    err = refused("skat", THREE, points=[30, 40, None], no_trick=[0])
    assert err.message == "seat 0 took no trick, so it has no card points, not 30"
    err = refused("skat", THREE, points=[30, None, None])
    assert err.message == "enter the card points of every player but one (that one has the rest of the 120)"


# --- a stored deal as the page shows it again ---------------------------------------------------------------

@pytest.mark.parametrize(("game", "table", "stored", "shown"), [
    pytest.param("skat", THREE, {"points": [30, 90, 0], "tricks": [2, 8, 0]},
                 {"points": [30, 90, 0], "no_trick": [2]}, id="jungfrau-tricks-follow"),
    pytest.param("skat", FOUR_DEALER_1, {"points": [0, 0, 120, 0], "tricks": [0, 0, 10, 0]},
                 {"points": [0, 0, 120, 0], "every_trick": 2}, id="durchmarsch"),
    pytest.param("schafkopf", SCHAFKOPF, {"points": [30, 50, 25, 15], "tricks": [2, 3, 2, 1]},
                 {"points": [30, 50, 25, 15]}, id="tricks-follow"),
    pytest.param("schafkopf", SCHAFKOPF, {"points": [30, 50, 25, 15], "tricks": [1, 4, 2, 1]},
                 {"points": [30, 50, 25, 15], "tricks": [1, 4, 2, 1]}, id="tricks-of-their-own"),
])
def test_a_stored_ramsch_is_shown_as_entered_and_completes_back_to_itself(
        game: str, table: Table, stored: dict[str, Any], shown: dict[str, Any]) -> None:
    rules = SKAT if game == "skat" else BSV
    facts = {"contract": "ramsch", **stored}
    assert entered(game, facts, rules, table) == {"contract": "ramsch", **shown}
    assert complete(game, entered(game, facts, rules, table), rules, table) == facts


# --- any real deal: its entries complete to a deal the engine scores the same -----------------------------

def dealt(game: str, table: Table, rng: random.Random) -> tuple[list[int], list[int]]:
    """A Ramsch really played out: the pack shuffled, each trick to a random player, Skat's skat to the taker
    of the last trick. Every seat's card points and tricks."""
    pack = [points for _card, points in cards.FULL_PACK]
    rng.shuffle(pack)
    playing = [seat for seat in range(table.players) if not (game == "skat" and table.players == 4
                                                             and seat == table.dealer)]
    per_trick, count = (3, 10) if game == "skat" else (4, 8)
    points, tricks = [0] * table.players, [0] * table.players
    # Lopsided deals too: a player who takes everything, players who take nothing.
    weights = [rng.choice((0, 1, 1, 3, 8)) or 0.01 for _ in playing]
    for trick in range(count):
        taker = rng.choices(playing, weights)[0]
        tricks[taker] += 1
        points[taker] += sum(pack[trick * per_trick:(trick + 1) * per_trick])
    if game == "skat":
        points[taker] += sum(pack[30:])  # the skat goes with the last trick
    return points, tricks


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), game_table=st.sampled_from([("skat", THREE, "classic"),
                                                               ("skat", FOUR_DEALER_1, ISKO_RAMSCH),
                                                               ("schafkopf", SCHAFKOPF, "bsv"),
                                                               ("schafkopf", SCHAFKOPF, "sauspiel")]),
       left_empty=st.integers(0, 3))
def test_the_entries_of_any_real_ramsch_complete_to_a_deal_scored_the_same(
        seed: int, game_table: tuple[str, Table, str | dict[str, Any]], left_empty: int) -> None:
    game, table, preset = game_table
    rng = random.Random(seed)
    points, tricks = dealt(game, table, rng)
    truth = {"contract": "ramsch", "points": points, "tricks": tricks}
    playing = [seat for seat in range(table.players) if not (game == "skat" and table.players == 4
                                                             and seat == table.dealer)]
    count = 10 if game == "skat" else 8
    sweeper = next((seat for seat in playing if tricks[seat] == count), None)
    typed: list[int | None] = list(points)
    typed[playing[left_empty % len(playing)]] = None
    page: dict[str, Any] = {"contract": "ramsch", "points": typed}
    if sweeper is not None:
        page["every_trick"] = sweeper
    elif any(tricks[seat] == 0 for seat in playing):
        page["no_trick"] = [seat for seat in playing if tricks[seat] == 0]
    top = max(points)
    tied = [seat for seat in playing if points[seat] == top]
    if game == "schafkopf" and len(tied) > 1:  # the scorer types the tied players' tricks
        page["tricks"] = [tricks[seat] if seat in tied else None for seat in range(table.players)]
    rules = GAMES[game].parse_rules({"preset": preset} if isinstance(preset, str) else preset)
    facts = complete(game, page, rules, table)
    assert facts["points"] == points
    assert verdict(game, table, facts, preset).scores == verdict(game, table, truth, preset).scores
