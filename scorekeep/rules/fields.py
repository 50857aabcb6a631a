"""Strict reading of the contract's JSON objects.

Every game module reads its ``deal`` and ``rules`` objects through a `Reader`, so all four games
reject the same way: unknown fields, wrong types and out-of-range values raise `IllegalDeal` naming
the dotted field and saying what is allowed. JSON ``true``/``false`` are never taken for numbers.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Collection, Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any, Literal, overload

from .errors import IllegalDeal
from .explain import COMMA, OR, Listing, Phrase, Word


def is_empty(value: object) -> bool:
    """The values the contract lets an unused field carry: false, 0, null and []."""
    return value is None or value is False or value == [] or (type(value) is int and value == 0)


# A JSON value as a message describes it: the literals and short texts as JSON writes them (the
# contract's own code, the same in every language), anything longer in words a page translates.
_A_TEXT, _AN_OBJECT = Word("a text"), Word("an object")


def describe(value: object) -> str:
    """A short description of a JSON value for an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"' if len(value) <= 20 else _A_TEXT
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, list):
        return Phrase("a list of {n}", n=len(value))
    return _AN_OBJECT


def words(items: Iterable[object]) -> Listing:
    """``a, b or c`` for a message: a `Listing`, so a page writes the "or" in its language."""
    return Listing(items, OR)


def names(items: Iterable[object]) -> Listing:
    """``a, b, c``: names of the contract's own (fields, options, ranks), joined by commas alone."""
    return Listing(items, None, COMMA)


def check_int(value: object, field: str, lo: int, hi: int) -> int:
    if type(value) is not int:
        raise IllegalDeal(field, "must be a whole number from {lo} to {hi}, not {got}",
                          lo=lo, hi=hi, got=describe(value))
    if not lo <= value <= hi:
        raise IllegalDeal(field, "must be from {lo} to {hi}, not {got}", lo=lo, hi=hi, got=value)
    return value


def check_bool(value: object, field: str) -> bool:
    if type(value) is not bool:
        raise IllegalDeal(field, "must be true or false, not {got}", got=describe(value))
    return value


def check_choice(value: object, field: str, choices: Collection[str]) -> str:
    if type(value) is not str or value not in choices:
        raise IllegalDeal(field, "must be one of {allowed}, not {got}",
                          allowed=words(f'"{c}"' for c in choices), got=describe(value))
    return value


class Reader:
    """One JSON object at `path`, read field by field.

    >>> r = Reader({"bid": 18}, "deal", {"bid", "hand"})
    >>> r.int("bid", 18, 264)
    18

    A required field's `why` (" (the final bid)") goes into the refusal after "is required": a
    `Word`, so that a page translates it with the message.
    """

    __slots__ = ("obj", "path")

    def __init__(self, obj: object, path: str, known: AbstractSet[str]) -> None:
        if not isinstance(obj, dict):
            raise IllegalDeal(path, "must be a JSON object, not {got}", got=describe(obj))
        if not obj.keys() <= known:  # one set comparison in C; the loop only to name the stranger
            for key in obj:
                if key not in known:
                    raise IllegalDeal(self_field(path, key), "is not a field here; the fields are {allowed}",
                                      allowed=names(sorted(known)))
        self.obj: dict[str, Any] = obj
        self.path = path

    def field(self, key: str) -> str:
        return self_field(self.path, key)

    def has(self, key: str) -> bool:
        """True when the field is given with a value (null counts as not given)."""
        return self.obj.get(key) is not None

    # The methods `int` and `bool` hide the built-in types in the class body: annotations say `builtins.…`.
    @overload
    def int(self, key: str, lo: builtins.int, hi: builtins.int, default: builtins.int,
            required: builtins.bool = ..., why: str = ...) -> builtins.int: ...
    @overload
    def int(self, key: str, lo: builtins.int, hi: builtins.int, default: None = ..., *, required: Literal[True],
            why: str = ...) -> builtins.int: ...
    @overload
    def int(self, key: str, lo: builtins.int, hi: builtins.int, default: None = ...,
            required: builtins.bool = ..., why: str = ...) -> builtins.int | None: ...

    def int(self, key: str, lo: builtins.int, hi: builtins.int, default: builtins.int | None = None,
            required: builtins.bool = False, why: str = "") -> builtins.int | None:
        value = self.obj.get(key)
        if type(value) is int and lo <= value <= hi:
            return value
        if value is None:
            if required:
                raise IllegalDeal(self.field(key), "is required{why}: a whole number from {lo} to {hi}",
                                  why=why, lo=lo, hi=hi)
            return default
        return check_int(value, self.field(key), lo, hi)

    def bool(self, key: str, default: builtins.bool = False) -> builtins.bool:
        value = self.obj.get(key)
        if value is None:
            return default
        if value is True or value is False:
            return value
        return check_bool(value, self.field(key))

    @overload
    def choice(self, key: str, choices: Collection[str], default: str, required: builtins.bool = ...,
               why: str = ...) -> str: ...
    @overload
    def choice(self, key: str, choices: Collection[str], default: None = ..., *, required: Literal[True],
               why: str = ...) -> str: ...
    @overload
    def choice(self, key: str, choices: Collection[str], default: None = ..., required: builtins.bool = ...,
               why: str = ...) -> str | None: ...

    def choice(self, key: str, choices: Collection[str], default: str | None = None,
               required: builtins.bool = False, why: str = "") -> str | None:
        value = self.obj.get(key)
        if type(value) is str and value in choices:
            return value
        if value is None:
            if required:
                raise IllegalDeal(self.field(key), "is required{why}: one of {allowed}", why=why,
                                  allowed=words(f'"{c}"' for c in choices))
            return default
        return check_choice(value, self.field(key), choices)

    @overload
    def int_list(self, key: str, length: builtins.int, lo: builtins.int, hi: builtins.int, *,
                 required: Literal[True], why: str = ...) -> tuple[builtins.int, ...]: ...
    @overload
    def int_list(self, key: str, length: builtins.int, lo: builtins.int, hi: builtins.int,
                 required: builtins.bool = ..., why: str = ...) -> tuple[builtins.int, ...] | None: ...

    def int_list(self, key: str, length: builtins.int, lo: builtins.int, hi: builtins.int,
                 required: builtins.bool = False, why: str = "") -> tuple[builtins.int, ...] | None:
        """A list of exactly `length` whole numbers, each from lo to hi (per-seat lists)."""
        value = self.obj.get(key)
        # The usual list, checked in C: whole numbers only (not true or false) within the range; for
        # anything else the loop below names the first number at fault.
        if type(value) is list and len(value) == length and value and set(map(type, value)) == _INT_ONLY \
                and lo <= min(value) and max(value) <= hi:
            return tuple(value)
        if value is None:
            if required:
                raise IllegalDeal(self.field(key), "is required{why}: a list of {n} whole numbers, one per seat",
                                  why=why, n=length)
            return None
        if not isinstance(value, list) or len(value) != length:
            raise IllegalDeal(self.field(key), "must be a list of {n} whole numbers, one per seat, not {got}",
                              n=length, got=describe(value))
        field = self.field(key)
        return tuple(check_int(v, f"{field}.{i}", lo, hi) for i, v in enumerate(value))

    def reject_unused(self, used: AbstractSet[str], what: str) -> None:
        """Refuse a field that `what` (e.g. 'a Null game') does not use but that carries a value.

        ADJUDICATION.md: false, 0, null and [] pass; anything else is a contradiction. The
        ``contract`` field itself is always in use.
        """
        if self.obj.keys() <= used:  # the common case, in C: every field given is one the contract uses
            return
        for key, value in self.obj.items():
            if key not in used and key != "contract" and not is_empty(value):
                raise IllegalDeal(self.field(key), "is not used in {what}; leave it out", what=what)


_INT_ONLY = {int}


def self_field(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


# --- rule sets -------------------------------------------------------------------------------

Option = Callable[[object, str], object]
"""Validates one option's value from a request (value, field) and returns the value to apply.

The validators below also say what they accept (`kind` and their attributes), so a page can
offer each house rule as the right input.
"""


class Boolean:
    kind = "boolean"

    def __call__(self, value: object, field: str) -> bool:
        return check_bool(value, field)


class Integer:
    kind = "integer"

    def __init__(self, lo: int, hi: int) -> None:
        self.lo, self.hi = lo, hi

    def __call__(self, value: object, field: str) -> int:
        return check_int(value, field, self.lo, self.hi)


class OneOf:
    kind = "choice"

    def __init__(self, *choices: str) -> None:
        self.choices = choices

    def __call__(self, value: object, field: str) -> str:
        return check_choice(value, field, self.choices)


class Nullable:
    """The inner option, or null (which the option's meaning says: 'none', 'computed', …)."""

    def __init__(self, inner: Option) -> None:
        self.inner = inner
        self.kind = "nullable"

    def __call__(self, value: object, field: str) -> object:
        return None if value is None else self.inner(value, field)


def option_shape(option: Option) -> tuple[str, Option | None, bool]:
    """What an option takes, for a page or a description: its kind ("boolean", "integer", "choice",
    "json"), the validator that says its range or choices, and whether null is allowed too."""
    nullable = isinstance(option, Nullable)
    inner = option.inner if nullable else option  # type: ignore[attr-defined]
    return getattr(inner, "kind", "json"), inner, nullable


boolean = Boolean()
integer = Integer
one_of = OneOf
nullable = Nullable


def read_rules(obj: object, presets: Mapping[str, Any], default: str, options: Mapping[str, Option],
               path: str = "rules") -> dict[str, Any]:
    """The options a request's ``rules`` object selects: its preset with the overrides applied.

    Returns ``{"preset": name, option: value, …}`` with every option of the game; the game module
    builds its frozen rule-set dataclass from it and checks what the options mean together.
    `presets` maps a preset name to a dict of all its option values.
    """
    if obj is None:
        return {"preset": default, **presets[default]}
    if not isinstance(obj, dict):
        raise IllegalDeal(path, "must be a JSON object such as {{\"preset\": \"{default}\"}}, not {got}",
                          default=default, got=describe(obj))
    name = obj.get("preset", default)
    if name is None:
        name = default
    if type(name) is not str or name not in presets:
        raise IllegalDeal(f"{path}.preset", "must be one of {allowed}, not {got}",
                          allowed=words(f'"{p}"' for p in presets), got=describe(name))
    values = {"preset": name, **presets[name]}
    for key, value in obj.items():
        if key == "preset":
            continue
        option = options.get(key)
        if option is None:
            raise IllegalDeal(f"{path}.{key}", "is not an option of this game; the options are {allowed}",
                              allowed=names(sorted(options)))
        values[key] = option(value, f"{path}.{key}")
    return values
