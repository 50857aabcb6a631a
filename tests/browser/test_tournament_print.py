"""A tournament's printouts in Chromium: the table cards are A6 (four to an A4 sheet), the toolbar is gone in print,
each table's list starts a page of its own, and the page breaks no rule of the site's Content-Security-Policy
(the QR codes are inline SVG, no style attribute, no inline script)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from scorekeep.models import CardNight, CardTable, Club, Entrant, Player, Series, TablePlayer, Tournament
from scorekeep.nights import writes as nights

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MM = 96 / 25.4  # CSS pixels per millimetre


@pytest.fixture
def tournament(live_server: Any) -> Tournament:
    """Seven entrants in one series: a table of four and one of three, a deal at each."""
    club = Club.objects.create(name="SC Herz")
    tournament = Tournament.objects.create(club=club, name="Herbstturnier", place="Vereinsheim", game="skat",
                                           preset="classic", series_count=1, series_length=48)
    series = Series.objects.create(tournament=tournament, number=1)
    names = ["Anna", "Bernd", "Clara", "Dieter", "Erika", "Franz", "Greta"]
    entrants = [Entrant.objects.create(tournament=tournament, player=Player.objects.create(club=club, name=name),
                                       number=i) for i, name in enumerate(names, start=1)]
    for number, seated in ((1, entrants[:4]), (2, entrants[4:])):
        night = CardNight.objects.create(game="skat", preset="classic", club=club, series=series,
                                         date=tournament.date, place=tournament.place, series_length=48)
        table = CardTable.objects.create(night=night, number=number, seats=len(seated))
        for position, entrant in enumerate(seated):
            TablePlayer.objects.create(table=table, player=entrant.player, position=position)
        nights.enter_deal(table, {"contract": "grand", "declarer": 0, "bid": 48, "matadors": 2, "card_points": 70})
    return tournament


def refused_by_csp(page: Any) -> list[str]:
    messages: list[str] = []
    page.on("console", lambda message: messages.append(message.text)
            if "Content Security Policy" in message.text else None)
    return messages


def test_table_cards_are_a6_and_the_toolbar_is_not_printed(page: Any, live_server: Any,
                                                           tournament: Tournament) -> None:
    refused = refused_by_csp(page)
    page.set_viewport_size({"width": 900, "height": 1200})
    page.goto(live_server.url + reverse("tournament-print-cards", args=[tournament.pk, 1]))
    page.locator("[data-print]").wait_for(state="visible")  # print.js ran: the page's own script is allowed
    cards = page.locator("article.table-card")
    assert cards.count() == 2
    for i in range(2):
        box = cards.nth(i).bounding_box()
        assert abs(box["width"] - 105 * MM) < 2 and abs(box["height"] - 148 * MM) < 2
        assert cards.nth(i).locator("svg.segno").bounding_box()["width"] > 35 * MM  # a QR a phone reads
    page.emulate_media(media="print")
    assert page.locator("nav.toolbar").is_hidden()
    assert refused == []


def test_each_table_s_list_starts_a_page(page: Any, live_server: Any, tournament: Tournament) -> None:
    refused = refused_by_csp(page)
    page.goto(live_server.url + reverse("tournament-print-lists", args=[tournament.pk, 1]))
    sections = page.locator("section.table-page")
    sections.nth(1).wait_for(state="attached")
    breaks = [sections.nth(i).evaluate("s => getComputedStyle(s).breakBefore") for i in range(2)]
    assert breaks == ["auto", "page"]
    assert refused == []
