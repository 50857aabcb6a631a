"""What a tournament ranks its players by, and its tie-breaks (issue 18).

Each game module names its order (`tournament_ranking(rules)`: keys of `CRITERIA`, the first what the
standings rank by, the others its tie-breaks in turn) and what counts as a "Solo" for a tie-break
(`tournament_solo`); this module holds the criteria's words and directions and ranks a list of players by
them. Players still tied after every criterion share a place unless the organiser drew a lot for them: the
lot (start numbers in the order drawn) orders them, and their places say "tie broken by lot".

A late entrant who joins in series k has played nothing in the series before: the standings after those
series do not rank them (`ranked_after`, place `UNRANKED`), so no one is placed behind a player who has not
played yet, nor a late entrant above those who lost points.

- Skat: Seeger-Fabian points, then more games won, then fewer games lost;
- Schafkopf: the list total (points or money of the tariff), then more Soli won, then fewer games lost;
- Kop: placing points, then small points, then rounds won, then second places (classic: small points);
- Fipsen: the list total, then more games won, then fewer games lost.
"""

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .explain import Word
from .games import GAMES


@dataclass(frozen=True, slots=True)
class Criterion:
    """One figure a tournament ranks by: its key (a figure of `ledger.Standing`), its words for a column
    head, and whether more is better."""

    key: str
    label: Word
    short: Word
    more_is_better: bool = True


CRITERIA: dict[str, Criterion] = {c.key: c for c in (
    Criterion("performance", Word("Seeger-Fabian points"), Word("SF points")),
    Criterion("total", Word("points"), Word("points")),
    Criterion("placing", Word("placing points"), Word("placing")),
    Criterion("won", Word("games won"), Word("won")),
    Criterion("lost", Word("games lost"), Word("lost"), more_is_better=False),
    Criterion("soli_won", Word("Soli won"), Word("Soli")),
    Criterion("round_wins", Word("rounds won"), Word("1st")),
    Criterion("second_places", Word("second places"), Word("2nd")),
)}


def criteria(game: str, rules: object) -> tuple[Criterion, ...]:
    """The tournament's order under `rules`: what it ranks by first, then each tie-break."""
    return tuple(CRITERIA[key] for key in GAMES[game].tournament_ranking(rules))


def counts_as_solo(game: str, facts: Mapping[str, Any]) -> bool:
    """Whether a deal's game counts as a Solo for the tie-break (Schafkopf: played without a partner)."""
    return GAMES[game].tournament_solo(facts)


def round_places(totals: Sequence[int]) -> list[int]:
    """Each player's place in a round by its total, highest first; tied players share the better place
    (two tied first are both first, the next is third) — a round win is a first place, shared or not."""
    return [1 + sum(other > mine for other in totals) for mine in totals]


UNRANKED = 0  # the place of a player the standings do not rank (yet)


def ranked_after(first_series: int, reached: int) -> bool:
    """Whether a player who plays from series `first_series` is ranked in the standings after series
    `reached` (0: none played yet, where everyone starting in the first series shares the first place)."""
    return first_series <= max(reached, 1)


@dataclass(frozen=True, slots=True)
class Place:
    """Where one player of the list ranks: the index in the list given, the place (shared by players tied
    on every criterion and not ordered by a lot) and whether a lot decided it."""

    index: int
    place: int
    by_lot: bool


def rank(figures: Sequence[Mapping[str, Fraction | int]], order: Sequence[Criterion],
         ids: Sequence[int] | None = None, lot: Sequence[int] = (), unranked: Collection[int] = ()) -> list[Place]:
    """Rank players by `order` (each player's figures by criterion key), best first.

    Players equal on every criterion are tied. `lot`, where the organiser drew one, is the order of the
    drawn ids (start numbers; `ids` gives each player's): tied players found in it are placed in that order,
    one place each, and marked as placed by lot; tied players the lot does not name stay tied. The ids in
    `unranked` (late entrants who have not joined yet: `ranked_after`) take no place: they follow the
    ranked players by id, with the place `UNRANKED`.
    """
    ids = list(ids) if ids is not None else list(range(len(figures)))
    drawn = {player: n for n, player in enumerate(lot)}
    left_out = set(unranked)

    keys = [tuple(-row[c.key] if c.more_is_better else row[c.key] for c in order) for row in figures]

    def key(i: int) -> tuple[Fraction | int, ...]:
        return keys[i]

    indices = sorted((i for i in range(len(figures)) if ids[i] not in left_out), key=lambda i: (keys[i], ids[i]))
    out: list[Place] = []
    start = 0
    while start < len(indices):
        end = start
        while end < len(indices) and key(indices[end]) == key(indices[start]):
            end += 1
        tied = indices[start:end]
        named = sorted((i for i in tied if ids[i] in drawn), key=lambda i: drawn[ids[i]])
        if len(tied) > 1 and len(named) == len(tied):
            out.extend(Place(i, start + 1 + n, True) for n, i in enumerate(named))
        else:
            out.extend(Place(i, start + 1, False) for i in tied)
        start = end
    out.extend(Place(i, UNRANKED, False) for i in sorted((i for i in range(len(figures)) if ids[i] in left_out),
                                                         key=lambda i: ids[i]))
    return out


def ties(places: Sequence[Place], ids: Sequence[int]) -> list[list[int]]:
    """The groups of ids still sharing a place (what a lot may be drawn for), best place first."""
    groups: dict[int, list[int]] = {}
    for p in places:
        if p.place != UNRANKED:
            groups.setdefault(p.place, []).append(ids[p.index])
    return [group for _place, group in sorted(groups.items()) if len(group) > 1]
