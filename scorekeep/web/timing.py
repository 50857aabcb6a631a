"""What a request cost the app server, said in the answer's ``Server-Timing`` header — on only where
SCOREKEEP_SERVER_TIMING is set, for the benchmarks (bench/spectators.py) that report per kind of request across
several servers (milliseconds):

- ``cpu``: the request's own thread's CPU time (`time.thread_time`: gunicorn's gthread worker serves a request
  in one thread), every middleware included — what a request costs however loaded the machine is;
- ``app``: the wall-clock time from the first middleware to the last — its CPU and its waits there (for the
  database, Redis, the interpreter's lock, a core); what a phone waited beyond it was spent before the app (the
  balancer's queue, a server's backlog) or after;
- ``db``: of that time, the time spent in database queries (sent, waited for, read).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.db import connection
from django.http import HttpRequest, HttpResponse


class ServerTiming:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        start, wall = time.thread_time(), time.perf_counter()
        waited = [0.0]

        def timed(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
            began = time.perf_counter()
            try:
                return execute(sql, params, many, context)
            finally:
                waited[0] += time.perf_counter() - began

        with connection.execute_wrapper(timed):
            response = self.get_response(request)
        response["Server-Timing"] = (f"cpu;dur={(time.thread_time() - start) * 1000:.2f}, "
                                     f"app;dur={(time.perf_counter() - wall) * 1000:.2f}, "
                                     f"db;dur={waited[0] * 1000:.2f}")
        return response
