"""What a deal asks of the table: each game's own description of its inputs.

ADJUDICATION.md says, game by game, which fields a contract's ``deal`` object takes. Each game module
describes the same in a form a page (or an offline client, or a third party through ``GET /api/games``)
can build its inputs from, so that no page knows a game's rules a second time: for a contract under a
rule set at a table, the fields in the order a scorer is asked them, each with its kind, range or
choices, whether it is required, and its words (label, help, a short name).

The description agrees with the contract — `tests/rules/test_inputs.py` holds the two together: every
field described is one the contract accepts; a required one left out is refused naming it; a field the
contract does not use is refused when it carries a value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from .explain import Word, in_words


class Kind(StrEnum):
    """What one deal field holds, as the contract writes it."""

    SEAT = "seat"  # one seat, 0 … players−1
    SEATS = "seats"  # a list of `lo` … `hi` different seats (Kop's old side)
    SEAT_ORDER = "seat_order"  # seats in the order they said something (Kop's doublings), up to `hi` counted
    COUNT = "count"  # a whole number from `lo` to `hi` (only `values` where not every number is one)
    CHOICE = "choice"  # one of `choices`
    FLAG = "flag"  # true or false
    PER_SEAT = "per_seat"  # a list of whole numbers from `lo` to `hi`, one per seat
    CARDS = "cards"  # `lo` … `hi` cards as the contract writes them ("CJ", "H10")


class Need(StrEnum):
    REQUIRED = "required"  # the deal cannot be judged without it (unless a field in `unless` carries a value)
    OPTIONAL = "optional"  # the deal may leave it out


@dataclass(frozen=True, slots=True)
class Input:
    """One field of a contract's ``deal`` object, as a page asks for it.

    `choices` pairs each value with its words: the values of a CHOICE, and for a COUNT whose values
    players name (Skat's matadors: "with 2", "without 3"). `empty` names leaving a CHOICE, SEAT or
    SEAT_ORDER out ("nothing announced", "nobody", "no doubling"). `seldom`: most deals leave it alone,
    so a page may fold it away. `idle`: the rule set gives it no weight (Laufende paid nothing), so a page
    need not ask it at all. `common`: of a COUNT's `values`, the ones most deals take, which a page offers
    first (Skat's lowest bids).

    `total`: what a PER_SEAT list adds up to (a Ramsch's card points, 120 with the skat; its tricks), so a
    page can show a seat's share as the rest of the others'; the contract still checks the sum. `marks`:
    values of a PER_SEAT list a page may ask by tapping the players who had them instead of typing every
    seat's number — each the value and its tap row, a SEAT or SEATS input of its own (a Ramsch's "took no
    trick" for 0, "took every trick" for all). The marks are the page's, not the contract's: the game's
    `complete` turns them and the numbers typed into the contract's list, and they are not published.

    `impossible`: the numbers from `lo` to `hi` the contract refuses whatever else the deal says (Kop's card
    points no side can make with whole tricks: 1, 103 …), so a page can say so as the number is typed.
    """

    key: str
    kind: Kind
    label: Word
    need: Need = Need.OPTIONAL
    lo: int = 0
    hi: int = 0
    values: tuple[int, ...] = ()
    choices: tuple[tuple[Any, str], ...] = ()
    unless: tuple[str, ...] = ()
    empty: Word | None = None
    help: Word | None = None
    short: Word | None = None
    seldom: bool = False
    idle: bool = False
    common: tuple[int, ...] = ()
    total: int | None = None
    marks: tuple[tuple[int, Input], ...] = ()
    impossible: tuple[int, ...] = ()

    @property
    def required(self) -> bool:
        return self.need is Need.REQUIRED

    def to_json(self, translate: Callable[[str], str] = str) -> dict[str, Any]:
        """The field for ``GET /api/games``: its words through `translate` (gettext)."""
        out: dict[str, Any] = {"key": self.key, "kind": self.kind.value, "need": self.need.value,
                               "label": in_words(self.label, translate)}
        if self.kind in (Kind.COUNT, Kind.PER_SEAT, Kind.SEATS, Kind.SEAT_ORDER, Kind.CARDS):
            out["min"], out["max"] = self.lo, self.hi
        if self.values:
            out["values"] = list(self.values)
        if self.common:
            out["common"] = list(self.common)
        if self.total is not None:
            out["total"] = self.total
        if self.impossible:
            out["impossible"] = list(self.impossible)
        if self.choices:
            out["choices"] = [{"value": value, "label": in_words(label, translate)} for value, label in self.choices]
        for name in ("empty", "help", "short"):
            word = getattr(self, name)
            if word:
                out[name] = in_words(word, translate)
        if self.unless:
            out["unless"] = list(self.unless)
        if self.seldom:
            out["seldom"] = True
        if self.idle:
            out["idle"] = True
        return out


def ask(fields: Mapping[str, Input], keys: tuple[str, ...], **changes: Mapping[str, Any]) -> tuple[Input, ...]:
    """The inputs for `keys` (a contract's fields, in order), each the game's own description with the
    contract's `changes` applied: ``ask(FIELDS, keys, card_points={"need": REQUIRED})``."""
    return tuple(replace(fields[key], **changes[key]) if key in changes else fields[key] for key in keys)


REQUIRED = {"need": Need.REQUIRED}
