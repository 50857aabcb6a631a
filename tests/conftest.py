"""Fixtures shared by the tests: the repository, the real command line, and sample requests; and
how the suite runs: a fast password hasher, Hypothesis without deadlines under CI, and
``--database-only`` for the second run on PostgreSQL."""

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent

# The fixtures that give a test pytest-django's database (directly or through another fixture).
DATABASE_FIXTURES = frozenset({"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback",
                               "live_server", "django_user_model", "admin_user", "admin_client"})


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--database-only", action="store_true",
        help="run only the tests whose outcome can depend on the database (CI's second run, on PostgreSQL): "
             "those on pytest-django's database and those marked `database`; the browser tests and the "
             "engine's own tests, which a database cannot change, ran on SQLite already")


def pytest_configure(config: pytest.Config) -> None:
    from django.conf import settings
    from hypothesis import settings as hypothesis

    # Production hashes passwords with PBKDF2 on purpose slowly (0.2 s a log-in); the tests create and log
    # in hundreds of accounts, and what they check of passwords does not depend on the hasher.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # A busy CI machine makes a 200 ms deadline a coin toss: under CI no example has one.
    hypothesis.register_profile("ci", deadline=None, print_blob=True)
    if os.environ.get("CI"):
        hypothesis.load_profile("ci")


def uses_database(item: pytest.Item) -> bool:
    """Whether the database can change the test's outcome: pytest-django's database, or a database of
    its own (the gunicorn tests, marked ``database``)."""
    if item.get_closest_marker("database") or item.get_closest_marker("django_db"):
        return True
    return bool(DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("--database-only"):
        return
    keep, skip = [], []
    for item in items:
        (keep if uses_database(item) and not item.get_closest_marker("browser") else skip).append(item)
    items[:] = keep
    config.hook.pytest_deselected(items=skip)

Run = Callable[..., subprocess.CompletedProcess[bytes]]


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
def _fresh_throttles() -> Any:
    """The throttles count in the cache, which outlives a test: every test starts with none counted."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def host(django_user_model: Any) -> Any:
    """The site owner, who may do everything with every night (scorekeep.access: HOST)."""
    return django_user_model.objects.create_superuser("host", "host@example.org", "host-password-1")


@pytest.fixture
def client(client: Any, host: Any) -> Any:
    """pytest-django's client, logged in as the site owner: the tests of pages and forms act as the host.
    The authorization tests use their own clients (a stranger, a viewer, a scorer)."""
    client.force_login(host)
    return client
