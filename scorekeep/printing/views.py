"""The printed lists of a card night, one per game, and their PDF.

Each game's list is the sheet its clubs know and sign, laid out for A4 (`templates/printing/`,
`static/css/print.css`): Skat the club list with base value, matadors, a tick per level, the value
won or lost, every player's running total and the footer of won and lost games with their
Seeger-Fabian points; Schafkopf plus and minus per player with the sums that agree; Kop small
points with the round placings; Fipsen the score sheet's columns. Every number comes from the
stored verdicts through `ledger.build`; this module only arranges them in the list's columns and
adds the footer lines a club writes under them. `night_pdf` renders the same page with Chromium
(`scorekeep.printing.pdf`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from scorekeep.models import CardNight, CardTable
from scorekeep.nights import charts, ledger, settlement
from scorekeep.nights.forms import house_rules_in_words, night_bock_words, preset_label
from scorekeep.nights.ledger import Ledger, Row
from scorekeep.nights.loading import load_night
from scorekeep.nights.settlement import played_for_money
from scorekeep.nights.settlement import settle_as_stored as settle
from scorekeep.printing import pdf
from scorekeep.printing.refusals import pdf_busy
from scorekeep.rules import GAMES, fipsen, kop, schafkopf, skat, standing
from scorekeep.rules.explain import in_words
from scorekeep.web.access import VIEW, NightRequest, night_access
from scorekeep.words.labels import GAME_LABELS, page_words

# The style sheet the printed page links and the PDF carries inline (Chromium renders it from a
# file with no server behind it).
PRINT_CSS = "css/print.css"

log = logging.getLogger(__name__)


# --- Skat: the club list --------------------------------------------------------------------------

@dataclass(slots=True)
class SkatRow:
    """One line of the Skat list. `totals`: each player's running total, None where he held no
    cards (the sitting dealer in his deal, players beyond the seats)."""

    number: int
    declarer: str
    game: str
    base: int | None
    matadors: int | None
    ticks: list[bool]
    multiplier: int | None  # the multiplier the value was charged at (an overbid game's, not as played)
    overbid: bool
    value: int | None
    won: int | None  # the list entry of a won game
    lost: int | None  # the list entry of a lost game (negative)
    said: list[str]
    totals: list[int | None]
    passed: bool
    bock: bool
    played: bool = False  # the cards as played are attached to the deal (docs/PLAY.md)


@dataclass(slots=True)
class SkatFooter:
    """The lines under the Skat list, per player: the list points, the games won and lost and their
    Seeger-Fabian points, and the sum a club signs."""

    list_points: list[int]
    won: list[int]
    lost: list[int]
    won_points: list[int]
    lost_points: list[int]
    others_lost: list[int]
    others_lost_points: list[int]
    others_factor: int
    final: list[int]


def _words(value: object) -> str:
    return in_words(value, page_words)


def skat_rows(book: Ledger) -> list[SkatRow]:
    rows = []
    for row in book.rows:
        facts, verdict = row.deal.facts, row.verdict
        declarer = row.declarers[0] if row.declarers else None
        entry = row.entries[declarer] if declarer is not None else None
        won = verdict.won
        rows.append(SkatRow(
            number=row.number,
            declarer=book.names[declarer] if declarer is not None else "",
            game=_words(skat.game_words(facts, row.deal.verdict)),
            base=verdict.base,
            matadors=verdict.matadors,
            ticks=[level in skat.list_levels(facts, row.deal.verdict) for level in skat.LEVELS],
            multiplier=verdict.charged_multiplier,
            overbid=verdict.overbid,
            value=None if skat.passed(facts) else verdict.value,
            won=entry if won is True else None,
            lost=entry if won is False else None,
            said=[_words(word) for word in skat.said(facts, row.deal.verdict)],
            totals=[total if entry_ is not None else None for entry_, total in zip(row.entries, row.totals,
                                                                                     strict=True)],
            passed=won is None,  # nobody declared: all passed, or a Ramsch
            bock=row.deal.bock,
            played=row.deal.play is not None,
        ))
    return rows


def skat_footer(book: Ledger) -> SkatFooter:
    """The footer's lines, summed from the verdicts' Seeger-Fabian points: the declarer's for games won
    and lost, the others' for the games another player lost — everyone dealt into the game, the sitting
    dealer of a 4-seat table included (RULES.md), not players beyond the seats."""
    n = len(book.names)
    won_points, lost_points, others_lost, others_points = [0] * n, [0] * n, [0] * n, [0] * n
    for row in book.rows:
        seeger_fabian, won = row.verdict.seeger_fabian, row.verdict.won
        if not seeger_fabian or won is None:
            continue
        declarer = row.credited[:1]
        for seat, position in enumerate(row.seats):
            if position in declarer:
                (won_points if won else lost_points)[position] += seeger_fabian[seat]
            elif seeger_fabian[seat]:
                others_lost[position] += 1
                others_points[position] += seeger_fabian[seat]
    final = [sum(parts) for parts in zip(book.totals, won_points, lost_points, others_points, strict=True)]
    return SkatFooter(list(book.totals), list(book.won), list(book.lost), won_points, lost_points, others_lost,
                      others_points, skat.OTHERS_LOST_POINTS[book.table.seats], final)


# --- Schafkopf: plus and minus --------------------------------------------------------------------

@dataclass(slots=True)
class SchafkopfRow:
    """One game: each player's winnings (`plus`) or payment (`minus`, as a positive amount); None
    where the player did not pay or receive. `plus_sum` and `minus_sum` agree in every game."""

    number: int
    game: str
    players: str
    result: str
    solo_won: bool
    plus: list[int | None]
    minus: list[int | None]
    plus_sum: int
    minus_sum: int
    bock: bool
    played: bool = False  # the cards as played are attached to the deal (docs/PLAY.md)

    @property
    def cells(self) -> list[tuple[int | None, int | None]]:
        """(plus, minus) per player, as the list's two columns under each name."""
        return list(zip(self.plus, self.minus, strict=True))


@dataclass(slots=True)
class SchafkopfFooter:
    plus: list[int]
    minus: list[int]
    balance: list[int]
    plus_sum: int
    minus_sum: int

    @property
    def agree(self) -> bool:
        return self.plus_sum == self.minus_sum

    @property
    def cells(self) -> list[tuple[int, int]]:
        return list(zip(self.plus, self.minus, strict=True))


def _result(won: bool | None) -> str:
    return "" if won is None else gettext("won") if won else gettext("lost")


def schafkopf_rows(book: Ledger) -> list[SchafkopfRow]:
    rows = []
    for row in book.rows:
        facts = row.deal.facts
        plus = [entry if entry is not None and entry > 0 else None for entry in row.entries]
        minus = [-entry if entry is not None and entry < 0 else None for entry in row.entries]
        solo = schafkopf.played_alone(facts)
        rows.append(SchafkopfRow(
            number=row.number, game=_words(schafkopf.game_words(facts, row.deal.verdict)),
            players=" + ".join(book.names[p] for p in row.declarers), result=_result(row.verdict.won),
            solo_won=solo and row.verdict.won is True, plus=plus, minus=minus,
            plus_sum=sum(v for v in plus if v), minus_sum=sum(v for v in minus if v), bock=row.deal.bock,
            played=row.deal.play is not None))
    return rows


def schafkopf_footer(rows: list[SchafkopfRow], book: Ledger) -> SchafkopfFooter:
    n = len(book.names)
    plus = [sum(row.plus[p] or 0 for row in rows) for p in range(n)]
    minus = [sum(row.minus[p] or 0 for row in rows) for p in range(n)]
    return SchafkopfFooter(plus, minus, list(book.totals), sum(plus), sum(minus))


# --- Kop: small points and round placings ----------------------------------------------------------

@dataclass(slots=True)
class KopRow:
    number: int
    game: str
    old: str
    result: str
    value: int
    entries: list[int | None]
    totals: list[int]
    placing: list[Fraction] | None
    placing_complete: bool
    round: int
    played: bool = False  # the cards as played are attached to the deal (docs/PLAY.md)

    @property
    def cells(self) -> list[tuple[int, int] | None]:
        """(entry, running total) per player; None for who sat the deal out."""
        return [None if entry is None else (entry, total)
                for entry, total in zip(self.entries, self.totals, strict=True)]


def kop_rows(book: Ledger, round_length: int | None) -> list[KopRow]:
    rows = []
    for row in book.rows:
        facts, verdict = row.deal.facts, row.verdict
        rows.append(KopRow(
            number=row.number, game=_words(kop.game_words(facts, row.deal.verdict)),
            old=" + ".join(book.names[p] for p in row.declarers),
            result=_result(verdict.won), value=verdict.value, entries=list(row.entries),
            totals=list(row.totals), placing=row.placing, placing_complete=row.placing_complete,
            round=(row.number - 1) // round_length + 1 if round_length else 1, played=row.deal.play is not None))
    return rows


# --- Fipsen: the score sheet -----------------------------------------------------------------------

@dataclass(slots=True)
class FipsenRow:
    """One line of the Fipsen sheet: every player's running score and the value of the hand (the
    declarer's entry), with who played what as its note."""

    number: int
    totals: list[int]
    declarer: int | None
    entry: int | None
    note: str
    passed: bool
    played: bool = False  # the cards as played are attached to the deal (docs/PLAY.md)


def _fipsen_note(row: Row, names: list[str]) -> str:
    facts, verdict = row.deal.facts, row.verdict
    declarer = row.declarers[0] if row.declarers else None
    parts = [names[declarer]] if declarer is not None else []
    parts.append(_words(fipsen.game_words(facts, row.deal.verdict)))
    if verdict.won is not None and fipsen.played_out(facts):
        parts.append(_result(verdict.won))
    return " · ".join(parts)


def fipsen_rows(book: Ledger) -> list[FipsenRow]:
    rows = []
    for row in book.rows:
        declarer = row.declarers[0] if row.declarers else None
        rows.append(FipsenRow(row.number, list(row.totals), declarer,
                              row.entries[declarer] if declarer is not None else None,
                              _fipsen_note(row, book.names), fipsen.passed(row.deal.facts),
                              row.deal.play is not None))
    return rows


# --- the page ---------------------------------------------------------------------------------------

@dataclass(slots=True)
class PrintTable:
    """One table of the night as its list prints it."""

    table: CardTable
    ledger: Ledger
    rows: list[Any]
    footer: Any = None
    width: int = 0  # the list's columns, for the line that says there are no deals
    chart: str = ""  # the chart of the night at this table, an inline SVG

    @property
    def names(self) -> list[str]:
        return self.ledger.names


def _skat_list(night: CardNight, table: CardTable, book: Ledger) -> PrintTable:
    return PrintTable(table, book, skat_rows(book), skat_footer(book), width=9 + len(skat.LEVELS) + len(book.names))


def _schafkopf_list(night: CardNight, table: CardTable, book: Ledger) -> PrintTable:
    rows = schafkopf_rows(book)
    return PrintTable(table, book, rows, schafkopf_footer(rows, book), width=6 + 2 * len(book.names))


def _kop_list(night: CardNight, table: CardTable, book: Ledger) -> PrintTable:
    return PrintTable(table, book, kop_rows(book, night.round_length), width=5 + len(book.names))


def _fipsen_list(night: CardNight, table: CardTable, book: Ledger) -> PrintTable:
    return PrintTable(table, book, fipsen_rows(book), width=2 + len(book.names))


# Each game's list as clubs know it from paper (templates/printing/<game>.html lays it out).
LISTS: dict[str, Callable[[CardNight, CardTable, Ledger], PrintTable]] = {
    "skat": _skat_list, "schafkopf": _schafkopf_list, "kop": _kop_list, "fipsen": _fipsen_list}


def print_table(night: CardNight, table: CardTable, book: Ledger) -> PrintTable:
    item = LISTS[night.game](night, table, book)
    if book.rows:
        item.chart = charts.running_totals_svg(book)
    return item


def round_placing_points(night: CardNight) -> tuple[int, ...] | None:
    """The placing points the night's rule set gives per round, best first (None: no placing)."""
    return standing.round_placing(night.game, GAMES[night.game].parse_rules(night.rules_request))


def transfers(night: CardNight, tables: list[PrintTable]) -> list[str]:
    """The transfers that settle the night in words ("Clara pays Anna €4.20"), under the options of
    the night's settlement page (rate, rounding step, fees, prizes) so paper and page agree; none for
    a night not played for money, or while its options do not fit (the settlement page says why)."""
    if not played_for_money(night):
        return []
    try:
        settled = settle(night, [item.ledger for item in tables])
    except settlement.SettlementError:
        return []
    return [gettext("%(payer)s pays %(payee)s %(amount)s") % {
        "payer": t.payer, "payee": t.payee, "amount": settlement.format_money(t.cents, night.currency,
                                                                                exponent=settled.exponent)}
        for t in settled.transfers]


def skat_levels() -> list[str]:
    """The Skat list's level columns' heads, in the page's words."""
    return [_words(skat.LEVEL_LABELS[level]) for level in skat.LEVELS]


def print_context(night: CardNight, *, pdf_render: bool = False) -> dict[str, Any]:
    tables = []
    for table in night.tables.all():
        names = [place.player.name for place in table.places.all()]
        tables.append(print_table(night, table, ledger.build(table, table.live_deals, names)))  # type: ignore[attr-defined]  # prefetched (to_attr)
    context: dict[str, Any] = {
        "night": night, "game_label": GAME_LABELS[night.game], "preset_label": preset_label(night.game, night.preset),
        "house_rules": house_rules_in_words(night), "bock": night_bock_words(night), "tables": tables,
        "skat_levels": skat_levels(),
        "round_placing": round_placing_points(night), "transfers": transfers(night, tables),
        "signers": list(dict.fromkeys(name for item in tables for name in item.names)), "pdf_render": pdf_render,
    }
    if pdf_render:
        context["inline_css"] = _print_css()
    return context


def _print_css() -> str:
    path = finders.find(PRINT_CSS)
    if not path:  # a deployment that left static/ behind: the PDF is still the list, only plainer
        return ""
    with open(path, encoding="utf-8") as css:
        return css.read()


def pdf_filename(night: CardNight) -> str:
    """`skat-2026-11-21-clubhaus.pdf`: the game, the date and the place, slugified (ASCII only, so
    every browser and mail program keeps it)."""
    parts = [night.game, night.date.isoformat()]
    place = slugify(night.place)
    if place:
        parts.append(place)
    return "-".join(parts) + ".pdf"


@night_access(VIEW)
@require_GET
def night_print(request: NightRequest, night_id: int) -> HttpResponse:
    night = load_night(night_id)
    # The night may fix its printout's language (a club's list in German, whoever prints it).
    with translation.override(night.print_language or translation.get_language()):
        return render(request, f"printing/{night.game}.html", print_context(night))


@night_access(VIEW)
@require_GET
def night_pdf(request: NightRequest, night_id: int) -> HttpResponse:
    night = load_night(night_id)
    language = night.print_language or translation.get_language()

    def page() -> str:
        with translation.override(language):
            return render_to_string(f"printing/{night.game}.html", print_context(night, pdf_render=True),
                                    request=request)

    # Anything the printout shows changes the night's version or a table's (scorekeep.nights.writes).
    key = "-".join(map(str, [night.pk, night.version, *(table.version for table in night.tables.all()), language]))
    try:
        data = pdf.rendered(key, page)
    except pdf.PdfBusy:
        return pdf_busy()
    except pdf.PdfUnavailable as err:
        log.warning("no PDF of night %s: %s", night.pk, err)
        context = {"night": night, "game_label": GAME_LABELS[night.game], "reason": str(err)}
        return render(request, "printing/pdf_unavailable.html", context, status=503)
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(True, pdf_filename(night))  # type: ignore[assignment]  # never None for an attachment (the stubs: str | None)
    return response
