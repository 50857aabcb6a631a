"""Punctuation as the page's language writes it: a list's commas ("Anna、Bernd" in Japanese) and brackets
("（EUR）"), for the lists and asides the templates put together."""

from __future__ import annotations

from collections.abc import Iterable

from django import template

from scorekeep.words import labels

register = template.Library()


@register.filter
def listed(items: Iterable[object]) -> str:
    """``{{ names|listed }}``: the items with the language's list separator (``", "``, ``"、"``)."""
    return labels.listed(items)


@register.filter(is_safe=True)
def bracketed(text: object) -> str:
    """``{{ label|bracketed }}``: the text in the language's brackets (``"(…)"``, ``"（…）"``)."""
    return labels.bracketed(text)
