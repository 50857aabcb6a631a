"""The running-totals chart for templates: ``{% load chart_tags %}{{ ledger|running_totals_chart }}``, and its
numbers as table rows, ``{{ ledger|running_totals_rows:night }}``.

The drawing is `scorekeep.nights.charts`'; this only makes it reachable from `_chart.html`.
"""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from scorekeep.models import CardNight
from scorekeep.nights import charts
from scorekeep.nights.ledger import Ledger
from scorekeep.words.numbers import signed_amount

register = template.Library()


@register.filter
def running_totals_chart(ledger: Ledger) -> SafeString:
    """The table's running totals as an inline SVG (names escaped by `charts`)."""
    return charts.running_totals_svg(ledger)


@register.filter
def running_totals_rows(ledger: Ledger, night: CardNight) -> SafeString:
    """The chart's numbers, a row per deal, each total as the ledger writes it (`signed_amount`)."""
    return charts.running_totals_rows(ledger, lambda total: signed_amount(total, night))
