"""Money in each currency's own minor unit (ISO 4217), written the way the page's language writes it.

Every amount the app keeps is an integer count of a night's *minor unit*: cents of EUR or CHF, whole
yen of JPY (which has no smaller unit), fils of KWD. How many decimals that unit is — the night's
`CardNight.amount_exponent` — is fixed when the night is made (Babel's CLDR data: JPY 0, EUR 2, KWD 3)
and kept with it, so a later change of the data never changes what a stored integer means. Nights
stored before the exponent existed were all kept in hundredths; migration 0009 keeps their amounts
(docs/MONEY.md): exponent 2, except in currencies without a minor unit, where the tariff's integers
were the whole yen the table typed and the settlement's fees (typed in yen, stored × 100) are divided
back.

Formatting follows CLDR through Babel in every language (¥1,200 · 1.200 ¥ · €12.50 · 12,50 €), with
the currency's own number of decimals; an amount finer than that (a night kept in hundredths of a
yen, a settlement's exact share) shows the decimals it has. English writes currencies without a
symbol of their own with the code after the amount (1.50 CHF), as the lists always did. The minus
sign is the true minus (U+2212), so columns line up.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from babel.core import UnknownLocaleError
from babel.numbers import (
    format_currency,
    get_currency_precision,
    get_currency_symbol,
    get_decimal_symbol,
    get_group_symbol,
)
from django.utils import translation
from django.utils.translation import gettext

MINUS = "\u2212"  # a real minus sign, as on the ledger pages

# Currencies English writes with a symbol in front; the others get their code after the amount.
CURRENCY = re.compile(r"[A-Z]{3}")  # an ISO 4217 code, as a night, a settlement or a tournament takes it
CURRENCY_SYMBOLS = frozenset({"EUR", "USD", "GBP", "JPY"})

# Money as typed: whole units and a decimal part after a point or a comma. No signs, no exponents,
# and a bounded size, so no input can make an absurdly large exact number.
MONEY = re.compile(r"(\d{1,6})(?:[.,](\d*))?")


def currency_exponent(currency: str) -> int:
    """The decimals of the currency's minor unit (ISO 4217 through CLDR): JPY 0, EUR 2, KWD 3; 2 for a
    code CLDR does not know."""
    try:
        return int(get_currency_precision(currency))
    except (KeyError, ValueError):
        return 2


def in_units(amount: int | Decimal, exponent: int) -> Decimal:
    """A count of minor units as units of the currency: 1250 cents (exponent 2) → 12.50."""
    return Decimal(amount).scaleb(-exponent)


def _language() -> str:
    return translation.get_language() or "en"


def symbol(currency: str) -> str:
    """The currency's sign in the page's language (€, ¥, ￥ in Japanese), or its code."""
    try:
        return str(get_currency_symbol(currency, locale=translation.to_locale(_language())))
    except (UnknownLocaleError, ValueError):
        return currency


@lru_cache(maxsize=256)
def _shape(locale: str, currency: str) -> tuple[str, str, str, str, int]:
    """How `locale` writes an amount of `currency`, read once from CLDR (Babel) and kept: the text before and
    after the number, the decimal and the group sign, and the currency's own decimals. A ledger writes
    thousands of amounts; Babel's formatting of each costs a page tens of milliseconds, this a few."""
    pattern = None if currency in CURRENCY_SYMBOLS or locale != "en" else "#,##0.00\u00a0¤¤"
    try:
        sample = format_currency(Decimal(1), currency, format=pattern, locale=locale)
        decimal, group = get_decimal_symbol(locale), get_group_symbol(locale)
    except (UnknownLocaleError, ValueError):
        return _shape("en", currency)
    number = re.search(r"1(?:" + re.escape(decimal) + r"0+)?", sample)
    assert number is not None, sample
    return sample[:number.start()], sample[number.end():], decimal, group, currency_exponent(currency)


def _locale() -> str:
    language = _language()
    return "en" if language.startswith("en") else translation.to_locale(language)


def format_units(value: Decimal, currency: str, *, plus: bool = False) -> str:
    """An amount in units of the currency as the page's language writes money, with at least the currency's
    own decimals (and more where the value has them)."""
    sign = MINUS if value < 0 else "+" if plus and value > 0 else ""
    before, after, decimal, group, digits = _shape(_locale(), currency)
    text = format(abs(value), "f")
    whole, _point, fraction = text.partition(".")
    fraction = fraction.rstrip("0").ljust(digits, "0")
    number = f"{int(whole):,}".replace(",", group) + (decimal + fraction if fraction else "")
    return f"{sign}{before}{number}{after}"


def format_money(amount: int, currency: str = "EUR", *, exponent: int | None = None, plus: bool = False) -> str:
    """An amount kept in minor units (`exponent` decimals; the currency's own when not given) as the page's
    language writes money: €4.20, −€0.60, ¥1,200, 1.50 CHF in English; 4,20 €, 1.200 ¥ in German;
    +€0.20 with `plus`."""
    return format_units(in_units(amount, currency_exponent(currency) if exponent is None else exponent),
                        currency, plus=plus)


def parse_units(text: str, decimals: int) -> Decimal | None:
    """Money typed in units of the currency ("0.05", "0,05", "5") with at most `decimals` decimals;
    None when it is not such a number."""
    match = MONEY.fullmatch(text.strip())
    if match is None or len(match.group(2) or "") > decimals:
        return None
    return Decimal(f"{match.group(1)}.{match.group(2) or '0'}")


def money_input_error(text: str, currency: str, exponent: int) -> str:
    """Why typed money was refused, naming the currency's decimals: "¥ has no decimals" for yen."""
    if exponent == 0:
        return gettext("%(symbol)s has no decimals: write whole %(currency)s, e.g. 500 — not “%(value)s”.") % {
            "symbol": symbol(currency), "currency": currency, "value": text}
    if exponent == 2:
        return gettext("Write the fee in %(currency)s as a number with at most two decimals, e.g. 5 or 0.50 — "
                       "not “%(value)s”.") % {"currency": currency, "value": text}
    return gettext("Write the amount in %(currency)s as a number with at most %(n)s decimals — not “%(value)s”.") % {
        "currency": currency, "n": exponent, "value": text}
