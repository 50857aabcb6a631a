"""A whole tournament of each game in Chromium (issue 18): the organiser sets it up through the form (entry
fee, tiered lost-game money, a prize table), registers the players at the door, draws series 1; two list
keepers enter deals at their tables on two phones at once through the tables' scorer links while the big
screen follows by itself; the series' checks pass and it is closed; series 2 is drawn and played and closed;
the organiser corrects a deal of the closed series and the standings follow, with the correction in the
deal's history; the money page's pot and payout sheet add up; the printouts answer with the players' names.

What is typed and what is not: the first deal of each table of series 1 is entered on the phones, both
open at once, through the entry form as a list keeper taps it; the other deals of series 1 and all of series 2 go
through `nights.enter_deal` in the test's database (the same call a saved form makes), which keeps the
four games together within about a minute. Every deal is a real one the engine judges.

Each table plays the same pattern, so the test knows who lost what: at a table of n, the player in the last
seat declares (Kop: is on the old side with the player of deal i) and loses deals 1 … n−1, and the first
player declares and wins the last deal — so the last seat's player loses n−1 games a series and the tiered
lost-game money ("1 0.50", "3 1.00") reaches its second tier at a table of four.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scorekeep.clubs import clubs
from scorekeep.models import CardTable, Deal, Tournament
from scorekeep.nights import ledger
from scorekeep.nights import writes as nights
from scorekeep.rules import GAMES
from scorekeep.tournaments import standings
from scorekeep.words.labels import unit_text

from .conftest import TIMEOUT_MS
from .steps import fill_deal, replaced, show_rare, tap_choice

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH_JS = "() => ({scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth})"
NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Erika", "Fritz", "Gisela", "Heinz"]
# Skat and Fipsen seat 7 at a table of four and one of three; Schafkopf and Kop 8 at two tables of four.
PLAYERS = {"skat": 7, "fipsen": 7, "schafkopf": 8, "kop": 8}
LENGTH = 4  # the shortest series the engine allows: 4 deals at a table of four, 3 at a table of three
FEE = 1000  # cents
TIERS = [(1, 50), (3, 100)]  # from the 1st lost game of a series 0.50 each, from the 3rd 1.00
SHARES = [500, 300, 200]  # per mille of the pot
RETENTION = 100  # per mille


def fits(page: Page) -> None:
    width = page.evaluate(WIDTH_JS)
    assert width["scroll"] <= width["client"], f"{page.url} scrolls sideways: {width}"


def phone(browser: Browser) -> Page:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return page


# --- the deals: by name for the phones, by engine seat for `enter_deal` ----------------------------------

def deal_of(game: str, names: list[str], index: int) -> tuple[dict[str, Any], list[str]]:
    """Deal `index` (0-based) of a table seated `names`: its facts by name, and who lost it (credited)."""
    n = len(names)
    lose = index < n - 1
    declarer, partner = (names[-1], names[index]) if lose else (names[0], names[1])
    if game == "skat":  # the dealer (position index) sits out at four: the last seat never deals in 0 … n−2
        return ({"contract": "grand", "declarer": declarer, "bid": 18, "matadors": -1,
                 "card_points": 50 if lose else 70}, [declarer] if lose else [])
    if game == "schafkopf":
        return {"contract": "wenz", "declarer": declarer, "card_points": 50 if lose else 75}, \
            [declarer] if lose else []
    if game == "kop":
        return {"contract": "normal", "old": [declarer, partner], "card_points": 45 if lose else 60}, \
            [declarer, partner] if lose else []
    return ({"contract": "tricks", "declarer": declarer, "bid": 4, "hand": True,
             "tricks_taken": 3 if lose else 4}, [declarer] if lose else [])


def engine_facts(game: str, facts: dict[str, Any], names: list[str], seats: list[int]) -> dict[str, Any]:
    def seat(name: str) -> int:
        return seats.index(names.index(name))
    out = dict(facts)
    for key in ("declarer", "partner"):
        if key in out:
            out[key] = seat(out[key])
    if "old" in out:
        out["old"] = sorted(seat(name) for name in out["old"])
    return out


def enter_in_db(table: CardTable, game: str, names: list[str], index: int) -> None:
    table.refresh_from_db()
    now = ledger.TableStanding.of(table)
    dealer = now.next_dealer(table.first_dealer)
    facts, _lost = deal_of(game, names, index)
    nights.enter_deal(table, engine_facts(game, facts, names, ledger.seating(game, len(names), dealer)),
                      by="test")


def fill_on_phone(keeper: Page, game: str, facts: dict[str, Any]) -> None:
    fill_deal(keeper, {k: v for k, v in facts.items() if k != "tricks_taken"})
    if "tricks_taken" in facts:  # Fipsen: the declarer's tricks are tapped (0 … 5)
        tap(keeper, "tricks_taken", str(facts["tricks_taken"]))


def tap(page: Page, key: str, value: str) -> None:
    show_rare(page, f"#q-{key}")
    tap_choice(page, key, value)
    expect(page.locator(f"#q-{key} input[value='{value}']")).to_be_checked()
    expect(page.locator("#entry.htmx-request")).to_have_count(0)


def part(game: str, form: str, n: int) -> str:
    """A series as the pages name it in English ("series 2"; Kop: "round 2")."""
    with translation.override("en"):
        return unit_text(game, form, n)


# --- reading the pages ---------------------------------------------------------------------------

MONEY = re.compile(r"(\d+)[.,](\d\d)")


def cents(text: str) -> int:
    match = MONEY.search(text)
    assert match, f"no amount in {text!r}"
    return int(match[1]) * 100 + int(match[2])


def tables_of(tour: Tournament, number: int) -> list[tuple[CardTable, list[str]]]:
    out = []
    for table in CardTable.objects.filter(night__series__tournament=tour, night__series__number=number) \
            .select_related("night").order_by("number"):
        out.append((table, [p.player.name for p in table.places.select_related("player").order_by("position")]))
    return out


def expect_screen_follows(screen: Page, tour: Tournament) -> None:
    """The big screen lists the players in the standings' order, as the server ranks them now."""
    order = [line.name for line in standings.standings(tour).lines]
    expect(screen.locator(".bigscreen-table tbody tr th")).to_have_text(
        [re.compile(rf"^{re.escape(name)}") for name in order])


@pytest.mark.parametrize("game", ["skat", "schafkopf", "kop", "fipsen"])
def test_a_whole_tournament_runs_through(page: Page, browser: Browser, live_server: Any, game: str) -> None:
    started = time.monotonic()
    preset = GAMES[game].DEFAULT_PRESET
    club = clubs.home_club(get_user_model().objects.get(username="host"))
    players = NAMES[:PLAYERS[game]]

    # --- the organiser sets the tournament up through the form ---
    page.goto(f"{live_server.url}/tournaments/new/")
    page.get_by_label("Club").select_option(str(club.pk))
    page.get_by_label("Name", exact=True).fill("Stadtmeisterschaft")
    page.get_by_label("Place", exact=True).fill("Gasthaus Krone")
    page.get_by_label("Game and rule set").select_option(f"{game}:{preset}")
    page.get_by_label("Number of series (Kop: rounds)").fill("2")
    page.get_by_label("Deals per series at a table of four").fill(str(LENGTH))
    page.get_by_label("Entry fee").fill("10.00")
    page.get_by_label("Lost-game money per series").fill(", ".join(f"{n}: {a // 100}.{a % 100:02d}" for n, a in TIERS))
    page.get_by_label("Prizes as").select_option("shares")
    page.get_by_label("Prizes, first place first").fill(", ".join(str(s // 10) for s in SHARES))
    page.get_by_label("Organiser's retention as").select_option("share")
    page.get_by_label("Organiser's retention", exact=True).fill(str(RETENTION // 10))
    fits(page)
    page.get_by_role("button", name="Set up the tournament").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Stadtmeisterschaft")
    tour = Tournament.objects.get()
    assert (tour.entry_fee, tour.lost_game_money) == (FEE, [{"from": n, "amount": a} for n, a in TIERS])

    # --- registration at the door ---
    page.get_by_role("link", name="Register players").click()
    for name in players:
        page.get_by_label("Name", exact=True).fill(name)
        page.get_by_label("Entry fee paid").check()
        page.get_by_role("button", name="Register").click()
        expect(page.locator(".messages")).to_contain_text(f"{name} is registered with start number")
    expect(page.locator("ol.entrants li")).to_have_count(len(players))
    fits(page)
    page.get_by_role("link", name="Stadtmeisterschaft").click()
    tournament_url = page.url

    # --- the draw of series 1: a table of four and one of three (Skat, Fipsen), two of four ---
    page.get_by_label("Seed (empty: a new one at random)").fill("Krone 1")
    page.get_by_role("button", name=f"Draw {part(game, 'in_text', 1)}").click()
    expect(page.locator(".messages")).to_contain_text(f"{part(game, 'numbered', 1)} is drawn (seed Krone 1).")
    seated = tables_of(tour, 1)
    assert [len(names) for _t, names in seated] == ([4, 3] if PLAYERS[game] == 7 else [4, 4])
    items = page.locator("li.table-item")
    expect(items).to_have_count(2)
    fits(page)
    scorer_links = [items.nth(i).locator("a[href*='/join/']").get_attribute("href") or "" for i in range(2)]

    # --- the big screen, by the viewer link from the organiser's standings page ---
    page.get_by_role("link", name="Standings", exact=True).click()
    screen_url = page.get_by_role("link", name="Big screen").get_attribute("href") or ""
    screen_context: BrowserContext = browser.new_context(viewport={"width": 1920, "height": 1080})
    screen = screen_context.new_page()
    screen.set_default_timeout(TIMEOUT_MS)
    screen.goto(screen_url if screen_url.startswith("http") else live_server.url + screen_url)
    screen.locator("html.js").wait_for(state="attached")
    expect(screen.locator(".bigscreen-table tbody tr")).to_have_count(len(players))
    screen.evaluate("() => { window.notReloaded = true; }")

    # --- two list keepers at once: both phones open, both deals typed, then saved ---
    keepers = [phone(browser), phone(browser)]
    for keeper, link in zip(keepers, scorer_links, strict=True):
        keeper.goto(link)
        keeper.locator("html.js").wait_for(state="attached")
    etag = screen.locator("section.bigscreen").get_attribute("data-etag") or ""
    for keeper, (table, names) in zip(keepers, seated, strict=True):
        expect(keeper.locator("#entry .deal-head")).to_contain_text(f"Deal 1 of {table.night.series_length}")
        fill_on_phone(keeper, game, deal_of(game, names, 0)[0])
    # Both list keepers tap Save, one just after the other. Not at the very same instant: under the tests'
    # in-memory SQLite (shared cache) a read beside another connection's write fails at once with "database
    # table is locked" instead of waiting as a file database (WAL, busy timeout) and PostgreSQL do; the page's
    # offline queue then sends the deal again and the save's message never shows.
    for keeper in keepers:
        with replaced(keeper, "#table-region"):
            keeper.get_by_role("button", name="Save deal").click()
        expect(keeper.locator("#table-region .saved")).to_contain_text("Deal 1 saved: ")
    fits(keepers[0])
    for keeper in keepers:
        keeper.context.close()
    for table, names in seated:  # the rest of the series at the tables (see the module's docstring)
        for index in range(1, table.night.series_length or 0):
            enter_in_db(table, game, names, index)

    # --- the series' checks pass and it is closed ---
    page.goto(tournament_url)
    expect(items.locator(".ok")).to_have_count(2)
    page.get_by_role("button", name=f"Close {part(game, 'in_text', 1)}").click()
    expect(page.locator(".messages")).to_contain_text(f"{part(game, 'numbered', 1)} is closed.")

    # --- series 2: drawn, played, closed ---
    page.get_by_label("Seed (empty: a new one at random)").fill("Krone 2")
    page.get_by_role("button", name=f"Draw {part(game, 'in_text', 2)}").click()
    expect(page.locator(".messages")).to_contain_text(f"{part(game, 'numbered', 2)} is drawn")
    for table, names in tables_of(tour, 2):
        for index in range(table.night.series_length or 0):
            enter_in_db(table, game, names, index)
    page.reload()
    expect(items.locator(".ok")).to_have_count(4)
    page.get_by_role("button", name=f"Close {part(game, 'in_text', 2)}").click()
    expect(page.locator(".messages")).to_contain_text(f"{part(game, 'numbered', 2)} is closed.")

    # --- the organiser corrects a deal of the closed series: the standings follow, the history keeps it ---
    before = standings.standings(tour)
    table, names = tables_of(tour, 2)[0]
    deal = Deal.objects.get(table=table, sequence=LENGTH)  # the last deal, which the first player won
    # The closed table's page says its last deal, not a next one that will not come ("Deal 5 of 4 · … deals").
    page.goto(f"{live_server.url}/nights/{table.night.pk}/tables/{table.number}/")
    expect(page.locator("section.standings p.status")).to_have_text(f"Deal {LENGTH} of {LENGTH}")
    page.goto(f"{live_server.url}/nights/{table.night.pk}/tables/{table.number}/deals/{LENGTH}/")
    page.locator("html.js").wait_for(state="attached")
    correct_the_last_deal(page, game)
    expect(page.locator(".saved")).to_contain_text("Correction saved")
    page.reload()
    expect(page.locator("ol.history-list li")).to_have_count(2)  # entered, corrected: what changed, and who
    expect(page.locator("ol.history-list li").last).to_contain_text("→")
    after = standings.standings(tour)
    winner = names[0]
    figures = {line.name: line.total for line in after.lines}
    figures_before = {line.name: line.total for line in before.lines}
    assert figures[winner]["lost"] == figures_before[winner]["lost"] + 1, "the corrected deal is lost now"
    deal.refresh_from_db()
    assert deal.revisions.filter(kind="changed").exists()

    # --- the money: the pot and the payout sheet add up ---
    lost: dict[str, int] = {}
    for number in (1, 2):
        for table, names in tables_of(tour, number):
            per_series: dict[str, int] = {}
            for index in range(table.night.series_length or 0):
                for name in deal_of(game, names, index)[1]:
                    per_series[name] = per_series.get(name, 0) + 1
            if number == 2 and table.number == 1:  # the corrected deal: its side lost it
                for name in names[:2] if game == "kop" else names[:1]:
                    per_series[name] = per_series.get(name, 0) + 1
            for name, count in per_series.items():
                lost[name] = lost.get(name, 0) + money_of(count)
    fees = FEE * len(players)
    lost_money = sum(lost.values())
    retention = (fees + lost_money) * RETENTION // 1000
    pot = fees + lost_money - retention
    page.goto(f"{tournament_url}money/")
    fits(page)
    sheet = {row.locator("th").inner_text().lstrip("+−= ").strip(): row.locator("td").last.inner_text()
             for row in page.locator("table.money-sheet tr").all() if row.locator("th").count()}
    assert cents(sheet["Entry fees"]) == fees
    assert cents(sheet["Lost-game money"]) == lost_money
    assert cents(sheet["Organiser's retention"]) == retention
    assert cents(sheet["Pot"]) == pot
    assert cents(sheet["Prizes paid"]) + cents(sheet["Left in the pot"]) == pot
    expect(page.locator("table.money-sheet tr.check")).to_contain_text("✓")
    # The prizes by the final standings: players tied on a place share the prizes of the places they cover.
    final = standings.standings(tour).lines
    amounts = [pot * share // 1000 for share in SHARES]
    expected = []
    for place in sorted({line.place for line in final if line.place <= len(SHARES)}):
        winners = [line.name for line in final if line.place == place]
        each = sum(amounts[place - 1:place - 1 + len(winners)]) // len(winners)
        expected.append((winners, each * len(winners)))
    prize_rows = page.locator("section[aria-labelledby='prizes-title'] tbody tr")
    expect(prize_rows).to_have_count(len(expected))
    for row, (winners, paid) in enumerate(expected):
        for name in winners:
            expect(prize_rows.nth(row)).to_contain_text(name)
        assert cents(prize_rows.nth(row).locator("td").last.inner_text()) == paid
    assert cents(sheet["Prizes paid"]) == sum(paid for _w, paid in expected)

    # On the organiser's phone the figure the standings are ranked by shows without scrolling sideways.
    page.goto(f"{tournament_url}standings/")
    fits(page)
    expect(page.locator("table.standings tbody tr").first.locator("td.num:not(.series)").nth(2)).to_be_in_viewport(
        ratio=1)

    # --- the printouts answer with the names ---
    page.goto(f"{tournament_url}print/")
    links = [a.get_attribute("href") or "" for a in page.locator("main a:not([download])").all()]
    assert len(links) == 2 * 3 + 1, links
    for link in links:
        response = page.goto(live_server.url + link if link.startswith("/") else link)
        assert response is not None and response.status == 200, link
        body = page.locator("body")
        for name in players:
            expect(body).to_contain_text(name)
    # The final ranking's money is the money page's: the same pot, the same prizes paid.
    page.goto(f"{tournament_url}print/ranking/")
    for key in ("Pot", "Prizes paid"):
        expect(page.locator("body")).to_contain_text(sheet[key].strip())
    pdf = page.request.get(f"{tournament_url}print/ranking.pdf")
    assert pdf.status == 200 and pdf.body().startswith(b"%PDF")

    # The big screen, left running all along (its poll is every 10 s; waited for once, here, so the test stays
    # short), has brought every change without reloading: the final standings, the correction too.
    expect(screen.locator("section.bigscreen")).not_to_have_attribute("data-etag", etag)
    expect_screen_follows(screen, tour)
    expect(screen.locator(".bigscreen-table tbody")).to_contain_text("\N{MINUS SIGN}")  # a real minus, as on paper
    expect(screen.locator(".bigscreen-table tbody")).not_to_contain_text("-")
    assert screen.evaluate("() => window.notReloaded === true"), "the big screen reloaded"
    screen_context.close()
    print(f"{game}: {time.monotonic() - started:.1f} s")


def money_of(lost_games: int) -> int:
    return sum(max((a for n, a in TIERS if n <= game), default=0) for game in range(1, lost_games + 1))


def correct_the_last_deal(page: Page, game: str) -> None:
    """Turn the last deal (won by the first player) into a lost one, through the deal page's form."""
    if game == "fipsen":
        tap(page, "tricks_taken", "3")
    else:
        box = page.locator("#id_card_points")
        show_rare(page, "#id_card_points")
        box.fill("45" if game == "kop" else "50")
        box.blur()
        expect(page.locator("#entry.htmx-request")).to_have_count(0)
    page.get_by_role("button", name=re.compile("Save")).click()

