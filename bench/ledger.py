"""Benchmark a card night's storage and ledger: saving deals (each save recomputes the table) and
building/serving the ledger, on a throw-away SQLite database.

    .venv/bin/python bench/ledger.py [--deals N] [--tables T]

Run by hand, never by the test suite; results go to docs/PERFORMANCE.md. The deals are valid Skat
games (a fixed seed), so every save goes through the engine as at the table.
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._check import measured, need, parse  # noqa: E402
from tests.live_site import Database, copy_migrated  # noqa: E402


def skat_deal(rng: random.Random) -> dict:
    declarer = rng.randrange(3)  # at a 4-seat table the dealer sits out in engine seat 3 (ledger.seating)
    points = rng.randrange(0, 121)
    while points in (1, 119):
        points = rng.randrange(0, 121)
    return {"contract": rng.choice(["clubs", "spades", "hearts", "diamonds", "grand"]), "declarer": declarer,
            "bid": 18, "matadors": rng.choice([1, -1, 2, -2]), "card_points": points}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=48)
    parser.add_argument("--tables", type=int, default=5)
    args = parse(parser, tiny={"deals": 3, "tables": 1})
    need(args.deals > 0 and args.tables > 0, "no deal to save: --deals and --tables must be at least 1")
    db = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    # A copy of the database migrated once (tests/live_site.py): its migrate below finds nothing to do.
    copy_migrated(Database(os.environ["DATABASE_URL"]), dict(os.environ))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeep.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", verbosity=0)
    from scorekeep.nights import ledger
    from scorekeep.nights import writes as nights

    rng = random.Random(7)
    save_ms: list[float] = []
    night = None
    for _ in range(args.tables):
        night = nights.start_night(game="skat", preset="isko", players=["Anna", "Bernd", "Clara", "Dieter"],
                                   house_rules={"bock": True}, bock_events=["sixty", "kontra_lost"])
        table = night.tables.get()
        for _ in range(args.deals):
            start = time.perf_counter()
            nights.enter_deal(table, skat_deal(rng), by="bench")
            save_ms.append((time.perf_counter() - start) * 1000)
    assert night is not None
    table = night.tables.get()
    start = time.perf_counter()
    for _ in range(100):
        ledger.build(table)
    build_ms = (time.perf_counter() - start) * 10
    client = Client()
    # A scorer's phone: the night's pages answer only those it was shared with (a 404 is not a page served).
    need(client.get(f"/join/{night.scorer_token}/").status_code == 303, "the scorer link did not open the night")
    page_ms = []
    for url in (f"/nights/{night.id}/tables/1/", f"/nights/{night.id}/ledger.json", f"/nights/{night.id}/print/"):
        client.get(url)  # warm up
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            status = client.get(url).status_code
            page_ms.append((url, status, (time.perf_counter() - start) * 1000, len(queries)))
        need(status == 200, f"GET {url} answered {status}, not the page")
    save_ms.sort()
    print(f"saving a deal ({args.tables} tables × {args.deals} deals, each save recomputes its table): "
          f"median {statistics.median(save_ms):.1f} ms, p95 {save_ms[int(len(save_ms) * 0.95)]:.1f} ms, "
          f"last deal of a series {save_ms[-1]:.1f} ms max")
    print(f"ledger.build for {args.deals} deals: {build_ms:.2f} ms")
    for url, status, ms, count in page_ms:
        print(f"GET {url}: {status}, {ms:.1f} ms, {count} queries")
    measured(deals_saved=len(save_ms), pages_served=len(page_ms))


if __name__ == "__main__":
    main()
