"""The engine's words for the pages: each game's name, presets, contracts and house rules, as each game
module of `scorekeep.rules` names them (`Word`s), translated lazily into the page's language."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from django.utils.functional import lazy
from django.utils.translation import gettext
from django_stubs_ext import StrOrPromise

from scorekeep.api.contract_io import Translation
from scorekeep.rules import GAMES
from scorekeep.rules.explain import Word, in_words
from scorekeep.rules.option_words import NAMED_VALUE_WORDS, OPTION_WORDS
from scorekeep.rules.tournament import format_of
from scorekeep.words.money import format_money

Label = StrOrPromise  # str | Promise, typed as a lazy *string* (gettext_lazy's)


def _translated(word: Word) -> str:
    return in_words(word, page_words)


translated = lazy(_translated, str)
"""A `Word` (or `Phrase`) as a lazy string: translated when the page is rendered."""


# The game a page speaks of (a night's, the dispute form's): words the games say differently have the game
# as their message context (`pgettext`, scorekeep/words/game_words.py), the plain message being the fallback.
_GAME: ContextVar[str | None] = ContextVar("game", default=None)
# The currency a page's amounts are in (a night's: its code and the decimals of its stored integers), so the
# engine's lines write their amounts (`explain.Amount`) as money; None where a page has no currency.
_MONEY: ContextVar[tuple[str, int] | None] = ContextVar("money", default=None)


@contextmanager
def speaking_of(game: str | None, money: tuple[str, int] | None = None) -> Iterator[None]:
    """Translate the engine's words and lines in `game`'s own words while the block runs (a view renders),
    and write their amounts as `money` — a currency and its exponent — where given."""
    token, money_token = _GAME.set(game if game in GAMES else None), _MONEY.set(money)
    try:
        yield
    finally:
        _MONEY.reset(money_token)
        _GAME.reset(token)


def in_game(text: str, game: str | None = None) -> str:
    """`text` in the page's language, in the words of `game` (or the game the page speaks of) where that game
    has words of its own (a message with the game as its context), else the plain translation."""
    from django.utils.translation import gettext, pgettext

    game = game or _GAME.get()
    if game is not None and text:
        found = pgettext(game, text)
        if found != text:
            return found
    return gettext(text)


UNIT_FORMS = ("word", "heading", "numbered", "in_text", "short")


def unit_text(game: str, form: str = "numbered", n: int | None = None) -> str:
    """What a tournament of `game` calls one of its parts ("Series 2"; Kop's "Round 2": the engine's
    `rules.tournament.Format.unit`), in one of its forms (`UNIT_FORMS`), in the page's language."""
    if form not in UNIT_FORMS:
        raise ValueError(f"unit: the form is one of {', '.join(UNIT_FORMS)}, not {form!r}")
    text = in_game(getattr(format_of(game).unit, form), game)
    return text.format(n=n) if n is not None else text


def _page_gettext(text: str) -> str:
    return in_game(text)


def _page_ngettext(singular: str, plural: str, n: int) -> str:
    from django.utils.translation import ngettext

    return ngettext(singular, plural, n)


def _page_money(amount: int) -> object:
    money = _MONEY.get()
    if money is None:
        return amount
    return format_money(amount, money[0], exponent=money[1])


def _page_pgettext(context: str, text: str) -> str:
    from django.utils.translation import pgettext

    return pgettext(context, text)


page_words = Translation(_page_gettext, _page_ngettext, _page_money, _page_pgettext)
"""The page's language (Django's active translation), for the engine's lines, refusals and words; their
amounts as money in the currency the page speaks of (`speaking_of`)."""

GAME_LABELS: dict[str, Label] = {game: translated(module.NAME) for game, module in GAMES.items()}
PRESET_LABELS: dict[tuple[str, str], Label] = {
    (game, preset): translated(word) for game, module in GAMES.items() for preset, word in module.PRESET_LABELS.items()}
# Contracts, options and their choices by key: a key means one thing in every game that has it.
CONTRACT_LABELS: dict[str, Label] = {
    str(contract): translated(word) for module in GAMES.values() for contract, word in module.CONTRACT_LABELS.items()}
OPTION_LABELS: dict[str, Label] = {
    key: translated(word) for module in GAMES.values() for key, word in module.OPTION_LABELS.items()}
CHOICE_LABELS: dict[tuple[str, str], Label] = {
    choice: translated(word) for module in GAMES.values() for choice, word in module.CHOICE_LABELS.items()}
# Options whose engine label spells out its values' codes, and those values, in words (rules/option_words.py).
OPTION_WORD_LABELS: dict[str, Label] = {key: translated(word) for key, word in OPTION_WORDS.items()}
NAMED_VALUE_LABELS: dict[tuple[str, str], Label] = {
    named: translated(word) for named, word in NAMED_VALUE_WORDS.items()}
NONE_LABELS: dict[str, Label] = {
    key: translated(word) for module in GAMES.values() for key, word in module.NONE_LABELS.items()}


def preformatted(template: str, values: Mapping[str, object]) -> str:
    """``template % values`` for a message Django formats once more with its own params (a choice field's
    "invalid_choice" becomes ``message % {"value": …}``): a ``%`` in the values (a club named "100% Skat")
    stays one ``%`` there, instead of breaking that second formatting (TypeError, ValueError: a server error
    while the form's errors are rendered)."""
    return template % {key: str(value).replace("%", "%%") for key, value in values.items()}


def table_names(names: Sequence[str]) -> list[str]:
    """The players' names as one table's page shows them, short enough for a phone's columns and still
    telling every player apart: the first name alone ("Winnie" for Winnie Schmidt); where two share it, the
    first name and the start of the rest, as long as it takes ("Winnie S." and "Winnie M."; "Winnie Sc." and
    "Winnie Sm."); a name of one word, or one that nothing shorter tells apart, whole. The one rule for
    shortening players' names at a table: the standings, the grid, the taps and the latest deals use it."""
    words = [name.split() for name in names]
    firsts = [w[0] if w else "" for w in words]
    shown = []
    for i, (name, parts) in enumerate(zip(names, words, strict=True)):
        rest = " ".join(parts[1:])
        others = [" ".join(words[j][1:]) for j in range(len(names)) if j != i and firsts[j] == firsts[i]]
        if len(parts) < 2 or not others:
            shown.append(parts[0] if parts else name)
            continue
        # The shortest start of the rest that no other player with this first name shares.
        for length in range(1, len(rest) + 1):
            start = rest[:length].rstrip()
            if not any(other.startswith(start) for other in others):
                shown.append(f"{parts[0]} {start}." if length < len(rest) else name.strip())
                break
        else:
            shown.append(name.strip())
    return shown


def with_unit(label: object, unit: str) -> str:
    """A field's label with the unit its amount is typed in: "Entry fee per player (EUR)", Japanese with
    full-width brackets ("1人あたりの参加費（EUR）")."""
    return gettext("%(label)s (%(unit)s)") % {"label": label, "unit": unit}


def listed(items: Iterable[object]) -> str:
    """Names or values one after another as the language lists them: "Anna, Bernd" — Japanese "Anna、Bernd"."""
    return gettext(", ").join(str(item) for item in items)


def bracketed(text: object) -> str:
    """An aside in brackets as the language writes them: "(EUR)" — Japanese full width "（EUR）"."""
    return gettext("(%(text)s)") % {"text": text}
