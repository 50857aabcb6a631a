"""Bock rounds: which deals start one, and which contracts a Bock deal doubles (RULES.md option ``bock``).

Each game that has Bock deals lists the events that may start a round (`BOCK_EVENTS`: Skat and
Schafkopf); the table chooses which of them it plays. How long a round lasts and the queue of rounds
are the ledger's (`scorekeep.nights.ledger.BockQueue`).
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import IllegalDeal
from .explain import Word
from .verdict import Table


@dataclass(frozen=True, slots=True)
class BockEvent:
    """What starts a Bock round: its words, and whether a deal (its facts and stored verdict) is one."""

    label: Word
    happened: Callable[[Mapping[str, Any], Mapping[str, Any]], bool]  # (facts, verdict) → bool


def points_sixty(facts: Mapping[str, Any], verdict: Mapping[str, Any]) -> bool:
    """A 60:60 game: the declaring side made exactly half the card points (a conceded game does not count)."""
    return facts.get("card_points") == 60 and not facts.get("conceded")


def events(game: str) -> Mapping[str, BockEvent]:
    """The events that may start a Bock round in `game` (none where it has no Bock deals)."""
    from .games import GAMES  # the game modules import BockEvent from here

    return GAMES[game].BOCK_EVENTS


def allowed(game: str, rules: object) -> bool:
    """Whether `rules` (a parsed rule set of `game`) plays Bock deals at all."""
    from .games import GAMES

    return bool(GAMES[game].BOCK_EVENTS) and bool(rules.bock)  # type: ignore[attr-defined]


def takes_bock(game: str, rules: object, contract: object, table: Table) -> bool:
    """Whether a Bock deal of `contract` counts double: the contract has the ``bock`` field under these rules
    (a passed deal in a Bock round just uses one up)."""
    from .games import GAMES

    module = GAMES[game]
    try:
        return contract in module.contracts(rules) and "bock" in module.deal_fields(contract, rules, table)
    except IllegalDeal:
        return False
