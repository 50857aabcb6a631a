"""Throttled attempts: log-ins, sign-ups, password-reset mails and link tokens.

Attempts are counted per client address (and per account name for log-ins) over a sliding window, in
the database (`models.Attempt`), so every gunicorn worker and thread counts the same attempts. An
attempt is counted *before* the password or token is checked, under the row's lock, all or nothing:
past the limit every further attempt is refused until the window has passed, right or wrong, and any
number of attempts at the same instant get at most the limit of checks between them. One that went
well is taken back (`Counted.undo`), so only failures count against a log-in or a link.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from django.utils.translation import ngettext

from scorekeep.models import Attempt

WINDOW = 15 * 60  # seconds
PRUNE = 100  # rows past their window deleted at a time, by each attempt counted

LOGIN_LIMIT = 10  # failed log-ins per address in WINDOW (for one account or for all from there)
ACCOUNT_LIMIT = 100  # failed log-ins for one account from all addresses together in WINDOW
TOKEN_LIMIT = 20  # wrong link tokens per address in WINDOW
RESET_LIMIT = 10  # password-reset mails asked for per address in WINDOW


def wait_message(seconds: int) -> str:
    """The refusal a throttled person reads: when to try again, in whole minutes."""
    minutes = max(1, (seconds + 59) // 60)
    return ngettext("Too many attempts. Try again in %(minutes)s minute.",
                    "Too many attempts. Try again in %(minutes)s minutes.", minutes) % {"minutes": minutes}


class Throttled(Exception):
    """Too many attempts: `wait` seconds until another is allowed."""

    def __init__(self, wait: int) -> None:
        super().__init__(f"too many attempts; try again in {wait} s")
        self.wait = wait


@dataclass(frozen=True, slots=True)
class Counted:
    """One attempt, counted against each of `who` in `scope` at time `at`."""

    scope: str
    who: tuple[str, ...]
    at: float

    def undo(self) -> None:
        """The attempt went well (the right password, an existing link): it does not count."""
        with transaction.atomic():
            for row in _locked(self.scope, self.who, create=False):
                if self.at in row.made:
                    row.made.remove(self.at)
                    row.save(update_fields=["made"])


def client_address(request: HttpRequest) -> str:
    """The client's address; behind a proxy (SCOREKEEP_BEHIND_PROXY) the one the proxy appended last."""
    if getattr(settings, "SCOREKEEP_BEHIND_PROXY", False):
        forwarded: str = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if forwarded:
            return forwarded.split(",")[-1].strip()
    return str(request.META.get("REMOTE_ADDR", ""))


def count(scope: str, limits: Mapping[str, int]) -> Counted:
    """Count one attempt against each name of `limits` (an address, an account), or against none of them
    when one has had its limit of attempts within the window already: then raise `Throttled`."""
    now = time.time()
    limit_of = {_storable(who): limit for who, limit in limits.items()}
    with transaction.atomic():
        rows = _locked(scope, tuple(limit_of), create=True)
        wait = 0
        for row in rows:
            row.made = [at for at in row.made if at > now - WINDOW]
            wait = max(wait, _wait(row.made, limit_of[row.who], now))
        if wait:
            raise Throttled(wait)  # nothing counted: the transaction is rolled back
        for row in rows:
            row.made.append(now)
            row.until = now + WINDOW
            row.save(update_fields=["made", "until"])
    _prune(now)
    return Counted(scope, tuple(limit_of), now)


def waiting(scope: str, who: str, limit: int) -> int:
    """Seconds until `who` may try again in `scope` (0: not over its limit), read without counting or locking:
    for a request that needs no count but must still be refused past the limit (a page kept in the cache)."""
    made = Attempt.objects.filter(scope=scope, who=_storable(who)).values_list("made", flat=True).first() or []
    return _wait(made, limit, time.time())


def _wait(made: list[float], limit: int, now: float) -> int:
    """Seconds until one more attempt is allowed after the attempts `made` (0: now): once the oldest attempts
    beyond the limit have left the window."""
    recent = sorted(at for at in made if at > now - WINDOW)
    over = len(recent) - limit
    return int(recent[over] + WINDOW - now) + 1 if over >= 0 else 0


def _storable(who: str) -> str:
    """`who` as the database can store it: a log-in name is counted as typed, before the form checks it, and
    PostgreSQL refuses a NUL in text (a name that differs only there is counted with its look-alike)."""
    return who.replace("\x00", "\N{REPLACEMENT CHARACTER}")[:200]


def _locked(scope: str, who: tuple[str, ...], create: bool) -> list[Attempt]:
    """The rows of `who`, locked until the transaction ends (made first when `create`). PostgreSQL locks
    the rows, in the order of their names so that two attempts never wait for each other crosswise;
    SQLite's transactions take the whole database's write lock when they begin (settings.py)."""
    names = sorted(set(who))
    for _retry in range(3):
        if create:
            Attempt.objects.bulk_create([Attempt(scope=scope, who=name, until=0) for name in names],
                                        ignore_conflicts=True)
        rows = list(Attempt.objects.select_for_update().filter(scope=scope, who__in=names).order_by("who"))
        if len(rows) == len(names) or not create:
            return rows
        # A row past its window was deleted (`_prune`) between making and locking it: make it again.
    raise RuntimeError(f"throttle rows of {scope} {names} keep disappearing")


def _prune(now: float) -> None:
    """Delete rows whose attempts have all left the window, a few at a time, skipping any row another
    attempt holds locked (it is being counted again, or is deleted by another prune)."""
    with transaction.atomic():
        stale = list(Attempt.objects.select_for_update(skip_locked=True).filter(until__lt=now)
                     .values_list("pk", flat=True)[:PRUNE])
        if stale:
            Attempt.objects.filter(pk__in=stale, until__lt=now).delete()
