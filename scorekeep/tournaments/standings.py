"""A tournament's standings, per series and overall, read from each table's kept standing only.

Every table of every series is a card night of its own, and its `CardTable.standing` (`ledger.TableStanding`) is
kept current on every write: the standings add those up per entrant and rank them by the rule set's order
(`rules.ranking`) — they never read a deal, and cost the same few queries at deal 10 as at deal 20,000.
Where players stay tied after every tie-break, the organiser draws a lot (`draw_lot`), stored with the
tournament (`Tournament.lots`), and their places say "tie broken by lot".
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from django.db import transaction
from django.db.models import F, Sum

from scorekeep.models import CardTable, Entrant, Series, TablePlayer, Tournament, TournamentRevision
from scorekeep.nights import ledger
from scorekeep.rules import GAMES, IllegalDeal
from scorekeep.rules.ranking import CRITERIA, UNRANKED, Criterion, criteria, rank, ranked_after, round_places
from scorekeep.tournaments import paper

Figures = dict[str, Fraction | int]  # whole numbers but Kop's placing points (halves where ties share)

OVERALL = "overall"
TEAMS = "teams"


def version(tournament: Tournament) -> tuple[int, int]:
    """Where the tournament's data stands, for the standings pages' ETag: its own version (moved on by the
    organiser's changes: registration, a draw, a lot …) and its tables' versions summed (each moved on by
    every write to that table's deals; a sum of counters that only grow changes with any of them). One
    query; no write to the tournament's row on a deal, so the tables save without waiting for each other."""
    tables = CardTable.objects.filter(night__series__tournament=tournament).aggregate(v=Sum("version"))["v"]
    return tournament.version, tables or 0


def series_scope(number: int) -> str:
    return f"series-{number}"


@dataclass(slots=True)
class Line:
    """One entrant (or team) in the standings: the figures of each series (None where not seated), the
    figures summed, where they rank and how that moved since the series before."""

    number: int  # start number (a team: its id)
    name: str
    club: str
    team: str
    series: list[Figures | None]
    total: Figures
    place: int = 0
    by_lot: bool = False
    movement: int | None = None  # places gained since the standings after the series before
    joined: int | None = None  # a late entry: the first series played
    member_number: str = ""  # the player's number in their association (issue 31), for the lists and exports
    withdrew: int | None = None  # a withdrawal: the last series played
    table: int | None = None  # the table in the shown series (the per-series view)
    paper: list[int] = field(default_factory=list)  # the series whose figures come from a paper list


@dataclass(slots=True)
class TournamentStandings:
    tournament: Tournament
    scope: str
    order: tuple[Criterion, ...]
    numbers: list[int]  # the series shown as columns
    lines: list[Line]
    played: int  # the last series with any deal entered (0: none yet)
    teams: list[Line] = field(default_factory=list)
    tied: list[list[int]] = field(default_factory=list)  # still tied, for a lot
    teams_tied: list[list[int]] = field(default_factory=list)  # teams (by id) still tied

    @property
    def lot_drawn(self) -> bool:
        return any(line.by_lot for line in self.lines)


def _zero() -> Figures:
    return dict.fromkeys(CRITERIA, 0)


def _figures(kept: ledger.TableStanding, table: CardTable) -> list[Figures]:
    """Each player's figures at one table, by table position: every criterion's (the money reads games lost
    whatever the order)."""
    placings = kept.placing_totals(table.night)
    wins, seconds = kept.round_wins, kept.second_places
    if placings is not None and not table.night.round_length:
        # A table whose night sets no round length plays its series as one round (Kop: a tournament's round
        # is the series): its places so far, as the placing points so far are.
        places = round_places(kept.totals)
        wins, seconds = [int(p == 1) for p in places], [int(p == 2) for p in places]
    performance = kept.performance
    return [{"performance": performance[p], "total": kept.totals[p], "placing": placings[p] if placings else 0,
             "won": kept.won[p], "lost": kept.lost[p], "soli_won": kept.soli_won[p], "round_wins": wins[p],
             "second_places": seconds[p]} for p in range(kept.players)]


def _add(a: Figures, b: Figures) -> Figures:
    return {key: a[key] + b[key] for key in a}


def order_of(tournament: Tournament) -> tuple[Criterion, ...]:
    """The tournament's order by its rule set (the game's first rule set where its stored one no longer
    parses, so the standings always show)."""
    game = GAMES[tournament.game]
    try:
        rules = game.parse_rules(tournament.rules_request)
    except IllegalDeal:
        rules = game.parse_rules({"preset": game.DEFAULT_PRESET})
    return criteria(tournament.game, rules)


def standings(tournament: Tournament, series: int | None = None, *, upto: int | None = None) -> TournamentStandings:
    """The standings overall (`series` None) — after series `upto` where given (a printout after each
    series) — or of one series, each entrant's figures per series from the tables' kept standings; four
    queries whatever the number of deals."""
    order = order_of(tournament)
    entrants = list(tournament.entrants.select_related("player", "team").only(
        "tournament", "number", "guest", "home_club", "first_series", "last_series", "member_number", "player",
        "player__name", "team", "team__name"))
    numbers = list(Series.objects.filter(tournament=tournament).order_by("number").values_list("number", flat=True))
    # Only what the standings read of a table (its kept standing) and of its night (the rule set, for Kop's
    # placing points): a championship has hundreds of tables.
    tables = {t.pk: t for t in CardTable.objects.filter(night__series__tournament=tournament)
              .select_related("night", "night__series")
              .only("number", "standing", "paper", "version", "night", "night__game", "night__preset",
                    "night__house_rules", "night__round_length", "night__series", "night__series__number")}
    seats: dict[tuple[int, int], tuple[CardTable, int]] = {}  # (series, player) → table, position
    sizes: dict[int, int] = {}
    for place in TablePlayer.objects.filter(table__in=list(tables)).values("table_id", "player_id", "position"):
        table = tables[place["table_id"]]
        seats[table.night.series.number, place["player_id"]] = (table, place["position"])  # type: ignore[union-attr]
        sizes[table.pk] = sizes.get(table.pk, 0) + 1
    # A table's paper result (issue 31) counts as its standing until as many deals are typed in.
    counted = {pk: paper.standing_of(table, sizes.get(pk, 0)) for pk, table in tables.items()}
    kept = {pk: standing for pk, (standing, _paper) in counted.items()}
    on_paper = {pk for pk, (_standing, from_paper) in counted.items() if from_paper}
    figures_at = {pk: _figures(kept[pk], table) for pk, table in tables.items()}
    played = max((t.night.series.number for pk, t in tables.items() if kept[pk].deals),  # type: ignore[union-attr]
                 default=0)
    if upto is not None:
        numbers = [n for n in numbers if n <= upto]
        played = min(played, upto)
    shown = [series] if series is not None else numbers

    def lines_upto(last: int) -> list[Line]:
        out = []
        for entrant in entrants:
            if series is not None and not entrant.plays(series) and (series, entrant.player_id) not in seats:
                continue  # the view of one series lists who plays it
            per: list[Figures | None] = []
            table_number = None
            papers = []
            for number in shown:
                seat = seats.get((number, entrant.player_id)) if number <= last else None
                if seat is None:
                    per.append(None)
                    continue
                table, position = seat
                table_number = table.number
                per.append(figures_at[table.pk][position])
                if table.pk in on_paper:
                    papers.append(number)
            total = _zero()
            for figures in per:
                if figures is not None:
                    total = _add(total, figures)
            out.append(Line(entrant.number, entrant.player.name,
                            entrant.home_club if entrant.guest else tournament.club.name,
                            entrant.team.name if entrant.team else "", per, total,
                            joined=entrant.first_series if entrant.first_series > 1 else None,
                            withdrew=entrant.last_series, table=table_number if series is not None else None,
                            member_number=entrant.member_number, paper=papers))
        return out

    scope = OVERALL if series is None else series_scope(series)
    first = {e.number: e.first_series for e in entrants}

    def not_yet(reached: int) -> set[int]:
        """Late entrants who have not joined by series `reached`: the overall standings do not rank them."""
        return set() if series is not None else {n for n, k in first.items() if not ranked_after(k, reached)}

    lines = _ranked(lines_upto(max(numbers, default=0)), order, tournament.lots.get(scope, []), not_yet(played))
    if series is None and played > 1:
        before = {line.number: line.place for line in _ranked(lines_upto(played - 1), order,
                                                              tournament.lots.get(OVERALL, []), not_yet(played - 1))}
        for line in lines:
            if line.place != UNRANKED and before[line.number] != UNRANKED:
                line.movement = before[line.number] - line.place
    result = TournamentStandings(tournament, scope, order, shown, lines, played)
    result.tied = _still_tied(lines)
    if tournament.teams and series is None:
        result.teams = _teams(tournament, entrants, lines, order)
        result.teams_tied = _still_tied(result.teams)
    return result


def _ranked(lines: list[Line], order: Sequence[Criterion], lot: Sequence[int],
            unranked: Collection[int] = ()) -> list[Line]:
    places = rank([line.total for line in lines], order, [line.number for line in lines], lot, unranked)
    out = []
    for p in places:
        line = lines[p.index]
        line.place, line.by_lot = p.place, p.by_lot
        out.append(line)
    return out


def _still_tied(lines: Sequence[Line]) -> list[list[int]]:
    """The start numbers (team ids) sharing a place, best place first: what a lot may be drawn for."""
    groups: dict[int, list[int]] = {}
    for line in lines:
        if line.place != UNRANKED:
            groups.setdefault(line.place, []).append(line.number)
    return [group for _place, group in sorted(groups.items()) if len(group) > 1]


def _teams(tournament: Tournament, entrants: Sequence[Entrant], lines: Sequence[Line],
           order: Sequence[Criterion]) -> list[Line]:
    """The teams' standings: each team's members' figures summed, ranked by the same order."""
    by_number = {line.number: line for line in lines}
    teams: dict[int, Line] = {}
    for entrant in entrants:
        if entrant.team is None:
            continue
        team = teams.setdefault(entrant.team.pk, Line(entrant.team.pk, entrant.team.name, "", "", [], _zero()))
        team.total = _add(team.total, by_number[entrant.number].total)
    return _ranked(list(teams.values()), order, tournament.lots.get(TEAMS, []))


@transaction.atomic
def draw_lot(tournament: Tournament, scope: str, *, by: str = "") -> list[int]:
    """Draw a lot for every group still tied in `scope` (overall, a series, the teams) and store it with the
    tournament (its history keeps what was there before); returns the order drawn. The draw uses the
    system's random source: it is a lot, not a seeded draw to be repeated."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if scope == TEAMS:
        tied = standings(tournament).teams_tied
    elif scope == OVERALL:
        tied = standings(tournament).tied
    else:
        number = int(scope.removeprefix("series-"))
        tied = standings(tournament, number).tied
    drawn: list[int] = []
    chance = secrets.SystemRandom()
    for group in tied:
        group = list(group)
        chance.shuffle(group)
        drawn.extend(group)
    if not drawn:
        return []  # nobody is tied: nothing to draw, nothing stored
    old = dict(tournament.lots)
    lots = {**tournament.lots, scope: [*tournament.lots.get(scope, []), *drawn]}
    Tournament.objects.filter(pk=tournament.pk).update(lots=lots, version=F("version") + 1)
    TournamentRevision.objects.create(tournament=tournament, kind="lot", old=old, new=lots, by=by)
    return drawn

