"""A printed page as PDF, rendered by headless Chromium on the server.

Chromium is the renderer because the PDF must be what Print gives in the browser: the same
engine lays out the same HTML and print CSS, so the list a club signs from the PDF is the list
on paper, with the system's fonts for umlauts and Japanese. It runs as a separate process, the
page written to a temporary directory (the style sheet inline, nothing else referenced) and opened
from there, so it needs no server and no network; its profile lives and dies in that directory. A
missing or failing Chromium raises `PdfUnavailable`, which the view answers with a page that says so.

The path comes from the setting or environment variable ``SCOREKEEP_CHROMIUM`` (default
``/usr/bin/chromium``).

Starting Chromium is most of the work of a PDF (about a second, a dozen processes), so each process
keeps one running (`Browser`) and prints every PDF in a new tab of it, spoken to over its DevTools
pipe: the standard library only, from whichever thread's turn it is. A browser that died is started
again for the next PDF; one that fails or takes longer than the timeout is ended with every process it
started, and the next PDF starts a new one; it is closed when the process exits, and it ends by itself
when the process dies without closing it (its pipe closes), its directory then removed by the next
Chromium started here.

A Chromium takes ~300 MiB, so a process renders one PDF at a time (`rendered`): a request waits its
turn while at most `WAITING` others wait, and beyond that it is answered 503 with Retry-After
(`PdfBusy`); a PDF is kept in the cache by a key that changes with anything it shows (the night's and
its tables' versions, the language), so the same printout asked again is not rendered again. With several app
servers sharing the cache (Redis, `scorekeep.cache`), the server that renders a PDF holds its claim there, and
a server asked for the same PDF meanwhile waits for that one instead of rendering it again: a printout asked on
both is rendered once. The turn (one render at a time) and the queue's length stay per process, as the Chromium
they protect is: a count shared by every server would refuse a PDF on a server whose Chromium is idle.
"""

from __future__ import annotations

import atexit
import base64
import json
import os
import select
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

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
    "--no-default-browser-check", "--mute-audio", "--hide-scrollbars",
    # Spoken to over descriptors 3 and 4; no window of its own (with one, the first tab opened over the
    # pipe lost its renderer: "Render process gone").
    "--remote-debugging-pipe", "--no-startup-window",
)


class PdfUnavailable(Exception):
    """Chromium is missing, failed or took too long; the message says which, for the page and the log."""


class PdfBusy(Exception):
    """Too many PDFs asked for at once in this process: try again in `RETRY_AFTER` seconds."""


_turn = threading.Lock()  # one render at a time in this process
_queue = threading.Semaphore(1 + WAITING)  # the render under way and those waiting for their turn
_browser: Browser | None = None  # this process's Chromium, started by the first PDF
_browser_lock = threading.Lock()  # one thread speaks to it at a time


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
        claim = f"{key}:making"
        deadline = time.monotonic() + timeout
        while not cache.add(claim, 1, timeout=timeout + 5):  # another server (or thread) is making it
            data = _made_elsewhere(key, claim, deadline)
            if data is not None:
                return bytes(data)
            if time.monotonic() >= deadline:
                raise PdfUnavailable(f"the same PDF, being made elsewhere, took longer than {timeout:.0f} s")
            # that claim ended without a PDF (its server failed or died): this request makes it
        try:
            with _turn:
                data = cache.get(key)  # made while this request waited its turn
                if data is None:
                    data = render(page(), timeout=timeout)
                    cache.set(key, data, KEEP_SECONDS)
        finally:
            cache.delete(claim)
        return bytes(data)
    finally:
        _queue.release()


def _made_elsewhere(key: str, claim: str, deadline: float) -> bytes | None:
    """The PDF under `key` once whoever holds `claim` has kept it; None when the claim ended without it or at
    the deadline."""
    while time.monotonic() < deadline:
        time.sleep(0.1)
        data = cache.get(key)
        if data is not None:
            return bytes(data)
        if not cache.has_key(claim):
            return cast(bytes | None, cache.get(key))
    return None


def chromium_path() -> str:
    return str(getattr(settings, "SCOREKEEP_CHROMIUM", None) or os.environ.get("SCOREKEEP_CHROMIUM")
               or DEFAULT_CHROMIUM)


def render(html: str, timeout: float = TIMEOUT_SECONDS) -> bytes:
    """The PDF of a complete HTML page (A4 and margins come from its own ``@page`` rule), printed by this
    process's Chromium (started when there is none, or it died, or another binary is asked for)."""
    chromium = chromium_path()
    if not (os.path.isfile(chromium) and os.access(chromium, os.X_OK)):
        raise PdfUnavailable(f"no Chromium at {chromium}")
    deadline = time.monotonic() + timeout
    with _browser_lock:
        if _browser is not None and not (_browser.chromium == chromium and _browser.alive()):
            _close_browser()
        kept = _browser is not None
        try:
            try:
                return _running(chromium).print_pdf(html, deadline)
            except _Gone:
                if not kept:
                    raise
                _close_browser()  # it died since the last PDF, unnoticed till now: once more, anew
                return _running(chromium).print_pdf(html, deadline)
        except _TimedOut:
            _close_browser()
            raise PdfUnavailable(f"Chromium took longer than {timeout:g} seconds") from None
        except PdfUnavailable:
            _close_browser()
            raise


@atexit.register
def close_browser() -> None:
    """End this process's Chromium (at exit; the next PDF would start another)."""
    with _browser_lock:
        _close_browser()


def _running(chromium: str) -> Browser:
    global _browser
    if _browser is None:
        _browser = Browser(chromium)
    return _browser


def _close_browser() -> None:
    global _browser
    if _browser is not None:
        _browser.close()
        _browser = None


def _forget_parents_browser() -> None:
    """In a forked child (a gunicorn worker from a master that printed): the parent's Chromium and lock
    stay the parent's; the child starts its own when it prints."""
    global _browser, _browser_lock
    if _browser is not None:
        _browser.forget()
    _browser, _browser_lock = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_parents_browser)


class _TimedOut(Exception):
    """No answer from Chromium before the render's deadline."""


class _Gone(PdfUnavailable):
    """Chromium closed its pipe: it exited."""


class Browser:
    """One headless Chromium, spoken to over its DevTools pipe (``--remote-debugging-pipe``: commands
    in on its descriptor 3, answers and events out on 4, each a JSON text ended by a NUL byte)."""

    def __init__(self, chromium: str) -> None:
        self.chromium = chromium
        self.status: int | None = None  # its exit status, once it has exited
        _remove_left_behind()
        self.folder = Path(tempfile.mkdtemp(prefix=f"scorekeep-pdf-{os.getpid()}-"))
        self._log = self.folder / "chromium.log"
        self._pages = 0
        self._next_id = 0
        self._buffer = bytearray()
        self._events: list[dict[str, Any]] = []
        commands_in, self._commands = os.pipe()
        self._answers, answers_out = os.pipe()
        try:
            # Its own session, so that ending it ends every process it started; SIGPIPE at its default.
            self.pid = os.posix_spawn(
                chromium, [chromium, *FLAGS, f"--user-data-dir={self.folder / 'profile'}"],
                {**os.environ, "HOME": str(self.folder)},
                file_actions=[(os.POSIX_SPAWN_DUP2, commands_in, 3), (os.POSIX_SPAWN_DUP2, answers_out, 4),
                              (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                              (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
                              (os.POSIX_SPAWN_OPEN, 2, str(self._log), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)],
                setsid=True, setsigdef=(signal.SIGPIPE, signal.SIGXFSZ))
        except OSError as err:
            self.status = -1
            self.close()
            raise PdfUnavailable(f"Chromium did not start: {err}") from None
        finally:
            os.close(commands_in)
            os.close(answers_out)

    def alive(self) -> bool:
        if self.status is not None:
            return False
        try:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:  # reaped by someone else
            pid, status = self.pid, -1
        if pid:
            self.status = os.waitstatus_to_exitcode(status) if status >= 0 else status
        return not pid

    def print_pdf(self, html: str, deadline: float) -> bytes:
        """Open the page in a new tab, wait until it has loaded, print it as Print would (backgrounds as
        the page's CSS asks, its own page size and margins, no header or footer), close the tab."""
        self._pages += 1
        self._events.clear()  # those of earlier tabs
        page = self.folder / f"page-{self._pages}.html"
        page.write_text(html, encoding="utf-8")
        try:
            target = self._call("Target.createTarget", {"url": "about:blank"}, deadline)["targetId"]
            session = self._call("Target.attachToTarget", {"targetId": target, "flatten": True}, deadline)["sessionId"]
            self._call("Page.enable", {}, deadline, session)
            opened = self._call("Page.navigate", {"url": page.as_uri()}, deadline, session)
            if opened.get("errorText"):
                raise PdfUnavailable(f"Chromium did not open the page: {opened['errorText']}")
            self._event("Page.loadEventFired", session, deadline)
            printed = self._call("Page.printToPDF", {"printBackground": True, "preferCSSPageSize": True,
                                                     "displayHeaderFooter": False}, deadline, session)
            self._call("Target.closeTarget", {"targetId": target}, deadline)
        finally:
            page.unlink(missing_ok=True)
        data = base64.b64decode(printed.get("data", ""))
        if not data.startswith(b"%PDF"):
            raise PdfUnavailable("Chromium printed no PDF")
        return data

    def _call(self, method: str, params: dict[str, Any], deadline: float, session: str | None = None) -> dict[str, Any]:
        """Send a command and wait for its answer (events arriving meanwhile are kept for `_event`)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        try:
            os.write(self._commands, json.dumps(message).encode() + b"\0")
        except OSError:  # its end of the pipe is closed: it exited
            raise self._gone() from None
        while True:
            answer = self._read(deadline)
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise PdfUnavailable(f"Chromium refused {method}: {answer['error'].get('message', '')}")
                return dict(answer.get("result", {}))
            self._events.append(answer)

    def _event(self, method: str, session: str, deadline: float) -> None:
        """Wait for the tab's event `method`; a tab that crashed or went away fails the render."""
        while True:
            event = self._events.pop(0) if self._events else self._read(deadline)
            if event.get("sessionId") == session or event.get("params", {}).get("sessionId") == session:
                if event.get("method") == method:
                    return
                if event.get("method") in ("Inspector.targetCrashed", "Inspector.detached",
                                           "Target.detachedFromTarget"):
                    raise PdfUnavailable(f"Chromium's page went away ({event['method']})")

    def _read(self, deadline: float) -> dict[str, Any]:
        while (end := self._buffer.find(b"\0")) < 0:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._answers], [], [], left)[0]:
                raise _TimedOut
            chunk = os.read(self._answers, 1 << 20)
            if not chunk:
                raise self._gone()
            self._buffer += chunk
        message = json.loads(self._buffer[:end])
        del self._buffer[:end + 1]
        return dict(message)

    def _gone(self) -> _Gone:
        """It closed its pipe: it exited (its status is there within a moment), or is about to."""
        for _wait in range(20):
            if not self.alive():
                break
            time.sleep(0.05)
        lines = self._log.read_text("utf-8", "replace").strip().splitlines() if self._log.exists() else []
        last = (lines[-1:] or [""])[0]
        return _Gone(f"Chromium exited with status {self.status} without a PDF {last}".strip())

    def close(self) -> None:
        """End it with every process it started, and remove its directory. The session is ended even when its
        first process is gone already (reaped elsewhere, or exited): what it started may still run."""
        _end(self.pid)
        if self.status is None:
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass
            self.status = -signal.SIGKILL
        self.forget()
        shutil.rmtree(self.folder, ignore_errors=True)

    def forget(self) -> None:
        """Let go of its pipe, leaving it running (a forked child's copy of its parent's browser)."""
        for fd in (self._commands, self._answers):
            try:
                os.close(fd)
            except OSError:
                pass


def _remove_left_behind() -> None:
    """Remove the directories of browsers whose process was killed before it could (named by its id)."""
    for folder in Path(tempfile.gettempdir()).glob("scorekeep-pdf-*-*"):
        owner = folder.name.split("-")[2]
        if not owner.isdigit():
            continue
        try:
            os.kill(int(owner), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            pass  # it is running (as another user)


def _end(session: int) -> None:
    """End what is left of the browser's process session (only the processes it started)."""
    try:
        os.killpg(session, signal.SIGKILL)
    except ProcessLookupError:
        pass
