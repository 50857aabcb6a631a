"""Every control of every contract in reach (issue 28, item 4): what a scorer taps without scrolling.

    .venv/bin/python bench/reach.py [--lang en|de|ja …] [--game skat|schafkopf|kop|fipsen …]

Run by hand at full size (tests/test_benches.py runs it once with --tiny: Fipsen in English). bench/taps.py
measures scripted deals in English; this goes through
every contract the table page offers, in each language, as the page stands after a save (scrolled to the
top, the latest deals above the form): it taps the contract (opening "Other" when it is folded there), then
the section "More" where the contract has one, and then looks at every control the contract asks for — the
taps, number fields, selects, folds and buttons of the form, and Save. A control counts as in reach when its
centre is inside the window and the control itself is there, not the sticky standings or Save bar over it
(bench/taps.py's test). Each fold of rarer choices ("Other" under a bid) is opened in turn and its choices
looked at too. Prints one line per contract with the controls out of reach (and their centre's y), and a
summary; exits 1 when any control is out of reach, or when it looked at no contract (bench/_check.py).

The nights: Skat (classic: Kontra, announcements) at three, Schafkopf (BSV: Klopfer, Bettel, Ramsch) at four
in euros, Kop and Fipsen (classic) at four; each with --warm-up typical deals saved through the service first.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from bench import _check  # noqa: E402
from bench.taps import CHROMIUM, IDLE, TAPPABLE, TIMEOUT_MS  # noqa: E402
from tests.live_site import Site, temp_database  # noqa: E402

LOCALES = {"en": "en-US", "de": "de-DE", "ja": "ja-JP"}
NIGHTS = {
    "skat": ("classic", ["Anna", "Bernd", "Clara"],
             {"contract": "hearts", "declarer": 1, "bid": 18, "matadors": 1, "card_points": 75}),
    "schafkopf": ("bsv", ["Anna", "Bernd", "Clara", "Dieter"],
                  {"contract": "sauspiel", "declarer": 1, "partner": 3, "card_points": 75}),
    "kop": ("classic", ["Anna", "Bernd", "Clara", "Dieter"], {"contract": "normal", "old": [0, 2], "card_points": 60}),
    "fipsen": ("classic", ["Anna", "Bernd", "Clara", "Dieter"],
               {"contract": "tricks", "declarer": 1, "bid": 3, "tricks_taken": 3}),
}

SETUP = """
from scorekeep.nights import writes as nights
OUT = {}
for game, preset, players, facts, warm in ARGS["nights"]:
    night = nights.start_night(game=game, preset=preset, players=players)
    for _ in range(warm):
        nights.enter_deal(night.tables.get(), dict(facts))
    OUT[game] = {"night": night.pk, "scorer": night.scorer_token}
"""

# The contracts as the page offers them: one value per contract (a grid's first row that plays it).
CONTRACTS = """() => {
  const seen = new Map();
  for (const input of document.querySelectorAll('#entry input[name=contract]')) {
    const game = input.value.split('@')[0];
    if (!seen.has(game)) seen.set(game, input.id);
  }
  return [...seen.values()];
}"""

# The controls a scorer may tap for this contract: every visible tap, field, select, fold and button of the
# form, but not the fold "Who dealt, who enters" (once a night) nor the cards behind "Count by tapping".
CONTROLS = """() => {
  const form = document.querySelector('#entry');
  const out = [];
  const wanted = 'label.tap, input:not([type=hidden]):not([type=radio]):not([type=checkbox]), select, summary, '
    + 'button, .card-tap';
  for (const el of form.querySelectorAll(wanted)) {
    if (el.closest('details.dealer') || el.closest('.nojs') || el.closest('details.captured[open] .cards')) continue;
    if (el.closest('details:not([open])') && el.tagName !== 'SUMMARY') continue;
    if (el.tagName === 'SUMMARY' && el.parentElement.closest('details:not([open])')) continue;
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    out.push(el);
  }
  return out;
}"""

OUT_OF_REACH = """([tappable, fold]) => {
  const check = eval(tappable);
  const inside = fold ? document.querySelector(fold).parentElement : null;
  const asked = el => !inside || (inside.contains(el) && el.tagName !== 'SUMMARY');
  return (CONTROLS_FN)().filter(el => asked(el) && !check(el)).map(el => {
    const box = el.getBoundingClientRect();
    const words = (el.innerText || el.getAttribute('aria-label') || el.name || el.id || el.tagName)
      .trim().replace(/\\s+/g, ' ');
    return `${words.slice(0, 40)} (y ${Math.round(box.top + box.height / 2)})`;
  });
}""".replace("CONTROLS_FN", CONTROLS)

# The drafts static/js/offline.js keeps in IndexedDB ("draft <table's form address>"), forgotten.
FORGET_DRAFTS = """async () => {
  const kv = window.idbKeyval;
  if (!kv) throw new Error("idb-keyval is not on the page: the drafts cannot be forgotten");
  for (const key of await kv.keys()) { if (String(key).startsWith("draft ")) await kv.del(key); }
}"""

# Where the page stands when nothing was scrolled: a tap that Playwright scrolled to is undone, so each
# control is judged from the page a scorer sees without scrolling.
TOP = "() => window.scrollTo(0, 0)"
FOLDS = """() => [...document.querySelectorAll('#entry details.more-choices:not([open]) > summary')]
  .filter(s => s.getClientRects().length && !s.closest('#q-contract') && !s.closest('details:not([open]) details'))
  .map(s => s.id)"""


def out_of_reach(page: Any, fold: str = "") -> list[str]:
    """The controls out of reach; with `fold` (an open fold's summary), only the choices inside that fold."""
    return list(page.evaluate(OUT_OF_REACH, [TAPPABLE, fold]))


def choose(page: Any, input_id: str) -> list[str]:
    """Tap the contract `input_id` as a scorer does (opening "Other" first when it is folded): what was out of
    reach on the way."""
    missed = []
    radio = page.locator(f"#{input_id}")
    fold = page.locator(f"details.more-choices:has(#{input_id}) > summary")
    if fold.count():
        if not fold.evaluate(TAPPABLE):
            missed.append("Other (the game's fold)")
        fold.evaluate("summary => { summary.parentElement.open = true; }")  # as a tap would, wherever it is
    label = page.locator(f"label[for={input_id}]")
    if not label.evaluate(TAPPABLE):
        where = label.evaluate("l => { const b = l.getBoundingClientRect(); const h = document.elementFromPoint("
                               "b.left + b.width / 2, b.top + b.height / 2); return `y ${Math.round(b.top)}, under "
                               "${h ? h.tagName + '.' + h.className + ' ' + h.textContent.slice(0, 20) : 'nothing'}, "
                               "scrolled ${scrollY}, latest "
                               "${getComputedStyle(document.querySelector('#latest')).display}`; }")
        missed.append(f"the game {input_id} ({where})")
    swaps = not radio.is_checked()  # the contract ticked already (Schafkopf's Sauspiel) swaps nothing
    if swaps:
        page.locator("#entry").evaluate("element => { element.dataset.stale = 'yes'; }")
    label.evaluate("label => label.click()")  # as a tap would, wherever it is (a miss is counted above)
    page.evaluate(TOP)
    if swaps:
        page.locator("#entry:not([data-stale])").wait_for()
    page.wait_for_function(IDLE)
    return missed


def run(games: list[str], langs: list[str], warm: int, shots: Path | None = None) -> int:
    directory = Path(tempfile.mkdtemp(prefix="reach-"))
    site = Site(temp_database(directory), directory, workers=1, threads=4)
    site.migrate()
    made = site.django(SETUP, nights=[[g, NIGHTS[g][0], NIGHTS[g][1], NIGHTS[g][2], warm] for g in games])
    failed = checked = 0
    site.start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                 args=["--no-sandbox", "--disable-gpu"])
            for lang in langs:
                for game in games:
                    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                                  has_touch=True, is_mobile=True, locale=LOCALES[lang])
                    page = context.new_page()
                    page.set_default_timeout(TIMEOUT_MS)
                    page.goto(f"{site.url}/join/{made[game]['scorer']}/")
                    url = f"{site.url}/nights/{made[game]['night']}/tables/1/"
                    page.goto(url)
                    for input_id in page.evaluate(CONTRACTS):
                        # A new page each time: a reload would get back the radios the last one had ticked. The
                        # last contract's taps are kept on the phone as a draft too (static/js/offline.js), which
                        # a new page restores by swapping its entry in outside htmx (IDLE does not see it): the
                        # measures raced with that swap (a tap's label measured while another took its place).
                        # The page writes its draft again as it closes (pagehide), so the drafts are forgotten
                        # after it closed, from a page of the site without an entry form (a CI run under load:
                        # forgotten before the close, the draft came back and the fourth contract was measured
                        # mid-swap).
                        page.close()
                        page = context.new_page()
                        page.set_default_timeout(TIMEOUT_MS)
                        page.goto(f"{site.url}/adjudicate/")
                        page.evaluate(FORGET_DRAFTS)
                        page.goto(url)
                        page.locator("html.js").wait_for(state="attached")
                        page.wait_for_function(IDLE)
                        page.evaluate(TOP)
                        missed = choose(page, input_id)
                        more = page.locator("#entry details.more:not(.dealer):not([open]) > summary")
                        if more.count():
                            if not more.evaluate(TAPPABLE):
                                missed.append("More (summary)")
                            # as a tap does (static/js/app.js marks a fold opened by a finger)
                            more.evaluate("summary => { summary.parentElement.dataset.inPlace = 'yes'; "
                                          "summary.parentElement.open = true; }")
                            page.evaluate(TOP)
                        missed += out_of_reach(page)
                        if shots:
                            page.screenshot(path=str(shots / f"reach-{lang}-{game}-{input_id}.png"))
                        for fold_id in page.evaluate(FOLDS):
                            summary = page.locator(f"#{fold_id}")
                            summary.evaluate("summary => { summary.parentElement.open = true; }")
                            missed += [f"[{fold_id} open] {m}" for m in out_of_reach(page, f"#{fold_id}")]
                            summary.evaluate("summary => { summary.parentElement.open = false; }")
                        checked += 1
                        if missed:
                            failed += 1
                        print(f"{lang} {game} {input_id}: {'; '.join(missed) or 'all in reach'}", flush=True)
                    context.close()
            browser.close()
    finally:
        site.stop()
        shutil.rmtree(directory, ignore_errors=True)
    print(f"\n{failed} of {checked} contracts have a control out of reach")
    _check.measured(contracts_looked_at=checked)
    if failed:
        _check.fail(f"{failed} of {checked} contracts have a control out of reach")
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=list(NIGHTS), action="append")
    parser.add_argument("--lang", choices=list(LOCALES), action="append")
    parser.add_argument("--warm-up", type=int, default=3)
    parser.add_argument("--screenshots", type=Path, help="a screenshot of each contract (More open) into DIR")
    args = _check.parse(parser, tiny={"game": ["fipsen"], "lang": ["en"], "warm_up": 1})
    sys.exit(run(args.game or list(NIGHTS), args.lang or list(LOCALES), args.warm_up, args.screenshots))


if __name__ == "__main__":
    main()
