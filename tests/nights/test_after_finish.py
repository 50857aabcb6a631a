"""A finished list stays finished (issue 33): a correction, deletion or restore after the finish is stored only
after a confirmation (a form step, no JavaScript), is marked "made after the finish" in the history and on
the printout, and the settlement page shows what it changed against what was settled at the finish."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scorekeep.models import CardNight, Deal, DealRevision
from scorekeep.nights import writes as nights

GRAND = {"contract": "grand", "declarer": 0, "bid": 18, "matadors": 1, "card_points": 70}


def url(night: CardNight, tail: str = "") -> str:
    return f"/nights/{night.pk}/tables/1/{tail}"


def html(response: Any) -> str:
    return str(response.content.decode())


@pytest.fixture
def finished(client: Client, db: None) -> CardNight:
    """A Skat night at three settled at a cent a point: Anna won two Grands (48 each); then finished by its host."""
    night = nights.start_night(game="skat", preset="classic", players=["Anna", "Bernd", "Clara"],
                               settlement={"rate": "1", "step": 1})
    table = night.tables.get()
    for _ in range(2):
        nights.enter_deal(table, GRAND, by="Anna")
    assert client.post(reverse("night-finish", args=[night.pk]), {"finished": "1"}).status_code == 303
    night.refresh_from_db()
    return night


def test_the_finish_keeps_what_it_settled(finished: CardNight) -> None:
    assert finished.finish["balances"] == {"Anna": 192, "Bernd": -96, "Clara": -96}
    assert sorted(finished.finish["transfers"]) == [["Bernd", "Anna", 96], ["Clara", "Anna", 96]]


def test_a_correction_after_the_finish_asks_first_and_stores_nothing(client: Client, finished: CardNight) -> None:
    response = client.post(url(finished, "deals/2/"), {**GRAND, "card_points": 50, "by": "Eva", "reason": "recount"})
    assert response.status_code == 200
    page = html(response)
    assert re.search(r"This list was already finished on .+; change it anyway\?", page)
    assert 'name="confirm_finished" value="1"' in page and 'value="50"' in page and 'value="recount"' in page
    deal = Deal.objects.get(table__night=finished, sequence=2)
    assert deal.facts["card_points"] == 70 and deal.version == 1
    assert not DealRevision.objects.filter(kind="changed").exists()


def test_a_confirmed_correction_is_stored_marked_and_its_effect_on_the_settlement_shown(
        client: Client, finished: CardNight) -> None:
    response = client.post(url(finished, "deals/2/"), {**GRAND, "card_points": 50, "by": "Eva", "reason": "recount",
                                                       "confirm_finished": "1"})
    assert response.status_code == 303
    deal = Deal.objects.get(table__night=finished, sequence=2)
    assert deal.facts["card_points"] == 50 and deal.verdict["won"] is False
    assert DealRevision.objects.get(kind="changed").after_finish
    assert "made after the finish" in html(client.get(url(finished, "deals/2/")))
    printed = html(client.get(reverse("night-print", args=[finished.pk])))
    note = re.search(r'<li value="1" data-note="1" data-deal="2"><strong class="after-finish">(.*?)</strong>', printed)
    assert note is not None and "made after the finish" in note[1] and "70 → 50" in note[1]
    settled = html(client.get(reverse("night-settlement", args=[finished.pk])))
    since = re.search(r'<section class="since-finish card".*?</section>', settled, re.S)
    assert since is not None
    # Then Anna got 96 from each; now her Grand 2 is lost (−96): Anna 48 − 96 = −48, the others 0 each.
    assert "Bernd pays Anna €0.96" in since[0] and "Clara pays Anna €0.96" in since[0]
    moved = re.findall(r'<tr><th scope="row">(\w+)</th><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td></tr>', since[0])
    assert moved == [("Anna", "+€1.92", "−€0.96", "−€2.88"), ("Bernd", "−€0.96", "+€0.48", "+€1.44"),
                     ("Clara", "−€0.96", "+€0.48", "+€1.44")]


def test_a_deletion_and_a_restore_after_the_finish_ask_first(client: Client, finished: CardNight) -> None:
    page = html(client.post(url(finished, "deals/1/delete/"), {"by": "Eva", "reason": "wrong table"}))
    assert "This list was already finished on" in page
    form = re.search(r'<div class="errors top confirm-finished".*?</form>', page, re.S)
    assert form is not None and 'name="reason" value="wrong table"' in form[0]
    assert not Deal.objects.filter(deleted=True).exists() and not DealRevision.objects.filter(kind="deleted").exists()
    sent = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form[0]))
    assert client.post(url(finished, "deals/1/delete/"), sent).status_code == 303
    assert Deal.objects.get(sequence=1).deleted and DealRevision.objects.get(kind="deleted").after_finish
    assert "This list was already finished" in html(client.post(url(finished, "deals/1/restore/"), {}))
    assert Deal.objects.get(sequence=1).deleted
    assert client.post(url(finished, "deals/1/restore/"), {"confirm_finished": "1"}).status_code == 303
    assert not Deal.objects.get(sequence=1).deleted and DealRevision.objects.get(kind="restored").after_finish


def test_an_open_night_takes_changes_as_before(client: Client, finished: CardNight) -> None:
    assert client.post(reverse("night-finish", args=[finished.pk]), {"finished": "0"}).status_code == 303
    assert client.post(url(finished, "deals/1/delete/"), {}).status_code == 303
    assert not DealRevision.objects.get(kind="deleted").after_finish
    finished.refresh_from_db()
    assert finished.finish == {}


def test_a_closed_tournament_series_table_asks_first_too(db: None) -> None:
    from django.utils import timezone

    from scorekeep.models import Series
    from scorekeep.tournaments import writes as tournaments
    from tests.tournament_fixtures import draw, tournament

    tour = tournament("skat", players=3, series=1)
    table = draw(tour, 1, [[1, 2, 3]])[0]
    Series.objects.filter(tournament=tour).update(drawn_at=timezone.now())
    deal = nights.enter_deal(table, GRAND)
    tournaments.close_series(Series.objects.get(tournament=tour), reason="a short series")
    table.night.refresh_from_db()
    assert table.night.finished and "at" in table.night.finish
    with pytest.raises(nights.Finished):
        nights.correct_deal(deal, {**GRAND, "card_points": 50}, by="orga")
    assert not DealRevision.objects.filter(kind="changed").exists()
    nights.correct_deal(deal, {**GRAND, "card_points": 50}, by="orga", confirmed=True)
    assert DealRevision.objects.get(kind="changed").after_finish
