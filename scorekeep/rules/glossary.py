"""The words a game's players use, as the glossary pages list them: each term, the word its home region
writes (never translated), and what it means. Each game module has its `GLOSSARY` and the language its
original words are in (`ORIGINAL_LANGUAGE`, a BCP 47 tag a page marks them with)."""

from dataclasses import dataclass

from .explain import Word


@dataclass(frozen=True, slots=True)
class Term:
    original: str  # the word as the game's home region writes it, never translated
    term: Word  # the message id the pages use ("Hand", "Schneider" …): the same word forms and lists use
    meaning: Word
