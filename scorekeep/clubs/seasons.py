"""A club's season: its standings as of any date, derived from the stored verdicts of the club's nights
(each table's kept standing, `ledger.TableStanding`: the end of its list, kept current with every write to its deals).

Definitions, so a table can be checked by hand:

- the season's **nights** are the club's nights of the season's game dated within its period (and on or
  before the date asked for) that have at least one live deal;
- a player's **result** of a night is what the season's basis takes from the night's lists
  (`rules.season.Measure`: the total, Skat's performance, Kop's placing points), added up over the tables
  the player sat at; for a basis per series, also the series played (a table's deals divided by its series
  length, rounded up; an open-ended list counts as one series);
- a player **missed** every night of the season after their first one that they did not play on (a newcomer
  has missed none of the nights before joining); missed nights are counted whatever the absence penalty, and
  only with a penalty is each missed night also a result, of minus the penalty (one series), which then counts
  like any result (best n, dropped, per series); without one a missed night is no result at all;
- the **counted** results are the best n (the season's "count the best"), or all but the worst one for every
  k results ("drop the worst result every k"), or all; the **score** is their sum, or for a basis per series
  the sum divided by the series counted;
- a player is **ranked** with at least the season's minimum of nights played; ranks are shared on equal
  scores (1, 2, 2, 4); the others are listed after, unranked;
- **movement**: the rank before the season's latest night (as of the day before it) against the rank now.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from fractions import Fraction

from django.db import transaction
from django.utils import formats
from django.utils.translation import gettext

from scorekeep.clubs import stats
from scorekeep.models import CardNight, Club, Player, Season
from scorekeep.nights import ledger
from scorekeep.rules import GAMES
from scorekeep.rules.season import Basis, Measure


class SeasonError(ValueError):
    """A season's settings refused: `field` is the input, the message says what is allowed."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def bases(game: str) -> tuple[Basis, ...]:
    """The bases the game's engine offers a season (the first the default)."""
    return GAMES[game].SEASON_BASES


def basis_of(season: Season) -> Basis:
    return next((basis for basis in bases(season.game) if basis.key == season.basis), bases(season.game)[0])


@dataclass(slots=True)
class Result:
    """A player's result of one night of the season (or a missed night, `absent`)."""

    night: CardNight | None
    value: Fraction
    series: int = 1
    absent: bool = False
    counted: bool = True


@dataclass(slots=True)
class Line:
    """A player's line of the season's table."""

    player: Player
    results: list[Result] = field(default_factory=list)
    missed_nights: list[CardNight] = field(default_factory=list)  # with a penalty, each is also an absent result
    rank: int | None = None
    score: Fraction = Fraction(0)  # the counted results' sum (or their average per series)
    before: int | None = None  # the rank before the latest night; None: not ranked then
    rating: float | None = None  # the OpenSkill ordinal beside it, where the club shows ratings (`ratings`)

    @property
    def played(self) -> list[Result]:
        return [result for result in self.results if not result.absent]

    @property
    def nights(self) -> int:
        return len(self.played)

    @property
    def missed(self) -> int:
        """The season's nights after the player's first that they did not play on, whatever the penalty."""
        return len(self.missed_nights)

    @property
    def counted(self) -> list[Result]:
        return [result for result in self.results if result.counted]

    @property
    def dropped(self) -> int:
        return len(self.results) - len(self.counted)

    @property
    def movement(self) -> int | None:
        """Places gained (positive) or lost since the latest night; None when not ranked before or now."""
        if self.rank is None or self.before is None:
            return None
        return self.before - self.rank


@dataclass(slots=True)
class Table:
    season: Season
    basis: Basis
    as_of: datetime.date
    nights: list[CardNight]
    lines: list[Line]  # ranked first (by rank), then the unranked by score

    @property
    def ranked(self) -> list[Line]:
        return [line for line in self.lines if line.rank is not None]

    @property
    def unranked(self) -> list[Line]:
        return [line for line in self.lines if line.rank is None]

    @property
    def money(self) -> bool:
        """The results are cents of a currency (Schafkopf's money), written as money — not where the season
        counts the tariff's units as points."""
        return bool(GAMES[self.season.game].MONEY) and self.basis.measure == Measure.TOTAL and not self.basis.points

    @property
    def currency(self) -> str:
        """The currency of the season's latest night (a club plays a season in one)."""
        return self.nights[-1].currency if self.nights else "EUR"

    @property
    def exponent(self) -> int:
        """The decimals of the amounts, as the season's latest night keeps them (EUR cents 2, whole yen 0)."""
        return self.nights[-1].exponent if self.nights else 2

    @property
    def latest(self) -> CardNight | None:
        return self.nights[-1] if self.nights else None


def season_nights(season: Season, as_of: datetime.date) -> list[CardNight]:
    """The club's nights of the season's game within its period and up to `as_of`, oldest first, with their
    tables' players prefetched (what their kept standing, `ledger.TableStanding.of`, needs). A tournament's tables
    (`CardNight.series`) are no club nights: each would count as a night every other player missed."""
    nights = (CardNight.objects.filter(club=season.club, game=season.game, date__gte=season.start,
                                       date__lte=min(season.end, as_of), series=None)
              .order_by("date", "pk"))
    return [night for night in stats.with_standings(nights)
            if any(ledger.TableStanding.of(table, len(table.places.all())).deals for table in night.tables.all())]


def _night_results(night: CardNight, basis: Basis) -> dict[int, tuple[Player, Fraction, int]]:
    """Each player's result of the night, read from its tables' kept standing (the end of each list): the
    same figures as the full ledger's (`ledger.build`), without reading a deal."""
    out: dict[int, tuple[Player, Fraction, int]] = {}
    for table in night.tables.all():
        places = list(table.places.all())
        now = ledger.TableStanding.of(table, len(places))
        if not now.deals:
            continue
        values = now.measured(night, basis.measure)
        if values is None:
            continue  # the rule set places no rounds: nothing to count for this basis
        length = night.series_length
        series = -(-now.deals // length) if length else 1
        for position, place in enumerate(places):
            player, value, played = out.get(place.player_id, (place.player, Fraction(0), 0))
            out[place.player_id] = (player, value + values[position], played + series)
    return out


def _count(results: list[Result], season: Season) -> None:
    """Mark which results count: the best n, or all but the worst one every k, or all."""
    order = sorted(results, key=lambda result: result.value, reverse=True)
    keep = len(order)
    if season.best_of:
        keep = min(keep, season.best_of)
    elif season.drop_every:
        keep -= len(order) // season.drop_every
    for index, result in enumerate(order):
        result.counted = index < keep


def _score(line: Line, basis: Basis) -> Fraction:
    counted = line.counted
    total = sum((result.value for result in counted), Fraction(0))
    if basis.per_series:
        series = sum(result.series for result in counted)
        return total / series if series else Fraction(0)
    return total


def _rank(lines: list[Line], season: Season) -> None:
    ranked = [line for line in lines if line.nights >= max(1, season.min_nights)]
    ranked.sort(key=lambda line: (-line.score, line.player.name.casefold()))
    previous: Fraction | None = None
    rank = 0
    for index, line in enumerate(ranked, start=1):
        if line.score != previous:
            rank, previous = index, line.score
        line.rank = rank


def _lines(season: Season, nights: list[CardNight], per_night: list[dict[int, tuple[Player, Fraction, int]]],
           basis: Basis) -> list[Line]:
    lines: dict[int, Line] = {}
    first_played: dict[int, int] = {}
    for index, results in enumerate(per_night):
        for player_id, (player, _value, _series) in results.items():
            lines.setdefault(player_id, Line(player))
            first_played.setdefault(player_id, index)
    for player_id, line in lines.items():
        for index, (night, results) in enumerate(zip(nights, per_night, strict=True)):
            if player_id in results:
                _player, value, series = results[player_id]
                line.results.append(Result(night, value, series or 1))
            elif index > first_played[player_id]:
                line.missed_nights.append(night)
                if season.absence_penalty:  # only a penalty makes a missed night a result (0 is no result)
                    line.results.append(Result(night, Fraction(-season.absence_penalty), absent=True))
        _count(line.results, season)
        line.score = _score(line, basis)
    _rank(list(lines.values()), season)
    return list(lines.values())


def standings(season: Season, as_of: datetime.date | None = None) -> Table:
    """The season's table as of `as_of` (default: the season's last day), with each ranked player's movement
    since the latest night."""
    as_of = min(as_of or season.end, season.end)
    basis = basis_of(season)
    nights = season_nights(season, as_of)
    # Each night's lists are read once, for the table now and the table before the latest night.
    per_night = [_night_results(night, basis) for night in nights]
    lines = _lines(season, nights, per_night, basis)
    if nights:
        earlier = sum(night.date < nights[-1].date for night in nights)
        before = _lines(season, nights[:earlier], per_night[:earlier], basis)
        rank_before = {line.player.pk: line.rank for line in before}
        for line in lines:
            line.before = rank_before.get(line.player.pk)
    lines.sort(key=lambda line: (line.rank is None, line.rank or 0, -line.score, line.player.name.casefold()))
    return Table(season, basis, as_of, nights, lines)


@transaction.atomic
def start_season(club: Club, *, name: str, game: str, start: datetime.date, end: datetime.date, basis: str,
                 min_nights: int = 0, best_of: int | None = None, drop_every: int | None = None,
                 absence_penalty: int = 0) -> Season:
    """A new season of the club. Raises `SeasonError` naming the field for settings that cannot be."""
    name = " ".join(name.split())
    if not name:
        raise SeasonError("name", gettext("A season needs a name."))
    if game not in GAMES:
        raise SeasonError("game", gettext("Choose one of the games listed"))
    if end < start:
        raise SeasonError("end", gettext("The end of the period is before its start (%(since)s).")
                          % {"since": formats.date_format(start, "DATE_FORMAT")})
    keys = [item.key for item in bases(game)]
    if basis not in keys:
        raise SeasonError("basis", gettext("Choose one of: %(choices)s.") % {"choices": ", ".join(keys)})
    if best_of and drop_every:
        raise SeasonError("drop_every", gettext(
            "Either count the best results or drop the worst ones, not both."))
    return Season.objects.create(club=club, name=name, game=game, start=start, end=end, basis=basis,
                                 min_nights=min_nights, best_of=best_of or None, drop_every=drop_every or None,
                                 absence_penalty=absence_penalty)
