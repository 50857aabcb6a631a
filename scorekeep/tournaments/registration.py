"""Registration in one go (issue 31): a pasted list or an uploaded CSV of players, read into rows, shown as a
preview — each row's start number and what is flagged — and only then stored, all in one transaction.

A line is a name, optionally followed by the club the player comes from and their member number, separated
by tabs (cells pasted from a spreadsheet), semicolons (Excel's CSV in German and other locales) or commas
("name, club, number"). A header line naming the columns is skipped. Nothing is stored by `preview`; `store`
reads the same text again, so what the preview showed is what is stored (or it is refused as a whole).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scorekeep.models import Entrant, Player, Tournament
from scorekeep.tournaments import writes

MAX_LINES = 500
MAX_BYTES = 200_000
SEPARATORS = ("\t", ";", ",")
# Header cells a spreadsheet's first line may carry (English, German, Japanese): such a line is skipped.
HEADER_WORDS = {"name", "player", "spieler", "club", "verein", "member", "mitgliedsnummer", "mitglied",
                "number", "nr", "nr.", "名前", "氏名", "クラブ", "会員番号", "所属"}


@dataclass(slots=True)
class Row:
    """One line of the list as it will be stored: its start number, or why it is not stored."""

    line: int  # the line's number in the text, from 1
    name: str
    club: str
    member_number: str
    number: int | None = None  # the start number it gets (None: not stored)
    reinstate: bool = False  # a withdrawn player of that name: reinstated, not registered twice
    flags: list[str] = field(default_factory=list)  # what the organiser should look at


@dataclass(slots=True)
class Preview:
    rows: list[Row]
    errors: list[str]  # a bad line each, naming it: nothing is stored while there is one

    @property
    def stored(self) -> list[Row]:
        return [row for row in self.rows if row.number is not None or row.reinstate]


def decode(data: bytes) -> str:
    """An uploaded file's text: UTF-8 with or without a byte-order mark (as Excel writes it)."""
    if len(data) > MAX_BYTES:
        raise ValidationError({"file": gettext("is at most %(max)s kB; this file is larger")
                               % {"max": MAX_BYTES // 1000}})
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ValidationError({"file": gettext(
            "is read as UTF-8 text (a CSV saved as “CSV UTF-8”); byte %(at)s is not UTF-8") % {"at": err.start + 1}
        }) from err


def _cells(line: str) -> list[str]:
    """The line's cells by the first separator it uses (a tab before a semicolon before a comma), with a
    spreadsheet's quoting ("Müller, Hans";Club) understood."""
    for separator in SEPARATORS:
        if separator in line:
            return [cell.strip() for cell in next(csv.reader(io.StringIO(line), delimiter=separator))]
    return [line.strip()]


def _is_header(cells: list[str]) -> bool:
    return bool(cells) and all(cell.casefold() in HEADER_WORDS or not cell for cell in cells) and any(cells)


def read(text: str) -> tuple[list[Row], list[str]]:
    """The list's rows (blank lines skipped, a header line too) and a message for each bad line."""
    rows: list[Row] = []
    errors: list[str] = []
    lines = text.splitlines()
    if len([line for line in lines if line.strip()]) > MAX_LINES:
        return [], [gettext("The list has more than %(max)s lines; register at most %(max)s players at once.")
                    % {"max": MAX_LINES}]
    for index, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        if "\x00" in raw:
            errors.append(gettext("Line %(line)s: contains a NUL character, which cannot be stored.")
                          % {"line": index})
            continue
        cells = _cells(raw)
        if not rows and not errors and _is_header(cells):
            continue
        while len(cells) > 1 and not cells[-1]:
            cells.pop()  # a spreadsheet's empty trailing cells
        if len(cells) > 3:
            errors.append(gettext("Line %(line)s: has %(n)s cells; a line is a name, then optionally the club "
                                  "and the member number (separated by tabs, semicolons or commas).")
                          % {"line": index, "n": len(cells)})
            continue
        name = " ".join(cells[0].split())
        club = " ".join(cells[1].split()) if len(cells) > 1 else ""
        member = cells[2].strip() if len(cells) > 2 else ""
        if not name or len(name) > 40:
            errors.append(gettext("Line %(line)s: the name is 1 to 40 characters, not “%(got)s”.")
                          % {"line": index, "got": name[:60]})
            continue
        if len(club) > 80:
            errors.append(gettext("Line %(line)s: the club is at most 80 characters.") % {"line": index})
            continue
        try:
            member = writes.check_member_number(member)
        except ValidationError as err:
            errors.append(gettext("Line %(line)s: the member number %(what)s")
                          % {"line": index, "what": " ".join(err.messages)})
            continue
        rows.append(Row(index, name, club, member))
    if not rows and not errors:
        errors.append(gettext("The list is empty: write one player a line (name; club; member number)."))
    return rows, errors


def preview(tournament: Tournament, text: str) -> Preview:
    """What `store` would store: the rows with their start numbers in order after the numbers given, and
    flags — the same name twice in the list (in other case or spacing too), a name registered already, a
    withdrawn player who is reinstated."""
    rows, errors = read(text)
    entered = {e.player.key: e for e in tournament.entrants.select_related("player")}
    seen: dict[str, Row] = {}
    number = max((e.number for e in entered.values()), default=0)
    for row in rows:
        key = Player.key_of(row.name)
        first = seen.get(key)
        if first is not None:
            row.flags.append(
                gettext("the same name as line %(line)s; not stored twice") % {"line": first.line}
                if first.name == row.name else
                gettext("nearly the same name as line %(line)s (%(name)s: other case or spacing); not stored twice")
                % {"line": first.line, "name": first.name})
            continue
        seen[key] = row
        entrant = entered.get(key)
        if entrant is not None and entrant.last_series is None:
            row.flags.append(gettext("registered already as %(name)s with start number %(number)s; not stored again")
                             % {"name": entrant.player.name, "number": entrant.number})
            continue
        if entrant is not None:
            row.reinstate, row.number = True, entrant.number
            row.flags.append(gettext("withdrawn: is reinstated with start number %(number)s")
                             % {"number": entrant.number})
            continue
        number += 1
        row.number = number
    return Preview(rows, errors)


def _club_of(tournament: Tournament, club: str) -> tuple[bool, str]:
    """A guest (and their club) when a club other than the organising one is named."""
    if not club or club.casefold() == tournament.club.name.casefold():
        return False, ""
    return True, club


@transaction.atomic
def store(tournament: Tournament, text: str, *, by: str = "") -> list[Entrant]:
    """Register every row of the list in one transaction, as previewed: a refusal of any row stores none."""
    result = preview(tournament, text)
    if result.errors:
        raise ValidationError({"players": result.errors})
    out = []
    for row in result.stored:
        guest, club = _club_of(tournament, row.club)
        try:
            out.append(writes.register(tournament, name=row.name, guest=guest, home_club=club,
                                       number=None if row.reinstate else row.number,
                                       member_number=row.member_number, by=by))
        except ValidationError as err:
            raise ValidationError({"players": [gettext("Line %(line)s: %(what)s")
                                               % {"line": row.line, "what": " ".join(err.messages)}]}) from err
    return out


def withdrawn_named(tournament: Tournament, name: str) -> bool:
    """Whether registering `name` reinstates a withdrawn entrant (the page then says so)."""
    return tournament.entrants.filter(player__key=Player.key_of(name), last_series__isnull=False).exists()


class ListForm(forms.Form):
    """A pasted list or an uploaded CSV; `players` also carries the text from the preview to the confirmation."""

    players = forms.CharField(label=_("Players, one a line"), required=False, max_length=MAX_BYTES,
                              widget=forms.Textarea(attrs={"rows": 8, "autocomplete": "off", "spellcheck": "false"}),
                              help_text=_("name; club; member number — club and member number optional; tabs "
                                          "(pasted from a spreadsheet), semicolons or commas between them"))
    file = forms.FileField(label=_("or a CSV file"), required=False,
                           help_text=_("the same columns, a header line optional; UTF-8, commas or semicolons"))

    def text(self) -> str:
        """The list's text: the file's where one is uploaded, else what was pasted."""
        upload = self.cleaned_data.get("file")
        if upload:
            return decode(upload.read(MAX_BYTES + 1))
        return str(self.cleaned_data.get("players", ""))
