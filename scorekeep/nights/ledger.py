"""The ledger of a table, derived from its deals: who sits in which seat, Bock deals, the engine's
verdict for every deal, deal numbers, the series count and the running totals.

Nothing here is typed in by a person: a deal stores only the facts the table declared and who sat
where (`Deal.seating`, `Deal.dealer`); everything else follows from the deal list and the night's
rule set, so a correction of deal 3 changes deal 4's Bock status, the series count and every total
after it (`recompute`). A deal's number never changes: it is the one it was entered with (`Deal.sequence`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db import transaction

from scorekeep.models import CardNight, CardTable, Deal
from scorekeep.rules import GAMES, IllegalDeal, Table, Verdict, bock, judge, standing
from scorekeep.rules.bock import BockEvent
from scorekeep.rules.ranking import counts_as_solo, round_places
from scorekeep.rules.season import Measure
from scorekeep.rules.seating import PLAYERS, engine_dealer, engine_seats, next_dealer, seating, sits_out
from scorekeep.rules.standing import placing
from scorekeep.rules.verdict import Recorded

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
        rules: object = GAMES[night.game].parse_rules(night.rules_request)
    except IllegalDeal:
        return None
    return rules


rules_of = _rules


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
              judged: Judged | None = None, was: Deal | None = None) -> int:
    """Bring the stored verdicts and Bock flags of the table's live deals up to date, in order, and keep where
    the table stands; returns how many deals the engine judged.

    Without `since` every deal is judged again (the night's rules changed). With `since` (the sequence
    of the deal that was changed, deleted or restored) the deals before it stand as stored, and from it
    on the engine judges only `changed` (whose facts or seating changed; `judged` may hold its verdict)
    and the deals whose Bock status the change moved: a deal's verdict depends only on its own facts,
    seats and Bock status, so a later deal whose Bock status stands keeps its verdict.

    A correction (`changed`, and `was`: the deal as it stood before) that sets off the same number of Bock
    rounds as before moves no later deal's Bock status: then no other deal is read at all — the kept
    standing has the deal's old entries taken off and its new ones counted (`_corrected`). Otherwise the
    live deals are read once, and the one pass that judges them also walks them for the standing kept.

    Raises `LedgerError` (nothing stored) when a deal is refused — e.g. after a change of house rules
    that forbids what was played; the caller's transaction then rolls back.
    """
    night = table.night
    if since is not None and changed is not None and was is not None and not changed.deleted:
        calls = _corrected(table, changed, judged, was)
        if calls is not None:
            return calls
    players = table.places.count()
    deals = table.deals.filter(deleted=False).order_by("sequence")
    queue = BockQueue(night, players)
    now, events = TableStanding.start(night, players), bock_events(night)
    changed_pk = changed.pk if changed is not None else None
    updated, calls = [], 0
    for deal in deals:
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
                raise LedgerError(deal.sequence, err, deal) from err
        if verdict != deal.verdict or bock != deal.bock:
            deal.verdict, deal.bock = verdict, bock
            updated.append(deal)
        queue.after(deal.facts, verdict)
        now.add(night, deal, events=events)  # the walk for the standing, in the same pass
    if updated:
        Deal.objects.bulk_update(updated, ["verdict", "bock"])
    keep(table, now)
    return calls


def _corrected(table: CardTable, changed: Deal, judged: Judged | None, was: Deal) -> int | None:
    """A correction of one live deal without reading the others (see `recompute`); None where it needs them:
    no whole standing kept, the rounds placed (Kop: the round's placing follows every deal of it), or the deal
    sets off more or fewer Bock rounds than before (the Bock status of deals after it moves)."""
    night = table.night
    if not table.standing or any(key not in table.standing for key in TableStanding.KEPT_SINCE_TOURNAMENTS):
        return None
    kept = TableStanding.from_json(table.standing)
    if kept.placings is not None:
        return None
    calls = 0
    try:
        if judged is not None and judged.fits(changed.facts, changed.seating, changed.dealer, changed.bock):
            verdict = judged.verdict.to_json()
        else:
            verdict = judge_deal(night, changed.seating, changed.dealer, changed.facts, changed.bock).to_json()
            calls = 1
    except IllegalDeal:
        return None  # the full pass names the deal and its number
    queue = BockQueue(night, kept.players)
    if (sum(e.happened(was.facts, was.verdict) for e in queue.events)
            != sum(e.happened(changed.facts, verdict) for e in queue.events)):
        return None
    kept.count(night, was, -1)
    changed.verdict = verdict
    kept.count(night, changed, +1)
    if kept.last_sequence == changed.sequence:
        kept.last_dealer = changed.dealer
    Deal.objects.filter(pk=changed.pk).update(verdict=verdict)
    keep(table, kept)
    return calls


def rewalk(table: CardTable) -> None:
    """Walk the table's live deals again and keep where it stands (the stored verdicts as they are): for a
    change of the night that moves no verdict but what the standing counts (the deals per round)."""
    deals = list(table.deals.filter(deleted=False).order_by("sequence"))
    keep(table, walk(table.night, table.places.count(), deals)[0])


def keep(table: CardTable, now: TableStanding) -> None:
    """Store where the table stands (in the caller's transaction), unless it stands there already."""
    kept = now.to_json()
    if kept != CardTable.objects.filter(pk=table.pk).values_list("standing", flat=True).first():
        table.standing = kept
        CardTable.objects.filter(pk=table.pk).update(standing=kept)


# --- the ledger --------------------------------------------------------------------------------

@dataclass(slots=True)
class Row:
    """One deal in the ledger: its number, who dealt, the verdict, each player's entry (None: sat
    out, the dealer at a 4-seat Skat table too) and the running totals after it, indexed by table
    position. `placing_complete`: the placing closes a full round (not a round still under way).

    `number` is the deal's name at the table, given once when it was entered (`Deal.sequence`): a deleted
    deal before it leaves a gap, never a shift. `position` counts the live deals (the series, Kop's rounds)."""

    number: int
    position: int
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
    def named(self) -> tuple[list[int], bool | None]:
        """Who a list names for the deal, and whether they won: the declaring side; in a deal nobody declared
        (a Ramsch) the fewer of those who paid and those who were paid — the loser, or the one who took every
        trick (a Durchmarsch) — so that a Ramsch's row names somebody; nobody where nobody paid (all passed)."""
        if self.declarers:
            return self.declarers, self.verdict.won
        if self.verdict.won is not None:
            return [], self.verdict.won
        paid = [p for p, entry in enumerate(self.entries) if entry is not None and entry < 0]
        were_paid = [p for p, entry in enumerate(self.entries) if entry is not None and entry > 0]
        if paid and (len(paid) <= len(were_paid) or not were_paid):
            return paid, False
        return (were_paid, True) if were_paid else ([], None)

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


@dataclass(slots=True)
class TableStanding:
    """Where a table stands after its live deals: how many there are, each player's totals, games won and
    lost, the Bock deals still to come, who dealt last and the placing of the rounds closed so far.

    It is the end of `build`'s walk through the deals, kept on the table (`CardTable.standing`) so that the
    table page, a poll and a save need not read every deal: a new deal is added to it (`add`), and any
    other change (a correction, a deletion, new house rules) walks the deals again (`recompute`). It is
    derived state only — `of(table)` walks the deals when none is kept (a table from before it was kept),
    and the tests hold the kept one equal to a fresh walk after every kind of change.
    """

    players: int
    deals: int = 0
    totals: list[int] = field(default_factory=list)
    seeger_fabian: list[int] = field(default_factory=list)
    won: list[int] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)
    bock_pending: int = 0
    last_dealer: int | None = None
    last_sequence: int | None = None  # the last live deal's `Deal.sequence`
    round_start: list[int] = field(default_factory=list)  # the totals when the round under way began
    placings: list[Fraction] | None = None  # placing points of the closed rounds (Kop)
    # For a tournament's tie-breaks (`rules.ranking`): Soli won (what counts is the game's), and the closed
    # rounds each player won (first place, shared or not) or came second in (Kop).
    soli_won: list[int] = field(default_factory=list)
    round_wins: list[int] = field(default_factory=list)
    second_places: list[int] = field(default_factory=list)

    @classmethod
    def start(cls, night: CardNight, players: int) -> TableStanding:
        rules = _rules(night)
        round_points = standing.round_placing(night.game, rules) if rules is not None else None
        zeros = [0] * players
        return cls(players, 0, list(zeros), list(zeros), list(zeros), list(zeros), 0, None, None, list(zeros),
                   [Fraction(0)] * players if round_points else None, list(zeros), list(zeros), list(zeros))

    def copy(self) -> TableStanding:
        return TableStanding(self.players, self.deals, list(self.totals), list(self.seeger_fabian), list(self.won),
                        list(self.lost), self.bock_pending, self.last_dealer, self.last_sequence,
                        list(self.round_start),
                        None if self.placings is None else list(self.placings), list(self.soli_won),
                        list(self.round_wins), list(self.second_places))

    # --- one deal more -------------------------------------------------------------------------------

    def add(self, night: CardNight, deal: Deal, result: Recorded | None = None,
            events: Sequence[tuple[str, BockEvent]] | None = None) -> Row:
        """Count one more deal (the next live deal, as stored) and return its ledger row."""
        result = result if result is not None else deal.result
        events = bock_events(night) if events is None else events
        n = self.players
        self.deals += 1
        entries: list[int | None] = [None] * n
        sf: list[int | None] = [None] * n
        out = sits_out(night.game, deal.seating, deal.dealer, n)
        for seat, position in enumerate(deal.seating):
            if position not in out:  # the sitting dealer's list cell stays blank (his score is always 0)
                entries[position] = result.scores[seat]
            self.totals[position] += result.scores[seat]
            if result.seeger_fabian is not None:
                sf[position] = result.seeger_fabian[seat]
                self.seeger_fabian[position] += result.seeger_fabian[seat]
        started = [key for key, event in events if event.happened(deal.facts, deal.verdict)]
        row = Row(deal.sequence, self.deals, deal, night.game, deal.dealer, list(deal.seating), entries,
                  list(self.totals), sf, list(self.seeger_fabian), started, result=result)
        if result.won is not None:
            solo = result.won and counts_as_solo(night.game, deal.facts)
            for position in row.credited:
                (self.won if result.won else self.lost)[position] += 1
                self.soli_won[position] += solo
        # Bock (BockQueue): this deal used one pending Bock deal up, and queues a round per event it set off.
        self.bock_pending = max(self.bock_pending - 1, 0) + bock_length(night, n) * len(started)
        self.last_dealer, self.last_sequence = deal.dealer, deal.sequence
        if self.placings is not None and night.round_length and self.deals % night.round_length == 0:
            row.placing = self.close_round(night)
            row.placing_complete = True
        return row

    def close_round(self, night: CardNight) -> list[Fraction]:
        """Close the round under way (its last deal is counted): its placing points join the closed rounds',
        its first and second places are counted, and the next round starts from the totals now. Returns the
        round's placing points. Also what a round typed from a paper list closes with (`tournaments.paper`)."""
        placing_now = self.round_placing(night)
        places = round_places([t - s for t, s in zip(self.totals, self.round_start, strict=True)])
        for position, place in enumerate(places):
            self.round_wins[position] += place == 1
            self.second_places[position] += place == 2
        assert placing_now is not None and self.placings is not None  # kept only where rounds are placed (start)
        self.placings = [a + b for a, b in zip(self.placings, placing_now, strict=True)]
        self.round_start = list(self.totals)
        return placing_now

    def round_placing(self, night: CardNight) -> list[Fraction] | None:
        """The placing points of the round under way as it stands (Kop)."""
        rules = _rules(night)
        points = standing.round_placing(night.game, rules) if rules is not None else None
        if not points:
            return None
        return placing([t - s for t, s in zip(self.totals, self.round_start, strict=True)], points)

    def before(self, rows: Sequence[Deal], night: CardNight) -> TableStanding:
        """The standing before the last `rows` deals (the table's latest, in order): their entries taken off
        again, so a page can show the latest rows with their running totals without reading the others.
        Only the totals and games are taken back (what those rows show), not Bock or the round's placing."""
        earlier = self.copy()
        for deal in rows:
            earlier.deals -= 1
            earlier.count(night, deal, -1)
        earlier.placings = None  # rows shown from here do not close rounds (their placing is on the list)
        return earlier

    def count(self, night: CardNight, deal: Deal, sign: int) -> None:
        """Count one deal's entries (its scores, Seeger-Fabian points, games won and lost, Soli won) on
        (`sign` +1) or take them off again (-1), as `add` counted them; the number of deals, Bock and the
        rounds' placings are the caller's."""
        result = deal.result
        for seat, position in enumerate(deal.seating):
            self.totals[position] += sign * result.scores[seat]
            if result.seeger_fabian is not None:
                self.seeger_fabian[position] += sign * result.seeger_fabian[seat]
        if result.won is not None:
            solo = result.won and counts_as_solo(night.game, deal.facts)
            for seat in standing.credited(night.game, deal.facts):
                if 0 <= seat < len(deal.seating):
                    (self.won if result.won else self.lost)[deal.seating[seat]] += sign
                    self.soli_won[deal.seating[seat]] += sign * solo

    # --- what a page shows ----------------------------------------------------------------------------

    @property
    def next_is_bock(self) -> bool:
        return self.bock_pending > 0

    def next_dealer(self, first_dealer: int) -> int:
        """The player left of the last live deal's dealer (the table's first dealer before any deal)."""
        return first_dealer if self.last_dealer is None else next_dealer(self.last_dealer, self.players)

    @property
    def performance(self) -> list[int]:
        return [a + b for a, b in zip(self.totals, self.seeger_fabian, strict=True)]

    def placing_totals(self, night: CardNight) -> list[Fraction] | None:
        """The placing points so far: the closed rounds, and the round under way as it stands (provisional)."""
        if self.placings is None:
            return None
        if night.round_length and self.deals % night.round_length == 0 and self.deals:
            return list(self.placings)
        current = self.round_placing(night) if self.deals else None
        if current is None:
            return list(self.placings)
        return [a + b for a, b in zip(self.placings, current, strict=True)]

    def measured(self, night: CardNight, measure: Measure) -> list[Fraction] | None:
        """Each player's figure of the night's list by a season's measure (`rules.season.Measure`): the
        totals, Skat's performance, or the placing points — None where the rule set places no rounds.
        The same figures as the full ledger's (`build`), read from the standing alone."""
        if measure == Measure.PLACING:
            return self.placing_totals(night)
        if measure == Measure.PERFORMANCE:
            return [Fraction(value) for value in self.performance]
        return [Fraction(value) for value in self.totals]

    # --- kept on the table ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "deals": self.deals, "totals": self.totals,
                "seeger_fabian": self.seeger_fabian, "won": self.won, "lost": self.lost,
                "bock_pending": self.bock_pending, "last_dealer": self.last_dealer, "last_sequence": self.last_sequence,
                "round_start": self.round_start,
                "placings": None if self.placings is None else [str(p) for p in self.placings],
                "soli_won": self.soli_won, "round_wins": self.round_wins, "second_places": self.second_places}

    KEPT_SINCE_TOURNAMENTS = ("soli_won", "round_wins", "second_places")
    """What a standing kept before tournaments lacks: such a standing is walked again (`of`)."""

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableStanding:
        placings = data.get("placings")
        return cls(data["players"], data["deals"], list(data["totals"]), list(data["seeger_fabian"]),
                   list(data["won"]), list(data["lost"]), data["bock_pending"], data["last_dealer"],
                   data["last_sequence"], list(data["round_start"]),
                   None if placings is None else [Fraction(p) for p in placings],
                   *(list(data.get(key) or [0] * data["players"]) for key in cls.KEPT_SINCE_TOURNAMENTS))

    @classmethod
    def of(cls, table: CardTable, players: int | None = None) -> TableStanding:
        """The table's standing as kept; walked from its deals where none is kept yet. A standing kept before
        tournaments (without what their tie-breaks count) is walked once and kept again, unless the table
        was written since it was read (its version moved on: that write keeps a whole standing itself)."""
        if table.standing and all(key in table.standing for key in cls.KEPT_SINCE_TOURNAMENTS):
            return cls.from_json(table.standing)
        players = players if players is not None else table.places.count()
        now = walk(table.night, players, table.deals.filter(deleted=False).order_by("sequence"))[0]
        if table.standing:
            with transaction.atomic():
                CardTable.objects.filter(pk=table.pk, version=table.version).update(standing=now.to_json())
        return now


def walk(night: CardNight, players: int, deals: Sequence[Deal] | Any) -> tuple[TableStanding, list[Row]]:
    """The standing after `deals` (the live deals in order) and each deal's row."""
    now = TableStanding.start(night, players)
    events = bock_events(night)
    rows = [now.add(night, deal, events=events) for deal in deals]
    return now, rows


def build(table: CardTable, deals: Sequence[Deal] | None = None, names: Sequence[str] | None = None,
          since: TableStanding | None = None) -> Ledger:
    """The table's ledger from its stored verdicts (no engine calls): one row per live deal.

    Pass prefetched `deals`/`names` to build it without further queries. With `since` (the standing before
    `deals`, `TableStanding.before`) it is the ledger of the latest deals only: their rows numbered and totalled
    on from there.
    """
    night = table.night
    if names is None:
        names = [place.player.name for place in table.places.select_related("player")]
    if deals is None:
        deals = list(table.deals.filter(deleted=False).order_by("sequence"))
    now = since.copy() if since is not None else TableStanding.start(night, len(names))
    events = bock_events(night)
    rows = [now.add(night, deal, events=events) for deal in deals]
    if since is None and rows and now.placings is not None and rows[-1].placing is None:
        rows[-1].placing = now.round_placing(night)  # the round under way, as it stands
    return Ledger(table, list(names), rows, now.totals, now.seeger_fabian, now.performance, now.won, now.lost,
                  now.placing_totals(night) if since is None else None)
