"""What every game's scoring returns: the table it was played at and the verdict."""

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from .explain import WRITERS, SeatName, Step, Translate
from .records import quick_init

R = TypeVar("R")
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Table:
    """Seats 0 … players−1 clockwise; the dealer's seat (at 4-seat Skat he sits the deal out)."""

    players: int
    dealer: int

    def left_of_dealer(self, seat: int) -> int:
        """How far `seat` sits from the dealer's left: 0 for forehand, players−1 for the dealer."""
        return (seat - self.dealer - 1) % self.players


@quick_init
@dataclass(frozen=True, slots=True)
class Verdict:
    """One deal's result. `scores` is each seat's entry; `extra` holds the game's own keys."""

    game: str
    rules: dict[str, Any]
    won: bool | None
    value: int
    scores: tuple[int, ...]
    steps: tuple[Step, ...]
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def explanation(self) -> list[str]:
        return english(self.steps)

    def explain(self, seat_name: SeatName, translate: Translate | None = None) -> list[str]:
        return explained(self.steps, seat_name, translate)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": True,
            "game": self.game,
            "rules": self.rules,
            "won": self.won,
            "value": self.value,
            "scores": list(self.scores),
            **self.extra,
            "explanation": english(self.steps),
        }


@dataclass(frozen=True, slots=True)
class Recorded:
    """A verdict as it is stored (the contract's JSON answer, `Verdict.to_json`), read back typed: what the
    pages of a stored deal show without asking the engine again. `extra` keeps the game's own keys."""

    won: bool | None
    value: int
    scores: tuple[int, ...]
    seeger_fabian: tuple[int, ...] | None
    explanation: tuple[str, ...]
    extra: dict[str, Any]

    @classmethod
    def from_json(cls, answer: dict[str, Any]) -> "Recorded":
        known = {"ok", "game", "rules", "won", "value", "scores", "seeger_fabian", "explanation"}
        sf = answer.get("seeger_fabian")
        return cls(answer.get("won"), int(answer.get("value") or 0), tuple(answer.get("scores") or ()),
                   tuple(sf) if sf is not None else None, tuple(answer.get("explanation") or ()),
                   {key: value for key, value in answer.items() if key not in known})

    @property
    def base(self) -> int | None:
        """Skat: the game's base value (None where the game has none)."""
        return self.extra.get("base")

    @property
    def matadors(self) -> int | None:
        """Skat: with (+n) or without (−n) matadors, as counted."""
        return self.extra.get("matadors")

    @property
    def multiplier(self) -> int | None:
        """Skat: the multiplier as played (matadors, game, levels)."""
        return self.extra.get("multiplier")

    @property
    def charged_multiplier(self) -> int | None:
        """Skat: the multiplier the value was charged at — an overbid game's is the lowest multiple of the
        base value that reaches the bid (ISkO 4.4), otherwise the multiplier as played. A verdict stored
        before the engine said it gives it from its own value and base."""
        if "charged_multiplier" in self.extra:
            charged: int | None = self.extra["charged_multiplier"]
            return charged
        base = self.base
        return self.value // base if self.extra.get("overbid") and base else self.multiplier

    @property
    def overbid(self) -> bool:
        """Skat: the game value did not reach the bid (ISkO 4.4)."""
        return bool(self.extra.get("overbid"))


@quick_init
@dataclass(frozen=True, slots=True)
class Comparison:
    """The answer to a bidding dispute: which of the compared bids is higher (Fipsen)."""

    game: str
    rules: dict[str, Any]
    higher: int
    steps: tuple[Step, ...]

    @property
    def explanation(self) -> list[str]:
        return english(self.steps)

    def explain(self, seat_name: SeatName, translate: Translate | None = None) -> list[str]:
        return explained(self.steps, seat_name, translate)

    def to_json(self) -> dict[str, Any]:
        return {"ok": True, "game": self.game, "rules": self.rules, "higher": self.higher,
                "explanation": self.explanation}


def english(steps: tuple[Step, ...]) -> list[str]:
    """The contract's English lines (seats written as the contract numbers them); `explain(seat_name)`
    on a verdict writes each seat by `seat_name` instead — a player's name or a page's label."""
    writers = WRITERS
    return [writers[text](params) if params else text for text, params in steps]


def explained(steps: tuple[Step, ...], seat_name: SeatName, translate: Translate | None = None) -> list[str]:
    """The lines for a page: each seat written by `seat_name`, and with `translate` (gettext) each
    template and each `Word` in the page's language."""
    if translate is None:
        return [step.render(seat_name) for step in steps]
    return [step.render(seat_name, translate(step.text), translate) for step in steps]


def options_json(rules: Any) -> dict[str, Any]:
    """A rule-set dataclass as the contract's ``rules`` object (tuples become lists).

    Game modules cache this per rule set: it is the same for every deal at a table.
    """
    return {f.name: _jsonable(getattr(rules, f.name)) for f in fields(rules)}


def _jsonable(value: object) -> object:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


def rules_memo(compute: Callable[[R], V]) -> Callable[[R], V]:
    """`compute`, remembered per rule-set object: a value derived from a rule set, computed once.

    A table sends the same rule set with every deal (and `judge` reuses the parsed object), so
    deriving per object beats hashing a dataclass of a dozen options on every deal. The memo keeps
    the rule set alive beside its value (`kept`), so an id is never reused while it is remembered:
    an id found in `values` is that very rule set's. A closure, not an object with ``__call__``: it
    is called a few times a deal, and calling an instance costs a slot look-up more.
    """
    values: dict[int, V] = {}
    kept: list[R] = []

    def memo(rules: R) -> V:
        try:
            return values[id(rules)]
        except KeyError:
            value = compute(rules)
            if len(kept) < 4096:
                kept.append(rules)
                values[id(rules)] = value
            return value

    return memo
