"""Schafkopf scoring (scorekeep/rules/schafkopf.py) against RULES.md and ADJUDICATION.md."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeep.rules import IllegalDeal, adjudicate, cards, judge, schafkopf
from scorekeep.rules.verdict import Table
from tests.rules import vectors

TABLE = Table(4, 3)


def request(deal: dict, preset: str = "classic", **options: object) -> dict:
    return {"game": "schafkopf", "rules": {"preset": preset, **options}, "players": 4, "deal": deal}


def play(deal: dict, preset: str = "classic", **options: object) -> dict:
    verdict = adjudicate(request(deal, preset, **options))
    assert verdict["ok"] is True, verdict
    assert sum(verdict["scores"]) == 0
    return verdict


def rejection(deal: dict, preset: str = "classic", **options: object) -> str:
    """The field a rejected request names."""
    verdict = adjudicate(request(deal, preset, **options))
    assert verdict["ok"] is False, verdict
    (error,) = verdict["errors"]
    assert error["message"]
    return error["field"]


def sauspiel(points: int, tricks: int | None = None, **more: object) -> dict:
    deal = {"contract": "sauspiel", "declarer": 0, "partner": 2, "card_points": points, **more}
    if tricks is not None:
        deal["declarer_tricks"] = tricks
    return deal


def solo(contract: str, points: int | None = None, tricks: int | None = None, **more: object) -> dict:
    deal = {"contract": contract, "declarer": 1, **more}
    if points is not None:
        deal["card_points"] = points
    if tricks is not None:
        deal["declarer_tricks"] = tricks
    if contract in ("solo", "solo_tout", "farbwenz", "farbwenz_tout") and "trump" not in deal:
        deal["trump"] = "H"
    return deal


def single_scores(soloist: int, value: int) -> list[int]:
    """The soloist +3 × value, the others −value (a lost game: pass −value)."""
    scores = [-value] * 4
    scores[soloist] = 3 * value
    return scores


# --- the public vectors -----------------------------------------------------------------------

@pytest.mark.parametrize("vector", vectors.load("schafkopf"))
def test_public_vector(vector: dict) -> None:
    vectors.check(vector, adjudicate(vector["input"]))


# --- the module's public shape and its presets ------------------------------------------------

def test_schafkopf_is_played_by_four() -> None:
    assert schafkopf.SEATS == (4,)
    assert schafkopf.DEFAULT_SEATS == 4
    assert schafkopf.DEFAULT_PRESET == "classic"


def test_every_preset_sets_every_option() -> None:
    for name, values in schafkopf.PRESETS.items():
        assert set(values) == set(schafkopf.OPTIONS), name


def test_every_contract_listed_with_its_fields() -> None:
    assert set(schafkopf.CONTRACTS) == {c.value for c in schafkopf.Contract}
    assert schafkopf.CONTRACTS["passed"] == ()
    assert "partner" in schafkopf.CONTRACTS["sauspiel"] and "partner" in schafkopf.CONTRACTS["hochzeit"]
    assert "trump" in schafkopf.CONTRACTS["farbwenz_tout"] and "trump" not in schafkopf.CONTRACTS["wenz"]


RULES_TABLE = {
    # option: (classic, bsv, sauspiel), as RULES.md's Schafkopf table has them
    "price_partner": (10, 10, 20),
    "price_solo": (50, 50, 50),
    "schneider": (10, 10, 10),
    "schwarz": (10, 10, 10),
    "per_laufender": (0, 10, 10),
    "laufende_min": (3, 3, 3),
    "laufende_min_wenz": (2, 2, 2),
    "tout": (180, "double", "double"),
    "sie": (540, "4x_solo", "4x_solo_8_laufende"),
    "max_doublings": (4, 4, 2),
    "klopfen": (False, True, True),
    "bock": (False, False, False),
    "variants": ([], ["geier", "farbwenz", "bettel", "hochzeit"], ["geier", "farbwenz"]),
    "price_bettel": (None, 30, None),
    "passed": ("redeal", "ramsch", "ramsch"),
    "ramsch": (None, "bsv", "sauspiel"),
}


@pytest.mark.parametrize("preset", ["classic", "bsv", "sauspiel"])
def test_preset_applies_the_rules_table(preset: str) -> None:
    column = ("classic", "bsv", "sauspiel").index(preset)
    verdict = play({"contract": "sie", "declarer": 0}, preset)
    assert verdict["rules"] == {"preset": preset, **{k: v[column] for k, v in RULES_TABLE.items()}}


def test_rules_default_to_classic() -> None:
    verdict = adjudicate({"game": "schafkopf", "deal": sauspiel(70)})
    assert verdict["rules"]["preset"] == "classic"
    assert verdict["scores"] == [10, -10, 10, -10]


def test_rules_object_is_shared_by_the_deals_of_one_rule_set() -> None:
    first = judge(request(sauspiel(70), "bsv"))
    second = judge(request(solo("wenz", 70), "bsv"))
    assert first.rules is second.rules


def test_variants_are_kept_in_rules_order_whatever_the_request_order() -> None:
    a = schafkopf.parse_rules({"variants": ["hochzeit", "geier"]})
    b = schafkopf.parse_rules({"variants": ["geier", "hochzeit", "geier"]})
    assert a == b and a.variants == ("geier", "hochzeit")
    assert hash(a) == hash(b)


@pytest.mark.parametrize(("rules", "field"), [
    pytest.param({"preset": "skat"}, "rules.preset", id="unknown-preset"),
    pytest.param({"kontra": True}, "rules.kontra", id="unknown-option"),
    pytest.param({"tout": "triple"}, "rules.tout", id="tout-neither-number-nor-double"),
    pytest.param({"tout": True}, "rules.tout", id="tout-boolean"),
    pytest.param({"sie": "4x_wenz"}, "rules.sie", id="sie-unknown-name"),
    pytest.param({"sie": 0}, "rules.sie", id="sie-zero"),
    pytest.param({"variants": ["ramsch"]}, "rules.variants.0", id="variants-unknown-game"),
    pytest.param({"variants": "geier"}, "rules.variants", id="variants-not-a-list"),
    pytest.param({"variants": None}, "rules.variants", id="variants-null"),
    pytest.param({"price_bettel": 0}, "rules.price_bettel", id="price-bettel-zero"),
    pytest.param({"price_partner": -10}, "rules.price_partner", id="negative-price"),
    pytest.param({"per_laufender": 1.5}, "rules.per_laufender", id="fractional-laufender"),
    pytest.param({"laufende_min_wenz": 5}, "rules.laufende_min_wenz", id="wenz-minimum-above-four-unter"),
    pytest.param({"klopfen": 1}, "rules.klopfen", id="klopfen-number"),
    pytest.param({"ramsch": "skat"}, "rules.ramsch", id="ramsch-unknown-settlement"),
    pytest.param({"passed": "void"}, "rules.passed", id="passed-unknown"),
    pytest.param({"passed": "ramsch"}, "rules.ramsch", id="ramsch-without-settlement"),
    pytest.param({"preset": "bsv", "ramsch": None}, "rules.ramsch", id="bsv-ramsch-settlement-removed"),
])
def test_rule_set_rejections_name_the_option(rules: dict, field: str) -> None:
    verdict = adjudicate({"game": "schafkopf", "rules": rules, "deal": {"contract": "sie", "declarer": 0}})
    assert verdict["ok"] is False
    assert verdict["errors"][0]["field"] == field


def test_every_option_can_be_overridden() -> None:
    overrides = {"price_partner": 5, "price_solo": 25, "schneider": 5, "schwarz": 0, "per_laufender": 5,
                 "laufende_min": 2, "laufende_min_wenz": 1, "tout": 100, "sie": "4x_solo", "max_doublings": 1,
                 "klopfen": False, "bock": True, "variants": ["bettel"], "price_bettel": 15,
                 "passed": "redeal", "ramsch": None}
    rules = schafkopf.parse_rules({"preset": "bsv", **overrides})
    assert {key: getattr(rules, key) for key in overrides} == {**overrides, "variants": ("bettel",)}


# --- contracts each rule set allows -----------------------------------------------------------

@pytest.mark.parametrize(("preset", "allowed"), [
    ("classic", ("sauspiel", "wenz", "solo", "wenz_tout", "solo_tout", "sie", "passed")),
    ("bsv", ("sauspiel", "wenz", "solo", "wenz_tout", "solo_tout", "sie", "geier", "farbwenz", "geier_tout",
             "farbwenz_tout", "bettel", "hochzeit", "ramsch")),
    ("sauspiel", ("sauspiel", "wenz", "solo", "wenz_tout", "solo_tout", "sie", "geier", "farbwenz",
                  "geier_tout", "farbwenz_tout", "ramsch")),
])
def test_contracts_of_each_preset(preset: str, allowed: tuple) -> None:
    assert schafkopf.contracts(schafkopf.parse_rules({"preset": preset})) == allowed


def test_bettel_needs_both_the_variant_and_a_price() -> None:
    rules = schafkopf.parse_rules({"preset": "sauspiel", "variants": ["bettel"]})
    assert "bettel" not in schafkopf.contracts(rules)
    assert rejection(solo("bettel", tricks=0), "sauspiel", variants=["bettel"]) == "deal.contract"
    verdict = play(solo("bettel", tricks=0), "sauspiel", variants=["bettel"], price_bettel=40)
    assert verdict["value"] == 40


@pytest.mark.parametrize("contract", ["geier", "geier_tout", "farbwenz", "farbwenz_tout", "bettel", "hochzeit"])
def test_variant_games_are_not_classic(contract: str) -> None:
    deal = solo(contract, 70, 8 if contract.endswith("tout") else 0)
    if contract == "hochzeit":
        deal["partner"] = 2
    assert rejection(deal, "classic") == "deal.contract"


def test_deal_fields_follow_the_rule_set() -> None:
    classic = schafkopf.parse_rules(None)
    bsv = schafkopf.parse_rules({"preset": "bsv"})
    assert schafkopf.deal_fields("sauspiel", classic, TABLE) == (
        "declarer", "partner", "called_ace", "card_points", "declarer_tricks", "laufende", "doublings")
    assert schafkopf.deal_fields("sauspiel", bsv, TABLE)[-2:] == ("doublings", "klopfer")
    assert schafkopf.deal_fields("sie", classic, TABLE) == ("declarer",)
    assert schafkopf.deal_fields("sie", bsv, TABLE) == ("declarer", "doublings", "klopfer")
    assert schafkopf.deal_fields("ramsch", bsv, TABLE) == ("points", "tricks", "klopfer")
    assert schafkopf.deal_fields("bettel", bsv, TABLE) == (
        "declarer", "card_points", "declarer_tricks", "doublings", "klopfer")
    with_bock = schafkopf.parse_rules({"bock": True, "max_doublings": 0})
    assert schafkopf.deal_fields("wenz", with_bock, TABLE) == (
        "declarer", "card_points", "declarer_tricks", "laufende", "bock")


# --- point games: won or lost, schneider, schwarz ---------------------------------------------

@pytest.mark.parametrize(("points", "won", "value"), [
    pytest.param(0, False, 30, id="0-lost-schneider-schwarz"),
    pytest.param(30, False, 20, id="30-lost-schneider"),
    pytest.param(31, False, 10, id="31-lost-plain"),
    pytest.param(60, False, 10, id="60-lost"),
    pytest.param(61, True, 10, id="61-won"),
    pytest.param(90, True, 10, id="90-won-no-schneider"),
    pytest.param(91, True, 20, id="91-won-schneider"),
    pytest.param(120, True, 30, id="120-won-schwarz"),
])
def test_sauspiel_needs_61_and_schneider_is_91_or_30(points: int, won: bool, value: int) -> None:
    verdict = play(sauspiel(points))
    assert verdict["won"] is won
    assert verdict["value"] == value
    sign = 1 if won else -1
    assert verdict["scores"] == [sign * value, -sign * value, sign * value, -sign * value]


def test_120_points_with_seven_tricks_is_schneider_not_schwarz() -> None:
    verdict = play(sauspiel(120, 7))
    assert verdict["value"] == 20
    assert verdict["schneider"] is True and verdict["schwarz"] is False


def test_a_side_with_tricks_may_have_no_card_points() -> None:
    verdict = play(sauspiel(0, 1))
    assert verdict["won"] is False and verdict["value"] == 20
    assert verdict["schwarz"] is False


def test_schwarz_without_trick_count_is_read_from_120_or_0_points() -> None:
    assert play(sauspiel(120))["schwarz"] is True
    assert play(sauspiel(0))["schwarz"] is True
    assert play(sauspiel(118))["schwarz"] is False
    assert any("taken as 8 of 8 tricks" in line for line in play(sauspiel(120))["explanation"])


def test_lost_solo_schwarz_pays_price_schneider_and_schwarz() -> None:
    verdict = play(solo("solo", 0, 0))
    assert verdict["won"] is False
    assert verdict["value"] == 70
    assert verdict["scores"] == [70, -210, 70, 70]


def test_schneider_and_schwarz_bonuses_are_options() -> None:
    assert play(sauspiel(120, 8), schneider=5, schwarz=0)["value"] == 15
    assert play(sauspiel(25), schneider=20)["value"] == 30


@pytest.mark.parametrize(("preset", "contract", "value"), [
    pytest.param("classic", "sauspiel", 10, id="classic-sauspiel-10"),
    pytest.param("classic", "wenz", 50, id="classic-wenz-50"),
    pytest.param("classic", "solo", 50, id="classic-solo-50"),
    pytest.param("bsv", "hochzeit", 10, id="bsv-hochzeit-partner-price"),
    pytest.param("bsv", "geier", 50, id="bsv-geier-solo-price"),
    pytest.param("bsv", "farbwenz", 50, id="bsv-farbwenz-solo-price"),
    pytest.param("sauspiel", "sauspiel", 20, id="sauspiel-sauspiel-20"),
    pytest.param("sauspiel", "geier", 50, id="sauspiel-geier-50"),
])
def test_price_of_each_point_game(preset: str, contract: str, value: int) -> None:
    deal = solo(contract, 70, 5)
    if contract in ("sauspiel", "hochzeit"):
        deal["partner"] = 3
    verdict = play(deal, preset)
    assert verdict["value"] == value
    if contract in ("sauspiel", "hochzeit"):
        assert verdict["scores"] == [-value, value, -value, value]
    else:
        assert verdict["scores"] == single_scores(1, value)


def test_prices_are_options() -> None:
    assert play(sauspiel(70), price_partner=30)["value"] == 30
    assert play(solo("wenz", 70), price_solo=100)["value"] == 100


def test_called_ace_is_recorded_in_the_explanation() -> None:
    verdict = play(sauspiel(70, called_ace="D"))
    assert "Schellen" in verdict["explanation"][0]


# --- Laufende ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("contract", "laufende", "value"), [
    pytest.param("sauspiel", 2, 10, id="sauspiel-2-below-minimum"),
    pytest.param("sauspiel", 3, 40, id="sauspiel-3-all-three-paid"),
    pytest.param("sauspiel", 14, 150, id="sauspiel-14"),
    pytest.param("solo", 4, 90, id="solo-4"),
    pytest.param("hochzeit", 5, 60, id="hochzeit-5"),
    pytest.param("wenz", 1, 50, id="wenz-1-below-minimum"),
    pytest.param("wenz", 2, 70, id="wenz-laufende-count-from-two"),
    pytest.param("wenz", 4, 90, id="wenz-4"),
    pytest.param("geier", 2, 70, id="geier-laufende-count-from-two"),
    pytest.param("farbwenz", 2, 50, id="farbwenz-2-uses-laufende-min"),
    pytest.param("farbwenz", 3, 80, id="farbwenz-3"),
    pytest.param("farbwenz", 11, 160, id="farbwenz-11"),
])
def test_laufende_count_from_the_minimum_then_all_bsv(contract: str, laufende: int, value: int) -> None:
    deal = solo(contract, 70, 5, laufende=laufende)
    if contract in ("sauspiel", "hochzeit"):
        deal["partner"] = 2
    verdict = play(deal, "bsv")
    assert verdict["value"] == value


def test_laufende_are_paid_by_the_side_without_them_too() -> None:
    verdict = play(solo("solo", 40, 3, laufende=4), "bsv")
    assert verdict["won"] is False and verdict["value"] == 90


def test_classic_accepts_laufende_but_pays_nothing_for_them() -> None:
    verdict = play(sauspiel(70, laufende=5))
    assert verdict["value"] == 10
    assert verdict["laufende_counted"] == 0
    assert any("(Per Laufender: 0)" in line for line in verdict["explanation"])


def test_laufende_options_can_be_overridden() -> None:
    assert play(sauspiel(70, laufende=2), "bsv", laufende_min=2)["value"] == 30
    assert play(solo("wenz", 70, laufende=2), "bsv", laufende_min_wenz=3)["value"] == 50
    assert play(solo("wenz", 70, laufende=3), "bsv", per_laufender=5)["value"] == 65
    assert play(sauspiel(70, laufende=3), "classic", per_laufender=10)["value"] == 40


@pytest.mark.parametrize(("contract", "most"), [
    ("sauspiel", 14), ("solo", 14), ("hochzeit", 14), ("wenz", 4), ("geier", 4), ("farbwenz", 11),
    ("wenz_tout", 4), ("geier_tout", 4), ("solo_tout", 14), ("farbwenz_tout", 11),
])
def test_laufende_cannot_exceed_the_trumps_of_the_contract(contract: str, most: int) -> None:
    tricks = 8 if contract.endswith("tout") else 5
    deal = solo(contract, 120 if tricks == 8 else 70, tricks, laufende=most)
    if contract in ("sauspiel", "hochzeit"):
        deal["partner"] = 2
    play(deal, "bsv")
    assert rejection({**deal, "laufende": most + 1}, "bsv") == "deal.laufende"


# --- doublings, Klopfer, Bock -----------------------------------------------------------------

@pytest.mark.parametrize(("doublings", "klopfer", "bock", "value"), [
    pytest.param(0, 0, False, 10, id="plain"),
    pytest.param(1, 0, False, 20, id="stoss"),
    pytest.param(2, 1, False, 80, id="stoss-gegenstoss-one-klopfer"),
    pytest.param(4, 4, False, 2560, id="four-doublings-all-knocked"),
    pytest.param(0, 0, True, 20, id="bock"),
    pytest.param(1, 2, True, 160, id="all-together"),
])
def test_each_doubling_and_klopfer_doubles_and_bock_doubles(doublings: int, klopfer: int, bock: bool,
                                                            value: int) -> None:
    deal = sauspiel(70, 5, doublings=doublings, klopfer=klopfer, bock=bock)
    verdict = play(deal, "bsv", bock=True)
    assert verdict["value"] == value
    assert verdict["multiplier"] == value // 10


def test_doublings_are_limited_by_the_rule_set() -> None:
    play(sauspiel(70, doublings=2), "sauspiel")
    assert rejection(sauspiel(70, doublings=3), "sauspiel") == "deal.doublings"
    assert rejection(sauspiel(70, doublings=5), "classic") == "deal.doublings"
    assert rejection(sauspiel(70, doublings=1), "classic", max_doublings=0) == "deal.doublings"
    assert play(sauspiel(70, doublings=5), "classic", max_doublings=5)["value"] == 320


def test_klopfer_only_where_the_rule_set_has_klopfen() -> None:
    assert rejection(sauspiel(70, klopfer=1)) == "deal.klopfer"
    assert rejection(sauspiel(70, klopfer=5), "bsv") == "deal.klopfer"
    assert play(sauspiel(70, klopfer=0))["value"] == 10
    assert play(sauspiel(70, klopfer=1), klopfen=True)["value"] == 20


def test_bock_only_where_the_rule_set_has_bock() -> None:
    assert rejection(sauspiel(70, bock=True)) == "deal.bock"
    assert play(sauspiel(70, bock=False))["value"] == 10
    assert play(sauspiel(70, bock=True), bock=True)["value"] == 20


# --- Tout -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("contract", "tricks", "won", "value"), [
    pytest.param("solo_tout", 8, True, 180, id="classic-solo-tout-won"),
    pytest.param("solo_tout", 7, False, 180, id="classic-solo-tout-lost-one-trick"),
    pytest.param("wenz_tout", 0, False, 180, id="classic-wenz-tout-lost-all"),
])
def test_classic_tout_is_fixed_180_won_or_lost(contract: str, tricks: int, won: bool, value: int) -> None:
    points = 120 if tricks == 8 else (0 if tricks == 0 else None)
    verdict = play(solo(contract, points, tricks, laufende=4))
    assert verdict["won"] is won
    assert verdict["value"] == value
    assert verdict["scores"] == single_scores(1, value if won else -value)


@pytest.mark.parametrize(("preset", "contract", "laufende", "value"), [
    pytest.param("bsv", "solo_tout", 0, 100, id="bsv-solo-tout-no-laufende"),
    pytest.param("bsv", "solo_tout", 2, 100, id="bsv-solo-tout-2-laufende-below-minimum"),
    pytest.param("bsv", "solo_tout", 3, 160, id="bsv-solo-tout-3-laufende"),
    pytest.param("bsv", "wenz_tout", 2, 140, id="bsv-wenz-tout-2-laufende"),
    pytest.param("bsv", "geier_tout", 4, 180, id="bsv-geier-tout-4-laufende"),
    pytest.param("sauspiel", "farbwenz_tout", 2, 100, id="sauspiel-farbwenz-tout-2-below-minimum"),
])
def test_tout_double_is_solo_and_laufende_times_two(preset: str, contract: str, laufende: int,
                                                    value: int) -> None:
    verdict = play(solo(contract, 120, 8, laufende=laufende), preset)
    assert verdict["won"] is True
    assert verdict["value"] == value


def test_tout_never_adds_schneider_or_schwarz() -> None:
    assert play(solo("solo_tout", 120, 8), "bsv")["value"] == 100
    assert play(solo("solo_tout", 0, 0), "bsv")["value"] == 100


def test_lost_tout_double_pays_the_same_value() -> None:
    verdict = play(solo("wenz_tout", 110, 7, laufende=3, doublings=1, klopfer=1), "bsv")
    assert verdict["won"] is False
    assert verdict["value"] == (50 + 30) * 2 * 4
    assert verdict["scores"] == single_scores(1, -640)


def test_tout_is_multiplied_by_doublings_klopfer_and_bock() -> None:
    assert play(solo("solo_tout", 120, 8, doublings=1, klopfer=2, bock=True), "classic", klopfen=True,
                bock=True)["value"] == 180 * 16
    assert play(solo("solo_tout", 120, 8, doublings=1), "bsv", tout=200)["value"] == 400


def test_tout_needs_the_trick_count() -> None:
    assert rejection(solo("wenz_tout", 120)) == "deal.declarer_tricks"


# --- Sie --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("preset", "value"), [
    pytest.param("classic", 540, id="classic-fixed-540"),
    pytest.param("bsv", 200, id="bsv-4x-solo"),
    pytest.param("sauspiel", 520, id="sauspiel-4x-solo-and-8-laufende"),
])
def test_sie_is_won_without_play(preset: str, value: int) -> None:
    verdict = play({"contract": "sie", "declarer": 2}, preset)
    assert verdict["won"] is True
    assert verdict["value"] == value
    assert verdict["scores"] == single_scores(2, value)


def test_fixed_sie_cannot_be_doubled_and_klopfer_bock_do_not_double_it() -> None:
    assert rejection({"contract": "sie", "declarer": 0, "doublings": 1}) == "deal.doublings"
    verdict = play({"contract": "sie", "declarer": 0, "klopfer": 2, "bock": True}, klopfen=True, bock=True)
    assert verdict["value"] == 540
    assert any("Klopfer do not double" in line for line in verdict["explanation"])
    assert any("Bock deal does not double" in line for line in verdict["explanation"])


def test_sie_by_solo_price_is_multiplied() -> None:
    assert play({"contract": "sie", "declarer": 0, "doublings": 1, "klopfer": 1}, "bsv")["value"] == 800
    assert play({"contract": "sie", "declarer": 0}, "classic", sie="4x_solo_8_laufende",
                per_laufender=5)["value"] == 360


@pytest.mark.parametrize("field", ["card_points", "declarer_tricks", "laufende", "trump", "partner"])
def test_sie_uses_no_play_facts(field: str) -> None:
    deal = {"contract": "sie", "declarer": 0, field: "H" if field == "trump" else 3}
    assert rejection(deal, "bsv") == f"deal.{field}"


# --- Bettel -----------------------------------------------------------------------------------

def test_bettel_is_won_with_no_trick() -> None:
    verdict = play(solo("bettel", 0, 0), "bsv")
    assert verdict["won"] is True and verdict["value"] == 30
    assert verdict["scores"] == single_scores(1, 30)


def test_bettel_is_lost_with_any_trick_and_multiplied() -> None:
    verdict = play(solo("bettel", tricks=1, doublings=1, klopfer=1), "bsv")
    assert verdict["won"] is False and verdict["value"] == 120
    assert verdict["scores"] == single_scores(1, -120)


def test_bettel_needs_the_trick_count_and_takes_no_laufende() -> None:
    assert rejection(solo("bettel"), "bsv") == "deal.declarer_tricks"
    assert rejection(solo("bettel", tricks=0, laufende=2), "bsv") == "deal.laufende"
    assert rejection(solo("bettel", 10, 0), "bsv") == "deal.card_points"


# --- Ramsch -----------------------------------------------------------------------------------

def ramsch(points: list[int], tricks: list[int], **more: object) -> dict:
    return {"contract": "ramsch", "points": points, "tricks": tricks, **more}


@pytest.mark.parametrize(("preset", "points", "tricks", "scores", "value"), [
    pytest.param("bsv", [20, 45, 30, 25], [2, 3, 2, 1], [10, -30, 10, 10], 10, id="bsv-loser-pays-each"),
    pytest.param("bsv", [70, 40, 10, 0], [5, 2, 1, 0], [-40, 10, 10, 20], 10, id="bsv-jungfrau-gets-double"),
    pytest.param("bsv", [95, 15, 10, 0], [6, 1, 1, 0], [-40, 10, 10, 20], 10, id="bsv-91-still-loses"),
    pytest.param("bsv", [0, 0, 120, 0], [0, 0, 8, 0], [-70, -70, 210, -70], 70, id="bsv-durchmarsch"),
    pytest.param("bsv", [50, 50, 20, 0], [3, 4, 1, 0], [10, -40, 10, 20], 10,
                 id="bsv-tie-more-tricks-loses"),
    pytest.param("bsv", [60, 60, 0, 0], [4, 4, 0, 0], [-40, -40, 40, 40], 10, id="bsv-full-tie-both-lose"),
    pytest.param("sauspiel", [20, 45, 30, 25], [2, 3, 2, 1], [20, -60, 20, 20], 20,
                 id="sauspiel-loser-pays-each"),
    pytest.param("sauspiel", [70, 40, 10, 0], [5, 2, 1, 0], [-120, 40, 40, 40], 40,
                 id="sauspiel-one-jungfrau-doubles-all"),
    pytest.param("sauspiel", [80, 40, 0, 0], [6, 2, 0, 0], [-240, 80, 80, 80], 80,
                 id="sauspiel-two-jungfrauen"),
    pytest.param("sauspiel", [91, 19, 10, 0], [6, 1, 1, 0], [60, -20, -20, -20], 20,
                 id="sauspiel-91-wins-at-the-plain-price"),
    pytest.param("sauspiel", [90, 20, 10, 0], [6, 1, 1, 0], [-120, 40, 40, 40], 40,
                 id="sauspiel-90-loses"),
    pytest.param("sauspiel", [0, 120, 0, 0], [0, 8, 0, 0], [-20, 60, -20, -20], 20,
                 id="sauspiel-durchmarsch-wins-jungfrauen-double-only-a-loss"),
    pytest.param("sauspiel", [40, 40, 40, 0], [3, 3, 2, 0], [-80, -80, 80, 80], 40,
                 id="sauspiel-three-tied-two-with-most-tricks-lose"),
])
def test_ramsch_settlements(preset: str, points: list, tricks: list, scores: list, value: int) -> None:
    verdict = play(ramsch(points, tricks), preset)
    assert verdict["won"] is None
    assert verdict["scores"] == scores
    assert verdict["value"] == value


def test_ramsch_tie_rule_is_named_as_a_reading() -> None:
    verdict = play(ramsch([50, 50, 20, 0], [3, 4, 1, 0]), "bsv")
    assert any("a reading" in line for line in verdict["explanation"])
    assert verdict["losers"] == [1]


def test_ramsch_klopfer_and_bock_multiply() -> None:
    verdict = play(ramsch([20, 45, 30, 25], [2, 3, 2, 1], klopfer=2, bock=True), "bsv", bock=True)
    assert verdict["value"] == 80 and verdict["scores"] == [80, -240, 80, 80]
    durchmarsch = play(ramsch([0, 0, 120, 0], [0, 0, 8, 0], klopfer=1), "bsv")
    assert durchmarsch["value"] == 140


def test_ramsch_prices_are_options() -> None:
    assert play(ramsch([20, 45, 30, 25], [2, 3, 2, 1]), "bsv", price_partner=5)["scores"] == [5, -15, 5, 5]
    assert play(ramsch([0, 0, 120, 0], [0, 0, 8, 0]), "bsv", price_solo=100)["value"] == 120


def test_classic_plays_ramsch_when_told_to() -> None:
    verdict = play(ramsch([20, 45, 30, 25], [2, 3, 2, 1]), "classic", passed="ramsch", ramsch="sauspiel")
    assert verdict["scores"] == [10, -30, 10, 10]


@pytest.mark.parametrize(("deal", "field"), [
    pytest.param(ramsch([20, 45, 30, 24], [2, 3, 2, 1]), "deal.points", id="points-not-120"),
    pytest.param(ramsch([20, 45, 30, 25], [2, 3, 2, 2]), "deal.tricks", id="tricks-not-8"),
    pytest.param(ramsch([20, 45, 30, 25], [2, 3, 3, 0]), "deal.points.3", id="points-without-trick"),
    pytest.param(ramsch([20, 45, 30, 25], [2, 3, 2]), "deal.tricks", id="three-seats"),
    pytest.param(ramsch([20, 45, 30, 25], [2, 3, 2, 9]), "deal.tricks.3", id="nine-tricks"),
    pytest.param({"contract": "ramsch", "tricks": [2, 3, 2, 1]}, "deal.points", id="points-missing"),
    pytest.param({"contract": "ramsch", "points": [20, 45, 30, 25]}, "deal.tricks", id="tricks-missing"),
    pytest.param(ramsch([20, 45, 30, 25], [2, 3, 2, 1], doublings=1), "deal.doublings", id="doublings"),
    pytest.param(ramsch([20, 45, 30, 25], [2, 3, 2, 1], declarer=1), "deal.declarer", id="declarer"),
    pytest.param(ramsch([20, 45, 30, 25], [2, 3, 2, 1], card_points=45), "deal.card_points",
                 id="card-points"),
])
def test_ramsch_rejections(deal: dict, field: str) -> None:
    assert rejection(deal, "bsv") == field


# --- passed -----------------------------------------------------------------------------------

def test_passed_deal_is_redealt_in_classic() -> None:
    verdict = play({"contract": "passed"})
    assert verdict["won"] is None and verdict["value"] == 0 and verdict["scores"] == [0, 0, 0, 0]


def test_passed_and_ramsch_follow_the_passed_option() -> None:
    assert rejection({"contract": "passed"}, "bsv") == "deal.contract"
    assert rejection(ramsch([20, 45, 30, 25], [2, 3, 2, 1])) == "deal.contract"
    message = adjudicate(request({"contract": "passed"}, "sauspiel"))["errors"][0]["message"]
    assert "ramsch" in message
    assert rejection({"contract": "passed", "declarer": 1}) == "deal.declarer"


# --- rejections of the contract ---------------------------------------------------------------

@pytest.mark.parametrize(("preset", "deal", "field"), [
    pytest.param("classic", {"declarer": 0}, "deal.contract", id="contract-missing"),
    pytest.param("classic", {"contract": "grand"}, "deal.contract", id="contract-unknown"),
    pytest.param("classic", {"contract": 3}, "deal.contract", id="contract-not-text"),
    pytest.param("classic", [], "deal", id="deal-not-object"),
    pytest.param("classic", {**sauspiel(70), "matadors": 2}, "deal.matadors", id="unknown-field"),
    pytest.param("classic", {"contract": "wenz", "card_points": 70}, "deal.declarer", id="declarer-missing"),
    pytest.param("classic", solo("wenz", 70, declarer=4), "deal.declarer", id="declarer-seat-4"),
    pytest.param("classic", {**sauspiel(70), "partner": None}, "deal.partner", id="partner-missing"),
    pytest.param("classic", sauspiel(70, partner=0), "deal.partner", id="partner-is-declarer"),
    pytest.param("bsv", {**solo("hochzeit", 70), "partner": 1}, "deal.partner",
                 id="hochzeit-partner-is-declarer"),
    pytest.param("classic", solo("wenz", 70, partner=2), "deal.partner", id="partner-in-a-wenz"),
    pytest.param("classic", sauspiel(70, called_ace="H"), "deal.called_ace", id="called-ace-hearts"),
    pytest.param("classic", sauspiel(70, called_ace="X"), "deal.called_ace", id="called-ace-unknown"),
    pytest.param("classic", solo("solo", 70, called_ace="C"), "deal.called_ace", id="called-ace-in-solo"),
    pytest.param("classic", {"contract": "solo", "declarer": 1, "card_points": 70}, "deal.trump",
                 id="solo-without-trump"),
    pytest.param("classic", solo("solo", 70, trump="X"), "deal.trump", id="trump-unknown"),
    pytest.param("classic", solo("wenz", 70, trump="H"), "deal.trump", id="trump-in-a-wenz"),
    pytest.param("classic", sauspiel(70, trump="H"), "deal.trump", id="trump-in-a-sauspiel"),
    pytest.param("classic", solo("wenz"), "deal.card_points", id="card-points-missing"),
    pytest.param("classic", sauspiel(121), "deal.card_points", id="card-points-121"),
    pytest.param("classic", sauspiel(-1), "deal.card_points", id="card-points-negative"),
    pytest.param("classic", sauspiel(True), "deal.card_points", id="card-points-boolean"),
    pytest.param("classic", sauspiel(70.0), "deal.card_points", id="card-points-float"),
    pytest.param("classic", sauspiel(70, 9), "deal.declarer_tricks", id="nine-tricks"),
    pytest.param("classic", sauspiel(100, 8), "deal.card_points", id="all-tricks-not-all-points"),
    pytest.param("classic", sauspiel(10, 0), "deal.card_points", id="no-trick-but-points"),
    pytest.param("classic", sauspiel(70, laufende=15), "deal.laufende", id="laufende-15"),
    pytest.param("classic", sauspiel(70, doublings=-1), "deal.doublings", id="doublings-negative"),
    pytest.param("classic", {**sauspiel(70), "points": [30, 30, 30, 30]}, "deal.points", id="points-in-sauspiel"),
    pytest.param("bsv", sauspiel(70, klopfer="1"), "deal.klopfer", id="klopfer-text"),
    pytest.param("classic", sauspiel(70, bock=1), "deal.bock", id="bock-number-without-bock"),
    pytest.param("classic", {**sauspiel(70), "bock": "yes"}, "deal.bock", id="bock-text"),
])
def test_contract_rejections_name_the_field(preset: str, deal: object, field: str) -> None:
    assert rejection(deal, preset) == field


def test_unused_fields_may_carry_empty_values() -> None:
    deal = {**solo("wenz", 70), "partner": None, "trump": None, "points": [], "called_ace": None,
            "klopfer": 0, "bock": False}
    assert play(deal)["value"] == 50


def test_players_must_be_four() -> None:
    for players in (3, 5):
        verdict = adjudicate({"game": "schafkopf", "players": players, "deal": sauspiel(70)})
        assert verdict["ok"] is False and verdict["errors"][0]["field"] == "players"


def test_rejection_raises_illegal_deal_for_the_web_pages() -> None:
    with pytest.raises(IllegalDeal) as caught:
        judge(request(sauspiel(70, partner=0)))
    assert caught.value.field == "deal.partner"
    assert caught.value.text and "declarer" in caught.value.message


# --- explanations -----------------------------------------------------------------------------

def test_explanation_names_the_options_it_applies() -> None:
    verdict = play(solo("wenz", 95, 6, laufende=3, doublings=1, klopfer=1), "bsv")
    text = "\n".join(verdict["explanation"])
    for word in ("tariff 50", "schneider", "(Laufende count from (Wenz, Geier))",
                 "(Per Laufender)", "Klopfer", "× 4", "360"):
        assert word in text
    assert verdict["value"] == (50 + 10 + 30) * 4


def test_verdict_extra_keys() -> None:
    verdict = play(sauspiel(95, 6, laufende=4), "bsv")
    assert (verdict["schneider"], verdict["schwarz"], verdict["laufende_counted"], verdict["multiplier"]) == (
        True, False, 4, 1)


NAMES = ["Anna", "Bernd", "Clara", "Dieter"]
SEAT_NUMBER = re.compile(r"\bseats? \d", re.IGNORECASE)


def test_explanation_names_seats_so_a_page_can_write_the_players() -> None:
    deal = sauspiel(70, called_ace="C")
    english = play(deal)["explanation"]
    assert english[0] == "Sauspiel: seat 0 called the Ace of Eichel (clubs), partner seat 2; tariff 10"
    assert english[-1] == "value 10, a partner game: seats 0 and 2 each receive it, seats 1 and 3 each pay it"
    lines = judge(request(deal)).explain(NAMES.__getitem__)
    assert lines[0] == "Sauspiel: Anna called the Ace of Eichel (clubs), partner Clara; tariff 10"
    assert lines[-1] == "value 10, a partner game: Anna and Clara each receive it, Bernd and Dieter each pay it"


@pytest.mark.parametrize("request_", [
    pytest.param(request(solo("solo", 50)), id="solo-lost"),
    pytest.param(request(solo("wenz", 70)), id="wenz-won"),
    pytest.param(request({"contract": "hochzeit", "declarer": 1, "partner": 3, "card_points": 70}, "bsv"),
                 id="hochzeit"),
    pytest.param(request(solo("solo_tout", 120, 8)), id="tout"),
    pytest.param(request(solo("bettel", 0, 0), "bsv"), id="bettel"),
    *(pytest.param(request({"contract": "sie", "declarer": 2}, "classic", sie=sie), id=f"sie-{sie}")
      for sie in (540, "4x_solo", "4x_solo_8_laufende")),
    pytest.param(request(ramsch([20, 45, 30, 25], [2, 3, 2, 1]), "bsv"), id="ramsch-loser-pays-each"),
    pytest.param(request(ramsch([70, 40, 10, 0], [5, 2, 1, 0]), "bsv"), id="ramsch-jungfrau-gets-double"),
    pytest.param(request(ramsch([0, 0, 120, 0], [0, 0, 8, 0]), "bsv"), id="ramsch-durchmarsch"),
    pytest.param(request(ramsch([50, 50, 20, 0], [3, 4, 1, 0]), "bsv"), id="ramsch-tie-more-tricks-loses"),
    pytest.param(request(ramsch([60, 60, 0, 0], [4, 4, 0, 0]), "bsv"), id="ramsch-full-tie"),
    pytest.param(request(ramsch([80, 40, 0, 0], [6, 2, 0, 0]), "sauspiel"), id="ramsch-two-jungfrauen"),
    pytest.param(request(ramsch([91, 19, 10, 0], [6, 1, 1, 0]), "sauspiel"), id="ramsch-91-wins"),
    pytest.param(request(ramsch([40, 40, 40, 0], [3, 3, 2, 0]), "sauspiel"), id="ramsch-three-tied"),
    *(pytest.param(param.values[0]["input"], id=param.id) for param in vectors.load("schafkopf")
      if param.values[0] and param.values[0]["expect"].get("ok")),
])
def test_every_seat_in_the_explanation_is_named_by_the_page(request_: dict) -> None:
    lines = judge(request_).explain(NAMES.__getitem__)
    assert not [line for line in lines if SEAT_NUMBER.search(line)]
    assert len(lines) == len(adjudicate(request_)["explanation"])


@pytest.mark.parametrize("deal, preset, english, names", [
    pytest.param(sauspiel(70, partner=0), "classic", "the partner must sit at another seat than the declarer (seat 0)",
                 "the partner must sit at another seat than the declarer (Anna)", id="partner-is-the-declarer"),
    pytest.param(ramsch([20, 45, 30, 25], [2, 3, 3, 0]), "bsv", "seat 3 took no trick, so it has no card points, "
                 "not 25", "Dieter took no trick, so it has no card points, not 25", id="points-without-a-trick"),
])
def test_a_rejection_names_its_seats_so_a_page_can_write_the_players(deal: dict, preset: str, english: str,
                                                                     names: str) -> None:
    with pytest.raises(IllegalDeal) as caught:
        judge(request(deal, preset))
    assert caught.value.message == english
    assert caught.value.render(NAMES.__getitem__) == names


def test_a_page_can_name_the_players_and_translate_the_vocabulary() -> None:
    """Steps keep seats and game words as values, so a page writes names and its own language."""
    result = judge(request(sauspiel(70, called_ace="S")))
    german = {"Sauspiel": "Sauspiel", "Gras (spades)": "Gras (Pik)",
              "{game}: {declarer} called the Ace of {suit}, partner {partner}; tariff {price}":
                  "{game}: {declarer} ruft die {suit}-Sau, Partner {partner}; Tarif {price}",
              "{points} card points: won (61 or more wins)": "{points} Augen: gewonnen (ab 61)"}
    lines = result.explain(NAMES.__getitem__, lambda text: german.get(text, text))
    assert lines[0] == "Sauspiel: Anna ruft die Gras (Pik)-Sau, Partner Clara; Tarif 10"
    assert lines[1] == "70 Augen: gewonnen (ab 61)"
    assert result.explanation[0] == "Sauspiel: seat 0 called the Ace of Gras (spades), partner seat 2; tariff 10"
    # the contract's English


def test_a_rejection_translates_the_game_it_names() -> None:
    with pytest.raises(IllegalDeal) as caught:
        judge(request({"contract": "solo", "declarer": 1, "card_points": 70}))
    assert caught.value.message == 'is required in a Solo: one of "C", "S", "H" or "D"'
    german = {" in a Solo": " bei einem Solo"}
    assert caught.value.render(NAMES.__getitem__, translate=lambda text: german.get(text, text)) == \
        'is required bei einem Solo: one of "C", "S", "H" or "D"'


# --- properties -------------------------------------------------------------------------------

CONTRACT_NAMES = [c.value for c in schafkopf.Contract]
small_ints = st.integers(-1, 130)
maybe = st.one_of(st.none(), st.integers(-1, 15), st.booleans(), st.sampled_from(["H", "C", "x"]))

deals = st.fixed_dictionaries(
    {"contract": st.sampled_from(CONTRACT_NAMES)},
    optional={
        "declarer": st.integers(-1, 4),
        "partner": st.one_of(st.none(), st.integers(-1, 4)),
        "called_ace": st.one_of(st.none(), st.sampled_from(["C", "S", "H", "D", "x"])),
        "trump": st.one_of(st.none(), st.sampled_from(["C", "S", "H", "D", "x"])),
        "card_points": small_ints,
        "declarer_tricks": st.integers(-1, 9),
        "laufende": st.integers(-1, 15),
        "doublings": st.integers(-1, 5),
        "klopfer": st.integers(-1, 5),
        "bock": st.one_of(st.booleans(), st.none(), st.integers(0, 1)),
        "points": st.one_of(st.none(), st.lists(st.integers(0, 120), min_size=3, max_size=5)),
        "tricks": st.one_of(st.none(), st.lists(st.integers(0, 8), min_size=3, max_size=5)),
    })
rule_sets = st.fixed_dictionaries(
    {"preset": st.sampled_from(["classic", "bsv", "sauspiel"])},
    optional={"bock": st.booleans(), "klopfen": st.booleans(), "max_doublings": st.integers(0, 4),
              "passed": st.sampled_from(["redeal", "ramsch"]), "price_bettel": st.sampled_from([None, 20]),
              "variants": st.lists(st.sampled_from(["geier", "farbwenz", "bettel", "hochzeit"]), max_size=4),
              "tout": st.sampled_from([180, "double"]), "sie": st.sampled_from([540, "4x_solo",
                                                                                  "4x_solo_8_laufende"])})


@settings(max_examples=400, deadline=None)
@given(deal=deals, rules=rule_sets)
def test_any_well_typed_request_gives_a_verdict_or_a_rejection(deal: dict, rules: dict) -> None:
    try:
        verdict = judge({"game": "schafkopf", "rules": rules, "deal": deal})
    except IllegalDeal as err:
        assert err.field.startswith(("deal", "rules")) and err.message
        return
    assert sum(verdict.scores) == 0
    assert verdict.value >= 0
    assert len(verdict.scores) == 4
    assert verdict.explanation and all(isinstance(line, str) for line in verdict.explanation)


PACK = sorted(cards.ALL_CARDS)


@st.composite
def ramsch_deals(draw: st.DrawFn) -> dict:
    """A Ramsch as it can be played: a shuffled pack, each trick of four cards to some seat."""
    shuffled = draw(st.permutations(PACK))
    takers = draw(st.lists(st.integers(0, 3), min_size=8, max_size=8))
    points, tricks = [0] * 4, [0] * 4
    for trick, seat in enumerate(takers):
        tricks[seat] += 1
        points[seat] += cards.points(shuffled[4 * trick:4 * trick + 4])
    return ramsch(points, tricks, klopfer=draw(st.integers(0, 4)))


@settings(max_examples=300, deadline=None)
@given(deal=ramsch_deals(), preset=st.sampled_from(["bsv", "sauspiel"]))
def test_ramsch_payments_sum_to_zero_and_the_losers_pay(deal: dict, preset: str) -> None:
    verdict = play(deal, preset)
    losers = verdict["losers"]
    assert losers and all(verdict["scores"][seat] < 0 for seat in losers)
    assert all(verdict["scores"][seat] > 0 for seat in range(4) if seat not in losers)
    assert verdict["value"] > 0


POINT_GAMES = ["sauspiel", "hochzeit", "wenz", "solo", "geier", "farbwenz"]
# Every total a side can hold in 1 … 7 tricks (0 and 120 are read as no trick and all tricks).
POSSIBLE_POINTS = sorted(set().union(*(cards.TOTALS_BY_COUNT[4 * t] for t in range(1, 8))) - {0, 120})


@st.composite
def point_game_deals(draw: st.DrawFn) -> dict:
    contract = draw(st.sampled_from(POINT_GAMES))
    declarer = draw(st.integers(0, 3))
    deal = {"contract": contract, "declarer": declarer, "card_points": draw(st.sampled_from(POSSIBLE_POINTS)),
            "laufende": draw(st.integers(0, schafkopf.TRUMPS[contract])),
            "doublings": draw(st.integers(0, 4)), "klopfer": draw(st.integers(0, 4))}
    if contract in ("sauspiel", "hochzeit"):
        deal["partner"] = draw(st.integers(0, 3).filter(lambda seat: seat != declarer))
    if contract in ("solo", "farbwenz"):
        deal["trump"] = draw(st.sampled_from("CSHD"))
    return deal


@settings(max_examples=300, deadline=None)
@given(deal=point_game_deals(), data=st.data())
def test_more_card_points_never_turn_a_won_game_into_a_lost_one(deal: dict, data: st.DataObject) -> None:
    more = data.draw(st.sampled_from([p for p in POSSIBLE_POINTS if p > deal["card_points"]] or [120]))
    lower = play(deal, "bsv")
    higher = play({**deal, "card_points": more}, "bsv")
    assert lower["won"] <= higher["won"]


@settings(max_examples=300, deadline=None)
@given(deal=point_game_deals())
def test_payments_follow_partner_or_single_game(deal: dict) -> None:
    verdict = play(deal, "bsv")
    value, scores = verdict["value"], verdict["scores"]
    sign = 1 if verdict["won"] else -1
    if deal["contract"] in ("sauspiel", "hochzeit"):
        side = {deal["declarer"], deal["partner"]}
        assert scores == [sign * value if seat in side else -sign * value for seat in range(4)]
    else:
        assert scores == single_scores(deal["declarer"], sign * value)


@settings(max_examples=200, deadline=None)
@given(deal=point_game_deals())
def test_one_more_doubling_doubles_the_value(deal: dict) -> None:
    if deal["doublings"] == 4:
        return
    base = play(deal, "bsv")["value"]
    assert play({**deal, "doublings": deal["doublings"] + 1}, "bsv")["value"] == 2 * base


@pytest.mark.parametrize("points, tricks", [(120, 4), (50, 1), (1, None), (119, None), (45, 1)],
                         ids=["120-in-four-tricks", "50-in-one-trick", "1-point", "119-points", "45-in-one-trick"])
def test_card_points_that_the_tricks_cannot_hold_are_refused(points: int, tricks: int | None) -> None:
    result = adjudicate(request(sauspiel(points, tricks), "classic"))
    assert result["ok"] is False and result["errors"][0]["field"] == "deal.card_points"


@pytest.mark.parametrize("points, tricks", [(120, 5), (120, 7), (0, 1), (44, 1)],
                         ids=["all-points-in-five", "all-points-in-seven", "a-blank-trick", "four-aces"])
def test_card_points_the_tricks_can_hold_are_scored(points: int, tricks: int) -> None:
    assert play(sauspiel(points, tricks))["ok"] is True


def test_a_ramsch_seat_cannot_hold_more_than_its_tricks_allow() -> None:
    result = adjudicate(request(ramsch([50, 40, 30, 0], [1, 4, 3, 0]), "bsv"))
    assert result["ok"] is False and result["errors"][0]["field"] == "deal.points.0"


@pytest.mark.parametrize(("preset", "options", "deal", "chance"), [
    ("classic", {}, {"contract": "sauspiel", "declarer": 0, "partner": 2, "doublings": 1}, ([1, 3], True)),
    ("classic", {}, {"contract": "wenz", "declarer": 3}, ([0, 1, 2], False)),
    ("bsv", {}, {"contract": "solo", "declarer": 1, "trump": "H", "doublings": 2}, ([0, 2, 3], True)),
    ("classic", {}, {"contract": "passed"}, None),
    ("bsv", {}, {"contract": "ramsch"}, None),
    ("classic", {}, {"contract": "sie", "declarer": 2}, None),  # a Sie at its fixed value is never doubled
    ("bsv", {}, {"contract": "sie", "declarer": 2}, ([0, 1, 3], False)),  # 4 × solo: it may be
    ("classic", {"max_doublings": 0}, {"contract": "wenz", "declarer": 3}, None),
], ids=["sauspiel-said", "wenz-not-said", "solo-said", "passed", "ramsch", "sie-fixed", "sie-priced",
        "no-doublings"])
def test_the_side_against_the_declaring_side_could_say_stoss(preset: str, options: dict, deal: dict,
                                                             chance: object) -> None:
    rules = schafkopf.parse_rules({"preset": preset, **options})
    assert schafkopf.stoss_chance(rules, deal) == chance
