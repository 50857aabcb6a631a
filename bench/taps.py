"""Taps per deal (issue 14): what entering one deal on the table page costs a scorer on a phone.

    .venv/bin/python bench/taps.py [--json] [--game skat|schafkopf|kop|fipsen …] [--screenshots DIR] [--warm-up 3]
                                   [--deals N] [--tiny]

Run by hand, never by the test suite; results go to docs/PERFORMANCE.md ("Taps per deal"). The script serves
the app (gunicorn on a throw-away SQLite file, `tests/live_site.py`), starts one night per game through the
service `scorekeep.nights.writes`, joins it with the scorer link, and drives the real table page in Debian's Chromium
(Playwright, sync API) as a phone: 390 × 844, touch, mobile. For each deal of a fixed script (`GAMES`) it
goes from the empty form to the saved row seen, as a scorer does it — tapping the visible labels and buttons
by their text, tapping a number field and typing its digits — and counts:

- taps: every tap on a choice, a checkbox, a fold ("More: …", "Other"), a number field (to type in it), a
  select (two: open it, pick the option) and Save;
- keystrokes: every character typed (card-point digits count);
- scrolled px: the window's scroll changes, summed as absolute values, that the scorer makes — to bring a
  target into view before tapping it (only when it is not tappable where it is: its centre outside the
  window or under the sticky standings or Save bar) and to see the saved row after the save. The page's own
  jump back to the top after a save (static/js/app.js) is reported beside it, not in it;
- whether Save, each target and the saved row were in view without scrolling.

Each deal's preview must say the expected outcome before Save is tapped, and the page must then say the deal
was saved and show its row; otherwise the script stops (a changed page needs its steps changed). The steps
are small data — `tap(…)`, `type_(…)`, `choose(…)` — so a reworked input means editing a line.

The page is measured as in a night in progress: `--warm-up` typical deals (default 3, as many as the page
shows) are saved first, unmeasured, so the latest deals and the last save's line stand above the form; and
before each deal the page's clock moves on a minute (the deal is played: Undo hides itself after 10 s).
Not simulated: the phone's on-screen keyboard (a real one covers the lower half of the screen while a number
is typed, and the scorer may have to close it to reach Save).

``--tiny`` enters Skat's typical deal only (its grid of players and games), without a warm-up: a check in CI that
the script still fits the page (tests/test_benches.py), not figures for docs/PERFORMANCE.md.

With --json, one JSON object per line and deal: game, deal, typical, ramsch, taps, keystrokes, scrolled_px.
A screenshot of the window after each game's last save goes to DIR/taps-<game>.png (default /tmp).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from bench import _check  # noqa: E402
from tests.live_site import Site, temp_database  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "has_touch": True, "is_mobile": True,
         "locale": "en-US"}
TIMEOUT_MS = 20_000
RECENT = 3  # the latest deals the table page shows (scorekeep.nights.table_views.RECENT)
PACE_MS = 500  # between two steps: longer than the preview's delay (table.html: "input delay:400ms")
BETWEEN_DEALS = "01:00"  # a deal played between two saves (mm:ss), on the page's clock
FOUR = ("Anna", "Bernd", "Clara", "Dieter")

# --- the script: steps as a scorer does them ---------------------------------------------------------------

# A step is a small tuple: ("tap", group, label), ("type", group, label, text), ("choose", group, label, option).
# `group` is the legend a question starts with ("Declarer", "Bid"), or "" for a tap anywhere in the form (a
# checkbox such as "Kontra", a fold such as "More:"). A label matches the visible text exactly, or with a
# parenthesised tail ("Hand" is "Hand (played without picking up the skat)"), or as a prefix when it ends
# with ":" ("More:"). Steps go down the form as a scorer reads it. Save is tapped after the last step of
# every deal; it is not written in the steps.
Step = tuple[str, ...]


def tap(group: str, label: str = "") -> Step:
    """Tap a choice of a question (`tap("Declarer", "Bernd")`), or a checkbox or fold anywhere (`tap("Kontra")`)."""
    return ("tap", group, label) if label else ("tap", "", group)


def type_(group: str, text: str, label: str = "") -> Step:
    """Tap a number field and type `text`: the field labelled `group`, or the input `label` of the per-seat
    question `group` (`type_("Card points per seat", "30", "Anna")`)."""
    return ("type", group, label, text)


def cell(player: str, game: str) -> Step:
    """Tap who declared what, in one tap: `game` in `player`'s row of the grid of players and games (a table
    where at most three play)."""
    return ("cell", player, game)


def choose(group: str, label: str, option: str) -> Step:
    """Pick `option` in the select `label` of question `group`: two taps (open the list, pick)."""
    return ("choose", group, label, option)


@dataclass(frozen=True, slots=True)
class Deal:
    name: str
    steps: tuple[Step, ...]
    outcome: str  # what the preview says before Save: "Won", "Lost", "No declaring side"
    typical: bool = False
    ramsch: bool = False


@dataclass(frozen=True, slots=True)
class Game:
    key: str
    preset: str  # a rule set with every input the deals need (Kontra, Laufende, Ramsch …)
    players: tuple[str, ...]
    deals: tuple[Deal, ...]


SKAT = Game("skat", "classic", FOUR[:3], (
    # The bid left at 18: the page says it counts only when the game was overbid (a club's list notes it only
    # then). The lost suit game below taps its bid, as a scorer who keeps every bid does.
    Deal("suit game won", (cell("Bernd", "Hearts"), tap("Matadors", "with 1"), type_("Declarer's card points", "75")),
         "Won", typical=True),
    Deal("suit game lost (its bid tapped)", (cell("Clara", "Spades"), tap("Bid", "22"), tap("Matadors", "with 1"),
                            type_("Declarer's card points", "52")), "Lost"),
    Deal("grand hand", (cell("Anna", "Grand"), tap("Bid", "Other"), tap("Bid", "30"), tap("Matadors", "with 1"),
                        tap("Hand"), type_("Declarer's card points", "71")), "Won"),
    Deal("null ouvert", (cell("Bernd", "Null"), tap("Bid", "46"), tap("Declarer's tricks", "0"), tap("Ouvert")),
         "Won"),
    Deal("overbid", (cell("Clara", "Diamonds"), tap("Bid", "27"), tap("Matadors", "without 1"),
                     type_("Declarer's card points", "70")), "Lost"),
    Deal("Kontra and Re", (cell("Anna", "Grand"), tap("Bid", "24"), tap("Matadors", "with 1"),
                           type_("Declarer's card points", "58"), tap("Kontra"), tap("Re")), "Lost"),
    # A rare one (issue 28): its announcement is under "More", opened last (it takes the place of the questions
    # above it on the screen).
    Deal("grand hand, Schneider announced", (cell("Anna", "Grand"), tap("Bid", "Other"), tap("Bid", "30"),
                                             tap("Matadors", "with 1"), type_("Declarer's card points", "95"),
                                             tap("Hand"), tap("More:"), tap("Announced", "Schneider")), "Won"),
    # The last player's points are the rest of the pack (38); nobody took no trick or every trick.
    Deal("Ramsch", (tap("Game", "Ramsch"),
                    type_("Card points per seat", "30", "Anna"), type_("Card points per seat", "52", "Bernd")),
         "No declaring side", ramsch=True),
))

SCHAFKOPF = Game("schafkopf", "bsv", FOUR, (
    Deal("Sauspiel", (tap("Declarer", "Bernd"), tap("Partner", "Dieter"),
                      type_("Declaring side's card points", "75")), "Won", typical=True),
    Deal("Wenz", (tap("Game", "Wenz"), tap("Declarer", "Clara"), type_("Declaring side's card points", "80")), "Won"),
    Deal("Solo with Laufende and Stoß", (tap("Game", "Solo"), tap("Declarer", "Dieter"),
                                         tap("Trump suit", "Hearts · Herz"),
                                         type_("Declaring side's card points", "95"), type_("Laufende", "3"),
                                         tap("Doublings", "1")), "Won"),
    Deal("Tout", (tap("Game", "Other"), tap("Game", "Solo Tout"), tap("Declarer", "Anna"),
                  tap("Trump suit", "Clubs · Eichel"), tap("Declaring side's tricks", "8")), "Won"),
    # Rare ones (issue 28): a Solo Schwarz (every trick, under "More") and a Tout with a Klopfer.
    Deal("Solo Schwarz", (tap("Game", "Solo"), tap("Declarer", "Clara"), tap("Trump suit", "Spades · Gras"),
                          type_("Declaring side's card points", "120"), tap("More:"),
                          tap("Declaring side's tricks", "8")), "Won"),
    Deal("Tout with a Klopfer", (tap("Game", "Other"), tap("Game", "Solo Tout"), tap("Declarer", "Bernd"),
                                 tap("Trump suit", "Hearts · Herz"), tap("Declaring side's tricks", "8"),
                                 tap("Players who knocked", "1")), "Won"),
    Deal("Ramsch", (tap("Game", "Ramsch"),
                    type_("Card points per seat", "30", "Anna"), type_("Card points per seat", "50", "Bernd"),
                    type_("Card points per seat", "25", "Clara")),
         "No declaring side", ramsch=True),
    # A Jungfrau: Anna took no trick (her points need no typing), Dieter's are the rest.
    Deal("Ramsch with a Jungfrau", (tap("Game", "Ramsch"), tap("Took no trick", "Anna"),
                                    type_("Card points per seat", "60", "Bernd"),
                                    type_("Card points per seat", "40", "Clara")),
         "No declaring side", ramsch=True),
))

KOP = Game("kop", "classic", FOUR, (
    Deal("normal", (tap("Old side", "Anna"), tap("Old side", "Clara"), type_("Old side's card points", "60")),
         "Won", typical=True),
    # The doublings as a chain: a tap on each player who doubled, in the order said.
    Deal("doubled", (tap("Old side", "Bernd"), tap("Old side", "Dieter"), type_("Old side's card points", "45"),
                     tap("Doublings", "Anna"), tap("Doublings", "Bernd")), "Lost"),
    Deal("Wesele", (tap("Game", "Wesele"), tap("Old side", "Clara"), tap("Old side", "Anna"),
                    type_("Old side's card points", "70")), "Won"),
    Deal("Zolo", (tap("Game", "Zolo"), tap("Old side", "Dieter"), type_("Old side's card points", "58")), "Won"),
))

FIPSEN = Game("fipsen", "classic", FOUR, (
    Deal("bid", (tap("Declarer", "Bernd"), tap("Bid", "3"), tap("Declarer's tricks", "3")), "Won", typical=True),
    Deal("Kieker", (tap("Game", "Kieker"), tap("Declarer", "Clara"), tap("Declarer's tricks", "5")), "Won"),
    Deal("Siebener Fips", (tap("Game", "Siebener Fips"), tap("Declarer", "Dieter")), "Won"),
))

GAMES = {game.key: game for game in (SKAT, SCHAFKOPF, KOP, FIPSEN)}

# The targets.
TYPICAL_TAPS = 4  # plus the card-point digits, Save included
RAMSCH_INPUTS = 6  # taps (a number field counts once, by the tap that opens it)


# --- measuring on the page ----------------------------------------------------------------------------------

# Every change of the window's scroll position, summed as absolute values (installed before the page's scripts).
SCROLL_METER = """(() => {
  let last = window.scrollY;
  window.tapsScrolled = 0;
  window.tapsFlush = () => { window.tapsScrolled += Math.abs(window.scrollY - last); last = window.scrollY;
                             return window.tapsScrolled; };
  window.addEventListener("scroll", window.tapsFlush, {passive: true});
})();"""

# Tappable where it is: the element's centre inside the window and the element itself there, not the sticky
# standings strip or Save bar over it.
TAPPABLE = """(element) => {
  const box = element.getBoundingClientRect();
  if (!box.width || !box.height) return false;
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) return false;
  const hit = document.elementFromPoint(x, y);
  return hit !== null && (hit === element || element.contains(hit));
}"""

FORM_TOP = "() => Math.round(document.querySelector('#q-contract').getBoundingClientRect().top)"
SAVE_BAR_HEIGHT = "() => Math.round(document.querySelector('.savebar').getBoundingClientRect().height)"
IDLE = "() => !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')"
# The preview (replaced on every answer) says `outcome`, and no answer is on its way.
PREVIEW_SAYS = """(outcome) => {
  const said = document.querySelector('#preview .outcome strong');
  return said !== null && said.innerText.trim() === outcome && !document.querySelector('.htmx-request');
}"""


@dataclass
class Measured:
    game: str
    deal: str
    typical: bool
    ramsch: bool
    taps: int = 0
    field_taps: int = 0  # of the taps, those into a number field (to type in it)
    keystrokes: int = 0
    scrolled_px: int = 0
    page_scrolled_px: int = 0  # the page's own jump to the top after the save
    form_top: int = 0  # where the form's first question (the game) starts on the empty form, in window px
    save_bar_px: int = 0  # the tallest the Save bar was (the preview in it grows with what it says)
    save_in_view: bool = True
    saved_row_in_view: bool = True
    scrolled_to: list[str] = field(default_factory=list)  # the targets not in view, with their centre's y before

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "deal": self.deal, "typical": self.typical, "ramsch": self.ramsch,
                "taps": self.taps, "keystrokes": self.keystrokes, "scrolled_px": self.scrolled_px}


def text_pattern(label: str) -> re.Pattern[str]:
    if label.endswith(":"):
        return re.compile(rf"^\s*{re.escape(label)}")
    return re.compile(rf"^\s*{re.escape(label)}(\s*\(.*\))?\s*$")


def leading(label: str) -> re.Pattern[str]:
    """A label that wraps its input: its own words first, then whatever the input shows (a select's options)."""
    return re.compile(rf"^\s*{re.escape(label)}(\s|$)")


class Scorer:
    """One phone entering deals on one table page, counting what it does."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.entry = page.locator("#entry")
        self.measured: Measured | None = None

    # --- finding what a step names, as a person reads the form

    def group(self, name: str) -> Any:
        """The question whose own label starts with `name` as a word ("Bid" is "Bid (the final bid)", but
        "Declarer" is not "Declarer's card points")."""
        words = re.compile(rf"^\s*{re.escape(name)}(?![\w'’])")
        return self.entry.locator("fieldset.q, div.q").filter(
            has=self.page.locator(":scope > legend, :scope > label", has_text=words)).first

    def tap_target(self, group: str, label: str) -> Any:
        scope = self.group(group) if group else self.entry
        found = scope.locator("label.tap, summary, button").filter(has_text=text_pattern(label))
        visible = [found.nth(i) for i in range(found.count()) if found.nth(i).is_visible()]
        if len(visible) != 1:
            raise LookupError(f"{len(visible)} visible taps {label!r} in {group or 'the form'!r}")
        return visible[0]

    def field(self, group: str, label: str) -> Any:
        if label:
            return self.group(group).get_by_label(leading(label))
        return self.entry.get_by_label(text_pattern(group))

    # --- counting

    def scrolled(self) -> int:
        return int(self.page.evaluate("() => window.tapsFlush()"))

    def in_view(self, target: Any, name: str) -> bool:
        """Bring `target` where a finger can tap it, scrolling only when it is not tappable where it is.
        Returns whether it was in view already."""
        if target.evaluate(TAPPABLE):
            return True
        assert self.measured is not None
        centre = target.evaluate("element => { const box = element.getBoundingClientRect(); "
                                 "return Math.round(box.top + box.height / 2); }")
        self.measured.scrolled_to.append(f"{name} at y {centre}")
        target.scroll_into_view_if_needed()
        if not target.evaluate(TAPPABLE):  # in the window but under a sticky bar
            target.evaluate("element => element.scrollIntoView({block: 'center'})")
        return False

    def tap(self, target: Any, name: str) -> None:
        assert self.measured is not None
        self.in_view(target, name)
        swaps = bool(target.evaluate("element => Boolean(element.querySelector('input[hx-get]'))"))
        if target.evaluate("element => Boolean(element.querySelector('input:checked'))"):
            print(f"warning: {name!r} is chosen already; the script taps it anyway", file=sys.stderr)
        if swaps:  # choosing the game re-renders the form: wait for the new one
            self.entry.evaluate("element => { element.dataset.stale = 'yes'; }")
        target.tap()
        self.measured.taps += 1
        if swaps:
            self.page.locator("#entry:not([data-stale])").wait_for()
            self.page.wait_for_function(IDLE)

    def step(self, step: Step) -> None:
        assert self.measured is not None
        kind, group, label, *rest = step
        if kind == "tap":
            self.tap(self.tap_target(group, label), f"{group} {label}".strip())
        elif kind == "type":
            target = self.field(group, label)
            self.tap(target, f"{group} {label}".strip())
            self.measured.field_taps += 1
            target.press_sequentially(rest[0])
            self.measured.keystrokes += len(rest[0])
        elif kind == "cell":  # the screen reader's words of the tap: "Bernd: Hearts (Herz)"
            row = self.entry.locator("#q-contract .grid-row").filter(has=self.page.locator(
                ".grid-name", has_text=re.compile(rf"^{re.escape(group)}$")))
            target = row.locator("label.tap").filter(has_text=re.compile(rf"{re.escape(group)}: {re.escape(label)}"))
            self.tap(target, f"{group}: {label}")
        elif kind == "choose":
            target = self.group(group).get_by_label(leading(label))
            self.in_view(target, f"{group} {label}")
            target.select_option(label=rest[0])
            self.measured.taps += 2
        else:
            raise ValueError(f"unknown step {step!r}")

    def enter(self, game: Game, deal: Deal, number: int) -> Measured:
        """Enter `deal` as deal `number` of the table, from the empty form to the saved row seen."""
        self.measured = measured = Measured(game.key, deal.name, deal.typical, deal.ramsch)
        # The table plays the deal before the scorer enters it: the page's timers run (Undo hides after 10 s).
        self.page.clock.fast_forward(BETWEEN_DEALS)
        self.page.wait_for_function(IDLE)
        measured.form_top = int(self.page.evaluate(FORM_TOP))
        start = self.scrolled()
        for step in deal.steps:
            self.step(step)
            # A person's next tap comes after the page has answered this one (the preview follows typing and
            # tapping after 400 ms): measured so, every step finds the page as a person would, not mid-swap.
            self.page.wait_for_timeout(PACE_MS)
            self.page.wait_for_function(IDLE)
            measured.save_bar_px = max(measured.save_bar_px, int(self.page.evaluate(SAVE_BAR_HEIGHT)))
        # The scorer reads the preview before tapping Save: the deal must be the one meant.
        try:
            self.page.wait_for_function(PREVIEW_SAYS, arg=deal.outcome)
        except PlaywrightError as err:
            said = self.page.locator("#preview").inner_text()
            raise AssertionError(f"{game.key} {deal.name}: the preview says {said!r}, not {deal.outcome!r}") from err
        save = self.entry.get_by_role("button", name="Save deal")
        measured.save_in_view = self.in_view(save, "Save")
        before_save = self.scrolled()
        measured.scrolled_px = before_save - start
        save.tap()
        measured.taps += 1
        self.page.locator("#table-region .saved", has_text=f"Deal {number} saved").wait_for()
        self.page.wait_for_function(IDLE)
        self.page.evaluate("() => new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)))")
        after_save = self.scrolled()
        measured.page_scrolled_px = after_save - before_save
        row = self.page.locator(f"table.latest-deals tr#latest-{number}")
        measured.saved_row_in_view = self.in_view(row, "the saved row")
        if "just-saved" not in (row.get_attribute("class") or ""):
            # A poll sent before the save and answered after it swaps the latest deals in without the mark.
            print(f"warning: {game.key} {deal.name}: the saved row {number} is not marked", file=sys.stderr)
        measured.scrolled_px += self.scrolled() - after_save
        return measured


# --- the site and the browser ------------------------------------------------------------------------------

SETUP = """
from scorekeep.nights import writes as nights
OUT = {}
for game, preset, players in ARGS["nights"]:
    night = nights.start_night(game=game, preset=preset, players=players)
    OUT[game] = {"night": night.pk, "scorer": night.scorer_token}
"""


def run(games: list[Game], screenshots: Path, warm_up: int = RECENT, deals: int | None = None) -> list[Measured]:
    """Enter each game's deals (the first `deals` of its script, all when None) on its table page, after
    `warm_up` typical deals; what each cost."""

    directory = Path(tempfile.mkdtemp(prefix="taps-"))
    site = Site(temp_database(directory), directory, workers=1, threads=4)
    site.migrate()
    made = site.django(SETUP, nights=[[game.key, game.preset, list(game.players)] for game in games])
    results: list[Measured] = []
    site.start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                 args=["--no-sandbox", "--disable-gpu"])
            for game in games:
                context = browser.new_context(**PHONE)
                context.add_init_script(SCROLL_METER)
                context.clock.install()  # runs as time does, but can be moved on (BETWEEN_DEALS)
                page = context.new_page()
                page.set_default_timeout(TIMEOUT_MS)
                page.goto(f"{site.url}/join/{made[game.key]['scorer']}/")
                page.goto(f"{site.url}/nights/{made[game.key]['night']}/tables/1/")
                page.locator("html.js").wait_for(state="attached")
                scorer = Scorer(page)
                # A night in progress: the latest deals under the standings and the last save's line above
                # the form push the form down. Warm up with the typical deal until the page looks so, unmeasured.
                typical = next(deal for deal in game.deals if deal.typical)
                for number in range(1, warm_up + 1):
                    scorer.enter(game, typical, number)
                for number, deal in enumerate(game.deals[:deals], start=warm_up + 1):
                    results.append(scorer.enter(game, deal, number))
                page.screenshot(path=str(screenshots / f"taps-{game.key}.png"))
                context.close()
            browser.close()
    finally:
        site.stop()
        shutil.rmtree(directory, ignore_errors=True)
    return results


# --- the report -------------------------------------------------------------------------------------------

def misses(m: Measured) -> list[str]:
    """The issue's targets this deal misses, and why."""
    out = []
    if m.scrolled_px:
        out.append(f"scrolls {m.scrolled_px} px: to {', '.join(m.scrolled_to)}")
    if m.typical and m.taps > TYPICAL_TAPS:
        out.append(f"{m.taps} taps > {TYPICAL_TAPS}")
    if m.ramsch and m.taps > RAMSCH_INPUTS:
        out.append(f"{m.taps} inputs > {RAMSCH_INPUTS}")
    if not m.saved_row_in_view:
        out.append("saved row out of view")
    return out


def table(results: list[Measured]) -> str:
    head = ("game", "deal", "taps", "of them fields", "keystrokes", "scrolled px", "Save in view", "saved row in view",
            "form from y", "Save bar px", "page's own px", "misses")
    numeric = {2, 3, 4, 5, 8, 9, 10}
    rows = [head, *((m.game, m.deal, str(m.taps), str(m.field_taps), str(m.keystrokes), str(m.scrolled_px),
                      "yes" if m.save_in_view else "no", "yes" if m.saved_row_in_view else "no", str(m.form_top),
                      str(m.save_bar_px), str(m.page_scrolled_px), "; ".join(misses(m)) or "—") for m in results)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = ["  ".join(cell.rjust(w) if i in numeric else cell.ljust(w)
                       for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def targets(results: list[Measured]) -> str:
    """The issue's four targets, each met or not."""
    def verdict(failed: list[Measured], of: list[Measured]) -> str:
        if not of:
            return "no such deal measured"
        return (f"met ({len(of)} of {len(of)})" if not failed else
                f"MISSED by {len(failed)} of {len(of)}: {', '.join(f'{m.game} {m.deal}' for m in failed)}")

    typical = [m for m in results if m.typical]
    ramsch = [m for m in results if m.ramsch]
    return "\n".join([
        "no deal needs scrolling: " + verdict([m for m in results if m.scrolled_px], results),
        f"a typical deal ≤ {TYPICAL_TAPS} taps plus its card-point digits, Save included: "
        + verdict([m for m in typical if m.taps > TYPICAL_TAPS], typical),
        f"Ramsch ≤ {RAMSCH_INPUTS} inputs: " + verdict([m for m in ramsch if m.taps > RAMSCH_INPUTS], ramsch),
        "the saved row visible without a scroll: " + verdict([m for m in results if not m.saved_row_in_view], results),
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per line and deal")
    parser.add_argument("--game", choices=list(GAMES), action="append", help="only these games (repeatable)")
    parser.add_argument("--screenshots", type=Path, default=Path("/tmp"), help="where taps-<game>.png go")
    parser.add_argument("--warm-up", type=int, default=RECENT,
                        help=f"typical deals saved unmeasured first (default {RECENT}: the latest deals shown in full)")
    parser.add_argument("--deals", type=int, default=None,
                        help="only each game's first deals of the script (the typical one is first)")
    args = _check.parse(parser, tiny={"game": ["skat"], "warm_up": 0, "deals": 1})
    _check.need(args.deals is None or args.deals > 0, "nothing to enter: --deals must be at least 1")
    games = [GAMES[key] for key in args.game or GAMES]
    results = run(games, args.screenshots, args.warm_up, args.deals)
    if args.json:
        for measured in results:
            print(json.dumps(measured.to_json(), ensure_ascii=False))
    else:
        print(table(results))
        print()
        print(targets(results))
    _check.measured(games=len({m.game for m in results}), deals_entered=len(results),
                    taps=sum(m.taps for m in results))
    _check.need(len({m.game for m in results}) == len(games), "a game's table page was left without a deal entered")


if __name__ == "__main__":
    main()
