"""A deal as it was played: the cards of every trick checked against the game's play rules, and the
facts the table otherwise counts derived from them (issue 19; docs/PLAY.md).

The contract's one optional field ``deal.play``::

    {"tricks": [["CJ", "SJ", "HA"], …], "skat": ["D7", "D8"], "hands": {"1": ["H7", …]}}

- ``tricks``: each trick's cards in the order they fell. The first trick is led as the game's rules
  say (Skat: forehand; Schafkopf and Kop: the seat left of the dealer; Fipsen: the declarer), and
  the winner of a trick leads the next, so every card's player follows from the cards.
- ``skat``: Skat's two cards (the ones put away); may be left out when every trick is there.
- ``hands``: only where play stopped before the last trick (conceded, claimed): each seat's cards
  not played.
- ``trump``: Fipsen only, the suit the declarer named (``C`` ``S`` ``H``; with Ruten it is ``D``).

`judge_played` reads it, checks every card (`tricks`), derives card points, tricks, matadors or
Laufende, and scores the deal with the game's own `score`. What a broken rule costs is the rule
set's: Skat per the ISkO (the offending side loses the game); the other games' rules do not say,
and the verdict says so and shows both scorings.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import fipsen as fipsen_rules
from . import kop as kop_rules
from . import skat as skat_rules
from . import tricks
from .cards import CARD_POINTS, CARD_WORDS, RANKS, SUITS
from .errors import IllegalDeal
from .explain import Explanation, Listing, Phrase, Seat, Seats, Step, Word, counted, explanation, minus, signed
from .fields import describe
from .games import Game
from .verdict import Table, Verdict

_PLAY_KEYS = frozenset({"tricks", "skat", "hands", "trump"})

FULL_PACK = frozenset(s + r for s in SUITS for r in RANKS)
KOP_PACK = frozenset(s + r for s in SUITS for r in kop_rules.RANKS)
FIPSEN_PACK = frozenset({*(s + r for s in "CSH" for r in tricks.FIPSEN_RANKS), "D7"})
_KOP_POINTS = {card: kop_rules.CARD_POINTS[card[1:]] for card in KOP_PACK}
_POINTS = {card: CARD_POINTS[card[1:]] for card in FULL_PACK}
_NO_POINTS = dict.fromkeys(FIPSEN_PACK, 0)

# The words of the explanation and the verdict's "play" part.
SIDES = {True: Word("the declaring side"), False: Word("the defending side")}
_ISKO = Word("ISkO: a side that breaks a rule of play loses the game")
_THE_SKAT = Word("the skat")
_UNSAID = Word("The rule page does not say what a broken rule of play costs")
_WON = {True: Word("wins"), False: Word("loses")}
_LEGAL = Word("Every card follows the rules of play")
_UNSEEN = Word("No rule break in the cards given; without the hands a card not followed cannot be seen")
_BROKE_LEAD = Word("Trick {trick}: {seat} led {card}, but {rule}")
_BROKE_ON = Word("Trick {trick}: {seat} played {card} on {led} led, but {rule}")


# --- what a page offers -----------------------------------------------------------------------------------

PLAY_FIELDS: dict[str, tuple[str, ...]] = {
    "skat": ("tricks", "skat", "hands"), "schafkopf": ("tricks", "hands"), "kop": ("tricks", "hands"),
    "fipsen": ("tricks", "trump", "hands"),
}
"""The keys of ``deal.play`` each game takes."""

# The suits and ranks as each game's table names them: Schafkopf is played with the German pack (Eichel,
# Gras, Herz, Schellen; Sau, Ober, Unter), the others with the French one (♣ ♠ ♥ ♦).
_GERMAN_SUITS = {"C": Word("Eichel"), "S": Word("Gras"), "H": Word("Herz"), "D": Word("Schellen")}
_FRENCH_SUITS = {"C": Word("♣ Clubs"), "S": Word("♠ Spades"), "H": Word("♥ Hearts"), "D": Word("♦ Diamonds")}
_GERMAN_RANKS = {"A": Word("Sau"), "10": "10", "K": Word("König"), "Q": Word("Ober"), "J": Word("Unter"),
                 "9": "9", "8": "8", "7": "7"}
_FRENCH_RANKS = {"A": Word("A"), "10": "10", "K": Word("K"), "Q": Word("Q"), "J": Word("J"), "9": "9", "8": "8",
                 "7": "7"}
_PACKS = {"skat": FULL_PACK, "schafkopf": FULL_PACK, "kop": KOP_PACK, "fipsen": FIPSEN_PACK}
_ORDER = {"skat": RANKS, "schafkopf": RANKS, "kop": kop_rules.RANKS, "fipsen": tricks.FIPSEN_RANKS}


def pack_layout(game: str) -> tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...]:
    """The pack as a card picker lays it out: per suit (the contract's letter, its name as the game's table
    says it) the cards high to low, each its code and its rank as the table names it. Names are `Word`s."""
    german = game == "schafkopf"
    suits, ranks = (_GERMAN_SUITS, _GERMAN_RANKS) if german else (_FRENCH_SUITS, _FRENCH_RANKS)
    pack = _PACKS[game]
    return tuple((suit, suits[suit], tuple((suit + rank, ranks[rank]) for rank in _ORDER[game]
                                           if suit + rank in pack))
                 for suit in SUITS if any(card[0] == suit for card in pack))


def trick_size(game: str, players: int) -> int:
    """Cards in a trick: everyone plays, but at a 4-seat Skat table the dealer sits out."""
    return 3 if game == "skat" else players


def suit_name(game: str, suit: str) -> str:
    """A suit as the game's table names it (a `Word`)."""
    return (_GERMAN_SUITS if game == "schafkopf" else _FRENCH_SUITS)[suit]


@dataclass(frozen=True, slots=True)
class Context:
    """What the play of one contract needs from the deal: its trick rules, who plays in which order
    (clockwise from the first leader's side), the first leader, the declaring side, the pack."""

    rules: tricks.TrickRules
    playing: tuple[int, ...]
    leader: int  # position in `playing`
    side: frozenset[int]  # the declaring side's seats (empty in a Ramsch)
    tricks: int
    pack: frozenset[str]
    points: dict[str, int]
    has_skat: bool = False
    whole_pack: bool = True  # every card of the pack is dealt (not Fipsen)
    # Where the rules end the deal before the last trick: given the declaring side's flag for each trick given
    # (1: it took that trick), the number of tricks the deal lasted and why it ended, or None while it goes on.
    ends: Callable[[list[int]], tuple[int, Word] | None] | None = None


@dataclass(frozen=True, slots=True)
class Break:
    """The first card that breaks a rule of play."""

    trick: int
    position: int
    seat: int
    card: str
    led: str
    rule: Word

    def to_json(self, declaring: bool | None) -> dict[str, Any]:
        out: dict[str, Any] = {"trick": self.trick, "seat": self.seat, "card": self.card, "led": self.led,
                               "rule": str(self.rule), "field": f"deal.play.tricks.{self.trick}.{self.position}"}
        if declaring is not None:
            out["side"] = "declaring" if declaring else "defending"
        return out


@dataclass(slots=True)
class Played:
    """The cards as read and checked: each trick's leader and winner, what each seat took."""

    tricks: list[list[str]]
    seats: list[tuple[int, ...]]  # per trick, the seat of each card
    winners: list[int]  # per trick, the winning seat
    trick_points: list[int]  # per trick, the card points in it
    held: dict[int, list[str]]  # per seat, every card it held (played and still in hand)
    hands_known: bool
    skat: tuple[str, ...]
    complete: bool
    taken_points: list[int]
    taken_tricks: list[int]
    broken: Break | None = None
    remaining_points: int = 0
    facts: dict[str, Any] = field(default_factory=dict)
    counted: int = 0  # the tricks that are part of the deal: where the rules ended it, or all given
    ended: Word | None = None  # why the rules ended the deal before the tricks given ran out


def judge_played(module: Game, game: str, deal: dict[str, Any], rules: Any, table: Table) -> Verdict:
    """Score a deal given with ``deal.play``: the cards checked, the facts they settle derived (and any
    entered fact that disagrees reported), the verdict by the game's own scoring."""
    facts = {key: value for key, value in deal.items() if key != "play"}
    ctx = _context(game, module, facts, rules, table)
    played = read_play(deal["play"], ctx, table)
    return _verdict(module, game, facts, played, ctx, rules, table)


def _pending(module: Game, facts: dict[str, Any], rules: Any, table: Table, otherwise: IllegalDeal) -> IllegalDeal:
    """The refusal for a contract field the play needs: the game's own reading names what is wrong when
    it can; otherwise `otherwise`."""
    try:
        module.parse_deal(facts, rules, table)
    except IllegalDeal as err:
        return err
    return otherwise


@dataclass(frozen=True, slots=True)
class Shown:
    """One trick of a played deal as a page replays it: its cards with their players, the winner, the card
    points in it and (with a declaring side) each side's so far; the first broken rule where it fell."""

    number: int  # 1, 2, …
    cards: tuple[tuple[str, int], ...]  # (card, seat) in the order played
    winner: int
    points: int
    declaring: int | None
    defending: int | None
    broken_card: str | None
    broken_rule: str | None  # a `Word`
    after_end: bool = False  # played after the rules ended the deal: no part of it (`Played.counted`)


def replay(verdict: Verdict) -> tuple[Shown, ...]:
    """The tricks of a verdict judged with ``deal.play`` (none for any other verdict)."""
    shown = verdict.extra.get("play")
    if not shown:
        return ()
    broken = shown["break"]
    counted = shown.get("counted", len(shown["tricks"]))
    out = []
    for number, trick in enumerate(shown["tricks"]):
        running = trick.get("running") or {}
        here = broken is not None and broken["trick"] == number
        out.append(Shown(number + 1, tuple(zip(trick["cards"], trick["seats"], strict=True)), trick["winner"],
                         trick["points"], running.get("declaring"), running.get("defending"),
                         broken["card"] if here else None, Word(broken["rule"]) if here else None,
                         number >= counted))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Findings:
    """What the cards say about a deal beside the facts the table entered (a played deal kept with a deal
    for the record): the finding on the play — every card legal, or the first card that breaks a rule —
    and each entered fact the cards contradict ("entered 62 card points; the tricks hold 58"), as
    explanation steps a page writes in its language with its names for the seats."""

    legal: bool  # no card found against the rules
    finding: Step
    disagreements: tuple[Step, ...]
    checked: bool = True  # every card each player held is known, so a card not followed would show

    @property
    def agree(self) -> bool:
        """Every entered fact the cards settle is what the cards give."""
        return not self.disagreements


def findings(verdict: Verdict) -> Findings | None:
    """The finding on the play and the disagreements of a verdict judged with ``deal.play`` (None for any
    other verdict), taken from the explanation's steps, so a page says them as the engine said them."""
    shown = verdict.extra.get("play")
    if not shown:
        return None
    finding = next(step for step in verdict.steps if step.text in (_LEGAL, _UNSEEN, _BROKE_LEAD, _BROKE_ON))
    told = frozenset(_FACT_WORDS.values())
    return Findings(shown["break"] is None, finding, tuple(step for step in verdict.steps if step.text in told),
                    shown.get("hands_known", True))


# --- each game's play --------------------------------------------------------------------------------------

def _order_from(first: int, table: Table, skip: int | None = None) -> tuple[int, ...]:
    """The seats clockwise from `first`, leaving out `skip` (the dealer sitting out)."""
    return tuple(seat for k in range(table.players) if (seat := (first + k) % table.players) != skip)


def _seat(module: Game, facts: dict[str, Any], key: str, rules: Any, table: Table) -> int:
    value = facts.get(key)
    if type(value) is not int or not 0 <= value < table.players:
        raise _pending(module, facts, rules, table, IllegalDeal(
            f"deal.{key}", "is required to check the play: a seat from 0 to {last}", last=table.players - 1))
    return value


def _context(game: str, module: Game, facts: dict[str, Any], rules: Any, table: Table) -> Context:
    contract = facts.get("contract")
    if type(contract) is not str or contract not in module.CONTRACTS:
        raise _pending(module, facts, rules, table, IllegalDeal("deal.contract", "is required"))
    if game == "skat" or game == "schafkopf":
        # Made once per kind of deal: what a Skat or Schafkopf context reads of the facts is in the key
        # (each value with its type, so true never stands for seat 1); Kop's and Fipsen's depend on more.
        try:
            key = (game, contract, table, *((type(v), v) for v in map(facts.get, _CONTEXT_FACTS)))
            known = _CONTEXTS.get(key)
        except TypeError:  # a list or an object where a seat or suit belongs: read (and refused) below
            key, known = None, None
        if known is not None:
            return known
        made = (_skat if game == "skat" else _schafkopf)(module, contract, facts, rules, table)
        if key is not None and len(_CONTEXTS) < 4096:
            _CONTEXTS[key] = made
        return made
    if game == "kop":
        return _kop(module, contract, facts, rules, table)
    return _fipsen(module, contract, facts, rules, table)


# The facts a Skat or Schafkopf context is made from (besides the game, the contract and the table).
_CONTEXT_FACTS = ("declarer", "trump", "called_ace", "partner")
_CONTEXTS: dict[tuple[object, ...], Context] = {}


def _no_play(contract: str) -> IllegalDeal:
    return IllegalDeal("deal.play", "{contract} has no cards played: leave play out", contract=contract)


def _skat(module: Game, contract: str, facts: dict[str, Any], rules: Any, table: Table) -> Context:
    """Skat: forehand (left of the dealer) leads the first trick; at four seats the dealer sits out."""
    if contract == "passed":
        raise _no_play(contract)
    skip = table.dealer if table.players == 4 else None
    playing = _order_from(table.dealer + 1, table, skip)
    side: frozenset[int] = frozenset()
    if contract != "ramsch":
        declarer = _seat(module, facts, "declarer", rules, table)
        if declarer == skip:  # the game's own reading says why the dealer cannot declare
            raise _pending(module, facts, rules, table,
                           IllegalDeal("deal.declarer", "the dealer sits this deal out"))
        side = frozenset({declarer})
    return Context(tricks.skat(contract), playing, 0, side, 10, FULL_PACK, _POINTS, has_skat=True,
                   ends=_ends_at_first(1, _NULL_LOST) if contract == "null" else None)


def _schafkopf(module: Game, contract: str, facts: dict[str, Any], rules: Any, table: Table) -> Context:
    """Schafkopf: the seat left of the dealer leads; in a Sauspiel the called Sau has its own rules."""
    if contract in ("sie", "passed"):
        raise _no_play(contract)
    playing = _order_from(table.dealer + 1, table)
    trump = called = None
    side: frozenset[int] = frozenset()
    ends = None
    if contract != "ramsch":
        declarer = _seat(module, facts, "declarer", rules, table)
        side = frozenset({declarer})
        if contract in ("solo", "solo_tout", "farbwenz", "farbwenz_tout"):
            trump = facts.get("trump")
            if trump not in ("C", "S", "H", "D"):
                raise _pending(module, facts, rules, table,
                               IllegalDeal("deal.trump", "is required to check the play"))
        if contract == "sauspiel":
            suit = facts.get("called_ace")
            if suit not in ("C", "S", "D"):
                raise IllegalDeal("deal.called_ace", "is required to check the play of a Sauspiel: the called "
                                  "Sau's suit, \"C\", \"S\" or \"D\"")
            called = suit + "A"
        elif contract == "hochzeit":
            side = side | {_seat(module, facts, "partner", rules, table)}
        if contract.endswith("_tout"):
            ends = _ends_at_first(0, _TOUT_LOST)
        elif contract == "bettel":
            ends = _ends_at_first(1, _BETTEL_LOST)
    return Context(tricks.schafkopf(contract, trump, called), playing, 0, side, 8, FULL_PACK, _POINTS, ends=ends)


def _kop(module: Game, contract: str, facts: dict[str, Any], rules: Any, table: Table) -> Context:
    """Kop: the seat left of the dealer leads (kop.ja.txt, プレイ); the old side as entered."""
    old = facts.get("old")
    if not isinstance(old, list) or not old or not all(type(s) is int and 0 <= s < 4 for s in old):
        raise _pending(module, facts, rules, table, IllegalDeal("deal.old", "is required to check the play"))
    playing = _order_from(table.dealer + 1, table)
    return Context(tricks.kop(tuple(rules.trump_order)), playing, 0, frozenset(old), 4, KOP_PACK, _KOP_POINTS)


def _fipsen(module: Game, contract: str, facts: dict[str, Any], rules: Any, table: Table) -> Context:
    """Fipsen: the declarer leads (fipsen.ja.txt, プレイ); the deal ends when the bid is made or can no
    longer be made, unless the declarer has won every trick from the opening lead and plays on (Durch);
    with Durch (or a Kieker) it is lost with the first trick given away (`_fipsen_end`)."""
    if contract in ("siebener_fips", "passed"):
        raise _no_play(contract)
    declarer = _seat(module, facts, "declarer", rules, table)
    if facts.get("surrendered") is True:
        raise IllegalDeal("deal.play", "a surrendered Kieker is not played: leave play out")
    bid = facts.get("bid") if contract == "tricks" else None
    if contract == "tricks" and (type(bid) is not int or not 2 <= bid <= 5):
        raise _pending(module, facts, rules, table, IllegalDeal("deal.bid", "is required to check the play"))
    all_five = contract == "kieker" or bid == 5 or facts.get("durch") is True
    need = fipsen_rules.TRICKS if bid is None else bid
    why = _KIEKER_LOST if contract == "kieker" else _DURCH_LOST

    def ends(taken: list[int]) -> tuple[int, Word] | None:
        return _fipsen_end(taken, need, all_five, why)

    return Context(tricks.fipsen("D"), _order_from(declarer, table), 0, frozenset({declarer}), 5, FIPSEN_PACK,
                   _NO_POINTS, whole_pack=False, ends=ends)


# Why the rules ended a deal before its last trick (the line that says the tricks after it do not count).
_NULL_LOST = Word("the declarer took a trick, which loses a Null")
_TOUT_LOST = Word("a trick given away loses a Tout")
_BETTEL_LOST = Word("a trick taken loses a Bettel")
_BID_MADE = Word("the bid was made")
_BID_BEYOND = Word("the bid can no longer be made")
_DURCH_LOST = Word("a trick given away loses Durch")
_KIEKER_LOST = Word("a trick given away loses a Kieker")


def _ends_at_first(flag: int, why: Word) -> Callable[[list[int]], tuple[int, Word] | None]:
    """A deal that ends with the first trick the declaring side takes (`flag` 1) or gives away (0)."""
    def ends(taken: list[int]) -> tuple[int, Word] | None:
        return (taken.index(flag) + 1, why) if flag in taken else None
    return ends


def _fipsen_end(taken: list[int], bid: int, all_five: bool, why_all: Word) -> tuple[int, Word] | None:
    """Where a Fipsen deal ended (fipsen.ja.txt, プレイ):

        ビッドのトリック数だけトリックを取ることができたら、そこでディールは終了します。
        もし、オープニングリードから全てのトリックを取り続けて来ている場合は、プレイを終わらせずに続けても構いません。
        プレイを続けた場合、ドゥルヒの宣言をしたことになります。

    The deal ends with the trick that makes the bid, unless the declarer has won every trick from the opening
    lead and plays on, which is Durch. With Durch (said or played on), a bid of 5 or a Kieker every trick is
    needed, so the first trick given away ends it; a bid that can no longer be made ends it too. None while the
    deal goes on past the tricks given."""
    won = 0
    durch = all_five
    for played, flag in enumerate(taken, 1):
        won += flag
        if durch:
            if not flag:
                return played, why_all
            continue
        if won >= bid:
            # Made. Played on with every trick won from the lead: that is Durch, and the deal goes on.
            if won == played and played < len(taken):
                durch, why_all = True, _DURCH_LOST
                continue
            return played, _BID_MADE
        if bid - won > fipsen_rules.TRICKS - played:
            return played, _BID_BEYOND
    return None


# --- reading the cards -------------------------------------------------------------------------------------

def _card_list(value: object, field_: str, pack: frozenset[str]) -> list[str]:
    if not isinstance(value, list):
        raise IllegalDeal(field_, "must be a list of cards such as \"CJ\" or \"H10\", not {got}", got=describe(value))
    for i, card in enumerate(value):
        if type(card) is not str or card not in pack:
            raise IllegalDeal(f"{field_}.{i}", "is not a card of this game's pack: write suit (C, S, H, D) and "
                              "rank, e.g. \"CJ\", not {got}", got=describe(card))
    return value


def read_play(obj: object, ctx: Context, table: Table) -> Played:
    """Read ``deal.play`` against the pack and the seats, and check every card against the play rules.

    Refuses (`IllegalDeal`, field ``deal.play…``) what contradicts itself: a card twice, a trick of the
    wrong size, more tricks than the deal has, a hand of the wrong size, cards that do not make the
    pack. A card against the rules is no refusal: it is the dispute, named in `Played.broken`.
    """
    if not isinstance(obj, dict):
        raise IllegalDeal("deal.play", "must be an object with \"tricks\" (each trick's cards in the order "
                          "played), not {got}", got=describe(obj))
    for key in obj:
        if key not in _PLAY_KEYS or (key == "skat" and not ctx.has_skat):
            allowed = sorted(f'"{k}"' for k in _PLAY_KEYS if (k != "skat" or ctx.has_skat)
                             and (k != "trump" or not ctx.whole_pack))
            raise IllegalDeal(f"deal.play.{key}", "is not a field of the play; its fields are {allowed}",
                              allowed=Listing(allowed))
    if "trump" in obj and ctx.whole_pack:
        raise IllegalDeal("deal.play.trump", "is only for Fipsen: the contract names the trumps")
    rules = ctx.rules
    if not ctx.whole_pack:  # Fipsen: the trump suit is the declarer's word, not the contract's
        rules = _fipsen_trumps(obj, ctx)
    raw = obj.get("tricks")
    n = len(ctx.playing)
    if not isinstance(raw, list) or not raw and "hands" not in obj:
        raise IllegalDeal("deal.play.tricks", "must be a list of tricks, each a list of the {n} cards in the "
                          "order played, not {got}", n=n, got=describe(raw))
    if len(raw) > ctx.tricks:
        raise IllegalDeal(f"deal.play.tricks.{ctx.tricks}", "a deal has {count} tricks, not {got}",
                          count=ctx.tricks, got=len(raw))
    flat: list[str] = []
    for t, trick in enumerate(raw):
        if type(trick) is not list or len(trick) != n:
            raise IllegalDeal(f"deal.play.tricks.{t}", "a trick holds {n} cards, one from each player in the order "
                              "played, not {got}", n=n, got=describe(trick))
        flat += trick
    try:  # the usual case, checked in C: distinct cards of the pack
        in_tricks = set(flat)
        usual = len(in_tricks) == len(flat) and in_tricks <= ctx.pack
    except TypeError:  # a list or an object among the cards: named below
        usual = False
    if not usual:
        _name_bad_card(raw, ctx.pack)
    # Where each card not in a trick was seen: a seat's hand (-1 - seat) or the skat; named in words only
    # when a card turns up twice.
    seen: dict[str, int] = {}
    played: list[list[str]] = raw

    # Who played which card: the first leader, then each trick's winner leads the next. In the same pass:
    # what each seat holds (one card a trick, in trick order: `_hand_at`) and takes.
    rotations = _rotations(ctx.playing)
    pos = ctx.leader
    seats: list[tuple[int, ...]] = []
    winners: list[int] = []
    # Each trick's cards in the order of `ctx.playing` (the card of playing[i] is trick[(i - leader) % n]),
    # so that each seat's cards, one a trick in trick order, are a column.
    by_seat: list[list[str]] = []
    for trick, w in zip(played, map(rules.winner, played), strict=True):  # w: the winning card's position
        order = rotations[pos]
        seats.append(order)
        winners.append(order[w])
        by_seat.append(trick[n - pos:] + trick[:n - pos])
        pos = (pos + w) % n
    points = ctx.points
    trick_points = [sum(map(points.__getitem__, trick)) for trick in played]
    # Where the rules ended the deal (a Null's first trick taken, Fipsen's bid made, …): tricks played after
    # it are no part of the deal. They are read, shown and kept as evidence of what each player held (a suit
    # not followed before the end and shown after it is still a revoke), but they take nothing, break no
    # rule and settle no fact. Ignored rather than refused: the rules say the deal is over there, not that
    # the cards cannot be played out, and tables do play a hand out to see the cards — refusing would leave a
    # dispute over the cards that did count unscored (fipsen.ja.txt, プレイ: "そこでディールは終了します").
    end = ctx.ends([1 if winner in ctx.side else 0 for winner in winners]) if ctx.ends is not None else None
    counted = len(played) if end is None else end[0]
    taken_points = [0] * table.players
    taken_tricks = [0] * table.players
    for seat, pts in zip(winners[:counted], trick_points[:counted], strict=True):
        taken_points[seat] += pts
        taken_tricks[seat] += 1
    columns = zip(*by_seat, strict=True) if played else [[] for _ in ctx.playing]
    held: dict[int, list[str]] = {seat: list(cards) for seat, cards in zip(ctx.playing, columns, strict=True)}

    left = ctx.tricks - len(played)
    hands = obj.get("hands")
    remaining: dict[int, list[str]] = {}
    if hands is not None:
        if not isinstance(hands, dict):
            raise IllegalDeal("deal.play.hands", "must be an object of each seat's cards not played, such as "
                              "{{\"1\": [\"H7\"]}}, not {got}", got=describe(hands))
        for key, cards in hands.items():
            seat = int(key) if isinstance(key, str) and key.isdigit() else -1
            if seat not in held:
                raise IllegalDeal(f"deal.play.hands.{key}", "is not a seat that plays this deal; the seats are "
                                  "{seats}", seats=Seats(sorted(held)))
            path = f"deal.play.hands.{key}"
            _card_list(cards, path, ctx.pack)
            if len(cards) != left:
                raise IllegalDeal(path, "with {played} of the tricks played each player holds {left} cards, not {got}",
                                  played=len(played), left=left, got=len(cards))
            for i, card in enumerate(cards):
                if card in seen or card in in_tricks:
                    raise IllegalDeal(f"{path}.{i}", "{card} is also in {where}", card=card,
                                      where=_where(seen[card] if card in seen else _trick_of(card, raw)))
                seen[card] = -1 - seat
            remaining[seat] = cards

    skat: tuple[str, ...] = ()
    if ctx.has_skat and obj.get("skat") is not None:
        cards = _card_list(obj["skat"], "deal.play.skat", ctx.pack)
        if len(cards) != 2:
            raise IllegalDeal("deal.play.skat", "the skat is two cards, not {got}", got=len(cards))
        for i, card in enumerate(cards):
            if card in seen or card in in_tricks:
                raise IllegalDeal(f"deal.play.skat.{i}", "{card} is also in {where}", card=card,
                                  where=_where(seen[card] if card in seen else _trick_of(card, raw)))
            seen[card] = _SKAT
        skat = tuple(cards)

    complete = left == 0 or end is not None
    hands_known = left == 0 or len(remaining) == len(held)
    if left and not remaining and end is None:
        raise IllegalDeal("deal.play.hands", "play stopped after {played} of {count} tricks: give each "
                          "player's cards not played, or every trick", played=len(played), count=ctx.tricks)
    if left and remaining and len(remaining) != len(held):
        missing = sorted(set(held) - set(remaining))
        raise IllegalDeal(f"deal.play.hands.{missing[0]}", "is required: play stopped after {played} tricks, "
                          "so every player's {left} cards not played are needed", played=len(played), left=left)
    for seat, cards in remaining.items():
        held[seat].extend(cards)
    if ctx.has_skat and not skat and hands_known:
        skat = tuple(sorted(ctx.pack - in_tricks - seen.keys()))
    # No card can be missing now: every trick and hand has its size, every card is of the pack and distinct
    # (a card left out shows as a trick or hand of the wrong size), and Skat's skat is two cards.

    remaining_points = sum(points[card] for cards in remaining.values() for card in cards)
    out = Played(played, seats, winners, trick_points, held, hands_known, skat, complete, taken_points,
                 taken_tricks, remaining_points=remaining_points, counted=counted,
                 ended=end[1] if end is not None and counted < len(played) else None)
    out.broken = _first_break(out, ctx, rules)
    if not ctx.whole_pack:
        out.facts["trump"] = rules
    return out


_SKAT = -99


def _name_bad_card(raw: list[list[object]], pack: frozenset[str]) -> None:
    """Refuse the first card of the tricks that is no card of the pack or was played already."""
    seen: dict[object, int] = {}
    for t, trick in enumerate(raw):
        path = f"deal.play.tricks.{t}"
        _card_list(trick, path, pack)
        for i, card in enumerate(trick):
            if card in seen:
                raise IllegalDeal(f"{path}.{i}", "{card} was played already ({where})", card=card,
                                  where=_where(seen[card]))
            seen[card] = t


def _trick_of(card: str, raw: list[list[str]]) -> int:
    return next(t for t, trick in enumerate(raw) if card in trick)


def _where(seen: int) -> object:
    """Where a card was seen first, in words: a trick, a seat's hand, the skat."""
    if seen == _SKAT:
        return _THE_SKAT
    if seen < 0:
        return Phrase("{seat}'s hand", seat=Seat(-1 - seen))
    return Phrase("trick {n}", n=seen + 1)


_ROTATIONS: dict[tuple[int, ...], list[tuple[int, ...]]] = {}


def _rotations(playing: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The seats in play order from each position of `playing` (made once per seating)."""
    rotations = _ROTATIONS.get(playing)
    if rotations is None:
        n = len(playing)
        rotations = _ROTATIONS[playing] = [tuple(playing[(p + j) % n] for j in range(n)) for p in range(n)]
    return rotations


def _fipsen_trumps(obj: dict[str, Any], ctx: Context) -> tricks.TrickRules:
    trump = obj.get("trump")
    if trump not in ("C", "S", "H", "D"):
        raise IllegalDeal("deal.play.trump", "is required in Fipsen: the trump suit the declarer named, "
                          "\"C\", \"S\" or \"H\" (\"D\" with Ruten), not {got}", got=describe(trump))
    return _FIPSEN_RULES[trump]


_FIPSEN_RULES = {suit: tricks.fipsen(suit) for suit in SUITS}


def _first_break(p: Played, ctx: Context, rules: tricks.TrickRules) -> Break | None:
    """The first card that breaks a rule of play, trick by trick in the order the cards fell, among the tricks
    that are part of the deal (`Played.counted`).

    A seat that did not follow the class led held it when it plays one later (after the deal ended too) or
    still held one when play stopped: its cards after trick t (`Played.held`, one a trick in trick order, then
    the rest). Without the hands, a seat's cards not played are unknown, but the cards nobody played are
    known as a whole (the pack less the tricks and a skat given): where they hold fewer cards of other classes
    than each seat has left, every seat still holds one of that class (`_held_by_all`).
    """
    cls = rules.cls
    held = p.held
    called = rules.called
    holder = None
    if called is not None:
        holder = next((seat for seat, cards in p.held.items() if called in cards), None)
    searched = ran_away = False
    count = ctx.tricks
    key, trump_key = rules.key, tricks.TRUMP_KEY
    must_beat = rules.must_beat  # Kop: follow, else trump, and beat every card so far when able
    seats, cards_played = p.seats[:p.counted], p.tricks[:p.counted]
    in_every_hand = frozenset() if p.hands_known else _held_by_all(p, ctx, cls)
    if called is None and not must_beat:  # follow the suit led, nothing more (Skat, most Schafkopf, Fipsen)
        for t, (order, trick) in enumerate(zip(seats, cards_played, strict=True)):
            led = cls[trick[0]]
            for j in range(1, len(trick)):
                card = trick[j]
                if cls[card] != led and (led in in_every_hand or led in map(cls.__getitem__, held[order[j]][t + 1:])):
                    return Break(t, j, order[j], card, trick[0],
                                 tricks.FOLLOW_TRUMP if led == tricks.TRUMP else tricks.FOLLOW_SUIT)
        return None
    # Kop and a Sauspiel are never cut short by the rules, so their hands are always known here (every trick,
    # or `hands`): the duties below that look at a whole hand (`_hand_at`) see it all.
    for t, (order, trick) in enumerate(zip(seats, cards_played, strict=True)):
        led = cls[trick[0]]
        lead_card = trick[0]
        best_key = key[lead_card]
        if holder is not None and called is not None and not searched and not ran_away:
            hand = _hand_at(p, holder, t)
            if order[0] == holder and led == called[0] and lead_card != called and called in hand:
                if sum(1 for c in hand if cls[c] == called[0]) >= 4:
                    ran_away = True
                else:
                    return Break(t, 0, holder, lead_card, lead_card, tricks.SAU_MUST_LEAD)
        for j in range(1, len(trick)):
            seat, card = order[j], trick[j]
            c = cls[card]
            if c != led and led in map(cls.__getitem__, held[seat][t + 1:]):
                return Break(t, j, seat, card, lead_card,
                             tricks.FOLLOW_TRUMP if led == tricks.TRUMP else tricks.FOLLOW_SUIT)
            if must_beat:
                k = key[card]
                beats = k > best_key and (k >= trump_key or c == led)
                # A card of the class led (or a trump on a void) that beats the trick is always right.
                if not beats or (c != led and c != tricks.TRUMP):
                    hand = _hand_at(p, seat, t)
                    allowed = [x for x in hand if cls[x] == led]
                    if not allowed:
                        trumps = [x for x in hand if cls[x] == tricks.TRUMP]
                        if trumps and c != tricks.TRUMP:
                            return Break(t, j, seat, card, lead_card, tricks.KOP_MUST_TRUMP)
                        allowed = trumps or hand
                    if not beats and any(key[x] > best_key and (key[x] >= trump_key or cls[x] == led)
                                         for x in allowed):
                        return Break(t, j, seat, card, lead_card, tricks.KOP_MUST_BEAT)
                if beats:
                    best_key = k
            if called is not None and seat == holder and not searched and not ran_away:
                if led == called[0] and card != called:
                    return Break(t, j, seat, card, lead_card, tricks.SAU_MUST_FALL)
                if card == called and led != called[0] and t < count - 1:
                    return Break(t, j, seat, card, lead_card, tricks.SAU_THROWN_OFF)
        if called is not None and led == called[0]:
            searched = True
    return None


def _held_by_all(p: Played, ctx: Context, cls: dict[str, str]) -> frozenset[str]:
    """Without the hands: the classes (a suit, or the trumps) every seat still holds a card of when play
    stopped, as the cards nobody played prove. Those cards are the pack less the tricks (and a skat given);
    each seat holds as many of them as tricks are left, the rest lie aside (Skat's skat, Fipsen's cards not
    dealt or put away). A class of which fewer other cards are unplayed than a seat holds is in every hand."""
    left = ctx.tricks - len(p.tricks)
    if left <= 0:
        return frozenset()
    unplayed = ctx.pack.difference(card for trick in p.tricks for card in trick).difference(p.skat)
    per_class: dict[str, int] = {}
    for card in unplayed:
        per_class[cls[card]] = per_class.get(cls[card], 0) + 1
    return frozenset(c for c, n in per_class.items() if len(unplayed) - n < left)


def _hand_at(p: Played, seat: int, t: int) -> list[str]:
    """The cards `seat` held before trick `t`: those it played from `t` on and those never played."""
    return p.held[seat][t:]


# --- the verdict ---------------------------------------------------------------------------------------

_FACT_WORDS: dict[str, Word] = {
    "card_points": Word("entered {entered} card points; the tricks hold {cards}"),
    "declarer_tricks": Word("entered {entered} tricks for the declaring side; the tricks give {cards}"),
    "old_tricks": Word("entered {entered} tricks for the old side; the tricks give {cards}"),
    "tricks_taken": Word("entered {entered} tricks taken; the tricks give {cards}"),
    "matadors": Word("entered matadors {entered}; the cards give {cards}"),
    "laufende": Word("entered {entered} Laufende; the cards give {cards}"),
    "partner": Word("entered the partner {entered}; the called Sau was held by {cards}"),
    "points": Word("entered card points {entered}; the tricks give {cards}"),
    "tricks": Word("entered tricks {entered}; the tricks give {cards}"),
    "durch": Word("entered no Durch; play went on after the bid was made, which is Durch"),  # derived only as true
}


def _derive(game: str, facts: dict[str, Any], p: Played, ctx: Context, rules: Any, table: Table
            ) -> dict[str, Any]:
    """The facts the cards settle, by the contract's field names."""
    contract = facts["contract"]
    side = ctx.side
    side_points = sum(map(p.taken_points.__getitem__, side))
    side_tricks = sum(map(p.taken_tricks.__getitem__, side))
    out: dict[str, Any] = {}
    if game == "skat":
        if contract == "ramsch":
            pts = list(p.taken_points)
            if p.skat:
                last_winner = p.winners[-1] if rules.ramsch_skat == "last_trick" else pts.index(max(pts))
                pts[last_winner] += sum(map(ctx.points.__getitem__, p.skat))
            return {"points": pts, "tricks": list(p.taken_tricks)}
        out["declarer_tricks"] = side_tricks
        if contract != "null":
            out["card_points"] = side_points + sum(map(ctx.points.__getitem__, p.skat))
            if p.hands_known:
                (declarer,) = side
                trump_contract = skat_rules.Contract(contract)
                out["matadors"] = skat_rules.matadors_from_cards(
                    tuple(p.held[declarer]) + tuple(p.skat), trump_contract)  # type: ignore[arg-type]
        return out
    if game == "schafkopf":
        if contract == "ramsch":
            return {"points": list(p.taken_points), "tricks": list(p.taken_tricks)}
        out["card_points"] = side_points
        out["declarer_tricks"] = side_tricks
        if contract != "bettel" and p.hands_known:
            out["laufende"] = _laufende(p, ctx)
        return out
    if game == "kop":
        return {"card_points": side_points, "old_tricks": side_tricks}
    out["tricks_taken"] = side_tricks
    bid = facts.get("bid")
    # Play went on after the bid was made with every trick won from the opening lead: that is Durch
    # (fipsen.ja.txt, プレイ). Going on after a trick given away is not: the deal ended with the bid made, and
    # the tricks after it are no part of it (`_fipsen_end`).
    if contract == "tricks" and type(bid) is int and bid < 5 and p.counted > bid \
            and all(winner in side for winner in p.winners[:bid]):
        out["durch"] = True
    return out


def _laufende(p: Played, ctx: Context) -> int:
    """Schafkopf's Laufende: the top trumps held in unbroken order by one side (either side)."""
    trumps = ctx.rules.trumps
    declaring = {card for seat in ctx.side for card in p.held[seat]}
    top = trumps[0] in declaring
    run = 0
    for card in trumps:
        if (card in declaring) != top:
            break
        run += 1
    return run


def _partner(p: Played, ctx: Context) -> int:
    called = ctx.rules.called
    return next(seat for seat, cards in p.held.items() if called in cards)


def _verdict(module: Game, game: str, facts: dict[str, Any], p: Played, ctx: Context, rules: Any,
             table: Table) -> Verdict:
    say, said = explanation()
    contract = facts["contract"]
    disagreements: list[dict[str, Any]] = []
    scored = dict(facts)
    side = ctx.side
    if ctx.rules.called is not None:  # a Sauspiel: the partner is whoever held the called Sau
        partner = _partner(p, ctx)  # every card is known in a Sauspiel's play (its tricks and hands)
        if partner in side:
            raise IllegalDeal("deal.called_ace", "the declarer holds the called Sau ({card}) himself, and a Sau "
                              "held cannot be called", card=ctx.rules.called)
        _check_entered("partner", facts.get("partner"))
        if facts.get("partner") is not None and facts["partner"] != partner:
            disagreements.append({"field": "deal.partner", "entered": facts["partner"], "cards": partner})
        scored["partner"] = partner
        side = side | {partner}
        ctx = Context(ctx.rules, ctx.playing, ctx.leader, side, ctx.tricks, ctx.pack, ctx.points)
    if game == "kop":
        _check_old(contract, facts["old"], p)
    if game == "fipsen":
        _check_fipsen_ruten(facts, p)
    derived: dict[str, Any] = {}
    if p.complete:
        derived = _derive(game, facts, p, ctx, rules, table)
        for key, value in derived.items():
            entered = facts.get(key)
            _check_entered(key, entered)
            if key == "matadors" and facts.get("cards") is not None:
                scored.pop("cards", None)
            if entered is not None and entered != value:
                disagreements.append({"field": f"deal.{key}", "entered": entered, "cards": value})
            scored[key] = value
    else:
        _check_claim(game, facts, p, ctx)
        if p.hands_known and game in ("skat", "schafkopf"):
            derived = {k: v for k, v in _derive(game, facts, p, ctx, rules, table).items()
                       if k in ("matadors", "laufende")}
            for key, value in derived.items():
                entered = facts.get(key)
                _check_entered(key, entered)
                if entered is not None and entered != value:
                    disagreements.append({"field": f"deal.{key}", "entered": entered, "cards": value})
                scored[key] = value
    if "matadors" in scored and facts.get("cards") is not None and "matadors" in derived:
        scored.pop("cards", None)

    _say_tricks(say, p, ctx)
    for d in disagreements:
        key = d["field"].removeprefix("deal.")
        shown = Seat if key == "partner" else _shown
        say(_FACT_WORDS[key], entered=shown(d["entered"]), cards=shown(d["cards"]))
    play_json: dict[str, Any] = {
        "tricks": _tricks_json(p, ctx.side),
        "complete": p.complete,
        "taken": {"card_points": p.taken_points, "tricks": p.taken_tricks},
        "derived": derived,
        "disagreements": disagreements,
        "break": None,
        "counted": p.counted,
        "hands_known": p.hands_known,
    }
    if p.skat:
        play_json["skat"] = list(p.skat)
    if ctx.side:
        play_json["declaring_side"] = sorted(ctx.side)

    broken = p.broken
    if broken is None:
        # Every card follows the rules only where every card each player held is known (every trick, or the
        # hands): without them, a card not followed shows only where the player plays that suit later.
        say(_LEGAL if p.hands_known else _UNSEEN)
        return _with_play(module.score(module.parse_deal(scored, rules, table), rules, table), said, play_json)

    offender_declares = broken.seat in ctx.side if ctx.side else None
    # The deal scored as the cards fell: shown beside the forced result where the rules do not say what a
    # broken rule costs (and scored alone in a Ramsch); Skat's ISkO scores only the forced result.
    as_played: Verdict | None = None
    if p.complete and (game != "skat" or offender_declares is None):
        as_played = module.score(module.parse_deal(scored, rules, table), rules, table)
    play_json["break"] = broken.to_json(offender_declares)
    if broken.position == 0:
        say(_BROKE_LEAD, trick=broken.trick + 1, seat=Seat(broken.seat),
            card=CARD_WORDS[broken.card], rule=broken.rule)
    else:
        say(_BROKE_ON, trick=broken.trick + 1,
            seat=Seat(broken.seat), card=CARD_WORDS[broken.card], led=CARD_WORDS[broken.led], rule=broken.rule)
    forced = _forced(game, contract, scored, rules, not offender_declares) if offender_declares is not None \
        else None
    if forced is None:  # a Ramsch: no side to lose the game
        say("{why}: scored as the cards fell", why=_UNSAID)
        if as_played is None:
            raise IllegalDeal("deal.play.hands", "the play breaks a rule and stops before the end: give every "
                              "trick to score it as the cards fell")
        return _with_play(as_played, said, play_json)
    verdict = module.score(module.parse_deal(forced, rules, table), rules, table)
    outcome = _WON[not offender_declares]
    if game == "skat":
        say("{why}: {side} broke it, so the declarer {outcome}", why=_ISKO, side=SIDES[bool(offender_declares)],
            outcome=outcome)
    else:
        say("{why}: scored first as the offending side losing ({side} broke it, so the declaring side {outcome})",
            why=_UNSAID, side=SIDES[bool(offender_declares)], outcome=outcome)
        if as_played is not None:
            say("As the cards fell instead: the declaring side {outcome}, value {value}, scores {scores}",
                outcome=_WON[bool(as_played.won)], value=as_played.value,
                scores=Listing([signed(n) for n in as_played.scores], last=None))
            play_json["as_played"] = as_played.to_json()
        else:
            say("The play stopped at the broken rule: there is no scoring as the cards fell")
            play_json["as_played"] = None
    play_json["scored"] = {k: v for k, v in forced.items() if k in ("card_points", "declarer_tricks",
                                                                     "old_tricks", "tricks_taken")}
    return _with_play(verdict, said, play_json)


def _tricks_json(p: Played, side: frozenset[int]) -> list[dict[str, Any]]:
    """Each trick as the verdict shows it; with a declaring side, the card points each side has taken so
    far (`running`, the skat not included; a trick played after the deal ended adds nothing) for a
    trick-by-trick replay."""
    if not side:
        return [{"leader": order[0], "seats": list(order), "cards": trick, "winner": winner, "points": points}
                for order, trick, winner, points in zip(p.seats, p.tricks, p.winners, p.trick_points, strict=True)]
    out = []
    declaring = defending = 0
    for t, (order, trick, winner, points) in enumerate(zip(p.seats, p.tricks, p.winners, p.trick_points,
                                                           strict=True)):
        if t >= p.counted:  # played after the deal ended: it takes nothing
            pass
        elif winner in side:
            declaring += points
        else:
            defending += points
        out.append({"leader": order[0], "seats": list(order), "cards": trick, "winner": winner, "points": points,
                    "running": {"declaring": declaring, "defending": defending}})
    return out


def _check_entered(key: str, entered: object) -> None:
    """An entered fact the cards also give is compared with them, so it must at least be of its kind: a
    whole number (a seat, points, tricks, matadors), per seat a list of them, Durch true or false."""
    if entered is None:
        return
    if key in ("points", "tricks"):
        if not isinstance(entered, list) or not all(type(n) is int for n in entered):
            raise IllegalDeal(f"deal.{key}", "must be a list of whole numbers, one a seat, not {got}",
                              got=describe(entered))
    elif key == "durch":
        if type(entered) is not bool:
            raise IllegalDeal("deal.durch", "must be true or false, not {got}", got=describe(entered))
    elif type(entered) is not int:
        raise IllegalDeal(f"deal.{key}", "must be a whole number, not {got}", got=describe(entered))


def _shown(value: object) -> object:
    if isinstance(value, list):
        return Listing([_shown(v) for v in value], last=None)
    if value is True:
        return "true"
    if type(value) is int:
        return minus(value)  # "−7", not "-7"
    return value


def _with_play(verdict: Verdict, said: list[Step], play_json: dict[str, Any]) -> Verdict:
    steps: tuple[Step, ...] = tuple(said) + verdict.steps
    return Verdict(verdict.game, verdict.rules, verdict.won, verdict.value, verdict.scores, steps,
                   {**verdict.extra, "play": play_json})


_TRICKS_PLAYED = counted("The cards: {n} trick played", "The cards: {n} tricks played", "n")
# Where the rules ended the deal before the tricks given ran out (`Played.ended`).
_AFTER_END = Word("The deal ended with trick {n} ({why}): the cards played after it do not count")


def _say_tricks(say: Explanation, p: Played, ctx: Context) -> None:
    """The tricks in short: how many were played and what each side took."""
    if ctx.side and ctx.points is _NO_POINTS:  # Fipsen counts tricks, never card points
        say("The cards: {n} tricks played; {side} took {tricks} of them", n=len(p.tricks),
            side=Seats(sorted(ctx.side)), tricks=sum(map(p.taken_tricks.__getitem__, ctx.side)))
    elif ctx.side:
        side_points = sum(map(p.taken_points.__getitem__, ctx.side))
        side_tricks = sum(map(p.taken_tricks.__getitem__, ctx.side))
        say("The cards: {n} tricks played; {side} took {tricks} with {points} card points in tricks",
            n=len(p.tricks), side=Seats(sorted(ctx.side)), tricks=side_tricks, points=side_points)
    else:
        say(_TRICKS_PLAYED, n=len(p.tricks))
    if p.skat and ctx.side:
        say("The skat {cards} holds {points} card points and counts for the declarer",
            cards=Listing([CARD_WORDS[card] for card in p.skat]), points=sum(map(ctx.points.__getitem__, p.skat)))
    if p.ended is not None:
        say(_AFTER_END, n=p.counted, why=p.ended)


def _check_claim(game: str, facts: dict[str, Any], p: Played, ctx: Context) -> None:
    """Play stopped before the end (conceded, claimed): the entered facts must fit the tricks played and
    the cards still in hand."""
    side_points = sum(map(p.taken_points.__getitem__, ctx.side))
    side_tricks = sum(map(p.taken_tricks.__getitem__, ctx.side))
    left = ctx.tricks - len(p.tricks)
    checks: list[tuple[str, int, int]] = []
    if game == "skat":
        skat_points = sum(map(ctx.points.__getitem__, p.skat))
        checks = [("card_points", side_points + skat_points, side_points + skat_points + p.remaining_points),
                  ("declarer_tricks", side_tricks, side_tricks + left)]
    elif game == "schafkopf":
        checks = [("card_points", side_points, side_points + p.remaining_points),
                  ("declarer_tricks", side_tricks, side_tricks + left)]
    elif game == "kop":
        checks = [("card_points", side_points, side_points + p.remaining_points),
                  ("old_tricks", side_tricks, side_tricks + left)]
    else:
        checks = [("tricks_taken", side_tricks, side_tricks + left)]
    for key, lo, hi in checks:
        value = facts.get(key)
        if type(value) is int and not lo <= value <= hi:
            raise IllegalDeal(f"deal.{key}", "entered {entered}, but the tricks played and the cards still held "
                              "allow only {lo} … {hi}", entered=value, lo=lo, hi=hi)


def _check_old(contract: str, old: list[int], p: Played) -> None:
    """Kop's old side follows from the cards in the games where the cards name it (kop.ja.txt, パートナー)."""
    if not p.hands_known:
        return
    holder = {card: seat for seat, cards in p.held.items() for card in cards}
    black = sorted({holder["CQ"], holder["SQ"]})
    if contract == "normal" and sorted(old) != black:
        raise IllegalDeal("deal.old", "the old side holds the two black queens: {seats} by the cards, not "
                          "{given}", seats=Seats(black), given=Seats(sorted(old)))
    if contract in ("cicha", "wesele") and len(black) != 1:
        raise IllegalDeal("deal.old", "one player holds both black queens in a {contract}; by the cards "
                          "{seats} hold them", contract=contract, seats=Seats(black))
    if contract == "cicha" and list(old) != black:
        raise IllegalDeal("deal.old", "the lone player of a cicha holds both black queens: {seat} by the cards",
                          seat=Seat(black[0]))
    if contract == "wesele":
        wesele = black[0]
        jack = next(j for j in ("CJ", "SJ", "HJ", "DJ") if holder[j] != wesele)
        expected = sorted({wesele, holder[jack]})
        if sorted(old) != expected:
            raise IllegalDeal("deal.old", "in a wesele the old side is the holder of both black queens and the "
                              "holder of the highest jack he lacks ({jack}): {seats} by the cards",
                              jack=jack, seats=Seats(expected))


def _check_fipsen_ruten(facts: dict[str, Any], p: Played) -> None:
    trump = p.facts.get("trump")
    is_ruten = trump is _FIPSEN_RULES["D"]
    if facts.get("ruten") is True and not is_ruten:
        raise IllegalDeal("deal.play.trump", "with Ruten the trump is the ♦7 alone: write \"D\"")
    if facts.get("ruten") is not True and is_ruten:
        raise IllegalDeal("deal.play.trump", "naming diamonds trump is Ruten: set ruten too")


def _forced(game: str, contract: str, facts: dict[str, Any], rules: Any, declarer_wins: bool
            ) -> dict[str, Any] | None:
    """The deal's facts with the result set by a broken rule: the offending side loses the game.

    Only the result is set (the fewest card points or tricks that win or lose it); everything the cards
    settle that does not depend on the result (matadors, Laufende) stays as counted.
    """
    out = dict(facts)
    for key in ("card_points", "declarer_tricks", "old_tricks", "tricks_taken"):
        out.pop(key, None)
    if contract == "ramsch":
        return None
    if game == "skat":
        if contract == "null":
            out["declarer_tricks"] = 0 if declarer_wins else 1
            return out
        if not declarer_wins:
            out["card_points"] = 60
        elif facts.get("announced") == "schwarz" or (facts.get("ouvert") and rules.ouvert == "isko"):
            out["card_points"], out["declarer_tricks"] = 120, 10
        else:
            out["card_points"] = 90 if facts.get("announced") == "schneider" else 61
        return out
    if game == "schafkopf":
        if contract.endswith("_tout"):
            out["declarer_tricks"] = 8 if declarer_wins else 7
        elif contract == "bettel":
            out["declarer_tricks"] = 0 if declarer_wins else 1
        else:
            out["card_points"] = 61 if declarer_wins else 60
        return out
    if game == "kop":
        points = (104 if contract == "zolo_du" else 53) if declarer_wins else 51
        out["card_points"] = points
        if kop_rules.tricks_required(kop_rules.Contract(contract), rules):
            out["old_tricks"] = kop_rules.tricks_for(points)[-1 if declarer_wins else 0]
        return out
    all_five = contract == "kieker" or facts.get("bid") == 5 or facts.get("durch") is True
    need = fipsen_rules.TRICKS if all_five else int(facts.get("bid") or fipsen_rules.TRICKS)
    out["tricks_taken"] = need if declarer_wins else need - 1
    return out
