"""Benchmark one save and one correction at tables of 50, 200 and 1,000 deals: how many times the engine
judges a deal, and how long the storage takes (the service `scorekeep.nights.writes`, on a throw-away SQLite file).

    .venv/bin/python bench/save.py [--sizes 50 200 1000] [--repeat 20]

Run by hand, never by the test suite; results go to docs/PERFORMANCE.md ("Engine calls per save"). The deals
are valid Skat games with Bock rounds switched on (a fixed seed), so the Bock queue is walked as at a table.
A save through the page asks the engine once, in its form's preview; the service then stores that verdict
(`judged`), so the "save" rows below (which call the service without a page) show the one call the page
would have made.
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
    points = rng.choice([30, 45, 58, 61, 70, 75, 88, 95])  # 60 would start a Bock round on every such deal
    return {"contract": rng.choice(["clubs", "spades", "hearts", "diamonds", "grand"]), "declarer": rng.randrange(3),
            "bid": 18, "matadors": rng.choice([1, -1, 2, -2]), "card_points": points}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200, 1000])
    parser.add_argument("--repeat", type=int, default=20)
    args = parse(parser, tiny={"sizes": [5], "repeat": 2})
    need(args.sizes and args.repeat > 0, "nothing timed: --sizes and --repeat must name at least one")
    saves = 0
    os.environ["DATABASE_URL"] = f"sqlite:///{Path(tempfile.mkdtemp()) / 'bench.sqlite3'}"
    # A copy of the database migrated once (tests/live_site.py): its migrate below finds nothing to do.
    copy_migrated(Database(os.environ["DATABASE_URL"]), dict(os.environ))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeep.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from scorekeep.models import Deal
    from scorekeep.nights import ledger
    from scorekeep.nights import writes as nights

    calls = [0]
    real = ledger.judge_deal

    def counted(*a: object) -> object:
        calls[0] += 1
        return real(*a)

    ledger.judge_deal = counted  # type: ignore[assignment]
    rng = random.Random(5)
    print(f"{'deals':>6} {'engine calls/save':>18} {'save ms (median)':>17} {'engine calls/correction':>24} "
          f"{'correction ms (median)':>23}")
    for size in args.sizes:
        night = nights.start_night(game="skat", preset="classic", players=["Anna", "Bernd", "Clara"],
                                   house_rules={"bock": True}, bock_events=["kontra_lost"])
        table = night.tables.get()
        rows = []
        for sequence in range(1, size + 1):  # stored directly: the bench measures the save, not the set-up
            facts = skat_deal(rng)
            seats = ledger.seating("skat", 3, (sequence - 1) % 3)
            verdict = real(night, seats, (sequence - 1) % 3, facts, False).to_json()
            rows.append(Deal(table=table, sequence=sequence, seating=seats, dealer=(sequence - 1) % 3, facts=facts,
                             verdict=verdict))
        Deal.objects.bulk_create(rows)
        ledger.recompute(table)
        save_ms, save_calls, fix_ms, fix_calls = [], [], [], []
        for _ in range(args.repeat):
            calls[0] = 0
            start = time.perf_counter()
            deal = nights.enter_deal(table, skat_deal(rng))
            save_ms.append((time.perf_counter() - start) * 1000)
            save_calls.append(calls[0])
            first = table.deals.filter(deleted=False).order_by("sequence").first()
            assert first is not None
            calls[0] = 0
            start = time.perf_counter()
            nights.correct_deal(first, {**first.facts, "card_points": 70 if first.facts["card_points"] != 70 else 75})
            fix_ms.append((time.perf_counter() - start) * 1000)
            fix_calls.append(calls[0])
            nights.delete_deal(deal)
        need(all(save_calls) and all(fix_calls), f"{size} deals: a save or correction never asked the engine")
        saves += len(save_ms)
        print(f"{size:>6} {statistics.median(save_calls):>18} {statistics.median(save_ms):>17.1f} "
              f"{statistics.median(fix_calls):>24} {statistics.median(fix_ms):>23.1f}")
    measured(table_sizes=len(args.sizes), saves_timed=saves)


if __name__ == "__main__":
    main()
