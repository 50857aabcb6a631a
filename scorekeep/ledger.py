"""The ledger of a table, derived from its deals: who sits in which seat, Bock deals, the engine's
verdict for every deal, deal numbers, the series count and the running totals.

Nothing here is typed in by a person: a deal stores only the facts the table declared and who sat
where (`Deal.seating`, `Deal.dealer`); everything else follows from the deal list and the night's
rule set, so a correction of deal 3 changes deal 4's Bock status, deal 20's number and every total
after it (`recompute`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .models import CardNight, CardTable, Deal
from .rules import GAMES, IllegalDeal, Table, Verdict, bock, judge, standing
from .rules.bock import BockEvent
from .rules.seating import PLAYERS, engine_dealer, engine_seats, seating, sits_out
from .rules.standing import placing
from .rules.verdict import Recorded

__all__ = ["PLAYERS", "BockEvent", "engine_dealer", "engine_seats", "placing", "seating", "sits_out"]

DERIVED = frozenset({"bock"})
"""Deal fields the ledger derives from the deals before (`BockQueue`), never asked of the table."""


def series_lengths(game: str) -> tuple[int, ...]:
    """The series a night of `game` may be played in (Skat: 36 or 48 deals; none elsewhere)."""
    return GAMES[game].SERIES


def request(night: CardNight, seats: Sequence[int], dealer: int, facts: dict[str, Any],
            bock_deal: bool) -> dict[str, Any]:
    """The adjudication request for one deal of the night. A Bock deal carries ``bock`` only where its
    contract counts it (a passed deal in a Bock round simply uses up one Bock deal)."""
    table = Table(len(seats), engine_dealer(seats, dealer))
    # Bock is derived from the deals before, never taken from what was typed (a form may send it).
    facts = {key: value for key, value in facts.items() if key != "bock"}
    if bock_deal and _takes_bock(night, facts.get("contract"), table):
        facts = {**facts, "bock": True}
    return {"game": night.game, "rules": night.rules_request, "players": table.players, "dealer": table.dealer,
            "deal": facts}


def _rules(night: CardNight) -> object | None:
    """The night's rule set, parsed (None when its stored rules no longer parse)."""
    try:
        return GAMES[night.game].parse_rules(night.rules_request)
    except IllegalDeal:
        return None


def _takes_bock(night: CardNight, contract: object, table: Table) -> bool:
    rules = _rules(night)
    return rules is not None and bock.takes_bock(night.game, rules, contract, table)


# --- Bock rounds -------------------------------------------------------------------------------

def bock_allowed(night: CardNight) -> bool:
    """Whether the night's rule set has Bock deals at all (RULES.md option ``bock``)."""
    rules = _rules(night)
    return rules is not None and bock.allowed(night.game, rules)


def bock_events(night: CardNight) -> list[tuple[str, BockEvent]]:
    """The events that start a Bock round at this night's tables (none where the rules have no Bock)."""
    events = bock.events(night.game) if bock_allowed(night) else {}
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


def judge_deal(night: CardNight, seats: Sequence[int], dealer: int, facts: dict[str, Any], bock: bool) -> Verdict:
    """The engine's verdict for one deal of the night; raises `IllegalDeal`."""
    verdict = judge(request(night, seats, dealer, facts, bock))
    assert isinstance(verdict, Verdict)
    return verdict


@dataclass(frozen=True, slots=True)
class Judged:
    """A deal as a page judged it (the entry form's preview): a save reuses the verdict when the deal is
    stored with the same facts, seats, dealer and Bock status, instead of asking the engine again."""

    facts: dict[str, Any]
    seats: tuple[int, ...]
    dealer: int
    bock: bool
    verdict: Verdict

    def fits(self, facts: dict[str, Any], seats: Sequence[int], dealer: int, bock: bool) -> bool:
        return (self.facts == facts and self.seats == tuple(seats) and self.dealer == dealer
                and self.bock == bock)


def judged_verdict(night: CardNight, seats: Sequence[int], dealer: int, facts: dict[str, Any], bock: bool,
                   judged: Judged | None = None) -> Verdict:
    """The verdict of a deal: the page's, where it judged this very deal; else the engine's (raises `IllegalDeal`)."""
    if judged is not None and judged.fits(facts, seats, dealer, bock):
        return judged.verdict
    return judge_deal(night, seats, dealer, facts, bock)


def recompute(table: CardTable, since: int | None = None, changed: Deal | None = None,
              judged: Judged | None = None) -> int:
    """Bring the stored verdicts and Bock flags of the table's live deals up to date, in order; returns
    how many deals the engine judged.

    Without `since` every deal is judged again (the night's rules changed). With `since` (the sequence
    of the deal that was changed, deleted or restored) the deals before it stand as stored, and from it
    on the engine judges only `changed` (whose facts or seating changed; `judged` may hold its verdict)
    and the deals whose Bock status the change moved: a deal's verdict depends only on its own facts,
    seats and Bock status, so a later deal whose Bock status stands keeps its verdict.

    Raises `LedgerError` (nothing stored) when a deal is refused — e.g. after a change of house rules
    that forbids what was played; the caller's transaction then rolls back.
    """
    night = table.night
    players = table.places.count()
    deals = list(table.deals.filter(deleted=False).order_by("sequence"))
    queue = BockQueue(night, players)
    changed_pk = changed.pk if changed is not None else None
    updated, calls = [], 0
    for number, deal in enumerate(deals, start=1):
        bock = queue.next()
        verdict = deal.verdict
        stands = since is not None and (deal.sequence < since or (deal.pk != changed_pk and bock == deal.bock))
        if not stands:
            try:
                if deal.pk == changed_pk and judged is not None and judged.fits(deal.facts, deal.seating,
                                                                               deal.dealer, bock):
                    verdict = judged.verdict.to_json()
                else:
                    verdict = judge_deal(night, deal.seating, deal.dealer, deal.facts, bock).to_json()
                    calls += 1
            except IllegalDeal as err:
                raise LedgerError(number, err, deal) from err
        if verdict != deal.verdict or bock != deal.bock:
            deal.verdict, deal.bock = verdict, bock
            updated.append(deal)
        queue.after(deal.facts, verdict)
    if updated:
        Deal.objects.bulk_update(updated, ["verdict", "bock"])
    return calls


# --- the ledger --------------------------------------------------------------------------------

@dataclass(slots=True)
class Row:
    """One deal in the ledger: its number, who dealt, the verdict, each player's entry (None: sat
    out, the dealer at a 4-seat Skat table too) and the running totals after it, indexed by table
    position. `placing_complete`: the placing closes a full round (not a round still under way)."""

    number: int
    deal: Deal
    game: str
    dealer: int
    seats: list[int]
    entries: list[int | None]
    totals: list[int]
    seeger_fabian: list[int | None]
    seeger_fabian_totals: list[int]
    bock_started: list[str] = field(default_factory=list)  # keys of BOCK_EVENTS this deal set off
    placing: list[Fraction] | None = None  # Kop: after the last deal of a round
    placing_complete: bool = False
    result: Recorded | None = None  # the stored verdict, typed (set by `build`)

    @property
    def verdict(self) -> Recorded:
        """The deal's verdict as stored, typed."""
        return self.result if self.result is not None else self.deal.result

    @property
    def declarers(self) -> list[int]:
        """Table positions of the declaring side (empty for passed deals and Ramsch)."""
        return self._positions(standing.declaring_side(self.game, self.deal.facts))

    @property
    def credited(self) -> list[int]:
        """Table positions credited with the game won or lost (Skat, Fipsen: the declarer alone)."""
        return self._positions(standing.credited(self.game, self.deal.facts))

    def _positions(self, seats: Sequence[int]) -> list[int]:
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
    rules = _rules(night)
    round_points = standing.round_placing(night.game, rules) if rules is not None else None
    round_length = night.round_length
    placing_totals = [Fraction(0)] * n if round_points else None
    events = bock_events(night)
    round_start = [0] * n
    rows = []
    for number, deal in enumerate(deals, start=1):
        result = deal.result
        entries: list[int | None] = [None] * n
        sf: list[int | None] = [None] * n
        out = sits_out(night.game, deal.seating, deal.dealer, n)
        for seat, position in enumerate(deal.seating):
            if position not in out:  # the sitting dealer's list cell stays blank (his score is always 0)
                entries[position] = result.scores[seat]
            totals[position] += result.scores[seat]
            if result.seeger_fabian is not None:
                sf[position] = result.seeger_fabian[seat]
                sf_totals[position] += result.seeger_fabian[seat]
        row = Row(number, deal, night.game, deal.dealer, list(deal.seating), entries, list(totals), sf, list(sf_totals),
                  [key for key, event in events if event.happened(deal.facts, deal.verdict)], result=result)
        if result.won is not None:
            for position in row.credited:
                (won if result.won else lost)[position] += 1
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
