"""The standings' lines as the pages and printouts write them: every figure written out, the notes in words."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.utils.translation import gettext

from scorekeep.models import Tournament
from scorekeep.rules import GAMES
from scorekeep.rules.ranking import UNRANKED
from scorekeep.tournaments import money as tournament_money
from scorekeep.tournaments import standings
from scorekeep.words.labels import translated, unit_text
from scorekeep.words.money import MINUS


def figure(value: Fraction | int, key: str, tournament: Tournament) -> str:
    """A figure as the pages and printouts write it: money in the currency (Schafkopf's tariff), halves as
    decimals, a negative one with a real minus sign (as the tables' lists write it)."""
    value = Fraction(value)
    if key == "total" and GAMES[tournament.game].MONEY:
        return tournament_money.text(int(value), tournament)
    if value.denominator == 1:
        return str(value.numerator).replace("-", MINUS)
    return f"{float(value):.2f}".rstrip("0").rstrip(".").replace("-", MINUS)


def heads(now: standings.TournamentStandings, *, short: bool = False) -> list[str]:
    """The heads of the ranking figures' columns, what is ranked by first: money (Schafkopf's tariff) says its
    currency, "points (EUR)", so a column of amounts is never read as points."""
    money = GAMES[now.tournament.game].MONEY
    out = []
    for criterion in now.order:
        label = str(translated(criterion.short if short else criterion.label))
        if money and criterion.key == "total":
            label = gettext("%(label)s (%(currency)s)") % {"label": label, "currency": now.tournament.currency}
        out.append(label)
    return out


def stage(now: standings.TournamentStandings) -> str:
    """Where the standings are, in words: "after series 2 (final)" once every series of the tournament is
    closed, "after series 2" when the series shown last is closed, "after series 2 (under way)" while its
    tables still play; empty before the first deal."""
    if not now.played:
        return ""
    tournament = now.tournament
    part = unit_text(tournament.game, "in_text", now.played)
    closed = dict(tournament.series_set.values_list("number", "closed"))
    if is_final(now, closed):
        return gettext("after %(part)s (final)") % {"part": part}
    if closed.get(now.played):
        return gettext("after %(part)s") % {"part": part}
    return gettext("after %(part)s (under way)") % {"part": part}


def is_final(now: standings.TournamentStandings, closed: dict[int, bool] | None = None) -> bool:
    """Whether the standings are final: every series of the tournament is closed, and they are after the last."""
    tournament = now.tournament
    if closed is None:
        closed = dict(tournament.series_set.values_list("number", "closed"))
    return (bool(closed) and len(closed) >= tournament.series_count and all(closed.values())
            and now.played == max(closed))


def rows(now: standings.TournamentStandings, lines: list[standings.Line]) -> list[dict[str, Any]]:
    """The lines as the pages and printouts show them: every number written out, the notes in words."""
    tournament, first = now.tournament, now.order[0].key
    labels = heads(now)
    series_heads = [unit_text(tournament.game, "short", n) for n in now.numbers]
    rows = []
    for line in lines:
        notes = []
        if line.by_lot:
            notes.append(gettext("tie broken by lot"))
        if line.joined and line.place == UNRANKED:
            notes.append(gettext("joins in %(part)s; not ranked before")
                         % {"part": unit_text(tournament.game, "in_text", line.joined)})
        elif line.joined:
            notes.append(gettext("joined in %(part)s") % {"part": unit_text(tournament.game, "in_text", line.joined)})
        for number in line.paper:
            notes.append(gettext("%(part)s from a paper list")
                         % {"part": unit_text(tournament.game, "numbered", number)})
        if line.withdrew:
            notes.append(gettext("withdrew after %(part)s")
                         % {"part": unit_text(tournament.game, "in_text", line.withdrew)})
        rows.append({
            "line": line,
            "series": ["–" if figures is None else figure(figures[first], first, tournament)
                       for figures in line.series],
            "series_cells": [(short, "–" if figures is None else figure(figures[first], first, tournament))
                             for short, figures in zip(series_heads, line.series, strict=False)],
            "figures": [figure(line.total[c.key], c.key, tournament) for c in now.order],
            "cells": [(label, figure(line.total[c.key], c.key, tournament))  # each figure with its head, for a
                      for label, c in zip(labels, now.order, strict=True)],  # row stacked on a phone
            "movement": "" if line.movement is None else (
                "±0" if line.movement == 0 else f"{line.movement:+d}".replace("-", MINUS)),
            "notes": notes,
        })
    return rows
