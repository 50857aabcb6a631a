"""The tournament draw and tables (`rules.draw`, `rules.tournament`): every entrant seated once, the table
sizes the rules say, the same draw for the same seed, repeats avoided where they can be."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeep.rules import IllegalDeal
from scorekeep.rules.draw import Conflict, Seatable, draw, pairs_of
from scorekeep.rules.tournament import (
    ROUND,
    SERIES,
    Unit,
    check_series_length,
    check_table,
    format_of,
    series_length_at,
    table_sizes,
)


@pytest.mark.parametrize(("game", "players", "sizes", "byes"), [
    ("skat", 13, [4, 3, 3, 3], 0), ("skat", 6, [3, 3], 0), ("skat", 7, [4, 3], 0), ("skat", 3, [3], 0),
    ("skat", 5, [4], 1), ("skat", 16, [4, 4, 4, 4], 0), ("fipsen", 10, [4, 3, 3], 0),
    ("schafkopf", 14, [4, 4, 4], 2), ("kop", 8, [4, 4], 0), ("kop", 5, [4], 1),
], ids=lambda v: str(v))
def test_tables_of_four_where_possible_and_three_or_a_bye_for_the_rest(game, players, sizes, byes):
    assert table_sizes(game, players) == (sizes, byes)


@pytest.mark.parametrize(("game", "players"), [("skat", 2), ("schafkopf", 3), ("kop", 0)])
def test_too_few_for_a_table_is_refused_naming_the_entrants(game, players):
    with pytest.raises(IllegalDeal) as err:
        table_sizes(game, players)
    assert err.value.field == "entrants"


def test_a_skat_series_of_48_is_36_at_a_table_of_three():
    assert series_length_at("skat", 48, 4) == 48
    assert series_length_at("skat", 48, 3) == 36


@pytest.mark.parametrize("length", [0, 30, -4, "48", 404])
def test_a_series_length_not_a_multiple_of_four_is_refused(length):
    with pytest.raises(IllegalDeal) as err:
        check_series_length("skat", length)
    assert err.value.field == "series_length"


def _entrants(n, clubs=1, teams=0):
    return [Seatable(i, f"club {i % clubs}" if clubs > 1 else "", f"team {i % teams}" if teams else None)
            for i in range(1, n + 1)]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["skat", "fipsen", "schafkopf", "kop"]), st.integers(3, 45), st.text(max_size=8),
       st.booleans())
def test_every_entrant_is_seated_once_or_has_a_bye(game, n, seed, ranked):
    try:
        sizes, byes = table_sizes(game, n)
    except IllegalDeal:
        return
    result = draw(game, _entrants(n, clubs=3, teams=4), set(), list(range(n, 0, -1)) if ranked else None,
                  "standings" if ranked else "random", seed)
    seated = [number for table in result.tables for number in table]
    assert sorted(seated + result.byes) == list(range(1, n + 1))
    assert [len(t) for t in result.tables] == sizes
    assert len(result.byes) == byes


@settings(max_examples=20, deadline=None)
@given(st.integers(3, 40), st.text(max_size=8))
def test_the_same_seed_draws_the_same_tables(n, seed):
    entrants = _entrants(n, clubs=2)
    assert draw("skat", entrants, set(), None, "random", seed) == draw("skat", entrants, set(), None, "random", seed)


@settings(max_examples=15, deadline=None)
@given(st.integers(16, 48), st.text(max_size=8), st.text(max_size=8))
def test_a_second_series_seats_no_one_with_a_player_met_in_the_first(n, first, second):
    entrants = _entrants(n)
    met = pairs_of(draw("skat", entrants, set(), None, "random", first).tables)
    again = draw("skat", entrants, met, None, "random", second)
    assert not pairs_of(again.tables) & met
    assert not [u for u in again.unavoided if u.conflict == Conflict.REPEAT]


def test_what_cannot_be_avoided_is_reported():
    # Three players of one club at the only table: the draw cannot part them, and says so.
    result = draw("skat", [Seatable(i, "Kreuz Bube") for i in (1, 2, 3)], {(1, 2)}, None, "random", "s")
    kinds = sorted((u.first, u.second, str(u.conflict)) for u in result.unavoided)
    assert kinds == [(1, 2, "club"), (1, 2, "repeat"), (1, 3, "club"), (2, 3, "club")]


def test_players_of_one_team_are_parted_where_they_can_be():
    entrants = [Seatable(i, "", "A" if i <= 2 else None) for i in range(1, 9)]
    for seed in ("a", "b", "c"):
        result = draw("schafkopf", entrants, set(), None, "random", seed)
        assert not result.unavoided


def test_by_standings_the_leaders_sit_together():
    entrants = _entrants(12)
    result = draw("schafkopf", entrants, set(), [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1], "standings", "s")
    assert sorted(result.tables[0]) == [9, 10, 11, 12]


def test_the_bye_goes_to_who_had_fewest():
    entrants = _entrants(5)
    result = draw("schafkopf", entrants, set(), None, "random", "s", byes={1: 1, 2: 1, 3: 1, 4: 1})
    assert result.byes == [5]


def test_a_complete_skat_list_passes_its_check():
    assert check_table("skat", 36, [0, 1, 2] * 12, [10, -5, 3]) == []


def test_a_skat_list_says_what_is_missing():
    problems = [str(p) for p in check_table("skat", 36, [0, 1, 2] * 11 + [0, 0], [1, 2, 3])]
    assert problems == ["deals missing: 1 of 36", "seat 0 dealt 13 times, not 12"]
    complete = [str(p) for p in check_table("skat", 36, [0, 1, 2] * 11 + [0, 0, 1], [1, 2, 3])]
    assert complete == ["seat 0 dealt 13 times, not 12", "seat 2 dealt 11 times, not 12"]


def test_a_list_under_way_is_only_missing_its_deals():
    assert [str(p) for p in check_table("skat", 48, [0, 1, 2, 3] * 3, [0, 0, 0, 0])] == [
        "deals missing: 36 of 48"]


def test_a_schafkopf_list_must_sum_to_zero():
    assert [str(p) for p in check_table("schafkopf", 4, [0, 1, 2, 3], [10, -10, 5, 0])] == [
        "the list sums to 5, not to zero"]
    assert check_table("schafkopf", 4, [0, 0, 0, 0], [10, -10, 0, 0]) == []  # dealing turns are not checked


def test_deals_beyond_the_series_are_said():
    assert [str(p) for p in check_table("kop", 4, [0, 1, 2, 3, 0], [0, 0, 0, 0])] == [
        "deals beyond the series' 4: 1"]


def test_a_kop_round_needs_its_deals_only():
    assert check_table("kop", 32, [0] * 32, [5, 1, 2, 3]) == []
    assert len(check_table("kop", 32, [0] * 31, [0, 0, 0, 0])) == 1


@pytest.mark.parametrize("game,unit", [("skat", SERIES), ("schafkopf", SERIES), ("fipsen", SERIES), ("kop", ROUND)])
def test_kop_is_played_in_rounds_the_others_in_series(game: str, unit: Unit) -> None:
    assert format_of(game).unit == unit
    assert unit.numbered.format(n=2) == ("Round 2" if game == "kop" else "Series 2")
