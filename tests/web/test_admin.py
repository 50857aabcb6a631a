"""The site owner's admin: every list and page opens; what the ledger depends on cannot be changed there."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeep.clubs import clubs
from scorekeep.models import CardNight, Deal, Player
from scorekeep.nights import writes as nights

GRAND = {"contract": "grand", "declarer": 0, "bid": 18, "matadors": 1, "card_points": 70}


@pytest.fixture
def owner(client: Client, db: None) -> Client:
    client.force_login(User.objects.create_superuser("owner", "owner@example.org", "pw"))
    return client


@pytest.fixture
def night(db: None) -> CardNight:
    night = nights.start_night(game="skat", preset="classic", players=["Anna", "Bernd", "Clara"], place="Club")
    nights.enter_deal(night.tables.get(), GRAND)
    return night


@pytest.mark.parametrize("model", ["player", "cardnight", "cardtable", "deal", "dealrevision", "nightrevision"])
def test_every_list_and_page_opens(owner: Client, night: CardNight, model: str) -> None:
    assert owner.get(f"/admin/scorekeep/{model}/").status_code == 200
    first = {"player": Player, "cardnight": CardNight, "deal": Deal}.get(model)
    if first is not None:
        assert owner.get(f"/admin/scorekeep/{model}/{first.objects.first().pk}/change/").status_code == 200


def test_the_rule_set_cannot_be_changed_behind_the_ledgers_back(owner: Client, night: CardNight) -> None:
    data: dict[str, Any] = {"date": "2026-11-22", "place": "Elsewhere", "currency": "EUR", "preset": "isko",
                            "house_rules": '{"kontra": false}',
                            "tables-TOTAL_FORMS": "1", "tables-INITIAL_FORMS": "1", "tables-MIN_NUM_FORMS": "0",
                            "tables-MAX_NUM_FORMS": "1000", "tables-0-id": str(night.tables.get().pk),
                            "tables-0-night": str(night.pk)}
    response = owner.post(f"/admin/scorekeep/cardnight/{night.pk}/change/", data)
    assert response.status_code == 302
    night.refresh_from_db()
    assert night.place == "Elsewhere"  # what no verdict depends on may be changed
    assert (night.preset, night.house_rules) == ("classic", {})
    assert owner.post(f"/admin/scorekeep/deal/{Deal.objects.get().pk}/change/", {}).status_code == 403


def test_a_name_differing_only_in_case_is_the_same_player_also_beyond_ascii(db: None) -> None:
    club = clubs.home_club(None)
    first = nights.player_named(club, "Jürgen")
    assert nights.player_named(club, "JÜRGEN") == first and nights.player_named(club, " jürgen ") == first
    assert Player.objects.count() == 1
