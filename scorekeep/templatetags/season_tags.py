"""How a season's table writes its numbers: through the ledger's own filters (money, signs, placings)."""

from __future__ import annotations

from fractions import Fraction

from django import template

from scorekeep.clubs.seasons import Table
from scorekeep.clubs.stats import rounded
from scorekeep.rules.season import Measure
from scorekeep.words.numbers import average, placing, signed, signed_money

register = template.Library()


@register.filter
def season_value(value: Fraction | None, table: Table) -> str:
    """A result or a score as the season counts it: money (cents of the season's currency), placing points
    (3½), an average per series to one decimal place, or points with their sign."""
    if value is None:
        return ""
    if table.money:
        return signed_money(rounded(value), table.nights[-1] if table.nights else table.currency)
    if table.basis.measure == Measure.PLACING:
        return placing(value)
    if table.basis.per_series:
        return average(float(value))
    return signed(int(value))


@register.filter
def movement(value: int | None) -> str:
    """▲2, ▼1, = (no change); empty where the player was not ranked before."""
    if value is None:
        return ""
    return f"▲{value}" if value > 0 else f"▼{-value}" if value < 0 else "="
