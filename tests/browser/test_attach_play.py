"""Attaching the cards as played to a card night's deal in Chromium on a phone (390 × 844; docs/PLAY.md, "On a
card night"): the deal's page opens the dispute page's card picker for the deal's game, the cards of each
trick are tapped in order, and after attaching the page replays the tricks with their winners by name and
says the engine's finding and whether the cards agree with the facts as entered."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from scorekeep.models import Deal
from scorekeep.nights import writes as nights

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A Grand by Anna (forehand: Clara dealt), every card following suit; Anna takes every trick.
GRAND_TRICKS = [["CJ", "SJ", "HJ"], ["DJ", "S7", "H7"], ["CA", "S8", "H8"], ["C10", "S9", "H9"], ["CK", "SQ", "HQ"],
                ["CQ", "SK", "DQ"], ["C9", "S10", "D9"], ["C8", "HK", "DK"], ["C7", "H10", "D10"], ["SA", "HA", "DA"]]
FACTS = {"contract": "grand", "declarer": 0, "bid": 18, "matadors": 1, "card_points": 120, "declarer_tricks": 10}


def test_the_played_cards_of_a_skat_deal_are_tapped_attached_and_replayed(page: Page, live_server: Any) -> None:
    night = nights.start_night(game="skat", preset="classic", players=["Anna", "Bernd", "Clara"], first_dealer=2)
    nights.enter_deal(night.tables.get(), dict(FACTS), by="Anna")
    page.goto(live_server.url + reverse("deal", args=[night.pk, 1, 1]))
    page.locator("html.js").wait_for(state="attached")
    played = page.locator("#played")
    expect(played).to_contain_text("No cards attached.")
    played.locator("#attach summary").click()
    picker = played.locator(".card-picker")
    expect(picker).to_be_visible()
    expect(played.locator(".seats")).to_contain_text("1 Anna")
    for trick in GRAND_TRICKS:
        for card in trick:
            button = picker.locator(f'button[data-card="{card}"]')
            box = button.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, card  # fits the phone
            assert box["height"] >= 44, card  # a finger's target
            button.click()
    expected = "\n".join(" ".join(trick) for trick in GRAND_TRICKS)
    expect(played.locator("#id_play-tricks")).to_have_value(expected)
    expect(picker.locator('button[data-card="CJ"]')).to_be_disabled()
    played.get_by_label("The skat").fill("D7 D8")
    played.get_by_role("button", name="Attach these cards").click()

    expect(page.locator("p.saved")).to_contain_text("The played cards are attached")
    expect(played.locator(".finding")).to_have_text("Every card follows the rules of play")
    expect(played.locator(".agree")).to_have_text("The cards agree with the facts as entered.")
    tricks = played.locator("ol.replay li")
    expect(tricks).to_have_count(10)
    expect(tricks.first).to_contain_text("taken by Anna, 6 points")
    expect(tricks.last).to_contain_text("taken by Anna, 33 points")
    expect(page.locator(".history")).to_contain_text("given its played cards")
    deal = Deal.objects.get(table__night=night, sequence=1)
    assert deal.play == {"tricks": GRAND_TRICKS, "skat": ["D7", "D8"]}
