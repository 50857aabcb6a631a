"""A rating per game for a club's players (OpenSkill's Plackett-Luce model, the `openskill` package), shown
beside the plain figures where the club's hosts turned ratings on (`Club.ratings`, off by default).

Why a rating: totals reward coming often; a rating rewards how a player places against the players they
met. Each table of a night is one match, a free-for-all of the players at it, placed by what the game's
season ranks by first (`rules.season`: Skat's Seeger-Fabian performance, Schafkopf's money, Kop's placing
points — the total where the rule set places no rounds —, Fipsen's points); equal scores share a place.
The matches are replayed in the order played (night date, night, table) from fresh ratings every time the
ratings are asked for: nothing is stored, so a corrected, deleted or restored deal changes them at once.

What is shown is the rating's conservative estimate, the **ordinal** μ − 3σ (0 for a newcomer, rising as
the model grows sure a player places well), and only after `RATED_AFTER` matches: before, σ is too wide
for the number to mean much.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from openskill.models import PlackettLuce

from scorekeep.clubs import stats
from scorekeep.models import CardNight, Club, Player
from scorekeep.nights import ledger
from scorekeep.rules import GAMES

RATED_AFTER = 5  # matches (tables of a night) played before a player's rating is shown


@dataclass(slots=True)
class Rating:
    player: Player
    mu: float
    sigma: float
    matches: int

    @property
    def ordinal(self) -> float:
        """μ − 3σ: the rating the model is 99.7 % sure the player's skill is above."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> bool:
        return self.matches >= RATED_AFTER


def _scores(night: CardNight, table: Any) -> list[tuple[Player, float]] | None:
    """The players of a table and their figures at the end of its list, read from its kept standing."""
    places = list(table.places.all())
    now = ledger.TableStanding.of(table, len(places))
    if not now.deals:
        return None
    measure = GAMES[night.game].SEASON_BASES[0].measure
    values = now.measured(night, measure)
    if values is None:  # the rule set places no rounds: ranked by the totals
        values = [Fraction(total) for total in now.totals]
    return [(place.player, float(value)) for place, value in zip(places, values, strict=True)]


def replay(nights: Iterable[CardNight]) -> dict[int, Rating]:
    """Every player's rating after the matches of `nights` (one game's, prefetched by `stats.with_standings`),
    replayed in the order played."""
    model = PlackettLuce()
    current: dict[int, Any] = {}
    out: dict[int, Rating] = {}
    for night in sorted(nights, key=lambda n: (n.date, n.pk)):
        for table in night.tables.all():
            scores = _scores(night, table)
            if not scores or len(scores) < 2:
                continue
            players = [player for player, _value in scores]
            teams = [[current.setdefault(player.pk, model.rating(name=str(player.pk)))] for player in players]
            # A lower rank is a better place; equal scores share it.
            ordered = sorted({value for _player, value in scores}, reverse=True)
            ranks = [float(ordered.index(value) + 1) for _player, value in scores]
            rated = model.rate(teams, ranks=ranks)
            for player, [rating] in zip(players, rated, strict=True):
                current[player.pk] = rating
                previous = out.get(player.pk)
                out[player.pk] = Rating(player, rating.mu, rating.sigma, (previous.matches if previous else 0) + 1)
    return out


def of_club(club: Club, game: str) -> dict[int, Rating]:
    """The club's ratings in one game, from all its nights of that game."""
    return replay(stats.with_standings(CardNight.objects.filter(club=club, game=game)))
