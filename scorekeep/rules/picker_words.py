"""How a card-counting picker (a card night's "count by tapping the cards") writes a card in short: the suit's
sign and the rank as the game's table writes it — a Schafkopf table's Ober and Unter are O and U, as the play
picker on the same page names them in full (`play.pack_layout`); the other games write the French Q and J."""

from .explain import Word

# Ranks a game's table writes otherwise than the contract's letters (A 10 K Q J 9 8 7).
_SHORT_RANKS: dict[str, dict[str, Word]] = {
    "schafkopf": {"Q": Word("O"), "J": Word("U")},
}


def short_rank(game: str, rank: str) -> str:
    """The rank of a card as `game`'s table writes it in short: a `Word` to translate, or the letter itself."""
    return _SHORT_RANKS.get(game, {}).get(rank, rank)
