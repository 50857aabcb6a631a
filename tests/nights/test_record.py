"""The list as a record (issue 33): a deal's number is the one it was entered with, on every page, printout
and CSV; a deleted deal is a visible, restorable gap in its place; the counts say how many deals count."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from scorekeep.models import CardNight, CardTable, Deal
from scorekeep.nights import writes as nights

FOUR = ["Anna", "Bernd", "Clara", "Dieter"]
GRAND = {"contract": "grand", "declarer": 1, "bid": 48, "matadors": 2, "card_points": 70}


def url(night: CardNight, tail: str = "") -> str:
    return f"/nights/{night.pk}/tables/1/{tail}"


def html(response: Any) -> str:
    assert response.status_code == 200
    return str(response.content.decode())


@pytest.fixture
def skat(db: None) -> CardNight:
    """A 4-seat Skat night in a series of 36 with deals 1 … 4 entered and deal 2 deleted by Eva."""
    night = nights.start_night(game="skat", preset="classic", players=FOUR, series_length=36)
    table = night.tables.get()
    for _ in range(4):
        nights.enter_deal(table, GRAND, by="Anna")
    nights.delete_deal(table.deals.get(sequence=2), by="Eva", reason="entered at the wrong table")
    return night


def table_of(night: CardNight) -> CardTable:
    return night.tables.get()


def numbers(page: str) -> list[str]:
    """The rows of the printed list by their deals' numbers (the footnotes say theirs too)."""
    return [a or b for a, b in re.findall(r'<tr data-deal="(\d+)"|<tr class="gap-row" data-deal="(\d+)"', page)]


def test_the_table_page_numbers_the_next_deal_after_the_highest_given_and_says_what_counts(
        client: Client, skat: CardNight) -> None:
    page = html(client.get(url(skat)))
    status = re.search(r'<p class="status">(.*?)</p>', page, re.S)
    assert status is not None
    words = " ".join(status[1].split())
    # Not "Deal 4 of 36": 3 deals count, the next is deal 5 (deal 2's number stays with it).
    assert words.startswith("Deal 5 ·") and "3 deals count, 1 deleted of 36" in words
    assert '<input type="hidden" name="expected" value="5">' in page
    # The latest deals: 3 and 4 under their own numbers, deal 2 a gap with its deletion and Restore.
    assert 'id="latest-3"' in page and 'id="latest-4"' in page and 'id="latest-2"' not in page
    gap = re.search(r'<tr class="gap-row" id="deal-2".*?</tr>', page, re.S)
    assert gap is not None and "— deleted by Eva: entered at the wrong table" in gap[0]
    assert url(skat, "deals/2/restore/") in gap[0]


def test_the_deal_pages_and_the_history_keep_the_numbers(client: Client, skat: CardNight) -> None:
    page = html(client.get(url(skat, "deals/3/")))
    assert "<h1>Deal 3</h1>" in page and "Deal 3 entered by Anna" in page
    deleted = html(client.get(url(skat, "deals/2/")))
    assert "<h1>Deal 2 · deleted</h1>" in deleted and "Deal 2 deleted by Eva" in deleted


def test_the_whole_list_and_the_printout_show_the_gap_in_its_place(client: Client, skat: CardNight) -> None:
    whole = html(client.get(url(skat, "list/")))
    assert re.findall(r'data-deal="(\d+)" data-gap="deleted"', whole) == ["2"]  # the gap in its place
    rows = re.findall(r'<a href="/nights/\d+/tables/1/deals/(\d+)/">\1</a>', whole)
    assert rows == ["1", "2", "3", "4"]
    assert "3 deals count, 1 deleted" in whole and "deleted by Eva: entered at the wrong table" in whole
    printed = html(client.get(f"/nights/{skat.pk}/print/"))
    assert numbers(printed) == ["1", "2", "3", "4"] and 'data-deal="2" data-gap="deleted"' in printed
    assert "3 deals count, 1 deleted" in printed


def test_a_deal_entered_after_the_last_was_deleted_takes_the_next_number(client: Client, skat: CardNight) -> None:
    table = table_of(skat)
    nights.delete_deal(table.deals.get(sequence=4), by="Eva")
    response = client.post(url(skat, "deals/new/"), {**GRAND, "expected": 5, "expected_is": "number", "key": "k" * 16})
    assert response.status_code == 303
    assert table.deals.get(deleted=False, entered_by="").sequence == 5
    page = html(client.get(response["Location"]))
    assert "Deal 5 saved" in page and 'id="deal-4"' in page and 'id="latest-5"' in page


def test_a_form_from_before_is_read_by_the_count_it_sent(client: Client, skat: CardNight) -> None:
    """A deal waiting in a phone's outbox since before issue 33 sent the count of live deals plus one (4 here,
    deal 2 being deleted): it is stored once, as the next deal, not refused as entered meanwhile."""
    response = client.post(url(skat, "deals/new/"), {**GRAND, "expected": 4, "key": "o" * 16})
    assert response.status_code == 303
    assert Deal.objects.filter(table__night=skat, deleted=False).order_by("sequence").last().sequence == 5  # type: ignore[union-attr]
    assert "Deal 5 saved" in html(client.get(response["Location"]))  # under its number, not "Deal 4"
    # Sent again (its answer lost), it is the same deal.
    assert client.post(url(skat, "deals/new/"), {**GRAND, "expected": 4, "key": "o" * 16}).status_code == 303
    assert Deal.objects.filter(table__night=skat).count() == 5


def test_a_deal_entered_meanwhile_is_named_by_its_number(client: Client, skat: CardNight) -> None:
    nights.enter_deal(table_of(skat), GRAND, by="Clara")  # deal 5, from another phone
    response = client.post(url(skat, "deals/new/"), {**GRAND, "expected": 5, "expected_is": "number",
                                                     "key": "m" * 16}, headers={"HX-Request": "true",
                                                                                "HX-Target": "table-region"})
    page = html(response)
    assert 'data-next="6"' in page and '<p data-number="5">Deal 5 was entered meanwhile' in page
    assert Deal.objects.filter(table__night=skat).count() == 5


def test_restore_from_the_gap_puts_the_deal_back_under_its_number(client: Client, skat: CardNight) -> None:
    form = re.search(r'<form method="post" action="([^"]+)" class="restore-gap">.*?name="next" value="(\w+)"',
                     html(client.get(url(skat))), re.S)
    assert form is not None and form[1] == url(skat, "deals/2/restore/")
    response = client.post(form[1], {"next": form[2]})
    assert response.status_code == 303 and response["Location"] == url(skat)
    page = html(client.get(url(skat)))
    assert 'id="deal-2"' not in page and 'id="latest-2"' in page and "Deal 5 of 36" in page
