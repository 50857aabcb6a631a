"""The table pages' presenters: the ledger sheet, the standings strip and the latest deals.

Nothing here scores: every number comes from the engine's stored verdicts (`scorekeep.nights.ledger`);
these functions only decide how a number or a game word is written, and which columns each
game's score sheet has.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext

from scorekeep.models import CardNight
from scorekeep.nights import ledger
from scorekeep.nights.ledger import Ledger, Row
from scorekeep.nights.record import Gap, Note, Record
from scorekeep.rules import GAMES, bock
from scorekeep.rules.explain import in_words
from scorekeep.words.labels import page_words, translated
from scorekeep.words.numbers import amount, placing, signed, signed_amount

# --- the score sheet ---------------------------------------------------------------------------

@dataclass(slots=True)
class Cell:
    """One player's cell in a deal's row: the entry and the running total (empty: not in the deal)."""

    entry: str = ""
    total: str = ""
    played: bool = True
    negative: bool = False


@dataclass(slots=True)
class SheetRow:
    number: int
    url: str
    bock: bool
    bock_started: list[str]
    info: list[str]
    cells: list[Cell]
    row_sum: str | None = None
    placing: list[str] | None = None
    placing_label: str = ""
    marks: list[Note] = field(default_factory=list)  # the history's changes of the deal (`record.Note`)


@dataclass(slots=True)
class Sheet:
    game: str
    caption: str
    info_headers: list[str]
    names: list[str]
    rows: list[SheetRow | Gap]  # a deleted deal is a gap in its place (`record.Gap`)
    footer: list[tuple[str, list[str], str | None]] = field(default_factory=list)  # label, per player, sum
    has_sum: bool = False
    running_first: bool = False  # Fipsen: the running score is the sheet's number, the entry its note

    @property
    def width(self) -> int:
        return 1 + len(self.names) + self.has_sum + len(self.info_headers)


def info(night: CardNight, row: Row, names: Sequence[str]) -> list[str]:
    """The columns of one deal before the players' columns, in the game's own terms (the engine's
    `sheet_row`: who declared, the game with what was said, the result and the value), so a row shows
    why its entry differs from the value."""
    def seat_name(seat: int) -> str:
        return names[row.seats[seat]] if 0 <= seat < len(row.seats) else str(seat)

    module = GAMES[night.game]
    return [amount(value, night) if column.amount and isinstance(value, int) else in_words(value, page_words, seat_name)
            for column, value in zip(module.SHEET, module.sheet_row(row.deal.facts, row.deal.verdict), strict=True)]


def sheet(ledger: Ledger, night: CardNight, record: Record | None = None,
          gaps: list[Gap] | None = None) -> Sheet:
    """The ledger as the game's score sheet: columns, cells formatted, footer rows; with the table's `record`,
    each row marked with its changes and the deleted deals (all, or `gaps`) as gaps in their places."""
    game, table, names = night.game, ledger.table, ledger.names
    module = GAMES[game]
    bock_labels = bock.events(game)
    rows = []
    for row in ledger.rows:
        cells = []
        for position, value in enumerate(row.entries):
            if value is None:  # sat the deal out (ledger.sits_out): the cell stays blank
                cells.append(Cell(played=False))
            else:
                cells.append(Cell(signed_amount(value, night), signed_amount(row.totals[position], night),
                                  negative=row.totals[position] < 0))
        sheet_row = SheetRow(
            row.number, reverse("deal", args=[night.pk, table.number, row.deal.sequence]), row.deal.bock,
            [str(translated(bock_labels[key].label)) for key in row.bock_started if key in bock_labels],
            info(night, row, names), cells)
        if night.money:  # money balances: each row's sum shows it (zero)
            sheet_row.row_sum = signed_amount(sum(v for v in row.entries if v is not None), night)
        if row.placing is not None:
            sheet_row.placing = [placing(p) for p in row.placing]
            sheet_row.placing_label = (gettext("Round placing") if row.placing_complete
                                       else gettext("Round placing so far"))
        rows.append(sheet_row)
    footer: list[tuple[str, list[str], str | None]] = [
        (gettext("List points") if night.seeger_fabian else gettext("Total"),
         [signed_amount(t, night) for t in ledger.totals],
         amount(sum(ledger.totals), night) if night.money else None)]
    if night.seeger_fabian:
        footer += [(gettext("Games won"), [str(n) for n in ledger.won], None),
                   (gettext("Games lost"), [str(n) for n in ledger.lost], None),
                   # The Seeger-Fabian points are the whole score, as a tournament's standings and the lists
                   # call them; what the games won and lost add is one part of it.
                   (gettext("For games won and lost"), [signed(n) for n in ledger.seeger_fabian_totals], None),
                   (gettext("Performance (Seeger-Fabian points)"), [signed(n) for n in ledger.performance], None)]
    if ledger.placing_totals is not None:
        footer.append((gettext("Placing points"), [placing(p) for p in ledger.placing_totals], None))
    caption = gettext("Table %(number)s · %(game)s ledger") % {"number": table.number,
                                                               "game": night.get_game_display()}
    headers = [in_words(column.header, page_words) for column in module.SHEET]
    listed: list[Any] = rows if record is None else record.merged(record.marked(rows), gaps)
    return Sheet(game, caption, headers, list(names), listed, footer, has_sum=night.money,
                 running_first=module.SHEET_RUNNING_FIRST)


# --- the table page: the standings strip and the latest deals ---------------------------------------

@dataclass(slots=True)
class StripEntry:
    """One player in the standings strip: the total, a second figure where the game keeps one (Skat's
    Seeger-Fabian performance, Kop's placing points), and whether they deal next or sit the next deal out."""

    name: str
    total: str
    negative: bool
    note: str = ""
    deals: bool = False


def standings(night: CardNight, names: Sequence[str], kept: ledger.TableStanding, dealer: int,
              out: Sequence[int] = ()) -> list[StripEntry]:
    """The standings strip of a table page, from where the table stands (`ledger.TableStanding`)."""
    placings = kept.placing_totals(night)
    strip = []
    for position, name in enumerate(names):
        entry = StripEntry(name, signed_amount(kept.totals[position], night), kept.totals[position] < 0,
                         deals=position == dealer)
        if night.seeger_fabian:
            entry.note = gettext("SF %(points)s") % {"points": signed(kept.performance[position])}
        elif placings is not None:
            entry.note = gettext("%(points)s pl.") % {"points": placing(placings[position])}
        strip.append(entry)
    return strip


@dataclass(slots=True)
class Latest:
    """One of the latest deals under the standings: its number and page, each player's entry, and the game
    in a few words ("Bernd: Grand · won 96")."""

    number: int
    url: str
    bock: bool
    cells: list[Cell]
    what: str
    marks: list[Note] = field(default_factory=list)  # the history's changes of the deal (`record.Note`)


def booked(row: Row, night: CardNight) -> str:
    """What the list books for the declaring side of `row`, as "won …"/"lost …" states it: the declarers' own
    entries (the stored verdict's scores), not the game's value — a lost Skat game is charged twice its value,
    a surrendered Fipsen Kieker a share of it, a Kop Zolo du's lone player pays each of the three. A side
    whose members were booked different amounts names each amount, in their order."""
    amounts: list[str] = []
    for position in row.named[0]:  # the declaring side; a Ramsch's loser (or the one who took every trick)
        entry = row.entries[position] if position < len(row.entries) else None
        if entry is not None and amount(abs(entry), night) not in amounts:
            amounts.append(amount(abs(entry), night))
    return " / ".join(amounts) if amounts else amount(row.verdict.value, night)


def latest(book: Ledger, night: CardNight) -> list[Latest]:
    """The rows of `book` (the table's latest deals, `ledger.build(..., since=...)`) for the table page."""
    module = GAMES[night.game]
    rows = []
    for row in book.rows:
        named, result = row.named  # a Ramsch names its loser (or the one who took every trick)
        names = [book.names[p] for p in named]
        game = in_words(module.game_words(row.deal.facts, row.deal.verdict), page_words)
        what = game if not names else f"{' + '.join(names)}: {game}"
        if result is not None:
            what += " · " + (gettext("won %(value)s") if result else gettext("lost %(value)s")) % {
                "value": booked(row, night)}
        cells = [Cell(played=False) if value is None else
                 Cell(signed_amount(value, night), signed_amount(row.totals[p], night), negative=value < 0)
                 for p, value in enumerate(row.entries)]
        rows.append(Latest(row.number, reverse("deal", args=[night.pk, book.table.number, row.deal.sequence]),
                           row.deal.bock, cells, what))
    return rows
