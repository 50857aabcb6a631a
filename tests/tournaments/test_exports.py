"""A tournament's exports and results page (issue 31): the standings after each series and the final ranking as
CSV (UTF-8 with a byte-order mark, the pages' columns and figures, a member number column), the read-only
results page by the viewer link (throttled), money columns that say their currency, and standings that say
where they are ("after series 2 (final)")."""

import csv
import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from scorekeep.models import Player, Series, Tournament
from scorekeep.nights import writes as nights
from scorekeep.tournaments import standing_rows, standings
from scorekeep.web.throttle import TOKEN_LIMIT
from scorekeep.words.money import MINUS
from tests.tournament_fixtures import draw, tournament


def grand(declarer: int, card_points: int) -> dict[str, Any]:
    return {"contract": "grand", "declarer": declarer, "bid": 18, "matadors": -1, "card_points": card_points}


def played(host: User) -> Tournament:
    """A Skat tournament of three over two series, names with umlauts and in Japanese, prizes for two places."""
    tour = tournament("skat", "isko", players=3, host=host, entry_fee=1000,
                      prizes={"kind": "amounts", "places": [1500, 800]})
    for number, name in ((1, "Jürgen Größ"), (2, "山田太郎"), (3, "=Anna")):
        Player.objects.filter(entries__tournament=tour, entries__number=number).update(name=name)
    Series.objects.filter(tournament=tour).update(drawn_at=timezone.now())
    (t1,) = draw(tour, 1, [[1, 2, 3]])
    nights.enter_deal(t1, grand(0, 70))  # the first deal's seat 0 (Jürgen) wins: +98
    (t2,) = draw(tour, 2, [[3, 2, 1]])
    nights.enter_deal(t2, grand(1, 40))  # 山田 loses: −146, the others +40
    return Tournament.objects.get(pk=tour.pk)


def read(body: bytes) -> list[list[str]]:
    assert body.startswith("\ufeff".encode())  # Excel reads UTF-8 only with the byte-order mark
    return list(csv.reader(io.StringIO(body.decode("utf-8").removeprefix("\ufeff"))))


@pytest.mark.django_db
def test_the_standings_after_each_series_as_csv_have_the_pages_columns_and_figures(client: Client,
                                                                                   host: User) -> None:
    tour = played(host)
    answer = client.get(f"/tournaments/{tour.pk}/standings-after-1.csv")
    assert answer.status_code == 200 and answer["Content-Type"] == "text/csv; charset=utf-8"
    assert "skat-open-" in answer["Content-Disposition"] and "standings-after-1.csv" in answer["Content-Disposition"]
    rows = read(answer.content)
    assert rows[0] == ["Rank", "No.", "Member no.", "Name", "Club", "S1", "Seeger-Fabian points", "games won",
                       "games lost", "Move", "Notes"]
    now = standings.standings(tour, upto=1)
    page = standing_rows.rows(now, now.lines)
    assert [r[3] for r in rows[1:]] == [r["line"].name if not r["line"].name.startswith("=") else
                                        "'" + r["line"].name for r in page]  # a formula is defused
    for cells, row in zip(rows[1:], page, strict=True):
        assert cells[0] == str(row["line"].place) and cells[2] == ""
        assert cells[6:9] == [f.replace(MINUS, "-") for f in row["figures"]]  # the page's figures, as numbers
    assert ["1", "1", "", "Jürgen Größ", "Club of skat", "98", "98", "1", "0", "", ""] in rows
    overall = read(client.get(f"/tournaments/{tour.pk}/standings-after-2.csv").content)
    assert overall[0][5:7] == ["S1", "S2"]
    assert any(r[3] == "山田太郎" and r[6] == "-146" and r[7] == "-146" and r[10] == "-1" for r in overall)
    assert client.get(f"/tournaments/{tour.pk}/standings-after-3.csv").status_code == 404


@pytest.mark.django_db
def test_the_final_ranking_csv_has_the_prizes_and_the_member_numbers_where_players_have_them(
        client: Client, host: User) -> None:
    tour = played(host)
    for entrant in tour.entrants.select_related("player"):
        entrant.member_number = f"M{entrant.player.name[:1]}"
        entrant.save(update_fields=["member_number"])
    rows = read(client.get(f"/tournaments/{tour.pk}/ranking.csv").content)
    assert rows[0][-1] == "Prize (EUR)" and rows[0][2] == "Member no."
    by_name = {r[3]: r for r in rows[1:]}
    assert by_name["Jürgen Größ"][2] == "MJ" and by_name["山田太郎"][2] == "M山"
    assert by_name["Jürgen Größ"][0] == "1" and by_name["Jürgen Größ"][-1] == "15.00"
    assert [r[-1] for r in rows[1:]].count("") == 1  # the third place has no prize
    # For Excel with decimal commas: the same cells, semicolons between them, 15,00.
    body = client.get(f"/tournaments/{tour.pk}/ranking.csv?decimal=comma").content.decode("utf-8-sig")
    comma = list(csv.reader(io.StringIO(body), delimiter=";"))
    assert {r[3]: r for r in comma[1:]}["Jürgen Größ"][-1] == "15,00" and comma[0] == rows[0]


@pytest.mark.django_db
def test_the_exports_are_the_hosts_only(host: User, django_user_model: Any) -> None:
    tour = played(host)
    stranger = Client()
    stranger.force_login(django_user_model.objects.create_user("stranger", password="pw"))
    assert stranger.get(f"/tournaments/{tour.pk}/ranking.csv").status_code == 404
    assert stranger.get(f"/tournaments/{tour.pk}/standings-after-1.csv").status_code == 404


@pytest.mark.django_db
def test_the_results_page_shows_each_series_standings_the_ranking_and_the_prizes_read_only(host: User) -> None:
    tour = played(host)
    anyone = Client()
    early = anyone.get(f"/results/{tour.viewer_token}/").content.decode()
    assert "Ranking so far" in early and "after series 2 (under way)" in early
    assert "€15.00" not in early and "once every series is closed" in early  # no prize before the end
    Series.objects.filter(tournament=tour).update(closed=True)
    page = anyone.get(f"/results/{tour.viewer_token}/")
    assert page.status_code == 200
    body = page.content.decode()
    assert "Final ranking" in body and "after series 2 (final)" in body and "after series 1" in body
    assert "Jürgen Größ" in body and "山田太郎" in body and "€15.00" in body and "<form method=\"post\"" not in body
    assert f"/results/{tour.viewer_token}/ranking.csv" in body
    rows = read(anyone.get(f"/results/{tour.viewer_token}/standings-after-1.csv").content)
    assert rows[0][3] == "Name" and len(rows) == 4
    assert read(anyone.get(f"/results/{tour.viewer_token}/ranking.csv").content)[0][-1] == "Prize (EUR)"


@pytest.mark.django_db
def test_wrong_results_links_are_throttled_like_the_other_tokens(host: User) -> None:
    tour = played(host)
    anyone = Client()
    for _ in range(TOKEN_LIMIT):
        assert anyone.get("/results/" + "x" * 43 + "/").status_code == 404
    assert anyone.get(f"/results/{tour.viewer_token}/").status_code == 429  # right or wrong, until the window ends


@pytest.mark.django_db
def test_the_standings_say_where_they_are(client: Client, host: User) -> None:
    tour = played(host)
    url = f"/tournaments/{tour.pk}/standings/"
    assert "after series 2 (under way)" in client.get(url).content.decode()
    Series.objects.filter(tournament=tour, number=1).update(closed=True)
    body = client.get(url).content.decode()
    assert "after series 2 (under way)" in body and "(final)" not in body
    Series.objects.filter(tournament=tour, number=2).update(closed=True)
    body = client.get(url).content.decode()
    assert "after series 2 (final)" in body
    assert "after series 1" in client.get(url + "?series=1").content.decode()
    screen = Client().get(f"/standings/{tour.viewer_token}/screen/").content.decode()
    assert "after series 2 (final)" in screen


@pytest.mark.django_db
def test_money_standings_say_their_currency_in_the_column_head(client: Client, host: User) -> None:
    tour = tournament("schafkopf", players=4, host=host, currency="CHF")
    (t1,) = draw(tour, 1, [[1, 2, 3, 4]])
    nights.enter_deal(t1, {"contract": "sauspiel", "declarer": 0, "partner": 2, "card_points": 70})
    body = client.get(f"/tournaments/{tour.pk}/standings/").content.decode()
    assert "points (CHF)" in body
    rows = read(client.get(f"/tournaments/{tour.pk}/ranking.csv").content)
    assert "points (CHF)" in rows[0]
    total = rows[0].index("points (CHF)")
    assert sorted(r[total] for r in rows[1:]) == ["-0.10", "-0.10", "0.10", "0.10"]  # in francs, a spreadsheet's number
