"""What a club's season ranks a game's players by.

A season adds up the players' results night by night. What one night's result is depends on the game,
and each game module says which bases a club may choose (`SEASON_BASES`, the first the default):

- **Skat**: the Seeger-Fabian points — the list points plus 50 for each won game and minus 50 for each
  lost one, plus 40 (three at the table) or 30 (four) for each game the others lost (ISkO 4.1; the
  ledger's performance) — summed over the season, or averaged per series (a list of 36 or 48 deals), as
  leagues compare players who played different numbers of series;
- **Schafkopf**: the money won or lost (the night's total in its currency), or the same tariff counted as
  points (a round played for points rather than money — the Japanese rule page keeps score in points from a
  stock each player starts with; the tariff's 10, 20, 50 are the points, whatever the night's currency);
- **Kop**: the placing points of the rounds (where the night's rule set places rounds), or the small points;
- **Fipsen**: the points on the score sheet.

The engine names what to take from a night's list (`Measure`); the list itself is the ledger's.
"""

from dataclasses import dataclass
from enum import StrEnum

from .explain import Word


class Measure(StrEnum):
    """What of a night's list a basis takes for each player."""

    TOTAL = "total"  # the running total at the end of the night (points, or cents of the night's currency)
    PERFORMANCE = "performance"  # Skat: list points plus Seeger-Fabian points
    PLACING = "placing"  # Kop: placing points of the rounds (nothing where the rule set places no rounds)


@dataclass(frozen=True, slots=True)
class Basis:
    """One way to rank a season: its key (stored with the season), its words, what it takes of each night's
    list, and whether the season averages it per series instead of adding it up."""

    key: str
    label: Word
    measure: Measure
    per_series: bool = False
    points: bool = False  # a game played for money, counted in the tariff's units as plain points
