"""Money inside the explanation lines (docs/MONEY.md, "Written money").

The engine marks the amounts of a game whose scores are money (`explain.Amount`: Schafkopf's prices, bonuses,
values and payments); a night's pages write them as money in the night's currency and the page's language,
while the contract's English — the API, the CLI, the stored verdict — keeps the engine's integers.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client

from scorekeep.api.contract_io import Translation
from scorekeep.models import Deal
from scorekeep.nights import writes as nights
from scorekeep.rules import judge
from scorekeep.rules.explain import Amount, Step

PLAYERS = ["Anna", "Bernd", "Clara", "Dieter"]
# A won partner game with schneider, schwarz, 4 Laufende and a Stoß: every part of the sum line, and a multiplier.
SAUSPIEL = {"contract": "sauspiel", "declarer": 0, "partner": 2, "called_ace": "S", "card_points": 120,
            "declarer_tricks": 8, "laufende": 4, "doublings": 1}
# The sauspiel preset's tariff: partner game 20, schneider 10, schwarz 10, per Laufender 10 (minor units).
SUM_LINE = "20 (price) + 10 (schneider) + 10 (schwarz) + 40 (Laufende) = 80"

NBSP = "\u00a0"
EXPECTED = {
    ("EUR", "en"): ["€0.20 (price) + €0.10 (schneider) + €0.10 (schwarz) + €0.40 (Laufende) = €0.80",
                    "+ 4 × €0.10 (Per Laufender) = €0.40", "€0.80 × 2 = €1.60", "value €1.60, a partner game"],
    ("EUR", "de"): [f"0,20{NBSP}€ (Tarif) + 0,10{NBSP}€ (Schneider) + 0,10{NBSP}€ (Schwarz) + 0,40{NBSP}€ "
                    f"(Laufende) = 0,80{NBSP}€", f"0,80{NBSP}€ × 2 = 1,60{NBSP}€", f"Wert 1,60{NBSP}€"],
    ("EUR", "ja"): ["€0.20（基本点）+ €0.10（シュナイダー）+ €0.10（シュワルツ）+ €0.40（ラウフェンデ）= €0.80",
                    "€0.80 × 2 = €1.60"],
    ("JPY", "en"): ["¥20 (price) + ¥10 (schneider) + ¥10 (schwarz) + ¥40 (Laufende) = ¥80",
                    "+ 4 × ¥10 (Per Laufender) = ¥40", "¥80 × 2 = ¥160", "value ¥160, a partner game"],
    ("JPY", "de"): [f"20{NBSP}¥ (Tarif) + 10{NBSP}¥ (Schneider) + 10{NBSP}¥ (Schwarz) + 40{NBSP}¥ (Laufende) = "
                    f"80{NBSP}¥", f"80{NBSP}¥ × 2 = 160{NBSP}¥"],
    ("JPY", "ja"): ["￥20（基本点）+ ￥10（シュナイダー）+ ￥10（シュワルツ）+ ￥40（ラウフェンデ）= ￥80",
                    "￥80 × 2 = ￥160"],
}


def _lines(page: str) -> list[str]:
    found = re.search(r'<ol class="explanation"[^>]*>(.*?)</ol>', unescape(page), re.S)
    assert found is not None, "the page shows no explanation"
    return re.findall(r"<li>(.*?)</li>", found.group(1), re.S)


@pytest.mark.django_db
@pytest.mark.parametrize("currency", ["EUR", "JPY"])
@pytest.mark.parametrize("language", ["en", "de", "ja"])
def test_the_deal_page_writes_the_lines_amounts_as_the_nights_money(client: Client, currency: str,
                                                                    language: str) -> None:
    night = nights.start_night(game="schafkopf", preset="sauspiel", players=PLAYERS, currency=currency)
    nights.enter_deal(night.tables.get(), SAUSPIEL)
    client.cookies["django_language"] = language
    lines = _lines(client.get(f"/nights/{night.pk}/tables/1/deals/1/").content.decode())
    text = "\n".join(lines)
    for expected in EXPECTED[currency, language]:
        assert expected in text, f"{expected!r} not in {lines}"
    # The sum line's price is money, not the engine's integer ("20 (price)", "20（基本点）").
    assert not re.search(r"(?<![¥￥€\d.,])20 ?[(（]", lines[4]), lines[4]
    # What is no money stays a number: the card points, the count of Laufende and tricks, the multiplier.
    assert "120" in lines[1] and "4 ×" in lines[3] and lines[5].endswith("× 2")
    # The stored verdict keeps the contract's English.
    assert SUM_LINE in Deal.objects.get().result.explanation


@pytest.mark.django_db
@pytest.mark.parametrize(("currency", "written"), [("EUR", "value €0.10, a partner game"),
                                                   ("JPY", "value ¥10, a partner game")])
def test_the_preview_on_the_table_page_writes_money_too(client: Client, currency: str, written: str) -> None:
    night = nights.start_night(game="schafkopf", preset="classic", players=PLAYERS, currency=currency)
    client.cookies["django_language"] = "en"
    data = {"contract": "sauspiel", "declarer": 0, "partner": 2, "called_ace": "S", "card_points": 75,
            "declarer_tricks": 5, "preview": "1"}
    response = client.post(f"/nights/{night.pk}/tables/1/deals/new/", data)
    assert response.status_code == 200
    assert any(written in line for line in _lines(response.content.decode()))
    assert not Deal.objects.exists()


@pytest.mark.parametrize("language", ["en", "de", "ja"])
def test_the_api_keeps_the_engines_integers_in_every_language(client: Client, language: str) -> None:
    request = {"game": "schafkopf", "rules": {"preset": "sauspiel"}, "players": 4, "deal": SAUSPIEL}
    answer = client.post("/api/adjudicate", request, content_type="application/json",
                         headers={"Accept-Language": language}).json()
    assert answer["ok"] and answer["value"] == 160
    sum_line = answer["explanation"][4]
    assert re.fullmatch(r"20\D+10\D+10\D+40\D+80\D*", sum_line), sum_line
    assert not re.search("[€¥￥]", "".join(answer["explanation"]))


def test_the_contracts_english_writes_an_amount_as_its_integer() -> None:
    verdict = judge({"game": "schafkopf", "rules": {"preset": "sauspiel"}, "players": 4, "deal": SAUSPIEL})
    assert SUM_LINE in verdict.explanation
    step = Step("{price} (price) × {n}", {"price": Amount(-20), "n": 2})
    assert str(step) == "-20 (price) × 2" and f"{Amount(7):>3}" == "  7"
    plain = Translation(lambda text: text, lambda one, many, n: many)
    assert step.render(str, None, plain) == "-20 (price) × 2"  # a catalogue without money keeps the integer
    money = Translation(lambda text: text, lambda one, many, n: many, lambda amount: f"<{amount}>")
    assert step.render(str, None, money) == "<-20> (price) × 2"  # only the amount, not the count
