"""The table page without a connection (issue 16), in Chromium: deals saved offline go into the outbox
(IndexedDB) as pending rows, survive a reload served by the service worker, and are sent in order when the
connection is back — each stored once, a refused one kept with the server's sentence and opened for
correction, two phones that were both offline given consecutive deal numbers, a server killed in the middle
of a sync losing nothing.

The server is gunicorn on a throw-away database (tests/live_site.py), not pytest-django's live server: a
test kills it and starts it again on the same port, and a service worker keeps to one origin. The browser's
own network goes offline with ``context.set_offline``. Every wait is for an event or a locator.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect

from tests.live_site import Site, table_path, temp_database

from .conftest import TIMEOUT_MS
from .steps import fill_deal

pytestmark = [pytest.mark.browser, pytest.mark.database]  # its own server's database: run on both

# Five deals of five different games at a table of three (Anna, Bernd, Clara; classic ISkO rules).
FIVE = (
    {"contract": "grand", "declarer": "Bernd", "bid": 48, "matadors": 2, "card_points": 70},
    {"contract": "clubs", "declarer": "Clara", "bid": 24, "matadors": 1, "card_points": 75},
    {"contract": "null", "declarer": "Anna", "bid": 23, "declarer_tricks": 0},
    {"contract": "hearts", "declarer": "Bernd", "bid": 20, "matadors": -1, "card_points": 58},
    {"contract": "spades", "declarer": "Clara", "bid": 22, "matadors": 1, "hand": True, "card_points": 80},
)
SEATS = {"Anna": 0, "Bernd": 1, "Clara": 2}
PENDING = "#outbox .outbox-rows li"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    database = temp_database(tmp_path)
    server = Site(database, tmp_path, workers=1, threads=4)
    try:
        server.migrate()
        server.start()
        yield server
    finally:
        server.stop()
        database.drop()


@pytest.fixture
def contexts(browser: Any) -> Iterator[list[BrowserContext]]:
    """Two phones, each with its own cookies, service worker and IndexedDB."""
    made = [browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
            for _ in range(2)]
    yield made
    for context in made:
        context.close()


def open_table(context: BrowserContext, site: Site, night: dict[str, Any]) -> Page:
    """Open the scorer link and wait until the page can work offline: the service worker controls it, and the
    outbox has kept the input description and each game's form."""
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{site.url}/join/{night['scorer']}/")
    expect(page).to_have_url(re.compile(r"/nights/\d+/tables/1/$"))
    page.locator("html.js").wait_for(state="attached")
    assert page.evaluate("""() => navigator.serviceWorker.controller ? true : new Promise(resolve =>
        navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true)))""")
    page.locator("#outbox[data-ready=offline]").wait_for(state="attached")
    return page


def save_offline(page: Page, facts: dict[str, Any], waiting: int) -> None:
    """Enter a deal and save it without a connection: it shows at once as a pending row."""
    fill_deal(page, facts)
    expect(page.locator("#preview .offline-checked")).to_be_visible()
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator(PENDING)).to_have_count(waiting)
    expect(page.locator(PENDING).last).to_contain_text("not sent yet")
    # The form is new for the next deal: nobody's game is tapped in the grid of players and games.
    expect(page.locator("#q-contract input:checked")).to_have_count(0)


def stored(site: Site, night: dict[str, Any]) -> list[dict[str, Any]]:
    """The live deals of table 1 as stored, in order."""
    return [deal for deal in site.inspect(int(night["night"]))[0]["deals"] if not deal["deleted"]]


def test_five_deals_offline_survive_a_reload_and_are_stored_once_in_order(contexts: list[BrowserContext],
                                                                          site: Site) -> None:
    night = site.night()
    context = contexts[0]
    page = open_table(context, site, night)
    context.set_offline(True)
    expect(page.locator("#outbox .net-status")).to_have_text("Offline")
    for waiting, facts in enumerate(FIVE, start=1):
        save_offline(page, facts, waiting)
    numbers = page.locator(f"{PENDING} .number")
    expect(numbers).to_have_text([f"Deal {n}" for n in range(1, 6)])
    expect(page.locator("#outbox .net-status")).to_have_text("Offline · 5 deals waiting to be sent")

    page.reload()  # no connection: the service worker answers with the page as it was
    page.locator("html.js").wait_for(state="attached")
    expect(page.locator("#offline-copy")).to_be_visible()
    expect(page.locator(PENDING)).to_have_count(5)
    expect(numbers).to_have_text([f"Deal {n}" for n in range(1, 6)])
    expect(page.locator(f"{PENDING} .what").nth(2)).to_contain_text("Null")
    assert stored(site, night) == []

    context.set_offline(False)  # back: sent in order, each once
    expect(page.locator(PENDING)).to_have_count(0)
    expect(page.locator("#outbox .net-status")).to_have_text("Online")
    expect(page.locator("#offline-copy")).to_be_hidden()  # the server answered: the standings are current
    expect(page.locator("table.latest-deals tbody tr.deal-row th.number")).to_have_text(["3", "4", "5"])
    deals = stored(site, night)
    assert [deal["sequence"] for deal in deals] == [1, 2, 3, 4, 5]
    assert [deal["facts"]["contract"] for deal in deals] == [facts["contract"] for facts in FIVE]
    assert [deal["facts"]["card_points"] for deal in deals if "card_points" in deal["facts"]] == [70, 75, 58, 80]
    assert deals[4]["facts"]["hand"] is True
    assert all([r["kind"] for r in deal["revisions"]] == ["created"] for deal in deals)


def test_typing_survives_a_reload_offline(contexts: list[BrowserContext], site: Site) -> None:
    night = site.night()
    context = contexts[0]
    page = open_table(context, site, night)
    context.set_offline(True)
    fill_deal(page, FIVE[2])  # a Null: its form comes from the phone's copy
    page.reload()
    page.locator("html.js").wait_for(state="attached")
    expect(page.locator("#q-contract input[value='null@0']")).to_be_checked()  # Anna's Null, in the grid
    url = page.url
    page.close()  # the tab closed (or the phone's browser killed while locked): a new one, still offline
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url)
    page.locator("html.js").wait_for(state="attached")
    expect(page.locator("#q-contract input[value='null@0']")).to_be_checked()  # Anna's Null, in the grid
    expect(page.locator("#q-bid input[value='23']")).to_be_checked()
    context.set_offline(False)
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator("#table-region .saved")).to_contain_text("Deal 1 saved")
    assert [deal["facts"]["contract"] for deal in stored(site, night)] == ["null"]


def test_a_deal_refused_during_the_sync_stays_with_the_servers_sentence(contexts: list[BrowserContext],
                                                                        site: Site) -> None:
    night = site.night()
    context = contexts[0]
    page = open_table(context, site, night)
    context.set_offline(True)
    save_offline(page, FIVE[0], 1)
    # Schneider announced needs a Hand game: the page cannot know that offline, the engine refuses it.
    refused = {"contract": "clubs", "declarer": "Clara", "bid": 24, "matadors": 1, "card_points": 75}
    fill_deal(page, refused)
    page.locator("#entry details.more:not(.dealer) > summary").click()
    page.locator("#q-announced label.tap").filter(has_text=re.compile("^Schneider$")).click()
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator(PENDING)).to_have_count(2)
    save_offline(page, FIVE[2], 3)

    context.set_offline(False)
    row = page.locator(f"{PENDING}.refused, {PENDING}.correcting")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Deal 2")
    expect(row).to_contain_text("not stored:")
    expect(page.locator(PENDING)).to_have_count(2)  # the Null waits behind it: in order
    # Opened for correction, as the server answered it: the typed deal with the engine's sentence.
    expect(page.locator("#q-contract input[value='clubs@2']")).to_be_checked()  # Clara's clubs game
    expect(page.locator("#id_card_points")).to_have_value("75")
    expect(page.locator("#deal-form .errors p, #err-top p").first).to_be_visible()
    assert [deal["facts"]["contract"] for deal in stored(site, night)] == ["grand"]

    page.locator("#q-announced label.tap").filter(has_text=re.compile("^nothing$")).click()
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator(PENDING)).to_have_count(0)
    deals = stored(site, night)
    assert [deal["facts"]["contract"] for deal in deals] == ["grand", "clubs", "null"]
    assert "announced" not in deals[1]["facts"]


def test_two_phones_offline_at_once_get_consecutive_deal_numbers(contexts: list[BrowserContext],
                                                                 site: Site) -> None:
    night = site.night()
    first, second = (open_table(context, site, night) for context in contexts)
    for context in contexts:
        context.set_offline(True)
    save_offline(first, FIVE[0], 1)
    save_offline(second, FIVE[1], 1)
    expect(second.locator(f"{PENDING} .number")).to_have_text(["Deal 1"])

    contexts[0].set_offline(False)
    expect(first.locator(PENDING)).to_have_count(0)
    contexts[1].set_offline(False)
    # The second phone's deal 1 was entered meanwhile: the usual flow, the form now for deal 2.
    row = second.locator(f"{PENDING}.correcting")
    expect(row).to_contain_text("was entered meanwhile on another phone")
    expect(second.locator("#err-top")).to_contain_text("Your form is now for deal 2")
    expect(second.locator("#q-contract input[value='clubs@2']")).to_be_checked()
    second.get_by_role("button", name="Save deal").click()
    expect(second.locator(PENDING)).to_have_count(0)
    deals = stored(site, night)
    assert [(deal["sequence"], deal["facts"]["contract"]) for deal in deals] == [(1, "grand"), (2, "clubs")]


def test_a_server_killed_during_the_sync_loses_nothing_and_stores_each_deal_once(
        contexts: list[BrowserContext], site: Site) -> None:
    night = site.night()
    context = contexts[0]
    page = open_table(context, site, night)
    context.set_offline(True)
    for waiting, facts in enumerate(FIVE[:3], start=1):
        save_offline(page, facts, waiting)

    # The second deal reaches the server and is stored; then the server dies before the phone hears back.
    posts: list[str] = []

    def kill_after_storing(route: Route) -> None:
        posts.append(route.request.url)
        if len(posts) != 2:
            route.continue_()
            return
        route.fetch()
        site.kill()
        route.abort("connectionreset")

    page.route(re.compile(r"/deals/new/$"), kill_after_storing)
    context.set_offline(False)
    expect(page.locator(PENDING)).to_have_count(2)  # the first is stored; the second had no answer
    expect(page.locator(f"{PENDING}.waiting")).to_have_count(2)
    assert len(posts) == 2

    site.start()  # back on the same port: the next poll gets through and the outbox is sent again
    expect(page.locator(PENDING)).to_have_count(0)
    deals = stored(site, night)
    assert [deal["facts"]["contract"] for deal in deals] == ["grand", "clubs", "null"]
    assert [deal["sequence"] for deal in deals] == [1, 2, 3]
    assert len(posts) == 4  # the second was sent again: its key stored it once


def test_the_viewer_link_shows_the_last_standings_offline_as_not_current(contexts: list[BrowserContext],
                                                                         site: Site) -> None:
    night = site.night()
    scorer = open_table(contexts[0], site, night)
    fill_deal(scorer, FIVE[0])
    scorer.get_by_role("button", name="Save deal").click()
    expect(scorer.locator("#table-region .saved")).to_contain_text("Deal 1 saved")

    viewer = contexts[1].new_page()
    viewer.set_default_timeout(TIMEOUT_MS)
    viewer.goto(f"{site.url}/join/{night['viewer']}/")
    viewer.locator("html[data-kept=page]").wait_for(state="attached")  # the worker runs and kept the night
    viewer.goto(f"{site.url}{table_path(int(night['night']))}")  # answered once its copy is kept
    viewer.locator("html.js").wait_for(state="attached")
    contexts[1].set_offline(True)
    viewer.reload()
    viewer.locator("html.js").wait_for(state="attached")
    expect(viewer.locator("#offline-copy")).to_contain_text("not current")
    expect(viewer.locator("table.latest-deals tbody tr.deal-row th.number")).to_have_text(["1"])
    expect(viewer.locator("#outbox")).to_have_count(0)  # a viewer enters nothing


def test_without_javascript_the_page_is_the_plain_form(browser: Any, site: Site) -> None:
    night = site.night()
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(f"{site.url}/join/{night['scorer']}/")
        expect(page).to_have_url(re.compile(r"/nights/\d+/tables/1/$"))
        expect(page.locator("#outbox")).to_be_hidden()
        expect(page.locator("#offline-copy")).to_be_hidden()
        page.locator("#q-contract label.tap").filter(has_text="Bernd: Grand").click()  # one tap in the grid
        page.get_by_role("button", name="Update the form").click()
        page.locator("#q-matadors label.tap").filter(has_text=re.compile("^with 2$")).click()
        page.locator("#id_card_points").fill("70")
        page.get_by_role("button", name="Save deal").click()
        expect(page).to_have_url(re.compile(r"/tables/1/\?saved=1$"))
        assert [deal["facts"]["contract"] for deal in stored(site, night)] == ["grand"]
    finally:
        context.close()


@pytest.mark.parametrize("trigger", ["send now", "visible again", "page load"])
def test_the_outbox_is_sent_on_each_trigger_while_polls_still_fail(contexts: list[BrowserContext], site: Site,
                                                                   trigger: str) -> None:
    """Saves and polls get no answer (a server that does not answer), the deal waits; then saves get through
    again but polls still fail, so no poll starts the sending: the "Send now" tap, the page coming back to the
    front (a phone unlocked) or the page being opened again does."""
    night = site.night()
    context = contexts[0]
    page = open_table(context, site, night)
    path = table_path(int(night["night"]))
    saves = re.compile(re.escape(path) + "deals/new/$")
    page.route(saves, lambda route: route.abort("connectionrefused"))

    def polls_fail(route: Route) -> None:
        if route.request.headers.get("hx-request"):
            route.abort("connectionrefused")
        else:  # opening the page itself
            route.continue_()

    page.route(re.compile(re.escape(path) + "$"), polls_fail)
    failed: list[str] = []
    page.on("requestfailed", lambda request: failed.append(request.url) if request.method == "POST" else None)
    fill_deal(page, FIVE[0])
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator(PENDING)).to_have_count(1)
    expect(page.locator("#outbox .net-status")).to_have_text("Online · 1 deal waiting to be sent")
    while len(failed) < 2:  # htmx's save, then the outbox's first try
        page.wait_for_event("requestfailed")
    expect(page.locator(PENDING)).to_contain_text("not sent yet")
    page.unroute(saves)
    assert stored(site, night) == []
    if trigger == "send now":
        page.get_by_role("button", name="Send now").click()
    elif trigger == "visible again":
        page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    else:
        page.reload()
        page.locator("html.js").wait_for(state="attached")
    expect(page.locator(PENDING)).to_have_count(0)
    assert [deal["facts"]["contract"] for deal in stored(site, night)] == ["grand"]


def test_offline_the_page_checks_what_the_engines_description_says(contexts: list[BrowserContext],
                                                                    site: Site) -> None:
    """Required inputs and ranges come from the engine's description (/api/games): a deal that fails them is
    not put into the outbox; the value itself waits for the server."""
    night = site.night()
    context = contexts[0]
    page = open_table(context, site, night)
    context.set_offline(True)
    page.get_by_role("button", name="Save deal").click()  # nothing tapped: who declared what is still to enter
    expect(page.locator("#preview .outcome.pending")).to_contain_text("Still to enter: Declarer")
    expect(page.locator(PENDING)).to_have_count(0)
    fill_deal(page, {"contract": "grand", "declarer": "Bernd", "matadors": 1, "card_points": 130})
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator("#preview .problems")).to_contain_text("a whole number from 0 to 120")
    expect(page.locator(PENDING)).to_have_count(0)
    page.locator("#id_card_points").fill("70")
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator(PENDING)).to_have_count(1)
    expect(page.locator(PENDING)).to_contain_text("Declarer's card points (skat included): 70")
