"""The tournaments' order and tie-breaks per game (scorekeep.rules.ranking)."""

from fractions import Fraction

import pytest

from scorekeep.rules import GAMES
from scorekeep.rules.ranking import CRITERIA, counts_as_solo, criteria, rank, round_places


def keys(game: str, preset: str) -> list[str]:
    return [c.key for c in criteria(game, GAMES[game].parse_rules({"preset": preset}))]


@pytest.mark.parametrize(("game", "preset", "expected"), [
    ("skat", "isko", ["performance", "won", "lost"]),
    ("schafkopf", "bsv", ["total", "soli_won", "lost"]),
    ("kop", "wolsztyn", ["placing", "total", "round_wins", "second_places"]),
    ("kop", "koscian", ["placing", "total", "round_wins", "second_places"]),
    ("kop", "classic", ["total"]),
    ("fipsen", "classic", ["total", "won", "lost"]),
], ids=lambda v: str(v))
def test_each_game_ranks_by_its_order(game: str, preset: str, expected: list[str]) -> None:
    assert keys(game, preset) == expected


def test_fewer_lost_games_rank_higher_and_the_others_more() -> None:
    assert not CRITERIA["lost"].more_is_better
    assert all(c.more_is_better for key, c in CRITERIA.items() if key != "lost")


@pytest.mark.parametrize(("contract", "solo"), [
    ({"contract": "sauspiel", "declarer": 0, "partner": 2}, False),
    ({"contract": "hochzeit", "declarer": 0, "partner": 2}, False),
    ({"contract": "wenz", "declarer": 1}, True),
    ({"contract": "solo", "declarer": 1, "trump": "H"}, True),
    ({"contract": "geier", "declarer": 1}, True),
    ({"contract": "sie", "declarer": 3}, True),
    ({"contract": "ramsch"}, False),
], ids=lambda v: str(v))
def test_a_schafkopf_solo_is_a_game_without_partner(contract: dict, solo: bool) -> None:
    assert counts_as_solo("schafkopf", contract) is solo


def test_skat_counts_no_soli() -> None:
    assert not counts_as_solo("skat", {"contract": "grand", "declarer": 0})


def test_round_places_share_the_better_place() -> None:
    assert round_places([5, 5, 1, -11]) == [1, 1, 3, 4]
    assert round_places([3, 7, 7, -17]) == [3, 1, 1, 4]


SKAT = criteria("skat", GAMES["skat"].parse_rules({"preset": "isko"}))


def fig(performance: int, won: int, lost: int) -> dict[str, Fraction]:
    return {"performance": Fraction(performance), "won": Fraction(won), "lost": Fraction(lost)}


def test_skat_ties_go_to_more_won_games_then_fewer_lost() -> None:
    rows = [fig(1000, 10, 2), fig(1000, 11, 3), fig(1000, 11, 2), fig(1200, 1, 9)]
    places = rank(rows, SKAT, [1, 2, 3, 4])
    assert [(p.index, p.place, p.by_lot) for p in places] == [(3, 1, False), (2, 2, False), (1, 3, False),
                                                              (0, 4, False)]


def test_players_tied_on_everything_share_a_place_until_a_lot_orders_them() -> None:
    rows = [fig(900, 5, 1), fig(1000, 5, 1), fig(1000, 5, 1), fig(800, 0, 0)]
    places = rank(rows, SKAT, [7, 8, 9, 10])
    assert [(p.index, p.place) for p in places] == [(1, 1), (2, 1), (0, 3), (3, 4)]
    drawn = rank(rows, SKAT, [7, 8, 9, 10], lot=[9, 8])
    assert [(p.index, p.place, p.by_lot) for p in drawn] == [(2, 1, True), (1, 2, True), (0, 3, False),
                                                             (3, 4, False)]


def test_a_lot_naming_only_some_of_the_tied_leaves_them_tied() -> None:
    rows = [fig(1, 0, 0)] * 3
    places = rank(rows, SKAT, [1, 2, 3], lot=[3, 1])
    assert {p.place for p in places} == {1}
    assert not any(p.by_lot for p in places)


def test_a_late_entrant_takes_no_place_before_joining() -> None:
    """Issue 31: after series 1, one who joins in series 2 is not ranked (their 0 is no result), and the
    places of the others are as if they were not there; once they have joined, they rank."""
    from scorekeep.rules.ranking import UNRANKED, ranked_after, ties

    order = [CRITERIA["performance"]]
    figures = [{"performance": -30}, {"performance": 0}, {"performance": 50}, {"performance": -30}]
    places = rank(figures, order, [1, 2, 3, 4], unranked=[2])
    assert [(p.index, p.place) for p in places] == [(2, 1), (0, 2), (3, 2), (1, UNRANKED)]
    assert ties(places, [1, 2, 3, 4]) == [[1, 4]]  # the unranked are no tie
    assert not ranked_after(2, 1) and ranked_after(2, 2) and ranked_after(1, 0)
