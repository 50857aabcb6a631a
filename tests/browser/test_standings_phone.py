"""What ranks, on a phone (issue 31): at 390 × 844 the tournament's standings and a season's table show the
ranking figure, its tie-breaks, the move and the notes without scrolling sideways (a row stacks where the
columns do not fit), and the big screen's pages hold as many rows as its height takes."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorekeep.clubs import clubs, seasons
from scorekeep.models import Entrant
from scorekeep.nights import writes as nights
from tests.tournament_fixtures import draw, tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every table on the page inside its own box, and the page inside the screen: nothing to scroll sideways.
FITS_JS = """() => [document.documentElement.scrollWidth <= document.documentElement.clientWidth,
  ...[...document.querySelectorAll('table')].map((t) => t.scrollWidth <= t.parentElement.clientWidth
    && t.getBoundingClientRect().right <= document.documentElement.clientWidth + 0.5)]"""
# The visible rows of the big screen end within the screen, and another as tall would not fit below them.
FILLS_JS = """() => {
  const rows = [...document.querySelectorAll('.bigscreen-table tbody tr')].filter((r) => r.offsetParent !== null);
  const last = rows[rows.length - 1].getBoundingClientRect();
  const tallest = Math.max(...rows.map((r) => r.getBoundingClientRect().height));
  return {shown: rows.length, bottom: last.bottom, room: window.innerHeight, tallest};
}"""


def grand(declarer: int, card_points: int) -> dict[str, Any]:
    return {"contract": "grand", "declarer": declarer, "bid": 18, "matadors": -1, "card_points": card_points}


def shows_what_ranks(page: Page, url: str, cells: list[str]) -> None:
    page.goto(url)
    expect(page.locator("table").first).to_be_visible()
    assert all(page.evaluate(FITS_JS)), f"{url} scrolls sideways"
    first = page.locator("table tbody tr").first
    for cell in cells:
        box = first.locator(cell).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, (url, cell, box)


def test_standings_and_season_table_stack_on_a_phone_and_the_screen_fills_its_height(page: Page,
                                                                                     live_server: Any) -> None:
    tour = tournament("skat", "isko", players=30, teams=["Nord", "Süd"])
    tables = draw(tour, 1, [[n, n + 1, n + 2] for n in range(1, 31, 3)])
    later = draw(tour, 2, [[n, n + 1, n + 2] for n in range(1, 31, 3)])
    nights.enter_deal(tables[0], grand(0, 40))  # a lost game: a long negative figure
    nights.enter_deal(tables[1], grand(0, 70))
    nights.enter_deal(later[2], grand(1, 70))  # series 2 under way: the standings move
    Entrant.objects.filter(tournament=tour, number__in=[1, 4]).update(last_series=1)  # notes: withdrew
    shows_what_ranks(page, f"{live_server.url}/standings/{tour.viewer_token}/",
                     ["td.main", "td.figure >> nth=2", "td.move", "td.notes"])
    shows_what_ranks(page, f"{live_server.url}/tournaments/{tour.pk}/standings/", ["td.main", "td.move"])

    for day, declarer in ((4, 0), (11, 1)):  # two nights: the season's table moves
        night = nights.start_night(game="skat", preset="isko", players=["Anna", "Bernd", "Clara"],
                                   series_length=36, date=datetime.date(2025, 4, day), club=tour.club)
        nights.enter_deal(night.tables.get(), grand(declarer, 70 if day == 4 else 30))
    club = clubs.set_ratings(tour.club, True)
    season = seasons.start_season(club, name="2025", game="skat", start=datetime.date(2025, 1, 1),
                                  end=datetime.date(2025, 12, 31), basis="seeger_fabian")
    shows_what_ranks(page, f"{live_server.url}/clubs/{club.pk}/seasons/{season.pk}/",
                     ["td.main", "td.move", "td >> nth=-1"])

    page.goto(f"{live_server.url}/standings/{tour.viewer_token}/screen/")
    page.locator("html.js").wait_for(state="attached")
    expect(page.locator(".bigscreen-page")).not_to_have_text("")
    fill = page.evaluate(FILLS_JS)
    assert fill["bottom"] <= fill["room"], fill  # the last row shown is whole on the screen
    assert fill["room"] - fill["bottom"] < fill["tallest"] + 8, fill  # and no further row would have fitted
