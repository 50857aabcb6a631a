"""The ledger derivation (scorekeep/nights/ledger.py): seating rotation, numbering, recompute, running totals,
won/lost counts, Seeger-Fabian performance and Kop placings.

The central invariant is checked with Hypothesis against an independent reference: every running total
equals the sum of the engine's own verdicts (`scorekeep.rules.judge`, called here directly, not through
the ledger) for the deals before it, with seats mapped to people by a seating written out in this file,
and stays so through corrections, deletions and restorings at random positions.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeep.models import CardNight, CardTable, Deal, DealRevision
from scorekeep.nights import ledger
from scorekeep.nights import writes as nights
from scorekeep.rules import IllegalDeal, adjudicate, judge

NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Eva", "Frieda"]


def table_of(night: CardNight) -> CardTable:
    return night.tables.get()


def grand(declarer: int, card_points: int, **more: Any) -> dict[str, Any]:
    """A Grand without 1 bid 18 (game value 48) by `declarer`."""
    return {"contract": "grand", "declarer": declarer, "bid": 18, "matadors": -1, "card_points": card_points, **more}


# --- the seating, written out independently of ledger.seating ----------------------------------

def expected_seating(game: str, players: int, dealer: int) -> tuple[list[int], int]:
    """(table positions in engine seats 0 …, the engine's dealer seat), as clubs seat people."""
    left = [(dealer + k) % players for k in range(1, players)]  # clockwise from forehand
    if game == "skat" and players >= 4:
        return left[:3] + [dealer], 3  # three play from the dealer's left; the dealer sits in seat 3
    if players in (3, 4):
        return list(range(players)), dealer  # everyone plays in table order
    return left[:4], 3  # four play from the dealer's left; the seat before forehand is the dealer's


SEATING_CASES = [
    # game, players, dealer, seats, engine dealer, sitting out
    ("skat", 3, 1, [0, 1, 2], 1, []),
    ("skat", 4, 0, [1, 2, 3, 0], 3, [0]),
    ("skat", 4, 2, [3, 0, 1, 2], 3, [2]),
    ("skat", 5, 4, [0, 1, 2, 4], 3, [3, 4]),
    ("skat", 6, 1, [2, 3, 4, 1], 3, [0, 1, 5]),
    ("schafkopf", 4, 2, [0, 1, 2, 3], 2, []),
    ("schafkopf", 5, 2, [3, 4, 0, 1], 3, [2]),
    ("kop", 4, 3, [0, 1, 2, 3], 3, []),
    ("kop", 5, 0, [1, 2, 3, 4], 3, [0]),
    ("fipsen", 3, 0, [0, 1, 2], 0, []),
    ("fipsen", 4, 1, [0, 1, 2, 3], 1, []),
    ("fipsen", 5, 3, [4, 0, 1, 2], 3, [3]),
]


@pytest.mark.parametrize(("game", "players", "dealer", "seats", "engine_dealer", "out"), SEATING_CASES,
                         ids=[f"{c[0]}-{c[1]}p-dealer{c[2]}" for c in SEATING_CASES])
def test_seating_names_who_plays_in_which_seat_and_who_sits_out(
        game: str, players: int, dealer: int, seats: list[int], engine_dealer: int, out: list[int]) -> None:
    got = ledger.seating(game, players, dealer)
    assert got == seats
    assert ledger.engine_dealer(got, dealer) == engine_dealer
    playing = got[:3] if game == "skat" and len(got) == 4 else got  # 4-seat Skat: seat 3 deals and sits out
    assert sorted(set(range(players)) - set(playing)) == out


@pytest.mark.parametrize(("game", "players"), [("skat", 4), ("skat", 5), ("skat", 6), ("schafkopf", 5), ("kop", 5),
                                               ("kop", 6), ("fipsen", 5)])
def test_forehand_the_dealers_left_is_engine_seat_0_when_someone_sits_out(game: str, players: int) -> None:
    for dealer in range(players):
        seats = ledger.seating(game, players, dealer)
        assert seats[0] == (dealer + 1) % players
        assert (seats[ledger.engine_dealer(seats, dealer)] == dealer) == (game == "skat")


@pytest.mark.parametrize(("game", "players", "playing"), [("skat", 3, 3), ("skat", 4, 3), ("skat", 5, 3),
                                                          ("skat", 6, 3), ("schafkopf", 4, 4), ("schafkopf", 5, 4),
                                                          ("kop", 5, 4), ("fipsen", 3, 3), ("fipsen", 5, 4)])
def test_a_full_round_of_dealers_lets_everyone_deal_once_and_sit_out_equally(game: str, players: int,
                                                                             playing: int) -> None:
    played = [0] * players
    for dealer in range(players):
        seats = ledger.seating(game, players, dealer)
        assert sorted(seats) == sorted(set(seats)), "nobody sits in two seats"
        for position in seats[:playing]:
            played[position] += 1
    assert played == [playing] * players


@pytest.mark.parametrize(("game", "players"), [("skat", 2), ("skat", 8), ("schafkopf", 3), ("kop", 3),
                                               ("fipsen", 2)])
def test_a_table_size_the_game_does_not_take_is_refused(game: str, players: int) -> None:
    with pytest.raises(ValueError, match=game):
        ledger.engine_seats(game, players)


def test_the_engine_seat_mapping_is_consistent_with_expected_seating_for_every_dealer() -> None:
    for game, sizes in ledger.PLAYERS.items():
        for players in sizes:
            for dealer in range(players):
                seats = ledger.seating(game, players, dealer)
                assert (seats, ledger.engine_dealer(seats, dealer)) == expected_seating(game, players, dealer)


# --- dealing and entering ----------------------------------------------------------------------

@pytest.mark.django_db
def test_at_a_4_seat_skat_table_the_sitting_dealer_gets_seeger_fabian_30_on_a_lost_game() -> None:
    night = nights.start_night(game="skat", preset="classic", players=NAMES[:4], first_dealer=1)
    table = table_of(night)
    deal = nights.enter_deal(table, grand(0, 50))  # dealt by Bernd: Clara declares in seat 0 and loses
    assert deal.seating == [2, 3, 0, 1] and deal.dealer == 1
    row = ledger.build(table).rows[0]
    assert row.entries == [0, None, -96, 0]  # Bernd deals and sits out: his list cell stays blank
    assert row.seeger_fabian == [30, 30, -50, 30]
    assert row.declarers == [2]


@pytest.mark.django_db
def test_at_a_4_seat_skat_table_the_dealer_cannot_declare() -> None:
    night = nights.start_night(game="skat", preset="classic", players=NAMES[:4])
    with pytest.raises(IllegalDeal) as caught:
        nights.enter_deal(table_of(night), grand(3, 70))
    assert caught.value.field == "deal.declarer"


@pytest.mark.django_db
def test_next_dealer_moves_left_after_each_deal_and_wraps() -> None:
    night = nights.start_night(game="schafkopf", preset="classic", players=NAMES[:5], first_dealer=3)
    table = table_of(night)
    dealers = []
    for _ in range(6):
        assert nights.next_dealer(table) == (3 + len(dealers)) % 5
        dealers.append(nights.enter_deal(table, {"contract": "passed"}).dealer)
    assert dealers == [3, 4, 0, 1, 2, 3]


@pytest.mark.django_db
def test_next_dealer_ignores_deleted_deals() -> None:
    night = nights.start_night(game="skat", preset="isko", players=NAMES[:3])
    table = table_of(night)
    first = nights.enter_deal(table, {"contract": "passed"})
    second = nights.enter_deal(table, {"contract": "passed"})
    assert (first.dealer, second.dealer, nights.next_dealer(table)) == (0, 1, 2)
    nights.delete_deal(second)
    assert nights.next_dealer(table) == 1  # the deleted deal was not dealt: Bernd deals it again
    nights.delete_deal(first)
    assert nights.next_dealer(table) == table.first_dealer == 0


@pytest.mark.django_db
def test_an_explicit_dealer_is_kept_and_the_rotation_follows_it() -> None:
    night = nights.start_night(game="fipsen", preset="classic", players=NAMES[:4])
    table = table_of(night)
    deal = nights.enter_deal(table, {"contract": "passed"}, dealer=2)
    assert deal.dealer == 2 and nights.next_dealer(table) == 3


@pytest.mark.django_db
def test_enter_deal_refuses_what_the_engine_refuses_and_stores_nothing() -> None:
    night = nights.start_night(game="skat", preset="classic", players=NAMES[:3])
    table = table_of(night)
    with pytest.raises(IllegalDeal) as caught:
        nights.enter_deal(table, grand(0, 121), by="Anna")
    assert caught.value.field == "deal.card_points"
    assert not Deal.objects.exists() and not DealRevision.objects.exists()
    table.refresh_from_db()
    assert table.version == 1  # seated, and nothing since: the refused deal left no trace
    assert nights.next_dealer(table) == 0


@pytest.mark.django_db
def test_enter_deal_stores_facts_verdict_and_a_created_revision_with_consecutive_numbers() -> None:
    night = nights.start_night(game="skat", preset="classic", players=NAMES[:3])
    table = table_of(night)
    facts = [grand(0, 70), {"contract": "clubs", "declarer": 2, "bid": 18, "matadors": 2, "card_points": 40},
             grand(1, 90, hand=True)]
    deals = [nights.enter_deal(table, f, by="Dieter") for f in facts]
    assert [d.sequence for d in deals] == [1, 2, 3]
    for deal, entered in zip(deals, facts, strict=True):
        assert deal.facts == entered and deal.entered_by == "Dieter"
        expected = adjudicate({"game": "skat", "rules": {"preset": "classic"}, "players": 3, "dealer": deal.dealer,
                               "deal": entered})
        assert deal.verdict == expected
        revision = deal.revisions.get()
        assert (revision.kind, revision.by, revision.old) == ("created", "Dieter", None)
        assert revision.new == {"facts": entered, "seating": [0, 1, 2], "dealer": deal.dealer}
    assert [row.number for row in ledger.build(table).rows] == [1, 2, 3]
    table.refresh_from_db()
    assert table.version == 1 + 3  # seated, then three deals: each save refreshes the table's live pages


@pytest.mark.django_db
def test_two_deals_entered_one_after_the_other_get_sequences_1_and_2() -> None:
    night = nights.start_night(game="kop", preset="classic", players=NAMES[:4])
    stale = table_of(night)  # both calls start from the same (stale) table object, as two requests would
    first = nights.enter_deal(stale, {"contract": "normal", "old": [0, 1], "card_points": 60})
    second = nights.enter_deal(stale, {"contract": "normal", "old": [0, 2], "card_points": 40})
    assert (first.sequence, second.sequence) == (1, 2)
    assert (first.dealer, second.dealer) == (0, 1)


@pytest.mark.django_db
def test_recompute_gives_the_verdict_of_the_engine_for_each_deal() -> None:
    night = nights.start_night(game="skat", preset="classic", players=NAMES[:4], house_rules={"bock": True},
                               bock_events=["sixty"])
    table = table_of(night)
    for facts in [grand(0, 60), grand(1, 61), grand(2, 80, kontra=True), grand(0, 30), {"contract": "null",
                  "declarer": 1, "bid": 23, "declarer_tricks": 0}, grand(2, 60)]:
        nights.enter_deal(table, facts)
    Deal.objects.update(verdict={}, bock=False)  # forget what was stored: recompute must derive it all again
    ledger.recompute(table)
    deals = list(table.deals.order_by("sequence"))
    assert [d.bock for d in deals] == [False, True, True, True, True, False]
    for deal in deals:
        expected = judge(ledger.request(night, deal.seating, deal.dealer, deal.facts, deal.bock)).to_json()
        assert deal.verdict == expected
    assert deals[1].verdict["scores"][1] == 2 * 48


@pytest.mark.django_db
def test_recompute_stores_nothing_when_nothing_changed() -> None:
    night = nights.start_night(game="kop", preset="classic", players=NAMES[:4])
    table = table_of(night)
    nights.enter_deal(table, {"contract": "normal", "old": [0, 1], "card_points": 60})
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    with CaptureQueriesContext(connection) as queries:
        ledger.recompute(table)
    assert not [q for q in queries.captured_queries if q["sql"].startswith("UPDATE")]


# --- the ledger's columns ----------------------------------------------------------------------

@pytest.mark.django_db
def test_skat_won_lost_counts_and_performance_is_list_points_plus_seeger_fabian() -> None:
    night = nights.start_night(game="skat", preset="classic", players=NAMES[:3], house_rules={"passed": "void"})
    table = table_of(night)
    nights.enter_deal(table, grand(0, 70))  # Anna +48, SF +50
    nights.enter_deal(table, grand(0, 40))  # Anna −96, SF −50; Bernd, Clara +40 each
    nights.enter_deal(table, {"contract": "passed"})  # nobody
    nights.enter_deal(table, {"contract": "diamonds", "declarer": 2, "bid": 18, "matadors": 1,
                              "card_points": 61})  # Clara +18, SF +50
    book = ledger.build(table)
    assert book.totals == [-48, 0, 18]
    assert book.seeger_fabian_totals == [0, 40, 90]
    assert book.performance == [-48, 40, 108]
    assert (book.won, book.lost) == ([1, 0, 1], [1, 0, 0])
    assert [row.declarers for row in book.rows] == [[0], [0], [], [2]]
    assert book.rows[2].entries == [0, 0, 0] and book.rows[2].verdict.won is None
    assert book.deals_played == 4 and book.series_length is None and not book.series_complete


@pytest.mark.django_db
def test_the_series_is_complete_after_its_length_passed_deals_counted() -> None:
    night = nights.start_night(game="skat", preset="isko", players=NAMES[:3], series_length=36)
    table = table_of(night)
    for _ in range(35):
        nights.enter_deal(table, {"contract": "passed"})
    assert not ledger.build(table).series_complete
    nights.enter_deal(table, {"contract": "passed"})
    book = ledger.build(table)
    assert book.deals_played == 36 and book.series_complete


@pytest.mark.django_db
def test_fipsen_only_the_declarer_scores_and_a_sitting_out_player_has_no_entry() -> None:
    night = nights.start_night(game="fipsen", preset="classic", players=NAMES[:5])
    table = table_of(night)
    # Dealt by Anna (sits out): Bernd is forehand in seat 0; seat 2 is Dieter.
    nights.enter_deal(table, {"contract": "tricks", "declarer": 2, "bid": 3, "hand": True, "tricks_taken": 4})
    # Dealt by Bernd: Clara is forehand, Anna in seat 3, and loses a bid of 2.
    nights.enter_deal(table, {"contract": "tricks", "declarer": 3, "bid": 2, "tricks_taken": 1})
    book = ledger.build(table)
    assert book.rows[0].entries == [None, 0, 0, 6, 0]
    assert book.rows[1].entries == [-4, None, 0, 0, 0]
    assert book.totals == [-4, 0, 0, 6, 0]
    assert (book.won, book.lost) == ([0, 0, 0, 1, 0], [1, 0, 0, 0, 0])
    assert book.seeger_fabian_totals == [0] * 5 and book.performance == book.totals


@pytest.mark.django_db
def test_schafkopf_counts_won_and_lost_for_both_partners() -> None:
    night = nights.start_night(game="schafkopf", preset="classic", players=NAMES[:4])
    table = table_of(night)
    nights.enter_deal(table, {"contract": "sauspiel", "declarer": 0, "partner": 2, "card_points": 70})
    nights.enter_deal(table, {"contract": "solo", "declarer": 1, "trump": "H", "card_points": 50})
    book = ledger.build(table)
    assert book.totals == [10 + 50, -10 - 150, 10 + 50, -10 + 50]
    assert (book.won, book.lost) == ([1, 0, 1, 0], [0, 1, 0, 0])
    assert all(sum(row.entries) == 0 for row in book.rows)  # type: ignore[arg-type]


def test_placing_ties_share_the_points_of_the_places_they_hold_together() -> None:
    assert ledger.placing([10, 10, 3, -23], (4, 3, 2, 1)) == [Fraction(7, 2), Fraction(7, 2), 2, 1]
    assert ledger.placing([0, 5, 5, 5], (4, 3, 2, 1)) == [1, 3, 3, 3]
    assert ledger.placing([1, 1, 1, 1], (5, 3, 1, 0)) == [Fraction(9, 4)] * 4
    assert ledger.placing([-2, 2, 0, 0], (5, 3, 1, 0)) == [0, 5, 2, 2]


def test_placing_pads_the_points_with_0_for_a_fifth_player() -> None:
    assert ledger.placing([1, 2, 3, 4, 5], (4, 3, 2, 1)) == [0, 1, 2, 3, 4]
    assert ledger.placing([1, 1, 3, 4, 5], (4, 3, 2, 1)) == [Fraction(1, 2), Fraction(1, 2), 2, 3, 4]


@given(st.lists(st.integers(-20, 20), min_size=4, max_size=6),
       st.sampled_from([(4, 3, 2, 1), (5, 3, 1, 0)]))
def test_placing_hands_out_exactly_the_points_and_orders_by_total(totals: list[int], points: tuple[int, ...]) -> None:
    got = ledger.placing(totals, points)
    assert sum(got) == sum(points)
    for a in range(len(totals)):
        for b in range(len(totals)):
            if totals[a] > totals[b]:
                assert got[a] >= got[b]
            if totals[a] == totals[b]:
                assert got[a] == got[b]


def kop_deal(old: list[int], card_points: int, old_tricks: int) -> dict[str, Any]:
    return {"contract": "normal", "old": old, "card_points": card_points, "old_tricks": old_tricks}


@pytest.mark.django_db
def test_kop_placing_per_round_and_the_placing_totals() -> None:
    night = nights.start_night(game="kop", preset="wolsztyn", players=NAMES[:4], round_length=2)
    table = table_of(night)
    nights.enter_deal(table, kop_deal([0, 1], 60, 2))  # old 0,1 win 1: +1 +1 −1 −1
    nights.enter_deal(table, kop_deal([0, 2], 60, 2))  # +1 −1 +1 −1 → round: 2, 0, 0, −2
    nights.enter_deal(table, kop_deal([2, 3], 20, 1))  # young 0,1 win 2: +2 +2 −2 −2 (round 2 under way)
    book = ledger.build(table)
    assert [row.placing for row in book.rows[:2]] == [None, [4, Fraction(5, 2), Fraction(5, 2), 1]]
    assert book.rows[2].placing == [Fraction(7, 2), Fraction(7, 2), Fraction(3, 2), Fraction(3, 2)]
    assert book.placing_totals == [Fraction(15, 2), 6, 4, Fraction(5, 2)]  # the round under way counts provisionally
    assert book.totals == [4, 2, -2, -4]
    nights.enter_deal(table, kop_deal([0, 1], 53, 2))  # +1 +1 −1 −1: round 2 ends 3, 3, −3, −3
    book = ledger.build(table)
    assert book.rows[3].placing == [Fraction(7, 2), Fraction(7, 2), Fraction(3, 2), Fraction(3, 2)]
    assert book.placing_totals == [Fraction(15, 2), 6, 4, Fraction(5, 2)]
    assert sum(book.placing_totals) == 2 * 10  # type: ignore[arg-type]


@pytest.mark.django_db
def test_kop_with_five_players_places_the_whole_night_as_one_round_padded_with_0() -> None:
    night = nights.start_night(game="kop", preset="koscian", players=NAMES[:5])
    table = table_of(night)
    nights.enter_deal(table, kop_deal([0, 1], 60, 2))  # Anna deals and sits out; Bernd, Clara win 1
    book = ledger.build(table)
    assert book.rows[0].entries == [None, 1, 1, -1, -1]
    assert book.rows[0].placing == [1, 4, 4, 0, 0]  # 5/3 shared by Bernd, Clara; Anna third alone; 0/0 last
    assert book.placing_totals == book.rows[0].placing


@pytest.mark.django_db
def test_classic_kop_has_no_placing() -> None:
    night = nights.start_night(game="kop", preset="classic", players=NAMES[:4], round_length=1)
    table = table_of(night)
    nights.enter_deal(table, kop_deal([0, 1], 60, 2))
    book = ledger.build(table)
    assert book.placing_totals is None and book.rows[0].placing is None


@pytest.mark.django_db
def test_build_from_prefetched_deals_and_names_makes_no_queries(django_assert_num_queries: Any) -> None:
    night = nights.start_night(game="schafkopf", preset="classic", players=NAMES[:4])
    table = CardTable.objects.select_related("night").get(night=night)
    nights.enter_deal(table, {"contract": "wenz", "declarer": 1, "card_points": 61})
    deals = list(table.deals.filter(deleted=False))
    with django_assert_num_queries(0):
        book = ledger.build(table, deals, NAMES[:4])
    assert book.totals == [-50, 150, -50, -50]


# --- the invariant -----------------------------------------------------------------------------

def _accepted(game: str, rules: dict[str, Any], deal: dict[str, Any], field: str, values: range) -> list[int]:
    return [v for v in values if adjudicate({"game": game, "rules": rules, "deal": {**deal, field: v}})["ok"]]


SKAT_POINTS = _accepted("skat", {}, grand(0, 0), "card_points", range(121))
SCHAFKOPF_POINTS = _accepted("schafkopf", {}, {"contract": "wenz", "declarer": 0}, "card_points", range(121))
KOP_POINTS = _accepted("kop", {}, {"contract": "normal", "old": [0, 1]}, "card_points", range(105))

# The rule set each game is played under in the invariant: Skat and Schafkopf with Bock rounds.
NIGHTS: dict[str, dict[str, Any]] = {
    "skat": {"preset": "classic", "house_rules": {"passed": "void", "bock": True},
             "bock_events": ["kontra_lost", "sixty"]},
    "schafkopf": {"preset": "classic", "house_rules": {"bock": True}, "bock_events": ["doubled_lost", "sixty"],
                  "bock_length": 2},
    "kop": {"preset": "classic", "house_rules": {"round_placing": [4, 3, 2, 1]}, "round_length": 3},  # placings
    "fipsen": {"preset": "classic", "house_rules": {}},
}


def skat_facts(seats: int) -> st.SearchStrategy[dict[str, Any]]:
    declarers = range(3)  # at 4 seats the dealer is seat 3
    game = st.fixed_dictionaries({
        "contract": st.sampled_from(["clubs", "spades", "hearts", "diamonds", "grand"]),
        "declarer": st.sampled_from(declarers), "bid": st.just(18), "matadors": st.sampled_from([1, -1]),
        "card_points": st.sampled_from(SKAT_POINTS), "kontra": st.booleans()})
    return st.one_of(game, st.just({"contract": "passed"}))


def schafkopf_facts(seats: int) -> st.SearchStrategy[dict[str, Any]]:
    points = st.sampled_from(SCHAFKOPF_POINTS)
    doublings = st.integers(0, 2)
    sauspiel = st.permutations(range(4)).flatmap(lambda order: st.fixed_dictionaries({
        "contract": st.just("sauspiel"), "declarer": st.just(order[0]), "partner": st.just(order[1]),
        "card_points": points, "doublings": doublings}))
    solo = st.fixed_dictionaries({"contract": st.just("solo"), "declarer": st.integers(0, 3),
                                  "trump": st.sampled_from("CSHD"), "card_points": points, "doublings": doublings})
    wenz = st.fixed_dictionaries({"contract": st.just("wenz"), "declarer": st.integers(0, 3), "card_points": points,
                                  "doublings": doublings})
    return st.one_of(sauspiel, solo, wenz, st.just({"contract": "passed"}))


def kop_facts(seats: int) -> st.SearchStrategy[dict[str, Any]]:
    def deal(old: list[int]) -> st.SearchStrategy[dict[str, Any]]:
        young = [s for s in range(4) if s not in old]
        # Calls alternate between the sides, so each one counts.
        calls = st.tuples(st.booleans(), st.lists(st.integers(0, 1), max_size=3)).map(
            lambda c: [(young if (i % 2 == 0) == c[0] else old)[pick] for i, pick in enumerate(c[1])])
        return st.fixed_dictionaries({"contract": st.just("normal"), "old": st.just(old),
                                      "card_points": st.sampled_from(KOP_POINTS), "doublings": calls})
    return st.lists(st.integers(0, 3), min_size=2, max_size=2, unique=True).map(sorted).flatmap(deal)


def fipsen_facts(seats: int) -> st.SearchStrategy[dict[str, Any]]:
    tricks = st.fixed_dictionaries({"contract": st.just("tricks"), "declarer": st.integers(0, seats - 1),
                                    "bid": st.integers(2, 5), "hand": st.booleans(), "ruten": st.booleans(),
                                    "tricks_taken": st.integers(0, 5)})
    return st.one_of(tricks, st.just({"contract": "passed"}))


FACTS = {"skat": skat_facts, "schafkopf": schafkopf_facts, "kop": kop_facts, "fipsen": fipsen_facts}
SIZES = {"skat": [3, 4, 5, 6], "schafkopf": [4, 5], "kop": [4, 5], "fipsen": [3, 4, 5]}


def reference(night: CardNight, players: int, deals: list[tuple[int, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The engine's verdict for each (dealer, facts) in order, with Bock rounds derived here from the
    night's settings (an independent reading: each event starts a round of `bock_length` or one deal
    per player, rounds queue, every deal in a round uses one up)."""
    setup = NIGHTS[night.game]
    events = set(setup.get("bock_events", ()))
    length = setup.get("bock_length") or players
    pending = 0
    verdicts = []
    for dealer, facts in deals:
        seats, engine_dealer = expected_seating(night.game, players, dealer)
        bock = pending > 0
        pending -= bock
        deal = {**facts, "bock": True} if bock and facts["contract"] != "passed" else facts
        verdict = judge({"game": night.game, "rules": {"preset": setup["preset"], **setup["house_rules"]},
                         "players": len(seats), "dealer": engine_dealer, "deal": deal}).to_json()
        verdicts.append({"verdict": verdict, "seats": seats, "bock": bock})
        lost = verdict["won"] is False
        if "kontra_lost" in events and facts.get("kontra") and lost:
            pending += length
        if "doubled_lost" in events and facts.get("doublings", 0) > 0 and lost:
            pending += length
        if "sixty" in events and facts.get("card_points") == 60:
            pending += length
    return verdicts


def check_ledger(table: CardTable, players: int) -> None:
    """The stored ledger is the running sum of the reference verdicts of its live deals."""
    night = table.night
    live = list(table.deals.filter(deleted=False).order_by("sequence"))
    expected = reference(night, players, [(d.dealer, d.facts) for d in live])
    book = ledger.build(table)
    # Each row under the number its deal was entered with (issue 33); `position` counts the deals that count.
    assert [row.number for row in book.rows] == [deal.sequence for deal in live]
    assert [row.position for row in book.rows] == list(range(1, len(live) + 1))
    totals = [0] * players
    for row, deal, ref in zip(book.rows, live, expected, strict=True):
        assert deal.seating == ref["seats"]
        assert (deal.verdict, deal.bock) == (ref["verdict"], ref["bock"])
        for seat, position in enumerate(ref["seats"]):
            totals[position] += ref["verdict"]["scores"][seat]
        assert row.totals == totals
        if night.game in ("schafkopf", "kop"):
            assert sum(e for e in row.entries if e is not None) == 0
    assert book.totals == totals
    # Where the table stands, as kept on its row for the pages, is where a fresh walk through the deals ends:
    # totals, games, the Bock deals still to come, who dealt last, the placings.
    table.refresh_from_db()
    kept = ledger.TableStanding.from_json(table.standing)
    assert kept == ledger.walk(night, players, live)[0]
    assert (kept.deals, kept.totals) == (len(live), totals)
    assert kept.next_is_bock == ledger.next_is_bock(night, players, live)
    assert kept.next_dealer(table.first_dealer) == nights.next_dealer(table)
    assert kept.placing_totals(night) == book.placing_totals
    # The latest rows shown from the kept standing carry the same running totals as the whole ledger's.
    latest = ledger.build(table, live[-3:], since=kept.before(live[-3:], night))
    assert [(r.number, r.totals, r.entries) for r in latest.rows] == [
        (r.number, r.totals, r.entries) for r in book.rows[-3:]]


def ledger_view(table: CardTable) -> list[tuple[Any, ...]]:
    return [(row.dealer, row.seats, row.entries, row.totals, row.seeger_fabian, row.deal.bock, row.verdict)
            for row in ledger.build(table).rows]


@st.composite
def nights_with_changes(draw: st.DrawFn) -> tuple[str, int, list[dict[str, Any]], list[tuple[Any, ...]]]:
    game = draw(st.sampled_from(sorted(FACTS)))
    players = draw(st.sampled_from(SIZES[game]))
    facts = FACTS[game](ledger.engine_seats(game, players))
    deals = draw(st.lists(facts, min_size=1, max_size=10))
    changes = draw(st.lists(st.one_of(
        st.tuples(st.just("correct"), st.integers(0, 99), facts),
        st.tuples(st.just("delete"), st.integers(0, 99)),
        st.tuples(st.just("restore"), st.integers(0, 99))), max_size=4))
    return game, players, deals, changes


@pytest.mark.django_db
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nights_with_changes())
def test_running_totals_are_the_sum_of_the_engines_verdicts_through_any_corrections(
        case: tuple[str, int, list[dict[str, Any]], list[tuple[Any, ...]]]) -> None:
    game, players, deals, changes = case
    night = nights.start_night(game=game, players=NAMES[:players], **NIGHTS[game])
    table = table_of(night)
    for facts in deals:
        nights.enter_deal(table, facts)
    check_ledger(table, players)
    for change in changes:
        kind, index = change[0], change[1]
        if kind == "restore":
            gone = list(table.deals.filter(deleted=True).order_by("sequence"))
            if gone:
                nights.restore_deal(gone[index % len(gone)])
        else:
            live = list(table.deals.filter(deleted=False).order_by("sequence"))
            if not live:
                continue
            deal = live[index % len(live)]
            if kind == "delete":
                nights.delete_deal(deal)
            else:
                nights.correct_deal(deal, change[2], by="Anna", reason="miscounted")
        check_ledger(table, players)
    # The same list entered fresh, each deal with its dealer, gives the same ledger.
    fresh_night = nights.start_night(game=game, players=NAMES[:players], **NIGHTS[game])
    fresh = table_of(fresh_night)
    for deal in table.deals.filter(deleted=False).order_by("sequence"):
        nights.enter_deal(fresh, deal.facts, dealer=deal.dealer)
    assert ledger_view(fresh) == ledger_view(table)


@pytest.mark.django_db
def test_next_is_bock_tells_the_entry_form_that_the_next_deal_is_a_bock_deal() -> None:
    night = nights.start_night(game="skat", preset="classic", players=NAMES[:3], house_rules={"bock": True},
                               bock_events=["sixty"], bock_length=2)
    table = table_of(night)
    assert not ledger.next_is_bock(night, 3, [])
    nights.enter_deal(table, grand(0, 60))  # 60:60 starts a Bock round of 2 deals
    deals = lambda: list(table.deals.order_by("sequence"))  # noqa: E731
    assert ledger.next_is_bock(night, 3, deals())
    nights.enter_deal(table, grand(1, 70))
    assert ledger.next_is_bock(night, 3, deals())
    nights.enter_deal(table, grand(2, 70))
    assert [d.bock for d in deals()] == [False, True, True]
    assert not ledger.next_is_bock(night, 3, deals())


@pytest.mark.parametrize(("hand", "ouvert", "said"), [(True, False, "Hand"), (False, True, "Ouvert"),
                                                      (True, True, "Hand · Ouvert")],
                         ids=["null-hand", "null-ouvert", "null-ouvert-hand"])
@pytest.mark.django_db
def test_the_ledger_levels_column_shows_a_null_games_hand_and_ouvert(hand: bool, ouvert: bool, said: str) -> None:
    """The phone's ledger writes a Null game's levels as it does a suit game's (the engine's `sheet_row`)."""
    from scorekeep.nights.sheet import sheet

    night = nights.start_night(game="skat", preset="classic", players=NAMES[:3])
    table = table_of(night)
    bid = {(True, False): 35, (False, True): 46, (True, True): 59}[hand, ouvert]
    nights.enter_deal(table, {"contract": "null", "declarer": 0, "bid": bid, "hand": hand, "ouvert": ouvert,
                              "declarer_tricks": 0, "kontra": True})
    page = sheet(ledger.build(table), night)
    levels = page.info_headers.index("Levels, said")
    assert page.rows[0].info[levels] == f"{said} · Kontra"
