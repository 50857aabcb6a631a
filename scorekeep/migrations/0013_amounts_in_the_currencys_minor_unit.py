"""Amounts in each currency's own minor unit (scorekeep/money.py, docs/MONEY.md).

Before, every amount was kept in hundredths of the night's currency. Each existing night gets the
exponent its stored integers already have, so it keeps its amounts:

- A currency with a minor unit (EUR, CHF, USD; KWD's fils too): exponent 2 — the integers are cents as
  they were stored; nothing is rewritten. (A KWD night made from now on counts in thousandths.)
- A currency without one (JPY, KRW, ISK …): exponent 0. The tariff's integers were typed on the night
  form as they stand (the form said "cents", but a yen has none: the table typed the yen it plays for,
  and the pages showed them divided by 100 — the bug), so they are kept and read as whole yen; deals'
  verdicts, computed from them, are unchanged. The settlement's fees and rate were typed in yen and
  stored × 100: they are divided back (to the nearest yen; the rate exactly), and a rounding step
  finer than a yen becomes 1 yen.
"""

from decimal import Decimal

from babel.numbers import get_currency_precision
from django.db import migrations, models


def _exponent(currency):
    try:
        return int(get_currency_precision(currency))
    except (KeyError, ValueError):
        return 2


def _whole(value):
    """Hundredths of a yen as yen, halves away from zero (a stored fee is never negative)."""
    return int((Decimal(value) / 100).to_integral_value(rounding="ROUND_HALF_UP"))


def keep_amounts(apps, schema_editor):
    CardNight = apps.get_model("scorekeep", "CardNight")
    for night in CardNight.objects.filter(amount_exponent__isnull=True).iterator():
        night.amount_exponent = 0 if _exponent(night.currency) == 0 else 2
        options = night.settlement if isinstance(night.settlement, dict) else {}
        if night.amount_exponent == 0 and options:
            options = dict(options)
            for key in ("entry_fee", "lost_game_fee"):
                if isinstance(options.get(key), int) and not isinstance(options[key], bool):
                    options[key] = _whole(options[key])
            if "step" in options:  # every step there was (1 … 100 hundredths) is at most a yen
                options["step"] = 1
            if options.get("rate") is not None:
                try:
                    rate = Decimal(str(options["rate"])) / 100
                except ArithmeticError:
                    pass  # a stored value nobody could read: the settlement page names it, as before
                else:
                    options["rate"] = format(rate.normalize(), "f")
            night.settlement = options
        night.save(update_fields=["amount_exponent", "settlement"])


class Migration(migrations.Migration):

    dependencies = [
        ("scorekeep", "0012_seasons_and_ratings"),
    ]

    operations = [
        migrations.AddField(
            model_name="cardnight",
            name="amount_exponent",
            field=models.PositiveSmallIntegerField(blank=True, editable=False, null=True,
                                                   verbose_name="decimals of the amounts"),
        ),
        migrations.RunPython(keep_amounts, migrations.RunPython.noop),
    ]
