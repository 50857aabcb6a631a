"""A season's table and the ratings read each table's kept standing (`ledger.TableStanding`) instead of building
every night's ledger; these tests hold them equal to a full rebuild from the stored verdicts (`ledger.build`)
for the demo club's two seasons, after corrections, deletions and restorations, and after a change of a
night's settings — and hold the kept standing itself equal to a fresh walk after each of those."""

from __future__ import annotations

import datetime
from fractions import Fraction
from typing import Any

import pytest
from django.core.management import call_command

from scorekeep.clubs import clubs, ratings, seasons, stats
from scorekeep.models import CardNight, CardTable, Club, Player, Season
from scorekeep.nights import demo, ledger
from scorekeep.nights import writes as nights
from scorekeep.rules import GAMES
from scorekeep.rules.season import Measure


def rebuilt(season: Season, as_of: datetime.date | None = None) -> list[tuple[Any, ...]]:
    """The season's table from every night's full ledger (`ledger.build`): an independent reading of what each
    night gave each player — the way the table was computed before the kept standing was read."""
    as_of = min(as_of or season.end, season.end)
    basis = seasons.basis_of(season)
    loaded = stats.with_ledgers(CardNight.objects.filter(club=season.club, game=season.game,
                                                         date__gte=season.start, date__lte=as_of)
                                .order_by("date", "pk"))
    night_list, per_night = [], []
    for night in loaded:
        out: dict[int, tuple[Player, Fraction, int]] = {}
        for table in night.tables.all():
            deals = stats.live_deals(table)
            if not deals:
                continue
            places = list(table.places.all())
            book = ledger.build(table, deals, [place.player.name for place in places])
            values = {Measure.PLACING: book.placing_totals, Measure.PERFORMANCE: book.performance,
                      Measure.TOTAL: book.totals}[basis.measure]
            if values is None:
                continue
            series = -(-book.deals_played // night.series_length) if night.series_length else 1
            for position, place in enumerate(places):
                player, value, played = out.get(place.player_id, (place.player, Fraction(0), 0))
                out[place.player_id] = (player, value + Fraction(values[position]), played + series)
        if any(stats.live_deals(table) for table in night.tables.all()):
            night_list.append(night)
            per_night.append(out)
    lines = seasons._lines(season, night_list, per_night, basis)
    lines.sort(key=lambda line: (line.rank is None, line.rank or 0, -line.score, line.player.name.casefold()))
    return [shown(line) for line in lines]


def shown(line: seasons.Line) -> tuple[Any, ...]:
    return (line.player.pk, line.rank, line.score, [(r.night.pk if r.night else None, r.value, r.series, r.absent,
                                                     r.counted) for r in line.results])


def read(season: Season, as_of: datetime.date | None = None) -> list[tuple[Any, ...]]:
    return [shown(line) for line in seasons.standings(season, as_of).lines]


def rebuilt_ratings(club: Club, game: str) -> dict[int, tuple[float, float, int]]:
    """The ratings replayed over full ledgers: each table placed by the game's first basis."""
    measure = GAMES[game].SEASON_BASES[0].measure
    matches = []
    for night in sorted(stats.with_ledgers(CardNight.objects.filter(club=club, game=game)),
                        key=lambda n: (n.date, n.pk)):
        for table in night.tables.all():
            deals = stats.live_deals(table)
            if not deals:
                continue
            book = ledger.build(table, deals)
            values = book.placing_totals if measure == Measure.PLACING else (
                book.performance if measure == Measure.PERFORMANCE else book.totals)
            values = values if values is not None else book.totals
            matches.append([(place.player_id, float(value)) for place, value in zip(table.places.all(), values,
                                                                                      strict=True)])
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current: dict[int, Any] = {}
    played: dict[int, int] = {}
    for match in matches:
        teams = [[current.setdefault(pk, model.rating(name=str(pk)))] for pk, _value in match]
        ordered = sorted({value for _pk, value in match}, reverse=True)
        rated = model.rate(teams, ranks=[float(ordered.index(value) + 1) for _pk, value in match])
        for (pk, _value), [rating] in zip(match, rated, strict=True):
            current[pk] = rating
            played[pk] = played.get(pk, 0) + 1
    return {pk: (current[pk].mu, current[pk].sigma, played[pk]) for pk in current}


def rated(club: Club, game: str) -> dict[int, tuple[float, float, int]]:
    return {pk: (rating.mu, rating.sigma, rating.matches) for pk, rating in ratings.of_club(club, game).items()}


def check_kept(club: Club) -> None:
    """Every table's kept standing is where a fresh walk through its live deals ends."""
    for table in CardTable.objects.filter(night__club=club).select_related("night"):
        live = list(table.deals.filter(deleted=False).order_by("sequence"))
        assert ledger.TableStanding.from_json(table.standing) == ledger.walk(table.night, table.places.count(), live)[0]


@pytest.fixture
def demo_club(db: None) -> Club:
    call_command("loaddemo", "--seasons", stdout=open("/dev/null", "w"))  # noqa: SIM115
    return Club.objects.get(name=demo.CLUB)


def test_the_demo_seasons_read_from_kept_standings_equal_the_full_rebuild(demo_club: Club) -> None:
    made = list(Season.objects.filter(club=demo_club).order_by("start"))
    assert len(made) == 2
    for season in made:
        assert read(season) == rebuilt(season)
        assert len(read(season)) > 3
        latest = seasons.standings(season).latest
        assert latest is not None
        as_of = latest.date - datetime.timedelta(days=1)  # as of a date within the season
        assert read(season, as_of) == rebuilt(season, as_of)


def test_the_ratings_read_from_kept_standings_equal_the_full_replay(demo_club: Club) -> None:
    for game in GAMES:
        assert rated(demo_club, game) == rebuilt_ratings(demo_club, game)


def test_corrected_deleted_and_restored_deals_leave_the_table_equal_to_the_full_rebuild(demo_club: Club) -> None:
    season = Season.objects.filter(club=demo_club).order_by("start").last()
    assert season is not None
    table = seasons.standings(season)
    night = table.nights[len(table.nights) // 2]
    deals = list(night.tables.get().deals.filter(deleted=False).order_by("sequence"))
    before = read(season)
    won = next(deal for deal in deals if "card_points" in deal.facts and deal.verdict["won"] is True)
    played = dict(won.facts)
    # The demo's past nights are finished: each change is made confirmed (issue 33).
    nights.correct_deal(won, {**won.facts, "card_points": 30}, by="test", reason="miscounted", confirmed=True)
    after = read(season)
    assert after != before  # the correction moved the season's table …
    assert after == rebuilt(season)  # … exactly as a full rebuild does
    nights.delete_deal(deals[0], by="test", reason="not played", confirmed=True)
    assert read(season) == rebuilt(season)
    nights.restore_deal(deals[0], by="test", reason="it was", confirmed=True)
    assert read(season) == rebuilt(season)
    nights.enter_deal(night.tables.get(), played, by="test")  # one deal more
    assert read(season) == rebuilt(season)
    check_kept(demo_club)


def test_changed_house_rules_and_rounds_leave_kop_placings_equal_to_the_full_rebuild(db: None) -> None:
    from django.contrib.auth.models import User

    club = clubs.start_club(User.objects.create_user("kop-host"), "Kop club")
    names = ["Anna", "Bernd", "Clara", "Dora"]
    for day, olds in ((3, ([0, 1], [0, 2], [2, 3])), (10, ([1, 2], [0, 3], [0, 1], [1, 3]))):
        night = nights.start_night(game="kop", preset="wolsztyn", players=names, club=club, round_length=2,
                                   date=datetime.date(2025, 3, day))
        for number, old in enumerate(olds):
            nights.enter_deal(night.tables.get(), {"contract": "normal", "old": old, "card_points": 60 - number,
                                                   "old_tricks": 2})
    bases = [basis.key for basis in seasons.bases("kop")]
    made = [seasons.start_season(club, name=key, game="kop", start=datetime.date(2025, 1, 1),
                                 end=datetime.date(2025, 12, 31), basis=key) for key in bases]
    assert any(seasons.basis_of(season).measure == Measure.PLACING for season in made)
    for season in made:
        assert read(season) == rebuilt(season)
    first = club.nights.order_by("date").first()
    assert first is not None
    placing = next(season for season in made if seasons.basis_of(season).measure == Measure.PLACING)
    before = read(placing)
    nights.change_settings(first, round_length=3, by="test", reason="three deals a round")  # not a verdict's
    check_kept(club)
    assert read(placing) == rebuilt(placing) != before
    nights.change_settings(first, preset="classic", by="test", reason="no placings tonight")  # every verdict
    check_kept(club)
    for season in made:
        assert read(season) == rebuilt(season)
    assert rated(club, "kop") == rebuilt_ratings(club, "kop")
