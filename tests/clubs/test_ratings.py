"""Ratings (issue 17): OpenSkill per game, each table of a night a match placed by what the game's season
ranks by first, replayed from the stored verdicts whenever asked (a correction changes them at once), shown
after `RATED_AFTER` matches, beside the plain figures, and only where the club turned them on."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeep.clubs import clubs, ratings, seasons
from scorekeep.models import Club, Player
from scorekeep.nights import writes as nights

GRAND = {"contract": "grand", "declarer": 0, "bid": 48, "matadors": 2, "card_points": 70}


def skat_night(club: Club, day: int, deals: list[dict[str, Any]]) -> None:
    night = nights.start_night(game="skat", preset="classic", players=["Anna", "Bernd", "Clara"], club=club,
                               date=datetime.date(2025, 1, day))
    for facts in deals:
        nights.enter_deal(night.tables.get(), facts)


@pytest.fixture
def host(db: None) -> User:
    return User.objects.create_user("rating-host")


@pytest.fixture
def club(host: User) -> Club:
    """Six nights: Anna wins a Grand with 2 every night, Bernd a Grand with 1 (second), Clara never declares (third)."""
    club = clubs.start_club(host, "Herz Dame")
    for day in range(1, 7):
        skat_night(club, day, [GRAND, {**GRAND, "declarer": 1, "matadors": 1, "card_points": 61}])
    return club


def test_the_better_placed_player_rates_higher_and_only_after_enough_matches(club: Club) -> None:
    rated = ratings.of_club(club, "skat")
    by_name = {rating.player.name: rating for rating in rated.values()}
    assert by_name["Anna"].ordinal > by_name["Bernd"].ordinal > by_name["Clara"].ordinal
    assert all(rating.matches == 6 and rating.shown for rating in rated.values())
    assert ratings.replay([]) == {}
    # After four nights nobody's rating is shown yet (five matches needed).
    first_four = ratings.replay(seasons.stats.with_ledgers(club.nights.filter(date__day__lte=4)))
    assert {rating.matches for rating in first_four.values()} == {4} and not any(r.shown for r in first_four.values())


def test_a_corrected_deal_replays_the_history(club: Club) -> None:
    before = {r.player.name: r.ordinal for r in ratings.of_club(club, "skat").values()}
    night = club.nights.get(date=datetime.date(2025, 1, 1))
    first = night.tables.get().deals.get(sequence=1)
    nights.correct_deal(first, {**GRAND, "card_points": 40})  # Anna's first Grand lost after all
    after = {r.player.name: r.ordinal for r in ratings.of_club(club, "skat").values()}
    assert after["Anna"] < before["Anna"]


def test_ratings_are_off_until_the_club_turns_them_on(club: Club, host: User) -> None:
    client = Client()
    client.force_login(host)
    season = seasons.start_season(club, name="2025", game="skat", start=datetime.date(2025, 1, 1),
                                  end=datetime.date(2025, 12, 31), basis="seeger_fabian")
    url = reverse("season", args=[club.pk, season.pk])
    anna = Player.objects.get(club=club, name="Anna")
    assert "Rating" not in client.get(url).content.decode()
    assert "OpenSkill, μ" not in client.get(reverse("player-stats", args=[anna.pk])).content.decode()
    assert client.post(reverse("club-ratings", args=[club.pk]), {"ratings": "1"}).status_code == 303
    page = client.get(url)
    assert ">Rating</th>" in page.content.decode()
    shown = ratings.of_club(club, "skat")[anna.pk].ordinal
    assert f"{shown:.1f}" in page.content.decode()
    assert "OpenSkill, μ" in client.get(reverse("player-stats", args=[anna.pk])).content.decode()
    assert client.post(reverse("club-ratings", args=[club.pk]), {"ratings": "0"}).status_code == 303
    assert not Club.objects.get(pk=club.pk).ratings
