"""Throttled attempts: log-ins and link tokens.

Failures are counted per client address (and per account name for log-ins) in Django's cache over a
sliding window; past the limit every further attempt is refused until the window has passed, right or
wrong, so guessing a password or a token costs hours, not seconds. The default cache is per process:
under gunicorn with N workers the limit is at most N times as generous (README, "Serving").
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

WINDOW = 15 * 60  # seconds


def client_address(request: HttpRequest) -> str:
    """The client's address; behind a proxy (SCOREKEEP_BEHIND_PROXY) the one the proxy appended last."""
    if getattr(settings, "SCOREKEEP_BEHIND_PROXY", False):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if forwarded:
            return forwarded.split(",")[-1].strip()
    return str(request.META.get("REMOTE_ADDR", ""))


def _key(scope: str, who: str) -> str:
    return f"throttle:{scope}:{who}"[:200]


def blocked(scope: str, *who: str, limit: int) -> int:
    """Seconds until another attempt is allowed (0: allowed now)."""
    now = time.time()
    wait = 0
    for name in who:
        stamps = [t for t in cache.get(_key(scope, name), []) if t > now - WINDOW]
        if len(stamps) >= limit:
            wait = max(wait, int(stamps[0] + WINDOW - now) + 1)
    return wait


def failed(scope: str, *who: str) -> None:
    """Count one failed attempt against each of `who`."""
    now = time.time()
    for name in who:
        key = _key(scope, name)
        stamps = [t for t in cache.get(key, []) if t > now - WINDOW]
        cache.set(key, [*stamps, now], WINDOW)


def clear(scope: str, *who: str) -> None:
    for name in who:
        cache.delete(_key(scope, name))
