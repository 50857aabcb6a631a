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

from .conftest import EVENT_LOG, TIMEOUT_MS, told_on_failure
from .steps import fill_deal, show_scorer

pytestmark = pytest.mark.browser
# Each test serves from a database of its own. The PostgreSQL pass runs again only the tests where phones meet on
# the server at once or the server dies mid-sync (marked `database`), where the database's locking and
# transactions decide the outcome; what one phone does offline, the production pass walks on PostgreSQL too
# (tests/production/test_walk.py: five deals offline, a reload without a connection, stored once).
on_both = pytest.mark.database

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
def contexts(browser: Any, request: pytest.FixtureRequest) -> Iterator[list[BrowserContext]]:
    """Two phones, each with its own cookies, service worker and IndexedDB."""
    made = [browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
            for _ in range(2)]
    for context in made:
        context.add_init_script(EVENT_LOG)
    yield made
    told_on_failure(request, [page for context in made for page in context.pages])
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
    # Checked before the reload as well as after it: CI saw deal 1 stored once at the later check, and which side
    # of the reload it got through on says where the offline emulation let a request out.
    assert stored(site, night) == [], "stored before the reload, while the phone was offline"

    page.reload()  # no connection: the service worker answers with the page as it was
    page.locator("html.js").wait_for(state="attached")
    expect(page.locator("#offline-copy")).to_be_visible()
    expect(page.locator(PENDING)).to_have_count(5)
    expect(numbers).to_have_text([f"Deal {n}" for n in range(1, 6)])
    expect(page.locator(f"{PENDING} .what").nth(2)).to_contain_text("Null")
    assert stored(site, night) == [], "stored after the reload, while the phone was offline"

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


def test_who_dealt_and_who_enters_stays_open_while_the_outbox_is_sent(contexts: list[BrowserContext],
                                                                     site: Site) -> None:
    """The page fits its form to the deals the outbox sent (their numbers, the dealer next): it left "Who dealt,
    who enters" as the scorer had it only since stop 41. Before, each fitting folded it shut, and CI saw "Your
    name" hidden again between the tap that opened it and the typing (the page had just read its outbox)."""
    night = site.night()
    context = contexts[0]
    page = open_table(context, site, night)
    context.set_offline(True)
    save_offline(page, FIVE[0], 1)
    show_scorer(page)  # on the next deal's form, while deal 1 waits
    page.get_by_label("Your name").fill("Clara")

    context.set_offline(False)
    expect(page.locator(PENDING)).to_have_count(0)
    expect(page.locator("table.latest-deals tbody tr.deal-row th.number")).to_have_text(["1"])  # the sync's ledger
    expect(page.get_by_label("Your name")).to_be_visible()
    expect(page.get_by_label("Your name")).to_have_value("Clara")
    assert [deal["sequence"] for deal in stored(site, night)] == [1]


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


@on_both
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
    # The second phone's deal 1 was entered meanwhile: said, and its own deal kept to be saved as deal 2.
    row = second.locator(f"{PENDING}.conflict")
    expect(row).to_contain_text("was entered meanwhile on another phone")
    expect(row).to_contain_text("save it as deal 2")
    row.get_by_role("button", name="Save as deal 2").click()
    expect(second.locator(PENDING)).to_have_count(0)
    deals = stored(site, night)
    assert [(deal["sequence"], deal["facts"]["contract"]) for deal in deals] == [(1, "grand"), (2, "clubs")]


@on_both
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
    # … and said at the question, as the server says it (the save bar's line is cut short on a phone)
    expect(page.locator("#err-declarer")).to_have_text("tap the game in the declarer's row")
    expect(page.locator(PENDING)).to_have_count(0)
    fill_deal(page, {"contract": "grand", "declarer": "Bernd", "matadors": 1, "card_points": 130})
    expect(page.locator("#err-declarer")).to_be_empty()  # the tap took the message back
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator("#preview .problems")).to_contain_text("a whole number from 0 to 120")
    expect(page.locator("#err-card_points")).to_have_text("a whole number from 0 to 120")
    expect(page.locator("#id_card_points")).to_have_attribute("aria-invalid", "true")
    expect(page.locator(PENDING)).to_have_count(0)
    page.locator("#id_card_points").fill("70")
    expect(page.locator("#err-card_points")).to_be_empty()
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator(PENDING)).to_have_count(1)
    expect(page.locator(PENDING)).to_contain_text("Declarer's card points (skat included): 70")


# --- issue 28: a table whose seats rotate, two phones on one number, a correction meanwhile ------------------

FOUR = ["Anna", "Bernd", "Clara", "Dora"]
# A Skat table of four plays Bock (a 60:60 starts a round): only the server knows whether a deal is one.
SETUP_FOUR = """
from scorekeep.nights import writes as nights
night = nights.start_night(game="skat", preset="classic", players=ARGS["names"], house_rules={"bock": True},
                           bock_events=["sixty"])
table = night.tables.get()
for declarer in ARGS["declarers"]:  # engine seats; the rotation says who dealt
    nights.enter_deal(table, {"contract": "grand", "declarer": declarer, "bid": 48, "matadors": 2,
                              "card_points": 70}, by="Anna")
OUT = {"night": night.pk, "scorer": night.scorer_token, "viewer": night.viewer_token}
"""
SEATED = """
from scorekeep.models import CardTable
table = CardTable.objects.get(night_id=ARGS["night"], number=1)
names = [place.player.name for place in table.places.select_related("player")]
OUT = [{"sequence": d.sequence, "dealer": names[d.dealer], "playing": [names[p] for p in d.seating],
        "declarer": names[d.seating[d.facts["declarer"]]] if "declarer" in d.facts else None,
        "contract": d.facts["contract"], "points": d.facts.get("card_points"), "bock": d.bock,
        "version": d.version, "by": d.entered_by}
       for d in table.deals.filter(deleted=False).order_by("sequence")]
"""


def night_of_four(site: Site, deals: int) -> dict[str, Any]:
    """A Skat night at a table of four (Anna deals first, the dealer sits out) with `deals` deals stored."""
    return site.django(SETUP_FOUR, names=FOUR, declarers=[0] * deals)


def seated(site: Site, night: dict[str, Any]) -> list[dict[str, Any]]:
    return site.django(SEATED, night=int(night["night"]))


def players_of(number: int) -> tuple[str, list[str]]:
    """Deal `number` at the table of four: its dealer, and who plays it, forehand first (the engine's seats)."""
    dealer = (number - 1) % 4
    return FOUR[dealer], [FOUR[(dealer + k) % 4] for k in (1, 2, 3)]


def grid_rows(page: Page) -> Any:
    return page.locator("#q-contract .grid-row")


def expect_deal(page: Page, number: int, pending_bock: bool) -> None:
    """The form is for deal `number`: its grid has exactly that deal's players; its head and the status line
    say the number and dealer; Bock is said pending while deals wait to be sent before it."""
    dealer, playing = players_of(number)
    expect(grid_rows(page)).to_have_count(3)
    assert [grid_rows(page).nth(i).get_attribute("aria-label") for i in range(3)] == playing
    expect(page.locator("#entry .deal-head")).to_contain_text(f"Deal {number} · {dealer} deals")
    expect(page.locator("#entry .deal-head")).to_contain_text(f"Sits out: {dealer}")
    status = page.locator("#live-ledger .status")
    expect(status).to_contain_text(f"Deal {number} · {dealer} deals")
    if pending_bock:
        expect(status).to_contain_text("Bock: known once sent")
    else:
        expect(status).not_to_contain_text("known once sent")


def grand(declarer: str, points: int = 70) -> dict[str, Any]:
    return {"contract": "grand", "declarer": declarer, "bid": 48, "matadors": 2, "card_points": points}


def test_offline_through_a_rotation_at_four_every_deal_offers_its_own_players(contexts: list[BrowserContext],
                                                                             site: Site) -> None:
    """Issue 28, 2: deals 3–8 offline at a Skat table of four (more than a round of dealers), each declared
    by the player who sat out the deal before — who had no row when the form kept the first deal's players."""
    night = night_of_four(site, 2)
    context = contexts[0]
    page = open_table(context, site, night)
    context.set_offline(True)
    declarers = {}
    for waiting, number in enumerate(range(3, 9), start=1):
        expect_deal(page, number, pending_bock=waiting > 1)
        declarer = players_of(number - 1)[0]  # the previous dealer: he plays this deal, not the one before
        declarers[number] = declarer
        save_offline(page, grand(declarer, 60 if number == 5 else 70), waiting)  # deal 5 is a 60:60
    expect(page.locator(f"{PENDING} .number")).to_have_text([f"Deal {n}" for n in range(3, 9)])

    page.reload()  # offline: the copy of the page is for deal 3; the form follows the six deals waiting
    page.locator("html.js").wait_for(state="attached")
    expect(page.locator(PENDING)).to_have_count(6)
    expect_deal(page, 9, pending_bock=True)

    context.set_offline(False)
    expect(page.locator(PENDING)).to_have_count(0)
    deals = seated(site, night)
    assert [deal["sequence"] for deal in deals] == list(range(1, 9))
    for deal in deals[2:]:
        dealer, playing = players_of(deal["sequence"])
        assert (deal["dealer"], deal["playing"][:3]) == (dealer, playing)
        assert deal["declarer"] == declarers[deal["sequence"]]
    # The 60:60 of deal 5 started a Bock round the phone could not know of: the server made 6–8 Bock deals.
    assert [deal["bock"] for deal in deals[2:]] == [False, False, False, True, True, True]
    expect(page.locator("#live-ledger .status")).to_contain_text("Deal 9 · Anna deals")
    expect(page.locator("#live-ledger .status")).to_contain_text("Bock deal")


@on_both
@pytest.mark.parametrize(("choice", "declarer"), [("save as next", "Anna"), ("leave out", "Dora")])
def test_two_phones_offline_on_one_number_the_second_is_told_whose_deal_and_chooses(
        contexts: list[BrowserContext], site: Site, choice: str, declarer: str) -> None:
    """Issue 28, 3: both phones save deal 3 offline; the first is stored. The second says, in the players'
    words, whose deal 3 it was and offers its own as deal 4 or leaving it out — before any check of its seats
    (Dora declared deal 3 on it, and she deals deal 4: the next deal's form alone would only refuse her)."""
    night = night_of_four(site, 2)
    first, second = (open_table(context, site, night) for context in contexts)
    for context in contexts:
        context.set_offline(True)
    show_scorer(first)
    first.get_by_label("Your name").fill("Bernd")
    save_offline(first, grand("Bernd"), 1)
    save_offline(second, {"contract": "null", "declarer": declarer, "bid": 23, "declarer_tricks": 0}, 1)
    save_offline(second, grand("Bernd", 80), 2)  # deal 4 (Dora deals: Anna, Bernd, Clara play)
    contexts[0].set_offline(False)
    expect(first.locator(PENDING)).to_have_count(0)

    contexts[1].set_offline(False)
    row = second.locator(f"{PENDING}.conflict")
    expect(row).to_contain_text("Deal 3 was entered meanwhile on another phone by Bernd (Game: Grand")
    expect(row).to_contain_text("Yours is kept on this phone: save it as deal 4, or leave it out")
    expect(row).not_to_contain_text("valid choice")
    expect(row.locator(".number")).to_have_text("Deal 3")
    expect(second.locator(PENDING)).to_have_count(2)  # its deal 4 waits behind it
    expect(second.locator(f"{PENDING}.waiting")).to_have_count(1)
    if choice == "save as next":
        row.get_by_role("button", name="Save as deal 4").click()
    else:
        row.get_by_role("button", name="Leave it out").click()
    expect(second.locator(PENDING)).to_have_count(0)
    deals = seated(site, night)
    mine = [(deal["sequence"], deal["contract"], deal["declarer"], deal["dealer"]) for deal in deals[2:]]
    if choice == "save as next":  # both its deals one number on, each dealt as the rotation says
        assert mine == [(3, "grand", "Bernd", "Clara"), (4, "null", "Anna", "Dora"), (5, "grand", "Bernd", "Anna")]
    else:
        assert mine == [(3, "grand", "Bernd", "Clara"), (4, "grand", "Bernd", "Dora")]
    assert deals[3]["points"] == (None if choice == "save as next" else 80)


@on_both
def test_a_correction_on_one_phone_while_another_is_offline_loses_neither(contexts: list[BrowserContext],
                                                                          site: Site) -> None:
    """Issue 28: one phone corrects deal 2 while the other enters deals 3–6 offline across the rotation; back
    online, the offline deals go in after it, with their own players, and the correction stays."""
    night = night_of_four(site, 2)
    online, offline = (open_table(context, site, night) for context in contexts)
    contexts[1].set_offline(True)
    declarers = {}
    for waiting, number in enumerate(range(3, 7), start=1):
        declarers[number] = players_of(number - 1)[0]
        expect_deal(offline, number, pending_bock=waiting > 1)
        save_offline(offline, grand(declarers[number]), waiting)

    online.goto(online.url + "deals/2/")
    online.locator("html.js").wait_for(state="attached")
    online.locator("#id_card_points").fill("85")
    online.get_by_role("button", name="Save the correction").click()
    expect(online.locator("body")).to_contain_text("70 → 85")  # the deal's history says the change
    assert seated(site, night)[1]["version"] == 2

    contexts[1].set_offline(False)
    expect(offline.locator(PENDING)).to_have_count(0)
    deals = seated(site, night)
    assert [deal["sequence"] for deal in deals] == [1, 2, 3, 4, 5, 6]
    assert (deals[1]["points"], deals[1]["version"]) == (85, 2)  # the correction stays
    for deal in deals[2:]:
        assert deal["declarer"] == declarers[deal["sequence"]]
        assert deal["playing"][:3] == players_of(deal["sequence"])[1]


FIVE_AT_TABLE = ["Anna", "Bernd", "Clara", "Dora", "Emil"]
SETUP_FIVE = """
from scorekeep.nights import writes as nights
night = nights.start_night(game="schafkopf", preset="classic", players=ARGS["names"])
OUT = {"night": night.pk, "scorer": night.scorer_token, "viewer": night.viewer_token}
"""


def test_offline_at_a_schafkopf_table_of_five_each_deal_offers_the_four_who_play_it(
        contexts: list[BrowserContext], site: Site) -> None:
    """Issue 28, 2: at five the dealer sits out (four play, no grid): the declarer's and the partner's taps of
    each deal saved offline are that deal's four players, round the table and once more."""
    night = site.django(SETUP_FIVE, names=FIVE_AT_TABLE)
    context = contexts[0]
    page = open_table(context, site, night)
    context.set_offline(True)
    declared = {}
    for waiting, number in enumerate(range(1, 7), start=1):
        dealer = FIVE_AT_TABLE[(number - 1) % 5]
        playing = [FIVE_AT_TABLE[(number - 1 + k) % 5] for k in (1, 2, 3, 4)]
        with_sauspiel = page.locator("#q-contract input[value='sauspiel']")
        if not with_sauspiel.is_checked():
            fill_deal(page, {"contract": "sauspiel"})
        expect(page.locator("#q-declarer label.tap")).to_have_text(playing)
        expect(page.locator("#q-partner label.tap")).to_have_text(playing)
        expect(page.locator("#entry .deal-head")).to_contain_text(f"Deal {number} · {dealer} deals")
        expect(page.locator("#entry .deal-head")).to_contain_text(f"Sits out: {dealer}")
        declarer = FIVE_AT_TABLE[(number - 2) % 5] if number > 1 else playing[0]  # the last dealer, who plays
        partner = next(p for p in playing if p != declarer)
        declared[number] = (declarer, partner)
        if number == 1:  # the checks of the engine's four seats: the table's five had none (the API refused five)
            fill_deal(page, {"contract": "sauspiel", "declarer": declarer, "partner": partner})
            page.get_by_role("button", name="Save deal").click()
            expect(page.locator("#err-card_points")).to_have_text("needed for this game")
            expect(page.locator(PENDING)).to_have_count(0)
        fill_deal(page, {"contract": "sauspiel", "declarer": declarer, "partner": partner, "card_points": 70})
        expect(page.locator("#preview .offline-checked")).to_be_visible()
        page.get_by_role("button", name="Save deal").click()
        expect(page.locator(PENDING)).to_have_count(waiting)

    context.set_offline(False)
    expect(page.locator(PENDING)).to_have_count(0)
    deals = site.django(SEATED.replace('names[d.seating[d.facts["declarer"]]] if "declarer" in d.facts else None',
                                       '[names[d.seating[d.facts[k]]] for k in ("declarer", "partner")]'),
                        night=int(night["night"]))
    assert [deal["sequence"] for deal in deals] == list(range(1, 7))
    for deal in deals:
        number = deal["sequence"]
        assert deal["dealer"] == FIVE_AT_TABLE[(number - 1) % 5]
        assert tuple(deal["declarer"]) == declared[number]
