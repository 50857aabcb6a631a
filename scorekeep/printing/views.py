"""The printed lists of a card night, one per table, and their PDF.

Each game's list is the sheet its clubs know and sign, as the engine describes it and
`scorekeep.printing.lists` lays it out for A4. `night_pdf` renders the same page with Chromium
(`scorekeep.printing.pdf`).
"""

from __future__ import annotations

import logging
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
from scorekeep.nights import charts, ledger, record, settlement
from scorekeep.nights.forms import house_rules_in_words, night_bock_words, preset_label
from scorekeep.nights.ledger import Ledger
from scorekeep.nights.loading import load_night
from scorekeep.nights.settlement import played_for_money
from scorekeep.nights.settlement import settle_as_stored as settle
from scorekeep.printing import pdf
from scorekeep.printing.lists import PRINT_CSS, PrintTable, list_template, paper_list, tick_heads
from scorekeep.printing.refusals import pdf_busy
from scorekeep.rules import GAMES, standing
from scorekeep.web.access import VIEW, NightRequest, night_access
from scorekeep.words.labels import GAME_LABELS

log = logging.getLogger(__name__)


# --- the page ---------------------------------------------------------------------------------------

def print_table(night: CardNight, table: CardTable, book: Ledger, kept: record.Record | None = None) -> PrintTable:
    item = paper_list(night, table, book, kept)
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


def print_context(night: CardNight, *, pdf_render: bool = False) -> dict[str, Any]:
    tables = []
    books = {table.pk: ledger.build(table, table.live_deals, [place.player.name for place in table.places.all()])  # type: ignore[attr-defined]  # prefetched (to_attr)
             for table in night.tables.all()}
    records = record.of_tables(night.tables.all(), {pk: book.names for pk, book in books.items()},
                               {pk: book.deals_played for pk, book in books.items()})
    for table in night.tables.all():
        tables.append(print_table(night, table, books[table.pk], records[table.pk]))
    context: dict[str, Any] = {
        "night": night, "game_label": GAME_LABELS[night.game], "preset_label": preset_label(night.game, night.preset),
        "house_rules": house_rules_in_words(night), "bock": night_bock_words(night), "tables": tables,
        "tick_heads": tick_heads(night.game),
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
        return render(request, list_template(night.game), print_context(night))


@night_access(VIEW)
@require_GET
def night_pdf(request: NightRequest, night_id: int) -> HttpResponse:
    night = load_night(night_id)
    language = night.print_language or translation.get_language()

    def page() -> str:
        with translation.override(language):
            return render_to_string(list_template(night.game), print_context(night, pdf_render=True),
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
