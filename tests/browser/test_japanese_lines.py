"""Japanese at 390 px, in Chromium: contract buttons and table headers never break inside a word.

Japanese has no spaces, and a browser may break a line between any two letters (ディー|ル, ゲ|ーム). The
stylesheets break Japanese between phrases instead (word-break: auto-phrase). A one-word label or cell
must sit on one line: its text's line boxes are counted.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Locator, Page

from scorekeep.nights import writes as nights

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Anna", "Bernd", "Clara", "Dieter"]


LINES = ("e => { const range = document.createRange(); range.selectNodeContents(e); "
         "return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; }")


def lines_of(cells: Locator, words: list[str]) -> dict[str, int]:
    """How many lines each word's cell (or button) takes: a word broken inside takes two."""
    found = {}
    for word in words:
        cell = cells.filter(has_text=word).first
        found[word] = cell.evaluate(LINES)
    return found


def test_contract_buttons_keep_their_words_whole(page: Page, live_server: Any) -> None:
    schafkopf = nights.start_night(game="schafkopf", preset="bsv", players=PLAYERS)
    fipsen = nights.start_night(game="fipsen", preset="classic", players=PLAYERS)
    page.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    page.goto(f"{live_server.url}/nights/{schafkopf.pk}/tables/1/")
    page.locator("html.js").wait_for(state="attached")
    words = ["パートナーゲーム", "ベンツ", "ラムシュ"]
    assert lines_of(page.locator("#q-contract .tap span"), words) == dict.fromkeys(words, 1)
    page.goto(f"{live_server.url}/nights/{fipsen.pk}/tables/1/")
    page.locator("html.js").wait_for(state="attached")
    words = ["トリックビッド", "キーカー", "ズィーベナーフィップス"]
    assert lines_of(page.locator("#q-contract .tap span"), words) == dict.fromkeys(words, 1)
    # Skat at three: who declared what is a grid of players and games, six narrow taps a row.
    skat = nights.start_night(game="skat", preset="classic", players=PLAYERS[:3])
    page.goto(f"{live_server.url}/nights/{skat.pk}/tables/1/")
    page.locator("html.js").wait_for(state="attached")
    words = ["グランド", "ミゼール", "ラムシュ"]
    assert lines_of(page.locator("#q-contract .tap span[aria-hidden], #q-contract .grid-others span"),
                    words) == dict.fromkeys(words, 1)


def test_the_printouts_headers_and_contracts_keep_their_words_whole(page: Page, live_server: Any) -> None:
    night = nights.start_night(game="schafkopf", preset="bsv", players=PLAYERS)
    table = night.tables.get()
    for deal in ({"contract": "sauspiel", "declarer": 0, "partner": 2, "called_ace": "S", "card_points": 70},
                 {"contract": "wenz", "declarer": 1, "card_points": 80}):
        nights.enter_deal(table, deal)
    page.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    page.goto(f"{live_server.url}/nights/{night.pk}/print/")
    headers = ["ゲーム", "プレイヤー", "結果"]
    assert lines_of(page.locator("table th"), headers) == dict.fromkeys(headers, 1)
    cells = ["パートナーゲーム", "勝ち"]
    assert lines_of(page.locator("table td"), cells) == dict.fromkeys(cells, 1)


def test_the_glossarys_terms_keep_their_words_whole(page: Page, live_server: Any) -> None:
    page.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    page.goto(f"{live_server.url}/glossary/schafkopf/")
    terms = ["パートナーゲーム", "クロップフェン", "ラウフェンデ", "シュナイダー"]
    assert lines_of(page.locator(".glossary-table .term"), terms) == dict.fromkeys(terms, 1)
