"""The PDF of each demo night's list (`scorekeep.printing.pdf`, rendered by Chromium): A4, and its text holds
the date, the players and their totals. One render per game, so the module stays fast."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats
from pypdf import PdfReader

from scorekeep.models import CardNight
from scorekeep.nights import ledger, settlement
from scorekeep.printing import pdf
from scorekeep.words.numbers import placing, signed
from tests.conftest import REPO

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
    assert formats.date_format(night.date) in text and night.date.isoformat() not in words  # as the page writes it
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


# --- one Chromium per process, kept running ---------------------------------------------------------------

PAGE = "<!doctype html><html><style>@page { size: A4; margin: 15mm }</style><p>Größe · 山田</p></html>"


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[pdf.Browser]]:
    """Every Chromium started, from a process that has none running."""
    started: list[pdf.Browser] = []

    class Counted(pdf.Browser):
        def __init__(self, chromium: str) -> None:
            super().__init__(chromium)
            started.append(self)

    pdf.close_browser()
    monkeypatch.setattr(pdf, "Browser", Counted)
    yield started
    pdf.close_browser()


def running(session: int) -> bool:
    """Whether any process of the session (a Chromium and all it started) is still running (not a zombie)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            state, _parent, _group, sid = stat.read_text().rsplit(")", 1)[1].split()[:4]
        except (OSError, IndexError):
            continue  # ended while we looked
        if int(sid) == session and state != "Z":
            return True
    return False


def test_pdfs_in_one_process_are_printed_by_one_chromium(launched: list[pdf.Browser]) -> None:
    for _ in range(3):
        assert pdf.render(PAGE).startswith(b"%PDF")
    assert len(launched) == 1


def test_a_chromium_that_died_is_started_again_for_the_next_pdf(launched: list[pdf.Browser]) -> None:
    assert pdf.render(PAGE).startswith(b"%PDF")
    os.killpg(launched[0].pid, signal.SIGKILL)
    assert "Größe" in PdfReader(io.BytesIO(pdf.render(PAGE))).pages[0].extract_text()
    assert len(launched) == 2 and not running(launched[0].pid)


ENDINGS = {"exits": "", "is killed": "os.kill(os.getpid(), signal.SIGKILL)"}


@pytest.mark.parametrize("ending", ENDINGS)
def test_the_chromium_ends_with_its_process(ending: str) -> None:
    # Closed at exit; and when the process is killed, Chromium sees its pipe close and quits by itself.
    code = "\n".join(["import django, os, signal", "django.setup()", "from scorekeep.printing import pdf",
                      "pdf.render('<p>x</p>')", "print(pdf._browser.pid, flush=True)", ENDINGS[ending]])
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "DJANGO_SETTINGS_MODULE": "scorekeep.settings",
                               "SCOREKEEP_CHROMIUM": str(CHROMIUM)}, check=False)
    session = int(done.stdout.split()[0])
    deadline = time.monotonic() + 10
    while running(session) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not running(session)


def test_the_directory_of_a_killed_process_s_chromium_is_removed_by_the_next(launched: list[pdf.Browser]) -> None:
    killed = subprocess.run([sys.executable, "-c", "import os, tempfile\n"
                             "print(tempfile.mkdtemp(prefix=f'scorekeep-pdf-{os.getpid()}-'))"],
                            capture_output=True, text=True, timeout=30, check=True)
    left = Path(killed.stdout.strip())
    assert left.is_dir()
    pdf.render(PAGE)
    assert not left.exists() and launched[0].folder.is_dir()
