"""The running-totals chart for templates: ``{% load chart_tags %}{{ ledger|running_totals_chart }}``.

The drawing is `scorekeep.charts`'; this only makes it reachable from `_chart.html`.
"""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from .. import charts
from ..ledger import Ledger

register = template.Library()


@register.filter
def running_totals_chart(ledger: Ledger) -> SafeString:
    """The table's running totals as an inline SVG (names escaped by `charts`)."""
    return charts.running_totals_svg(ledger)
