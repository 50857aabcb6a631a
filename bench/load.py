"""Load: a club hall — one card night, 30 tables entering deals at once — against gunicorn on loopback.

    .venv/bin/python bench/load.py [--tables 30] [--seconds 120] [--workers N] [--threads 1] [--viewers 10]
                                   [--think 0] [--database-url postgres://…]

Run by hand, never by the test suite; results go to docs/PERFORMANCE.md. The script makes a throw-away
database (a SQLite file; with --database-url a temporary PostgreSQL database on that server, dropped
afterwards), migrates it, starts gunicorn on 127.0.0.1 (workers: 2 × cores + 1 unless given), and runs:

- one scorer phone per table (a thread with its own session from the night's scorer link), saving valid
  Skat deals back to back as the page's script does (htmx POST, an idempotency key and the deal number
  the form is for), `--think` seconds between deals, for `--seconds` from joining its table; a request
  without an answer is sent again with its key, as the page does;
- `--viewers` phones with the viewer link polling a table's live ledger every 2 s (If-None-Match: the
  server answers 304 while the night is unchanged).

Then it reads the night back and counts: requests, errors (any answer that is neither a save nor a
refusal the phone expects, and requests without an answer), deals acknowledged vs stored, lost
(acknowledged but not stored), duplicated (one key stored twice), half-saved (a deal without its
revision or verdict, a gap in the numbers, a verdict recomputing differently), and the p50/p95/p99
latency of saves and polls. The exit status is 1, with the reason, when any error, lost, duplicated or
half-saved deal was seen, a phone's thread died, or nothing was measured (no deal stored, no poll answered);
``--tiny`` runs two tables for two seconds (bench/_check.py).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._check import Workers, fail, measured, parse  # noqa: E402

# The live-server harness of the tests: gunicorn on a throw-away database, and HTTP phones.
from tests.live_site import (  # noqa: E402
    ENTERED_MEANWHILE,
    Phone,
    Site,
    grand,
    new_key,
    table_path,
    temp_database,
)

HTMX_SAVE = {"HX-Request": "true", "HX-Target": "table-region"}
HTMX_POLL = {"HX-Request": "true", "HX-Target": "live-ledger"}
POLL_EVERY = 2.0  # seconds, as the table page polls
GIVE_UP = 60.0  # seconds a phone keeps resending one form before counting it lost


@dataclass
class Results:
    save_ms: list[float] = field(default_factory=list)
    poll_ms: list[float] = field(default_factory=list)
    polls: Counter[int] = field(default_factory=Counter)  # by status
    acked: dict[str, int] = field(default_factory=dict)  # idempotency key → table number
    replayed: int = 0
    stale: int = 0
    requests: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    abandoned: list[str] = field(default_factory=list)  # keys sent without ever getting an answer
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors[what] += 1


def scorer(site: Site, night: dict, number: int, seconds: float, think: float, results: Results) -> None:
    """A table's scorer: joins by the scorer link, then saves deals back to back for `seconds` (counted from
    the join, which on a busy machine may itself take seconds)."""
    rng = random.Random(number)
    phone = Phone(site.url, timeout=30)
    path = table_path(night["night"], number)
    page = phone.join(night["scorer"], path)
    until = time.monotonic() + seconds
    expected = int(page.hidden("expected") or 1)
    names = ["Anna", "Bernd", "Clara"]
    while time.monotonic() < until:
        points = rng.choice([n for n in range(121) if n not in (1, 119)])
        key = new_key()
        form = {**grand(rng.randrange(3), points), "by": names[expected % 3], "key": key, "expected": expected}
        give_up = time.monotonic() + GIVE_UP
        while True:
            with results.lock:
                results.requests += 1
            try:
                answer = phone.request("POST", path + "deals/new/", form, headers=HTMX_SAVE)
            except OSError as err:
                results.error(f"save: no answer ({type(err).__name__})")
                if time.monotonic() > give_up:
                    with results.lock:
                        results.abandoned.append(key)
                    return
                time.sleep(0.1)
                continue
            saved = answer.saved()
            if saved:
                with results.lock:
                    results.acked[key] = number
                    results.save_ms.append(answer.ms)
                    results.replayed += saved == "replayed"
                expected += 1
                break
            if answer.status == 200 and ENTERED_MEANWHILE in answer.body:  # only one phone per table: unexpected
                with results.lock:
                    results.stale += 1
                expected = int(answer.hidden("expected") or expected)
                break
            results.error(f"save: {answer.status} {_gist(answer.body)}")
            if time.monotonic() > give_up:
                return
            time.sleep(0.1)
        if think:
            time.sleep(think)


def viewer(site: Site, night: dict, number: int, seconds: float, results: Results) -> None:
    phone = Phone(site.url, timeout=30)
    path = table_path(night["night"], number)
    phone.join(night["viewer"], path)
    until = time.monotonic() + seconds
    etag = ""
    next_poll = time.monotonic()
    while time.monotonic() < until:
        time.sleep(max(0.0, next_poll - time.monotonic()))
        next_poll += POLL_EVERY
        with results.lock:
            results.requests += 1
        try:
            answer = phone.request("GET", path, headers={**HTMX_POLL, "If-None-Match": etag})
        except OSError as err:
            results.error(f"poll: no answer ({type(err).__name__})")
            continue
        if answer.status not in (200, 304):
            results.error(f"poll: {answer.status} {_gist(answer.body)}")
            continue
        etag = answer.headers.get("ETag", etag)
        with results.lock:
            results.polls[answer.status] += 1
            results.poll_ms.append(answer.ms)


def _gist(body: str) -> str:
    """A short, countable description of an unexpected answer."""
    for marker in ("database was busy", "Server Error", "Forbidden", "CSRF"):
        if marker in body:
            return marker
    return body.strip()[:80].replace("\n", " ")


def read_back(tables: list[dict], acked: dict[str, int]) -> tuple[int, list[str], int, list[str], int]:
    """What the tables read back hold against what the phones were told (`INSPECT`'s shape): the deals stored,
    the acknowledged keys not stored (lost), the keys stored twice (duplicated), the keys stored without an
    acknowledgement, and the half-saved deals (no 'created' revision first, no verdict, a gap in the numbers,
    a table whose recomputation differs)."""
    created = Counter(revision["key"] for table in tables for deal in table["deals"]
                      for revision in deal["revisions"] if revision["kind"] == "created")
    stored = sum(len(table["deals"]) for table in tables)
    lost = [key for key in acked if key not in created]
    duplicated = sum(count - 1 for count in created.values() if count > 1)
    unacknowledged = [key for key in created if key not in acked]
    half_saved = sum(1 for table in tables for number, deal in enumerate(table["deals"], start=1)
                     if deal["sequence"] != number or not deal["verdict_ok"]
                     or [r["kind"] for r in deal["revisions"]][:1] != ["created"])
    half_saved += sum(1 for table in tables if not table["recomputed_equal"])
    return stored, lost, duplicated, unacknowledged, half_saved


def check_read_back(errors: Counter[str], lost: list[str], duplicated: int, unacknowledged: list[str],
                    half_saved: int, abandoned: list[str]) -> None:
    """Fail, naming each, when the run saw an error or the read-back a lost, duplicated, unacknowledged or
    half-saved deal, or a phone gave a deal up."""
    wrong = {"errors": sum(errors.values()), "lost": len(lost), "duplicated": duplicated,
             "stored without acknowledgement": len(unacknowledged), "half-saved": half_saved,
             "abandoned": len(abandoned)}
    said = [f"{count} {what}" for what, count in wrong.items() if count]
    if said:
        kinds = f" ({', '.join(f'{what} × {n}' for what, n in errors.most_common(3))})" if errors else ""
        fail(", ".join(said) + kinds)


def percentiles(values: list[float]) -> str:
    if len(values) < 2:
        return "n/a"
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return f"{cuts[49]:.0f} / {cuts[94]:.0f} / {cuts[98]:.0f} ms (max {max(values):.0f})"


def machine(site: Site) -> str:
    import django

    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    database = f"SQLite {sqlite3.sqlite_version} (WAL, file in {tempfile.gettempdir()})"
    if site.database.vendor == "postgresql":
        version = site.django("from django.db import connection\nOUT = connection.cursor().connection.info"
                              ".server_version")
        database = f"PostgreSQL {version // 10000}.{version % 10000} on loopback"
    import gunicorn

    return (f"{platform.machine()}, {os.cpu_count()} cores, {memory:.0f} GiB, {platform.system()} "
            f"{platform.release()}; CPython {platform.python_version()}, Django {django.get_version()}, gunicorn "
            f"{gunicorn.__version__} ({site.workers} workers × {site.threads} threads, gthread); {database}; "
            f"the load generator on the same machine; load average {os.getloadavg()[0]:.1f} at the end")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    parser.add_argument("--threads", type=int, default=1, help="threads per gunicorn worker")
    parser.add_argument("--viewers", type=int, default=10, help="phones polling the live ledger")
    parser.add_argument("--think", type=float, default=0.0, help="seconds a scorer waits between deals")
    parser.add_argument("--database-url", default="", help="a PostgreSQL server to make the database on")
    args = parse(parser, tiny={"tables": 2, "seconds": 2.0, "workers": 1, "threads": 2, "viewers": 1})

    directory = Path(tempfile.mkdtemp(prefix="scorekeep-load-"))
    database = temp_database(directory, args.database_url)
    site = Site(database, directory, workers=args.workers, threads=args.threads)
    try:
        site.migrate()
        site.start()
        night = site.night(tables=args.tables)
        results = Results()
        workers = Workers()
        for n in range(1, args.tables + 1):
            workers.add(scorer, site, night, n, args.seconds, args.think, results)
        for n in range(args.viewers):
            workers.add(viewer, site, night, n % args.tables + 1, args.seconds, results)
        started = time.monotonic()
        workers.run()
        elapsed = time.monotonic() - started
        tables = site.inspect(night["night"])
        description = machine(site)
    finally:
        site.stop()
        database.drop()

    stored, lost, duplicated, unacknowledged, half_saved = read_back(tables, results.acked)
    errors = sum(results.errors.values())
    per_table = [len(table["deals"]) for table in tables]

    print(f"machine: {description}")
    print(f"load: {args.tables} tables (one scorer each, think {args.think} s), {args.viewers} viewers polling "
          f"every {POLL_EVERY:.0f} s, {elapsed:.0f} s")
    print(f"requests: {results.requests} ({results.requests / elapsed:.1f}/s)")
    print(f"errors: {errors} {dict(results.errors) if errors else ''}")
    print(f"deals acknowledged: {len(results.acked)} ({len(results.acked) / elapsed:.1f}/s; "
          f"{results.replayed} answered 'saved already'), stored: {stored} "
          f"(per table {min(per_table)}–{max(per_table)})")
    print(f"lost: {len(lost)}, duplicated: {duplicated}, stored without acknowledgement: {len(unacknowledged)}, "
          f"half-saved: {half_saved}, refused as stale: {results.stale}, abandoned: {len(results.abandoned)}")
    print(f"save latency p50 / p95 / p99: {percentiles(results.save_ms)}")
    print(f"poll latency p50 / p95 / p99: {percentiles(results.poll_ms)}; answers: "
          f"{results.polls[304]} × 304, {results.polls[200]} × 200")
    workers.check()
    measured(tables=len(tables), deals_acknowledged=len(results.acked), deals_stored=stored,
             **({"polls_answered": sum(results.polls.values())} if args.viewers else {}))
    check_read_back(results.errors, lost, duplicated, unacknowledged, half_saved, results.abandoned)
    return 0


if __name__ == "__main__":
    sys.exit(main())
