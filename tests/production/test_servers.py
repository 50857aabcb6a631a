"""Several app servers (issue 32), as README's "Several app servers" has it: two gunicorn servers on one database
and one Redis (the shared cache), behind haproxy terminating HTTPS and sending the requests round the servers.

One pair for the module (started once: CI's time). First a phone's evening through either server — its session,
deals saved, the offline outbox sending what was typed offline (one form twice: stored once), a correction, the
printout rendered once for both. Then the faults, under load: six phones saving at three tables and a screen
polling a tournament's standings, one server killed (kill -9) and started again later, then Redis stopped and
started again; a phone that got no answer, or the balancer's 502/503, sends the same form again with the same
idempotency key (as the outbox does). Afterwards no deal is lost, none doubled, every phone's last save was
answered, and the site answered throughout Redis's absence.
"""

from __future__ import annotations

import html
import os
import re
import secrets
import shutil
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.live_site import (
    NAMES,
    SETUP,
    Answer,
    Balancer,
    Database,
    Phone,
    Site,
    assert_whole,
    grand,
    new_key,
    table_path,
    temp_database,
)
from tests.production.conftest import SERVER_ERROR
from tests.redis_server import RedisServer, need_redis
from tests.web.test_crash import Tally, scorer

pytestmark = [pytest.mark.production, pytest.mark.database]

HTMX = {"HX-Request": "true", "HX-Target": "table-region"}  # as the page's script (and its outbox) saves
POLL = {"HX-Request": "true", "HX-Target": "live-standings"}
GIVE_UP = 30.0  # seconds a phone keeps resending one form while no server answers it
TABLES = 3

TOURNAMENT = """
from scorekeep.nights import writes as nights
from tests.tournament_fixtures import draw, tournament
tour = tournament("skat", "isko", players=3, series=1)
(table,) = draw(tour, 1, [[1, 2, 3]])
nights.enter_deal(table, {"contract": "grand", "declarer": 0, "bid": 18, "matadors": 1, "card_points": 70})
OUT = {"standings": tour.viewer_token}
"""


@dataclass
class Pair:
    sites: list[Site]
    balancer: Balancer
    redis: RedisServer
    database: Database

    def phone(self, timeout: float = 30) -> Phone:
        return Phone(self.balancer.url, timeout=timeout, cafile=self.balancer.cert)

    def keys_in_redis(self) -> int:
        import redis

        client = redis.Redis.from_url(self.redis.url)
        try:
            return int(client.dbsize())
        finally:
            client.close()


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    if not (shutil.which("haproxy") or Path("/usr/sbin/haproxy").exists()):
        reason = "the several-servers pass needs haproxy (apt-get install haproxy)"
        if os.environ.get("CI"):
            pytest.fail(reason + "; CI is set, so this is a failure, not a skip")
        pytest.skip(reason)
    need_redis()
    directory = tmp_path_factory.mktemp("servers")
    database = temp_database(directory)
    redis = RedisServer(directory)
    # What the servers share besides the database: the secret key, the static files, the cache. A short window
    # for the standings board, so that the faults' few seconds see it computed again (and the balancer's cache
    # keeps a board for what is left of it: whole seconds).
    shared = {"SCOREKEEP_SECRET_KEY": secrets.token_urlsafe(50), "SCOREKEEP_STATIC_ROOT": str(directory / "static"),
              "SCOREKEEP_REDIS_URL": redis.url, "SCOREKEEP_STANDINGS_FRESH": "3"}
    sites = []
    for n in (1, 2):
        (directory / f"app{n}").mkdir()
        sites.append(Site(database, directory / f"app{n}", workers=1, threads=4, production=True,
                          settings=dict(shared)))
    balancer = Balancer(sites, directory / "haproxy")
    try:
        redis.start()
        sites[0].migrate()  # one database: migrated once, the static files collected once
        sites[0].collectstatic()
        for site in sites:
            site.start()
        balancer.start()
        yield Pair(sites, balancer, redis, database)
    finally:
        balancer.stop()
        for site in sites:
            site.stop()
        redis.stop()
        database.drop()


@pytest.fixture(autouse=True)
def _no_server_error(pair: Pair) -> Iterator[None]:
    """Whatever a test checks, neither server may have logged an error or a traceback while it ran."""
    before = [len(site.log) for site in pair.sites]
    yield
    for site, start in zip(pair.sites, before, strict=True):
        logged = site.log[start:]
        assert not SERVER_ERROR.search(logged), logged[-4000:]


def header(answer: Answer, name: str) -> str:
    """A header of the answer whatever its case (haproxy sends the names in lower case)."""
    return next((value for key, value in answer.headers.items() if key.lower() == name.lower()), "")


def fetched(phone: Phone, path: str) -> tuple[int, str, bytes]:
    """GET `path` with the phone's cookies, the body as bytes (a PDF): status, server, body."""
    connection = phone.connection()
    try:
        connection.request("GET", path, headers={"Cookie": "; ".join(f"{k}={v}" for k, v in phone.cookies.items())})
        response = connection.getresponse()
        return response.status, response.headers.get("X-Served-By", ""), response.read()
    finally:
        connection.close()


def test_a_phone_s_evening_through_either_server(pair: Pair) -> None:
    night = pair.sites[0].night(tables=1)
    path = table_path(int(night["night"]))
    phone = pair.phone()
    page = phone.join(str(night["scorer"]), path)  # the session made on one server …
    served_by = Counter([header(page, "X-Served-By")])
    expected = int(page.hidden("expected") or 1)

    def save(form: dict[str, Any]) -> str:
        answer = phone.request("POST", path + "deals/new/", form, headers=HTMX)  # … known to both
        served_by[header(answer, "X-Served-By")] += 1
        return answer.saved()

    acked = []
    for n in range(4):
        form = {**grand(n), "by": "Anna", "key": new_key(), "expected": expected}
        assert save(form) == "new"
        acked.append(form["key"])
        expected += 1
    # The outbox: three deals typed while offline, sent in order once the network is back; the last one's
    # answer was lost on the way, so the outbox sends it again — through whichever server: stored once.
    outbox = [{**grand(n, 80), "by": "Bernd", "key": new_key(), "expected": expected + n} for n in range(3)]
    assert [save(form) for form in outbox] == ["new"] * 3
    assert save(outbox[-1]) == "replayed"
    acked += [form["key"] for form in outbox]
    # A correction of deal 1, typed on its page, saved through one server and seen through the other.
    deal_page = phone.request("GET", path + "deals/1/")
    assert deal_page.status == 200
    corrected = phone.request("POST", path + "deals/1/", {**grand(0, 50), "by": "Anna", "reason": "miscounted",
                                                          "key": new_key(), "version": deal_page.hidden("version")})
    assert corrected.status == 303, corrected.body[:2000]
    pages = [phone.request("GET", path + "deals/1/") for _ in range(2)]
    assert {header(answer, "X-Served-By") for answer in pages} == {"app1", "app2"}
    assert all("miscounted" in answer.body for answer in pages)
    # The printout: the PDF asked through both servers is the same file, rendered once (it carries the moment
    # Chromium made it), kept in Redis for both.
    pdfs = [fetched(phone, f"/nights/{night['night']}/print.pdf") for _ in range(2)]
    assert [status for status, _, _ in pdfs] == [200, 200] and pdfs[0][2].startswith(b"%PDF")
    assert {server for _, server, _ in pdfs} == {"app1", "app2"} and pdfs[0][2] == pdfs[1][2]
    assert pair.keys_in_redis() > 0
    assert set(served_by) == {"app1", "app2"}, served_by

    (table,) = pair.sites[0].inspect(int(night["night"]))
    created = Counter(revision["key"] for deal in table["deals"] for revision in deal["revisions"]
                      if revision["kind"] == "created")
    assert set(created) == set(acked) and max(created.values()) == 1
    assert table["deals"][0]["facts"]["card_points"] == 50
    assert_whole(table)


@dataclass
class Screen:
    """A big screen polling a tournament's standings through the balancer: what it got, by phase."""

    answers: Counter[tuple[str, int]]
    phase: str = "start"


BOARD_URL = re.compile(r'id="live-standings"[^>]*hx-get="([^"]+)"', re.S)


def board_url(page: str) -> str:
    """Where a viewers' page polls its board (the section's hx-get), as the browser reads it."""
    found = BOARD_URL.search(page)
    assert found is not None, page[:500]
    return html.unescape(found.group(1))


def screen(pair: Pair, viewer: str, seen: Screen, stop: threading.Event) -> None:
    """The big screen as its browser polls: the page opened, then its board's own address (answered by the
    balancer's cache while the board is fresh) with the last ETag."""
    phone = pair.phone(timeout=10)
    opened = phone.request("GET", f"/standings/{viewer}/screen/")
    assert opened.status == 200, opened.status
    url, tag = board_url(opened.body), header(opened, "ETag")
    while not stop.is_set():
        try:
            answer = phone.request("GET", url, headers={**POLL, "If-None-Match": tag})
        except OSError:
            seen.answers[(seen.phase, 0)] += 1
        else:
            seen.answers[(seen.phase, answer.status)] += 1
            tag = header(answer, "ETag") or tag
        time.sleep(0.1)


def test_the_viewers_polls_are_answered_by_the_balancer_s_cache_while_the_board_is_fresh(pair: Pair) -> None:
    """README's recipe: haproxy's cache keeps a viewers' board for what is left of its window (the app says how
    long), and answers the polls itself: 304 to those that have it, the board to those that do not."""
    viewer = pair.sites[0].django(TOURNAMENT)["standings"]
    page = pair.phone().request("GET", f"/standings/{viewer}/")
    url = board_url(page.body)
    assert url == f"/standings/{viewer}/board/phone/en/", url
    for _attempt in range(20):  # a board the cache may keep a second at least (its window: 3 s)
        fresh = pair.phone().request("GET", url)
        if fresh.status == 200 and header(fresh, "Cache-Control") in ("public, s-maxage=2", "public, s-maxage=3"):
            break
        time.sleep(0.5)
    else:
        pytest.fail(f"no board the cache could keep: {header(fresh, 'Cache-Control')!r}")
    assert header(fresh, "X-Served-By") in ("app1", "app2") and "Player 1" in fresh.body
    tag = header(fresh, "ETag")
    # Other phones, at once: answered by the balancer, no server asked (X-Served-By names none)
    unchanged = pair.phone().request("GET", url, headers={**POLL, "If-None-Match": tag})
    assert (unchanged.status, header(unchanged, "X-Cache-Hit"), header(unchanged, "X-Served-By")) == (304, "1", "")
    new_phone = pair.phone().request("GET", url, headers=POLL)
    assert (new_phone.status, header(new_phone, "X-Cache-Hit")) == (200, "1") and new_phone.body == fresh.body
    assert header(new_phone, "ETag") == tag and "Set-Cookie" not in {key.title() for key in new_phone.headers}
    # The page itself, and the organiser's, are never kept there
    assert header(pair.phone().request("GET", f"/standings/{viewer}/"), "X-Served-By") in ("app1", "app2")
    german = pair.phone().request("GET", f"/standings/{viewer}/board/phone/de/")  # another entry, in German
    assert german.status == 200 and "Gesamtstand" in german.body and header(german, "X-Cache-Hit") == "0"


def test_one_server_killed_and_redis_stopped_mid_night_lose_no_deal(pair: Pair) -> None:
    # The night and the tournament made in one Django process (each start costs seconds on a busy machine).
    night = pair.sites[0].django(SETUP + "\nNIGHT = OUT\n" + TOURNAMENT + "\nOUT = {**NIGHT, **OUT}",
                                 tables=TABLES, game="skat", preset="isko", names=NAMES)
    viewer = night["standings"]
    tally, stop = Tally(), threading.Event()
    ready = threading.Barrier(TABLES * 2 + 1)
    phones = [threading.Thread(target=scorer, args=(pair.phone(timeout=10), night, number, name, tally, ready, stop),
                               kwargs={"resend_5xx": True})
              for number in range(1, TABLES + 1) for name in ("Anna", "Bernd")]
    seen, stop_screen = Screen(Counter()), threading.Event()
    watcher = threading.Thread(target=screen, args=(pair, viewer, seen, stop_screen))
    for thread in [*phones, watcher]:
        thread.start()
    ready.wait(timeout=60)

    def acked() -> int:
        with tally.lock:
            return len(tally.acked)

    time.sleep(1.5)
    pair.sites[1].kill()  # kill -9, master and worker, mid-request as likely as not
    seen.phase = "one server"
    before = acked()
    time.sleep(2.0)
    assert acked() > before, "nothing was saved through the server left"
    pair.sites[1].start()  # back; the balancer sends it requests again once it passes its health check
    time.sleep(1.0)
    pair.redis.stop()  # the shared cache gone: the site works without it, slower
    seen.phase = "no redis"
    before = acked()
    time.sleep(2.0)
    assert acked() > before, "nothing was saved while Redis was down"
    pair.redis.start()
    seen.phase = "redis back"
    time.sleep(3.0)  # the servers try Redis again after scorekeep.cache.RETRY_SECONDS
    stop.set()
    for thread in phones:
        thread.join(timeout=GIVE_UP + 30)
    stop_screen.set()
    watcher.join(timeout=30)
    assert not any(thread.is_alive() for thread in [*phones, watcher])
    assert not tally.errors, tally.errors  # every phone's last form was answered, none refused oddly
    print(f"{len(tally.acked)} deals saved, {tally.unanswered} requests unanswered (or 5xx), {len(tally.resent)} "
          f"forms resent, {tally.replayed} of them stored before, screen {dict(seen.answers)}")

    tables = pair.sites[0].inspect(int(night["night"]))
    created = Counter(revision["key"] for table in tables for deal in table["deals"]
                      for revision in deal["revisions"] if revision["kind"] == "created")
    assert set(created) == set(tally.acked)  # 0 lost, nothing stored that no phone was told of
    assert max(created.values()) == 1  # 0 doubled
    assert not tally.refused & set(created)
    for table in tables:
        assert_whole(table)
    # The screen: answered in every phase; without Redis and after it, never a server error nor no answer.
    for phase in ("no redis", "redis back"):
        assert seen.answers[(phase, 200)] + seen.answers[(phase, 304)] > 0, seen.answers
        assert not [key for key in seen.answers if key[0] == phase and key[1] not in (200, 304)], seen.answers
    assert pair.keys_in_redis() > 0  # the cache in use again once Redis was back
