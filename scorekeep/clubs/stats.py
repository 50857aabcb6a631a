"""Statistics per player across card nights: nights and deals played, games declared and won (by
contract), totals and averages, the best and the worst night.

Everything is counted from the ledgers (`scorekeep.nights.ledger.build`) of the stored verdicts, never by
calling the engine, so the statistics always agree with the lists the tables kept. Amounts are added
up only where they mean the same thing: one `Tally` per game, and for Schafkopf one per currency —
Skat list points, Kop small points, Fipsen points and euros are never summed together. Counts (nights,
deals, games declared and won) do add up across games, and `PlayerStats` does so.

Definitions, so the numbers can be checked by hand:

- a **night** counts for a player who sat at one of its tables that has at least one live deal;
- a **deal** counts for a player who held cards in it (not one who sat it out: the dealer at a
  four-seat Skat table, those beyond the seats);
- a deal is **declared** by everyone on the declaring side (`ledger.Row.declarers`: the Skat or Fipsen
  declarer, the Schafkopf player and partner, Kop's old side) and **won** when the verdict says so;
- the Skat **performance** is list points plus Seeger-Fabian points (the ledger's footer); Skat nights
  are ranked by it, every other game by its total.

No HTTP here: the views (`scorekeep.clubs.stats_views`) choose the nights the request may see and filter them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from typing import Any

from django.db.models import Prefetch, QuerySet

from scorekeep.models import GAME_CHOICES, CardNight, CardTable, Deal, Player, TablePlayer
from scorekeep.nights import ledger
from scorekeep.rules import GAMES
from scorekeep.words.labels import CONTRACT_LABELS, GAME_LABELS
from scorekeep.words.money import currency_exponent

GAME_ORDER = {game: index for index, (game, _label) in enumerate(GAME_CHOICES)}


def per(total: int, count: int) -> Fraction | None:
    """An average as an exact fraction; None when there is nothing to divide by."""
    return Fraction(total, count) if count else None


def percent(part: int, whole: int) -> Fraction | None:
    return Fraction(100 * part, whole) if whole else None


def rounded(value: Fraction | None) -> int | None:
    """To the nearest whole number, halves away from zero (an average in cents shown as money)."""
    if value is None:
        return None
    whole = (abs(value.numerator) * 2 + value.denominator) // (2 * value.denominator)
    return whole if value >= 0 else -whole


@dataclass(slots=True)
class ContractTally:
    """How often a player was on the declaring side of one contract, and won it."""

    contract: str
    declared: int = 0
    won: int = 0
    lost: int = 0

    @property
    def label(self) -> str:
        return str(CONTRACT_LABELS.get(self.contract, self.contract))

    @property
    def won_percent(self) -> Fraction | None:
        return percent(self.won, self.declared)


@dataclass(slots=True)
class NightScore:
    """A player's result on one night: deals played, the total (and the Skat performance)."""

    night: CardNight
    deals: int = 0
    total: int = 0
    seeger_fabian: int = 0

    @property
    def performance(self) -> int:
        return self.total + self.seeger_fabian

    @property
    def ranking(self) -> int:
        """What makes a night good: the Skat performance, every other game's total."""
        return self.performance if self.night.seeger_fabian else self.total


@dataclass(slots=True)
class Tally:
    """One player's numbers in one game (Schafkopf: in one currency), whose amounts may be added up.

    Amounts are in the game's own unit: Skat list points, Schafkopf money in the minor unit of `currency`
    (cents, whole yen: scorekeep.words.money), Kop small points, Fipsen points.
    """

    game: str
    currency: str | None  # Schafkopf only: its amounts are this currency's minor unit
    nights: list[NightScore] = field(default_factory=list)
    deals: int = 0
    declared: int = 0
    won: int = 0
    lost: int = 0
    total: int = 0
    seeger_fabian: int = 0
    contracts: dict[str, ContractTally] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str | None]:
        return self.game, self.currency

    @property
    def label(self) -> str:
        label = str(GAME_LABELS[self.game])
        return f"{label} · {self.currency}" if self.currency else label

    @property
    def money(self) -> bool:
        return self.currency is not None

    @property
    def by_seeger_fabian(self) -> bool:
        """Scored by Seeger-Fabian, as the engine says of the game: ranked by performance (list points +
        Seeger-Fabian points)."""
        return bool(GAMES[self.game].SEEGER_FABIAN)

    @property
    def night_count(self) -> int:
        return len(self.nights)

    @property
    def won_percent(self) -> Fraction | None:
        return percent(self.won, self.declared)

    @property
    def per_deal(self) -> Fraction | None:
        return per(self.total, self.deals)

    @property
    def per_night(self) -> Fraction | None:
        return per(self.total, self.night_count)

    @property
    def per_deal_rounded(self) -> int | None:
        return rounded(self.per_deal)

    @property
    def per_night_rounded(self) -> int | None:
        return rounded(self.per_night)

    @property
    def performance(self) -> int:
        return self.total + self.seeger_fabian

    @property
    def performance_per_deal(self) -> Fraction | None:
        return per(self.performance, self.deals)

    @property
    def performance_per_night(self) -> Fraction | None:
        return per(self.performance, self.night_count)

    @property
    def ranking(self) -> int:
        return self.performance if self.by_seeger_fabian else self.total

    @property
    def best_night(self) -> NightScore | None:
        """The night with the highest total (Skat: performance); of equal ones the latest."""
        return max(self.nights, key=lambda s: (s.ranking, s.night.date, s.night.pk), default=None)

    @property
    def worst_night(self) -> NightScore | None:
        """The night with the lowest total (Skat: performance); of equal ones the latest."""
        return min(self.nights, key=lambda s: (s.ranking, -s.night.date.toordinal(), -s.night.pk), default=None)

    @property
    def contract_list(self) -> list[ContractTally]:
        """The contracts declared, the most frequent first."""
        return sorted(self.contracts.values(), key=lambda c: (-c.declared, c.label))

    @property
    def night_list(self) -> list[NightScore]:
        """Newest first."""
        return sorted(self.nights, key=lambda s: (s.night.date, s.night.pk), reverse=True)


@dataclass(slots=True)
class PlayerStats:
    """A player's statistics: a `Tally` per game (and Schafkopf currency), counts over all of them."""

    player: Player
    tallies: dict[tuple[str, str | None], Tally] = field(default_factory=dict)

    @property
    def tally_list(self) -> list[Tally]:
        return sorted(self.tallies.values(), key=lambda t: (GAME_ORDER[t.game], t.currency or ""))

    @property
    def nights(self) -> int:
        return sum(t.night_count for t in self.tallies.values())

    @property
    def deals(self) -> int:
        return sum(t.deals for t in self.tallies.values())

    @property
    def declared(self) -> int:
        return sum(t.declared for t in self.tallies.values())

    @property
    def won(self) -> int:
        return sum(t.won for t in self.tallies.values())

    @property
    def lost(self) -> int:
        return sum(t.lost for t in self.tallies.values())

    @property
    def won_percent(self) -> Fraction | None:
        return percent(self.won, self.declared)


@dataclass(slots=True)
class StatsRow:
    """One player's line in a game's overview table."""

    stats: PlayerStats
    tally: Tally


@dataclass(slots=True)
class GameTable:
    """The players of one game (Schafkopf: of one currency), the best total (Skat: performance) first."""

    game: str
    currency: str | None
    standings: list[StatsRow]

    @property
    def label(self) -> str:
        return Tally(self.game, self.currency).label

    @property
    def money(self) -> bool:
        return self.currency is not None

    @property
    def by_seeger_fabian(self) -> bool:
        """Scored by Seeger-Fabian, as the engine says of the game: ranked by performance (list points +
        Seeger-Fabian points)."""
        return bool(GAMES[self.game].SEEGER_FABIAN)


@dataclass(slots=True)
class Statistics:
    """Every player's statistics over a set of nights."""

    players: list[PlayerStats]  # by name
    nights: int  # nights with at least one deal

    def get(self, player_id: int) -> PlayerStats | None:
        return next((p for p in self.players if p.player.pk == player_id), None)

    @property
    def games(self) -> list[GameTable]:
        groups: dict[tuple[str, str | None], list[StatsRow]] = {}
        for stats in self.players:
            for tally in stats.tallies.values():
                groups.setdefault(tally.key, []).append(StatsRow(stats, tally))
        return [GameTable(game, currency, sorted(groups[game, currency],
                                                 key=lambda s: (-s.tally.ranking, s.stats.player.name.casefold())))
                for game, currency in sorted(groups, key=lambda k: (GAME_ORDER[k[0]], k[1] or ""))]


def with_ledgers(nights: QuerySet[CardNight]) -> QuerySet[CardNight]:
    """The nights with everything their ledgers need prefetched: tables, their players and live deals —
    four queries however many deals there are."""
    tables = CardTable.objects.prefetch_related(
        Prefetch("places", queryset=TablePlayer.objects.select_related("player")),
        Prefetch("deals", queryset=Deal.objects.filter(deleted=False).order_by("sequence"), to_attr="live_deals"),
    )
    return nights.prefetch_related(Prefetch("tables", queryset=tables))


def with_standings(nights: QuerySet[CardNight]) -> QuerySet[CardNight]:
    """The nights with their tables and the tables' players prefetched — three queries —, for what the
    tables' kept standing answers (`ledger.TableStanding.of`) without reading a deal."""
    tables = CardTable.objects.prefetch_related(
        Prefetch("places", queryset=TablePlayer.objects.select_related("player")))
    return nights.prefetch_related(Prefetch("tables", queryset=tables))


def filtered(nights: QuerySet[CardNight], game: str | None = None, since: date | None = None,
             until: date | None = None) -> QuerySet[CardNight]:
    """The nights of one game (None: all) within a period (either end open, both ends included)."""
    if game:
        nights = nights.filter(game=game)
    if since is not None:
        nights = nights.filter(date__gte=since)
    if until is not None:
        nights = nights.filter(date__lte=until)
    return nights


def collect(nights: Iterable[CardNight]) -> Statistics:
    """Every player's statistics over `nights` (prefetched by `with_ledgers`, or it costs queries)."""
    players: dict[int, PlayerStats] = {}
    counted = 0
    for night in nights:
        key = (night.game, night.currency if night.money else None)
        # A tally adds money in the currency's own minor unit; a night kept in finer units (hundredths, from
        # before scorekeep.words.money) is scaled up to it, which is exact.
        scale = 10 ** max(0, currency_exponent(night.currency) - night.exponent) if night.money else 1
        scores: dict[int, NightScore] = {}
        for table in night.tables.all():
            deals = live_deals(table)
            if not deals:
                continue
            places = list(table.places.all())
            book = ledger.build(table, deals, [place.player.name for place in places])
            tallies = []
            for position, place in enumerate(places):
                stats = players.setdefault(place.player_id, PlayerStats(place.player))
                tally = stats.tallies.setdefault(key, Tally(*key))
                if place.player_id not in scores:
                    scores[place.player_id] = NightScore(night)
                    tally.nights.append(scores[place.player_id])
                score = scores[place.player_id]
                score.total += book.totals[position] * scale
                score.seeger_fabian += book.seeger_fabian_totals[position]
                tally.total += book.totals[position] * scale
                tally.seeger_fabian += book.seeger_fabian_totals[position]
                tallies.append((tally, score))
            for row in book.rows:
                _count_row(row, tallies)
        counted += bool(scores)
    return Statistics(sorted(players.values(), key=lambda p: p.player.name.casefold()), counted)


def live_deals(table: CardTable) -> list[Deal]:
    """The table's live deals in order (prefetched by `with_ledgers`, or read)."""
    deals: Any = getattr(table, "live_deals", None)
    return list(deals) if deals is not None else list(table.deals.filter(deleted=False).order_by("sequence"))


def _count_row(row: ledger.Row, tallies: list[tuple[Tally, NightScore]]) -> None:
    for position, entry in enumerate(row.entries):
        if entry is not None:  # held cards (None: sat the deal out)
            tallies[position][0].deals += 1
            tallies[position][1].deals += 1
    won = row.verdict.won
    contract = row.deal.contract
    for position in dict.fromkeys(row.declarers):
        tally = tallies[position][0]
        by_contract = tally.contracts.setdefault(contract, ContractTally(contract))
        tally.declared += 1
        by_contract.declared += 1
        if won is True:
            tally.won += 1
            by_contract.won += 1
        elif won is False:
            tally.lost += 1
            by_contract.lost += 1
