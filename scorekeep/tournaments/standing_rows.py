"""The standings' lines as the pages and printouts write them: every figure written out, the notes in words."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.utils.translation import gettext

from scorekeep.models import Tournament
from scorekeep.rules import GAMES
from scorekeep.tournaments import money as tournament_money
from scorekeep.tournaments import standings
from scorekeep.words.labels import unit_text
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


def rows(now: standings.TournamentStandings, lines: list[standings.Line]) -> list[dict[str, Any]]:
    """The lines as the pages and printouts show them: every number written out, the notes in words."""
    tournament, first = now.tournament, now.order[0].key
    rows = []
    for line in lines:
        notes = []
        if line.by_lot:
            notes.append(gettext("tie broken by lot"))
        if line.joined:
            notes.append(gettext("joined in %(part)s") % {"part": unit_text(tournament.game, "in_text", line.joined)})
        for number in line.paper:
            notes.append(gettext("%(part)s from a paper list") % {"part": unit_text(tournament.game, "numbered", number)})
        if line.withdrew:
            notes.append(gettext("withdrew after %(part)s")
                         % {"part": unit_text(tournament.game, "in_text", line.withdrew)})
        rows.append({
            "line": line,
            "series": ["–" if figures is None else figure(figures[first], first, tournament)
                       for figures in line.series],
            "figures": [figure(line.total[c.key], c.key, tournament) for c in now.order],
            "movement": "" if line.movement is None else (
                "±0" if line.movement == 0 else f"{line.movement:+d}".replace("-", MINUS)),
            "notes": notes,
        })
    return rows
