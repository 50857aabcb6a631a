"""Every change to a tournament's stored data, each in one transaction (issue 18): create one, register
entrants at the door (a late entry from series k, a withdrawal after series k), draw a series, close and
reopen it.

Each change is recorded in `TournamentRevision` (what was there before and after, by whom) and bumps
`Tournament.version`, so the standings pages can tell they are current. Rule knowledge — the tables a game is
played at, a series' length at each, the draw, what a closing table is checked for — is the engine's
(`rules.tournament`, `rules.draw`); bad input raises Django's `ValidationError` keyed by the field at fault,
with a sentence saying what is allowed.

Each table of a series is a card night of its own (`CardNight.series`), so its list keeper uses the table
page through that night's scorer link. Closing a series marks its nights finished: no deal can be added,
and the scorer link only reads (`access.role`); the club's hosts — the organiser — can still correct a
deal, with its history, and the standings follow because they read each table's kept standing.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date as Date
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, F, Max
from django.utils import timezone
from django.utils.translation import gettext

from scorekeep.models import (
    CardNight,
    CardTable,
    Club,
    Deal,
    Entrant,
    Player,
    Series,
    TablePlayer,
    Team,
    Tournament,
    TournamentRevision,
)
from scorekeep.nights import ledger
from scorekeep.rules import GAMES, IllegalDeal
from scorekeep.rules.draw import Draw, Mode, Seatable, draw, pairs_of
from scorekeep.rules.explain import Phrase, in_words
from scorekeep.rules.tournament import check_series_length, check_table, series_length_at
from scorekeep.tournaments import paper, standings
from scorekeep.words.labels import page_words, unit_text
from scorekeep.words.money import CURRENCY

MAX_SERIES = 20
MAX_AMOUNT = 10_000_000  # minor units: 100,000.00 of a currency, far beyond any entry fee or prize
PER_MILLE = 1000


def _refuse(field: str, message: str) -> ValidationError:
    return ValidationError({field: message})


def _engine_refusal(err: IllegalDeal) -> ValidationError:
    return _refuse(err.field, err.render(str, gettext(err.text), page_words))


def _amount(field: str, value: object) -> int:
    if type(value) is not int or not 0 <= value <= MAX_AMOUNT:
        raise _refuse(field, gettext("is an amount in the currency's smallest unit, 0 to %(max)s, not %(got)s")
                      % {"max": MAX_AMOUNT, "got": value})
    return value


def check_lost_game_money(tiers: object) -> list[dict[str, int]]:
    """The lost-game money's tiers, each ``{"from": n, "amount": minor units}``, the first from the 1st lost
    game and each later one from a later game (empty: no lost-game money)."""
    if not isinstance(tiers, list):
        raise _refuse("lost_game_money", gettext("is a list of tiers, each from a lost game on an amount"))
    out: list[dict[str, int]] = []
    for i, tier in enumerate(tiers):
        if not isinstance(tier, Mapping) or set(tier) != {"from", "amount"}:
            raise _refuse("lost_game_money", gettext("tier %(n)s needs “from” (the lost game it starts at) and "
                                                     "“amount”, nothing else") % {"n": i + 1})
        start = tier["from"]
        earlier = out[-1]["from"] if out else 0
        if type(start) is not int or start <= earlier or (not out and start != 1):
            raise _refuse("lost_game_money", gettext(
                "tier %(n)s starts at lost game %(got)s; the first starts at 1 and each later one after the one "
                "before") % {"n": i + 1, "got": start})
        out.append({"from": start, "amount": _amount("lost_game_money", tier["amount"])})
    return out


def check_prizes(prizes: object) -> dict[str, Any]:
    """The prize table: ``{"kind": "amounts" | "shares", "places": [...], "retention": {"kind": "share" |
    "amount", "value": n}}`` — amounts in minor units, shares in per mille of the pot (together at most
    1000), places from the first down (never more for a lower place). Empty: no prizes; a table without
    places keeps only the retention (the money page and the new-tournament form take it alike, issue 31)."""
    if prizes in (None, {}):
        return {}
    if not isinstance(prizes, Mapping) or set(prizes) - {"kind", "places", "retention"}:
        raise _refuse("prizes", gettext("is a prize table: its kind, its places and the retention"))
    kind = prizes.get("kind")
    if kind not in ("amounts", "shares"):
        raise _refuse("prizes", gettext("the kind of prizes is “amounts” or “shares”, not %(got)s")
                      % {"got": kind})
    places = prizes.get("places")
    if not isinstance(places, list) or len(places) > 200:
        raise _refuse("prizes", gettext("list the prize of each place, the first first (at most 200 places)"))
    values = [_amount("prizes", value) for value in places]
    if any(later > earlier for earlier, later in zip(values, values[1:], strict=False)):
        raise _refuse("prizes", gettext("a lower place never gets more than a higher one"))
    if kind == "shares" and sum(values) > PER_MILLE:
        raise _refuse("prizes", gettext("the shares add up to %(got)s per mille; at most 1000 can be paid out")
                      % {"got": sum(values)})
    retention = prizes.get("retention") or {"kind": "amount", "value": 0}
    if not isinstance(retention, Mapping) or retention.get("kind") not in ("share", "amount") \
            or set(retention) != {"kind", "value"}:
        raise _refuse("prizes", gettext("the retention is a share (per mille) or an amount"))
    value = _amount("prizes", retention["value"])
    if retention["kind"] == "share" and value > PER_MILLE:
        raise _refuse("prizes", gettext("the retention is at most 1000 per mille, not %(got)s") % {"got": value})
    return {"kind": kind, "places": values, "retention": {"kind": retention["kind"], "value": value}}


def check_money(entry_fee: object, lost_game_money: object, prizes: object) -> dict[str, Any]:
    """A tournament's money settings as kept, checked once for every way in (a new tournament, the money
    page): the entry fee, the lost-game tiers and the prize table; `ValidationError` by field otherwise."""
    tiers = list(lost_game_money) if isinstance(lost_game_money, tuple) else lost_game_money
    return {"entry_fee": _amount("entry_fee", entry_fee), "lost_game_money": check_lost_game_money(tiers),
            "prizes": check_prizes(prizes)}


def _record(tournament: Tournament, kind: str, *, old: Any = None, new: Any = None, by: str = "",
            reason: str = "") -> None:
    TournamentRevision.objects.create(tournament=tournament, kind=kind, old=old, new=new, by=by[:40],
                                      reason=reason[:200])
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)


def _part(tournament: Tournament, number: int) -> str:
    """"series 2" — Kop's "round 2" — in a refusal's sentence (the engine's word, `labels.unit_text`)."""
    return unit_text(tournament.game, "in_text", number)


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


@transaction.atomic
def create_tournament(*, club: Club, name: str, game: str, preset: str, series_count: object,
                      series_length: object, house_rules: dict[str, Any] | None = None, date: Date | None = None,
                      place: str = "", draw_mode: str = "random", currency: str = "EUR", entry_fee: object = 0,
                      lost_game_money: object = (), prizes: object = None, teams: bool = False,
                      print_language: str = "", by: str = "") -> Tournament:
    """A new tournament of `club`; refuses bad input (`ValidationError` by field) and stores nothing then."""
    name = " ".join(name.split())
    if not name or len(name) > 100:
        raise _refuse("name", gettext("a tournament needs a name of 1 to 100 characters"))
    if game not in GAMES:
        raise _refuse("game", gettext("is one of %(games)s, not %(got)s") % {"games": ", ".join(GAMES), "got": game})
    try:
        GAMES[game].parse_rules({"preset": preset, **(house_rules or {})})
        length = check_series_length(game, series_length)
    except IllegalDeal as err:
        raise _engine_refusal(err) from err
    if type(series_count) is not int or not 1 <= series_count <= MAX_SERIES:
        raise _refuse("series_count", gettext("is 1 to %(max)s series, not %(got)s")
                      % {"max": MAX_SERIES, "got": series_count})
    if not isinstance(currency, str) or not CURRENCY.fullmatch(currency):
        raise _refuse("currency", gettext("Write the currency as three letters, e.g. EUR or CHF."))
    if draw_mode not in dict(Tournament.DRAW_MODES):
        raise _refuse("draw_mode", gettext("is “random” or “standings”, not %(got)s") % {"got": draw_mode})
    tournament = Tournament.objects.create(
        club=club, name=name, game=game, preset=preset, house_rules=house_rules or {},
        date=date or timezone.localdate(), place=place.strip()[:100], series_count=series_count,
        series_length=length, draw_mode=draw_mode,
        currency=currency, **check_money(entry_fee, lost_game_money, prizes), teams=teams,
        print_language=print_language)
    _record(tournament, "created", new=settings_of(tournament), by=by)
    return tournament


def settings_of(tournament: Tournament) -> dict[str, Any]:
    return {key: getattr(tournament, key) for key in (
        "name", "place", "game", "preset", "house_rules", "series_count", "series_length", "draw_mode",
        "currency", "entry_fee", "lost_game_money", "prizes", "teams", "print_language")} | {
        "date": tournament.date.isoformat()}


def _entrant_json(entrant: Entrant) -> dict[str, Any]:
    return {"number": entrant.number, "name": entrant.player.name, "guest": entrant.guest,
            "home_club": entrant.home_club, "team": entrant.team.name if entrant.team else None,
            "first_series": entrant.first_series, "last_series": entrant.last_series, "paid": entrant.paid,
            "member_number": entrant.member_number}


def drawn(tournament: Tournament) -> int:
    """The highest series drawn so far (0: none)."""
    return tournament.series_set.filter(drawn_at__isnull=False).aggregate(n=Max("number"))["n"] or 0


MEMBER_NUMBER = re.compile(r"[0-9A-Za-z][0-9A-Za-z./-]{0,19}")


def check_member_number(text: str) -> str:
    """A member number as kept: letters, digits and . / - (an association's numbers look like "12345" or
    "DSkV-0815/3"), at most 20 characters; empty when none is given."""
    text = text.strip()
    if text and not MEMBER_NUMBER.fullmatch(text):
        raise _refuse("member_number", gettext("is up to 20 letters, digits, dots, slashes and hyphens, "
                                               "not “%(got)s”") % {"got": text[:40]})
    return text


@transaction.atomic
def register(tournament: Tournament, *, name: str, guest: bool = False, home_club: str = "", team: str = "",
             number: int | None = None, paid: bool = False, member_number: str = "", by: str = "") -> Entrant:
    """Register a player at the door: the club's player of that name (created when new; a guest is kept as a
    player of the organising club, with the club they come from). Before the first draw they play from
    series 1; after series k is drawn, from series k+1 (a late entry). `number`: the start number (the next
    free one when None). A withdrawn player registered again is reinstated (`reinstate`), not refused."""
    tournament = _lock(tournament)
    name = " ".join(name.split())
    if not name or len(name) > 40:
        raise _refuse("name", gettext("every player needs a name of 1 to 40 characters"))
    member_number = check_member_number(member_number)
    home_club = " ".join(home_club.split())[:80]
    if guest and not home_club:
        raise _refuse("home_club", gettext("a guest's club is needed for the draw (write “none” if they have none)"))
    first = drawn(tournament) + 1
    if first > tournament.series_count:
        raise _refuse("name", gettext("every %(unit)s is drawn already; nobody can enter now")
                      % {"unit": unit_text(tournament.game, "word")})
    player = Player.objects.filter(club=tournament.club, key=Player.key_of(name)).first()
    if player is None:
        player = Player.objects.create(club=tournament.club, name=name)
    entered = tournament.entrants.filter(player=player).first()
    if entered is not None and entered.last_series is not None:
        return reinstate(entered, by=by)
    if entered is not None:
        raise _refuse("name", gettext("%(name)s is registered already") % {"name": player.name})
    taken = set(tournament.entrants.values_list("number", flat=True))
    if number is None:
        number = max(taken, default=0) + 1
    elif type(number) is not int or not 1 <= number <= 9999 or number in taken:
        raise _refuse("number", gettext("is a start number from 1 to 9999 not given yet, not %(got)s")
                      % {"got": number})
    team_row = None
    team = " ".join(team.split())[:80]
    if team:
        if not tournament.teams:
            raise _refuse("team", gettext("this tournament has no team scoring; leave the team empty"))
        team_row, _made = Team.objects.get_or_create(tournament=tournament, name=team)
    entrant = Entrant.objects.create(tournament=tournament, player=player, number=number, guest=guest,
                                     home_club=home_club if guest else "", team=team_row, first_series=first,
                                     paid=paid, member_number=member_number)
    _record(tournament, "registered", new=_entrant_json(entrant), by=by)
    return entrant


@transaction.atomic
def withdraw(entrant: Entrant, *, by: str = "", reason: str = "") -> Entrant:
    """The entrant plays no series after the last one drawn (before the first draw: none, and the entry is
    kept so that the list of who came stays whole)."""
    tournament = _lock(entrant.tournament)
    entrant = Entrant.objects.select_related("player", "team").get(pk=entrant.pk)
    last = drawn(tournament)
    if entrant.last_series is not None:
        raise _refuse("entrant", gettext("%(name)s has withdrawn already") % {"name": entrant.player.name})
    old = _entrant_json(entrant)
    entrant.last_series = last
    entrant.save(update_fields=["last_series"])
    _record(tournament, "withdrawn", old=old, new=_entrant_json(entrant), by=by, reason=reason)
    return entrant


@transaction.atomic
def reinstate(entrant: Entrant, *, by: str = "", reason: str = "") -> Entrant:
    """Undo a withdrawal: the entrant is drawn again from the next series. While no series was drawn since the
    withdrawal they simply play on; one who never played comes back as a late entry from the next series.
    One who played, withdrew and missed a drawn series cannot come back: a player's series are one run."""
    tournament = _lock(entrant.tournament)
    entrant = Entrant.objects.select_related("player", "team").get(pk=entrant.pk)
    if entrant.last_series is None:
        raise _refuse("entrant", gettext("%(name)s has not withdrawn") % {"name": entrant.player.name})
    last = drawn(tournament)
    old = _entrant_json(entrant)
    if entrant.last_series < entrant.first_series:  # withdrew before playing: enters from the next series
        if last + 1 > tournament.series_count:
            raise _refuse("entrant", gettext("every %(unit)s is drawn already; nobody can enter now")
                          % {"unit": unit_text(tournament.game, "word")})
        entrant.first_series = max(entrant.first_series, last + 1)
    elif entrant.last_series != last:
        raise _refuse("entrant", gettext("%(name)s cannot be reinstated: %(part)s was drawn without them")
                      % {"name": entrant.player.name, "part": _part(tournament, entrant.last_series + 1)})
    entrant.last_series = None
    entrant.save(update_fields=["first_series", "last_series"])
    _record(tournament, "reinstated", old=old, new=_entrant_json(entrant), by=by, reason=reason)
    return entrant


@transaction.atomic
def set_paid(entrant: Entrant, paid: bool, *, by: str = "") -> None:
    tournament = _lock(entrant.tournament)
    old = _entrant_json(entrant)
    Entrant.objects.filter(pk=entrant.pk).update(paid=paid)
    entrant.paid = paid
    _record(tournament, "paid", old=old, new=_entrant_json(entrant), by=by)


# --- the draw --------------------------------------------------------------------------------------

def _seatables(tournament: Tournament, number: int) -> tuple[list[Seatable], dict[int, Entrant]]:
    entrants = [e for e in tournament.entrants.select_related("player", "team") if e.plays(number)]
    # The organiser's own players are one club among others only where guests came from other clubs: at a
    # club's own tournament everyone is of one club, and parting them is nothing a draw could do.
    open_field = any(e.guest for e in entrants)
    return ([Seatable(e.number, e.home_club if e.guest else tournament.club.name if open_field else "",
                      e.team.name if e.team else None)
             for e in entrants], {e.number: e for e in entrants})


def standings_order(tournament: Tournament, before: int) -> list[int]:
    """The start numbers as the standings after series `before` rank them, best first (`tournaments.standings`:
    the rule set's order and tie-breaks, a recorded lot; players still tied by their start numbers) — the
    tables' kept standings, never re-judging a deal."""
    return [line.number for line in standings.standings(tournament, upto=before).lines]


def _met_and_byes(tournament: Tournament, before: int) -> tuple[set[tuple[int, int]], dict[int, int]]:
    met: set[tuple[int, int]] = set()
    byes: dict[int, int] = {}
    for series in tournament.series_set.filter(number__lt=before, drawn_at__isnull=False):
        met |= pairs_of(series.draw.get("tables", []))
        for number in series.draw.get("byes", []):
            byes[number] = byes.get(number, 0) + 1
    return met, byes


def draw_order(tournament: Tournament, number: int, mode: str) -> list[int] | None:
    """The standings series `number` is drawn from (None: a draw at random)."""
    return standings_order(tournament, number - 1) if mode == Mode.STANDINGS and number > 1 else None


def make_draw(tournament: Tournament, number: int, seed: str, mode: str, order: list[int] | None = None) -> Draw:
    """The draw of series `number` from `seed`: a pure function of what is stored, so it can be repeated."""
    entrants, _by_number = _seatables(tournament, number)
    met, byes = _met_and_byes(tournament, number)
    if order is None:
        order = draw_order(tournament, number, mode)
    return draw(tournament.game, entrants, met, order, mode, seed, byes)


@transaction.atomic
def draw_series(tournament: Tournament, number: int, *, seed: str | None = None, host: Any = None,
                by: str = "") -> Series:
    """Draw series `number` (the next one, or the last drawn again while none of its tables has a deal):
    stores the seed, mode and draw, and makes each table a card night with its players in the drawn order
    (seat 0 deals first). The first series is drawn at random, later ones as the tournament says."""
    tournament = _lock(tournament)
    last = drawn(tournament)
    if not 1 <= number <= tournament.series_count or number not in (last, last + 1):
        raise _refuse("series", gettext("%(part)s cannot be drawn now: the next to draw is %(next)s")
                      % {"part": _part(tournament, number), "next": _part(tournament, last + 1)})
    if number > 1 and number == last + 1 and not tournament.series_set.get(number=last).closed:
        raise _refuse("series", gettext("close %(part)s before drawing the next") % {"part": _part(tournament, last)})
    series, _new = Series.objects.get_or_create(tournament=tournament, number=number)
    old = None
    if series.drawn_at is not None:
        if series.closed:
            raise _refuse("series", gettext("%(part)s is closed; reopen it to draw it again")
                          % {"part": _part(tournament, number)})
        if series.nights.filter(tables__deals__isnull=False).exists():
            raise _refuse("series", gettext("%(part)s cannot be drawn again: deals are entered at its tables")
                          % {"part": _part(tournament, number)})
        old = {"seed": series.seed, "mode": series.mode, "draw": series.draw}
        series.nights.all().delete()
    mode = Mode.RANDOM if number == 1 else Mode(tournament.draw_mode)
    seed = seed if seed else secrets.token_hex(8)
    order = draw_order(tournament, number, mode)
    try:
        result = make_draw(tournament, number, seed, mode, order)
    except IllegalDeal as err:
        raise _engine_refusal(err) from err
    _entrants, by_number = _seatables(tournament, number)
    made = result.to_json()
    if order is not None:  # the standings it was drawn from, so a later correction that changes them is told
        made["order"] = order
    series.seed, series.mode, series.draw, series.drawn_at = seed, str(mode), made, timezone.now()
    series.save()
    for index, numbers in enumerate(result.tables, start=1):
        _seat(tournament, series, index, [by_number[n].player for n in numbers], host)
    _record(tournament, "drawn", old=old, new={"series": number, "seed": seed, "mode": str(mode),
                                               "draw": series.draw}, by=by)
    return series


def _seat(tournament: Tournament, series: Series, number: int, players: Sequence[Player], host: Any) -> CardTable:
    """One table of a series: a card night of its own with one table, the tournament's rules copied."""
    length = series_length_at(tournament.game, tournament.series_length, len(players))
    night = CardNight.objects.create(
        date=tournament.date, place=tournament.place, game=tournament.game, preset=tournament.preset,
        house_rules=tournament.house_rules, series_length=length, round_length=length, currency=tournament.currency,
        amount_exponent=tournament.amount_exponent, print_language=tournament.print_language, host=host,
        club=tournament.club, series=series)
    table = CardTable.objects.create(night=night, number=number, seats=ledger.engine_seats(night.game, len(players)),
                                     first_dealer=0, standing=ledger.TableStanding.start(night, len(players)).to_json())
    TablePlayer.objects.bulk_create(TablePlayer(table=table, player=player, position=position)
                                    for position, player in enumerate(players))
    return table


# --- closing a series ------------------------------------------------------------------------------

@dataclass(frozen=True)
class TableCheck:
    """A table of a series as the organiser sees it: its night and table, the players, the deals entered and
    the series' length there, and what its closing check misses (empty: done)."""

    night: CardNight
    table: CardTable
    names: list[str]
    deals: int
    length: int
    problems: list[Phrase]
    paper: bool = False  # the table's result is typed from its paper list (`tournaments.paper`)

    @property
    def done(self) -> bool:
        return not self.problems

    def problems_in_words(self) -> list[str]:
        return [in_words(p, page_words, lambda seat: self.names[seat]) for p in self.problems]


def table_checks(series: Series) -> list[TableCheck]:
    """Each table of the series with its closing check, from the kept standings and one query for the dealers."""
    tables = list(CardTable.objects.filter(night__series=series).select_related("night")
                  .prefetch_related("places__player").order_by("number"))
    dealers: dict[int, list[int]] = {}
    counted = (Deal.objects.filter(table__night__series=series, deleted=False).values("table", "dealer")
               .annotate(n=Count("pk")).values_list("table", "dealer", "n"))
    for table_id, dealer, count in counted:
        dealers.setdefault(table_id, []).extend([dealer] * count)
    out = []
    for table in tables:
        standing, from_paper = paper.standing_of(table)
        names = [place.player.name for place in table.places.all()]
        length = table.night.series_length or 0
        # A paper result's dealers are on the paper only: its deals and balance are checked (issue 31).
        out.append(TableCheck(table.night, table, names, standing.deals, length,
                              check_table(table.night.game, length, None if from_paper else dealers.get(table.pk, []),
                                          standing.totals, deals=standing.deals), from_paper))
    return out


@transaction.atomic
def close_series(series: Series, *, by: str = "", reason: str = "") -> Series:
    """Close the series when every table's check passes — or despite a failed check when the organiser gives a
    reason (recorded with what failed). Its nights are finished: no more deals, the scorer links only read."""
    tournament = _lock(series.tournament)
    series = Series.objects.select_for_update().get(pk=series.pk)
    if series.drawn_at is None:
        raise _refuse("series", gettext("%(part)s is not drawn yet") % {"part": _part(tournament, series.number)})
    if series.closed:
        raise _refuse("series", gettext("%(part)s is closed already") % {"part": _part(tournament, series.number)})
    failed = {str(check.table.number): check.problems_in_words() for check in table_checks(series)
              if not check.done}
    reason = " ".join(reason.split())
    if failed and not reason:
        raise _refuse("reason", gettext("not every table's list is complete; give a reason to close the %(unit)s "
                                        "anyway") % {"unit": unit_text(tournament.game, "word")})
    series.closed, series.closed_at = True, timezone.now()
    series.save(update_fields=["closed", "closed_at"])
    _finish(series, True)
    _record(tournament, "closed", new={"series": series.number, "failed": failed}, by=by, reason=reason)
    return series


@transaction.atomic
def reopen_series(series: Series, *, by: str = "", reason: str = "") -> Series:
    """Open a closed series again (its tables take deals again through their scorer links) — only the last
    drawn one, so no later series was drawn from standings it would change."""
    tournament = _lock(series.tournament)
    series = Series.objects.select_for_update().get(pk=series.pk)
    if not series.closed:
        raise _refuse("series", gettext("%(part)s is open") % {"part": _part(tournament, series.number)})
    if series.number != drawn(tournament):
        raise _refuse("series", gettext("%(part)s cannot be reopened: a later %(unit)s is drawn")
                      % {"part": _part(tournament, series.number), "unit": unit_text(tournament.game, "word")})
    series.closed, series.closed_at = False, None
    series.save(update_fields=["closed", "closed_at"])
    _finish(series, False)
    _record(tournament, "reopened", new={"series": series.number}, by=by, reason=reason)
    return series


def _finish(series: Series, finished: bool) -> None:
    nights = CardNight.objects.filter(series=series)
    nights.update(finished=finished, version=F("version") + 1)
    CardTable.objects.filter(night__in=nights).update(version=F("version") + 1)
