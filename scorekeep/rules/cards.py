"""Cards as the contract writes them: suit letter + rank, e.g. ``CJ``, ``H10``, ``D7``.

Suits C S H D are clubs/Eichel, spades/Gras(Laub), hearts/Herz, diamonds/Schellen; in the
German pack A 10 K Q J are Sau/Ass, Zehn, König, Ober, Unter.
"""

from collections.abc import Iterable

from .errors import IllegalDeal
from .explain import OR, Listing, Word
from .fields import describe, names

SUITS = ("C", "S", "H", "D")
RANKS = ("A", "10", "K", "Q", "J", "9", "8", "7")
SUIT_NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}

# A card as players write it in a line (the explanation's words; the contract's JSON keeps the code): the suit's
# sign and the rank, "♣A", "♥10". A page writes it in its language and in the game's pack (scorekeep/words/
# game_words.py gives Schafkopf its own): "Kreuz-Ass", "Eichel-Sau", "クラブのA".
_SIGNS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
CARD_WORDS: dict[str, Word] = {suit + rank: Word(_SIGNS[suit] + rank) for suit in SUITS for rank in RANKS}
"""Each card's `Word`, by its code."""

# Card points in the 32-card pack (RULES.md): A 11, 10 10, K 4, Q 3, J 2, 9/8/7 0 — 120 in all.
CARD_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}



class Card(str):
    """One card as the contract writes it — its suit letter and rank, ``"CJ"``, ``"H10"`` — and as
    text it stays exactly that (JSON, messages, sets of cards); `suit`, `rank` and `points` read it."""

    __slots__ = ()

    @property
    def suit(self) -> str:
        return self[0]

    @property
    def rank(self) -> str:
        return self[1:]

    @property
    def points(self) -> int:
        """Its card points in the 32-card pack (Kop's pack has its own: `kop.CARD_POINTS`)."""
        return CARD_POINTS[self.rank]


ALL_CARDS = frozenset(Card(s + r) for s in SUITS for r in RANKS)
_MADE = {card: card for card in ALL_CARDS}
FULL_PACK = tuple((Card(s + r), CARD_POINTS[r]) for s in SUITS for r in RANKS)
"""The 32 cards of Skat and Schafkopf with their card points, suit by suit, high to low."""


def parse_cards(value: object, field: str, count: int | tuple[int, ...],
                pack: frozenset[str] = ALL_CARDS) -> tuple[Card, ...]:
    """A list of `count` distinct cards from `pack` (a count, or the counts allowed), as the
    contract writes cards."""
    counts = (count,) if isinstance(count, int) else count
    if type(value) is list and len(value) in counts:
        # The usual list, checked in C: distinct cards of the pack (only texts equal a card); for anything
        # else the loop below names the first card at fault.
        try:
            held = set(value)
        except TypeError:  # a list or an object among the cards
            held = set()
        if len(held) == len(value) and held <= pack:
            if held <= ALL_CARDS:  # every pack's cards are the 32-card pack's: each made once, looked up in C
                return tuple(map(_MADE.__getitem__, value))
            return tuple(map(Card, value))
    if not isinstance(value, list) or len(value) not in counts:
        raise IllegalDeal(field, "must be a list of {n} cards such as \"CJ\" or \"H10\", not {got}",
                          n=Listing(counts, OR), got=describe(value))
    seen: set[str] = set()
    for i, card in enumerate(value):
        if type(card) is not str or card not in pack:
            ranks = names(rank for rank in RANKS if any(c[1:] == rank for c in pack))
            raise IllegalDeal(f"{field}.{i}", "is not a card of this pack: write suit (C, S, H, D) and rank "
                              "({ranks}), e.g. \"CJ\", not {got}", ranks=ranks, got=describe(card))
        if card in seen:
            raise IllegalDeal(f"{field}.{i}", "{card} is listed twice", card=card)
        seen.add(card)
    return tuple(Card(card) for card in value)


def totals_by_count(card_points: Iterable[int]) -> tuple[frozenset[int], ...]:
    """Index n: every card-point total that n cards of a pack (given by their points) can add up to.

    The engines check entered card points against it: 119 of 120 cannot be (no card is worth 1),
    nor can one Schafkopf trick hold 50 (four cards are worth 44 at most).
    """
    values = list(card_points)
    by_count: list[set[int]] = [{0}] + [set() for _ in values]
    for value in values:
        for n in range(len(values) - 1, -1, -1):
            by_count[n + 1].update(total + value for total in by_count[n])
    return tuple(frozenset(totals) for totals in by_count)


TOTALS_BY_COUNT = totals_by_count(CARD_POINTS[card[1:]] for card in ALL_CARDS)
"""The 32-card pack's totals by number of cards: Skat and Schafkopf."""


def points(cards: Iterable[Card]) -> int:
    """The card points of `cards` in the 32-card pack."""
    return sum(card.points for card in cards)

# The French pack's red suits: a page prints these signs in red, as the cards are (Skat's ♥ and ♦ games).
RED_SIGNS: frozenset[str] = frozenset({"♥", "♦"})
