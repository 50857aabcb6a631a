"""The PDF of each demo night's list (`scorekeep.pdf`, rendered by Chromium): A4, and its text holds
the date, the players and their totals. One render per game, so the module stays fast."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from scorekeep import ledger, settlement
from scorekeep.models import CardNight
from scorekeep.templatetags.ledger_tags import placing, signed

CHROMIUM = Path("/usr/bin/chromium")

pytestmark = [pytest.mark.django_db, pytest.mark.browser]

A4_POINTS = (595, 842)  # 210 × 297 mm


@pytest.fixture(autouse=True)
def chromium(settings: Any) -> None:
    if not CHROMIUM.exists():
        reason = f"the PDF tests need Chromium at {CHROMIUM} (apt-get install chromium, or `make browser`)"
        if os.environ.get("CI"):
            pytest.fail(reason + "; CI is set, so this is a failure, not a skip")
        pytest.skip(reason)
    settings.SCOREKEEP_CHROMIUM = str(CHROMIUM)


def pdf_text(client: Client, night: CardNight) -> tuple[str, PdfReader]:
    response = client.get(reverse("night-pdf", args=[night.pk]))
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    assert f"{night.game}-{night.date.isoformat()}-demo-" in response["Content-Disposition"]
    reader = PdfReader(io.BytesIO(response.content))
    width, height = (round(float(v)) for v in reader.pages[0].mediabox.upper_right)
    assert (width, height) == A4_POINTS
    return "\n".join(page.extract_text() for page in reader.pages), reader


def tokens(text: str) -> set[str]:
    return set(text.split())


@pytest.mark.parametrize("game", ["skat", "schafkopf", "kop", "fipsen"])
def test_demo_night_pdf_holds_date_players_and_totals(client: Client, demo: dict, game: str) -> None:  # noqa: F811
    night = demo[game]
    text, reader = pdf_text(client, night)
    book = ledger.build(night.tables.get())
    words = tokens(text)
    assert night.date.isoformat() in words
    for name in book.names:
        assert name in text
    if game == "schafkopf":
        for total in book.totals:
            assert settlement.format_money(total, night.currency, plus=True) in words
    else:
        for total in book.totals:
            assert signed(total) in words
    if game == "skat":
        for final in book.performance:  # the footer's final sum
            assert signed(final) in words
        assert "Final sum" in text
    if game == "schafkopf":  # text beyond ASCII survives: the fonts carry the German letters
        assert "Stoß" in text
    if game == "kop":
        assert book.placing_totals is not None
        for points in book.placing_totals:
            assert placing(points) in words
    # Every deal's row made it onto the paper.
    assert str(book.deals_played) in words
    assert len(reader.pages) <= 3
