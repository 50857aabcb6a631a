"""A tournament's printouts (issue 18), each an A4 page to print and the same page as PDF (`scorekeep.printing.pdf`):

- the **table cards** of a series: one card (A6, four to an A4 sheet, with cut lines) per table — the seats in
  order with start numbers and names, who deals first, and the table's scorer link as a QR code;
- **every table's list** of a series, one table a page: the list as a night's printout lays it out
  (`printing.lists.paper_list` and its layout's `print/<layout>.html#list`), with a signature line for each player
  and the list keeper;
- the **standings after a series** and the **final ranking with its prizes**.

The language is the tournament's `print_language`, else the reader's. Only the organising club's hosts reach
them (404 for anyone else). Every figure of the standings is read from the tables' kept standings
(`CardTable.standing`), never by judging a deal again.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from scorekeep.models import CardNight, CardTable, Deal, Entrant, Series, TablePlayer, Tournament
from scorekeep.nights import ledger, record
from scorekeep.nights.forms import preset_label
from scorekeep.printing import pdf
from scorekeep.printing.lists import PRINT_CSS, PrintTable, list_template, paper_list, tick_heads
from scorekeep.printing.refusals import pdf_busy, pdf_unavailable
from scorekeep.tournaments import money as tournament_money
from scorekeep.tournaments import paper, standing_rows, standings
from scorekeep.tournaments import writes as tournaments
from scorekeep.tournaments.loading import tournament_of
from scorekeep.web.qr import qr_svg
from scorekeep.words import labels
from scorekeep.words.labels import GAME_LABELS, unit_text

log = logging.getLogger(__name__)

# The cards' and pages' own layout, beside the lists' (print.css); the PDF carries both inline.
TOURNAMENT_CSS = "css/tournament_print.css"
CARDS_A_SHEET = 4  # A6 cards on one A4 sheet, two by two


# --- loading ------------------------------------------------------------------------------------------

def _series(tournament: Tournament, number: int) -> Series:
    series = tournament.series_set.filter(number=number).first()
    if series is None:
        raise Http404("No such series.")
    return series


def _tables(series: Series) -> list[CardTable]:
    """The series' tables (each its own night's one table) in table order, with their players and live deals."""
    tables = (CardTable.objects.filter(night__series=series).select_related("night")
              .prefetch_related(Prefetch("places", queryset=TablePlayer.objects.select_related("player")),
                                Prefetch("deals", queryset=Deal.objects.filter(deleted=False).order_by("sequence"),
                                         to_attr="live_deals"))
              .order_by("number", "night_id"))
    return list(tables)


def _entrants(tournament: Tournament) -> dict[int, Entrant]:
    """The entrants by player id."""
    return {entrant.player_id: entrant for entrant in tournament.entrants.select_related("player")}


# --- the table cards ----------------------------------------------------------------------------------

@dataclass(slots=True)
class Seat:
    position: int  # 1 … n clockwise
    number: int | None  # start number (None: a player at the table who is not an entrant)
    name: str
    deals_first: bool


@dataclass(slots=True)
class TableCard:
    number: int
    seats: list[Seat]
    first_dealer: str
    scorer_url: str
    qr: str


def table_cards(request: HttpRequest, tournament: Tournament, tables: list[CardTable]) -> list[TableCard]:
    entrants = _entrants(tournament)
    cards = []
    for table in tables:
        places = list(table.places.all())
        seats = [Seat(place.position + 1, getattr(entrants.get(place.player_id), "number", None), place.player.name,
                      place.position == table.first_dealer) for place in places]
        url = request.build_absolute_uri(reverse("join", args=[table.night.scorer_token]))
        first = next((seat.name for seat in seats if seat.deals_first), "")
        cards.append(TableCard(table.number, seats, first, url, qr_svg(url)))
    return cards


def _sheets(cards: list[TableCard]) -> list[list[TableCard]]:
    return [cards[i:i + CARDS_A_SHEET] for i in range(0, len(cards), CARDS_A_SHEET)]


# --- every table's list -------------------------------------------------------------------------------

@dataclass(slots=True)
class TableList:
    """One table's list as a night's printout lays it out, and who signs it."""

    item: PrintTable
    night: CardNight
    signers: list[str]
    problems: list[str]  # what the table's closing check misses, in words (empty: the list is complete)
    foot: paper.Foot | None = None  # the standings count the table's paper list, not the deals typed in

    @property
    def template(self) -> str:
        """The game's list as its night printout lays it out (the partial of its layout's template)."""
        return f"{list_template(self.night.game)}#list"


def table_lists(series: Series, tables: list[CardTable]) -> list[TableList]:
    """Each table's list with its closing check (`tournaments.table_checks`), as the organiser's page shows it."""
    checks = {check.table.pk: check for check in tournaments.table_checks(series)}
    books = {table.pk: ledger.build(table, table.live_deals, [place.player.name for place in table.places.all()])  # type: ignore[attr-defined]  # prefetched (to_attr)
             for table in tables}
    records = record.of_tables(tables, {pk: book.names for pk, book in books.items()},
                               {pk: book.deals_played for pk, book in books.items()})
    out = []
    for table in tables:
        book = books[table.pk]
        # The list alone, as the game lays it out (no chart: the tournament's list is what its table signs).
        item = paper_list(table.night, table, book, records[table.pk])
        out.append(TableList(item, table.night, book.names, checks[table.pk].problems_in_words(),
                             paper.foot(series.tournament, table, checks[table.pk].paper)))
    return out


# --- the standings and the final ranking ----------------------------------------------------------------

@dataclass(slots=True)
class PrintedStandings:
    """The standings as the standings page shows them (`standing_rows.rows`, one computation: the rule
    set's order and tie-breaks, the lot, withdrawals and late entries, the teams), with the prizes and the
    payout's totals of the money sheet (`tournament_money.sheet`) on the final ranking."""

    now: standings.TournamentStandings
    columns: list[str]  # the rule set's order in words: what is ranked by, then each tie-break
    rows: list[dict[str, Any]]
    team_rows: list[dict[str, Any]]
    totals: dict[str, str] = field(default_factory=dict)  # the payout's check lines, written out

    @property
    def series(self) -> list[int]:
        return self.now.numbers


def ranking(tournament: Tournament, upto_series: int | None = None, *, prizes: bool = False) -> PrintedStandings:
    """The standings after series `upto_series` (None: all of them), and with `prizes` the money sheet's prize
    of each place and its pot, prizes paid and what is left."""
    now = standings.standings(tournament, upto=upto_series)
    out = PrintedStandings(now, standing_rows.heads(now), standing_rows.rows(now, now.lines),
                    standing_rows.rows(now, now.teams))
    if prizes:
        sheet = tournament_money.sheet(tournament, now)
        paid = {line.number: prize.each for prize in sheet.prizes for line in prize.winners}
        for row in out.rows:
            amount = paid.get(row["line"].number, 0)
            row["prize"] = tournament_money.text(amount, tournament) if amount else ""
        out.totals = {key: tournament_money.text(getattr(sheet, key), tournament)
                      for key in ("pot", "prizes_paid", "tie_remainder", "left")}
    return out


# --- the pages ----------------------------------------------------------------------------------------

@dataclass(slots=True)
class Printout:
    """One kind of printout: its template, what it shows, its file name's word and its URL names."""

    template: str
    context: Callable[[HttpRequest, Tournament, Series | None], dict[str, Any]]
    slug: str
    page: str
    pdf: str


def _cards_context(request: HttpRequest, tournament: Tournament, series: Series | None) -> dict[str, Any]:
    assert series is not None
    return {"sheets": _sheets(table_cards(request, tournament, _tables(series))), "title": gettext("Table cards")}


def _lists_context(request: HttpRequest, tournament: Tournament, series: Series | None) -> dict[str, Any]:
    assert series is not None
    return {"lists": table_lists(series, _tables(series)), "tick_heads": tick_heads(tournament.game),
            "title": gettext("Table lists")}


def _unit_labels(tournament: Tournament, numbers: list[int]) -> list[str]:
    """The heads of the series' columns ("Series 2", Kop's "Round 2": the engine's word)."""
    return [unit_text(tournament.game, "numbered", n) for n in numbers]


def _standings_context(request: HttpRequest, tournament: Tournament, series: Series | None) -> dict[str, Any]:
    assert series is not None
    now = ranking(tournament, series.number)
    return {"standings": now, "title": gettext("Standings"), "unit_labels": _unit_labels(tournament, now.series),
            "columns": 5 + len(now.series) + len(now.columns)}


def _ranking_context(request: HttpRequest, tournament: Tournament, series: Series | None) -> dict[str, Any]:
    now = ranking(tournament, prizes=True)
    return {"standings": now, "title": gettext("Final ranking"), "final": True,
            "unit_labels": _unit_labels(tournament, now.series), "columns": 6 + len(now.series) + len(now.columns)}


PRINTOUTS = {
    "cards": Printout("printing/tournament_cards.html", _cards_context, "table-cards",
                      "tournament-print-cards", "tournament-pdf-cards"),
    "lists": Printout("printing/tournament_lists.html", _lists_context, "lists",
                      "tournament-print-lists", "tournament-pdf-lists"),
    "standings": Printout("printing/tournament_standings.html", _standings_context, "standings",
                          "tournament-print-standings", "tournament-pdf-standings"),
    "ranking": Printout("printing/tournament_standings.html", _ranking_context, "ranking",
                        "tournament-print-ranking", "tournament-pdf-ranking"),
}


def _css() -> str:
    """The style sheets the PDF carries inline (Chromium renders the page from a file, no server behind it)."""
    out = []
    for name in (PRINT_CSS, TOURNAMENT_CSS):
        path = finders.find(name)
        if path:
            with open(path, encoding="utf-8") as css:
                out.append(css.read())
    return "\n".join(out)


def _language(tournament: Tournament) -> str:
    return tournament.print_language or translation.get_language()


def _context(request: HttpRequest, kind: str, tournament: Tournament, series: Series | None, *,
             pdf_render: bool = False) -> dict[str, Any]:
    printout = PRINTOUTS[kind]
    args = [tournament.pk] if series is None else [tournament.pk, series.number]
    context = {"tournament": tournament, "series": series, "game_label": GAME_LABELS[tournament.game],
               "preset_label": preset_label(tournament.game, tournament.preset), "pdf_render": pdf_render,
               "pdf_url": reverse(printout.pdf, args=args), **printout.context(request, tournament, series)}
    if pdf_render:
        context["inline_css"] = _css()
    return context


def _filename(tournament: Tournament, kind: str, series: Series | None) -> str:
    """`herbstturnier-2026-11-21-series-2-lists.pdf` (ASCII only, so every browser and mail program keeps it)."""
    parts = [slugify(tournament.name) or f"tournament-{tournament.pk}", tournament.date.isoformat()]
    if series is not None:
        parts.append(f"series-{series.number}")
    parts.append(PRINTOUTS[kind].slug)
    return "-".join(parts) + ".pdf"


def _version_key(tournament: Tournament, kind: str, series: Series | None, language: str) -> str:
    """Changes with anything the printout shows: the tournament's version, and every table's night and list
    (a deal at any table bumps its table's version; the standings read every series up to this one)."""
    upto = tournament.series_count if series is None else series.number
    tables = CardTable.objects.filter(night__series__tournament=tournament, night__series__number__lte=upto)
    versions = sorted(tables.values_list("pk", "version", "night__version"))
    # A digest of the tables' versions: 150 tables would make a key no cache keeps (memcached: 250 characters).
    digest = hashlib.sha256(" ".join(f"{pk}.{v}.{n}" for pk, v, n in versions).encode()).hexdigest()[:32]
    return "-".join(map(str, ["tournament", kind, tournament.pk, tournament.version,
                              series.number if series else "all", language, digest]))


def _page(request: HttpRequest, kind: str, tournament_id: int, series_number: int | None) -> HttpResponse:
    tournament = tournament_of(request, tournament_id)
    series = None if series_number is None else _series(tournament, series_number)
    with translation.override(_language(tournament)), labels.speaking_of(tournament.game):
        return render(request, PRINTOUTS[kind].template, _context(request, kind, tournament, series))


def _pdf(request: HttpRequest, kind: str, tournament_id: int, series_number: int | None) -> HttpResponse:
    tournament = tournament_of(request, tournament_id)
    series = None if series_number is None else _series(tournament, series_number)
    language = _language(tournament)

    def page() -> str:
        with translation.override(language), labels.speaking_of(tournament.game):
            return render_to_string(PRINTOUTS[kind].template,
                                    _context(request, kind, tournament, series, pdf_render=True), request=request)

    try:
        data = pdf.rendered(_version_key(tournament, kind, series, language), page)
    except pdf.PdfBusy:
        return pdf_busy()
    except pdf.PdfUnavailable as err:
        log.warning("no PDF of tournament %s: %s", tournament.pk, err)
        return pdf_unavailable(err)
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(True, _filename(tournament, kind, series))  # type: ignore[assignment]  # never None for an attachment (the stubs: str | None)
    return response


@login_required
@require_GET
def series_print(request: HttpRequest, tournament_id: int, series_number: int, kind: str) -> HttpResponse:
    return _page(request, kind, tournament_id, series_number)


@login_required
@require_GET
def series_pdf(request: HttpRequest, tournament_id: int, series_number: int, kind: str) -> HttpResponse:
    return _pdf(request, kind, tournament_id, series_number)


@login_required
@require_GET
def ranking_print(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _page(request, "ranking", tournament_id, None)


@login_required
@require_GET
def ranking_pdf(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _pdf(request, "ranking", tournament_id, None)


@login_required
@require_GET
def printouts(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser's list of the tournament's printouts, per series and the final ranking."""
    tournament = tournament_of(request, tournament_id)
    kinds = [("cards", gettext("Table cards")), ("lists", gettext("Table lists")), ("standings", gettext("Standings"))]
    return render(request, "printing/tournament_printouts.html", {
        "tournament": tournament, "game_label": GAME_LABELS[tournament.game], "kinds": kinds,
        "series_list": list(tournament.series_set.order_by("number"))})
