"""Fixtures shared by the tests: the repository, the real command line, and sample requests; and
how the suite runs: a fast password hasher, Hypothesis without deadlines under CI, and
``--database-only`` for the second run on PostgreSQL."""

import io
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

REPO = Path(__file__).resolve().parent.parent

# The fixtures that give a test pytest-django's database (directly or through another fixture).
DATABASE_FIXTURES = frozenset({"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback",
                               "live_server", "django_user_model", "admin_user", "admin_client"})


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--database-only", action="store_true",
        help="run only the tests whose outcome can depend on the database (CI's second run, on PostgreSQL): "
             "those on pytest-django's database and those marked `database` (browser tests too); the other "
             "browser tests and the engine's own tests, which a database cannot change, ran on SQLite already")
    parser.addoption(
        "--leave-to-postgresql", action="store_true",
        help="CI's first run, on SQLite: leave out the tests the second run (--database-only, on PostgreSQL) "
             "repeats, except those where SQLite's own behaviour is the point (threads or servers writing at "
             "once, a killed server: a transactional database or a server of their own). `make test` without "
             "it runs everything on SQLite")


def pytest_configure(config: pytest.Config) -> None:
    from django.conf import settings
    from hypothesis import settings as hypothesis

    # Production hashes passwords with PBKDF2 on purpose slowly (0.2 s a log-in); the tests create and log
    # in hundreds of accounts, and what they check of passwords does not depend on the hasher.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # A viewer's poll shows a change at once (production may serve the standings a few seconds behind;
    # tests/tournaments/test_standings.py checks that sharing with the setting on).
    settings.SCOREKEEP_STANDINGS_FRESH = 0
    # A request thread of the live server (pytest-django's `live_server`, a browser's keep-alive socket) closes
    # its connection when the request is done, as CONN_MAX_AGE 0 says, instead of keeping it for 60 s: kept, it
    # outlived the server and the test database could not be dropped at the end of a PostgreSQL run
    # ("database test_scorekeep_gw0 is being accessed by other users").
    for database in settings.DATABASES.values():
        database["CONN_MAX_AGE"] = 0
    # A busy CI machine makes a 200 ms deadline a coin toss: under CI no example has one.
    # A page's teardown waits for the live server's last answers (tests/in_flight.py).
    from tests.in_flight import count_requests

    count_requests()
    name_connections_after_their_test()
    hypothesis.register_profile("ci", deadline=None, print_blob=True)
    if os.environ.get("CI"):
        hypothesis.load_profile("ci")


def name_connections_after_their_test() -> None:
    """A PostgreSQL connection says which test opened it, in which thread (``application_name``, shown by
    pg_stat_activity): a session that outlives its test is then printed with its test's name at the end of
    the run (``connections_of_finished_threads_closed``), not just with its last query."""
    import threading

    from django.db.backends.signals import connection_created

    def name(sender: Any, connection: Any, **kwargs: Any) -> None:
        if connection.vendor != "postgresql":
            return
        test = os.environ.get("PYTEST_CURRENT_TEST", "no test").rsplit(" ", 1)[0].rsplit("/", 1)[-1]
        label = f"{threading.current_thread().name} {test}"[-63:]  # PostgreSQL keeps 63 bytes of the name
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('application_name', %s, false)", [label])

    connection_created.connect(name, weak=False, dispatch_uid="name_connections_after_their_test")


def uses_database(item: pytest.Item) -> bool:
    """Whether the database can change the test's outcome: pytest-django's database, or a database of
    its own (the gunicorn tests, marked ``database``)."""
    if item.get_closest_marker("database") or item.get_closest_marker("django_db"):
        return True
    return bool(DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())))


def on_postgresql_too(item: pytest.Item) -> bool:
    """Whether CI's second run, on PostgreSQL, runs the test again. A browser test runs again only when it
    serves from a database of its own (marked `database`: the offline tests, whose server is killed mid-sync);
    the others' outcome is the page's, not the database's."""
    return bool(item.get_closest_marker("database")) or (uses_database(item) and not item.get_closest_marker("browser"))


def sqlite_is_the_point(item: pytest.Item) -> bool:
    """Whether the test's outcome depends on how SQLite itself behaves: several connections writing at once (a
    transactional database, a live server, a server of its own), where SQLite locks and PostgreSQL does not."""
    marker = item.get_closest_marker("django_db")
    transactional = bool(marker and marker.kwargs.get("transaction"))
    fixtures = set(getattr(item, "fixturenames", ()))
    served = bool({"transactional_db", "live_server"} & fixtures) or bool(item.get_closest_marker("database"))
    return transactional or served


# What a test costs, roughly, in seconds of a worker: a browser test drives Chromium against a server; a test
# with a server of its own starts one; a test on the database makes rows; the engine's are quick.
COST_OF_A_TEST = {"browser": 6.0, "served": 4.0, "database": 0.3, "engine": 0.05}


def cost(item: pytest.Item) -> float:
    declared = getattr(getattr(item, "module", None), "SECONDS_A_TEST", None)  # a file that knows better
    if declared is not None:
        return float(declared)
    if item.get_closest_marker("browser") or item.get_closest_marker("production"):
        return COST_OF_A_TEST["browser"]
    if sqlite_is_the_point(item):
        return COST_OF_A_TEST["served"]
    return COST_OF_A_TEST["database" if uses_database(item) else "engine"]


def heaviest_files_first(items: list[pytest.Item]) -> None:
    """The files in the order of their expected cost, the heaviest first (pytest-xdist's `loadfile` hands
    out whole files in the order collected; the Makefile turns off its own order, by number of tests, which
    left a few long browser files to one worker at the end while the other had nothing left)."""
    weight: dict[str, float] = {}
    for item in items:
        weight[item.nodeid.split("::")[0]] = weight.get(item.nodeid.split("::")[0], 0.0) + cost(item)
    items.sort(key=lambda item: (-weight[item.nodeid.split("::")[0]], item.nodeid.split("::")[0]))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    heaviest_files_first(items)
    if config.getoption("--leave-to-postgresql"):
        # The tests in one transaction on one connection (pytest-django's `db`: the views, the forms, the
        # ledger) check the app's logic, which the ORM keeps the same on both databases; CI runs them once, on
        # PostgreSQL, the database whose stricter types found bugs SQLite let through (a NUL in text).
        keep: list[pytest.Item] = []
        skip: list[pytest.Item] = []
        for item in items:
            (skip if on_postgresql_too(item) and not sqlite_is_the_point(item) else keep).append(item)
        items[:] = keep
        config.hook.pytest_deselected(items=skip)
        return
    if not config.getoption("--database-only"):
        return
    keep, skip = [], []
    for item in items:
        (keep if on_postgresql_too(item) else skip).append(item)
    items[:] = keep
    config.hook.pytest_deselected(items=skip)

Run = Callable[..., subprocess.CompletedProcess[bytes]]


@pytest.fixture(scope="session", autouse=True)
def connections_of_finished_threads_closed(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """Before the test databases are dropped: a thread a test started (a pool of scorers saving at once) that
    has finished leaves its connection to be closed when Python collects it, which may be later than the drop
    ("database test_scorekeep_gw0 is being accessed by other users", CI's PostgreSQL pass after the package
    moves). Collecting closes those now. A session still open after that is printed with its last query, so
    the test that left it can be found, and ended, so that the drop does not fail the whole run over it.
    (Known and not yet found: one such session in the PostgreSQL pass; see the closing note of issue 27.)"""
    yield
    import gc

    from django.db import connection

    gc.collect()
    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute("SELECT pid, application_name, state, left(query, 200) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        left = cursor.fetchall()
        for pid, application, state, query in left:
            print(f"\nA connection outlived its test: pid {pid} ({application or 'no name'}, {state}): {query}")
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Any]:
    """One Playwright per test process: its sync API runs an event loop in this thread, so a second one cannot
    start beside it (the browser tests' Chromium and the production pass's share it)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture
def manage() -> Run:
    """Run ``python manage.py …`` as a user would, in a fresh process from the repository root.

    ``manage("adjudicate", "deals.jsonl", input=b"…")`` returns the finished process; the venv's
    Python is the one running the tests.
    """

    def run(*args: str, input: bytes = b"", timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([sys.executable, "manage.py", *args], cwd=REPO, input=input,
                              capture_output=True, timeout=timeout, check=False)

    return run


@pytest.fixture
def grand_with_two() -> dict[str, Any]:
    """Skat, Grand with 2, bid 48, 70 card points: won, 24 × 3 = 72 on the declarer's list."""
    return {"game": "skat", "players": 3,
            "deal": {"contract": "grand", "declarer": 0, "bid": 48, "matadors": 2, "card_points": 70}}


@pytest.fixture
def four_hand_made() -> dict[str, Any]:
    """Fipsen, 4 Hand made by seat 1 at four seats: the bid doubled once, +8."""
    return {"game": "fipsen", "rules": {"preset": "classic"}, "players": 4,
            "deal": {"contract": "tricks", "declarer": 1, "bid": 4, "hand": True, "tricks_taken": 4}}


@pytest.fixture(autouse=True)
def _fresh_cache() -> Any:
    """The cache (PDFs kept) outlives a test: every test starts with it empty. The throttles count in the
    database, rolled back with each test."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def host(django_user_model: Any) -> Any:
    """The site owner, who may do everything with every night (scorekeep.web.access: HOST)."""
    return django_user_model.objects.create_superuser("host", "host@example.org", "host-password-1")


@pytest.fixture
def client(client: Any, host: Any) -> Any:
    """pytest-django's client, logged in as the site owner: the tests of pages and forms act as the host.
    The authorization tests use their own clients (a stranger, a viewer, a scorer)."""
    client.force_login(host)
    return client


@pytest.fixture
def world(db: None, django_user_model: Any) -> Any:
    """A night of the host's with its links and deals, another host's night, and a client per role
    (tests/roles.py): the world the authorization rules are checked in."""
    from tests.roles import make_world

    return make_world(django_user_model)


# --- the demo nights, loaded once for a module -------------------------------------------------------

@pytest.fixture(scope="module")
def demo_nights(django_db_setup: None, django_db_blocker: Any) -> Iterator[tuple[dict[str, int], int]]:
    """The demo nights, loaded once for the module (the engine judges 95 deals) and removed after it:
    the ids by game and their host's id. The tests only read them."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from scorekeep.models import CardNight, Club

    with django_db_blocker.unblock():
        call_command("loaddemo", stdout=io.StringIO())
        user = get_user_model().objects.create_user("demo-host")
        CardNight.objects.update(host=user)
        Club.objects.filter(nights__isnull=False).update(owner=user)  # the demo club: the host runs it
        ids = dict(CardNight.objects.values_list("game", "pk"))
    yield ids, user.pk
    with django_db_blocker.unblock():
        clubs = list(Club.objects.filter(nights__pk__in=ids.values()).distinct())
        CardNight.objects.filter(pk__in=ids.values()).delete()
        for club in clubs:
            club.delete()  # its players with it
        user.delete()


@pytest.fixture
def demo(demo_nights: tuple[dict[str, int], int], client: Any) -> dict[str, Any]:
    """The demo nights by game, the client logged in as their host."""
    from django.contrib.auth import get_user_model

    from scorekeep.models import CardNight

    ids, host_id = demo_nights
    client.force_login(get_user_model().objects.get(pk=host_id))
    return {game: CardNight.objects.get(pk=pk) for game, pk in ids.items()}


@pytest.fixture(autouse=True)
def _language_reset() -> Iterator[None]:
    """Each test starts in the default language: a test (or a request it made) that switched this thread to
    German or Japanese must not make a later test in the same worker read Japanese."""
    yield
    translation.deactivate()
