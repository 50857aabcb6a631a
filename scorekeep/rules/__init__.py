"""The scoring engine of scorekeep: Skat, Schafkopf, Kop and Fipsen, with no Django in sight.

`adjudicate` takes one request of the adjudication contract (``shared/spec/ADJUDICATION.md``) as
parsed JSON and returns its verdict or rejection as a JSON-ready dict; it never raises. `judge`
does the same but returns the engine's own objects (a `Verdict`, or for a Fipsen bidding dispute a
`Comparison`) and raises `IllegalDeal` — that is what the web pages use.

Each game module has the same public shape: ``SEATS``, ``DEFAULT_SEATS``, ``PRESETS`` (option
values per preset), ``DEFAULT_PRESET``, ``OPTIONS`` (option validators), ``CONTRACTS`` (the deal
fields each contract uses), ``parse_rules``, ``parse_deal`` and ``score``; and its words and inputs
(`scorekeep.rules.inputs`): ``NAME``, ``PRESET_LABELS``, ``CONTRACT_LABELS``, ``OPTION_LABELS``,
``CHOICE_LABELS``, ``NONE_LABELS``, ``FIELDS``, ``inputs(contract, rules, table)`` (what a contract
asks of the table), ``complete(facts, rules, table)`` (what the other facts settle: a page's entries as the
contract's deal) and ``entered(facts, rules, table)`` (a stored deal as a page enters it).
`describe` puts one game's description together as ``GET /api/games`` publishes it.
"""

from collections.abc import Callable
from typing import Any

from . import bock, fipsen, play, seating, standing
from .errors import IllegalDeal
from .explain import Step, Word
from .fields import Reader, check_choice, describe, option_shape, words
from .games import DEFAULT_GAME, GAMES, Game
from .inputs import Input, Kind, Need
from .verdict import Comparison, Table, Verdict, options_json

# The games' names as a refusal says them ("Skat is played at 3 or 4 seats"): `Word`s a page translates.
_GAME_NAMES = {game: Word(game.capitalize()) for game in GAMES}

__all__ = ["DEFAULT_GAME", "GAMES", "Comparison", "IllegalDeal", "Input", "Kind", "Need", "Step", "Table", "Verdict",
           "adjudicate", "bock", "complete", "describe_game", "entered", "inputs", "judge", "pack", "rules_json",
           "seating", "settles_bidding", "standing"]

_ENVELOPE = frozenset({"game", "rules", "players", "dealer", "deal"})
# The request fields each game takes: Fipsen also settles bidding disputes ("compare").
_FIELDS = {game: _ENVELOPE | {"compare"} if hasattr(module, "compare") else _ENVELOPE
           for game, module in GAMES.items()}


def judge(request: object) -> Verdict | Comparison:
    """Score one request of the contract; raises `IllegalDeal` for anything the rules refuse."""
    if not isinstance(request, dict):
        raise IllegalDeal("request", "must be a JSON object with \"game\" and \"deal\", not {got}",
                          got=describe(request))
    named = request.get("game")
    module = GAMES.get(named) if type(named) is str else None
    if module is None:
        if named is None:
            raise IllegalDeal("game", "is required: one of {allowed}", allowed=words(f'"{g}"' for g in GAMES))
        check_choice(named, "game", GAMES)
    assert module is not None and type(named) is str  # check_choice raised for anything else
    game: str = named
    known = _FIELDS[game]
    if not request.keys() <= known:  # one set comparison in C; the Reader names the stranger
        Reader(request, "", known)
    players = request.get("players", module.DEFAULT_SEATS)
    if players is None:
        players = module.DEFAULT_SEATS
    if type(players) is not int or players not in module.SEATS:
        raise IllegalDeal("players", "{game} is played at {seats} seats, not {got}", game=_GAME_NAMES[game],
                          seats=words(module.SEATS), got=describe(players))
    dealer = request.get("dealer")
    # Every valid (players, dealer) has its table made already; anything else is read (and refused) by the Reader.
    table = _TABLES.get((players, dealer)) if type(dealer) is int else None
    if table is None:
        table = _TABLES[players, Reader(request, "", known).int("dealer", 0, players - 1, default=players - 1)]
    rules = _rules(module, request.get("rules"))
    if request.get("compare") is not None:  # only Fipsen knows it: the others refused it above
        if request.get("deal") is not None:
            raise IllegalDeal("compare", "a request settles either a deal or a bidding dispute: "
                              "give \"deal\" or \"compare\", not both")
        comparison: Comparison = fipsen.compare(fipsen.parse_compare(request["compare"], rules, table), rules, table)
        return comparison  # the one game that settles bidding disputes (`settles_bidding`)
    deal = request.get("deal")
    if deal is None:
        raise IllegalDeal("deal", "is required: the deal as the table played it (see the contract's fields for {game})",
                          game=game)
    if type(deal) is dict and "play" in deal:  # issue 19: the deal as played, checked card by card (rules/play.py)
        if deal["play"] is not None:
            return play.judge_played(module, game, deal, rules, table)
        deal = {key: value for key, value in deal.items() if key != "play"}
    return module.score(module.parse_deal(deal, rules, table), rules, table)


# Every table there can be, made once (seats are few): Table objects are immutable.
_TABLES = {(players, dealer): Table(players, dealer)
           for module in GAMES.values() for players in module.SEATS for dealer in range(players)}

_RULES_CACHE: dict[tuple[object, ...], object] = {}


def _rules(module: Game, obj: object) -> Any:
    """`module.parse_rules(obj)`, remembered: a table sends the same rules object with every deal.

    The key keeps each value's type, so ``true`` and ``1`` never share an entry; objects holding
    lists or objects are not remembered (they are rare and cheap enough to read again).
    """
    if not isinstance(obj, dict) or len(_RULES_CACHE) > 4096:
        return module.parse_rules(obj)
    if len(obj) == 1 and type(preset := obj.get("preset")) is str:
        key: tuple[object, ...] = (module, preset)  # the common case: a preset alone
    else:
        try:
            key = (module, *((k, type(v), v) for k, v in obj.items()))
            hash(key)
        except TypeError:
            return module.parse_rules(obj)
    rules = _RULES_CACHE.get(key)
    if rules is None:
        rules = _RULES_CACHE[key] = module.parse_rules(obj)
    return rules


def adjudicate(request: object) -> dict[str, Any]:
    """The contract's answer to one request: a verdict (``"ok": true``) or a rejection."""
    try:
        return judge(request).to_json()
    except IllegalDeal as err:
        return {"ok": False, "errors": [err.to_json()]}




def pack(game: str) -> tuple[tuple[str, int], ...]:
    """The cards a side can capture in `game`, each with its card points (empty where none are counted)."""
    return GAMES[game].PACK


def complete(game: str, facts: dict[str, Any], rules: object, table: Table) -> dict[str, Any]:
    """The deal's facts as a page entered them, with what the others settle filled in: Kop's old side's
    tricks from its points; a Ramsch's tricks from the card points and the players tapped as taking no
    trick or every trick, and the card points of the player left empty. Raises `IllegalDeal` where the
    entries cannot be completed."""
    return GAMES[game].complete(facts, rules, table)


def entered(game: str, facts: dict[str, Any], rules: object, table: Table) -> dict[str, Any]:
    """A stored deal's facts as a page enters them (`complete` in reverse): a Ramsch's taps in place of the
    tricks that follow from them."""
    return GAMES[game].entered(facts, rules, table)


def inputs(game: str, contract: str, rules: object, table: Table) -> tuple[Input, ...]:
    """What `contract` of `game` asks of the table under `rules` (a parsed rule set) at `table`."""
    return GAMES[game].inputs(str(contract), rules, table)


Translate = Callable[[str], str]


def describe_game(game: str, rules: object = None, players: int | None = None,
                  translate: Translate = str) -> dict[str, Any]:
    """One game as ``GET /api/games`` describes it: its seats, presets, options (house rules) and, for
    the rule set `rules` (a request's ``rules`` object; None: each preset in turn), every contract with
    the deal fields it asks (`Input.to_json`) and those it does not use. Words go through `translate`.
    Raises `IllegalDeal` for a `rules` object or a table size the game refuses."""
    module = GAMES[game]
    players = module.DEFAULT_SEATS if players is None else players
    if players not in module.SEATS:
        raise IllegalDeal("players", "{game} is played at {seats} seats, not {got}", game=_GAME_NAMES[game],
                          seats=words(module.SEATS), got=describe(players))
    table = _TABLES[players, players - 1]
    every_field = {key for fields in module.CONTRACTS.values() for key in fields}

    def rule_set(parsed: Any, label: str | None) -> dict[str, Any]:
        contracts = []
        for contract in module.contracts(parsed):
            asked = module.inputs(str(contract), parsed, table)
            described: dict[str, Any] = {
                "contract": str(contract), "label": translate(module.CONTRACT_LABELS[contract]),
                "fields": [field.to_json(translate) for field in asked],
                "unused": sorted(every_field - {field.key for field in asked})}
            if contract in module.SELDOM_PLAYED:  # issue 14: a page may offer it behind "Other"
                described["seldom_played"] = True
            contracts.append(described)
        out = {"preset": parsed.preset, "rules": _rules_json(module, parsed), "contracts": contracts}
        return {**out, "label": label} if label is not None else out

    if rules is None:
        rule_sets = [rule_set(module.parse_rules({"preset": preset}), translate(label))
                     for preset, label in module.PRESET_LABELS.items()]
    else:
        rule_sets = [rule_set(module.parse_rules(rules), None)]
    return {"game": game, "label": translate(module.NAME), "seats": list(module.SEATS), "players": players,
            "default_preset": module.DEFAULT_PRESET,
            "presets": [{"preset": preset, "label": translate(label)}
                        for preset, label in module.PRESET_LABELS.items()],
            "options": [_option_json(module, key, validator, translate) for key, validator in module.OPTIONS.items()],
            "rule_sets": rule_sets}


def rules_json(game: str, rules: object) -> dict[str, Any]:
    """A parsed rule set as the contract's ``rules`` object (every option, the preset's name first)."""
    module = GAMES[game]
    return module.rules_json(rules) if hasattr(module, "rules_json") else options_json(rules)


def _rules_json(module: Game, rules: object) -> dict[str, Any]:
    return rules_json(module.__name__.rsplit(".", 1)[-1], rules)


def settles_bidding(game: str) -> bool:
    """Whether `game` also settles bidding disputes (the contract's ``compare`` request: Fipsen)."""
    return "compare" in _FIELDS[game]


def _option_json(module: Game, key: str, validator: Any, translate: Translate) -> dict[str, Any]:
    """A house rule as a page offers it: its kind (as its validator says) and words."""
    out: dict[str, Any] = {"key": key, "label": translate(module.OPTION_LABELS.get(key, key))}
    kind, inner, nullable = option_shape(validator)
    shape: Any = inner  # an Integer (lo, hi) or a OneOf (choices), as `kind` says
    out["kind"] = kind
    if nullable:
        out["none"] = translate(module.NONE_LABELS.get(key, Word("none")))
    if out["kind"] == "integer":
        out["min"], out["max"] = shape.lo, shape.hi
    elif out["kind"] == "choice":
        out["choices"] = [{"value": c, "label": translate(module.CHOICE_LABELS.get((key, c), Word(c)))}
                          for c in shape.choices]
    return out
