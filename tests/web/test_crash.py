"""The server killed while phones are saving deals loses no saved deal and leaves no half-saved one.

gunicorn (two workers) on a throw-away database — a SQLite file, or a temporary PostgreSQL database when
DATABASE_URL names PostgreSQL — gets deals from six phones at three tables without pause. It is killed
with SIGKILL (master and workers at once, mid-transaction as likely as not) twice and started again. A
phone that got no answer cannot know whether its deal was stored, so it sends the same form again, with
the same idempotency key, until it gets one, as the page's script does. Afterwards every deal a phone
was told is saved is stored exactly once, nothing else is stored, and every stored deal is whole.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.live_site import (
    ENTERED_MEANWHILE,
    Phone,
    Site,
    assert_whole,
    grand,
    new_key,
    table_path,
    temp_database,
)

# A server on a database of its own: PostgreSQL behaves differently from SQLite here (row locks).
pytestmark = pytest.mark.database

TABLES = 3
PHONES_PER_TABLE = 2
HTMX = {"HX-Request": "true", "HX-Target": "table-region"}  # as the page's script saves
GIVE_UP = 30.0  # seconds a phone keeps resending one form while the server is down


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    database = temp_database(tmp_path)
    server = Site(database, tmp_path, workers=2, threads=4)
    try:
        server.migrate()
        server.start()
        yield server
    finally:
        server.stop()
        database.drop()


@dataclass
class Tally:
    """What the phones were told, by idempotency key."""

    acked: dict[str, int] = field(default_factory=dict)  # key → table number
    refused: set[str] = field(default_factory=set)  # keys refused as stale: never stored
    unanswered: int = 0  # requests that got no answer (refused connection, reset, cut short)
    resent: set[str] = field(default_factory=set)  # keys sent again after getting no answer
    replayed: int = 0  # resent forms the server had stored before it was killed ("saved already")
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def scorer(phone: Phone, night: dict[str, int | str], number: int, name: str, tally: Tally,
           ready: threading.Barrier, stop: threading.Event, *, resend_5xx: bool = False) -> None:
    """A phone saving deal after deal at table `number` until `stop`; a request that got no answer is sent again
    with the same key, as the outbox does (static/js/offline.js). With `resend_5xx` a 5xx is resent too (a
    balancer with no server for it, tests/production/test_servers.py); a server's own 500 is an error."""
    path = table_path(int(night["night"]), number)
    try:
        expected = int(phone.join(str(night["scorer"]), path).hidden("expected") or 1)
    except (OSError, AssertionError) as err:
        with tally.lock:
            tally.errors.append(f"table {number}: the scorer link did not open: {err!r}")
        return
    finally:
        ready.wait()  # the server is killed only once every phone is at its table
    while not stop.is_set():
        key = new_key()
        form = {**grand(expected), "by": name, "key": key, "expected": expected}
        deadline = time.monotonic() + GIVE_UP
        while True:
            try:
                answer = phone.request("POST", path + "deals/new/", form, headers=HTMX)
                if resend_5xx and answer.status >= 500:
                    raise ConnectionError(f"{answer.status} from the balancer")
            except OSError:
                with tally.lock:
                    tally.unanswered += 1
                    tally.resent.add(key)
                if time.monotonic() > deadline:
                    with tally.lock:
                        tally.errors.append(f"table {number}: no answer for {GIVE_UP} s")
                    return
                time.sleep(0.05)
                continue
            with tally.lock:
                if answer.saved():
                    tally.acked[key] = number
                    tally.replayed += answer.saved() == "replayed"
                    expected += 1
                elif answer.status == 200 and ENTERED_MEANWHILE in answer.body:
                    tally.refused.add(key)
                    expected = int(answer.hidden("expected") or 0)
                else:
                    tally.errors.append(f"table {number}: {answer.status} {answer.body[:300]}")
                    return
            break


def test_a_killed_server_loses_no_saved_deal_and_leaves_no_half_saved_one(site: Site) -> None:
    night = site.night(tables=TABLES)
    tally, stop = Tally(), threading.Event()
    ready = threading.Barrier(TABLES * PHONES_PER_TABLE + 1)
    phones = [threading.Thread(target=scorer, args=(Phone(site.url, timeout=10), night, number, name, tally,
                                                         ready, stop))
              for number in range(1, TABLES + 1) for name in ("Anna", "Bernd")[:PHONES_PER_TABLE]]
    for phone in phones:
        phone.start()
    ready.wait(timeout=60)
    for pause in (1.5, 1.0):
        time.sleep(pause)
        site.kill()
        time.sleep(0.3)
        site.start()
    time.sleep(1.5)
    stop.set()
    for phone in phones:
        phone.join(timeout=GIVE_UP + 30)
    assert not any(phone.is_alive() for phone in phones)
    assert not tally.errors, tally.errors
    assert tally.unanswered > 0 and tally.resent  # the kills did cut requests off
    print(f"{len(tally.acked)} deals saved, {tally.unanswered} requests unanswered, {len(tally.resent)} forms "
          f"resent, {tally.replayed} of them stored before the kill, {len(tally.refused)} refused as stale")

    tables = site.inspect(int(night["night"]))
    created = Counter(revision["key"] for table in tables for deal in table["deals"]
                      for revision in deal["revisions"] if revision["kind"] == "created")
    # Every deal a phone was told is saved is stored, once; nothing else is (each resent form was
    # answered in the end, and a refused one stored nothing).
    assert set(created) == set(tally.acked)
    assert max(created.values()) == 1
    assert not tally.refused & set(created)
    for table in tables:
        assert len(table["deals"]) == sum(1 for number in tally.acked.values() if number == table["number"])
        assert_whole(table)
