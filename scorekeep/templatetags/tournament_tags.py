"""The words of a tournament's parts on its pages and printouts: "Series 2" for Skat, Schafkopf and Fipsen,
"Round 2" for Kop, as the engine names them (`rules.tournament.Format.unit`) — no page asks which game it is."""

from __future__ import annotations

from django import template

from ..labels import in_game
from ..rules.tournament import format_of

register = template.Library()

FORMS = ("word", "numbered", "in_text", "short")


def unit_text(game: str, form: str = "numbered", n: int | None = None) -> str:
    """One of the unit's forms (`FORMS`) in the page's language, with its number where it has one."""
    if form not in FORMS:
        raise template.TemplateSyntaxError(f"unit: the form is one of {', '.join(FORMS)}, not {form!r}")
    text = in_game(getattr(format_of(game).unit, form), game)
    return text.format(n=n) if n is not None else text


@register.simple_tag
def unit(game: str, form: str = "numbered", n: int | None = None) -> str:
    """``{% unit tournament.game "numbered" 2 %}`` → "Series 2" / "Round 2" (``as name`` to use it in a sentence)."""
    return unit_text(game, form, n)
