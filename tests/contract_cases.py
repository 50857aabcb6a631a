"""Requests that the command line and the API must both answer the same way (ADJUDICATION.md)."""

import pytest


def with_deal(request: dict, **deal: object) -> dict:
    return {**request, "deal": {**request["deal"], **deal}}


# A bad request made from a good one, the field the rejection must name, and words it must say.
BAD_FIELDS = [
    pytest.param(lambda r: {**r, "colour": "red"}, "colour", "is not a field here", id="unknown-top-field"),
    pytest.param(lambda r: with_deal(r, trump="C"), "deal.trump", "is not a field here", id="unknown-deal-field"),
    pytest.param(lambda r: with_deal(r, card_points="70"), "deal.card_points", "must be a whole number from 0 to 120",
                 id="text-for-number"),
    pytest.param(lambda r: with_deal(r, card_points=True), "deal.card_points", "must be a whole number from 0 to 120",
                 id="boolean-for-number"),
    pytest.param(lambda r: with_deal(r, card_points=None, declarer=True), "deal.declarer", "must be a whole number",
                 id="boolean-for-seat"),
    pytest.param(lambda r: with_deal(r, card_points=121), "deal.card_points", "must be from 0 to 120, not 121",
                 id="out-of-range"),
    pytest.param(lambda r: {**r, "dealer": 3}, "dealer", "must be from 0 to 2", id="dealer-out-of-range"),
    pytest.param(lambda r: {**r, "players": 5}, "players", "3 or 4 seats", id="players"),
    pytest.param(lambda r: {**r, "rules": {"preset": "tournament"}}, "rules.preset", '"isko"', id="unknown-preset"),
    pytest.param(lambda r: {**r, "rules": {"preset": "isko", "kontra": 1}}, "rules.kontra", "must be true or false",
                 id="option-type"),
    pytest.param(lambda r: {key: value for key, value in r.items() if key != "game"}, "game", "is required",
                 id="no-game"),
    pytest.param(lambda r: {**r, "game": "poker"}, "game", '"skat"', id="unknown-game"),
]

# Rejections and verdicts whose English names seats, as the contract numbers them (from 0).
DEALER_DECLARES = {"game": "skat", "players": 4, "dealer": 1,
                   "deal": {"contract": "clubs", "declarer": 1, "bid": 18, "matadors": 1, "card_points": 70}}
SAUSPIEL = {"game": "schafkopf", "deal": {"contract": "sauspiel", "declarer": 2, "partner": 0, "called_ace": "C",
                                          "card_points": 70}}

# The same two answers in each catalogue's words (--language, Accept-Language): the first explanation line of
# conftest's grand_with_two, and the rejection of DEALER_DECLARES, seats still counted from 0.
IN_OTHER_LANGUAGES = [
    pytest.param("de", "Grandspiel von Platz 0, mit 2: Grundwert 24",
                 "Platz 1 gibt an diesem Vierertisch und setzt aus, kann also nicht Alleinspieler sein; "
                 "der Alleinspieler ist einer von Platz 0, Platz 2 und Platz 3", id="de"),
    pytest.param("ja", "席0のグランドゲーム、ウィズ2：基本点 24",
                 "この4人卓では席1がディーラーでこのディールは休みのため、宣言者にはなれません。"
                 "宣言者は席0、席2と席3のいずれかです", id="ja"),
]
