"""A club's pages in Chromium at phone size: the demo club (`loaddemo --seasons`) with its two seasons, the
season table as of a date, a player's page from it, the printout; starting a club; and in Japanese, the
season table with the club's words (同好会). Nothing scrolls sideways on a 390 px phone."""

from __future__ import annotations

import datetime
import io
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import Page, expect

from scorekeep.clubs import ratings, seasons
from scorekeep.models import Club, Season

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH_JS = "() => ({scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth})"


@pytest.fixture
def demo_club(page: Page, live_server: Any) -> Club:
    """The demo club and its seasons, run by the account the page is logged in as."""
    call_command("loaddemo", "--seasons", "--host", "host", stdout=io.StringIO())
    club = Club.objects.get(name="Demo club")
    assert club.owner == get_user_model().objects.get(username="host")
    return club


def fits_the_phone(page: Page) -> None:
    width = page.evaluate(WIDTH_JS)
    assert width["scroll"] <= width["client"], f"the page scrolls sideways: {width}"


def test_the_season_table_as_of_a_date_and_a_player_s_page(page: Page, live_server: Any, demo_club: Club) -> None:
    page.goto(f"{live_server.url}/clubs/")
    page.get_by_role("link", name="Demo club").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Demo club")
    fits_the_phone(page)
    page.get_by_role("link", name="Frühjahr 2025").click()
    table = page.get_by_role("table")
    expect(table.locator("caption")).to_have_text("Standings of Frühjahr 2025")
    expect(table.locator("tbody tr")).to_have_count(6)  # Anna, Bernd, Clara, Dieter, Eva, Frank
    season = Season.objects.get(name="Frühjahr 2025")
    leader = seasons.standings(season).lines[0].player.name
    expect(table.locator("tbody tr").first.locator("th a")).to_have_text(leader)
    fits_the_phone(page)
    # As of the end of February only the nights of January and February count: the table the page shows is
    # the one the season gives as of that day, line by line.
    expected = seasons.standings(season, datetime.date(2025, 2, 28))
    page.get_by_label("Standings as of").fill("2025-02-28")
    page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(f"{live_server.url}/clubs/{demo_club.pk}/seasons/"
                             f"{season.pk}/?as_of=2025-02-28")
    expect(page.locator(".season-facts")).to_contain_text("2 nights")
    names = table.locator("tbody th a").all_inner_texts()
    assert names == [line.player.name for line in expected.lines]
    ranks = [text.strip() for text in table.locator("tbody th .rank").all_inner_texts()]
    assert ranks == [f"{line.rank}." if line.rank else "–" for line in expected.lines]
    page.get_by_role("link", name="Printout").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Demo club · Frühjahr 2025")
    page.go_back()
    # The demo club shows ratings: a column beside the figures, each the OpenSkill ordinal or – until 5 matches.
    rated = ratings.of_club(demo_club, "skat")
    cells = table.locator("tbody td:last-child").all_inner_texts()
    for line, cell in zip(expected.lines, cells, strict=True):
        rating = rated[line.player.pk]
        assert cell == (f"{rating.ordinal:.1f}" if rating.shown else "–"), line.player.name
    # A rated player's page (one with 5 matches or more) shows the rating beside the chart.
    shown = next(line.player.name for line in expected.lines if rated[line.player.pk].shown)
    table.locator("tbody th a").nth(names.index(shown)).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(shown)
    skat = page.get_by_role("region", name="Skat over the nights")
    expect(skat.locator("svg")).to_be_visible()
    expect(skat).to_contain_text("Partners and opponents")
    expect(skat).to_contain_text("OpenSkill")
    fits_the_phone(page)


def test_starting_a_club_and_its_page_in_japanese(page: Page, live_server: Any, demo_club: Club) -> None:
    from django.conf import settings

    page.goto(f"{live_server.url}/clubs/")
    page.get_by_label("Name of the club").fill("Skatfreunde Nord")
    page.get_by_role("button", name="Start the club").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Skatfreunde Nord")
    expect(page.get_by_role("link", name="Start a card night in this club")).to_be_visible()
    fits_the_phone(page)
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "ja", "url": live_server.url}])
    season = Season.objects.get(name="Herbst 2024")
    page.goto(f"{live_server.url}/clubs/{demo_club.pk}/seasons/{season.pk}/")
    expect(page.locator(".season-facts")).to_contain_text("ゼーガー・ファビアン点")
    expect(page.get_by_role("navigation", name="メイン").or_(page.locator("nav").first)).to_contain_text("同好会")
    fits_the_phone(page)
