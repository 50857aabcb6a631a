"""A link as a QR code to print or show: inline SVG made by segno, so a page needs no network and no image."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str) -> SafeString:
    """The link as an inline SVG QR code (black on white, printable)."""
    svg = segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#000", light="#fff", omitsize=True)
    return mark_safe(svg)  # noqa: S308 - segno writes the SVG itself; the URL is only encoded in it
