"""Schafkopf, the four-hand Bavarian game, scored as payments between the players (RULES.md).

Point games (Sauspiel and Hochzeit at `price_partner`; Wenz, Solo, Geier and Farbwenz at
`price_solo`) are worth (price + schneider + schwarz + Laufende × per_laufender) ×
2^(doublings + klopfer), × 2 in a Bock deal. Touts, Sie and Bettel have values of their own. A deal
all pass is redealt or played as Ramsch, whichever the rule set says. In a partner game each
winner receives the value from a loser; in a single game the soloist receives it from (or pays
it to) each of the three others. Every deal's payments sum to zero.
"""

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, cast

from . import cards
from .bock import BockEvent, points_sixty
from .cards import TOTALS_BY_COUNT
from .errors import IllegalDeal
from .explain import AMOUNT, SEMICOLON, Explanation, Listing, Phrase, Seat, Seats, Word, counted, explanation
from .fields import (
    Option,
    Reader,
    boolean,
    describe,
    integer,
    is_empty,
    nullable,
    one_of,
    read_rules,
    words,
)
from .glossary import Term
from .inputs import REQUIRED, Input, Kind, Need, ask
from .ramsch import Pack, as_entered, marks
from .ramsch import complete as complete_ramsch
from .records import quick_init
from .season import Basis, Measure
from .sheet import NOTHING, Column, Declared, Layout, PaperList, PaperRow, noted, result, side, spaced
from .verdict import Table, Verdict, options_json, rules_memo

SEATS: tuple[int, ...] = (4,)
DEFAULT_SEATS = 4
DEFAULT_PRESET = "classic"

WIN = 61
"""The declaring side needs 61 card points; 60 loses (RULES.md)."""
SCHNEIDER_WON = 91
"""Schneider: a won game with 91 or more card points, or a lost game with 30 or fewer (RULES.md)."""
SCHNEIDER_LOST = 30
TRICKS = 8
TOTAL_POINTS = 120


class Contract(StrEnum):
    """The contracts of ADJUDICATION.md; the variants only where the rule set allows them."""

    SAUSPIEL = "sauspiel"
    WENZ = "wenz"
    SOLO = "solo"
    WENZ_TOUT = "wenz_tout"
    SOLO_TOUT = "solo_tout"
    SIE = "sie"
    GEIER = "geier"
    FARBWENZ = "farbwenz"
    GEIER_TOUT = "geier_tout"
    FARBWENZ_TOUT = "farbwenz_tout"
    BETTEL = "bettel"
    HOCHZEIT = "hochzeit"
    RAMSCH = "ramsch"
    PASSED = "passed"


class Suit(StrEnum):
    """The suits as the contract writes them: Eichel, Gras, Herz, Schellen."""

    CLUBS = "C"
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"


class Variant(StrEnum):
    """The optional games a rule set may allow (RULES.md option `variants`)."""

    GEIER = "geier"
    FARBWENZ = "farbwenz"
    BETTEL = "bettel"
    HOCHZEIT = "hochzeit"


class C:
    """`Contract`'s members, bound once as plain class attributes: on Python 3.11 each look-up of a
    member on the enum class (``Contract.SIE``) costs a descriptor call, and scoring a deal makes dozens."""

    SAUSPIEL: Final = Contract.SAUSPIEL
    WENZ: Final = Contract.WENZ
    SOLO: Final = Contract.SOLO
    WENZ_TOUT: Final = Contract.WENZ_TOUT
    SOLO_TOUT: Final = Contract.SOLO_TOUT
    SIE: Final = Contract.SIE
    GEIER: Final = Contract.GEIER
    FARBWENZ: Final = Contract.FARBWENZ
    GEIER_TOUT: Final = Contract.GEIER_TOUT
    FARBWENZ_TOUT: Final = Contract.FARBWENZ_TOUT
    BETTEL: Final = Contract.BETTEL
    HOCHZEIT: Final = Contract.HOCHZEIT
    RAMSCH: Final = Contract.RAMSCH
    PASSED: Final = Contract.PASSED

# The game's vocabulary as it goes into explanations and rejections: each a `Word`, made once here,
# so that a page can translate it like a template.
NAMES: dict[Contract, Word] = {
    C.SAUSPIEL: Word("Sauspiel"), C.WENZ: Word("Wenz"), C.SOLO: Word("Solo"), C.WENZ_TOUT: Word("Wenz Tout"),
    C.SOLO_TOUT: Word("Solo Tout"), C.SIE: Word("Sie"), C.GEIER: Word("Geier"), C.FARBWENZ: Word("Farbwenz"),
    C.GEIER_TOUT: Word("Geier Tout"), C.FARBWENZ_TOUT: Word("Farbwenz Tout"), C.BETTEL: Word("Bettel"),
    C.HOCHZEIT: Word("Hochzeit"), C.RAMSCH: Word("Ramsch"), C.PASSED: Word("passed deal"),
}
_A = {contract: Word(f"a {name}") for contract, name in NAMES.items()}
_IN = {contract: Word(f" in a {name}") for contract, name in NAMES.items()}
_TRICKS_NEEDED = {**{contract: Word(f" in a {NAMES[contract]} (it is won only with all eight tricks)")
                     for contract in (C.WENZ_TOUT, C.SOLO_TOUT, C.GEIER_TOUT, C.FARBWENZ_TOUT)},
                  C.BETTEL: Word(" in a Bettel (it is won only with no trick)")}
_IN_RAMSCH = _IN[C.RAMSCH]

_GERMAN_SUITS = {"C": "Eichel", "S": "Gras", "H": "Herz", "D": "Schellen"}
SUIT_NAMES: dict[str, Word] = {suit: Word(f"{_GERMAN_SUITS[suit]} ({cards.SUIT_NAMES[suit]})")
                               for suit in cards.SUITS}

_PLAY = ("card_points", "declarer_tricks", "laufende", "doublings", "klopfer", "bock")
_STAKES = ("doublings", "klopfer", "bock")

CONTRACTS: dict[str, tuple[str, ...]] = {
    C.SAUSPIEL: ("declarer", "partner", "called_ace", *_PLAY),
    C.WENZ: ("declarer", *_PLAY),
    C.SOLO: ("declarer", "trump", *_PLAY),
    C.WENZ_TOUT: ("declarer", *_PLAY),
    C.SOLO_TOUT: ("declarer", "trump", *_PLAY),
    C.SIE: ("declarer", *_STAKES),
    C.GEIER: ("declarer", *_PLAY),
    C.FARBWENZ: ("declarer", "trump", *_PLAY),
    C.GEIER_TOUT: ("declarer", *_PLAY),
    C.FARBWENZ_TOUT: ("declarer", "trump", *_PLAY),
    C.BETTEL: ("declarer", "card_points", "declarer_tricks", *_STAKES),
    C.HOCHZEIT: ("declarer", "partner", *_PLAY),
    C.RAMSCH: ("points", "tricks", "klopfer", "bock"),
    C.PASSED: (),
}
"""Every contract and the deal fields it can use, in the order a form asks them."""

_DEAL_KEYS = frozenset({"contract", *(key for keys in CONTRACTS.values() for key in keys)})

_PARTNER_GAMES = frozenset({C.SAUSPIEL, C.HOCHZEIT})
_POINT_GAMES = frozenset({C.SAUSPIEL, C.HOCHZEIT, C.WENZ, C.SOLO, C.GEIER, C.FARBWENZ})
_TOUTS = frozenset({C.WENZ_TOUT, C.SOLO_TOUT, C.GEIER_TOUT, C.FARBWENZ_TOUT})
_WITH_TRUMP = frozenset({C.SOLO, C.SOLO_TOUT, C.FARBWENZ, C.FARBWENZ_TOUT})
# RULES.md names only Wenz and Geier for `laufende_min_wenz`; their Touts have the same four trumps.
# Farbwenz (four Unter and seven cards of its suit) is read as counting from `laufende_min`.
_WENZ_MINIMUM = frozenset({C.WENZ, C.GEIER, C.WENZ_TOUT, C.GEIER_TOUT})

TRUMPS: dict[Contract, int] = {
    C.SAUSPIEL: 14, C.HOCHZEIT: 14, C.SOLO: 14, C.SOLO_TOUT: 14,
    C.WENZ: 4, C.WENZ_TOUT: 4, C.GEIER: 4, C.GEIER_TOUT: 4,
    C.FARBWENZ: 11, C.FARBWENZ_TOUT: 11,
}
"""How many trumps a contract has, so how many Laufende it can have: Ober and Unter and the six
other hearts (or the solo suit); four Unter (Wenz) or four Ober (Geier); four Unter and seven cards
of the suit (Farbwenz)."""

_ALWAYS = (C.SAUSPIEL, C.WENZ, C.SOLO, C.WENZ_TOUT, C.SOLO_TOUT, C.SIE)
_BY_VARIANT: dict[str, tuple[Contract, ...]] = {
    Variant.GEIER: (C.GEIER, C.GEIER_TOUT),
    Variant.FARBWENZ: (C.FARBWENZ, C.FARBWENZ_TOUT),
    Variant.BETTEL: (C.BETTEL,),
    Variant.HOCHZEIT: (C.HOCHZEIT,),
}


# --- rule sets --------------------------------------------------------------------------------

class _IntegerOr:
    """An option that is a whole number (a fixed value) or one of some named values."""

    kind = "json"

    def __init__(self, lo: int, hi: int, *names: str) -> None:
        self.lo, self.hi, self.names = lo, hi, names

    def __call__(self, value: object, field: str) -> int | str:
        if type(value) is str and value in self.names:
            return value
        if type(value) is int and self.lo <= value <= self.hi:
            return value
        raise IllegalDeal(field, "must be a whole number from {lo} to {hi} (a fixed value) or {named}, "
                          "not {got}", lo=self.lo, hi=self.hi, named=words(f'"{n}"' for n in self.names),
                          got=describe(value))


class _Variants:
    """A list of the optional games, stored as a tuple in RULES.md's order (so equal sets are equal)."""

    kind = "json"
    choices = tuple(Variant)

    def __call__(self, value: object, field: str) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise IllegalDeal(field, "must be a list of the optional games allowed, each one of {allowed} "
                              "([] for none), not {got}",
                              allowed=words(f'"{v}"' for v in self.choices), got=describe(value))
        for i, variant in enumerate(value):
            if type(variant) is not str or variant not in self.choices:
                raise IllegalDeal(f"{field}.{i}", "must be one of the optional games {allowed}, not {got}",
                                  allowed=words(f'"{v}"' for v in self.choices), got=describe(variant))
        return tuple(v.value for v in self.choices if v in value)


_PRICE = integer(1, 100_000)
_BONUS = integer(0, 100_000)

OPTIONS: dict[str, Option] = {
    "price_partner": _PRICE,
    "price_solo": _PRICE,
    "schneider": _BONUS,
    "schwarz": _BONUS,
    "per_laufender": _BONUS,
    "laufende_min": integer(1, 14),
    "laufende_min_wenz": integer(1, 4),
    "tout": _IntegerOr(1, 1_000_000, "double"),
    "sie": _IntegerOr(1, 1_000_000, "4x_solo", "4x_solo_8_laufende"),
    "max_doublings": integer(0, 8),
    "klopfen": boolean,
    "bock": boolean,
    "variants": _Variants(),
    "price_bettel": nullable(_PRICE),
    "passed": one_of("redeal", "ramsch"),
    "ramsch": nullable(one_of("bsv", "sauspiel")),
}

# Values as the contract writes them; `variants` is a tuple so that a rule set is hashable.
PRESETS: dict[str, dict[str, object]] = {
    "classic": {
        "price_partner": 10, "price_solo": 50, "schneider": 10, "schwarz": 10, "per_laufender": 0,
        "laufende_min": 3, "laufende_min_wenz": 2, "tout": 180, "sie": 540, "max_doublings": 4,
        "klopfen": False, "bock": False, "variants": (), "price_bettel": None, "passed": "redeal",
        "ramsch": None,
    },
    "bsv": {
        "price_partner": 10, "price_solo": 50, "schneider": 10, "schwarz": 10, "per_laufender": 10,
        "laufende_min": 3, "laufende_min_wenz": 2, "tout": "double", "sie": "4x_solo", "max_doublings": 4,
        "klopfen": True, "bock": False, "variants": ("geier", "farbwenz", "bettel", "hochzeit"),
        "price_bettel": 30, "passed": "ramsch", "ramsch": "bsv",
    },
    "sauspiel": {
        "price_partner": 20, "price_solo": 50, "schneider": 10, "schwarz": 10, "per_laufender": 10,
        "laufende_min": 3, "laufende_min_wenz": 2, "tout": "double", "sie": "4x_solo_8_laufende",
        "max_doublings": 2, "klopfen": True, "bock": False, "variants": ("geier", "farbwenz"),
        "price_bettel": None, "passed": "ramsch", "ramsch": "sauspiel",
    },
}


@dataclass(frozen=True, slots=True)
class Rules:
    """A Schafkopf rule set: one of RULES.md's presets with the table's overrides applied."""

    preset: str
    price_partner: int
    price_solo: int
    schneider: int
    schwarz: int
    per_laufender: int
    laufende_min: int
    laufende_min_wenz: int
    tout: int | str
    sie: int | str
    max_doublings: int
    klopfen: bool
    bock: bool
    variants: tuple[str, ...]
    price_bettel: int | None
    passed: str
    ramsch: str | None


_PRESET_RULES = {name: Rules(preset=name, **cast(dict[str, Any], values)) for name, values in PRESETS.items()}


def parse_rules(obj: object) -> Rules:
    """The rule set a request's ``rules`` object selects, its options checked together."""
    if obj is None:
        return _PRESET_RULES[DEFAULT_PRESET]
    rules = Rules(**read_rules(obj, PRESETS, DEFAULT_PRESET, OPTIONS))
    if rules.passed == "ramsch" and rules.ramsch is None:
        raise IllegalDeal("rules.ramsch", "with passed \"ramsch\" a deal all pass is played as Ramsch, "
                          "which needs a settlement: \"bsv\" or \"sauspiel\", not null")
    return rules


SELDOM_PLAYED = frozenset({C.WENZ_TOUT, C.SOLO_TOUT, C.SIE, C.GEIER, C.FARBWENZ, C.GEIER_TOUT, C.FARBWENZ_TOUT,
                           C.BETTEL, C.HOCHZEIT})
"""The contracts few deals are — the Tout and Sie and the regional variants: a page may fold them away."""
CONTRACT_SIGNS: dict[str, str] = {}  # no game of it is named by a sign (a Solo names its suit apart)


def contracts(rules: Rules) -> tuple[Contract, ...]:
    """The contracts `rules` allows: the six of every table, the variants it lists (Bettel only
    with a `price_bettel`), and Ramsch or a passed deal as its `passed` option says."""
    return _contracts(rules.variants, rules.price_bettel is not None, rules.passed)


@functools.cache
def _contracts(variants: tuple[str, ...], bettel_priced: bool, passed: str) -> tuple[Contract, ...]:
    allowed = set(_ALWAYS)
    for variant in variants:
        if variant != Variant.BETTEL or bettel_priced:
            allowed.update(_BY_VARIANT[variant])
    allowed.add(C.RAMSCH if passed == "ramsch" else C.PASSED)
    return tuple(c for c in Contract if c in allowed)


def deal_fields(contract: str, rules: Rules, table: Table) -> tuple[str, ...]:
    """The deal fields `contract` uses under `rules`: Klopfer only with Klopfen, Bock only with
    Bock deals, doublings only where any are allowed (and never for a Sie at a fixed value)."""
    return _deal_fields(contract, rules.klopfen, rules.bock,
                        rules.max_doublings > 0 and not (contract == C.SIE and type(rules.sie) is int))


@functools.cache
def _used_fields(fields: tuple[str, ...]) -> frozenset[str]:
    """`deal_fields` as a set, for refusing the fields a contract does not use (``contract`` is always used)."""
    return frozenset(("contract", *fields))


@rules_memo
def _used_by_contract(rules: Rules) -> dict[Contract, frozenset[str]]:
    """`_used_fields` of every contract under `rules`, worked out once per rule set (the table plays no part)."""
    return {contract: _used_fields(deal_fields(contract, rules, _FOUR)) for contract in Contract}


_FOUR = Table(4, 3)


@functools.cache
def _deal_fields(contract: str, klopfen: bool, bock: bool, doublings: bool) -> tuple[str, ...]:
    dropped = {"klopfer"} if not klopfen else set()
    if not bock:
        dropped.add("bock")
    if not doublings:
        dropped.add("doublings")
    return tuple(key for key in CONTRACTS[contract] if key not in dropped)


# --- the game's words, and what a deal asks of the table --------------------------------------

NAME = Word("Schafkopf")
PACK = cards.FULL_PACK  # the cards a side can capture, with their card points
PRESET_LABELS = {"classic": Word("Classic (fixed values)"), "bsv": Word("BSV tariff 10/50"),
                 "sauspiel": Word("Sauspiel tariff 10/20/50")}
CONTRACT_LABELS: dict[str, Word] = {
    C.SAUSPIEL: Word("Sauspiel"), C.WENZ: Word("Wenz"), C.SOLO: Word("Solo"), C.WENZ_TOUT: Word("Wenz Tout"),
    C.SOLO_TOUT: Word("Solo Tout"), C.SIE: Word("Sie"), C.GEIER: Word("Geier"), C.FARBWENZ: Word("Farbwenz"),
    C.GEIER_TOUT: Word("Geier Tout"), C.FARBWENZ_TOUT: Word("Farbwenz Tout"), C.BETTEL: Word("Bettel"),
    C.HOCHZEIT: Word("Hochzeit"), C.RAMSCH: Word("Ramsch"), C.PASSED: Word("All passed"),
}
OPTION_LABELS = {
    "price_partner": Word("Price of a partner game (Sauspiel, Hochzeit)"),
    "price_solo": Word("Price of a solo (Wenz, Solo, Geier, Farbwenz)"),
    "schneider": Word("Schneider bonus"),
    "schwarz": Word("Schwarz bonus"),
    "per_laufender": Word("Per Laufender"),
    "laufende_min": Word("Laufende count from"),
    "laufende_min_wenz": Word("Laufende count from (Wenz, Geier)"),
    "tout": Word("Tout: a fixed value, or double"),
    "sie": Word("Sie: a fixed value, 4 × the Solo price, or 4 × (Solo price + 8 Laufende)"),
    "max_doublings": Word("Most doublings"),
    "klopfen": Word("Klopfen"),
    "bock": Word("Bock deals"),
    "variants": Word("Variants played"),
    "price_bettel": Word("Price of a Bettel"),
    "passed": Word("When all pass"),
    "ramsch": Word("Ramsch settlement"),
}
CHOICE_LABELS = {
    ("passed", "ramsch"): Word("play Ramsch"),
    ("passed", "redeal"): Word("deal again"),
    ("ramsch", "bsv"): Word("BSV"),
    ("ramsch", "sauspiel"): Word("Sauspiel.de"),  # the platform's settlement (not the game "Sauspiel")
}
NONE_LABELS = {"price_bettel": Word("none: no Bettel"), "ramsch": Word("none")}
# Whose rules a Ramsch is settled by (option `ramsch`), as its line says it.
_SETTLED_BY = {"bsv": Word("the rules of the BSV (the Bavarian Schafkopf association)"),
               "sauspiel": Word("the rules of the online platform Sauspiel")}
SUIT_LABELS = {"C": Word("Clubs · Eichel"), "S": Word("Spades · Gras"), "H": Word("Hearts · Herz"),
               "D": Word("Diamonds · Schellen")}
"""The suits as a Schafkopf table names them (the contract writes C S H D)."""



def _holds(points: int, tricks: int) -> bool:
    """Whether a seat can hold `points` card points with `tricks` tricks: 4 cards a trick, no skat."""
    return points in TOTALS_BY_COUNT[4 * tricks]


def _tied_on_most(points: Sequence[int], playing: Sequence[int]) -> tuple[int, ...]:
    """The players tied on the most card points, whose tricks decide which of them loses (`_ramsch_losers`);
    none without a tie."""
    top = max(points[seat] for seat in playing)
    tied = tuple(seat for seat in playing if points[seat] == top)
    return tied if len(tied) > 1 else ()


RAMSCH = Pack(points=TOTAL_POINTS, tricks=TRICKS, holds=_holds, decides=_tied_on_most)
"""Schafkopf's Ramsch as a page enters it (`scorekeep.rules.ramsch`): the tricks count for who took none
(Jungfrau), who took all (Durchmarsch) and, of the players tied on the most card points, who took more."""

# The card points some cards add up to (4 a trick): the rest cannot be, whatever else the deal says
# (`_check_points_and_tricks`), which the card points' input says as `impossible`.
_ANY_TOTAL = frozenset().union(*(TOTALS_BY_COUNT[4 * t] for t in range(TRICKS + 1)))

FIELDS: dict[str, Input] = {f.key: f for f in (
    Input("declarer", Kind.SEAT, Word("Declarer"), Need.REQUIRED),
    Input("partner", Kind.SEAT, Word("Partner"), Need.REQUIRED),
    Input("called_ace", Kind.CHOICE, Word("Called ace (Sau)"), help=Word("optional"), empty=Word("not given"),
          choices=(("C", Word("Eichel-Sau (clubs)")), ("S", Word("Gras-Sau (spades)")),
                   ("D", Word("Schellen-Sau (diamonds)"))), seldom=True, short=Word("called ace")),
    Input("trump", Kind.CHOICE, Word("Trump suit"), Need.REQUIRED, choices=tuple(SUIT_LABELS.items())),
    Input("card_points", Kind.COUNT, Word("Declaring side's card points"), hi=TOTAL_POINTS,
          impossible=tuple(p for p in range(TOTAL_POINTS + 1) if p not in _ANY_TOTAL)),
    Input("declarer_tricks", Kind.COUNT, Word("Declaring side's tricks"), hi=TRICKS, seldom=True,
          short=Word("tricks"), help=Word("optional, except for Tout and Bettel")),
    Input("laufende", Kind.COUNT, Word("Laufende"), hi=14,
          help=Word("top trumps held in unbroken order by one side (either side)")),
    Input("doublings", Kind.COUNT, Word("Doublings (Stoß, Gegenstoß, Supra, Resupra)"), hi=8,
          short=Word("doublings")),
    Input("klopfer", Kind.COUNT, Word("Players who knocked (Klopfer)"), hi=4),
    Input("bock", Kind.FLAG, Word("Bock deal")),
    Input("points", Kind.PER_SEAT, Word("Card points per seat"), Need.REQUIRED, hi=TOTAL_POINTS, total=TOTAL_POINTS),
    Input("tricks", Kind.PER_SEAT, Word("Tricks per seat"), Need.REQUIRED, hi=TRICKS, total=TRICKS,
          short=Word("tricks (only for a tie on points)"), marks=marks(RAMSCH, 4),
          help=Word("a Ramsch counts who took no trick, who took every trick and, of the players tied on the most "
                    "card points, who took more")),
)}
"""Every deal field of Schafkopf as a page asks it; `inputs` adjusts them to a contract and rule set."""


_PARTNER_IN: dict[str, Word] = {C.SAUSPIEL: Word("who held the called ace"),
                               C.HOCHZEIT: Word("who accepted the Hochzeit")}


def inputs(contract: str, rules: Rules, table: Table) -> tuple[Input, ...]:
    """The fields `contract` asks under `rules`, in order: the point games need the card points, a Tout
    or Bettel the tricks; no more doublings than the rule set allows, and the Laufende only where
    they are paid (a rule set paying nothing for them leaves them idle)."""
    keys = deal_fields(contract, rules, table)
    changes: dict[str, dict[str, Any]] = {"doublings": {"hi": rules.max_doublings}}
    if contract in _PARTNER_GAMES:  # who the partner is differs by game: a Sauspiel's is no Hochzeit's
        changes["partner"] = {"help": _PARTNER_IN[contract]}
    if contract in _POINT_GAMES:
        changes["card_points"] = REQUIRED
    if contract in _TRICKS_NEEDED:
        changes["declarer_tricks"] = {**REQUIRED, "seldom": False}
    if contract in TRUMPS:
        changes["laufende"] = {"idle": rules.per_laufender == 0}
    return ask(FIELDS, keys, **changes)



def complete(facts: dict[str, Any], rules: Rules, table: Table) -> dict[str, Any]:
    """What the other facts settle, filled in for a page: a Ramsch's tricks from its card points, who took
    no trick or every trick and the tricks of players tied on the most card points, and the card points of
    the player left empty (`scorekeep.rules.ramsch`)."""
    if facts.get("contract") != C.RAMSCH:
        return facts
    return complete_ramsch(facts, RAMSCH, table.players, range(table.players))


def entered(facts: dict[str, Any], rules: Rules, table: Table) -> dict[str, Any]:
    """A stored deal's facts as a page enters them (`complete` in reverse): a Ramsch's taps in place of
    the tricks that follow from them."""
    if facts.get("contract") != C.RAMSCH:
        return facts
    return as_entered(facts, RAMSCH, table.players, range(table.players))

# --- at the table: seats, Bock ----------------------------------------------------------------

PLAYERS = range(4, 8)  # four play; more sit out in turn
DEALER_SITS_OUT_AT = None
# The seating (rules/seating.py) in words, as the night's form explains it beside the players.
SEATING = Word("Four play each deal. With five or more at the table, the dealer and everyone beyond the "
               "fourth player to his left sit out in turn.")
DECLARER_ALONE = False  # a partner game is won or lost by both partners
ZERO_SUM = True  # every deal's payments sum to zero
MONEY = True  # the tariff is money: counts of the night's currency's minor unit (cents, whole yen)
# The options that are amounts of money, which a page lets people type in units of the currency (€0.10, ¥10):
# the tariff, and a Tout's and a Sie's fixed price (a number; their named values, "double", stay names).
AMOUNTS = frozenset({"price_partner", "price_solo", "schneider", "schwarz", "per_laufender", "tout", "sie",
                     "price_bettel"})
SERIES: tuple[int, ...] = ()
SEEGER_FABIAN = False

# What a club's season may rank by (rules/season.py): the money won and lost.
SEASON_BASES = (Basis("money", Word("money won"), Measure.TOTAL),
                Basis("points", Word("points (the tariff's units)"), Measure.TOTAL, points=True))

BOCK_EVENTS: dict[str, BockEvent] = {
    "doubled_lost": BockEvent(Word("a lost game with Stoß"),
                              lambda f, v: f.get("doublings", 0) > 0 and v["won"] is False),
    "sixty": BockEvent(Word("a 60:60 game"), points_sixty),
    "tout_won": BockEvent(Word("a won Tout"), lambda f, v: str(f.get("contract", "")).endswith("_tout")
                          and v["won"] is True),
    "sie": BockEvent(Word("a Sie"), lambda f, v: f.get("contract") == "sie"),
    "schwarz": BockEvent(Word("a Schwarz game"), lambda f, v: bool(v.get("schwarz"))),
}
"""The events a table may choose to start a Bock round with (the house rules; RULES.md leaves them open)."""


def round_placing(rules: Rules) -> tuple[int, ...] | None:
    """Schafkopf places no rounds: it is played for money."""
    return None


PARTNER_GAMES = frozenset({C.SAUSPIEL, C.HOCHZEIT})
"""The games with a partner; every other game with a declarer is played alone (a solo)."""


def played_alone(facts: Mapping[str, Any]) -> bool:
    """A single game: a declarer without a partner (Wenz, Solo, Tout, Sie, Bettel …)."""
    return isinstance(facts.get("declarer"), int) and facts.get("contract") not in PARTNER_GAMES
SHEET = (Column(Word("Game")), Column(Word("Players")), Column(Word("Result")), Column(Word("Value"), amount=True))
SHEET_RUNNING_FIRST = False
PAPER = PaperList(Layout.PLUS_MINUS)  # plus and minus per player, the sums agreeing


def paper_row(facts: Mapping[str, Any], verdict: Mapping[str, Any]) -> PaperRow:
    """A deal's line on the plus-and-minus list: the game, and a mark where a solo (a game alone) was won."""
    return PaperRow(game_words(facts, verdict), alone_won=played_alone(facts) and verdict.get("won") is True)


def tournament_ranking(rules: Rules) -> tuple[str, ...]:
    """What a Schafkopf tournament (Preisschafkopf) ranks by (`rules.ranking`): the list total — the points
    or money of the tariff — then the number of Soli won (`tournament_solo`), then fewer games lost."""
    return ("total", "soli_won", "lost")


def tournament_solo(facts: Mapping[str, Any]) -> bool:
    """A Solo for the tournament's tie-break: every game a declarer plays without a partner — Wenz, Farbsolo
    (Solo), Geier, Farbwenz, their Tout, Sie (the seed page's ソロ and ヴェンツ are such games; RULES.md
    prices them all at the Solo price) — not the Sauspiel nor the Hochzeit, which have a partner."""
    return played_alone(facts)


def game_words(facts: Mapping[str, Any], verdict: Mapping[str, Any]) -> object:
    """The game as the list writes it: "Solo (Hearts · Herz) · Stoß ×2 · 3 Laufende · 1 knocked · Schneider"."""
    trump = facts.get("trump")
    name = spaced([CONTRACT_LABELS.get(str(facts.get("contract")), NOTHING),
                   Phrase("({suit})", suit=SUIT_LABELS[trump]) if trump in SUIT_LABELS else NOTHING])
    doublings, laufende, klopfer = facts.get("doublings"), verdict.get("laufende_counted"), facts.get("klopfer")
    return noted([
        name,
        (Phrase("Stoß ×{n}", n=doublings) if doublings > 1 else Word("Stoß")) if doublings else NOTHING,
        Phrase("{n} Laufende", n=laufende) if laufende else NOTHING,
        Phrase("{n} knocked", n=klopfer) if klopfer else NOTHING,
        Word("Schneider") if verdict.get("schneider") else NOTHING,
        Word("Schwarz") if verdict.get("schwarz") else NOTHING,
    ])


DECLARED = (Declared(Word("Stoß"), lambda facts, verdict: facts.get("doublings") or 0),
            Declared(Word("Klopfer"), lambda facts, verdict: facts.get("klopfer") or 0),
            Declared(Word("Laufende"), lambda facts, verdict: verdict.get("laufende_counted") or 0),
            Declared(Word("Schneider"), lambda facts, verdict: bool(verdict.get("schneider"))),
            Declared(Word("Schwarz"), lambda facts, verdict: bool(verdict.get("schwarz"))),
            Declared(Word("Tout"), lambda facts, verdict: facts.get("contract") in _TOUTS))
"""Stoß and Retour said (doublings), players who knocked, the Laufende paid, Schneider, Schwarz, a Tout."""


def stoss_chance(rules: Rules, facts: Mapping[str, Any]) -> tuple[list[int], bool] | None:
    """Who could say Stoß in a deal, and whether it was said: the seats against the declaring side (the
    first doubling is theirs; Retour, Supra and Resupra answer it), and True where the deal was doubled at
    least once. None where nobody could: a deal without a declaring side (passed, Ramsch) or a contract the
    rule set allows no doubling in (`max_doublings` 0, a Sie at its fixed value — `deal_fields`).

    The list records how often a deal was doubled, not who said it: the Stoß is the side's."""
    side = declaring_side(facts)
    contract = facts.get("contract")
    if not side or contract not in _CONTRACT_BY_NAME:
        return None
    if "doublings" not in deal_fields(contract, rules, Table(4, side[0])):
        return None
    return [seat for seat in range(4) if seat not in side], (facts.get("doublings") or 0) > 0


def sheet_row(facts: Mapping[str, Any], verdict: Mapping[str, Any]) -> tuple[object, ...]:
    won = verdict.get("won")
    return (game_words(facts, verdict), side(declaring_side(facts)), result(won),
            verdict["value"] if won is not None else NOTHING)


def declaring_side(facts: Mapping[str, Any]) -> list[int]:
    """The declarer and, in a partner game, the partner."""
    return [facts[key] for key in ("declarer", "partner") if isinstance(facts.get(key), int)]


# --- deals ------------------------------------------------------------------------------------

@quick_init
@dataclass(frozen=True, slots=True)
class Deal:
    """A Schafkopf deal as the table declares it, checked for contradictions."""

    contract: Contract
    declarer: int | None = None
    partner: int | None = None
    called_ace: Suit | None = None
    trump: Suit | None = None
    card_points: int | None = None
    declarer_tricks: int | None = None
    laufende: int = 0
    doublings: int = 0
    klopfer: int = 0
    bock: bool = False
    points: tuple[int, ...] | None = None
    tricks: tuple[int, ...] | None = None

    @property
    def seat(self) -> int:
        """The declarer's seat, in the contracts that have a declarer (`parse_deal` requires it there)."""
        assert self.declarer is not None
        return self.declarer


_CONTRACT_BY_NAME: dict[str, Contract] = {c.value: c for c in Contract}
_SUIT_BY_NAME: dict[str, Suit] = {s.value: s for s in Suit}


def parse_deal(obj: object, rules: Rules, table: Table) -> Deal:
    """The facts of one deal, read strictly (ADJUDICATION.md, Schafkopf)."""
    r = Reader(obj, "deal", _DEAL_KEYS)
    contract = _read_contract(r, rules)
    used = _used_by_contract(rules)[contract]
    _check_stakes_allowed(r, contract, rules)
    r.reject_unused(used, _A[contract])
    if contract is C.PASSED:
        return Deal(contract)
    klopfer = r.int("klopfer", 0, 4, default=0) if rules.klopfen else 0
    bock = r.bool("bock") if rules.bock else False
    if contract is C.RAMSCH:
        return _read_ramsch(r, klopfer, bock, table)

    doublings = r.int("doublings", 0, rules.max_doublings, default=0) if "doublings" in used else 0
    why = _IN[contract]
    declarer = r.int("declarer", 0, table.players - 1, required=True, why=why)
    partner = called_ace = trump = None
    if contract in _PARTNER_GAMES:
        partner = r.int("partner", 0, table.players - 1, required=True, why=why)
        if partner == declarer:
            raise IllegalDeal("deal.partner", "the partner must sit at another seat than the declarer "
                              "({declarer})", declarer=Seat(declarer))
        if contract is C.SAUSPIEL and r.has("called_ace"):
            if r.obj["called_ace"] == "H":
                raise IllegalDeal("deal.called_ace", "the Sau of hearts cannot be called, hearts are trump; "
                                  "call \"C\", \"S\" or \"D\"")
            called_ace = _SUIT_BY_NAME[r.choice("called_ace", ("C", "S", "D"), required=True)]
    elif contract in _WITH_TRUMP:
        trump = _SUIT_BY_NAME[r.choice("trump", _SUIT_BY_NAME, required=True, why=why)]
    if contract is C.SIE:
        return Deal(contract, declarer, doublings=doublings, klopfer=klopfer, bock=bock)

    card_points = r.int("card_points", 0, TOTAL_POINTS, required=contract in _POINT_GAMES, why=why)
    tricks = r.int("declarer_tricks", 0, TRICKS, required=contract in _TRICKS_NEEDED,
                   why=_TRICKS_NEEDED.get(contract, ""))
    _check_points_and_tricks(card_points, tricks)
    laufende = 0
    if contract is not C.BETTEL:
        laufende = r.int("laufende", 0, 14, default=0)
        if laufende > TRUMPS[contract]:
            raise IllegalDeal("deal.laufende", "{game} has {n} trumps, so at most {n} Laufende, not {got}",
                              game=_A[contract], n=TRUMPS[contract], got=laufende)
    return Deal(contract, declarer, partner, called_ace, trump, card_points, tricks, laufende,
                doublings, klopfer, bock)


def _read_contract(r: Reader, rules: Rules) -> Contract:
    """The contract, one the rule set allows (ADJUDICATION.md: a contract it does not allow is rejected)."""
    name = r.obj.get("contract")
    contract = _CONTRACT_BY_NAME.get(name) if type(name) is str else None
    allowed = contracts(rules)
    if contract in allowed:
        return contract
    names = words(f'"{c}"' for c in allowed)
    if contract is None:
        if name is None:
            raise IllegalDeal("deal.contract", "is required: one of {allowed}", allowed=names)
        raise IllegalDeal("deal.contract", "must be one of {allowed} under this rule set, not {got}",
                          allowed=names, got=describe(name))
    if contract is C.PASSED:
        raise IllegalDeal("deal.contract", "under this rule set a deal all pass is played as Ramsch "
                          "(rules.passed is \"ramsch\"): enter the Ramsch, contract \"ramsch\" with each "
                          "seat's points and tricks")
    if contract is C.RAMSCH:
        raise IllegalDeal("deal.contract", "under this rule set a deal all pass is redealt, not played as "
                          "Ramsch (rules.passed is \"redeal\"): enter contract \"passed\"")
    if contract is C.BETTEL and Variant.BETTEL in rules.variants:
        raise IllegalDeal("deal.contract", "Bettel has no price in this rule set (rules.price_bettel is "
                          "null); the contracts allowed are {allowed}", allowed=names)
    raise IllegalDeal("deal.contract", "{game} is not played under this rule set (rules.variants); "
                      "the contracts allowed are {allowed}", game=NAMES[contract], allowed=names)


_STAKE_FIELDS = frozenset(_STAKES)


def _check_stakes_allowed(r: Reader, contract: Contract, rules: Rules) -> None:
    """Klopfer, Bock and doublings only where the rule set has them (ADJUDICATION.md: a doubling
    the rule set does not allow is rejected); a Sie at a fixed value is never doubled (RULES.md)."""
    if r.obj.keys().isdisjoint(_STAKE_FIELDS):  # none given, none to refuse: the check below in one set comparison
        return
    fields = CONTRACTS[contract]
    if "klopfer" in fields and not rules.klopfen and not is_empty(r.obj.get("klopfer")):
        raise IllegalDeal("deal.klopfer", "this rule set has no Klopfen (rules.klopfen is false): "
                          "leave klopfer out or 0")
    if "bock" in fields and not rules.bock and not is_empty(r.obj.get("bock")):
        raise IllegalDeal("deal.bock", "this rule set has no Bock deals (rules.bock is false): "
                          "leave bock out or false")
    doublings = r.obj.get("doublings")
    if "doublings" not in fields or is_empty(doublings):
        return
    if contract is C.SIE and type(rules.sie) is int:
        raise IllegalDeal("deal.doublings", "a Sie at its fixed value {value} (rules.sie) cannot be doubled: "
                          "leave doublings out or 0", value=AMOUNT[rules.sie])
    if type(doublings) is int and doublings > rules.max_doublings:
        raise IllegalDeal("deal.doublings", _AT_MOST_DOUBLINGS, most=rules.max_doublings, got=doublings)


def _check_points_and_tricks(card_points: int | None, tricks: int | None) -> None:
    """The card points must be holdable with the tricks: 4 cards a trick, no skat. All eight tricks
    hold all 120 points and no trick none; a trick of 9, 8 and 7s holds 0, so 120 points with seven
    tricks can be, but not with four (the 20 cards that count do not fit in 16)."""
    if card_points is None:
        return
    if tricks is None:
        if card_points not in _ANY_TOTAL:
            raise IllegalDeal("deal.card_points", "{points} card points cannot be: the other side would hold "
                              "{rest}, and no cards add up to that (A 11, 10 10, K 4, O 3, U 2, 9 8 7 0)",
                              points=card_points, rest=TOTAL_POINTS - card_points)
        return
    if card_points in TOTALS_BY_COUNT[4 * tricks]:
        return
    if tricks == TRICKS:
        raise IllegalDeal("deal.card_points", "with all eight tricks the declaring side has all 120 card "
                          "points, not {got}", got=card_points)
    if tricks == 0:
        raise IllegalDeal("deal.card_points", "with no trick the declaring side has no card points, "
                          "not {got}", got=card_points)
    possible = sorted(TOTALS_BY_COUNT[4 * tricks])
    raise IllegalDeal("deal.card_points", _CANNOT_BE_TAKEN, got=card_points, tricks=tricks, lo=possible[0],
                      hi=possible[-1])




def _read_ramsch(r: Reader, klopfer: int, bock: bool, table: Table) -> Deal:
    """Each seat's card points and tricks, adding up to the pack's 120 points and 8 tricks."""
    seats = table.players
    points = r.int_list("points", seats, 0, TOTAL_POINTS, required=True, why=_IN_RAMSCH)
    tricks = r.int_list("tricks", seats, 0, TRICKS, required=True, why=_IN_RAMSCH)
    if sum(points) != TOTAL_POINTS:
        raise IllegalDeal("deal.points", "the seats' card points must add up to 120, not {got}",
                          got=sum(points))
    if sum(tricks) != TRICKS:
        raise IllegalDeal("deal.tricks", "the seats' tricks must add up to 8, not {got}", got=sum(tricks))
    for seat in range(seats):
        if not _holds(points[seat], tricks[seat]):
            if tricks[seat] == 0:
                raise IllegalDeal(f"deal.points.{seat}", "{seat} took no trick, so it has no card points, "
                                  "not {got}", seat=Seat(seat), got=points[seat])
            raise IllegalDeal(f"deal.points.{seat}", _CANNOT_HOLD, seat=Seat(seat), got=points[seat],
                              tricks=tricks[seat])
    return Deal(C.RAMSCH, klopfer=klopfer, bock=bock, points=points, tricks=tricks)


# --- scoring ----------------------------------------------------------------------------------

_rules_json = rules_memo(options_json)


def score(deal: Deal, rules: Rules, table: Table) -> Verdict:
    """The verdict for one deal: who won, the value, and each seat's payment."""
    say, steps = explanation()
    contract = deal.contract
    if contract in _POINT_GAMES:
        won, value, scores, extra = _point_game(deal, rules, say)
    elif contract in _TOUTS:
        won, value, scores, extra = _tout(deal, rules, say)
    elif contract is C.SIE:
        won, value, scores, extra = _sie(deal, rules, say)
    elif contract is C.BETTEL:
        won, value, scores, extra = _bettel(deal, rules, say)
    elif contract is C.RAMSCH:
        won, value, scores, extra = _ramsch(deal, rules, say)
    else:
        say("all passed: the cards are redealt and nobody pays (this rule set)")
        won, value, scores, extra = None, 0, (0, 0, 0, 0), {}
    return Verdict("schafkopf", _rules_json(rules), won, value, scores, tuple(steps), extra)


_Result = tuple[bool | None, int, tuple[int, ...], dict[str, object]]


def _point_game(deal: Deal, rules: Rules, say: Explanation) -> _Result:
    """Won with 61 card points (RULES.md). Value = (price + schneider + schwarz + Laufende ×
    per_laufender) × 2^(doublings + klopfer), × 2 in Bock. Schneider: won with 91 or more, lost
    with 30 or fewer; schwarz: a side took no trick, on top of schneider."""
    points, tricks = deal.card_points, deal.declarer_tricks
    assert points is not None  # a point game's card points are required
    partner_game = deal.contract in _PARTNER_GAMES
    if partner_game:
        base = _announce(deal, rules.price_partner, say)
    else:
        base = _announce(deal, rules.price_solo, say)
    won = points >= WIN
    schneider = points >= SCHNEIDER_WON if won else points <= SCHNEIDER_LOST
    if won and schneider:
        base += rules.schneider
        say("{points} card points: won (61 or more), schneider (91 or more): + {bonus} (schneider)",
            points=points, bonus=AMOUNT[rules.schneider])
    elif won:
        say("{points} card points: won (61 or more wins)", points=points)
    elif schneider:
        base += rules.schneider
        say("{points} card points: lost, schneider (30 or fewer): + {bonus} (schneider)",
            points=points, bonus=AMOUNT[rules.schneider])
    else:
        say("{points} card points: lost (60 or fewer loses)", points=points)
    if tricks is None:
        # ADJUDICATION.md: without the trick count, 120 card points are all tricks and 0 none.
        schwarz = points == TOTAL_POINTS or points == 0
        if schwarz:
            base += rules.schwarz
            say("schwarz, {points} card points taken as {tricks} of 8 tricks (no trick count given): "
                "+ {bonus} (schwarz)", points=points, tricks=TRICKS if won else 0, bonus=AMOUNT[rules.schwarz])
    else:
        schwarz = tricks == TRICKS or tricks == 0
        if schwarz:
            base += rules.schwarz
            say("schwarz, the declaring side took {tricks} of 8 tricks: + {bonus} (schwarz)",
                tricks=tricks, bonus=AMOUNT[rules.schwarz])
    counted = _laufende(deal, rules, say)
    laufende = counted * rules.per_laufender
    base += laufende
    sum_line = _SUM_LINES.get((schneider and rules.schneider != 0, schwarz and rules.schwarz != 0, laufende != 0))
    if sum_line is not None:
        say(sum_line, price=AMOUNT[rules.price_partner if partner_game else rules.price_solo],
            schneider=AMOUNT[rules.schneider], schwarz=AMOUNT[rules.schwarz], laufende=AMOUNT[laufende],
            base=AMOUNT[base])
    value, multiplier = _stakes(base, deal, say)
    if partner_game:
        scores = _partner_payments(deal, won, value, say)
    else:
        scores = _single_payments(deal.seat, won, value, say)
    return won, value, scores, {"schneider": schneider, "schwarz": schwarz, "laufende_counted": counted,
                                "multiplier": multiplier}


# The sum of a point game's value, by which parts it has (schneider, schwarz, Laufende): one
# template each, so that no English is put together per deal. The price alone needs no line.
_SUM_LINES = {
    (True, False, False): "{price} (price) + {schneider} (schneider) = {base}",
    (False, True, False): "{price} (price) + {schwarz} (schwarz) = {base}",
    (False, False, True): "{price} (price) + {laufende} (Laufende) = {base}",
    (True, True, False): "{price} (price) + {schneider} (schneider) + {schwarz} (schwarz) = {base}",
    (True, False, True): "{price} (price) + {schneider} (schneider) + {laufende} (Laufende) = {base}",
    (False, True, True): "{price} (price) + {schwarz} (schwarz) + {laufende} (Laufende) = {base}",
    (True, True, True): "{price} (price) + {schneider} (schneider) + {schwarz} (schwarz) + {laufende} (Laufende) "
                        "= {base}",
}


def _announce(deal: Deal, price: int, say: Explanation) -> int:
    """The game, who plays it, and its price (the tariff the rule set sets for it); returns the price."""
    game, declarer = NAMES[deal.contract], Seat(deal.seat)
    if deal.partner is not None:
        if deal.called_ace is not None:
            say("{game}: {declarer} called the Ace of {suit}, partner {partner}; tariff {price}",
                game=game, declarer=declarer, suit=SUIT_NAMES[deal.called_ace], partner=Seat(deal.partner),
                price=AMOUNT[price])
        else:
            say("{game}: {declarer} with partner {partner}; tariff {price}", game=game,
                declarer=declarer, partner=Seat(deal.partner), price=AMOUNT[price])
    elif deal.trump is not None:
        say("{game} in {suit}: {declarer} alone; tariff {price}", game=game,
            suit=SUIT_NAMES[deal.trump], declarer=declarer, price=AMOUNT[price])
    else:
        say("{game}: {declarer} alone; tariff {price}", game=game, declarer=declarer, price=AMOUNT[price])
    return price


def _laufende(deal: Deal, rules: Rules, say: Explanation) -> int:
    """Laufende count only from the minimum, and then all of them, whichever side holds them
    (RULES.md): `laufende_min_wenz` for Wenz and Geier, `laufende_min` for every other game."""
    n = deal.laufende
    if not n:
        return 0
    if rules.per_laufender == 0:
        say("{n} Laufende: this rule set pays nothing for them ({per}: 0)", n=n, per=OPTION_LABELS["per_laufender"])
        return 0
    if deal.contract in _WENZ_MINIMUM:
        minimum, option = rules.laufende_min_wenz, OPTION_LABELS["laufende_min_wenz"]
    else:
        minimum, option = rules.laufende_min, OPTION_LABELS["laufende_min"]
    if n < minimum:
        say("{n} Laufende: fewer than {minimum} ({option}), not paid", n=n, minimum=minimum, option=option)
        return 0
    say("{n} Laufende, paid from {minimum} on ({option}): + {n} × {each} ({per}) = {amount}",
        n=n, minimum=minimum, option=option, each=AMOUNT[rules.per_laufender], per=OPTION_LABELS["per_laufender"],
        amount=AMOUNT[n * rules.per_laufender])
    return n


def _multiplier(deal: Deal, say: Explanation) -> int:
    """× 2 for every doubling said (Stoß, Gegenstoß, Supra, Resupra) and every Klopfer, × 2 in a
    Bock deal (RULES.md)."""
    multiplier = 1
    if deal.doublings:
        multiplier = 1 << deal.doublings
        if deal.doublings == 1:
            say("1 doubling said (Stoß): × 2")
        elif deal.doublings == 2:  # both named: "…" after the two said read as if more were
            say("2 doublings said (Stoß, Gegenstoß): × 4")
        else:
            say("{n} doublings said (Stoß, Gegenstoß, …): × {factor}", n=deal.doublings, factor=multiplier)
    if deal.klopfer:
        multiplier <<= deal.klopfer
        if deal.klopfer == 1:
            say("1 player knocked (Klopfer): × 2")
        else:
            say("{n} players knocked (Klopfer): × {factor}", n=deal.klopfer, factor=1 << deal.klopfer)
    if deal.bock:
        multiplier *= 2
        say("Bock deal: × 2")
    return multiplier


def _stakes(base: int, deal: Deal, say: Explanation, multiplier: int = 1) -> tuple[int, int]:
    """The value: `base` × the multiplier of the doublings, Klopfer and Bock (and of any factor
    already applied). Without a multiplier the payment line states the value."""
    multiplier *= _multiplier(deal, say)
    if multiplier == 1:
        return base, 1
    value = base * multiplier
    say("{base} × {multiplier} = {value}", base=AMOUNT[base], multiplier=multiplier, value=AMOUNT[value])
    return value, multiplier


# The two seats not in a partnership, for every partnership.
_OTHERS = {(a, b): tuple(seat for seat in range(4) if seat not in (a, b)) for a in range(4) for b in range(4)}


def _partner_payments(deal: Deal, won: bool, value: int, say: Explanation) -> tuple[int, ...]:
    """Partner game: each player of the winning side receives the value, each loser pays it."""
    assert deal.partner is not None
    side = (deal.seat, deal.partner)
    others = _OTHERS[side]
    winners, losers = (side, others) if won else (others, side)
    scores = [0] * 4
    for seat in winners:
        scores[seat] = value
    for seat in losers:
        scores[seat] = -value
    say("value {value}, a partner game: {winners} each receive it, {losers} each pay it",
        winners=Seats(winners), losers=Seats(losers), value=AMOUNT[value])
    return tuple(scores)


def _single_payments(soloist: int, won: bool, value: int, say: Explanation,
                     ramsch: bool = False) -> tuple[int, ...]:
    """Single game: the soloist receives the value from each of the three others, or pays it to each.
    A Ramsch won outright (Durchmarsch, or 91 under the sauspiel settlement) is paid the same way."""
    each = -value if won else value
    scores = [each] * 4
    scores[soloist] = -3 * each
    if ramsch:
        say("value {value}: {seat} receives it from each of the three others, {total} in all",
            seat=Seat(soloist), value=AMOUNT[value], total=AMOUNT[3 * value])
    elif won:
        say("value {value}, a single game: {seat} receives it from each of the three others, {total} in all",
            seat=Seat(soloist), value=AMOUNT[value], total=AMOUNT[3 * value])
    else:
        say("value {value}, a single game: {seat} pays it to each of the three others, {total} in all",
            seat=Seat(soloist), value=AMOUNT[value], total=AMOUNT[3 * value])
    return tuple(scores)


def _tout(deal: Deal, rules: Rules, say: Explanation) -> _Result:
    """A Tout is won only with every trick; schneider and schwarz are never added (RULES.md).
    Option `tout`: a whole number is the fixed value, won or lost; "double" is (price_solo +
    Laufende × per_laufender) × 2. Doublings, Klopfer and Bock multiply either."""
    tricks = deal.declarer_tricks
    assert tricks is not None  # a Tout's tricks are required
    won = tricks == TRICKS
    counted = 0
    if type(rules.tout) is int:
        base = _announce(deal, rules.tout, say)
        if won:
            say("all 8 tricks: the Tout is won; a fixed value, so no schneider, schwarz or Laufende")
        else:
            say("{tricks} of 8 tricks: the Tout is lost (it needs all eight), paid at its fixed value; "
                "no schneider, schwarz or Laufende", tricks=tricks)
    else:
        _announce(deal, rules.price_solo, say)
        if won:
            say("all 8 tricks: the Tout is won")
        else:
            say("{tricks} of 8 tricks: the Tout is lost (it needs all eight)", tricks=tricks)
        counted = _laufende(deal, rules, say)
        base = (rules.price_solo + counted * rules.per_laufender) * 2
        say("a Tout counts double (this rule set): ({price} + {laufende}) × 2 = {base}; "
            "no schneider or schwarz", price=AMOUNT[rules.price_solo],
            laufende=AMOUNT[counted * rules.per_laufender], base=AMOUNT[base])
    value, multiplier = _stakes(base, deal, say)
    scores = _single_payments(deal.seat, won, value, say)
    return won, value, scores, {"laufende_counted": counted, "multiplier": multiplier}


def _sie(deal: Deal, rules: Rules, say: Explanation) -> _Result:
    """Sie: all four Ober and all four Unter in one hand, won without play (RULES.md). Option `sie`:
    a whole number is a fixed value that nothing doubles; "4x_solo" is 4 × price_solo;
    "4x_solo_8_laufende" is 4 × (price_solo + 8 × per_laufender); those two are multiplied."""
    if type(rules.sie) is int:
        value, multiplier = rules.sie, 1
        say("Sie: {seat} holds all four Ober and Unter and wins without play; fixed value {value} (this rule set), "
            "never doubled", seat=Seat(deal.seat), value=AMOUNT[value])
        if deal.klopfer:
            say("the {n} Klopfer do not double a Sie at a fixed value", n=deal.klopfer)
        if deal.bock:
            say("a Bock deal does not double a Sie at a fixed value")
    else:
        if rules.sie == "4x_solo":
            base = 4 * rules.price_solo
            say("Sie: {seat} holds all four Ober and Unter and wins without play; 4 × the Solo price "
                "{price} = {base} (this rule set)", seat=Seat(deal.seat), price=AMOUNT[rules.price_solo],
                base=AMOUNT[base])
        else:
            base = 4 * (rules.price_solo + 8 * rules.per_laufender)
            say("Sie: {seat} holds all four Ober and Unter and wins without play; 4 × (Solo price "
                "{price} + 8 Laufende × {each}) = {base} (this rule set)", seat=Seat(deal.seat),
                price=AMOUNT[rules.price_solo], each=AMOUNT[rules.per_laufender], base=AMOUNT[base])
        value, multiplier = _stakes(base, deal, say)
    scores = _single_payments(deal.seat, True, value, say)
    return True, value, scores, {"multiplier": multiplier}


def _bettel(deal: Deal, rules: Rules, say: Explanation) -> _Result:
    """Bettel: won when the declarer takes no trick; worth `price_bettel` × 2^(doublings + klopfer),
    × 2 in Bock, with no schneider, schwarz or Laufende; a single game."""
    tricks = deal.declarer_tricks
    assert tricks is not None and rules.price_bettel is not None  # required; Bettel is played only with a price
    base = _announce(deal, rules.price_bettel, say)
    won = tricks == 0
    if won:
        say("no trick: the Bettel is won; no schneider, schwarz or Laufende")
    else:
        say("the declarer took {tricks} of 8 tricks: the Bettel is lost (it needs none); no schneider, schwarz "
            "or Laufende", tricks=tricks)
    value, multiplier = _stakes(base, deal, say)
    scores = _single_payments(deal.seat, won, value, say)
    return won, value, scores, {"multiplier": multiplier}


def _ramsch(deal: Deal, rules: Rules, say: Explanation) -> _Result:
    """Ramsch, played when all pass (option `passed`: ramsch), settled by option `ramsch`.

    bsv: a player who took every trick (Durchmarsch) is paid as a won Solo schwarz by each;
    otherwise each loser pays each other player `price_partner`, a Jungfrau (no trick) double.
    sauspiel: each loser pays each other player `price_partner`, doubled for each Jungfrau; a
    player with 91 or more wins instead and is paid `price_partner` by each, not doubled by
    Jungfrauen. Klopfer and Bock multiply.
    """
    points, tricks = deal.points, deal.tricks
    assert points is not None and tricks is not None  # a Ramsch's lists are required
    assert rules.ramsch is not None  # a rule set without a Ramsch settlement refuses a Ramsch (parse_deal)
    seats = range(len(points))
    say("Ramsch, settled by {settlement}; card points {points}, tricks {tricks}",
        settlement=_SETTLED_BY[rules.ramsch], points=_seat_list(points), tricks=_seat_list(tricks))
    bsv = rules.ramsch == "bsv"
    if bsv and TRICKS in tricks:
        winner = tricks.index(TRICKS)
        base = rules.price_solo + rules.schneider + rules.schwarz
        say("Durchmarsch: {seat} took every trick and is paid as a won Solo schwarz, {price} + "
            "{schneider} + {schwarz} = {base} ({options})", seat=Seat(winner),
            price=AMOUNT[rules.price_solo], schneider=AMOUNT[rules.schneider], schwarz=AMOUNT[rules.schwarz],
            base=AMOUNT[base],
            options=Listing([OPTION_LABELS[key] for key in ("price_solo", "schneider", "schwarz")], None, SEMICOLON))
        value, multiplier = _stakes(base, deal, say)
        scores = _single_payments(winner, True, value, say, ramsch=True)
        return None, value, scores, {"losers": [s for s in seats if s != winner], "multiplier": multiplier}

    top = max(points)
    price = rules.price_partner
    if not bsv and top >= SCHNEIDER_WON:
        winner = points.index(top)
        # RULES.md's sauspiel settlement: "loser pays each price_partner, each Jungfrau doubles all; a
        # player with 91 or more wins and is paid price_partner by each". The Jungfrau doubling is part
        # of the loser's payment; the 91-or-more win is a clause of its own, paid at the plain price.
        say("{seat} took {points} card points, 91 or more: wins the Ramsch and is paid the partner game's "
            "tariff {price} by each other player; a Jungfrau doubles only a loser's payment (a reading of "
            "the rules)", seat=Seat(winner), points=top, price=AMOUNT[price])
        value, multiplier = _stakes(price, deal, say)
        scores = _single_payments(winner, True, value, say, ramsch=True)
        return None, value, scores, {"losers": [s for s in seats if s != winner], "multiplier": multiplier}

    losers = _ramsch_losers(points, tricks, top, say)
    if bsv:
        say("a loser pays the partner game's tariff {price} to each player who did not lose, double to a "
            "Jungfrau (no trick)", price=AMOUNT[price])
        value, multiplier = _stakes(price, deal, say)
        doubled = [seat for seat in seats if tricks[seat] == 0]
    else:
        say("a loser pays the partner game's tariff {price} to each player who did not lose, doubled for "
            "each Jungfrau (no trick)", price=AMOUNT[price])
        value, multiplier = _stakes(price, deal, say, _jungfrau_doubling(tricks, say))
        doubled = []
    paid = [seat for seat in seats if seat not in losers and seat not in doubled]
    payments = [0] * len(points)
    for loser in losers:
        for seat in paid:
            payments[seat] += value
        for seat in doubled:
            payments[seat] += 2 * value
        payments[loser] = -(len(paid) + 2 * len(doubled)) * value
        if doubled and paid:
            say("value {value}: {seat} pays it to {paid}, double ({double}) to the Jungfrau at {doubled}; "
                "{total} in all", value=AMOUNT[value], seat=Seat(loser), paid=Seats(paid), double=AMOUNT[2 * value],
                doubled=Seats(doubled), total=AMOUNT[-payments[loser]])
        elif doubled:
            say("value {value}: {seat} pays double ({double}) to the Jungfrau at {doubled}; {total} in all",
                value=AMOUNT[value], seat=Seat(loser), double=AMOUNT[2 * value], doubled=Seats(doubled),
                total=AMOUNT[-payments[loser]])
        else:
            say("value {value}: {seat} pays it to {paid}, {total} in all", value=AMOUNT[value], seat=Seat(loser),
                paid=Seats(paid), total=AMOUNT[-payments[loser]])
    return None, value, tuple(payments), {"losers": losers, "multiplier": multiplier}


def _ramsch_losers(points: tuple[int, ...], tricks: tuple[int, ...], top: int, say: Explanation) -> list[int]:
    """The player with the most card points loses the Ramsch. RULES.md leaves ties open: read here
    as the common Bavarian rule, the tied player with more tricks loses; still tied, all of them."""
    tied = [s for s in range(len(points)) if points[s] == top]
    if len(tied) == 1:
        say("{seat} has the most card points, {points}, and loses the Ramsch", seat=Seat(tied[0]), points=top)
        return tied
    most = max(tricks[s] for s in tied)
    losers = [s for s in tied if tricks[s] == most]
    if len(losers) == 1:
        say("{seats} tie on {points} card points; the one with more tricks loses (the common Bavarian "
            "rule, a reading of the rules): {seat} with {tricks}", seats=Seats(tied), points=top,
            seat=Seat(losers[0]), tricks=most)
    else:
        say(_TIE_ON_TRICKS, seats=Seats(losers), points=top, tricks=most)
    return losers


def _jungfrau_doubling(tricks: tuple[int, ...], say: Explanation) -> int:
    """Ramsch settlement sauspiel: each Jungfrau (a player who took no trick) doubles the payments."""
    jungfrauen = [seat for seat, taken in enumerate(tricks) if taken == 0]
    if not jungfrauen:
        return 1
    factor = 1 << len(jungfrauen)
    say("Jungfrau (no trick) at {seats}, each doubles: × {factor}", seats=Seats(jungfrauen), factor=factor)
    return factor


def _seat_list(values: tuple[int, ...]) -> str:
    return " / ".join(str(v) for v in values)


# Refusals and lines that count something: their plural forms (explain.counted).
_AT_MOST_DOUBLINGS = counted(
    "this rule set allows at most {most} doubling (Stoß, Gegenstoß, Supra, Resupra; rules.max_doublings), not {got}",
    "this rule set allows at most {most} doublings (Stoß, Gegenstoß, Supra, Resupra; rules.max_doublings), not {got}",
    "most")
_CANNOT_BE_TAKEN = counted(
    "{got} card points cannot be taken with {tricks} trick (4 cards a trick: {lo} … {hi} card points)",
    "{got} card points cannot be taken with {tricks} tricks (4 cards a trick: {lo} … {hi} card points)", "tricks")
_CANNOT_HOLD = counted("{seat} cannot hold {got} card points with {tricks} trick",
                       "{seat} cannot hold {got} card points with {tricks} tricks", "tricks")
_TIE_ON_TRICKS = counted(
    "{seats} tie on {points} card points and {tricks} trick: each of them loses and pays every player who did not "
    "lose (a reading of the rules)",
    "{seats} tie on {points} card points and {tricks} tricks: each of them loses and pays every player who did not "
    "lose (a reading of the rules)", "tricks")


# --- the glossary: the players' words and what they mean -----------------------------------------

ORIGINAL_LANGUAGE = "de"  # the language the players' own words (`Term.original`) are in
GLOSSARY = (
    Term("Spieler", Word("Declarer"),
         Word("The player who plays the game: in a Sauspiel with the holder of the called "
              "ace as partner, in a solo alone against three.")),
    Term("Sauspiel", Word("Sauspiel"),
         Word("The declarer calls an ace (Sau) and plays with its unknown holder as "
              "partner.")),
    Term("Solo", Word("Solo"),
         Word("The declarer plays alone against three, in his chosen trump suit.")),
    Term("Wenz", Word("Wenz"),
         Word("A solo in which only the four Unter are trumps.")),
    Term("Geier", Word("Geier"),
         Word("A solo in which only the four Ober are trumps.")),
    Term("Tout", Word("Tout"),
         Word("A solo announced to take every trick; one trick to the others loses it.")),
    Term("Sie", Word("Sie"),
         Word("All four Ober and all four Unter in one hand: won without play.")),
    Term("Bettel", Word("Bettel"),
         Word("The declarer must take no trick.")),
    Term("Laufende", Word("Laufende"),
         Word("The unbroken run of top trumps one side holds; paid on top where the "
              "rule set pays them (usually from three on).")),
    Term("Schneider", Word("Schneider"),
         Word("The losers took 30 card points or fewer: a surcharge.")),
    Term("Schwarz", Word("Schwarz"),
         Word("The losers took no trick: a further surcharge.")),
    Term("Stoß", Word("Stoß"),
         Word("A player doubles the game before the play (Kontra); a Gegenstoß doubles it again.")),
    Term("Klopfen", Word("Klopfen"),
         Word("Knocking after the first cards: each knock doubles the deal.")),
    Term("Ramsch", Word("Ramsch"),
         Word("When everyone passes: whoever takes the most card points pays.")),
    Term("Jungfrau", Word("Jungfrau"),
         Word("In a Ramsch, a player who took no trick: it doubles payments (which ones, the rule set's Ramsch "
              "settlement says).")),
    Term("Durchmarsch", Word("Durchmarsch"),
         Word("In a Ramsch, one player takes every trick; under the BSV's settlement he is paid as for a won Solo "
              "schwarz.")),
)
