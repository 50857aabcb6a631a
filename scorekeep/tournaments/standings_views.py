"""A tournament's standings and money pages (issue 18): the organiser's (`tournament-standings`, the club's hosts), and
by the viewer link, for anyone who has it, one for phones and one for the big screen.

Each page shows the standings overall or of one series (``?series=N``) and polls for changes (htmx, the
standings section every 10 s). The organiser's page is computed on every request that finds the tournament changed:
its ETag is the tournament's version (`standings.version`: its own, moved on by every change of the organiser's,
and its tables', moved on by every deal), so it is current at every poll. The viewers' pages (phones and the
big screen) are answered from the shared board (`_viewer_board`, kept in the cache: Redis when configured, so
every app server shares it) with the board's own ETag, a hash of what it shows: a poll while the board is
unchanged is answered 304 without reading a table, and a save somewhere that leaves the board as it was (another
series, a page of the big screen the deal did not move) does not make every screen fetch it again. A viewer
opening the page is answered from the cache too: the page round the board is kept (`_shell`), and put together
with the kept board and the viewer's own CSRF token (`_open_from_board`), without a query. A poll's board
goes gzipped to a browser that takes it, compressed once when the board was computed (`_board_answer`).
The big screen pages through a long list by itself (static/js/bigscreen.js); without JavaScript it shows
every row.
"""

from __future__ import annotations

import gzip
import hashlib
import secrets
import time
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, HttpResponseRedirect
from django.shortcuts import render
from django.template import engines
from django.template.context_processors import csrf
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from scorekeep.models import Tournament, token_shaped
from scorekeep.tournaments import money as tournament_money
from scorekeep.tournaments import standing_rows, standings
from scorekeep.tournaments.forms import MoneyForm
from scorekeep.tournaments.loading import tournament_by_token, tournament_of
from scorekeep.web import live, shared, throttle
from scorekeep.words.labels import GAME_LABELS, listed

LIVE = "live-standings"  # the id of the polled standings section
POLL = "every 10s"
VIEWED = "standings-viewed"  # the session's viewer tokens that opened a tournament's standings
REMEMBERED = 20  # of them, the latest
SCREEN_ROWS = 12  # rows on one page of the big screen (they fill a 16:9 screen at the type size set)


def _by_token(request: HttpRequest, token: str, known: bool = False, remember: bool = True) -> Tournament:
    return tournament_by_token(request, token, VIEWED, REMEMBERED, known, remember)


def _known(request: HttpRequest, token: str, kind: str) -> bool:
    """Whether a board of this page is kept under `token` (of any age): only a token that opened its
    tournament has one, so it is looked up without the throttle counting it (`_by_token`). A viewer whose page
    came from the cache has no session remembering the token; all of a hall's phones may share one address,
    and counting each of their polls when the board is renewed would refuse them all past the limit under
    load."""
    if not token_shaped(token):
        return False
    raw = request.GET.get("series", "").strip()
    key = _board_key(token, kind, int(raw) if raw.isdigit() else None, request.LANGUAGE_CODE)
    return cache.get(f"{key}:tag") is not None


def _viewer_page(request: HttpRequest, token: str, template: str, kind: str) -> HttpResponse:
    kept = _poll_from_board(request, token, kind)
    if kept is None:
        kept = _open_from_board(request, token, kind)
    if kept is not None:
        return kept
    try:
        tournament = _by_token(request, token, _known(request, token, kind))
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
                         "or the overall standings.") % {"value": raw, "numbers": listed(map(str, numbers))
                                                         or "—"}


def _tag(request: HttpRequest, tournament: Tournament, kind: str, series: int | None) -> str:
    """The organiser's page's ETag: where the tournament's data stands (one query on its tables)."""
    own, tables = standings.version(tournament)
    return f'W/"s{tournament.pk}-{own}.{tables}-{kind}-{series or 0}-{request.LANGUAGE_CODE}"'


def _board_tag(request: HttpRequest, tournament: Tournament, kind: str, series: int | None, board: bytes) -> str:
    """A viewers' board's ETag: what it shows, hashed (the same board computed again keeps its tag)."""
    digest = hashlib.blake2b(board, digest_size=8).hexdigest()
    return f'W/"b{tournament.pk}-{kind}-{series or 0}-{request.LANGUAGE_CODE}-{digest}"'


# Rendered in the board where its own ETag goes (the section's data-etag), then replaced by the hash of the rest.
_TAG_HERE = "scorekeep-board-etag-goes-here"


def _context(request: HttpRequest, tournament: Tournament, series: int | None, error: str | None,
             kind: str, etag: str | None = None) -> dict[str, Any]:
    now = standings.standings(tournament, series)
    return {
        "tournament": tournament, "game_label": GAME_LABELS[tournament.game], "now": now, "series": series,
        "error": error, "kind": kind,
        "columns": standing_rows.heads(now),
        # Each column's short heading, and its full name where it abbreviates ("SF points"): a title on the
        # heading, and a line under the table that spells it out.
        "short_columns": list(zip(standing_rows.heads(now, short=True), standing_rows.heads(now), strict=True)),
        "rows": standing_rows.rows(now, now.lines), "team_rows": standing_rows.rows(now, now.teams),
        "stage": standing_rows.stage(now),
        "series_numbers": list(tournament.series_set.values_list("number", flat=True)),
        "etag": etag or _tag(request, tournament, kind, series), "live_id": LIVE, "poll": POLL,
        "poll_url": _poll_url(request, tournament, kind, series),
        "screen_rows": SCREEN_ROWS, "scope": now.scope,
        "viewer_url": reverse("standings-viewer", args=[tournament.viewer_token]),
        "screen_url": reverse("standings-screen", args=[tournament.viewer_token]),
        "results_url": reverse("results", args=[tournament.viewer_token]),
    }


def _poll_url(request: HttpRequest, tournament: Tournament, kind: str, series: int | None) -> str:
    """Where the board polls: the organiser's page itself; a viewers' page its board's own address, the same
    for every viewer of the page in a language (`viewer_board`)."""
    if kind == "host":
        url = request.path
    else:
        url = reverse("standings-board", args=[tournament.viewer_token, kind, request.LANGUAGE_CODE])
    return f"{url}?series={series}" if series else url


def _page(request: HttpRequest, tournament: Tournament, template: str, kind: str) -> HttpResponse:
    series, error = _series_asked(request, tournament)
    if kind != "host" and error is None:
        tag, board, gz, _at = _viewer_board(request, tournament, template, kind, series)
        if live.polled(request, LIVE):
            return live.not_modified(request, LIVE, tag) or _board_answer(request, tag, board, gz)
        context = {"tournament": tournament, "game_label": GAME_LABELS[tournament.game], "series": series,
                   "kind": kind, "series_numbers": list(tournament.series_set.values_list("number", flat=True))}
        page_key = _page_key(request, _board_key(tournament.viewer_token, kind, series, request.LANGUAGE_CODE))
        if page_key is None or request.user.is_authenticated:
            context["board_html"] = mark_safe(board.decode())  # noqa: S308 - our own rendering of the board
            return live.mark(render(request, template, context), tag)
        shell = cache.get(f"{page_key}:shell")
        if shell is None or shell[0] != tournament.version:
            shell = _shell(request, template, context, tournament.version)
            cache.set(f"{page_key}:shell", shell, timeout=BOARD_KEPT)
        plain, zipped = _whole_page(shell, board)
        cache.set_many({page_key: (tag, shell[0], plain), f"{page_key}:gz": (tag, shell[0], zipped)},
                       timeout=BOARD_KEPT)
        gzipped = shared.takes_gzip(request)
        return _page_answer(tag, zipped if gzipped else plain, gzipped)
    tag = _tag(request, tournament, kind, series)
    unchanged = live.not_modified(request, LIVE, tag)
    if unchanged is not None:
        return unchanged
    context = _context(request, tournament, series, error, kind)
    if live.polled(request, LIVE):
        return live.mark(render(request, f"{template}#board", context), tag)
    return live.mark(render(request, template, context, status=400 if error else 200), tag)


def _board_key(token: str, kind: str, series: int | None, language: str) -> str:
    return f"standings:{token}:{kind}:{series or 0}:{language}"


def _poll_from_board(request: HttpRequest, token: str, kind: str, board_url: bool = False) -> HttpResponse | None:
    """A viewer's poll answered from the shared cache alone while the board kept there is fresh: 304 when the
    poll has its ETag (only the board's tag is read), else the board. No query at all — neither the session nor
    the tournament is read: a board is kept only under a token that opened a tournament, so a poll that finds
    one needs no throttle, and the token is at most `SCOREKEEP_STANDINGS_FRESH` seconds from being looked up
    again. None (the usual way) for anything else: no board kept, an old one, not a poll. `board_url`: asked at the
    board's own address (`viewer_board`), where every request is a poll, and the answer may be kept by a shared
    cache for as long as the board stays fresh."""
    if not (board_url or live.polled(request, LIVE)) or not token_shaped(token):
        return None
    raw = request.GET.get("series", "").strip()
    if raw not in ("", "overall") and not raw.isdigit():
        return None
    key = _board_key(token, kind, int(raw) if raw.isdigit() else None, request.LANGUAGE_CODE)
    mark = cache.get(f"{key}:tag")
    if mark is None or time.time() - mark[1] >= settings.SCOREKEEP_STANDINGS_FRESH:
        return None
    unchanged = _unchanged(request, mark[0]) if board_url else live.not_modified(request, LIVE, mark[0])
    if unchanged is not None:
        return _shared(unchanged, mark[1]) if board_url else unchanged
    kept = cache.get(key)
    if kept is None or kept[0] != mark[0]:
        return None
    answer = _board_answer(request, kept[0], kept[1], _gzipped(kept))
    return _shared(answer, kept[2]) if board_url else answer


def _page_key(request: HttpRequest, board_key: str) -> str | None:
    """Where the page around a viewers' board is kept (`_shell`), for the standings' own addresses only — none,
    ``?series=overall``, ``?series=N`` — since the query is in the page (the language form's `next`): anything
    else is rendered for itself. None then."""
    query = request.META.get("QUERY_STRING", "")
    value = query.removeprefix("series=")
    if query == "" or (query != value and (value == "overall" or (value.isdigit() and value == str(int(value))))):
        return f"{board_key}:page:{value if query else ''}"
    return None


def _shell(request: HttpRequest, template: str, context: dict[str, Any], own_version: int) -> tuple[Any, ...]:
    """The viewers' page as every anonymous viewer of it sees it, with a mark where the board goes (kept apart,
    computed once per window): the same for all of them — no CSRF token (`shared_page`: the page posts nothing
    but the language switch, which takes none) — rendered as `render` would (the context processors' values,
    the request) but for the CSRF token, which is not made (no cookie set). The mark is random per rendering,
    so that no name in the page can be mistaken for it. Kept in the cache with the tournament's own version it
    was rendered at."""
    board_mark = secrets.token_hex(16)
    shared: dict[str, Any] = {}
    for processor in engines["django"].engine.template_context_processors:  # type: ignore[attr-defined]
        if processor is not csrf:
            shared.update(processor(request))
    html = render_to_string(template, {**shared, **context, "board_html": board_mark, "shared_page": True})
    return own_version, html, board_mark


def _whole_page(shell: tuple[Any, ...], board: bytes) -> tuple[bytes, bytes]:
    """A kept page (`_shell`) with the board in it, as it is and gzipped: made once per board and window, then
    sent to every viewer opening the page as it is kept (`_open_from_board`) — some 300 KB of HTML at 600
    entrants, a tenth of it gzipped."""
    _version, html, board_mark = shell[:3]
    plain = html.replace(board_mark, board.decode()).encode()
    return plain, gzip.compress(plain, compresslevel=6, mtime=0)


def _page_answer(tag: str, body: bytes, zipped: bool) -> HttpResponse:
    """A viewers' page as kept (`_whole_page`): gzipped to a browser that takes it, as it is otherwise."""
    response = HttpResponse(body)
    if zipped:
        response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ["Accept-Encoding"])
    return live.mark(response, tag)


def _open_from_board(request: HttpRequest, token: str, kind: str) -> HttpResponse | None:
    """A viewer opening the standings page (not a poll) answered from the shared cache alone while the board kept there
    is fresh and the page kept with it (`_whole_page`) was rendered at the tournament's version the board was
    computed at: one query (is the address past the link throttle's limit? then it is refused as any new visit
    is), no rendering, no compressing — the kept page as it is, gzipped to a browser that takes it. A board is
    kept only under a token that opened a tournament, so nothing is counted (and the session is not written: a
    later poll that finds no fresh board is looked up as a known token, `_known`). Only for an anonymous viewer
    (the page's header is the account's otherwise). The page is never older than the board, and the board is
    never older than `SCOREKEEP_STANDINGS_FRESH` seconds (an organiser's change, a new series say, moves the
    tournament's version: the board computed after it no longer matches the kept page, which is rendered
    again). None for anything else: no board or page kept, an old board, a poll, another query."""
    if request.method != "GET" or request.htmx or not token_shaped(token):  # type: ignore[attr-defined]
        return None
    raw = request.GET.get("series", "").strip()
    key = _board_key(token, kind, int(raw) if raw.isdigit() else None, request.LANGUAGE_CODE)
    page_key = _page_key(request, key)
    if page_key is None or request.user.is_authenticated:
        return None
    zipped = shared.takes_gzip(request)
    page_asked = f"{page_key}:gz" if zipped else page_key
    found = cache.get_many([f"{key}:tag", page_asked])
    mark, page = found.get(f"{key}:tag"), found.get(page_asked)
    if (mark is None or page is None or len(mark) < 3 or time.time() - mark[1] >= settings.SCOREKEEP_STANDINGS_FRESH
            or page[0] != mark[0] or page[1] != mark[2]):
        return None
    if throttle.waiting("token", f"ip:{throttle.client_address(request)}", throttle.TOKEN_LIMIT):
        return None  # an address past its limit is refused a new visit, right token or wrong (`_by_token`)
    return _page_answer(page[0], page[2], zipped)


BOARD_KEPT = 3600  # seconds a board nobody asked for stays in the cache
CLAIM_SECONDS = 30  # a server computing a board holds its claim at most this long (one that died lets go)
WAIT_FOR_FIRST = 5.0  # seconds a viewer waits for a board another server is computing before computing it too


def _viewer_board(request: HttpRequest, tournament: Tournament, template: str, kind: str,
                  series: int | None) -> tuple[str, bytes, bytes | None, float]:
    """The viewers' standings board (its ETag, HTML, the HTML gzipped, and when it was computed or found
    unchanged) as computed for every viewer of the same page and language, kept in the cache with the
    tournament's version it was computed at.

    While the kept board is younger than `SCOREKEEP_STANDINGS_FRESH` seconds it is served as it is: no query
    on the tables. Older, one request on one server (the one that takes the board's claim, an atomic `add` in
    the shared cache) looks at the tournament's version: unchanged, the board is kept another window; changed,
    it is computed again. Meanwhile every other viewer, on every server, is served the kept board. At a
    championship the 150 tables change the standings several times a second: thousands of screens and phones
    share one computation per window instead of one a request, each at most that many seconds behind.
    The viewers' board holds no form (no CSRF token), so one rendering serves them all, and one compression
    (`_board_answer`). A cache that is down or empty only costs time: the board is then computed by the
    request itself."""
    key = _board_key(tournament.viewer_token, kind, series, request.LANGUAGE_CODE)
    claim = f"{key}:claim"
    kept = cache.get(key)
    if kept is not None and time.time() - kept[2] < settings.SCOREKEEP_STANDINGS_FRESH:
        return kept[0], kept[1], _gzipped(kept), kept[2]
    claimed = cache.add(claim, 1, timeout=CLAIM_SECONDS)
    if not claimed:
        if kept is not None:
            return kept[0], kept[1], _gzipped(kept), kept[2]  # being computed elsewhere: the last board meanwhile
        deadline = time.monotonic() + WAIT_FOR_FIRST
        while time.monotonic() < deadline:  # the first board of all: wait for the one being computed
            time.sleep(0.05)
            kept = cache.get(key)
            if kept is not None:
                return kept[0], kept[1], _gzipped(kept), kept[2]
    try:
        version = standings.version(tournament)
        if kept is not None and kept[3] == version:
            tag, board, gz = kept[0], kept[1], _gzipped(kept)
        else:
            context = _context(request, tournament, series, None, kind, etag=_TAG_HERE)
            board = render(request, f"{template}#board", context).content
            tag = _board_tag(request, tournament, kind, series, board)
            board = board.replace(_TAG_HERE.encode(), escape(tag).encode())
            gz = gzip.compress(board, compresslevel=6, mtime=0)
        now = time.time()  # the board, and its tag alone for the polls that need no more (`_poll_from_board`), with
        # the tournament's own version it was computed at (the kept page's must be the same: `_open_from_board`)
        cache.set_many({key: (tag, board, now, version, gz), f"{key}:tag": (tag, now, version[0])},
                       timeout=BOARD_KEPT)
    finally:
        if claimed:
            cache.delete(claim)
    return tag, board, gz, now


def _gzipped(kept: tuple[Any, ...]) -> bytes | None:
    """A kept board's gzipped HTML (None for one kept before boards were kept gzipped too)."""
    return kept[4] if len(kept) > 4 else None


def _board_answer(request: HttpRequest, tag: str, board: bytes, gz: bytes | None) -> HttpResponse:
    """A poll's board: gzipped, as compressed once when the board was computed, for a browser that takes it
    (every browser: a phone's board of 600 entrants is some 300 KB of HTML, a tenth of it gzipped — fetched by
    thousands of viewers after every change); as it is otherwise. Varies with Accept-Encoding either way."""
    if gz is not None and shared.takes_gzip(request):
        response = HttpResponse(gz)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(board)
    patch_vary_headers(response, ["Accept-Encoding"])
    return live.mark(response, tag)


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


BOARD_TEMPLATES = {"phone": "tournaments/standings.html", "screen": "tournaments/standings_screen.html"}


@require_http_methods(["GET", "HEAD"])
def viewer_board(request: HttpRequest, token: str, kind: str, language: str) -> HttpResponse:
    """The viewers' board alone, at the address their pages poll (issue 32: `_poll_url`). Everything the answer
    depends on is in the address — the token, the page (phones or the big screen), the language, the series in
    the query — and nothing of the asker is read or written (not the session, not the language cookie, no CSRF
    token): the same answer for everyone who asks it. So while the board is fresh a balancer's cache may keep it
    (`Cache-Control: public, s-maxage` for what is left of its window, scorekeep.web.shared) and answer the
    thousands of polls itself, 304 to a poll whose If-None-Match is the board's tag (README: haproxy's cache). Without
    such a cache it is the poll it always was: 304 or the board from the shared cache, no query while fresh. A
    token with no board kept is looked up as any new visit, counted by the link throttle."""
    template = BOARD_TEMPLATES.get(kind)
    if template is None or language not in dict(settings.LANGUAGES):
        raise Http404("No such standings board.")
    request.LANGUAGE_CODE = language  # the board's key and its polls' address (`_board_key`, `_poll_url`)
    with translation.override(language):
        response = _poll_from_board(request, token, kind, board_url=True) or _board_asked(request, token, kind,
                                                                                       template)
    response["Content-Language"] = language
    return response


def _board_asked(request: HttpRequest, token: str, kind: str, template: str) -> HttpResponse:
    """`viewer_board` when no fresh board is kept: the tournament looked up (throttled, the session left
    alone), the board computed or found unchanged."""
    try:
        tournament = _by_token(request, token, _known(request, token, kind), remember=False)
    except throttle.Throttled as refused:
        return HttpResponse(throttle.wait_message(refused.wait), status=429, content_type="text/plain; charset=utf-8")
    series, error = _series_asked(request, tournament)
    if error is not None:
        return HttpResponse(error, status=400, content_type="text/plain; charset=utf-8")
    tag, board, gz, at = _viewer_board(request, tournament, template, kind, series)
    return _shared(_unchanged(request, tag) or _board_answer(request, tag, board, gz), at)


def _unchanged(request: HttpRequest, tag: str) -> HttpResponse | None:
    """304 for a request whose If-None-Match is `tag` (the board's address: every request there is a poll)."""
    if request.headers.get("If-None-Match") != tag:
        return None
    response = HttpResponseNotModified()
    response["ETag"] = tag
    return response


def _shared(response: HttpResponse, at: float) -> HttpResponse:
    """A board's answer, to be kept by a shared cache for what is left of the board's window (computed or
    found unchanged at `at`), in whole seconds and one at least: a board is then never more than a second past
    its window, and the last board, served while another server computes the next, is kept that second too —
    so that a balancer's cache is not emptied while the servers are busiest (thousands of polls would all go
    to them at once)."""
    shared.allow(response, max(1, int(settings.SCOREKEEP_STANDINGS_FRESH - (time.time() - at))))
    return response


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
