"""Accessibility in Chromium: axe-core on every main page, keyboard use, tap targets, 200 % text, the ledger's table.

axe-core comes with `axe-playwright-python` (its bundled axe.min.js, no network). It is injected with
`page.evaluate`, which the page's Content-Security-Policy (script-src 'self') does not block. Serious and
critical findings fail the test; moderate and minor ones are printed (``pytest -s``) so they can be read.

The data is real: the demo nights (`loaddemo`, one finished night per game) and an open Skat night with a
few deals entered through `scorekeep.nights.writes`, so the table page shows its entry form and a ledger.
"""

from __future__ import annotations

import datetime
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.core.management import call_command
from playwright.sync_api import Page, expect

from scorekeep.clubs import clubs, seasons
from scorekeep.models import CardNight, CardTable, Player, Season
from scorekeep.nights import demo
from scorekeep.nights import writes as nights
from tests.built_once import built_once

from .steps import choose_game, replaced

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
VIEWPORTS = {"phone": PHONE, "desktop": DESKTOP}
FAILING_IMPACTS = ("serious", "critical")
TAP = 44  # px: the tap-target size (WCAG 2.5.5)

# Deal 7 of the open night: Clara deals (Anna dealt first), Bernd declares a Grand with 2.
NEXT_DEAL = {"contract": "grand", "declarer": "Bernd", "bid": 27, "matadors": 2, "card_points": 70}


@dataclass(frozen=True, slots=True)
class Evening:
    """An open Skat night (six deals at one table of four) beside the finished demo nights."""

    night: CardNight
    table: CardTable
    demo: dict[str, CardNight]
    player: Player
    season: Season  # the demo club's, over the open night and the demo Skat night, ratings shown

    @property
    def table_url(self) -> str:
        return f"/nights/{self.night.pk}/tables/{self.table.number}/"


@pytest.fixture(autouse=True)
def evening_rows(live_server: Any) -> dict[str, Any]:
    """The evening's rows, in the database before anything else of a test (the page's log-in among them)."""
    return built_once("accessibility evening", build_evening)


@pytest.fixture
def evening(evening_rows: dict[str, Any]) -> Evening:
    ids = evening_rows
    finished = {night.game: night for night in CardNight.objects.filter(pk__in=ids["finished"])}
    night = CardNight.objects.get(pk=ids["night"])
    return Evening(night, night.tables.get(), finished, Player.objects.get(name="Anna"),
                   Season.objects.get(pk=ids["season"]))


def build_evening() -> dict[str, Any]:
    call_command("loaddemo", stdout=io.StringIO())
    finished = {night.game: night for night in CardNight.objects.all()}
    skat = next(spec for spec in demo.nights() if spec.game == "skat")
    night = nights.start_night(game="skat", preset=skat.preset, players=skat.players, series_length=36,
                               date=datetime.date(2025, 4, 4), place="Skatclub Herz Dame",
                               club=finished["skat"].club)  # the demo club's players, Anna among them
    table = night.tables.get()
    for number, facts in enumerate(skat.deals[:6]):
        nights.enter_deal(table, facts, by=skat.players[number % 4])
    club = clubs.set_ratings(finished["skat"].club, True)
    season = seasons.start_season(club, name="2025", game="skat", start=datetime.date(2025, 1, 1),
                                  end=datetime.date(2025, 12, 31), basis="seeger_fabian", min_nights=2)
    return {"finished": [night.pk for night in finished.values()], "night": night.pk, "season": season.pk}


# --- axe-core ----------------------------------------------------------------------------------------

def open_everything(page: Page) -> None:
    """Unfold every <details> (the entry form's "More", house rules …): axe checks only what is rendered."""
    page.evaluate("document.querySelectorAll('details').forEach((details) => { details.open = true; })")


def findings(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now (WCAG 2.x A and AA, and axe's best practices)."""
    return Axe().run(page).response["violations"]


def described(violations: list[dict[str, Any]]) -> str:
    return "\n".join(f"{v['impact']}: {v['id']} ({v['help']}) at "
                     + "; ".join(" ".join(node["target"]) for node in v["nodes"][:6]) for v in violations)


def show_verdict(page: Page, base: str, evening: Evening) -> None:
    """The dispute page with a verdict: RULES.md's Diamonds without 2, lost 6 × 9."""
    page.goto(f"{base}/adjudicate/?game=skat&preset=isko&contract=diamonds&declarer=1&bid=18&matadors=-2"
              "&card_points=50")
    expect(page.locator("#verdict .outcome")).to_contain_text("Lost")


def table_with_preview(page: Page, base: str, evening: Evening) -> None:
    """The table page mid-entry: a deal tapped in, its preview shown, "More" open."""
    page.goto(base + evening.table_url)
    page.locator("html.js").wait_for(state="attached")
    # Tapped by value and by player name: the same in every language the page may be read in.
    choose_game(page, NEXT_DEAL)  # Skat at four: who declared what, one tap in the grid of players and games
    tap(page, "matadors", NEXT_DEAL["matadors"])
    tap(page, "bid", NEXT_DEAL["bid"])
    page.locator("#id_card_points").fill(str(NEXT_DEAL["card_points"]))
    expect(page.locator("#preview .outcome.won")).to_have_count(1)


def tap(page: Page, key: str, value: object) -> None:
    """Tap the button of question `key` whose radio holds `value`."""
    page.locator(f"#q-{key} label.tap").filter(has=page.locator(f"input[value='{value}']")).click()
    expect(page.locator(f"#q-{key} input[value='{value}']")).to_be_checked()


def table_with_errors(page: Page, base: str, evening: Evening) -> None:
    """The table page after tapping Save with nothing entered: the engine's messages at the inputs."""
    page.goto(base + evening.table_url)
    page.locator("html.js").wait_for(state="attached")
    page.locator("#deal-form button[type=submit]:not([name])").click()
    expect(page.locator("#deal-form .errors p").first).to_be_visible()


def kop_chain(page: Page, base: str, evening: Evening) -> None:
    """An open Kop table mid-entry: two doublings tapped into the chain."""
    night = nights.start_night(game="kop", preset="classic", players=["Anna", "Bernd", "Clara", "Dieter"])
    page.goto(f"{base}/nights/{night.pk}/tables/1/")
    page.locator("html.js").wait_for(state="attached")
    for name in ("Bernd", "Anna"):
        page.locator("#q-doublings [data-chain-add]").filter(has_text=name).click()
    expect(page.locator("#q-doublings .chain-list li")).to_have_count(2)


def ramsch_entry(page: Page, base: str, evening: Evening) -> None:
    """The table page with a Ramsch mid-entry: one player's card points typed, another tapped as a Jungfrau."""
    page.goto(base + evening.table_url)
    page.locator("html.js").wait_for(state="attached")
    with replaced(page, "#entry"):
        tap(page, "contract", "ramsch")
    page.locator("#q-points input").first.fill("30")
    page.locator("#q-no_trick label.tap").last.click()
    expect(page.locator("#rest-points")).to_contain_text(": ")
    expect(page.locator("#preview .outcome")).to_have_count(1)


def visit(path: Callable[[Evening], str]) -> Callable[[Page, str, Evening], None]:
    def go(page: Page, base: str, evening: Evening) -> None:
        page.goto(base + path(evening))
    return go


def anonymous(path: str) -> Callable[[Page, str, Evening], None]:
    """A page as somebody not logged in sees it (the log-in and sign-up forms)."""
    def go(page: Page, base: str, evening: Evening) -> None:
        page.context.clear_cookies()
        page.goto(base + path)
    return go


PAGES: dict[str, Callable[[Page, str, Evening], None]] = {
    "home": visit(lambda e: "/"),
    "adjudicate": show_verdict,
    "login": anonymous("/accounts/login/"),
    "signup": anonymous("/accounts/signup/"),
    "password-reset": anonymous("/accounts/password-reset/"),
    "nights": visit(lambda e: "/nights/"),
    "night-new": visit(lambda e: "/nights/new/"),
    "night": visit(lambda e: f"/nights/{e.night.pk}/"),
    "links": visit(lambda e: f"/nights/{e.night.pk}/links/"),
    "table": table_with_preview,
    "table-refused": table_with_errors,
    "table-kop": kop_chain,
    "table-ramsch": ramsch_entry,
    "deal": visit(lambda e: f"{e.table_url}deals/3/"),
    "settings": visit(lambda e: f"/nights/{e.night.pk}/settings/"),
    "settlement": visit(lambda e: f"/nights/{e.demo['schafkopf'].pk}/settlement/"),
    "settlement-skat": visit(lambda e: f"/nights/{e.demo['skat'].pk}/settlement/"),
    "stats": visit(lambda e: "/stats/"),
    "player-stats": visit(lambda e: f"/stats/{e.player.pk}/"),
    "print": visit(lambda e: f"/nights/{e.night.pk}/print/"),
    **{f"{game}-table": visit(lambda e, game=game: f"/nights/{e.demo[game].pk}/tables/1/")
       for game in ("schafkopf", "kop", "fipsen")},
    "kop-print": visit(lambda e: f"/nights/{e.demo['kop'].pk}/print/"),
    "glossary": visit(lambda e: "/glossary/"),
    "clubs": visit(lambda e: "/clubs/"),
    "club": visit(lambda e: f"/clubs/{e.season.club_id}/"),
    "season": visit(lambda e: f"/clubs/{e.season.club_id}/seasons/{e.season.pk}/"),
    "season-new": visit(lambda e: f"/clubs/{e.season.club_id}/seasons/new/"),
    "season-print": visit(lambda e: f"/clubs/{e.season.club_id}/seasons/{e.season.pk}/print/"),
}


def read_in(page: Page, live_server: Any, lang: str) -> None:
    """The language the header's switch would remember (its cookie), for the pages opened next."""
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live_server.url}])


@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_nothing_serious(page: Page, live_server: Any, evening: Evening, name: str) -> None:
    """At a phone's size, then the same page (as it stands, whatever was tapped) widened to a desktop's."""
    page.set_viewport_size(PHONE)
    check_with_axe(page, live_server, evening, name, list(VIEWPORTS))


# German's long words and Japanese script on the pages a table uses most.
@pytest.mark.parametrize("lang", ["de", "ja"])
@pytest.mark.parametrize("name", ["table", "table-refused", "night", "night-new", "print"])
def test_axe_finds_nothing_serious_in_german_and_japanese(page: Page, live_server: Any, evening: Evening, name: str,
                                                          lang: str) -> None:
    read_in(page, live_server, lang)
    check_with_axe(page, live_server, evening, name, [lang])
    expect(page.locator("html")).to_have_attribute("lang", lang)


def check_with_axe(page: Page, live_server: Any, evening: Evening, name: str, views: list[str]) -> None:
    """Axe on page `name`, once per view: a viewport's name resizes the page first, a language is read as is."""
    PAGES[name](page, live_server.url, evening)
    expect(page.locator("main")).to_be_visible()
    serious = []
    for where in views:
        if where in VIEWPORTS:
            page.set_viewport_size(VIEWPORTS[where])
        open_everything(page)
        violations = findings(page)
        milder = [v for v in violations if v["impact"] not in FAILING_IMPACTS]
        if milder:
            print(f"\n[{name} · {where}] axe, not failing:\n{described(milder)}")
        serious += [f"{name} ({where}):\n{described([v])}" for v in violations if v["impact"] in FAILING_IMPACTS]
    assert not serious, "\n".join(serious)


# --- keyboard ------------------------------------------------------------------------------------------

# What has the focus, and whether it shows: an outline on the element, or on the tap button (label) of a
# radio or checkbox that is drawn invisible inside it.
FOCUSED_JS = """() => {
  const element = document.activeElement;
  if (!element || element === document.body) { return null; }
  const drawn = element.matches(".tap input, .card-tap input") ? element.closest("label") : element;
  const style = getComputedStyle(drawn);
  const box = drawn.getBoundingClientRect();
  return {key: element.id || element.name || element.textContent.trim().slice(0, 40) || element.tagName,
          tag: element.tagName.toLowerCase(), type: element.type || "", name: element.name || "",
          focusVisible: element.matches(":focus-visible"),
          outline: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2 ? style.outlineWidth : "",
          visible: box.width > 0 && box.height > 0};
}"""

# Every control a keyboard must reach, in document order; a radio group counts once (Tab enters the group,
# the arrow keys move in it).
REACHABLE_JS = """(root) => {
  const seen = new Set();
  const controls = [];
  const selector = "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]";
  for (const element of document.querySelectorAll(root + " " + selector)) {
    if (element.disabled || element.tabIndex < 0 || element.closest("[hidden], details:not([open]) > :not(summary)")) {
      continue;
    }
    // Tab enters a radio group at its checked radio: the group stands where that one is (a chosen bid
    // folded under "Other" comes after the "Other" that folds it).
    const checked = element.type === "radio" && element.form
      ? [...element.form.querySelectorAll("input[type=radio]:checked")].find((radio) => radio.name === element.name)
      : null;
    if (checked && checked !== element) { continue; }
    const drawn = element.matches(".tap input, .card-tap input") ? element.closest("label") : element;
    const box = drawn.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) { continue; }
    const key = element.type === "radio" ? "radio:" + element.name : element.id || element.name
      || element.textContent.trim().slice(0, 40) || element.tagName;
    if (!seen.has(key)) { seen.add(key); controls.push(key); }
  }
  return controls;
}"""


def tab_through(page: Page, limit: int = 400) -> list[dict[str, Any]]:
    """Press Tab from the top of the page (the skip link, the first thing on every page) until the focus
    leaves the page or comes round again. A date input takes several Tabs (day, month, year): one stop."""
    page.locator("a.skip").focus()
    # Focus set by a script shows its ring only after keyboard use: arrive at the skip link by keyboard.
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    visited: list[dict[str, Any]] = [page.evaluate(FOCUSED_JS)]
    assert visited[0] and visited[0]["tag"] == "a", "the skip link is not the first stop"
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED_JS)
        if focused is None or focused["key"] == visited[0]["key"]:
            return visited
        if focused["key"] != visited[-1]["key"]:
            visited.append(focused)
    raise AssertionError(f"Tab never left the page after {limit} presses: a keyboard trap near "
                         f"{[f['key'] for f in visited[-5:]]}")


def group_key(focused: dict[str, Any]) -> str:
    return f"radio:{focused['name']}" if focused["type"] == "radio" else focused["key"]


@pytest.mark.parametrize("name", ["table", "table-kop", "night", "night-new", "adjudicate", "deal", "settings",
                                  "settlement"])
def test_every_control_is_reached_with_tab_in_order_and_shows_its_focus(
        page: Page, live_server: Any, evening: Evening, name: str) -> None:
    PAGES[name](page, live_server.url, evening)
    page.wait_for_load_state("networkidle")
    open_everything(page)
    expect(page.locator(".htmx-request")).to_have_count(0)
    visited = tab_through(page)
    reached = [group_key(f) for f in visited]
    expected = page.evaluate(REACHABLE_JS, "body")
    missing = [key for key in expected if key not in reached]
    assert missing == [], f"Tab never reaches {missing}; it went {reached}"
    # The order is the page's reading order: no positive tabindex, nothing jumps around.
    order = [key for key in reached if key in expected]
    assert order == [key for key in expected if key in order], f"Tab order {order} is not the reading order {expected}"
    assert page.locator("[tabindex]:not([tabindex='0']):not([tabindex='-1'])").count() == 0
    unseen = [f["key"] for f in visited if not (f["outline"] and f["visible"])]
    assert unseen == [], f"focused without a visible outline: {unseen}"


def test_a_whole_deal_is_entered_and_saved_with_the_keyboard_alone(
        page: Page, live_server: Any, evening: Evening) -> None:
    page.goto(live_server.url + evening.table_url)
    page.locator("html.js").wait_for(state="attached")
    expect(page.locator("#entry .deal-head")).to_contain_text("Deal 7")

    def focus_into(selector: str) -> None:
        """Tab forward until the focus is inside `selector` (as a keyboard user moves down the form)."""
        for _ in range(80):
            page.keyboard.press("Tab")
            if page.evaluate("(s) => Boolean(document.activeElement.closest(s))", selector):
                return
        raise AssertionError(f"Tab never reached {selector}")

    def arrow_to(key: str, value: str) -> None:
        """In a radio group (tap buttons), move with the arrow keys to `value`; each arrow checks a radio."""
        for _ in range(40):
            if page.locator(f"#q-{key} input[value='{value}']").is_checked():
                return
            page.keyboard.press("ArrowRight")
        raise AssertionError(f"the arrow keys never reached {key}={value}")

    # Who declared what: Tab into the grid of players and games, arrows to Bernd's Grand (one radio group:
    # the games without a declarer, then each player's row). The form re-renders for each; the focus stays.
    focus_into("#q-contract")
    page.keyboard.press("Space")
    grand = page.locator("#q-contract .grid-row[aria-label='Bernd'] input[value^='grand@']").get_attribute("value")
    arrow_to("contract", str(grand))
    # Each radio chosen re-renders the form at once (htmx, on change): wait until the last answer is in.
    expect(page.locator(".htmx-request")).to_have_count(0)
    expect(page.locator(f"#q-contract input[value='{grand}']")).to_be_checked()
    assert page.evaluate("document.activeElement.closest('#q-contract') !== null"), "the focus was lost"
    focus_into("#q-matadors")
    page.keyboard.press("Space")
    arrow_to("matadors", "2")
    focus_into("#q-bid")  # the bid's taps: 18 is chosen, the arrows move on to 27
    arrow_to("bid", "27")
    expect(page.locator("#q-bid input[value='27']")).to_be_checked()
    # Hand is a checkbox drawn as a tap button, folded under "More": open it with Enter, tick with Space.
    focus_into("#entry details.more:not(.dealer) > summary")
    page.keyboard.press("Enter")
    focus_into("#q-hand")
    page.keyboard.press("Space")
    expect(page.locator("#id_hand")).to_be_checked()
    page.keyboard.press("Space")
    expect(page.locator("#id_hand")).not_to_be_checked()
    focus_into("#id_card_points")
    page.keyboard.type("70")
    # Who enters is folded with who dealt: open it with Enter, type the name.
    focus_into("#entry details.dealer > summary")
    page.keyboard.press("Enter")
    focus_into("#id_by")
    page.keyboard.type("Anna")
    expect(page.locator("#preview .outcome strong").first).to_have_text("Won")
    focus_into("#deal-form button[type=submit]:not([name])")
    page.keyboard.press("Enter")
    expect(page.locator("#table-region .saved")).to_contain_text("Deal 7 saved: Bernd: Grand")
    expect(page.locator("table.latest-deals tbody tr.deal-row.just-saved th.number")).to_have_text("7")
    deal = evening.table.deals.get(sequence=7)
    assert deal.facts["contract"] == "grand" and deal.facts["card_points"] == 70 and not deal.facts.get("hand")


# --- tap targets -------------------------------------------------------------------------------------------

# Every control's box as a finger meets it (a radio or checkbox drawn inside a label: the label). A link
# inside a sentence is exempt (WCAG 2.5.8): its block holds text outside the link.
TARGETS_JS = """() => {
  const inSentence = (link) => {
    const block = link.parentElement.closest("p, li, dd, td, span.note") || link.parentElement;
    const text = [...block.childNodes].filter((node) => node !== link && !node.contains?.(link))
      .map((node) => node.textContent).join("").replace(/[\\s·|()←→]/g, "");
    return block.tagName !== "LI" && text.length > 0;
  };
  const seen = new Set();
  const boxes = [];
  for (const element of document.querySelectorAll(
      "a[href], button, input:not([type=hidden]), select, textarea, summary, label.tap, label.card-tap, label.check")) {
    if (element.closest("[hidden], .visually-hidden, .skip, details:not([open]) > :not(summary)")) { continue; }
    if (element.matches("a") && inSentence(element)) { continue; }
    const target = element.matches("input[type=radio], input[type=checkbox]") && element.closest("label")
      ? element.closest("label") : element;
    if (seen.has(target)) { continue; }
    seen.add(target);
    const box = target.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) { continue; }
    boxes.push({what: target.outerHTML.slice(0, 90), width: Math.round(box.width * 10) / 10,
                height: Math.round(box.height * 10) / 10});
  }
  return boxes;
}"""


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("name", ["table", "table-kop", "table-ramsch", "night", "night-new", "nights", "deal",
                                  "adjudicate"])
def test_every_tap_target_is_at_least_44_px(page: Page, live_server: Any, evening: Evening, name: str,
                                            viewport: str) -> None:
    page.set_viewport_size(VIEWPORTS[viewport])
    PAGES[name](page, live_server.url, evening)
    open_everything(page)
    boxes = page.evaluate(TARGETS_JS)
    assert len(boxes) > 5
    small = [box for box in boxes if box["width"] < TAP - 0.5 or box["height"] < TAP - 0.5]
    assert small == [], "\n".join(f"{box['width']}×{box['height']}: {box['what']}" for box in small)


# --- non-text contrast --------------------------------------------------------------------------------------------

# WCAG 1.4.11 (axe does not check it): where an input or a tap button is must show at 3:1 against what is
# around it — its border against the background it sits on.
EDGES_JS = """() => {
  const rgb = (text) => text.match(/[\\d.]+/g).map(Number);
  const luminance = ([r, g, b]) => [r, g, b].map((c) => c / 255)
    .map((c) => c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const around = (element) => {
    for (let node = element.parentElement; node; node = node.parentElement) {
      const colour = rgb(getComputedStyle(node).backgroundColor);
      if (colour.length < 4 || colour[3] > 0) { return colour.slice(0, 3); }
    }
    return [255, 255, 255];
  };
  return [...document.querySelectorAll("input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select, "
      + "textarea, label.tap:not(:has(input:checked)), label.card-tap:not(:has(input:checked))")]
    .filter((element) => element.getBoundingClientRect().width > 0)
    .map((element) => {
      const style = getComputedStyle(element);
      const [a, b] = [luminance(rgb(style.borderTopColor).slice(0, 3)), luminance(around(element))];
      return {what: element.outerHTML.slice(0, 80), width: parseFloat(style.borderTopWidth),
              ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)};
    });
}"""


@pytest.mark.parametrize("name", ["table", "table-kop", "table-ramsch", "night-new", "adjudicate", "settlement"])
def test_the_edges_of_inputs_and_tap_buttons_show_at_3_to_1(page: Page, live_server: Any, evening: Evening,
                                                           name: str) -> None:
    PAGES[name](page, live_server.url, evening)
    open_everything(page)
    edges = page.evaluate(EDGES_JS)
    assert len(edges) > 3
    faint = [f"{edge['ratio']:.2f}:1 {edge['what']}" for edge in edges if edge["width"] < 1 or edge["ratio"] < 3]
    assert faint == [], "\n".join(faint)


# --- 200 % text ------------------------------------------------------------------------------------------------

LAYOUT_JS = """() => {
  const page = document.scrollingElement;
  const width = page.clientWidth;
  const outside = [...document.querySelectorAll("#deal-form input:not([type=hidden]), #deal-form select, "
      + "#deal-form button, #deal-form label.tap")]
    .filter((element) => !element.matches(".tap input, .card-tap input, html.js .nojs"))
    .filter((element) => !element.closest("details:not([open]) > :not(summary)"))
    .map((element) => [element, element.getBoundingClientRect()])
    .filter(([, box]) => box.width < 1 || box.height < 1 || box.left < -0.5 || box.right > width + 0.5)
    .map(([element, box]) => `${element.id || element.name || element.textContent.trim()} (${Math.round(box.left)}`
         + `…${Math.round(box.right)} of ${width})`);
  // What sticks out on the right (inside a box that scrolls by itself, like the ledger's, is fine).
  const wide = [...document.querySelectorAll("body *")]
    .filter((element) => element.getBoundingClientRect().right > width + 0.5)
    .filter((element) => !element.parentElement.closest(".ledger-box, .chart-scroll, pre"))
    .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join(".")}#${element.id}`
         + ` (${Math.round(element.getBoundingClientRect().right)})`);
  return {scrollWidth: page.scrollWidth, clientWidth: width, outside, wide};
}"""


@pytest.mark.parametrize(("zoom", "lang"), [("font-size-200", "en"), ("viewport-195", "en"), ("font-size-200", "de"),
                                            ("viewport-195", "de"), ("viewport-195", "ja")])
def test_the_entry_form_survives_200_percent_text(page: Page, live_server: Any, evening: Evening, zoom: str,
                                                  lang: str) -> None:
    if zoom == "viewport-195":  # 390 px at 200 % zoom is a 195 px wide page
        page.set_viewport_size({"width": 195, "height": 422})
    read_in(page, live_server, lang)
    table_with_preview(page, live_server.url, evening)
    if zoom == "font-size-200":
        page.evaluate("document.documentElement.style.fontSize = '200%'")
    open_everything(page)
    layout = page.evaluate(LAYOUT_JS)
    assert layout["scrollWidth"] <= layout["clientWidth"], f"the page scrolls sideways: {layout['wide'][:12]}"
    assert layout["outside"] == [], "inputs cut off or hidden"
    # Still usable: the deal saves.
    page.locator("#id_by").fill("Anna")
    page.locator("#deal-form button[type=submit]:not([name])").click()
    expect(page.locator("#table-region .saved")).to_be_visible()
    expect(page.locator("table.latest-deals tbody tr.deal-row.just-saved th.number")).to_have_text("7")


# --- the ledger for a screen reader -------------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["skat", "schafkopf", "kop", "fipsen"])
def test_the_ledger_is_a_table_with_caption_and_headers(page: Page, live_server: Any, evening: Evening,
                                                         game: str) -> None:
    night = evening.demo[game]
    page.goto(f"{live_server.url}/nights/{night.pk}/tables/1/list/")
    table = page.locator("table.ledger")
    expect(table).to_have_count(1)
    caption = table.locator("caption").inner_text().strip()
    assert caption, "the ledger has no caption"
    # The accessibility tree: a table named by its caption, column headers for deal, players and columns.
    grid = page.get_by_role("table", name=caption)
    expect(grid).to_have_count(1)
    names = list(night.tables.get().places.order_by("position").values_list("player__name", flat=True))
    headers = grid.get_by_role("columnheader")
    expect(headers.first).to_have_text("Deal")
    assert all(re.fullmatch(r"col", scope or "") for scope in table.locator("thead th").evaluate_all(
        "cells => cells.map((cell) => cell.getAttribute('scope'))"))
    expect(table.locator("thead th.player")).to_have_text(names)
    # Every body row is named by its row header (the deal number, a placing, a footer's label).
    rows = table.locator("tbody tr, tfoot tr")
    without = rows.evaluate_all("rows => rows.filter((row) => !row.querySelector('th[scope=row]')).length")
    assert without == 0
    deals = night.tables.get().deals.filter(deleted=False).count()
    expect(table.locator("tbody tr.deal-row")).to_have_count(deals)
    expect(grid.get_by_role("rowheader").first).to_contain_text("1")
    # A cell's numbers say what they are to a screen reader (this deal, the total), and an empty cell of a
    # player sitting out says so.
    first = table.locator("tbody tr.deal-row td.player:not(.out)").first
    assert re.search(r"this deal|total", first.text_content() or "")
    if game in ("skat", "kop"):
        expect(table.locator("td.out").first).to_have_text("sat out")


@pytest.mark.parametrize("lang", ["en", "de", "ja"])
def test_the_glossary_fits_a_phone_in_every_language(page: Page, live_server: Any, lang: str) -> None:
    read_in(page, live_server, lang)
    page.goto(f"{live_server.url}/glossary/")
    width, client = page.evaluate("[document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]")
    assert width <= client
    assert page.locator("table.glossary-table").count() == 4
