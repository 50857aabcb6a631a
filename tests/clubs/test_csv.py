"""/nights/<id>/ledger.csv: a night's ledger for spreadsheets.

Read back with the `csv` module, the file gives the ledger's own entries and totals; it opens in
Excel with umlauts and Japanese intact (UTF-8 with a byte-order mark); a name that a spreadsheet
would run as a formula is written as text, while negative amounts stay numbers.
"""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from scorekeep.clubs import stats_views
from scorekeep.models import CardNight, Club
from scorekeep.nights import ledger
from scorekeep.nights import writes as nights
from scorekeep.words import cells

PLAYERS = ["Anna", "Bernd", "Clara", "Dieter"]
GRAND = {"contract": "grand", "declarer": 0, "bid": 48, "matadors": 2, "card_points": 70}  # +72 to seat 0
LOST_CLUBS = {"contract": "clubs", "declarer": 1, "bid": 24, "matadors": 1, "card_points": 50}  # −48 to seat 1
FIXED = ["Table", "Deal", "Dealer", "Declarer", "Contract", "Result", "Value", "Bock"]
RECORD = ["Changed", "Changes to the list"]  # the last columns (issue 33): each change's sign and footnote
# What each game's deals declared, after the players' columns (the engine's DECLARED).
DECLARED = {
    "skat": ["Hand", "Schneider", "Schneider announced", "Schwarz", "Schwarz announced", "Ouvert", "Kontra", "Re",
             "Overbid"],
    "schafkopf": ["Stoß", "Klopfer", "Laufende", "Schneider", "Schwarz", "Tout"],
    "kop": ["Doublings"],
    "fipsen": ["Bid", "Hand", "Ruten", "Durch", "Surrendered"],
}


@pytest.fixture
def host(db: None) -> User:
    """A host who is not the site owner (overrides conftest's ``host``)."""
    return User.objects.create_user("club-host", password="secret-password-1")


@pytest.fixture
def host_client(host: User) -> Client:
    client = Client()
    client.force_login(host)
    return client


def download(client: Client, night: CardNight) -> tuple[list[str], list[dict[str, str]], Any]:
    """The header and the rows (as dicts) of the night's CSV, and the response."""
    response = client.get(f"/nights/{night.pk}/ledger.csv")
    assert response.status_code == 200
    body = response.content
    assert body.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline="")))
    header = rows[0]
    assert len(set(header)) == len(header)
    return header, [dict(zip(header, row, strict=True)) for row in rows[1:]], response


def amount(cell: str, night: CardNight) -> int:
    """A CSV amount back in the ledger's unit (Schafkopf: cents)."""
    return int(Decimal(cell) * 100) if night.game == "schafkopf" else int(cell)


@pytest.mark.django_db
def test_every_demo_night_round_trips_to_the_ledger(host_client: Client, host: User) -> None:
    call_command("loaddemo", stdout=io.StringIO())
    CardNight.objects.update(host=host)
    Club.objects.filter(nights__isnull=False).update(owner=host)  # the demo club: the host runs it
    for night in CardNight.objects.all():
        table = night.tables.get()
        book = ledger.build(table)
        header, rows, _response = download(host_client, night)
        unit = " (EUR)" if night.game == "schafkopf" else ""
        assert header == [name + unit if name == "Value" else name for name in FIXED] + [
            column for name in book.names for column in (name + unit, f"{name}: total{unit}")
        ] + DECLARED[night.game] + RECORD
        assert len(rows) == len(book.rows)
        for row, line in zip(book.rows, rows, strict=True):
            assert (line["Table"], line["Deal"], line["Dealer"]) == ("1", str(row.number), book.names[row.dealer])
            # A Ramsch (nobody declared) names who lost it: the one who paid (or the one who took every trick)
            named = row.declarers or [p for p, entry in enumerate(row.entries) if entry is not None and entry < 0]
            if not row.declarers and len(named) > len(row.entries) - len(named):
                named = [p for p, entry in enumerate(row.entries) if entry is not None and entry > 0]
            assert line["Declarer"] == " + ".join(book.names[p] for p in named)
            won = row.verdict.won if row.declarers or not named else (named != [p for p, e in enumerate(
                row.entries) if e is not None and e < 0])
            assert line["Result"] == {True: "won", False: "lost", None: ""}[won]
            if row.deal.contract == "ramsch" and any(row.entries):
                assert line["Result"] in ("lost", "won") and line["Declarer"]
            assert line["Bock"] == ("Bock" if row.deal.bock else "")
            for position, name in enumerate(book.names):
                entry = row.entries[position]
                if entry is None:  # sat the deal out
                    assert line[name + unit] == ""
                else:
                    assert amount(line[name + unit], night) == entry
                assert amount(line[f"{name}: total{unit}"], night) == row.totals[position]
        last = rows[-1]
        assert [amount(last[f"{name}: total{unit}"], night) for name in book.names] == book.totals


@pytest.mark.django_db
def test_skat_rows_say_what_was_declared(host_client: Client, host: User) -> None:
    """A Kontra game reads "Diamonds, won, 18" beside +36: the declaration columns say why; an overbid game and a
    Null Ouvert Hand say theirs."""
    night = nights.start_night(game="skat", preset="classic", players=PLAYERS[:3], host=host)
    table = night.tables.get()
    nights.enter_deal(table, {"contract": "diamonds", "declarer": 0, "bid": 18, "matadors": 1, "card_points": 70,
                              "kontra": True})
    nights.enter_deal(table, {"contract": "clubs", "declarer": 1, "bid": 24, "matadors": -1, "hand": True,
                              "announced": "schneider", "card_points": 95})
    nights.enter_deal(table, {"contract": "spades", "declarer": 2, "bid": 36, "matadors": 1, "card_points": 70})
    nights.enter_deal(table, {"contract": "null", "declarer": 0, "bid": 59, "hand": True, "ouvert": True,
                              "declarer_tricks": 0})
    header, rows, _response = download(host_client, night)
    assert header[-len(DECLARED["skat"]) - len(RECORD):-len(RECORD)] == DECLARED["skat"]
    said = [{column: row[column] for column in DECLARED["skat"] if row[column] == "1"} for row in rows]
    assert (rows[0]["Value"], rows[0]["Anna"]) == ("18", "36")
    assert [sorted(row) for row in said] == [["Kontra"], ["Hand", "Schneider", "Schneider announced"], ["Overbid"],
                                             ["Hand", "Ouvert"]]
    assert all(row[column] in ("0", "1") for row in rows for column in DECLARED["skat"])


@pytest.mark.django_db
def test_schafkopf_rows_count_stoss_klopfer_and_laufende(host_client: Client, host: User) -> None:
    night = nights.start_night(game="schafkopf", preset="sauspiel", players=PLAYERS, host=host,
                               house_rules={"klopfen": True})
    nights.enter_deal(night.tables.get(), {"contract": "solo_tout", "declarer": 1, "trump": "H", "card_points": 120,
                                           "declarer_tricks": 8, "laufende": 4, "doublings": 2, "klopfer": 1})
    _header, rows, _response = download(host_client, night)
    assert {column: rows[0][column] for column in DECLARED["schafkopf"]} == {
        "Stoß": "2", "Klopfer": "1", "Laufende": "4", "Schneider": "0", "Schwarz": "0", "Tout": "1"}


@pytest.mark.django_db
def test_schafkopf_money_in_currency_units_negative_numbers_stay_numbers(host_client: Client, host: User) -> None:
    night = nights.start_night(game="schafkopf", preset="sauspiel", players=PLAYERS, host=host, currency="CHF")
    nights.enter_deal(night.tables.get(), {"contract": "sauspiel", "declarer": 0, "partner": 2, "called_ace": "S",
                                           "card_points": 40})
    header, rows, _response = download(host_client, night)
    assert "Value (CHF)" in header and "Anna: total (CHF)" in header
    book = ledger.build(night.tables.get())
    assert book.totals[0] < 0
    cents = -book.totals[0]
    assert rows[0]["Anna (CHF)"] == f"-{cents // 100}.{cents % 100:02d}"  # no ' in front: still a number
    assert sum(amount(rows[0][f"{name} (CHF)"], night) for name in PLAYERS) == 0


@pytest.mark.django_db
def test_the_csv_for_excel_with_decimal_commas_has_semicolons_and_the_same_cells(host_client: Client,
                                                                                 host: User) -> None:
    """A German Excel opens a comma-separated file with decimal points as one column; `?decimal=comma` is the
    same table with semicolons between the cells and a decimal comma in every number. The night page links
    it."""
    night = nights.start_night(game="schafkopf", preset="sauspiel", players=PLAYERS, host=host)
    nights.enter_deal(night.tables.get(), {"contract": "sauspiel", "declarer": 0, "partner": 2, "called_ace": "S",
                                           "card_points": 40}, by="Jörg; der Schreiber")
    _header, rows, _response = download(host_client, night)
    answer = host_client.get(f"/nights/{night.pk}/ledger.csv?decimal=comma")
    assert answer.content.startswith(b"\xef\xbb\xbf")
    lines = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"), newline=""), delimiter=";"))
    plain = list(csv.reader(io.StringIO(_response.content.decode("utf-8-sig"), newline="")))
    assert len(lines) == len(plain) and [len(line) for line in lines] == [len(line) for line in plain]
    for comma_line, point_line in zip(lines, plain, strict=True):
        assert comma_line == [cell.replace(".", ",") if re.fullmatch(r"-?\d+\.\d+", cell) else cell
                              for cell in point_line]
    assert rows[0]["Anna (EUR)"].startswith("-0.") and any(cell.startswith("-0,") for cell in lines[1])
    assert "?decimal=comma" in host_client.get(f"/nights/{night.pk}/").content.decode()


@pytest.mark.django_db
def test_a_deleted_deal_is_a_gap_under_its_number_and_later_numbers_stay(host_client: Client, host: User) -> None:
    """Issue 33: deal 2 deleted stays a row of its own, marked, with its deletion in words; deal 3 keeps its 3."""
    night = nights.start_night(game="skat", preset="classic", players=PLAYERS[:3], host=host)
    table = night.tables.get()
    for facts in (GRAND, LOST_CLUBS, GRAND):
        nights.enter_deal(table, facts)
    nights.delete_deal(table.deals.get(sequence=2), by="Eva", reason="entered at the wrong table")
    _header, rows, _response = download(host_client, night)
    assert [(r["Deal"], r["Contract"], r["Result"]) for r in rows] == [
        ("1", "Grand", "won"), ("2", "", "deleted"), ("3", "Grand", "won")]
    assert rows[1]["Bernd: total"] == "" and rows[1]["Changed"] == "deleted"
    assert rows[1]["Changes to the list"].startswith("Deal 2 deleted by Eva at ")
    assert "entered at the wrong table" in rows[1]["Changes to the list"]
    assert rows[-1]["Bernd: total"] == "0" and rows[-1]["Anna: total"] == "144" and rows[-1]["Changed"] == ""


@pytest.mark.django_db
def test_lost_game_negative_entry_is_a_number(host_client: Client, host: User) -> None:
    night = nights.start_night(game="skat", preset="classic", players=PLAYERS[:3], host=host)
    nights.enter_deal(night.tables.get(), LOST_CLUBS)
    _header, rows, _response = download(host_client, night)
    assert rows[0]["Bernd"] == "-48" and rows[0]["Bernd: total"] == "-48"
    assert rows[0]["Value"] == "24" and rows[0]["Result"] == "lost"


@pytest.mark.parametrize("name", ['=HYPERLINK("http://evil.example","x")', "+49 171", "-Bob", "@SUM(A1:A9)",
                                  "-1", "\uff1dHYPERLINK(\"http://evil.example\")"],
                         ids=["equals", "plus", "minus", "at", "a-number-as-name", "full-width-equals"])
@pytest.mark.django_db
def test_formula_injection_names_are_written_as_text(host_client: Client, host: User, name: str) -> None:
    night = nights.start_night(game="skat", preset="classic", players=[name, "Bernd", "Clara"], host=host)
    nights.enter_deal(night.tables.get(), LOST_CLUBS)  # Bernd −48: a negative number in the file
    body = host_client.get(f"/nights/{night.pk}/ledger.csv").content.decode("utf-8-sig")
    header, *rows = list(csv.reader(io.StringIO(body, newline="")))
    assert f"'{name}" in header and f"'{name}: total" in header
    assert rows[0][header.index("Dealer")] == f"'{name}"  # the first dealer
    assert rows[0][header.index("Bernd")] == "-48"
    text = {header.index(f"'{name}"), header.index(f"'{name}: total")}
    for row in [header, *rows]:
        for column, cell in enumerate(row):
            # Text that would start a formula starts with '; only the amounts may start with a minus.
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
            assert not cell.startswith("-") or (column not in text and cell[1:].isdigit()), cell


@pytest.mark.parametrize(("text", "written"), [
    ("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@A1", "'@A1"), ("\tx", "'\tx"), ("\rx", "'\rx"),
    ("Anna", "Anna"), ("a=b", "a=b"), ("", ""),
    # Full-width forms, which spreadsheets in Japanese read as = + - @ (issue 15).
    ("\uff1d1+1", "'\uff1d1+1"), ("\uff0b1", "'\uff0b1"), ("\uff0d1", "'\uff0d1"), ("\uff20A1", "'\uff20A1"),
    ("山田\uff1d", "山田\uff1d"),
])
def test_text_cells_that_would_start_a_formula_get_a_quote(text: str, written: str) -> None:
    assert cells.text_cell(text) == written


def test_numbers_are_written_as_numbers() -> None:
    skat, schafkopf = CardNight(game="skat"), CardNight(game="schafkopf", currency="EUR")
    assert [stats_views.number_cell(v, skat) for v in (-48, 0, 72, None)] == ["-48", "0", "72", ""]
    assert [stats_views.number_cell(v, schafkopf) for v in (-60, 5, 420, -1205)] == ["-0.60", "0.05", "4.20",
                                                                                      "-12.05"]


@pytest.mark.django_db
def test_utf8_with_bom_and_a_slugified_file_name(host_client: Client, host: User) -> None:
    night = nights.start_night(game="skat", preset="classic", players=["Jürgen", "山田", "Zoë"], host=host,
                               place="Café Ölmühle")
    nights.enter_deal(night.tables.get(), GRAND)
    header, rows, response = download(host_client, night)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="{night.date:%Y-%m-%d}-skat-cafe-olmuhle.csv"'
    assert "山田" in header and "Jürgen: total" in header and rows[0]["Declarer"] == "Jürgen"
    japanese = nights.start_night(game="skat", preset="classic", players=PLAYERS[:3], host=host, place="東京")
    assert host_client.get(f"/nights/{japanese.pk}/ledger.csv")["Content-Disposition"] == (
        f'attachment; filename="{japanese.date:%Y-%m-%d}-skat.csv"')


@pytest.mark.django_db
def test_two_tables_each_player_has_columns_blank_where_not_seated(host_client: Client, host: User) -> None:
    night = nights.start_night(game="skat", preset="classic", players=PLAYERS[:3], host=host)
    second = nights.seat_table(night, ["Dieter", "Eva", "Anna"])
    nights.enter_deal(night.tables.get(number=1), GRAND)
    nights.enter_deal(second, LOST_CLUBS)
    header, rows, _response = download(host_client, night)
    assert header[len(FIXED):-len(DECLARED["skat"]) - len(RECORD)] == [
        "Anna", "Anna: total", "Bernd", "Bernd: total", "Clara", "Clara: total", "Dieter", "Dieter: total", "Eva",
        "Eva: total"]
    first, other = rows
    assert (first["Table"], first["Anna"], first["Dieter"], first["Dieter: total"]) == ("1", "72", "", "")
    assert (other["Table"], other["Eva"], other["Bernd"], other["Anna: total"]) == ("2", "-48", "", "0")


@pytest.mark.django_db
def test_who_may_download(host: User) -> None:
    night = nights.start_night(game="skat", preset="classic", players=PLAYERS[:3], host=host)
    nights.enter_deal(night.tables.get(), GRAND)
    url = f"/nights/{night.pk}/ledger.csv"
    assert Client().get(url).status_code == 404  # a stranger learns nothing, not even that it exists
    other = Client()
    other.force_login(User.objects.create_user("other", password="secret-password-2"))
    assert other.get(url).status_code == 404
    viewer = Client()
    viewer.get(f"/join/{night.viewer_token}/")
    assert viewer.get(url).status_code == 200
    assert Client().get("/nights/999999/ledger.csv").status_code == 404


@pytest.mark.django_db
def test_queries_do_not_grow_with_the_deals(host_client: Client, host: User,
                                            django_assert_max_num_queries: Any) -> None:
    night = nights.start_night(game="skat", preset="classic", players=PLAYERS, host=host)
    table = night.tables.get()
    for _ in range(30):
        nights.enter_deal(table, GRAND)
    # The record (issue 33) adds three: the numbers given and deleted, the history's changes, the deleted deals.
    with django_assert_max_num_queries(11):
        _header, rows, _response = download(host_client, night)
    assert len(rows) == 30
