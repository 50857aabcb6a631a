"""What the organiser's tournament page tells about changes (issue 31): the tournament's history in words —
registrations, withdrawals and their undoing with reasons, draws, closing, and each deal corrected after its
series closed, naming the account — and which later series' draw was made from standings a correction has
changed since (the draw by standings stores the order it was drawn from: `writes.draw_series`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext

from scorekeep.models import DealRevision, Entrant, Series, Tournament, TournamentRevision
from scorekeep.rules.draw import Mode
from scorekeep.tournaments import writes
from scorekeep.words.labels import unit_text

HISTORY_LINES = 60


@dataclass(frozen=True, slots=True)
class Outdated:
    """A series drawn by the standings after the series before, which a correction has changed since."""

    series: Series
    started: bool  # a deal is entered at one of its tables (or it is closed): it can no longer be drawn again


def _drawn_numbers(draw: dict[str, Any]) -> set[int]:
    return {n for table in draw.get("tables", []) for n in table} | set(draw.get("byes", []))


def outdated_draws(tournament: Tournament) -> list[Outdated]:
    """The series whose draw by standings no longer matches the standings it was drawn from: the order of the
    players it seated (players registered later are no part of it) compared with the order now."""
    out = []
    for series in tournament.series_set.filter(drawn_at__isnull=False, number__gt=1, mode=str(Mode.STANDINGS)):
        seated = _drawn_numbers(series.draw)
        if "order" in series.draw:
            then = [n for n in series.draw["order"] if n in seated]
            now = [n for n in writes.standings_order(tournament, series.number - 1) if n in seated]
            changed = then != now
        else:  # drawn before the order was kept: the draw made again from its seed tells
            changed = writes.make_draw(tournament, series.number, series.seed, series.mode).tables \
                != series.draw.get("tables")
        if changed:
            started = series.closed or series.nights.filter(tables__deals__isnull=False).exists()
            out.append(Outdated(series, started))
    return out


def _when(at: datetime) -> str:
    local = timezone.localtime(at)
    # The language's own day and month ("30. November", "November 30", "11月30日"), not "30 Nov" everywhere.
    return gettext("%(day)s, %(time)s") % {"day": date_format(local, "MONTH_DAY_FORMAT"),
                                           "time": date_format(local, "H:i")}


def _entrant_words(value: Any) -> str:
    if not isinstance(value, dict):
        return ""
    return gettext("%(name)s (start number %(number)s)") % {"name": value.get("name", "?"),
                                                           "number": value.get("number", "?")}


def history(tournament: Tournament) -> list[str]:
    """The tournament's changes in words, newest first (at most HISTORY_LINES)."""
    game = tournament.game
    events: list[tuple[datetime, int, str]] = []
    for rev in tournament.revisions.order_by("-at", "-id")[:HISTORY_LINES]:
        events.append((rev.at, rev.pk, _line(_revision_words(game, rev), rev.by, rev.at, rev.reason)))
    closed = {s.pk: s for s in tournament.series_set.filter(closed=True, closed_at__isnull=False)}
    corrections = (DealRevision.objects.filter(deal__table__night__series__in=list(closed))
                   .select_related("deal__table__night").order_by("-at", "-id")[:HISTORY_LINES])
    for change in corrections:
        night = change.deal.table.night
        series = closed.get(night.series_id or 0)
        if series is None or series.closed_at is None or change.at <= series.closed_at \
                or change.kind == DealRevision.Kind.CREATED:
            continue  # entered while the series was open: the table's own history has it
        verb = {"changed": gettext("changed"), "deleted": gettext("deleted"), "restored": gettext("restored"),
                "play": gettext("given played cards")}.get(change.kind, change.kind)
        what = gettext("%(part)s, table %(table)s: deal %(deal)s %(verb)s after closing") % {
            "part": unit_text(game, "in_text", series.number), "table": change.deal.table.number,
            "deal": change.deal.sequence, "verb": verb}
        events.append((change.at, 0, _line(what, change.by, change.at, change.reason)))
    events.sort(key=lambda e: (e[0], e[1]), reverse=True)
    return [line for _at, _pk, line in events[:HISTORY_LINES]]


def _revision_words(game: str, rev: TournamentRevision) -> str:
    new = rev.new if isinstance(rev.new, dict) else {}
    part = unit_text(game, "in_text", new.get("series", 0)) if "series" in new else ""
    who = _entrant_words(rev.new)
    if rev.kind == "created":
        return gettext("the tournament was set up")
    if rev.kind == "registered":
        return gettext("%(who)s registered") % {"who": who}
    if rev.kind == "withdrawn":
        return gettext("%(who)s withdrawn") % {"who": who}
    if rev.kind == "reinstated":
        return gettext("%(who)s reinstated (withdrawal undone)") % {"who": who}
    if rev.kind == "paid":
        return gettext("entry fee of %(who)s marked") % {"who": who}
    if rev.kind == "drawn":
        return (gettext("%(part)s drawn again") if rev.old else gettext("%(part)s drawn")) % {"part": part}
    if rev.kind == "closed":
        return gettext("%(part)s closed") % {"part": part}
    if rev.kind == "reopened":
        return gettext("%(part)s reopened") % {"part": part}
    if rev.kind == "lot":
        return gettext("a lot drawn for a tie")
    if rev.kind == "money":
        return gettext("the money settings changed")
    if rev.kind == "paper":
        old = rev.old if isinstance(rev.old, dict) else {}
        return (gettext("%(part)s, table %(table)s: the result from the paper list changed") if old.get("paper")
                else gettext("%(part)s, table %(table)s: the result from the paper list entered")) % {
            "part": part, "table": new.get("table", "")}
    return rev.kind  # none left: every kind `writes` and `paper` record is written out above


def _line(what: str, by: str, at: datetime, reason: str) -> str:
    line = (gettext("%(when)s · %(by)s: %(what)s") if by else gettext("%(when)s: %(what)s")) % {
        "when": _when(at), "by": by, "what": what}
    if reason:
        line += " " + gettext("(reason: %(reason)s)") % {"reason": reason}
    return line


def reinstatable(tournament: Tournament, entrants: list[Entrant]) -> set[int]:
    """The start numbers of the withdrawn who can be reinstated now (no series drawn without them since)."""
    last = writes.drawn(tournament)
    return {e.number for e in entrants if e.last_series is not None and (
        e.last_series == last or (e.last_series < e.first_series and last < tournament.series_count))}


def page_context(tournament: Tournament, entrants: list[Entrant]) -> dict[str, Any]:
    """What the tournament page shows of issue 31: the history, the outdated draws, who can be reinstated."""
    return {"history": history(tournament), "outdated": outdated_draws(tournament),
            "reinstatable": reinstatable(tournament, entrants)}
