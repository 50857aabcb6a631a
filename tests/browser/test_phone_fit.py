"""Two layouts at a phone's 390 × 844 (issue 30): the Schafkopf card picker lays each suit's 8 cards out as one
row or as two rows of four — never 7 and a lone card — and the tournament's big screen fits the phone's width."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.tournament_fixtures import draw, tournament

pytestmark = pytest.mark.browser


def test_a_suit_of_eight_cards_is_one_row_or_two_of_four(page: Page, live_server: Any) -> None:
    page.goto(f"{live_server.url}/adjudicate/?game=schafkopf&contract=sauspiel")
    page.locator("html.js").wait_for(state="attached")
    page.locator("#play > summary").click()
    suit = page.locator(".card-picker .suit").first
    expect(suit).to_be_visible()
    cards = suit.locator("button.card")
    expect(cards).to_have_count(8)
    tops = [round(box["y"]) for box in (cards.nth(i).bounding_box() for i in range(8)) if box]
    rows = sorted(set(tops))
    assert [tops.count(top) for top in rows] in ([8], [4, 4]), tops
    for i in range(8):
        box = cards.nth(i).bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390 and box["width"] >= 44 and box["height"] >= 44


@pytest.mark.django_db(transaction=True)
def test_the_big_screen_fits_a_phone(page: Page, live_server: Any) -> None:
    tour = tournament("skat", "isko", players=6)
    draw(tour, 1, [[1, 2, 3], [4, 5, 6]])
    page.goto(f"{live_server.url}/standings/{tour.viewer_token}/screen/")
    expect(page.locator(".bigscreen-table tbody tr")).to_have_count(6)
    width = page.evaluate("document.documentElement.scrollWidth")
    table = page.locator(".bigscreen-table").bounding_box()
    assert width <= 390 and table is not None and table["x"] + table["width"] <= 390, (width, table)
