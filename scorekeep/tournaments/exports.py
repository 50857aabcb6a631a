"""A tournament's standings and final ranking as CSV (issue 31): the columns the pages show, a member number
column, UTF-8 with a byte-order mark (Excel reads umlauts and Japanese right only with it).

The figures are the pages' (`standing_rows`: the same rounding, halves as decimals), written so a spreadsheet
reads them as numbers: an ASCII minus, money in units of the currency without its sign (the column head
names the currency, as the pages' heads do); every text cell is defused (`words.cells.text_cell`).
"""

from __future__ import annotations

from fractions import Fraction

from django.utils.text import slugify
from django.utils.translation import gettext

from scorekeep.models import Tournament
from scorekeep.rules import GAMES
from scorekeep.tournaments import money as tournament_money
from scorekeep.tournaments import standing_rows, standings
from scorekeep.words.cells import text_cell
from scorekeep.words.labels import unit_text
from scorekeep.words.money import in_units


def number(value: Fraction | int, key: str, tournament: Tournament) -> str:
    """A figure as a spreadsheet reads it: money in units ("-3.20"), halves as on the pages ("3.5")."""
    value = Fraction(value)
    if key == "total" and GAMES[tournament.game].MONEY:
        return format(in_units(int(value), tournament.exponent), "f")
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


def table(now: standings.TournamentStandings, prizes: dict[int, int] | None = None) -> list[list[str]]:
    """The standings' rows as CSV cells: rank, start number, member number (the entrant's, as registered:
    `Line.member_number`), name, club (and team), the first figure of each series, every ranking figure, the move,
    the notes — and with `prizes` each one's prize."""
    tournament = now.tournament
    first = now.order[0].key
    head = [gettext("Rank"), gettext("No."), gettext("Member no."), gettext("Name"),
            gettext("Club / team") if tournament.teams else gettext("Club"),
            *(unit_text(tournament.game, "short", n) for n in now.numbers), *standing_rows.heads(now),
            gettext("Move"), gettext("Notes")]
    if prizes is not None:
        head.append(gettext("Prize (%(currency)s)") % {"currency": tournament.currency})
    out = [head]
    for row in standing_rows.rows(now, now.lines):
        line: standings.Line = row["line"]
        place = str(line.place) if line.place else ""  # a late entrant is not ranked before joining: no place
        cells = [place, str(line.number), text_cell(line.member_number), text_cell(line.name),
                 text_cell(line.club + (f" / {line.team}" if line.team else "")),
                 *("" if figures is None else number(figures[first], first, tournament) for figures in line.series),
                 *(number(line.total[c.key], c.key, tournament) for c in now.order),
                 "" if line.movement is None else f"{line.movement:+d}" if line.movement else "0",
                 text_cell("; ".join(row["notes"]))]
        if prizes is not None:
            amount = prizes.get(line.number, 0)
            cells.append(format(in_units(amount, tournament.exponent), "f") if amount else "")
        out.append(cells)
    return out


def after(tournament: Tournament, series: int | None) -> list[list[str]]:
    """The standings after series `series` (None: every series so far)."""
    return table(standings.standings(tournament, upto=series))


def final_ranking(tournament: Tournament) -> list[list[str]]:
    """The final ranking with each prize paid (the money sheet's: ties share)."""
    now = standings.standings(tournament)
    sheet = tournament_money.sheet(tournament, now)
    return table(now, {line.number: prize.each for prize in sheet.prizes for line in prize.winners})


def filename(tournament: Tournament, what: str) -> str:
    """`herbstturnier-2026-11-21-standings-after-2.csv` (ASCII only, as the PDFs' names)."""
    return "-".join([slugify(tournament.name) or f"tournament-{tournament.pk}", tournament.date.isoformat(),
                     what]) + ".csv"
