"""The printed lists (`scorekeep.printing.views`): each demo night's printout holds the numbers its
deals give — computed here from the stored verdicts, not from the page's own arithmetic — and the
list's marks, header, escaping and access rules."""

from __future__ import annotations

import datetime
import re
import time
from collections import defaultdict
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scorekeep.clubs import clubs
from scorekeep.models import CardNight
from scorekeep.nights import ledger
from scorekeep.nights import writes as nights
from scorekeep.nights.forms import house_rules_in_words
from scorekeep.printing import pdf
from scorekeep.printing.views import pdf_filename

pytestmark = pytest.mark.django_db

MINUS = "\u2212"


# --- reading the page ------------------------------------------------------------------------------

class Cell:
    def __init__(self, tag: str, classes: set[str], text: str = "") -> None:
        self.tag, self.classes, self.text = tag, classes, text

    def __repr__(self) -> str:
        return f"<{self.tag} {sorted(self.classes)} {self.text!r}>"


class Rows(HTMLParser):
    """The page's table rows marked `data-deal`, `data-line` or `data-placing`, cell by cell."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[tuple[str, str], tuple[set[str], list[Cell]]] = {}
        self.current: list[Cell] | None = None
        self.cell: Cell | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "tr":
            key = next(((name, attributes[name] or "") for name in ("data-deal", "data-line", "data-placing")
                        if name in attributes), None)
            self.current = None
            if key is not None:
                self.current = []
                self.rows[key] = (set((attributes.get("class") or "").split()), self.current)
        elif tag in ("td", "th") and self.current is not None:
            self.cell = Cell(tag, set((attributes.get("class") or "").split()))
            self.current.append(self.cell)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            self.cell.text = " ".join(self.cell.text.split())
            self.cell = None
        elif tag == "tr":
            self.current = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.text += data


def rows_of(html: str) -> Rows:
    parser = Rows()
    parser.feed(html)
    return parser


def number(text: str) -> int:
    """A number as the list writes it: +48, −96, 0; money €1.20 as cents."""
    text = text.replace(MINUS, "-").replace("+", "").strip()
    if "€" in text:
        sign = -1 if text.startswith("-") else 1
        euros, cents = text.lstrip("-").replace("€", "").split(".")
        return sign * (int(euros) * 100 + int(cents))
    return int(text)


def cells(row: list[Cell], cls: str) -> list[Cell]:
    return [cell for cell in row if cls in cell.classes]


# --- fixtures ----------------------------------------------------------------------------------------

@pytest.fixture
def host() -> Any:
    return get_user_model().objects.create_user("host")


def printout(client: Client, night: CardNight) -> str:
    response = client.get(reverse("night-print", args=[night.pk]))
    assert response.status_code == 200
    return response.content.decode()


def book(night: CardNight) -> ledger.Ledger:
    return ledger.build(night.tables.get())


# --- Skat -------------------------------------------------------------------------------------------

LEVELS = ("hand", "schneider", "schneider announced", "schwarz", "schwarz announced", "ouvert")


@pytest.mark.django_db
def test_an_all_passed_deal_says_so_once(client: Client, host: Any) -> None:
    """ISkO redeals when all pass: the row's game says "All passed" — the mark "passed" beside it said it again
    ("Eingepasst eingepasst" on a German list). A Ramsch (classic) keeps its mark: its game says "Ramsch"."""
    night = nights.start_night(game="skat", preset="isko", players=["Anna", "Bernd", "Clara"],
                               club=clubs.home_club(host))
    nights.enter_deal(night.tables.get(), {"contract": "passed"})
    classes, row = rows_of(printout(client, night)).rows[("data-deal", "1")]
    assert "passed" in classes and cells(row, "game")[0].text == "All passed"


def test_skat_rows_hold_base_matadors_levels_value_and_running_totals(client: Client, demo: dict) -> None:
    night = demo["skat"]
    rows = rows_of(printout(client, night)).rows
    deals = list(night.tables.get().deals.filter(deleted=False).order_by("sequence"))
    assert len(deals) == 36
    totals = [0] * 4
    for number_, deal in enumerate(deals, start=1):
        classes, row = rows[("data-deal", str(number_))]
        verdict, facts = deal.verdict, deal.facts
        assert cells(row, "base")[0].text == str(verdict.get("base") or "")
        assert [bool(c.text) for c in cells(row, "tick")] == [
            level in verdict.get("levels", ()) or (facts.get("contract") == "null" and bool(facts.get(level)))
            for level in LEVELS]
        assert cells(row, "value")[0].text == str(verdict["value"])
        declarer = deal.seating[facts["declarer"]] if "declarer" in facts else None
        won, lost = cells(row, "won")[0].text, cells(row, "lost")[0].text
        if verdict["won"] is True:
            assert number(won) == verdict["scores"][facts["declarer"]] > 0 and lost == ""
        elif verdict["won"] is False:
            assert number(lost) == verdict["scores"][facts["declarer"]] < 0 and won == ""
        else:
            assert won == lost == ""
        for seat, position in enumerate(deal.seating):
            totals[position] += verdict["scores"][seat]
        players = cells(row, "player")
        for position in range(4):
            if position == deal.dealer:  # the sitting dealer's cell is blank in his deal
                assert "out" in players[position].classes and not re.search(r"\d", players[position].text)
            else:
                assert number(players[position].text) == totals[position]
        if declarer is not None:
            assert row[1].text == ["Anna", "Bernd", "Clara", "Dieter"][declarer]
        # The classic rule set plays Ramsch when all pass: those deals are marked as passed (an "All passed" row
        # says so in its game column, without the mark again).
        assert ("passed" in classes) == (facts["contract"] in ("ramsch", "passed"))
        assert ("passed" in cells(row, "game")[0].text) == (facts["contract"] in ("ramsch", "passed"))
        if facts["contract"] == "passed":  # "All passed", not "All passed passed" ("Eingepasst eingepasst")
            assert cells(row, "game")[0].text.count("passed") == 1
    passed = sum(deal.facts["contract"] in ("ramsch", "passed") for deal in deals)
    assert sum("passed" in classes for classes, _row in rows.values()) == passed > 0


def test_skat_footer_adds_up_to_the_verdicts_seeger_fabian_points(client: Client, demo: dict) -> None:
    night = demo["skat"]
    rows = rows_of(printout(client, night)).rows
    deals = list(night.tables.get().deals.filter(deleted=False))
    line = {key: [number(c.text) for c in cells(row, "player")] for (kind, key), (_c, row) in rows.items()
            if kind == "data-line"}
    won, lost, others = [0] * 4, [0] * 4, [0] * 4
    list_points, sf = [0] * 4, [0] * 4
    for deal in deals:
        verdict = deal.verdict
        for seat, position in enumerate(deal.seating):
            list_points[position] += verdict["scores"][seat]
            sf[position] += verdict["seeger_fabian"][seat]
        if verdict["won"] is None:
            continue
        declarer = deal.seating[deal.facts["declarer"]]
        (won if verdict["won"] else lost)[declarer] += 1
        if not verdict["won"]:
            for position in deal.seating:
                others[position] += position != declarer
    assert line["list_points"] == list_points
    assert line["won"] == won and line["lost"] == lost and line["others_lost"] == others
    assert line["won_points"] == [50 * n for n in won]
    assert line["lost_points"] == [-50 * n for n in lost]
    assert line["others_lost_points"] == [30 * n for n in others]  # a 4-seat table
    # The footer's Seeger-Fabian lines are the sum of the engine's per-deal points, and the final
    # sum is the performance.
    assert [a + b + c for a, b, c in zip(line["won_points"], line["lost_points"], line["others_lost_points"],
                                         strict=True)] == sf
    assert line["final"] == [a + b for a, b in zip(list_points, sf, strict=True)] == book(night).performance
    assert "+30 per game lost by the others" in printout(client, night)


def test_skat_three_seat_footer_gives_forty_per_game_the_others_lost(client: Client, host: Any) -> None:
    night = nights.start_night(game="skat", preset="classic", players=["Anna", "Bernd", "Clara"], first_dealer=0,
                               house_rules={}, date=datetime.date(2026, 11, 21), place="Clubhaus")
    night.host = host
    night.club = clubs.home_club(host)  # the host runs the night's club
    night.save()
    table = night.tables.get()
    nights.enter_deal(table, {"contract": "grand", "declarer": 1, "bid": 18, "matadors": 1, "card_points": 40},
                      by="Anna")
    nights.enter_deal(table, {"contract": "clubs", "declarer": 2, "bid": 18, "matadors": 1, "card_points": 80},
                      by="Anna")
    client.force_login(host)
    rows = rows_of(printout(client, night)).rows
    line = {key: [number(c.text) for c in cells(row, "player")] for (kind, key), (_c, row) in rows.items()
            if kind == "data-line"}
    assert line["others_lost"] == [1, 0, 1]
    assert line["others_lost_points"] == [40, 0, 40]
    # Grand with 1 lost: −2 × 48; Clubs with 1 won: +24; −50 and +50 for the declarers, +40 to each opponent.
    assert line["final"] == book(night).performance == [40, -96 - 50, 24 + 50 + 40]
    # At three seats nobody sits out: every cell holds the running total.
    assert [c.text for c in cells(rows[("data-deal", "1")][1], "player")] == ["0", f"{MINUS}96", "0"]


def test_skat_overbid_game_shows_the_multiplier_charged_and_is_marked_overbid(client: Client, host: Any) -> None:
    """Spades with 1 is worth 22 (× 2); bid 36, it is overbid and charged at 44 = 11 × 4 (ISkO 4.4): the list's
    × column says the multiplier the value was charged at, taken from the stored verdict, and marks the overbid."""
    night = nights.start_night(game="skat", preset="classic", players=["Anna", "Bernd", "Clara"], first_dealer=0,
                               house_rules={}, date=datetime.date(2026, 11, 21), place="Clubhaus")
    night.host = host
    night.club = clubs.home_club(host)  # the host runs the night's club
    night.save()
    nights.enter_deal(night.tables.get(), {"contract": "spades", "declarer": 1, "bid": 36, "matadors": 1,
                                           "card_points": 70}, by="Anna")
    deal = night.tables.get().deals.get()
    assert deal.verdict["multiplier"] == 2 and deal.verdict["charged_multiplier"] == 4
    client.force_login(host)
    _classes, row = rows_of(printout(client, night)).rows[("data-deal", "1")]
    multiplier = cells(row, "multiplier")[0]
    assert multiplier.text.split()[0] == "4" and "overbid" in multiplier.classes
    assert cells(row, "value")[0].text == "44" and number(cells(row, "lost")[0].text) == -88
    assert "overbid" in cells(row, "game")[0].text


# --- Schafkopf --------------------------------------------------------------------------------------

def test_schafkopf_plus_and_minus_agree_per_game_and_in_total(client: Client, demo: dict) -> None:
    night = demo["schafkopf"]
    html = printout(client, night)
    rows = rows_of(html).rows
    deals = list(night.tables.get().deals.filter(deleted=False).order_by("sequence"))
    plus, minus = [0] * 4, [0] * 4
    for number_, deal in enumerate(deals, start=1):
        classes, row = rows[("data-deal", str(number_))]
        entries = [0] * 4
        for seat, position in enumerate(deal.seating):
            entries[position] = deal.verdict["scores"][seat]
        shown_plus = [number(c.text) if c.text else 0 for c in cells(row, "plus") if c.tag == "td"][:4]
        shown_minus = [number(c.text) if c.text else 0 for c in cells(row, "minus") if c.tag == "td"][:4]
        assert shown_plus == [max(e, 0) for e in entries]
        assert shown_minus == [max(-e, 0) for e in entries]
        row_plus, row_minus = number(cells(row, "plus-sum")[0].text), number(cells(row, "minus-sum")[0].text)
        assert row_plus == row_minus == sum(max(e, 0) for e in entries) > 0
        for p in range(4):
            plus[p] += max(entries[p], 0)
            minus[p] += max(-entries[p], 0)
        contract = deal.facts["contract"]
        solo_won = contract not in ("sauspiel", "hochzeit", "ramsch") and deal.verdict["won"] is True
        assert ("solo-won" in classes) == solo_won
    _c, sums = rows[("data-line", "sums")]
    assert [number(c.text) for c in cells(sums, "plus") if "sum" not in c.classes] == plus
    assert [number(c.text) for c in cells(sums, "minus") if "sum" not in c.classes] == minus
    assert number(cells(sums, "plus-sum")[0].text) == number(cells(sums, "minus-sum")[0].text) == sum(plus)
    _c, balance = rows[("data-line", "balance")]
    assert [number(c.text) for c in cells(balance, "player")] == [a - b for a, b in zip(plus, minus, strict=True)]
    assert [a - b for a, b in zip(plus, minus, strict=True)] == book(night).totals
    assert sum(1 for classes, _r in rows.values() if "solo-won" in classes) >= 2


def test_schafkopf_transfers_settle_every_balance(client: Client, demo: dict) -> None:
    night = demo["schafkopf"]
    html = printout(client, night)
    paid: dict[str, int] = defaultdict(int)
    lines = re.findall(r"<li>(\w+) pays (\w+) (€[\d.]+)</li>", html)
    assert lines
    for payer, payee, amount in lines:
        paid[payer] -= number(amount)
        paid[payee] += number(amount)
    totals = dict(zip(book(night).names, book(night).totals, strict=True))
    assert {name: paid[name] for name in totals} == totals
    assert len(lines) < len(totals)  # fewer transfers than players: nobody pays twice in a chain


# --- Kop ----------------------------------------------------------------------------------------------

def ranked(in_round: list[int], points: list[int]) -> list[Fraction]:
    """Placing points by the round's totals, tied players sharing the places they hold (RULES.md)."""
    padded = points + [0] * (len(in_round) - len(points))
    out = []
    for total in in_round:
        above = sum(other > total for other in in_round)
        tied = sum(other == total for other in in_round)
        out.append(Fraction(sum(padded[above:above + tied]), tied))
    return out


def test_kop_small_points_and_round_placings_by_the_preset(client: Client, demo: dict) -> None:
    night = demo["kop"]
    assert night.preset == "wolsztyn" and night.round_length == 5
    rows = rows_of(printout(client, night)).rows
    deals = list(night.tables.get().deals.filter(deleted=False).order_by("sequence"))
    totals, start = [0] * 5, [0] * 5
    placing_totals = [Fraction(0)] * 5
    for number_, deal in enumerate(deals, start=1):
        _c, row = rows[("data-deal", str(number_))]
        players = cells(row, "player")
        for seat, position in enumerate(deal.seating):
            totals[position] += deal.verdict["scores"][seat]
        for position in range(5):
            if position in deal.seating:
                entry, running = players[position].text.split()
                assert number(entry) == deal.verdict["scores"][deal.seating.index(position)]
                assert number(running) == totals[position]
            else:  # the fifth player sits the deal out
                assert "out" in players[position].classes
        if number_ % 5 == 0:
            expected = ranked([t - s for t, s in zip(totals, start, strict=True)], [4, 3, 2, 1])
            _c, placing = rows[("data-placing", str(number_ // 5))]
            assert [Fraction(parse_placing(c.text)) for c in cells(placing, "player")] == expected
            placing_totals = [a + b for a, b in zip(placing_totals, expected, strict=True)]
            start = list(totals)
    assert len([key for key in rows if key[0] == "data-placing"]) == 3
    _c, footer = rows[("data-line", "totals")]
    assert [number(c.text) for c in cells(footer, "player")] == totals
    _c, placing_line = rows[("data-line", "placing")]
    assert [parse_placing(c.text) for c in cells(placing_line, "player")] == placing_totals


def parse_placing(text: str) -> Fraction:
    vulgar = {"½": Fraction(1, 2), "⅓": Fraction(1, 3), "⅔": Fraction(2, 3), "¼": Fraction(1, 4), "¾": Fraction(3, 4)}
    whole = text.rstrip("".join(vulgar))
    return Fraction(int(whole or 0)) + sum((vulgar[ch] for ch in text[len(whole):]), Fraction(0))


# --- Fipsen -------------------------------------------------------------------------------------------

def test_fipsen_sheet_has_each_running_score_and_the_value_of_the_hand(client: Client, demo: dict) -> None:
    night = demo["fipsen"]
    rows = rows_of(printout(client, night)).rows
    deals = list(night.tables.get().deals.filter(deleted=False).order_by("sequence"))
    totals = [0] * 4
    for number_, deal in enumerate(deals, start=1):
        _c, row = rows[("data-deal", str(number_))]
        for seat, position in enumerate(deal.seating):
            totals[position] += deal.verdict["scores"][seat]
        tds = [c for c in row if c.tag == "td"]
        assert len(tds) == 5  # the five columns: four running scores and the value of the hand
        assert [number(c.text) for c in tds[:4]] == totals
        value = tds[4].text.split()[0] if deal.facts["contract"] != "passed" else ""
        if deal.facts["contract"] == "passed":
            assert "All passed" in tds[4].text
        else:
            declarer = deal.facts["declarer"]
            assert number(value) == deal.verdict["scores"][declarer] != 0
            assert "declarer-cell" in tds[deal.seating[declarer]].classes
    _c, footer = rows[("data-line", "totals")]
    assert [number(c.text) for c in footer if c.tag == "td" and c.text] == totals == book(night).totals


# --- every list ------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["skat", "schafkopf", "kop", "fipsen"])
def test_header_names_date_place_players_rule_set(client: Client, demo: dict, game: str) -> None:
    night = demo[game]
    html = printout(client, night)
    assert night.date.isoformat() in html
    assert night.place in html
    for name in book(night).names:
        assert name in html
    assert {"skat": "Classic club rules", "schafkopf": "Sauspiel tariff 10/20/50", "kop": "Wolsztyn tournament",
            "fipsen": "Classic"}[game] in html
    assert "none — the rule set as it is" in html
    # A printout: no site navigation, nothing inline a Content-Security-Policy would refuse.
    assert "site-header" not in html
    assert "onclick" not in html and 'style="' not in html and "<style" not in html
    assert re.findall(r"<script(?![^>]*\bsrc=)", html) == []
    assert 'data-print' in html and "print.js" in html
    assert reverse("night-pdf", args=[night.pk]) in html


def test_header_states_each_house_rule_in_words(client: Client, host: Any) -> None:
    night = nights.start_night(game="skat", preset="classic", players=["Anna", "Bernd", "Clara"], first_dealer=0,
                               house_rules={"kontra": False, "lost_hand_doubled": True},
                               date=datetime.date(2026, 11, 21), place="Clubhaus")
    night.host = host
    night.club = clubs.home_club(host)  # the host runs the night's club
    night.save()
    client.force_login(host)
    html = printout(client, night)
    words = house_rules_in_words(night)
    assert len(words) == 2
    for rule in words:
        assert f"{rule.label}: {rule.value}" in html


def test_names_and_place_are_escaped(client: Client, host: Any) -> None:
    script = "<script>alert(1)</script>"
    night = nights.start_night(game="skat", preset="classic", players=[script, "Bernd", "Clara"], first_dealer=0,
                               house_rules={}, date=datetime.date(2026, 11, 21), place="<script>x()</script>")
    night.host = host
    night.club = clubs.home_club(host)  # the host runs the night's club
    night.save()
    nights.enter_deal(night.tables.get(), {"contract": "grand", "declarer": 0, "bid": 18, "matadors": 1,
                                           "card_points": 80}, by=script)
    client.force_login(host)
    html = printout(client, night)
    assert "<script>alert" not in html and "<script>x()" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;script&gt;x()&lt;/script&gt;" in html


def test_a_night_without_deals_prints_an_empty_list(client: Client, host: Any) -> None:
    for game, players in (("skat", 4), ("schafkopf", 4), ("kop", 4), ("fipsen", 3)):
        night = nights.start_night(game=game, preset="classic", players=["Anna", "Bernd", "Clara", "Dieter"][:players],
                                   first_dealer=0, house_rules={}, date=datetime.date(2026, 11, 21), place="")
        night.host = host
        night.club = clubs.home_club(host)  # the host runs the night's club
        night.save()
        client.force_login(host)
        assert "No deals yet." in printout(client, night)


def test_strangers_get_404_and_viewers_may_print(client: Client, demo: dict) -> None:
    night = demo["skat"]
    stranger = Client()
    assert stranger.get(reverse("night-print", args=[night.pk])).status_code == 404
    assert stranger.get(reverse("night-pdf", args=[night.pk])).status_code == 404
    assert stranger.get(reverse("night-print", args=[999999])).status_code == 404
    viewer = Client()
    viewer.get(reverse("join", args=[night.viewer_token]))
    assert viewer.get(reverse("night-print", args=[night.pk])).status_code == 200


def test_pdf_filename_is_game_date_and_place_slugified() -> None:
    night = CardNight(game="skat", date=datetime.date(2026, 11, 21), place="Clubhaus Süd · <Tisch 2>")
    assert pdf_filename(night) == "skat-2026-11-21-clubhaus-sud-tisch-2.pdf"
    assert pdf_filename(CardNight(game="kop", date=datetime.date(2026, 1, 2), place="")) == "kop-2026-01-02.pdf"


@pytest.mark.parametrize("chromium", ["/nonexistent/chromium", "/bin/false"])
def test_pdf_without_a_working_chromium_says_so_with_503(client: Client, demo: dict, settings: Any,
                                                        chromium: str) -> None:
    if not Path(chromium).exists() and chromium != "/nonexistent/chromium":
        pytest.skip(f"{chromium} is not on this machine")
    settings.SCOREKEEP_CHROMIUM = chromium
    response = client.get(reverse("night-pdf", args=[demo["fipsen"].pk]))
    assert response.status_code == 503
    assert "PDF needs Chromium; install it with apt-get install chromium, or use Print → Save as PDF" in (
        response.content.decode())


def test_each_table_has_its_chart_of_the_night(client: Client, demo: dict) -> None:
    for night in demo.values():
        html = printout(client, night)
        assert html.count('<svg xmlns="http://www.w3.org/2000/svg" class="running-totals"') == 1
        assert "Running totals at table 1, deal by deal" in html


def test_a_chromium_that_hangs_is_ended_and_reported(tmp_path: Path, settings: Any) -> None:
    pidfile = tmp_path / "child.pid"
    hanging = tmp_path / "chromium"
    hanging.write_text(f"#!/bin/sh\nsleep 30 &\necho $! > {pidfile}\nwait\n")
    hanging.chmod(0o755)
    settings.SCOREKEEP_CHROMIUM = str(hanging)
    started = time.monotonic()
    with pytest.raises(pdf.PdfUnavailable, match="longer than 1 seconds"):
        pdf.render("<p>x</p>", timeout=1)
    assert time.monotonic() - started < 10  # not kept waiting for the child to end by itself
    # The browser's own children are ended with it (a zombie waiting for its reaper is ended too). SIGKILL
    # is sent to the whole session before render returns; on a busy machine the child may still be on its
    # way out for a moment (running, not yet dead), so its end is waited for — a child left alive fails.
    status = Path(f"/proc/{pidfile.read_text().strip()}/status")

    def ended() -> bool:
        try:
            return "State:\tZ" in status.read_text()
        except FileNotFoundError:
            return True

    deadline = time.monotonic() + 5
    while not ended() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert ended()


def test_queries_do_not_grow_with_the_deals(client: Client, demo: dict, django_assert_max_num_queries: Any) -> None:
    # The session, the user, the access check, then the night, its tables, players and deals; then the record
    # (issue 33): the numbers given and deleted at each table, the history's changes, the deleted deals.
    for night in demo.values():
        with django_assert_max_num_queries(10):
            printout(client, night)


# --- a PDF at a time, kept while the night is unchanged ------------------------------------------------

def test_pdfs_are_made_one_at_a_time_kept_by_key_and_refused_beyond_the_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from django.core.cache import cache

    cache.clear()
    started, release, running, most = threading.Event(), threading.Event(), [0], [0]
    lock = threading.Lock()

    def slow_render(html: str, **kw: Any) -> bytes:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        started.set()
        release.wait(10)
        with lock:
            running[0] -= 1
        return b"%PDF-1.4 " + html.encode()

    monkeypatch.setattr(pdf, "render", slow_render)
    answers: list[object] = []

    def ask(key: str) -> None:
        try:
            answers.append(pdf.rendered(key, lambda: key))
        except pdf.PdfBusy as busy:
            answers.append(busy)

    first = threading.Thread(target=ask, args=("night-1",))
    first.start()
    assert started.wait(10)
    waiting = [threading.Thread(target=ask, args=(key,)) for key in ("night-1", "night-2")]
    for thread in waiting:
        thread.start()
    time.sleep(0.2)  # both are in the queue behind the first render
    ask("night-3")  # one more than the queue holds: refused at once, nothing rendered
    assert isinstance(answers[-1], pdf.PdfBusy)
    release.set()
    for thread in (first, *waiting):
        thread.join(10)
    assert most[0] == 1  # never two Chromiums in one process
    assert sorted(a for a in answers if isinstance(a, bytes)) == [b"%PDF-1.4 night-1", b"%PDF-1.4 night-1",
                                                                  b"%PDF-1.4 night-2"]
    calls: list[str] = []
    monkeypatch.setattr(pdf, "render", lambda html, **kw: calls.append(html) or b"%PDF-1.4")
    assert pdf.rendered("night-1", lambda: "again") == b"%PDF-1.4 night-1" and calls == []  # kept
    cache.clear()


@pytest.mark.django_db
def test_a_pdf_asked_for_while_the_queue_is_full_is_answered_503_with_retry_after(
        client: Client, host: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    night = nights.start_night(game="skat", preset="classic", players=["Anna", "Bernd", "Clara"], host=host)

    def busy(key: str, page: Any, timeout: float = 0) -> bytes:
        raise pdf.PdfBusy("3 PDFs are being made or waited for")

    monkeypatch.setattr(pdf, "rendered", busy)
    response = client.get(reverse("night-pdf", args=[night.pk]))
    assert response.status_code == 503 and response["Retry-After"] == str(pdf.RETRY_AFTER)
