"""The organiser's day, issue 31 (`scorekeep.tournaments.registration`, `registration_views`, `corrections`):
a whole list registered in one submission after a preview, near-duplicates flagged before anything is
stored, a CSV with a byte-order mark and semicolons, member numbers on the lists, withdrawal with a
confirmation and undoing it, a late entrant not ranked before joining, a correction after closing naming the
account, and the notice that a later draw rests on standings a correction changed, with the redraw."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scorekeep.clubs import clubs
from scorekeep.models import Club, DealRevision, Entrant, Series, Tournament
from scorekeep.nights import writes as nights
from scorekeep.rules.ranking import UNRANKED
from scorekeep.tournaments import standings
from scorekeep.tournaments import writes as tournaments

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("orga")


@pytest.fixture
def club(organiser: Any) -> Club:
    return clubs.home_club(organiser)


@pytest.fixture
def host(organiser: Any) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def skat(club: Club, **changes: Any) -> Tournament:
    settings: dict[str, Any] = {"name": "Herbstpreisskat", "game": "skat", "preset": "isko", "series_count": 2,
                                "series_length": 4}
    return tournaments.create_tournament(club=club, **(settings | changes))


def grand(declarer: int, card_points: int = 70) -> dict[str, Any]:
    return {"contract": "grand", "declarer": declarer, "bid": 18, "matadors": -1, "card_points": card_points}


def list_url(tournament: Tournament) -> str:
    return reverse("tournament-register-list", args=[tournament.pk])


def thirty_six() -> str:
    """36 players as an organiser pastes them: spreadsheet cells (tabs), "name; club; number", "name, club,
    number" and a bare name, in turn."""
    lines = []
    for n in range(1, 37):
        name, member = f"Spieler {n:02d}", f"DSkV-{1000 + n}"
        lines.append([f"{name}\tSC Kreuz Bube\t{member}", f"{name}; SC Herz Dame; {member}",
                      f"{name}, SC Pik As, {member}", name][n % 4])
    return "\r\n".join(lines) + "\r\n"


def test_36_pasted_players_are_previewed_then_stored_in_one_submission(host: Client, club: Club) -> None:
    tournament = skat(club)
    text = thirty_six()
    preview = host.post(list_url(tournament), {"players": text, "preview": "1"})
    assert preview.status_code == 200
    assert not tournament.entrants.exists()  # the preview stores nothing
    rows = preview.context["preview"].rows
    assert [row.number for row in rows] == list(range(1, 37))
    assert (rows[0].name, rows[0].club, rows[0].member_number) == ("Spieler 01", "SC Herz Dame", "DSkV-1001")
    assert all(not row.flags for row in rows)
    page = preview.content.decode()
    assert "Register 36 players" in page and "DSkV-1036" in page
    response = host.post(list_url(tournament), {"players": preview.context["text"], "confirm": "1"})
    assert response.status_code == 303
    entrants = list(tournament.entrants.select_related("player").order_by("number"))
    assert [e.number for e in entrants] == list(range(1, 37))
    assert [e.player.name for e in entrants] == [f"Spieler {n:02d}" for n in range(1, 37)]
    assert entrants[0].guest and entrants[0].home_club == "SC Herz Dame" and entrants[0].member_number == "DSkV-1001"
    assert not entrants[2].guest and entrants[2].member_number == ""  # "Spieler 03": a bare name
    assert tournament.revisions.filter(kind="registered").count() == 36
    # The member numbers on the players list, the standings and the printed standings.
    assert "DSkV-1001" in host.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert "DSkV-1001" in host.get(reverse("tournament-standings", args=[tournament.pk])).content.decode()
    assert standings.standings(tournament).lines[0].member_number == "DSkV-1001"
    tournaments.draw_series(tournament, 1, seed="s")
    printed = host.get(reverse("tournament-print-standings", args=[tournament.pk, 1])).content.decode()
    assert "DSkV-1001" in printed


def test_duplicates_and_near_duplicates_are_flagged_before_anything_is_stored(host: Client, club: Club) -> None:
    tournament = skat(club)
    tournaments.register(tournament, name="Bernd Bauer")
    clara = tournaments.register(tournament, name="Clara Christ")
    tournaments.withdraw(clara, reason="ill")
    text = "Anna Adler\nanna  ADLER\nBERND bauer\nAnna Adler\nClara Christ\nDieter Dorn\n"
    response = host.post(list_url(tournament), {"players": text, "preview": "1"})
    assert response.status_code == 200
    assert tournament.entrants.count() == 2  # nothing stored by the preview
    rows = {row.line: row for row in response.context["preview"].rows}
    assert rows[1].number == 3 and not rows[1].flags
    assert rows[2].number is None and "nearly the same name as line 1" in rows[2].flags[0]
    assert rows[3].number is None and "registered already as Bernd Bauer with start number 1" in rows[3].flags[0]
    assert rows[4].number is None and "the same name as line 1" in rows[4].flags[0]
    assert rows[5].reinstate and rows[5].number == 2 and "reinstated" in rows[5].flags[0]
    assert rows[6].number == 4
    assert "Register 3 players" in response.content.decode()
    assert host.post(list_url(tournament), {"players": text, "confirm": "1"}).status_code == 303
    assert sorted(tournament.entrants.values_list("player__name", "number")) == [
        ("Anna Adler", 3), ("Bernd Bauer", 1), ("Clara Christ", 2), ("Dieter Dorn", 4)]
    assert tournament.entrants.get(number=2).last_series is None  # Clara is back


def test_a_csv_with_a_bom_and_semicolons_is_read_and_a_bad_line_stores_nothing(host: Client, club: Club) -> None:
    tournament = skat(club)
    excel = "Name;Verein;Mitgliedsnummer\r\nMüller, Hans;SC Grand Hand;0815\r\nZoë Ölmann;;\r\n".encode("utf-8-sig")
    upload = SimpleUploadedFile("spieler.csv", excel, content_type="text/csv")
    response = host.post(list_url(tournament), {"file": upload, "preview": "1"})
    assert response.status_code == 200, response.context["form"].errors
    rows = response.context["preview"].rows
    assert [(r.line, r.name, r.club, r.member_number, r.number) for r in rows] == [
        (2, "Müller, Hans", "SC Grand Hand", "0815", 1), (3, "Zoë Ölmann", "", "", 2)]
    assert not tournament.entrants.exists()
    # The confirmation carries the file's text; it is stored as previewed.
    assert host.post(list_url(tournament), {"players": response.context["text"], "confirm": "1"}).status_code == 303
    assert tournament.entrants.get(number=1).member_number == "0815"
    # Commas, quoted as a spreadsheet quotes them; a bad line names itself and what is allowed.
    plain = SimpleUploadedFile("list.csv", b'"Otto, Graf",SC Pik,12\nEva,SC Herz,12 34\nX,a,b,c\n')
    bad = host.post(list_url(tournament), {"file": plain, "confirm": "1"})
    assert bad.status_code == 400
    page = bad.content.decode()
    assert "Line 2: the member number is up to 20 letters, digits, dots, slashes and hyphens" in page
    assert "Line 3: has 4 cells; a line is a name, then optionally the club and the member number" in page
    assert tournament.entrants.count() == 2  # all or nothing
    latin = SimpleUploadedFile("list.csv", "Jürgen".encode("latin-1"))
    refused = host.post(list_url(tournament), {"file": latin, "preview": "1"})
    assert refused.status_code == 400 and "or a CSV file: is read as UTF-8 text" in refused.content.decode()


def test_withdraw_asks_then_undo_and_the_player_is_drawn_again(host: Client, club: Club) -> None:
    tournament = skat(club)
    host.post(list_url(tournament), {"players": "\n".join(f"P{n}" for n in range(1, 9)), "confirm": "1"})
    first = tournaments.draw_series(tournament, 1, seed="one")
    tournaments.close_series(first, reason="no deals in this test")
    withdraw = reverse("tournament-withdraw", args=[tournament.pk])
    asked = host.get(withdraw, {"number": "3"})
    assert asked.status_code == 200 and "Withdraw P3 (start number 3)?" in asked.content.decode()
    # A POST without the confirmation only asks again: no one-way button.
    assert host.post(withdraw, {"number": "3", "reason": "ill"}).status_code == 200
    assert tournament.entrants.get(number=3).last_series is None
    done = host.post(withdraw, {"number": "3", "reason": "feels ill", "confirm": "1"})
    assert done.status_code == 303 and tournament.entrants.get(number=3).last_series == 1
    page = host.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert "orga: P3 (start number 3) withdrawn (reason: feels ill)" in page
    assert "Undo the withdrawal" in page
    assert host.post(reverse("tournament-reinstate", args=[tournament.pk]), {"number": "3"}).status_code == 303
    assert tournament.entrants.get(number=3).last_series is None
    assert "P3 (start number 3) reinstated" in host.get(reverse("tournament", args=[tournament.pk])).content.decode()
    # Withdrawn again, then registered again at the door: reinstated, not refused.
    tournaments.withdraw(tournament.entrants.get(number=3))
    again = host.post(reverse("tournament-register", args=[tournament.pk]), {"name": "p3"}, follow=True)
    assert "P3 is reinstated with start number 3." in again.content.decode()
    tournaments.withdraw(tournament.entrants.get(number=4))  # and not undone before the draw
    host.post(reverse("series-draw", args=[tournament.pk, 2]), {"seed": "two"})
    second = Series.objects.get(tournament=tournament, number=2)
    seated = {n for table in second.draw["tables"] for n in table}
    assert 3 in seated and 4 not in seated
    # Once the next series is drawn without them, one who played cannot come back: said, not a server error.
    assert "Undo the withdrawal" not in host.get(reverse("tournament", args=[tournament.pk])).content.decode()
    late = host.post(reverse("tournament-reinstate", args=[tournament.pk]), {"number": "4"}, follow=True)
    assert "P4 cannot be reinstated: series 2 was drawn without them" in late.content.decode()


def test_a_late_entrant_joins_in_series_k_and_is_not_ranked_before(host: Client, club: Club) -> None:
    tournament = skat(club)
    for name in ("Anna", "Bernd", "Clara"):
        tournaments.register(tournament, name=name)
    first = tournaments.draw_series(tournament, 1, seed="s")
    table = first.nights.get().tables.get()
    nights.enter_deal(table, grand(2, 40))  # the declarer loses: below a player who has not played yet
    tournaments.register(tournament, name="Dora")
    for url in (reverse("tournament", args=[tournament.pk]), reverse("tournament-register", args=[tournament.pk])):
        assert "joins in series 2" in host.get(url).content.decode()
    now = standings.standings(tournament)
    dora = next(line for line in now.lines if line.number == 4)
    assert dora.place == UNRANKED and now.lines[-1] is dora
    assert sorted(line.place for line in now.lines if line is not dora) == [1, 1, 3]
    shown = host.get(reverse("tournament-standings", args=[tournament.pk])).content.decode()
    assert "joins in series 2; not ranked before" in shown
    # Nor in the export: no place (not a 0) for a spreadsheet, nor on the public results page.
    exported = host.get(reverse("tournament-standings-csv", args=[tournament.pk, 1])).content.decode("utf-8-sig")
    dora_row = next(row for row in csv.reader(io.StringIO(exported)) if "Dora" in row)
    assert dora_row[0] == ""
    results = host.get(reverse("results", args=[tournament.viewer_token])).content.decode()
    assert re.search(r'data-label="Rank">–</td>\s*<td[^>]*>4</td>', results)


def test_a_correction_after_closing_names_the_account_in_the_history(host: Client, club: Club) -> None:
    tournament = skat(club)
    for name in ("Anna", "Bernd", "Clara", "Dieter"):
        tournaments.register(tournament, name=name)
    series = tournaments.draw_series(tournament, 1, seed="s")
    night = series.nights.get()
    table = night.tables.get()
    deal = nights.enter_deal(table, grand(1), by="Anna")
    tournaments.close_series(series, reason="one deal in this test")
    url = reverse("deal", args=[night.pk, 1, deal.sequence])
    correction = {"contract": "grand", "declarer": "1", "bid": "18", "matadors": "-1", "card_points": "50",
                  "reason": "Zählfehler", "version": "1", "key": "k1"}
    assert host.post(url, correction).status_code == 200  # the series is closed: asked to confirm first
    assert not DealRevision.objects.filter(kind="changed").exists()
    correction["confirm_finished"] = "1"
    assert host.post(url, correction).status_code == 303
    revision = DealRevision.objects.get(kind="changed")
    assert revision.by == "orga"
    assert "changed by orga at" in host.get(url).content.decode()
    page = host.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert "orga: series 1, table 1: deal 1 changed after closing (reason: Zählfehler)" in page
    # A name typed as well is kept beside the account.
    assert host.post(url, {**correction, "card_points": "40", "by": "Kassenwart", "version": "2",
                           "key": "k2"}).status_code == 303
    assert DealRevision.objects.filter(kind="changed").last().by == "orga (Kassenwart)"  # type: ignore[union-attr]


def _by_standings(club: Club) -> tuple[Tournament, Series]:
    """Eight players; series 1 played (table 1: start number 1 wins a Grand; table 2: nothing), closed; series
    2 drawn by the standings."""
    tournament = skat(club, draw_mode="standings")
    for n in range(1, 9):
        tournaments.register(tournament, name=f"P{n}")
    first = tournaments.draw_series(tournament, 1, seed="one")
    numbers = dict(tournament.entrants.values_list("player_id", "number"))
    for night in first.nights.all():
        table = night.tables.get()
        seated = [numbers[p] for p in table.places.order_by("position").values_list("player_id", flat=True)]
        if 1 in seated:
            nights.enter_deal(table, grand(seated.index(1)))
    tournaments.close_series(first, reason="short test")
    return tournament, tournaments.draw_series(tournament, 2, seed="two")


def test_a_correction_that_changes_the_standings_tells_the_organiser_and_the_series_can_be_redrawn(
        host: Client, club: Club) -> None:
    tournament, second = _by_standings(club)
    page_url = reverse("tournament", args=[tournament.pk])
    assert "drawn by the standings after series 1" not in host.get(page_url).content.decode()
    deal = DealRevision.objects.filter(kind="created").get().deal
    url = reverse("deal", args=[deal.table.night.pk, deal.table.number, deal.sequence])
    lost = {"contract": "grand", "declarer": str(deal.facts["declarer"]), "bid": "18", "matadors": "-1",
            "card_points": "40", "reason": "lost, not won", "version": "1", "key": "k1",
            "confirm_finished": "1"}
    assert host.post(url, lost).status_code == 303  # the leader now last
    page = host.get(page_url).content.decode()
    assert ("Series 2 was drawn by the standings after series 1, and a correction has changed those standings "
            "since") in page
    redraw = reverse("series-draw", args=[tournament.pk, 2])
    refused = host.post(redraw, {"seed": ""}, follow=True).content.decode()
    assert "tick “Yes, draw it again”" in refused
    assert Series.objects.get(pk=second.pk).seed == "two"
    assert host.post(redraw, {"seed": "", "confirm": "1"}).status_code == 303
    assert Series.objects.get(pk=second.pk).seed != "two"
    assert "a correction has changed those standings" not in host.get(page_url).content.decode()


def test_a_started_series_on_outdated_standings_is_told_but_not_redrawn(host: Client, club: Club) -> None:
    tournament, second = _by_standings(club)
    table = second.nights.first().tables.get()  # type: ignore[union-attr]
    nights.enter_deal(table, grand(0))
    deal = DealRevision.objects.filter(kind="created").order_by("at").first().deal  # type: ignore[union-attr]
    nights.correct_deal(deal, {**deal.facts, "card_points": 40}, dealer=deal.dealer, by="orga",
                        confirmed=True)  # series 1 is closed: a change to it is confirmed
    page = host.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert "its draw is based on outdated standings" in page
    assert "Deals are entered at its tables already, so it cannot be drawn again." in page
    refused = host.post(reverse("series-draw", args=[tournament.pk, 2]), {"confirm": "1"}, follow=True)
    assert "cannot be drawn again: deals are entered at its tables" in refused.content.decode()
    assert Entrant.objects.filter(tournament=tournament).count() == 8


def test_the_draw_report_puts_same_club_pairings_in_one_line_and_lists_the_repeats(host: Client,
                                                                                    club: Club) -> None:
    tournament = skat(club)
    players = [f"Gast {n}; SC Gast" for n in range(1, 6)] + ["Heim 1", "Heim 2", "Heim 3"]
    assert host.post(list_url(tournament), {"players": "\n".join(players), "confirm": "1"}).status_code == 303
    first = tournaments.draw_series(tournament, 1, seed="one")
    clubs_shared = [u for u in first.draw["unavoided"] if u[3] == "club"]
    assert len(clubs_shared) >= 5  # 5 of one club and 3 of another at two tables of four
    page = host.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert f"{len(clubs_shared)} pairings at one table could not be avoided — one club (tables 1, 2)." in page
    assert "— one club</li>" not in page  # no line per pair
    tournaments.close_series(first, reason="no deals in this test")
    second = tournaments.draw_series(tournament, 2, seed="two")
    repeats = [u for u in second.draw["unavoided"] if u[3] == "repeat"]
    assert repeats  # two tables of four again: two of each table of series 1 meet again
    page = host.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert f"{len(repeats)} pairs share a table again" in page
    assert page.count("— shared a table before</li>") == len(repeats)
