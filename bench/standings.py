"""Benchmark a large tournament's standings (issue 18): the standings computed from the tables' kept
standings, the standings pages (200) and a poll while nothing changed (304), and the money sheet, on a
throw-away SQLite database.

    .venv/bin/python bench/standings.py [--players P] [--series S] [--deals D]

P players (default 600: 150 tables of four) play S Skat series (default 3), D deals at each table (default 8;
the standings never read a deal, so their cost does not grow with D — tests/tournaments/test_standings.py holds
the query count constant). Each table is a card night of its own, as the organiser flow makes it; deals are entered
with `nights.enter_deal`, so every table's standing is kept as in real use. Medians of 5 warm runs. Run by
hand, never by the test suite; results go to docs/PERFORMANCE.md.
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


def timed(call, repeat: int = 5) -> float:
    """The median of `repeat` runs, in ms."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        runs.append((time.perf_counter() - start) * 1000)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=600)
    parser.add_argument("--series", type=int, default=3)
    parser.add_argument("--deals", type=int, default=8)
    args = parse(parser, tiny={"players": 8, "series": 1, "deals": 2})
    need(args.players >= 4 and args.series > 0 and args.deals > 0,
         "no tournament to measure: --players at least 4, --series and --deals at least 1")
    db = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    # A copy of the database migrated once (tests/live_site.py): its migrate below finds nothing to do.
    copy_migrated(Database(os.environ["DATABASE_URL"]), dict(os.environ))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeep.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", verbosity=0)
    from scorekeep.models import Club, Tournament
    from scorekeep.nights import demo
    from scorekeep.nights import writes as nights
    from scorekeep.tournaments import money as tournament_money
    from scorekeep.tournaments import standings
    from tests.tournament_fixtures import draw, tournament

    rng = random.Random(18)
    host = get_user_model().objects.create_superuser("bench-host", "b@example.org", "pw")
    club = Club.objects.create(name="Bench club", owner=host)
    tour = tournament("skat", "isko", players=args.players, series=args.series, club=club, entry_fee=1500,
                      lost_game_money=[{"from": 1, "amount": 50}, {"from": 4, "amount": 100}],
                      prizes={"kind": "shares", "places": [300, 200, 100, 50, 50],
                              "retention": {"kind": "share", "value": 100}})
    start = time.perf_counter()
    for series in range(1, args.series + 1):
        numbers = list(range(1, args.players + 1))
        rng.shuffle(numbers)
        tables = draw(tour, series, [numbers[i:i + 4] for i in range(0, len(numbers), 4)])
        for table in tables:
            for facts in demo.game_deals("skat", "classic", table.places.count(), args.deals, rng.randrange(2**32),
                                         first_dealer=table.first_dealer):
                nights.enter_deal(table, facts, by="bench")
    entering = time.perf_counter() - start
    tour = Tournament.objects.select_related("club").get(pk=tour.pk)
    deals = args.series * (args.players // 4) * args.deals
    connection.queries_log.clear()  # the log keeps 9,000 queries: a full one counts none
    with CaptureQueriesContext(connection) as queries:
        standings.standings(tour)
    compute_ms = timed(lambda: standings.standings(tour))
    money_ms = timed(lambda: tournament_money.sheet(tour))
    client = Client()
    client.force_login(host)
    print(f"{args.players} players, {args.series} series, {args.players // 4} tables a series, {deals} deals "
          f"(entered in {entering:.0f} s)")
    print(f"standings.standings (overall): {compute_ms:.0f} ms (median of 5), {len(queries)} queries")
    print(f"tournament_money.sheet: {money_ms:.0f} ms (median of 5)")
    poll = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "live-standings"}
    pages = polls = 0
    for url in (f"/standings/{tour.viewer_token}/", f"/standings/{tour.viewer_token}/screen/",
                f"/tournaments/{tour.pk}/standings/", f"/tournaments/{tour.pk}/money/"):
        first = client.get(url)
        need(first.status_code == 200, f"GET {url} answered {first.status_code}, not the page")
        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
        ms = timed(lambda url=url: client.get(url))
        shown = url.replace(tour.viewer_token, "<token>")
        line = f"GET {shown}: {first.status_code}, {ms:.0f} ms, {len(queries)} queries"
        if "ETag" in first:
            tag = first["ETag"]
            connection.queries_log.clear()
            with CaptureQueriesContext(connection) as queries:
                status = client.get(url, HTTP_IF_NONE_MATCH=tag, **poll).status_code
            need(status == 304, f"a poll of {url} while nothing changed answered {status}, not 304")
            polls += 1
            ms304 = timed(lambda url=url, tag=tag: client.get(url, HTTP_IF_NONE_MATCH=tag, **poll))
            line += f"; poll unchanged: {status}, {ms304:.1f} ms, {len(queries)} queries"
        print(line)
        pages += 1
    board = standings.standings(tour)
    measured(deals=deals, standings_lines=len(board.lines),
             pages_served=pages, unchanged_polls_answered=polls)


if __name__ == "__main__":
    main()
