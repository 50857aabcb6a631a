"""The entry form's rows of taps, written in Python (scorekeep.web.form_renderer does the same for the widgets).

A row of taps is a loop over a choice field's choices, each its input in a label: the template's loop cost about
0.1 ms a choice (the loop, the variables, the condition), and a Skat entry has some 130 of them (the bids, the
matadors, the captured cards), so the loop was about half of every entry form rendered — the table page, each
save's answer, and each of the ~30 forms a phone keeps for offline use. The output is the template's, character
for character (tests/web/test_form_renderer.py renders both and compares).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.forms import BoundField
from django.utils.safestring import SafeString, mark_safe

from scorekeep.web.form_renderer import shown

register = template.Library()


@register.simple_tag
def taps(fields: BoundField | Iterable[BoundField], common: int = 0, folded: bool = False,
         cards: bool = False) -> SafeString:
    """Each choice of `fields` (a field, or a question's fields one after another) as a tap: its input in its
    label. With `common`, the first `common` choices of each field (or, `folded`, the rest: under "Other").
    `cards`: the captured cards' taps, each marked with its suit (the value's first letter)."""
    out = []
    for field in [fields] if isinstance(fields, BoundField) else fields:
        for counter, choice in enumerate(field, 1):
            if common and (counter > common) != folded:
                continue
            css = f"card-tap suit-{shown(str(choice.data['value'])[:1])}" if cards else "tap"
            out.append(f'<label class="{css}" for="{shown(choice.id_for_label)}">{choice.tag()}'
                       f'<span>{shown(choice.choice_label)}</span></label>')
    return mark_safe("".join(out))  # noqa: S308 - each part escaped (`shown`) or the widget's own safe HTML


@register.simple_tag
def grid_taps(cells: Iterable[Any], grid: Any, spoken: bool = True) -> SafeString:
    """A row of the grid of players and games (nights.entry.DeclarerGrid): each cell a tap of the one radio group
    "contract", with the grid's htmx attributes (`grid.swap`). `spoken`: the cell shows a sign and says its
    player and game to a screen reader (a player's row); else it shows a game's name (the games beside the legend)."""
    common = ((' aria-invalid="true"' if grid.invalid else "") + f' aria-describedby="{shown(grid.described_by)}"'
              + "".join(f' {shown(name)}="{shown(value)}"' for name, value in grid.swap.items()))
    out = []
    for cell in cells:
        css = "tap" + (" sign" if spoken and cell.sign else "") + (" red" if spoken and cell.red else "")
        tap = (f'<input type="radio" name="contract" value="{shown(cell.value)}" id="{shown(cell.id)}"'
               f'{" checked" if cell.checked else ""}{common}>')
        said = (f'<span aria-hidden="true">{shown(cell.shown)}</span><span class="visually-hidden">{shown(cell.label)}'
                '</span>' if spoken else f"<span>{shown(cell.shown)}</span>")
        out.append(f'<label class="{css}" for="{shown(cell.id)}">{tap}{said}</label>')
    return mark_safe("".join(out))  # noqa: S308 - each part escaped (`shown`)
