"""Benchmark the play check (issue 19): complete played deals checked card by card, per game, in one process.

    .venv/bin/python bench/play.py [--deals N] [--seconds S] [--seed K]

Deals are shuffled packs played out by the rule-following player of tests/played_deals.py (legal deals),
and as many again with one card broken (a revoke or another single-card break where the player held one).
Two figures per game: `adjudicate` on the whole request (reading, checking every card, deriving the
facts, scoring, the explanation; what the CLI and the API do per deal), and the check alone
(`play.read_play`: reading the tricks, who played what, the first broken rule). Target: >= 20,000
complete played deals/s per game in one process. Run by hand, never by the test suite; results go to
docs/PERFORMANCE.md.
"""

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._check import measured, need, parse  # noqa: E402
from scorekeep.rules import GAMES, _rules, adjudicate, play  # noqa: E402
from scorekeep.rules.verdict import Table  # noqa: E402
from tests.played_deals import SETUPS, play_out, request_of  # noqa: E402


def requests(game: str, n: int, seed: int, broken: bool) -> list[dict]:
    rnd = random.Random(seed)
    out = []
    while len(out) < n:
        setup = SETUPS[game](rnd)
        outcome = play_out(setup, rnd, rnd.randrange(40) if broken else None)
        if setup.stop is None and len(outcome.tricks) < setup.n_tricks:
            continue
        out.append(request_of(setup, outcome))
    return out


def rate(fn: Callable[[dict], object], reqs: list[dict], seconds: float) -> float:
    """Deals per second of this process's CPU time (the machine is shared: time other processes take is
    not ours): the best of rounds over the whole list, for about `seconds`."""
    best = 0.0
    end = time.process_time() + seconds
    while True:
        start = time.process_time()
        for req in reqs:
            fn(req)
        took = time.process_time() - start
        best = max(best, len(reqs) / need(took, "a round over the deals took no measurable CPU time"))
        if time.process_time() > end:
            return best


def check_only(game: str) -> Callable[[dict], object]:
    module = GAMES[game]

    def check(req: dict) -> object:
        players = req.get("players", module.DEFAULT_SEATS)
        table = Table(players, req.get("dealer", players - 1))
        rules = _rules(module, req.get("rules"))  # the rule set read once per table, as `judge` does
        deal = req["deal"]
        ctx = play._context(game, module, deal, rules, table)
        return play.read_play(deal["play"], ctx, table)

    return check


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=19)
    args = parse(parser, tiny={"deals": 5, "seconds": 0.01})
    need(args.deals > 0, "no deal to check: --deals must be at least 1")
    checked = 0
    print(f"Python {platform.python_version()} on {platform.machine()}; {args.deals} deals a kind and game")
    print(f"{'game':10} {'kind':8} {'adjudicate/s':>14} {'check alone/s':>14}  complete  with a break")
    for game in sorted(SETUPS):
        for broken in (False, True):
            reqs = requests(game, args.deals, args.seed, broken)
            answers = [adjudicate(r) for r in reqs]
            refused = [a for a in answers if not a["ok"]]
            need(not refused, f"{game}: the engine refused a played deal: {refused[:1]}")
            checked += len(reqs)
            complete = sum(a["play"]["complete"] for a in answers)
            breaks = sum(a["play"]["break"] is not None for a in answers)
            full = rate(adjudicate, reqs, args.seconds)
            alone = rate(check_only(game), reqs, args.seconds)
            print(f"{game:10} {'broken' if broken else 'legal':8} {full:14,.0f} {alone:14,.0f}  "
                  f"{complete:8} {breaks:12}")
    measured(games=len(SETUPS), played_deals_checked=checked)


if __name__ == "__main__":
    main()
