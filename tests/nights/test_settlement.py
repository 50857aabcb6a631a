"""Settling a night in money (scorekeep/nights/settlement.py): rounding that keeps the sum zero, the fewest
transfers, money from points (each pays each the difference), tournament extras, the night helper.

The central invariants are Hypothesis properties: the transfers pay every rounded balance to the cent;
there are at most n − 1 of them, and exactly the minimum for small tables, checked against a brute
force over every partition of the players written out here independently of the module's subset DP.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeep.models import CardNight
from scorekeep.nights import ledger
from scorekeep.nights import writes as nights
from scorekeep.nights.settlement import (
    EXACT_LIMIT,
    STEPS,
    Extras,
    SettlementError,
    TableScore,
    Transfer,
    fewest_transfers,
    format_money,
    prizes,
    round_balances,
    settle,
    settle_night,
    table_money,
)

NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Eva", "Frieda", "Gustav", "Hanna", "Ida", "Jörg", "Karl", "Lena",
         "Max", "Nina", "Otto", "Paula", "Quirin", "Rosa", "Sepp", "Toni", *(f"Gast {i}" for i in range(1, 21))]


def zero_sum(amounts: list[int]) -> dict[str, int]:
    """Balances for the first len(amounts)+1 names: the last one takes what makes the sum zero."""
    assert len(amounts) < len(NAMES)
    return dict(zip(NAMES, [*amounts, -sum(amounts)], strict=False))


def balances(max_players: int, max_cents: int = 5000) -> st.SearchStrategy[dict[str, int]]:
    return st.lists(st.integers(-max_cents, max_cents), min_size=0, max_size=max_players - 1).map(zero_sum)


def paid(transfers: list[Transfer], names: list[str]) -> dict[str, int]:
    """What each player ends up with from the transfers: received minus paid."""
    net = dict.fromkeys(names, 0)
    for t in transfers:
        net[t.payer] -= t.cents
        net[t.payee] += t.cents
    return net


def partitions(items: list[str]) -> Iterator[list[list[str]]]:
    """Every way to split `items` into non-empty groups."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for smaller in partitions(rest):
        for i in range(len(smaller)):
            yield smaller[:i] + [[first, *smaller[i]]] + smaller[i + 1:]
        yield [[first], *smaller]


def brute_force_fewest(owed: dict[str, int]) -> int:
    """n − (most groups summing to zero), over every partition: a group of k that sums to zero can
    be settled in k − 1 payments and no fewer; no payment ever needs to cross two such groups."""
    names = [name for name, cents in owed.items() if cents]
    if not names:
        return 0
    groups = max(len(p) for p in partitions(names) if all(sum(owed[n] for n in g) == 0 for g in p))
    return len(names) - groups


# --- rounding ----------------------------------------------------------------------------------

def test_rounding_gives_the_left_over_steps_to_the_largest_remainders() -> None:
    # 43.7, −21.2, −22.5 tens: floors 43, −22, −23 leave 2 tens over → Bernd (.8) and Anna (.7).
    assert round_balances({"Anna": 437, "Bernd": -212, "Clara": -225}, 10) == {
        "Anna": 440, "Bernd": -210, "Clara": -230}


def test_rounding_ties_go_in_name_order_whatever_order_the_balances_come_in() -> None:
    first = round_balances({"Clara": 5, "Anna": 5, "Bernd": -10}, 10)
    second = round_balances({"Bernd": -10, "Anna": 5, "Clara": 5}, 10)
    assert first == second == {"Anna": 10, "Bernd": -10, "Clara": 0}


def test_rounding_leaves_exact_multiples_alone_and_handles_fractions_of_a_cent() -> None:
    assert round_balances({"Anna": Fraction(1, 3), "Bernd": Fraction(2, 3), "Clara": -1}, 1) == {
        "Anna": 0, "Bernd": 1, "Clara": -1}


@given(balances(12, 100_000), st.sampled_from(STEPS))
def test_rounding_keeps_the_sum_zero_and_moves_each_balance_by_less_than_a_step(
        owed: dict[str, int], step: int) -> None:
    rounded = round_balances(owed, step)
    assert set(rounded) == set(owed)
    assert sum(rounded.values()) == 0
    for name, cents in owed.items():
        assert rounded[name] % step == 0
        assert abs(rounded[name] - cents) < step
        if cents % step == 0:
            assert rounded[name] == cents


@given(st.lists(st.fractions(min_value=-500, max_value=500, max_denominator=30), min_size=1, max_size=8),
       st.sampled_from(STEPS))
def test_rounding_exact_fractions_keeps_the_sum_zero(parts: list[Fraction], step: int) -> None:
    exact = dict(zip(NAMES, [*parts, -sum(parts)], strict=False))
    rounded = round_balances(exact, step)
    assert sum(rounded.values()) == 0
    assert all(abs(rounded[name] - value) < step for name, value in exact.items())


@pytest.mark.parametrize("step", [0, 3, 20, True, "10"], ids=["0", "3", "20", "bool", "text"])
def test_rounding_refuses_a_step_players_do_not_use(step: object) -> None:
    with pytest.raises(SettlementError) as err:
        round_balances({"Anna": 10, "Bernd": -10}, step)  # type: ignore[arg-type]
    assert err.value.field == "step"
    assert "1, 5, 10, 50, 100" in err.value.message


def test_balances_that_do_not_sum_to_zero_are_refused() -> None:
    with pytest.raises(SettlementError) as err:
        round_balances({"Anna": 10, "Bernd": -9})
    assert err.value.field == "balances"
    with pytest.raises(SettlementError):
        fewest_transfers({"Anna": 10, "Bernd": -9})


# --- fewest transfers --------------------------------------------------------------------------

def test_clara_pays_anna() -> None:
    transfers, minimal = fewest_transfers({"Anna": 420, "Bernd": 0, "Clara": -420})
    assert transfers == [Transfer("Clara", "Anna", 420)]
    assert minimal


def test_pairs_that_cancel_are_settled_apart() -> None:
    # Three groups that each sum to zero (two pairs and a three) settle in 7 − 3 = 4 transfers.
    owed = {"Anna": 500, "Bernd": -500, "Clara": 300, "Dieter": -300, "Eva": 800, "Frieda": -250, "Gustav": -550}
    transfers, minimal = fewest_transfers(owed)
    assert minimal and len(transfers) == 4
    assert Transfer("Bernd", "Anna", 500) in transfers and Transfer("Dieter", "Clara", 300) in transfers
    assert paid(transfers, list(owed)) == owed


@settings(max_examples=300)
@given(balances(7, 60))
def test_transfers_are_the_fewest_possible_on_small_tables(owed: dict[str, int]) -> None:
    # Small amounts make zero-sum subgroups common, which is where a greedy settlement goes wrong.
    transfers, minimal = fewest_transfers(owed)
    assert minimal
    assert len(transfers) == brute_force_fewest(owed)
    assert paid(transfers, list(owed)) == owed


@settings(max_examples=200)
@given(balances(EXACT_LIMIT + 18, 200_000))
def test_transfers_settle_every_balance_exactly(owed: dict[str, int]) -> None:
    transfers, minimal = fewest_transfers(owed)
    assert paid(transfers, list(owed)) == owed
    nonzero = sum(1 for cents in owed.values() if cents)
    assert len(transfers) <= max(nonzero - 1, 0)
    assert minimal == (nonzero <= EXACT_LIMIT)
    assert all(t.cents > 0 and t.payer != t.payee for t in transfers)
    assert all(owed[t.payer] < 0 < owed[t.payee] for t in transfers)  # nobody pays and receives
    order = [(t.payer.casefold(), t.payee.casefold()) for t in transfers]
    assert order == sorted(order)


@given(balances(EXACT_LIMIT + 8, 3000), st.randoms(use_true_random=False))
def test_transfers_do_not_depend_on_the_order_of_the_balances(owed: dict[str, int], rng: random.Random) -> None:
    names = list(owed)
    rng.shuffle(names)
    assert fewest_transfers({name: owed[name] for name in names}) == fewest_transfers(owed)


def test_many_players_pair_equal_amounts_before_the_greedy_rest() -> None:
    owed = {name: 0 for name in NAMES}
    for i, name in enumerate(NAMES[:14:2]):
        owed[name], owed[NAMES[2 * i + 1]] = 100 * (i + 1), -100 * (i + 1)
    owed["Otto"], owed["Paula"], owed["Quirin"] = 300, -100, -200
    transfers, minimal = fewest_transfers(owed)
    assert not minimal  # 17 players with a balance: beyond the exact limit
    assert len(transfers) == 7 + 2
    assert paid(transfers, list(owed)) == owed


def test_balances_must_be_whole_cents() -> None:
    with pytest.raises(SettlementError) as err:
        fewest_transfers({"Anna": Fraction(1, 2), "Bernd": Fraction(-1, 2)})  # type: ignore[dict-item]
    assert err.value.field == "balances"


# --- from points to money ----------------------------------------------------------------------

def test_a_list_is_settled_each_pays_each_the_difference() -> None:
    # Anna +100, Bernd 0, Clara −50 at 1 cent a point: Bernd pays Anna 100, Clara pays Anna 150 and Bernd 50.
    assert table_money({"Anna": 100, "Bernd": 0, "Clara": -50}, 1, zero_sum=False) == {
        "Anna": 250, "Bernd": -50, "Clara": -200}


def test_zero_sum_scores_are_money_as_they_stand() -> None:
    assert table_money({"Anna": 6, "Bernd": -2, "Clara": -2, "Dieter": -2}, Decimal("0.5"), zero_sum=True) == {
        "Anna": 3, "Bernd": -1, "Clara": -1, "Dieter": -1}


@pytest.mark.parametrize("rate", [0.1, "zehn", Decimal("NaN"), -1, None],
                         ids=["float", "word", "nan", "negative", "none"])
def test_a_rate_must_be_an_exact_number_of_zero_or_more(rate: object) -> None:
    with pytest.raises(SettlementError) as err:
        table_money({"Anna": 10, "Bernd": -10}, rate, zero_sum=True)  # type: ignore[arg-type]
    assert err.value.field == "rate"


@given(st.lists(st.integers(-3000, 3000), min_size=3, max_size=7),
       st.fractions(min_value=0, max_value=10, max_denominator=20))
def test_each_pays_each_gives_a_zero_sum_that_keeps_the_differences(points: list[int], rate: Fraction) -> None:
    names = NAMES[:len(points)]
    money = table_money(dict(zip(names, points, strict=True)), rate, zero_sum=False)
    assert sum(money.values()) == 0
    n = len(points)
    for a, b in zip(names, names[1:], strict=False):
        assert money[a] - money[b] == rate * n * (points[names.index(a)] - points[names.index(b)])


# --- tournament extras -------------------------------------------------------------------------

def test_entry_fee_lost_games_and_prizes() -> None:
    # Pot: 3 × €5 entry + 6 lost games × €0.50 = €18, split 50/30/20 → €9, €5.40, €3.60.
    table = TableScore({"Anna": 100, "Bernd": 0, "Clara": -50}, {"Anna": 1, "Bernd": 2, "Clara": 3})
    result = settle([table], zero_sum=False, rate=1, extras=Extras(500, 50, (50, 30, 20)))
    assert result.pot == 1800
    anna, bernd, clara = result.lines
    assert (anna.name, anna.from_points, anna.lost_fees, anna.prize, anna.exact) == ("Anna", 250, 50, 900, 600)
    assert (bernd.name, bernd.exact, clara.name, clara.exact) == ("Bernd", -110, "Clara", -490)
    assert result.balances == {"Anna": 600, "Bernd": -110, "Clara": -490}
    assert result.transfers == [Transfer("Bernd", "Anna", 110), Transfer("Clara", "Anna", 490)]


def test_tied_players_share_the_prizes_of_their_places() -> None:
    shares = prizes({"Anna": 10, "Bernd": 10, "Clara": 5, "Dieter": 0}, 1000, (50, 30, 20))
    assert shares == {"Anna": 400, "Bernd": 400, "Clara": 200, "Dieter": 0}


def test_a_tournament_without_money_for_points_settles_the_fees_alone() -> None:
    table = TableScore({"Anna": 300, "Bernd": 120, "Clara": -40, "Dieter": 0}, {"Clara": 2})
    result = settle([table], zero_sum=False, rate=0, step=50, extras=Extras(entry_fee=1000, prize_split=(60, 40)))
    assert result.balances == {"Anna": 1400, "Bernd": 600, "Clara": -1000, "Dieter": -1000}
    assert paid(result.transfers, list(result.balances)) == result.balances


@pytest.mark.parametrize(("extras", "field"), [
    (Extras(entry_fee=-100, prize_split=(100,)), "entry_fee"),
    (Extras(lost_game_fee=Decimal("0.5"), prize_split=(100,)), "lost_game_fee"),  # type: ignore[arg-type]
    (Extras(entry_fee=500, prize_split=(50, 30)), "prize_split"),
    (Extras(entry_fee=500), "prize_split"),
    (Extras(entry_fee=500, prize_split=(40, 30, 20, 10)), "prize_split"),
    (Extras(entry_fee=500, prize_split=(-10, 110)), "prize_split"),
], ids=["negative-fee", "fee-not-cents", "split-not-100", "no-split", "more-places-than-players", "negative-share"])
def test_bad_extras_name_their_field(extras: Extras, field: str) -> None:
    with pytest.raises(SettlementError) as err:
        settle([TableScore({"Anna": 1, "Bernd": 0, "Clara": -1})], zero_sum=True, rate=1, extras=extras)
    assert err.value.field == field
    assert err.value.to_json() == {"field": field, "message": err.value.message}


@settings(max_examples=150)
@given(st.lists(st.lists(st.integers(-500, 500), min_size=3, max_size=5), min_size=1, max_size=3),
       st.integers(0, 1000), st.integers(0, 100), st.sampled_from(STEPS),
       st.sampled_from([(), (100,), (60, 40), (50, 30, 20)]),
       st.fractions(min_value=0, max_value=3, max_denominator=4))
def test_a_settled_night_always_balances(tables: list[list[int]], entry_fee: int, lost_fee: int, step: int,
                                         split: tuple[int, ...], rate: Fraction) -> None:
    # Tables overlap in their names (Anna at every table), as when a player changes tables.
    scores = [TableScore(dict(zip(NAMES, points, strict=False)),
                         {NAMES[i]: abs(p) % 3 for i, p in enumerate(points)}) for points in tables]
    extras = Extras(entry_fee if split else 0, lost_fee if split else 0, split)
    result = settle(scores, zero_sum=False, rate=rate, step=step, extras=extras)
    assert sum(result.balances.values()) == 0
    assert paid(result.transfers, list(result.balances)) == result.balances
    assert sum(line.prize for line in result.lines) == result.pot
    for line in result.lines:
        assert abs(line.balance - line.exact) < step and line.balance % step == 0


# --- money ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("cents", "currency", "plus", "text"), [
    (420, "EUR", False, "€4.20"), (-60, "EUR", False, "\u2212€0.60"), (20, "EUR", True, "+€0.20"),
    (0, "EUR", True, "€0.00"), (150, "CHF", False, "1.50\u00a0CHF"), (-12345, "GBP", True, "\u2212£123.45"),
])
def test_money_is_written_in_the_nights_currency(cents: int, currency: str, plus: bool, text: str) -> None:
    assert format_money(cents, currency, plus=plus) == text


# --- a card night --------------------------------------------------------------------------------

def test_a_schafkopf_night_settles_its_cents_as_they_stand(demo: dict[str, CardNight]) -> None:
    night = demo["schafkopf"]
    sheet = ledger.build(night.tables.get())
    result = settle_night(night, step=1)
    assert result.balances == dict(zip(sheet.names, sheet.totals, strict=True))
    assert paid(result.transfers, sheet.names) == result.balances
    assert result.minimal and len(result.transfers) <= 3 and result.currency == "EUR"


@pytest.mark.parametrize("basis", ["list", "performance"])
def test_a_skat_list_is_settled_each_pays_each(demo: dict[str, CardNight], basis: str) -> None:
    night = demo["skat"]
    sheet = ledger.build(night.tables.get())
    numbers = sheet.totals if basis == "list" else sheet.performance
    result = settle_night(night, rate=1, basis=basis, step=1)  # type: ignore[arg-type]
    for name, mine in zip(sheet.names, numbers, strict=True):
        assert result.balances[name] == sum(mine - theirs for theirs in numbers)
    assert paid(result.transfers, sheet.names) == result.balances


def test_kop_prizes_follow_the_placing_points(demo: dict[str, CardNight]) -> None:
    night = demo["kop"]
    sheet = ledger.build(night.tables.get())
    assert sheet.placing_totals is not None
    result = settle_night(night, rate=0, extras=Extras(entry_fee=200, prize_split=(100,)))
    best = max(sheet.placing_totals)
    winners = [name for name, p in zip(sheet.names, sheet.placing_totals, strict=True) if p == best]
    for line in result.lines:
        assert line.prize == (Fraction(1000, len(winners)) if line.name in winners else 0)


@pytest.mark.parametrize(("game", "options", "field"), [
    ("skat", {}, "rate"), ("kop", {"rate": 1, "basis": "performance"}, "basis"),
    ("skat", {"rate": 1, "basis": "seeger"}, "basis"), ("fipsen", {"rate": 1, "step": 25}, "step"),
])
def test_settling_a_night_refuses_what_it_cannot_use(demo: dict[str, CardNight], game: str, options: dict,
                                                     field: str) -> None:
    with pytest.raises(SettlementError) as err:
        settle_night(demo[game], **options)
    assert err.value.field == field


@pytest.mark.django_db
def test_a_player_at_two_tables_gets_both_balances() -> None:
    night = nights.start_night(game="skat", preset="classic", players=["Anna", "Bernd", "Clara"])
    second = nights.seat_table(night, ["Dieter", "Anna", "Eva"])
    grand = {"contract": "grand", "bid": 18, "matadors": 2, "card_points": 70}  # 24 × 3 = 72
    nights.enter_deal(night.tables.get(number=1), {**grand, "declarer": 0})  # Anna +72 at table 1
    nights.enter_deal(second, {**grand, "declarer": 0})  # Dieter +72 at table 2
    result = settle_night(night, rate=1, step=1)
    # Table 1: Anna 2 × 72 = +144, Bernd and Clara −72; table 2: Dieter +144, Anna and Eva −72.
    assert result.balances == {"Anna": 72, "Bernd": -72, "Clara": -72, "Dieter": 144, "Eva": -72}
    assert next(line for line in result.lines if line.name == "Anna").points == 72
    # {Anna, Bernd} and {Clara, Dieter, Eva} each sum to zero: 5 − 2 = 3 transfers, across the tables.
    assert len(result.transfers) == 3 and paid(result.transfers, list(result.balances)) == result.balances
