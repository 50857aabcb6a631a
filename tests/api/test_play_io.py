"""``deal.play`` through the command line and the JSON API (docs/PLAY.md): both speak the contract, so a
played deal gets the engine's answer, a refusal names the field inside ``deal.play``."""

import io
import json
import random
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from scorekeep import rules
from tests.played_deals import SETUPS, play_out, request_of

GAMES = sorted(SETUPS)


def played(game: str, seed: int = 11) -> dict[str, Any]:
    rnd = random.Random(seed)
    setup = SETUPS[game](rnd)
    return request_of(setup, play_out(setup, rnd))


def cli(data: bytes) -> tuple[int, list[dict[str, Any]]]:
    out = io.StringIO()
    try:
        call_command("adjudicate", stdin=io.BytesIO(data), stdout=out)
        status = 0
    except SystemExit as exit:
        status = int(exit.code or 0)
    return status, [json.loads(text) for text in out.getvalue().splitlines()]


@pytest.mark.parametrize("game", GAMES)
def test_the_command_line_checks_a_played_deal(game: str) -> None:
    request = played(game)
    status, [verdict] = cli(json.dumps(request).encode() + b"\n")
    assert status == 0
    assert verdict == json.loads(json.dumps(rules.adjudicate(request)))
    assert verdict["play"]["tricks"][0]["cards"] == request["deal"]["play"]["tricks"][0]


def test_the_command_line_refuses_a_card_played_twice_with_exit_1() -> None:
    request = played("skat")
    request["deal"]["play"]["tricks"][3][2] = request["deal"]["play"]["tricks"][0][1]
    status, [answer] = cli(json.dumps(request).encode())
    assert status == 1
    assert answer["errors"][0]["field"] == "deal.play.tricks.3.2"


@pytest.mark.parametrize("game", GAMES)
def test_the_api_checks_a_played_deal(client: Client, game: str) -> None:
    request = played(game)
    response = client.post("/api/adjudicate", json.dumps(request), content_type="application/json")
    assert response.status_code == 200
    assert response.json() == json.loads(json.dumps(rules.adjudicate(request)))
    assert response.json()["play"]["complete"] is True


def test_the_api_refuses_a_trick_of_the_wrong_size_with_400_naming_it(client: Client) -> None:
    request = played("kop")
    request["deal"]["play"]["tricks"][2] = request["deal"]["play"]["tricks"][2][:3]
    response = client.post("/api/adjudicate", json.dumps(request), content_type="application/json")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "deal.play.tricks.2"
    assert error["message"].startswith("a trick holds 4 cards")
