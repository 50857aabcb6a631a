"""Each game in its own words (scorekeep/words/game_words.py): a message the games say differently has the game
as its context, looked up in the game a page speaks of, the plain message as the fallback.

Japanese from the games' seed pages (../shared/spec/VOCABULARY.md): the declarer is 宣言者 in Skat and
デクレアラー in Schafkopf and Fipsen; Hand is ハンド in Skat and ハント in Fipsen. German from the lists: the
Skat declarer is the Alleinspieler, the Schafkopf and Fipsen one the Spieler.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from scorekeep.models import CardNight
from scorekeep.words.labels import in_game, page_words, speaking_of


def text(html: bytes) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html.decode())).split())


@pytest.mark.parametrize(("language", "game", "declarer", "hand"), [
    ("ja", "skat", "宣言者", "ハンド"), ("ja", "fipsen", "デクレアラー", "ハント"),
    ("ja", "schafkopf", "デクレアラー", "ハンド"), ("de", "skat", "Alleinspieler", "Hand"),
    ("de", "schafkopf", "Spieler", "Hand"), ("de", "fipsen", "Spieler", "Hand"),
    ("en", "fipsen", "Declarer", "Hand"),
])
def test_a_word_in_the_game_a_page_speaks_of(language: str, game: str, declarer: str, hand: str) -> None:
    with translation.override(language):
        assert (in_game("Declarer", game), in_game("Hand", game)) == (declarer, hand)
        with speaking_of(game):
            assert page_words("Declarer") == declarer
        assert in_game("Grand", game) == translation.gettext("Grand")  # no word of its own: the plain one


@pytest.mark.django_db
def test_the_glossary_gives_each_game_its_own_words(client: Client) -> None:
    client.cookies["django_language"] = "ja"
    fipsen = text(client.get("/glossary/fipsen/").content)
    skat = text(client.get("/glossary/skat/").content)
    assert "ハント Hand" in fipsen and "デクレアラー Spieler" in fipsen
    assert "ハンド Hand" in skat and "宣言者 Alleinspieler" in skat
    client.cookies["django_language"] = "de"
    schafkopf = text(client.get("/glossary/schafkopf/").content)
    assert "Spieler Spieler" in schafkopf and "Gegenstoß" in schafkopf and "Retour" not in schafkopf


def test_the_dispute_page_speaks_the_chosen_games_words(client: Client) -> None:
    client.cookies["django_language"] = "ja"
    fipsen = text(client.get("/adjudicate/?game=fipsen&contract=tricks").content)
    skat = text(client.get("/adjudicate/?game=skat&contract=grand").content)
    assert "デクレアラー" in fipsen and "ハント" in fipsen and "宣言者" not in fipsen
    assert "宣言者" in skat and "ハンド" in skat and "デクレアラー" not in skat


def test_a_nights_pages_speak_its_games_words(client: Client, demo: dict[str, CardNight]) -> None:
    client.cookies["django_language"] = "de"
    sauspiel, declarer = _first_deal(demo["schafkopf"], lambda facts: facts["contract"] == "sauspiel")
    deal = text(client.get(f"/nights/{demo['schafkopf'].id}/tables/1/deals/{sauspiel}/").content)
    assert f"Sauspiel Spieler {declarer} Partner" in deal and "Alleinspieler" not in deal
    client.cookies["django_language"] = "ja"
    fipsen = demo["fipsen"]
    hand, declarer = _first_deal(fipsen, lambda facts: bool(facts.get("hand")))
    # The deal and the table's whole list (the table page shows only the latest deals, which need not be Hand).
    for url in (f"/nights/{fipsen.id}/tables/1/deals/{hand}/", f"/nights/{fipsen.id}/tables/1/list/"):
        page = text(client.get(url).content)
        assert "ハント" in page and "宣言者" not in page, url
        assert "ハンド" not in page.replace("フォアハンド", ""), url  # forehand is the one ハンド of Fipsen's page
    assert f"デクレアラー {declarer}" in text(client.get(f"/nights/{fipsen.id}/tables/1/deals/{hand}/").content)


def _first_deal(night: CardNight, wanted: Callable[[dict[str, Any]], bool]) -> tuple[int, str]:
    """The first deal of the demo night's table whose facts are `wanted`, and its declarer's name."""
    table = night.tables.get()
    names = [place.player.name for place in table.places.order_by("position")]
    deal = next(deal for deal in table.deals.order_by("sequence") if wanted(deal.facts))
    return deal.sequence, names[deal.seating[deal.facts["declarer"]]]


def test_a_deals_value_in_each_games_words(client: Client, demo: dict[str, CardNight]) -> None:
    """The value beside a verdict: ゲームバリュー on a Skat page (its seed page), 金額 on a Schafkopf one (money),
    the plain ゲーム点 elsewhere; the German Skat list's Spielwert."""
    client.cookies["django_language"] = "ja"
    words = {game: text(client.get(f"/nights/{demo[game].id}/tables/1/deals/2/").content) for game in demo}
    assert "ゲームバリュー" in words["skat"] and "金額" in words["schafkopf"] and "ゲーム点" in words["kop"]
    dispute = text(client.get("/adjudicate/?game=skat&contract=grand&declarer=0&bid=48&matadors=2"
                              "&card_points=70").content)
    assert "ゲームバリュー 72" in dispute
    client.cookies["django_language"] = "de"
    assert "Spielwert" in text(client.get(f"/nights/{demo['skat'].id}/print/").content)


# Words a game's players would not find in their list or on their rule page, in that game's lines.
NOT_THE_GAMES_WORD = {
    "de": {"schafkopf": ["Alleinspieler", "Retour", "Reihenfolge der Gebote"],
           "fipsen": ["Alleinspieler", "Reihenfolge der Gebote"], "kop": ["Alleinspieler"]},
    "ja": {"schafkopf": ["宣言者"], "fipsen": ["宣言者", "ハンド"], "skat": ["デクレアラー", "ハント"],
           "kop": ["宣言者"]},
}


@pytest.mark.parametrize("language", ["de", "ja"])
def test_every_example_line_speaks_its_games_words(language: str) -> None:
    """Every line and refusal of the demo nights and the conformance vectors, rendered as a night's page renders
    it, uses each game's own words (VOCABULARY.md)."""
    import json

    from scorekeep.nights import demo
    from scorekeep.rules import IllegalDeal, judge
    from tests.rules.vectors import VECTORS

    requests = [{"game": n.game, "rules": {"preset": n.preset, **n.house_rules}, "players": len(n.players),
                 "deal": facts} for n in demo.nights() for facts in n.deals]
    for path in sorted(VECTORS.glob("*.jsonl")) if VECTORS.exists() else []:
        requests += [json.loads(line)["input"] for line in path.read_text(encoding="utf-8").splitlines() if line]
    found: dict[tuple[str, str], str] = {}
    lines = 0
    with translation.override(language):
        for request in requests:
            game = request.get("game") if isinstance(request, dict) else None
            if game not in ("skat", "schafkopf", "kop", "fipsen"):
                continue
            with speaking_of(game):
                try:
                    written = judge(request).explain(str, page_words)
                except IllegalDeal as err:
                    written = [err.render(str, page_words(err.text), page_words)]
            for line in written:
                lines += 1
                for word in NOT_THE_GAMES_WORD[language].get(game, []):
                    if word in line.replace("フォアハンド", ""):  # forehand: the one ハンド that is no Hand
                        found.setdefault((game, word), line)
    assert lines > (700 if VECTORS.exists() else 300)  # the vectors sit beside the clone (../shared)
    assert not found, found
