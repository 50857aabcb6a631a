"""Benchmark the table page, its poll and a save at tables of 50, 200 and 1,000 stored deals, beside a trivial
view and the floor: a plain template rendering the same rows from memory (issue 12).

    .venv/bin/python bench/table_page.py [--sizes 50 200 1000] [--games skat schafkopf] [--repeat 20]
                                         [--database-url postgres://…] [--profile NAME]

Run by hand, never by the test suite; results go to docs/PERFORMANCE.md ("Table page, poll and save at 1,000
deals"). One process, a throw-away database (a SQLite file; with --database-url a temporary PostgreSQL
database on that server, dropped afterwards), Django's test client logged in as the night's scorer (the
scorer link opened, as a phone does). For each game and size a night of one table with that many valid
stored deals (a fixed seed, Bock rounds on: Skat after a lost Kontra or a 60:60 game, Schafkopf after a lost
Stoß or a 60:60 game), then each request `--repeat` times after one warm-up:

- ``trivial``: a view answering "ok" through the same middleware (what any request costs here);
- ``floor``: a view rendering a plain template (one file, no partials, no tags) of the same standings and
  latest rows the table page shows, built once in memory — the rows without any of their making;
- ``page``: the table page (GET, the whole page);
- ``poll 304``: the page's poll while nothing changed (If-None-Match the current ETag);
- ``poll changed``: the poll after the table's version moved (as after a save on another phone): the
  standings strip and the latest deals out of band;
- ``entry``: a game's entry form (GET with the game chosen, HX-Target ``entry``), as a phone keeps one
  for each game and seating for offline use (static/js/offline.js) and as a tap on a game asks for it;
- ``save htmx``: a new deal saved as the page's form sends it (HX-Request, HX-Target ``table-region``, an
  idempotency key, the deal number the form is for); the answer is the page's region;
- ``save plain``: the same without JavaScript (POST, then 303 to the table page; the redirect not followed);
- ``list first`` / ``list last``: the whole list's first and last page (`table_views.LIST_PAGE` deals);
- ``correct``: the table's first deal corrected from its page without JavaScript (POST with the deal's version
  and an idempotency key, then 303; not followed), its card points moved each time between two values that
  keep it won, so every deal after it keeps its Bock status: the correction's own cost, reading, judging and
  walking the table (issue 32: at 1,000 deals at most 2× ``save plain``).

Each saved deal is removed again untimed (`Bench.undo`), so the table keeps its size and record. DEBUG is off,
as served (templates without their debug information, no query log); the test client skips the CSRF check, the
middleware runs.
The figures are wall-clock milliseconds (the minimum and the median of the repeats) and the queries one
request makes; the ratio to the floor and the targets are taken on the minimum, as issue 12 measured (the
median moves with whatever else the machine runs). `--profile "save htmx"` (any request's name) runs that
request under cProfile at the largest size instead and prints where the time goes.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._check import measured, need, parse  # noqa: E402
from tests.live_site import Database, copy_migrated, temp_database  # noqa: E402

HX = {"HX-Request": "true", "HX-Current-URL": "http://testserver/"}
MEASURED = ("trivial", "floor", "page", "entry", "poll 304", "poll changed", "save htmx", "save plain",
            "list first", "list last", "correct")
CORRECTION_PER_SAVE = 2.0  # a correction at 1,000 deals costs at most this many saves (issue 32)
TARGETS = {"page": 40.0, "poll changed": 40.0, "save htmx": 30.0}  # ms at 1,000 deals (issue 12)

# The floor: the table page's standings strip and latest deals, nothing else, in a plain template.
FLOOR = """<!doctype html><html><head><title>Table</title></head><body>
<section class="standings"><ol class="totals">{% for p in standings %}<li><span class="name">{{ p.name }}</span>
<strong class="total">{{ p.total }}</strong>{% if p.note %} <span class="note">{{ p.note }}</span>{% endif %}</li>
{% endfor %}</ol><p class="status">Deal {{ number }} · {{ next_dealer }} deals</p></section>
<table class="latest-deals"><thead><tr><th>Deal</th>{% for name in names %}<th>{{ name }}</th>{% endfor %}</tr></thead>
<tbody>{% for row in latest %}<tr><th><a href="{{ row.url }}">{{ row.number }}</a></th>{% for cell in row.cells %}
<td>{{ cell.entry }}</td>{% endfor %}</tr><tr><td colspan="{{ names|length }}">{{ row.what }}</td></tr>{% endfor %}
</tbody></table></body></html>"""


def skat_deal(rng: random.Random) -> dict[str, Any]:
    """A Skat suit game or Grand; now and then with Kontra, now and then 60:60 (each may start a Bock round)."""
    facts: dict[str, Any] = {"contract": rng.choice(["clubs", "spades", "hearts", "diamonds", "grand"]),
                             "declarer": rng.randrange(3), "bid": 18, "matadors": rng.choice([1, -1, 2, -2]),
                             "card_points": rng.choice([30, 45, 58, 61, 70, 75, 88, 95] * 3 + [60])}
    if rng.random() < 0.1:
        facts["kontra"] = True
    return facts


def schafkopf_deal(rng: random.Random) -> dict[str, Any]:
    """A Sauspiel (now and then with a Stoß) or a Wenz, at four seats."""
    points = rng.choice([30, 45, 58, 61, 70, 75, 88, 95] * 3 + [60])
    if rng.random() < 0.2:
        return {"contract": "wenz", "declarer": rng.randrange(4), "card_points": points}
    declarer, partner = rng.sample(range(4), 2)
    facts: dict[str, Any] = {"contract": "sauspiel", "declarer": declarer, "partner": partner, "card_points": points}
    if rng.random() < 0.1:
        facts["doublings"] = 1
    return facts


@dataclass(frozen=True)
class Game:
    players: list[str]
    settings: dict[str, Any]
    deal: Callable[[random.Random], dict[str, Any]]
    form: dict[str, Any]  # a new deal as the entry form sends it (table positions)


GAMES = {
    "skat": Game(["Anna", "Bernd", "Clara"],
                 {"preset": "classic", "house_rules": {"bock": True}, "bock_events": ["kontra_lost", "sixty"]},
                 skat_deal, {"contract": "grand", "declarer": 1, "bid": 48, "matadors": 2, "card_points": 70}),
    "schafkopf": Game(["Anna", "Bernd", "Clara", "Dieter"],
                      {"preset": "classic", "house_rules": {"bock": True}, "bock_events": ["doubled_lost", "sixty"]},
                      schafkopf_deal, {"contract": "sauspiel", "declarer": 1, "partner": 3, "card_points": 70}),
}


@dataclass
class Figures:
    ms: list[float]
    queries: int

    @property
    def low(self) -> float:
        return min(self.ms)

    @property
    def median(self) -> float:
        return statistics.median(self.ms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200, 1000])
    parser.add_argument("--games", nargs="+", choices=sorted(GAMES), default=["skat", "schafkopf"])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--database-url", default="", help="a PostgreSQL server to make the database on")
    parser.add_argument("--profile", choices=MEASURED, help="profile this request at the largest size instead")
    args = parse(parser, tiny={"sizes": [5], "games": ["skat"], "repeat": 2})
    need(args.sizes and args.repeat > 0, "nothing timed: --sizes and --repeat must name at least one")
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


def run(args: argparse.Namespace) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    settings.ALLOWED_HOSTS = ["*"]
    # As served: templates without their debug information, and no query log (the queries are counted apart).
    settings.DEBUG = False
    call_command("migrate", verbosity=0)
    add_bench_views()
    import sqlite3

    if connection.vendor == "sqlite":
        where = f"SQLite {sqlite3.sqlite_version}"
    else:
        version = connection.cursor().connection.info.server_version
        where = f"PostgreSQL {version // 10000}.{version % 10000}"
    print(f"Python {platform.python_version()}, Django {django.get_version()}, {where}, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; {args.repeat} repeats, ms")
    sizes = [max(args.sizes)] if args.profile else args.sizes
    timed = tables = 0
    for game in args.games:
        for size in sizes:
            bench = Bench(game, size)
            tables += 1
            if args.profile:
                timed += bench.profile(args.profile, args.repeat)
                continue
            figures = bench.measure(args.repeat)
            timed += sum(len(f.ms) for f in figures.values())
            report(game, size, figures)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    measured(tables=tables, requests_timed=timed)


def add_bench_views() -> None:
    """The trivial view and the floor's view, on URLs of their own beside the app's."""
    from django.http import HttpRequest, HttpResponse
    from django.template import engines
    from django.urls import clear_url_caches, path

    from scorekeep import urls

    floor = engines["django"].from_string(FLOOR)

    def trivial(request: HttpRequest) -> HttpResponse:
        return HttpResponse("ok")

    def plain(request: HttpRequest) -> HttpResponse:
        return HttpResponse(floor.render(FLOOR_CONTEXT))

    urls.urlpatterns += [path("bench/trivial/", trivial), path("bench/floor/", plain)]
    clear_url_caches()


FLOOR_CONTEXT: dict[str, Any] = {}


class Bench:
    """One night with one table of `size` valid stored deals, and a scorer's phone at it."""

    def __init__(self, game: str, size: int) -> None:
        from django.test import Client

        from scorekeep.models import Deal
        from scorekeep.nights import ledger
        from scorekeep.nights import writes as nights
        from scorekeep.rules import IllegalDeal

        self.game = GAMES[game]
        rng = random.Random(size)
        self.night = nights.start_night(game=game, players=self.game.players, **self.game.settings)
        self.table = self.night.tables.get()
        players = len(self.game.players)
        rows, queue = [], ledger.BockQueue(self.night, players)
        while len(rows) < size:  # stored directly (the bench measures the pages, not the set-up), judged as saved
            facts, dealer = self.game.deal(rng), len(rows) % players
            seats = ledger.seating(game, players, dealer)
            pending = queue.pending
            bock = queue.next()
            try:
                verdict = ledger.judge_deal(self.night, seats, dealer, facts, bock).to_json()
            except IllegalDeal:
                queue.pending = pending
                continue
            queue.after(facts, verdict)
            rows.append(Deal(table=self.table, sequence=len(rows) + 1, seating=seats, dealer=dealer, facts=facts,
                             verdict=verdict, bock=bock))
        Deal.objects.bulk_create(rows)
        ledger.recompute(self.table)  # where the table stands, kept on its row (and every verdict checked)
        self.table.refresh_from_db()
        self.base = f"/nights/{self.night.pk}/tables/{self.table.number}/"
        self.client = Client()
        joined = self.client.get(f"/join/{self.night.scorer_token}/")
        assert joined.status_code == 303, joined.status_code
        self.tag = self.etag()
        self.sent: dict[str, Any] = {}
        self.fill_floor()

    # --- the requests --------------------------------------------------------------------------------------

    def etag(self) -> str:
        page = self.client.get(self.base, headers={**HX, "HX-Target": "live-ledger", "HX-Trigger": "live-ledger"})
        return str(page["ETag"])

    def fill_floor(self) -> None:
        """The floor's context: the standings and latest rows the table page shows, as plain values."""
        from scorekeep.nights import sheet as ledger_tags
        from scorekeep.nights import table_views

        loaded = table_views._load(self.night.pk, self.table.number)
        FLOOR_CONTEXT.clear()
        FLOOR_CONTEXT.update({
            "names": loaded.names, "number": loaded.count + 1, "next_dealer": loaded.names[loaded.next_dealer],
            "standings": [vars_of(p) for p in ledger_tags.standings(loaded.night, loaded.names, loaded.standing,
                                                                   loaded.next_dealer)],
            "latest": [{**vars_of(row), "cells": [vars_of(cell) for cell in row.cells]}
                       for row in ledger_tags.latest(loaded.ledger(), loaded.night)]})

    def requests(self) -> dict[str, tuple[Callable[[], None], Callable[[], Any], Callable[[Any], None]]]:
        """Per measured request: what to do before it (untimed), the request, what to check and undo after."""
        from django.db.models import F

        from scorekeep.models import CardTable

        client, base = self.client, self.base
        poll = {**HX, "HX-Target": "live-ledger", "HX-Trigger": "live-ledger"}
        entry = {**HX, "HX-Target": "entry"}  # a game's entry form, as a phone keeps it for offline use
        nothing: Callable[[], None] = lambda: None  # noqa: E731

        def ok(response: Any) -> None:
            assert response.status_code == 200, response.status_code

        def moved() -> None:  # another phone saved: the table's version moves (the page renders all the same)
            CardTable.objects.filter(pk=self.table.pk).update(version=F("version") + 1)

        def changed(response: Any) -> None:
            ok(response)
            self.tag = response["ETag"]

        def unchanged(response: Any) -> None:
            assert response.status_code == 304, response.status_code

        def saved(response: Any) -> None:
            assert response.status_code in (200, 303), response.status_code
            if response.status_code == 200:
                assert b'<p class="saved' in response.content, "the save was refused"
            self.undo()

        def fill() -> None:  # the form on the phone: a new idempotency key, the deal number it is for
            self.sent = {**self.game.form, "key": uuid.uuid4().hex, "expected": self.expected()}

        def save(headers: dict[str, str]) -> Callable[[], Any]:
            return lambda: client.post(base + "deals/new/", self.sent, headers=headers)

        def fill_correction() -> None:  # the deal's page: its version, a new key, the other card points
            from scorekeep.models import Deal

            first = Deal.objects.get(table=self.table, sequence=1)
            points = 75 if first.facts.get("card_points") == 70 else 70
            self.sent = {**self.game.form, "card_points": points, "key": uuid.uuid4().hex,
                         "version": first.version, "reason": "bench"}

        def corrected(response: Any) -> None:
            assert response.status_code == 303, (response.status_code, response.content[-3000:])

        return {
            "trivial": (nothing, lambda: client.get("/bench/trivial/"), ok),
            "floor": (nothing, lambda: client.get("/bench/floor/"), ok),
            "page": (nothing, lambda: client.get(base), ok),
            "entry": (nothing, lambda: client.get(base + "deals/new/", {"contract": self.game.form["contract"],
                                                                         "dealer": 0}, headers=entry), ok),
            "poll 304": (nothing, lambda: client.get(base, headers={**poll, "If-None-Match": self.tag}), unchanged),
            "poll changed": (moved, lambda: client.get(base, headers={**poll, "If-None-Match": self.tag}), changed),
            "save htmx": (fill, save({**HX, "HX-Target": "table-region", "HX-Trigger": "deal-form"}), saved),
            "save plain": (fill, save({}), saved),
            "list first": (nothing, lambda: client.get(base + "list/?page=1"), ok),
            "list last": (nothing, lambda: client.get(base + "list/"), ok),
            "correct": (fill_correction, lambda: client.post(base + "deals/1/", self.sent), corrected),
        }

    def expected(self) -> int:
        """The deal number the page's form is for (its hidden ``expected``)."""
        from scorekeep.models import CardTable

        return int(CardTable.objects.get(pk=self.table.pk).standing["deals"]) + 1

    def undo(self) -> None:
        """Take the saved deal off the table again, as if it had never been saved: the table keeps its size and
        its record (a deletion would leave a gap and a footnote after the latest deals, which every later page
        reads: the save measured would grow with the repeats)."""
        from scorekeep.models import Deal
        from scorekeep.nights import ledger

        last = self.table.deals.order_by("-sequence").first()
        assert last is not None
        Deal.objects.filter(pk=last.pk).delete()  # and its history (its revisions go with it)
        ledger.recompute(self.table)

    # --- measuring ---------------------------------------------------------------------------------------

    def measure(self, repeat: int) -> dict[str, Figures]:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        figures = {}
        for name, (before, request, after) in self.requests().items():
            before()
            after(request())  # warm up
            before()
            with CaptureQueriesContext(connection) as captured:
                response = request()
            queries = len(captured)  # now: the next request empties the log
            after(response)
            ms = []
            for _ in range(repeat):
                before()
                start = time.perf_counter()
                response = request()
                ms.append((time.perf_counter() - start) * 1000)
                after(response)
            figures[name] = Figures(ms, queries)
        return figures

    def profile(self, name: str, repeat: int) -> int:
        """Profile `repeat` requests `name`, print where their time went, and return how many were made."""
        before, request, after = self.requests()[name]
        before()
        after(request())
        profiler = cProfile.Profile()
        for _ in range(repeat):
            before()
            profiler.enable()
            response = request()
            profiler.disable()
            after(response)
        print(f"\n{name} at {self.table.deals.filter(deleted=False).count()} deals, {repeat} requests:")
        stats = pstats.Stats(profiler).strip_dirs()
        stats.sort_stats("cumulative").print_stats(40)
        stats.sort_stats("tottime").print_stats(25)
        return repeat


def vars_of(value: Any) -> dict[str, Any]:
    """A dataclass with slots as a plain dict (the floor's rows hold plain values only)."""
    return {name: getattr(value, name) for name in value.__slots__}


def report(game: str, size: int, figures: dict[str, Figures]) -> None:
    floor = figures["floor"].low
    print(f"\n{game}, {size} deals")
    print(f"{'request':<14} {'min':>8} {'median':>8} {'queries':>8} {'× floor':>8} {'target':>8}")
    for name, f in figures.items():
        target = TARGETS.get(name)
        verdict = "" if target is None or size < 1000 else ("met" if f.low <= target else "MISSED")
        print(f"{name:<14} {f.low:>8.1f} {f.median:>8.1f} {f.queries:>8} {f.low / floor:>8.1f} "
              f"{(f'≤ {target:.0f} ' + verdict) if target else '':>8}")
    ratio = figures["correct"].low / figures["save plain"].low
    verdict = "" if size < 1000 else ("met" if ratio <= CORRECTION_PER_SAVE else "MISSED")
    medians = figures["correct"].median / figures["save plain"].median
    print(f"a correction costs {ratio:.1f}× a save (min; median {medians:.1f}×)"
          f"{f', target ≤ {CORRECTION_PER_SAVE:.0f}× {verdict}' if verdict else ''}")


if __name__ == "__main__":
    main()
