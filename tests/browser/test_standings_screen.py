"""The tournament's big screen in Chromium (issue 18): it pages through a long list by itself and follows a
deal entered at a table by its poll (304 while nothing changed), under the Content-Security-Policy; without
JavaScript every row shows."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorekeep.models import Club, Player
from scorekeep.nights import writes as nights
from scorekeep.tournaments import standings_views
from tests.tournament_fixtures import draw, tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_big_screen_pages_by_itself_and_follows_the_tables(page: Page, live_server: Any) -> None:
    tour = tournament("skat", "isko", players=30)
    tables = draw(tour, 1, [[n, n + 1, n + 2] for n in range(1, 31, 3)])
    refused: list[str] = []
    page.on("console", lambda message: refused.append(message.text) if message.type == "error" else None)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/standings/{tour.viewer_token}/screen/")
    page.locator("html.js").wait_for(state="attached")
    rows = page.locator(".bigscreen-table tbody tr")
    expect(rows).to_have_count(30)
    expect(rows.nth(0)).to_be_visible()
    expect(rows.nth(14)).to_be_hidden()
    expect(page.locator(".bigscreen-page")).to_have_text("1 / 3")
    # The next page comes by itself (every 10 s).
    expect(page.locator(".bigscreen-page")).to_have_text("2 / 3", timeout=25_000)
    expect(rows.nth(14)).to_be_visible()
    expect(rows.nth(0)).to_be_hidden()
    # A deal at table 4 (Player 10 declares and wins a grand): the poll brings it to the top of the list.
    with page.expect_response(lambda r: "/screen/" in r.url and r.status == 200, timeout=25_000):
        nights.enter_deal(tables[3], {"contract": "grand", "declarer": 0, "bid": 18, "matadors": -1,
                                      "card_points": 70})
    expect(page.locator(".bigscreen-table tbody tr").first.locator("th")).to_contain_text("Player 10")
    assert not refused, refused


def test_a_long_club_name_costs_the_big_screen_no_rows_and_the_screen_has_its_language(page: Page,
                                                                                       live_server: Any) -> None:
    """A German tournament's 11 players from a club with a long name: the club's name took three lines a row,
    names wrapped, and 11 players needed three pages of a 1920 × 1080 screen. Now a name is one line, the
    club cut short, nothing scrolls sideways; and the screen (no site header) has its language switch."""
    club = Club.objects.create(name="Skatclub Herz Dame 1987 e.V. Kassel-Wilhelmshöhe")
    tour = tournament("skat", "isko", players=11, club=club)
    for entrant in tour.entrants.select_related("player"):
        Player.objects.filter(pk=entrant.player_id).update(name=f"Hans-Jürgen Weißenberger {entrant.number}")
    draw(tour, 1, [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11]])
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/standings/{tour.viewer_token}/screen/")
    page.locator("html.js").wait_for(state="attached")
    expect(page.locator(".bigscreen-table tbody tr")).to_have_count(11)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    heights = page.evaluate("""() => [...document.querySelectorAll('.bigscreen-table tbody th')]
        .map(th => th.getBoundingClientRect().height / parseFloat(getComputedStyle(th).lineHeight))""")
    assert all(lines < 1.6 for lines in heights), heights  # one line of the name (and its padding)
    expect(page.locator(".bigscreen-page")).to_have_text(re.compile(r"^(1 / 2)?$"))
    page.locator(".bigscreen-language select").select_option("de")
    expect(page.locator(".bigscreen h1")).to_contain_text("Gesamtstand")
    expect(page).to_have_url(re.compile(r"/screen/$"))


def test_without_javascript_the_big_screen_shows_every_row(page_without_js: Page, live_server: Any) -> None:
    tour = tournament("skat", "isko", players=30)
    page_without_js.goto(f"{live_server.url}/standings/{tour.viewer_token}/screen/")
    rows = page_without_js.locator(".bigscreen-table tbody tr")
    expect(rows).to_have_count(30)
    expect(rows.nth(29)).to_be_visible()


WIDTH_JS = "() => ({scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth})"


def test_the_phone_s_standings_and_the_money_page_do_not_scroll_sideways(page: Page, live_server: Any) -> None:
    tour = tournament("skat", "isko", players=12, teams=["Nord", "Süd"], series=3, entry_fee=1500,
                      prizes={"kind": "shares", "places": [500, 300, 200], "retention": {"kind": "share",
                                                                                        "value": 100}})
    (t1, *_rest) = draw(tour, 1, [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]])
    nights.enter_deal(t1, {"contract": "grand", "declarer": 0, "bid": 18, "matadors": -1, "card_points": 40})
    for url in (f"/standings/{tour.viewer_token}/", f"/tournaments/{tour.pk}/standings/",
                f"/tournaments/{tour.pk}/money/"):
        page.goto(live_server.url + url)
        expect(page.locator("h1")).to_contain_text(tour.name)
        width = page.evaluate(WIDTH_JS)
        assert width["scroll"] <= width["client"], f"{url} scrolls sideways: {width}"


def test_a_poll_answered_with_the_board_it_shows_swaps_nothing_and_a_new_board_is_shown(
        page: Page, live_server: Any, settings: Any, monkeypatch: Any) -> None:
    """README's haproxy refills its cache of a board by asking a server without the poll's If-None-Match: the
    screen then gets a 200 with the version it shows, which must not be swapped in (the big screen would go
    back to its first page every poll); a new board still is."""
    settings.SCOREKEEP_STANDINGS_FRESH = 1
    monkeypatch.setattr(standings_views, "POLL", "every 1s")  # the test's patience, not the screens' pace
    tour = tournament("skat", "isko", players=3)
    (t1,) = draw(tour, 1, [[1, 2, 3]])
    answers: list[int] = []
    page.on("response", lambda answer: answers.append(answer.status) if "/board/" in answer.url else None)
    page.route("**/board/**", lambda route: route.continue_(headers={
        name: value for name, value in route.request.headers.items() if name.lower() != "if-none-match"}))
    page.goto(f"{live_server.url}/standings/{tour.viewer_token}/screen/")
    section = page.locator("#live-standings")
    page.evaluate("document.querySelector('#live-standings').dataset.mark = 'as opened'")
    deadline = 40  # half-seconds for the first three polls
    while len(answers) < 3 and deadline:
        page.wait_for_timeout(500)
        deadline -= 1
    assert answers[:3] == [200, 200, 200]
    assert section.get_attribute("data-mark") == "as opened"  # the same section: nothing swapped
    nights.enter_deal(t1, {"contract": "grand", "declarer": 1, "bid": 18, "matadors": -1, "card_points": 70})
    expect(page.locator(".bigscreen-table tbody tr").first.locator("th")).to_contain_text("Player 2")
    assert section.get_attribute("data-mark") is None  # the new board swapped in
