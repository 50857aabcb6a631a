"""The live server's requests still being answered, so that a test ends only after its last one.

A browser's page keeps fetching after a test has seen what it waits for (the table page keeps the entry forms
for offline use, one after another). Closing the page does not stop a request the server is already answering,
and that request reads the session while the test's database is being emptied: "database table is locked:
django_session" at teardown, now and then. pytest-django's live server answers each connection in a thread of
Django's `ThreadedWSGIServer`; they are counted here, and a page's teardown waits for them.
"""

import threading
from typing import Any

from django.core.servers.basehttp import ThreadedWSGIServer

_answering = 0
_changed = threading.Condition()


def count_requests() -> None:
    """Count the live server's connection threads (once, at the start of the test run)."""
    answer = ThreadedWSGIServer.process_request_thread
    if getattr(answer, "counted", False):
        return

    def counted(self: ThreadedWSGIServer, request: Any, client_address: Any) -> None:
        global _answering
        with _changed:
            _answering += 1
        try:
            answer(self, request, client_address)
        finally:
            with _changed:
                _answering -= 1
                _changed.notify_all()

    counted.counted = True  # type: ignore[attr-defined]
    ThreadedWSGIServer.process_request_thread = counted  # type: ignore[method-assign]


def wait_until_answered(timeout: float = 20.0) -> None:
    """Wait until the live server answers no connection (a closed page's last fetches are done)."""
    with _changed:
        if not _changed.wait_for(lambda: _answering == 0, timeout=timeout):
            raise AssertionError(f"the live server still answers {_answering} connection(s) after {timeout:.0f} s")
