"""Standings beyond a deal's scores: round placings, and who is credited with a game won or lost."""

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from . import schafkopf
from .games import GAMES


def placing(totals: Sequence[int], points: Sequence[int]) -> list[Fraction]:
    """Round placing points by total, highest first; tied players share the points of the places
    they occupy together (RULES.md: "ties share"), e.g. two tied first at 4/3/2/1 get 3½ each."""
    order = sorted(range(len(totals)), key=lambda p: -totals[p])
    padded = list(points) + [0] * max(0, len(totals) - len(points))
    out = [Fraction(0)] * len(totals)
    place = 0
    while place < len(order):
        tied = [p for p in order[place:] if totals[p] == totals[order[place]]]
        share = Fraction(sum(padded[place:place + len(tied)]), len(tied))
        for p in tied:
            out[p] = share
        place += len(tied)
    return out


def round_placing(game: str, rules: object) -> tuple[int, ...] | None:
    """The placing points of a round under `rules` (Kop's tournaments), or None where rounds are not placed."""
    return GAMES[game].round_placing(rules)


def declaring_side(game: str, facts: Mapping[str, Any]) -> list[int]:
    """The engine seats of the declaring side (empty for a passed deal or a Ramsch)."""
    return GAMES[game].declaring_side(facts)


def credited(game: str, facts: Mapping[str, Any]) -> list[int]:
    """The engine seats credited with the game won or lost: the declarer alone where he plays alone
    (Skat, Fipsen), the whole declaring side where it plays together (Schafkopf, Kop)."""
    side = declaring_side(game, facts)
    return side[:1] if GAMES[game].DECLARER_ALONE else side


def stoss_chance(game: str, rules: object, facts: Mapping[str, Any]) -> tuple[list[int], bool] | None:
    """Schafkopf: the engine seats that could say Stoß in the deal and whether it was said
    (`schafkopf.stoss_chance`); None for a deal where nobody could, and for the other games (their
    doublings — Skat's Kontra, Kop's calls — are not counted this way)."""
    if game != "schafkopf" or not isinstance(rules, schafkopf.Rules):
        return None
    return schafkopf.stoss_chance(rules, facts)
