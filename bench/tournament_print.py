"""Benchmark a tournament's printouts at the size of a large championship: a series of N Skat tables of four
(default 40 and 150), each with D deals (default 36), on a throw-away SQLite file. Times the pages (table cards,
every table's list, the standings after the series, the final ranking with its prizes) and their PDFs (headless
Chromium, `scorekeep.printing.pdf`; the first PDF includes starting Chromium), and counts the database queries of
each page.

    .venv/bin/python bench/tournament_print.py [--tables 40 150] [--deals 36] [--kinds standings ranking …]

Run by hand, never by the test suite; results go to docs/PERFORMANCE.md ("A tournament's printouts").
"""

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._check import measured, need, parse  # noqa: E402
from tests.live_site import Database, copy_migrated  # noqa: E402


def skat_deal(rng: random.Random) -> dict:
    points = rng.choice([30, 45, 58, 61, 70, 75, 88, 95])
    return {"contract": rng.choice(["clubs", "spades", "hearts", "diamonds", "grand"]), "declarer": rng.randrange(3),
            "bid": 18, "matadors": rng.choice([1, -1, 2, -2]), "card_points": points}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[40, 150])
    parser.add_argument("--deals", type=int, default=36)
    parser.add_argument("--kinds", nargs="+", default=["cards", "lists", "standings", "ranking"],
                        choices=["cards", "lists", "standings", "ranking"])
    args = parse(parser, tiny={"tables": [1], "deals": 2})
    need(args.tables and min(args.tables) > 0, "no printout to make: --tables must name at least one table")
    pages_made = pdfs_made = 0
    os.environ["DATABASE_URL"] = f"sqlite:///{Path(tempfile.mkdtemp()) / 'bench.sqlite3'}"
    # A copy of the database migrated once (tests/live_site.py): its migrate below finds nothing to do.
    copy_migrated(Database(os.environ["DATABASE_URL"]), dict(os.environ))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeep.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from scorekeep.models import CardNight, CardTable, Club, Entrant, Player, Series, TablePlayer, Tournament
    from scorekeep.nights import writes as nights
    from scorekeep.printing import pdf

    user = get_user_model().objects.create_user("organiser")
    client = Client()
    client.force_login(user)
    rng = random.Random(18)
    print(f"{'tables':>6} {'deals':>6} {'page':>10} {'HTML ms':>8} {'queries':>8} {'PDF s':>6} {'PDF pages':>9}")
    for count in args.tables:
        club = Club.objects.create(name=f"Bench {count}", owner=user)
        tournament = Tournament.objects.create(club=club, name=f"Bench {count}", game="skat", preset="classic",
                                               series_count=1, series_length=48, entry_fee=1000,
                                               lost_game_money=[{"from": 1, "amount": 50}, {"from": 4, "amount": 100}],
                                               prizes={"kind": "shares", "places": [300, 200, 100, 50, 50],
                                                       "retention": {"kind": "share", "value": 100}})
        series = Series.objects.create(tournament=tournament, number=1)
        for t in range(count):
            night = CardNight.objects.create(game="skat", preset="classic", club=club, host=user, series=series,
                                             series_length=48, date=tournament.date)
            table = CardTable.objects.create(night=night, number=t + 1, seats=4)
            for position in range(4):
                number = 4 * t + position + 1
                player = Player.objects.create(club=club, name=f"Player {number}")
                Entrant.objects.create(tournament=tournament, player=player, number=number)
                TablePlayer.objects.create(table=table, player=player, position=position)
            for _ in range(args.deals):
                nights.enter_deal(table, skat_deal(rng))
        for kind in args.kinds:
            where = [tournament.pk] if kind == "ranking" else [tournament.pk, 1]  # the ranking is of all series
            page = reverse(f"tournament-print-{kind}", args=where)
            queries: list[str] = []

            def counted(execute, sql, params, many, context, queries=queries):  # type: ignore[no-untyped-def]
                queries.append(sql)
                return execute(sql, params, many, context)

            with connection.execute_wrapper(counted):
                start = time.perf_counter()
                response = client.get(page)
                html_ms = (time.perf_counter() - start) * 1000
            need(response.status_code == 200, f"{page} answered {response.status_code}: {response.content[:300]!r}")
            pages_made += 1
            start = time.perf_counter()
            made = client.get(reverse(f"tournament-pdf-{kind}", args=where))
            pdf_s = time.perf_counter() - start
            pages = made.content.count(b"/Type /Page\n") or made.content.count(b"/Type/Page") or "?"
            if os.environ.get("BENCH_KEEP"):
                Path(os.environ["BENCH_KEEP"], f"{kind}-{count}.pdf").write_bytes(made.content)
            need(made.status_code == 200 and made.content.startswith(b"%PDF") and pages != "?",
                 f"the PDF of {page} answered {made.status_code}: {made.content[:200]!r}")
            pdfs_made += 1
            print(f"{count:>6} {args.deals:>6} {kind:>10} {html_ms:>8.0f} {len(queries):>8} {pdf_s:>6.1f} {pages!s:>9}",
                  flush=True)
    pdf.close_browser()
    measured(printouts=pages_made, pdfs=pdfs_made)


if __name__ == "__main__":
    main()
