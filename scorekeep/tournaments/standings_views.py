"""A tournament's standings and money pages (issue 18): the organiser's (`tournament-standings`, the club's hosts), and
by the viewer link, for anyone who has it, one for phones and one for the big screen.

Each page shows the standings overall or of one series (``?series=N``) and polls for changes (htmx, the
standings section every 10 s): the ETag is the tournament's version (`Tournament.version`, moved on by every
deal at one of its tables and every change of the organiser's), so a poll is answered 304 after one small
query while nothing changed, and the standings (`scorekeep.tournaments.standings`) are computed only when something did.
The big screen pages through a long list by itself (static/js/bigscreen.js); without JavaScript it shows
every row.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from scorekeep.models import Tournament
from scorekeep.tournaments import money as tournament_money
from scorekeep.tournaments import standing_rows, standings
from scorekeep.tournaments.forms import MoneyForm
from scorekeep.tournaments.loading import tournament_by_token, tournament_of
from scorekeep.web import live, throttle
from scorekeep.words.labels import GAME_LABELS

LIVE = "live-standings"  # the id of the polled standings section
POLL = "every 10s"
VIEWED = "standings-viewed"  # the session's viewer tokens that opened a tournament's standings
REMEMBERED = 20  # of them, the latest
SCREEN_ROWS = 12  # rows on one page of the big screen (they fill a 16:9 screen at the type size set)


def _by_token(request: HttpRequest, token: str) -> Tournament:
    return tournament_by_token(request, token, VIEWED, REMEMBERED)


def _viewer_page(request: HttpRequest, token: str, template: str, kind: str) -> HttpResponse:
    try:
        tournament = _by_token(request, token)
    except throttle.Throttled as refused:
        return render(request, "join_refused.html", {"message": throttle.wait_message(refused.wait)}, status=429)
    return _page(request, tournament, template, kind)


def _series_asked(request: HttpRequest, tournament: Tournament) -> tuple[int | None, str | None]:
    """The series asked for by ``?series=N`` (None: overall), or an error naming the field."""
    raw = request.GET.get("series", "").strip()
    if raw in ("", "overall"):
        return None, None
    numbers = list(tournament.series_set.values_list("number", flat=True))
    if raw.isdigit() and int(raw) in numbers:
        return int(raw), None
    return None, gettext("series: “%(value)s” is not a series of this tournament; choose one of %(numbers)s, "
                         "or the overall standings.") % {"value": raw, "numbers": ", ".join(map(str, numbers))
                                                         or "—"}


def _tag(request: HttpRequest, tournament: Tournament, kind: str, series: int | None) -> str:
    own, tables = standings.version(tournament)
    return f'W/"s{tournament.pk}-{own}.{tables}-{kind}-{series or 0}-{request.LANGUAGE_CODE}"'


def _context(request: HttpRequest, tournament: Tournament, series: int | None, error: str | None,
             kind: str) -> dict[str, Any]:
    now = standings.standings(tournament, series)
    return {
        "tournament": tournament, "game_label": GAME_LABELS[tournament.game], "now": now, "series": series,
        "error": error, "kind": kind,
        "columns": standing_rows.heads(now), "short_columns": standing_rows.heads(now, short=True),
        "rows": standing_rows.rows(now, now.lines), "team_rows": standing_rows.rows(now, now.teams),
        "stage": standing_rows.stage(now),
        "series_numbers": list(tournament.series_set.values_list("number", flat=True)),
        "etag": _tag(request, tournament, kind, series), "live_id": LIVE, "poll": POLL,
        "screen_rows": SCREEN_ROWS, "scope": now.scope,
        "viewer_url": reverse("standings-viewer", args=[tournament.viewer_token]),
        "screen_url": reverse("standings-screen", args=[tournament.viewer_token]),
        "results_url": reverse("results", args=[tournament.viewer_token]),
    }


def _page(request: HttpRequest, tournament: Tournament, template: str, kind: str) -> HttpResponse:
    series, error = _series_asked(request, tournament)
    tag = _tag(request, tournament, kind, series)
    unchanged = live.not_modified(request, LIVE, tag)
    if unchanged is not None:
        return unchanged
    if kind != "host" and error is None:
        tag, board = _shared_board(request, tournament, template, kind, series, tag)
        if live.polled(request, LIVE):
            if request.headers.get("If-None-Match") == tag:
                return live.not_modified(request, LIVE, tag) or HttpResponse(status=304)
            return live.mark(HttpResponse(board), tag)
        context = {"tournament": tournament, "game_label": GAME_LABELS[tournament.game], "series": series,
                   "kind": kind, "series_numbers": list(tournament.series_set.values_list("number", flat=True)),
                   "board_html": mark_safe(board.decode())}  # noqa: S308 - our own rendering of the board
        return live.mark(render(request, template, context), tag)
    context = _context(request, tournament, series, error, kind)
    if live.polled(request, LIVE):
        return live.mark(render(request, f"{template}#board", context), tag)
    return live.mark(render(request, template, context, status=400 if error else 200), tag)


def _shared_board(request: HttpRequest, tournament: Tournament, template: str, kind: str, series: int | None,
                  tag: str) -> tuple[str, bytes]:
    """The viewers' standings board (its ETag and HTML) as computed for every viewer of the same page and
    language, kept in the cache: computed afresh only when the tournament changed and the kept board is older
    than `SCOREKEEP_STANDINGS_FRESH` seconds. At a championship the 150 tables change the standings several
    times a second: a thousand screens and phones then share one computation every few seconds instead of
    one a request, and each is at most that many seconds behind. The viewers' board holds no form (no CSRF
    token), so one rendering serves them all; the organiser's page is always computed."""
    key = f"standings:{tournament.viewer_token}:{kind}:{series or 0}:{request.LANGUAGE_CODE}"
    kept = cache.get(key)
    if kept is not None and (kept[0] == tag or time.time() - kept[2] < settings.SCOREKEEP_STANDINGS_FRESH):
        return kept[0], kept[1]
    board = render(request, f"{template}#board", _context(request, tournament, series, None, kind)).content
    cache.set(key, (tag, board, time.time()), timeout=3600)
    return tag, board


@login_required
@require_http_methods(["GET", "POST"])
def tournament_standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser's standings, with the lot for players still tied (POST ``scope``)."""
    tournament = tournament_of(request, tournament_id)
    if request.method == "POST":
        scope = request.POST.get("scope", "")
        numbers = tournament.series_set.values_list("number", flat=True)
        allowed = {standings.OVERALL, standings.TEAMS, *(standings.series_scope(n) for n in numbers)}
        if scope not in allowed:
            context = _context(request, tournament, None, gettext(
                "scope: “%(value)s” is not a standings of this tournament to draw a lot for.") % {"value": scope},
                "host")
            return render(request, "tournaments/standings.html", context, status=400)
        standings.draw_lot(tournament, scope, by=request.user.get_username())
        query = "" if not scope.startswith("series-") else "?series=" + scope.removeprefix("series-")
        return HttpResponseRedirect(reverse("tournament-standings", args=[tournament.pk]) + query, status=303)
    return _page(request, tournament, "tournaments/standings.html", "host")


@require_http_methods(["GET", "HEAD"])
def viewer_standings(request: HttpRequest, token: str) -> HttpResponse:
    """The standings for the players' phones, by the viewer link."""
    return _viewer_page(request, token, "tournaments/standings.html", "phone")


@require_http_methods(["GET", "HEAD"])
def viewer_screen(request: HttpRequest, token: str) -> HttpResponse:
    """The standings for the big screen, by the viewer link."""
    return _viewer_page(request, token, "tournaments/standings_screen.html", "screen")


# --- the money -----------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def money_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser's money: the settings form, fees, lost-game money, the pot, prizes and the payout sheet."""
    tournament = tournament_of(request, tournament_id)
    status = 200
    if request.method == "POST":
        form = MoneyForm(request.POST, tournament=tournament)
        if form.is_valid():
            tournament_money.change(tournament, **form.cleaned_data["settings"], by=request.user.get_username())
            return HttpResponseRedirect(reverse("tournament-money", args=[tournament.pk]), status=303)
        status = 400
    else:
        form = MoneyForm.of(tournament)
    sheet = tournament_money.sheet(tournament)

    def m(amount: int) -> str:
        return tournament_money.text(amount, tournament)

    payers = [{"payer": p, "fee": m(p.fee),
               "series": ["–" if n is None else f"{n} · {m(a or 0)}"
                          for n, a in zip(p.lost, p.lost_money, strict=True)],
               "lost_total": m(p.lost_total)} for p in sheet.payers]
    prizes = [{"prize": p, "each": m(p.each), "paid": m(p.paid), "remainder": m(p.remainder),
               "places": str(p.places[0]) if p.places[0] == p.places[1] else f"{p.places[0]}–{p.places[1]}"}
              for p in sheet.prizes]
    return render(request, "tournaments/tournament_money.html", {
        "tournament": tournament, "game_label": GAME_LABELS[tournament.game], "form": form, "sheet": sheet,
        "payers": payers, "prizes": prizes, "shares": (tournament.prizes or {}).get("kind") == "shares",
        "amounts": {key: m(getattr(sheet, key)) for key in (
            "fees", "fees_outstanding", "lost_money", "gross", "retention", "pot", "prizes_paid", "left",
            "share_remainder", "tie_remainder")},
        "shortfall": m(-sheet.left) if sheet.left < 0 else "",
        "series_numbers": list(tournament.series_set.values_list("number", flat=True)),
    }, status=status)
