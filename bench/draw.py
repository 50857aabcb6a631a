"""Benchmark the tournament draw (`scorekeep.rules.draw`, issue 18): the time to seat 13 … 600 entrants for
three series in a row (each later series avoiding the pairs of the earlier ones), and what it could not avoid.

    .venv/bin/python bench/draw.py [--sizes 13 60 200 600] [--repeat 3] [--service]

Run by hand, never by the test suite; results go to docs/PERFORMANCE.md ("The tournament draw"). The field is a
club tournament: 40 % of the entrants play for the organising club, the rest for 12 other clubs, one in eight
in a team of four; series 1 is drawn at random, series 2 at random and series 3 by standings (a fixed order).
The draw is pure Python, so these figures are the draw alone; `--service` also times
`tournaments.draw_series` on a throw-away SQLite file (the draw, plus a card night, a table and its players for
every table of the series, in one transaction).
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._check import measured, need, parse  # noqa: E402
from scorekeep.rules.draw import Conflict, Seatable, draw, pairs_of  # noqa: E402
from tests.live_site import Database, copy_migrated  # noqa: E402


def field(n: int) -> list[Seatable]:
    return [Seatable(i, "home" if i % 5 < 2 else f"club {i % 12}", f"team {i // 32}" if i % 8 == 0 else None)
            for i in range(1, n + 1)]


def run(n: int, seed: str) -> tuple[list[float], list[dict[str, int]], int]:
    """The seconds of each of three series drawn in a row, what each could not avoid, and the tables drawn."""
    entrants = field(n)
    met: set[tuple[int, int]] = set()
    times, left, tables = [], [], 0
    for number, mode in ((1, "random"), (2, "random"), (3, "standings")):
        start = time.perf_counter()
        result = draw("skat", entrants, met, list(range(n, 0, -1)) if mode == "standings" else None, mode,
                      f"{seed}-{number}")
        times.append(time.perf_counter() - start)
        tables += need(len(result.tables), f"{n} entrants, series {number}: no table drawn")
        left.append({kind.value: sum(1 for u in result.unavoided if u.conflict == kind) for kind in Conflict})
        met |= pairs_of(result.tables)
    return times, left, tables


def service(sizes: list[int]) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{Path(tempfile.mkdtemp()) / 'bench.sqlite3'}"
    # A copy of the database migrated once (tests/live_site.py): its migrate below finds nothing to do.
    copy_migrated(Database(os.environ["DATABASE_URL"]), dict(os.environ))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeep.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from scorekeep.models import Club
    from scorekeep.tournaments import writes as tournaments

    call_command("migrate", verbosity=0)
    print("entrants | draw_series s (series 1) | tables")
    drawn = 0
    for n in sizes:
        tournament = tournaments.create_tournament(club=Club.objects.create(name=f"Bench {n}"), name="Bench",
                                                   game="skat", preset="isko", series_count=3, series_length=48)
        for i in range(1, n + 1):
            tournaments.register(tournament, name=f"Spieler {i}", guest=i % 5 >= 2, home_club=f"club {i % 12}")
        start = time.perf_counter()
        series = tournaments.draw_series(tournament, 1, seed="bench")
        print(f"{n} | {time.perf_counter() - start:.3f} | {len(series.draw['tables'])}")
        drawn += need(series.nights.count(), f"{n} entrants: draw_series made no table")
    measured(series_drawn=len(sizes), tables_drawn=drawn)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[13, 60, 200, 600])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--service", action="store_true")
    args = parse(parser, tiny={"sizes": [13], "repeat": 1})
    need(args.sizes and args.repeat > 0, "nothing to draw: --sizes and --repeat must name at least one")
    if args.service:
        service(args.sizes)
        return
    print("entrants | series | median s | max s | left: repeat / team / club")
    drawn = 0
    for n in args.sizes:
        runs = [run(n, f"bench-{r}") for r in range(args.repeat)]
        drawn += sum(tables for _times, _left, tables in runs)
        for series in range(3):
            times = [times[series] for times, _left, _tables in runs]
            left = runs[0][1][series]
            print(f"{n} | {series + 1} | {statistics.median(times):.3f} | {max(times):.3f} | "
                  f"{left['repeat']} / {left['team']} / {left['club']}")
    measured(series_drawn=3 * len(args.sizes) * args.repeat, tables_drawn=drawn)


if __name__ == "__main__":
    main()
