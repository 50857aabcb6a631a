"""How a trick is played in each game: what is trump and in which order, what must be followed, what
wins a trick, and the words each game's rule pages use for the rules a card can break.

The rules come from the seed rule pages (../shared/seeds) and RULES.md:
- Skat (skat.ja.txt, "プレイ"): follow the suit led; the four jacks belong to the trumps, not to
  their printed suit; void, any card. Null has no trumps and ranks A K Q J 10 9 8 7.
- Schafkopf (schafkopf.ja.txt): must follow; Ober and Unter are trumps above the trump suit (hearts
  unless a Solo names another); in a Sauspiel the called Sau must be played when its suit is led and,
  leading that suit, its holder leads the Sau unless he holds three more cards of it (Davonlaufen);
  it may not be thrown off on another suit (the Bavarian rule every table plays: "Die Rufsau darf
  nicht geschmiert werden").
- Kop (kop.ja.txt, "プレイ"): follow the suit led; void, trump; neither, any card; and within that,
  a card stronger than every card so far must be played when held. The trumps' order is the rule
  set's `trump_order`.
- Fipsen (fipsen.ja.txt): ranks A K Q J 10 9 8 7, the declarer names the trump suit (Ruten: the one
  diamond, ♦7), plain must-follow.
"""

from dataclasses import dataclass, field
from functools import cache

from .explain import Word

TRUMP_KEY = 1000
TRUMP = "T"
"""The class of every trump card: a trump is followed by a trump, whatever its printed suit."""

# The plain suits' ranks from the highest down, per game.
SKAT_PLAIN = ("A", "10", "K", "Q", "9", "8", "7")
NULL_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7")
SCHAFKOPF_RANKS = ("A", "10", "K", "Q", "J", "9", "8", "7")
FIPSEN_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7")

# The rules a card can break, as each game's rule page says them (message ids: the pages translate them).
FOLLOW_SUIT = Word("must follow the suit led")
FOLLOW_TRUMP = Word("must follow trumps when a trump is led")
KOP_MUST_TRUMP = Word("void in the suit led, must play a trump")
KOP_MUST_BEAT = Word("must play a card stronger than every card so far when holding one")
SAU_MUST_FALL = Word("the called Sau must be played when its suit is led")
SAU_MUST_LEAD = Word("leading the called suit, its holder must lead the Sau unless he holds four or more "
                     "of the suit (running away)")
SAU_THROWN_OFF = Word("the called Sau may not be thrown off on another suit")


@dataclass(frozen=True, slots=True)
class TrickRules:
    """One contract's trick play: each card's class (`TRUMP` or its suit) and power (higher wins).

    `must_trump` and `must_beat` are Kop's extra duties; `called` is a Sauspiel's called Sau.
    """

    cls: dict[str, str]
    power: dict[str, int]
    must_trump: bool = False
    must_beat: bool = False
    called: str | None = None
    key: dict[str, int] = field(default_factory=dict)  # power, trumps above `TRUMP_KEY`: for `winner`

    trumps: list[str] = field(default_factory=list)  # the trumps from the highest down

    def __post_init__(self) -> None:
        self.key.update({card: p + (TRUMP_KEY if self.cls[card] == TRUMP else 0) for card, p in self.power.items()})
        self.trumps.extend(sorted((c for c in self.cls if self.cls[c] == TRUMP), key=lambda c: -self.power[c]))

    def winner(self, trick: list[str] | tuple[str, ...]) -> int:
        """The position in `trick` (in play order) of the card that takes it: the highest trump, or
        with no trump the highest card of the suit led."""
        key, cls = self.key, self.cls
        led = cls[trick[0]]
        best, best_key = 0, key[trick[0]]
        for i in range(1, len(trick)):
            card = trick[i]
            k = key[card]
            # A trump's key is above every plain card's: a plain card wins only over its own suit led.
            if k > best_key and (k >= TRUMP_KEY or cls[card] == led):
                best, best_key = i, k
        return best

    def beats(self, card: str, trick: list[str] | tuple[str, ...]) -> bool:
        """Whether `card` would be stronger than every card of `trick` so far."""
        best = trick[self.winner(trick)]
        cls, power = self.cls, self.power
        if cls[card] == TRUMP:
            return cls[best] != TRUMP or power[card] > power[best]
        return cls[best] != TRUMP and cls[card] == cls[trick[0]] and power[card] > power[best]


def ranked(trumps: tuple[str, ...], plain_ranks: tuple[str, ...], suits: tuple[str, ...] = ("C", "S", "H", "D"),
           called: str | None = None, must_trump: bool = False, must_beat: bool = False) -> TrickRules:
    """Trick rules from the trumps (highest first) and the plain suits' ranks (highest first); every
    card of `suits` × `plain_ranks` that is no trump is a plain card of its suit."""
    cls: dict[str, str] = {}
    power: dict[str, int] = {}
    for i, card in enumerate(trumps):
        cls[card], power[card] = TRUMP, 100 - i
    for suit in suits:
        for i, rank in enumerate(plain_ranks):
            card = suit + rank
            if card not in cls:
                cls[card], power[card] = suit, 50 - i
    return TrickRules(cls, power, must_trump, must_beat, called)


_JACKS = ("CJ", "SJ", "HJ", "DJ")
_OBER = ("CQ", "SQ", "HQ", "DQ")


@cache
def skat(contract: str) -> TrickRules:
    """Skat (ISkO 2.2): the jacks CJ SJ HJ DJ, then in a suit game its A 10 K Q 9 8 7; grand and Ramsch
    the jacks alone; Null no trumps, A K Q J 10 9 8 7."""
    if contract == "null":
        return ranked((), NULL_RANKS)
    if contract in ("grand", "ramsch"):
        return ranked(_JACKS, SKAT_PLAIN)
    suit = contract[0].upper()
    return ranked(_JACKS + tuple(suit + rank for rank in SKAT_PLAIN), SKAT_PLAIN)


@cache
def schafkopf(contract: str, trump: str | None, called: str | None) -> TrickRules:
    """Schafkopf: Ober and Unter over the trump suit (hearts unless named); Wenz the Unter alone (Farbwenz
    with a suit), Geier the Ober alone; Bettel no trumps. Plain suits run A 10 K (O U) 9 8 7."""
    base = contract.removesuffix("_tout")
    suit_cards = ("A", "10", "K", "9", "8", "7")
    if base == "bettel":
        return ranked((), SCHAFKOPF_RANKS)
    if base == "wenz":
        return ranked(_JACKS, ("A", "10", "K", "Q", "9", "8", "7"))
    if base == "farbwenz":
        assert trump is not None
        return ranked(_JACKS + tuple(trump + r for r in ("A", "10", "K", "Q", "9", "8", "7")),
                      ("A", "10", "K", "Q", "9", "8", "7"))
    if base == "geier":
        return ranked(_OBER, ("A", "10", "K", "J", "9", "8", "7"))
    suit = trump if base == "solo" and trump else "H"
    return ranked(_OBER + _JACKS + tuple(suit + r for r in suit_cards), suit_cards, called=called)


@cache
def kop(trump_order: tuple[str, ...]) -> TrickRules:
    """Kop: the rule set's trump order; the other cards (clubs and spades) run A 10. Follow, else trump,
    and beat every card so far when able (kop.ja.txt, プレイ 1–4)."""
    return ranked(trump_order, ("A", "10", "Q", "J"), must_trump=True, must_beat=True)


@cache
def fipsen(trump: str) -> TrickRules:
    """Fipsen: A K Q J 10 9 8 7 in every suit, the declarer's suit trump (Ruten: the ♦7 alone)."""
    order = FIPSEN_RANKS if trump != "D" else ("7",)
    return ranked(tuple(trump + r for r in order), FIPSEN_RANKS)
