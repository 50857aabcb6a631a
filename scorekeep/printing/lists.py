"""The printed lists of a card night: each game's paper list as the engine describes it (`PAPER` and
`paper_row` of each game module, `rules.sheet.Layout`), laid out for A4 by its layout's template
(`templates/printing/<layout>.html`, `static/css/print.css`).

A ticked list (Skat's club list): base value, matadors, a vertical tick per level, the value won or lost,
every player's running total and the footer of won and lost games with their Seeger-Fabian points; plus
and minus (Schafkopf's) per player with the sums that agree; rounds (Kop's): small points with the round
placings; a score sheet (Fipsen's): running scores and the value of the hand. Every number comes from the
stored verdicts through `ledger.build`; this module only arranges them in the list's columns and adds the
footer lines a club writes under them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext

from scorekeep.models import CardNight, CardTable
from scorekeep.nights.ledger import Ledger, Row
from scorekeep.nights.record import Note, Record
from scorekeep.rules import GAMES
from scorekeep.rules.explain import in_words
from scorekeep.rules.sheet import Layout, PaperRow
from scorekeep.words.labels import page_words

# The style sheet the printed page links and the PDF carries inline (Chromium renders it from a
# file with no server behind it).
PRINT_CSS = "css/print.css"

# --- TICKED: the club list with a vertical tick per level and the Seeger-Fabian evaluation ---------

@dataclass(slots=True)
class TickedRow:
    """One line of a ticked list (Skat's club list). `totals`: each player's running total, None where he held no
    cards (the sitting dealer in his deal, players beyond the seats)."""

    number: int
    declarer: str
    game: str
    base: int | None
    matadors: int | None
    ticks: list[bool]
    multiplier: int | None  # the multiplier the value was charged at (an overbid game's, not as played)
    overbid: bool
    value: int | None
    won: int | None  # the list entry of a won game
    lost: int | None  # the list entry of a lost game (negative)
    said: list[str]
    totals: list[int | None]
    passed: bool
    bock: bool
    played: bool = False  # the cards as played are attached to the deal (docs/PLAY.md)
    marks: list[Note] = field(default_factory=list)  # the history's changes of the deal: a sign and a footnote


@dataclass(slots=True)
class TickedFooter:
    """The lines under a ticked list, per player: the list points, the games won and lost and their
    Seeger-Fabian points, and the sum a club signs."""

    list_points: list[int]
    won: list[int]
    lost: list[int]
    won_points: list[int]
    lost_points: list[int]
    others_lost: list[int]
    others_lost_points: list[int]
    others_factor: int
    final: list[int]


def _words(value: object) -> str:
    return in_words(value, page_words)


def _paper_row(book: Ledger, row: Row) -> PaperRow:
    """The engine's cells of a deal's line on its game's paper list."""
    return GAMES[book.table.night.game].paper_row(row.deal.facts, row.deal.verdict)


def ticked_rows(book: Ledger) -> list[TickedRow]:
    rows = []
    for row in book.rows:
        verdict = row.verdict
        declarer = row.declarers[0] if row.declarers else None
        entry = row.entries[declarer] if declarer is not None else None
        won = verdict.won
        paper = _paper_row(book, row)
        rows.append(TickedRow(
            number=row.number,
            declarer=book.names[declarer] if declarer is not None else "",
            game=_words(paper.game),
            base=verdict.base,
            matadors=verdict.matadors,
            ticks=list(paper.ticks),
            multiplier=verdict.charged_multiplier,
            overbid=verdict.overbid,
            value=None if paper.passed else verdict.value,
            won=entry if won is True else None,
            lost=entry if won is False else None,
            said=[_words(word) for word in paper.marks],
            totals=[total if entry_ is not None else None for entry_, total in zip(row.entries, row.totals,
                                                                                     strict=True)],
            passed=won is None,  # nobody declared: all passed, or a Ramsch
            bock=row.deal.bock,
            played=row.deal.play is not None,
        ))
    return rows


def ticked_footer(book: Ledger) -> TickedFooter:
    """The footer's lines, summed from the verdicts' Seeger-Fabian points: the declarer's for games won
    and lost, the others' for the games another player lost — everyone dealt into the game, the sitting
    dealer of a 4-seat table included (RULES.md), not players beyond the seats."""
    n = len(book.names)
    won_points, lost_points, others_lost, others_points = [0] * n, [0] * n, [0] * n, [0] * n
    for row in book.rows:
        seeger_fabian, won = row.verdict.seeger_fabian, row.verdict.won
        if not seeger_fabian or won is None:
            continue
        declarer = row.credited[:1]
        for seat, position in enumerate(row.seats):
            if position in declarer:
                (won_points if won else lost_points)[position] += seeger_fabian[seat]
            elif seeger_fabian[seat]:
                others_lost[position] += 1
                others_points[position] += seeger_fabian[seat]
    final = [sum(parts) for parts in zip(book.totals, won_points, lost_points, others_points, strict=True)]
    others_factor = GAMES[book.table.night.game].PAPER.others_lost_points[book.table.seats]  # the engine's evaluation
    return TickedFooter(list(book.totals), list(book.won), list(book.lost), won_points, lost_points, others_lost,
                        others_points, others_factor, final)


# --- PLUS_MINUS: plus and minus per player ---------------------------------------------------------

@dataclass(slots=True)
class PlusMinusRow:
    """One game: each player's winnings (`plus`) or payment (`minus`, as a positive amount); None
    where the player did not pay or receive. `plus_sum` and `minus_sum` agree in every game."""

    number: int
    game: str
    players: str
    result: str
    solo_won: bool
    plus: list[int | None]
    minus: list[int | None]
    plus_sum: int
    minus_sum: int
    bock: bool
    played: bool = False  # the cards as played are attached to the deal (docs/PLAY.md)
    marks: list[Note] = field(default_factory=list)  # the history's changes of the deal: a sign and a footnote

    @property
    def cells(self) -> list[tuple[int | None, int | None]]:
        """(plus, minus) per player, as the list's two columns under each name."""
        return list(zip(self.plus, self.minus, strict=True))


@dataclass(slots=True)
class PlusMinusFooter:
    plus: list[int]
    minus: list[int]
    balance: list[int]
    plus_sum: int
    minus_sum: int

    @property
    def agree(self) -> bool:
        return self.plus_sum == self.minus_sum

    @property
    def cells(self) -> list[tuple[int, int]]:
        return list(zip(self.plus, self.minus, strict=True))


def _result(won: bool | None) -> str:
    return "" if won is None else gettext("won") if won else gettext("lost")


def plus_minus_rows(book: Ledger) -> list[PlusMinusRow]:
    rows = []
    for row in book.rows:
        plus = [entry if entry is not None and entry > 0 else None for entry in row.entries]
        minus = [-entry if entry is not None and entry < 0 else None for entry in row.entries]
        paper = _paper_row(book, row)
        named, won = row.named  # a Ramsch names its loser (or the one who took every trick)
        rows.append(PlusMinusRow(
            number=row.number, game=_words(paper.game),
            players=" + ".join(book.names[p] for p in named), result=_result(won),
            solo_won=paper.alone_won, plus=plus, minus=minus,
            plus_sum=sum(v for v in plus if v), minus_sum=sum(v for v in minus if v), bock=row.deal.bock,
            played=row.deal.play is not None))
    return rows


def plus_minus_footer(rows: list[PlusMinusRow], book: Ledger) -> PlusMinusFooter:
    n = len(book.names)
    plus = [sum(row.plus[p] or 0 for row in rows) for p in range(n)]
    minus = [sum(row.minus[p] or 0 for row in rows) for p in range(n)]
    return PlusMinusFooter(plus, minus, list(book.totals), sum(plus), sum(minus))


# --- ROUNDS: entries and running totals, the round placings ----------------------------------------

@dataclass(slots=True)
class RoundsRow:
    number: int
    game: str
    old: str
    result: str
    value: int
    entries: list[int | None]
    totals: list[int]
    placing: list[Fraction] | None
    placing_complete: bool
    round: int
    played: bool = False  # the cards as played are attached to the deal (docs/PLAY.md)
    marks: list[Note] = field(default_factory=list)  # the history's changes of the deal: a sign and a footnote

    @property
    def cells(self) -> list[tuple[int, int] | None]:
        """(entry, running total) per player; None for who sat the deal out."""
        return [None if entry is None else (entry, total)
                for entry, total in zip(self.entries, self.totals, strict=True)]


def rounds_rows(book: Ledger, round_length: int | None) -> list[RoundsRow]:
    rows = []
    for row in book.rows:
        verdict = row.verdict
        rows.append(RoundsRow(
            number=row.number, game=_words(_paper_row(book, row).game),
            old=" + ".join(book.names[p] for p in row.declarers),
            result=_result(verdict.won), value=verdict.value, entries=list(row.entries),
            totals=list(row.totals), placing=row.placing, placing_complete=row.placing_complete,
            round=(row.position - 1) // round_length + 1 if round_length else 1, played=row.deal.play is not None))
    return rows


# --- SCORE_SHEET: running scores and the value of the hand ------------------------------------------

@dataclass(slots=True)
class ScoreSheetRow:
    """One line of a score sheet (Fipsen's): every player's running score and the value of the hand (the
    declarer's entry), with who played what as its note."""

    number: int
    totals: list[int]
    declarer: int | None
    entry: int | None
    note: str
    passed: bool
    played: bool = False  # the cards as played are attached to the deal (docs/PLAY.md)
    marks: list[Note] = field(default_factory=list)  # the history's changes of the deal: a sign and a footnote


def _score_sheet_note(row: Row, paper: PaperRow, names: list[str]) -> str:
    verdict = row.verdict
    declarer = row.declarers[0] if row.declarers else None
    parts = [names[declarer]] if declarer is not None else []
    parts.append(_words(paper.game))
    if verdict.won is not None and paper.result:
        parts.append(_result(verdict.won))
    return " · ".join(parts)


def score_sheet_rows(book: Ledger) -> list[ScoreSheetRow]:
    rows = []
    for row in book.rows:
        declarer = row.declarers[0] if row.declarers else None
        paper = _paper_row(book, row)
        rows.append(ScoreSheetRow(row.number, list(row.totals), declarer,
                              row.entries[declarer] if declarer is not None else None,
                              _score_sheet_note(row, paper, book.names), paper.passed,
                              row.deal.play is not None))
    return rows


# --- the page ---------------------------------------------------------------------------------------

@dataclass(slots=True)
class PrintTable:
    """One table of the night as its list prints it."""

    table: CardTable
    ledger: Ledger
    rows: list[Any]
    footer: Any = None
    width: int = 0  # the list's columns, for the line that says there are no deals
    chart: str = ""  # the chart of the night at this table, an inline SVG
    # The table's record: the deleted deals as gaps among `rows`, each change marked with its footnote.
    record: Record = field(default_factory=Record)

    @property
    def names(self) -> list[str]:
        return self.ledger.names


def _ticked_list(night: CardNight, table: CardTable, book: Ledger) -> PrintTable:
    ticks = len(GAMES[night.game].PAPER.ticks)
    return PrintTable(table, book, ticked_rows(book), ticked_footer(book), width=9 + ticks + len(book.names))


def _plus_minus_list(night: CardNight, table: CardTable, book: Ledger) -> PrintTable:
    rows = plus_minus_rows(book)
    return PrintTable(table, book, rows, plus_minus_footer(rows, book), width=6 + 2 * len(book.names))


def _rounds_list(night: CardNight, table: CardTable, book: Ledger) -> PrintTable:
    return PrintTable(table, book, rounds_rows(book, night.round_length), width=5 + len(book.names))


def _score_sheet_list(night: CardNight, table: CardTable, book: Ledger) -> PrintTable:
    return PrintTable(table, book, score_sheet_rows(book), width=2 + len(book.names))


# Each layout of the engine's paper lists (`rules.sheet.Layout`), as templates/printing/<layout>.html lays it out.
LISTS: dict[Layout, Callable[[CardNight, CardTable, Ledger], PrintTable]] = {
    Layout.TICKED: _ticked_list, Layout.PLUS_MINUS: _plus_minus_list, Layout.ROUNDS: _rounds_list,
    Layout.SCORE_SHEET: _score_sheet_list}


def layout(game: str) -> Layout:
    """How `game`'s paper list is laid out (the engine's `PAPER`)."""
    return GAMES[game].PAPER.layout


def list_template(game: str) -> str:
    """The template of `game`'s printed list: its layout's."""
    return f"printing/{layout(game)}.html"


def paper_list(night: CardNight, table: CardTable, book: Ledger, record: Record | None = None) -> PrintTable:
    """A table's list as the night's game lays it out on paper (no chart); with its `record`, the deleted deals
    stand as gaps in their places and every change is marked in its row, with the footnotes under the list."""
    item = LISTS[layout(night.game)](night, table, book)
    if record is not None:
        item.record = record
        item.rows = record.merged(record.marked(item.rows))
    return item


def tick_heads(game: str) -> list[str]:
    """The heads of `game`'s vertical tick columns (Skat's levels), in the page's words."""
    return [_words(word) for word in GAMES[game].PAPER.ticks]
