"""`quick_init`: a frozen slotted dataclass made faster, and nothing else about it changed."""

import dataclasses
import inspect
from dataclasses import dataclass, field

import pytest

from scorekeep.rules import fipsen, kop, schafkopf, skat
from scorekeep.rules.records import quick_init
from scorekeep.rules.verdict import Comparison, Verdict


@dataclass(frozen=True, slots=True)
class Plain:
    a: int
    b: str | None = None
    c: dict[str, int] = field(default_factory=dict)


@quick_init
@dataclass(frozen=True, slots=True)
class Quick:
    a: int
    b: str | None = None
    c: dict[str, int] = field(default_factory=dict)


def test_the_signature_and_defaults_are_the_dataclass_ones():
    assert str(inspect.signature(Quick)) == str(inspect.signature(Plain))
    assert dataclasses.astuple(Quick(1)) == dataclasses.astuple(Plain(1)) == (1, None, {})
    assert dataclasses.astuple(Quick(1, "x", c={"k": 2})) == (1, "x", {"k": 2})
    assert Quick(1) == Quick(1) != Quick(1, "y")


def test_a_default_factory_makes_a_fresh_value_each_time():
    first, second = Quick(1), Quick(1)
    assert first.c == {} and first.c is not second.c


def test_it_stays_frozen():
    made = Quick(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.a = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Quick()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick(1, d=3)  # type: ignore[call-arg]


@pytest.mark.parametrize("cls", [skat.Deal, schafkopf.Deal, kop.Deal, fipsen.Deal, Verdict, Comparison],
                         ids=lambda cls: f"{cls.__module__}.{cls.__name__}")
def test_the_engines_records_have_it(cls):
    assert cls.__init__.__qualname__ == f"{cls.__qualname__}.__init__"
    assert "quick_init" in cls.__init__.__code__.co_filename


def test_it_refuses_what_it_cannot_keep_the_same():
    @dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclass(slots=True)
    class NotFrozen:
        a: int

    @dataclass(frozen=True, slots=True)
    class KeywordOnly:
        a: int = field(kw_only=True)

    for cls in (NoSlots, NotFrozen, KeywordOnly):
        with pytest.raises(TypeError):
            quick_init(cls)
