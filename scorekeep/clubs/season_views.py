"""A club's seasons: starting one, its table as of any date (with the movement since the latest night), the
printed table, its PDF (`scorekeep.printing.pdf`, the same page) and CSV. Only the club's hosts reach them
(`clubs.club_of`: 404 for any other account, log-in for anyone else)."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from scorekeep.clubs import ratings, seasons, stats
from scorekeep.clubs.clubs import club_of
from scorekeep.clubs.forms import AsOf, SeasonForm
from scorekeep.models import Season
from scorekeep.printing import pdf
from scorekeep.printing.refusals import pdf_busy, pdf_unavailable
from scorekeep.words.cells import csv_bytes, text_cell, wants_decimal_comma
from scorekeep.words.labels import GAME_LABELS, translated
from scorekeep.words.money import in_units


def _season(request: HttpRequest, club_id: int, season_id: int) -> Season:
    club = club_of(request, club_id)
    season = Season.objects.filter(club=club, pk=season_id).select_related("club").first()
    if season is None:
        raise Http404("No such season.")
    return season


@login_required
@require_http_methods(["GET", "POST"])
def season_new(request: HttpRequest, club_id: int) -> HttpResponse:
    club = club_of(request, club_id)
    if request.method == "POST":
        form = SeasonForm(request.POST)
        if form.is_valid():
            try:
                season = seasons.start_season(club, **form.season())
            except seasons.SeasonError as err:
                form.add_error("basis" if err.field == "game" else err.field, str(err))
            else:
                return HttpResponseRedirect(reverse("season", args=[club.pk, season.pk]), status=303)
    else:
        year = timezone.localdate().year
        form = SeasonForm(initial={"start": datetime.date(year, 1, 1), "end": datetime.date(year, 12, 31),
                                   "name": str(year)})
    return render(request, "clubs/season_new.html", {"club": club, "form": form})


def _table(request: HttpRequest, season: Season) -> tuple[AsOf, seasons.Table]:
    form = AsOf(request.GET)
    as_of = form.cleaned_data["as_of"] if form.is_valid() else None
    return form, seasons.standings(season, as_of)


def _context(request: HttpRequest, club_id: int, season_id: int) -> dict[str, Any]:
    season = _season(request, club_id, season_id)
    form, table = _table(request, season)
    if season.club.ratings:  # beside the figures: each player's rating in the game, where it is shown yet
        rated = ratings.of_club(season.club, season.game)
        for line in table.lines:
            found = rated.get(line.player.pk)
            line.rating = found.ordinal if found is not None and found.shown else None
    query = f"?as_of={table.as_of:%Y-%m-%d}"
    return {"club": season.club, "season": season, "table": table, "form": form, "query": query,
            "game_label": GAME_LABELS[season.game], "basis_label": translated(table.basis.label),
            "ratings": season.club.ratings}


@login_required
def season_page(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    return render(request, "clubs/season.html", _context(request, club_id, season_id))


@login_required
def season_print(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    return render(request, "clubs/season_print.html", _context(request, club_id, season_id))


@login_required
def season_pdf(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    context = _context(request, club_id, season_id)
    css = finders.find("css/print.css")
    context.update(pdf_render=True, inline_css=open(css, encoding="utf-8").read() if css else "")

    def page() -> str:
        return render_to_string("clubs/season_print.html", context, request=request)

    table = context["table"]
    # The table changes with any night of the club: the key holds every counted night's versions.
    key = "season-" + "-".join(map(str, [context["season"].pk, table.as_of, request.LANGUAGE_CODE,
                                         *(f"{n.pk}.{n.version}" for n in table.nights)]))
    try:
        data = pdf.rendered(key, page)
    except pdf.PdfBusy:
        return pdf_busy()
    except pdf.PdfUnavailable as err:
        return pdf_unavailable(err)
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(True, _filename(context["season"], "pdf"))  # type: ignore[assignment]  # never None for an attachment (the stubs: str | None)
    return response


def _filename(season: Season, ext: str) -> str:
    return (slugify(f"{season.club.name} {season.name}") or f"season-{season.pk}") + f".{ext}"


def csv_rows(table: seasons.Table) -> list[list[str]]:
    """The header, then one row per player: rank (empty: unranked), name, score, nights played, missed,
    results dropped, movement, then each night's result (empty where the player did not play)."""
    header = [gettext("Rank"), gettext("Player"), gettext("Score"), gettext("Nights"), gettext("Missed"),
              gettext("Dropped"), gettext("Movement")]
    header += [f"{night.date:%Y-%m-%d}" for night in table.nights]
    rows = [[text_cell(cell) for cell in header]]
    for line in table.lines:
        by_night = {result.night.pk: result for result in line.results if result.night is not None}
        cells = ["" if line.rank is None else str(line.rank), text_cell(line.player.name),
                 _number(line.score, table), str(line.nights), str(line.missed), str(line.dropped),
                 "" if line.movement is None else str(line.movement)]
        cells += [_number(by_night[night.pk].value, table) if night.pk in by_night else "" for night in table.nights]
        rows.append(cells)
    return rows


def _number(value: Any, table: seasons.Table) -> str:
    """A number a spreadsheet reads: money with a decimal point, averages to two places, points whole."""
    if table.money:  # in the currency's own unit: 1.50 (euros), 150 (yen)
        return format(in_units(stats.rounded(value) or 0, table.exponent), "f")
    if value.denominator != 1:
        return f"{float(value):.2f}"
    return str(int(value))


@login_required
def season_csv(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    context = _context(request, club_id, season_id)
    response = HttpResponse(csv_bytes(csv_rows(context["table"]), decimal_comma=wants_decimal_comma(request)),
                            content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, _filename(context["season"], "csv"))  # type: ignore[assignment]  # never None for an attachment (the stubs: str | None)
    return response

