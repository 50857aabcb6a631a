"""How dates and texts are written where a machine reads them back: the date inputs' and files' ISO dates, and a
CSV text cell a spreadsheet keeps as text."""

from __future__ import annotations

DATE_FORMAT = "%Y-%m-%d"

# What starts a formula in a spreadsheet: = + - @ — also in their full-width forms (＝ ＋ － ＠), which
# spreadsheets set up for Japanese take as the same — and a tab or a carriage return.
FORMULA_STARTS = ("=", "+", "-", "@", "\uff1d", "\uff0b", "\uff0d", "\uff20", "\t", "\r")


def text_cell(value: str) -> str:
    """A text cell a spreadsheet shows as text: one that would start a formula gets a leading '."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value
