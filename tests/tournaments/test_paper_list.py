"""A table without a phone (issue 31): its series result typed from the paper list counts in the standings and
the money exactly as the same deals entered one by one; the paper list's checks; deals typed in replace it."""

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeep.models import CardTable, Series, Tournament
from scorekeep.nights import ledger
from scorekeep.nights import writes as nights
from scorekeep.tournaments import money as tournament_money
from scorekeep.tournaments import standing_rows, standings
from scorekeep.words.labels import unit_text
from scorekeep.words.numbers import signed
from tests.tournament_fixtures import draw, tournament

TIERS = [{"from": 1, "amount": 50}, {"from": 3, "amount": 100}]
MONEY = {"entry_fee": 1000, "lost_game_money": TIERS,
         "prizes": {"kind": "shares", "places": [500, 300], "retention": {"kind": "share", "value": 100}}}


def grand(declarer: int, card_points: int) -> dict[str, Any]:
    return {"contract": "grand", "declarer": declarer, "bid": 18, "matadors": -1, "card_points": card_points}


# At a table of four the dealer (the engine's seat 3) sits the deal out; the seats move on with the dealer.
SKAT_DEALS = [grand(1, 70), grand(2, 40), {"contract": "passed"}, grand(0, 90), grand(1, 30), grand(0, 61),
              grand(2, 20), grand(2, 75)]
SCHAFKOPF_DEALS = [{"contract": "sauspiel", "declarer": 0, "partner": 2, "card_points": 70},
                   {"contract": "wenz", "declarer": 1, "card_points": 61},
                   {"contract": "sauspiel", "declarer": 2, "partner": 3, "card_points": 40},
                   {"contract": "wenz", "declarer": 3, "card_points": 30}] * 2  # the series' 8 deals
KOP_DEALS = [{"contract": "normal", "old": old, "card_points": points, "old_tricks": 2}
             for old, points in (([0, 1], 60), ([0, 2], 62), ([1, 3], 48), ([2, 3], 60))] * 2  # one round of 8


def two_tournaments(game: str, preset: str, host: User) -> tuple[Tournament, Tournament, CardTable, CardTable]:
    """Two identical tournaments of four players, both series drawn alike (8 deals a series)."""
    made = []
    for _ in range(2):
        tour = tournament(game, preset or None, players=4, host=host, series_length=8, **MONEY)
        Series.objects.filter(tournament=tour).update(drawn_at=timezone.now())
        made.append((tour, draw(tour, 1, [[1, 2, 3, 4]], round_length=8)[0], draw(tour, 2, [[4, 3, 2, 1]],
                                                                                  round_length=8)[0]))
    (a, a1, a2), (b, b1, b2) = made
    return a, b, a1, b1


def paper_figures(table: CardTable, money: bool) -> dict[str, str]:
    """What the list keeper writes at the foot of the paper list, read from the table entered deal by deal."""
    table.refresh_from_db()
    kept = ledger.TableStanding.of(table)
    out = {"deals": str(kept.deals)}
    for p in range(kept.players):
        out[f"total_{p}"] = f"{kept.totals[p] / 100:.2f}" if money else str(kept.totals[p])
        out[f"won_{p}"], out[f"lost_{p}"] = str(kept.won[p]), str(kept.lost[p])
        if money:
            out[f"soli_won_{p}"] = str(kept.soli_won[p])
        else:
            out[f"performance_{p}"] = str(kept.performance[p])
    return out


def shown(tour: Tournament) -> tuple[list[Any], list[Any], list[Any]]:
    """The standings rows as the page shows them (notes aside: the paper list is marked there) and the money."""
    tour = Tournament.objects.get(pk=tour.pk)
    now = standings.standings(tour)
    rows = [(r["line"].place, r["line"].number, r["series"], r["figures"], r["movement"])
            for r in standing_rows.rows(now, now.lines)]
    sheet = tournament_money.sheet(tour, now)
    payers = [(p.line.number, p.lost, p.lost_money) for p in sheet.payers]
    prizes = [(p.places, [w.number for w in p.winners], p.each) for p in sheet.prizes]
    return rows, payers, [sheet.pot, sheet.retention, *prizes]


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "preset", "deals"), [("skat", "isko", SKAT_DEALS),
                                                        ("schafkopf", None, SCHAFKOPF_DEALS),
                                                        ("kop", "koscian", KOP_DEALS)])
def test_a_paper_list_counts_exactly_as_the_same_deals_entered_one_by_one(client: Client, host: User, game: str,
                                                                          preset: str | None,
                                                                          deals: list[dict[str, Any]]) -> None:
    a, b, a1, b1 = two_tournaments(game, preset or "", host)
    for facts in deals:
        nights.enter_deal(a1, facts)
    answer = client.post(f"/tournaments/{b.pk}/series/1/tables/1/paper/", paper_figures(a1, game == "schafkopf"))
    assert answer.status_code == 303, answer.context["form"].errors
    b1.refresh_from_db()
    assert b1.paper["deals"] == len(deals) and b.revisions.filter(kind="paper").count() == 1
    assert shown(a) == shown(b)
    assert any(shown(a)[1][i][1] for i in range(4))  # lost games were counted (the money is not all zero)
    b_now = standings.standings(Tournament.objects.get(pk=b.pk))
    assert all(line.paper == [1] for line in b_now.lines)
    page = client.get(f"/tournaments/{b.pk}/standings/").content.decode()
    assert f"{unit_text(game, 'numbered', 1)} from a paper list" in page  # Kop: "Round 1"
    overview = client.get(f"/tournaments/{b.pk}/").content.decode()
    assert "from a paper list" in overview, overview[overview.find("series-tables"):][:1500]
    assert "✓ list complete" in overview  # the table's closing check passes
    # Its history in words ("…: paper" was the record's code word).
    assert f"{unit_text(game, 'in_text', 1)}, table 1: the result from the paper list entered" in overview


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "preset", "deals"), [("skat", "isko", SKAT_DEALS),
                                                        ("schafkopf", None, SCHAFKOPF_DEALS)])
def test_the_printed_list_of_a_paper_table_is_the_foot_typed_not_an_empty_list(
        client: Client, host: User, game: str, preset: str | None, deals: list[dict[str, Any]]) -> None:
    """The list a table signs: a table typed from its paper list printed "no deals yet", totals 0 and
    "list complete · 0 deals entered" — against the standings that counted its figures."""
    a, b, a1, b1 = two_tournaments(game, preset or "", host)
    for facts in deals:
        nights.enter_deal(a1, facts)
    figures = paper_figures(a1, game == "schafkopf")
    assert client.post(f"/tournaments/{b.pk}/series/1/tables/1/paper/", figures).status_code == 303
    page = client.get(reverse("tournament-print-lists", args=[b.pk, 1])).content.decode()
    table = page[page.find('id="list-table-1"'):]
    table = table[:table.find("</section>")]
    assert "from a paper list" in table and "8 deals played" in table
    assert "deals entered" not in table and "No deals yet" not in table
    foot = re.findall(r"<tr><th scope=\"row\">([^<]+)</th>((?:<td class=\"num\">[^<]*</td>)+)</tr>", table)
    cells = {name: re.findall(r">([^<]*)</td>", tds) for name, tds in foot}
    kept = ledger.TableStanding.of(a1)
    names = [place.player.name for place in b1.places.all()]
    assert list(cells) == names
    for p, name in enumerate(names):
        total = tournament_money.text(kept.totals[p], b, plus=True) if game == "schafkopf" else signed(kept.totals[p])
        assert cells[name][:3] == [total, str(kept.won[p]), str(kept.lost[p])], (name, cells[name])
        if game == "skat":
            assert cells[name][3] == signed(kept.performance[p])
    assert 'data-check="complete"' in table


@pytest.mark.django_db
def test_deals_typed_in_replace_the_paper_list_once_there_are_as_many(client: Client, host: User) -> None:
    a, b, a1, b1 = two_tournaments("skat", "isko", host)
    for facts in SKAT_DEALS[:3]:
        nights.enter_deal(a1, facts)
    figures = paper_figures(a1, False)
    figures["total_0"] = str(int(figures["total_0"]) + 10)  # the paper list says more than the deals do
    figures["performance_0"] = str(int(figures["performance_0"]) + 10)
    assert client.post(f"/tournaments/{b.pk}/series/1/tables/1/paper/", figures).status_code == 303
    page = client.get(f"/tournaments/{b.pk}/series/1/tables/1/paper/").content.decode()
    assert "once 3 deals are typed in (now 0)" in page
    for facts in SKAT_DEALS[:2]:
        nights.enter_deal(b1, facts)
    assert shown(a) != shown(b)  # two deals typed: the paper list still counts
    nights.enter_deal(b1, SKAT_DEALS[2])
    assert shown(a) == shown(b)  # as many deals as the paper list: the deals count
    assert standings.standings(Tournament.objects.get(pk=b.pk)).lines[0].paper == []
    page = client.get(f"/tournaments/{b.pk}/series/1/tables/1/paper/").content.decode()
    assert "this paper list is replaced" in page


@pytest.mark.django_db
@pytest.mark.parametrize(("change", "field", "says"), [
    ({"deals": "9"}, "deals", "1 to 8 deals"),
    ({"won_1": "6", "lost_1": "3"}, "lost_1", "are more than the 8 deals played"),
    ({"won_0": "3", "won_1": "3", "won_2": "2"}, None, "a deal has one declarer"),
    ({"performance_2": "1"}, "performance_2", "Seeger-Fabian points on the list"),
    ({"won_3": "-1"}, "won_3", "greater than or equal to 0"),
    ({"total_1": "x"}, "total_1", "Enter a whole number"),
])
def test_a_skat_paper_list_that_does_not_add_up_is_refused_at_its_field(client: Client, host: User,
                                                                        change: dict[str, str], field: str | None,
                                                                        says: str) -> None:
    a, b, a1, b1 = two_tournaments("skat", "isko", host)
    for facts in SKAT_DEALS:
        nights.enter_deal(a1, facts)
    answer = client.post(f"/tournaments/{b.pk}/series/1/tables/1/paper/", {**paper_figures(a1, False), **change})
    assert answer.status_code == 400
    errors = answer.context["form"].errors
    assert says in " ".join(errors.get(field or "__all__", [])), errors
    b1.refresh_from_db()
    assert b1.paper == {}


@pytest.mark.django_db
def test_a_schafkopf_paper_list_must_balance_and_its_soli_be_games_won(client: Client, host: User) -> None:
    a, b, a1, b1 = two_tournaments("schafkopf", "", host)
    for facts in SCHAFKOPF_DEALS:
        nights.enter_deal(a1, facts)
    figures = paper_figures(a1, True)
    total = float(figures["total_0"])
    answer = client.post(f"/tournaments/{b.pk}/series/1/tables/1/paper/", {
        **figures, "total_0": f"{total + 0.1:.2f}", "soli_won_2": str(int(figures["won_2"]) + 1)})
    assert answer.status_code == 400
    errors = answer.context["form"].errors
    assert "the totals sum to 10, not to zero" in errors["__all__"][0]
    assert "Soli won, but only" in errors["soli_won_2"][0]
