"""Answers a shared cache may keep (issue 32): the viewers' standings board at its own address
(`standings_views.viewer_board`) is the same for everyone who asks that address, so a balancer's cache
(README: haproxy's) can answer the thousands of polls of a championship's phones and screens itself while the
board is fresh, 304 to the polls that have it.

A view says so with `allow(response, seconds)`; this middleware, outside the session's and the language's, makes
it so: ``Cache-Control: public, s-maxage=N`` (a shared cache only: no max-age, so a browser still asks each time),
and Vary only on Accept-Encoding (the board goes gzipped to a browser that takes it). The language's middleware
adds Vary: Accept-Language to every answer, though the language is in this address; the session's would add
Vary: Cookie had the session been read. An answer whose view read the session, set a cookie or is not a 200 or
304 is never marked shared: it stays private, whatever the view asked.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

_SHARED = "_scorekeep_shared_for"
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")  # as Django's GZipMiddleware reads Accept-Encoding


def takes_gzip(request: HttpRequest) -> bool:
    """Whether the asker takes a gzipped answer (its Accept-Encoding names gzip); the answer then varies on it."""
    return bool(_ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")))


def allow(response: HttpResponse, seconds: int) -> None:
    """Let a shared cache keep `response` for `seconds`."""
    setattr(response, _SHARED, seconds)


class SharedAnswers:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        seconds = getattr(response, _SHARED, None)
        session = getattr(request, "session", None)
        if (seconds is None or response.cookies or response.status_code not in (200, 304)
                or (session is not None and session.accessed)):
            return response
        response["Cache-Control"] = f"public, s-maxage={seconds}"
        del response["Vary"]
        patch_vary_headers(response, ["Accept-Encoding"])
        return response
