"""The demo card nights `manage.py loaddemo` creates: one finished night per game, deals as a table
would declare them.

Every deal is generated from a fixed seed, so the demo is the same on every machine, and from the
engine's own description of what each contract asks (`rules.inputs`: kinds, ranges, choices, the
common values): this module knows no game's rules. A drawn deal is kept only where the engine judges
it, so every deal is within the game's rules (a Skat declarer never the sitting dealer, card points
and tricks that fit together …); the engine judges each one again when it is entered
(`nights.enter_deal`). Seats in the facts are the engine's seats for the deal (see `ledger.seating`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from scorekeep.rules import GAMES, IllegalDeal, Table, complete, inputs, judge, rules_json, seating
from scorekeep.rules.inputs import Input, Kind

Facts = dict[str, Any]

PLAYERS = ["Anna", "Bernd", "Clara", "Dieter"]
PLACE_PREFIX = "Demo"  # marks demo nights, so `loaddemo --replace` finds them
CLUB = "Demo club"  # the club of the demo nights (removed with them by `loaddemo --replace` once it is empty)

_MISSING = object()  # a field a drawn deal leaves out


@dataclass(frozen=True, slots=True)
class DemoNight:
    label: str
    game: str
    preset: str
    place: str
    date: str
    players: list[str]
    deals: list[Facts]
    settings: dict[str, Any] = field(default_factory=dict)
    house_rules: dict[str, Any] = field(default_factory=dict)
    first_dealer: int = 0


# --- every game's deals, drawn from the engine's description of what a contract asks ----------------------

def _draw(rng: random.Random, field: Input, seats: int) -> object:
    """A value a table might enter for `field`, within what the engine says it holds (kind, range, choices,
    the common values first); `_MISSING` to leave an optional field out."""
    if field.idle or field.kind is Kind.CARDS:
        return _MISSING
    if not field.required and rng.random() > (0.06 if field.seldom else 0.2):
        return _MISSING
    if field.kind is Kind.FLAG:
        return True
    if field.kind is Kind.SEAT:
        return rng.randrange(seats)
    if field.kind is Kind.SEATS:
        return sorted(rng.sample(range(seats), rng.randint(field.lo, field.hi)))
    if field.kind is Kind.SEAT_ORDER:
        first = rng.randrange(seats)
        return [first] if rng.random() < 0.7 else [first, rng.choice([s for s in range(seats) if s != first])]
    if field.kind is Kind.CHOICE:
        return rng.choice(field.choices)[0]
    if field.kind is Kind.COUNT:
        values = field.common if field.common and rng.random() < 0.8 else field.values or range(field.lo, field.hi + 1)
        return rng.choice([v for v in values if v not in field.impossible])
    if field.kind is Kind.PER_SEAT:
        return _shares(rng, field, seats)
    return _MISSING


def _shares(rng: random.Random, field: Input, seats: int) -> list[int]:
    """A list per seat adding up to the field's total (a Ramsch's card points): a share each, within range."""
    total = field.total if field.total is not None else rng.randint(field.lo, field.hi)
    cuts = sorted(rng.randint(0, total) for _seat in range(seats - 1))
    return [high - low for low, high in zip([0, *cuts], [*cuts, total], strict=True)]


def game_deals(game: str, preset: str, players: int, count: int, seed: int, first_dealer: int = 0) -> list[Facts]:
    """`count` deals of `game` at a table of `players`, each drawn from the engine's description of the deal
    (`rules.inputs`) and kept only where the engine judges it: every contract the rule set offers appears
    (a contract seldom played at most once), the common ones most often. Seats are the engine's seats of
    each deal (`seating`), dealt in turn from `first_dealer`."""
    rng = random.Random(seed)
    module = GAMES[game]
    rules = module.parse_rules({"preset": preset})
    offered = [str(contract) for contract in module.contracts(rules)]
    common = [contract for contract in offered if contract not in module.SELDOM_PLAYED]
    # Every contract once at a random deal of the night (not its last: a night ends with a common game); the
    # other deals the common ones, each half as often as the one before it (the engine lists the most played
    # first).
    shown = dict(zip(rng.sample(range(count - 1), min(count - 1, len(offered))), offered, strict=False))
    weights = [0.5 ** index for index in range(len(common))]
    deals: list[Facts] = []
    dealer = first_dealer
    for number in range(count):
        seats = seating.seating(game, players, dealer)
        table = Table(len(seats), seating.engine_dealer(seats, dealer))
        contract = shown.get(number) or rng.choices(common, weights)[0]
        deals.append(_judged_deal(rng, game, contract, rules, table))
        dealer = seating.next_dealer(dealer, players)
    return deals


def _judged_deal(rng: random.Random, game: str, contract: str, rules: Any, table: Table) -> Facts:
    """A deal of `contract` the engine accepts at `table`: drawn again until it does."""
    for _attempt in range(5000):
        facts: Facts = {"contract": contract}
        for asked in inputs(game, contract, rules, table):
            value = _draw(rng, asked, table.players)
            if value is not _MISSING:
                facts[asked.key] = value
        try:
            deal = complete(game, dict(facts), rules, table)
            judge({"game": game, "rules": rules_json(game, rules), "players": table.players, "dealer": table.dealer,
                   "deal": deal})
        except IllegalDeal:
            continue
        return deal
    raise IllegalDeal("contract", "no demo deal of {contract} was found", contract=contract)


# --- a club's two seasons of Skat nights (`loaddemo --seasons`) ------------------------------------------

SEASON_PLAYERS = ["Anna", "Bernd", "Clara", "Dieter", "Eva", "Frank"]


@dataclass(frozen=True, slots=True)
class DemoSeason:
    """A season of the demo club: `seasons.start_season`'s settings."""

    name: str
    start: str
    end: str
    basis: str
    min_nights: int = 0
    best_of: int | None = None
    drop_every: int | None = None
    absence_penalty: int = 0


SEASONS = [
    DemoSeason("Herbst 2024", "2024-09-01", "2024-12-31", "seeger_fabian", min_nights=3),
    DemoSeason("Frühjahr 2025", "2025-01-01", "2025-06-30", "seeger_fabian_per_series", min_nights=2, drop_every=3,
               absence_penalty=50),
]


def season_nights(seed: int = 2024) -> list[DemoNight]:
    """Twelve Skat club nights over two seasons (September 2024 to June 2025), three at the table, 12 deals
    each; who comes changes from night to night, so the seasons have absences, newcomers and the unranked."""
    rng = random.Random(seed)
    dates = ["2024-09-13", "2024-10-11", "2024-10-25", "2024-11-08", "2024-11-22", "2024-12-13",
             "2025-01-17", "2025-02-14", "2025-03-28", "2025-04-25", "2025-05-23", "2025-06-20"]
    out = []
    for number, date in enumerate(dates):
        pool = SEASON_PLAYERS[:4] if number < 6 else SEASON_PLAYERS  # Eva and Frank join in 2025
        players = rng.sample(pool, 3)
        deals = game_deals("skat", "classic", len(players), 12, rng.randrange(2**32))
        out.append(DemoNight(f"Skat club night {number + 1}", "skat", "classic",
                             f"{PLACE_PREFIX} · Skatclub Herz Dame, Vereinsheim", date, players, deals))
    return out


def nights() -> list[DemoNight]:
    """The four demo nights, one per game, each finished. The seeds are ones whose deals show what a night
    of the game shows (tests/test_loaddemo.py): its typical contracts, a Kontra, a won Grand Hand, an
    overbid game, doublings, Laufende, add-ons."""
    return [
        DemoNight("Skat", "skat", "classic", f"{PLACE_PREFIX} · Skatclub Herz Dame", "2025-03-07", PLAYERS,
                  game_deals("skat", "classic", len(PLAYERS), 36, seed=12), settings={"series_length": 36}),
        DemoNight("Schafkopf", "schafkopf", "sauspiel", f"{PLACE_PREFIX} · Gasthaus zur Post", "2025-03-14", PLAYERS,
                  game_deals("schafkopf", "sauspiel", len(PLAYERS), 24, seed=29), settings={"currency": "EUR"}),
        DemoNight("Kop", "kop", "wolsztyn", f"{PLACE_PREFIX} · Wolsztyn club room", "2025-03-21",
                  [*PLAYERS, "Eva"], game_deals("kop", "wolsztyn", len(PLAYERS) + 1, 15, seed=16),
                  settings={"round_length": 5}),
        DemoNight("Fipsen", "fipsen", "classic", f"{PLACE_PREFIX} · Prisdorf", "2025-03-28", PLAYERS,
                  game_deals("fipsen", "classic", len(PLAYERS), 20, seed=23)),
    ]
