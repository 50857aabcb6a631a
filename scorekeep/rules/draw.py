"""The seating draw of a tournament's series: which entrants sit at which table.

The first series is drawn at random; a later one at random or by the standings, as the organiser sets —
by the standings, the table sizes are filled from the top (the leaders together at table 1, as Skat
tournaments seat the later series by rank). Either way the draw avoids, where it can, seating together
two players who already shared a table in an earlier series, two members of one team, and two players of
one club (weighed in that order: a repeat counts 4, a team 2, a club 1). It is a minimal-conflict search:
a start (a lot, or the standings), then swaps of two players between tables that lower the conflicts, from
several starts (until one reaches the fewest club and team pairs any draw could make), all drawn from
``random.Random(seed)`` — so the same seed and entrants give the same draw,
and the stored seed shows the draw was fair and repeats it. What no swap could avoid is returned with the
tables, so the page can say it. A draw by standings swaps players only between neighbouring tables, so
the leaders stay together.

The table sizes and who has a bye are `rules.tournament`'s (the bye goes to the players with the fewest
byes so far).
"""

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from .tournament import table_sizes

REPEAT, TEAM, CLUB = 4, 2, 1  # the weight of each kind of conflict
STARTS = 6  # the search's starts (the first is the lot or the standings themselves)


class Mode(StrEnum):
    RANDOM = "random"
    STANDINGS = "standings"


class Conflict(StrEnum):
    REPEAT = "repeat"  # the two shared a table before
    TEAM = "team"  # members of one team
    CLUB = "club"  # players of one club


@dataclass(frozen=True, slots=True)
class Seatable:
    """An entrant as the draw sees one: start number, club (a guest's home club) and team (None: none)."""

    number: int
    club: str = ""
    team: str | None = None


@dataclass(frozen=True, slots=True)
class Unavoided:
    """Two entrants the draw seated together although it would rather not: at which table and why."""

    table: int  # 1-based
    first: int  # start numbers
    second: int
    conflict: Conflict


@dataclass(frozen=True, slots=True)
class Draw:
    tables: list[list[int]]  # start numbers, each table in seating order (seat 0 deals first)
    byes: list[int]
    unavoided: list[Unavoided]

    def to_json(self) -> dict[str, object]:
        return {"tables": self.tables, "byes": self.byes,
                "unavoided": [[u.table, u.first, u.second, str(u.conflict)] for u in self.unavoided]}


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def draw(game: str, entrants: Sequence[Seatable], met: set[tuple[int, int]] | frozenset[tuple[int, int]],
         order: Sequence[int] | None, mode: Mode | str, seed: str, byes: Mapping[int, int] | None = None) -> Draw:
    """Seat `entrants` for a series of `game`.

    `met` holds the pairs of start numbers (smaller first) who already shared a table; `order` is the
    standings (start numbers, best first) for a draw by standings, None for the first series; `byes` the
    byes each had so far. Raises `IllegalDeal` (field ``entrants``) when too few are entered for one table.
    """
    rng = random.Random(seed)
    by_number = {e.number: e for e in entrants}
    sizes, bye_count = table_sizes(game, len(entrants))
    ranked = Mode(mode) == Mode.STANDINGS and order is not None
    if ranked:
        position = {number: i for i, number in enumerate(order or ())}
        start = sorted(by_number, key=lambda n: (position.get(n, len(position)), n))
    else:
        start = sorted(by_number)
        rng.shuffle(start)
    had = byes or {}
    # The bye: fewest byes so far; then the lowest ranked (by standings) or the lot's order (at random).
    rest = sorted(range(len(start)), key=lambda i: (had.get(start[i], 0), -i if ranked else i))
    out = sorted(start[i] for i in rest[:bye_count])
    seated = [n for n in start if n not in out]
    playing = [by_number[n] for n in seated]

    def weight(a: int, b: int) -> int:
        x, y = by_number[a], by_number[b]
        w = REPEAT if _pair(a, b) in met else 0
        if x.team is not None and x.team == y.team:
            w += TEAM
        if x.club and x.club == y.club:
            w += CLUB
        return w

    def split(players: list[int]) -> list[list[int]]:
        tables, at = [], 0
        for size in sizes:
            tables.append(players[at:at + size])
            at += size
        return tables

    def cost_of(table: list[int]) -> int:
        return sum(weight(a, b) for a, b in combinations(table, 2))

    floor = (TEAM * _fewest_pairs([e.team for e in playing], len(sizes))
             + CLUB * _fewest_pairs([e.club for e in playing], len(sizes)))
    best: list[list[int]] | None = None
    best_cost = -1
    for attempt in range(STARTS):
        players = list(seated)
        if attempt and not ranked:
            rng.shuffle(players)
        # Another start by standings keeps the ranked tables and only visits the swaps in another order.
        tables = _improve(split(players), cost_of, rng, neighbours_only=ranked)
        total = sum(cost_of(t) for t in tables)
        if best is None or total < best_cost:
            best, best_cost = tables, total
        if best_cost <= floor:  # no draw can do better: the rest is unavoidable
            break
    assert best is not None
    for table in best:  # the seats at a table by lot: who sits where, and who deals first
        rng.shuffle(table)
    unavoided = []
    for index, table in enumerate(best, start=1):
        for a, b in combinations(sorted(table), 2):
            if _pair(a, b) in met:
                unavoided.append(Unavoided(index, a, b, Conflict.REPEAT))
            x, y = by_number[a], by_number[b]
            if x.team is not None and x.team == y.team:
                unavoided.append(Unavoided(index, a, b, Conflict.TEAM))
            if x.club and x.club == y.club:
                unavoided.append(Unavoided(index, a, b, Conflict.CLUB))
    return Draw(best, out, unavoided)


def _improve(tables: list[list[int]], cost_of: Callable[[list[int]], int], rng: random.Random,
             neighbours_only: bool) -> list[list[int]]:
    """Swap two players of two tables while a swap lowers the conflicts (first improvement, the tables and
    seats visited in an order drawn from `rng`), until no swap does."""
    tables = [list(t) for t in tables]
    costs = [cost_of(t) for t in tables]
    pairs = [(i, j) for i in range(len(tables)) for j in range(i + 1, len(tables))
             if not neighbours_only or j == i + 1]
    improved = True
    while improved:
        improved = False
        rng.shuffle(pairs)
        for i, j in pairs:
            if costs[i] == 0 and costs[j] == 0:
                continue
            for a in rng.sample(range(len(tables[i])), len(tables[i])):
                for b in range(len(tables[j])):
                    ti, tj = list(tables[i]), list(tables[j])
                    ti[a], tj[b] = tj[b], ti[a]
                    ci, cj = cost_of(ti), cost_of(tj)
                    if ci + cj < costs[i] + costs[j]:
                        tables[i], tables[j], costs[i], costs[j] = ti, tj, ci, cj
                        improved = True
                        break
                else:
                    continue
                break
    return tables


def _fewest_pairs(groups: Sequence[str | None], tables: int) -> int:
    """The fewest pairs of one group at one table any draw can make: each group spread as evenly as it can be
    over the tables (a lower bound — the table sizes may not allow even that)."""
    counts: dict[str, int] = {}
    for group in groups:
        if group:
            counts[group] = counts.get(group, 0) + 1
    total = 0
    for count in counts.values():
        each, more = divmod(count, tables)
        total += more * (each + 1) * each // 2 + (tables - more) * each * (each - 1) // 2
    return total


def pairs_of(tables: Sequence[Sequence[int]]) -> set[tuple[int, int]]:
    """Every pair of start numbers who share a table of `tables` (smaller first)."""
    return {_pair(a, b) for table in tables for a, b in combinations(table, 2)}
