"""Thousands of viewers on one event loop, in a process of their own (bench/spectators.py).

A thread per viewer with a blocking client, as the other benches run their phones, does not scale to the
5,000 phones and screens of issue 32 on the two cores the servers run on: 5,000 threads, each request a new
connection, all of them taking turns at one interpreter lock with the table keepers. Here every viewer is a
coroutine on one asyncio loop, each with its own keep-alive HTTP/1.1 connection (a phone keeps its connection
between polls, as a browser does) and its own cookies, speaking a small HTTP/1.1 client on asyncio streams
(the standard library has no asynchronous HTTP client, and the bench adds no dependency). The loop runs in a
process started with `spawn` (not forked from a process with threads), so its interpreter lock is not the
keepers'.

A viewer polls as its browser does: the board's own address, read from the page it opened (the polled
section's hx-get: `standings_views.viewer_board`), with its last ETag as If-None-Match.

What it measures is what bench/spectators.py's threads measured: per kind of request (the standings page
opened, a poll answered 200, a poll answered 304, and each of those answered by the balancer's cache — haproxy's
X-Cache-Hit, tests/live_site.py — which no server saw) the latency — from sending, including a new connection when
one is needed, to the last byte of the answer — and the server's CPU time from `Server-Timing`; the polls whose
200 carried the ETag they sent (`missed`: the board unchanged, fetched again); every error by kind (a status
other than 200/304, no answer within the timeout, a connection refused or reset); a viewer coroutine that died
(counted and reported as bench/_check.py's `Workers` does for threads).

A keep-alive connection the balancer closed while idle is opened again and the poll sent once more when the
closing is seen before any byte of the answer (as a browser resends an idempotent GET on a connection that
went stale); every other failure is an error. `reconnects` counts those, `connections` every connection opened.
"""

from __future__ import annotations

import asyncio
import gzip
import multiprocessing
import random
import re
import resource
import time
import traceback
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from multiprocessing.connection import Connection as Pipe
from typing import Any

CPU = re.compile(rb"cpu;dur=([0-9.]+)")
HTMX_POLL = {"HX-Request": "true", "HX-Target": "live-standings"}  # as the standings pages poll
BROWSER = {"Accept-Encoding": "gzip, deflate, br"}  # as every browser sends (bodies are not decompressed here)
POLLED = re.compile(rb'id="live-standings"[^>]*hx-get="([^"]+)"', re.S)  # the page's polled section
NO_BODY = (204, 304)


def address(prefix: str, n: int) -> str:
    """The `n`-th loopback address under `prefix` ("127.2": 127.2.0.1, 127.2.0.2 …): Linux answers all of
    127.0.0.0/8 on the loopback, so each simulated phone can connect from an address of its own."""
    return f"{prefix}.{n // 250}.{n % 250 + 1}"


@dataclass
class Got:
    """An answer: its status, headers (names in lower case; Set-Cookie's every value), body and latency."""

    status: int
    headers: dict[bytes, bytes]
    cookies: list[bytes]
    body: bytes
    ms: float


class Connection:
    """One viewer's HTTP/1.1 connection to the balancer, kept alive between requests."""

    def __init__(self, host: str, port: int, source: str, tally: Tally) -> None:
        self.host, self.port, self.source, self.tally = host, port, source, tally
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(self, path: str, headers: dict[str, str]) -> Got:
        """GET `path`. Raises OSError (refused, reset, closed mid-answer) when no whole answer came."""
        lines = [f"GET {path} HTTP/1.1", f"Host: {self.host}:{self.port}", *(f"{k}: {v}" for k, v in headers.items())]
        message = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        start = time.perf_counter()
        for attempt in (1, 2):
            reused = self.writer is not None
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port, limit=2**20,
                                                                       local_addr=(self.source, 0))
                self.tally.connections += 1
            assert self.reader is not None and self.writer is not None
            try:
                self.writer.write(message)
                await self.writer.drain()
                head = await self.reader.readuntil(b"\r\n\r\n")
            except (ConnectionError, asyncio.IncompleteReadError) as err:
                self.close()
                started = isinstance(err, asyncio.IncompleteReadError) and err.partial
                if reused and attempt == 1 and not started:  # the idle connection was closed: once more, anew
                    self.tally.reconnects += 1
                    continue
                raise ConnectionError(f"no answer: {type(err).__name__}") from err
            return await self._answer(head, start)
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises

    async def _answer(self, head: bytes, start: float) -> Got:
        assert self.reader is not None
        status_line, *header_lines = head[:-4].split(b"\r\n")
        status = int(status_line.split(b" ", 2)[1])
        headers: dict[bytes, bytes] = {}
        cookies: list[bytes] = []
        for line in header_lines:
            name, _, value = line.partition(b":")
            name, value = name.strip().lower(), value.strip()
            headers[name] = value
            if name == b"set-cookie":
                cookies.append(value)
        try:
            if status in NO_BODY or 100 <= status < 200:
                body = b""
            elif headers.get(b"transfer-encoding", b"").lower() == b"chunked":
                body = await self._chunked()
            elif b"content-length" in headers:
                body = await self.reader.readexactly(int(headers[b"content-length"]))
            else:
                body = await self.reader.read()
                self.close()
        except asyncio.IncompleteReadError as err:
            self.close()
            raise ConnectionError("the answer was cut off") from err
        if headers.get(b"connection", b"").lower() == b"close":
            self.close()
        return Got(status, headers, cookies, body, (time.perf_counter() - start) * 1000)

    async def _chunked(self) -> bytes:
        assert self.reader is not None
        parts: list[bytes] = []
        while True:
            size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0].strip(), 16)
            if size == 0:
                while (await self.reader.readuntil(b"\r\n")) != b"\r\n":  # trailers
                    pass
                return b"".join(parts)
            parts.append((await self.reader.readexactly(size + 2))[:-2])  # the chunk and its CRLF


@dataclass
class Tally:
    """What the viewers measured (sent back to the parent as a plain dict)."""

    ms: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    cpu: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    missed: int = 0
    requests: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    connections: int = 0
    reconnects: int = 0
    died: Counter[str] = field(default_factory=Counter)
    first_death: str = ""

    def plain(self) -> dict[str, Any]:
        return {"ms": dict(self.ms), "cpu": dict(self.cpu), "missed": self.missed, "requests": self.requests,
                "errors": dict(self.errors), "connections": self.connections, "reconnects": self.reconnects,
                "died": dict(self.died), "first_death": self.first_death}


async def viewer(host: str, port: int, source: str, path: str, opens_at: float, until: float, poll: float,
                 timeout: float, tally: Tally) -> None:
    """A phone or screen on the standings, connecting from the loopback address `source` (its own, as phones
    have: the site's throttles count per address): opens the page at `opens_at` (monotonic), then polls its
    board every `poll` seconds with If-None-Match (its last ETag) until `until`, at the address the page polls."""
    connection = Connection(host, port, source, tally)
    cookies: dict[str, str] = {}
    etag = ""
    board = path
    next_poll = opens_at
    try:
        while True:
            await asyncio.sleep(max(0.0, next_poll - time.monotonic()))
            if time.monotonic() >= until:
                return
            next_poll += poll
            tally.requests += 1
            headers = {**BROWSER, **HTMX_POLL, "If-None-Match": etag} if etag else dict(BROWSER)
            asked = board if etag else path
            if cookies:
                headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
            try:
                answer = await asyncio.wait_for(connection.request(asked, headers), timeout)
            except (OSError, TimeoutError) as err:
                connection.close()
                tally.errors[f"standings: no answer ({type(err).__name__})"] += 1
                continue
            for header in answer.cookies:
                for name, morsel in SimpleCookie(header.decode("latin-1")).items():
                    cookies[name] = morsel.value
            if answer.status not in (200, 304):
                tally.errors[f"standings: {answer.status} {answer.body.strip()[:80]!r}"] += 1
                continue
            if not etag:  # the page opened: where its board is polled (gzipped, as the page now comes to a browser)
                page = answer.body
                if answer.headers.get(b"content-encoding") == b"gzip":
                    page = gzip.decompress(page)
                polled = POLLED.search(page)
                if polled is None:
                    raise RuntimeError(f"the standings page {path} names no polled board: {answer.body[:300]!r}")
                board = polled.group(1).decode().replace("&amp;", "&")
            cached = answer.headers.get(b"x-cache-hit") == b"1"
            kind = "standings page" if not etag else f"poll {answer.status}{' cached' if cached else ''}"
            tag = answer.headers.get(b"etag", b"").decode("latin-1")
            tally.ms[kind].append(answer.ms)
            found = CPU.search(answer.headers.get(b"server-timing", b""))
            if found:
                tally.cpu[kind].append(float(found.group(1)))
            tally.missed += kind.startswith("poll 200") and tag == etag
            etag = tag or etag
    finally:
        connection.close()


async def _all(host: str, port: int, paths: list[str], viewers: int, start: float, arrive: float, until: float,
               poll: float, timeout: float, seed: int) -> Tally:
    tally = Tally()
    rng = random.Random(seed)
    jobs = [viewer(host, port, address("127.2", n), paths[n % len(paths)], start + rng.uniform(0, arrive), until,
                   poll, timeout, tally)
            for n in range(viewers)]
    for outcome in await asyncio.gather(*jobs, return_exceptions=True):
        if isinstance(outcome, BaseException):  # a viewer that died: counted, the others went on
            tally.died[f"{type(outcome).__name__}: {outcome}"[:200]] += 1
            tally.first_death = tally.first_death or "".join(traceback.format_exception(outcome))
    return tally


def _run(pipe: Pipe, host: str, port: int, paths: list[str], viewers: int, poll: float, arrive: float,
         timeout: float, seed: int) -> None:
    """The crowd's process: says it is ready, waits for the start (the monotonic moment the arrivals begin and
    the one the polls end), runs every viewer, and sends the tally back."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, viewers + 1024)), hard))
    pipe.send("ready")
    start, until = pipe.recv()
    tally = asyncio.run(_all(host, port, paths, viewers, start, arrive, until, poll, timeout, seed))
    usage = resource.getrusage(resource.RUSAGE_SELF)  # the load generator's own share of the machine
    pipe.send({**tally.plain(), "cpu_seconds": usage.ru_utime + usage.ru_stime})
    pipe.close()


class Crowd:
    """`viewers` viewers of `paths` (in turn) at http://`host`:`port`, opening the page each at a random moment
    within `arrive` seconds of the start and polling every `poll` seconds until the end; in a process of their
    own (`start` makes it and waits until it is ready, `run` lets it go and returns its tally)."""

    def __init__(self, host: str, port: int, paths: list[str], viewers: int, poll: float, arrive: float,
                 timeout: float = 60.0, seed: int = 0) -> None:
        self.viewers = viewers
        self._parent, child = multiprocessing.get_context("spawn").Pipe()
        self._process = multiprocessing.get_context("spawn").Process(
            target=_run, args=(child, host, port, paths, viewers, poll, arrive, timeout, seed), daemon=True)
        self.result: dict[str, Any] = {}

    def start(self) -> None:
        self._process.start()
        if not self._parent.poll(60) or self._parent.recv() != "ready":
            raise RuntimeError(f"the viewers' process did not start (exit code {self._process.exitcode})")

    def run(self, until: float) -> None:
        """Let the viewers go now, polling until `until` (monotonic); wait for their tally (`result`). Raises
        (a death for bench/_check.py's `Workers`) when the process died or a viewer did."""
        self._parent.send((time.monotonic(), until))
        while not self._parent.poll(1.0):
            if not self._process.is_alive():
                raise RuntimeError(f"the viewers' process died (exit code {self._process.exitcode})")
        self.result = self._parent.recv()
        self._process.join(30)
        died = self.result["died"]
        if died:
            kinds = "; ".join(f"{what} (× {count})" for what, count in died.items())
            raise RuntimeError(f"{sum(died.values())} of {self.viewers} viewers died: {kinds}\n"
                               + self.result["first_death"])

    def stop(self) -> None:
        if self._process.is_alive():
            self._process.kill()
            self._process.join(10)
