"""The seating as data (`seating.rotation`): what a page offline evaluates for the next deal must be what the
engine's seating says, for every game and every table size it allows, through any number of deals."""

import json

import pytest

from scorekeep.rules import GAMES, inputs
from scorekeep.rules.seating import engine_dealer, next_dealer, rotation, seating, sits_out
from scorekeep.rules.verdict import Table

SIZES = [(game, players) for game, module in GAMES.items() for players in module.PLAYERS]


def test_every_game_is_described_at_three_four_and_five_where_it_allows_them() -> None:
    sizes = set(SIZES)
    for game, module in GAMES.items():
        for players in (3, 4, 5):
            assert ((game, players) in sizes) == (players in module.PLAYERS)


@pytest.mark.parametrize(("game", "players"), SIZES)
def test_each_dealer_as_the_engine_seats_the_deal(game: str, players: int) -> None:
    plan = rotation(game, players)
    assert plan["players"] == players
    assert [deal["dealer"] for deal in plan["deals"]] == list(range(players))
    for deal in plan["deals"]:
        dealer = deal["dealer"]
        seats = seating(game, players, dealer)
        out = sits_out(game, seats, dealer, players)
        assert deal["seats"] == seats
        assert deal["out"] == out
        assert deal["dealer_seat"] == engine_dealer(seats, dealer)
        assert sorted(deal["playing"] + deal["out"]) == list(range(players))
        # Forehand is the engine's seat 0 of the play order (Table.left_of_dealer), and plays.
        table = Table(len(seats), engine_dealer(seats, dealer))
        lead = next(seat for seat in range(len(seats)) if table.left_of_dealer(seat) == 0)
        assert deal["forehand"] == seats[lead]
        assert deal["forehand"] in deal["playing"]
        assert deal["playing"] == [p for p in seats if p not in out]
        assert deal["form"] == ".".join(map(str, seats))
    assert json.loads(json.dumps(plan)) == plan  # plain data, for the page


@pytest.mark.parametrize(("game", "players"), SIZES)
def test_sixty_deals_followed_from_the_description_are_the_engines(game: str, players: int) -> None:
    """A night offline: the page follows `next` from the first dealer; every deal's players are the engine's."""
    plan = rotation(game, players)
    by_dealer = {deal["dealer"]: deal for deal in plan["deals"]}
    for first in range(players):
        dealer = engine_turn = first
        for _deal in range(60):
            described = by_dealer[dealer]
            seats = seating(game, players, engine_turn)
            assert described["seats"] == seats
            assert described["out"] == sits_out(game, seats, engine_turn, players)
            dealer, engine_turn = described["next"], next_dealer(engine_turn, players)


def test_skat_at_four_the_dealer_sits_out_and_the_deal_rotates() -> None:
    """Issue 28: deals 13–16 at a Skat table of four, Anna (0) dealing deal 13."""
    deals = rotation("skat", 4)["deals"]
    dealer, seen = 0, []
    for _number in range(13, 17):
        seen.append((deals[dealer]["playing"], deals[dealer]["out"], deals[dealer]["forehand"]))
        dealer = deals[dealer]["next"]
    assert seen == [([1, 2, 3], [0], 1), ([2, 3, 0], [1], 2), ([3, 0, 1], [2], 3), ([0, 1, 2], [3], 0)]


@pytest.mark.parametrize("game", ["schafkopf", "kop", "fipsen"])
def test_at_five_the_dealer_sits_out_where_four_play(game: str) -> None:
    deals = rotation(game, 5)["deals"]
    assert [deal["out"] for deal in deals] == [[0], [1], [2], [3], [4]]
    assert deals[4]["playing"] == [0, 1, 2, 3] and deals[4]["forehand"] == 0
    assert len({deal["form"] for deal in deals}) == 5  # a form of its own for each seating


@pytest.mark.parametrize(("game", "players"), SIZES)
def test_deals_with_one_form_are_asked_the_same_questions_whoever_deals(game: str, players: int) -> None:
    """The page keeps one entry form per `form` (a table of three: one for every dealer): the engine asks the
    same inputs of every contract, under every preset, for each dealer sharing it."""
    module = GAMES[game]
    by_form: dict[str, list[dict]] = {}
    for deal in rotation(game, players)["deals"]:
        by_form.setdefault(deal["form"], []).append(deal)
    assert any(len(deals) > 1 for deals in by_form.values()) == (len(by_form) < players)
    for preset in module.PRESET_LABELS:
        rules = module.parse_rules({"preset": preset})
        for contract in module.contracts(rules):
            for deals in by_form.values():
                asked = {inputs(game, str(contract), rules, Table(len(deal["seats"]), deal["dealer_seat"]))
                         for deal in deals}
                assert len(asked) == 1, (preset, contract, [deal["dealer"] for deal in deals])
