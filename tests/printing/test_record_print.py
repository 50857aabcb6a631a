"""The printout, the PDF and the CSV mark every corrected, deleted and restored deal (issue 33): a sign in the
row, a footnote under the list (what changed old → new, by whom, when, why), and the check of the record
counting the history's entries."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scorekeep.models import CardNight
from scorekeep.nights import writes as nights

CLUBS = {"contract": "clubs", "declarer": 0, "bid": 18, "matadors": 1, "card_points": 72}


@pytest.fixture
def corrected(db: None) -> CardNight:
    """Three deals at a 3-seat Skat table: deal 2's card points corrected 72 → 58 by Eva, deal 3 deleted by
    Eva and restored by Dieter."""
    night = nights.start_night(game="skat", preset="classic", players=["Anna", "Bernd", "Clara"], place="Clubhaus")
    table = night.tables.get()
    for _ in range(3):
        nights.enter_deal(table, CLUBS, by="Anna")
    nights.correct_deal(table.deals.get(sequence=2), {**CLUBS, "card_points": 58}, by="Eva", reason="misread")
    nights.delete_deal(table.deals.get(sequence=3), by="Eva", reason="entered at the wrong table")
    nights.restore_deal(table.deals.get(sequence=3), by="Dieter", reason="it was ours")
    return night


def row_of(page: str, number: int) -> str:
    found = re.search(rf'<tr data-deal="{number}".*?</tr>', page, re.S)
    assert found is not None
    return found[0]


def test_the_printout_marks_each_change_in_its_row_and_says_it_in_a_footnote(client: Client,
                                                                               corrected: CardNight) -> None:
    page = client.get(reverse("night-print", args=[corrected.pk])).content.decode()
    assert "record-mark" not in row_of(page, 1)
    assert re.search(r'data-note="1">corrected<sup>1</sup>', row_of(page, 2))
    assert re.search(r'data-note="2">deleted<sup>2</sup>.*data-note="3">restored<sup>3</sup>', row_of(page, 3))
    notes = dict(re.findall(r'<li value="(\d)" data-note="\d" data-deal="\d">(.*?)</li>', page, re.S))
    assert re.fullmatch(r"Deal 2 changed by Eva at \d\d:\d\d: .*72 → 58 \(reason: misread\)", notes["1"])
    assert re.fullmatch(r"Deal 3 deleted by Eva at \d\d:\d\d \(reason: entered at the wrong table\)", notes["2"])
    assert re.fullmatch(r"Deal 3 restored by Dieter at \d\d:\d\d \(reason: it was ours\)", notes["3"])
    check = re.search(r'<p class="record-check" data-record="3">(.*?)</p>', page, re.S)
    assert check is not None
    assert "3 deals entered: 3 count, 0 deleted; 3 changes in the history" in check[1]


def test_the_csv_marks_each_change_and_writes_its_footnote(client: Client, corrected: CardNight) -> None:
    response = client.get(reverse("night-csv", args=[corrected.pk]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert [(r["Deal"], r["Changed"]) for r in rows] == [("1", ""), ("2", "corrected"), ("3", "deleted; restored")]
    assert "72 → 58" in rows[1]["Changes to the list"] and "misread" in rows[1]["Changes to the list"]
    assert "Dieter" in rows[2]["Changes to the list"].split(" | ")[1]


@pytest.mark.browser
def test_the_pdf_carries_the_marks_and_the_footnotes(client: Client, corrected: CardNight, settings: Any) -> None:
    from pathlib import Path

    from pypdf import PdfReader

    if not Path("/usr/bin/chromium").exists():
        pytest.skip("the PDF needs Chromium at /usr/bin/chromium")
    settings.SCOREKEEP_CHROMIUM = "/usr/bin/chromium"
    response = client.get(reverse("night-pdf", args=[corrected.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages).split())
    assert "corrected1" in text.replace(" ", "") and "restored3" in text.replace(" ", "")
    assert "Deal 2 changed by Eva" in text and "72 → 58" in text and "(reason: misread)" in text
    assert "3 changes in the history" in text
