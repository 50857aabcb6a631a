"""A Skat tournament run by its organiser in Chromium (issue 18): set it up, register seven players at the
door, draw the first series (one table of four, one of three), enter a deal at each table on two phones
through the tables' scorer links, and close the series — the organiser's overview following all of it, and
the closed tables' phones left reading."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect

from scorekeep.clubs import clubs
from scorekeep.models import CardNight, Series, Tournament

from .steps import fill_deal, replaced

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH_JS = "() => ({scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth})"
SEVEN = ["Anna", "Bernd", "Clara", "Dieter", "Erika", "Fritz", "Gisela"]


def fits_the_phone(page: Page) -> None:
    width = page.evaluate(WIDTH_JS)
    assert width["scroll"] <= width["client"], f"{page.url} scrolls sideways on a phone: {width}"


def phone(browser: Browser) -> Page:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    return page


def test_a_skat_tournament_is_set_up_drawn_scored_at_two_tables_and_its_series_closed(
        page: Page, browser: Browser, live_server: Any) -> None:
    club = clubs.home_club(get_user_model().objects.get(username="host"))
    page.goto(f"{live_server.url}/tournaments/")
    page.get_by_role("link", name="New tournament").click()
    fits_the_phone(page)
    page.get_by_label("Club").select_option(str(club.pk))
    page.get_by_label("Name", exact=True).fill("Herbstpreisskat")
    page.get_by_label("Game and rule set").select_option("skat:isko")
    page.get_by_label("Deals per series at a table of four").fill("4")
    page.get_by_label("Entry fee").fill("10.00")
    page.get_by_role("button", name="Set up the tournament").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Herbstpreisskat")
    tournament = Tournament.objects.get()

    page.get_by_role("link", name="Register players").click()
    for name in SEVEN:
        page.get_by_label("Name", exact=True).fill(name)
        page.get_by_role("button", name="Register").click()
        expect(page.locator(".messages")).to_contain_text(f"{name} is registered with start number")
    expect(page.locator("ol.entrants li")).to_have_count(7)
    fits_the_phone(page)
    page.get_by_role("link", name="Herbstpreisskat").click()

    page.get_by_label("Seed (empty: a new one at random)").fill("Herbst 2026")
    page.get_by_role("button", name="Draw series 1").click()
    expect(page.locator(".messages")).to_contain_text("Series 1 is drawn (seed Herbst 2026).")
    tables = page.locator("li.table-item")
    expect(tables).to_have_count(2)
    expect(tables.nth(0)).to_contain_text("deal 0 of 4")
    expect(tables.nth(1)).to_contain_text("deal 0 of 3")
    fits_the_phone(page)

    series = Series.objects.get(tournament=tournament)
    # Each table's list keeper opens the table's scorer link on a phone of their own and enters a deal.
    for number in (1, 2):
        night = CardNight.objects.get(series=series, tables__number=number)
        names = [place.player.name for place in night.tables.get().places.all()]
        keeper = phone(browser)
        keeper.goto(page.locator(f"li.table-item >> nth={number - 1}").locator("a[href*='/join/']")
                    .get_attribute("href") or "")
        expect(keeper).to_have_url(re.compile(rf"/nights/{night.pk}/tables/{number}/$"))
        keeper.locator("html.js").wait_for(state="attached")
        expect(keeper.locator("#entry .deal-head")).to_contain_text(f"of {night.series_length}")
        fill_deal(keeper, {"contract": "grand", "declarer": names[1], "bid": 18, "matadors": -1, "card_points": 70})
        with replaced(keeper, "#table-region"):
            keeper.get_by_role("button", name="Save deal").click()
        expect(keeper.locator("#table-region .saved")).to_contain_text("Deal 1 saved: ")
        keeper.context.close()

    page.reload()
    expect(tables.nth(0)).to_contain_text("deal 1 of 4")
    expect(tables.nth(1)).to_contain_text("deal 1 of 3")
    expect(tables.nth(1)).to_contain_text("deals missing: 2 of 3")
    # The lists are not complete: closing needs a reason, which is recorded.
    page.get_by_role("button", name="Close series 1").click()
    expect(page.locator(".messages")).to_contain_text("give a reason")
    page.get_by_label("Reason to close although a list is not complete").fill("Probelauf")
    page.get_by_role("button", name="Close series 1").click()
    expect(page.locator(".messages")).to_contain_text("Series 1 is closed.")
    expect(page.get_by_role("button", name="Reopen series 1")).to_be_visible()
    assert Series.objects.get().closed and tournament.revisions.get(kind="closed").reason == "Probelauf"
    assert all(night.finished for night in CardNight.objects.filter(series=series))
    # A list keeper's phone now only reads its table: it says the series is closed and offers no entry.
    keeper = phone(browser)
    night = CardNight.objects.get(series=series, tables__number=1)
    keeper.goto(f"{live_server.url}/join/{night.scorer_token}/")
    expect(keeper.get_by_text("This series of the tournament is closed")).to_be_visible()
    expect(keeper.get_by_role("button", name="Save deal")).to_have_count(0)
    keeper.context.close()
