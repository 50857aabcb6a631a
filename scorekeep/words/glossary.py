"""The games' vocabulary, as players say it, for the glossary pages (one per game and language).

Each game's terms are the engine's (`GLOSSARY` of each game module, scorekeep/rules/glossary.py). Each
term is one message id — the very string the forms, the ledger and the engine's explanations use
("Hand", "Schneider", "Kontra" …) — so a term is translated once and reads the same everywhere: German
players see the German word, Japanese players the katakana their clubs use (ハンド, シュナイダー …). The
original word stays beside the translation, so a player who learned the game from German rules finds it.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeep.rules import GAMES
from scorekeep.rules.glossary import Term
from scorekeep.words.labels import in_game, translated


@dataclass(frozen=True, slots=True)
class Glossary:
    """One game's terms and the language its players' own words are in (the page marks them with it)."""

    language: str
    terms: tuple[Term, ...]

    def in_words_of(self, game: str) -> list[tuple[str, str, str]]:
        """Each term as a page of `game` writes it in the page's language, the original, and the meaning."""
        return [(in_game(term.term, game), term.original, str(translated(term.meaning))) for term in self.terms]


GAMES_GLOSSARY: dict[str, Glossary] = {
    game: Glossary(module.ORIGINAL_LANGUAGE, module.GLOSSARY) for game, module in GAMES.items()}
