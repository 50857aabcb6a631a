"""The production pass: the app served as README's "Serving in production" says — gunicorn (2 workers, threads),
SCOREKEEP_DEBUG=0, a secret key, the allowed hosts, `collectstatic` with the manifest storage, behind nginx
terminating HTTPS and passing X-Forwarded-Proto and X-Forwarded-For (SCOREKEEP_BEHIND_PROXY=1) — on PostgreSQL
when DATABASE_URL names it, else SQLite (tests/live_site.py: `Site(..., production=True)` and `Proxy`).

The tests here are marked `production` and `database`: CI runs them in its PostgreSQL pass only (.ci/run). Each
module has one server (test_servers.py: two behind haproxy, with Redis); every test checks that the server logged
no error while it ran.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.live_site import Phone, Proxy, Site, temp_database


@dataclass
class Served:
    """The site and the proxy in front of it: `url` is where phones go (https://127.0.0.1:<port>)."""

    site: Site
    proxy: Proxy

    @property
    def url(self) -> str:
        return self.proxy.url

    def phone(self) -> Phone:
        """A phone speaking HTTPS to the proxy, trusting its certificate."""
        return Phone(self.proxy.url, cafile=self.proxy.cert)

    def forget_attempts(self) -> None:
        """Empty the throttles' counts: every client here comes through the proxy from 127.0.0.1, one address.
        Straight in the database (scorekeep.models.Attempt's table): a Django process would take seconds."""
        url = self.site.database.url
        if self.site.database.vendor == "sqlite":
            import sqlite3

            with sqlite3.connect(url.removeprefix("sqlite:///"), timeout=20) as connection:
                connection.execute("DELETE FROM scorekeep_attempt")
            connection.close()
        else:
            import psycopg

            with psycopg.connect(url, autocommit=True) as connection:
                connection.execute("DELETE FROM scorekeep_attempt")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    if not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()):
        # As the browser tests do without Chromium: `make test` installs nginx when run as root (`make browser`).
        reason = "the production pass needs nginx (apt-get install nginx, or `make browser` as root)"
        if os.environ.get("CI"):
            pytest.fail(reason + "; CI is set, so this is a failure, not a skip")
        pytest.skip(reason)
    directory = tmp_path_factory.mktemp("production")
    database = temp_database(directory)
    site = Site(database, directory, workers=2, threads=4, production=True)
    proxy = Proxy(site, directory / "proxy")
    try:
        site.migrate()
        site.collectstatic()
        site.start()
        proxy.start()
        yield Served(site, proxy)
    finally:
        proxy.stop()
        site.stop()
        database.drop()


# What Django logs for a request it answered 500 (SCOREKEEP_LOG_LEVEL=ERROR), and a traceback of any kind.
SERVER_ERROR = re.compile(r"Internal Server Error|Traceback \(most recent call last\)")


@pytest.fixture(autouse=True)
def _no_server_error(request: pytest.FixtureRequest) -> Iterator[None]:
    """Whatever a test checks, the server must not have logged an error or a traceback while it ran. (A module
    on servers of its own, tests/production/test_servers.py, checks their logs itself: no nginx started for it.)"""
    if "served" not in request.fixturenames:
        yield
        return
    served: Served = request.getfixturevalue("served")
    before = len(served.site.log)
    yield
    logged = served.site.log[before:]
    assert not SERVER_ERROR.search(logged), logged[-4000:]
