"""The changes to a night (scorekeep/nights/writes.py): corrections and their history, Bock rounds that follow
from the deal list, deleting and restoring deals, and changing the night's settings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scorekeep.clubs import clubs
from scorekeep.models import CardNight, CardTable, Deal, DealRevision, NightRevision, Player
from scorekeep.nights import ledger
from scorekeep.nights import writes as nights
from scorekeep.rules import IllegalDeal

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Eva"]


def table_of(night: CardNight) -> CardTable:
    return night.tables.get()


def grand(declarer: int, card_points: int, **more: Any) -> dict[str, Any]:
    """A Grand without 1 bid 18 (game value 48) by `declarer`."""
    return {"contract": "grand", "declarer": declarer, "bid": 18, "matadors": -1, "card_points": card_points, **more}


def skat_with_bock(players: int = 3, **settings: Any) -> CardTable:
    house_rules = settings.pop("house_rules", {"bock": True, "passed": "void"})
    night = nights.start_night(game="skat", preset="classic", players=NAMES[:players], house_rules=house_rules,
                               bock_events=settings.pop("bock_events", ["kontra_lost", "sixty"]), **settings)
    return table_of(night)


def bock_flags(table: CardTable) -> list[bool]:
    return [row.deal.bock for row in ledger.build(table).rows]


def version(table: CardTable) -> int:
    """How many writes the table's deals have seen: its live pages' version (seating it made it 1)."""
    return CardTable.objects.get(pk=table.pk).version - 1


# --- starting --------------------------------------------------------------------------------

def test_start_night_seats_the_players_in_order_and_reuses_players_by_name() -> None:
    club = clubs.home_club(None)
    Player.objects.create(club=club, name="Anna")
    night = nights.start_night(game="skat", preset="isko", players=["anna", "  Bernd ", "Clara", "Dieter"],
                               first_dealer=2, series_length=48)
    assert night.club == club
    table = table_of(night)
    assert [place.player.name for place in table.places.all()] == ["Anna", "Bernd", "Clara", "Dieter"]
    assert (table.number, table.seats, table.first_dealer, night.series_length) == (1, 4, 2, 48)
    assert Player.objects.count() == 4
    second = nights.seat_table(night, ["Eva", "Anna", "Bernd"])
    assert (second.number, second.seats) == (2, 3)


# --- corrections ---------------------------------------------------------------------------------

def test_a_correction_keeps_old_and_new_with_who_and_why() -> None:
    night = nights.start_night(game="skat", preset="classic", players=NAMES[:3])
    table = table_of(night)
    deal = nights.enter_deal(table, grand(1, 58), by="Anna")
    corrected = nights.correct_deal(deal, grand(1, 62), by="Bernd", reason="counted the skat twice")
    assert corrected.facts == grand(1, 62) and corrected.verdict["won"] is True
    revision = deal.revisions.get(kind="changed")
    assert (revision.by, revision.reason) == ("Bernd", "counted the skat twice")
    assert revision.old == {"facts": grand(1, 58), "seating": [0, 1, 2], "dealer": 0}
    assert revision.new == {"facts": grand(1, 62), "seating": [0, 1, 2], "dealer": 0}
    assert [r.kind for r in deal.revisions.all()] == ["created", "changed"]
    assert ledger.build(table).totals == [0, 48, 0]
    assert version(table) == 2


def test_a_correction_to_the_same_facts_records_nothing() -> None:
    table = table_of(nights.start_night(game="skat", preset="classic", players=NAMES[:3]))
    deal = nights.enter_deal(table, grand(1, 58))
    nights.correct_deal(deal, grand(1, 58), by="Bernd")
    assert deal.revisions.count() == 1 and version(table) == 1


def test_a_refused_correction_changes_nothing() -> None:
    table = table_of(nights.start_night(game="skat", preset="classic", players=NAMES[:3]))
    deal = nights.enter_deal(table, grand(1, 58))
    with pytest.raises(IllegalDeal) as caught:
        nights.correct_deal(deal, grand(1, 58, matadors=9), by="Bernd")
    assert caught.value.field == "deal.matadors"
    deal.refresh_from_db()
    assert deal.facts == grand(1, 58) and deal.revisions.count() == 1 and version(table) == 1


def test_a_correction_of_who_dealt_reseats_the_deal() -> None:
    table = table_of(nights.start_night(game="schafkopf", preset="classic", players=NAMES[:5]))
    deal = nights.enter_deal(table, {"contract": "wenz", "declarer": 0, "card_points": 70})  # Anna dealt
    assert ledger.build(table).rows[0].entries == [None, 150, -50, -50, -50]
    nights.correct_deal(deal, deal.facts, dealer=4, by="Clara", reason="Eva dealt")
    deal.refresh_from_db()
    assert (deal.dealer, deal.seating) == (4, [0, 1, 2, 3])
    assert ledger.build(table).rows[0].entries == [150, -50, -50, -50, None]
    revision = deal.revisions.get(kind="changed")
    assert (revision.old["dealer"], revision.new["dealer"]) == (0, 4)
    assert nights.next_dealer(table) == 0


@pytest.mark.parametrize("dealer", [-1, 5, 9])
def test_a_dealer_who_is_not_at_the_table_is_refused_and_nothing_is_stored(dealer: int) -> None:
    table = table_of(nights.start_night(game="skat", preset="classic", players=NAMES[:5]))
    with pytest.raises(IllegalDeal) as caught:
        nights.enter_deal(table, grand(0, 70), dealer=dealer)
    assert caught.value.field == "dealer" and "0 … 4" in caught.value.message
    assert not Deal.objects.exists()
    deal = nights.enter_deal(table, grand(0, 70))
    with pytest.raises(IllegalDeal):
        nights.correct_deal(deal, deal.facts, dealer=dealer)
    deal.refresh_from_db()
    assert (deal.dealer, deal.revisions.count()) == (0, 1)


# --- Bock rounds ----------------------------------------------------------------------------------

SOLO_TOUT = {"contract": "solo_tout", "declarer": 0, "trump": "H", "declarer_tricks": 8, "card_points": 120}
BOCK_EVENT_CASES = [
    ("skat", "kontra_lost", grand(0, 50, kontra=True), True),
    ("skat", "kontra_lost", grand(0, 70, kontra=True), False),
    ("skat", "kontra_lost", grand(0, 50), False),
    ("skat", "re", grand(0, 70, kontra=True, re=True), True),
    ("skat", "re", grand(0, 70, kontra=True), False),
    ("skat", "sixty", grand(0, 60), True),
    ("skat", "sixty", grand(0, 61), False),
    ("skat", "sixty", {"contract": "null", "declarer": 0, "bid": 23, "declarer_tricks": 0}, False),
    ("skat", "grand_hand_won", grand(0, 70, hand=True), True),
    ("skat", "grand_hand_won", grand(0, 50, hand=True), False),
    ("skat", "grand_hand_won", grand(0, 70), False),
    ("skat", "schwarz", grand(0, 120), True),
    ("skat", "schwarz", grand(0, 100), False),
    ("schafkopf", "doubled_lost", {"contract": "sauspiel", "declarer": 0, "partner": 2, "card_points": 40,
                                   "doublings": 1}, True),
    ("schafkopf", "doubled_lost", {"contract": "sauspiel", "declarer": 0, "partner": 2, "card_points": 70,
                                   "doublings": 1}, False),
    ("schafkopf", "doubled_lost", {"contract": "sauspiel", "declarer": 0, "partner": 2, "card_points": 40}, False),
    ("schafkopf", "sixty", {"contract": "wenz", "declarer": 1, "card_points": 60}, True),
    ("schafkopf", "tout_won", SOLO_TOUT, True),
    ("schafkopf", "tout_won", {**SOLO_TOUT, "declarer_tricks": 7, "card_points": 110}, False),
    ("schafkopf", "sie", {"contract": "sie", "declarer": 3}, True),
    ("schafkopf", "schwarz", {"contract": "wenz", "declarer": 1, "card_points": 120}, True),
    ("schafkopf", "schwarz", {"contract": "wenz", "declarer": 1, "card_points": 100}, False),
]


@pytest.mark.parametrize(("game", "event", "facts", "happened"), BOCK_EVENT_CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[3]}-{i}" for i, c in enumerate(BOCK_EVENT_CASES)])
def test_each_bock_event_is_read_from_the_facts_and_the_engines_verdict(game: str, event: str,
                                                                        facts: dict[str, Any], happened: bool) -> None:
    night = nights.start_night(game=game, preset="classic", players=NAMES[:4 if game == "schafkopf" else 3],
                               house_rules={"bock": True}, bock_events=[event], bock_length=1)
    table = table_of(night)
    nights.enter_deal(table, facts)
    nights.enter_deal(table, facts)
    book = ledger.build(table)
    assert book.rows[0].bock_started == ([event] if happened else [])
    assert book.rows[1].deal.bock is happened


def test_a_lost_kontra_game_starts_a_bock_round_of_one_deal_per_player() -> None:
    table = skat_with_bock()
    nights.enter_deal(table, grand(0, 50, kontra=True))
    for declarer in (1, 2, 0, 1):
        nights.enter_deal(table, grand(declarer, 70))
    book = ledger.build(table)
    assert [row.deal.bock for row in book.rows] == [False, True, True, True, False]
    assert book.rows[0].bock_started == ["kontra_lost"]
    assert [row.verdict.scores[row.declarers[0]] for row in book.rows] == [-192, 96, 96, 96, 48]


def test_a_correction_that_turns_the_kontra_game_won_ends_the_bock_round_it_started() -> None:
    table = skat_with_bock()
    first = nights.enter_deal(table, grand(0, 50, kontra=True))
    second = nights.enter_deal(table, grand(1, 70))
    assert bock_flags(table) == [False, True]
    assert ledger.build(table).totals == [-192, 96, 0]
    nights.correct_deal(first, grand(0, 65, kontra=True), by="Anna", reason="miscounted")
    assert bock_flags(table) == [False, False]
    second.refresh_from_db()
    assert second.verdict["scores"] == [0, 48, 0]
    assert ledger.build(table).totals == [96, 48, 0]
    # …and back: the later deal is a Bock deal again.
    nights.correct_deal(first, grand(0, 50, kontra=True))
    assert bock_flags(table) == [False, True]


def test_a_bock_deals_entry_is_double_the_same_deal_outside_bock() -> None:
    table = skat_with_bock(players=4)
    trigger = nights.enter_deal(table, grand(0, 60))  # 60:60 → Bock round of 4
    deals = [nights.enter_deal(table, facts) for facts in (
        grand(1, 80, kontra=True, re=True), {"contract": "null", "declarer": 2, "bid": 23, "declarer_tricks": 1},
        {"contract": "hearts", "declarer": 0, "bid": 18, "matadors": 2, "card_points": 91})]
    in_bock = [d.verdict for d in Deal.objects.filter(pk__in=[d.pk for d in deals]).order_by("sequence")]
    nights.correct_deal(trigger, grand(0, 61))
    outside = [d.verdict for d in Deal.objects.filter(pk__in=[d.pk for d in deals]).order_by("sequence")]
    for bock, plain in zip(in_bock, outside, strict=True):
        assert bock["scores"] == [2 * s for s in plain["scores"]]
        assert bock["seeger_fabian"] == plain["seeger_fabian"]  # Bock does not multiply the evaluation
        assert bock["value"] == plain["value"]
        assert plain["scores"] != [0, 0, 0, 0]


def test_bock_rounds_queue_two_events_make_two_rounds() -> None:
    table = skat_with_bock()
    nights.enter_deal(table, grand(0, 60, kontra=True))  # lost with Kontra and 60:60: two rounds of 3
    for _ in range(7):
        nights.enter_deal(table, {"contract": "passed"})
    assert bock_flags(table) == [False] + [True] * 6 + [False]


def test_an_event_inside_a_bock_round_queues_another_round_after_it() -> None:
    table = skat_with_bock(bock_length=2)
    nights.enter_deal(table, grand(0, 60))  # deals 2, 3 are Bock
    nights.enter_deal(table, grand(1, 60))  # in Bock, and starts another: deals 4, 5
    for _ in range(4):
        nights.enter_deal(table, {"contract": "passed"})
    assert bock_flags(table) == [False, True, True, True, True, False]
    assert ledger.build(table).rows[1].verdict.scores[1] == -2 * 96


def test_a_passed_deal_in_a_bock_round_uses_up_a_bock_deal() -> None:
    table = skat_with_bock()
    nights.enter_deal(table, grand(0, 60))
    nights.enter_deal(table, {"contract": "passed"})
    nights.enter_deal(table, grand(1, 70))
    nights.enter_deal(table, grand(2, 70))
    nights.enter_deal(table, grand(0, 70))
    book = ledger.build(table)
    assert [row.deal.bock for row in book.rows] == [False, True, True, True, False]
    assert book.rows[1].verdict.scores == (0, 0, 0)
    assert [row.verdict.scores[row.declarers[0]] for row in book.rows[2:]] == [96, 96, 48]


def test_schafkopf_a_lost_game_with_stoss_starts_bock_and_a_correction_moves_it() -> None:
    night = nights.start_night(game="schafkopf", preset="classic", players=NAMES[:4], house_rules={"bock": True},
                               bock_events=["doubled_lost"])
    table = table_of(night)
    first = nights.enter_deal(table, {"contract": "sauspiel", "declarer": 0, "partner": 1, "card_points": 40,
                                      "doublings": 1})
    nights.enter_deal(table, {"contract": "passed"})  # redealt, but it uses up a Bock deal
    for declarer in (1, 2, 3, 0):
        nights.enter_deal(table, {"contract": "wenz", "declarer": declarer, "card_points": 70})
    book = ledger.build(table)
    assert [row.deal.bock for row in book.rows] == [False, True, True, True, True, False]
    assert book.rows[0].verdict.scores == (-20, -20, 20, 20)
    assert [row.verdict.value for row in book.rows[2:]] == [100, 100, 100, 50]
    assert all(sum(row.entries) == 0 for row in book.rows)  # type: ignore[arg-type]
    nights.correct_deal(first, {**first.facts, "card_points": 61}, by="Dieter")
    book = ledger.build(table)
    assert [row.deal.bock for row in book.rows] == [False] * 6
    assert [row.verdict.value for row in book.rows[2:]] == [50] * 4
    assert book.totals == [20 + 150 - 50 - 50 - 50, 20 - 50 + 150 - 50 - 50, -20 - 50 - 50 + 150 - 50,
                           -20 - 50 - 50 - 50 + 150]


def test_bock_events_are_ignored_where_the_rule_set_has_no_bock() -> None:
    table = skat_with_bock(house_rules={"passed": "void"})  # classic: no Bock
    nights.enter_deal(table, grand(0, 60, kontra=True))
    nights.enter_deal(table, grand(1, 70))
    book = ledger.build(table)
    assert bock_flags(table) == [False, False] and book.rows[0].bock_started == []
    assert book.totals == [-192, 48, 0]
    assert ledger.bock_events(table.night) == []


def test_bock_typed_into_the_facts_does_not_make_a_bock_deal() -> None:
    table = skat_with_bock()
    deal = nights.enter_deal(table, grand(1, 70, bock=True))  # Bock is derived from the deals, not entered
    assert deal.facts["bock"] is True
    assert (deal.bock, deal.verdict["scores"]) == (False, [0, 48, 0])


def test_a_kop_night_has_no_bock_whatever_is_stored() -> None:
    night = nights.start_night(game="kop", preset="classic", players=NAMES[:4], bock_events=["sixty"])
    table = table_of(night)
    nights.enter_deal(table, {"contract": "normal", "old": [0, 1], "card_points": 60})
    assert not ledger.bock_allowed(night) and bock_flags(table) == [False]


# --- deleting and restoring -------------------------------------------------------------------------

def test_deleting_a_deal_keeps_the_numbers_after_it_and_recomputes_totals() -> None:
    table = skat_with_bock()
    deals = [nights.enter_deal(table, facts) for facts in
             (grand(0, 70), grand(1, 60), grand(2, 70), grand(0, 70), grand(1, 70))]
    assert ledger.build(table).totals == [48 + 96, -96 + 96, 96]
    nights.delete_deal(deals[1], by="Clara", reason="entered twice")
    book = ledger.build(table)
    # Issue 33: every deal keeps the number it was entered with (deal 2 is a gap); only the count moves.
    assert [(row.number, row.position, row.deal.pk) for row in book.rows] == [
        (d.sequence, n, d.pk) for n, d in enumerate([deals[0], *deals[2:]], start=1)]
    assert [row.number for row in book.rows] == [1, 3, 4, 5]
    assert [row.deal.bock for row in book.rows] == [False] * 4  # the 60:60 that started the round is gone
    assert book.totals == [96, 48, 48]
    revision = deals[1].revisions.get(kind="deleted")
    assert (revision.by, revision.reason, revision.new) == ("Clara", "entered twice", None)
    assert revision.old == {"facts": grand(1, 60), "seating": [0, 1, 2], "dealer": 1}
    assert Deal.objects.filter(pk=deals[1].pk, deleted=True).exists()


def test_restoring_puts_the_deal_back_in_its_place() -> None:
    table = skat_with_bock()
    deals = [nights.enter_deal(table, facts) for facts in (grand(0, 70), grand(1, 60), grand(2, 70))]
    before = [(row.number, row.totals, row.deal.bock) for row in ledger.build(table).rows]
    nights.delete_deal(deals[1])
    nights.restore_deal(deals[1], by="Anna", reason="it was played")
    assert [(row.number, row.totals, row.deal.bock) for row in ledger.build(table).rows] == before
    assert [r.kind for r in deals[1].revisions.all()] == ["created", "deleted", "restored"]
    assert deals[1].revisions.get(kind="restored").by == "Anna"


def test_deleting_and_restoring_twice_does_it_once() -> None:
    table = table_of(nights.start_night(game="fipsen", preset="classic", players=NAMES[:4]))
    deal = nights.enter_deal(table, {"contract": "tricks", "declarer": 0, "bid": 3, "tricks_taken": 3})
    nights.delete_deal(deal)
    nights.delete_deal(deal)
    assert deal.revisions.filter(kind="deleted").count() == 1 and version(table) == 2
    assert ledger.build(table).rows == []
    nights.restore_deal(deal)
    nights.restore_deal(deal)
    assert deal.revisions.filter(kind="restored").count() == 1 and version(table) == 3
    assert ledger.build(table).totals == [3, 0, 0, 0]


def test_a_new_deal_after_a_deleted_one_gets_a_fresh_sequence() -> None:
    table = table_of(nights.start_night(game="fipsen", preset="classic", players=NAMES[:3]))
    first = nights.enter_deal(table, {"contract": "passed"})
    second = nights.enter_deal(table, {"contract": "passed"})
    nights.delete_deal(second)
    third = nights.enter_deal(table, {"contract": "passed"})
    assert (first.sequence, second.sequence, third.sequence) == (1, 2, 3)
    assert [row.number for row in ledger.build(table).rows] == [1, 3]  # the deal's number as entered (issue 33)


# --- changing the night's settings ----------------------------------------------------------------

def test_changing_the_rule_set_recomputes_every_verdict_and_keeps_a_revision() -> None:
    night = nights.start_night(game="skat", preset="classic", players=NAMES[:3])
    table = table_of(night)
    nights.enter_deal(table, grand(0, 50, hand=True))  # Grand Hand without 1: 72, lost
    nights.enter_deal(table, grand(1, 70))
    assert ledger.build(table).totals == [-72, 48, 0]  # classic: a lost hand game counts once
    changed = nights.change_settings(night, preset="isko", by="Anna", reason="tournament rules")
    # The night's own version counts its changes (seated, then this one); every table's page refreshes too.
    assert changed.preset == "isko" and changed.version == 2 and version(table) == 3
    assert ledger.build(table).totals == [-144, 48, 0]  # ISkO: it counts double
    assert all(d.verdict["rules"]["preset"] == "isko" for d in table.deals.all())
    revision = NightRevision.objects.get(night=night)
    assert (revision.by, revision.reason) == ("Anna", "tournament rules")
    assert (revision.old["preset"], revision.new["preset"]) == ("classic", "isko")
    assert revision.old["house_rules"] == revision.new["house_rules"] == {}


def test_a_change_that_forbids_a_played_deal_names_it_and_changes_nothing() -> None:
    night = nights.start_night(game="skat", preset="classic", players=NAMES[:3])
    table = table_of(night)
    nights.enter_deal(table, grand(0, 70))
    kontra = nights.enter_deal(table, grand(1, 40, kontra=True))
    nights.enter_deal(table, grand(2, 70))
    before = list(table.deals.values_list("verdict", "bock"))
    nights.delete_deal(table.deals.get(sequence=1))  # the Kontra deal stays deal 2 (issue 33)
    with pytest.raises(ledger.LedgerError) as caught:
        nights.change_settings(night, house_rules={"kontra": False}, by="Anna")
    assert caught.value.number == 2 and caught.value.error.field == "deal.kontra"
    assert "deal 2" in str(caught.value)
    night.refresh_from_db()
    assert (night.house_rules, night.version, version(table)) == ({}, 1, 4)
    assert list(table.deals.values_list("verdict", "bock")) == before
    assert not NightRevision.objects.exists()
    kontra.refresh_from_db()
    assert kontra.verdict["rules"]["kontra"] is True


def test_a_deal_forbidden_by_new_rules_cannot_be_restored() -> None:
    night = nights.start_night(game="skat", preset="classic", players=NAMES[:3])
    table = table_of(night)
    kontra = nights.enter_deal(table, grand(1, 40, kontra=True))
    nights.delete_deal(kontra)
    nights.change_settings(night, house_rules={"kontra": False})  # fine: the Kontra deal is off the list
    with pytest.raises(ledger.LedgerError) as caught:
        nights.restore_deal(kontra)
    assert caught.value.number == 1
    kontra.refresh_from_db()
    assert kontra.deleted and kontra.revisions.filter(kind="restored").count() == 0


def test_changing_the_bock_events_recomputes_the_bock_deals() -> None:
    table = skat_with_bock(bock_events=[])
    nights.enter_deal(table, grand(0, 60))
    nights.enter_deal(table, grand(1, 70))
    assert bock_flags(table) == [False, False]
    night = nights.change_settings(table.night, bock_events=["sixty"], bock_length=1)
    assert bock_flags(table_of(night)) == [False, True]
    assert ledger.build(table_of(night)).totals == [-96, 96, 0]
    revision = NightRevision.objects.get()
    assert (revision.old["bock_events"], revision.new["bock_events"]) == ([], ["sixty"])


def test_a_change_to_the_same_settings_records_nothing() -> None:
    night = nights.start_night(game="kop", preset="classic", players=NAMES[:4])
    nights.change_settings(night, preset="classic", house_rules={})
    assert not NightRevision.objects.exists()
    night.refresh_from_db()
    assert night.version == 1  # seating the table, nothing since


def test_only_night_settings_can_be_changed() -> None:
    night = nights.start_night(game="kop", preset="classic", players=NAMES[:4])
    with pytest.raises(TypeError, match="game"):
        nights.change_settings(night, game="skat")
    night.refresh_from_db()
    assert night.game == "kop"


def test_changing_settings_keeps_the_revisions_of_deals() -> None:
    night = nights.start_night(game="skat", preset="classic", players=NAMES[:3])
    deal = nights.enter_deal(table_of(night), grand(0, 70), by="Anna")
    nights.change_settings(night, series_length=36)
    assert DealRevision.objects.filter(deal=deal).count() == 1
    assert ledger.build(table_of(CardNight.objects.get(pk=night.pk))).series_length == 36


# Run in its own process against a SQLite file, as the app runs: the test database is SQLite in
# memory with a shared cache, whose table locks do not wait (a file database's locks do).
CONCURRENT_SAVES = """
import os, sys, threading
import django
django.setup()
from django.core.management import call_command
from django.db import connection
call_command("migrate", verbosity=0)
from scorekeep.nights import writes as nights
night = nights.start_night(game="skat", preset="isko", players=["Anna", "Bernd", "Clara"])
table = night.tables.get()
start = threading.Barrier(8)
results = []
def save(declarer):
    try:
        start.wait()
        deal = nights.enter_deal(table, {"contract": "grand", "declarer": declarer % 3, "bid": 18,
                                         "matadors": 1, "card_points": 70})
        results.append(deal.sequence)
    except Exception as err:
        results.append(repr(err))
    finally:
        connection.close()
threads = [threading.Thread(target=save, args=(n,)) for n in range(8)]
for thread in threads: thread.start()
for thread in threads: thread.join()
print(sorted(results, key=str))
print(list(table.deals.order_by("sequence").values_list("sequence", flat=True)))
"""


def test_scorers_saving_at_the_same_moment_get_consecutive_deals_and_none_fails(tmp_path: Any) -> None:
    """Eight phones tap Save at once on the SQLite default: every deal is stored, numbered 1 … 8, none
    fails with "database is locked" (settings: BEGIN IMMEDIATE and a busy timeout)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'night.sqlite3'}",
           "DJANGO_SETTINGS_MODULE": "scorekeep.settings"}
    done = subprocess.run([sys.executable, "-c", CONCURRENT_SAVES], env=env, capture_output=True, text=True,
                          timeout=120, check=False, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [str(list(range(1, 9))), str(list(range(1, 9)))]


# --- how often the engine is asked --------------------------------------------------------------------

@pytest.fixture
def engine_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the engine's verdicts the storage asks for (`ledger.judge_deal`), one entry per call."""
    calls: list[int] = []
    real = ledger.judge_deal

    def counted(*args: Any) -> Any:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(ledger, "judge_deal", counted)
    return calls


@pytest.mark.parametrize("before", [3, 30])
def test_a_save_asks_the_engine_once_however_long_the_table(engine_calls: list[int], before: int) -> None:
    table = skat_with_bock()
    for n in range(before):
        nights.enter_deal(table, grand(n % 3, 70))
    engine_calls.clear()
    nights.enter_deal(table, grand(0, 70))
    assert len(engine_calls) == 1


def test_a_verdict_the_page_judged_is_stored_without_asking_again(engine_calls: list[int]) -> None:
    table = skat_with_bock()
    nights.enter_deal(table, grand(0, 70))
    seats = ledger.seating("skat", 3, 1)
    verdict = ledger.judge_deal(table.night, seats, 1, grand(2, 80), False)
    engine_calls.clear()
    deal = nights.enter_deal(table, grand(2, 80), judged=ledger.Judged(grand(2, 80), tuple(seats), 1, False, verdict))
    assert engine_calls == [] and deal.verdict == verdict.to_json()
    # A verdict judged for another Bock status is not taken: the engine judges the deal as it is stored.
    stale = ledger.Judged(grand(1, 80), tuple(ledger.seating("skat", 3, 2)), 2, True, verdict)
    nights.enter_deal(table, grand(1, 80), judged=stale)
    assert len(engine_calls) == 1


@pytest.mark.parametrize("before", [3, 30])
def test_a_correction_asks_the_engine_for_that_deal_and_the_deals_whose_bock_it_moves(
        engine_calls: list[int], before: int) -> None:
    table = skat_with_bock()
    deals = [nights.enter_deal(table, grand(n % 3, 70)) for n in range(before)]
    engine_calls.clear()
    nights.correct_deal(deals[0], grand(0, 75))  # still won, no Bock event: only this deal is judged
    assert len(engine_calls) == 1  # judged before storing (a refusal stores nothing); the ledger reuses it
    engine_calls.clear()
    nights.correct_deal(deals[0], grand(0, 50, kontra=True))  # lost with Kontra: a Bock round
    round_ = min(3, before - 1)  # the Bock round: a deal for each of the three players, as far as there are deals
    assert len(engine_calls) == 1 + round_  # the deal, and the deals of the Bock round after it
    assert bock_flags(table)[:5] == [False, True, True, True, False][:min(5, before)]
    engine_calls.clear()
    nights.delete_deal(deals[0])  # the Bock round is gone again
    assert len(engine_calls) == round_ and not any(bock_flags(table))


def test_a_correction_that_moves_no_bock_reads_no_other_deal_and_keeps_where_the_table_stands() -> None:
    """Issue 32: a correction costs about a save at any size. One that sets off as many Bock rounds as before
    reads no other deal (its entries are taken off the kept standing and the new ones counted); one that moves
    the Bock rounds reads the live deals once, judging and walking them in one pass. Either way the kept
    standing is where a fresh walk ends, and the page's deal numbers and totals follow."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    table = skat_with_bock(players=4)
    deals = [nights.enter_deal(table, grand(n % 3, 70 + n)) for n in range(8)]

    def corrected(deal: Deal, facts: dict[str, Any], **how: Any) -> list[str]:
        with CaptureQueriesContext(connection) as queries:
            nights.correct_deal(deal, facts, **how)
        table.refresh_from_db()
        live = list(table.deals.filter(deleted=False).order_by("sequence"))
        assert ledger.TableStanding.from_json(table.standing) == ledger.walk(table.night, 4, live)[0]
        return [q["sql"] for q in queries  # the table's live deals read (not one deal by its id)
                if q["sql"].startswith("SELECT") and '"scorekeep_deal"."deleted"' in q["sql"].partition(" WHERE ")[2]]

    assert corrected(deals[1], grand(1, 40)) == []  # won → lost, no Kontra: no Bock round either way
    assert corrected(deals[7], grand(0, 95), dealer=2) == []  # the last deal, dealt by someone else
    assert ledger.TableStanding.from_json(table.standing).last_dealer == 2
    assert len(corrected(deals[2], grand(2, 50, kontra=True))) == 1  # a lost Kontra: a Bock round, one read
    assert bock_flags(table) == [False, False, False, True, True, True, True, False]
    assert corrected(deals[2], grand(2, 40, kontra=True)) == []  # still lost with Kontra: the same round
    assert len(corrected(deals[2], grand(2, 70))) == 1  # the round is gone again
    assert not any(bock_flags(table))


def test_facts_and_house_rules_come_back_in_the_order_entered_on_every_database() -> None:
    """PostgreSQL's jsonb orders an object's keys by length; a deal's facts keep the table's order."""
    rules = {"lost_hand_doubled": True, "kontra": False, "bock": True}  # the game's order of options
    night = nights.start_night(game="skat", preset="classic", players=NAMES[:3], house_rules=rules)
    facts = {"contract": "grand", "declarer": 1, "bid": 48, "matadors": 2, "hand": True, "card_points": 70}
    deal = nights.enter_deal(table_of(night), facts)
    assert list(Deal.objects.get(pk=deal.pk).facts) == list(facts)
    assert list(CardNight.objects.get(pk=night.pk).house_rules) == list(rules)
    verdict = Deal.objects.get(pk=deal.pk).verdict
    assert list(verdict)[:4] == ["ok", "game", "rules", "won"]  # as the contract writes a verdict
