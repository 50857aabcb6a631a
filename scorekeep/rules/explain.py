"""Explanation steps: one line of a verdict's derivation, kept as a template and its values.

The English line is ``text.format(**params)``; the web pages translate `text` (it doubles as the
message id) and fill in the same values, so every language shows the numbers the engine used.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Step:
    text: str
    params: Mapping[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.text.format(**self.params) if self.params else self.text


class Explanation:
    """Collects steps beside the arithmetic: ``say("base {base}", base=12)``."""

    __slots__ = ("steps",)

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def __call__(self, text: str, **params: object) -> None:
        self.steps.append(Step(text, params))

    def freeze(self) -> tuple[Step, ...]:
        return tuple(self.steps)
