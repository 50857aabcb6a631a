"""A tournament's printouts (issue 18), each an A4 page to print and the same page as PDF (`scorekeep.pdf`):

- the **table cards** of a series: one card (A6, four to an A4 sheet, with cut lines) per table — the seats in
  order with start numbers and names, who deals first, and the table's scorer link as a QR code;
- **every table's list** of a series, one table a page: the list as a night's printout lays it out
  (`print_views.print_table` and the game's `print/<game>.html#list`), with a signature line for each player
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
from fractions import Fraction
from itertools import groupby
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

from . import clubs, labels, ledger, pdf
from .labels import GAME_LABELS, translated
from .models import CardNight, CardTable, Deal, Entrant, Series, TablePlayer, Tournament
from .money import format_money
from .night_forms import preset_label
from .print_views import LISTS, PRINT_CSS, PrintTable, skat_levels
from .qr import qr_svg
from .rules import GAMES
from .rules.season import Measure
from .templatetags.ledger_tags import placing, signed

log = logging.getLogger(__name__)

# The cards' and pages' own layout, beside the lists' (print.css); the PDF carries both inline.
TOURNAMENT_CSS = "css/tournament_print.css"
CARDS_A_SHEET = 4  # A6 cards on one A4 sheet, two by two


# --- loading ------------------------------------------------------------------------------------------

def _tournament(request: HttpRequest, tournament_id: int) -> Tournament:
    """The tournament, for a host of its club (or the site owner); 404 for anyone else, as for none."""
    tournament = (Tournament.objects.filter(pk=tournament_id, club__in=clubs.hosted_by(request.user))
                  .select_related("club").first())
    if tournament is None:
        raise Http404("No such tournament.")
    return tournament


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

    @property
    def template(self) -> str:
        """The game's list as its night printout lays it out (the partial of `print/<game>.html`)."""
        return f"print/{self.night.game}.html#list"


def table_lists(tables: list[CardTable]) -> list[TableList]:
    out = []
    for table in tables:
        names = [place.player.name for place in table.places.all()]
        # The list alone, as the game lays it out (no chart: the tournament's list is what its table signs).
        item = LISTS[table.night.game](table.night, table, ledger.build(table, table.live_deals, names))
        out.append(TableList(item, table.night, names))
    return out


# --- the standings: an adapter until tour-stand's `scorekeep.standings` is merged ----------------------

@dataclass(slots=True)
class StandingRow:
    rank: int
    number: int
    name: str
    club: str
    results: list[str]  # per series 1 … k, "" where the player did not play it
    total: str
    prize: str = ""
    value: Fraction = field(default=Fraction(0), repr=False)


@dataclass(slots=True)
class Standings:
    label: str  # what is ranked by, in words (the game's first season basis: Seeger-Fabian points, …)
    series: list[int]
    rows: list[StandingRow]
    pot: str = ""  # entry fees and lost-game money, less the organiser's retention
    paid: str = ""  # the prizes paid


def _measure(game: str) -> tuple[Measure, str]:
    basis = GAMES[game].SEASON_BASES[0]
    return basis.measure, str(translated(basis.label))


def _figure(value: Fraction, tournament: Tournament, measure: Measure) -> str:
    if measure == Measure.TOTAL and GAMES[tournament.game].MONEY:
        return format_money(int(value), tournament.currency, exponent=tournament.exponent, plus=True)
    if value.denominator != 1:
        return placing(value)
    return signed(int(value))


def _lost_game_money(lost: int, tiers: list[dict[str, int]]) -> int:
    """What `lost` lost games of one series pay: each lost game the amount of the highest tier it reached."""
    steps = sorted(tiers, key=lambda tier: tier["from"])
    return sum(next((tier["amount"] for tier in reversed(steps) if tier["from"] <= n), 0) for n in range(1, lost + 1))


def _shared(by_place: list[int], ranks: list[int]) -> list[int]:
    """Each row's prize (rows in ranking order): the prize of its place, or, where rows share a rank, the prizes
    of the places they take together split evenly (a minor unit left over goes to the first of them)."""
    out: list[int] = []
    for _rank, group in groupby(range(len(ranks)), key=lambda i: ranks[i]):
        places = list(group)
        share, left = divmod(sum(by_place[i] for i in places if i < len(by_place)), len(places))
        out += [share + (1 if k < left else 0) for k in range(len(places))]
    return out


def _standings(tournament: Tournament, upto_series: int, *, prizes: bool = False) -> Standings:
    """ADAPTER (to be replaced by tour-stand's `scorekeep.standings` in this one place): the ranking after
    series 1 … `upto_series`, read from each table's kept standing (`CardTable.standing`) by the game's first
    season basis (Skat: list points plus Seeger-Fabian points; Schafkopf: the money; Kop: placing points,
    the totals where the rule set places no rounds). Equal totals share a rank, listed by start number; the
    rule set's tie-breaks and the recorded lot are tour-stand's. With `prizes`, the prize table's amounts by
    place (amounts as given, or per mille of the pot: entry fees + lost-game money − retention)."""
    measure, label = _measure(tournament.game)
    entrants = _entrants(tournament)
    numbers = [s.number for s in tournament.series_set.filter(number__lte=upto_series).order_by("number")]
    results: dict[int, dict[int, Fraction]] = {player: {} for player in entrants}
    lost_money = 0
    tiers = tournament.lost_game_money or []
    tables = (CardTable.objects.filter(night__series__tournament=tournament, night__series__number__lte=upto_series)
              .select_related("night", "night__series").prefetch_related("places"))
    for table in tables:
        night = table.night
        places = list(table.places.all())
        kept = ledger.Standing.of(table, len(places))
        figures = kept.measured(night, measure) or [Fraction(v) for v in kept.totals]
        for place in places:
            if place.player_id in results:
                results[place.player_id][night.series.number] = figures[place.position]
            lost_money += _lost_game_money(kept.lost[place.position], tiers) if tiers else 0
    totals = {player: sum(by_series.values(), Fraction(0)) for player, by_series in results.items()}
    order = sorted(entrants.values(), key=lambda e: (-totals[e.player_id], e.number))
    rows: list[StandingRow] = []
    for i, entrant in enumerate(order):
        value = totals[entrant.player_id]
        rank = rows[-1].rank if rows and rows[-1].value == value else i + 1
        by_series = results[entrant.player_id]
        rows.append(StandingRow(
            rank, entrant.number, entrant.player.name, entrant.home_club if entrant.guest else tournament.club.name,
            [_figure(by_series[n], tournament, measure) if n in by_series else "" for n in numbers],
            _figure(value, tournament, measure), value=value))
    standings = Standings(label, numbers, rows)
    if prizes and tournament.prizes.get("places"):
        pot = tournament.entry_fee * len(entrants) + lost_money
        retention = tournament.prizes.get("retention") or {}
        kept_back = (pot * retention.get("value", 0) // 1000 if retention.get("kind") == "share"
                     else retention.get("value", 0))
        pot = max(0, pot - kept_back)
        shares = tournament.prizes.get("kind") == "shares"
        by_place = [pot * amount // 1000 if shares else amount for amount in tournament.prizes["places"]]
        paid = _shared(by_place, [row.rank for row in rows])
        for row, amount in zip(rows, paid, strict=True):
            if amount:
                row.prize = format_money(amount, tournament.currency, exponent=tournament.exponent)
        standings.pot = format_money(pot, tournament.currency, exponent=tournament.exponent)
        standings.paid = format_money(sum(paid), tournament.currency, exponent=tournament.exponent)
    return standings


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
    return {"lists": table_lists(_tables(series)), "skat_levels": skat_levels(), "title": gettext("Table lists")}


def _standings_context(request: HttpRequest, tournament: Tournament, series: Series | None) -> dict[str, Any]:
    assert series is not None
    standings = _standings(tournament, series.number)
    return {"standings": standings, "title": gettext("Standings"), "columns": len(standings.series) + 5}


def _ranking_context(request: HttpRequest, tournament: Tournament, series: Series | None) -> dict[str, Any]:
    standings = _standings(tournament, tournament.series_count, prizes=True)
    return {"standings": standings, "title": gettext("Final ranking"), "final": True,
            "columns": len(standings.series) + 6}


PRINTOUTS = {
    "cards": Printout("print/tournament_cards.html", _cards_context, "table-cards",
                      "tournament-print-cards", "tournament-pdf-cards"),
    "lists": Printout("print/tournament_lists.html", _lists_context, "lists",
                      "tournament-print-lists", "tournament-pdf-lists"),
    "standings": Printout("print/tournament_standings.html", _standings_context, "standings",
                          "tournament-print-standings", "tournament-pdf-standings"),
    "ranking": Printout("print/tournament_standings.html", _ranking_context, "ranking",
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
    tournament = _tournament(request, tournament_id)
    series = None if series_number is None else _series(tournament, series_number)
    with translation.override(_language(tournament)), labels.speaking_of(tournament.game):
        return render(request, PRINTOUTS[kind].template, _context(request, kind, tournament, series))


def _pdf(request: HttpRequest, kind: str, tournament_id: int, series_number: int | None) -> HttpResponse:
    tournament = _tournament(request, tournament_id)
    series = None if series_number is None else _series(tournament, series_number)
    language = _language(tournament)

    def page() -> str:
        with translation.override(language), labels.speaking_of(tournament.game):
            return render_to_string(PRINTOUTS[kind].template,
                                    _context(request, kind, tournament, series, pdf_render=True), request=request)

    try:
        data = pdf.rendered(_version_key(tournament, kind, series, language), page)
    except pdf.PdfBusy:
        response = HttpResponse(gettext("Many PDFs are being made just now; try again in a few seconds."),
                                content_type="text/plain; charset=utf-8", status=503)
        response["Retry-After"] = str(pdf.RETRY_AFTER)
        return response
    except pdf.PdfUnavailable as err:
        log.warning("no PDF of tournament %s: %s", tournament.pk, err)
        return HttpResponse(gettext("No PDF can be made just now (%(reason)s); use the printout and your "
                                    "browser's Print instead.") % {"reason": err},
                            content_type="text/plain; charset=utf-8", status=503)
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(True, _filename(tournament, kind, series))
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
    tournament = _tournament(request, tournament_id)
    kinds = [("cards", gettext("Table cards")), ("lists", gettext("Table lists")), ("standings", gettext("Standings"))]
    return render(request, "print/tournament_printouts.html", {
        "tournament": tournament, "game_label": GAME_LABELS[tournament.game], "kinds": kinds,
        "series_list": list(tournament.series_set.order_by("number"))})
