"""Benchmark the scoring engine: in-process per game, and through one `manage.py adjudicate` process.

    .venv/bin/python bench/adjudicate.py [--deals N] [--cli-deals N] [--seconds S] [--seed K]

Random valid deals are made by dealing a real shuffled pack into tricks, so card points and tricks
always agree; each candidate goes through the engine once and only accepted ones are kept (a
benchmark of valid deals). Run by hand, never by the test suite; results go to docs/PERFORMANCE.md.
Targets: issue 12, >= 100,000 deals/s in process (`adjudicate`) for each game, and the command line at
least as fast as its floor (bench/plain_scorer.py: the same answers with nothing around the engine);
issue 2, 100,000 deals through the command line in under 10 s on the 2-core machine.
"""

import argparse
import json
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._check import measured, need, parse  # noqa: E402
from scorekeep.rules import GAMES, adjudicate, judge, skat  # noqa: E402
from scorekeep.rules.verdict import Table  # noqa: E402

SKAT_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
SKAT_PACK = [s + r for s in "CSHD" for r in SKAT_POINTS]
KOP_POINTS = {"A": 11, "10": 10, "Q": 3, "J": 2}
KOP_PACK = [s + r for s in "CSHD" for r in KOP_POINTS]


def deal_tricks(rng: random.Random, pack: list[str], points: dict[str, int], per_trick: int, takers: list[int],
                seats: int, leftover: int = 0, skat_to: int | None = None) -> tuple[list[int], list[int]]:
    """Shuffle the pack, give each trick to a random taker; returns points and tricks per seat. The
    cards left over (the skat) go to `skat_to`, or with the last trick."""
    cards = pack[:]
    rng.shuffle(cards)
    pts, tricks = [0] * seats, [0] * seats
    n_tricks = (len(cards) - leftover) // per_trick
    seat = 0
    for i in range(n_tricks):
        seat = rng.choice(takers)
        tricks[seat] += 1
        pts[seat] += sum(points[c[1:]] for c in cards[i * per_trick:(i + 1) * per_trick])
    pts[seat if skat_to is None else skat_to] += sum(points[c[1:]] for c in cards[n_tricks * per_trick:])
    return pts, tricks


def skat_request(rng: random.Random) -> dict:
    preset = rng.choice(["classic", "isko"])
    players = rng.choice([3, 3, 4])
    dealer = rng.randrange(players)
    active = [s for s in range(players) if not (players == 4 and s == dealer)]
    declarer = rng.choice(active)
    kind = rng.random()
    request = {"game": "skat", "rules": {"preset": preset}, "players": players, "dealer": dealer}
    if kind < 0.08:
        pts, tricks = deal_tricks(rng, SKAT_PACK, SKAT_POINTS, 3, active, players, leftover=2)
        if preset == "isko":
            request["rules"]["passed"] = "ramsch"
        request["deal"] = {"contract": "ramsch", "points": pts, "tricks": tricks}
        return request
    if kind < 0.18:
        hand, ouvert = rng.random() < 0.3, rng.random() < 0.2
        request["deal"] = {"contract": "null", "declarer": declarer, "bid": rng.choice([18, 20, 22, 23]),
                           "hand": hand, "ouvert": ouvert, "declarer_tricks": rng.choice([0, 0, 0, 1, 2])}
        return request
    contract = rng.choice(["clubs", "spades", "hearts", "diamonds", "grand"])
    # The declarer (side 0) against the defence (side 1); the skat counts for the declarer.
    pts, tricks = deal_tricks(rng, SKAT_PACK, SKAT_POINTS, 3, [0, 0, 1], 2, leftover=2, skat_to=0)
    cards = SKAT_PACK[:]
    rng.shuffle(cards)
    hand = rng.random() < 0.25
    top = 4 if contract == "grand" else 11
    deal = {"contract": contract, "declarer": declarer,
            "bid": rng.choice([b for b in sorted(skat.BID_VALUES) if b <= 72]),
            "hand": hand, "card_points": pts[0], "declarer_tricks": tricks[0]}
    if rng.random() < 0.3:
        deal["cards"] = cards[:12]
    else:
        deal["matadors"] = rng.randint(1, min(top, 4)) * rng.choice([1, -1])
    if hand and rng.random() < 0.15:
        deal["announced"] = "schneider"
    if preset == "classic" and rng.random() < 0.1:
        deal["kontra"] = True
    request["deal"] = deal
    return request


def schafkopf_request(rng: random.Random) -> dict:
    preset = rng.choice(["classic", "bsv", "sauspiel"])
    request = {"game": "schafkopf", "rules": {"preset": preset}, "players": 4}
    declarer = rng.randrange(4)
    kind = rng.random()
    if kind < 0.08 and preset != "classic":
        pts, tricks = deal_tricks(rng, SKAT_PACK, SKAT_POINTS, 4, [0, 1, 2, 3], 4)
        request["deal"] = {"contract": "ramsch", "points": pts, "tricks": tricks}
        return request
    side = [declarer]
    if kind < 0.7:
        contract = "sauspiel"
        partner = rng.choice([s for s in range(4) if s != declarer])
        side.append(partner)
    else:
        contract = rng.choice(["wenz", "solo", "solo"])
        partner = None
    takers = [0] * len(side) + [1] * (4 - len(side))
    pts, tricks = deal_tricks(rng, SKAT_PACK, SKAT_POINTS, 4, takers, 2)
    deal = {"contract": contract, "declarer": declarer, "card_points": pts[0], "declarer_tricks": tricks[0],
            "laufende": rng.choice([0, 0, 1, 2, 3, 4])}
    if partner is not None:
        deal["partner"] = partner
    if contract == "solo":
        deal["trump"] = rng.choice("CSHD")
    if rng.random() < 0.2:
        deal["doublings"] = 1
    if preset != "classic" and rng.random() < 0.2:
        deal["klopfer"] = rng.randint(1, 2)
    request["deal"] = deal
    return request


def kop_request(rng: random.Random) -> dict:
    preset = rng.choice(["classic", "wolsztyn", "koscian"])
    contract = rng.choice(["normal", "normal", "normal", "wesele", "cicha", "zolo", "zolo_du"])
    seats = list(range(4))
    rng.shuffle(seats)
    old = sorted(seats[:2]) if contract in ("normal", "wesele") else [seats[0]]
    takers = [0] * len(old) + [1] * (4 - len(old))
    pts, tricks = deal_tricks(rng, KOP_PACK, KOP_POINTS, 4, takers, 2)
    doublings: list[int] = []
    young = [s for s in range(4) if s not in old]
    for i in range(rng.choice([0, 0, 1, 2])):
        doublings.append(rng.choice(young) if i % 2 == 0 else old[0])
    deal = {"contract": contract, "old": old, "card_points": pts[0], "old_tricks": tricks[0],
            "doublings": doublings}
    return {"game": "kop", "rules": {"preset": preset}, "players": 4, "dealer": 3, "deal": deal}


def fipsen_request(rng: random.Random) -> dict:
    players = rng.choice([3, 4])
    declarer = rng.randrange(players)
    kind = rng.random()
    if kind < 0.1:
        deal = {"contract": "kieker", "declarer": declarer, "ruten": rng.random() < 0.3}
        if rng.random() < 0.3:
            deal["surrendered"] = True
        else:
            deal["tricks_taken"] = rng.randint(3, 5)
    elif kind < 0.13:
        deal = {"contract": "siebener_fips", "declarer": declarer}
    else:
        bid = rng.randint(2, 5)
        deal = {"contract": "tricks", "declarer": declarer, "bid": bid, "hand": rng.random() < 0.3,
                "ruten": rng.random() < 0.2, "durch": rng.random() < 0.1, "tricks_taken": rng.randint(0, 5)}
    return {"game": "fipsen", "rules": {"preset": "classic"}, "players": players, "dealer": players - 1,
            "deal": deal}


MAKERS = {"skat": skat_request, "schafkopf": schafkopf_request, "kop": kop_request, "fipsen": fipsen_request}


def valid_requests(game: str, n: int, rng: random.Random) -> list[dict]:
    made: list[dict] = []
    refused = 0
    while len(made) < n:
        request = MAKERS[game](rng)
        if adjudicate(request)["ok"]:
            made.append(request)
        else:
            refused += 1
            if refused > 10 * n:
                raise SystemExit(f"{game}: the generator makes too many refused deals: "
                                 f"{adjudicate(request)['errors']}")
    return made


def per_cpu_second(run: Callable[[], int], seconds: float) -> float:
    """Calls per CPU-second of `run` (which returns how many deals it did), best of three runs.

    CPU time, not wall time: the work is single-threaded and CPU-bound, and CPU time stays fair when
    other work shares the 2 cores (the wall-clock rate is the same on an idle machine).
    """
    best = 0.0
    for _ in range(3):
        count, start = 0, time.process_time()
        while (elapsed := time.process_time() - start) < seconds:
            count += run()
        need(count, f"no deal timed in {seconds:g} CPU seconds")
        best = max(best, count / elapsed)
    return best


def in_process(game: str, requests: list[dict], seconds: float) -> dict[str, float]:
    """Deals per CPU-second at three depths: `adjudicate` (request dict in, the contract's JSON-ready
    verdict out: what the API and command line do per deal), `judge` (the same without turning the
    verdict into JSON: what the web pages do) and `score` (the rules alone, on deals already read)."""
    module = GAMES[game]
    parsed = []
    for request in requests:
        rules = module.parse_rules(request.get("rules"))
        players = request.get("players", module.DEFAULT_SEATS)
        table = Table(players, request.get("dealer", players - 1))
        parsed.append((module.parse_deal(request["deal"], rules, table), rules, table))

    def full() -> int:
        for request in requests:
            adjudicate(request)
        return len(requests)

    def judged() -> int:
        for request in requests:
            judge(request)
        return len(requests)

    def scored() -> int:
        score = module.score
        for deal, rules, table in parsed:
            score(deal, rules, table)
        return len(parsed)

    return {"adjudicate": per_cpu_second(full, seconds), "judge": per_cpu_second(judged, seconds),
            "score": per_cpu_second(scored, seconds)}


def through_commands(requests: list[dict], runs: int = 3) -> dict[str, tuple[float, float, int, int]]:
    """One `manage.py adjudicate FILE` process over a file of `requests`, and the floor (bench/plain_scorer.py:
    the same answers with nothing around the engine), each `runs` times in turn: per command the best wall
    seconds, the best CPU seconds (user + system, the process's own), exit status and peak memory (KiB).
    Their outputs must be byte for byte the same."""
    commands = {"command line": [sys.executable, "manage.py", "adjudicate"],
                "floor": [sys.executable, "bench/plain_scorer.py"]}
    best: dict[str, tuple[float, float, int, int]] = {}
    outputs: dict[str, bytes] = {}
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as fh:
        for request in requests:
            fh.write(json.dumps(request) + "\n")
        path = fh.name
    try:
        for _ in range(runs):
            for name, command in commands.items():
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                proc = subprocess.run([*command, path], cwd=ROOT, stdout=subprocess.PIPE)
                elapsed = time.perf_counter() - start
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                need(proc.returncode == 0, f"{name}: {' '.join(command[1:])} exited {proc.returncode}")
                answers = proc.stdout.count(b"\n")
                need(answers == len(requests), f"{name}: {answers} answers to {len(requests)} deals")
                outputs[name] = proc.stdout
                wall, cpu_best, _, peak = best.get(name, (elapsed, cpu, 0, 0))
                # The children's peak is the largest child's so far: the command line's own after its first run.
                peak = peak or (after.ru_maxrss if name == "command line" else 0)
                best[name] = (min(wall, elapsed), min(cpu_best, cpu), proc.returncode, peak)
    finally:
        os.unlink(path)
    if outputs["command line"] != outputs["floor"]:
        raise SystemExit("the command line and the floor answered differently: the floor is no floor")
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=2000, help="distinct valid deals per game in process")
    ap.add_argument("--cli-deals", type=int, default=100_000, help="deals through the command line")
    ap.add_argument("--seconds", type=float, default=2.0, help="length of each in-process run")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--runs", type=int, default=3, help="runs of each command, the best counted")
    ap.add_argument("--no-in-process", action="store_true", help="time only the command line and its floor")
    args = parse(ap, tiny={"deals": 20, "cli_deals": 200, "seconds": 0.01, "runs": 1})
    need(args.deals > 0 and args.cli_deals > 0, "no deal to time: --deals and --cli-deals must be at least 1")
    rng = random.Random(args.seed)

    print(f"# {platform.python_implementation()} {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} cores")
    pools = {game: valid_requests(game, args.deals, rng) for game in MAKERS}
    print(f"in-process, deals per CPU-second ({args.deals:,} distinct valid deals per game; target 100,000):")
    print(f"  {'game':<10} {'adjudicate':>11} {'judge':>9} {'score':>9}")
    timed_in_process = 0
    for game, requests in pools.items():
        if args.no_in_process:
            break
        rates = in_process(game, requests, args.seconds)
        timed_in_process += len(requests)
        marks = "  ".join(f"{rates[k]:>9,.0f}{'' if rates[k] >= 100_000 else '*'}" for k in rates)
        print(f"  {game:<10} {marks}")
    print("  (* below 100,000)")

    mixed = [pools[game][i % args.deals] for i in range(args.cli_deals) for game in (list(MAKERS)[i % 4],)]
    timed = through_commands(mixed, args.runs)
    for name, (wall, cpu, status, peak) in timed.items():
        memory = f", peak memory {peak / 1024:.0f} MiB" if peak else ""
        print(f"{name:<12} {len(mixed):,} mixed deals in {wall:.2f} s wall, {cpu:.2f} s CPU = "
              f"{len(mixed) / wall:,.0f} deals/s, exit {status}{memory}")
    ratio = timed["command line"][0] / timed["floor"][0]
    print(f"command line / floor: {ratio:.2f} wall, {timed['command line'][1] / timed['floor'][1]:.2f} CPU "
          f"(target: at most 1.00)")
    measured(games=len(pools), **({} if args.no_in_process else {"deals_timed_in_process": timed_in_process}),
             deals_through_the_command_line=len(mixed))


if __name__ == "__main__":
    main()
