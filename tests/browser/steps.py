"""What the browser tests do on the pages and what they expect there, as a scorer does it: start a night,
tap and type a deal, wait for htmx to swap a region, read the ledger cell by cell and judge the same deals
with the engine independently. Shared by the browser tests (tests/browser/test_*.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Page, expect

from scorekeep.rules import Verdict, judge, schafkopf
from scorekeep.words.labels import CONTRACT_LABELS, translated

from .conftest import TIMEOUT_MS

PLAYERS = ("Anna", "Bernd", "Clara", "Dieter")
MINUS = "\N{MINUS SIGN}"
# A trump as the page offers it: the engine's words for the suit (a Schafkopf trump's input).
SUIT_LABELS = {suit: str(translated(word)) for suit, word in schafkopf.SUIT_LABELS.items()}

# A deal as the table declares it, players by name. Keys are the contract's deal fields; "points"
# and "tricks" (Ramsch) map each playing player to a number; "doublings" (Kop) lists the players who
# doubled, in order. The page asks a Ramsch's card points of all players but one and has the players
# who took no trick or every trick tapped: `fill_deal` enters it so.
Facts = Mapping[str, Any]

# A Skat series at four (classic rules: Kontra and Re may be said, a deal all pass is played as
# Ramsch). Anna deals first, so deal n is dealt by PLAYERS[(n - 1) % 4], who sits it out.
SKAT_SERIES: tuple[Facts, ...] = (
    {"contract": "grand", "declarer": "Bernd", "bid": 48, "matadors": 2, "card_points": 70},
    {"contract": "clubs", "declarer": "Clara", "bid": 24, "matadors": 1, "card_points": 75},
    {"contract": "hearts", "declarer": "Dieter", "bid": 20, "matadors": -1, "card_points": 58},
    {"contract": "spades", "declarer": "Anna", "bid": 22, "matadors": -2, "card_points": 91},
    {"contract": "null", "declarer": "Clara", "bid": 23, "declarer_tricks": 0},
    {"contract": "diamonds", "declarer": "Dieter", "bid": 18, "matadors": 1, "hand": True, "card_points": 61},
    {"contract": "ramsch", "points": {"Anna": 30, "Bernd": 50, "Dieter": 40},
     "tricks": {"Anna": 3, "Bernd": 4, "Dieter": 3}},
    {"contract": "grand", "declarer": "Bernd", "bid": 24, "matadors": 1, "kontra": True, "card_points": 45},
    {"contract": "clubs", "declarer": "Bernd", "bid": 18, "matadors": 3, "card_points": 88},
    {"contract": "null", "declarer": "Anna", "bid": 35, "hand": True, "declarer_tricks": 0},
    {"contract": "null", "declarer": "Dieter", "bid": 23, "declarer_tricks": 1},
    {"contract": "hearts", "declarer": "Clara", "bid": 30, "matadors": 2, "card_points": 66},
    {"contract": "ramsch", "points": {"Bernd": 0, "Clara": 80, "Dieter": 40},
     "tricks": {"Bernd": 0, "Clara": 6, "Dieter": 4}},
    {"contract": "grand", "declarer": "Clara", "bid": 48, "matadors": 1, "hand": True, "card_points": 80},
    {"contract": "diamonds", "declarer": "Anna", "bid": 36, "matadors": -3, "card_points": 70},
    {"contract": "spades", "declarer": "Bernd", "bid": 33, "matadors": 1, "card_points": 50},
    {"contract": "clubs", "declarer": "Dieter", "bid": 18, "matadors": 1, "card_points": 120},
    {"contract": "grand", "declarer": "Anna", "bid": 18, "matadors": -1, "kontra": True, "re": True,
     "card_points": 61},
    {"contract": "hearts", "declarer": "Bernd", "bid": 20, "matadors": 1, "card_points": 31},
    {"contract": "spades", "declarer": "Clara", "bid": 18, "matadors": -1, "card_points": 29},
    {"contract": "grand", "declarer": "Clara", "bid": 18, "matadors": 4, "card_points": 95},
    {"contract": "ramsch", "points": {"Anna": 45, "Clara": 45, "Dieter": 30},
     "tricks": {"Anna": 4, "Clara": 3, "Dieter": 3}},
    {"contract": "diamonds", "declarer": "Dieter", "bid": 27, "matadors": 2, "card_points": 64},
    {"contract": "clubs", "declarer": "Anna", "bid": 48, "matadors": 3, "card_points": 60},
    {"contract": "null", "declarer": "Bernd", "bid": 23, "declarer_tricks": 0},
    {"contract": "hearts", "declarer": "Clara", "bid": 30, "matadors": 1, "hand": True, "card_points": 70},
    {"contract": "grand", "declarer": "Anna", "bid": 72, "matadors": 2, "hand": True, "card_points": 91},
    {"contract": "spades", "declarer": "Anna", "bid": 22, "matadors": 1, "card_points": 75},
    {"contract": "clubs", "declarer": "Clara", "bid": 36, "matadors": 2, "card_points": 80},
    {"contract": "diamonds", "declarer": "Clara", "bid": 18, "matadors": 1, "card_points": 58},
    {"contract": "grand", "declarer": "Bernd", "bid": 18, "matadors": 1, "card_points": 62},
    {"contract": "hearts", "declarer": "Anna", "bid": 20, "matadors": -1, "card_points": 90},
    {"contract": "null", "declarer": "Dieter", "bid": 23, "kontra": True, "declarer_tricks": 0},
    {"contract": "clubs", "declarer": "Dieter", "bid": 18, "matadors": -4, "card_points": 71},
    {"contract": "spades", "declarer": "Bernd", "bid": 18, "matadors": 2, "hand": True, "card_points": 40},
    {"contract": "grand", "declarer": "Clara", "bid": 18, "matadors": -2, "card_points": 85},
)

# A Schafkopf round at four under the BSV tariff (Klopfen, Ramsch when all pass, the variants).
SCHAFKOPF_ROUND: tuple[Facts, ...] = (
    {"contract": "sauspiel", "declarer": "Bernd", "partner": "Dieter", "card_points": 75},
    {"contract": "wenz", "declarer": "Clara", "laufende": 2, "card_points": 80},
    {"contract": "solo", "declarer": "Dieter", "trump": "H", "laufende": 3, "card_points": 95},
    {"contract": "sauspiel", "declarer": "Anna", "partner": "Clara", "doublings": 1, "card_points": 50},
    {"contract": "ramsch", "points": {"Anna": 30, "Bernd": 50, "Clara": 25, "Dieter": 15},
     "tricks": {"Anna": 2, "Bernd": 3, "Clara": 2, "Dieter": 1}},
    {"contract": "solo", "declarer": "Anna", "trump": "C", "card_points": 55},
    {"contract": "sauspiel", "declarer": "Bernd", "partner": "Anna", "klopfer": 1, "card_points": 61},
    {"contract": "wenz_tout", "declarer": "Bernd", "declarer_tricks": 8, "card_points": 120},
    {"contract": "geier", "declarer": "Clara", "card_points": 70},
    {"contract": "bettel", "declarer": "Dieter", "declarer_tricks": 0},
    {"contract": "farbwenz", "declarer": "Anna", "trump": "S", "doublings": 2, "card_points": 85},
    {"contract": "sauspiel", "declarer": "Clara", "partner": "Bernd", "declarer_tricks": 8, "card_points": 120},
)

SEAT_KEYS = ("declarer", "partner")
PER_PLAYER_KEYS = ("points", "tricks")
SELECT_KEYS = ("bid",)
CHECK_KEYS = ("hand", "kontra", "re")
# Typed last, card points at the very end: the preview then shows the whole deal.
NUMBER_KEYS = ("laufende", "card_points")
TAP_KEYS = ("declarer_tricks", "doublings", "klopfer")  # small counts are tap buttons


# --- the engine's side: what the ledger must show ------------------------------------------------

def seats_of(game: str, dealer: int) -> list[int]:
    """Table positions in engine seats for a deal at a table of four, dealt by position `dealer`.

    Skat is played by three: forehand (the dealer's left) in seat 0 and the sitting dealer in seat 3.
    Schafkopf seats everybody in table order."""
    if game == "skat":
        return [(dealer + 1) % 4, (dealer + 2) % 4, (dealer + 3) % 4, dealer]
    return [0, 1, 2, 3]


def engine_request(game: str, preset: str, dealer: int, facts: Facts) -> dict[str, Any]:
    """The contract's request for a deal declared with player names."""
    seats = seats_of(game, dealer)

    def seat(name: str) -> int:
        return seats.index(PLAYERS.index(name))

    deal: dict[str, Any] = {}
    for key, value in facts.items():
        if key in SEAT_KEYS:
            deal[key] = seat(value)
        elif key == "old":  # Kop's old side
            deal[key] = sorted(seat(name) for name in value)
        elif key in PER_PLAYER_KEYS:  # whoever sits the deal out took nothing
            deal[key] = [value.get(PLAYERS[position], 0) for position in seats]
        elif key == "doublings" and isinstance(value, list):  # Kop's calls (Schafkopf's are a count)
            deal[key] = [seat(name) for name in value]
        else:
            deal[key] = value
    return {"game": game, "rules": {"preset": preset}, "players": 4,
            "dealer": seats.index(dealer) if game != "skat" else 3, "deal": deal}


@dataclass(frozen=True, slots=True)
class Judged:
    """One deal as the engine scores it, by table position: the ledger's row must show this."""

    dealer: int
    facts: Facts
    verdict: Verdict
    entries: list[int]
    seeger_fabian: list[int]


def judged(game: str, preset: str, dealer: int, facts: Facts) -> Judged:
    """The engine's verdict for a deal, each table position's list entry and Seeger-Fabian points."""
    verdict = judge(engine_request(game, preset, dealer, facts))
    assert isinstance(verdict, Verdict)
    seats = seats_of(game, dealer)
    entries, seeger_fabian = [0] * 4, [0] * 4
    as_json = verdict.to_json()
    for seat, position in enumerate(seats):
        entries[position] = verdict.scores[seat]
        seeger_fabian[position] = as_json.get("seeger_fabian", [0] * 4)[seat]
    return Judged(dealer, facts, verdict, entries, seeger_fabian)


def judged_all(game: str, preset: str, deals: Sequence[Facts]) -> list[Judged]:
    """Every deal of a table where Anna deals first and the deal passes clockwise."""
    return [judged(game, preset, index % 4, facts) for index, facts in enumerate(deals)]


# --- reading the page -----------------------------------------------------------------------------

NUMBER = re.compile(r"([+\-]?)([€$£]?)(\d+)(?:\.(\d\d))?")


def number(text: str) -> int:
    """A number as the page writes it: "+72", "−96" (a real minus), "€4.20" and "−€0.60" in cents."""
    match = NUMBER.search(text.replace(MINUS, "-"))
    assert match, f"no number in {text!r}"
    sign, money, whole, cents = match.groups()
    value = int(whole) * 100 + int(cents) if cents is not None else int(whole)
    assert bool(money) == (cents is not None), f"money written oddly: {text!r}"
    return -value if sign == "-" else value


LEDGER_JS = """() => {
  const text = (cell) => cell ? cell.innerText.trim() : null;
  const rows = [...document.querySelectorAll("table.ledger tbody tr.deal-row")].map((tr) => ({
    number: text(tr.querySelector("th.number a")),
    cells: [...tr.querySelectorAll("td.player")].map((td) => td.classList.contains("out") ? null
      : {entry: text(td.querySelector(".entry")), total: text(td.querySelector(".running"))}),
    sum: text(tr.querySelector("td.sum")),
    info: [...tr.querySelectorAll("td.info")].map(text),
  }));
  const footer = Object.fromEntries([...document.querySelectorAll("table.ledger tfoot tr")].map((tr) =>
    [text(tr.querySelector("th")), {players: [...tr.querySelectorAll("td.player")].map(text),
                                    sum: text(tr.querySelector("td.sum"))}]));
  return {rows, footer};
}"""


def read_ledger(page: Page) -> dict[str, Any]:
    return page.evaluate(LEDGER_JS)


def result(verdict: Verdict) -> str:
    return "" if verdict.won is None else "won" if verdict.won else "lost"


def check_ledger(page: Page, game: str, expected: Sequence[Judged], numbers: Sequence[int] = ()) -> list[int]:
    """Every cell of the ledger against the engine: each row's entries and running totals per player
    (the sitting Skat dealer's cell blank), who declared, won or lost and the value, Schafkopf's zero
    row sums, and the footer's totals (Skat: Seeger-Fabian and games won and lost too). `expected`
    holds the live deals in order, `numbers` their numbers where a deleted deal left a gap (1, 2, 3 … else).
    Returns the totals by table position."""
    # The whole list is a page of its own (the table page shows the latest deals): open it from the table page.
    if "/list/" not in page.url:
        with page.expect_navigation():
            page.locator("a.whole-list").click()
    # The ledger is read once it is on the page: after a click that navigates, not before.
    expect(page.locator("table.ledger tbody tr.deal-row")).to_have_count(len(expected))
    ledger = read_ledger(page)
    assert len(ledger["rows"]) == len(expected)
    totals = [0] * 4
    numbers = list(numbers) or list(range(1, len(expected) + 1))
    for number_, row, deal in zip(numbers, ledger["rows"], expected, strict=True):
        assert row["number"] == str(number_)
        totals = [t + e for t, e in zip(totals, deal.entries, strict=True)]
        for position, cell in enumerate(row["cells"]):
            where = f"deal {number_}, {PLAYERS[position]}"
            if game == "skat" and position == deal.dealer:
                assert cell is None, f"{where}: the dealer sits out, his cell stays blank"
                continue
            assert cell is not None, where
            assert number(cell["entry"]) == deal.entries[position], f"{where}: entry {cell['entry']!r}"
            assert number(cell["total"]) == totals[position], f"{where}: running total {cell['total']!r}"
        verdict = deal.verdict
        if game == "skat":  # Declarer, Game, Base, Matadors, Levels, Result, Value
            declarer, contract, *_middle, won, value = row["info"]
            assert declarer == deal.facts.get("declarer", "")
            assert contract == CONTRACT_LABELS[deal.facts["contract"]]
            assert (won, value) == (result(verdict), str(verdict.value) if verdict.won is not None else "")
        else:  # Game, Players, Result, Value
            assert sum(deal.entries) == 0
            assert number(row["sum"]) == 0, f"deal {number_}: the payments sum to {row['sum']!r}"
            _contract, side, won, value = row["info"]
            assert side == " + ".join(deal.facts[key] for key in SEAT_KEYS if key in deal.facts)
            assert won == result(verdict)
            assert (number(value) if value else None) == (verdict.value if verdict.won is not None else None)
    footer = ledger["footer"]
    label = "List points" if game == "skat" else "Total"
    assert [number(cell) for cell in footer[label]["players"]] == totals
    if game == "schafkopf":
        assert number(footer[label]["sum"]) == 0
        return totals
    seeger_fabian = [sum(column) for column in zip(*(deal.seeger_fabian for deal in expected), strict=True)]
    assert [number(cell) for cell in footer["For games won and lost"]["players"]] == seeger_fabian
    assert [number(cell) for cell in footer["Performance (Seeger-Fabian points)"]["players"]] == [
        a + b for a, b in zip(totals, seeger_fabian, strict=True)]
    won, lost = [0] * 4, [0] * 4
    for deal in expected:
        if deal.verdict.won is not None:
            (won if deal.verdict.won else lost)[PLAYERS.index(deal.facts["declarer"])] += 1
    assert [int(n) for n in footer["Games won"]["players"]] == won
    assert [int(n) for n in footer["Games lost"]["players"]] == lost
    return totals


# --- doing things on the page ----------------------------------------------------------------------

@contextmanager
def replaced(page: Page, selector: str) -> Iterator[None]:
    """Wait, after the block, until htmx has swapped in a new element for `selector` (outerHTML) and
    settled it. Settled, not only inserted: htmx wires the new content's inputs while it settles, and an
    input changed before that (the next step's select) would send nothing — the swap the next step
    waits for would then never come (the flake CI saw on a busy machine)."""
    page.locator(selector).evaluate("element => { element.dataset.stale = 'yes'; }")
    page.evaluate("""([selector, ceiling]) => { window.scorekeepSettled = new Promise(resolve => {
        const settled = event => { if (event.target.isConnected && event.target.matches(selector)) {
            document.body.removeEventListener('htmx:afterSettle', settled); resolve(true); } };
        document.body.addEventListener('htmx:afterSettle', settled);
        setTimeout(() => resolve(false), ceiling); }); }""", [selector, TIMEOUT_MS])
    yield
    # The promise first: it resolves on htmx's own event, where an expectation polls (0.5 s apart after 0.3 s).
    settled = page.evaluate("() => window.scorekeepSettled")
    expect(page.locator(f"{selector}:not([data-stale])")).to_have_count(1)
    assert settled, f"htmx swapped {selector} but never settled it"


def start_night(page: Page, live_server: Any, *, game: str, preset: str, series: str = "",
                players: Sequence[str] = PLAYERS) -> str:
    """Start a night of four (or of `players`) on /nights/new/ as a host does; Anna deals first. Returns the
    table's URL."""
    page.goto(f"{live_server.url}/nights/new/")
    # htmx is there once app.js (deferred after it) marks <html> "js". Never page.wait_for_function: it runs its
    # predicate through eval, which the site's CSP refuses — on a busy machine, when the first try came too early.
    page.locator("html.js").wait_for(state="attached")
    if game != "skat":
        with replaced(page, "#night-form-body"):
            page.get_by_label("Game", exact=True).select_option(game)
    with replaced(page, "#night-form-body"):
        page.get_by_label("Rule set").select_option(preset)
    expect(page.get_by_label("Players at the table")).to_have_value("4")
    if len(players) != 4:
        with replaced(page, "#night-extras"):  # the players' inputs, one per seat
            page.get_by_label("Players at the table").select_option(str(len(players)))
    for position, name in enumerate(players):
        page.get_by_label(f"Player {position + 1}", exact=True).fill(name)
    page.get_by_label("Deals first").select_option(index=0)  # the first player listed: Anna
    if game == "skat":
        page.get_by_label("Series").select_option(series)
    page.get_by_role("button", name="Start the night").click()
    expect(page).to_have_url(re.compile(r"/nights/\d+/tables/1/$"))
    page.locator("html.js").wait_for(state="attached")
    return page.url


def tap_choice(page: Page, key: str, label: str) -> None:
    page.locator(f"#q-{key} label.tap").filter(has_text=re.compile(f"^{re.escape(label)}$")).click()


def tap_folded(page: Page, key: str, value: str) -> None:
    """Tap `value` of question `key`, opening "Other" first where it is folded away. Not while the preview of an
    earlier input is on its way: its answer, swapped in between Playwright's last look at the tap and the click
    (which lands on the tap's place on the screen), moved the tap away and the click hit nothing (a CI run's page
    log: no input for the question)."""
    choice = page.locator(f"#q-{key} input[value='{value}']")
    preview_current(page)
    if not choice.is_visible():
        page.locator(f"#q-{key} details.more-choices > summary").click()
    tap_choice(page, key, value)
    expect(choice).to_be_checked()


def show_rare(page: Page, selector: str) -> None:
    """Open "More: tricks, Kontra, cards …" when the input is folded away in it."""
    if not page.locator(selector).is_visible():
        page.locator("#entry details.more:not(.dealer) > summary").click()
    expect(page.locator(selector)).to_be_visible()


def show_scorer(page: Page) -> None:
    """Open "Who dealt, who enters" when it is folded."""
    if not page.locator("#id_by").is_visible():
        page.locator("#entry details.dealer > summary").click()
    expect(page.locator("#id_by")).to_be_visible()


def choose_game(page: Page, facts: Facts) -> bool:
    """Tap the deal's game (in any language: by the value it posts). Where at most three play, who declared
    what is one tap in a grid of players and games ("hearts@1"): returns whether the declarer was tapped so."""
    in_grid = "declarer" in facts and page.locator(f"#q-contract input[value^='{facts['contract']}@']").count() > 0
    if in_grid:  # the tap in the declarer's row
        cell = f"#q-contract .grid-row[aria-label='{facts['declarer']}'] input[value^='{facts['contract']}@']"
        value = str(page.locator(cell).get_attribute("value"))
    else:
        value = facts["contract"]
    radio = page.locator(f"#q-contract input[value='{value}']")
    if not radio.is_checked():  # choosing the game re-renders the inputs it needs
        if not radio.is_visible() and not in_grid:  # a seldom played game is folded under "Other"
            page.locator("#q-contract details.more-choices > summary").click()
        with replaced(page, "#entry"):
            page.locator("#q-contract label.tap").filter(has=page.locator(f"input[value='{value}']")).click()
    expect(page.locator(f"#q-contract input[value='{value}']")).to_be_checked()
    return in_grid


def fill_deal(page: Page, facts: Facts) -> None:
    """Tap and type one deal into the entry form, in the order a scorer goes down the form."""
    in_grid = choose_game(page, facts)
    for key in SEAT_KEYS:
        if key in facts and not (in_grid and key == "declarer"):
            tap_choice(page, key, facts[key])
    if "trump" in facts:
        tap_choice(page, "trump", SUIT_LABELS[facts["trump"]])
    if "matadors" in facts:  # tapped: "with 2", "without 1"; longer runs are folded under "Other"
        n = facts["matadors"]
        label = f"with {n}" if n > 0 else f"without {-n}"
        if abs(n) > 4:
            page.locator("#q-matadors details.more-choices > summary").click()
        tap_choice(page, "matadors", label)
    for key in SELECT_KEYS:  # tapped: the common values in view, the rest folded under "Other"
        if key in facts:
            tap_folded(page, key, str(facts[key]))
    for key in CHECK_KEYS:
        if facts.get(key):
            show_rare(page, f"#q-{key} label.tap")
            page.locator(f"#q-{key} label.tap").click()
            expect(page.locator(f"#id_{key}")).to_be_checked()
    if facts["contract"] == "ramsch":
        fill_ramsch(page, facts)
    if "old" in facts:
        for name in facts["old"]:
            page.locator("#q-old label.tap").filter(has_text=re.compile(f"^{name}$")).click()
    for name in facts["doublings"] if isinstance(facts.get("doublings"), list) else ():  # Kop: tapped in order
        page.locator("#q-doublings [data-chain-add]").filter(has_text=re.compile(f"^{name}$")).click()
    for key in TAP_KEYS:
        if key in facts and not isinstance(facts[key], list):
            show_rare(page, f"#q-{key}")
            tap_choice(page, key, str(facts[key]))
            expect(page.locator(f"#q-{key} input[value='{facts[key]}']")).to_be_checked()
    for key in NUMBER_KEYS:
        if key in facts:
            field = page.locator(f"#id_{key}")
            show_rare(page, f"#id_{key}")
            field.click()
            field.press_sequentially(str(facts[key]))
    # The scorer closes the phone's keyboard and reads the preview before tapping Save.
    page.locator("#entry input:focus").evaluate_all("inputs => inputs.forEach((input) => input.blur())")
    preview_current(page)
    expect(page.locator("#entry.htmx-request")).to_have_count(0)


def preview_current(page: Page) -> None:
    """Wait, in the page, until the preview shown was asked after the last input of the entry form, or until
    nothing is on its way 0.7 s after that input (an input that asks no preview). It only ends the wait sooner
    than the expectations that follow, which still decide: without the tracker (conftest.PREVIEW_TRACKER) it
    returns at once."""
    until(page, """() => {
        const state = window.scorekeepPreview;
        return !state || state.settled >= state.inputs
            || (state.inFlight === 0 && performance.now() - state.lastInput > 700);
    }""")


def until(page: Page, predicate: str, ceiling_ms: int = TIMEOUT_MS) -> bool:
    """Wait until `predicate` (a JavaScript function of no arguments, as source) is true on the page, checked
    every frame in the page itself — not page.wait_for_function, which runs its predicate through eval, refused
    by the site's CSP when the first check comes too early. False when `ceiling_ms` passed first: the assertion
    that follows decides."""
    return bool(page.evaluate(f"""(ceiling) => new Promise((resolve) => {{
        const predicate = {predicate}, start = performance.now();
        const check = () => {{
            if (predicate()) resolve(true);
            else if (performance.now() - start > ceiling) resolve(false);
            else requestAnimationFrame(check);
        }};
        check();
    }})""", ceiling_ms))


def fill_ramsch(page: Page, facts: Facts) -> None:
    """A Ramsch as the page asks it: a tap on each player who took no trick, or on the one who took every
    trick; the card points of the others typed, the last of them left empty (he has the rest)."""
    tricks, points = facts["tricks"], facts["points"]
    sweeper = next((name for name, taken in tricks.items() if taken == sum(tricks.values())), None)
    if sweeper is not None:
        page.locator("#q-every_trick label.tap").filter(has_text=re.compile(f"^{sweeper}$")).click()
        return
    typed = [name for name in points if tricks[name] > 0]
    for name in points:
        if tricks[name] == 0:
            page.locator("#q-no_trick label.tap").filter(has_text=re.compile(f"^{name}$")).click()
    for name in typed[:-1]:
        page.locator(f"#id_points-{PLAYERS.index(name)}").fill(str(points[name]))
    rest = page.locator("#rest-points")
    expect(rest).to_contain_text(f"{typed[-1]} {points[typed[-1]]}: the rest of 120")


def signed(value: int, game: str) -> str:
    """An entry as the preview writes it: +72, −96, 0; Schafkopf in euros, +€0.10, −€0.30, €0.00."""
    sign = "+" if value > 0 else MINUS if value < 0 else ""
    if game == "schafkopf":
        return f"{sign}€{abs(value) // 100}.{abs(value) % 100:02d}"
    return f"{sign}{abs(value)}"


def enter_deal(page: Page, game: str, number_: int, deal: Judged, series: int | None = None) -> None:
    """Enter deal `number_` as the table declared it, check the live preview against the engine, save."""
    head = page.locator("#entry .deal-head")
    expect(head).to_contain_text(f"Deal {number_} of {series}" if series else f"Deal {number_}")
    expect(head).to_contain_text(f"{PLAYERS[deal.dealer]} deals")
    fill_deal(page, deal.facts)
    # The preview is the engine's verdict before saving: each player's entry, the dealer "sits out".
    verdict = deal.verdict
    outcome = "No declaring side" if verdict.won is None else "Won" if verdict.won else "Lost"
    expect(page.locator("#preview .outcome strong").first).to_have_text(outcome)
    shown = [f"{name} {'sits out' if game == 'skat' and p == deal.dealer else signed(deal.entries[p], game)}"
             for p, name in enumerate(PLAYERS)]
    expect(page.locator("#preview table.scores tr")).to_have_text(shown)  # in the folded "How?"
    if game == "skat":
        expect(page.locator("#preview .value strong")).to_have_text(str(verdict.value))
    with replaced(page, "#table-region"):
        page.get_by_role("button", name="Save deal").click()
    # The saved deal is said in words and marked among the latest deals under the standings.
    expect(page.locator("#table-region .saved")).to_contain_text(f"Deal {number_} saved: ")
    saved = page.locator("table.latest-deals tbody tr.deal-row.just-saved")
    expect(saved.locator("th.number")).to_have_text(str(number_))
    expect(page.locator("table.latest-deals tbody tr.what-row.just-saved")).to_contain_text(
        str(CONTRACT_LABELS[deal.facts["contract"]]))


def play(page: Page, game: str, deals: Sequence[Judged], series: int | None = None) -> None:
    """Enter `deals` in order, as the scorer Anna."""
    for index, deal in enumerate(deals):
        if index == 0:  # who enters is folded away with who dealt: most nights set it once
            show_scorer(page)
            page.get_by_label("Your name").fill("Anna")
        else:  # the scorer's name is remembered from the first save
            expect(page.get_by_label("Your name")).to_have_value("Anna")
        enter_deal(page, game, index + 1, deal, series)
