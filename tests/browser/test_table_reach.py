"""Rare contracts entered without a scroll, nothing tapped under the Save bar (issue 28, item 4), in Chromium.

A night in progress (three deals saved, so the latest deals stand above the form), at 390 × 844: each step of a
rare deal taps a control that is where a finger can tap it as the page stands — its centre inside the window,
the control itself there (not the standings held at the top over it), and its box clear of the Save bar held
at the foot — and the window never scrolls, from the first tap to Save. Controls are found by their inputs'
names and values, which do not change with the language. bench/reach.py checks every contract in en, de, ja.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Locator, Page

from scorekeep.nights import writes as nights

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOUR = ["Anna", "Bernd", "Clara", "Dieter"]

# Where a control is, against the window, the sticky strips and the Save bar.
PLACE = """(element) => {
  const box = element.getBoundingClientRect();
  const bar = document.querySelector('.savebar').getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const hit = document.elementFromPoint(x, y);
  return {top: box.top, bottom: box.bottom, bar: bar.top, inWindow: y >= 0 && y < window.innerHeight,
          reached: hit !== null && (hit === element || element.contains(hit)), scrolled: window.scrollY,
          inBar: Boolean(element.closest('.savebar'))};
}"""


def tap(page: Page, control: Locator, name: str) -> None:
    """Tap `control` where it is, after checking that no scroll is needed and the Save bar covers none of it."""
    control.wait_for()
    place = control.evaluate(PLACE)
    assert place["scrolled"] == 0, f"the page scrolled before {name}: {place}"
    assert place["inWindow"] and place["reached"], f"{name} is not where a finger can tap it: {place}"
    if not place["inBar"]:
        assert place["bottom"] <= place["bar"], f"the Save bar covers {name}: {place}"
    swaps = bool(control.evaluate("e => Boolean(e.querySelector('input[hx-get]'))"))
    if swaps:  # choosing the game re-renders the form: wait for the new one
        page.locator("#entry").evaluate("e => { e.dataset.stale = 'yes'; }")
    control.tap()
    if swaps:
        page.locator("#entry:not([data-stale])").wait_for()
    if not place["inBar"]:  # after Save the page goes to the saved row by itself (static/js/app.js)
        assert page.evaluate("() => window.scrollY") == 0, f"tapping {name} scrolled the page"


def choice(page: Page, name: str, value: str) -> Locator:
    return page.locator(f"label.tap:has(> input[name='{name}'][value='{value}'])")


def typed(page: Page, name: str, text: str) -> None:
    field = page.locator(f"#entry input[name='{name}']")
    tap(page, field, name)
    field.press_sequentially(text)


def more(page: Page) -> Locator:
    return page.locator("#entry details.more:not(.dealer) > summary")


def night_in_progress(game: str, preset: str, players: list[str], typical: dict[str, Any]) -> Any:
    night = nights.start_night(game=game, preset=preset, players=players)
    for _ in range(3):
        nights.enter_deal(night.tables.get(), dict(typical))
    return night


def save_and_see(page: Page, outcome_class: str, number: int) -> None:
    page.locator(f"#preview .outcome.{outcome_class}").wait_for()
    tap(page, page.locator("#entry .savebar button[type=submit]"), "Save")
    page.locator(f"tr#latest-{number}.just-saved").wait_for()


def open_table(page: Page, live_server: Any, night: Any) -> None:
    page.goto(f"{live_server.url}/nights/{night.pk}/tables/1/")
    page.locator("html.js").wait_for(state="attached")


def test_skat_grand_hand_with_schneider_announced(page: Page, live_server: Any) -> None:
    night = night_in_progress("skat", "classic", FOUR[:3], {"contract": "hearts", "declarer": 1, "bid": 18,
                                                             "matadors": 1, "card_points": 75})
    open_table(page, live_server, night)
    tap(page, page.locator("label[for=id_contract_grand_0]"), "Anna's Grand")
    tap(page, page.locator("#other-bid"), "the bids' Other")
    tap(page, choice(page, "bid", "30"), "bid 30")
    tap(page, choice(page, "matadors", "1"), "with 1")
    typed(page, "card_points", "95")
    tap(page, page.locator("label.tap:has(> input[name=hand])"), "Hand")
    tap(page, more(page), "More")
    tap(page, choice(page, "announced", "schneider"), "Schneider announced")
    save_and_see(page, "won", 4)


def test_schafkopf_solo_schwarz(page: Page, live_server: Any) -> None:
    night = night_in_progress("schafkopf", "bsv", FOUR, {"contract": "sauspiel", "declarer": 1, "partner": 3,
                                                         "card_points": 75})
    open_table(page, live_server, night)
    tap(page, choice(page, "contract", "solo"), "Solo")
    tap(page, choice(page, "declarer", "2"), "Clara")
    tap(page, choice(page, "trump", "S"), "Gras")
    typed(page, "card_points", "120")
    tap(page, more(page), "More")
    tap(page, choice(page, "declarer_tricks", "8"), "every trick")
    save_and_see(page, "won", 4)


def test_schafkopf_tout_with_a_klopfer(page: Page, live_server: Any) -> None:
    night = night_in_progress("schafkopf", "bsv", FOUR, {"contract": "sauspiel", "declarer": 1, "partner": 3,
                                                         "card_points": 75})
    open_table(page, live_server, night)
    tap(page, page.locator("#other-contract"), "the games' Other")
    tap(page, choice(page, "contract", "solo_tout"), "Solo Tout")
    tap(page, choice(page, "declarer", "1"), "Bernd")
    tap(page, choice(page, "trump", "H"), "Herz")
    tap(page, choice(page, "declarer_tricks", "8"), "every trick")
    tap(page, choice(page, "klopfer", "1"), "one Klopfer")
    save_and_see(page, "won", 4)


def test_kop_normal_game_with_the_old_sides_tricks(page: Page, live_server: Any) -> None:
    night = night_in_progress("kop", "classic", FOUR, {"contract": "normal", "old": [0, 2], "card_points": 60})
    open_table(page, live_server, night)
    tap(page, choice(page, "old", "1"), "Bernd")
    tap(page, choice(page, "old", "3"), "Dieter")
    typed(page, "card_points", "0")
    tap(page, more(page), "More")
    tap(page, choice(page, "old_tricks", "0"), "no trick")
    save_and_see(page, "lost", 4)
