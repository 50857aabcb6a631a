"""The Django process a live site (tests/live_site.py's `Site`) keeps for its `Site.django` snippets: Django is
set up once (about 1.5 s of CPU a process) instead of once a snippet.

Reads one JSON object a line on stdin — ``{"code": …, "args": …}`` — runs the code with ``ARGS`` = args in a
namespace of its own, and answers one JSON line on stdout: ``{"out": OUT}``, or ``{"error": traceback}``. Each
snippet sees what a fresh process would: no database connection kept from the one before (so it reads what the
server wrote since, and never holds a connection that keeps the database from being dropped), an empty
local-memory cache, no language or time zone left active. Exits when stdin closes (its Site stopped, or the
test process gone).
"""

from __future__ import annotations

import json
import os
import sys
import traceback


def main() -> None:
    # The answers get stdout to themselves: whatever a snippet (or a library) prints goes to stderr, the log.
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())

    import django

    django.setup()
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache
    from django.db import connections
    from django.utils import timezone, translation

    for line in sys.stdin:
        request = json.loads(line)
        namespace = {"__name__": "__main__", "ARGS": request["args"]}
        try:
            # A fresh process starts with empty local caches; Redis and the database cache are shared with the
            # server anyway, as they were.
            for cache in caches.all():
                if isinstance(cache, LocMemCache):
                    cache.clear()
            exec(compile(request["code"], "<Site.django snippet>", "exec"), namespace)  # noqa: S102 - the tests' own code
            if "OUT" not in namespace:
                raise NameError("the snippet assigned no OUT")
            answer = json.dumps({"out": namespace["OUT"]})
        except Exception:
            answer = json.dumps({"error": traceback.format_exc()})
        finally:
            connections.close_all()
            translation.deactivate()
            timezone.deactivate()
        answers.write(answer + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
