"""Skat: the game value, the list entry and the Seeger-Fabian evaluation of one deal.

Two presets (RULES.md): ``classic``, the club rules before the 1999 International Skat Order, and
``isko``, the International Skat Order (ISkO, 2018 edition) as clubs and tournaments play it.
Three players; a fourth may sit in as dealer and sits the deal out.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast

from .bock import BockEvent, points_sixty
from .cards import FULL_PACK, TOTALS_BY_COUNT, Card, parse_cards
from .errors import IllegalDeal
from .explain import Explanation, Listing, Phrase, Seat, Seats, Step, Word, counted, explanation, signed
from .fields import Option, Reader, boolean, integer, is_empty, nullable, one_of, read_rules
from .glossary import Term
from .inputs import REQUIRED, Input, Kind, Need, ask
from .ramsch import Pack, as_entered, marks
from .ramsch import complete as complete_ramsch
from .records import quick_init
from .season import Basis, Measure
from .sheet import NOTHING, Column, Declared, Layout, PaperList, PaperRow, noted, result, side, spaced
from .verdict import Table, Verdict, options_json, rules_memo

SEATS = (3, 4)
DEFAULT_SEATS = 3
DEFAULT_PRESET = "classic"


class Contract(StrEnum):
    CLUBS = "clubs"
    SPADES = "spades"
    HEARTS = "hearts"
    DIAMONDS = "diamonds"
    GRAND = "grand"
    NULL = "null"
    RAMSCH = "ramsch"
    PASSED = "passed"


SUIT_GAMES = (Contract.CLUBS, Contract.SPADES, Contract.HEARTS, Contract.DIAMONDS)
TRUMP_GAMES = (*SUIT_GAMES, Contract.GRAND)

# Base values (ISkO 4.1.2): diamonds 9, hearts 10, spades 11, clubs 12, grand 24.
BASE = {Contract.DIAMONDS: 9, Contract.HEARTS: 10, Contract.SPADES: 11, Contract.CLUBS: 12, Contract.GRAND: 24}

# Null games have fixed values, no multiplier (ISkO 4.3): keyed by (hand, ouvert).
NULL_VALUES = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}
NULL_NAMES = {(False, False): "Null", (True, False): "Null Hand", (False, True): "Null Ouvert",
              (True, True): "Null Ouvert Hand"}

# The legal bids: every value a suit or grand game can have (base × 2 … 18 for suits, × 2 … 11 for
# grand, the most levels a game can reach) and the four null values; the lowest is 18.
BID_VALUES = frozenset(
    {base * m for base in (9, 10, 11, 12) for m in range(2, 19)}
    | {24 * m for m in range(2, 12)}
    | set(NULL_VALUES.values())
)
MAX_MATADORS = {Contract.GRAND: 4, **{suit: 11 for suit in SUIT_GAMES}}

# Trumps from the top (ISkO 2.2): the four jacks, then in a suit game its A 10 K Q 9 8 7.
_JACKS = ("CJ", "SJ", "HJ", "DJ")
TRUMPS = {
    Contract.GRAND: _JACKS,
    **{suit: _JACKS + tuple(suit.value[0].upper() + rank for rank in ("A", "10", "K", "Q", "9", "8", "7"))
       for suit in SUIT_GAMES},
}

LEVELS = ("hand", "schneider", "schneider announced", "schwarz", "schwarz announced", "ouvert")

# Seeger-Fabian (RULES.md, Skat "List entry"): +50 for each won game, −50 for each lost one, and for each
# game another player lost +40 at a 3-seat table or +30 at a 4-seat table (the sitting dealer included).
WON_POINTS = 50
LOST_POINTS = 50
OTHERS_LOST_POINTS = {3: 40, 4: 30}

PRESETS: dict[str, dict[str, object]] = {
    "classic": {
        "lost_hand_doubled": False,
        "reverse_levels": "skat_taken",
        "ouvert": "plus_one",
        "grand_ouvert_fixed": 36,
        "announce_needs_hand": True,
        "conceded": "single",
        "kontra": True,
        "bock": False,
        "passed": "ramsch",
        "ramsch_skat": "last_trick",
        "ramsch_jungfrau": "double",
        "ramsch_durchmarsch": None,
        "ramsch_tie": "all_lose",
    },
    "isko": {
        "lost_hand_doubled": True,
        "reverse_levels": "always",
        "ouvert": "isko",
        "grand_ouvert_fixed": None,
        "announce_needs_hand": True,
        "conceded": "double",
        "kontra": False,
        "bock": False,
        "passed": "void",
        "ramsch_skat": "last_trick",
        "ramsch_jungfrau": "double",
        "ramsch_durchmarsch": 120,
        "ramsch_tie": "all_lose",
    },
}

OPTIONS: dict[str, Option] = {
    "lost_hand_doubled": boolean,
    "reverse_levels": one_of("skat_taken", "always"),
    "ouvert": one_of("plus_one", "isko"),
    "grand_ouvert_fixed": nullable(integer(1, 999)),
    "announce_needs_hand": boolean,
    "conceded": one_of("single", "double"),
    "kontra": boolean,
    "bock": boolean,
    "passed": one_of("ramsch", "void"),
    "ramsch_skat": one_of("last_trick", "loser"),
    "ramsch_jungfrau": one_of("double", "none"),
    "ramsch_durchmarsch": nullable(integer(1, 999)),
    "ramsch_tie": one_of("all_lose"),
}


@dataclass(frozen=True, slots=True)
class Rules:
    preset: str
    lost_hand_doubled: bool
    reverse_levels: str
    ouvert: str
    grand_ouvert_fixed: int | None
    announce_needs_hand: bool
    conceded: str
    kontra: bool
    bock: bool
    passed: str
    ramsch_skat: str
    ramsch_jungfrau: str
    ramsch_durchmarsch: int | None
    ramsch_tie: str


_GAME_FIELDS = ("declarer", "bid", "matadors", "cards", "hand", "announced", "ouvert", "card_points",
                "declarer_tricks", "conceded", "kontra", "re", "bock")
CONTRACTS: dict[str, tuple[str, ...]] = {
    **{c.value: _GAME_FIELDS for c in TRUMP_GAMES},
    Contract.NULL.value: ("declarer", "bid", "hand", "ouvert", "declarer_tricks", "conceded", "kontra", "re",
                          "bock"),
    Contract.RAMSCH.value: ("points", "tricks", "bock"),
    Contract.PASSED.value: (),
}
_CONTRACT_NAMES = tuple(c.value for c in Contract)
_CONTRACT_BY_NAME = {c.value: c for c in Contract}
_NAMES = {c: Word(c.value.capitalize()) for c in Contract}
_NULL_NAMES = {key: Word(name) for key, name in NULL_NAMES.items()}
# Members bound once: looking one up on the enum class costs a descriptor call on every deal.
_GRAND, _NULL, _RAMSCH = Contract.GRAND, Contract.NULL, Contract.RAMSCH
_ALL_FIELDS = frozenset({"contract"}.union(*CONTRACTS.values()))
_WHAT = {
    "clubs": Word("a Clubs game"), "spades": Word("a Spades game"), "hearts": Word("a Hearts game"),
    "diamonds": Word("a Diamonds game"), "grand": Word("a Grand game"), "null": Word("a Null game"),
    "ramsch": Word("a Ramsch"), "passed": Word("a passed deal"),
}
# Why a required field is needed, as its refusal says after "is required".
_FOR_THE_DECLARER = Word(" (the declarer's seat)")
_FOR_THE_BID = Word(" (the final bid)")
_FOR_THE_CARD_POINTS = Word(" (the declarer's card points, skat included)")
_FOR_THE_NULL_TRICKS = Word(" in a Null game (0 when the declarer took no trick)")
_IN_A_RAMSCH = Word(" in a Ramsch")
# The doublings a rule set may lack: deal field, name, the option that allows it.
_KONTRA, _RE = Word("Kontra"), Word("Re")
_DOUBLINGS = (("kontra", _KONTRA, "kontra"), ("re", _RE, "kontra"), ("bock", Word("Bock"), "bock"))


@quick_init
@dataclass(frozen=True, slots=True)
class Deal:
    """The facts of one deal as the table declared them (ADJUDICATION.md, Skat)."""

    contract: Contract
    declarer: int | None = None
    bid: int | None = None
    matadors: int | None = None
    matadors_from_cards: bool = False
    hand: bool = False
    announced: str | None = None
    ouvert: bool = False
    card_points: int | None = None
    declarer_tricks: int | None = None
    conceded: bool = False
    kontra: bool = False
    re: bool = False
    bock: bool = False
    points: tuple[int, ...] | None = None
    tricks: tuple[int, ...] | None = None


# --- rule sets ---------------------------------------------------------------------------------

_PRESET_RULES = {name: Rules(preset=name, **cast(dict[str, Any], values)) for name, values in PRESETS.items()}


def parse_rules(obj: object) -> Rules:
    if obj is None:
        return _PRESET_RULES[DEFAULT_PRESET]
    return Rules(**read_rules(obj, PRESETS, DEFAULT_PRESET, OPTIONS))


_rules_json = rules_memo(options_json)


SELDOM_PLAYED: frozenset[str] = frozenset()
# A suit game's sign, where a page has room for no more (a tap in a grid of players and games).
CONTRACT_SIGNS = {Contract.CLUBS.value: "♣", Contract.SPADES.value: "♠", Contract.HEARTS.value: "♥",
                  Contract.DIAMONDS.value: "♦"}
"""The contracts few deals are (a page may fold them away): none, every contract is asked often."""


@rules_memo
def contracts(rules: Rules) -> tuple[str, ...]:
    """All contracts; when all pass the rule set plays either Ramsch or a void deal, not both."""
    skipped = Contract.PASSED if rules.passed == "ramsch" else Contract.RAMSCH
    return tuple(c.value for c in Contract if c is not skipped)


@rules_memo
def _fields(rules: Rules) -> dict[str, tuple[str, ...]]:
    gated = {"kontra": rules.kontra, "re": rules.kontra, "bock": rules.bock}
    return {contract: tuple(f for f in fields if gated.get(f, True)) for contract, fields in CONTRACTS.items()}


@dataclass(frozen=True, slots=True)
class _Reading:
    """What reading a deal needs of a rule set, worked out once per rule set: the fields each contract it
    plays uses (a contract it does not play is missing), and the doublings it does not have."""

    used: dict[str, frozenset[str]]
    off: tuple[tuple[str, Word, str], ...]
    off_keys: frozenset[str]


@rules_memo
def _reading(rules: Rules) -> _Reading:
    played = contracts(rules)
    used = {contract: frozenset(("contract", *f)) for contract, f in _fields(rules).items() if contract in played}
    off = tuple(doubling for doubling in _DOUBLINGS if not getattr(rules, doubling[2]))
    return _Reading(used, off, frozenset(key for key, _, _ in off))


def deal_fields(contract: str, rules: Rules, table: Table) -> tuple[str, ...]:
    """The deal fields `contract` uses: Kontra, Re and Bock only where the rule set has them."""
    fields: tuple[str, ...] = _fields(rules)[contract]
    return fields


# --- the game's words, and what a deal asks of the table -----------------------------------------

NAME = Word("Skat")
PACK = FULL_PACK  # the cards a side can capture, with their card points
PRESET_LABELS = {"classic": Word("Classic club rules"), "isko": Word("ISkO (Skat Order)")}
CONTRACT_LABELS = {
    "clubs": Word("Clubs (Kreuz)"), "spades": Word("Spades (Pik)"), "hearts": Word("Hearts (Herz)"),
    "diamonds": Word("Diamonds (Karo)"), "grand": Word("Grand"), "null": Word("Null"), "ramsch": Word("Ramsch"),
    "passed": Word("All passed"),
}
OPTION_LABELS = {
    "lost_hand_doubled": Word("A lost hand game counts double"),
    "reverse_levels": Word("Schneider/schwarz suffered by the declarer add levels"),
    "ouvert": Word("Ouvert"),
    "grand_ouvert_fixed": Word("Grand ouvert fixed value"),
    "announce_needs_hand": Word("Schneider/schwarz announced only in hand games"),
    "conceded": Word("A conceded game is charged"),
    "kontra": Word("Kontra and Re may be said"),
    "bock": Word("Bock deals"),
    "passed": Word("When all pass"),
    "ramsch_skat": Word("In Ramsch the skat goes to"),
    "ramsch_jungfrau": Word("Jungfrau in Ramsch"),
    "ramsch_durchmarsch": Word("Durchmarsch in Ramsch scores"),
    "ramsch_tie": Word("Tie for most points in Ramsch"),
}
CHOICE_LABELS = {
    ("reverse_levels", "skat_taken"): Word("only when the skat was taken"),
    ("reverse_levels", "always"): Word("always"),
    ("ouvert", "plus_one"): Word("adds one level"),
    ("ouvert", "isko"): Word("ISkO: needs hand, implies schneider and schwarz announced"),
    ("conceded", "single"): Word("once (−1 ×)"),
    ("conceded", "double"): Word("twice (−2 ×)"),
    ("passed", "ramsch"): Word("play Ramsch"),
    ("passed", "void"): Word("the deal is void"),
    ("ramsch_skat", "last_trick"): Word("the last trick"),
    ("ramsch_skat", "loser"): Word("the loser"),
    ("ramsch_jungfrau", "double"): Word("doubles the loss"),
    ("ramsch_jungfrau", "none"): Word("no effect"),
    ("ramsch_tie", "all_lose"): Word("all tied players lose"),
}
NONE_LABELS = {"grand_ouvert_fixed": Word("none: computed"), "ramsch_durchmarsch": Word("none: no Durchmarsch")}

# Matadors as players name them, the usual runs first: with 1 … 4, without 1 … 4, then the longer runs.
_MATADOR_WORDS = tuple((n, Phrase("with {n}", n=n) if n > 0 else Phrase("without {n}", n=-n))
                       for n in (*range(1, 5), *range(-1, -5, -1), *range(5, 12), *range(-5, -12, -1)))


def _holds(points: int, tricks: int) -> bool:
    """Whether a seat can hold `points` card points with `tricks` tricks in a Ramsch: 3 cards a trick, plus
    the skat's 2 if the skat went to it (a seat with no trick has neither)."""
    return points in TOTALS_BY_COUNT[3 * tricks] or (tricks > 0 and points in TOTALS_BY_COUNT[3 * tricks + 2])


RAMSCH = Pack(points=120, tricks=10, holds=_holds)
"""Skat's Ramsch as a page enters it (`scorekeep.rules.ramsch`): the tricks count only for who took none
(Jungfrau) and who took all (Durchmarsch); players tied on the most card points all lose."""

# The declarer's card points some cards add up to (3 a trick and the skat's 2): the rest cannot be, whatever else
# the deal says (`_check_declarer_points`), which the card points' input says as `impossible`.
_ANY_SUM_WITH_SKAT = frozenset().union(*(TOTALS_BY_COUNT[3 * t + 2] for t in range(11)))

FIELDS: dict[str, Input] = {f.key: f for f in (
    Input("declarer", Kind.SEAT, Word("Declarer"), Need.REQUIRED),
    Input("bid", Kind.COUNT, Word("Bid (the final bid)"), Need.REQUIRED, lo=min(BID_VALUES), hi=max(BID_VALUES),
          values=tuple(sorted(BID_VALUES))),
    Input("matadors", Kind.COUNT, Word("Matadors"), Need.REQUIRED, lo=-11, hi=11, choices=_MATADOR_WORDS,
          unless=("cards",), empty=Word("none: count them from the cards"),
          help=Word("“with n” or “without n”; leave it empty when you enter the cards")),
    Input("cards", Kind.CARDS, Word("Declarer's cards and the skat"), lo=12, hi=12, seldom=True, short=Word("cards"),
          help=Word("optional: the 12 cards, separated by spaces, e.g. CJ SJ HA H10 …; suits C S H D, "
                    "ranks A 10 K Q J 9 8 7. The matadors are then counted from them.")),
    Input("hand", Kind.FLAG, Word("Hand (played without picking up the skat)"), short=Word("Hand")),
    Input("announced", Kind.CHOICE, Word("Announced"), choices=(("schneider", Word("Schneider")),
                                                                ("schwarz", Word("Schwarz"))),
          empty=Word("nothing"), seldom=True, short=Word("announced")),
    Input("ouvert", Kind.FLAG, Word("Ouvert (open)"), seldom=True, short=Word("Ouvert")),
    Input("card_points", Kind.COUNT, Word("Declarer's card points (skat included)"), Need.REQUIRED, hi=120,
          unless=("conceded",), impossible=tuple(p for p in range(121) if p not in _ANY_SUM_WITH_SKAT)),
    Input("declarer_tricks", Kind.COUNT, Word("Declarer's tricks"), hi=10, seldom=True, short=Word("tricks"),
          help=Word("Null: required, 0 means won; otherwise optional")),
    Input("conceded", Kind.FLAG, Word("Conceded (the declarer gave up)"), seldom=True, short=Word("conceded")),
    # Kontra and Re beside Hand, not folded away: where the rule set has them, many deals hear them.
    Input("kontra", Kind.FLAG, Word("Kontra"), short=Word("Kontra")),
    Input("re", Kind.FLAG, Word("Re"), short=Word("Re")),
    Input("bock", Kind.FLAG, Word("Bock deal")),
    Input("points", Kind.PER_SEAT, Word("Card points per seat"), Need.REQUIRED, hi=120, total=120,
          help=Word("skat included where the rule set gives it")),
    Input("tricks", Kind.PER_SEAT, Word("Tricks per seat"), Need.REQUIRED, hi=10, total=10, short=Word("tricks"),
          help=Word("a Ramsch counts only who took no trick and who took every trick"), marks=marks(RAMSCH, 3)),
)}
"""Every deal field of Skat as a page asks it; `inputs` adjusts them to a contract."""


def inputs(contract: str, rules: Rules, table: Table) -> tuple[Input, ...]:
    """The fields `contract` asks, in order: a Null game needs the declarer's tricks (0: won) unless
    conceded, and has no matadors; a suit or grand game's matadors go up to its trumps' count."""
    keys = tuple(sorted(deal_fields(contract, rules, table), key=_ASKED.index))
    if contract == Contract.NULL:
        # Null Ouvert is a game of its own, not a rarity: asked beside Hand.
        # A Null is won with no trick and lost with the first: most lost ones end within a few tricks.
        return ask(FIELDS, keys, declarer_tricks={**REQUIRED, "unless": ("conceded",), "seldom": False,
                                                  "common": (0, 1, 2, 3, 4, 5)},
                   bid={"common": COMMON_BIDS[Contract.NULL], "label": _BID_ON_A_PAGE}, ouvert={"seldom": False})
    if contract in _CONTRACT_BY_NAME and _CONTRACT_BY_NAME[contract] in TRUMP_GAMES:
        top = MAX_MATADORS[_CONTRACT_BY_NAME[contract]]
        # A suit or grand game's tricks count only for Schwarz: the declarer took none or all ten.
        return ask(FIELDS, keys, matadors={"lo": -top, "hi": top, "choices": tuple(
            (n, word) for n, word in _MATADOR_WORDS if abs(n) <= top), "common": COMMON_MATADORS},
                   bid={"common": COMMON_BIDS[None], "label": _BID_ON_A_PAGE},
                   declarer_tricks={"common": (0, FIELDS["declarer_tricks"].hi)})
    return ask(FIELDS, keys)


# The bid decides nothing but whether a game was overbid (a game's value is its own, whatever was bid; ISkO
# 3.2): a page says so, and a scorer may leave 18 — a bid no game is overbid at — unless the game was overbid,
# as a club's list notes the bid only then.
_BID_ON_A_PAGE = Word("Bid (counts only when overbid)")

# The order a page asks the fields in: what every game needs first (the card points right after the
# matadors), then what is said in some deals (Hand, Kontra and Re before the rarer announcements).
_ASKED = ("declarer", "bid", "matadors", "card_points", "declarer_tricks", "hand", "kontra", "re", "announced",
          "ouvert", "conceded", "cards", "points", "tricks", "bock")

# The bids a page offers first. The final bid is where the second-best hand passed, so most deals end on
# the lowest values whatever the game; a Null is bid up to its own value (23, Hand 35, Ouvert 46, Ouvert
# Hand 59), and a Null bid beyond 59 is always overbid. Six, so that they and "Other" make one row.
COMMON_MATADORS = (1, 2, 3, 4, -1, -2, -3, -4)
"""The matadors most suit and grand games have, which a page offers first (longer runs are rarer)."""

COMMON_BIDS: dict[Contract | None, tuple[int, ...]] = {
    None: (18, 20, 22, 23, 24, 27),
    Contract.NULL: (18, 20, 22, 23, 35, 46),
}



def complete(facts: dict[str, Any], rules: Rules, table: Table) -> dict[str, Any]:
    """What the other facts settle, filled in for a page: a Ramsch's tricks from its card points and who
    took no trick or every trick, and the card points of the player left empty (`scorekeep.rules.ramsch`)."""
    if facts.get("contract") != Contract.RAMSCH:
        return facts
    return complete_ramsch(facts, RAMSCH, table.players, _playing(table))


def entered(facts: dict[str, Any], rules: Rules, table: Table) -> dict[str, Any]:
    """A stored deal's facts as a page enters them (`complete` in reverse): a Ramsch's taps in place of
    the tricks that follow from them."""
    if facts.get("contract") != Contract.RAMSCH:
        return facts
    return as_entered(facts, RAMSCH, table.players, _playing(table))


def _playing(table: Table) -> list[int]:
    """The seats that play: at a 4-seat table the dealer sits the deal out."""
    return [s for s in range(table.players) if not (table.players == 4 and s == table.dealer)]

# --- at the table: seats, Bock, the list --------------------------------------------------------

PLAYERS = range(3, 8)  # three play; a fourth deals and sits out; more sit out in turn
DEALER_SITS_OUT_AT = 4  # at a table of four the dealer sits the deal out (ISkO 1.1)
# The seating (rules/seating.py) in words, as the night's form explains it beside the players.
SEATING = Word("Skat is played by three. With four at the table the dealer sits each deal out; with five or "
               "more, the dealer and everyone beyond the third player to his left sit out in turn.")
DECLARER_ALONE = True  # a game is the declarer's alone: he wins or loses it
ZERO_SUM = False  # the list counts the declarer's games; the scores do not balance
MONEY = False  # the list is in points
AMOUNTS: frozenset[str] = frozenset()  # no option is money
SERIES = (36, 48)  # a series (Liste) of 36 deals at a 3-table, 48 at a 4-table
SEEGER_FABIAN = True  # the list is evaluated by Seeger-Fabian points (the verdict's `seeger_fabian`)

# What a club's season may rank by (rules/season.py); the first is the default.
SEASON_BASES = (
    Basis("seeger_fabian", Word("Seeger-Fabian points"), Measure.PERFORMANCE),
    Basis("seeger_fabian_per_series", Word("Seeger-Fabian points per series"), Measure.PERFORMANCE, per_series=True),
    Basis("list_points", Word("list points"), Measure.TOTAL),
)

BOCK_EVENTS: dict[str, BockEvent] = {
    "kontra_lost": BockEvent(Word("a lost game with Kontra"), lambda f, v: bool(f.get("kontra")) and v["won"] is False),
    "re": BockEvent(Word("a game with Re"), lambda f, v: bool(f.get("re"))),
    "sixty": BockEvent(Word("a 60:60 game"), lambda f, v: f.get("contract") not in ("null", "ramsch", "passed")
                       and points_sixty(f, v)),
    "grand_hand_won": BockEvent(Word("a won Grand Hand"), lambda f, v: f.get("contract") == "grand"
                                and bool(f.get("hand")) and v["won"] is True),
    "schwarz": BockEvent(Word("a Schwarz game"), lambda f, v: "schwarz" in v.get("levels", ())),
}
"""The events a table may choose to start a Bock round with (the house rules; RULES.md leaves them open)."""


def passed(facts: Mapping[str, Any]) -> bool:
    """A deal all passed (void or redealt: no game, no value); a Ramsch is played."""
    return facts.get("contract") == Contract.PASSED


def least_value(contract: str, matadors: int, hand: bool = False) -> int:
    """The least a suit or grand game is worth with these matadors (no Schneider): base × (matadors + game
    + hand) — what a declarer may bid up to without overbidding (ISkO 3.2)."""
    return BASE[_CONTRACT_BY_NAME[contract]] * (abs(matadors) + 1 + hand)


def round_placing(rules: Rules) -> tuple[int, ...] | None:
    """Skat places no rounds: a series is ranked by its list and Seeger-Fabian points."""
    return None


def tournament_ranking(rules: Rules) -> tuple[str, ...]:
    """What a Skat tournament ranks by (`rules.ranking`): the Seeger-Fabian points — list points, plus 50 a
    won game, minus 50 a lost one, plus 40 (three at the table) or 30 (four) for each game the others lost
    (the ledger's performance); at equal performance the higher number of games won ranks first, then the
    lower number of games lost, and where that is equal too a lot decides (DSkV/ISPA Skatwettspielordnung,
    "Leistungsbewertung": "Bei gleicher Leistung hat die höhere Zahl der gewonnenen Spiele den Vorrang; ist
    diese gleich, entscheidet die geringere Zahl der verlorenen Spiele … Ist auch diese Zahl gleich,
    entscheidet das Los")."""
    return ("performance", "won", "lost")


def tournament_solo(facts: Mapping[str, Any]) -> bool:
    """Skat counts no Soli apart: every game is the declarer's alone, counted as won or lost."""
    return False


# The list: the columns before the players', and the levels a club list ticks (the verdict's `levels`).
LEVEL_LABELS = {"hand": Word("Hand"), "schneider": Word("Schneider"),
                "schneider announced": Word("Schneider announced"), "schwarz": Word("Schwarz"),
                "schwarz announced": Word("Schwarz announced"), "ouvert": Word("Ouvert")}
SAID = (("kontra", Word("Kontra")), ("re", Word("Re")), ("conceded", Word("conceded")))
SHEET = (Column(Word("Declarer")), Column(Word("Game")), Column(Word("Base")), Column(Word("Matadors")),
         Column(Word("Levels, said")), Column(Word("Result")), Column(Word("Value")))
SHEET_RUNNING_FIRST = False


def game_words(facts: Mapping[str, Any], verdict: Mapping[str, Any]) -> object:
    """The game as the list writes it: "Grand", "Null Hand", "Ramsch"."""
    name = CONTRACT_LABELS.get(str(facts.get("contract")), NOTHING)
    if facts.get("contract") == Contract.NULL:
        return spaced([name, *(LEVEL_LABELS[key] for key in ("hand", "ouvert") if facts.get(key))])
    return name


def list_levels(facts: Mapping[str, Any], verdict: Mapping[str, Any]) -> set[str]:
    """The levels the list ticks: the verdict's; a Null game has none in the engine's sense, but its list
    line shows Hand and Ouvert as played."""
    levels = set(verdict.get("levels") or ())
    if facts.get("contract") == Contract.NULL:
        levels |= {key for key in ("hand", "ouvert") if facts.get(key)}
    return levels


def said(facts: Mapping[str, Any], verdict: Mapping[str, Any]) -> list[Word]:
    """What was said or happened beside the levels: Kontra, Re, conceded, overbid."""
    words = [word for key, word in SAID if facts.get(key)]
    return [*words, Word("overbid")] if verdict.get("overbid") else words


# The club list on paper: a vertical tick per level; the evaluation gives the others 40 (three at the
# table) or 30 (four) for each game a declarer loses.
PAPER = PaperList(Layout.TICKED, tuple(LEVEL_LABELS[level] for level in LEVELS), OTHERS_LOST_POINTS, WON_POINTS,
                  LOST_POINTS)


def paper_row(facts: Mapping[str, Any], verdict: Mapping[str, Any]) -> PaperRow:
    """A deal's line on the club list: the game, what was said, a tick per level; no value where all passed."""
    ticked = list_levels(facts, verdict)
    return PaperRow(game_words(facts, verdict), tuple(said(facts, verdict)), tuple(level in ticked for level in LEVELS),
                    passed=passed(facts))


def _ticked(level: str) -> Declared:
    return Declared(LEVEL_LABELS[level], lambda facts, verdict: level in list_levels(facts, verdict))


DECLARED = (*map(_ticked, LEVELS), Declared(Word("Kontra"), lambda facts, verdict: bool(facts.get("kontra"))),
            Declared(Word("Re"), lambda facts, verdict: bool(facts.get("re"))),
            Declared(Word("Overbid"), lambda facts, verdict: bool(verdict.get("overbid"))))
"""The list's levels as ticked (a Null game's Hand and Ouvert too), Kontra, Re and an overbid game."""


def sheet_row(facts: Mapping[str, Any], verdict: Mapping[str, Any]) -> tuple[object, ...]:
    matadors = verdict.get("matadors")
    with_ = NOTHING if matadors is None else _with(matadors)
    ticked = list_levels(facts, verdict)  # a Null game's Hand and Ouvert too, as the printed list ticks them
    levels = [LEVEL_LABELS[level] for level in LEVELS if level in ticked]
    return (side(declaring_side(facts)), CONTRACT_LABELS.get(str(facts.get("contract")), NOTHING),
            verdict.get("base") or NOTHING, with_, noted(levels + said(facts, verdict)),
            result(verdict.get("won")), verdict["value"] if verdict.get("won") is not None else NOTHING)


def declaring_side(facts: Mapping[str, Any]) -> list[int]:
    """The declarer alone (nobody in a Ramsch or a passed deal)."""
    return [facts["declarer"]] if isinstance(facts.get("declarer"), int) else []


# --- reading a deal ------------------------------------------------------------------------------

def parse_deal(obj: object, rules: Rules, table: Table) -> Deal:
    r = Reader(obj, "deal", _ALL_FIELDS)
    given = r.obj.get("contract")
    name = given if type(given) is str and given in _CONTRACT_BY_NAME else r.choice(
        "contract", _CONTRACT_NAMES, required=True)  # the Reader refuses anything else
    contract = _CONTRACT_BY_NAME[name]
    reading = _reading(rules)
    used = reading.used.get(name)
    if used is None:
        if contract is Contract.RAMSCH:
            raise IllegalDeal("deal.contract", "this rule set plays no Ramsch: when all pass the deal is void "
                              "(enter \"passed\"), unless the rules option passed is \"ramsch\"")
        raise IllegalDeal("deal.contract", "under this rule set a deal that all pass is played as Ramsch: "
                          "enter contract \"ramsch\" with each seat's card points and tricks")
    for key, said, option in () if r.obj.keys().isdisjoint(reading.off_keys) else reading.off:
        if key in r.obj and not is_empty(r.obj[key]):
            raise IllegalDeal(f"deal.{key}", "{name} is not played under this rule set (the rules option "
                              "{option} is off)", name=said, option=option)
    r.reject_unused(used, _WHAT[name])
    if contract in TRUMP_GAMES:
        return _parse_trump_game(r, contract, rules, table)
    if contract is _NULL:
        return _parse_null(r, rules, table)
    if contract is _RAMSCH:
        return _parse_ramsch(r, rules, table)
    return Deal(contract)


def _declarer(r: Reader, table: Table) -> int:
    seat = r.int("declarer", 0, table.players - 1, required=True, why=_FOR_THE_DECLARER)
    if table.players == 4 and seat == table.dealer:
        raise IllegalDeal("deal.declarer", "{seat} deals at this 4-seat table and sits the deal out, so "
                          "cannot declare; the declarer is one of {others}", seat=Seat(seat),
                          others=Seats(s for s in range(4) if s != table.dealer))
    return seat


def _bid(r: Reader) -> int:
    bid = r.int("bid", 18, 264, required=True, why=_FOR_THE_BID)
    if bid not in BID_VALUES:
        lower = max(b for b in BID_VALUES if b < bid)
        higher = min(b for b in BID_VALUES if b > bid)
        raise IllegalDeal("deal.bid", "{bid} is not a bid value in Skat; the nearest are {lower} and {higher} "
                          "(the bids run 18, 20, 22, 23, 24, 27, 30, … 264)", bid=bid, lower=lower, higher=higher)
    return bid


def _doublings(r: Reader, rules: Rules) -> tuple[bool, bool, bool]:
    # Where the rule set has no Kontra or Bock, parse_deal has already refused any value for them.
    kontra, re = (r.bool("kontra"), r.bool("re")) if rules.kontra else (False, False)
    bock = r.bool("bock") if rules.bock else False
    if re and not kontra:
        raise IllegalDeal("deal.re", "Re answers a Kontra: set kontra too, or leave re out")
    return kontra, re, bock


def matadors_from_cards(cards: tuple[Card, ...], contract: Contract) -> int:
    """With n (+n) or without n (−n): the run of top trumps held, or missing, from the club jack.

    ISkO 4.1.3: the matadors count the skat too, in hand games as well.
    """
    held = set(cards)
    trumps = TRUMPS[contract]
    with_top = trumps[0] in held
    run = 0
    for card in trumps:
        if (card in held) != with_top:
            break
        run += 1
    return run if with_top else -run


def _with(matadors: int) -> Phrase:
    """The matadors as players say them: "with 2", "without 3"."""
    return Phrase("with {n}", n=matadors) if matadors > 0 else Phrase("without {n}", n=-matadors)


def _parse_trump_game(r: Reader, contract: Contract, rules: Rules, table: Table) -> Deal:
    declarer = _declarer(r, table)
    bid = _bid(r)
    top = MAX_MATADORS[contract]
    matadors = r.int("matadors", -99, 99)
    if matadors is not None and not (1 <= abs(matadors) <= top):
        raise IllegalDeal("deal.matadors", "{game} has {top} matadors at most: write with n as n (1 … {top}) "
                          "or without n as −n (−1 … −{top}), not {given}", game=_WHAT[contract.value], top=top,
                          given=matadors)
    from_cards = False
    if r.obj.get("cards") is not None:
        cards = parse_cards(r.obj["cards"], "deal.cards", 12)
        derived = matadors_from_cards(cards, contract)
        if matadors is not None and matadors != derived:
            raise IllegalDeal("deal.matadors", "{given} does not match the cards, which are {derived} in {game}",
                              given=_with(matadors), derived=_with(derived), game=_WHAT[contract.value])
        matadors, from_cards = derived, True
    if matadors is None:
        raise IllegalDeal("deal.matadors", "is required in {game}: with n as n (1 … {top}) or without n as −n, "
                          "or give the declarer's cards and the skat to count them", game=_WHAT[contract.value],
                          top=top)
    hand, ouvert = r.bool("hand"), r.bool("ouvert")
    announced = r.choice("announced", ("schneider", "schwarz"))
    if ouvert and rules.ouvert == "isko" and not hand:
        raise IllegalDeal("deal.ouvert", "under this rule set an open suit or grand game is always played "
                          "from hand (it includes Schneider and Schwarz announced): set hand too")
    if announced and not hand and rules.announce_needs_hand:
        raise IllegalDeal("deal.announced", "{level} can only be announced in a hand game: set hand, or "
                          "leave announced out", level=_ANNOUNCED[announced])
    conceded = r.bool("conceded")
    card_points = r.int("card_points", 0, 120, required=not conceded, why=_FOR_THE_CARD_POINTS)
    tricks = r.int("declarer_tricks", 0, 10)
    if card_points is not None:
        _check_declarer_points(card_points, tricks)
    if (fixed := rules.grand_ouvert_fixed) is not None and contract is _GRAND and ouvert and bid > fixed:
        raise IllegalDeal("deal.bid", "a Grand Ouvert is worth {fixed} under this rule set, so it cannot be "
                          "played on a bid of {bid}", fixed=fixed, bid=bid)
    kontra, re, bock = _doublings(r, rules)
    return Deal(contract, declarer=declarer, bid=bid, matadors=matadors, matadors_from_cards=from_cards,
                hand=hand, announced=announced, ouvert=ouvert, card_points=card_points, declarer_tricks=tricks,
                conceded=conceded, kontra=kontra, re=re, bock=bock)


_SUMS = TOTALS_BY_COUNT


def _check_declarer_points(points: int, tricks: int | None) -> None:
    """Card points must be holdable: 3 cards a trick plus the 2 skat cards, which count for the declarer."""
    if tricks is None:
        if points not in _ANY_SUM_WITH_SKAT:
            raise IllegalDeal("deal.card_points", "{points} card points cannot be: the other side would hold "
                              "{rest}, and no cards add up to that (A 11, 10 10, K 4, Q 3, J 2, 9 8 7 0)",
                              points=points, rest=120 - points)
        return
    if points not in _SUMS[3 * tricks + 2]:
        possible = sorted(_SUMS[3 * tricks + 2])
        if tricks == 10:
            raise IllegalDeal("deal.card_points", "all ten tricks hold all 120 card points, not {points}",
                              points=points)
        if tricks == 0:
            raise IllegalDeal("deal.card_points", "a declarer with no trick holds only the skat's two cards, "
                              "worth at most 22, not {points}", points=points)
        raise IllegalDeal("deal.card_points", _CANNOT_BE_TAKEN, points=points, tricks=tricks, lo=possible[0],
                          hi=possible[-1])


def _parse_null(r: Reader, rules: Rules, table: Table) -> Deal:
    declarer = _declarer(r, table)
    bid = _bid(r)
    hand, ouvert = r.bool("hand"), r.bool("ouvert")
    value = NULL_VALUES[hand, ouvert]
    if bid > value:
        raise IllegalDeal("deal.bid", "{game} is worth {value}, so it cannot be played on a bid of {bid}",
                          game=_NULL_NAMES[hand, ouvert], value=value, bid=bid)
    conceded = r.bool("conceded")
    tricks = r.int("declarer_tricks", 0, 10, required=not conceded, why=_FOR_THE_NULL_TRICKS)
    kontra, re, bock = _doublings(r, rules)
    return Deal(Contract.NULL, declarer=declarer, bid=bid, hand=hand, ouvert=ouvert, declarer_tricks=tricks,
                conceded=conceded, kontra=kontra, re=re, bock=bock)


def _parse_ramsch(r: Reader, rules: Rules, table: Table) -> Deal:
    points = r.int_list("points", table.players, 0, 120, required=True, why=_IN_A_RAMSCH)
    tricks = r.int_list("tricks", table.players, 0, 10, required=True, why=_IN_A_RAMSCH)
    assert points is not None and tricks is not None
    if table.players == 4 and (points[table.dealer] or tricks[table.dealer]):
        raise IllegalDeal(f"deal.points.{table.dealer}", "{seat} deals at this 4-seat table and sits the "
                          "deal out: its card points and tricks are 0", seat=Seat(table.dealer))
    if sum(points) != 120:
        raise IllegalDeal("deal.points", "the card points must add up to 120 (skat included), not {total}",
                          total=sum(points))
    if sum(tricks) != 10:
        raise IllegalDeal("deal.tricks", "the tricks must add up to 10, not {total}", total=sum(tricks))
    for seat, (p, t) in enumerate(zip(points, tricks, strict=True)):
        if not _holds(p, t):
            if t == 0:
                raise IllegalDeal(f"deal.points.{seat}", "{seat} took no trick, so it has no card points, "
                                  "not {points}", seat=Seat(seat), points=p)
            raise IllegalDeal(f"deal.points.{seat}", _CANNOT_HOLD, seat=Seat(seat), points=p, tricks=t)
    return Deal(Contract.RAMSCH, points=points, tricks=tricks, bock=r.bool("bock"))


# --- scoring -------------------------------------------------------------------------------------

def score(deal: Deal, rules: Rules, table: Table) -> Verdict:
    if deal.contract in TRUMP_GAMES:
        return _score_trump_game(deal, rules, table)
    if deal.contract is _NULL:
        return _score_null(deal, rules, table)
    if deal.contract is _RAMSCH:
        return _score_ramsch(deal, rules, table)
    say, steps = explanation()
    say("All passed: the deal is void under this rule set ({option}: {choice}); it counts as a deal, "
        "nobody scores", option=OPTION_LABELS["passed"], choice=CHOICE_LABELS["passed", "void"])
    zeros = (0,) * table.players
    return Verdict("skat", _rules_json(rules), None, 0, zeros, tuple(steps), {"seeger_fabian": list(zeros)})


def _score_trump_game(deal: Deal, rules: Rules, table: Table) -> Verdict:
    say, steps = explanation()
    contract = deal.contract
    base = BASE[contract]
    name = _NAMES[contract]
    matadors, declarer = deal.matadors, deal.declarer
    assert matadors is not None and declarer is not None and deal.bid is not None
    say("{name} game by {declarer}, {with_} {n}{source}: base value {base}", name=name,
        declarer=Seat(declarer), with_=_WITH[matadors > 0], n=abs(matadors),
        source=_FROM_CARDS if deal.matadors_from_cards else _NOTHING, base=base)

    points, tricks = deal.card_points, deal.declarer_tricks
    isko_ouvert = deal.ouvert and rules.ouvert == "isko"
    announced_schwarz = deal.announced == "schwarz" or isko_ouvert
    announced_schneider = deal.announced is not None or isko_ouvert
    if isko_ouvert:
        say("Ouvert (ISkO reading of the rule set): played from hand with Schneider and Schwarz announced; "
            "won only with all ten tricks")
    # Without a trick count, 120 card points are taken as all ten tricks (ADJUDICATION.md).
    opponents_schwarz = tricks == 10 or (tricks is None and points == 120)
    declarer_schwarz = tricks == 0
    opponents_schneider = points is not None and points >= 90
    declarer_schneider = points is not None and points <= 30
    reverse = rules.reverse_levels == "always" or not deal.hand

    # Won or lost on the cards (ISkO 4.1.5-4.1.7): 61 points; 90 with Schneider announced; every trick
    # with Schwarz announced.
    if deal.conceded:
        won = False
        say("The declarer conceded: the game is lost at the levels entered")
    elif announced_schwarz:
        won = opponents_schwarz
        if won:
            say("Schwarz announced: the declarer needs all ten tricks and took them all: won")
        elif tricks is not None:
            say("Schwarz announced: the declarer needs all ten tricks and took {tricks}: lost", tricks=tricks)
        else:
            say("Schwarz announced: the declarer needs all ten tricks; without a trick count, {points} card "
                "points are not all ten tricks: lost", points=points)
    elif announced_schneider:
        assert points is not None
        won = points >= 90
        say("Schneider announced: the declarer needs 90 card points; he has {points}: {result}",
            points=points, result=_ENOUGH[won])
    else:
        assert points is not None
        won = points >= 61
        say("The declarer has {points} card points, the opponents {rest}: {result} (61 needed; 60 loses)",
            points=points, rest=120 - points, result=_ENOUGH[won])

    if opponents_schwarz:
        say("The opponents took no trick: Schwarz")
    elif opponents_schneider:
        assert points is not None  # Schneider on the cards needs the card points
        say("The opponents have {rest} card points, 30 or fewer: Schneider", rest=120 - points)
    if declarer_schwarz or declarer_schneider:
        what = _SCHNEIDER_AND_SCHWARZ if declarer_schwarz else _SCHNEIDER
        if reverse and declarer_schwarz:
            say("The declarer took no trick ({points} card points): he is Schneider and Schwarz himself, and "
                "both count as levels of his game ({option}: {choice})", points=points,
                option=OPTION_LABELS["reverse_levels"], choice=CHOICE_LABELS["reverse_levels", rules.reverse_levels])
        elif reverse:
            say("The declarer has {points} card points, 30 or fewer: he is Schneider himself, and that counts "
                "as a level of his game ({option}: {choice})", points=points,
                option=OPTION_LABELS["reverse_levels"], choice=CHOICE_LABELS["reverse_levels", rules.reverse_levels])
        else:
            say("The declarer was {what} himself, but in a hand game that adds no level under this rule set "
                "({option}: {choice})", what=what, option=OPTION_LABELS["reverse_levels"],
                choice=CHOICE_LABELS["reverse_levels", "skat_taken"])

    # Levels count whether they happen or were announced; a level is never counted twice (ISkO 4.1.4).
    levels = []
    if deal.hand:
        levels.append("hand")
    schneider = opponents_schneider or (declarer_schneider and reverse)
    if schneider or announced_schneider:
        levels.append("schneider")
    if announced_schneider:
        levels.append("schneider announced")
    if opponents_schwarz or (declarer_schwarz and reverse) or announced_schwarz:
        levels.append("schwarz")
    if announced_schwarz:
        levels.append("schwarz announced")
    if deal.ouvert:
        levels.append("ouvert")
    overbid = False
    levels_multiplier = abs(matadors) + 1 + len(levels)
    multiplier: int | None = levels_multiplier
    charged_multiplier = multiplier  # the multiplier the value is charged at: an overbid game's is higher
    if contract is _GRAND and deal.ouvert and rules.grand_ouvert_fixed is not None:
        multiplier = charged_multiplier = None
        value = rules.grand_ouvert_fixed
        say("A Grand Ouvert has the fixed value {value} under this rule set ({option}): "
            "no multiplier", value=value, option=OPTION_LABELS["grand_ouvert_fixed"])
    else:
        value = base * levels_multiplier
        say("{terms} × {base} = {value}", terms=_terms(matadors, tuple(levels)), base=base, value=value)
        if value < deal.bid:
            # Overbid (ISkO 4.4): lost, charged at the lowest multiple of the base value reaching the bid.
            overbid, won = True, False
            charged_multiplier = -(-deal.bid // base)
            charged = charged_multiplier * base
            say("The game value {value} does not reach the bid {bid}: overbid and lost, charged at the lowest "
                "multiple of {base} that reaches the bid: {charged}", value=value, bid=deal.bid, base=base,
                charged=charged)
            value = charged

    entry = _entry(value, won, deal, rules, say)
    scores = [0] * table.players
    scores[declarer] = entry
    extra = {
        "seeger_fabian": _seeger_fabian(won, declarer, table, say),
        "base": base, "matadors": matadors, "multiplier": multiplier, "charged_multiplier": charged_multiplier,
        "levels": levels, "overbid": overbid,
    }
    return Verdict("skat", _rules_json(rules), won, value, tuple(scores), tuple(steps), extra)


# The vocabulary that goes into explanation steps as values (a page translates each `Word`).
_RESULT = {True: Word("won"), False: Word("lost")}
_ENOUGH = {True: Word("enough"), False: Word("not enough, lost")}
_SCHNEIDER_AND_SCHWARZ = Word("Schneider and Schwarz")
_WITH = {True: Word("with"), False: Word("without")}
_SCHNEIDER, _SCHWARZ = Word("Schneider"), Word("Schwarz")
_FROM_CARDS = Word(" (counted from the declarer's cards and the skat)")
_NOTHING = Word("")
_BOCK_DEAL = Word("Bock deal")
_ANNOUNCED = {"schneider": _SCHNEIDER, "schwarz": _SCHWARZ}
_DOUBLED_IN_BOCK = {True: Word(" (doubled in a Bock deal)"), False: _NOTHING}
_LEVEL_WORDS = {level: Word(level) for level in ("game", *LEVELS)}
_TERMS: dict[tuple[int, tuple[str, ...]], Listing] = {}


def _terms(matadors: int, levels: tuple[str, ...]) -> Listing:
    """The multiplier counted up as players count it (ISkO 4.1), "with 2, game 3, hand 4": the matadors, then
    each level with the multiplier it brings the game to. Made once for each matadors and levels (there are a
    few hundred), since every suit and grand game says them."""
    terms = _TERMS.get((matadors, levels))
    if terms is None:
        count = abs(matadors)
        said: list[Phrase] = [_with(matadors)]
        for level in ("game", *levels):
            count += 1
            said.append(Phrase("{what} {n}", what=_LEVEL_WORDS[level], n=count))
        terms = _TERMS[matadors, levels] = Listing(said, None)
    return terms


def _score_null(deal: Deal, rules: Rules, table: Table) -> Verdict:
    say, steps = explanation()
    value = NULL_VALUES[deal.hand, deal.ouvert]
    assert deal.declarer is not None  # a Null game's declarer is required
    say("{game} by {declarer}: fixed value {value}", game=_NULL_NAMES[deal.hand, deal.ouvert],
        declarer=Seat(deal.declarer), value=value)
    if deal.conceded:
        won = False
        say("The declarer conceded: lost")
    else:
        won = deal.declarer_tricks == 0
        if won:
            say("The declarer took no trick: won (a Null game is won by taking no trick)")
        else:
            say("The declarer took {tricks} of 10 tricks: lost (a Null game is won by taking no trick)",
                tricks=deal.declarer_tricks)
    entry = _entry(value, won, deal, rules, say)
    scores = [0] * table.players
    declarer = deal.declarer
    assert declarer is not None
    scores[declarer] = entry
    extra = {"seeger_fabian": _seeger_fabian(won, declarer, table, say), "levels": [], "overbid": False}
    return Verdict("skat", _rules_json(rules), won, value, tuple(scores), tuple(steps), extra)


def _entry(value: int, won: bool, deal: Deal, rules: Rules, say: Explanation) -> int:
    """The list entry: +value won; lost −2 × value (ISkO 5.1), single where the rule set says; then
    × 2 for Kontra, × 2 for Re, × 2 in a Bock deal."""
    if won:
        entry = value
        say("Won: {entry} on the list", entry=signed(entry))
    else:
        if deal.conceded:
            factor = 1 if rules.conceded == "single" else 2
            entry = -factor * value
            say("Lost: a conceded game counts {factor} × its value ({option}: {choice}): −{factor} × "
                "{value} = {entry}", factor=factor, option=OPTION_LABELS["conceded"],
                choice=CHOICE_LABELS["conceded", rules.conceded], value=value, entry=signed(entry))
        elif deal.hand and not rules.lost_hand_doubled:
            entry = -value
            say("Lost: a lost hand game counts single under this rule set (not: {option}): "
                "−1 × {value} = {entry}", option=OPTION_LABELS["lost_hand_doubled"], value=value, entry=signed(entry))
        else:
            entry = -2 * value
            say("Lost: a lost game counts double: −2 × {value} = {entry}", value=value, entry=signed(entry))
    for said, name in ((deal.kontra, _KONTRA), (deal.re, _RE), (deal.bock, _BOCK_DEAL)) if (
            deal.kontra or deal.re or deal.bock) else ():
        if said:
            entry *= 2
            say("{name} doubles: {entry}", name=name, entry=signed(entry))
    return entry


def _seeger_fabian(won: bool, declarer: int, table: Table, say: Explanation) -> list[int]:
    """Declarer +50 won / −50 lost; a lost game gives each opponent +40 at 3 seats, each of the three
    others (the sitting dealer included) +30 at 4 seats. Kontra, Re and Bock do not touch these."""
    if won:
        sf = [0] * table.players
        sf[declarer] = WON_POINTS
        say("Seeger-Fabian: +50 to the declarer for a won game")
        return sf
    bonus = OTHERS_LOST_POINTS[table.players]
    sf = [bonus] * table.players
    sf[declarer] = -LOST_POINTS
    say("Seeger-Fabian: −50 to the declarer for a lost game, +{bonus} to each of the {n} others",
        bonus=bonus, n=table.players - 1)
    return sf


def _score_ramsch(deal: Deal, rules: Rules, table: Table) -> Verdict:
    say, steps = explanation()
    points, tricks = deal.points, deal.tricks
    assert points is not None and tricks is not None
    seats = _playing(table)
    skat_note = Word("the skat went with the last trick" if rules.ramsch_skat == "last_trick" else
                     "the skat went to the loser")
    first, second, third = seats  # three play: at a 4-seat table the dealer sits out
    say("Ramsch: only the jacks are trump; card points {first}: {first_points}, {second}: {second_points}, "
        "{third}: {third_points} ({skat})", first=Seat(first), first_points=points[first], second=Seat(second),
        second_points=points[second], third=Seat(third), third_points=points[third], skat=skat_note)
    scores = [0] * table.players
    sweeper = next((s for s in seats if tricks[s] == 10), None)
    if sweeper is not None and rules.ramsch_durchmarsch is not None:
        value = rules.ramsch_durchmarsch
        if deal.bock:
            value *= 2
        scores[sweeper] = value
        say("Durchmarsch: {seat} took every trick and scores +{value}{bock} ({option})",
            seat=Seat(sweeper), value=value, bock=_DOUBLED_IN_BOCK[deal.bock],
            option=OPTION_LABELS["ramsch_durchmarsch"])
        return _ramsch_verdict(value, scores, rules, say, steps)
    most = max(points[s] for s in seats)
    losers = [s for s in seats if points[s] == most]
    if len(losers) > 1:
        say("{seats} tie on {most} card points: each of them loses ({option}: {choice})",
            seats=Seats(losers), most=most, option=OPTION_LABELS["ramsch_tie"],
            choice=CHOICE_LABELS["ramsch_tie", "all_lose"])
    else:
        say("{seat} has the most card points, {most}, and loses them", seat=Seat(losers[0]), most=most)
    charge = most
    virgins = [s for s in seats if tricks[s] == 0]
    if virgins and rules.ramsch_jungfrau == "double":
        charge *= 2
        if len(virgins) == 1:
            say("Jungfrau: {seats} took no trick, so the loss doubles: {charge} ({option})",
                seats=Seats(virgins), charge=charge, option=OPTION_LABELS["ramsch_jungfrau"])
        else:
            # RULES.md: "the loss doubles when another player took no trick" — once, however many did.
            say("Jungfrau: {seats} took no trick; the loss doubles once, not once for each (a reading of "
                "the rules): {charge} ({option})", seats=Seats(virgins), charge=charge,
                option=OPTION_LABELS["ramsch_jungfrau"])
    if deal.bock:
        charge *= 2
        say("Bock deal: × 2 = {charge}", charge=charge)
    for s in losers:
        scores[s] = -charge
    say("List: −{charge} for {losers}; everyone else 0", charge=charge, losers=Seats(losers))
    return _ramsch_verdict(charge, scores, rules, say, steps)


def _ramsch_verdict(value: int, scores: list[int], rules: Rules, say: Explanation, steps: list[Step]) -> Verdict:
    say("Seeger-Fabian: a Ramsch scores no evaluation points")
    return Verdict("skat", _rules_json(rules), None, value, tuple(scores), tuple(steps),
                   {"seeger_fabian": [0] * len(scores)})


# Refusals and lines that count something: their plural forms (explain.counted).
_CANNOT_BE_TAKEN = counted(
    "{points} card points cannot be taken with {tricks} trick and the skat (possible: {lo} … {hi})",
    "{points} card points cannot be taken with {tricks} tricks and the skat (possible: {lo} … {hi})", "tricks")
_CANNOT_HOLD = counted("{seat} cannot hold {points} card points with {tricks} trick",
                       "{seat} cannot hold {points} card points with {tricks} tricks", "tricks")


# --- the glossary: the players' words and what they mean -----------------------------------------

ORIGINAL_LANGUAGE = "de"  # the language the players' own words (`Term.original`) are in
GLOSSARY = (
    Term("Reizen", Word("Bidding"),
         Word("The players bid game values (18, 20, 22, 23, 24, 27, 30 …); the highest bidder "
              "becomes the declarer and plays alone against the other two.")),
    Term("Alleinspieler", Word("Declarer"),
         Word("The player who won the bidding and plays alone.")),
    Term("Grand", Word("Grand"),
         Word("Only the four jacks are trumps; base value 24.")),
    Term("Null", Word("Null"),
         Word("The declarer must take no trick at all; fixed values 23, 35 (Hand), 46 (Ouvert), "
              "59 (Ouvert Hand).")),
    Term("mit / ohne", Word("with / without"),
         Word("Matadors: the unbroken run of top trumps from the jack of clubs "
              "that the declarer holds (with) or lacks (without); each counts one "
              "level.")),
    Term("Hand", Word("Hand"),
         Word("Played without picking up the skat: one more level.")),
    Term("Schneider", Word("Schneider"),
         Word("A side with 30 card points or fewer is Schneider: one more level (two if "
              "announced).")),
    Term("Schwarz", Word("Schwarz"),
         Word("A side that takes no trick is Schwarz: one more level (two if announced).")),
    Term("Ouvert", Word("Ouvert"),
         Word("The declarer plays with his cards open on the table.")),
    Term("Kontra", Word("Kontra"),
         Word("An opponent doubts the game before the first card: the value is doubled.")),
    Term("Re", Word("Re"),
         Word("The declarer answers Kontra: doubled again.")),
    Term("Bock", Word("Bock deal"),
         Word("A deal after a special event (60:60, a lost Kontra …) that counts double.")),
    Term("Ramsch", Word("Ramsch"),
         Word("When everyone passes: each plays for himself, and whoever takes the most card "
              "points loses.")),
    Term("Jungfrau", Word("Jungfrau"),
         Word("In a Ramsch, a player who took no trick; where the rule set says so, the loser's count doubles.")),
    Term("Durchmarsch", Word("Durchmarsch"),
         Word("In a Ramsch, one player takes every trick and wins instead of losing.")),
    Term("Seeger-Fabian", Word("Seeger-Fabian"),
         Word("The tournament count: +50 for each won game, −50 for each lost "
              "one, and +40 (three at the table) or +30 (four) to the others "
              "for each game a declarer loses.")),
)
