"""The table page fits a phone (390 × 844) in German and Japanese (issue 28, item 5), in Chromium.

Four players' totals in euros keep a visible gap between them and are not cut; each latest deal shows its
result and amount whole (the line wraps rather than ending in "…"); two players with the same first name
are told apart wherever the page names them (the standings, the grid of players and games).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Page

from scorekeep.nights import writes as nights

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Two Winnies at one table, and amounts in euros up to two digits before the comma.
FOUR = ["Winnie Schmidt", "Winnie Müller", "Bernadette Huber", "Dieter Maier"]
EURO_DEALS = [
    {"contract": "solo", "declarer": 0, "trump": "H", "card_points": 95, "laufende": 4, "doublings": 2},
    {"contract": "solo", "declarer": 1, "trump": "H", "card_points": 91, "laufende": 3, "doublings": 1},
    {"contract": "sauspiel", "declarer": 2, "partner": 0, "card_points": 40},
    {"contract": "solo", "declarer": 3, "trump": "S", "card_points": 30, "laufende": 3, "doublings": 2},
]

# Each element's box, and whether its text is wider than the box shows (scrollWidth > clientWidth).
BOXES = """(elements) => elements.map(e => { const r = e.getBoundingClientRect();
  return {left: r.left, right: r.right, text: e.innerText.trim(), cut: e.scrollWidth > e.clientWidth + 0.5}; })"""


def open_table(page: Page, live_server: Any, night: Any, lang: str) -> None:
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(f"{live_server.url}/join/{night.scorer_token}/")
    page.goto(f"{live_server.url}/nights/{night.pk}/tables/1/")
    page.locator(f"html.js[lang={lang}]").wait_for(state="attached")


@pytest.mark.parametrize("lang", ["de", "ja"])
def test_four_totals_in_euros_keep_a_gap_and_the_latest_rows_show_result_and_amount(
        page: Page, live_server: Any, lang: str) -> None:
    night = nights.start_night(game="schafkopf", preset="bsv", players=FOUR, currency="EUR")
    table = night.tables.get()
    for facts in EURO_DEALS:
        nights.enter_deal(table, facts)
    open_table(page, live_server, night, lang)

    totals = page.locator(".standings .totals li .total").evaluate_all(BOXES)
    items = page.locator(".standings .totals li").evaluate_all(BOXES)
    assert len(totals) == 4 and all("€" in t["text"] for t in totals), totals
    for total, item in zip(totals, items, strict=True):
        assert not total["cut"] and item["left"] <= total["left"] and total["right"] <= item["right"], (total, item)
    for before, after in zip(totals, totals[1:], strict=False):
        assert after["left"] - before["right"] >= 4, f"{before['text']!r} runs into {after['text']!r}"

    with translation.override(lang):
        won, lost = gettext("won %(value)s").split(" ")[0], gettext("lost %(value)s").split(" ")[0]
    assert won != "won"
    rows = page.locator(".latest-deals td.what").evaluate_all(BOXES)
    assert len(rows) == 3
    for row in rows:
        assert not row["cut"], f"the latest row {row['text']!r} is cut"
        said = won if won in row["text"] else lost
        assert said in row["text"], row
        amount = row["text"].split(said)[-1].strip()  # what it was worth, after "gewonnen"/"勝ち"
        assert "€" in amount and any(ch.isdigit() for ch in amount), row
    cells = page.locator(".latest-deals td.player").evaluate_all(BOXES)
    assert cells and not [c for c in cells if c["cut"]], cells
    # The last words of each line, the result and what it was worth, are inside the page's width.
    widest = page.evaluate("() => document.documentElement.clientWidth")
    assert all(row["right"] <= widest for row in rows)


@pytest.mark.parametrize("lang", ["de", "ja"])
def test_two_players_with_the_same_first_name_are_told_apart_in_the_grid_and_the_standings(
        page: Page, live_server: Any, lang: str) -> None:
    night = nights.start_night(game="skat", preset="classic", players=["Winnie Schmidt", "Winnie Müller", "Clara"])
    open_table(page, live_server, night, lang)
    grid = page.locator("#q-contract .grid-name").evaluate_all(BOXES)
    assert [name["text"] for name in grid] == ["Winnie S.", "Winnie M.", "Clara"]
    assert not [name for name in grid if name["cut"]], grid
    strip = page.locator(".standings .totals .name").evaluate_all(BOXES)
    assert [name["text"] for name in strip] == ["Winnie S.", "Winnie M.", "Clara"]
    assert not [name for name in strip if name["cut"]], strip
