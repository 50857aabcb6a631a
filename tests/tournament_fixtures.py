"""A tournament built directly with the ORM, as the organiser flow (issue 18) leaves it: entrants, series,
and per table of a series a card night of its own (`CardNight.series`) with one `CardTable` and its players
in order — so deals are entered with `nights.enter_deal` and each table's `CardTable.standing` is kept as in
real use. For the standings', the money's and the printouts' tests."""

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User

from scorekeep.models import CardNight, CardTable, Club, Entrant, Player, Series, TablePlayer, Team, Tournament
from scorekeep.nights import ledger
from scorekeep.rules import GAMES

SERIES_LENGTH = {"skat": 48, "schafkopf": 32, "kop": 32, "fipsen": 32}


def tournament(game: str = "skat", preset: str | None = None, *, players: int = 8, series: int = 2,
               host: User | None = None, club: Club | None = None, teams: Sequence[str] = (),
               **fields: Any) -> Tournament:
    """A tournament of `players` entrants (start numbers 1…, named "Player 1" …), members of the teams in
    turn where `teams` are given, and its series (not drawn yet: `draw` seats one)."""
    club = club or Club.objects.create(name=f"Club of {game}", owner=host)
    preset = preset or GAMES[game].DEFAULT_PRESET
    fields = {"series_length": SERIES_LENGTH[game], **fields}
    tour = Tournament.objects.create(club=club, name=f"{game} open", game=game, preset=preset, series_count=series,
                                     teams=bool(teams), **fields)
    made = [Team.objects.create(tournament=tour, name=name) for name in teams]
    for n in range(1, players + 1):
        player = Player.objects.create(club=club, name=f"Player {n}")
        Entrant.objects.create(tournament=tour, player=player, number=n,
                               team=made[(n - 1) % len(made)] if made else None)
    for number in range(1, series + 1):
        Series.objects.create(tournament=tour, number=number)
    return tour


def draw(tour: Tournament, number: int, tables: Sequence[Sequence[int]], *, round_length: int | None = None,
         host: User | None = None) -> list[CardTable]:
    """Seat series `number`: one card night per table, the given start numbers in clockwise order."""
    series = Series.objects.get(tournament=tour, number=number)
    series.draw = {"tables": [list(t) for t in tables]}
    series.save()
    out = []
    for table_number, starts in enumerate(tables, start=1):
        entrants = {e.number: e.player for e in tour.entrants.select_related("player").filter(number__in=starts)}
        night = CardNight.objects.create(game=tour.game, preset=tour.preset, house_rules=tour.house_rules,
                                         club=tour.club, host=host, series=series, currency=tour.currency,
                                         series_length=tour.series_length, round_length=round_length)
        table = CardTable.objects.create(night=night, number=table_number,
                                         seats=ledger.engine_seats(tour.game, len(starts)), first_dealer=0,
                                         standing=ledger.TableStanding.start(night, len(starts)).to_json())
        TablePlayer.objects.bulk_create(TablePlayer(table=table, player=entrants[n], position=position)
                                        for position, n in enumerate(starts))
        out.append(table)
    return out
