"""A tournament's results (issue 31): the standings and the final ranking as CSV for the organiser, and by the
viewer link a read-only results page — to link from a club's website — with the standings after each series,
the final ranking and the prizes, printable, and the same CSVs.

The viewer link is throttled as the standings' (`loading.tournament_by_token`): wrong tokens count against the
address, a page that opened the right one is remembered in its session."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_safe

from scorekeep.models import Tournament
from scorekeep.nights.forms import preset_label
from scorekeep.tournaments import exports, standing_rows, standings
from scorekeep.tournaments import money as tournament_money
from scorekeep.tournaments.loading import tournament_by_token, tournament_of
from scorekeep.web import throttle
from scorekeep.words.cells import csv_bytes, wants_decimal_comma
from scorekeep.words.labels import GAME_LABELS, speaking_of

VIEWED = "results-viewed"  # the session's viewer tokens that opened a tournament's results
REMEMBERED = 20


def _csv(request: HttpRequest, tournament: Tournament, rows: list[list[str]], what: str) -> HttpResponse:
    response = HttpResponse(csv_bytes(rows, decimal_comma=wants_decimal_comma(request)),
                            content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, exports.filename(tournament, what))  # type: ignore[assignment]  # never None for an attachment (the stubs: str | None)
    return response


def _after(request: HttpRequest, tournament: Tournament, series: int | None) -> HttpResponse:
    numbers = set(tournament.series_set.values_list("number", flat=True))
    if series is not None and series not in numbers:
        raise Http404("No such series.")
    with speaking_of(tournament.game):
        rows = exports.after(tournament, series)
    return _csv(request, tournament, rows, "standings" if series is None else f"standings-after-{series}")


def _ranking(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    with speaking_of(tournament.game):
        rows = exports.final_ranking(tournament)
    return _csv(request, tournament, rows, "ranking")


# --- the organiser's ------------------------------------------------------------------------------------

@require_safe
@login_required
def standings_csv(request: HttpRequest, tournament_id: int, series_number: int) -> HttpResponse:
    """The standings after series `series_number`, as CSV."""
    return _after(request, tournament_of(request, tournament_id), series_number)


@require_safe
@login_required
def ranking_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The final ranking with its prizes, as CSV."""
    return _ranking(request, tournament_of(request, tournament_id))


# --- by the viewer link -------------------------------------------------------------------------------

def _public(request: HttpRequest, token: str) -> Tournament | HttpResponse:
    try:
        return tournament_by_token(request, token, VIEWED, REMEMBERED)
    except throttle.Throttled as refused:
        return render(request, "join_refused.html", {"message": throttle.wait_message(refused.wait)}, status=429)


@require_safe
def results_page(request: HttpRequest, token: str) -> HttpResponse:
    """The results page: the standings after each series played, the final ranking (so far) and the prizes."""
    tournament = _public(request, token)
    if isinstance(tournament, HttpResponse):
        return tournament
    with speaking_of(tournament.game):
        overall = standings.standings(tournament)
        after = []
        for number in range(1, overall.played + 1):
            now = standings.standings(tournament, upto=number)
            after.append({"number": number, "stage": standing_rows.stage(now), "heads": standing_rows.heads(now),
                          "rows": standing_rows.rows(now, now.lines),
                          "csv": reverse("results-standings-csv", args=[token, number])})
        sheet = tournament_money.sheet(tournament, overall)
        prizes = [{"places": str(p.places[0]) if p.places[0] == p.places[1] else f"{p.places[0]}–{p.places[1]}",
                   "winners": p.winners, "each": tournament_money.text(p.each, tournament)} for p in sheet.prizes]
        paid = {line.number: tournament_money.text(p.each, tournament) for p in sheet.prizes for line in p.winners}
        ranking = standing_rows.rows(overall, overall.lines)
        for row in ranking:
            row["prize"] = paid.get(row["line"].number, "")
        stage = standing_rows.stage(overall)
        return render(request, "tournaments/results.html", {
            "tournament": tournament, "game_label": GAME_LABELS[tournament.game],
            "preset_label": preset_label(tournament.game, tournament.preset), "after": after,
            "ranking": ranking, "heads": standing_rows.heads(overall), "numbers": overall.numbers,
            "stage": stage, "final": standing_rows.is_final(overall), "prizes": prizes,
            "team_rows": standing_rows.rows(overall, overall.teams),
            "ranking_csv": reverse("results-ranking-csv", args=[token])})


@require_safe
def results_standings_csv(request: HttpRequest, token: str, series_number: int) -> HttpResponse:
    tournament = _public(request, token)
    return tournament if isinstance(tournament, HttpResponse) else _after(request, tournament, series_number)


@require_safe
def results_ranking_csv(request: HttpRequest, token: str) -> HttpResponse:
    tournament = _public(request, token)
    return tournament if isinstance(tournament, HttpResponse) else _ranking(request, tournament)
