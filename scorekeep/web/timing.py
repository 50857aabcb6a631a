"""The CPU time a request cost the app server, said in the answer's ``Server-Timing`` header (``cpu;dur=1.23``,
milliseconds) — on only where SCOREKEEP_SERVER_TIMING is set, for the benchmarks (bench/spectators.py) that
report the cost per kind of request across several servers.

The request's own thread's CPU time (`time.thread_time`: gunicorn's gthread worker serves a request in one
thread), every middleware included: the Python work of the request, not the time it waited for the database,
Redis or a turn on the CPU — what a request costs however loaded the machine is.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


class ServerTiming:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        start = time.thread_time()
        response = self.get_response(request)
        response["Server-Timing"] = f"cpu;dur={(time.thread_time() - start) * 1000:.2f}"
        return response
