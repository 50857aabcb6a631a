"""The demo card nights `manage.py loaddemo` creates: one finished night per game, deals as a table
would declare them.

Every deal is generated from a fixed seed, so the demo is the same on every machine, and within
each game's rules: a Skat declarer never the sitting dealer, a bid the game's value reaches (except
the one overbid deal, on purpose), card points and tricks that fit together, Schafkopf Laufende no
more than the contract's trumps and doublings within the tariff's limit, Kop doublings that
alternate sides with the lone player never calling first, Fipsen trick counts from 0 to 5. The
engine still judges each one when it is entered (`nights.enter_deal`), which refuses anything
else. Seats in the facts are the engine's seats for the deal (see `ledger.seating`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from scorekeep.rules import kop, skat

Facts = dict[str, Any]

PLAYERS = ["Anna", "Bernd", "Clara", "Dieter"]
PLACE_PREFIX = "Demo"  # marks demo nights, so `loaddemo --replace` finds them
CLUB = "Demo club"  # the club of the demo nights (removed with them by `loaddemo --replace` once it is empty)

SKAT_BIDS = sorted(skat.BID_VALUES)


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


# --- Skat ------------------------------------------------------------------------------------------

def _skat_bid(rng: random.Random, reach: int) -> int:
    """A bid the declarer's hand reaches; low bids are the common ones."""
    bids = [b for b in SKAT_BIDS if b <= reach]
    return rng.choice(bids[:5]) if rng.random() < 0.7 else rng.choice(bids)


def _skat_game(rng: random.Random, declarer: int, *, contract: str | None = None, won: bool | None = None,
               hand: bool = False, kontra: bool = False) -> Facts:
    contract = contract or rng.choice(["clubs", "spades", "hearts", "diamonds", "grand", "clubs", "hearts", "grand"])
    matadors = rng.choice([1, 2, 3, 4, -1, -2, -3] if contract == "grand" else [1, 1, 2, 2, 3, 4, -1, -1, -2, -3])
    won = rng.random() < 0.72 if won is None else won
    points = rng.randint(61, 95) if won else rng.randint(32, 60)
    facts: Facts = {"contract": contract, "declarer": declarer,
                    "bid": _skat_bid(rng, skat.least_value(contract, matadors, hand)), "matadors": matadors,
                    "card_points": points}
    if hand:
        facts["hand"] = True
    if kontra:
        facts["kontra"] = True
    return facts


def skat_deals(seed: int = 36) -> list[Facts]:
    """A series of 36 deals at a 4-seat table (engine seats 0–2 play, seat 3 is the dealer who sits out)."""
    rng = random.Random(seed)
    special: dict[int, Callable[[int], Facts]] = {
        2: lambda d: {"contract": "grand", "declarer": d, "bid": 48, "matadors": 1, "hand": True, "card_points": 88},
        5: lambda d: {"contract": "null", "declarer": d, "bid": 23, "declarer_tricks": 0},
        9: lambda d: {"contract": "ramsch", "points": [34, 52, 34, 0], "tricks": [3, 4, 3, 0]},
        12: lambda d: _skat_game(rng, d, contract="spades", won=False, kontra=True),
        15: lambda d: {"contract": "diamonds", "declarer": d, "bid": 20, "matadors": 1, "card_points": 74},  # overbid
        19: lambda d: {"contract": "null", "declarer": d, "bid": 20, "hand": True, "declarer_tricks": 1},
        22: lambda d: {"contract": "grand", "declarer": d, "bid": 30, "matadors": -2, "card_points": 54},  # lost
        24: lambda d: {"contract": "ramsch", "points": [61, 0, 59, 0], "tricks": [6, 0, 4, 0]},  # Jungfrau
        27: lambda d: _skat_game(rng, d, contract="clubs", won=True, kontra=True),
        31: lambda d: {"contract": "hearts", "declarer": d, "bid": 18, "matadors": -1, "card_points": 96},  # schneider
    }
    deals = []
    for number in range(36):
        declarer = rng.randrange(3)
        deals.append(special[number](declarer) if number in special else _skat_game(rng, declarer))
    return deals


# --- Schafkopf --------------------------------------------------------------------------------------

def _sk_points(rng: random.Random, won: bool) -> int:
    return rng.randint(61, 100) if won else rng.randint(25, 60)


def schafkopf_deals(seed: int = 29) -> list[Facts]:
    """A round of 24 deals at four seats under the Sauspiel tariff: mostly Sauspiele, some Wenz and
    Solo, a Stoß now and then, Laufende where they are, one Ramsch when all passed."""
    rng = random.Random(seed)
    deals: list[Facts] = []
    for number in range(24):
        declarer = rng.randrange(4)
        won = rng.random() < 0.65
        kind = {4: "wenz", 8: "solo", 11: "ramsch", 14: "solo", 17: "wenz", 20: "farbwenz"}.get(number, "sauspiel")
        doublings = 1 if number in (6, 14, 21) else 0
        if kind == "ramsch":
            deals.append({"contract": "ramsch", "points": [38, 45, 37, 0], "tricks": [3, 3, 2, 0]})
            continue
        facts: Facts = {"contract": kind, "declarer": declarer}
        if kind == "sauspiel":
            facts["partner"] = rng.choice([s for s in range(4) if s != declarer])
            facts["called_ace"] = rng.choice("CSD")
        if kind in ("solo", "farbwenz"):
            facts["trump"] = rng.choice("CSHD")
        facts["card_points"] = _sk_points(rng, won)
        laufende = rng.choice([0, 0, 1, 2, 3, 3, 4]) if kind != "wenz" else rng.choice([0, 1, 2, 2, 3])
        if laufende:
            facts["laufende"] = laufende
        if doublings:
            facts["doublings"] = doublings
        if number == 9:
            facts["klopfer"] = 1
        deals.append(facts)
    return deals


# --- Kop ---------------------------------------------------------------------------------------------

def _kop_side(rng: random.Random, old_wins: bool) -> tuple[int, int]:
    """The old side's tricks and card points, winning (53 or more) or not: a total its tricks can
    hold while the other side's tricks hold the rest of the 104 (`kop.TOTALS_BY_TRICKS`)."""
    tricks = rng.choice([2, 3, 3, 4]) if old_wins else rng.choice([0, 1, 1, 2])
    others = {kop.TOTAL_POINTS - p for p in kop.TOTALS_BY_TRICKS[kop.TRICKS - tricks]}
    totals = sorted(p for p in kop.TOTALS_BY_TRICKS[tricks] & others
                    if (p >= kop.WIN_POINTS) == old_wins and p != kop.WIN_POINTS - 1)
    return tricks, rng.choice(totals)


def kop_deals(seed: int = 16) -> list[Facts]:
    """15 deals (three rounds of five) at a table of five, four playing each deal."""
    rng = random.Random(seed)
    deals: list[Facts] = []
    for number in range(15):
        contract = {3: "wesele", 7: "cicha", 11: "zolo"}.get(number, "normal")
        if contract in ("normal", "wesele"):
            first = rng.randrange(4)
            old = sorted([first, rng.choice([s for s in range(4) if s != first])])
        else:
            old = [rng.randrange(4)]
        young = [s for s in range(4) if s not in old]
        tricks, points = _kop_side(rng, rng.random() < 0.6)
        facts: Facts = {"contract": contract, "old": old, "card_points": points, "old_tricks": tricks}
        if number in (2, 9, 13):  # the young side doubles; at 9 the old side answers
            facts["doublings"] = [young[0]] + ([old[0]] if number == 9 else [])
        deals.append(facts)
    return deals


# --- Fipsen -------------------------------------------------------------------------------------------

def fipsen_deals(seed: int = 23) -> list[Facts]:
    """20 deals at four seats: trick bids with add-ons, a Kieker, a Siebener Fips, a passed deal."""
    rng = random.Random(seed)
    deals: list[Facts] = []
    for number in range(20):
        declarer = rng.randrange(4)
        if number == 6:
            deals.append({"contract": "kieker", "declarer": declarer, "tricks_taken": 5})
        elif number == 14:
            deals.append({"contract": "kieker", "declarer": declarer, "ruten": True, "surrendered": True,
                          "tricks_taken": 0})
        elif number == 10:
            deals.append({"contract": "siebener_fips", "declarer": declarer})
        elif number == 17:
            deals.append({"contract": "passed"})
        else:
            bid = rng.choice([2, 2, 3, 3, 3, 4, 4, 5])
            facts: Facts = {"contract": "tricks", "declarer": declarer, "bid": bid}
            if rng.random() < 0.3:
                facts["hand"] = True
            if rng.random() < 0.2:
                facts["ruten"] = True
            if bid == 4 and rng.random() < 0.3:
                facts["durch"] = True
            needed = 5 if bid == 5 or facts.get("durch") else bid
            facts["tricks_taken"] = rng.randint(needed, 5) if rng.random() < 0.7 else rng.randint(0, needed - 1)
            deals.append(facts)
    return deals


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
        deals = [_skat_game(rng, rng.randrange(3)) for _deal in range(12)]
        out.append(DemoNight(f"Skat club night {number + 1}", "skat", "classic",
                             f"{PLACE_PREFIX} · Skatclub Herz Dame, Vereinsheim", date, players, deals))
    return out


def nights() -> list[DemoNight]:
    """The four demo nights, one per game, each finished."""
    return [
        DemoNight("Skat", "skat", "classic", f"{PLACE_PREFIX} · Skatclub Herz Dame", "2025-03-07", PLAYERS,
                  skat_deals(), settings={"series_length": 36}),
        DemoNight("Schafkopf", "schafkopf", "sauspiel", f"{PLACE_PREFIX} · Gasthaus zur Post", "2025-03-14", PLAYERS,
                  schafkopf_deals(), settings={"currency": "EUR"}),
        DemoNight("Kop", "kop", "wolsztyn", f"{PLACE_PREFIX} · Wolsztyn club room", "2025-03-21",
                  [*PLAYERS, "Eva"], kop_deals(), settings={"round_length": 5}),
        DemoNight("Fipsen", "fipsen", "classic", f"{PLACE_PREFIX} · Prisdorf", "2025-03-28", PLAYERS,
                  fipsen_deals()),
    ]
