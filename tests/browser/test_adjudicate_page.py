"""The dispute page in Chromium, as a person at the card table uses it on a phone.

With JavaScript, htmx updates the verdict (and, when the contract or game changes, the inputs)
without loading a page; without it, the "Show verdict" button does everything.
"""

from pathlib import Path

import pytest
from playwright.sync_api import Page, Request, expect

pytestmark = pytest.mark.browser

MINUS = "\N{MINUS SIGN}"


def open_page(page: Page, live_server: object) -> list[Request]:
    """Open /adjudicate/ and record every request made after it loaded."""
    page.goto(f"{live_server.url}/adjudicate/")  # type: ignore[attr-defined]
    expect(page.locator("#id_game")).to_be_visible()
    page.locator("html.js").wait_for(state="attached")
    page.evaluate("window.noPageLoad = 'still here'")
    requests: list[Request] = []
    page.on("request", lambda request: requests.append(request))
    return requests


def beside_the_page(request: Request) -> bool:
    """A request that is not the page's work: the browser's icon (asked again as the address changes), the
    service worker's, and the page's own copy kept for a reload without a connection (static/js/offline.js)."""
    return (request.service_worker is not None or request.url.endswith(("/sw.js", "/icon.svg"))
            or "x-scorekeep-copy" in request.all_headers())


def documents(requests: list[Request]) -> list[str]:
    """The page loads among `requests` (htmx's requests are fetch/XHR, never documents)."""
    return [r.url for r in requests if r.resource_type == "document"]


def enter_skat_deal(page: Page, card_points: str) -> None:
    """A Diamonds game, without 2, bid 18, declared by Seat 2 (ISkO): RULES.md's "lost 6 × 9"."""
    page.select_option("#id_preset", "isko")
    expect(page.locator("#id_shown")).to_have_value("skat:isko")
    page.select_option("#id_contract", "diamonds")
    expect(page.locator("#id_contract")).to_have_value("diamonds")
    page.select_option("#id_declarer", "1")
    page.select_option("#id_bid", "18")
    page.select_option("#id_matadors", "-2")
    page.locator("#id_card_points").click()
    page.keyboard.type(card_points)


def test_skat_verdict_updates_as_you_type_without_a_page_load(page: Page, live_server: object) -> None:
    requests = open_page(page, live_server)
    enter_skat_deal(page, "50")
    verdict = page.locator("#verdict")
    expect(verdict.locator(".value")).to_have_text("Value 27")
    expect(verdict.locator(".outcome")).to_contain_text("Lost")
    expect(verdict.locator("tbody tr").nth(1)).to_have_text(f"Seat 2 {MINUS}54 {MINUS}50", use_inner_text=True)
    expect(verdict.locator("ol.explanation li").first).to_contain_text("base value 9")
    # no navigation: the same document, only htmx's requests, the typed input still focused
    assert page.evaluate("window.noPageLoad") == "still here"
    assert documents(requests) == []
    assert requests and all(r.headers.get("hx-request") == "true" for r in requests if not beside_the_page(r))
    assert page.evaluate("document.activeElement.id") == "id_card_points"
    # the URL follows the form, so the verdict can be bookmarked
    assert "card_points=50" in page.url and "contract=diamonds" in page.url
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    page.keyboard.type("65")
    expect(verdict.locator(".outcome")).to_contain_text("Won")
    expect(page.locator("#id_card_points")).to_have_value("65")


def test_switching_the_game_to_schafkopf_shows_its_fields(page: Page, live_server: object) -> None:
    requests = open_page(page, live_server)
    expect(page.locator("#id_matadors")).to_be_visible()
    page.select_option("#id_game", "schafkopf")
    expect(page.locator("#id_partner")).to_be_visible()
    expect(page.locator("details.more #id_called_ace")).to_be_hidden()  # seldom asked: folded under "More"
    expect(page.locator("#id_laufende")).to_be_visible()
    expect(page.locator("#id_matadors")).to_have_count(0)
    expect(page.locator("#id_contract")).to_have_value("sauspiel")
    expect(page.locator("#id_preset option")).to_have_text(
        ["Classic (fixed values)", "BSV tariff 10/50", "Sauspiel tariff 10/20/50"])
    expect(page.locator("#id_declarer option").last).to_have_text("Seat 4")
    page.select_option("#id_contract", "solo")
    expect(page.locator("#id_trump")).to_be_visible()
    expect(page.locator("#id_partner")).to_have_count(0)
    assert documents(requests) == []


def test_a_house_rule_change_keeps_the_house_rules_open(page: Page, live_server: object) -> None:
    open_page(page, live_server)
    page.locator("summary", has_text="House rules").click()
    expect(page.locator("#id_kontra")).to_have_count(1)
    page.locator("#row-rule-kontra label").click()  # classic plays Kontra; this table does not
    expect(page.locator("#id_kontra")).to_have_count(0)
    expect(page.locator("details.house-rules")).to_have_attribute("open", "")
    expect(page.locator("#id_rule-kontra")).to_be_focused()


def test_an_invalid_value_shows_the_message_at_its_field(page: Page, live_server: object) -> None:
    open_page(page, live_server)
    enter_skat_deal(page, "130")
    expect(page.locator("#err-card_points")).to_contain_text("must be from 0 to 120, not 130")
    expect(page.locator("#verdict")).to_contain_text("Not settled yet")
    expect(page.locator("#id_card_points")).to_have_value("130")
    expect(page.locator("#id_card_points")).to_be_focused()
    expect(page.locator("#id_declarer")).to_have_value("1")
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    page.keyboard.type("70")
    expect(page.locator("#verdict .outcome")).to_contain_text("Won")
    expect(page.locator("#err-card_points")).to_be_empty()


def test_fipsen_bidding_dispute_answers_on_the_same_page(page: Page, live_server: object) -> None:
    requests = open_page(page, live_server)
    page.select_option("#id_game", "fipsen")
    expect(page.locator("#id_compare-0-bid")).to_be_visible()
    page.select_option("#id_compare-0-bid", "3")
    page.locator("label[for=id_compare-0-hand]").click()
    page.select_option("#id_compare-0-seat", "0")
    page.select_option("#id_compare-1-bid", "3")
    page.locator("label[for=id_compare-1-ruten]").click()
    page.select_option("#id_compare-1-seat", "2")
    expect(page.locator("#comparison .outcome")).to_have_text("First bid is higher")
    # the explanation names the seats as the seat selects do
    expect(page.locator("#comparison ol.explanation")).to_contain_text("Bid 0: 3 Hand by Seat 1")
    expect(page.locator("#comparison ol.explanation")).to_contain_text("Bid 1: 3 Ruten by Seat 3")
    assert documents(requests) == []


def test_without_javascript_the_button_gives_the_verdict(page_without_js: Page, live_server: object) -> None:
    page = page_without_js
    page.goto(f"{live_server.url}/adjudicate/")  # type: ignore[attr-defined]
    # a Clubs game with 1: (1 + 1) × 12 = 24
    page.select_option("#id_declarer", "0")
    page.select_option("#id_bid", "18")
    page.select_option("#id_matadors", "1")
    page.fill("#id_card_points", "70")
    page.get_by_role("button", name="Show verdict").click()
    page.wait_for_load_state()
    expect(page.locator("#verdict .outcome")).to_contain_text("Won")
    expect(page.locator("#verdict .value")).to_have_text("Value 24")
    expect(page.locator("#id_card_points")).to_have_value("70")
    assert "card_points=70" in page.url
    # changing the game needs the button too, and brings that game's fields
    page.select_option("#id_game", "kop")
    page.get_by_role("button", name="Show verdict").click()
    page.wait_for_load_state()
    expect(page.locator("input[name=old]")).to_have_count(4)
    expect(page.locator("#id_card_points")).to_have_attribute("max", "104")


def test_on_a_phone_nothing_overflows_and_every_control_is_big_enough(page: Page, live_server: object,
                                                                       tmp_path: Path) -> None:
    open_page(page, live_server)
    enter_skat_deal(page, "50")
    expect(page.locator("#verdict .value")).to_have_text("Value 27")
    page.locator("summary", has_text="House rules").click()
    page.locator("#verdict details.request summary").click()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    small = page.evaluate("""() => [...document.querySelectorAll(
            'select, button, input:not([type=checkbox]):not([type=hidden]), label.check, .row.check > label, summary')]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.id || e.name || e.textContent.trim().slice(0, 30), e.getBoundingClientRect().height])
        .filter(([, height]) => height < 44)""")
    assert small == []
    page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)


def test_on_a_phone_the_outcome_stays_in_sight_while_typing(page: Page, live_server: object) -> None:
    """The inputs fill a phone's screen; a bar at the bottom shows the outcome and follows each change."""
    open_page(page, live_server)
    enter_skat_deal(page, "50")
    bar = page.locator(".verdict-bar")
    expect(bar).to_have_text("Lost · Value 27")
    expect(bar).to_be_in_viewport()
    page.locator("#id_card_points").fill("")
    page.keyboard.type("70")
    expect(bar).to_have_text("Won · Value 27")
    bar.click()
    expect(page.locator("#verdict-title")).to_be_in_viewport()
