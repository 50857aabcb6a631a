"""The organiser's registration in one go (issue 31) on a phone: a pasted list previewed with its start
numbers and flags, stored on confirmation, the first series drawn, a player withdrawn after the confirmation
with a reason, and the withdrawal undone — each step shown on the page, without sideways scrolling."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from scorekeep.clubs import clubs
from scorekeep.tournaments import writes as tournaments

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH_JS = "() => ({scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth})"
PASTED = "Anna Adler\tSC Grand Hand\t1001\nBernd Bauer; ; 1002\nanna  adler\nClara Christ, SC Pik As, 1003\n" \
         "Dieter Dorn\nErika Eck\nFritz Funk\nGisela Gans\n"


def fits_the_phone(page: Page) -> None:
    width = page.evaluate(WIDTH_JS)
    assert width["scroll"] <= width["client"], f"{page.url} scrolls sideways on a phone: {width}"


def test_a_pasted_list_is_previewed_stored_drawn_and_a_withdrawal_undone(page: Page, live_server: Any) -> None:
    club = clubs.home_club(get_user_model().objects.get(username="host"))
    tournament = tournaments.create_tournament(club=club, name="Herbstpreisskat", game="skat", preset="isko",
                                               series_count=2, series_length=4)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/register/")
    page.get_by_label("Players, one a line").fill(PASTED)
    page.get_by_role("button", name="Preview the list").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Registration from a list")
    expect(page.locator("table.preview tbody tr")).to_have_count(8)
    expect(page.locator("tr.flagged")).to_contain_text("nearly the same name as line 1")
    fits_the_phone(page)
    assert not tournament.entrants.exists()
    page.get_by_role("button", name="Register 7 players").click()
    expect(page.locator(".messages")).to_contain_text("7 players are registered from the list.")
    expect(page.locator("ol.entrants li")).to_have_count(7)
    expect(page.locator("ol.entrants li").first).to_contain_text("member no. 1001")

    page.get_by_role("link", name="Herbstpreisskat").click()
    page.get_by_role("button", name="Draw series 1").click()
    expect(page.locator(".messages")).to_contain_text("Series 1 is drawn")
    clara = page.locator("ul.entrant-list li").filter(has_text="Clara Christ")
    clara.get_by_role("link", name="Withdraw…").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Withdraw Clara Christ (start number 3)?")
    fits_the_phone(page)
    page.get_by_label("Reason (kept in the tournament's history)").fill("feels ill")
    page.get_by_role("button", name="Yes, withdraw Clara Christ").click()
    expect(page.locator(".messages")).to_contain_text("Clara Christ is withdrawn")
    expect(page.locator(".history-list")).to_contain_text("Clara Christ (start number 3) withdrawn (reason: feels ill)")
    page.locator("ul.entrant-list li").filter(has_text="Clara Christ").get_by_role(
        "button", name="Undo the withdrawal").click()
    expect(page.locator(".messages")).to_contain_text("Clara Christ is reinstated")
    expect(page.locator("ul.entrant-list li").filter(has_text="Clara Christ")).to_contain_text("every series")
    fits_the_phone(page)
    assert tournament.entrants.get(number=3).last_series is None
