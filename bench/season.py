"""Benchmark a club's year: the season table, the ratings replay, and the pages that show them, on a
throw-away SQLite database.

    .venv/bin/python bench/season.py [--nights N] [--deals D] [--players P]

A club of P players plays N Skat nights (one three-seat table a night, D deals each, a fixed seed; who
comes changes from night to night); one season spans them all. Measured: `seasons.standings` (each
table's kept standing read, `ledger.TableStanding`), `ratings.of_club` (the OpenSkill replay, from the same
standings), and GET of the season page (with ratings on), its CSV and a player's page (every deal of the
player's nights read: the per-contract figures need them), medians of 5 warm requests, with their query
counts. Run by hand, never by
the test suite; results go to docs/PERFORMANCE.md.
"""

import argparse
import datetime
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
    parser.add_argument("--nights", type=int, default=40)
    parser.add_argument("--deals", type=int, default=36)
    parser.add_argument("--players", type=int, default=8)
    args = parse(parser, tiny={"nights": 3, "deals": 3, "players": 4})
    need(args.nights > 0 and args.deals > 0 and args.players >= 3,
         "no season to measure: --nights and --deals at least 1, --players at least 3")
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
    from scorekeep.clubs import clubs, ratings, seasons
    from scorekeep.models import Player
    from scorekeep.nights import demo
    from scorekeep.nights import writes as nights

    rng = random.Random(17)
    host = get_user_model().objects.create_user("bench-host")
    club = clubs.set_ratings(clubs.start_club(host, "Bench club"), True)
    names = [f"Player {n + 1}" for n in range(args.players)]
    first = datetime.date(2025, 1, 3)
    for number in range(args.nights):
        night = nights.start_night(game="skat", preset="classic", players=rng.sample(names, 3), club=club,
                                   date=first + datetime.timedelta(days=7 * number))
        table = night.tables.get()
        for facts in demo.game_deals("skat", "classic", 3, args.deals, rng.randrange(2**32),
                                     first_dealer=table.first_dealer):
            nights.enter_deal(table, facts, by="bench")
    season = seasons.start_season(club, name="Bench", game="skat", start=first,
                                  end=first + datetime.timedelta(days=7 * args.nights), basis="seeger_fabian",
                                  min_nights=3, drop_every=4, absence_penalty=30)
    standings_ms = timed(lambda: seasons.standings(season))
    ratings_ms = timed(lambda: ratings.of_club(club, "skat"))
    client = Client()
    client.force_login(host)
    player = need(Player.objects.filter(club=club).first(), "the club has no player")
    pages = []
    for url in (f"/clubs/{club.pk}/seasons/{season.pk}/", f"/clubs/{club.pk}/seasons/{season.pk}/season.csv",
                f"/stats/{player.pk}/"):
        client.get(url)  # warm up
        connection.queries_log.clear()  # the log keeps 9,000 queries: a full one counts none
        with CaptureQueriesContext(connection) as queries:
            status = client.get(url).status_code
        need(status == 200, f"GET {url} answered {status}, not the page")
        pages.append((url, status, timed(lambda url=url: client.get(url)), len(queries)))
    total = args.nights * args.deals
    print(f"{args.nights} nights × {args.deals} deals ({total} deals), {args.players} players")
    print(f"seasons.standings: {standings_ms:.0f} ms (median of 5)")
    print(f"ratings.of_club (OpenSkill replay of {args.nights} matches): {ratings_ms:.0f} ms (median of 5)")
    for url, status, ms, count in pages:
        print(f"GET {url}: {status}, {ms:.0f} ms (median of 5), {count} queries")
    table = seasons.standings(season)
    measured(deals=total, season_nights=len(table.nights), season_lines=len(table.lines), pages_served=len(pages))


if __name__ == "__main__":
    main()
