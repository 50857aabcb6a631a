"""A player's page within the club (issue 17): per game the average value of each contract declared, what
the declared games came with (the engine's columns), the best and worst deal, streaks, partners and
opponents, and the running total over the nights as an SVG chart — all from the stored verdicts.

Three at the table (seats are the table's places): Anna 0, Bernd 1, Clara 2.
Night 1: Anna wins a Grand with 2 (+72), loses Clubs with 1 (−48), Bernd wins a Grand (+72 to him), Anna wins
a Grand Hand with 2 (+96). Night 2: Anna loses Clubs with 1 again (−48)."""

from __future__ import annotations

import datetime
import re
from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeep.clubs import clubs, journey, stats
from scorekeep.models import CardNight, Club, Player
from scorekeep.nights import writes as nights

GRAND = {"contract": "grand", "declarer": 0, "bid": 48, "matadors": 2, "card_points": 70}
LOST_CLUBS = {"contract": "clubs", "declarer": 0, "bid": 18, "matadors": 1, "card_points": 40}


def night(club: Club, date: str, deals: list[dict[str, Any]]) -> CardNight:
    made = nights.start_night(game="skat", preset="classic", players=["Anna", "Bernd", "Clara"], club=club,
                              date=datetime.date.fromisoformat(date))
    for facts in deals:
        nights.enter_deal(made.tables.get(), facts)
    return made


@pytest.fixture
def host(db: None) -> User:
    return User.objects.create_user("journey-host")


@pytest.fixture
def club(host: User) -> Club:
    club = clubs.start_club(host, "Herz Dame")
    night(club, "2025-01-10", [GRAND, LOST_CLUBS, {**GRAND, "declarer": 1}, {**GRAND, "hand": True}])
    night(club, "2025-02-10", [LOST_CLUBS])
    return club


def anna_s(club: Club) -> journey.Journey:
    anna = Player.objects.get(club=club, name="Anna")
    [skat] = journey.journeys(anna, stats.with_ledgers(club.nights.all()))
    return skat


def test_average_value_per_contract_and_what_the_games_came_with(club: Club) -> None:
    skat = anna_s(club)
    # The value is the game's (a lost Clubs with 1 is worth 24; the list takes it twice).
    assert [(item.contract, item.declared, item.average) for item in skat.value_list] == [
        ("clubs", 2, Fraction(24)), ("grand", 2, Fraction(72 + 96, 2))]
    assert skat.declared_list == [("Hand", 1)]


def test_best_and_worst_deal_and_streaks(club: Club) -> None:
    skat = anna_s(club)
    assert (skat.best.entry, skat.best.number, skat.best.night.date.day) == (96, 4, 10)
    # Of equal worst deals, the latest: the second night's.
    assert (skat.worst.entry, skat.worst.night.date.month) == (-48, 2)
    assert skat.results == [True, False, True, False]
    assert (skat.longest_won, skat.longest_lost) == (1, 1)
    assert (skat.current.won, skat.current.length) == (False, 1)


def test_partners_and_opponents(club: Club) -> None:
    rows = {name: (partner and (partner.deals, partner.won), opponent and (opponent.deals, opponent.won))
            for name, partner, opponent in anna_s(club).companion_rows}
    # Bernd: against Anna in all five deals (she won two of them); Clara beside Anna once, when Bernd
    # declared and won, against her in Anna's four games.
    assert rows == {"Bernd": (None, (5, 2)), "Clara": ((1, 0), (4, 2))}


def test_the_running_total_after_each_night_and_its_chart(club: Club) -> None:
    skat = anna_s(club)
    assert [total for _night, total in skat.after_each_night] == [72 - 48 + 96, 72 - 48 + 96 - 48]
    svg = str(skat.chart(Player.objects.get(club=club, name="Anna")))
    assert svg.startswith("<svg") and ">Night</text>" in svg and "+72" in svg
    assert len(re.findall(r'class="deal-tick" data-deal="\d+"', svg)) == 3  # nights 0, 1, 2


def test_the_player_page_shows_it_to_the_club_s_host(club: Club, host: User) -> None:
    client = Client()
    client.force_login(host)
    anna = Player.objects.get(club=club, name="Anna")
    page = client.get(reverse("player-stats", args=[anna.pk])).content.decode()
    for text in ("Skat over the nights", "Best deal", "+96", "Partners and opponents", "Hand: 1", "<svg"):
        assert text in page, text
    first = club.nights.get(date="2025-01-10")
    assert reverse("deal", args=[first.pk, 1, 4]) in page  # the best deal links to its page
    # After a correction the page follows: the Grand Hand lost, Anna's best deal is the first Grand.
    deal = first.tables.get().deals.get(sequence=4)
    nights.correct_deal(deal, {**GRAND, "hand": True, "card_points": 50})
    assert anna_s(club).best.entry == 72


SCHAFKOPF_DEALS = [
    {"contract": "sauspiel", "declarer": 0, "partner": 1, "card_points": 70, "doublings": 1},  # Anna, Bernd play
    {"contract": "wenz", "declarer": 1, "card_points": 40},  # Bernd alone, nobody says Stoß
    {"contract": "solo", "declarer": 2, "trump": "H", "card_points": 70, "doublings": 2},  # Clara; Stoß, Retour
    {"contract": "passed"},  # no game: nobody could
    {"contract": "sie", "declarer": 3},  # a Sie at its fixed value is never doubled: nobody could
]


def schafkopf_journeys(club: Club, players: list[str], **settings: Any) -> dict[str, journey.Journey]:
    made = nights.start_night(game="schafkopf", preset="classic", players=players, club=club,
                              date=datetime.date(2025, 3, 1), **settings)
    for facts in SCHAFKOPF_DEALS:
        nights.enter_deal(made.tables.get(), facts)
    out = {}
    for player in Player.objects.filter(club=club, name__in=players):
        [schafkopf] = journey.journeys(player, stats.with_ledgers(club.nights.filter(game="schafkopf")))
        out[player.name] = schafkopf
    return out


def test_the_stoss_rate_counts_the_deals_on_the_side_that_could_say_it(club: Club) -> None:
    by_name = schafkopf_journeys(club, ["Anna", "Bernd", "Clara", "Dora"])
    # Anna could in the Wenz (not said) and the Solo (said); Bernd only in the Solo; Clara and Dora in the
    # Sauspiel (said) and the Wenz; Clara declared the Solo, Dora played against it.
    assert {name: (item.stoss, item.stoss_chances, item.stoss_rate) for name, item in by_name.items()} == {
        "Anna": (1, 2, 50), "Bernd": (1, 1, 100), "Clara": (1, 2, 50), "Dora": (2, 3, 67)}


def test_no_stoss_chance_where_the_rule_set_allows_no_doubling(club: Club) -> None:
    assert (anna_s(club).stoss_chances, anna_s(club).stoss_rate) == (0, None)  # Skat counts no Stoß
    made = nights.start_night(game="schafkopf", preset="classic", players=["Anna", "Bernd", "Clara", "Dora"],
                              club=club, house_rules={"max_doublings": 0})
    nights.enter_deal(made.tables.get(), {"contract": "wenz", "declarer": 1, "card_points": 40})
    anna = Player.objects.get(club=club, name="Anna")
    [schafkopf] = journey.journeys(anna, stats.with_ledgers(club.nights.filter(game="schafkopf")))
    assert (schafkopf.stoss_chances, schafkopf.stoss_rate) == (0, None)


def test_a_player_sitting_the_deal_out_had_no_chance(club: Club, host: User) -> None:
    # Five at the table: the dealer sits out (Anna deals first, then Bernd, Clara …) and engine seat 0 is
    # left of him. Sauspiel: Bernd and Clara play, Dora and Eva say Stoß. Wenz: Dora plays, Eva, Anna and
    # Clara could. Solo: Anna plays, Dora, Eva and Bernd say Stoß.
    by_name = schafkopf_journeys(club, ["Anna", "Bernd", "Clara", "Dora", "Eva"])
    assert {name: (item.stoss, item.stoss_chances, item.stoss_rate) for name, item in by_name.items()} == {
        "Anna": (0, 1, 0), "Bernd": (1, 1, 100), "Clara": (0, 1, 0), "Dora": (2, 2, 100), "Eva": (2, 3, 67)}
    client = Client()
    client.force_login(host)
    page = client.get(reverse("player-stats", args=[Player.objects.get(club=club, name="Eva").pk])).content.decode()
    assert "Stoß per chance" in page and "67 %: their side said Stoß in 2 of 3 deals" in page
