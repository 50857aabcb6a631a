"""A tournament's money (scorekeep.tournaments.money): tiers, fees, the pot, prizes with ties, and a payout
sheet that always adds up; the money page and its field-named errors."""

from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeep.models import Entrant, Tournament
from scorekeep.nights import writes as nights
from scorekeep.tournaments import money as tournament_money
from scorekeep.tournaments import standings
from scorekeep.tournaments.money import MoneyError, lost_game_money, parse_tiers
from scorekeep.tournaments.standings import Line
from tests.tournament_fixtures import draw, tournament

TIERS = [{"from": 1, "amount": 50}, {"from": 4, "amount": 100}]


@pytest.mark.parametrize(("lost", "money"), [(0, 0), (1, 50), (3, 150), (4, 250), (6, 450)])
def test_lost_games_cost_by_their_tier(lost: int, money: int) -> None:
    assert lost_game_money(lost, TIERS) == money


def test_tiers_are_typed_as_from_and_amount() -> None:
    assert parse_tiers("1: 0.50, 4: 1.00", 2, "EUR") == TIERS
    assert parse_tiers("1: 0,50; 4: 1", 2, "EUR") == TIERS
    assert parse_tiers("", 2, "EUR") == []
    assert parse_tiers("1: 100", 0, "JPY") == [{"from": 1, "amount": 100}]


@pytest.mark.parametrize("text", ["0.50", "1: 0.505", "2: 0.50", "1: 0.50, 1: 1.00", "1: x", "4: 1, 1: 0.5"])
def test_a_tier_list_that_is_not_one_is_refused_naming_the_field(text: str) -> None:
    with pytest.raises(MoneyError) as refused:
        parse_tiers(text, 2, "EUR")
    assert refused.value.field == "lost_game_money" and refused.value.message


def line(number: int, place: int) -> Line:
    return Line(number, f"P{number}", "", "", [], {"total": Fraction(0)}, place=place)


def test_players_tied_on_a_prize_place_share_the_prizes_of_the_places_they_occupy() -> None:
    prizes = tournament_money._prizes([line(1, 1), line(2, 2), line(3, 2), line(4, 4)], [1000, 600, 301])
    assert [(p.places, p.each, p.remainder) for p in prizes] == [((1, 1), 1000, 0), ((2, 3), 450, 1)]


def test_shares_of_the_pot_are_rounded_down_and_the_remainder_stated() -> None:
    amounts, kept = tournament_money.place_amounts({"kind": "shares", "places": [500, 300, 200]}, 1001)
    assert amounts == [500, 300, 200] and kept == 1


@settings(max_examples=200)
@given(pot=st.integers(0, 10**7), shares=st.lists(st.integers(0, 1000), max_size=6).filter(lambda s: sum(s) <= 1000),
       places=st.lists(st.integers(1, 6), min_size=1, max_size=12))
def test_shares_never_pay_more_than_the_pot_and_every_cent_is_accounted_for(pot: int, shares: list[int],
                                                                           places: list[int]) -> None:
    amounts, kept = tournament_money.place_amounts({"kind": "shares", "places": shares}, pot)
    lines = [line(n, place) for n, place in enumerate(sorted(places), start=1)]
    # competition ranking: a place is shared and the next one skipped
    ranked = [line(ln.number, 1 + sum(other.place < ln.place for other in lines)) for ln in lines]
    prizes = tournament_money._prizes(ranked, amounts)
    paid = sum(p.paid for p in prizes)
    given_out = sum(sum(amounts[p.places[0] - 1:p.places[1]]) for p in prizes)
    ties_kept = sum(p.remainder for p in prizes)
    assert paid + ties_kept == given_out
    assert paid + ties_kept + kept <= pot * sum(shares) // 1000 <= pot
    assert all(p.each >= 0 and 0 <= p.remainder < len(p.winners) for p in prizes)


def grand(declarer: int, card_points: int) -> dict[str, Any]:
    return {"contract": "grand", "declarer": declarer, "bid": 18, "matadors": -1, "card_points": card_points}


@pytest.mark.django_db
def test_the_sheet_adds_fees_and_lost_game_money_per_series_and_pays_the_prizes() -> None:
    tour = tournament("skat", "isko", players=3, entry_fee=1000, lost_game_money=TIERS,
                      prizes={"kind": "amounts", "places": [1500, 800],
                              "retention": {"kind": "share", "value": 100}})
    Entrant.objects.filter(tournament=tour, number__in=[1, 2]).update(paid=True)
    (t1,) = draw(tour, 1, [[1, 2, 3]])
    for _ in range(4):
        nights.enter_deal(t1, grand(0, 40))  # seat 0 is Player 1 for the first deal only (the dealer moves)
    (t2,) = draw(tour, 2, [[1, 2, 3]])
    nights.enter_deal(t2, grand(0, 40))
    tour = Tournament.objects.get(pk=tour.pk)
    sheet = tournament_money.sheet(tour)
    by_number = {p.line.number: p for p in sheet.payers}
    assert sum(p.lost[0] or 0 for p in sheet.payers) == 4 and sum(p.lost[1] or 0 for p in sheet.payers) == 1
    for payer in sheet.payers:
        assert payer.lost_money == [lost_game_money(n or 0, TIERS) for n in payer.lost]
    assert sheet.fees == 3000 and sheet.fees_outstanding == 1000 and by_number[3].paid is False
    assert sheet.lost_money == sum(p.lost_total for p in sheet.payers)
    assert sheet.retention == (3000 + sheet.lost_money) // 10
    assert sheet.pot == 3000 + sheet.lost_money - sheet.retention
    assert sheet.prizes_paid == 2300 and sheet.left == sheet.pot - 2300 and sheet.adds_up


@pytest.mark.django_db
def test_prizes_beyond_the_pot_are_shown_as_a_shortfall() -> None:
    tour = tournament("skat", "isko", players=3, entry_fee=100, prizes={"kind": "amounts", "places": [1000]})
    draw(tour, 1, [[1, 2, 3]])
    sheet = tournament_money.sheet(tour)
    assert sheet.pot == 300 and not sheet.adds_up
    assert sheet.prizes[0].each == 333 and sheet.tie_remainder == 1  # all three tied first share the 1st prize
    assert sheet.left == 300 - 999


@pytest.mark.django_db
@settings(max_examples=25, deadline=None)
@given(fee=st.integers(0, 5000), retention=st.integers(0, 1000), shares=st.lists(st.integers(0, 400), max_size=4),
       results=st.lists(st.sampled_from([30, 40, 70, 90]), max_size=6))
def test_the_payout_sheet_always_adds_up(fee: int, retention: int, shares: list[int], results: list[int]) -> None:
    tour = tournament("skat", "isko", players=4, entry_fee=fee, lost_game_money=TIERS,
                      prizes={"kind": "shares", "places": shares, "retention": {"kind": "share", "value": retention}})
    (t1,) = draw(tour, 1, [[1, 2, 3, 4]])
    for n, points in enumerate(results):
        nights.enter_deal(t1, grand(n % 3, points))
    tour = Tournament.objects.get(pk=tour.pk)
    sheet = tournament_money.sheet(tour, standings.standings(tour))
    assert sheet.fees + sheet.lost_money - sheet.retention == sheet.pot
    assert sheet.pot == sheet.prizes_paid + sheet.left
    assert sheet.adds_up == (sheet.left >= 0)
    if sum(shares) <= 1000:  # the form refuses more (a stored prize table above the pot shows a shortfall)
        assert sheet.left >= 0 and sheet.adds_up
        assert sheet.prizes_paid + sheet.tie_remainder + sheet.share_remainder <= sheet.pot


# --- the page ------------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_money_page_saves_the_settings_and_names_the_field_of_a_mistake(client: Client, host: User) -> None:
    tour = tournament("skat", "isko", players=3, host=host)
    url = f"/tournaments/{tour.pk}/money/"
    assert client.get(url).status_code == 200
    answer = client.post(url, {"entry_fee": "10", "lost_game_money": "1: 0.50, 4: 1.00", "prize_kind": "shares",
                               "prize_places": "50, 30, 20", "retention_kind": "share", "retention_value": "10"})
    assert answer.status_code == 303
    tour.refresh_from_db()
    assert tour.entry_fee == 1000 and tour.lost_game_money == TIERS
    assert tour.prizes == {"kind": "shares", "places": [500, 300, 200], "retention": {"kind": "share", "value": 100}}
    assert tour.revisions.filter(kind="money").count() == 1
    page = client.get(url).content.decode()
    assert "pot €27.00 = prizes" in page and "1: 0.50, 4: 1.00" in page and 'value="50, 30, 20"' in page
    refused = client.post(url, {"entry_fee": "ten", "lost_game_money": "first: 0.50", "prize_kind": "shares",
                                "prize_places": "60, 60", "retention_kind": "share", "retention_value": "200"})
    body = refused.content.decode()
    assert refused.status_code == 400
    assert "not “ten”" in body and "“first: 0.50” is not such a tier" in body and "add up to 120 %" in body
    assert "from 0 to 100 with at most one decimal" in body and "not “200”" in body
    tour.refresh_from_db()
    assert tour.entry_fee == 1000  # nothing stored
    client.cookies["django_language"] = "de"
    prizes = client.get(url).content.decode()
    assert '<th scope="col">Platz</th><th scope="col">Gewinner</th>' in prizes  # the rank, not "Ort" (a location)


@pytest.mark.django_db
def test_the_money_page_is_the_hosts_only(host: User, django_user_model: Any) -> None:
    tour = tournament("skat", "isko", players=3)
    stranger = Client()
    stranger.force_login(django_user_model.objects.create_user("stranger", password="pw"))
    assert stranger.get(f"/tournaments/{tour.pk}/money/").status_code == 404


@pytest.mark.parametrize("text", ["1: 0.50, 4: 1.00", "1 0.50\n4 1.00", "1: 0,50; 4: 1,00", "1 0,50, 4 1,00"])
def test_the_tiers_read_alike_on_the_money_page_and_the_new_tournament_form(text: str) -> None:
    assert tournament_money.parse_tiers(text, 2, "EUR") == [{"from": 1, "amount": 50}, {"from": 4, "amount": 100}]


@pytest.mark.django_db
def test_the_money_page_refuses_what_a_new_tournament_refuses(client: Client, host: User) -> None:
    """One set of rules for the money settings (`tournaments.check_money`): a lower place never gets more."""
    tour = tournament("skat", "isko", players=3, host=host)
    answer = client.post(f"/tournaments/{tour.pk}/money/", {
        "entry_fee": "10", "lost_game_money": "", "prize_kind": "amounts", "prize_places": "10, 20",
        "retention_kind": "share", "retention_value": "0"})
    assert answer.status_code == 400
    assert answer.context["form"].errors["prize_places"] == ["a lower place never gets more than a higher one"]
    tour.refresh_from_db()
    assert tour.revisions.filter(kind="money").count() == 0
