"""Kop, the Polish four-player game of the 16-card pack, scored by RULES.md ("Kop").

The pack is A 10 Q J of each suit: A 11, 10 10, Q 3, J 2 — 104 card points in all, and every
card carries points, so a side with no card points took no trick and a side with a trick has
points. Four tricks of four cards are played.

Sides: the "old" side is the two black-queen holders (normal game), the wesele player and his
partner (wesele), or a lone player against three (cicha, zolo, zolo du). The old side wins with
53 card points or more; a zolo du is won only with all four tricks. A 52–52 tie goes against the
side that made the last counted doubling, against the old side when nobody doubled, and — with
`tie_lone_loses` — against the lone player of a 1-against-3 game whoever doubled.

Value: the base (1 when the losers took 26 or more, 2 when 25 or fewer, `base_no_trick` when they
took no trick) — for the lone games times `solo_factors` (`solo_scoring` ``times_base``) or the
factor alone (``flat``) — doubled by each counted call. Presets: ``classic`` (pagat's description,
as the brief gives it), ``wolsztyn`` and ``koscian`` (the two Polish tournament regulations).
"""

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, cast

from .cards import SUITS, Card, parse_cards, totals_by_count
from .errors import IllegalDeal
from .explain import AND, Explanation, Listing, Phrase, Seat, Seats, Word, counted, explanation, power
from .fields import Option, Reader, boolean, check_int, describe, integer, nullable, one_of, read_rules, words
from .glossary import Term
from .inputs import REQUIRED, Input, Kind, Need, ask
from .records import quick_init
from .season import Basis, Measure
from .sheet import NOTHING, Column, Declared, Layout, PaperList, PaperRow, noted, result, side
from .verdict import Table, Verdict, options_json, rules_memo

SEATS = (4,)
DEFAULT_SEATS = 4
DEFAULT_PRESET = "classic"

# --- the pack ----------------------------------------------------------------------------------

RANKS = ("A", "10", "Q", "J")
CARD_POINTS = {"A": 11, "10": 10, "Q": 3, "J": 2}
"""Card points of the Kop pack (RULES.md): A 11, 10 10, Q 3, J 2."""

CARDS = frozenset(Card(suit + rank) for suit in SUITS for rank in RANKS)
TOTAL_POINTS = sum(CARD_POINTS.values()) * len(SUITS)  # 104
WIN_POINTS = 53
"""The old side wins with 53 card points or more (RULES.md); 52 is a tie."""

TRICKS = 4
CARDS_PER_TRICK = 4


TOTALS_BY_TRICKS = totals_by_count(CARD_POINTS[card[1:]] for card in CARDS)[::CARDS_PER_TRICK]
"""Index t: every card-point total that exactly t tricks can hold (e.g. 1 trick: 8 … 44, not 13)."""
POSSIBLE_TOTALS = frozenset().union(*TOTALS_BY_TRICKS)


def tricks_for(points: int) -> tuple[int, ...]:
    """The old side's trick counts that can hold `points` (and leave the young side the rest).

    Every Kop card scores (J 2 at least), so the points often settle the tricks: 0 is no trick,
    104 all four, 8 only one; 60 may be two tricks or three.
    """
    return tuple(t for t, totals in enumerate(TOTALS_BY_TRICKS)
                 if points in totals and TOTAL_POINTS - points in TOTALS_BY_TRICKS[len(TOTALS_BY_TRICKS) - 1 - t])


# --- contracts ---------------------------------------------------------------------------------

class Contract(StrEnum):
    NORMAL = "normal"
    WESELE = "wesele"
    CICHA = "cicha"
    ZOLO = "zolo"
    ZOLO_DU = "zolo_du"


# The game's vocabulary as it goes into explanations and rejections: each a `Word`, made once here,
# so that a page can translate it like a template.
CONTRACT_NAMES = {Contract.NORMAL: Word("normal game"), Contract.WESELE: Word("wesele"),
                  Contract.CICHA: Word("cicha"), Contract.ZOLO: Word("zolo"), Contract.ZOLO_DU: Word("zolo du")}
_OLD, _YOUNG = Word("old"), Word("young")
_WON, _LOST = Word("won"), Word("lost")
LONE = frozenset({Contract.CICHA, Contract.ZOLO, Contract.ZOLO_DU})
"""The 1-against-3 contracts: one old player (RULES.md)."""

_BY_NAME = {c.value: c for c in Contract}

CONTRACTS: dict[str, tuple[str, ...]] = {c.value: ("old", "card_points", "old_tricks", "doublings")
                                         for c in Contract}
_DEAL_KEYS = frozenset({"contract", "old", "card_points", "old_tricks", "doublings"})


# --- rule sets ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SoloFactors:
    """What a lone game is worth: base × factor (``times_base``) or the factor alone (``flat``)."""

    cicha: int
    zolo: int
    zolo_du: int

    def to_json(self) -> dict[str, int]:
        return {"cicha": self.cicha, "zolo": self.zolo, "zolo_du": self.zolo_du}


@dataclass(frozen=True, slots=True)
class MaxDoublings:
    """The most counted doublings each contract allows (RULES.md `max_doublings`)."""

    normal: int
    wesele: int
    cicha: int
    zolo: int
    zolo_du: int

    def to_json(self) -> dict[str, int]:
        return {"normal": self.normal, "wesele": self.wesele, "cicha": self.cicha, "zolo": self.zolo,
                "zolo_du": self.zolo_du}


_SOLO_KEYS = tuple(f.name for f in fields(SoloFactors))
_LIMIT_KEYS = tuple(f.name for f in fields(MaxDoublings))


class PerContract:
    """A JSON object with a whole number per contract, e.g. ``{"cicha": 4, "zolo": 5, "zolo_du": 10}``.

    Keys left out keep the preset's value (`parse_rules` fills them in). With `whole`, a single
    whole number stands for every contract (``"max_doublings": 3``).
    """

    kind = "json"

    def __init__(self, keys: tuple[str, ...], lo: int, hi: int, example: str, whole: bool) -> None:
        self.keys, self.lo, self.hi, self.example, self.whole = keys, lo, hi, example, whole

    def __call__(self, value: object, field: str) -> dict[str, int]:
        if self.whole and type(value) is int:
            return dict.fromkeys(self.keys, check_int(value, field, self.lo, self.hi))
        if not isinstance(value, dict):
            if self.whole:
                raise IllegalDeal(field, "must be a whole number for every contract or an object such as {example}, "
                                  "not {got}", example=self.example, got=describe(value))
            raise IllegalDeal(field, "must be an object such as {example}, not {got}",
                              example=self.example, got=describe(value))
        for key, number in value.items():
            if key not in self.keys:
                raise IllegalDeal(f"{field}.{key}", "is not one of the contracts here: {allowed}",
                                  allowed=words(f'"{k}"' for k in self.keys))
            check_int(number, f"{field}.{key}", self.lo, self.hi)
        return dict(value)


class TrumpOrder:
    """The trumps from the highest down: 12 or 14 distinct cards of the Kop pack (play checks only)."""

    kind = "json"

    def __call__(self, value: object, field: str) -> list[str]:
        return list(parse_cards(value, field, (12, 14), CARDS))


class RoundPlacing:
    """The placing points of a round, first place to fourth: 4 whole numbers, none above the one before."""

    kind = "json"

    def __call__(self, value: object, field: str) -> list[int]:
        if not isinstance(value, list) or len(value) != DEFAULT_SEATS:
            raise IllegalDeal(field, "must be null or a list of 4 placing points, first place first, "
                              "such as [4, 3, 2, 1], not {got}", got=describe(value))
        for i, points in enumerate(value):
            check_int(points, f"{field}.{i}", 0, 100)
            if i and points > value[i - 1]:
                raise IllegalDeal(f"{field}.{i}", "place {place} cannot get more points ({points}) than "
                                  "place {before} ({above})",
                                  place=i + 1, points=points, before=i, above=value[i - 1])
        return list(value)


_CLASSIC_TRUMPS = ["HA", "H10", "CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ", "DA", "D10"]
_TOURNAMENT_TRUMPS = ["HA", "C10", "S10", "H10", "CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ", "DA", "D10"]

PRESETS: dict[str, dict[str, object]] = {
    "classic": {
        "base_no_trick": 2,
        "solo_scoring": "times_base",
        "solo_factors": {"cicha": 4, "zolo": 5, "zolo_du": 10},
        "max_doublings": {"normal": 4, "wesele": 4, "cicha": 4, "zolo": 4, "zolo_du": 4},
        "tie_lone_loses": True,
        "trump_order": _CLASSIC_TRUMPS,
        "round_placing": None,
    },
    "wolsztyn": {
        "base_no_trick": 3,
        "solo_scoring": "flat",
        "solo_factors": {"cicha": 4, "zolo": 5, "zolo_du": 10},
        "max_doublings": {"normal": 4, "wesele": 4, "cicha": 3, "zolo": 2, "zolo_du": 2},
        "tie_lone_loses": False,
        "trump_order": _TOURNAMENT_TRUMPS,
        # RULES.md: "4 / 3 / 2 / 1, ties share" — sharing is the ledger's business.
        "round_placing": [4, 3, 2, 1],
    },
    "koscian": {
        "base_no_trick": 3,
        "solo_scoring": "flat",
        "solo_factors": {"cicha": 4, "zolo": 5, "zolo_du": 10},
        "max_doublings": {"normal": 5, "wesele": 5, "cicha": 3, "zolo": 3, "zolo_du": 3},
        "tie_lone_loses": False,
        "trump_order": _TOURNAMENT_TRUMPS,
        "round_placing": [5, 3, 1, 0],
    },
}

OPTIONS: dict[str, Option] = {
    "base_no_trick": integer(1, 20),
    "solo_scoring": one_of("times_base", "flat"),
    "solo_factors": PerContract(_SOLO_KEYS, 1, 100, '{"cicha": 4, "zolo": 5, "zolo_du": 10}', whole=False),
    "max_doublings": PerContract(_LIMIT_KEYS, 0, 10, '{"normal": 4, "wesele": 4, "cicha": 3, "zolo": 2, '
                                 '"zolo_du": 2}', whole=True),
    "tie_lone_loses": boolean,
    "trump_order": TrumpOrder(),
    "round_placing": nullable(RoundPlacing()),
}


@dataclass(frozen=True, slots=True)
class Rules:
    """A Kop rule set: a preset of RULES.md with the table's overrides applied."""

    preset: str
    base_no_trick: int
    solo_scoring: str
    solo_factors: SoloFactors
    max_doublings: MaxDoublings
    tie_lone_loses: bool
    trump_order: tuple[str, ...]
    round_placing: tuple[int, ...] | None


def _rules(values: dict[str, Any]) -> Rules:
    """The frozen rule set from `read_rules`' values; per-contract objects fill gaps from the preset."""
    preset = PRESETS[values["preset"]]
    placing = values["round_placing"]
    return Rules(
        preset=values["preset"],
        base_no_trick=values["base_no_trick"],
        solo_scoring=values["solo_scoring"],
        solo_factors=SoloFactors(**{**cast(dict[str, Any], preset["solo_factors"]), **values["solo_factors"]}),
        max_doublings=MaxDoublings(**{**cast(dict[str, int], preset["max_doublings"]), **values["max_doublings"]}),
        tie_lone_loses=values["tie_lone_loses"],
        trump_order=tuple(values["trump_order"]),
        round_placing=None if placing is None else tuple(placing),
    )


_PRESET_RULES = {name: _rules({"preset": name, **options}) for name, options in PRESETS.items()}


def parse_rules(obj: object) -> Rules:
    """The rule set a request's ``rules`` names (RULES.md, Kop); no option constrains another."""
    if obj is None:
        return _PRESET_RULES[DEFAULT_PRESET]
    if type(obj) is dict and len(obj) == 1:
        name = obj.get("preset")
        if type(name) is str and name in _PRESET_RULES:
            return _PRESET_RULES[name]  # the common case, a preset without house rules, is built once
    return _rules(read_rules(obj, PRESETS, DEFAULT_PRESET, OPTIONS))


@rules_memo
def rules_json(rules: Rules) -> dict[str, Any]:
    """The contract's ``rules`` object, with `solo_factors` and `max_doublings` as objects per contract."""
    out = options_json(rules)
    out["solo_factors"] = rules.solo_factors.to_json()
    out["max_doublings"] = rules.max_doublings.to_json()
    return out


SELDOM_PLAYED: frozenset[str] = frozenset()
CONTRACT_SIGNS: dict[str, str] = {}  # no game of it is named by a sign
"""The contracts few deals are (a page may fold them away): none, every contract is asked often."""


def contracts(rules: Rules) -> tuple[str, ...]:
    """Every rule set plays all five contracts."""
    return tuple(CONTRACTS)


def deal_fields(contract: str, rules: Rules, table: Table) -> tuple[str, ...]:
    """Every contract uses every deal field; `old_tricks` is required only where `tricks_required` says."""
    return CONTRACTS[contract]


def tricks_required(contract: Contract, rules: Rules) -> bool:
    """Whether `old_tricks` must be given (ADJUDICATION.md, Kop).

    A zolo du is won only with all four tricks. And the contract asks for the tricks "where the rule
    set values a trickless side": where `base_no_trick` differs from the ordinary base 2 of a side
    with 25 or fewer, and the base counts (normal and wesele, and the lone games under
    ``times_base``). The points would tell it too (every card carries points); the contract asks
    for the tricks all the same, so that the table states them.
    """
    return contract is Contract.ZOLO_DU or (
        rules.base_no_trick != 2 and (contract not in LONE or rules.solo_scoring == "times_base"))


def _tricks_missing(contract: Contract, rules: Rules) -> IllegalDeal:
    """The rejection of a deal without `old_tricks` where `tricks_required` asks for them."""
    if contract is Contract.ZOLO_DU:
        return IllegalDeal("deal.old_tricks", "is required in a zolo du (it is won only with all four tricks): "
                           "a whole number from {lo} to {hi}", lo=0, hi=TRICKS)
    return IllegalDeal("deal.old_tricks", "is required under rule set {preset}, where a side that took no trick "
                       "makes the base {base} (base_no_trick): a whole number from {lo} to {hi}",
                       preset=PRESET_LABELS[rules.preset], base=rules.base_no_trick, lo=0, hi=TRICKS)


# --- the game's words, and what a deal asks of the table ----------------------------------------

NAME = Word("Kop")
PACK = tuple((Card(suit + rank), CARD_POINTS[rank]) for suit in SUITS for rank in RANKS)
"""The 16 cards a side can capture, suit by suit, high to low: every one scores."""
PRESET_LABELS = {"classic": Word("Classic"), "wolsztyn": Word("Wolsztyn tournament"),
                 "koscian": Word("Kościan tournament")}
CONTRACT_LABELS: dict[str, Word] = {Contract.NORMAL: Word("Normal game"), Contract.WESELE: Word("Wesele"),
                   Contract.CICHA: Word("Cicha"), Contract.ZOLO: Word("Zolo"), Contract.ZOLO_DU: Word("Zolo du")}
OPTION_LABELS = {
    "base_no_trick": Word("Base when the losers took no trick"),
    "solo_scoring": Word("Lone games are scored"),
    "solo_factors": Word("Lone game factors"),
    "max_doublings": Word("Most doublings"),
    "tie_lone_loses": Word("The lone player loses a 52–52 tie"),
    "trump_order": Word("Trump order (for play checks only)"),
    "round_placing": Word("Placing points of a round"),
}
CHOICE_LABELS = {("solo_scoring", "times_base"): Word("base × factor"), ("solo_scoring", "flat"): Word("flat factor")}
NONE_LABELS = {"round_placing": Word("none")}
CALLS = (Word("Kontra"), Word("Re"), Word("Bok"), Word("Słup"))
"""The counted calls by their names, in the order said (the seed page: コントラ, レ, ボック, スウップ); a counted
call after Słup, which the page's informal rules allow, is named Słup again."""

FIELDS: dict[str, Input] = {f.key: f for f in (
    Input("old", Kind.SEATS, Word("Old side"), Need.REQUIRED, lo=2, hi=2,
          help=Word("the two black-queen holders (normal game), the wesele pair, or the lone player")),
    # The totals no side can make with whole tricks (1, 103 …) are known before any other input: a page says so
    # at the number as it is typed (`_check_points` still refuses them).
    Input("card_points", Kind.COUNT, Word("Old side's card points"), Need.REQUIRED, hi=TOTAL_POINTS,
          impossible=tuple(t for t in range(TOTAL_POINTS + 1) if t not in POSSIBLE_TOTALS)),
    Input("old_tricks", Kind.COUNT, Word("Old side's tricks"), hi=TRICKS, seldom=True, short=Word("tricks"),
          help=Word("optional, except for zolo du and where the rule set values a trickless side")),
    Input("doublings", Kind.SEAT_ORDER, Word("Doublings, in the order said"), seldom=True, short=Word("doublings"),
          help=Word("the seat of each call as numbered on this page, e.g. 2 1 4"), empty=Word("no doubling")),
)}
"""Every deal field of Kop as a page asks it; `inputs` adjusts them to a contract and rule set."""


_LONE = Word("the lone player")
_OLD_SIDE_IN = {Contract.NORMAL: Word("the two black-queen holders"), Contract.WESELE: Word("the wesele pair")}


def inputs(contract: str, rules: Rules, table: Table) -> tuple[Input, ...]:
    """The fields `contract` asks: the old side is one lone player or a pair; its tricks where
    `tricks_required` says; as many counted doublings as the rule set allows in the contract."""
    chosen = _BY_NAME[contract]
    lone = 1 if chosen in LONE else 2
    # Who the old side is differs by contract: what was ticked for one contract is no answer for another.
    changes: dict[str, dict[str, object]] = {"old": {"lo": lone, "hi": lone, "help": _OLD_SIDE_IN.get(chosen, _LONE)},
                                             "doublings": {"hi": getattr(rules.max_doublings, contract)}}
    if tricks_required(chosen, rules):
        changes["old_tricks"] = {**REQUIRED, "seldom": False}
    return ask(FIELDS, deal_fields(contract, rules, table), **changes)


def complete(facts: dict[str, Any], rules: Rules, table: Table) -> dict[str, Any]:
    """What the other facts settle, filled in for a page: every Kop card scores, so the old side's card
    points leave most often one possible trick count (`tricks_for`), which the table need not tap."""
    points = facts.get("card_points")
    if "old_tricks" in facts or type(points) is not int or facts.get("contract") not in _BY_NAME:
        return facts
    settled = tricks_for(points)
    return {**facts, "old_tricks": settled[0]} if len(settled) == 1 else facts


def entered(facts: dict[str, Any], rules: Rules, table: Table) -> dict[str, Any]:
    """A stored deal's facts as a page enters them: as they are (the old side's tricks stay shown)."""
    return facts


# --- at the table: seats, rounds -----------------------------------------------------------------

PLAYERS = range(4, 8)  # four play; more sit out in turn
DEALER_SITS_OUT_AT = None
# The seating (rules/seating.py) in words, as the night's form explains it beside the players.
SEATING = Word("Four play each deal. With five or more at the table, the dealer and everyone beyond the fourth "
               "player to his left sit out in turn.")
DECLARER_ALONE = False  # the old side wins or loses together
ZERO_SUM = True  # the young side pays what the old side wins
MONEY = False  # small points
AMOUNTS: frozenset[str] = frozenset()  # no option is money
SERIES: tuple[int, ...] = ()
SEEGER_FABIAN = False

# What a club's season may rank by (rules/season.py); the first is the default. Placing points only where the
# night's rule set places rounds.
SEASON_BASES = (
    Basis("placing", Word("placing points"), Measure.PLACING),
    Basis("small_points", Word("small points"), Measure.TOTAL),
)
BOCK_EVENTS: dict[str, Any] = {}  # Kop has no Bock deals


def round_placing(rules: Rules) -> tuple[int, ...] | None:
    """The placing points of a round (the tournaments' 4/3/2/1 or 5/3/1/0), or None (classic)."""
    return rules.round_placing


def tournament_ranking(rules: Rules) -> tuple[str, ...]:
    """What a Kop tournament ranks by (`rules.ranking`): the placing points of the rounds (RULES.md's
    presets: Wolsztyn 4/3/2/1, ties sharing; Kościan 5/3/1/0), then the small points (the list total), then
    the number of rounds won, then of second places (issue 18, as Kościan breaks ties). A rule set that
    places no rounds (classic) ranks by the small points alone, then the rounds' order is not counted."""
    if rules.round_placing is None:
        return ("total",)
    return ("placing", "total", "round_wins", "second_places")


def tournament_solo(facts: Mapping[str, Any]) -> bool:
    """Kop's tie-break does not count Soli."""
    return False


SHEET = (Column(Word("Game")), Column(Word("Old side")), Column(Word("Result")), Column(Word("Value")))
SHEET_RUNNING_FIRST = False
PAPER = PaperList(Layout.ROUNDS)  # small points and running totals, the round placing after each round


def paper_row(facts: Mapping[str, Any], verdict: Mapping[str, Any]) -> PaperRow:
    """A deal's line on the list of small points: the game."""
    return PaperRow(game_words(facts, verdict))


def game_words(facts: Mapping[str, Any], verdict: Mapping[str, Any]) -> object:
    """The game as the list writes it: "Zolo · 2 doubled"."""
    counted = verdict.get("counted_doublings")
    return noted([CONTRACT_LABELS.get(str(facts.get("contract")), NOTHING),
                  Phrase("{n} doubled", n=counted) if counted else NOTHING])


DECLARED = (Declared(Word("Doublings"), lambda facts, verdict: verdict.get("counted_doublings") or 0),)
"""The doublings that counted (the contract and the old side have columns of their own)."""


def sheet_row(facts: Mapping[str, Any], verdict: Mapping[str, Any]) -> tuple[object, ...]:
    return (game_words(facts, verdict), side(declaring_side(facts)), result(verdict.get("won")), verdict["value"])


def declaring_side(facts: Mapping[str, Any]) -> list[int]:
    """The old side."""
    old = facts.get("old")
    return [seat for seat in old if isinstance(seat, int)] if isinstance(old, list) else []


# --- deals -------------------------------------------------------------------------------------

@quick_init
@dataclass(frozen=True, slots=True)
class Deal:
    """One Kop deal as the table declares it; `card_points` and `old_tricks` are the old side's."""

    contract: Contract
    old: tuple[int, ...]
    card_points: int
    old_tricks: int | None
    doublings: tuple[int, ...]


def parse_deal(obj: object, rules: Rules, table: Table) -> Deal:
    """The deal's facts, checked against the pack and the doubling rules (field ``deal.<key>``)."""
    r = Reader(obj, "deal", _DEAL_KEYS)
    # Every contract uses every field, so Reader.reject_unused has nothing to refuse here.
    contract = _BY_NAME[r.choice("contract", CONTRACTS, required=True)]
    old = _parse_old(r.obj.get("old"), contract, table)
    card_points: int = r.int("card_points", 0, TOTAL_POINTS, required=True)
    old_tricks = r.int("old_tricks", 0, TRICKS)
    if old_tricks is None and tricks_required(contract, rules):
        raise _tricks_missing(contract, rules)
    _check_points(card_points, old_tricks)
    doublings = _parse_doublings(r.obj.get("doublings"), contract, old, rules, table)
    return Deal(contract, old, card_points, old_tricks, doublings)


def _parse_old(value: object, contract: Contract, table: Table) -> tuple[int, ...]:
    """The old side: two distinct seats in normal and wesele, one seat in the lone games."""
    count = 1 if contract in LONE else 2
    if not isinstance(value, list) or len(value) != count:
        if count == 1:
            raise IllegalDeal("deal.old", "must be a list with the lone player's seat in a {contract}, such as "
                              "[0], not {got}", contract=CONTRACT_NAMES[contract], got=describe(value))
        raise IllegalDeal("deal.old", "must be a list of the two seats of the old side in a {contract}, such as "
                          "[0, 2], not {got}", contract=CONTRACT_NAMES[contract], got=describe(value))
    last = table.players - 1
    first = check_int(value[0], "deal.old.0", 0, last)
    if count == 1:
        return (first,)
    second = check_int(value[1], "deal.old.1", 0, last)
    if first == second:
        raise IllegalDeal("deal.old.1", "{seat} is listed twice; the old side is two different seats",
                          seat=Seat(first))
    return (first, second) if first < second else (second, first)


def _check_points(points: int, tricks: int | None) -> None:
    """Card points a side can take: 4 cards a trick, every card A 11, 10 10, Q 3 or J 2 (RULES.md).

    So a side with no trick has no points (ADJUDICATION.md) and 1 or 103 points are impossible.
    Without `tricks` the points must fit some number of tricks; with it, exactly that number.
    """
    if points not in POSSIBLE_TOTALS:
        below = max(t for t in POSSIBLE_TOTALS if t < points)
        above = min(t for t in POSSIBLE_TOTALS if t > points)
        raise IllegalDeal("deal.card_points", "cannot be {points}: no side can make that total with whole "
                          "tricks of the Kop pack (A 11, 10 10, Q 3, J 2); the nearest possible totals are "
                          "{below} and {above}", points=points, below=below, above=above)
    if tricks is None or points in TOTALS_BY_TRICKS[tricks]:
        return
    fits = words(t for t, totals in enumerate(TOTALS_BY_TRICKS) if points in totals)
    if tricks == 0:
        raise IllegalDeal("deal.old_tricks", "a side that took no trick has no card points, but the old side "
                          "has {points}; with {points} it took {fits} of the four tricks",
                          points=points, fits=fits)
    if tricks == TRICKS:
        raise IllegalDeal("deal.old_tricks", "a side that took all {tricks} tricks has all {total} card "
                          "points, but the old side has {points}; with {points} it took {fits} of the four "
                          "tricks", tricks=tricks, total=TOTAL_POINTS, points=points, fits=fits)
    totals = sorted(TOTALS_BY_TRICKS[tricks])
    near = [t for t in totals if t < points][-1:] + [t for t in totals if t > points][:1]
    raise IllegalDeal("deal.old_tricks", _TRICKS_CANNOT_MAKE, tricks=tricks, cards=tricks * CARDS_PER_TRICK,
                      points=points, near=Listing(near, AND), fits=fits)


def counted_calls(doublings: tuple[int, ...], old: tuple[int, ...]) -> tuple[bool, ...]:
    """Which calls count: the first always, then each from the other side than the last counted one."""
    flags = []
    last_old: bool | None = None
    for seat in doublings:
        is_old = seat in old
        counts = is_old is not last_old
        if counts:
            last_old = is_old
        flags.append(counts)
    return tuple(flags)


def _parse_doublings(value: object, contract: Contract, old: tuple[int, ...], rules: Rules,
                     table: Table) -> tuple[int, ...]:
    """The calls in the order said (RULES.md): no seat twice in a row; in a lone game the lone
    player may not call first; at most `max_doublings` of them count."""
    if value is None or value == []:
        return ()
    if not isinstance(value, list):
        raise IllegalDeal("deal.doublings", "must be a list of the seats that doubled, in the order said, "
                          "such as [1, 0], not {got}", got=describe(value))
    last = table.players - 1
    calls = tuple(value)
    for i, seat in enumerate(calls):
        if type(seat) is not int or not 0 <= seat <= last:
            check_int(seat, f"deal.doublings.{i}", 0, last)  # raises, naming the call
        if i and seat == calls[i - 1]:
            raise IllegalDeal(f"deal.doublings.{i}", "{seat} doubles twice in a row; the same seat may "
                              "not call twice running", seat=Seat(seat))
    if calls and contract in LONE and calls[0] in old:
        raise IllegalDeal("deal.doublings.0", "in a {contract} the lone player ({seat}) may not make "
                          "the first call; the first doubling comes from one of the three others",
                          contract=CONTRACT_NAMES[contract], seat=Seat(calls[0]))
    counted = sum(counted_calls(calls, old))
    limit: int = getattr(rules.max_doublings, contract)
    if counted > limit:
        raise IllegalDeal("deal.doublings", _TOO_MANY_DOUBLINGS, counted=counted, preset=PRESET_LABELS[rules.preset],
                          limit=limit, contract=CONTRACT_NAMES[contract])
    return calls


# --- scoring -----------------------------------------------------------------------------------

def _base(losers_points: int, loser: Word, rules: Rules, say: Explanation) -> int:
    """The base (RULES.md, Kop): 1 when the losing side took 26 card points or more, 2 when it took
    25 or fewer, `base_no_trick` when it took no trick — that is, every card carrying points, none."""
    if losers_points == 0:
        say("base {base}: the losing {side} side took no trick (rule set {preset}: {option})",
            base=rules.base_no_trick, side=loser, preset=PRESET_LABELS[rules.preset],
            option=OPTION_LABELS["base_no_trick"])
        return rules.base_no_trick
    if losers_points >= 26:
        say("base 1: the losing {side} side took {points} card points, 26 or more", side=loser,
            points=losers_points)
        return 1
    say("base 2: the losing {side} side took {points} card points, 25 or fewer", side=loser,
        points=losers_points)
    return 2


def _say_outcome(say: Explanation, deal: Deal, tie: bool, won: bool) -> None:
    """The sides, their card points and who won (RULES.md: 53 or more; a zolo du all four tricks)."""
    name, points, others = CONTRACT_NAMES[deal.contract], deal.card_points, TOTAL_POINTS - deal.card_points
    if deal.contract is Contract.ZOLO_DU:
        say("zolo du: {seat} alone took {tricks} of the {all} tricks ({points} card points); a zolo du is won "
            "only with all {all}, so it is {result}", seat=Seat(deal.old[0]), tricks=deal.old_tricks, all=TRICKS,
            points=points, result=_WON if won else _LOST)
    elif len(deal.old) == 1:
        seat = Seat(deal.old[0])
        if tie:
            say("{contract}: {seat} alone took {points} card points, the three others {others}: a 52–52 tie",
                contract=name, seat=seat, points=points, others=others)
        elif won:
            say("{contract}: {seat} alone took {points} card points, the three others {others}: {seat} wins "
                "({need} needed)", contract=name, seat=seat, points=points, others=others, need=WIN_POINTS)
        else:
            say("{contract}: {seat} alone took {points} card points, the three others {others}: the three "
                "others win ({need} needed)", contract=name, seat=seat, points=points, others=others, need=WIN_POINTS)
    elif tie:
        say("{contract}: the old side ({old}) took {points} card points, the young side (the other two) "
            "{others}: a 52–52 tie", contract=name, old=Seats(deal.old), points=points, others=others)
    else:
        say("{contract}: the old side ({old}) took {points} card points, the young side (the other two) "
            "{others}: the {side} side wins ({need} needed)", contract=name, old=Seats(deal.old), points=points,
            others=others, side=_OLD if won else _YOUNG, need=WIN_POINTS)


def score(deal: Deal, rules: Rules, table: Table) -> Verdict:
    """The deal's verdict: `won` is whether the old side won; `value` what one loser pays one winner."""
    say, steps = explanation()
    contract, old, preset = deal.contract, deal.old, PRESET_LABELS[rules.preset]
    lone = contract in LONE
    old_points = deal.card_points
    young_points = TOTAL_POINTS - old_points
    zolo_du = contract is Contract.ZOLO_DU
    # RULES.md: the old side wins with 53 or more, a zolo du only with all four tricks; a 52–52 tie
    # is settled below, after the calls.
    won = deal.old_tricks == TRICKS if zolo_du else old_points >= WIN_POINTS
    tie = not zolo_du and old_points == young_points
    _say_outcome(say, deal, tie, won)

    # The calls come after the outcome, since only a 52–52 tie depends on them: it goes against
    # the side of the last counted call.
    counted = 0
    last_old: bool | None = None
    calls = zip(deal.doublings, counted_calls(deal.doublings, old), strict=True) if deal.doublings else ()
    for n, (seat, counts) in enumerate(calls, 1):
        is_old = seat in old
        side = _OLD if is_old else _YOUNG
        if counts:
            counted += 1
            last_old = is_old
            say("call {n}: {seat} ({side} side) says {call}: counted, {counted} so far",
                n=n, seat=Seat(seat), side=side, call=CALLS[min(counted, len(CALLS)) - 1], counted=counted)
        else:
            say("call {n}: {seat} ({side} side) is ignored: the last counted call came from the {side} side too",
                n=n, seat=Seat(seat), side=side)
    if tie:
        if lone and rules.tie_lone_loses:
            won = False
            say("the tie goes against the lone player whoever doubled last (rule set {preset}: {option})",
                preset=preset, option=OPTION_LABELS["tie_lone_loses"])
        elif last_old is None:
            won = False
            say("with no counted doubling the tie goes against the old side")
        else:
            won = not last_old
            say("the {side} side made the last counted doubling, so the tie goes against it",
                side=_OLD if last_old else _YOUNG)

    base: int | None = None
    if not lone or rules.solo_scoring == "times_base":
        base = _base(young_points, _YOUNG, rules, say) if won else _base(old_points, _OLD, rules, say)
    if not lone:
        assert base is not None  # the base always counts in a game of two against two
        amount = base
    elif base is None:
        amount = getattr(rules.solo_factors, contract)
        say("{contract}: flat {amount} (rule set {preset}: {scoring}: {choice}; {factors})",
            contract=CONTRACT_NAMES[contract], amount=amount, preset=preset, scoring=OPTION_LABELS["solo_scoring"],
            choice=CHOICE_LABELS["solo_scoring", "flat"], factors=OPTION_LABELS["solo_factors"])
    else:
        factor = getattr(rules.solo_factors, contract)
        amount = base * factor
        say("{contract}: base {base} × {factor} = {amount} (rule set {preset}: {scoring}: {choice}; "
            "{factors})", contract=CONTRACT_NAMES[contract], base=base, factor=factor, amount=amount,
            preset=preset, scoring=OPTION_LABELS["solo_scoring"], choice=CHOICE_LABELS["solo_scoring", "times_base"],
            factors=OPTION_LABELS["solo_factors"])

    value = amount << counted
    if counted:
        say("each counted call doubles: {amount} × {doubling} = {value}", amount=amount, doubling=power(2, counted),
            value=value)

    # Payment (RULES.md): each young seat is paid or pays the value; 1 against 3 the lone player
    # settles with all three (±3 × value), 2 against 2 each old seat with one opponent (±value).
    entries = [-value if won else value] * table.players
    if lone:
        entries[old[0]] = 3 * value if won else -3 * value
        if won:
            say("value {value}: {seat} receives it from each of the three others, {total} in all",
                value=value, seat=Seat(old[0]), total=3 * value)
        else:
            say("value {value}: {seat} pays it to each of the three others, {total} in all",
                value=value, seat=Seat(old[0]), total=3 * value)
    else:
        for seat in old:
            entries[seat] = value if won else -value
        say("value {value}: each player of the {winners} side receives it, each of the {losers} side pays it",
            value=value, winners=_OLD if won else _YOUNG, losers=_YOUNG if won else _OLD)

    return Verdict("kop", rules_json(rules), won, value, tuple(entries), tuple(steps),
                   {"counted_doublings": counted, "base": base})


# Refusals and lines that count something: their plural forms (explain.counted).
_TRICKS_CANNOT_MAKE = counted(
    "{tricks} trick ({cards} cards) cannot make exactly {points} card points (the nearest totals it makes: {near}); "
    "with {points} the old side took {fits} of the four tricks",
    "{tricks} tricks ({cards} cards) cannot make exactly {points} card points (the nearest totals they make: {near}); "
    "with {points} the old side took {fits} of the four tricks", "tricks")
_TOO_MANY_DOUBLINGS = counted(
    "{counted} of these calls count, but the most counted doubling rule set {preset} allows in a {contract} is "
    "{limit} (max_doublings)",
    "{counted} of these calls count, but the most counted doublings rule set {preset} allows in a {contract} is "
    "{limit} (max_doublings)", "limit")


# --- the glossary: the players' words and what they mean -----------------------------------------

ORIGINAL_LANGUAGE = "pl"  # the language the players' own words (`Term.original`) are in
GLOSSARY = (
    Term("stara / młoda", Word("old side / young side"),
         Word("In a normal game the two holders of the black queens "
              "(the old side) play against the other two (the young "
              "side); 53 of the 104 card points win.")),
    Term("wesele", Word("Wesele"),
         Word("One player holds both black queens and plays with the holder of the highest "
              "jack he lacks.")),
    Term("cicha", Word("Cicha"),
         Word("One player holds both black queens and plays alone without saying so.")),
    Term("zolo", Word("Zolo"),
         Word("A lone game of one player against three.")),
    Term("zolo du", Word("Zolo du"),
         Word("A lone game won only with all four tricks.")),
    Term("kontra", Word("Kontra"),
         Word("A doubling: it counts when it comes from the other side than the last one.")),
    Term("re / rej", Word("Re"),
         Word("The second counted call, after Kontra: doubles again.")),
    Term("bok", Word("Bok"),
         Word("The third counted call: doubles again.")),
    Term("słup", Word("Słup"),
         Word("The fourth counted call, the last the official rules allow: doubles again.")),
    Term("lokata", Word("round placing"),
         Word("After a round the players are placed by their totals and get placing "
              "points, e.g. 4, 3, 2, 1; tied players share.")),
)
