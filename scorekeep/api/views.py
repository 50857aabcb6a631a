"""The adjudication contract over HTTP: ``POST /api/adjudicate`` (shared/spec/ADJUDICATION.md), and the
games' own description of their inputs: ``GET /api/games`` (docs/API.md).

One JSON object in; the verdict out with 200, or the rejection with 400, its explanation lines and
rejection messages in the language asked for (Accept-Language, or the language cookie), English when none
is. Stateless: no login, no session, no CSRF token, no cookies set. Whatever arrives — a wrong method, a
wrong content type, an empty, oversized or non-UTF-8 body, text that is not JSON — the answer is a JSON
rejection that names the field and says what is allowed, never a server error.

`loads`, `dumps`, `rejection` and `adjudicate_safely` (`scorekeep.api.contract_io`) are shared with ``manage.py
adjudicate``, so the command line and the API read JSON and refuse it in the same words.
"""

import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.utils.translation import get_language, gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from scorekeep import rules
from scorekeep.api.contract_io import Refused, adjudicate_safely, adjudicating_in, dumps, loads, rejection
from scorekeep.words.labels import page_words

__all__ = ["MAX_BODY", "Refused", "adjudicate", "adjudicate_safely", "dumps", "games", "loads", "rejection"]

MAX_BODY = 64 * 1024
"""Bytes accepted in one request body; one deal is a few hundred bytes."""

EXAMPLE = '{"game": "skat", "deal": {"contract": "grand", "declarer": 0, "bid": 48, ...}}'


def _answer(answer: dict[str, Any], status: int | None = None) -> JsonResponse:
    if status is None:
        status = 200 if answer.get("ok") is True else 400
    return JsonResponse(answer, status=status, json_dumps_params={"ensure_ascii": False})


def _problem(request: HttpRequest) -> str | None:
    """What is wrong with the request's headers, or None."""
    if request.content_type != "application/json":
        got = request.content_type or "none"
        return f"must be sent with Content-Type: application/json, not {got}"
    charset = (request.content_params or {}).get("charset", "utf-8").lower()  # None: a request not made by WSGI
    if charset not in {"utf-8", "utf8"}:
        return f"must be UTF-8 JSON (Content-Type: application/json; charset=utf-8), not charset={charset}"
    return None


@csrf_exempt
def adjudicate(request: HttpRequest) -> JsonResponse:
    """Adjudicate the one JSON object in the body: 200 with the verdict, 400 with the rejection."""
    if request.method != "POST":
        message = f"must be sent with POST (one JSON object as the body), not {request.method}"
        response = _answer(rejection(message), status=405)
        response["Allow"] = "POST"
        return response
    body = request.read(MAX_BODY + 1)  # not request.body: that would read any size into memory
    if len(body) > MAX_BODY:
        return _answer(rejection(f"is over {MAX_BODY} bytes (64 KiB), the most accepted; one deal needs far less"))
    if not body.strip():
        return _answer(rejection(f"has an empty body: send one JSON object such as {EXAMPLE}"))
    problem = _problem(request)
    if problem:
        return _answer(rejection(problem))
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as err:
        return _answer(rejection(f"is not UTF-8 text (byte {err.start + 1} of the body): "
                                 "send JSON encoded as UTF-8"))
    try:
        obj = loads(text)
    except json.JSONDecodeError as err:
        return _answer(rejection(f"is not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}; "
                                 f"send one JSON object such as {EXAMPLE}"))
    except ValueError as err:
        return _answer(rejection(f"is not valid JSON for a request: {err}"))
    return _answer(_in_language()(obj))


def _in_language() -> Callable[[object], dict[str, Any]]:
    """The engine in the language the request asks for (LocaleMiddleware read Accept-Language and the language
    cookie): its explanation lines and rejection messages translated, the keys, fields and codes the
    contract's; in English, the contract's own text."""
    language = get_language()
    if language is None or language == settings.LANGUAGE_CODE:
        return adjudicate_safely
    return adjudicating_in(page_words)


@require_safe
def games(request: HttpRequest) -> JsonResponse:
    """Every game (or ``?game=``) as the engine describes it: seats, presets, house rules, and each
    contract's deal fields with their kind, range, need and words, in the language the request asks
    for (Accept-Language, or the language cookie). ``?rules=`` (a JSON ``rules`` object) and
    ``?players=`` describe one rule set at one table size; a value the game refuses is answered with
    400 and the contract's rejection naming it."""
    query = request.GET
    names = list(rules.GAMES)
    if "game" in query:
        if query["game"] not in rules.GAMES:
            allowed = ", ".join(f'"{g}"' for g in rules.GAMES)
            return _answer(rejection(f"must be one of {allowed}, not {query['game'][:40]!r}", "game"))
        names = [query["game"]]
    rule_set: object = None
    if "rules" in query:
        try:
            rule_set = loads(query["rules"])
        except ValueError as err:
            return _answer(rejection(f"is not valid JSON: {err}", "rules"))
    players: int | None = None
    if "players" in query:
        if not query["players"].isdecimal() or len(query["players"]) > 2:
            return _answer(rejection("must be a whole number of seats, such as 4", "players"))
        players = int(query["players"])
    try:
        described = [rules.describe_game(game, rule_set, players, translate=gettext) for game in names]
    except rules.IllegalDeal as err:
        return _answer({"ok": False, "errors": [err.to_json()]})
    response = _answer({"ok": True, "language": get_language(), "games": described}, status=200)
    response["Cache-Control"] = "public, max-age=3600"
    return response
