"""Load: a championship's spectators — 150 tables saving a deal every 60 s and 5,000 phones and screens polling
the standings every 10 s — through haproxy onto two app servers on one PostgreSQL and one Redis (issue 32).

    .venv/bin/python bench/spectators.py [--players 600] [--every 60] [--viewers 5000] [--poll 10]
                                         [--arrive 30] [--quiet 30] [--seconds 120] [--servers 2]
                                         [--workers 4] [--threads 2] [--at-once 4] [--fresh 5] [--timeout 60]
                                         [--database-url postgres://…] [--no-balancer-cache]

Run by hand, never by the test suite; results go to docs/PERFORMANCE.md. The script makes a throw-away database
(a temporary PostgreSQL database on the server of --database-url or DATABASE_URL; a SQLite file when neither is
PostgreSQL, which is not how several servers are run), a Redis of its own on a free port, `--servers` gunicorn
servers (DEBUG off, as in production, each `--workers` × `--threads`) sharing both, and haproxy in front sending
the requests round them, `--at-once` at a time to each server (its `maxconn`; by default one a worker, as in
README's recipe), the saves first in its queue (plain HTTP on loopback: the app's cost is measured, not the
handshakes; room for one connection per viewer), with README's cache of the viewers' boards (haproxy's: a
board kept while it is fresh answers the polls without a server) unless `--no-balancer-cache`. It sets the
tournament up as bench/tournament.py does (`--players` entrants drawn into tables of four), then for `--seconds`:

- one list keeper per table (bench/tournament.py's `keeper`, a thread: its own session from the table's scorer
  link, a valid deal about every `--every` seconds, the first after a random part of it; resent with its key
  when unanswered);
- `--viewers` phones and screens on the standings by the viewer link, half on the phones' page and half on the
  big screen's (bench/crowd.py: coroutines on one event loop in a process of their own, each with its own
  keep-alive connection and cookies), each opening the page at a random moment within the first `--arrive`
  seconds — by default 30: the hall's phones and screens switched on over half a minute as a series starts,
  not all in one second — and then polling every `--poll` seconds with If-None-Match (its last ETag), going on
  `--quiet` seconds after the tables stop. A viewer waits `--timeout` seconds for an answer (then an error).

Every keeper's and viewer's phone connects from a loopback address of its own (127.1.x.y, 127.2.x.y), as phones
have addresses of their own: from one address, the link throttle (which counts an attempt before checking the
token and takes a right one back after) refused keepers joining at once on a loaded machine.

Each answer says its server's CPU time (`SCOREKEEP_SERVER_TIMING`: the request thread's, scorekeep.web.timing).
Per kind of request — a save, the standings page opened, a poll answered 200, a poll answered 304, and each
kind of poll answered by the balancer's cache (no server's CPU) — it prints
how many, the server CPU per request (mean and p95), the latency p50 / p95 / p99, and for the polls the 304
share (of every poll; and of the polls whose board had not changed, where a 200 carrying the ETag sent would be
a miss). Then the servers' CPU in all (their processes, from /proc), the errors, the viewers' connections (how
many were opened: one each, unless the balancer closed an idle one), and every table read back: each
acknowledged deal stored once, nothing stored that no phone was told of, nothing half-saved. Exits 1,
saying why, on an error, a lost, duplicated or half-saved deal, a thread, a viewer or the viewers' process
that died, or nothing measured.
``--tiny``: eight players at two tables, four viewers, two seconds (bench/_check.py).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._check import Workers, measured, need, parse  # noqa: E402
from bench.crowd import Crowd, address  # noqa: E402
from bench.load import check_read_back, machine, percentiles, read_back  # noqa: E402
from bench.tournament import INSPECT, SETUP, Results, keeper  # noqa: E402
from tests.live_site import Answer, Balancer, Site, temp_database  # noqa: E402
from tests.redis_server import RedisServer  # noqa: E402

CPU = re.compile(r"cpu;dur=([0-9.]+)")
APP = re.compile(r"app;dur=([0-9.]+)")
DB = re.compile(r"db;dur=([0-9.]+)")
KINDS = ("save", "standings page", "poll 200", "poll 304", "poll 200 cached", "poll 304 cached")


@dataclass
class Front:
    """Where the phones go: the balancer (bench/tournament.py's keeper takes anything with a `url`)."""

    url: str


@dataclass
class Kinds:
    """Per kind of request: latencies (ms), the server's CPU (ms), and the polls whose 200 carried the ETag they
    sent (a board unchanged, fetched again: a miss)."""

    ms: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    cpu: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    app: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))  # the time inside the app
    db: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))  # of it, in database queries
    missed: int = 0

    def add(self, kind: str, answer: Answer) -> None:
        self.ms[kind].append(answer.ms)
        timing = header(answer, "Server-Timing")
        found, inside, queries = CPU.search(timing), APP.search(timing), DB.search(timing)
        if queries:
            self.db[kind].append(float(queries.group(1)))
        if found:
            self.cpu[kind].append(float(found.group(1)))
        if inside:
            self.app[kind].append(float(inside.group(1)))


def header(answer: Answer, name: str) -> str:
    """A header whatever its case (haproxy sends the names in lower case)."""
    return next((value for key, value in answer.headers.items() if key.lower() == name.lower()), "")


class CountingResults(Results):
    """bench/tournament.py's results, with each acknowledged save's server CPU kept for its kind's figures."""

    def __init__(self, kinds: Kinds) -> None:
        super().__init__()
        self.kinds = kinds
        self.answered_at: list[tuple[float, float]] = []  # each acknowledged save: when, and its latency (ms)

    def saved(self, answer: Answer) -> None:
        super().saved(answer)
        self.kinds.add("save", answer)
        self.answered_at.append((time.monotonic(), answer.ms))


def server_cpu(sites: list[Site]) -> float:
    """CPU seconds (user + system) used so far by every process of the servers (each its own session)."""
    ticks = os.sysconf("SC_CLK_TCK")
    sessions = {site.process.pid for site in sites if site.process is not None}
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[3]) in sessions:  # the session id (field 6 of stat; 4th after the command's ")")
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


GENERATOR_NICE = -5


def ahead_of_the_servers(balancer: Balancer) -> str:
    """The load generator (this thread, the keeper threads it starts, the viewers' process it spawns) and the
    balancer ahead of the app servers for the CPU, as on machines of their own (README's recipe has the balancer
    in front of the app servers, the phones are elsewhere): on one machine the load saturates, a starved
    generator sends and reads late, and a starved haproxy reads a request late — its own lag counted as the
    servers' latency, or a 408 for a request that sat 10 s unread in its socket. Linux's nice is a thread's,
    inherited by what it starts: haproxy's threads each, this thread before it starts the others (the servers
    were started before). Needs the right to lower it (root)."""
    assert balancer.process is not None
    try:
        for task in Path(f"/proc/{balancer.process.pid}/task").iterdir():
            os.setpriority(os.PRIO_PROCESS, int(task.name), GENERATOR_NICE)
        os.setpriority(os.PRIO_PROCESS, 0, GENERATOR_NICE)
    except PermissionError:
        return "the load generator and haproxy at the servers' priority (no right to raise theirs)"
    return f"the load generator and haproxy at nice {GENERATOR_NICE}, ahead of the app servers (0)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=600, help="entrants (Skat: tables of four)")
    parser.add_argument("--game", default="skat")
    parser.add_argument("--preset", default="isko")
    parser.add_argument("--length", type=int, default=48, help="deals of a series at a table of four")
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--every", type=float, default=60.0, help="seconds between a table's deals")
    parser.add_argument("--viewers", type=int, default=5000)
    parser.add_argument("--poll", type=float, default=10.0, help="seconds between a viewer's polls")
    parser.add_argument("--arrive", type=float, default=30.0,
                        help="seconds over which the viewers open the standings (each at a random moment): the "
                             "hall's phones and screens switched on as a series starts")
    parser.add_argument("--quiet", type=float, default=30.0,
                        help="seconds the viewers keep polling after the tables stop (the board unchanged): more "
                             "than --fresh and a poll's interval, so that every viewer polls an unchanged board")
    parser.add_argument("--servers", type=int, default=2)
    # README's recipe: two workers a core, each given one request at a time by haproxy (its second thread
    # answers the health checks), the rest waiting in haproxy's queue, where the saves go first.
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers per server")
    parser.add_argument("--threads", type=int, default=2, help="threads per gunicorn worker")
    parser.add_argument("--at-once", type=int, default=None,
                        help="requests haproxy gives a server at once (its maxconn; default: its workers)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a viewer waits for an answer")
    parser.add_argument("--fresh", type=float, default=5.0, help="SCOREKEEP_STANDINGS_FRESH on the servers")
    parser.add_argument("--database-url", default=None, help="a PostgreSQL server to make the database on")
    parser.add_argument("--balancer-cache", action=argparse.BooleanOptionalAction, default=True,
                        help="README's cache of the viewers' boards in haproxy (--no-balancer-cache: every poll "
                             "goes to a server)")
    args = parse(parser, tiny={"players": 8, "seconds": 2.0, "every": 0.5, "viewers": 4, "poll": 0.5,
                               "arrive": 0.2, "quiet": 0.5, "workers": 1, "threads": 2, "fresh": 0.2})
    need(args.servers >= 1 and args.viewers >= 0, "--servers must be at least 1")

    directory = Path(tempfile.mkdtemp(prefix="scorekeep-spectators-"))
    database = temp_database(directory, args.database_url)
    redis = RedisServer(directory)
    shared = {"SCOREKEEP_SECRET_KEY": "bench-" + "x" * 50, "SCOREKEEP_STATIC_ROOT": str(directory / "static"),
              "SCOREKEEP_REDIS_URL": redis.url, "SCOREKEEP_STANDINGS_FRESH": str(args.fresh),
              "SCOREKEEP_SERVER_TIMING": "1", "SCOREKEEP_SSL_REDIRECT": "0"}  # plain HTTP from the balancer
    sites = []
    for n in range(1, args.servers + 1):
        (directory / f"app{n}").mkdir()
        # gunicorn keeps an idle connection from the balancer longer than haproxy keeps it for reuse (5 s), so
        # that haproxy never sends a request on a connection the server is closing.
        sites.append(Site(database, directory / f"app{n}", workers=args.workers, threads=args.threads,
                          production=True, settings=dict(shared), keep_alive=10))
    # Each viewer keeps a connection to the balancer; the keepers open one a save.
    balancer = Balancer(sites, directory / "haproxy", tls=False, maxconn=args.viewers + 2 * len(sites) + 1024,
                        cache=args.balancer_cache, at_once=args.at_once or args.workers)
    crowd: Crowd | None = None
    try:
        redis.start()
        sites[0].migrate()
        sites[0].collectstatic()
        setup = sites[0].django(SETUP, game=args.game, preset=args.preset, length=args.length, players=args.players)
        for site in sites:
            site.start()
        balancer.start()
        front = Front(balancer.url)
        tables = setup["tables"]
        path = f"/standings/{setup['viewer']}/"
        kinds = Kinds()
        results = CountingResults(kinds)
        # Half the viewers on the phones' page, half on the big screen's.
        crowd = Crowd("127.0.0.1", balancer.port, [path, path + "screen/"], args.viewers, args.poll, args.arrive,
                      timeout=args.timeout)
        generator = ahead_of_the_servers(balancer)
        crowd.start()
        until = time.monotonic() + args.seconds
        workers = Workers()
        for n, table in enumerate(tables):  # each keeper's phone an address of its own, as the viewers'
            workers.add(keeper, front, table, args.seconds, args.every, results, address("127.1", n))
        workers.add(crowd.run, until + args.quiet)
        cpu_before, load_before = server_cpu(sites), os.getloadavg()[0]
        started = time.monotonic()
        workers.run()
        elapsed = time.monotonic() - started
        cpu_used, load_after = server_cpu(sites) - cpu_before, os.getloadavg()[0]
        stored_tables = sites[0].django(INSPECT, tournament=setup["tournament"])
        description = machine(sites[0])
        logs = "".join(site.log for site in sites)
    finally:
        if crowd is not None:
            crowd.stop()
        balancer.stop()
        for site in sites:
            site.stop()
        redis.stop()
        database.drop()
        shutil.rmtree(directory, ignore_errors=True)  # the servers' logs: what a failure needs of them is printed

    # Empty when the viewers' process died (`workers.check` says so below).
    seen = crowd.result if crowd is not None else {}
    for kind, times in seen.get("ms", {}).items():
        kinds.ms[kind].extend(times)
    for kind, times in seen.get("cpu", {}).items():
        kinds.cpu[kind].extend(times)
    kinds.missed += seen.get("missed", 0)
    results.requests += seen.get("requests", 0)
    results.errors.update(seen.get("errors", {}))
    stored, lost, duplicated, unacknowledged, half_saved = read_back(stored_tables, results.acked)
    errors = sum(results.errors.values())
    polls = sum(len(kinds.ms[kind]) for kind in KINDS if kind.startswith("poll"))
    answered_304 = len(kinds.ms["poll 304"]) + len(kinds.ms["poll 304 cached"])
    unchanged = answered_304 + kinds.missed

    print(f"machine: {description}; {args.servers} servers behind haproxy, Redis {redis.url.rsplit(':', 1)[0]}")
    print(f"load average: {load_before:.1f} at the start, {load_after:.1f} at the end (1-minute); {generator}")
    print(f"load: {len(tables)} tables saving a deal every ~{args.every:g} s, {args.viewers} viewers polling every "
          f"{args.poll:g} s, {elapsed:.0f} s (the last {args.quiet:g} s without deals); board fresh {args.fresh:g} s")
    print(f"requests: {results.requests} ({results.requests / elapsed:.1f}/s); servers' CPU {cpu_used:.1f} s "
          f"({cpu_used / max(results.requests, 1) * 1000:.2f} ms a request, {cpu_used / elapsed:.2f} cores)")
    print(f"errors: {errors} {dict(results.errors) if errors else ''}")
    print(f"viewers' connections (kept alive): {seen.get('connections', 0)} opened, "
          f"{seen.get('reconnects', 0)} of them after the balancer closed an idle one; the viewers' process used "
          f"{seen.get('cpu_seconds', 0):.1f} CPU s ({seen.get('cpu_seconds', 0) / elapsed:.2f} cores)")
    print(f"deals acknowledged: {len(results.acked)}, stored: {stored}; lost: {len(lost)}, duplicated: {duplicated}, "
          f"stored without acknowledgement: {len(unacknowledged)}, half-saved: {half_saved}")
    print(f"{'kind':<15} {'count':>7} {'cpu mean':>9} {'cpu p95':>8}  latency p50 / p95 / p99")
    for kind in KINDS:
        cpu = kinds.cpu.get(kind, [])
        cpu_p95 = statistics.quantiles(cpu, n=20)[18] if len(cpu) >= 2 else (cpu[0] if cpu else 0.0)
        print(f"{kind:<15} {len(kinds.ms.get(kind, [])):>7} {statistics.fmean(cpu) if cpu else 0:>7.2f}ms "
              f"{cpu_p95:>6.2f}ms  {percentiles(kinds.ms.get(kind, []))}")
    for kind in ("save", "standings page", "poll 200"):
        if kinds.app.get(kind):
            print(f"{kind}: time inside the app (its CPU and its waits there) {percentiles(kinds.app[kind])}, of it "
                  f"in database queries {percentiles(kinds.db[kind])}")
    cached = len(kinds.ms["poll 200 cached"]) + len(kinds.ms["poll 304 cached"])
    settled = [ms for at, ms in results.answered_at if at - started >= args.arrive]
    print(f"saves answered after the viewers' arrivals (the first {args.arrive:g} s): {len(settled)}, latency "
          f"{percentiles(settled)}")
    slice_seconds = max(args.arrive, 1.0)
    for first in range(0, int(elapsed // slice_seconds) + 1):
        inside = [ms for at, ms in results.answered_at if first <= (at - started) / slice_seconds < first + 1]
        if inside:
            print(f"  saves answered {first * slice_seconds:g}–{(first + 1) * slice_seconds:g} s: {len(inside)}, "
                  f"latency {percentiles(inside)}")
    print(f"polls answered 304: {answered_304} of {polls} ({answered_304 / max(polls, 1):.0%}); of the polls whose "
          f"board had not changed: {answered_304} of {unchanged} ({answered_304 / max(unchanged, 1):.0%}); "
          f"answered by the balancer's cache: {cached} ({cached / max(polls, 1):.0%})")
    need("Traceback" not in logs, "a server logged a traceback:\n" + logs[-3000:])
    workers.check()
    measured(tables=len(tables), deals_acknowledged=len(results.acked), deals_stored=stored, polls=polls,
             server_cpu_reported=len(kinds.cpu.get("poll 304", [])) + len(kinds.cpu.get("poll 200", [])))
    check_read_back(results.errors, lost, duplicated, unacknowledged, half_saved, results.abandoned)
    return 0


if __name__ == "__main__":
    sys.exit(main())
