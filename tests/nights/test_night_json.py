"""/nights/<id>/ledger.json: the night's ledger for club websites and backups."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeep.models import CardNight
from scorekeep.nights import ledger
from scorekeep.nights import writes as nights
from scorekeep.rules import judge

PLAYERS = ["Anna", "Bernd", "Clara", "Dieter"]
SKAT_DEALS = [
    {"contract": "grand", "declarer": 0, "bid": 48, "matadors": 2, "card_points": 70},
    {"contract": "clubs", "declarer": 1, "bid": 24, "matadors": 1, "hand": True, "card_points": 50},
    {"contract": "ramsch", "points": [40, 50, 30, 0], "tricks": [4, 4, 2, 0]},
    {"contract": "null", "declarer": 2, "bid": 23, "declarer_tricks": 0},
]


def night_json(client: Client, night: CardNight) -> dict[str, Any]:
    response = client.get(f"/nights/{night.id}/ledger.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    return json.loads(response.content.decode("utf-8"))


@pytest.fixture
def skat_night() -> CardNight:
    night = nights.start_night(game="skat", preset="classic", players=["Jürgen", *PLAYERS[1:]], place="Café Ölmühle",
                               series_length=36, house_rules={"lost_hand_doubled": True})
    table = night.tables.get()
    for number, facts in enumerate(SKAT_DEALS):
        nights.enter_deal(table, facts, by=PLAYERS[number])
    return night


@pytest.mark.django_db
def test_the_night(client: Client, skat_night: CardNight) -> None:
    data = night_json(client, skat_night)
    assert data["night"] == {
        "id": skat_night.id, "date": skat_night.date.isoformat(), "place": "Café Ölmühle", "game": "skat",
        "preset": "classic", "house_rules": {"lost_hand_doubled": True}, "rules": data["night"]["rules"],
        "series_length": 36, "round_length": None, "currency": "EUR", "bock_events": [], "bock_length": None,
        "version": 6,  # seating the table (the night and the table), then four deals at it
    }
    rules = data["night"]["rules"]
    assert rules["preset"] == "classic" and rules["lost_hand_doubled"] is True and rules["kontra"] is True
    assert rules == data["tables"][0]["deals"][0]["verdict"]["rules"]  # every option, as the verdicts applied them


@pytest.mark.django_db
def test_utf8_and_pretty_printed(client: Client, skat_night: CardNight) -> None:
    body = client.get(f"/nights/{skat_night.id}/ledger.json").content
    assert "Café Ölmühle".encode() in body and b"J\\u00fcrgen" not in body
    assert body.startswith(b'{\n  "night": {\n    "id": ')


@pytest.mark.django_db
def test_each_deal(client: Client, skat_night: CardNight) -> None:
    table = data = night_json(client, skat_night)["tables"][0]
    names = ["Jürgen", *PLAYERS[1:]]
    assert (table["number"], table["seats"], table["players"]) == (1, 4, names)
    stored = list(skat_night.tables.get().deals.order_by("sequence"))
    for number, (deal, row) in enumerate(zip(stored, data["deals"], strict=True), start=1):
        assert row["number"] == number and row["sequence"] == deal.sequence
        assert row["dealer"] == names[deal.dealer]
        assert row["seats"] == [names[p] for p in deal.seating]
        # Four at a Skat table: the dealer sits the deal out (the engine's 4th seat).
        assert row["sitting_out"] == [names[deal.dealer]] and row["seats"][3] == row["dealer"]
        assert row["entries"][row["dealer"]] is None
        assert row["facts"] == deal.facts and row["verdict"] == deal.verdict and row["bock"] is False
        assert row["entries"] == {names[p]: None if p == deal.dealer else deal.verdict["scores"][seat]
                                  for seat, p in enumerate(deal.seating)}
        assert row["entered_by"] == PLAYERS[number - 1]
        assert row["entered_at"] == deal.entered_at.isoformat()


@pytest.mark.django_db
def test_totals_are_the_sums_of_the_verdicts(client: Client, skat_night: CardNight) -> None:
    table = night_json(client, skat_night)["tables"][0]
    running = dict.fromkeys(table["players"], 0)
    seeger_fabian = dict.fromkeys(table["players"], 0)
    for row in table["deals"]:
        for seat, name in enumerate(row["seats"]):
            running[name] += row["verdict"]["scores"][seat]
            seeger_fabian[name] += row["verdict"]["seeger_fabian"][seat]
        assert row["totals"] == running
    assert table["totals"] == running
    assert table["seeger_fabian"] == seeger_fabian
    assert table["performance"] == {name: running[name] + seeger_fabian[name] for name in running}
    assert "placing" not in table


@pytest.mark.django_db
def test_kop_placing_and_a_player_sitting_out(client: Client) -> None:
    night = nights.start_night(game="kop", preset="wolsztyn", players=[*PLAYERS, "Eva"], round_length=2)
    table = night.tables.get()
    for facts in ({"contract": "normal", "old": [0, 1], "card_points": 60, "old_tricks": 2},
                  {"contract": "normal", "old": [1, 3], "card_points": 40, "old_tricks": 1},
                  {"contract": "normal", "old": [0, 2], "card_points": 70, "old_tricks": 3}):
        nights.enter_deal(table, facts)
    whole = night_json(client, night)
    data = whole["tables"][0]
    assert whole["night"]["rules"] == data["deals"][0]["verdict"]["rules"]
    for row in data["deals"]:
        assert len(row["sitting_out"]) == 1 and row["entries"][row["sitting_out"][0]] is None
        assert sum(v for v in row["entries"].values() if v is not None) == 0
    book = ledger.build(table)
    assert data["placing"] == {name: float(p) if p.denominator > 1 else int(p)
                               for name, p in zip(book.names, book.placing_totals, strict=True)}
    assert "seeger_fabian" not in data


@pytest.mark.django_db
def test_query_count_does_not_grow_with_the_deals(client: Client, skat_night: CardNight) -> None:
    with CaptureQueriesContext(connection) as few:
        client.get(f"/nights/{skat_night.id}/ledger.json")
    table = skat_night.tables.get()
    for _ in range(6):
        for facts in SKAT_DEALS:
            nights.enter_deal(table, facts)
    nights.seat_table(skat_night, ["Eva", "Fritz", "Gerd"])
    with CaptureQueriesContext(connection) as many:
        data = night_json(client, skat_night)
    assert len(data["tables"][0]["deals"]) == 28
    assert len(many) == len(few)


@pytest.mark.django_db
def test_deleted_deals_are_left_out_and_numbers_stay(client: Client, skat_night: CardNight) -> None:
    """Issue 33: a deal's number is the one it was entered with; `counted` is its place among the deals that count."""
    nights.delete_deal(skat_night.tables.get().deals.get(sequence=2))
    deals = night_json(client, skat_night)["tables"][0]["deals"]
    assert [(d["number"], d["sequence"], d["counted"]) for d in deals] == [(1, 1, 1), (3, 3, 2), (4, 4, 3)]


@pytest.mark.django_db
def test_verdicts_in_the_json_are_the_engines(client: Client, skat_night: CardNight) -> None:
    table = skat_night.tables.get()
    deals = {d.sequence: d for d in table.deals.all()}
    for row in night_json(client, skat_night)["tables"][0]["deals"]:
        deal = deals[row["sequence"]]
        request = ledger.request(skat_night, deal.seating, deal.dealer, deal.facts, deal.bock)
        assert row["verdict"] == judge(request).to_json()
