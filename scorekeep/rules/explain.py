"""Explanation steps: one line of a verdict's derivation, kept as a template and its values.

The English line is ``text.format(**params)``; the web pages translate `text` (it doubles as the
message id) and fill in the same values, so every language shows the numbers the engine used.

Seats inside a step are `Seat` and `Seats` values. The contract's English writes them as the
contract numbers seats ("seat 0", "seats 1 and 3"); a page that knows the players renders the same
step with names or its own seat labels through `Step.render`. Amounts of money are `Amount`s: the
contract's English writes the integer, a page that knows the table's currency writes money ("€0.10").

No English is put together inside a value: a value is a number, a name, a piece of the contract's
own code (an option value, a quoted field) or one of the typed values below, each carrying its
English and what a page needs to say it in another language — `Word` (a message id of its own),
`Phrase` (a template and its values, like a step) and `Listing` (items joined by a translatable
separator and last link: "a, b and c"). Their English is computed once, when they are made, so the
contract's English costs no more than plain strings.
"""

from collections.abc import Callable, Iterable, Mapping
from string import Formatter
from typing import NamedTuple, Protocol, cast


def joined(items: Iterable[str], last: str = "and") -> str:
    """``a, b and c``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def signed(n: int) -> str:
    """+48, −96, 0: how a list entry is written."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def minus(n: int) -> str:
    """−7 for −7, 7 for 7: a number as a line writes it, with a minus sign, not a hyphen."""
    return f"−{-n}" if n < 0 else str(n)


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def power(base: int, exponent: int) -> str:
    """2³ for (2, 3): a power as every language writes it (no "^")."""
    return f"{base}{str(exponent).translate(_SUPERSCRIPT)}"


Writer = Callable[[Mapping[str, object]], str]


def _compile(template: str) -> Writer:
    """A function that writes `template` with its values exactly as ``template.format_map(values)`` does,
    compiled once into an f-string: format_map parses its template on every call, which is most of its cost.

    Only plain fields (``{name}``) are compiled; a template with a conversion, a format spec, an index or
    a positional field, or one that does not parse, keeps ``format_map`` (which then answers, or raises, as
    it always did). Each value is formatted as format_map formats it: ``format(value, "")``.
    """
    body: list[str] = []
    names: dict[str, int] = {}
    try:
        for literal, field, spec, conversion in Formatter().parse(template):
            body.append(literal.replace("{", "{{").replace("}", "}}"))
            if field is None:
                continue
            if spec or conversion or not field.isidentifier():
                return template.format_map
            body.append(f"{{_{names.setdefault(field, len(names))}}}")
    except ValueError:
        return template.format_map
    if not names:
        return template.format_map
    reads = "; ".join(f"_{i} = values[{field!r}]" for field, i in names.items())
    source = f"def write(values):\n    {reads}\n    return f{''.join(body)!r}\n"
    scope: dict[str, Writer] = {}
    exec(compile(source, f"<template {template[:40]!r}>", "exec"), scope)  # noqa: S102 - the engine's own templates
    return scope["write"]


class _Writers(dict[str, Writer]):
    """The compiled writer of each template (`_compile`), made when first asked for. The engine's templates
    are a few hundred (with a page's translations, a few hundred per language); past 4,096 a template is
    compiled for the call and not kept."""

    def __missing__(self, template: str) -> Writer:
        writer = _compile(template)
        if len(self) < 4096:
            self[template] = writer
        return writer


WRITERS = _Writers()
"""``WRITERS[template](values)`` is ``template.format_map(values)``, faster: the contract's English of every
step is written through it."""


class Seat(int):
    """A seat (0 … players−1) named in an explanation: "seat 2" in the contract's English."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        text = _SEAT_TEXT.get(self)
        return text if text is not None else f"seat {int(self)}"


class Seats(tuple[int, ...]):
    """Several seats named together: "seats 0 and 2" (or "seat 1" when there is one)."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        text = _SEATS_TEXT.get(self)
        if text is None:
            text = f"seat {self[0]}" if len(self) == 1 else "seats " + joined(str(seat) for seat in self)
            if len(_SEATS_TEXT) < 1024:
                _SEATS_TEXT[tuple(self)] = text
        return text


class Amount(int):
    """An amount of money named in an explanation (a price, a value, a payment of a game whose scores are
    money): a count of the minor unit of whatever currency the table plays in. The contract's English writes
    the integer, as the engine knows no currency; a page whose `translate` has a ``money(amount)`` writes
    it as money in the night's currency and language (``€0.10``, ``0,10 €``, ``¥10``)."""

    __slots__ = ()  # written as an int is (int's own __format__ and repr, in C)


class _Amounts(dict[int, Amount]):
    """Each integer's `Amount`, made when first asked for: a game says several amounts a deal, and
    ``AMOUNT[n]`` (a dict look-up) costs less than making one each time. Past 4,096 an amount is made for
    the call and not kept."""

    def __missing__(self, n: int) -> Amount:
        amount = Amount(n)
        if len(self) < 4096:
            self[n] = amount
        return amount


AMOUNT = _Amounts()
"""``AMOUNT[n]`` is ``Amount(n)``: how the engine marks an amount of money in a line."""


# The English of seats, written once: explanations name seats on every deal.
_SEAT_TEXT = {seat: f"seat {seat}" for seat in range(8)}
_SEATS_TEXT: dict[tuple[int, ...], str] = {}


class Word(str):
    """A word or phrase of the games' vocabulary inside a step ("won", "schneider announced"): the
    English text as it stands, and its own message id, so a page can translate it like a template."""

    __slots__ = ()


# How a `Listing` joins its items: the separator, and the last link as a template of its own, so a
# language can write "a, b und c" or "a、bとc" (the translators translate these ids like any other).
COMMA = Word(", ")
SEMICOLON = Word("; ")  # between items that have commas of their own
AND = Word("{items} and {last}")
OR = Word("{items} or {last}")


class Phrase(str):
    """Several words with values inside a step ("with 3", "a list of 4"): the English as it stands,
    and its template (a message id) and values, which a page renders like a step's — the template
    translated, seats named, `Word`s, `Phrase`s and `Listing`s among the values rendered in turn."""

    # A str subclass cannot have slots of its own; the two attributes live in the instance dict.
    template: str
    params: Mapping[str, object]

    def __new__(cls, template: str, **params: object) -> "Phrase":
        self = super().__new__(cls, WRITERS[template](params) if params else template)
        self.template = template
        self.params = params
        return self

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, object]]:
        # A copy or an unpickled value is made again from its parts, not from its English.
        return (self.template,), dict(self.params)


class Listing(str):
    """Items in a row, as one value of a step: '"clubs", "spades" or "grand"', "12 or 14",
    "3 (with 3) + 1 (game)". The English joins the items (each formatted) with `sep` and,
    with a `last` link (`AND`, `OR`), puts the last item in by that template; `last=None` joins all
    with `sep`. A page renders each item (seats named, words translated) and, where `sep` and `last`
    are `Word`s, translates them too; a `sep` that is no `Word` (" + ") is kept as it is."""

    items: tuple[object, ...]
    sep: str
    last: str | None

    def __new__(cls, items: Iterable[object], last: str | None = AND, sep: str = COMMA) -> "Listing":
        items = tuple(items)
        self = super().__new__(cls, _join([format(item, "") for item in items], sep, last))
        self.items, self.sep, self.last = items, sep, last
        return self

    def __getnewargs_ex__(self) -> tuple[tuple[object, ...], dict[str, object]]:
        return (self.items, self.last, self.sep), {}


def _join(items: list[str], sep: str, last: str | None) -> str:
    if last is None or len(items) <= 1:
        return sep.join(items)
    return last.format(items=sep.join(items[:-1]), last=items[-1])


SeatName = Callable[[int], str]
Translate = Callable[[str], str]


# Templates that count something, so a language with plural forms writes the count's ("1 Stich", "2 Stiche"):
# the template as the engine writes it (its English plural, the contract's text for every count) → its English
# singular and the name of the value that counts. `counted` registers one where the template is defined.
PLURALS: dict[str, tuple[str, str]] = {}


def counted(singular: str, plural: str, count: str) -> str:
    """`plural`, the template a step or refusal uses, registered with its `singular` and the name of its count.
    A page whose `translate` has a ``plural(singular, plural, n)`` (ngettext) renders it in the form for the
    count; the contract's English stays `plural`. Call it where the template is defined (at module level),
    so `manage.py enginemessages` finds the pair in the source."""
    PLURALS[plural] = (singular, count)
    return plural


def _plural_text(template: str, params: Mapping[str, object], translate: Translate | None) -> str | None:
    """The translated template in the plural form for its count, where it counts and the page can say so."""
    entry = PLURALS.get(template)
    choose = getattr(translate, "plural", None)
    if entry is None or choose is None:
        return None
    count = params.get(entry[1])
    return choose(entry[0], template, count) if isinstance(count, int) else None


class Step(NamedTuple):
    text: str
    params: Mapping[str, object] = {}

    def __str__(self) -> str:
        return WRITERS[self.text](self.params) if self.params else self.text

    def render(self, seat_name: SeatName, text: str | None = None, translate: Translate | None = None) -> str:
        """The step with every seat written by `seat_name` (a player's name, a 1-based label),
        optionally a translated `text` in place of the English template, and every `Word` (and
        `Phrase` and `Listing`) passed through `translate`. A template that counts (`counted`) takes the plural
        form for its count from ``translate.plural`` where `translate` has one."""
        if translate is not None and self.text in PLURALS:
            text = _plural_text(self.text, self.params, translate) or text
        return _fill(self.text if text is None else text, self.params, seat_name, translate)


def in_words(value: object, translate: Translate | None = None, seat_name: SeatName = str) -> str:
    """A `Word`, `Phrase` or `Listing` (a label of the engine's) as a page writes it: translated through
    `translate` (gettext), seats named by `seat_name`."""
    return format(_relabel(value, seat_name, translate), "")


def _fill(template: str, params: Mapping[str, object], seat_name: SeatName, translate: Translate | None) -> str:
    if not params:
        return template
    return WRITERS[template]({key: _relabel(value, seat_name, translate) for key, value in params.items()})


def _relabel(value: object, seat_name: SeatName, translate: Translate | None) -> object:
    # Exact types, tested in the order values are common: a page renders every step of a ledger.
    # (casts, not isinstance: a subclass of str or int must not pass for a Word or a Seat)
    kind = type(value)
    if kind is int or kind is str:  # most values: numbers and the contract's own names
        return value
    if kind is Seat:
        return seat_name(int(cast(Seat, value)))
    if kind is Amount:
        money: Callable[[int], object] | None = getattr(translate, "money", None)
        return value if money is None else money(int(cast(Amount, value)))
    if kind is Word:
        return value if translate is None else translate(cast(Word, value))
    if kind is Seats:
        return _join([seat_name(seat) for seat in cast(Seats, value)], COMMA if translate is None else translate(COMMA),
                     _say(AND, translate))
    if kind is Phrase:
        phrase = cast(Phrase, value)
        return _fill(phrase.template if translate is None else translate(phrase.template), phrase.params, seat_name,
                     translate)
    if kind is Listing:
        listing = cast(Listing, value)
        items = [format(_relabel(item, seat_name, translate), "") for item in listing.items]
        return _join(items, _say(listing.sep, translate) or listing.sep, _say(listing.last, translate))
    return value


def _say(link: str | None, translate: Translate | None) -> str | None:
    """A listing's separator or last link in the page's language: translated where it is a `Word`."""
    return translate(link) if translate is not None and isinstance(link, Word) else link


_new_step = tuple.__new__


class Explanation(Protocol):
    """How a game says a step beside its arithmetic: ``say("base {base}", base=12)``."""

    def __call__(self, text: str, /, **params: object) -> None: ...


def explanation() -> tuple[Explanation, list[Step]]:
    """A `say` that collects steps, and the list it fills (a verdict keeps ``tuple(steps)``).

    A closure rather than an object with ``__call__``: a step is said ~8 times a deal, and calling an
    instance costs a slot look-up and a keyword dict more than calling a function.
    """
    steps: list[Step] = []
    append = steps.append

    def say(text: str, /, **params: object) -> None:
        # tuple.__new__ skips NamedTuple's Python-level constructor.
        append(_new_step(Step, (text, params)))

    return say, steps
