"""The throttles against a live server: gunicorn with two processes of four threads, as the app is
served, on a database of its own (tests/live_site.py). Wrong passwords and link tokens sent all at once
get no more checks between them than the limit allows one address — not the limit per process (the
counts are in the database, not in each process's cache) and not more for arriving together (an attempt
is counted under the row's lock before the password or token is checked)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

import pytest

from scorekeep.web.throttle import LOGIN_LIMIT, TOKEN_LIMIT
from tests.live_site import Phone, Site, all_at_once, temp_database

pytestmark = pytest.mark.database

AT_ONCE = 48
PASSWORD = "Karo-Bube-1957"
GUESSER, HOST = "198.51.100.7", "192.0.2.1"  # the addresses the proxy names (X-Forwarded-For)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    directory = tmp_path_factory.mktemp("throttle")
    database = temp_database(directory)
    server = Site(database, directory, workers=2, threads=4, settings={"SCOREKEEP_BEHIND_PROXY": "1"})
    try:
        server.migrate()
        server.django("from django.contrib.auth.models import User\n"
                      "User.objects.create_user('hostess', password=ARGS['password'])\nOUT = None", password=PASSWORD)
        server.start()
        yield server
    finally:
        server.stop()
        database.drop()


def from_address(site: Site, address: str, path: str) -> Phone:
    """A browser behind the proxy at `address`, with the CSRF cookie of the page at `path`."""
    phone = Phone(site.url)
    assert phone.request("GET", path, headers={"X-Forwarded-For": address}).status == 200
    return phone


def test_wrong_passwords_sent_all_at_once_get_at_most_the_limit_of_checks(site: Site) -> None:
    phones = [from_address(site, GUESSER, "/accounts/login/") for _ in range(AT_ONCE)]
    wrong = {"username": "hostess", "password": "wrong"}
    answers = all_at_once([partial(phone.request, "POST", "/accounts/login/", wrong, {"X-Forwarded-For": GUESSER})
                           for phone in phones])
    statuses = sorted(answer.status for answer in answers)
    # 200: the password was checked and was wrong; 429: refused unchecked. Before the counts were in the
    # database and taken under a lock, two processes let 20 through, and the database cache 43 of 48.
    assert statuses == [200] * LOGIN_LIMIT + [429] * (AT_ONCE - LOGIN_LIMIT)
    right = {"username": "hostess", "password": PASSWORD}
    guesser = from_address(site, GUESSER, "/accounts/login/")
    assert guesser.request("POST", "/accounts/login/", right, {"X-Forwarded-For": GUESSER}).status == 429
    host = from_address(site, HOST, "/accounts/login/")  # the host, elsewhere, is not locked out
    assert host.request("POST", "/accounts/login/", right, {"X-Forwarded-For": HOST}).status == 302


def test_wrong_tokens_sent_all_at_once_get_at_most_the_limit_of_look_ups(site: Site) -> None:
    phone = Phone(site.url)
    answers = all_at_once([partial(phone.request, "GET", f"/join/guess{number:04d}/", None,
                                   {"X-Forwarded-For": "203.0.113.9"}) for number in range(AT_ONCE)])
    statuses = sorted(answer.status for answer in answers)
    assert statuses == [404] * TOKEN_LIMIT + [429] * (AT_ONCE - TOKEN_LIMIT)
