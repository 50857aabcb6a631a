"""Statistics pages (per player across nights) and a night's ledger as CSV.

The statistics cover only the nights the request may see: the nights of the clubs a logged-in host runs
(every night for the site owner, `access.visible_nights`), and a player's page only a player of those
clubs; anyone else is sent to log in. They are filtered by a
plain GET form (game, period), so a filtered page has its own URL and works without JavaScript.

The CSV is for spreadsheets: comma-separated (RFC 4180, what every spreadsheet and the `csv` module
read), UTF-8 with a byte-order mark so Excel shows umlauts and Japanese names right, one header row,
then one row per live deal; after the players' columns, what the deal declared (the game's own columns:
1 or 0 for a flag, a count as it is). Numbers are written as numbers — points as integers, Schafkopf money in
the night's currency with a decimal point (−0.60 as ``-0.60``) — and text cells that a spreadsheet
would run as a formula (starting with = + - @ or their full-width forms, a tab or a carriage return)
get a leading ``'``.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scorekeep.clubs import clubs, journey, ratings, stats
from scorekeep.clubs.forms import StatsFilter
from scorekeep.models import CardNight, Player
from scorekeep.nights import ledger, record
from scorekeep.rules import GAMES
from scorekeep.rules.explain import in_words
from scorekeep.web import access
from scorekeep.web.access import VIEW, NightRequest, night_access
from scorekeep.words.cells import DATE_FORMAT, csv_bytes, text_cell, wants_decimal_comma
from scorekeep.words.labels import CONTRACT_LABELS, in_game
from scorekeep.words.money import in_units


def _year_ago(today: datetime.date) -> datetime.date:
    """The day after the same date a year before: "the last 12 months" end today."""
    try:
        then = today.replace(year=today.year - 1)
    except ValueError:  # 29 February
        then = today.replace(year=today.year - 1, day=28)
    return then + datetime.timedelta(days=1)


def periods(form: StatsFilter, today: datetime.date) -> list[dict[str, Any]]:
    """The quick choices of a period, each a link keeping the chosen game; the one in use is marked."""
    choices = [(_("This year"), datetime.date(today.year, 1, 1), datetime.date(today.year, 12, 31)),
               (_("Last 12 months"), _year_ago(today), today),
               (_("All"), None, None)]
    game, club = form.data.get("game", ""), form.data.get("club", "")
    since, until = form.data.get("since", ""), form.data.get("until", "")
    out = []
    for label, start, end in choices:
        params = {"club": club, "game": game, "since": start.strftime(DATE_FORMAT) if start else "",
                  "until": end.strftime(DATE_FORMAT) if end else ""}
        out.append({"label": label, "query": urlencode({k: v for k, v in params.items() if v}),
                    "current": (since, until) == (params["since"], params["until"])})
    return out


def _context(form: StatsFilter) -> dict[str, Any]:
    return {"form": form, "periods": periods(form, timezone.localdate()), "query": form.query}


@login_required
def stats_page(request: HttpRequest) -> HttpResponse:
    form = StatsFilter(request.GET, clubs=list(clubs.hosted_by(request.user).order_by("name", "pk")))
    statistics = None
    if form.is_valid():
        nights = stats.with_ledgers(form.of_club(stats.filtered(access.visible_nights(request), **form.filters)))
        statistics = stats.collect(nights)
    return render(request, "clubs/stats.html", {**_context(form), "statistics": statistics})


@login_required
def player_stats(request: HttpRequest, player_id: int) -> HttpResponse:
    # Another club's player: no sign that the name exists.
    player = get_object_or_404(access.visible_players(request).select_related("club"), pk=player_id)
    visible = access.visible_nights(request)
    form = StatsFilter(request.GET)
    player_stats = None
    journeys: list[journey.Journey] = []
    if form.is_valid():
        nights = stats.filtered(visible, **form.filters).filter(tables__places__player=player).distinct()
        loaded = list(stats.with_ledgers(nights))
        player_stats = stats.collect(loaded).get(player.pk) or stats.PlayerStats(player)
        journeys = journey.journeys(player, loaded)
    shown = [(item, item.chart(player), _rating(player, item.game)) for item in journeys]
    return render(request, "clubs/player_stats.html", {**_context(form), "player": player, "stats": player_stats,
                                                 "journeys": shown, "rated_after": ratings.RATED_AFTER})


def _rating(player: Player, game: str) -> ratings.Rating | None:
    """The player's rating in the game, where the club shows ratings (off: None)."""
    if not player.club.ratings:
        return None
    return ratings.of_club(player.club, game).get(player.pk)


# --- a night's ledger as CSV ---------------------------------------------------------------------


def number_cell(value: int | None, night: CardNight) -> str:
    """An amount as a spreadsheet number: points as they are, Schafkopf money in units of the currency with
    its own decimals (-0.60 for −60 cents, 1200 for ¥1,200)."""
    if value is None:
        return ""
    if not night.money:
        return str(value)
    return format(in_units(value, night.exponent), "f")


def declared_cell(value: bool | int | None) -> str:
    """A declaration as a spreadsheet number: a flag 1 or 0, a count as it is; empty where the deal has none."""
    return "" if value is None else str(int(value))


def csv_rows(night: CardNight) -> list[list[str]]:
    """The header and one row per live deal of every table; a player's two columns (entry, running
    total) stay empty at the tables the player did not sit at, the entry also where they sat out; then
    the game's declarations (Skat: Hand … Kontra, Re, overbid), one column each."""
    books = []
    columns: dict[int, str] = {}  # player id → name, in order of first appearance
    for table in night.tables.all():
        places = list(table.places.all())
        books.append((ledger.build(table, stats.live_deals(table), [p.player.name for p in places]),
                      [p.player_id for p in places]))
        for place in places:
            columns.setdefault(place.player_id, place.player.name)
    unit = f" ({night.currency})" if night.money else ""
    # The declarer and the value in the game's own words (Schafkopf's デクレアラー / Spieler, not Skat's).
    header = [gettext("Table"), gettext("Deal"), gettext("Dealer"), in_game("Declarer", night.game),
              gettext("Contract"), gettext("Result"), in_game("Value", night.game) + unit, gettext("Bock")]
    for name in columns.values():
        header += [name + unit, gettext("%(name)s: total") % {"name": name} + unit]
    # What each deal declared, in the game's own columns (the engine's `DECLARED`), after all the others so
    # that a reader of the earlier columns finds them where they were.
    declared = GAMES[night.game].DECLARED
    header += [in_words(column.header, gettext) for column in declared]
    # The record (nights/record.py), last: each change's sign, and its footnote in words; a deleted deal is a
    # row of its own in its place, its number kept.
    header += [gettext("Changed"), gettext("Changes to the list")]
    rows = [[text_cell(cell) for cell in header]]
    records = record.of_tables([book.table for book, _ids in books],
                               {book.table.pk: book.names for book, _ids in books},
                               {book.table.pk: book.deals_played for book, _ids in books})
    blank = [""] * (2 * len(columns) + len(declared))
    for book, player_ids in books:
        where = {player_id: position for position, player_id in enumerate(player_ids)}
        kept = records[book.table.pk]
        for row in kept.merged(list(book.rows)):
            if isinstance(row, record.Gap):
                rows.append([str(book.table.number), str(row.number), "", "", "", gettext("deleted"), "", "",
                             *blank, *_record_cells(row.marks)])
                continue
            verdict = row.verdict
            named, won = row.named  # a Ramsch names its loser (or the one who took every trick)
            cells = [str(book.table.number), str(row.number), text_cell(book.names[row.dealer]),
                     text_cell(" + ".join(book.names[p] for p in named)),
                     text_cell(str(CONTRACT_LABELS.get(row.deal.contract, ""))),
                     "" if won is None else gettext("won") if won else gettext("lost"),
                     number_cell(verdict.value, night) if won is not None else "",
                     gettext("Bock") if row.deal.bock else ""]
            for player_id in columns:
                position = where.get(player_id)
                if position is None:
                    cells += ["", ""]
                else:
                    cells += [number_cell(row.entries[position], night), number_cell(row.totals[position], night)]
            cells += [declared_cell(column.entry(row.deal.facts, row.deal.verdict)) for column in declared]
            rows.append(cells + _record_cells(kept.marks(row.number)))
    return rows


def _record_cells(marks: Sequence[record.Note]) -> list[str]:
    """A row's changes: the signs ("corrected; deleted; restored"), then each footnote's sentence."""
    return [text_cell("; ".join(note.sign for note in marks)), text_cell(" | ".join(note.text for note in marks))]


def csv_filename(night: CardNight) -> str:
    return (slugify(f"{night.date:%Y-%m-%d} {night.game} {night.place}") or f"night-{night.pk}") + ".csv"


@night_access(VIEW)
def night_csv(request: NightRequest, night_id: int) -> HttpResponse:
    night = get_object_or_404(stats.with_ledgers(CardNight.objects.all()), pk=night_id)
    response = HttpResponse(csv_bytes(csv_rows(night), decimal_comma=wants_decimal_comma(request)),
                            content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, csv_filename(night))  # type: ignore[assignment]  # never None for an attachment (the stubs: str | None)
    return response

