"""A player's game over months, within their club: what the player page adds to the statistics
(`scorekeep.clubs.stats`) — per game (Schafkopf per currency) the average value of each contract declared, what
the declared games came with (the engine's own columns: Hand, Schneider, Ouvert, Kontra; Stoß, Laufende …),
the best and the worst deal, streaks of games won and lost, partners and opponents met, and the running
total over the nights as a chart.

All of it is read from the ledgers of the stored verdicts (`ledger.build`), never kept by hand.

Definitions:

- the **value** of a declared game is the verdict's value (what the game was worth, before signs);
- the **best** and **worst deal** are the player's largest and smallest entry in a deal (the latest of equal);
- a **streak** is a run of the player's declared games, in the order played, all won or all lost (passed
  deals and Ramsch, which nobody declares, neither break nor extend it);
- **partners** are the players on the player's side of a declared deal (a Sauspiel's partner, Kop's other
  old player; the defenders together against a declarer), **opponents** those on the other side; "won" counts
  the deals of those that the player's side won (the defenders win what the declaring side loses).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from django.utils.safestring import SafeString
from django.utils.translation import gettext

from scorekeep.clubs import stats
from scorekeep.models import CardNight, Player, TablePlayer
from scorekeep.nights import charts, ledger
from scorekeep.rules import GAMES, standing
from scorekeep.rules.explain import in_words
from scorekeep.words.labels import CONTRACT_LABELS, GAME_LABELS
from scorekeep.words.money import MINUS, format_money


@dataclass(slots=True)
class Moment:
    """One deal of the player's: the night, the table and deal number, the contract, the player's entry."""

    night: CardNight
    table: int
    number: int  # as the list numbers it (deleted deals skipped)
    sequence: int  # in the deal's URL
    contract: str
    entry: int

    @property
    def label(self) -> str:
        return str(CONTRACT_LABELS.get(self.contract, self.contract))


@dataclass(slots=True)
class ContractValue:
    contract: str
    declared: int = 0
    value: int = 0

    @property
    def label(self) -> str:
        return str(CONTRACT_LABELS.get(self.contract, self.contract))

    @property
    def average(self) -> Fraction | None:
        return stats.per(self.value, self.declared)

    @property
    def average_rounded(self) -> int | None:
        """In whole cents, where the values are money."""
        return stats.rounded(self.average)


@dataclass(slots=True)
class Companion:
    player: Player
    deals: int = 0
    won: int = 0


@dataclass(slots=True)
class Streak:
    won: bool
    length: int


@dataclass(slots=True)
class Journey:
    """A player's journey through one game (Schafkopf: one currency)."""

    game: str
    currency: str | None
    values: dict[str, ContractValue] = field(default_factory=dict)
    declared_with: dict[str, int] = field(default_factory=dict)  # an engine column's header → declared deals
    best: Moment | None = None
    worst: Moment | None = None
    results: list[bool] = field(default_factory=list)  # declared games, won or lost, in order
    partners: dict[int, Companion] = field(default_factory=dict)
    opponents: dict[int, Companion] = field(default_factory=dict)
    after_each_night: list[tuple[CardNight, int]] = field(default_factory=list)  # running total after it
    stoss_chances: int = 0  # Schafkopf: deals on the side that could say Stoß (`rules.standing.stoss_chance`)
    stoss: int = 0  # of them, the deals that side said it

    @property
    def label(self) -> str:
        label = str(GAME_LABELS[self.game])
        return f"{label} · {self.currency}" if self.currency else label

    @property
    def money(self) -> bool:
        return self.currency is not None

    @property
    def value_list(self) -> list[ContractValue]:
        return sorted(self.values.values(), key=lambda item: (-item.declared, item.label))

    @property
    def stoss_rate(self) -> int | None:
        """The Stoß said per chance, in whole per cent (None without a chance)."""
        return round(100 * self.stoss / self.stoss_chances) if self.stoss_chances else None

    @property
    def declared_list(self) -> list[tuple[str, int]]:
        return [(header, count) for header, count in self.declared_with.items() if count]

    def _longest(self, won: bool) -> int:
        longest = run = 0
        for result in self.results:
            run = run + 1 if result == won else 0
            longest = max(longest, run)
        return longest

    @property
    def longest_won(self) -> int:
        return self._longest(True)

    @property
    def longest_lost(self) -> int:
        return self._longest(False)

    @property
    def current(self) -> Streak | None:
        if not self.results:
            return None
        last = self.results[-1]
        length = 0
        for result in reversed(self.results):
            if result != last:
                break
            length += 1
        return Streak(last, length)

    @property
    def partner_list(self) -> list[Companion]:
        return sorted(self.partners.values(), key=lambda c: (-c.deals, c.player.name.casefold()))

    @property
    def opponent_list(self) -> list[Companion]:
        return sorted(self.opponents.values(), key=lambda c: (-c.deals, c.player.name.casefold()))

    @property
    def companion_rows(self) -> list[tuple[str, Companion | None, Companion | None]]:
        """Everyone met, the most often met first: (name, as partner, as opponent)."""
        ids = sorted(set(self.partners) | set(self.opponents), key=lambda pk: (
            -(self.partners[pk].deals if pk in self.partners else 0)
            - (self.opponents[pk].deals if pk in self.opponents else 0),
            (self.partners.get(pk) or self.opponents[pk]).player.name.casefold()))
        return [((self.partners.get(pk) or self.opponents[pk]).player.name, self.partners.get(pk),
                 self.opponents.get(pk)) for pk in ids]

    def chart(self, player: Player) -> SafeString:
        """The running total after each night as an SVG line (the night charts' drawing)."""
        totals = [[total] for _night, total in self.after_each_night]
        title = gettext("%(name)s · running total over the nights") % {"name": player.name}
        series = charts.Series([player.name], totals, title, x_label=gettext("Night"),
                               description=gettext("Running total after each of %(nights)s nights: %(total)s.")
                               % {"nights": len(totals), "total": self.write(totals[-1][0] if totals else 0)})
        return charts.running_totals_svg(series, format_value=self.write, id_prefix=f"journey-{self.game}")

    def write(self, value: int) -> str:
        if self.currency:
            return format_money(value, self.currency, plus=True)
        return f"+{value}" if value > 0 else f"{MINUS}{-value}" if value < 0 else "0"


def journeys(player: Player, nights: Iterable[CardNight]) -> list[Journey]:
    """The player's journeys, one per game (and Schafkopf currency), over `nights` (prefetched by
    `stats.with_ledgers`), nights in date order."""
    out: dict[tuple[str, str | None], Journey] = {}
    for night in sorted(nights, key=lambda n: (n.date, n.pk)):
        key = (night.game, night.currency if night.money else None)
        journey = out.setdefault(key, Journey(*key))
        night_total = 0
        played = False
        rules = ledger.rules_of(night)
        for table in night.tables.all():
            places = list(table.places.all())
            positions = [p for p, place in enumerate(places) if place.player_id == player.pk]
            deals = stats.live_deals(table)
            if not positions or not deals:
                continue
            played = True
            me = positions[0]
            book = ledger.build(table, deals, [place.player.name for place in places])
            night_total += book.totals[me]
            for row in book.rows:
                _count(journey, night, table.number, row, me, places)
                _count_stoss(journey, row, me, rules)
        if played:
            before = journey.after_each_night[-1][1] if journey.after_each_night else 0
            journey.after_each_night.append((night, before + night_total))
    return [journey for journey in out.values() if journey.after_each_night]


def _count(journey: Journey, night: CardNight, table: int, row: ledger.Row, me: int, places: list[TablePlayer]) -> None:
    entry = row.entries[me]
    if entry is None:  # sat the deal out
        return
    moment = Moment(night, table, row.number, row.deal.sequence, row.deal.contract, entry)
    if journey.best is None or entry >= journey.best.entry:
        journey.best = moment
    if journey.worst is None or entry <= journey.worst.entry:
        journey.worst = moment
    declarers = list(dict.fromkeys(row.declarers))
    if not declarers:
        return
    won = row.verdict.won
    if me in declarers:
        if won is not None:
            journey.results.append(bool(won))
        item = journey.values.setdefault(row.deal.contract, ContractValue(row.deal.contract))
        item.declared += 1
        item.value += abs(row.verdict.value or 0)
        for column in GAMES[journey.game].DECLARED:
            if column.entry(row.deal.facts, row.deal.verdict):
                header = in_words(column.header, gettext)
                journey.declared_with[header] = journey.declared_with.get(header, 0) + 1
    mine = me in declarers
    side_won = won is True if mine else won is False  # the defenders win what the declaring side loses
    for position, place in enumerate(places):
        if position == me or row.entries[position] is None or place.player_id == places[me].player_id:
            continue
        book = journey.partners if (position in declarers) == mine else journey.opponents
        companion = book.setdefault(place.player_id, Companion(place.player))
        companion.deals += 1
        companion.won += side_won


def _count_stoss(journey: Journey, row: ledger.Row, me: int, rules: object) -> None:
    """Schafkopf: a chance to say Stoß where the player sat on the side that could (the engine says which),
    and a Stoß where that side said it."""
    chance = standing.stoss_chance(row.game, rules, row.deal.facts) if rules is not None else None
    if chance is None or row.entries[me] is None:
        return
    seats, said = chance
    if me in [row.seats[seat] for seat in seats if 0 <= seat < len(row.seats)]:
        journey.stoss_chances += 1
        journey.stoss += said
