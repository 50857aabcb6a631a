"""Requests with ``deal.play`` that reach every line and refusal of the play check (scorekeep/rules/play.py),
for the translation checks (tests/rules/test_explain_i18n.py): deals from tests/played_deals.py, picked by
fixed seeds, and each changed to hit one refusal."""

import random
from collections.abc import Callable
from copy import deepcopy
from typing import Any

from scorekeep.rules import adjudicate
from tests.played_deals import SAUSPIEL_HANDS, SETUPS, Outcome, Setup, play_out, request_of


def _find(game: str, wanted: Callable[[Setup, Outcome, dict[str, Any]], bool], breaking: bool = False
          ) -> tuple[Setup, Outcome, dict[str, Any]]:
    for seed in range(2000):
        rnd = random.Random(seed)
        setup = SETUPS[game](rnd)
        outcome = play_out(setup, rnd, rnd.randrange(12) if breaking else None)
        request = request_of(setup, outcome)
        if wanted(setup, outcome, request):
            return setup, outcome, request
    raise LookupError(game)


def _contract(name: str) -> Callable[[Setup, Outcome, dict[str, Any]], bool]:
    return lambda s, o, r: r["deal"]["contract"] == name and r.get("players", 4) != 4 if r["game"] == "skat" \
        else r["deal"]["contract"] == name


def _broken(name: str) -> Callable[[Setup, Outcome, dict[str, Any]], bool]:
    return lambda s, o, r: o.broken is not None and o.broken[1] > 0 and r["deal"]["contract"] == name


def _claimed(request: dict[str, Any], facts: dict[str, Any]) -> dict[str, Any]:
    """The request with its last trick not played: the cards of that trick as each player's hand."""
    claimed = deepcopy(request)
    answer = adjudicate(request)
    last = answer["play"]["tricks"][-1]
    claimed["deal"]["play"]["tricks"].pop()
    claimed["deal"]["play"]["hands"] = {str(seat): [card] for seat, card in
                                        zip(last["seats"], last["cards"], strict=True)}
    claimed["deal"].update(facts)
    return claimed


def _with(request: dict[str, Any], change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    changed = deepcopy(request)
    change(changed)
    return changed


def samples() -> list[object]:
    out: list[object] = []
    _, _, clubs = _find("skat", _contract("clubs"))
    _, _, ramsch = _find("skat", _contract("ramsch"))
    _, _, skat_break = _find("skat", _broken("clubs"), breaking=True)
    _, _, sauspiel_break = _find("schafkopf", _broken("sauspiel"), breaking=True)
    _, _, ramsch_break = _find("skat", _broken("ramsch"), breaking=True)
    _, _, kop_break = _find("kop", _broken("normal"), breaking=True)
    _, _, kop = _find("kop", _contract("normal"))
    _, _, fipsen = _find("fipsen", _contract("tricks"))
    out += [clubs, ramsch, skat_break, sauspiel_break, kop_break, ramsch_break]
    ramsch_answer = adjudicate(ramsch_break)
    out.append(_claimed(ramsch_break, {"points": ramsch_answer["play"]["derived"]["points"],
                                            "tricks": ramsch_answer["play"]["derived"]["tricks"]}))
    out.append(_claimed(kop_break, {"card_points": adjudicate(kop_break)["play"]["derived"]["card_points"]}))
    out.append(_claimed(kop, {"card_points": 104}))  # more than the cards allow
    out.append(_sau_lead())  # the called Sau's holder leads its suit without running away
    _, _, lone = _find("kop", lambda s, o, r: len({seat for seat, cards in s.hands.items()
                                                   for card in cards if card in ("CQ", "SQ")}) == 1)
    out += [_with(lone, lambda r: r["deal"].update(contract="wesele", old=[0, 1])),
            _with(lone, lambda r: r["deal"].update(contract="wesele", old=[2, 3])),
            _with(lone, lambda r: r["deal"].update(contract="cicha", old=[0])),
            _with(lone, lambda r: r["deal"].update(contract="cicha", old=[3]))]
    one_hand = _claimed(clubs, {})
    out.append(_with(one_hand, lambda r: r["deal"]["play"].update(
        hands=dict(list(r["deal"]["play"]["hands"].items())[:1]))))
    tricks = clubs["deal"]["play"]["tricks"]
    durch = _durch()
    out += [
        durch, _with(durch, lambda r: r["deal"].update(durch="yes")),
        _with(clubs, lambda r: r["deal"].update(card_points="62")),
        _with(ramsch, lambda r: r["deal"].update(points="all")),
    ]
    out += [
        _with(clubs, lambda r: r["deal"]["play"]["tricks"].append(tricks[0])),
        {"game": "fipsen", "deal": {"contract": "kieker", "declarer": 0, "surrendered": True,
                                    "play": {"tricks": [], "trump": "C"}}},
        _with(clubs, lambda r: r["deal"]["play"]["tricks"][0].pop()),
        _with(kop, lambda r: r["deal"].update(contract="wesele")),
        _with(kop, lambda r: r["deal"].update(contract="cicha", old=[0])),
        _with(kop, lambda r: r["deal"].update(old=[1, 3] if r["deal"]["old"] != [1, 3] else [0, 2])),
        _with(clubs, lambda r: r["deal"]["play"]["tricks"][0].__setitem__(0, "X9")),
        _with(clubs, lambda r: r["deal"]["play"].update(cut=1)),
        _with(clubs, lambda r: r["deal"]["play"].update(hands={"7": []})),
        _with(clubs, lambda r: r["deal"]["play"].update(trump="C")),
        _with(fipsen, lambda r: r["deal"]["play"].pop("trump")),
        _with(sauspiel_break, lambda r: r["deal"].pop("called_ace")),
        _with(clubs, lambda r: r["deal"]["play"].update(hands={"0": "CJ"})),
        _with(clubs, lambda r: r["deal"]["play"].update(tricks="CJ")),
        _with(clubs, lambda r: r["deal"]["play"].update(hands=[])),
        _with(clubs, lambda r: r["deal"].update(play=5)),
        _with(fipsen, lambda r: r["deal"].update(ruten=False) or r["deal"]["play"].update(trump="D")),
        _with(fipsen, lambda r: r["deal"].update(ruten=True) or r["deal"]["play"].update(trump="C")),
        _with(clubs, lambda r: r["deal"]["play"]["tricks"].pop()),
        _with(clubs, lambda r: r["deal"]["play"].update(skat=r["deal"]["play"]["skat"][:1])),
        _with(clubs, lambda r: r["deal"]["play"].update(skat=[tricks[0][0], tricks[0][1]])),
        _with(clubs, lambda r: r["deal"]["play"]["tricks"][1].__setitem__(1, tricks[0][0])),
        {"game": "skat", "deal": {"contract": "passed", "play": {"tricks": []}}},
        _with(clubs, lambda r: r["deal"]["play"].update(tricks=tricks[:9], hands={"0": ["CJ", "SJ"]})),
        _with(sauspiel_break, lambda r: r["deal"].update(declarer=_sau_holder(r))),
    ]
    out += _disagreeing(clubs) + _disagreeing(ramsch) + _disagreeing(kop) + _disagreeing(fipsen) + _disagreeing(durch)
    _, _, sauspiel = _find("schafkopf", _contract("sauspiel"))
    out += _disagreeing(sauspiel)
    partner = adjudicate(sauspiel)["play"]["derived"].get("partner", sauspiel["deal"].get("partner"))
    declarer = sauspiel["deal"]["declarer"]
    wrong = next(seat for seat in range(4) if seat not in (declarer, partner))
    out.append(_with(sauspiel, lambda r: r["deal"].update(partner=wrong)))
    out.append(_played_on())  # a trick after the deal ended; no hands, so a card not followed may be unseen
    return out


def _played_on() -> dict[str, Any]:
    """A Fipsen bid of 2 made at trick 3 after trick 1 was lost: the deal ended there; trick 4 is played on."""
    return {"game": "fipsen", "dealer": 3, "deal": {"contract": "tricks", "declarer": 0, "bid": 2, "play": {
        "tricks": [["C8", "C9", "HQ", "CK"], ["SK", "S8", "SA", "S9"], ["SQ", "SJ", "S10", "CQ"],
                   ["H8", "H7", "H10", "HK"]], "trump": "H"}}}


def _disagreeing(request: dict[str, Any]) -> list[object]:
    """The request once with each fact its cards settle entered otherwise (in range), so the verdict
    reports each kind of disagreement between the entered facts and the cards."""
    out: list[object] = []
    for key, value in adjudicate(request)["play"]["derived"].items():
        if isinstance(value, bool):
            other: object = not value
        elif isinstance(value, int):
            other = value - 1 if value > 0 else value + 1
        else:  # per seat: two seats' figures swapped (the sum stays)
            other = [value[1], value[0], *value[2:]] if value[0] != value[1] else [value[0] + 1, value[1] - 1,
                                                                                  *value[2:]]
        out.append(_with(request, lambda r, key=key, other=other: r["deal"].update({key: other})))
    return out


def _sau_holder(request: dict[str, Any]) -> int:
    answer = adjudicate(request)
    return answer["play"]["declaring_side"][1] if answer["play"]["declaring_side"][0] == request["deal"]["declarer"] \
        else answer["play"]["declaring_side"][0]


def _sau_lead() -> dict[str, Any]:
    from scorekeep.rules import tricks as trick_rules
    setup = Setup("schafkopf", {"game": "schafkopf", "dealer": 3,
                                "deal": {"contract": "sauspiel", "declarer": 2, "called_ace": "C"}},
                  trick_rules.schafkopf("sauspiel", None, "CA"), [0, 1, 2, 3], SAUSPIEL_HANDS, [], 8, {0, 2},
                  called="CA")
    return request_of(setup, play_out(setup, random.Random(7), forced=("C7",)))


def _durch() -> dict[str, Any]:
    """A Fipsen bid of 2 made in two tricks, and the declarer plays on (Durch) and loses the third."""
    from scorekeep.rules import tricks as trick_rules
    hands = {0: ["HA", "HK", "HQ", "CA", "C7"], 1: ["H7", "H8", "H9", "SA", "CK"],
             2: ["SK", "SQ", "SJ", "S10", "CQ"], 3: ["S9", "S8", "S7", "D7", "CJ"]}
    setup = Setup("fipsen", {"game": "fipsen", "players": 4, "dealer": 3,
                             "deal": {"contract": "tricks", "declarer": 0, "bid": 2, "_trump": "H"}},
                  trick_rules.fipsen("H"), [0, 1, 2, 3], hands, [], 5, {0}, stop=lambda flags, played: played == 3)
    return request_of(setup, play_out(setup, random.Random(1), forced=(
        "HA", "H7", "SK", "S9", "HK", "H8", "SQ", "S8", "C7", "CK", "CQ", "CJ")))


PLAY_SAMPLE = samples()
