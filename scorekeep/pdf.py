"""A printed page as PDF, rendered by headless Chromium on the server.

Chromium is the renderer because the PDF must be what Print gives in the browser: the same
engine lays out the same HTML and print CSS, so the list a club signs from the PDF is the list
on paper, with the system's fonts for umlauts and Japanese. It runs as a separate process on
the page written to a temporary directory (the style sheet inline, nothing else referenced), so
it needs no server and no network, and its profile lives and dies in that directory. A missing
or failing Chromium raises `PdfUnavailable`, which the view answers with a page that says so.

The path comes from the setting or environment variable ``SCOREKEEP_CHROMIUM`` (default
``/usr/bin/chromium``).

A Chromium takes ~300 MiB and a second or more, so a process renders one PDF at a time (`rendered`):
a request waits its turn while at most `WAITING` others wait, and beyond that it is answered 503 with
Retry-After (`PdfBusy`); a PDF is kept in the cache by a key that changes with anything it shows (the
night's and its tables' versions, the language), so the same printout asked again is not rendered again.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.core.cache import cache

DEFAULT_CHROMIUM = "/usr/bin/chromium"
TIMEOUT_SECONDS = 60
WAITING = 2  # requests that may wait for the one render under way in a process; more are answered 503
RETRY_AFTER = 10  # seconds a refused request is told to wait
KEEP_SECONDS = 3600  # how long a rendered PDF is kept for the same printout asked again

# Headless, no sandbox (it runs as the web server's user, often in a container without user
# namespaces), and none of the background traffic a browser starts on its own.
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-extensions",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
    "--no-default-browser-check", "--mute-audio", "--hide-scrollbars", "--no-pdf-header-footer",
)


class PdfUnavailable(Exception):
    """Chromium is missing, failed or took too long; the message says which, for the page and the log."""


class PdfBusy(Exception):
    """Too many PDFs asked for at once in this process: try again in `RETRY_AFTER` seconds."""


_turn = threading.Lock()  # one render at a time in this process
_queue = threading.Semaphore(1 + WAITING)  # the render under way and those waiting for their turn


def rendered(key: str, page: Callable[[], str], timeout: float = TIMEOUT_SECONDS) -> bytes:
    """The PDF of the page `page()` writes, kept under `key`: from the cache when it is there; otherwise
    rendered once its turn comes. Raises `PdfBusy` when too many wait, `PdfUnavailable` as `render`."""
    key = f"pdf:{key}"
    data = cache.get(key)
    if data is not None:
        return bytes(data)
    if not _queue.acquire(blocking=False):
        raise PdfBusy(f"{1 + WAITING} PDFs are being made or waited for")
    try:
        with _turn:
            data = cache.get(key)  # made while this request waited its turn
            if data is None:
                data = render(page(), timeout=timeout)
                cache.set(key, data, KEEP_SECONDS)
        return bytes(data)
    finally:
        _queue.release()


def chromium_path() -> str:
    return str(getattr(settings, "SCOREKEEP_CHROMIUM", None) or os.environ.get("SCOREKEEP_CHROMIUM")
               or DEFAULT_CHROMIUM)


def render(html: str, timeout: float = TIMEOUT_SECONDS) -> bytes:
    """The PDF of a complete HTML page (A4 and margins come from its own ``@page`` rule)."""
    chromium = chromium_path()
    if not (os.path.isfile(chromium) and os.access(chromium, os.X_OK)):
        raise PdfUnavailable(f"no Chromium at {chromium}")
    with tempfile.TemporaryDirectory(prefix="scorekeep-pdf-") as work:
        folder = Path(work)
        page, out = folder / "page.html", folder / "page.pdf"
        page.write_text(html, encoding="utf-8")
        command = [chromium, *FLAGS, f"--user-data-dir={folder / 'profile'}", f"--print-to-pdf={out}",
                   page.as_uri()]
        # A session of its own, so a render that hangs is ended with every process it started.
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=folder,
                                   start_new_session=True, env={**os.environ, "HOME": work})
        try:
            _stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _end(process.pid)
            process.communicate()
            raise PdfUnavailable(f"Chromium took longer than {timeout:g} seconds") from None
        _end(process.pid)  # helpers the browser left behind would hold the temporary directory
        data = out.read_bytes() if out.is_file() else b""
        if process.returncode != 0 or not data.startswith(b"%PDF"):
            last = stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
            raise PdfUnavailable(f"Chromium exited with status {process.returncode} without a PDF {last[0]}".strip())
        return data


def _end(session: int) -> None:
    """End what is left of the render's process session (only the processes this render started)."""
    try:
        os.killpg(session, signal.SIGKILL)
    except ProcessLookupError:
        pass
