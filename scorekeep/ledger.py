"""The ledger of a table, derived from its deals: who sits in which seat, Bock deals, the engine's
verdict for every deal, deal numbers, the series count and the running totals.

Nothing here is typed in by a person: a deal stores only the facts the table declared and who sat
where (`Deal.seating`, `Deal.dealer`); everything else follows from the deal list and the night's
rule set, so a correction of deal 3 changes deal 4's Bock status, deal 20's number and every total
after it (`recompute`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .models import CardNight, CardTable, Deal
from .rules import GAMES, IllegalDeal, Table, Verdict, judge

# How many people may sit at a table of each game; beyond the engine's seats they sit out in turn.
PLAYERS: dict[str, range] = {"skat": range(3, 8), "schafkopf": range(4, 8), "kop": range(4, 8),
                             "fipsen": range(3, 8)}

SERIES_LENGTHS = (36, 48)

DERIVED = frozenset({"bock"})
"""Deal fields the ledger derives from the deals before (`BockQueue`), never asked of the table."""


def engine_seats(game: str, players: int) -> int:
    """The table size the engine scores for `players` people: Skat and Fipsen at 3 seats when three
    play, otherwise 4 (Skat's fourth seat is the dealer, who sits the deal out); Schafkopf and Kop 4."""
    if players not in PLAYERS[game]:
        raise ValueError(f"{game} takes {PLAYERS[game].start}–{PLAYERS[game].stop - 1} players, not {players}")
    return 3 if players == 3 else 4


def seating(game: str, players: int, dealer: int) -> list[int]:
    """Who plays a deal dealt by position `dealer`: the table positions in the engine's seats 0 …, clockwise.

    As clubs do it: with exactly as many players as seats everyone plays in table order. With more,
    the dealer and those beyond the seats sit out — the players to the dealer's left play, forehand
    (the dealer's left) in seat 0. A 4-seat Skat table (four players or more) keeps its dealer in
    the last seat: the engine knows he sits out (and gives him his Seeger-Fabian points).
    """
    seats = engine_seats(game, players)
    # At four Skat players the dealer sits out too, so the rotation applies there as well.
    if players == seats and not (game == "skat" and seats == 4):
        return list(range(players))
    active = [(dealer + offset) % players for offset in range(1, seats + 1)]
    if game == "skat":  # the engine's 4th seat is the sitting dealer
        active[-1] = dealer
    return active


def engine_dealer(seats: Sequence[int], dealer: int) -> int:
    """The engine's dealer seat: where the dealer sits, or the seat before forehand when he sits out."""
    return seats.index(dealer) if dealer in seats else len(seats) - 1


def request(night: CardNight, seats: Sequence[int], dealer: int, facts: dict[str, Any], bock: bool) -> dict[str, Any]:
    """The adjudication request for one deal of the night. A Bock deal carries ``bock`` only where its
    contract counts it (a passed deal in a Bock round simply uses up one Bock deal)."""
    table = Table(len(seats), engine_dealer(seats, dealer))
    # Bock is derived from the deals before, never taken from what was typed (a form may send it).
    facts = {key: value for key, value in facts.items() if key != "bock"}
    if bock and _takes_bock(night, facts.get("contract"), table):
        facts = {**facts, "bock": True}
    return {"game": night.game, "rules": night.rules_request, "players": table.players, "dealer": table.dealer,
            "deal": facts}


def _takes_bock(night: CardNight, contract: object, table: Table) -> bool:
    module = GAMES[night.game]
    try:
        rules = module.parse_rules(night.rules_request)
        return contract in module.contracts(rules) and "bock" in module.deal_fields(contract, rules, table)
    except IllegalDeal:
        return False


# --- Bock rounds -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class BockEvent:
    label: str | Promise
    happened: Callable[[dict[str, Any], dict[str, Any]], bool]  # (facts, verdict) → bool


def _points_sixty(facts: dict[str, Any], verdict: dict[str, Any]) -> bool:
    return facts.get("card_points") == 60 and not facts.get("conceded")


BOCK_EVENTS: dict[str, dict[str, BockEvent]] = {
    "skat": {
        "kontra_lost": BockEvent(_("a lost game with Kontra"),
                                 lambda f, v: bool(f.get("kontra")) and v["won"] is False),
        "re": BockEvent(_("a game with Re"), lambda f, v: bool(f.get("re"))),
        "sixty": BockEvent(_("a 60:60 game"), lambda f, v: f.get("contract") not in ("null", "ramsch", "passed")
                           and _points_sixty(f, v)),
        "grand_hand_won": BockEvent(_("a won Grand Hand"), lambda f, v: f.get("contract") == "grand"
                                    and bool(f.get("hand")) and v["won"] is True),
        "schwarz": BockEvent(_("a Schwarz game"), lambda f, v: "schwarz" in v.get("levels", ())),
    },
    "schafkopf": {
        "doubled_lost": BockEvent(_("a lost game with Stoß"),
                                  lambda f, v: f.get("doublings", 0) > 0 and v["won"] is False),
        "sixty": BockEvent(_("a 60:60 game"), _points_sixty),
        "tout_won": BockEvent(_("a won Tout"),
                              lambda f, v: str(f.get("contract", "")).endswith("_tout") and v["won"] is True),
        "sie": BockEvent(_("a Sie"), lambda f, v: f.get("contract") == "sie"),
        "schwarz": BockEvent(_("a Schwarz game"), lambda f, v: bool(v.get("schwarz"))),
    },
}


def bock_allowed(night: CardNight) -> bool:
    """Whether the night's rule set has Bock deals at all (RULES.md option ``bock``)."""
    if night.game not in BOCK_EVENTS:
        return False
    try:
        return bool(GAMES[night.game].parse_rules(night.rules_request).bock)
    except IllegalDeal:
        return False


def bock_events(night: CardNight) -> list[tuple[str, BockEvent]]:
    """The events that start a Bock round at this night's tables (none where the rules have no Bock)."""
    events = BOCK_EVENTS.get(night.game, {}) if bock_allowed(night) else {}
    return [(key, events[key]) for key in night.bock_events if key in events]


def bock_length(night: CardNight, players: int) -> int:
    """How many deals one Bock round lasts: the night's setting, or one round of the table."""
    return night.bock_length or players


# --- recomputing -------------------------------------------------------------------------------

class LedgerError(Exception):
    """A deal the engine refuses under the night's (new) rules: which deal, and the engine's error."""

    def __init__(self, number: int, error: IllegalDeal, deal: Deal | None = None) -> None:
        super().__init__(f"deal {number}: {error}")
        self.number = number
        self.error = error
        self.deal = deal  # the refused deal, so a page can name the players in its seats


class BockQueue:
    """The Bock deals still to come at a table, deal by deal (RULES.md: the table decides when).

    A deal is a Bock deal while Bock deals are pending; the events it sets off queue one more round
    each, after those already pending (rounds do not overlap). A deal's own Bock status never
    depends on what it starts; every deal counts, passed deals included.
    """

    def __init__(self, night: CardNight, players: int) -> None:
        self.events = [event for _key, event in bock_events(night)]
        self.length = bock_length(night, players)
        self.pending = 0

    def next(self) -> bool:
        """Whether the next deal is a Bock deal; it uses one up."""
        bock = self.pending > 0
        self.pending -= bock
        return bock

    def after(self, facts: dict[str, Any], verdict: dict[str, Any]) -> None:
        """Queue the rounds a deal's events start."""
        self.pending += self.length * sum(event.happened(facts, verdict) for event in self.events)


def next_is_bock(night: CardNight, players: int, deals: Sequence[Deal]) -> bool:
    """Whether the deal after `deals` (the table's live deals in order, as stored) is a Bock deal."""
    queue = BockQueue(night, players)
    for deal in deals:
        queue.next()
        queue.after(deal.facts, deal.verdict)
    return queue.pending > 0


def sits_out(game: str, seating: Sequence[int], dealer: int, players: int) -> list[int]:
    """Table positions with no cards in a deal: those beyond the engine's seats, and the dealer of a
    4-seat Skat table (the engine's seat 3, scored only with Seeger-Fabian points)."""
    out = set(range(players)) - set(seating)
    if game == "skat" and len(seating) == 4:
        out.add(dealer)
    return sorted(out)


def judge_deal(night: CardNight, seats: Sequence[int], dealer: int, facts: dict[str, Any], bock: bool) -> Verdict:
    """The engine's verdict for one deal of the night; raises `IllegalDeal`."""
    verdict = judge(request(night, seats, dealer, facts, bock))
    assert isinstance(verdict, Verdict)
    return verdict


def recompute(table: CardTable) -> None:
    """Judge every live deal of the table again, in order, and store what changed.

    The Bock status of a deal depends on the verdicts before it, so each is judged with the flags
    derived so far. Raises `LedgerError` (nothing stored) when a deal is refused — e.g. after a
    change of house rules that forbids what was played; the caller's transaction then rolls back.
    """
    night = table.night
    players = table.places.count()
    deals = list(table.deals.filter(deleted=False).order_by("sequence"))
    queue = BockQueue(night, players)
    changed = []
    for number, deal in enumerate(deals, start=1):
        bock = queue.next()
        try:
            verdict = judge_deal(night, deal.seating, deal.dealer, deal.facts, bock).to_json()
        except IllegalDeal as err:
            raise LedgerError(number, err, deal) from err
        if verdict != deal.verdict or bock != deal.bock:
            deal.verdict, deal.bock = verdict, bock
            changed.append(deal)
        queue.after(deal.facts, verdict)
    if changed:
        Deal.objects.bulk_update(changed, ["verdict", "bock"])


# --- the ledger --------------------------------------------------------------------------------

@dataclass(slots=True)
class Row:
    """One deal in the ledger: its number, who dealt, the verdict, each player's entry (None: sat
    out, the dealer at a 4-seat Skat table too) and the running totals after it, indexed by table
    position. `placing_complete`: the placing closes a full round (not a round still under way)."""

    number: int
    deal: Deal
    dealer: int
    seats: list[int]
    entries: list[int | None]
    totals: list[int]
    seeger_fabian: list[int | None]
    seeger_fabian_totals: list[int]
    bock_started: list[str] = field(default_factory=list)  # keys of BOCK_EVENTS this deal set off
    placing: list[Fraction] | None = None  # Kop: after the last deal of a round
    placing_complete: bool = False

    @property
    def verdict(self) -> dict[str, Any]:
        return self.deal.verdict

    @property
    def declarers(self) -> list[int]:
        """Table positions of the declaring side (empty for passed deals and Ramsch)."""
        facts = self.deal.facts
        seats: list[int] = []
        if isinstance(facts.get("declarer"), int):
            seats.append(facts["declarer"])
        if isinstance(facts.get("partner"), int):
            seats.append(facts["partner"])
        if isinstance(facts.get("old"), list):
            seats.extend(s for s in facts["old"] if isinstance(s, int))
        return [self.seats[s] for s in seats if 0 <= s < len(self.seats)]


@dataclass(slots=True)
class Ledger:
    table: CardTable
    names: list[str]
    rows: list[Row]
    totals: list[int]
    seeger_fabian_totals: list[int]
    performance: list[int]  # Skat: list points + Seeger-Fabian points
    won: list[int]
    lost: list[int]
    placing_totals: list[Fraction] | None

    @property
    def deals_played(self) -> int:
        return len(self.rows)

    @property
    def series_length(self) -> int | None:
        return self.table.night.series_length

    @property
    def series_complete(self) -> bool:
        return self.series_length is not None and self.deals_played >= self.series_length


def placing(totals: Sequence[int], points: Sequence[int]) -> list[Fraction]:
    """Round placing points by total, highest first; tied players share the points of the places
    they occupy together (RULES.md: "ties share"), e.g. two tied first at 4/3/2/1 get 3½ each."""
    order = sorted(range(len(totals)), key=lambda p: -totals[p])
    padded = list(points) + [0] * max(0, len(totals) - len(points))
    out = [Fraction(0)] * len(totals)
    place = 0
    while place < len(order):
        tied = [p for p in order[place:] if totals[p] == totals[order[place]]]
        share = Fraction(sum(padded[place:place + len(tied)]), len(tied))
        for p in tied:
            out[p] = share
        place += len(tied)
    return out


def build(table: CardTable, deals: Sequence[Deal] | None = None, names: Sequence[str] | None = None) -> Ledger:
    """The table's ledger from its stored verdicts (no engine calls): one row per live deal.

    Pass prefetched `deals`/`names` to build it without further queries.
    """
    night = table.night
    if names is None:
        names = [place.player.name for place in table.places.select_related("player")]
    if deals is None:
        deals = list(table.deals.filter(deleted=False).order_by("sequence"))
    n = len(names)
    totals, sf_totals = [0] * n, [0] * n
    won, lost = [0] * n, [0] * n
    round_points = GAMES[night.game].parse_rules(night.rules_request).round_placing if night.game == "kop" else None
    round_length = night.round_length
    placing_totals = [Fraction(0)] * n if round_points else None
    events = bock_events(night)
    round_start = [0] * n
    rows = []
    for number, deal in enumerate(deals, start=1):
        verdict = deal.verdict
        entries: list[int | None] = [None] * n
        sf: list[int | None] = [None] * n
        out = sits_out(night.game, deal.seating, deal.dealer, n)
        for seat, position in enumerate(deal.seating):
            if position not in out:  # the sitting dealer's list cell stays blank (his score is always 0)
                entries[position] = verdict["scores"][seat]
            totals[position] += verdict["scores"][seat]
            if "seeger_fabian" in verdict:
                sf[position] = verdict["seeger_fabian"][seat]
                sf_totals[position] += verdict["seeger_fabian"][seat]
        row = Row(number, deal, deal.dealer, list(deal.seating), entries, list(totals), sf, list(sf_totals),
                  [key for key, event in events if event.happened(deal.facts, verdict)])
        if verdict.get("won") is not None:
            for position in row.declarers[:1] if night.game in ("skat", "fipsen") else row.declarers:
                (won if verdict["won"] else lost)[position] += 1
        last_of_round = (round_length and number % round_length == 0) or number == len(deals)
        if placing_totals is not None and round_points and last_of_round:
            in_round = [totals[p] - round_start[p] for p in range(n)]
            row.placing = placing(in_round, round_points)
            row.placing_complete = bool(round_length) and number % round_length == 0
            if row.placing_complete:
                placing_totals = [a + b for a, b in zip(placing_totals, row.placing, strict=True)]
                round_start = list(totals)
        rows.append(row)
    if placing_totals is not None and rows and rows[-1].placing is not None and not (
            round_length and len(rows) % round_length == 0):
        # The round under way counts as it stands (provisional until it is complete).
        placing_totals = [a + b for a, b in zip(placing_totals, rows[-1].placing, strict=True)]
    return Ledger(table, list(names), rows, totals, sf_totals,
                  [a + b for a, b in zip(totals, sf_totals, strict=True)], won, lost, placing_totals)
