"""Money, one way (issue 31): the new-tournament form and the money page take the same inputs with the same
names, hints and readers; the new-tournament form sets a money game's tariff; the overview shows the money."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeep.models import Club, Tournament
from scorekeep.tournaments.forms import MoneyFields, MoneyForm, TournamentForm
from tests.tournament_fixtures import tournament

MONEY = {"entry_fee": "10,50", "lost_game_money": "1: 0.50, 4: 1.00", "prize_kind": "amounts",
         "prize_places": "100, 50", "retention_kind": "share", "retention_value": "10"}


def new(host: User, **changes: Any) -> dict[str, Any]:
    club = Club.objects.create(name="Club", owner=host)
    return {"club": club.pk, "name": "Preisschafkopf", "date": "2026-11-28", "rules": "schafkopf:classic",
            "series_count": 2, "series_length": 32, "draw_mode": "random", "currency": "EUR", **MONEY, **changes}


@pytest.mark.django_db
def test_both_forms_take_the_money_with_the_same_names_labels_and_hints(host: User) -> None:
    made = TournamentForm(user=host)
    page = MoneyForm(tournament=tournament("skat", "isko", players=3, host=host))
    for name in MoneyFields.MONEY:
        mine, theirs = made.fields[name], page.fields[name]
        assert (type(mine), str(mine.label), str(mine.help_text)) == (type(theirs), str(theirs.label),
                                                                       str(theirs.help_text)), name


@pytest.mark.django_db
def test_a_new_tournament_keeps_the_money_as_the_money_page_reads_the_same_text(client: Client, host: User) -> None:
    answer = client.post("/tournaments/new/", new(host, **{"rule-price_partner": "0.20", "rule-price_solo": "0,50"}))
    assert answer.status_code == 303, answer.context["form"].errors
    made = Tournament.objects.get(name="Preisschafkopf")
    other = tournament("schafkopf", players=4, host=host)
    assert client.post(f"/tournaments/{other.pk}/money/", MONEY).status_code == 303
    other.refresh_from_db()
    assert (made.entry_fee, made.lost_game_money, made.prizes) == (other.entry_fee, other.lost_game_money,
                                                                   other.prizes)
    assert made.entry_fee == 1050 and made.prizes["retention"] == {"kind": "share", "value": 100}
    assert made.house_rules == {"price_partner": 20, "price_solo": 50}  # the tariff, in cents
    overview = client.get(f"/tournaments/{made.pk}/").content.decode()
    for shown in ("Entry fee", "€10.50", "from the 1. lost game €0.50 each; from the 4. lost game €1.00 each",
                  "1. €100.00, 2. €50.00", "10 %", "€0.20", "€0.50"):
        assert shown in overview, shown


@pytest.mark.django_db
def test_a_tariff_is_refused_at_its_input_where_the_game_is_not_played_for_money_or_out_of_range(
        client: Client, host: User) -> None:
    answer = client.post("/tournaments/new/", new(host, rules="skat:isko", **{"rule-price_partner": "0.20"}))
    assert answer.status_code == 200
    assert "Skat is not played for money" in answer.context["form"].errors["rule-price_partner"][0]
    answer = client.post("/tournaments/new/", new(host, **{"rule-price_solo": "0.005"}))
    assert "rule-price_solo" in answer.context["form"].errors
    answer = client.post("/tournaments/new/", new(host, **{"prize_places": "100, 200"}))
    assert answer.context["form"].errors["prize_places"] == ["a lower place never gets more than a higher one"]
    assert not Tournament.objects.exists()
