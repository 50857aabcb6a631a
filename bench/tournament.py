"""Load: a championship — 150 tables entering deals, 1,000 phones and screens on the live standings — against
gunicorn on loopback (issue 18).

    .venv/bin/python bench/tournament.py [--players 600] [--seconds 120] [--every 5] [--viewers 1000]
                                         [--poll 10] [--workers N] [--threads 4] [--game skat]
                                         [--database-url postgres://…]

Run by hand, never by the test suite; results go to docs/PERFORMANCE.md. The script makes a throw-away
database (a temporary PostgreSQL database on the server of --database-url or DATABASE_URL, dropped afterwards;
a SQLite file when neither is PostgreSQL), migrates it, starts gunicorn on 127.0.0.1, and sets up a tournament
the way an organiser does — the club, `--players` entrants registered (`scorekeep.tournaments.writes.register`),
series 1 drawn (`draw_series`: 600 Skat players make 150 tables of four). Then, for `--seconds` (a list keeper's
counted from its join):

- one list keeper per table (a thread with its own session from that table's scorer link) saving a valid
  deal about every `--every` seconds (the first after a random part of it, so the tables do not save in step),
  as the table page's script does (htmx POST with an idempotency key and the deal number the form is for; a
  request without an answer is sent again with its key);
- `--viewers` phones and screens polling the tournament's standings by its viewer link every `--poll` seconds
  (If-None-Match: 304 while the tournament's version is unchanged), each opening the page at a random
  moment within the first `--arrive` seconds (a hall's phones and screens are not switched on in one
  second), and
  going on for `--quiet` seconds after the tables stop (as between two series: every poll then a 304).

Afterwards every table is read back: each acknowledged deal stored once (by its key), nothing stored that no
phone was told about, no half-saved deal (its 'created' revision, a verdict, numbers without a gap, the
table's kept standing equal to a fresh walk of its deals). It prints the save and standings latencies
(p50/p95/p99; the standings' 200s and 304s apart) and exits 1, saying why, on any error, lost, duplicated or
half-saved deal, a thread that died, or a run that measured nothing (no deal stored, no standings answered).
Who declared is taken from what the entry form may send (`declarer_choices`), not from its markup.
``--tiny``: eight players at two tables for two seconds (bench/_check.py).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._check import Workers, measured, need, parse  # noqa: E402
from bench.load import check_read_back, machine, percentiles, read_back  # noqa: E402
from tests.live_site import (  # noqa: E402
    ENTERED_MEANWHILE,
    Answer,
    Phone,
    Site,
    grand,
    new_key,
    table_path,
    temp_database,
)

HTMX_SAVE = {"HX-Request": "true", "HX-Target": "table-region"}
HTMX_POLL = {"HX-Request": "true", "HX-Target": "live-standings"}  # as the standings pages poll
GIVE_UP = 60.0  # seconds a list keeper keeps resending one deal before counting it lost
CONTRACT = "grand"  # what every table's deals are (`grand`: valid for any declarer)
IN_GRID = "@"  # a grid's tap sends "grand@2": the game, and its declarer's table position (scorekeep.nights.entry)

SETUP = """
from django.contrib.auth import get_user_model
from scorekeep.tournaments import writes as tournaments
from scorekeep.models import Club
host = get_user_model().objects.create_user("organiser", password="bench-only-password")
club = Club.objects.create(name="Bench Skatclub", owner=host)
tournament = tournaments.create_tournament(club=club, name="Bench championship", game=ARGS["game"],
                                           preset=ARGS["preset"], series_count=3, series_length=ARGS["length"],
                                           entry_fee=1500, lost_game_money=[{"from": 1, "amount": 50}])
for n in range(1, ARGS["players"] + 1):
    tournaments.register(tournament, name=f"Player {n:04d}", guest=n % 5 == 0, home_club=f"Club {n % 37}")
series = tournaments.draw_series(tournament, 1, seed="bench", host=host)
OUT = {"tournament": tournament.pk, "viewer": tournament.viewer_token,
       "tables": [{"night": night.pk, "scorer": night.scorer_token, "number": night.tables.get().number}
                  for night in series.nights.order_by("pk")]}
"""

# Per table: the deals with their revisions, and whether the kept standing equals a fresh walk of the deals
# and recomputing gives the stored verdicts (in a transaction rolled back: the database is left as it was).
INSPECT = """
from django.db import transaction
from scorekeep.nights import ledger
from scorekeep.models import CardTable, Deal
OUT = []
for table in (CardTable.objects.filter(night__series__tournament_id=ARGS["tournament"])
              .select_related("night").order_by("night_id")):
    deals = list(table.deals.order_by("sequence").prefetch_related("revisions"))
    kept = dict(table.standing)
    stored = {deal.pk: (deal.verdict, deal.bock) for deal in deals}
    with transaction.atomic():
        ledger.recompute(table)
        table.refresh_from_db()
        again = {deal.pk: (deal.verdict, deal.bock) for deal in Deal.objects.filter(table=table)}
        walked = dict(table.standing)
        transaction.set_rollback(True)
    OUT.append({"night": table.night_id, "recomputed_equal": again == stored and kept == walked, "deals": [
        {"sequence": deal.sequence, "verdict_ok": bool(deal.verdict.get("ok")) and "scores" in deal.verdict,
         "revisions": [{"kind": r.kind, "key": r.request_key} for r in deal.revisions.all()]}
        for deal in deals]})
"""


@dataclass
class Results:
    save_ms: list[float] = field(default_factory=list)
    standings_ms: dict[int, list[float]] = field(default_factory=lambda: {200: [], 304: []})
    acked: dict[str, int] = field(default_factory=dict)  # idempotency key → night
    stale: int = 0
    requests: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    abandoned: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors[what] += 1

    def saved(self, answer: Answer) -> None:
        """A save acknowledged (called under `lock`): its latency (bench/spectators.py keeps its CPU time too)."""
        self.save_ms.append(answer.ms)


def keeper(site: Site, table: dict, seconds: float, every: float, results: Results, source: str | None = None) -> None:
    """A table's list keeper: joins by the table's scorer link and saves a deal about every `every` s, for
    `seconds` from the join (which on a busy machine may itself take seconds); from the local address `source`
    when given (bench/spectators.py: each phone an address of its own)."""
    rng = random.Random(table["night"])
    phone = Phone(site.url, timeout=60, source=source)
    path = table_path(table["night"], table["number"])
    page = phone.join(table["scorer"], path)
    expected = int(page.hidden("expected") or 1)
    declared = need(declarer_choices(page, CONTRACT),
                    f"table {table['number']}: the entry form offers no declarer for {CONTRACT!r}")
    until = time.monotonic() + seconds
    next_save = time.monotonic() + rng.uniform(0, every)
    while True:
        # Not past the end: at a deal a minute, a keeper would otherwise sit out most of a minute beyond it.
        time.sleep(max(0.0, min(next_save, until) - time.monotonic()))
        if time.monotonic() >= until:
            return
        next_save += every
        points = rng.choice([n for n in range(121) if n not in (1, 119)])
        key = new_key()
        # Who declared, as the form offers it for the next deal (the dealer of four sits out).
        facts = {name: value for name, value in grand(0, points).items() if name != "declarer"}
        form = {**facts, **rng.choice(declared), "by": "list keeper", "key": key, "expected": expected}
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
                time.sleep(0.5)
                continue
            if answer.saved():
                declared = need(declarer_choices(answer, CONTRACT),
                                f"table {table['number']}: the form after a save offers no declarer for {CONTRACT!r}")
                with results.lock:
                    results.acked[key] = table["night"]
                    results.saved(answer)
                expected += 1
                break
            if answer.status == 200 and ENTERED_MEANWHILE in answer.body:  # one keeper a table: unexpected
                with results.lock:
                    results.stale += 1
                expected = int(answer.hidden("expected") or expected)
                break
            refusal = re.search(r'class="errors[^"]*"[^>]*><p>([^<]{1,200})', answer.body)
            results.error(f"save: {answer.status} {refusal.group(1).strip() if refusal else answer.body[:80]!r}")
            if time.monotonic() > give_up:
                return
            time.sleep(0.5)


def declarer_choices(page: Answer, contract: str) -> list[dict[str, str]]:
    """The ways the page's entry form offers to say who declared `contract` in the next deal (those who are
    not sitting out), each as the fields it sends: a tap of the grid of players and games, whose value is the
    game and the declarer's table position (``grand@2``, `scorekeep.nights.entry.declared_apart`), or, where the form
    asks them apart, the game with one of the declarer's choices. Read from what the form may send, not from
    its markup; empty when it offers neither."""
    games = page.offered("contract")
    taps = [value for value in games if IN_GRID in value and value.partition(IN_GRID)[0] == contract]
    if taps:
        return [{"contract": value} for value in taps]
    if contract not in games:
        return []
    return [{"contract": contract, "declarer": seat} for seat in page.offered("declarer") if seat != ""]


def viewer(site: Site, path: str, until: float, poll: float, arrive: float, seed: int, results: Results) -> None:
    """A phone or screen on the standings: opens the page at a random moment within `arrive` seconds, then
    polls it with If-None-Match."""
    phone = Phone(site.url, timeout=60)
    etag = ""
    next_poll = time.monotonic() + random.Random(seed).uniform(0, arrive)
    while True:
        time.sleep(max(0.0, next_poll - time.monotonic()))
        if time.monotonic() >= until:
            return
        next_poll += poll
        with results.lock:
            results.requests += 1
        try:
            answer = phone.request("GET", path, headers={**HTMX_POLL, "If-None-Match": etag} if etag else {})
        except OSError as err:
            results.error(f"standings: no answer ({type(err).__name__})")
            continue
        if answer.status not in (200, 304):
            results.error(f"standings: {answer.status} {answer.body.strip()[:80]!r}")
            continue
        etag = answer.headers.get("ETag", etag)
        with results.lock:
            results.standings_ms[answer.status].append(answer.ms)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=600)
    parser.add_argument("--game", default="skat")
    parser.add_argument("--preset", default="isko")
    parser.add_argument("--length", type=int, default=48, help="deals of a series at a table of four")
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--every", type=float, default=5.0, help="seconds between a table's deals")
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--poll", type=float, default=10.0, help="seconds between a viewer's polls")
    parser.add_argument("--arrive", type=float, default=60.0,
                        help="seconds over which the viewers open the standings (each at a random moment)")
    parser.add_argument("--quiet", type=float, default=30.0,
                        help="seconds the viewers keep polling after the last deal (the standings unchanged: 304s)")
    parser.add_argument("--path", default="/standings/{token}/", help="the standings page polled")
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker")
    parser.add_argument("--database-url", default=None, help="a PostgreSQL server to make the database on")
    args = parse(parser, tiny={"players": 8, "seconds": 2.0, "every": 0.5, "viewers": 2, "poll": 0.5, "arrive": 0.2,
                               "quiet": 0.5, "workers": 1, "threads": 2})

    directory = Path(tempfile.mkdtemp(prefix="scorekeep-tournament-"))
    database = temp_database(directory, args.database_url)
    site = Site(database, directory, workers=args.workers, threads=args.threads)
    try:
        site.migrate()
        started = time.monotonic()
        setup = site.django(SETUP, game=args.game, preset=args.preset, length=args.length, players=args.players)
        setup_s = time.monotonic() - started
        site.start()
        tables = setup["tables"]
        path = args.path.format(token=setup["viewer"])
        results = Results()
        until = time.monotonic() + args.seconds
        workers = Workers()
        for table in tables:
            workers.add(keeper, site, table, args.seconds, args.every, results)
        for n in range(args.viewers):
            workers.add(viewer, site, path, until + args.quiet, args.poll, args.arrive, n, results)
        started = time.monotonic()
        workers.run()
        elapsed = time.monotonic() - started
        stored_tables = site.django(INSPECT, tournament=setup["tournament"])
        description = machine(site)
    finally:
        site.stop()
        database.drop()

    stored, lost, duplicated, unacknowledged, half_saved = read_back(stored_tables, results.acked)
    errors = sum(results.errors.values())

    print(f"machine: {description}")
    print(f"setup: {args.players} players registered and series 1 drawn into {len(tables)} tables in {setup_s:.1f} s")
    print(f"load: {len(tables)} tables saving a deal every ~{args.every:g} s, {args.viewers} viewers polling "
          f"{args.path} every {args.poll:g} s, {elapsed:.0f} s (the last {args.quiet:g} s without deals)")
    print(f"requests: {results.requests} ({results.requests / elapsed:.1f}/s)")
    print(f"errors: {errors} {dict(results.errors) if errors else ''}")
    print(f"deals acknowledged: {len(results.acked)} ({len(results.acked) / elapsed:.1f}/s), stored: {stored}")
    print(f"lost: {len(lost)}, duplicated: {duplicated}, stored without acknowledgement: {len(unacknowledged)}, "
          f"half-saved: {half_saved}, refused as stale: {results.stale}, abandoned: {len(results.abandoned)}")
    print(f"save latency p50 / p95 / p99: {percentiles(results.save_ms)}")
    for status in (200, 304):
        print(f"standings {status} ({len(results.standings_ms[status])}) p50 / p95 / p99: "
              f"{percentiles(results.standings_ms[status])}")
    workers.check()
    answered = sum(len(times) for times in results.standings_ms.values())
    measured(tables=len(tables), deals_acknowledged=len(results.acked), deals_stored=stored,
             **({"standings_answered": answered} if args.viewers else {}))
    check_read_back(results.errors, lost, duplicated, unacknowledged, half_saved, results.abandoned)
    return 0

if __name__ == "__main__":
    sys.exit(main())
