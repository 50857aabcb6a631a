"""A deal as a game's list writes it: the columns before the players' (who declared, the game, its
value), each game's own (`SHEET`, `sheet_row`), and the game in words as the list names it
(`game_words`: "Solo (Hearts · Herz) · Stoß · 3 Laufende", "4 Hand"). Values are the engine's typed
values — `Seat`s (a page writes the player's name), `Word`s, `Phrase`s, `Listing`s, numbers — so a page
renders them in its language with `explain.in_words`.

What was declared or happened in a deal, one column each, is each game's `DECLARED` (`Declared`): Skat's
Hand, Schneider, … Kontra, Re, overbid; Schafkopf's Stoß, Laufende, …; the export (CSV) writes them.
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
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


# --- the paper list: the sheet a club prints and signs (printing/lists.py lays it out) ------------------

class Layout(StrEnum):
    """How a game's paper list is laid out; a page keys its template and styles by this, never by the game."""

    TICKED = "ticked"  # declarer, game, base, with/without, a vertical tick per level, ×, value, won, lost,
    #                    every player's running total; under it the evaluation by Seeger-Fabian points
    PLUS_MINUS = "plus-minus"  # per player a plus and a minus column; the sums of both agree in every row
    ROUNDS = "rounds"  # each player's entry and running total; the round's placing lines after each round
    SCORE_SHEET = "score-sheet"  # every player's running score, then the value of the hand with who played what


@dataclass(frozen=True, slots=True)
class PaperList:
    """A game's paper list: its layout, the heads of its vertical tick columns (`TICKED`: the levels) and
    what the evaluation gives the others for each game a declarer loses, by table size (`TICKED`), and the
    declarer for each game won and lost (Seeger-Fabian: +50 and −50; a list without that evaluation: 0)."""

    layout: Layout
    ticks: tuple[Word, ...] = ()
    others_lost_points: Mapping[int, int] = field(default_factory=dict)
    won_points: int = 0
    lost_points: int = 0


@dataclass(frozen=True, slots=True)
class PaperRow:
    """The cells a deal gives its game's paper list beyond the ledger's (names, entries, totals): the game in
    words, what was said with it (`marks`, one mark each), a tick per tick column, and flags the list shows —
    nobody declared (`passed`), a game played alone and won (`alone_won`: a mark of its own), and whether the
    result belongs in the list (`result`: a passed or thrown-in deal has none)."""

    game: object
    marks: tuple[object, ...] = ()
    ticks: tuple[bool, ...] = ()
    passed: bool = False
    alone_won: bool = False
    result: bool = True
