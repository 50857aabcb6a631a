"""What working offline costs a table page (issue 16): the requests a scorer's page makes once it has loaded
online, so that it can go on without a connection, and the files the service worker keeps.

    .venv/bin/python bench/offline.py [--games skat schafkopf kop fipsen] [--repeat 10] [--database-url postgres://…]

Run by hand, never by the test suite; results go to docs/PERFORMANCE.md ("Offline: what a table page fetches
to work without a connection"). One process, a throw-away database, Django's test client as a scorer's phone
(the scorer link opened). For each game a new night with one table, then each request `--repeat` times after
one warm-up:

- ``page``: the table page itself (for scale);
- ``entry × n``: the entry form of each contract the table's description lists, as static/js/offline.js asks
  it after a load (``deals/new/?contract=…`` with HX-Target ``entry``, each game once, however many taps of
  the grid of players and games send it), one after the other: the time of all of them and the bytes kept in
  IndexedDB;
- ``entries at once``: what offline.js asks since stop 41, one request for every seating's blank entry and every
  seating's entry of each game (``deals/new/?want=dealer:game&…``; here every dealer, an upper bound: the page
  asks once per seating that differs), and the entries it answers;
- ``description``: the engine's input description of the table (``/api/games?game=…&players=…&rules=…``);
- ``sw.js``: the service worker (rendered with a digest of the shell's files on every request).

DEBUG is off, as served. The figures are wall-clock milliseconds, the minimum and the median of the repeats.
Every answer must be a 200 (an entry form one the page keeps), or the run fails saying which; ``--tiny``: Skat,
one repeat (bench/_check.py).
"""

from __future__ import annotations

import argparse
import html
import json
import os
import platform
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._check import measured, need, parse  # noqa: E402
from tests.live_site import Database, copy_migrated, temp_database  # noqa: E402

TABLES = {"skat": ["Anna", "Bernd", "Clara"], "schafkopf": ["Anna", "Bernd", "Clara", "Dieter"],
          "kop": ["Anna", "Bernd", "Clara", "Dieter"], "fipsen": ["Anna", "Bernd", "Clara"]}


def timed(repeat: int, request: Callable[[], Any]) -> tuple[list[float], int]:
    """Milliseconds of each repeat (after one warm-up) and the bytes of the last answer."""
    request()
    times = []
    size = 0
    for _ in range(repeat):
        start = time.perf_counter()
        size = request()
        times.append((time.perf_counter() - start) * 1000)
    return times, size


def run(args: argparse.Namespace) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.staticfiles import finders
    from django.core.management import call_command
    from django.db import connection

    from scorekeep.web import offline

    settings.ALLOWED_HOSTS = ["*"]
    settings.DEBUG = False
    call_command("migrate", verbosity=0)
    print(f"Python {platform.python_version()}, Django {django.get_version()}, {connection.vendor}, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; {args.repeat} repeats, ms (min / median)")
    shell = {name: Path(str(finders.find(name))).stat().st_size for name in offline.SHELL}
    print(f"the shell the worker keeps: {len(shell)} files, {sum(shell.values()) / 1024:.0f} KiB "
          f"(offline.js {shell['js/offline.js'] / 1024:.1f} KiB, idb-keyval "
          f"{shell['vendor/idb-keyval/idb-keyval.umd.js'] / 1024:.1f} KiB)")
    print("| game | page | entry × n (all) | entry bytes (all) | entries at once | their bytes | description "
          "| description bytes | sw.js |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    contracts = 0
    for game in args.games:
        row, asked = measure(game, args.repeat)
        print(row)
        contracts += asked
    measured(games=len(args.games), entry_forms=contracts)


def measure(game: str, repeat: int) -> tuple[str, int]:
    """One game's row of the table: a new night, a scorer's phone, each request timed; and the number of
    entry forms asked for."""
    from django.test import Client

    from scorekeep import rules
    from scorekeep.nights import writes as nights

    night = nights.start_night(game=game, preset=rules.GAMES[game].DEFAULT_PRESET, players=TABLES[game])
    client = Client()
    client.get(f"/join/{night.scorer_token}/")
    table = f"/nights/{night.pk}/tables/1/"
    page = answered(client.get(table), "the table page").decode()
    # Where the page's script reads the engine's description of the table's inputs (the outbox's data-inputs).
    found = need(re.search(r'data-inputs="([^"]+)"', page), "the table page names no description of its inputs")
    described = html.unescape(found.group(1))
    # The contracts as the description gives them: offline.js keeps one entry form per game (a grid of players
    # and games has a tap per player and game, each sending the same game).
    contracts = [c["contract"] for c in json_of(client.get(described))["games"][0]["rule_sets"][0]["contracts"]]
    need(contracts, f"the description {described} offers no contract")
    entry = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "entry"}

    def whole_page() -> int:
        return len(answered(client.get(table), "the table page"))

    def entries() -> int:
        size = 0
        for contract in contracts:
            form = answered(client.get(f"{table}deals/new/", {"contract": contract, "by": "Anna"}, **entry),
                            f"the entry form of {contract!r}")
            need(b'id="entry"' in form, f"the entry form of {contract!r} is not one the page keeps (no #entry)")
            size += len(form)
        return size

    seats = range(len(TABLES[game]))
    wants = [f"{dealer}:" for dealer in seats] + [f"{dealer}:{contract}" for dealer in seats for contract in contracts]

    def at_once() -> int:
        answer = json_of(client.get(f"{table}deals/new/", {"want": wants, "by": "Anna"}, **entry), "the entries")
        kept = [item for item in answer["entries"] if 'id="entry"' in item[2]]
        need(len(kept) == len(wants), f"{len(kept)} of the {len(wants)} entries asked at once are ones the page keeps")
        return sum(len(item[2].encode()) for item in kept)

    def description() -> int:
        return len(answered(client.get(described), "the description"))

    def worker() -> int:
        return len(answered(client.get("/sw.js"), "/sw.js"))

    cells = []
    sizes = []
    for request in (whole_page, entries, at_once, description, worker):
        times, size = timed(repeat, request)
        cells.append(f"{min(times):.1f} / {statistics.median(times):.1f}")
        sizes.append(size)
    return (f"| {game} | {cells[0]} | {cells[1]} ({len(contracts)} contracts) | {sizes[1] / 1024:.0f} KiB | "
            f"{cells[2]} ({len(wants)} entries) | {sizes[2] / 1024:.0f} KiB | "
            f"{cells[3]} | {sizes[3] / 1024:.1f} KiB | {cells[4]} |"), len(contracts)


def answered(response: Any, what: str) -> bytes:
    """The body of a 200 answer; fail naming `what` otherwise (a timed error page is no figure)."""
    need(response.status_code == 200, f"{what} answered {response.status_code}")
    return bytes(response.content)


def json_of(response: Any, what: str = "the description") -> Any:
    return json.loads(answered(response, what))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", choices=sorted(TABLES), default=sorted(TABLES))
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--database-url", default="", help="a PostgreSQL server to make the database on")
    args = parse(parser, tiny={"games": ["skat"], "repeat": 1})
    need(args.repeat > 0, "nothing timed: --repeat must be at least 1")
    database = temp_database(Path(tempfile.mkdtemp()), args.database_url)
    os.environ["DATABASE_URL"] = database.url
    # A copy of the database migrated once (tests/live_site.py): its migrate below finds nothing to do.
    copy_migrated(Database(os.environ["DATABASE_URL"]), dict(os.environ))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeep.settings")
    try:
        run(args)
    finally:
        from django.db import connections

        connections.close_all()
        database.drop()


if __name__ == "__main__":
    main()
