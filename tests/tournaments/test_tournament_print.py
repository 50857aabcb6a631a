"""A tournament's printouts (`scorekeep.tournaments.printouts`): the table cards with each table's scorer QR, every
table's list of a series with its signature lines, the standings after a series and the final ranking with its
prizes — in English, German and Japanese, for the organising club's hosts only, and as PDF through the render
queue (`scorekeep.printing.pdf`). The expected figures are computed here from the tables' ledgers (`ledger.build`), not
from the printout's own arithmetic."""

from __future__ import annotations

import datetime
import io
import os
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from scorekeep.models import CardNight, CardTable, Club, Entrant, Player, Series, TablePlayer, Team, Tournament
from scorekeep.nights import ledger
from scorekeep.nights import writes as nights
from scorekeep.printing import pdf
from scorekeep.rules import GAMES
from scorekeep.rules.season import Measure
from scorekeep.tournaments import standings
from scorekeep.web.qr import qr_svg
from scorekeep.words.money import format_money
from scorekeep.words.numbers import signed

pytestmark = pytest.mark.django_db

CHROMIUM = Path("/usr/bin/chromium")
NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Erika", "Franz", "Greta", "Hubert",
         *(f"Player {i}" for i in range(9, 20))]
# Words of each language the printouts show, so a page in the wrong language fails.
WORDS = {"en": {"cards": "Table 1", "lists": "List keeper", "standings": "Rank"},
         "de": {"cards": "Tisch 1", "lists": "Listenführer", "standings": "Platz"},
         "ja": {"cards": "卓1", "lists": "記録係", "standings": "順位"}}

# Deals the tables enter, by game: the facts for seat 0, 1, 2 declaring in turn.
DEALS = {
    "skat": [{"contract": "grand", "declarer": 0, "bid": 48, "matadors": 2, "card_points": 70},
             {"contract": "hearts", "declarer": 1, "bid": 20, "matadors": -1, "card_points": 50},
             {"contract": "null", "declarer": 2, "bid": 23, "declarer_tricks": 0}],
    "schafkopf": [{"contract": "sauspiel", "declarer": 0, "partner": 2, "card_points": 70},
                  {"contract": "sauspiel", "declarer": 1, "partner": 3, "card_points": 40}],
    "kop": [{"contract": "normal", "old": [0, 1], "card_points": 60},
            {"contract": "normal", "old": [0, 2], "card_points": 40}],
    "fipsen": [{"contract": "tricks", "declarer": 2, "bid": 3, "hand": True, "tricks_taken": 4},
               {"contract": "tricks", "declarer": 3, "bid": 2, "tricks_taken": 1}],
}


def build(game: str, players: int, organiser: Any, *, series_count: int = 2) -> Tournament:
    """A tournament of `players` entrants (number 1 … n, the last a guest from another club), its series drawn
    into tables of four and three in start-number order (series 2 turned round), each table a card night of
    its own with a few deals."""
    club = Club.objects.create(name="SC Herz", owner=organiser)
    tournament = Tournament.objects.create(
        club=club, name="Herbstturnier", date=datetime.date(2026, 11, 21), place="Vereinsheim", game=game,
        preset=GAMES[game].DEFAULT_PRESET, series_count=series_count, series_length=48, entry_fee=1000,
        prizes={"kind": "amounts", "places": [5000, 3000], "retention": {"kind": "amount", "value": 0}})
    entrants = []
    for i, name in enumerate(NAMES[:players], start=1):
        guest = i == players
        player = Player.objects.create(club=club, name=name)
        entrants.append(Entrant.objects.create(tournament=tournament, player=player, number=i, guest=guest,
                                               home_club="Skatfreunde Gast" if guest else ""))
    for number in range(1, series_count + 1):
        series = Series.objects.create(tournament=tournament, number=number)
        order = entrants if number == 1 else entrants[::-1]
        sizes = [4] * (players // 4) if game != "skat" else _skat_tables(players)
        start = 0
        for table_number, size in enumerate(sizes, start=1):
            seated = order[start:start + size]
            start += size
            night = CardNight.objects.create(date=tournament.date, place=tournament.place, game=game,
                                             preset=tournament.preset, club=club, host=organiser, series=series,
                                             series_length=36 if size == 3 else 48)
            table = CardTable.objects.create(night=night, number=table_number, seats=size if game == "skat" else 4,
                                             first_dealer=1)
            for position, entrant in enumerate(seated):
                TablePlayer.objects.create(table=table, player=entrant.player, position=position)
            for facts in DEALS[game][: table_number + number - 1]:
                nights.enter_deal(table, facts)
    return tournament


def _skat_tables(players: int) -> list[int]:
    threes = (4 - players % 4) % 4
    return [4] * ((players - 3 * threes) // 4) + [3] * threes


@pytest.fixture
def organiser(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("organiser", password="organiser-password-1")


@pytest.fixture
def host_client(organiser: Any) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


@pytest.fixture
def skat(organiser: Any) -> Tournament:
    return build("skat", 7, organiser)  # one table of four, one of three


def url(name: str, tournament: Tournament, series: int | None = 1) -> str:
    return reverse(name, args=[tournament.pk] if series is None else [tournament.pk, series])


def page(client: Client, name: str, tournament: Tournament, series: int | None = 1) -> str:
    response = client.get(url(name, tournament, series))
    assert response.status_code == 200, response.content[:400]
    return response.content.decode()


def tables_of(tournament: Tournament, series: int) -> list[CardTable]:
    return list(CardTable.objects.filter(night__series__tournament=tournament, night__series__number=series)
                .order_by("number"))


def without_tags(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


# --- the table cards --------------------------------------------------------------------------------------

@pytest.mark.parametrize("language", ["en", "de", "ja"])
def test_table_cards_hold_each_seat_with_start_number_the_first_dealer_and_the_scorer_qr(
        host_client: Client, skat: Tournament, language: str) -> None:
    skat.print_language = language
    skat.save()
    html = page(host_client, "tournament-print-cards", skat)
    assert f'lang="{language}"' in html
    assert WORDS[language]["cards"] in without_tags(html)
    numbers = {e.player.name: e.number for e in skat.entrants.select_related("player")}
    cards = re.findall(r'<article class="table-card" data-table="(\d+)">(.*?)</article>', html, re.S)
    tables = tables_of(skat, 1)
    assert [int(n) for n, _ in cards] == [t.number for t in tables]
    for (_, card), table in zip(cards, tables, strict=True):
        seats = re.findall(r'<td class="seat">(\d+)</td><td class="start-number">(\d+)</td>'
                           r'<th scope="row" class="seat-name">([^<]+?) ?<', card)
        places = list(table.places.select_related("player"))
        assert seats == [(str(p.position + 1), str(numbers[p.player.name]), p.player.name) for p in places]
        first = places[table.first_dealer].player.name
        assert re.search(rf'<tr class="deals-first"><td class="seat">\d+</td><td class="start-number">\d+</td>'
                         rf'<th scope="row" class="seat-name">{first} <span class="mark">', card)
        assert card.count("deals-first") == 1
        join = "http://testserver" + reverse("join", args=[table.night.scorer_token])
        assert str(qr_svg(join)) in card  # the code is the code of this table's very scorer link
    assert "toolbar" in html and "<nav" in html  # on screen a toolbar; the PDF has none (tested below)


def test_without_a_printout_language_the_reader_s_own(host_client: Client, skat: Tournament) -> None:
    assert skat.print_language == ""
    response = host_client.get(url("tournament-print-standings", skat), headers={"accept-language": "de"})
    assert 'lang="de"' in response.content.decode() and WORDS["de"]["standings"] in without_tags(
        response.content.decode())


def test_four_cards_a_sheet(organiser: Any, host_client: Client) -> None:
    tournament = build("skat", 19, organiser, series_count=1)  # four tables of four, one of three
    html = page(host_client, "tournament-print-cards", tournament)
    sheets = html.split('<section class="card-sheet">')[1:]
    assert [sheet.count('class="table-card"') for sheet in sheets] == [4, 1]


# --- every table's list ---------------------------------------------------------------------------------

@pytest.mark.parametrize("language", ["en", "de", "ja"])
@pytest.mark.parametrize("game,players", [("skat", 7), ("schafkopf", 8), ("kop", 8), ("fipsen", 8)])
def test_every_table_s_list_one_a_page_with_its_totals_and_signature_lines(
        organiser: Any, host_client: Client, game: str, players: int, language: str) -> None:
    tournament = build(game, players, organiser)
    tournament.print_language = language
    tournament.save()
    html = page(host_client, "tournament-print-lists", tournament, 2)
    text = without_tags(html)
    assert WORDS[language]["lists"] in text
    sections = html.split('<section class="list-table table-page"')[1:]
    tables = tables_of(tournament, 2)
    assert len(sections) == len(tables) >= 2
    for section, table in zip(sections, tables, strict=True):
        book = ledger.build(table)
        assert book.rows, "every table entered deals"
        assert f'data-deal="{len(book.rows)}"' in section and f'data-deal="{len(book.rows) + 1}"' not in section
        assert "Herbstturnier" in section and "Vereinsheim" in section  # each page's header
        signatures = re.findall(r'<span class="who">([^<]+)</span>', section)
        assert signatures[:-1] == book.names and len(signatures) == len(book.names) + 1  # + the list keeper
        section_text = without_tags(section)
        for total in book.totals:
            with translation.override(language):  # money as the page's language writes it
                shown = format_money(total, table.night.currency, plus=True) if GAMES[game].MONEY else signed(total)
            assert " ".join(shown.split()) in section_text  # the page text is read with its spaces as one
        if GAMES[game].SEEGER_FABIAN:
            for final in book.performance:
                assert signed(final) in section_text


# --- standings and the final ranking ------------------------------------------------------------------------

def expected(tournament: Tournament, upto: int, figure: str = "first") -> dict[str, Fraction]:
    """Each player's figure summed over series 1 … upto from the full ledgers: the game's first season basis
    (Skat's performance — list points + Seeger-Fabian points —, Kop's placing points, the totals elsewhere),
    or the games won or lost."""
    out: dict[str, Fraction] = {}
    for table in CardTable.objects.filter(night__series__tournament=tournament, night__series__number__lte=upto):
        book = ledger.build(table)
        measure = GAMES[tournament.game].SEASON_BASES[0].measure
        figures = (book.won if figure == "won" else book.lost if figure == "lost"
                   else book.performance if measure == Measure.PERFORMANCE
                   else book.placing_totals if measure == Measure.PLACING and book.placing_totals is not None
                   else book.totals)
        for name, value in zip(book.names, figures, strict=True):
            out[name] = out.get(name, Fraction(0)) + value
    return out


def ranking_rows(html: str, tag: str = "entrant") -> list[dict[str, Any]]:
    """The printed rows by their cells' classes: rank, number, name, club, the series, the totals (what is
    ranked by, then each tie-break), the notes and the prize."""
    out = []
    for row in re.findall(rf'<tr data-{tag}="\d+">(.*?)</tr>', html, re.S):
        cells: dict[str, Any] = {"series": [], "total": []}
        for kind, cell in re.findall(r'<t[dh][^>]*class="(\w+)[^"]*"[^>]*>(.*?)</t[dh]>', row, re.S):
            if kind in ("series", "total"):
                cells[kind].append(without_tags(cell))
            else:
                cells[kind] = without_tags(cell)
        out.append(cells)
    return out


def written(value: Fraction, game: str) -> str:
    """A total as the standings page writes it: money in the currency, halves as decimals, a real minus sign."""
    if GAMES[game].MONEY:
        with translation.override("en"):
            return " ".join(format_money(int(value), "EUR").split())
    text = str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}".rstrip("0").rstrip(".")
    return text.replace("-", "\N{MINUS SIGN}")


@pytest.mark.parametrize("language", ["en", "de", "ja"])
def test_standings_after_a_series_rank_by_the_rule_set_s_order(host_client: Client, skat: Tournament,
                                                               language: str) -> None:
    """Skat: Seeger-Fabian points, then more games won, then fewer lost (the Skatwettspielordnung)."""
    skat.print_language = language
    skat.save()
    for upto in (1, 2):
        html = page(host_client, "tournament-print-standings", skat, upto)
        assert WORDS[language]["standings"] in without_tags(html)
        rows = ranking_rows(html)
        figures, won, lost = expected(skat, upto), expected(skat, upto, "won"), expected(skat, upto, "lost")
        assert [row["name"] for row in rows] == sorted(
            figures, key=lambda name: (-figures[name], -won[name], lost[name], NAMES.index(name)))
        for row in rows:
            assert row["total"] == [written(figures[row["name"]], "skat"), str(int(won[row["name"]])),
                                    str(int(lost[row["name"]]))]
            assert len(row["series"]) == upto
        assert [row["club"] for row in rows if row["name"] == "Greta"] == ["Skatfreunde Gast"]  # a guest's own club
        ranks = [int(row["rank"].rstrip(".")) for row in rows]
        assert ranks[0] == 1 and ranks == sorted(ranks)


@pytest.mark.parametrize("game", ["schafkopf", "kop", "fipsen"])
def test_standings_of_each_game_rank_by_its_first_season_basis(organiser: Any, host_client: Client,
                                                               game: str) -> None:
    tournament = build(game, 8, organiser)
    html = page(host_client, "tournament-print-standings", tournament, 2)
    rows = ranking_rows(html)
    figures = expected(tournament, 2)
    assert sorted(row["name"] for row in rows) == sorted(figures)
    shown = [figures[row["name"]] for row in rows]
    assert shown == sorted(shown, reverse=True)  # the tie-breaks order only within equal figures
    for row in rows:
        assert row["total"][0] == written(figures[row["name"]], game)


def test_final_ranking_pays_the_prize_table_by_place(host_client: Client, skat: Tournament) -> None:
    html = page(host_client, "tournament-print-ranking", skat, None)
    rows = ranking_rows(html)
    assert [row["prize"] for row in rows[:3]] == [format_money(5000, "EUR"), format_money(3000, "EUR"), ""]
    assert f'<dd data-line="paid">{format_money(8000, "EUR")}</dd>' in html
    assert len(rows) == 7 and all(len(row["series"]) == 2 for row in rows)


def test_shares_of_the_pot_after_retention(host_client: Client, skat: Tournament) -> None:
    skat.prizes = {"kind": "shares", "places": [600, 400], "retention": {"kind": "share", "value": 100}}
    skat.lost_game_money = [{"from": 1, "amount": 50}, {"from": 2, "amount": 100}]  # 0.50, then 1.00 from the 2nd
    skat.save()
    html = page(host_client, "tournament-print-ranking", skat, None)
    rows = ranking_rows(html)
    lost = [n for table in CardTable.objects.filter(night__series__tournament=skat) for n in ledger.build(table).lost]
    assert any(lost), "the example has lost games"
    lost_money = sum(50 * min(n, 1) + 100 * max(n - 1, 0) for n in lost)  # per player and series
    taken = 7 * 1000 + lost_money  # seven entry fees and the lost-game money
    pot = taken - taken * 100 // 1000  # a tenth retained (rounded down: the organiser keeps no more than a tenth)
    assert f'<dd data-line="pot">{format_money(pot, "EUR")}</dd>' in html
    paid = pot * 600 // 1000 + pot * 400 // 1000
    assert f'<dd data-line="paid">{format_money(paid, "EUR")}</dd>' in html
    assert [row["prize"] for row in rows[:2]] == [format_money(pot * 600 // 1000, "EUR"),
                                                  format_money(pot * 400 // 1000, "EUR")]


def test_rows_sharing_a_rank_share_the_prizes_of_their_places(organiser: Any, host_client: Client) -> None:
    """Tied players share the prizes of the places they occupy together, each the same amount rounded down
    (`tournament_money`); what rounding keeps back stays in the pot and is printed."""
    tournament = build("skat", 19, organiser)
    places = [5000, 3000, 2000, 1000, 500, 300]
    tournament.prizes = {"kind": "amounts", "places": places}
    tournament.save()
    html = page(host_client, "tournament-print-ranking", tournament, None)
    rows = ranking_rows(html)
    cents = [int(re.sub(r"\D", "", row["prize"]) or 0) for row in rows]
    ranks = [row["rank"] for row in rows]
    assert len(set(ranks)) < len(ranks), "the example has a tie"
    kept_back = 0
    for rank in set(ranks):
        tied = [i for i, r in enumerate(ranks) if r == rank]
        pooled = sum(places[i] for i in tied if i < len(places))
        assert {cents[i] for i in tied} == {pooled // len(tied)}
        kept_back += pooled - pooled // len(tied) * len(tied)
    assert sum(cents) + kept_back == sum(places)
    assert f'<dd data-line="tie-remainder">{format_money(kept_back, "EUR")}</dd>' in html


# --- who may see them ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,series", [("tournament-printouts", None), ("tournament-print-cards", 1),
                                         ("tournament-pdf-lists", 1),
                                         ("tournament-print-standings", 2), ("tournament-pdf-ranking", None)])
def test_only_the_organising_club_s_hosts_see_the_printouts(skat: Tournament, name: str, series: int | None) -> None:
    stranger = Client()
    stranger.force_login(get_user_model().objects.create_user("stranger"))
    response = stranger.get(url(name, skat, series))
    assert response.status_code == 404 and b"Anna" not in response.content
    anonymous = Client().get(url(name, skat, series))
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]


def test_the_list_of_printouts_links_every_series_and_the_ranking(host_client: Client, skat: Tournament) -> None:
    html = page(host_client, "tournament-printouts", skat, None)
    for kind in ("cards", "lists", "standings"):
        for series in (1, 2):
            assert f'href="{url(f"tournament-print-{kind}", skat, series)}"' in html
            assert f'href="{url(f"tournament-pdf-{kind}", skat, series)}"' in html
    assert f'href="{url("tournament-pdf-ranking", skat, None)}"' in html


def test_a_series_not_drawn_is_404(host_client: Client, skat: Tournament) -> None:
    assert host_client.get(url("tournament-print-cards", skat, 9)).status_code == 404


# --- the PDF ---------------------------------------------------------------------------------------------

def test_a_busy_queue_answers_503_with_retry_after(host_client: Client, skat: Tournament,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def busy(key: str, page: Any) -> bytes:
        raise pdf.PdfBusy

    monkeypatch.setattr(pdf, "rendered", busy)
    response = host_client.get(url("tournament-pdf-cards", skat))
    assert response.status_code == 503 and response["Retry-After"] == str(pdf.RETRY_AFTER)


@pytest.fixture
def chromium(settings: Any) -> None:
    if not CHROMIUM.exists():
        reason = f"the PDF tests need Chromium at {CHROMIUM} (apt-get install chromium, or `make browser`)"
        if os.environ.get("CI"):
            pytest.fail(reason + "; CI is set, so this is a failure, not a skip")
        pytest.skip(reason)
    settings.SCOREKEEP_CHROMIUM = str(CHROMIUM)


@pytest.mark.browser
@pytest.mark.parametrize("name,series,language", [
    ("tournament-pdf-cards", 1, "ja"), ("tournament-pdf-lists", 2, "de"), ("tournament-pdf-standings", 2, "en"),
    ("tournament-pdf-ranking", None, "de")])
def test_each_printout_as_pdf(chromium: None, host_client: Client, skat: Tournament, name: str,
                              series: int | None, language: str) -> None:
    skat.print_language = language
    skat.save()
    response = host_client.get(url(name, skat, series))
    assert response.status_code == 200, response.content[:400]
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith('attachment; filename="herbstturnier-2026-11-21')
    reader = PdfReader(io.BytesIO(response.content))
    assert tuple(round(float(v)) for v in reader.pages[0].mediabox.upper_right) == (595, 842)  # A4
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert "Herbstturnier" in text
    for entrant in skat.entrants.select_related("player"):
        assert entrant.player.name in text
    if name.endswith("lists"):
        assert len(reader.pages) >= len(tables_of(skat, 2))  # one table a page
    again = host_client.get(url(name, skat, series))
    assert again.content == response.content  # kept by the version key, not rendered again


def test_a_deal_at_any_table_makes_a_new_pdf_and_the_key_stays_short(host_client: Client, skat: Tournament,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    keys: list[str] = []

    def rendered(key: str, page: Any) -> bytes:
        keys.append(key)
        assert "Herbstturnier" in page()
        return b"%PDF-1.7 made for " + key.encode()

    monkeypatch.setattr(pdf, "rendered", rendered)
    for _ in range(2):
        assert host_client.get(url("tournament-pdf-standings", skat, 2)).status_code == 200
    nights.enter_deal(tables_of(skat, 1)[-1], DEALS["skat"][0])  # a table of series 1: the standings after 2 move
    assert host_client.get(url("tournament-pdf-standings", skat, 2)).status_code == 200
    assert keys[0] == keys[1] != keys[2]
    assert all(len(key) < 200 for key in keys)


# --- one computation: the printout is the standings page and the money page ---------------------------------

def page_rows(html: str) -> list[list[str]]:
    """The rows of the first standings table of a page (the players'; the teams' and the prizes' follow)."""
    body = re.search(r'<table class="standings[^"]*">.*?<tbody>(.*?)</tbody>', html, re.S)
    assert body is not None
    return [[without_tags(cell) for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S)]


def test_the_printed_ranking_is_the_standings_page_s_and_the_money_page_s(organiser: Any,
                                                                            host_client: Client) -> None:
    """A tied tournament: one group's tie broken by a recorded lot, the others still tied and sharing their
    places' prizes — the final ranking prints the places, figures, notes and prizes the pages show."""
    tournament = build("skat", 19, organiser)
    tournament.prizes = {"kind": "amounts", "places": [1900 - 100 * i for i in range(19)]}
    tied = standings.standings(tournament).tied
    assert len(tied) >= 2, "the example has two groups tied after every tie-break"
    # The lot the organiser drew for the first group (draw_lot draws for every group: set just one here).
    tournament.lots = {standings.OVERALL: tied[0][::-1]}
    tournament.save()

    printed = ranking_rows(page(host_client, "tournament-print-ranking", tournament, None))
    response = host_client.get(reverse("tournament-standings", args=[tournament.pk]))
    assert response.status_code == 200
    shown = page_rows(response.content.decode())
    series = len(printed[0]["series"])
    assert [[row["rank"].rstrip("."), row["number"], row["name"], row["club"], *row["series"], *row["total"],
             row["notes"]] for row in printed] == [[*row[:4 + series + 3], row[-1]] for row in shown]
    assert sum("tie broken by lot" in row["notes"] for row in printed) == len(tied[0])
    ranks = [row["rank"] for row in printed]
    assert len(set(ranks)) < len(ranks), "ties no lot broke stay tied"

    money = host_client.get(reverse("tournament-money", args=[tournament.pk])).content.decode()
    prizes = re.search(r'id="prizes-title">.*?<tbody>(.*?)</tbody>', money, re.S)
    assert prizes is not None
    each = {}
    for row in re.findall(r"<tr>(.*?)</tr>", prizes.group(1), re.S):
        _places, winners, amount, _paid = [without_tags(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for winner in re.sub(r"\(.*\)", "", winners).split(";"):
            each[winner.split()[0]] = amount
    assert {row["number"]: row["prize"] for row in printed if row["prize"]} == each


def test_the_standings_printout_ranks_the_teams_as_the_standings_do(skat: Tournament, host_client: Client) -> None:
    skat.teams = True
    skat.save()
    nord, sued = Team.objects.create(tournament=skat, name="Nord"), Team.objects.create(tournament=skat, name="Süd")
    for entrant in skat.entrants.all():
        entrant.team = nord if entrant.number % 2 else sued
        entrant.save()
    html = page(host_client, "tournament-print-standings", skat, 2)
    printed = ranking_rows(html, "team")
    now = standings.standings(skat, upto=2)
    assert [(row["rank"], row["name"]) for row in printed] == [(f"{t.place}.", t.name) for t in now.teams]
    assert [row["total"][0] for row in printed] == [written(Fraction(t.total["performance"]), "skat")
                                                     for t in now.teams]
    assert "Nord" in {row["club"].split(" / ")[-1] for row in ranking_rows(html)}  # each player's team


def test_every_table_s_list_says_what_its_closing_check_misses(skat: Tournament, host_client: Client) -> None:
    html = page(host_client, "tournament-print-lists", skat, 1)
    checks = re.findall(r'data-check="(\w+)">(.*?)</p>', html, re.S)
    assert len(checks) == len(tables_of(skat, 1)) == 2
    for (state, text), table in zip(checks, tables_of(skat, 1), strict=True):
        missing = table.night.series_length - table.deals.count()
        assert state == "incomplete" and f"deals missing: {missing} of {table.night.series_length}" in text


@pytest.mark.parametrize("game", ["kop", "schafkopf"])
@pytest.mark.parametrize("language,kop,others", [("en", "Round 2", "Series 2"), ("de", "Runde 2", "Serie 2"),
                                                 ("ja", "第2ラウンド", "第2シリーズ")])
def test_kop_prints_and_shows_rounds_the_others_series(organiser: Any, host_client: Client, game: str,
                                                      language: str, kop: str, others: str) -> None:
    word, not_word = (kop, others) if game == "kop" else (others, kop)
    tournament = build(game, 8, organiser)
    tournament.print_language = language
    tournament.save()
    for name in ("tournament-print-standings", "tournament-print-cards", "tournament-print-lists"):
        text = without_tags(page(host_client, name, tournament, 2))
        assert word in text and not_word not in text, name
    shown = without_tags(host_client.get(reverse("tournament-standings", args=[tournament.pk]),
                                         headers={"Accept-Language": language}).content.decode())
    assert word in shown and not_word not in shown


def test_a_complete_list_prints_its_check_passed(organiser: Any, host_client: Client) -> None:
    tournament = build("schafkopf", 8, organiser)  # series 1: table 1 has one deal, table 2 two
    first, second = tables_of(tournament, 1)
    CardNight.objects.filter(pk=first.night_id).update(series_length=1)
    CardNight.objects.filter(pk=second.night_id).update(series_length=3)
    checks = re.findall(r'data-check="(\w+)">(.*?)</p>', page(host_client, "tournament-print-lists", tournament, 1),
                        re.S)
    assert [state for state, _text in checks] == ["complete", "incomplete"]
    assert "list complete" in checks[0][1] and "deals missing: 1 of 3" in checks[1][1]
