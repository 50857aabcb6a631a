"""The list as a record: every deal under the number it was entered with, a deleted deal as a visible gap in
its place, and every correction, deletion and restoring marked in its row with a footnote (what changed,
old → new, by whom, when, why) — on the table pages, the printout, the PDF and the CSV alike.

The ledger (`ledger.build`) holds the live deals only, as it must to add them up; this module reads what it
leaves out — the deleted deals and the history — in three queries for any number of tables, and lays the gaps
between the ledger's rows by their numbers (`Record.merged`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar

from django.db.models import Count, Max, Q
from django.urls import reverse
from django.utils.translation import gettext, ngettext

from scorekeep.models import CardTable, Deal, DealRevision
from scorekeep.nights.entry import deal_history

SHOWN = 20  # the most gaps a table page reads among its latest deals (the whole list shows every one)

# The history's entries that change the list (its first entry only begins it; played cards change no figure).
CHANGES = (DealRevision.Kind.CHANGED, DealRevision.Kind.DELETED, DealRevision.Kind.RESTORED)


@dataclass(frozen=True, slots=True)
class Note:
    """One footnote of a table's list: its mark (1, 2 … down the list), the deal it is about, what kind of
    change it records and the history's sentence for it."""

    mark: int
    number: int
    kind: str
    text: str
    after_finish: bool = False

    @property
    def sign(self) -> str:
        """The sign in the deal's row: what happened, in a word."""
        return {DealRevision.Kind.CHANGED: gettext("corrected"), DealRevision.Kind.DELETED: gettext("deleted"),
                DealRevision.Kind.RESTORED: gettext("restored")}[DealRevision.Kind(self.kind)]


@dataclass(frozen=True, slots=True)
class Gap:
    """A deleted deal in its place on the list: its number, who deleted it and why, and its page (where it
    can be restored)."""

    gap: ClassVar[bool] = True  # what a template asks a row of the list (the ledger's rows have no such name)

    number: int
    url: str
    restore_url: str
    by: str = ""
    reason: str = ""
    at: datetime | None = None
    marks: tuple[Note, ...] = ()

    @property
    def words(self) -> str:
        """"deleted by Eva: entered at the wrong table" (the number stands beside it)."""
        said = gettext("deleted by %(by)s") % {"by": self.by} if self.by else gettext("deleted")
        return f"{said}: {self.reason}" if self.reason else said


@dataclass(slots=True)
class Record:
    """One table's record beside its ledger: the deleted deals (gaps), the footnotes by deal number, and the
    counts a list states (the deals that count, the deleted, the highest number given, the history's entries)."""

    gaps: list[Gap] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    counted: int = 0  # the live deals: those that count
    entered: int = 0  # the highest number given (the next deal is one more)
    deleted: int = 0

    @property
    def changes(self) -> int:
        """How many entries of the history changed the list (corrections, deletions, restorings)."""
        return len(self.notes)

    def marks(self, number: int) -> list[Note]:
        return [note for note in self.notes if note.number == number]

    @property
    def count_words(self) -> str:
        """"35 deals count, 1 deleted" — or "36 deals" where nothing is deleted."""
        if not self.deleted:
            return ngettext("%(n)s deal", "%(n)s deals", self.counted) % {"n": self.counted}
        return ngettext("%(n)s deal counts, %(deleted)s deleted", "%(n)s deals count, %(deleted)s deleted",
                        self.counted) % {"n": self.counted, "deleted": self.deleted}

    @property
    def check_words(self) -> str:
        """The closing check's line on the history: "36 deals entered: 35 count, 1 deleted; 3 changes in the
        history" (every footnote of the list is one of them)."""
        return ngettext("%(entered)s deal entered: %(counted)s count, %(deleted)s deleted; %(changes)s change in "
                        "the history", "%(entered)s deals entered: %(counted)s count, %(deleted)s deleted; "
                        "%(changes)s changes in the history", self.changes) % {
            "entered": self.entered, "counted": self.counted, "deleted": self.deleted, "changes": self.changes}

    def merged(self, rows: Sequence[Any], gaps: Sequence[Gap] | None = None) -> list[Any]:
        """The list's rows (anything with the deal's `number`) with the gaps between them (all of the table's, or
        `gaps`), by number; a gap after the last row closes the list."""
        waiting = iter(self.gaps if gaps is None else gaps)
        gap = next(waiting, None)
        out: list[Any] = []
        for row in rows:
            while gap is not None and gap.number < row.number:
                out.append(gap)
                gap = next(waiting, None)
            out.append(row)
        while gap is not None:
            out.append(gap)
            gap = next(waiting, None)
        return out

    def marked(self, rows: Sequence[Any]) -> list[Any]:
        """`rows` (a page's rows of deals, each with its `marks`), each given the notes of its deal's changes."""
        for row in rows:
            row.marks = self.marks(row.number)
        return list(rows)

    def between(self, after: int, upto: int | None) -> list[Gap]:
        """The gaps numbered after `after` and up to `upto` (None: to the end): a page of the list's own."""
        return [gap for gap in self.gaps if gap.number > after and (upto is None or gap.number <= upto)]

    def within(self, rows: Sequence[Any]) -> list[Gap]:
        """The gaps among `rows` (the latest deals a page shows) and after the last of them."""
        if not rows:
            return list(self.gaps)
        first = rows[0].number
        return [gap for gap in self.gaps if gap.number > first]


def of_tables(tables: Iterable[CardTable], names: dict[int, Sequence[str]], counted: dict[int, int],
              since: int | None = None) -> dict[int, Record]:
    """Each table's record (by table pk) — the tables of a night, or a tournament series' tables, each its own
    night (`table.night`, loaded) — in three queries whatever the number of tables and deals: the highest
    number given and the deleted deals counted at each table, the history's entries that changed the list, and
    the deleted deals. `names` are each table's players in seating order, `counted` its live deals.

    With `since` (one table's latest deals, as its page shows them) only the deals numbered after it are read
    — at most `SHOWN` gaps —, so a page costs the same however long the list and its history are."""
    tables = list(tables)
    records = {table.pk: Record(counted=counted.get(table.pk, 0)) for table in tables}
    by_pk = {table.pk: table for table in tables}
    for table_id, top, deleted in (Deal.objects.filter(table__in=tables).order_by().values("table_id")
                                   .annotate(top=Max("sequence"), deleted=Count("pk", filter=Q(deleted=True)))
                                   .values_list("table_id", "top", "deleted")):
        records[table_id].entered, records[table_id].deleted = top, deleted
    after = Q() if since is None else Q(deal__sequence__gt=since)
    revisions = list(DealRevision.objects.filter(after, deal__table__in=tables, kind__in=CHANGES)
                     .select_related("deal").order_by("deal__table_id", "deal__sequence", "at", "id"))
    last_deletion: dict[int, DealRevision] = {}
    for revision in revisions:
        deal = revision.deal
        night = by_pk[deal.table_id].night
        record = records[deal.table_id]
        text = deal_history(night.game, deal.sequence, [revision], names[deal.table_id], night.date)[0]
        record.notes.append(Note(len(record.notes) + 1, deal.sequence, revision.kind, text, revision.after_finish))
        if revision.kind == DealRevision.Kind.DELETED:
            last_deletion[deal.pk] = revision
    gone = Deal.objects.filter(table__in=tables, deleted=True).order_by("table_id", "sequence")
    for deal in (gone if since is None else gone.filter(sequence__gt=since)[:SHOWN]):
        table = by_pk[deal.table_id]
        deletion = last_deletion.get(deal.pk)
        record = records[deal.table_id]
        args = [table.night_id, table.number, deal.sequence]
        record.gaps.append(Gap(deal.sequence, reverse("deal", args=args), reverse("deal-restore", args=args),
                               deletion.by if deletion else "", deletion.reason if deletion else "",
                               deletion.at if deletion else None, tuple(record.marks(deal.sequence))))
    return records


def of_table(table: CardTable, names: Sequence[str], counted: int, since: int | None = None) -> Record:
    """One table's record (`of_tables`)."""
    return of_tables([table], {table.pk: names}, {table.pk: counted}, since)[table.pk]
