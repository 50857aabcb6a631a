"""Seasons (issue 17): a club's nights of one game within a period, ranked by the club's rules — the basis
the game's engine offers, a minimum of nights, the best n or the worst dropped, an absence penalty — as of
any date, with the movement since the latest night; the page, its printout, PDF and CSV.

The numbers, by hand (Skat, classic, three at the table; Seeger-Fabian performance = list points + 50 per
won game − 50 per lost one + 40 to each of the others per game lost):

- 10 Jan: Anna, Bernd, Clara. Bernd wins a Grand with 2 (72): Bernd +122.
- 10 Feb: Anna, Bernd, Dora. Anna loses Clubs with 1 (−48): Anna −98, Bernd +40, Dora +40.
- 10 Mar: Anna, Clara, Dora. Clara wins the Grand (+122), Anna loses the Clubs (−98; +40 to each other):
  Clara +162, Dora +40, Anna −98.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeep.clubs import clubs, seasons
from scorekeep.models import Club, Season
from scorekeep.nights import writes as nights
from scorekeep.printing import pdf
from scorekeep.rules import GAMES
from scorekeep.rules.season import Measure

GRAND = {"contract": "grand", "declarer": 1, "bid": 48, "matadors": 2, "card_points": 70}
LOST_CLUBS = {"contract": "clubs", "declarer": 0, "bid": 18, "matadors": 1, "card_points": 40}


def skat_night(club: Club, date: str, players: list[str], deals: list[dict[str, Any]]) -> None:
    night = nights.start_night(game="skat", preset="classic", players=players, club=club,
                               date=datetime.date.fromisoformat(date))
    for facts in deals:
        nights.enter_deal(night.tables.get(), facts)


@pytest.fixture
def host(db: None) -> User:
    return User.objects.create_user("season-host")


@pytest.fixture
def club(host: User) -> Club:
    club = clubs.start_club(host, "Skatclub Herz Dame")
    skat_night(club, "2025-01-10", ["Anna", "Bernd", "Clara"], [GRAND])
    skat_night(club, "2025-02-10", ["Anna", "Bernd", "Dora"], [LOST_CLUBS])
    skat_night(club, "2025-03-10", ["Anna", "Clara", "Dora"], [GRAND, LOST_CLUBS])
    skat_night(club, "2026-01-10", ["Anna", "Bernd", "Clara"], [GRAND])  # next season's
    return club


def season(club: Club, **rules: Any) -> Season:
    settings = {"name": "2025", "game": "skat", "start": datetime.date(2025, 1, 1), "end": datetime.date(2025, 12, 31),
                "basis": "seeger_fabian", **rules}
    return seasons.start_season(club, **settings)


def table_of(season: Season, as_of: datetime.date | None = None) -> list[tuple[str, int | None, Fraction]]:
    return [(line.player.name, line.rank, line.score) for line in seasons.standings(season, as_of).lines]


def test_every_game_offers_its_season_bases() -> None:
    for game, module in GAMES.items():
        keys = [basis.key for basis in module.SEASON_BASES]
        assert keys and len(set(keys)) == len(keys), game
        assert all(isinstance(basis.measure, Measure) for basis in module.SEASON_BASES)
    assert GAMES["skat"].SEASON_BASES[0].measure == Measure.PERFORMANCE
    assert GAMES["kop"].SEASON_BASES[0].measure == Measure.PLACING
    assert [basis.per_series for basis in GAMES["skat"].SEASON_BASES] == [False, True, False]


def test_the_season_adds_up_each_night_s_performance_and_shares_a_rank_on_equal_scores(club: Club) -> None:
    assert table_of(season(club)) == [("Bernd", 1, 162), ("Clara", 1, 162), ("Dora", 3, 80), ("Anna", 4, -196)]


def test_movement_since_the_latest_night(club: Club) -> None:
    lines = {line.player.name: line for line in seasons.standings(season(club)).lines}
    # Before 10 March: Bernd 162, Dora 40, Clara 0, Anna −98.
    assert {name: line.movement for name, line in lines.items()} == {"Bernd": 0, "Clara": 2, "Dora": -1, "Anna": 0}


def test_standings_as_of_a_date_count_the_nights_until_then(club: Club) -> None:
    assert table_of(season(club), datetime.date(2025, 2, 28)) == [
        ("Bernd", 1, 162), ("Dora", 2, 40), ("Clara", 3, 0), ("Anna", 4, -98)]
    assert table_of(season(club), datetime.date(2024, 12, 31)) == []


def test_only_the_best_results_count(club: Club) -> None:
    assert table_of(season(club, best_of=1)) == [("Clara", 1, 162), ("Bernd", 2, 122), ("Dora", 3, 40),
                                                 ("Anna", 4, 0)]


def test_the_worst_result_is_dropped_for_every_k(club: Club) -> None:
    # Two results: one dropped; Anna's three: one dropped (−98), so −98 counts once.
    assert table_of(season(club, drop_every=2)) == [("Clara", 1, 162), ("Bernd", 2, 122), ("Dora", 3, 40),
                                                    ("Anna", 4, -98)]


def test_a_missed_night_after_the_first_costs_the_absence_penalty(club: Club) -> None:
    # Clara missed February, Bernd March; Dora joined in February and missed nothing since.
    lines = seasons.standings(season(club, absence_penalty=30)).lines
    assert [(line.player.name, line.score, line.missed) for line in lines] == [
        ("Bernd", 132, 1), ("Clara", 132, 1), ("Dora", 80, 0), ("Anna", -196, 0)]


def test_missed_nights_are_counted_without_an_absence_penalty_and_cost_nothing(club: Club) -> None:
    # Issue 28: Clara missed February and Bernd March whatever the penalty; without one the missed night is no
    # result, so the scores, the best n and the average per series are those of the nights played.
    lines = seasons.standings(season(club)).lines
    assert [(line.player.name, line.score, line.missed, line.nights) for line in lines] == [
        ("Bernd", 162, 1, 2), ("Clara", 162, 1, 2), ("Dora", 80, 0, 2), ("Anna", -196, 0, 3)]
    assert [night.date.month for night in lines[0].missed_nights] == [3]
    assert table_of(season(club, name="best", best_of=1)) == [("Clara", 1, 162), ("Bernd", 2, 122), ("Dora", 3, 40),
                                                              ("Anna", 4, 0)]
    per_series = seasons.standings(season(club, name="avg", basis="seeger_fabian_per_series")).lines
    assert [(line.player.name, line.score, line.missed) for line in per_series] == [
        ("Bernd", 81, 1), ("Clara", 81, 1), ("Dora", 40, 0), ("Anna", Fraction(-196, 3), 0)]
    # With a penalty the missed night is also a result: one more series in the average.
    penalised = seasons.standings(season(club, name="pen", basis="seeger_fabian_per_series",
                                         absence_penalty=30)).lines
    assert [(line.player.name, line.score, line.missed) for line in penalised] == [
        ("Bernd", 44, 1), ("Clara", 44, 1), ("Dora", 40, 0), ("Anna", Fraction(-196, 3), 0)]


def test_fewer_nights_than_the_minimum_are_listed_unranked(club: Club) -> None:
    assert table_of(season(club, min_nights=3)) == [("Anna", 1, -196), ("Bernd", None, 162), ("Clara", None, 162),
                                                    ("Dora", None, 80)]


def test_the_average_per_series(club: Club) -> None:
    # Open-ended lists: one series a night.
    assert table_of(season(club, basis="seeger_fabian_per_series")) == [
        ("Bernd", 1, 81), ("Clara", 1, 81), ("Dora", 3, 40), ("Anna", 4, Fraction(-196, 3))]


@pytest.mark.parametrize(("changes", "field"), [
    ({"name": "  "}, "name"),
    ({"end": datetime.date(2024, 12, 31)}, "end"),
    ({"basis": "placing"}, "basis"),
    ({"best_of": 3, "drop_every": 4}, "drop_every"),
])
def test_settings_that_cannot_be_are_refused_naming_the_field(club: Club, changes: dict[str, Any],
                                                               field: str) -> None:
    with pytest.raises(seasons.SeasonError) as refused:
        season(club, **changes)
    assert refused.value.field == field
    assert not Season.objects.exists()


def test_a_corrected_deal_changes_the_table(club: Club) -> None:
    the_season = season(club)
    first = club.nights.get(date="2025-01-10").tables.get().deals.get()
    nights.correct_deal(first, {**GRAND, "card_points": 50}, by="Anna")  # now lost: Bernd −144 − 50
    assert dict((name, score) for name, _rank, score in table_of(the_season))["Bernd"] == -194 + 40


# --- the pages ------------------------------------------------------------------------------------------

@pytest.fixture
def host_client(host: User) -> Client:
    client = Client()
    client.force_login(host)
    return client


def test_a_host_starts_a_season_and_sees_its_table_printout_pdf_and_csv(
        club: Club, host_client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    url = reverse("season-new", args=[club.pk])
    assert host_client.get(url).status_code == 200
    data = {"name": "Saison 2025", "basis": "skat:seeger_fabian", "start": "2025-01-01", "end": "2025-12-31",
            "min_nights": "0", "absence_penalty": "0"}
    refused = host_client.post(url, {**data, "basis": "skat:money"})
    assert refused.status_code == 200 and "basis" in refused.context["form"].errors
    response = host_client.post(url, data)
    assert response.status_code == 303
    the_season = Season.objects.get(name="Saison 2025")
    page = host_client.get(response["Location"]).content.decode()
    for text in ("Bernd", "+162", "Seeger-Fabian points", "▲2", "▼1"):
        assert text in page, text
    assert host_client.get(reverse("club", args=[club.pk])).content.decode().count("Saison 2025") == 1
    printout = host_client.get(reverse("season-print", args=[club.pk, the_season.pk]) + "?as_of=2025-02-28")
    assert printout.status_code == 200 and "Skatclub Herz Dame" in printout.content.decode()
    assert "Clara" in printout.content.decode()
    # Nights, Missed, Dropped on the page and the printout, with no absence penalty (Clara missed February).
    assert _counts(page, "Clara") == ("2", "1", "0") and _counts(page, "Bernd") == ("2", "1", "0")
    assert _counts(printout.content.decode(), "Clara") == ("1", "1", "0")
    monkeypatch.setattr(pdf, "render", lambda html, **kw: b"%PDF-1.4 " + html.encode())
    made = host_client.get(reverse("season-pdf", args=[club.pk, the_season.pk]))
    assert made["Content-Type"] == "application/pdf" and b"Bernd" in made.content
    answer = host_client.get(reverse("season-csv", args=[club.pk, the_season.pk]))
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))
    comma = host_client.get(reverse("season-csv", args=[club.pk, the_season.pk]) + "?decimal=comma")
    assert list(csv.reader(io.StringIO(comma.content.decode("utf-8-sig")), delimiter=";")) == rows  # no decimals
    assert rows[0][:7] == ["Rank", "Player", "Score", "Nights", "Missed", "Dropped", "Movement"]
    assert rows[0][7:] == ["2025-01-10", "2025-02-10", "2025-03-10"]
    # No absence penalty: the missed nights are counted (Bernd March, Clara February) and cost nothing.
    assert rows[1:] == [["1", "Bernd", "162", "2", "1", "0", "0", "122", "40", ""],
                        ["1", "Clara", "162", "2", "1", "0", "2", "0", "", "162"],
                        ["3", "Dora", "80", "2", "0", "0", "-1", "", "40", "40"],
                        ["4", "Anna", "-196", "3", "0", "0", "0", "0", "-98", "-98"]]


def _counts(html: str, name: str) -> tuple[str, ...]:
    """A player's row of the season table: nights played, missed, dropped."""
    row = re.search(rf">{name}</a></th>(.*?)</tr>", html, re.S)
    assert row is not None, name
    cells = re.findall(r'<td class="num[^"]*"[^>]*>([^<]*)</td>', row.group(1))
    return tuple(cells[1:4])


def test_a_bad_date_is_named(club: Club, host_client: Client) -> None:
    the_season = season(club)
    response = host_client.get(reverse("season", args=[club.pk, the_season.pk]) + "?as_of=März")
    assert response.status_code == 200
    assert "Enter a date as year-month-day, e.g. 2025-03-07." in response.content.decode()


def test_a_schafkopf_season_counts_money_or_the_tariff_s_units_as_points(club: Club, host_client: Client) -> None:
    players = ["Anna", "Bernd", "Clara", "Dora"]
    sauspiel = {"contract": "sauspiel", "declarer": 0, "partner": 1, "card_points": 70, "doublings": 1}  # 20 each
    wenz = {"contract": "wenz", "declarer": 2, "card_points": 70}  # Clara +150, the others −50
    for day, currency, deals in ((5, "EUR", [sauspiel, wenz]), (12, "JPY", [wenz])):
        night = nights.start_night(game="schafkopf", preset="classic", players=players, club=club,
                                   date=datetime.date(2025, 4, day), currency=currency)
        for facts in deals:
            nights.enter_deal(night.tables.get(), facts)
    assert [basis.key for basis in seasons.bases("schafkopf")] == ["money", "points"]
    points = season(club, game="schafkopf", basis="points")
    assert table_of(points) == [("Clara", 1, 150 - 20 + 150), ("Anna", 2, 20 - 50 - 50), ("Bernd", 2, -80),
                                ("Dora", 4, -20 - 50 - 50)]
    table = seasons.standings(points)
    assert not table.money  # points, whatever the nights' currencies
    assert seasons.standings(season(club, game="schafkopf", basis="money", name="Geld")).money
    page = host_client.get(reverse("season", args=[club.pk, points.pk])).content.decode()
    assert "+280" in page and "points (the tariff" in page
    rows = list(csv.reader(io.StringIO(host_client.get(reverse("season-csv", args=[club.pk, points.pk]))
                                       .content.decode("utf-8-sig"))))
    assert rows[1][:3] == ["1", "Clara", "280"]


def test_a_money_season_in_yen_writes_whole_yen_on_the_page_and_in_the_csv(club: Club, host_client: Client) -> None:
    players = ["Anna", "Bernd", "Clara", "Dora"]
    wenz = {"contract": "wenz", "declarer": 2, "card_points": 70}  # Clara +150, the others −50 (the tariff's units)
    night = nights.start_night(game="schafkopf", preset="classic", players=players, club=club,
                               date=datetime.date(2025, 4, 5), currency="JPY")
    nights.enter_deal(night.tables.get(), wenz)
    money = season(club, game="schafkopf", basis="money")
    page = host_client.get(reverse("season", args=[club.pk, money.pk])).content.decode()
    assert "+¥150" in page and "¥1.50" not in page
    rows = list(csv.reader(io.StringIO(host_client.get(reverse("season-csv", args=[club.pk, money.pk]))
                                       .content.decode("utf-8-sig"))))
    assert rows[1][:3] == ["1", "Clara", "150"]  # whole yen, as the list reads them
