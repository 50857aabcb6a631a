"""A tournament table without a phone (issue 31): its series result typed from the paper list.

The list keeper keeps the table's list on paper; the organiser types its foot — per player the columns the
game's paper list has (`rules.tournament.Format.paper`: Skat's list points, games won and lost and the list's
Seeger-Fabian points; the others' totals and games) — checked as the list is (`rules.tournament.check_paper`)
and kept on the table (`CardTable.paper`). The standings read it as the table's standing (`standing_of`: a
`ledger.TableStanding` with the same figures the deals would have left), so standings, tie-breaks, money and
printouts count it exactly as the same deals entered one by one, and mark it "from a paper list". Deals typed
in for the table later replace it once there are as many as the paper list shows: from then the deals count.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django import forms
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scorekeep.models import CardNight, CardTable, Tournament, TournamentRevision
from scorekeep.nights import ledger
from scorekeep.rules import GAMES
from scorekeep.rules.explain import in_words
from scorekeep.rules.tournament import PaperColumn, check_paper, format_of, paper_seeger_fabian, series_length_at
from scorekeep.tournaments import money as tournament_money
from scorekeep.words.labels import page_words, translated
from scorekeep.words.numbers import signed

KEPT = ("total", "won", "lost", "soli_won")  # what a paper result keeps of its columns: the standing's figures


def counts(table: CardTable, kept: ledger.TableStanding) -> bool:
    """Whether the table's paper result counts: there is one, and fewer deals are typed in than it shows."""
    return bool(table.paper) and kept.deals < int(table.paper.get("deals", 0))


def as_standing(night: CardNight, paper: dict[str, Any]) -> ledger.TableStanding:
    """The standing a paper result gives: the totals and games typed, the Seeger-Fabian points the games
    give, and a round (Kop) closed where the deals played complete it — as `TableStanding.add` would have
    left it after those deals."""
    rows = paper["rows"]
    now = ledger.TableStanding.start(night, len(rows))
    now.deals = int(paper["deals"])
    now.totals = [int(row["total"]) for row in rows]
    now.won = [int(row.get("won", 0)) for row in rows]
    now.lost = [int(row.get("lost", 0)) for row in rows]
    now.soli_won = [int(row.get("soli_won", 0)) for row in rows]
    now.seeger_fabian = paper_seeger_fabian(night.game, now.won, now.lost)
    if now.placings is not None and night.round_length and now.deals % night.round_length == 0:
        now.close_round(night)
    return now


def standing_of(table: CardTable, players: int | None = None) -> tuple[ledger.TableStanding, bool]:
    """The table's standing as the standings count it, and whether it is the paper list's."""
    kept = ledger.TableStanding.of(table, players)
    if counts(table, kept):
        return as_standing(table.night, table.paper), True
    return kept, False


@dataclass(frozen=True, slots=True)
class Foot:
    """A paper result as a printout shows it: the foot of the table's paper list as typed, in words."""

    deals: int
    heads: list[str]  # the game's paper columns, in words
    rows: list[tuple[str, list[str]]]  # per player: the name and the figures, as the form shows them
    by: str
    at: datetime | None


def foot(tournament: Tournament, table: CardTable, counted: bool) -> Foot | None:
    """The table's paper result as its printed list shows it, when the standings count it (`counted`, as
    `standing_of` says; None: they count the deals typed in). Its figures are those the organiser typed
    (`PaperForm.of`), money in the currency."""
    if not counted:
        return None
    initial = PaperForm.of(tournament, table).initial
    money = bool(GAMES[tournament.game].MONEY)
    rows = []
    for position, place in enumerate(table.places.all()):
        cells = []
        for column in columns(tournament):
            value = initial.get(f"{column.key}_{position}", "")
            if column.key == "total" and money:
                cells.append(tournament_money.text(table.paper["rows"][position]["total"], tournament, plus=True))
            else:  # the signed points as the lists write them ("+94", "−48"), the games as counted
                cells.append(signed(value) if column.key in ("total", "performance") else str(value))
        rows.append((place.player.name, cells))
    at = table.paper.get("at")
    return Foot(int(table.paper["deals"]), [capfirst(translated(column.label)) for column in columns(tournament)], rows,
                str(table.paper.get("by", "")), datetime.fromisoformat(at) if at else None)


def typed_deals(table: CardTable) -> int:
    """The deals typed in for the table (its kept standing's), whatever its paper result shows."""
    return ledger.TableStanding.of(table).deals


def columns(tournament: Tournament) -> tuple[PaperColumn, ...]:
    return format_of(tournament.game).paper


@transaction.atomic
def record(table: CardTable, deals: int, rows: list[dict[str, int]], *, by: str = "") -> CardTable:
    """Keep a paper result (checked by `PaperForm`) on the table, with its history, and move the versions on
    so every standings page refreshes."""
    table = (CardTable.objects.select_for_update(of=("self",)).select_related("night__series__tournament")
             .get(pk=table.pk))
    series = table.night.series
    assert series is not None  # only a tournament's table has a paper result (the page finds it through one)
    tournament = series.tournament
    new = {"deals": deals, "rows": [{key: row[key] for key in KEPT if key in row} for row in rows], "by": by[:40],
           "at": timezone.now().isoformat()}
    TournamentRevision.objects.create(tournament=tournament, kind="paper", old={"table": table.number,
                                      "series": series.number, "paper": table.paper or None},
                                      new={"table": table.number, "series": series.number, "paper": new}, by=by[:40])
    CardTable.objects.filter(pk=table.pk).update(paper=new, version=F("version") + 1)
    CardNight.objects.filter(pk=table.night_id).update(version=F("version") + 1)
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
    table.refresh_from_db()
    return table


def table_of(tournament: Tournament, series_number: int, table_number: int) -> CardTable | None:
    return (CardTable.objects.filter(night__series__tournament=tournament, night__series__number=series_number,
                                     number=table_number)
            .select_related("night", "night__series").prefetch_related("places__player").first())


def length_at(tournament: Tournament, table: CardTable) -> int:
    """The series' deals at this table (Skat: 48 at four, 36 at three)."""
    return series_length_at(tournament.game, tournament.series_length, table.places.count())


class PaperForm(forms.Form):
    """A table's series result from its paper list: the deals played and, per player, the game's columns —
    money in units of the currency (as the money page takes it), every other figure a whole number. `clean`
    asks the engine's checks and puts each refusal at the input it names."""

    deals = forms.IntegerField(label=_("Deals played"), min_value=1, max_value=400)

    def __init__(self, *args: Any, tournament: Tournament, table: CardTable, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament, self.table = tournament, table
        self.names = [place.player.name for place in table.places.all()]
        self.length = length_at(tournament, table)
        self.fields["deals"].help_text = gettext("at most the %(n)s deals of the series at this table") % {
            "n": self.length}
        self.money = bool(GAMES[tournament.game].MONEY)
        self.grid: list[tuple[str, list[str]]] = []  # per player: the name and the inputs' names, in order
        for position, name in enumerate(self.names):
            names = []
            for column in columns(tournament):
                field_name = f"{column.key}_{position}"
                label = translated(column.label)  # the page puts each player's inputs under the name
                if column.key == "total" and self.money:
                    self.fields[field_name] = forms.CharField(label=label, max_length=16, help_text=gettext(
                        "in %(currency)s, e.g. 12.50 or −3.20") % {"currency": tournament.currency})
                else:
                    self.fields[field_name] = forms.IntegerField(label=label, min_value=None if column.key in (
                        "total", "performance") else 0)
                names.append(field_name)
            self.grid.append((name, names))

    @classmethod
    def of(cls, tournament: Tournament, table: CardTable) -> PaperForm:
        """The form filled with the table's paper result as kept (empty where there is none)."""
        paper = table.paper or {}
        initial: dict[str, Any] = {"deals": paper.get("deals") or length_at(tournament, table)}
        for position, row in enumerate(paper.get("rows", [])):
            for key, value in row.items():
                initial[f"{key}_{position}"] = (tournament_money.units(value, tournament.exponent)
                                                if key == "total" and GAMES[tournament.game].MONEY else value)
            if any(c.key == "performance" for c in columns(tournament)):
                won, lost = [r.get("won", 0) for r in paper["rows"]], [r.get("lost", 0) for r in paper["rows"]]
                initial[f"performance_{position}"] = (row["total"]
                                                      + paper_seeger_fabian(tournament.game, won, lost)[position])
        return cls(tournament=tournament, table=table, initial=initial)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or self.cleaned_data
        rows: list[dict[str, int]] = []
        for _name, names in self.grid:
            row: dict[str, int] = {}
            for field_name in names:
                key = field_name.rsplit("_", 1)[0]
                if field_name not in data:
                    continue  # refused at its input already
                value = data[field_name]
                if key == "total" and self.money:
                    try:
                        value = signed_minor(str(value), self.tournament, field_name)
                    except tournament_money.MoneyError as err:
                        self.add_error(field_name, err.message)
                        continue
                row[key] = value
            rows.append(row)
        if self.errors:
            return data
        for problem in check_paper(self.tournament.game, self.length, data.get("deals"), rows):
            text = in_words(problem.phrase, page_words, lambda seat: self.names[seat])
            target = "deals" if problem.key == "deals" else (
                f"{problem.key}_{problem.position}" if problem.position is not None else None)
            self.add_error(target if target in self.fields else None, text)
        data["rows"] = rows
        return data


def signed_minor(text: str, tournament: Tournament, field_name: str) -> int:
    """A list's money total typed in units, with its sign ("−3.20", "-3,20", "12.50"), as minor units: the money
    page's reading (`tournament_money.minor`) of the amount after the sign."""
    text = text.strip()
    negative = text[:1] in ("-", "−")
    amount = tournament_money.minor(text.lstrip("+-−").strip(), tournament.exponent, field_name, tournament.currency)
    return -amount if negative else amount
