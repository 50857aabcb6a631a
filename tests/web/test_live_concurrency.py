"""Saving deals at the same moment, against a live server: double taps, retries, two scorers entering the
same deal, many tables at once, and a correction typed on an old version of a deal.

The server is gunicorn — several processes with several threads each, as the app is served — on a
throw-away database of its own: a SQLite file, or, when DATABASE_URL names PostgreSQL (CI), a temporary
PostgreSQL database beside the test database. Not pytest-django's ``live_server``: on SQLite its test
database lives in memory and Django hands the server's request threads that one shared connection
(``LiveServerThread.connections_override``), so concurrent requests would interleave their
transactions on a single connection instead of contending for the database as phones do. The tests
set a night up and read it back in a separate Django process (`Site.django`), which sees the server's
database as it is on disk.

The clients are threads speaking plain HTTP (`Phone`, the standard library only): each has its own
session, opened with the night's scorer link as a phone does. The site and the phones are tests/live_site.py's,
shared with tests/web/test_crash.py and bench/load.py.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import partial

import pytest

from tests.live_site import (
    CHANGED_MEANWHILE,
    ENTERED_MEANWHILE,
    Phone,
    Site,
    all_at_once,
    assert_whole,
    grand,
    new_key,
    table_path,
    temp_database,
)

# A server on a database of its own: PostgreSQL behaves differently from SQLite here (row locks).
pytestmark = pytest.mark.database


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    directory = tmp_path_factory.mktemp("live")
    database = temp_database(directory)
    server = Site(database, directory)
    try:
        server.migrate()
        server.start()
        yield server
    finally:
        server.stop()
        database.drop()


# --- the tests -----------------------------------------------------------------------------------------

def test_one_deal_tapped_eight_times_at_once_is_stored_once(site: Site) -> None:
    """A double tap, a retried request: the same form (one idempotency key) sent eight times at the same
    moment, each one answered as saved, makes one deal."""
    night = site.night()
    path = table_path(night["night"])
    phone = Phone(site.url)
    phone.join(night["scorer"], path)
    form = {**grand(1), "by": "Anna", "key": new_key(), "expected": 1}
    answers = all_at_once([partial(phone.request, "POST", path + "deals/new/", form) for _ in range(8)])
    assert [answer.status for answer in answers] == [303] * 8
    [table] = site.inspect(night["night"])
    assert len(table["deals"]) == 1
    assert table["deals"][0]["revisions"] == [{"kind": "created", "key": form["key"]}]
    assert_whole(table)


def test_two_scorers_entering_the_same_deal_at_once_store_it_once(site: Site) -> None:
    """Two phones at one table save "the next deal" at the same moment (different keys, the same deal
    number): one is stored, the other is refused saying what was entered meanwhile — round after round."""
    night = site.night()
    path = table_path(night["night"])
    anna, bernd = Phone(site.url), Phone(site.url)
    anna.join(night["scorer"], path)
    bernd.join(night["scorer"], path)
    rounds = 5
    for number in range(1, rounds + 1):
        answers = all_at_once([
            partial(phone.request, "POST", path + "deals/new/", {**grand(number, 61 + number), "by": name,
                                                                 "key": new_key(), "expected": number})
            for phone, name in ((anna, "Anna"), (bernd, "Bernd"))])
        assert sorted(answer.status for answer in answers) == [200, 303], [a.body[:300] for a in answers]
        refused = next(answer for answer in answers if answer.status == 200)
        assert f"Deal {number} {ENTERED_MEANWHILE}" in refused.body
        assert refused.hidden("expected") == str(number + 1)  # the form is for the next deal now
    [table] = site.inspect(night["night"])
    assert len(table["deals"]) == rounds
    assert_whole(table)


def test_many_scorers_at_many_tables_lose_and_duplicate_nothing(site: Site) -> None:
    """Six tables, two phones each, all saving deals as fast as they can: every deal a phone was told is
    saved is stored exactly once, and each table's deals are numbered 1 … n without a gap."""
    tables, per_phone = 6, 6
    night = site.night(tables=tables)
    acked: dict[int, list[str]] = {number: [] for number in range(1, tables + 1)}
    refusals = []
    lock = threading.Lock()

    def scorer(number: int, name: str) -> None:
        phone = Phone(site.url)
        path = table_path(night["night"], number)
        page = phone.join(night["scorer"], path)
        expected = int(page.hidden("expected") or 1)
        saved = 0
        while saved < per_phone:
            key = new_key()
            answer = phone.request("POST", path + "deals/new/", {**grand(saved), "by": name, "key": key,
                                                                  "expected": expected})
            if answer.status == 303:
                with lock:
                    acked[number].append(key)
                saved += 1
                expected += 1
            else:  # the other phone saved first: its form is now for the next deal
                assert answer.status == 200 and ENTERED_MEANWHILE in answer.body, answer.body[:500]
                with lock:
                    refusals.append(number)
                expected = int(answer.hidden("expected") or 0)

    jobs = [partial(scorer, n, name) for n in range(1, tables + 1) for name in ("Anna", "Bernd")]
    for result in all_at_once(jobs):
        assert not isinstance(result, Exception), repr(result)
    for table in site.inspect(night["night"]):
        keys = [revision["key"] for deal in table["deals"] for revision in deal["revisions"]]
        assert sorted(keys) == sorted(acked[table["number"]])
        assert len(table["deals"]) == 2 * per_phone
        assert_whole(table)


def test_a_correction_typed_on_an_old_version_is_refused_naming_the_change(site: Site) -> None:
    """Two phones correct deal 1 at the same moment, both from version 1: one correction is stored, the
    other is refused with what the first changed (card points 70 → …), and nothing of it is stored."""
    night = site.night()
    path = table_path(night["night"])
    anna, bernd = Phone(site.url), Phone(site.url)
    anna.join(night["scorer"], path)
    bernd.join(night["scorer"], path)
    assert anna.request("POST", path + "deals/new/", {**grand(1), "by": "Anna", "key": new_key(),
                                                      "expected": 1}).status == 303
    deal_path = path + "deals/1/"
    versions = [phone.request("GET", deal_path).hidden("version") for phone in (anna, bernd)]
    assert versions == ["1", "1"]
    corrections = {"Anna": 80, "Bernd": 50}
    answers = all_at_once([
        partial(phone.request, "POST", deal_path, {**grand(1, corrections[name]), "by": name, "reason": "recount",
                                                   "key": new_key(), "version": 1})
        for phone, name in ((anna, "Anna"), (bernd, "Bernd"))])
    assert sorted(answer.status for answer in answers) == [200, 303]
    winner = "Anna" if answers[0].status == 303 else "Bernd"
    refused = answers[1] if winner == "Anna" else answers[0]
    assert CHANGED_MEANWHILE in refused.body and f" by {winner}" in refused.body
    assert f"70 → {corrections[winner]}" in refused.body
    assert refused.hidden("version") == "2"  # the form now corrects the deal as it is
    [table] = site.inspect(night["night"])
    [deal] = table["deals"]
    assert deal["facts"]["card_points"] == corrections[winner]
    assert deal["version"] == 2
    assert [r["kind"] for r in deal["revisions"]] == ["created", "changed"]
    assert_whole(table)
