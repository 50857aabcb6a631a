"""Each player's running total over the night, drawn on the server as an inline SVG (no JavaScript).

The chart is one line per player: x is the deal number (from 0, where every total is 0), y the
running total after that deal — exactly the ledger's `Row.totals`, so a player who sits a deal out
keeps his total. Lines differ by dash pattern and by marker shape as well as by colour, so the
chart reads in black and white (print) and without telling colours apart; the legend names each
line with its final total. The `<svg>` has ``role="img"``, a `<title>` and a `<desc>` (the final
totals in words) for screen readers, and only a `viewBox` (``width="100%"``), so it scales to a
phone's width and to the printed page. Names are escaped: a player may be called ``<script>``.

Use::

    {{ chart }}  with  chart = running_totals_svg(ledger)                # a `ledger.Ledger`
    running_totals_svg(Series(["Anna", "Bernd"], [[10, -10], [30, -30]]), format_value=str)
    points(ledger)  # [[(0, 0), (1, 48), …] per player]: what is drawn, in the ledger's numbers
    running_totals_rows(ledger, format_value)  # the same numbers as the rows of a table, for screen readers

Every gridline carries its value (``data-value``) and every deal tick its number (``data-deal``),
and each player's line is a `<polyline class="series-line">` in table order, so a test — or a
reader of the markup — can map the drawing back to the numbers. Output is deterministic.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from scorekeep.nights.ledger import Ledger
from scorekeep.words.labels import listed
from scorekeep.words.money import MINUS, format_money

# The drawing's own units (the viewBox); the page scales it. Narrow enough that text at FONT_SIZE
# stays readable when a phone shows the whole width (360 px: about 10 px type).
WIDTH = 480
LEFT, RIGHT, TOP = 64, 14, 14
PLOT_HEIGHT = 240
FONT_SIZE = 13
X_AXIS_SPACE = 46  # tick labels and the axis title under the plot
LEGEND_ROW = 22
LEGEND_LEFT = 12
CHAR_WIDTH = 7.6  # an estimate of the average character's width at FONT_SIZE, for laying out the legend

# Okabe–Ito colours (distinguishable with the common colour-vision deficiencies), dash patterns
# and marker shapes: three cues for each line, so no one of them is needed alone.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
DASHES = ("", "9 4", "2 3", "12 3 2 3", "5 5", "1 4", "16 4")
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "plus", "triangle-down")
MARKER_SIZE = 4.0
MARKERS_A_LINE = 12  # markers on a long night's line go on every k-th deal, not on every one


@dataclass(frozen=True, slots=True)
class Series:
    """Plain input: the players' names and, after each deal, every player's running total (in the
    names' order). `deals`: how wide the x axis is (e.g. the series length), at least the deals played."""

    names: list[str]
    totals: list[list[int]]
    title: str = ""
    deals: int | None = None
    x_label: str | None = None  # what the x axis counts (default "Deal"; a player's page: nights)
    description: str | None = None  # the chart in words for screen readers (default: the totals after the deals)


def series_of(ledger: Ledger) -> Series:
    """The ledger's running totals after each deal; the axis spans the series when it has a length."""
    table = ledger.table
    title = gettext("Table %(number)s · running totals") % {"number": table.number}
    # After a deleted deal the axis counts the deals that count, not the numbers the list gives them (deal 13
    # is the 12th point): it says so.
    gaps = any(row.number != row.position for row in ledger.rows)
    return Series(list(ledger.names), [list(row.totals) for row in ledger.rows], title, ledger.series_length,
                  x_label=gettext("Deals that count") if gaps else None)


def points(data: Ledger | Series) -> list[list[tuple[int, int]]]:
    """Per player (in table order), the plotted points (deal number, running total), from (0, 0)."""
    series = data if isinstance(data, Series) else series_of(data)
    return [[(0, 0)] + [(number, totals[player]) for number, totals in enumerate(series.totals, start=1)]
            for player in range(len(series.names))]


def nice_step(span: int, ticks: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50 … that divides `span` into at most `ticks` intervals."""
    magnitude = 1
    while True:
        for factor in (1, 2, 5):
            if span <= factor * magnitude * ticks:
                return factor * magnitude
        magnitude *= 10


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"{MINUS}{-value}" if value < 0 else "0"


def _number(value: float) -> str:
    """A coordinate, short and exact enough (a hundredth of a unit)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _marker(shape: str, x: float, y: float, colour: str) -> str:
    """One marker as a path centred on (x, y): filled shapes are white inside, so they stay apart in
    black and white from the lines they sit on."""
    s = MARKER_SIZE
    outline = {
        "circle": f"M{_number(x - s)} {_number(y)}a{s} {s} 0 1 0 {2 * s} 0a{s} {s} 0 1 0 {-2 * s} 0Z",
        "square": f"M{_number(x - s)} {_number(y - s)}h{2 * s}v{2 * s}h{-2 * s}Z",
        "triangle": f"M{_number(x)} {_number(y - s - 1)}l{s + 1} {2 * s + 1}h{-2 * s - 2}Z",
        "triangle-down": f"M{_number(x)} {_number(y + s + 1)}l{s + 1} {-2 * s - 1}h{-2 * s - 2}Z",
        "diamond": f"M{_number(x)} {_number(y - s - 1)}l{s + 1} {s + 1}l{-s - 1} {s + 1}l{-s - 1} {-s - 1}Z",
        "cross": f"M{_number(x - s)} {_number(y - s)}l{2 * s} {2 * s}m0 {-2 * s}l{-2 * s} {2 * s}",
        "plus": f"M{_number(x - s - 1)} {_number(y)}h{2 * s + 2}m{-s - 1} {-s - 1}v{2 * s + 2}",
    }[shape]
    return f'<path class="marker" data-shape="{shape}" d="{outline}" fill="#fff" stroke="{colour}" stroke-width="1.6"/>'


def running_totals_svg(data: Ledger | Series, *, format_value: Callable[[int], str] | None = None,
                       title: str | None = None, id_prefix: str | None = None) -> SafeString:
    """The chart as SVG markup, safe to put in a page as it is.

    `format_value` writes a total for the axis and the legend (default: Schafkopf ledgers in money
    of the night's currency, everything else as signed points); `id_prefix` keeps the ids of the
    `<title>`/`<desc>` unique when a page shows several charts (default: from the table).
    """
    if isinstance(data, Series):
        series = data
        prefix = id_prefix or "running-totals"
    else:
        series = series_of(data)
        night = data.table.night
        prefix = id_prefix or f"running-totals-{data.table.pk}"
        if format_value is None and night.money:
            currency, exponent = night.currency, night.exponent

            def format_value(cents: int) -> str:
                return format_money(cents, currency, exponent=exponent, plus=True)
    label = format_value or _signed
    lines = points(series)
    title = title or series.title or gettext("Running totals")

    # The value axis always shows 0, and spans whole steps of 1, 2, 5 × 10^k.
    values = [total for line in lines for _deal, total in line] or [0]
    low, high = min(values), max(values)
    step = nice_step(max(high - low, 1), 6)
    y_low, y_high = math.floor(low / step) * step, math.ceil(high / step) * step
    if y_low == y_high:
        y_high += step
    deals = max(len(series.totals), series.deals or 0, 1)
    deal_step = nice_step(deals, 12)

    plot_width = WIDTH - LEFT - RIGHT
    bottom = TOP + PLOT_HEIGHT

    def px(deal: int) -> float:
        return LEFT + deal * plot_width / deals

    def py(total: int) -> float:
        return TOP + (y_high - total) * PLOT_HEIGHT / (y_high - y_low)

    # The legend: one entry a player (line sample, marker, name, final total), in as many columns as fit.
    finals = [line[-1][1] for line in lines]
    entries = [f"{name} {label(final)}" for name, final in zip(series.names, finals, strict=True)]
    entry_width = 48 + CHAR_WIDTH * max((len(entry) for entry in entries), default=0)
    columns = max(1, min(len(entries), int((WIDTH - LEGEND_LEFT) // entry_width)))
    rows = math.ceil(len(entries) / columns)
    height = bottom + X_AXIS_SPACE + rows * LEGEND_ROW + 6

    description = series.description or ngettext(
        "Running total of each player after %(deals)s deal. Final totals: %(totals)s.",
        "Running total of each player after each of %(deals)s deals. Final totals: %(totals)s.",
        len(series.totals)) % {"deals": len(series.totals), "totals": listed(entries)}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="running-totals" viewBox="0 0 {WIDTH} {_number(height)}" '
        f'width="100%" role="img" aria-labelledby="{escape(prefix)}-title {escape(prefix)}-desc" '
        f'font-family="sans-serif" font-size="{FONT_SIZE}">',
        f'<title id="{escape(prefix)}-title">{escape(title)}</title>',
        f'<desc id="{escape(prefix)}-desc">{escape(description)}</desc>',
        '<g class="grid">',
    ]
    for value in range(y_low, y_high + 1, step):
        gy = _number(py(value))
        out.append(f'<line class="gridline" data-value="{value}" x1="{LEFT}" y1="{gy}" x2="{WIDTH - RIGHT}" y2="{gy}" '
                   f'stroke="#ccc" stroke-width="0.8"/>')
        out.append(f'<text class="value-label" x="{LEFT - 6}" y="{gy}" dy="0.35em" text-anchor="end">'
                   f'{escape(label(value))}</text>')
    out.append("</g>")
    out.append('<g class="deal-axis">')
    out.append(f'<line x1="{LEFT}" y1="{bottom}" x2="{WIDTH - RIGHT}" y2="{bottom}" stroke="#000"/>')
    for deal in range(0, deals + 1, deal_step):
        tx = _number(px(deal))
        out.append(f'<line class="deal-tick" data-deal="{deal}" x1="{tx}" y1="{bottom}" x2="{tx}" y2="{bottom + 5}" '
                   f'stroke="#000"/>')
        out.append(f'<text x="{tx}" y="{bottom + 19}" text-anchor="middle">{deal}</text>')
    out.append(f'<text class="axis-title" x="{_number(LEFT + plot_width / 2)}" y="{bottom + 38}" '
               f'text-anchor="middle">{escape(series.x_label or gettext("Deal"))}</text>')
    out.append("</g>")
    out.append(f'<line class="zero-line" data-value="0" x1="{LEFT}" y1="{_number(py(0))}" x2="{WIDTH - RIGHT}" '
               f'y2="{_number(py(0))}" stroke="#000" stroke-width="1.2"/>')

    every = max(1, math.ceil(deals / MARKERS_A_LINE))
    for player, (name, line) in enumerate(zip(series.names, lines, strict=True)):
        colour, dash, shape = (style[player % len(style)] for style in (COLOURS, DASHES, MARKERS))
        dasharray = f' stroke-dasharray="{dash}"' if dash else ""
        coordinates = " ".join(f"{_number(px(deal))},{_number(py(total))}" for deal, total in line)
        out.append(f'<g class="series" data-player="{player}">')
        out.append(f"<title>{escape(name)}</title>")
        out.append(f'<polyline class="series-line" points="{coordinates}" fill="none" stroke="{colour}" '
                   f'stroke-width="2" stroke-linejoin="round"{dasharray}/>')
        # Markers staggered by player, so lines that run together still show each one's marker.
        for deal, total in line[1:]:
            if (deal - player) % every == 0 or deal == len(line) - 1:
                out.append(_marker(shape, px(deal), py(total), colour))
        out.append("</g>")

    out.append('<g class="legend">')
    for player, (name, final) in enumerate(zip(series.names, finals, strict=True)):
        colour, dash, shape = (style[player % len(style)] for style in (COLOURS, DASHES, MARKERS))
        x = LEGEND_LEFT + (player % columns) * entry_width
        y = bottom + X_AXIS_SPACE + (player // columns) * LEGEND_ROW + LEGEND_ROW / 2
        dasharray = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<line x1="{_number(x)}" y1="{_number(y)}" x2="{_number(x + 32)}" y2="{_number(y)}" '
                   f'stroke="{colour}" stroke-width="2"{dasharray}/>')
        out.append(_marker(shape, x + 16, y, colour))
        out.append(f'<text class="legend-entry" data-player="{player}" x="{_number(x + 38)}" y="{_number(y)}" '
                   f'dy="0.35em"><tspan class="name">{escape(name)}</tspan> '
                   f'<tspan class="final" font-weight="bold">{escape(label(final))}</tspan></text>')
    out.append("</g>")
    out.append("</svg>")
    return mark_safe("\n".join(out))  # every name and label above went through escape()


def running_totals_rows(ledger: Ledger, format_value: Callable[[int], str]) -> SafeString:
    """The chart's numbers as table rows (``_chart.html`` puts them in its table): a row per deal, its number
    and each player's running total written by `format_value`, a negative one marked ``class="negative"``.
    Written here rather than by a template loop: a table of 1,000 deals has 4,000 cells, about 20 ms
    through the template language and 2 ms here."""
    rows = []
    for row in ledger.rows:
        cells = "".join(f'<td class="negative">{escape(format_value(total))}</td>' if total < 0
                        else f"<td>{escape(format_value(total))}</td>" for total in row.totals)
        rows.append(f'<tr><th scope="row">{row.number}</th>{cells}</tr>')
    return mark_safe("\n".join(rows))  # every value above went through escape()
