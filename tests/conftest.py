"""Fixtures shared by the tests: the repository, the real command line, and sample requests."""

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent

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
