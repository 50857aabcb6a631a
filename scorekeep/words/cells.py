"""How dates and texts are written where a machine reads them back: the date inputs' and files' ISO dates, a
CSV text cell a spreadsheet keeps as text, and the CSV files themselves."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from typing import Any

DATE_FORMAT = "%Y-%m-%d"

# What starts a formula in a spreadsheet: = + - @ — also in their full-width forms (＝ ＋ － ＠), which
# spreadsheets set up for Japanese take as the same — and a tab or a carriage return.
FORMULA_STARTS = ("=", "+", "-", "@", "\uff1d", "\uff0b", "\uff0d", "\uff20", "\t", "\r")


def text_cell(value: str) -> str:
    """A text cell a spreadsheet shows as text: one that would start a formula gets a leading '."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


DECIMAL_COMMA = "comma"  # ?decimal=comma: the CSV as a spreadsheet set up for German opens it
_DECIMAL = re.compile(r"-?[0-9]+\.[0-9]+")


def csv_bytes(rows: Sequence[Sequence[str]], *, decimal_comma: bool = False) -> bytes:
    """A CSV file as Excel opens it: UTF-8 with the byte-order mark (Excel reads UTF-8 only with it). With
    `decimal_comma`, as Excel set up for German (and most of Europe) opens it on a double click: semicolons
    between the cells and a decimal comma in every number (-0,60) — the plain file put every line of a
    German club's list into its first column."""
    out = io.StringIO()
    out.write("\ufeff")
    if decimal_comma:
        rows = [[cell.replace(".", ",") if _DECIMAL.fullmatch(cell) else cell for cell in row] for row in rows]
    csv.writer(out, delimiter=";" if decimal_comma else ",").writerows(rows)
    return out.getvalue().encode("utf-8")


def wants_decimal_comma(request: Any) -> bool:
    """Whether the download asks for semicolons and decimal commas (`DECIMAL_COMMA`)."""
    return bool(request.GET.get("decimal") == DECIMAL_COMMA)
