"""The site's form renderer (settings.FORM_RENDERER): Django's own, with its smallest widget templates written
in Python.

Django renders every input through nested templates (a tapped choice: ``radio_option.html`` includes
``input_option.html``, which includes ``input.html``, which includes ``attrs.html``), about 0.1 ms an input.
The table page's entry form has some 150 inputs (Skat's bids, the captured cards, the games, the players), so
those templates were 20 of the page's 23 ms, and as much again of every save answered with the page's region.
The functions here write what those templates write — character for character, escaping and localizing as
the template language does (tests/web/test_form_renderer.py renders each case both ways) — in a few microseconds.
Any other template (a whole form, a field's label, a radio list as one block, the admin's widgets) is
rendered by Django's templates as before, and so is a select whose options have a template of their own.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any

from django.forms.renderers import DjangoTemplates
from django.utils.formats import localize
from django.utils.safestring import SafeData
from django.utils.timezone import template_localtime  # type: ignore[attr-defined]  # the stubs lack it

WIDGETS = "django/forms/widgets/"
SELECT_OPTION = WIDGETS + "select_option.html"


def _escaped(text: str) -> str:
    """Django's `conditional_escape` of a string, without its check for lazy arguments."""
    return str(text.__html__()) if hasattr(text, "__html__") else html.escape(text)


def shown(value: Any) -> str:
    """``{{ value }}``: localized (numbers and dates in the page's language) and escaped unless safe."""
    if type(value) is not str:
        value = localize(template_localtime(value))
        value = value if isinstance(value, str) else str(value)
    return _escaped(value)


def _formatted(value: Any) -> str:
    """``{{ value|stringformat:'s' }}``: the value as ``"%s" % value`` writes it, escaped unless it was safe."""
    try:
        text = "%s" % (str(value) if isinstance(value, tuple) else value)  # noqa: UP031 - the filter's own words
    except (ValueError, TypeError):
        text = ""
    return text if isinstance(value, SafeData) else html.escape(text)


def _attrs(attrs: Mapping[str, Any]) -> str:
    """``attrs.html``: each attribute but those set to False; True as a bare name."""
    return "".join(f" {shown(name)}" if value is True else f' {shown(name)}="{_formatted(value)}"'
                   for name, value in attrs.items() if value is not False)


def _input(widget: Mapping[str, Any]) -> str:
    """``input.html`` (and text.html, number.html, checkbox.html …, which only include it), without the
    newline the file ends with (the renderer strips it; an including template keeps it)."""
    value = widget["value"]
    given = f' value="{_formatted(value)}"' if value != None else ""  # noqa: E711 - the template's own test
    return f'<input type="{shown(widget["type"])}" name="{shown(widget["name"])}"{given}{_attrs(widget["attrs"])}>'


def _input_option(widget: Mapping[str, Any]) -> str:
    """``input_option.html`` (radio_option.html, checkbox_option.html): the input, or it in its label."""
    if not widget["wrap_label"]:
        return _input(widget)
    label_for = f' for="{shown(widget["attrs"]["id"])}"' if widget["attrs"].get("id") else ""
    return f'<label{label_for}>{_input(widget)}\n {shown(widget["label"])}</label>'


def _select_option(widget: Mapping[str, Any]) -> str:
    """``select_option.html``."""
    return f'<option value="{_formatted(widget["value"])}"{_attrs(widget["attrs"])}>{shown(widget["label"])}</option>'


def _select(widget: Mapping[str, Any]) -> str | None:
    """``select.html`` with its options (None: an option with a template of its own; the template renders it)."""
    parts = [f'<select name="{shown(widget["name"])}"{_attrs(widget["attrs"])}>']
    for group_name, group_choices, _index in widget["optgroups"]:
        if group_name:
            parts.append(f'\n  <optgroup label="{shown(group_name)}">')
        for option in group_choices:
            if option["template_name"] != SELECT_OPTION:
                return None
            parts.append(f"\n  {_select_option(option)}\n")
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return "".join(parts)


# Each template written here, by its name: what its widget context renders to (already stripped, as the
# renderer strips), or None to leave it to the template.
WRITTEN: dict[str, Callable[[Mapping[str, Any]], str | None]] = {
    **{f"{WIDGETS}{kind}.html": _input for kind in (
        "input", "text", "number", "email", "url", "password", "hidden", "search", "tel", "checkbox", "color",
        "date", "datetime", "time", "file")},
    **{f"{WIDGETS}{kind}.html": _input_option for kind in ("input_option", "radio_option", "checkbox_option")},
    SELECT_OPTION: _select_option,
    WIDGETS + "select.html": _select,
}


class Renderer(DjangoTemplates):
    """Django's template renderer; the widget templates of `WRITTEN` written in Python."""

    def render(self, template_name: str, context: dict[str, Any], request: Any = None) -> str:
        write = WRITTEN.get(template_name)
        if write is not None and request is None:
            html = write(context["widget"])
            if html is not None:
                return html  # the widget marks it safe, as it does the template's
        return str(super().render(template_name, context, request))
