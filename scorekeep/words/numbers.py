"""How the pages write a number: signed numbers, averages, placings, matadors, and money as a night counts it.

One place for the minus sign (`MINUS`, scorekeep.words.money), the fractions of tied placings and the sign of
an amount, shared by the template filters (templatetags/ledger_tags.py) and the modules that present numbers.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal  # "": what a template hands a filter for a missing value

from django.template.defaultfilters import floatformat
from django.utils.translation import gettext

from scorekeep.models import CardNight
from scorekeep.words.money import MINUS, format_money

# Vulgar fractions for the shares tied players get (two, three or four of them tie).
FRACTIONS = {(1, 2): "½", (1, 3): "⅓", (2, 3): "⅔", (1, 4): "¼", (3, 4): "¾"}


def signed(value: int | Literal[""] | None) -> str:
    """+48, −96, 0; empty for None (a player who sat out)."""
    if value is None or value == "":
        return ""
    value = int(value)
    return f"+{value}" if value > 0 else f"{MINUS}{-value}" if value < 0 else "0"


def average(value: float | Literal[""] | None) -> str:
    """An average (points a deal, a night) to one decimal place where it has one, in the page's language
    (Django's ``floatformat:"-1"``: 3, −0.7, −0,7), with the minus sign `signed` writes."""
    if value is None or value == "":
        return ""
    text = str(floatformat(value, -1))
    return MINUS + text[1:] if text.startswith("-") else text


def decimal(value: float | Literal[""] | None) -> str:
    """A number to one decimal place (a rating: 12.3, −4.4; German −4,4), with the minus sign `signed` writes
    (Django's ``floatformat:1`` writes a hyphen)."""
    if value is None or value == "":
        return ""
    text = str(floatformat(value, 1))
    return MINUS + text[1:] if text.startswith("-") else text


def unit_of(unit: CardNight | str) -> tuple[str, int | None]:
    """A night's currency and the decimals its amounts are kept in, or a currency's code (its own decimals)."""
    return (unit.currency, unit.exponent) if isinstance(unit, CardNight) else (unit, None)


def money(amount: int | None, unit: CardNight | str) -> str:
    """An amount in a night's currency (or a currency's own), kept in its minor unit: €4.20, −€0.60, ¥1,200,
    1.50 CHF (scorekeep.words.money: one way to write money, per language)."""
    if amount is None:
        return ""
    currency, exponent = unit_of(unit)
    return format_money(int(amount), currency, exponent=exponent)


def signed_money(amount: int | None, unit: CardNight | str) -> str:
    """A payment: +€0.20, −€0.60, €0.00, +¥200."""
    if amount is None:
        return ""
    currency, exponent = unit_of(unit)
    return format_money(int(amount), currency, exponent=exponent, plus=True)


def amount(value: int | Literal[""] | None, night: CardNight) -> str:
    """A value or a total as the night counts it: Schafkopf in money (the night's currency, €4.20, ¥1,200),
    every other game in points (48)."""
    if value is None or value == "":
        return ""
    return money(value, night) if night.money else str(int(value))


def signed_amount(value: int | Literal[""] | None, night: CardNight) -> str:
    """An entry or a running total as the night counts it, with its sign: +€0.20, −€0.60; +48, −96, 0."""
    if value is None or value == "":
        return ""
    return signed_money(value, night) if night.money else signed(value)


def placing(value: Fraction | int | None) -> str:
    """Placing points as people write them: 4, 3½, 2⅓."""
    if value is None:
        return ""
    value = Fraction(value)
    whole, rest = divmod(value.numerator, value.denominator)
    if not rest:
        return str(whole)
    part = FRACTIONS.get((rest, value.denominator), f" {rest}/{value.denominator}")
    return f"{whole or ''}{part}".strip()


def matadors(value: int | None) -> str:
    """Skat matadors: "with 2", "without 1"."""
    if value is None:
        return ""
    if value >= 0:
        return gettext("with %(n)s") % {"n": value}
    return gettext("without %(n)s") % {"n": -value}
