"""The games' own description of their inputs agrees with the contract (ADJUDICATION.md) as the engine reads it.

For every game, rule set, table size and contract: a deal of the required fields alone is judged; each
required field left out is refused naming it (with the fields that may stand in for it left out too);
each field the description offers is one the contract takes; each field it does not offer is refused when it
carries a value.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeep.rules import GAMES, IllegalDeal, Input, Kind, Table, describe_game, inputs, judge

# One value for every field a contract may require, chosen so that together they make a legal deal.
LEGAL: dict[tuple[str, str], dict[str, Any]] = {
    **{("skat", suit): {"declarer": 0, "bid": 18, "matadors": 1, "card_points": 70}
       for suit in ("clubs", "spades", "hearts", "diamonds", "grand")},
    ("skat", "null"): {"declarer": 0, "bid": 23, "declarer_tricks": 0},
    ("skat", "passed"): {},
    **{("schafkopf", game): {"declarer": 0, "partner": 1, "card_points": 70} for game in ("sauspiel", "hochzeit")},
    **{("schafkopf", game): {"declarer": 0, "card_points": 70} for game in ("wenz", "geier")},
    **{("schafkopf", game): {"declarer": 0, "trump": "C", "card_points": 70} for game in ("solo", "farbwenz")},
    **{("schafkopf", game): {"declarer": 0, "declarer_tricks": 8} for game in ("wenz_tout", "geier_tout")},
    **{("schafkopf", game): {"declarer": 0, "trump": "C", "declarer_tricks": 8}
       for game in ("solo_tout", "farbwenz_tout")},
    ("schafkopf", "sie"): {"declarer": 0},
    ("schafkopf", "bettel"): {"declarer": 0, "declarer_tricks": 0},
    ("schafkopf", "ramsch"): {"points": [30, 30, 30, 30], "tricks": [2, 2, 2, 2]},
    ("schafkopf", "passed"): {},
    **{("kop", game): {"old": [0, 1], "card_points": 66, "old_tricks": 2} for game in ("normal", "wesele")},
    **{("kop", game): {"old": [0], "card_points": 66, "old_tricks": 2} for game in ("cicha", "zolo")},
    ("kop", "zolo_du"): {"old": [0], "card_points": 104, "old_tricks": 4},
    ("fipsen", "tricks"): {"declarer": 0, "bid": 3, "tricks_taken": 3},
    ("fipsen", "kieker"): {"declarer": 0, "tricks_taken": 3},
    ("fipsen", "siebener_fips"): {"declarer": 0},
    ("fipsen", "passed"): {},
}
RAMSCH_AT = {3: {"points": [60, 40, 20], "tricks": [5, 3, 2]}, 4: {"points": [60, 40, 20, 0], "tricks": [5, 3, 2, 0]}}

# Rule sets beyond the presets that switch fields on and off.
HOUSE_RULES: dict[str, list[dict[str, Any]]] = {
    "skat": [{"preset": "classic", "bock": True}, {"preset": "classic", "kontra": False, "passed": "void"}],
    "schafkopf": [{"preset": "bsv", "bock": True}, {"preset": "bsv", "max_doublings": 0, "klopfen": False},
                  {"preset": "classic", "per_laufender": 10}],
    "kop": [{"preset": "classic", "base_no_trick": 3}, {"preset": "wolsztyn", "solo_scoring": "times_base"}],
    "fipsen": [],
}

CASES = [
    pytest.param(game, rules, players, contract, id=f"{game}-{rules}-{players}-{contract}")
    for game, module in GAMES.items()
    for rules in [{"preset": preset} for preset in module.PRESETS] + HOUSE_RULES[game]
    for players in module.SEATS
    for contract in map(str, module.contracts(module.parse_rules(rules)))
]


def request(game: str, rules: dict[str, Any], players: int, deal: dict[str, Any]) -> dict[str, Any]:
    return {"game": game, "rules": rules, "players": players, "dealer": players - 1, "deal": deal}


def asked(game: str, rules: dict[str, Any], players: int, contract: str) -> tuple[Input, ...]:
    return inputs(game, contract, GAMES[game].parse_rules(rules), Table(players, players - 1))


def legal(game: str, players: int, contract: str) -> dict[str, Any]:
    if contract == "ramsch" and game == "skat":
        return dict(RAMSCH_AT[players])
    return dict(LEGAL[game, contract])


def some_value(field: Input, players: int) -> Any:
    """A value of the field's own kind, as its description allows."""
    return {
        Kind.SEAT: 0, Kind.SEATS: list(range(field.lo)), Kind.SEAT_ORDER: [1], Kind.FLAG: True,
        Kind.COUNT: field.values[0] if field.values else field.choices[0][0] if field.choices else field.hi,
        Kind.CHOICE: field.choices[0][0] if field.choices else None, Kind.PER_SEAT: [0] * players,
        Kind.CARDS: ["CJ", "SJ", "HJ", "DJ", "CA", "C10", "CK", "CQ", "C9", "C8", "C7", "SA"][:field.lo],
    }[field.kind]


def refusal(req: dict[str, Any]) -> IllegalDeal | None:
    try:
        judge(req)
    except IllegalDeal as err:
        return err
    return None


@pytest.mark.parametrize(("game", "rules", "players", "contract"), CASES)
def test_the_required_fields_alone_make_a_deal_and_each_is_needed(game: str, rules: dict[str, Any], players: int,
                                                                  contract: str) -> None:
    fields = asked(game, rules, players, contract)
    required = [f for f in fields if f.required]
    values = legal(game, players, contract)
    deal = {"contract": contract, **{f.key: values[f.key] for f in required}}
    assert refusal(request(game, rules, players, deal)) is None, deal
    for field in required:
        without = {key: value for key, value in deal.items() if key != field.key and key not in field.unless}
        err = refusal(request(game, rules, players, without))
        assert err is not None and err.field.startswith(f"deal.{field.key}"), (field.key, err)


@pytest.mark.parametrize(("game", "rules", "players", "contract"), CASES)
def test_every_field_described_is_taken_and_every_other_is_refused(game: str, rules: dict[str, Any], players: int,
                                                                   contract: str) -> None:
    fields = asked(game, rules, players, contract)
    values = legal(game, players, contract)
    deal = {"contract": contract, **{f.key: values[f.key] for f in fields if f.required}}
    for field in fields:
        err = refusal(request(game, rules, players, {**deal, field.key: some_value(field, players)}))
        assert err is None or err.text not in ("is not a field here; the fields are {allowed}",
                                               "is not used in {what}; leave it out"), (field.key, err)
    offered = {f.key for f in fields}
    every_field = {key for keys in GAMES[game].CONTRACTS.values() for key in keys}
    for key in sorted(every_field - offered):
        err = refusal(request(game, rules, players, {**deal, key: 1 if key != "cards" else ["CJ"]}))
        assert err is not None and err.field == f"deal.{key}", (key, err)


@pytest.mark.parametrize("game", GAMES)
def test_the_published_description_names_every_contract_and_field_with_words(game: str) -> None:
    described = describe_game(game, translate=lambda text: f"«{text}»")
    module = GAMES[game]
    assert described["label"] == f"«{module.NAME}»"
    assert [p["preset"] for p in described["presets"]] == list(module.PRESETS)
    assert [o["key"] for o in described["options"]] == list(module.OPTIONS)
    for rule_set in described["rule_sets"]:
        parsed = module.parse_rules({"preset": rule_set["preset"]})
        assert [c["contract"] for c in rule_set["contracts"]] == list(map(str, module.contracts(parsed)))
        for contract in rule_set["contracts"]:
            assert contract["label"].startswith("«")
            for field in contract["fields"]:
                assert field["label"].startswith("«") and field["need"] in ("required", "optional")


def test_a_rule_set_with_house_rules_is_described_as_it_plays() -> None:
    plain = describe_game("skat", {"preset": "classic"})["rule_sets"][0]["contracts"][0]
    without_kontra = describe_game("skat", {"preset": "classic", "kontra": False})["rule_sets"][0]["contracts"][0]
    assert "kontra" in {f["key"] for f in plain["fields"]}
    assert "kontra" not in {f["key"] for f in without_kontra["fields"]} and "kontra" in without_kontra["unused"]
    with pytest.raises(IllegalDeal) as err:
        describe_game("skat", {"preset": "classic", "kontra": 1})
    assert err.value.field == "rules.kontra"
