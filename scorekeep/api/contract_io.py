"""The adjudication contract's JSON, read and written alike by ``POST /api/adjudicate``, ``manage.py
adjudicate`` and ``manage.py import``: a strict reader, the compact writer, the one-error rejection, and the
engine called so that a bug in it becomes a rejection.

No Django here (as in `scorekeep.rules`): the command line answers without starting Django.
"""

import json
import logging
import re
from collections.abc import Callable
from typing import Any

from scorekeep import rules
from scorekeep.rules.explain import Translate

logger = logging.getLogger(__name__)


def rejection(message: str, field: str = "request") -> dict[str, Any]:
    """The contract's rejection with one error."""
    return {"ok": False, "errors": [{"field": field, "message": message}]}


class Refused(ValueError):
    """Well-formed JSON that a request may still not be: NaN, a repeated key, a huge number."""


def _no_constant(name: str) -> object:
    raise Refused(f"{name} is not a JSON number")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise Refused(f'the key "{key}" appears twice in one object; give each field once')
            seen.add(key)
    return obj


_DECODER = json.JSONDecoder(parse_constant=_no_constant, object_pairs_hook=_object)
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


# A \uD800–\uDFFF escape: JSON allows it, but alone (not in a pair) it is no character and cannot be
# written back as UTF-8 — an answer naming it would fail to be sent.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_lone_surrogate(value: object) -> None:
    if isinstance(value, str):
        if _SURROGATE.search(value):
            raise Refused("a text in it holds a lone surrogate (such as \\ud800 without its pair), which is "
                          "no character: send the text itself as UTF-8")
    elif isinstance(value, dict):
        for key, item in value.items():
            _no_lone_surrogate(key)
            _no_lone_surrogate(item)
    elif isinstance(value, list):
        for item in value:
            _no_lone_surrogate(item)


def loads(text: str) -> object:
    """Parse JSON strictly: NaN and Infinity, repeated keys, absurdly long numbers and lone surrogates
    are refused.

    Raises `json.JSONDecodeError` (with the parser's position) for malformed text and `Refused`
    for well-formed JSON that no request can be.
    """
    try:
        value = _DECODER.decode(text.removeprefix("\ufeff"))
        if _SURROGATE_ESCAPE.search(text):  # only an escape can make one: UTF-8 text holds none
            _no_lone_surrogate(value)
        return value
    except (json.JSONDecodeError, Refused):
        raise
    except RecursionError:
        raise Refused("it is nested too deeply for a request") from None
    except ValueError:
        # The one other refusal of the parser: Python's limit of 4300 digits in an integer.
        raise Refused("a number in it has thousands of digits; no field takes numbers that long") from None


def dumps(answer: dict[str, Any]) -> str:
    """One verdict or rejection as compact JSON, non-ASCII characters kept as they are."""
    return _ENCODER.encode(answer)


def adjudicate_safely(request: object) -> dict[str, Any]:
    """`rules.adjudicate`, guarded: an engine bug becomes a rejection (and a log entry), not a crash.

    The engine is built never to raise; this is the last line of defence, not a code path.
    """
    try:
        return rules.adjudicate(request)
    except Exception:
        return _internal_error(request)


def _internal_error(request: object) -> dict[str, Any]:
    logger.exception("the rules engine raised instead of answering; request: %.500r", request)
    return rejection("could not be adjudicated because of an internal error in scorekeep; "
                     "please report this request to the maintainers")


class Translation:
    """A catalogue as the engine's lines need it: called with a message id, its translation (gettext); and
    `plural`, the form for a count (ngettext), which a line that counts takes (`explain.counted`); and, for a
    page that knows the table's currency, `money`, which writes an amount (`explain.Amount`) as money.
    Without `money` amounts stay the engine's integers (the API and the CLI know no currency). With `pgettext`,
    `in_game` gives the catalogue in one game's words: the messages a game says differently have the game as
    their context (scorekeep/words/game_words.py: Fipsen's ハント, Skat's 競り値, Kop's レ)."""

    __slots__ = ("_gettext", "_ngettext", "_pgettext", "money")

    def __init__(self, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str],
                 money: Callable[[int], object] | None = None,
                 pgettext: Callable[[str, str], str] | None = None) -> None:
        self._gettext, self._ngettext, self.money, self._pgettext = gettext, ngettext, money, pgettext

    def in_game(self, game: str) -> "Translation":
        """The catalogue in `game`'s words: a message with the game as its context where there is one, else the
        plain message (which holds Skat's word, or the word every game shares)."""
        pgettext, gettext = self._pgettext, self._gettext
        if pgettext is None:
            return self

        def in_words_of_game(text: str) -> str:
            found = pgettext(game, text)
            return found if found != text else gettext(text)

        return Translation(in_words_of_game, self._ngettext, self.money, pgettext)

    def __call__(self, text: str) -> str:
        # Python's gettext answers "" with the catalogue's header; Django's keeps it "".
        return self._gettext(text) if text else text

    def plural(self, singular: str, plural: str, n: int) -> str:
        return self._ngettext(singular, plural, n)


def adjudicating_in(catalogue: Translate) -> Callable[[object], dict[str, Any]]:
    """`adjudicate_safely` in another language: the verdict's explanation lines and each rejection's message
    go through `catalogue` (its gettext), as the web pages write them; the keys, field paths, codes
    and numbers are the contract's. Seats are named as the contract numbers them, from 0, in the catalogue's
    words ("Platz 0"). A `catalogue` with a ``plural`` (`labels.Translation`) writes the lines that count in
    the form for their count."""

    def words(text: str) -> str:
        # Python's gettext answers "" with the catalogue's header; Django's gettext keeps it "".
        return catalogue(text) if text else text

    translate: Translate = catalogue if hasattr(catalogue, "plural") else words

    seat_word = translate("Seat %(number)s")

    def seat_name(seat: int) -> str:
        return seat_word % {"number": seat}

    def adjudicate(request: object) -> dict[str, Any]:
        game = request.get("game") if isinstance(request, dict) else None
        words = translate
        if isinstance(translate, Translation) and isinstance(game, str) and game in rules.GAMES:
            words = translate.in_game(game)  # the game's own words (Fipsen's ハント, Kop's レ)
        try:
            try:
                verdict = rules.judge(request)
            except rules.IllegalDeal as err:
                message = err.render(seat_name, words(err.text), words)
                return {"ok": False, "errors": [{"field": err.field, "message": message}]}
            answer = verdict.to_json()
            answer["explanation"] = verdict.explain(seat_name, words)
            return answer
        except Exception:
            return _internal_error(request)

    return adjudicate
