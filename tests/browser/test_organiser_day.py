"""The organiser's whole day (issue 31) in Chromium, for Skat and for Schafkopf, on the organiser's phone: set the
tournament up (two series, three tables, the money in the form's words), register the players from one pasted list
(a preview, then one confirmation), draw series 1; two list keepers enter their tables' deals on two phones at once
through the scorer links, the third table keeps a paper list whose foot the organiser types; close series 1, draw
series 2 by the standings; a deal of series 1 is corrected after closing — the history names the account, the
tournament page says series 2 was drawn from standings that have changed and series 2 is drawn again; series 2 is
played the same way and closed; the standings, the money page and the CSV exports are read.

What the organiser checks is recomputed here from the deals entered, with the engine (`rules.judge`), never
from the server's standings: each player's figures, the ranks, the money page's fees, lost-game money, pot and
prizes; the CSV files hold the figures, ranks and member numbers the standings page shows.

Every deal is typed on a phone except the paper table's, whose foot (list points, games, Seeger-Fabian points;
Schafkopf: money, games, Soli) the engine's verdicts of its deals give. A series is as short as the form
allows (4 deals at a table of four, 3 at a table of three) so each game's day takes about a minute.
"""

from __future__ import annotations

import csv
import io
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect

from scorekeep.clubs import clubs
from scorekeep.models import CardTable, Series, Tournament
from scorekeep.rules import GAMES, Verdict, judge
from scorekeep.words.labels import table_names

from .conftest import TIMEOUT_MS
from .steps import MINUS, fill_deal, replaced, show_rare

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SECONDS_A_TEST = 50.0  # a whole day each (tests/conftest.py hands the heaviest files to the workers first)

NAMES = ["Anna Adler", "Bernd Bauer", "Clara Christ", "Dieter Dorn", "Erika Eck", "Fritz Funk", "Gisela Gans",
         "Heinz Hahn", "Ida Igel", "Jens Jung", "Karin Kurz", "Ludwig Lang"]
# Three tables each: Skat at tables of three, Schafkopf at tables of four.
PLAYERS = {"skat": 9, "schafkopf": 12}
LENGTH = 4  # the shortest series the form takes: 4 deals at a table of four, 3 at a table of three
PAPER_TABLE = 3  # the table without a phone, each series
FEE = 1000  # cents
TIERS = [(1, 50), (2, 100)]  # lost-game money: 0.50 for the first lost game of a series, 1.00 from the second
SHARES = [500, 300, 200]  # per mille of the pot
RETENTION = 100  # per mille
TIERS_TYPED = ", ".join(f"{n}: {a // 100}.{a % 100:02d}" for n, a in TIERS)  # "1: 0.50, 2: 1.00"
SHARES_TYPED = ", ".join(str(share // 10) for share in SHARES)  # "50, 30, 20"

# The deals a table plays, by table position (0 = the first seated): Skat's declarer, game, matadors and card
# points (bid 18, which every one of them reaches); Schafkopf's Soli and Wenzen (played alone, so the games won
# and lost and the Soli won are the declarer's). Table t of series s plays the templates from (t + 2s) on, so
# the tables' figures differ.
SKAT_DEALS: tuple[tuple[int, str, int, int], ...] = (
    (0, "grand", 1, 70), (1, "clubs", 2, 50), (2, "hearts", -1, 80), (1, "spades", 1, 65), (0, "diamonds", 2, 40),
    (2, "grand", 2, 85), (2, "clubs", -1, 55), (0, "hearts", 3, 75), (1, "grand", -1, 62))
SCHAFKOPF_DEALS: tuple[tuple[int, str, str, int], ...] = (
    (0, "wenz", "", 75), (1, "solo", "H", 50), (2, "solo", "C", 80), (3, "wenz", "", 40), (1, "wenz", "", 85),
    (2, "solo", "S", 61), (0, "solo", "D", 45), (3, "solo", "H", 70), (1, "wenz", "", 58))


def facts_of(game: str, table: int, series: int, index: int) -> dict[str, Any]:
    """Deal `index` of table `table` in series `series`, the declarer by table position."""
    if game == "skat":
        declarer, contract, matadors, points = SKAT_DEALS[(3 * table + 2 * series + index) % len(SKAT_DEALS)]
        return {"contract": contract, "declarer": declarer, "bid": 18, "matadors": matadors, "card_points": points}
    declarer, contract, trump, points = SCHAFKOPF_DEALS[(3 * table + 2 * series + index) % len(SCHAFKOPF_DEALS)]
    return {"contract": contract, "declarer": declarer, **({"trump": trump} if trump else {}), "card_points": points}


def by_name(facts: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """The deal as a phone takes it: the declarer tapped by the name the table's page shows."""
    return {**facts, "declarer": table_names(names)[facts["declarer"]]}


# --- the engine's side: what the pages must show --------------------------------------------------------

@dataclass
class Table:
    """A table of a series as played: its card night's table, who sits there in order, its deals by position."""

    series: int
    card_table: CardTable
    names: list[str]
    deals: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Figures:
    total: int = 0  # list points (Skat), money in cents (Schafkopf)
    performance: int = 0  # Skat's Seeger-Fabian points
    won: int = 0
    lost: int = 0
    soli_won: int = 0
    series: dict[int, int] = field(default_factory=dict)  # each series' first ranking figure
    lost_in: dict[int, int] = field(default_factory=dict)  # games lost per series (lost-game money)


def verdict_of(game: str, preset: str, players: int, index: int, facts: dict[str, Any]) -> Verdict:
    """The engine's verdict on deal `index` of a table whose first seated deals first. Skat at three and
    Schafkopf at four seat every player in table order, so a table position is the engine's seat."""
    verdict = judge({"game": game, "rules": {"preset": preset}, "players": players, "dealer": index % players,
                     "deal": facts})
    assert isinstance(verdict, Verdict), verdict
    return verdict


def table_figures(game: str, preset: str, table: Table) -> list[Figures]:
    """What each seated player takes from the table's deals: list points or money, Seeger-Fabian points, games
    won and lost and Soli won — as a paper list's foot writes it."""
    out = [Figures() for _ in table.names]
    for index, facts in enumerate(table.deals):
        verdict = verdict_of(game, preset, len(table.names), index, facts)
        extra = verdict.to_json().get("seeger_fabian") or [0] * len(table.names)
        for seat, player in enumerate(out):
            player.total += verdict.scores[seat]
            player.performance += verdict.scores[seat] + extra[seat]
        if verdict.won is not None:
            declarer = out[facts["declarer"]]
            if verdict.won:
                declarer.won += 1
                declarer.soli_won += 1  # every deal here is played alone
            else:
                declarer.lost += 1
    return out


def expected(game: str, preset: str, tables: Sequence[Table], upto: int = 2) -> dict[str, Figures]:
    """Every player's figures after series `upto`, from the deals of every table."""
    out = {name: Figures() for table in tables for name in table.names}
    for table in tables:
        if table.series > upto:
            continue
        for name, got in zip(table.names, table_figures(game, preset, table), strict=True):
            mine = out[name]
            mine.total += got.total
            mine.performance += got.performance
            mine.won += got.won
            mine.lost += got.lost
            mine.soli_won += got.soli_won
            mine.series[table.series] = got.performance if game == "skat" else got.total
            mine.lost_in[table.series] = got.lost
    return out


def ranking_key(game: str, figures: Figures) -> tuple[int, ...]:
    """What the game ranks by, best first: Skat the Seeger-Fabian points, games won, fewer games lost;
    Schafkopf the money, Soli won, fewer games lost (the rule sets' `tournament_ranking`)."""
    if game == "skat":
        return (-figures.performance, -figures.won, figures.lost)
    return (-figures.total, -figures.soli_won, figures.lost)


def ranked(game: str, figures: dict[str, Figures], numbers: dict[str, int]) -> list[tuple[int, str]]:
    """(place, name) best first: players equal on every figure share a place, listed by start number."""
    keys = {name: ranking_key(game, f) for name, f in figures.items()}
    order = sorted(figures, key=lambda name: (keys[name], numbers[name]))
    return [(1 + sum(keys[other] < keys[name] for other in order), name) for name in order]


def shown(game: str, figures: Figures) -> list[int]:
    """The ranking figures as the standings' columns list them (money in cents)."""
    if game == "skat":
        return [figures.performance, figures.won, figures.lost]
    return [figures.total, figures.soli_won, figures.lost]


def lost_game_money(lost: int) -> int:
    return sum(max((a for n, a in TIERS if n <= game), default=0) for game in range(1, lost + 1))


# --- reading the pages -----------------------------------------------------------------------------------

FIGURE = re.compile(r"(-?)[^\d-]*?(\d+)(?:[.,](\d\d))?")


def value(text: str) -> int:
    """A figure as a page or a CSV cell writes it — "−72", "48", "−€1.50", "€0.50", "-1.50" — money in cents."""
    match = FIGURE.search(text.replace(MINUS, "-").strip())
    assert match, f"no figure in {text!r}"
    sign, whole, cents = match.groups()
    amount = int(whole) * 100 + int(cents) if cents is not None else int(whole)
    return -amount if sign else amount


STANDINGS_JS = """() => {
  const table = document.querySelector("table.standings");
  const heads = [...table.querySelectorAll("thead th")].map((th) => th.innerText.trim());
  return {heads, rows: [...table.querySelectorAll("tbody tr")].map((tr) => ({
    cells: [...tr.querySelectorAll("td, th")].map((cell) => cell.tagName === "TH"
      ? cell.childNodes[0].textContent.trim() : cell.innerText.trim()),
    member: tr.querySelector("th .member")?.innerText.trim() ?? ""}))};
}"""


def standings_rows(page: Page, series_count: int) -> list[dict[str, Any]]:
    """The overall standings as the page lists them: place, start number, name, member number, each series'
    figure, the ranking figures (columns: rank, no., name, club, the series, the figures, move, notes)."""
    read = page.evaluate(STANDINGS_JS)
    out = []
    for row in read["rows"]:
        cells = row["cells"]
        assert len(cells) == len(read["heads"]), read
        figures = cells[4 + series_count:-2]
        out.append({"place": int(cells[0]), "number": int(cells[1]), "name": cells[2], "member": row["member"],
                    "series": [value(c) for c in cells[4:4 + series_count]], "figures": [value(c) for c in figures]})
    return out


def cents(text: str) -> int:
    match = re.search(r"(\d+)[.,](\d\d)", text)
    assert match, f"no amount in {text!r}"
    return int(match[1]) * 100 + int(match[2])


def download_csv(page: Page, link_name: str) -> list[list[str]]:
    """Download a CSV export by its link, as the organiser does, and read it as a spreadsheet would."""
    with page.expect_download() as download:
        page.get_by_role("link", name=link_name, exact=True).click()
    data = Path(download.value.path()).read_bytes()
    assert data.startswith("\ufeff".encode()), "the CSV has no byte-order mark for a spreadsheet"
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


def csv_lines(rows: list[list[str]]) -> list[dict[str, Any]]:
    """A standings CSV's lines by its heads: rank, start number, member number, name, each series' figure
    ("S1", "S2"), the ranking figures (up to "Move"), and a final ranking's prize (cents; None: none)."""
    head, *lines = rows
    series = [i for i, h in enumerate(head) if re.fullmatch(r"S\d+", h)]
    figures = range(series[-1] + 1, head.index("Move"))
    prize = next((i for i, h in enumerate(head) if h.startswith("Prize")), None)
    return [{"place": int(cells[head.index("Rank")]), "number": int(cells[head.index("No.")]),
             "member": cells[head.index("Member no.")], "name": cells[head.index("Name")],
             "series": [value(cells[i]) for i in series], "figures": [value(cells[i]) for i in figures],
             "prize": value(cells[prize]) if prize is not None and cells[prize] else None} for cells in lines]


# --- doing things on the pages ---------------------------------------------------------------------------

def phone(browser: Browser) -> Page:
    """A list keeper's own phone: a browser context of its own, not logged in."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    keeper = context.new_page()
    keeper.set_default_timeout(TIMEOUT_MS)
    return keeper


def tables_of(tour: Tournament, series: int) -> list[Table]:
    return [Table(series, table, [p.player.name for p in table.places.select_related("player").order_by("position")])
            for table in CardTable.objects.filter(night__series__tournament=tour, night__series__number=series)
            .select_related("night").order_by("number")]


def play_series(page: Page, browser: Browser, game: str, preset: str, tables: list[Table],
                tournament_url: str) -> None:
    """Tables 1 and 2 enter their deals on two phones, both open at once, a deal at one and then at the
    other; the third table's paper list is typed by the organiser."""
    items = page.locator(f"section[aria-labelledby='series-{tables[0].series}'] li.table-item")
    links = [items.nth(t.card_table.number - 1).locator("a[href*='/join/']").get_attribute("href") or ""
             for t in tables]
    keepers = []
    for table, link in zip(tables, links, strict=True):
        if table.card_table.number == PAPER_TABLE:
            continue
        keeper = phone(browser)
        keeper.goto(link)
        keeper.locator("html.js").wait_for(state="attached")
        keepers.append((keeper, table))
    for index in range(max(len(t.deals) for t in tables)):
        for keeper, table in keepers:
            if index >= len(table.deals):
                continue
            expect(keeper.locator("#entry .deal-head")).to_contain_text(f"Deal {index + 1} of {len(table.deals)}")
            fill_deal(keeper, by_name(table.deals[index], table.names))
            with replaced(keeper, "#table-region"):
                keeper.get_by_role("button", name="Save deal").click()
            expect(keeper.locator("#table-region .saved")).to_contain_text(f"Deal {index + 1} saved: ")
    for keeper, _table in keepers:
        keeper.context.close()
    for table in tables:
        if table.card_table.number == PAPER_TABLE:
            enter_paper_list(page, game, preset, table, tournament_url, mistyped=table.series == 1)


def enter_paper_list(page: Page, game: str, preset: str, table: Table, tournament_url: str, *,
                     mistyped: bool) -> None:
    """The organiser types the foot of the table's paper list — the deals played, per player what the list's
    foot shows (the engine's verdicts of the table's deals) — from the table's link on the overview. With
    `mistyped`, one figure is first typed wrong, and the paper list's check refuses it at its input."""
    page.goto(tournament_url)
    item = page.locator(f"section[aria-labelledby='series-{table.series}'] li.table-item").nth(
        table.card_table.number - 1)
    item.get_by_role("link", name="No phone at this table: type its result from the paper list").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        f"Series {table.series} · table {table.card_table.number}: result from the paper list")
    page.get_by_label("Deals played").fill(str(len(table.deals)))
    money = bool(GAMES[game].MONEY)
    feet = table_figures(game, preset, table)
    for position, (name, foot) in enumerate(zip(table.names, feet, strict=True)):
        player = page.locator("fieldset.paper-player").filter(
            has=page.locator("legend", has_text=re.compile(f"^{re.escape(name)}$")))
        total = foot.total + (10 if mistyped and position == 0 else 0)
        player.get_by_label("money won" if money else "list points", exact=True).fill(
            units(total) if money else str(total))
        player.get_by_label("games won", exact=True).fill(str(foot.won))
        player.get_by_label("games lost", exact=True).fill(str(foot.lost))
        if game == "skat":
            player.get_by_label("Seeger-Fabian points", exact=True).fill(str(foot.performance))
        else:
            player.get_by_label("Soli won", exact=True).fill(str(foot.soli_won))
    page.get_by_role("button", name="Save the paper list").click()
    if mistyped:  # a list that does not add up is refused, nothing is kept; the organiser corrects the figure
        expect(page.locator(".field.invalid, .errors").first).to_be_visible()
        assert not CardTable.objects.get(pk=table.card_table.pk).paper
        first = page.locator("fieldset.paper-player").first
        first.get_by_label("money won" if money else "list points", exact=True).fill(
            units(feet[0].total) if money else str(feet[0].total))
        page.get_by_role("button", name="Save the paper list").click()
    expect(page.locator(".messages")).to_contain_text(
        f"The paper list of table {table.card_table.number} is entered: it counts in the standings and the money.")
    expect(item.locator(".paper-mark")).to_have_text("from a paper list")


def units(amount: int) -> str:
    """Cents as the paper list writes an amount: "1.50", "−0.30"."""
    return f"{MINUS if amount < 0 else ''}{abs(amount) // 100}.{abs(amount) % 100:02d}"


def correct(page: Page, live_server: Any, table: Table, sequence: int, card_points: int) -> None:
    """The organiser turns the deal's card points to `card_points` on the deal's page."""
    night = table.card_table.night
    page.goto(f"{live_server.url}/nights/{night.pk}/tables/{table.card_table.number}/deals/{sequence}/")
    page.locator("html.js").wait_for(state="attached")
    box = page.locator("#id_card_points")
    show_rare(page, "#id_card_points")
    box.fill(str(card_points))
    box.blur()
    expect(page.locator("#entry.htmx-request")).to_have_count(0)
    page.get_by_role("button", name=re.compile("Save")).click()
    # The series is closed: the change is asked for again, then confirmed (issue 33).
    expect(page.locator(".confirm-finished")).to_contain_text("already finished")
    page.get_by_role("button", name="Change it anyway").click()
    expect(page.locator(".saved")).to_contain_text("Correction saved")


def flip(game: str, preset: str, tables: list[Table]) -> tuple[Table, int, int]:
    """A deal of a phone table that the correction turns from won to lost so that the standings after the
    series change order (as a wrongly written card count does): the table, the deal's index, the new count."""
    numbers = {name: n for n, name in enumerate(NAMES, start=1)}
    before = [name for _p, name in ranked(game, expected(game, preset, tables), numbers)]
    for table in tables:
        if table.card_table.number == PAPER_TABLE:
            continue
        for index, facts in enumerate(table.deals):
            if not verdict_of(game, preset, len(table.names), index, facts).won:
                continue
            changed = [Table(t.series, t.card_table, t.names, list(t.deals)) for t in tables]
            mine = next(t for t in changed if t.card_table.pk == table.card_table.pk)
            mine.deals[index] = {**facts, "card_points": 50}
            if [name for _p, name in ranked(game, expected(game, preset, changed), numbers)] != before:
                return table, index, 50
    raise AssertionError("no won deal whose correction changes the standings: change the deals")


@pytest.mark.parametrize("game", ["skat", "schafkopf"])
def test_the_organisers_day(page: Page, browser: Browser, live_server: Any, game: str) -> None:
    started = time.monotonic()
    preset = GAMES[game].DEFAULT_PRESET
    club = clubs.home_club(get_user_model().objects.get(username="host"))
    players = NAMES[:PLAYERS[game]]
    numbers = {name: n for n, name in enumerate(players, start=1)}
    members = {name: str(1000 + n) for name, n in numbers.items()}

    # --- the tournament: two series, later ones drawn by the standings; the money ---
    page.goto(f"{live_server.url}/tournaments/new/")
    page.get_by_label("Club").select_option(str(club.pk))
    page.get_by_label("Name", exact=True).fill("Kirchweihturnier")
    page.get_by_label("Game and rule set").select_option(f"{game}:{preset}")
    page.get_by_label("Number of series (Kop: rounds)").fill("2")
    page.get_by_label("Deals per series at a table of four").fill(str(LENGTH))
    page.get_by_label("Later series drawn").select_option("standings")
    page.get_by_label("Entry fee").fill(units(FEE))
    page.get_by_label("Lost-game money per series").fill(TIERS_TYPED)
    page.get_by_label("Prizes as").select_option("shares")
    page.get_by_label("Prizes, first place first").fill(SHARES_TYPED)
    page.get_by_label("Organiser's retention as").select_option("share")
    page.get_by_label("Organiser's retention", exact=True).fill(str(RETENTION // 10))
    page.get_by_role("button", name="Set up the tournament").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Kirchweihturnier")
    tournament_url = page.url
    tour = Tournament.objects.get()

    # --- registration: the list pasted in one submission, previewed, confirmed ---
    page.get_by_role("link", name="Register players").click()
    page.get_by_label("Players, one a line").fill("".join(f"{name}; ; {members[name]}\n" for name in players))
    page.get_by_role("button", name="Preview the list").click()
    expect(page.locator("table.preview tbody tr")).to_have_count(len(players))
    assert not tour.entrants.exists(), "the preview stored players"
    page.get_by_role("button", name=f"Register {len(players)} players").click()
    expect(page.locator(".messages")).to_contain_text(f"{len(players)} players are registered from the list.")
    expect(page.locator("ol.entrants li")).to_have_count(len(players))
    page.goto(tournament_url)

    # --- series 1: drawn at random, three tables ---
    page.get_by_label("Seed (empty: a new one at random)").fill("Kirchweih 1")
    page.get_by_role("button", name="Draw series 1").click()
    expect(page.locator(".messages")).to_contain_text("Series 1 is drawn (seed Kirchweih 1).")
    expect(page.locator("li.table-item")).to_have_count(3)
    first = tables_of(tour, 1)
    seats = 3 if game == "skat" else 4
    assert [len(t.names) for t in first] == [seats] * 3
    for table in first:
        table.deals = [facts_of(game, table.card_table.number, 1, i) for i in range(LENGTH * seats // 4)]
    play_series(page, browser, game, preset, first, tournament_url)

    page.goto(tournament_url)
    expect(page.locator("li.table-item .ok")).to_have_count(3)
    page.get_by_role("button", name="Close series 1").click()
    expect(page.locator(".messages")).to_contain_text("Series 1 is closed.")

    # --- series 2: drawn by the standings after series 1 ---
    page.get_by_label("Seed (empty: a new one at random)").fill("Kirchweih 2")
    page.get_by_role("button", name="Draw series 2").click()
    expect(page.locator(".messages")).to_contain_text("Series 2 is drawn (seed Kirchweih 2).")
    expect(page.locator("section[aria-labelledby='series-2'] p.note").first).to_contain_text(
        "Drawn by the standings")
    after_one = [name for _p, name in ranked(game, expected(game, preset, first), numbers)]
    assert Series.objects.get(tournament=tour, number=2).draw["order"] == [numbers[n] for n in after_one]

    # --- a deal of the closed series 1 corrected: the history names the account, the draw is outdated ---
    table, index, points = flip(game, preset, first)
    correct(page, live_server, table, index + 1, points)
    table.deals[index] = {**table.deals[index], "card_points": points}
    page.goto(tournament_url)
    expect(page.locator("ol.history-list li").first).to_contain_text(
        f"host: series 1, table {table.card_table.number}: deal {index + 1} changed after closing")
    notice = page.locator(".outdated-draw")
    expect(notice).to_contain_text("Series 2 was drawn by the standings after series 1, and a correction has "
                                   "changed those standings since")
    notice.get_by_label("Yes, draw it again").check()
    notice.get_by_role("button", name="Draw series 2 again").click()
    expect(page.locator(".messages")).to_contain_text("Series 2 is drawn")
    expect(page.locator(".outdated-draw")).to_have_count(0)
    after_one = [name for _p, name in ranked(game, expected(game, preset, first), numbers)]
    assert Series.objects.get(tournament=tour, number=2).draw["order"] == [numbers[n] for n in after_one]

    second = tables_of(tour, 2)
    for table in second:
        table.deals = [facts_of(game, table.card_table.number, 2, i) for i in range(LENGTH * seats // 4)]
    play_series(page, browser, game, preset, second, tournament_url)
    page.goto(tournament_url)
    expect(page.locator("li.table-item .ok")).to_have_count(6)
    page.get_by_role("button", name="Close series 2").click()
    expect(page.locator(".messages")).to_contain_text("Series 2 is closed.")

    # --- the standings: every figure and rank as the engine gives them ---
    everything = first + second
    final = expected(game, preset, everything)
    places = ranked(game, final, numbers)
    page.goto(f"{tournament_url}standings/")
    rows = standings_rows(page, 2)
    assert [(r["place"], r["number"]) for r in rows] == [(place, numbers[name]) for place, name in places]
    for row, (_place, name) in zip(rows, places, strict=True):
        assert (row["name"], row["member"]) == (name, members[name]), row
        assert row["figures"] == shown(game, final[name]), (name, row)
        assert row["series"] == [final[name].series[1], final[name].series[2]], (name, row)

    # --- the money: fees, lost-game money, retention, pot and prizes ---
    page.goto(f"{tournament_url}money/")
    # The money page's settings are the new-tournament form's, in the same words (one way in).
    expect(page.get_by_label("Lost-game money per series")).to_have_value(TIERS_TYPED)
    expect(page.get_by_label("Prizes, first place first")).to_have_value(SHARES_TYPED)
    expect(page.locator("table.money-sheet tr.check")).to_contain_text("✓")
    fees = FEE * len(players)
    lost_money = sum(lost_game_money(n) for f in final.values() for n in f.lost_in.values())
    retention = (fees + lost_money) * RETENTION // 1000
    pot = fees + lost_money - retention
    sheet = {row.locator("th").inner_text().lstrip("+−= ").strip(): row.locator("td").last.inner_text()
             for row in page.locator("table.money-sheet tr").all() if row.locator("th").count()}
    assert cents(sheet["Entry fees"]) == fees
    assert cents(sheet["Lost-game money"]) == lost_money
    assert cents(sheet["Organiser's retention"]) == retention
    assert cents(sheet["Pot"]) == pot
    amounts = [pot * share // 1000 for share in SHARES]
    prizes = []
    for place in sorted({p for p, _name in places if p <= len(SHARES)}):
        winners = [name for p, name in places if p == place]
        each = sum(amounts[place - 1:place - 1 + len(winners)]) // len(winners)
        prizes.append((winners, each))
    prize_rows = page.locator("section[aria-labelledby='prizes-title'] tbody tr")
    expect(prize_rows).to_have_count(len(prizes))
    for n, (winners, each) in enumerate(prizes):
        for name in winners:
            expect(prize_rows.nth(n)).to_contain_text(name)
        assert cents(prize_rows.nth(n).locator("td").last.inner_text()) == each * len(winners)
    assert cents(sheet["Prizes paid"]) == sum(each * len(w) for w, each in prizes)
    assert cents(sheet["Prizes paid"]) + cents(sheet["Left in the pot"]) == pot

    # --- the exports: the CSV files hold the pages' figures, the member numbers, the prizes ---
    page.goto(f"{tournament_url}standings/")
    expect(page.locator(".standings-stage")).to_have_text("· after series 2 (final)")
    after_two = csv_lines(download_csv(page, "standings after series 2"))
    assert [(r["place"], r["number"], r["name"], r["series"], r["figures"]) for r in after_two] == \
        [(r["place"], r["number"], r["name"], r["series"], r["figures"]) for r in rows]
    assert [r["member"] for r in after_two] == [members[r["name"]] for r in after_two]
    first_csv = csv_lines(download_csv(page, "standings after series 1"))
    then = expected(game, preset, everything, upto=1)
    assert [(r["place"], r["name"]) for r in first_csv] == ranked(game, then, numbers)
    assert [r["figures"] for r in first_csv] == [shown(game, then[r["name"]]) for r in first_csv]
    ranking = csv_lines(download_csv(page, "final ranking"))
    assert [(r["place"], r["number"], r["figures"]) for r in ranking] == \
        [(r["place"], r["number"], r["figures"]) for r in rows]
    paid = {name: each for winners, each in prizes for name in winners}
    assert [r["prize"] for r in ranking] == [paid.get(r["name"]) for r in ranking]
    # The results page, by its link for the club's website, read on a phone not logged in: the final ranking.
    results = page.get_by_role("link", name="Results page (link for the club's website)").get_attribute("href") or ""
    reader = phone(browser)
    reader.goto(results if results.startswith("http") else live_server.url + results)
    expect(reader.locator(".results-ranking h2")).to_contain_text("after series 2 (final)")
    expect(reader.locator(".results-ranking tbody th.name")).to_have_text([name for _p, name in places])
    reader.context.close()
    print(f"{game}: {time.monotonic() - started:.1f} s")


def test_the_new_tournament_form_asks_a_tariff_only_of_a_game_played_for_money(page: Page, live_server: Any) -> None:
    """A Skat tournament's form showed eight Schafkopf price fields; now they show while a Schafkopf rule set
    is chosen, and a price typed there, then Skat chosen, is not sent (it was refused: Skat has no tariff)."""
    host = get_user_model().objects.get(username="host")
    clubs.start_club(host, "Skatclub Herz Dame")
    page.goto(f"{live_server.url}/tournaments/new/")
    page.locator("html.js").wait_for(state="attached")
    solo = page.get_by_label(re.compile(r"^Price of a solo"))
    expect(page.get_by_label("Game and rule set")).to_have_value(re.compile(r"^skat:"))
    expect(solo).to_be_hidden()
    page.get_by_label("Game and rule set").select_option("schafkopf:bsv")
    expect(solo).to_be_visible()
    solo.fill("0.50")
    page.get_by_label("Game and rule set").select_option("skat:isko")
    expect(solo).to_be_hidden()
    page.get_by_label("Name").fill("Herbstpreisskat")
    page.get_by_role("button", name="Set up the tournament").click()
    expect(page).to_have_url(re.compile(r"/tournaments/\d+/$"))
    assert Tournament.objects.get().game == "skat"
