"""What every script under bench/ shares so that it cannot report success while measuring nothing.

A benchmark that saved no deal, got no answer, timed no round or lost a worker thread to an exception
prints figures that look like figures: zeros, or the speed of doing nothing. Each script therefore

- says what it measured as counts (`measured`: "measured: deals stored 12, requests 40", on standard error,
  so that a script whose output is data — JSON lines, hashes — keeps it clean) and fails when any is zero;
- fails through `need` when a page answered otherwise than it should, a selector found nothing or a result
  is empty, naming what was missing;
- runs its worker threads through `Workers`, which catches, counts and reports an exception in any of them
  and fails the run (an uncaught exception in a thread only prints, and the script went on to exit 0);
- takes ``--tiny`` (`parse`): its size options at their smallest, so that it runs in seconds — what
  tests/test_benches.py runs in CI, so that a page change that breaks a benchmark fails like a broken test.
  A tiny run checks that the benchmark works; its figures are not ones to publish in docs/PERFORMANCE.md.

Failing is exit status 1 with one line on standard error saying why ("bench/tournament.py: FAILED: …").
"""

from __future__ import annotations

import argparse
import sys
import threading
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

T = TypeVar("T")
FAILED = "FAILED"


def _script() -> str:
    """The benchmark's name as run (bench/load.py), for the failure line."""
    main = Path(sys.argv[0]) if sys.argv and sys.argv[0] else Path("bench")
    return f"{main.parent.name}/{main.name}" if main.parent.name else main.name


def fail(why: str) -> NoReturn:
    """Stop the benchmark: exit status 1, `why` on standard error."""
    sys.stdout.flush()
    print(f"{_script()}: {FAILED}: {why}", file=sys.stderr, flush=True)
    raise SystemExit(1)


def need(value: T, why: str) -> T:
    """`value` when it is truthy (a match found, a non-empty list, a status that was expected); otherwise
    fail with `why`."""
    if not value:
        fail(why)
    return value


def measured(**counts: int) -> None:
    """Say what the run measured, each as a count (``deals_stored=12`` reads "deals stored 12"), and fail
    when any of them is zero: a figure over nothing is no figure."""
    words = ", ".join(f"{name.replace('_', ' ')} {count}" for name, count in counts.items())
    print(f"measured: {words}", file=sys.stderr, flush=True)
    empty = [name.replace("_", " ") for name, count in counts.items() if not count]
    if not counts or empty:
        fail(f"measured nothing: {', '.join(empty) or 'no count'} 0")


def parse(parser: argparse.ArgumentParser, tiny: dict[str, Any]) -> argparse.Namespace:
    """The script's arguments, with ``--tiny`` added: `tiny` gives its options' smallest values (by their
    `dest`), used unless the option is given as well."""
    parser.add_argument("--tiny", action="store_true",
                        help="the smallest size, to check in seconds that the benchmark runs (CI); "
                             "figures not for docs/PERFORMANCE.md")
    args = parser.parse_args()
    if args.tiny:
        parser.set_defaults(**tiny)
        args = parser.parse_args()
        print("tiny run: a check that the benchmark works, not figures to publish", file=sys.stderr, flush=True)
    return args


class Workers:
    """Threads that cannot die unnoticed: an exception in one is caught and counted by its kind (the others go
    on); `check`, called after the figures are printed, fails the run when any died."""

    def __init__(self) -> None:
        self._jobs: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        self._lock = threading.Lock()
        self.died: Counter[str] = Counter()
        self.first: str = ""  # the first death's traceback

    def add(self, target: Callable[..., Any], *args: Any) -> None:
        self._jobs.append((target, args))

    def __len__(self) -> int:
        return len(self._jobs)

    def _run(self, target: Callable[..., Any], args: tuple[Any, ...]) -> None:
        try:
            target(*args)
        except BaseException as err:  # noqa: BLE001 - every death counts, SystemExit in a thread included
            with self._lock:
                self.died[f"{type(err).__name__}: {err}"[:200]] += 1
                self.first = self.first or traceback.format_exc()

    def run(self) -> None:
        """Start every thread and wait for all of them."""
        threads = [threading.Thread(target=self._run, args=job, daemon=True) for job in self._jobs]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    def check(self) -> None:
        """Fail when any thread died, with the first one's traceback and every kind of death counted."""
        if not self.died:
            return
        print(self.first, file=sys.stderr, end="")
        kinds = "; ".join(f"{what} (× {count})" for what, count in self.died.most_common())
        fail(f"{sum(self.died.values())} of {len(self._jobs)} worker threads died: {kinds}")
