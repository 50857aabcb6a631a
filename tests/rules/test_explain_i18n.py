"""No English inside an explanation's values: a page in German or Japanese translates every piece.

The engine keeps each explanation line and refusal as an English template plus values
(`scorekeep/rules/explain.py`). A page translates the template and renders the values: seats by
name, `Word`s, `Phrase`s and `Listing`s through its translation. Rendering with a marker
"translation" — every word of a template or `Word` wrapped in «» — must leave outside the markers
only numbers, signs, seat names, punctuation and the contract's own code (field, option, preset
and contract names, JSON literals, quoted values, cards). And the typed values must write exactly
the English of the plain strings they replaced: the contract's English is unchanged.

Seats: Anna 0, Bernd 1, Clara 2, Dieter 3.
"""

import json
import pickle
import random
import re
from collections.abc import Iterator
from copy import deepcopy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeep.management.commands import enginemessages
from scorekeep.rules import GAMES, IllegalDeal, Step, Table, cards, complete, fipsen, judge, kop
from scorekeep.rules.explain import AND, COMMA, OR, Listing, Phrase, Seat, Seats, Word
from scorekeep.rules.fields import describe, names, words
from tests.rules.play_samples import PLAY_SAMPLE
from tests.rules.vectors import VECTORS

RULES_DIR = Path(__file__).resolve().parents[2] / "scorekeep" / "rules"


# --- the sample: every line and refusal the engine can write ---------------------------------------

def sk(rules: object = None, players: int | None = None, dealer: int | None = None, **deal: object) -> dict:
    return _request("skat", rules, players, dealer, deal)


def sf(rules: object = None, **deal: object) -> dict:
    return _request("schafkopf", rules, None, None, deal)


def kp(rules: object = None, **deal: object) -> dict:
    return _request("kop", rules, None, None, deal)


def fp(rules: object = None, players: int | None = None, **deal: object) -> dict:
    return _request("fipsen", rules, players, None, deal)


def bids(*compared: dict, rules: object = None, players: int = 4) -> dict:
    return {**_request("fipsen", rules, players, None, None), "compare": list(compared)}


def _request(game: str, rules: object, players: int | None, dealer: int | None, deal: dict | None) -> dict:
    request: dict[str, Any] = {"game": game}
    if rules is not None:
        request["rules"] = {"preset": rules} if isinstance(rules, str) else rules
    if players is not None:
        request["players"] = players
    if dealer is not None:
        request["dealer"] = dealer
    if deal is not None:
        request["deal"] = deal
    return request


KOP_TRUMPS = ["HA", "H10", "CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ", "DA", "D10"]
SKAT_HAND = ["CJ", "SJ", "D7", "D8", "D9", "DK", "DQ", "H7", "H8", "H9", "HK", "HQ"]

SAMPLE: list[object] = [
    # The request itself.
    [1, 2, 3], "deal", None,
    {"game": "skat"}, {"game": "poker"}, {"deal": {}}, {"game": "skat", "colour": "red"},
    {"game": "skat", "players": 5}, {"game": "schafkopf", "players": {}}, {"game": "kop", "players": "4"},
    {"game": "skat", "dealer": "0"}, {"game": "skat", "dealer": 5}, {"game": "skat", "deal": [1, 2, 3]},
    {"game": "fipsen", "deal": {"contract": "passed"}, "compare": [{"bid": 2, "seat": 0}, {"bid": 3, "seat": 1}]},
    # Rule sets.
    sk([1], contract="passed"), sk("bogus", contract="passed"), sk({"colour": 1}, contract="passed"),
    sk({"kontra": 1}, contract="passed"), sk({"grand_ouvert_fixed": 0}, contract="passed"),
    sk({"reverse_levels": "a value far too long to quote"}, contract="passed"),
    sf({"tout": "x"}, contract="passed"), sf({"variants": "x"}, contract="passed"),
    sf({"variants": ["x"]}, contract="passed"), sf({"passed": "ramsch", "ramsch": None}, contract="passed"),
    kp({"max_doublings": "x"}, contract="normal", old=[0, 2], card_points=60),
    kp({"solo_factors": 3}, contract="normal", old=[0, 2], card_points=60),
    kp({"max_doublings": {"zolo": 1, "x": 2}}, contract="normal", old=[0, 2], card_points=60),
    kp({"round_placing": [1, 2]}, contract="normal", old=[0, 2], card_points=60),
    kp({"round_placing": [1, 3, 2, 1]}, contract="normal", old=[0, 2], card_points=60),
    kp({"trump_order": ["HA", "XX", *KOP_TRUMPS[2:]]}, contract="normal", old=[0, 2], card_points=60),
    kp({"trump_order": ["HA", "HA", *KOP_TRUMPS[2:]]}, contract="normal", old=[0, 2], card_points=60),
    kp({"trump_order": KOP_TRUMPS[:5]}, contract="normal", old=[0, 2], card_points=60),
    # Skat: refusals.
    sk(), sk(contract="passed", x=1), sk(contract="a contract name far too long"), sk(contract="ramsch"),
    sk(contract="ramsch", points=[1, 2], tricks=[1, 2, 3]), sk("isko", contract="ramsch"),
    sk("classic", contract="passed"), sk(contract="passed", kontra=True), sk(contract="passed", bock=True),
    sk(players=4, dealer=1, contract="clubs", declarer=1, bid=18, matadors=1, card_points=70),
    sk(contract="grand", declarer=0, bid=19, matadors=2, card_points=70),
    sk(contract="grand", declarer=0, bid=24, matadors=5, card_points=70),
    sk(contract="grand", declarer=0, bid=24, card_points=70),
    sk(contract="grand", declarer=0, bid=24, matadors=3, cards=SKAT_HAND, card_points=70),
    sk(contract="grand", declarer=0, bid=24, matadors=2, cards=SKAT_HAND[:11], card_points=70),
    sk(contract="grand", declarer=0, bid=24, matadors=2, cards=[*SKAT_HAND[:11], "CJ"], card_points=70),
    sk(contract="grand", declarer=0, bid=24, matadors=2, cards=[*SKAT_HAND[:11], "C6"], card_points=70),
    sk(contract="grand", declarer=0, bid=24, matadors=2, card_points=70, announced="schwarz"),
    sk("isko", contract="grand", declarer=0, bid=24, matadors=1, ouvert=True, card_points=120),
    sk(contract="grand", declarer=0, bid=48, matadors=1, ouvert=True, hand=True, card_points=120),
    sk(contract="grand", declarer=0, bid=24, matadors=1, card_points=119),
    sk(contract="grand", declarer=0, bid=24, matadors=1, card_points=119, declarer_tricks=10),
    sk(contract="grand", declarer=0, bid=24, matadors=1, card_points=50, declarer_tricks=0),
    sk(contract="grand", declarer=0, bid=24, matadors=1, card_points=100, declarer_tricks=2),
    sk(contract="clubs", declarer=0, bid=24, matadors=2, card_points=70, re=True),
    sk("isko", contract="clubs", declarer=0, bid=24, matadors=2, kontra=True),
    sk(contract="null", declarer=0, bid=35, declarer_tricks=0),
    sk(contract="null", declarer=0, bid=23),
    sk(contract="ramsch", points=[60, 30, 31], tricks=[5, 3, 2]),
    sk(contract="ramsch", points=[60, 30, 30], tricks=[5, 3, 1]),
    sk(contract="ramsch", points=[60, 30, 30], tricks=[5, 5, 0]),
    sk(contract="ramsch", points=[60, 50, 10], tricks=[5, 1, 4]),
    sk(players=4, dealer=0, contract="ramsch", points=[10, 60, 30, 20], tricks=[1, 5, 2, 2]),
    # Skat: verdicts.
    sk(contract="passed"), sk("isko", contract="passed"),
    sk(contract="grand", declarer=0, bid=24, matadors=1, ouvert=True, hand=True, card_points=120,
       declarer_tricks=10),
    sk({"grand_ouvert_fixed": None, "ouvert": "isko"}, contract="grand", declarer=0, bid=24, matadors=4,
       ouvert=True, hand=True, card_points=120, declarer_tricks=10),
    sk(contract="grand", declarer=0, bid=48, matadors=2, cards=[*SKAT_HAND[:10], "CA", "C10"], card_points=70),
    sk(contract="clubs", declarer=0, bid=48, matadors=1, card_points=70),
    sk({"announce_needs_hand": False}, contract="clubs", declarer=0, bid=24, matadors=2, card_points=70,
       announced="schwarz"),
    sk(contract="clubs", declarer=0, bid=24, matadors=2, hand=True, card_points=110, announced="schwarz",
       declarer_tricks=9),
    sk(contract="clubs", declarer=0, bid=24, matadors=2, hand=True, card_points=110, announced="schwarz"),
    sk(contract="clubs", declarer=0, bid=24, matadors=2, hand=True, card_points=95, announced="schneider"),
    sk(contract="spades", declarer=1, bid=22, matadors=-2, card_points=0, declarer_tricks=0),
    sk(contract="hearts", declarer=2, bid=20, matadors=-2, hand=True, card_points=0, declarer_tricks=0),
    sk(contract="diamonds", declarer=0, bid=18, matadors=-2, hand=True, card_points=20),
    sk(contract="diamonds", declarer=0, bid=18, matadors=-2, card_points=20),
    sk(contract="clubs", declarer=0, bid=24, matadors=2, card_points=95),
    sk(contract="clubs", declarer=0, bid=24, matadors=2, card_points=120, kontra=True, re=True),
    sk(contract="clubs", declarer=0, bid=24, matadors=2, conceded=True, kontra=True, re=True),
    sk("isko", contract="clubs", declarer=0, bid=24, matadors=2, conceded=True),
    sk("isko", players=4, dealer=2, contract="grand", declarer=0, bid=24, matadors=1, card_points=40),
    sk(contract="null", declarer=0, bid=23, conceded=True),
    sk(contract="null", declarer=0, bid=59, ouvert=True, hand=True, declarer_tricks=0),
    sk({"bock": True}, contract="null", declarer=1, bid=23, hand=True, declarer_tricks=2, bock=True),
    sk(contract="ramsch", points=[120, 0, 0], tricks=[10, 0, 0]),
    sk(contract="ramsch", points=[40, 50, 30], tricks=[3, 5, 2]),
    sk({"bock": True}, contract="ramsch", points=[60, 60, 0], tricks=[5, 5, 0], bock=True),
    sk({"preset": "isko", "passed": "ramsch", "bock": True}, contract="ramsch", points=[120, 0, 0],
       tricks=[10, 0, 0], bock=True),
    sk({"preset": "isko", "passed": "ramsch"}, contract="ramsch", points=[60, 30, 30], tricks=[6, 2, 2]),
    # Schafkopf: refusals.
    sf(), sf(contract="bogus"), sf(contract="ramsch"), sf("bsv", contract="passed"), sf(contract="geier", declarer=0),
    sf({"variants": ["bettel"]}, contract="bettel", declarer=0, declarer_tricks=0),
    sf(contract="wenz", declarer=0, card_points=60, klopfer=1),
    sf(contract="wenz", declarer=0, card_points=60, bock=True),
    sf(contract="sie", declarer=0, doublings=1),
    sf({"max_doublings": 1}, contract="wenz", declarer=0, card_points=60, doublings=3),
    sf(contract="sauspiel", declarer=0, card_points=60),
    sf(contract="sauspiel", declarer=0, partner=0, card_points=60),
    sf(contract="sauspiel", declarer=0, partner=1, called_ace="H", card_points=70),
    sf(contract="sauspiel", declarer=0, partner=1, card_points=119),
    sf(contract="wenz", declarer=0, card_points=5, declarer_tricks=5),
    sf(contract="wenz", declarer=0, card_points=120, declarer_tricks=7),
    sf(contract="wenz", declarer=0, card_points=20, declarer_tricks=0),
    sf(contract="wenz", declarer=0, card_points=60, laufende=9),
    sf(contract="solo", declarer=0, card_points=60),
    # The sum lines, one template for each set of parts (a Hochzeit with everything: the example).
    sf("bsv", contract="sauspiel", declarer=0, partner=1, called_ace="C", card_points=70, laufende=3),
    sf({"preset": "bsv", "schneider": 0}, contract="wenz", declarer=0, card_points=120, declarer_tricks=8),
    sf({"preset": "bsv", "schneider": 0}, contract="wenz", declarer=0, card_points=120, declarer_tricks=8,
       laufende=3),
    sf("bsv", contract="hochzeit", declarer=0, partner=2, card_points=120, laufende=4),
    sf(contract="solo_tout", declarer=0, trump="S"),
    sf("bsv", contract="ramsch", points=[30, 30, 30, 31], tricks=[2, 2, 2, 2]),
    sf("bsv", contract="ramsch", points=[30, 30, 30, 30], tricks=[2, 2, 2, 1]),
    sf("bsv", contract="ramsch", points=[50, 30, 30, 10], tricks=[1, 3, 2, 2]),
    sf("bsv", contract="ramsch", points=[50, 30, 30, 10], tricks=[0, 3, 3, 2]),
    # Schafkopf: verdicts.
    sf(contract="passed"),
    sf(contract="sauspiel", declarer=2, partner=0, called_ace="C", card_points=70, doublings=1),
    sf(contract="sauspiel", declarer=2, partner=0, card_points=40, laufende=3),
    sf(contract="wenz", declarer=0, card_points=95, declarer_tricks=4, doublings=2),
    sf(contract="solo", declarer=1, trump="H", card_points=25),
    sf("bsv", contract="solo", declarer=1, trump="H", card_points=70, laufende=2),
    sf({"preset": "bsv", "bock": True}, contract="solo", declarer=1, trump="H", card_points=70, bock=True,
       klopfer=2, doublings=3),
    sf("bsv", contract="hochzeit", declarer=0, partner=2, card_points=120, laufende=4),
    sf("bsv", contract="farbwenz", declarer=0, trump="D", card_points=0, declarer_tricks=0, klopfer=1),
    sf("bsv", contract="geier", declarer=0, card_points=95, declarer_tricks=8),
    sf("bsv", contract="geier", declarer=0, card_points=120),
    sf("bsv", contract="wenz", declarer=0, card_points=100, laufende=3),
    sf("bsv", contract="wenz", declarer=0, card_points=91, laufende=2),
    sf(contract="wenz_tout", declarer=0, declarer_tricks=8),
    sf(contract="solo_tout", declarer=0, trump="S", declarer_tricks=5),
    sf({"tout": "double", "per_laufender": 10}, contract="wenz_tout", declarer=0, declarer_tricks=8, laufende=3),
    sf({"tout": "double", "per_laufender": 10}, contract="solo_tout", declarer=0, trump="C", declarer_tricks=7),
    sf(contract="sie", declarer=3),
    sf({"klopfen": True, "bock": True}, contract="sie", declarer=0, klopfer=1, bock=True),
    sf("bsv", contract="sie", declarer=2),
    sf("sauspiel", contract="sie", declarer=3, klopfer=1),
    sf("bsv", contract="bettel", declarer=0, declarer_tricks=0),
    sf("bsv", contract="bettel", declarer=0, declarer_tricks=2),
    sf("sauspiel", contract="ramsch", points=[95, 10, 10, 5], tricks=[5, 1, 1, 1]),
    sf("sauspiel", contract="ramsch", points=[60, 30, 30, 0], tricks=[4, 2, 2, 0]),
    sf("bsv", contract="ramsch", points=[60, 60, 0, 0], tricks=[4, 4, 0, 0]),
    sf("bsv", contract="ramsch", points=[60, 40, 20, 0], tricks=[4, 3, 1, 0]),
    sf("bsv", contract="ramsch", points=[0, 0, 0, 120], tricks=[0, 0, 0, 8]),
    sf("bsv", contract="ramsch", points=[50, 50, 20, 0], tricks=[3, 4, 1, 0]),
    # Kop: refusals.
    kp(), kp(contract="normal", old=[0], card_points=60), kp(contract="zolo", old=[0, 1], card_points=60),
    kp(contract="normal", old=[1, 1], card_points=60), kp(contract="normal", old=[0, 1], card_points=13),
    kp(contract="normal", old=[0, 1], card_points=60, old_tricks=0),
    kp(contract="normal", old=[0, 1], card_points=60, old_tricks=4),
    kp(contract="normal", old=[0, 1], card_points=60, old_tricks=1),
    kp(contract="normal", old=[0, 1], card_points=60, doublings="x"),
    kp(contract="normal", old=[0, 1], card_points=60, doublings=[2, 2]),
    kp({"max_doublings": 1}, contract="normal", old=[0, 1], card_points=60, doublings=[2, 0]),
    kp(contract="cicha", old=[1], card_points=60, doublings=[1, 2]),
    kp(contract="zolo_du", old=[3], card_points=60),
    kp("wolsztyn", contract="normal", old=[0, 1], card_points=60),
    # Kop: verdicts.
    kp(contract="normal", old=[0, 2], card_points=60),
    kp(contract="normal", old=[0, 2], card_points=84),
    kp(contract="wesele", old=[1, 3], card_points=30, doublings=[0, 1]),
    kp(contract="normal", old=[0, 2], card_points=52, doublings=[1, 0, 0, 3]),
    kp(contract="normal", old=[0, 2], card_points=52, doublings=[1, 0, 2]),
    kp(contract="normal", old=[0, 2], card_points=52),
    kp(contract="cicha", old=[1], card_points=60), kp(contract="cicha", old=[1], card_points=40),
    kp(contract="cicha", old=[3], card_points=52, doublings=[1]),
    kp({"tie_lone_loses": False}, contract="zolo", old=[3], card_points=52, doublings=[1, 3]),
    kp(contract="zolo_du", old=[3], card_points=104, old_tricks=4, doublings=[0, 3, 1]),
    kp(contract="zolo_du", old=[3], card_points=60, old_tricks=3),
    kp("wolsztyn", contract="cicha", old=[2], card_points=104, old_tricks=4),
    kp("koscian", contract="normal", old=[0, 1], card_points=0, old_tricks=0),
    # Fipsen: refusals.
    fp(), fp(contract="tricks", declarer=0, surrendered=True), fp(contract="tricks", declarer=0, tricks_taken=2),
    fp(contract="tricks", bid=3, tricks_taken=2), fp(contract="tricks", declarer=0, bid=3),
    fp(contract="siebener_fips"), fp(contract="kieker", declarer=1), fp(contract="kieker", declarer=0, bid=3),
    fp(contract="kieker", declarer=0, surrendered=True, tricks_taken=2), fp(contract="passed", declarer=1),
    bids({"bid": 2, "seat": 0}), {"game": "fipsen", "compare": {"bid": 2}},
    bids({"bid": 2, "seat": 0}, {"bid": 3, "seat": 0}), bids({"bid": 2, "seat": 0}, {"hand": True, "seat": 1}),
    bids({"kieker": True, "bid": 3, "seat": 0}, {"bid": 3, "seat": 1}),
    # Fipsen: verdicts and bidding disputes.
    fp(contract="passed"), fp(contract="siebener_fips", declarer=2),
    fp(contract="tricks", declarer=0, bid=3, tricks_taken=3), fp(contract="tricks", declarer=1, bid=3, tricks_taken=2),
    fp(players=3, contract="tricks", declarer=0, bid=5, hand=True, ruten=True, tricks_taken=5),
    fp(contract="tricks", declarer=0, bid=4, durch=True, tricks_taken=4),
    fp(contract="kieker", declarer=0, tricks_taken=5), fp(contract="kieker", declarer=0, ruten=True, tricks_taken=4),
    fp(contract="kieker", declarer=3, surrendered=True),
    bids({"bid": 3, "hand": True, "seat": 0}, {"bid": 3, "seat": 1}),
    bids({"bid": 3, "hand": True, "seat": 0}, {"bid": 3, "ruten": True, "seat": 2}),
    bids({"bid": 3, "durch": True, "seat": 2}, {"bid": 3, "hand": True, "seat": 1}, rules={"durch_outranks": True}),
    bids({"bid": 3, "durch": True, "seat": 1}, {"bid": 3, "durch": True, "seat": 2}, rules={"durch_outranks": True}),
    bids({"bid": 3, "durch": True, "seat": 1}, {"bid": 3, "hand": True, "seat": 2}, {"bid": 5, "seat": 0},
         {"kieker": True, "ruten": True, "seat": 3}, rules={"durch_outranks": True}),
    bids({"kieker": True, "seat": 0}, {"bid": 4, "hand": True, "ruten": True, "durch": True, "seat": 1},
         {"bid": 2, "seat": 2}, players=3),
    # A Ramsch as a page enters it, completed (`complete`) before it is judged: refusals.
    *(("complete", request) for request in (
        sk(contract="ramsch", points=[30, None, None]), sk(contract="ramsch", points=[80, 50, None]),
        sk(contract="ramsch", points=[30, 40, 60]), sk(contract="ramsch", points=[119, None, None], no_trick=[1]),
        sk(contract="ramsch", points=[30, 40, None], no_trick=[0]),
        sk(contract="ramsch", points=[0, 0, None], no_trick=[0, 1, 2]),
        sk(contract="ramsch", points=[30, 40, None], every_trick=2), sk(contract="ramsch", every_trick=1, no_trick=[1]),
        sk(players=4, dealer=3, contract="ramsch", points=[30, 40, None, 0], no_trick=[3]),
        sk(players=4, dealer=3, contract="ramsch", points=[30, 40, None, None], every_trick=3),
        sk(players=4, dealer=3, contract="ramsch", points=[30, 40, None, 20]),
        sk(contract="ramsch", points=[30, 40, None], tricks=[0, None, None]),
        sk(contract="ramsch", points=[60, 20, None], tricks=[1, None, None], no_trick=[0]),
        sk(contract="ramsch", points=[0, 120, None], tricks=[None, 8, None], every_trick=1),
        sk(contract="ramsch", points=[0, 120, None], tricks=[1, None, None], every_trick=1),
        sk(contract="ramsch", points=[None, 100, 20], tricks=[0, 10, 2]),
        sk(contract="ramsch", points=[None, 0, 4], tricks=[10, None, None]),
        sk(contract="ramsch", points=[None, 60, 0], tricks=[2, 2, None]),
        sf("bsv", contract="ramsch", points=[40, 40, 25, None]),
        sf("bsv", contract="ramsch", points=[None, 4, 90, 25], tricks=[None, 1, 1, 1]),
        sf("bsv", contract="ramsch", points=[100, 10, 10, None], tricks=[2, None, None, None]),
        # … and deals it completes.
        sk(contract="ramsch", points=[30, None, None], no_trick=[2]), sk(contract="ramsch", every_trick=0),
        sf("bsv", contract="ramsch", points=[40, 40, 25, None], tricks=[3, 2, None, None]),
    )),
]
SAMPLE += PLAY_SAMPLE  # issue 19: every line and refusal of the play check (tests/rules/play_samples.py)

# Values a mutation puts into a field: every JSON type, in range and out of it.
JUNK: list[object] = [None, True, False, 0, -1, 1, 3, 5, 10, 18, 61, 121, 999, 1.5, "x", "clubs",
                      "a text longer than twenty characters", [], [0], [0, 2], [1, 2, 3], {}, {"a": 1},
                      [30, 30, 30, 30], [0, 0, 0, 8]]


def mutations(seed: int, count: int) -> Iterator[object]:
    """The sample's requests with a field, an option or the table changed at random: refusals of every kind."""
    rng = random.Random(seed)
    requests = [r for r in SAMPLE if isinstance(r, dict) and isinstance(r.get("game"), str) and r["game"] in GAMES]
    for _ in range(count):
        request = deepcopy(rng.choice(requests))
        module = GAMES[request["game"]]
        where = rng.random()
        if where < 0.5 and isinstance(request.get("deal"), dict):
            keys = sorted({key for fields in module.CONTRACTS.values() for key in fields} | {"contract"})
            request["deal"][rng.choice(keys)] = rng.choice([*JUNK, *module.CONTRACTS])
        elif where < 0.8:
            rules = request["rules"] if isinstance(request.get("rules"), dict) else {}
            request["rules"] = {**rules, rng.choice(sorted(module.OPTIONS)): rng.choice(JUNK)}
        else:
            request[rng.choice(["players", "dealer"])] = rng.choice(JUNK)
        yield request


def vectors() -> list[object]:
    """The public conformance vectors' requests, where ../shared is beside the repository."""
    return [json.loads(line)["input"] for path in sorted(VECTORS.glob("*.jsonl"))
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def judged(requests: list[object]) -> Iterator[tuple[Step | IllegalDeal, ...]]:
    """Each request's steps, or its refusal; a request marked ("complete", request) holds a deal as a page
    enters it, completed first (`scorekeep.rules.complete`)."""
    for request in requests:
        try:
            if isinstance(request, tuple):
                request = _completed(request[1])
            yield judge(request).steps
        except IllegalDeal as err:
            yield (err,)


def _completed(request: dict[str, Any]) -> dict[str, Any]:
    module = GAMES[request["game"]]
    players = request.get("players", module.DEFAULT_SEATS)
    table = Table(players, request.get("dealer", players - 1))
    deal = complete(request["game"], request["deal"], module.parse_rules(request.get("rules")), table)
    return {**request, "deal": deal}


ALL = [*SAMPLE, *mutations(6, 1500), *vectors()]


# --- the marker translation and the contract's code -------------------------------------------------

PLACEHOLDER = re.compile(r"(\{\{|\}\}|\{[^{}]*\})")


def marked(text: str) -> str:
    """A "translation" that wraps every word of a template or `Word` in «», its placeholders kept."""
    return "".join(part if PLACEHOLDER.fullmatch(part) else re.sub(r"[^\W\d_]+", r"«\g<0>»", part)
                   for part in PLACEHOLDER.split(text))


def seat_label(seat: int) -> str:
    return f"#{seat}"


def _code() -> frozenset[str]:
    """The contract's own names, which stay as they are in every language: JSON literals, games,
    request and deal fields, options and their named values, presets, contracts, cards and ranks."""
    code = {"true", "false", "null", *GAMES, "game", "rules", "players", "dealer", "deal", "compare", "contract",
            *fipsen._BID_KEYS, *cards.ALL_CARDS, *cards.RANKS, *kop.CARDS}
    for module in GAMES.values():
        code.update(module.OPTIONS, module.PRESETS, module.CONTRACTS)
        for fields in module.CONTRACTS.values():
            code.update(fields)
        for values in module.PRESETS.values():
            code.update(value for value in values.values() if isinstance(value, str))
        for option in module.OPTIONS.values():
            option = getattr(option, "inner", option)
            for attribute in ("choices", "names", "keys"):
                code.update(str(value) for value in getattr(option, attribute, ()))
    return frozenset(code)


CODE = _code()
TOKEN = re.compile(r"[\w.]*[^\W\d_][\w.]*")


def untranslated(line: str) -> set[str]:
    """The words of a rendered line outside the markers and quotes that are not the contract's code."""
    bare = re.sub(r'"[^"]*"', "", re.sub(r"«[^«»]*»", "", line))
    bare = re.sub("[⁰¹²³⁴⁵⁶⁷⁸⁹]", "", bare)  # a power's exponent (2³) is a number, which Python's \w counts as a letter
    return {token for token in (t.strip(".") for t in TOKEN.findall(bare)) if token not in CODE}


def is_code(text: str) -> bool:
    """A name of the contract's, a quoted value, or a JSON example such as ``{"cicha": 4}``."""
    if text in CODE or re.fullmatch(r'"[^"]*"', text):
        return True
    try:
        return isinstance(json.loads(text), dict | list)
    except ValueError:
        return False


def plain_strings(value: object) -> Iterator[str]:
    """Every plain `str` among a step's values, looking into `Phrase`s and `Listing`s."""
    if isinstance(value, Phrase):
        for item in value.params.values():
            yield from plain_strings(item)
    elif isinstance(value, Listing):
        for item in value.items:
            yield from plain_strings(item)
    elif isinstance(value, str) and not isinstance(value, Word):
        yield value


def rendered(step: Step | IllegalDeal, translate: Any) -> str:
    text = None if translate is None else translate(step.text)
    return step.render(seat_label, text, translate)


# --- no English outside the translated pieces ---------------------------------------------------------

def _templates() -> set[str]:
    """Every explanation line and refusal template in the engine's source, as `manage.py enginemessages`
    collects them for the catalogues (a template read from a table by key included)."""
    return set(enginemessages.from_source(calls=("say", "IllegalDeal")))


# The play check's own refusals for a field its context needs (rules/play.py, `_pending`): the game's own
# reading refuses the same deal first and names what is wrong, so no request reaches these; they stay as the
# guard should a game's reading ever accept such a deal (and are translated: the catalogue test reads them).
GUARDS = {"is required", "is required to check the play", "is required to check the play: a seat from 0 to {last}",
          "the dealer sits this deal out"}
# The tournament engine's refusals (rules/tournament.py, issue 18) answer no deal request: tests/rules/test_draw.py
# reaches them, and the catalogue test reads their translations.
TOURNAMENT = {"a table needs at least {need} players; {got} are entered",
              "is the deals of a series at a table of four: a multiple of 4 from 4 to 400, not {got}"}


def test_the_sample_reaches_every_line_and_refusal_of_the_engine() -> None:
    reached = {step.text for steps in judged(SAMPLE) for step in steps}
    missing = sorted(_templates() - reached - GUARDS - TOURNAMENT)
    assert not missing, f"add a request to SAMPLE that writes these lines: {missing}"


def test_with_every_piece_translated_no_english_is_left() -> None:
    left: dict[str, str] = {}
    for steps in judged(ALL):
        for step in steps:
            line = rendered(step, marked)
            for token in untranslated(line):
                left.setdefault(token, line)
    assert not left, f"English outside the translated pieces: {left}"


def test_no_value_is_english_written_as_a_plain_string() -> None:
    """A plain string among the values is code (a field or option name, a quoted value) or has no
    letters at all ("30 / 40 / 50", "−96"): anything a player reads is a Word, Phrase or Listing."""
    assert any(is_code(text) for steps in judged(SAMPLE) for step in steps for value in step.params.values()
               for text in plain_strings(value)), "the check sees no plain strings at all"
    prose = {text for steps in judged(ALL) for step in steps for value in step.params.values()
             for text in plain_strings(value)
             if re.search(r"[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹]", text) and not is_code(text)}  # 2³: a power is a number
    assert not prose


def test_translating_with_the_english_itself_changes_nothing() -> None:
    for steps in judged(ALL):
        for step in steps:
            assert rendered(step, lambda text: text) == rendered(step, None)


# --- every piece has its German and Japanese --------------------------------------------------------

LOCALE = Path(__file__).resolve().parents[2] / "locale"


def _translations(language: str) -> dict[str, str]:
    """The catalogue's finished translations (no fuzzy, no empty), by message id, read as the pages' gettext
    would find them."""
    from babel.messages.pofile import read_po

    known: dict[str, str] = {}
    with (LOCALE / language / "LC_MESSAGES" / "django.po").open("rb") as po:
        for message in read_po(po, locale=language):
            if not message.id or message.fuzzy:
                continue
            if isinstance(message.id, tuple):  # a template that counts: its singular and its plural id
                if all(message.string):
                    known[message.id[0]], known[message.id[1]] = message.string[0], message.string[-1]
            elif message.string:
                known[message.id] = message.string
    return known


def _demo_requests() -> list[object]:
    """Every deal of the four demo nights, as an adjudication request."""
    from scorekeep.nights import demo

    return [{"game": night.game, "rules": {"preset": night.preset, **night.house_rules},
             "players": len(night.players), "deal": facts} for night in demo.nights() for facts in night.deals]


def test_the_collector_reads_every_line_and_refusal_from_the_source() -> None:
    """`manage.py enginemessages` finds each template in the source (it stops at one it cannot read), and the
    generated module holds them all."""
    from scorekeep.words.engine_messages import MESSAGES

    counting = {plural for _singular, plural in enginemessages.plurals()}
    assert set(_templates()) <= set(MESSAGES) | counting, "run: manage.py enginemessages (make messages)"
    assert "{price} (price) + {schwarz} (schwarz) + {laufende} (Laufende) = {base}" in _templates()


def test_every_template_that_counts_has_its_count_among_its_values() -> None:
    """A step or refusal that counts names the value that counts, so a page can choose the plural form."""
    from scorekeep.rules.explain import PLURALS

    assert set(PLURALS) == {plural for _singular, plural in enginemessages.plurals()}
    reached = {step.text: step for steps in judged(ALL) for step in steps}
    for plural, (_singular, count) in PLURALS.items():
        assert f"{{{count}}}" in plural
        assert plural in reached, f"add a request to SAMPLE that writes: {plural}"
        assert isinstance(reached[plural].params[count], int)


@pytest.mark.parametrize("language", ["de", "ja"])
def test_every_line_and_refusal_is_in_the_catalogue(language: str) -> None:
    """Rendering every line the sample, the mutations, the vectors and the demo nights make, and every
    refusal, asks the catalogue only for ids it has translated: no English line is left on a page."""
    known = _translations(language)
    missing: dict[str, str] = {}
    lines = 0

    def translate(text: str) -> str:
        if text and text not in known:
            missing.setdefault(text, english)
        return known.get(text, text)

    for steps in judged([*ALL, *_demo_requests()]):
        for step in steps:
            english = rendered(step, None)
            rendered(step, translate)
            lines += 1
    assert lines > 2000
    assert not missing, f"{len(missing)} ids without a {language} translation, e.g. {list(missing.items())[:3]}"


# --- the typed values write the same English as the strings they replaced ---------------------------

def old_joined(items: list[str], last: str) -> str:
    """`explain.joined` and `fields.words` as they were: ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


@given(st.lists(st.one_of(st.integers(-5, 300), st.text(max_size=8).map(lambda s: f'"{s}"')), max_size=6))
def test_words_and_listings_write_the_old_english(items: list[object]) -> None:
    texts = [str(item) for item in items]
    assert words(items) == old_joined(texts, "or")
    assert Listing(items, AND) == old_joined(texts, "and")
    assert names(texts) == ", ".join(texts)
    assert Listing(items, None, " + ") == " + ".join(texts)


@pytest.mark.parametrize(("value", "english"), [
    (Phrase("with {n}", n=3), "with 3"),
    (Phrase("{n} ({what})", n=1, what=Word("game")), "1 (game)"),
    (Phrase("{seat} and {seats}", seat=Seat(1), seats=Seats((0, 2))), "seat 1 and seats 0 and 2"),
    (Listing([12, 14], OR), "12 or 14"),
    (Listing([8], AND), "8"),
    (Listing([], OR), ""),
    (Listing([Phrase("with {n}", n=2), Word("game")], None, " + "), "with 2 + game"),
    (describe([1, 2, 3]), "a list of 3"),
    (describe({}), "an object"),
    (describe("x" * 21), "a text"),
    (describe("clubs"), '"clubs"'),
    (describe(None), "null"),
], ids=["phrase", "nested-phrase", "phrase-with-seats", "or", "one-item", "no-item", "plus", "list", "object",
        "text", "short-text", "null"])
def test_typed_values_write_english_as_plain_strings_did(value: str, english: str) -> None:
    assert value == english
    assert f"{value}" == english


def test_typed_values_survive_a_copy_and_a_pickle() -> None:
    value = Listing([Phrase("{n} ({what})", n=2, what=Phrase("with {n}", n=2)), Word("game")], None, " + ")
    for copied in (deepcopy(value), pickle.loads(pickle.dumps(value))):
        assert (type(copied), copied, copied.items, copied.sep, copied.last) == (
            Listing, "2 (with 2) + game", value.items, " + ", None)
        assert copied.items[0].template == "{n} ({what})" and copied.items[0].params["what"].params == {"n": 2}
    steps = judge(sk(contract="clubs", declarer=0, bid=24, matadors=-2, hand=True, card_points=70)).steps
    again = pickle.loads(pickle.dumps(steps))
    assert [rendered(step, marked) for step in again] == [rendered(step, marked) for step in steps]
    assert "«without» 2, «game» 3, «hand» 4 × 12 = 48" in rendered(again[2], marked)


def skat_multiplier(request: dict) -> str:
    return next(line for line in judge(request).explanation if line.startswith(("with ", "without ")))


def test_skat_counts_its_multiplier_up_as_players_do() -> None:
    """ISkO 4.1: "mit 2, Spiel 3, Hand 4 …" — each level named with the multiplier it brings the game to."""
    hand = sk(contract="clubs", declarer=0, bid=24, matadors=2, hand=True, card_points=95, announced="schneider")
    assert skat_multiplier(hand) == "with 2, game 3, hand 4, schneider 5, schneider announced 6 × 12 = 72"
    without = sk(contract="grand", declarer=1, bid=24, matadors=-3, card_points=70)
    assert skat_multiplier(without) == "without 3, game 4 × 24 = 96"


REFUSALS = [
    (sk(contract="grand", declarer=0, bid=24, matadors=3, cards=SKAT_HAND, card_points=70),
     "with 3 does not match the cards, which are with 2 in a Grand game"),
    (sk(contract="grand", declarer=0, bid=24, matadors=2, card_points=70, announced="schwarz"),
     "Schwarz can only be announced in a hand game: set hand, or leave announced out"),
    (kp(contract="normal", old=[0, 1], card_points=60, old_tricks=1),
     "1 tricks (4 cards) cannot make exactly 60 card points (the nearest totals they make: 44); with 60 the old "
     "side took 2 or 3 of the four tricks"),
    (kp("wolsztyn", contract="normal", old=[0, 1], card_points=60, old_tricks=0),
     "a side that took no trick has no card points, but the old side has 60; with 60 it took 2 or 3 of the four "
     "tricks"),
    (kp({"trump_order": KOP_TRUMPS[:5]}, contract="normal", old=[0, 2], card_points=60),
     'must be a list of 12 or 14 cards such as "CJ" or "H10", not a list of 5'),
    (kp({"trump_order": ["HA", "XX", *KOP_TRUMPS[2:]]}, contract="normal", old=[0, 2], card_points=60),
     'is not a card of this pack: write suit (C, S, H, D) and rank (A, 10, Q, J), e.g. "CJ", not "XX"'),
    (kp({"max_doublings": {"zolo": 1, "x": 2}}, contract="normal", old=[0, 2], card_points=60),
     'is not one of the contracts here: "normal", "wesele", "cicha", "zolo" or "zolo_du"'),
    (sk(contract="bogus"),
     'must be one of "clubs", "spades", "hearts", "diamonds", "grand", "null", "ramsch" or "passed", not "bogus"'),
    ({"game": "skat", "players": 5}, "Skat is played at 3 or 4 seats, not 5"),
]


@pytest.mark.parametrize(("request_", "message"), REFUSALS, ids=[
    "matadors", "announced", "kop-tricks", "kop-no-trick", "cards-count", "card", "per-contract", "contract",
    "players"])
def test_refusals_keep_their_english(request_: dict, message: str) -> None:
    with pytest.raises(IllegalDeal) as caught:
        judge(request_)
    assert caught.value.message == message


def test_a_skat_ramsch_tie_keeps_its_english() -> None:
    assert judge(sk(contract="ramsch", points=[60, 60, 0], tricks=[5, 5, 0])).explanation[1:4] == [
        "seats 0 and 1 tie on 60 card points: each of them loses "
        "(Tie for most points in Ramsch: all tied players lose)",
        "Jungfrau: seat 2 took no trick, so the loss doubles: 120 (Jungfrau in Ramsch)",
        "List: −120 for seats 0 and 1; everyone else 0",
    ]


# --- a page's language all through -------------------------------------------------------------------

GERMAN = {
    "{terms} × {base} = {value}": "{terms} × {base} = {value}", "{what} {n}": "{what} {n}",
    "with {n}": "mit {n}", "without {n}": "ohne {n}", "game": "Spiel", "hand": "Hand", "{items} and {last}":
        "{items} und {last}", "{items} or {last}": "{items} oder {last}",
    "{seats} tie on {most} card points: each of them loses ({option}: {choice})":
        "{seats} haben beide {most} Augen: jeder verliert ({option}: {choice})",
    "Tie for most points in Ramsch": "Gleichstand im Ramsch", "all tied players lose": "alle verlieren",
    "{game} is played at {seats} seats, not {got}": "{game} spielt man zu {seats}, nicht {got}",
    "must be a list of {n} cards such as \"CJ\" or \"H10\", not {got}":
        "muss eine Liste von {n} Karten sein, etwa \"CJ\" oder \"H10\", nicht {got}",
    "a list of {n}": "eine Liste von {n}",
}
JAPANESE = {", ": "、", "{items} and {last}": "{items}と{last}", "{items} or {last}": "{items}または{last}"}
NAMES = {0: "Anna", 1: "Bernd", 2: "Clara", 3: "Dieter"}


def lines(request: dict, catalogue: dict[str, str]) -> list[str]:
    def translate(text: str) -> str:
        return catalogue.get(text, text)
    try:
        return judge(request).explain(NAMES.__getitem__, translate)
    except IllegalDeal as err:
        return [err.render(NAMES.__getitem__, translate(err.text), translate)]


def test_a_german_page_translates_the_multiplier_terms() -> None:
    request = sk(contract="clubs", declarer=0, bid=24, matadors=2, hand=True, card_points=70)
    assert "mit 2, Spiel 3, Hand 4 × 12 = 48" in lines(request, GERMAN)


def test_a_german_page_joins_seats_and_numbers_in_german() -> None:
    tie = lines(sk(contract="ramsch", points=[60, 60, 0], tricks=[5, 5, 0]), GERMAN)
    assert "Anna und Bernd haben beide 60 Augen: jeder verliert (Gleichstand im Ramsch: alle verlieren)" in tie
    assert lines({"game": "skat", "players": 5}, GERMAN) == ["Skat spielt man zu 3 oder 4, nicht 5"]
    pack = lines(kp({"trump_order": KOP_TRUMPS[:5]}, contract="normal", old=[0, 2], card_points=60), GERMAN)
    assert pack == ['muss eine Liste von 12 oder 14 Karten sein, etwa "CJ" oder "H10", nicht eine Liste von 5']


def test_a_japanese_page_uses_its_own_separators() -> None:
    request = sf("bsv", contract="ramsch", points=[60, 30, 20, 10], tricks=[4, 2, 1, 1])
    assert "value 10: Anna pays it to Bernd、ClaraとDieter, 30 in all" in lines(request, JAPANESE)
    assert lines(sk(contract="bogus"), JAPANESE) == [
        'must be one of "clubs"、"spades"、"hearts"、"diamonds"、"grand"、"null"、"ramsch"または"passed", '
        'not "bogus"']


def test_the_listing_links_are_message_ids() -> None:
    from scorekeep.management.commands import enginemessages

    ids = set(enginemessages.messages())
    assert {AND, OR, COMMA, "with {n}", "without {n}", "{what} {n}", "a list of {n}", "game", "hand",
            "schneider announced", "a text", "an object", "Skat"} <= ids
