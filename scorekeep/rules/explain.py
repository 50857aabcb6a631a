"""Explanation steps: one line of a verdict's derivation, kept as a template and its values.

The English line is ``text.format(**params)``; the web pages translate `text` (it doubles as the
message id) and fill in the same values, so every language shows the numbers the engine used.

Seats inside a step are `Seat` and `Seats` values. The contract's English writes them as the
contract numbers seats ("seat 0", "seats 1 and 3"); a page that knows the players renders the same
step with names or its own seat labels through `Step.render`.
"""

from collections.abc import Callable, Iterable, Mapping
from typing import NamedTuple


def joined(items: Iterable[str], last: str = "and") -> str:
    """``a, b and c``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def signed(n: int) -> str:
    """+48, −96, 0: how a list entry is written."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


class Seat(int):
    """A seat (0 … players−1) named in an explanation: "seat 2" in the contract's English."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        text = _SEAT_TEXT.get(self)
        return text if text is not None else f"seat {int(self)}"


class Seats(tuple):
    """Several seats named together: "seats 0 and 2" (or "seat 1" when there is one)."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        text = _SEATS_TEXT.get(self)
        if text is None:
            text = f"seat {self[0]}" if len(self) == 1 else "seats " + joined(str(seat) for seat in self)
            if len(_SEATS_TEXT) < 1024:
                _SEATS_TEXT[tuple(self)] = text
        return text


# The English of seats, written once: explanations name seats on every deal.
_SEAT_TEXT = {seat: f"seat {seat}" for seat in range(8)}
_SEATS_TEXT: dict[tuple[int, ...], str] = {}


class Word(str):
    """A word or phrase of the games' vocabulary inside a step ("won", "schneider announced"): the
    English text as it stands, and its own message id, so a page can translate it like a template."""

    __slots__ = ()


SeatName = Callable[[int], str]
Translate = Callable[[str], str]


class Step(NamedTuple):
    text: str
    params: Mapping[str, object] = {}

    def __str__(self) -> str:
        return self.text.format_map(self.params) if self.params else self.text

    def render(self, seat_name: SeatName, text: str | None = None, translate: Translate | None = None) -> str:
        """The step with every seat written by `seat_name` (a player's name, a 1-based label),
        optionally a translated `text` in place of the English template, and every `Word` passed
        through `translate`."""
        template = self.text if text is None else text
        if not self.params:
            return template
        return template.format(**{key: _relabel(value, seat_name, translate) for key, value in self.params.items()})


def _relabel(value: object, seat_name: SeatName, translate: Translate | None) -> object:
    if isinstance(value, Seat):
        return seat_name(int(value))
    if isinstance(value, Seats):
        return joined(seat_name(seat) for seat in value)
    if translate is not None and isinstance(value, Word):
        return translate(value)
    return value


_new_step = tuple.__new__


class Explanation:
    """Collects steps beside the arithmetic: ``say("base {base}", base=12)``."""

    __slots__ = ("steps",)

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def __call__(self, text: str, **params: object) -> None:
        # tuple.__new__ skips NamedTuple's Python-level constructor: this runs ~8 times a deal.
        self.steps.append(_new_step(Step, (text, params)))

    def freeze(self) -> tuple[Step, ...]:
        return tuple(self.steps)
