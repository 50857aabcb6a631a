"""Live sections: a poll is answered 304 Not Modified while what it shows is unchanged — one small
query, nothing rendered — and with the new section as soon as something changed; a save at another
table of the night leaves a table page's poll at 304, a viewer's poll sees the scorer's save."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from scorekeep.models import CardNight
from scorekeep.nights import writes as nights
from scorekeep.web import access

GRAND = {"contract": "grand", "declarer": 1, "bid": 48, "matadors": 2, "card_points": 70}
TABLE_POLL = {"HX-Request": "true", "HX-Target": "live-ledger"}
NIGHT_POLL = {"HX-Request": "true", "HX-Target": "live-night"}


@pytest.fixture
def night(db: None) -> CardNight:
    night = nights.start_night(game="skat", preset="classic", players=["Anna", "Bernd", "Clara"])
    nights.seat_table(night, ["Dieter", "Eva", "Fritz"])
    return night


def poll(client: Client, url: str, headers: dict[str, str], etag: str = "") -> Any:
    return client.get(url, headers={**headers, **({"If-None-Match": etag} if etag else {})})


def test_a_table_poll_is_304_until_its_table_changes(client: Client, night: CardNight,
                                                     django_assert_max_num_queries: Any) -> None:
    url = f"/nights/{night.id}/tables/1/"
    first = poll(client, url, TABLE_POLL)
    assert first.status_code == 200 and 'id="live-ledger"' in first.content.decode()
    etag = first["ETag"]
    with django_assert_max_num_queries(4):  # the session, the user, the access check, the table's version
        unchanged = poll(client, url, TABLE_POLL, etag)
    assert unchanged.status_code == 304 and unchanged.content == b""
    nights.enter_deal(night.tables.get(number=2), GRAND)  # another table of the hall
    assert poll(client, url, TABLE_POLL, etag).status_code == 304
    nights.enter_deal(night.tables.get(number=1), GRAND)
    changed = poll(client, url, TABLE_POLL, etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.content.decode().count('class="deal-row') == 1


def test_the_night_poll_sees_every_table(client: Client, night: CardNight) -> None:
    url = f"/nights/{night.id}/"
    etag = poll(client, url, NIGHT_POLL)["ETag"]
    assert poll(client, url, NIGHT_POLL, etag).status_code == 304
    nights.enter_deal(night.tables.get(number=2), GRAND)
    changed = poll(client, url, NIGHT_POLL, etag)
    assert changed.status_code == 200 and 'id="live-night"' in changed.content.decode()


def test_a_viewer_polls_what_a_scorer_saves(night: CardNight) -> None:
    viewer, scorer = Client(), Client()
    viewer.get(f"/join/{night.viewer_token}/")
    scorer.get(f"/join/{night.scorer_token}/")
    url = f"/nights/{night.id}/tables/1/"
    etag = poll(viewer, url, TABLE_POLL)["ETag"]
    page = scorer.get(url).content.decode()
    assert 'name="expected" value="1"' in page
    key = page.split('name="key" value="')[1].split('"')[0]
    saved = scorer.post(f"{url}deals/new/", {"key": key, "expected": "1", "contract": "grand", "declarer": "1",
                                             "bid": "48", "matadors": "2", "card_points": "70"})
    assert saved.status_code == 303
    changed = poll(viewer, url, TABLE_POLL, etag)
    assert changed.status_code == 200 and changed.content.decode().count('class="deal-row') == 1
    assert 'id="deal-form"' not in changed.content.decode()  # a viewer's section: the ledger only


def test_a_revoked_viewer_gets_no_more_polls(night: CardNight) -> None:
    viewer = Client()
    viewer.get(f"/join/{night.viewer_token}/")
    url = f"/nights/{night.id}/tables/1/"
    etag = poll(viewer, url, TABLE_POLL)["ETag"]
    access.renew_link(night, access.VIEW)
    assert poll(viewer, url, TABLE_POLL, etag).status_code == 404


def test_a_phone_with_both_links_keeps_watching_when_the_scorer_link_is_renewed(night: CardNight) -> None:
    phone = Client()
    phone.get(f"/join/{night.scorer_token}/")
    phone.get(f"/join/{night.viewer_token}/")
    page = phone.get(f"/nights/{night.id}/tables/1/").content.decode()
    assert 'id="deal-form"' in page  # the viewer link did not take scoring away
    access.renew_link(night, access.SCORE)
    page = phone.get(f"/nights/{night.id}/tables/1/")
    assert page.status_code == 200 and 'id="deal-form"' not in page.content.decode()
