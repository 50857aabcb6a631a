"""The words of a tournament's parts on its pages and printouts: "Series 2" for Skat, Schafkopf and Fipsen,
"Round 2" for Kop, as the engine names them (`labels.unit_text`, `rules.tournament.Format.unit`) — no page asks
which game it is."""

from __future__ import annotations

from django import template

from scorekeep.words.labels import unit_text

register = template.Library()


@register.simple_tag
def unit(game: str, form: str = "numbered", n: int | None = None) -> str:
    """``{% unit tournament.game "numbered" 2 %}`` → "Series 2" / "Round 2" (``as name`` to use it in a sentence)."""
    return unit_text(game, form, n)
