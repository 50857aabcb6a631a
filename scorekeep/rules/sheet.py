"""A deal as a game's list writes it: the columns before the players' (who declared, the game, its
value), each game's own (`SHEET`, `sheet_row`), and the game in words as the list names it
(`game_words`: "Solo (Hearts · Herz) · Stoß · 3 Laufende", "4 Hand"). Values are the engine's typed
values — `Seat`s (a page writes the player's name), `Word`s, `Phrase`s, `Listing`s, numbers — so a page
renders them in its language with `explain.in_words`.

What was declared or happened in a deal, one column each, is each game's `DECLARED` (`Declared`): Skat's
Hand, Schneider, … Kontra, Re, overbid; Schafkopf's Stoß, Laufende, …; the export (CSV) writes them.
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .explain import Listing, Seat, Word

NOTHING = ""
RESULT = {True: Word("won"), False: Word("lost")}


@dataclass(frozen=True, slots=True)
class Column:
    """A column of the list before the players': its header, and whether it holds an amount (money where
    the game is played for money)."""

    header: Word
    amount: bool = False


@dataclass(frozen=True, slots=True)
class Declared:
    """A column of what a deal declared or came to, beside the list's: its header, and the deal's entry
    from its facts and verdict — a flag (Hand, Kontra) or a count (Stoß, Laufende); None where the deal
    has no such thing (a passed deal's bid)."""

    header: Word
    entry: Callable[[Mapping[str, Any], Mapping[str, Any]], bool | int | None]


def result(won: object) -> object:
    """"won", "lost", or nothing (a deal nobody declared)."""
    return RESULT[won] if won is True or won is False else NOTHING


def side(seats: Iterable[object]) -> Listing:
    """Seats of one side as the list writes them: "Anna + Bernd"."""
    return Listing([Seat(seat) for seat in seats if isinstance(seat, int)], None, " + ")


def noted(items: Iterable[object]) -> Listing:
    """The game and what was said with it, as one cell: "Solo (Herz) · Stoß · 3 Laufende"."""
    return Listing([item for item in items if item != NOTHING], None, " · ")


def spaced(items: Iterable[object]) -> Listing:
    """Words side by side: "Null Hand", "4 Hand Ruten"."""
    return Listing([item for item in items if item != NOTHING], None, " ")
