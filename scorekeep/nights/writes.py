"""Every change to a card night's stored data, each in one transaction.

Views call these and nothing else to write: start a night, enter a deal, correct or delete one,
change the night's rules. Each keeps the history of what was there before (`DealRevision`,
`NightRevision`) and recomputes the table's verdicts (`ledger.recompute`), so the ledger is always
the sum of the engine's verdicts for the deals as they now stand.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from scorekeep.clubs import clubs
from scorekeep.models import (
    CardNight,
    CardTable,
    Club,
    Deal,
    DealRevision,
    NightRevision,
    Player,
    TablePlayer,
    Tournament,
)
from scorekeep.nights import ledger, settlement
from scorekeep.rules import GAMES, IllegalDeal
from scorekeep.words.money import currency_exponent

# The settings a deal's verdict depends on; the others (place, date, series …) never change one.
SCORING = ("preset", "house_rules", "bock_events", "bock_length")
SETTINGS = ("date", "place", "preset", "house_rules", "series_length", "round_length", "currency",
            "amount_exponent", "bock_events", "bock_length", "finished", "settlement", "print_language")


def player_named(club: Club, name: str) -> Player:
    """The club's player of that name (matched without regard to case), created when new: names are
    matched within the club only, so a host never meets another club's spelling of a name."""
    name = " ".join(name.split())
    player = Player.objects.filter(club=club, key=Player.key_of(name)).first()
    return player or Player.objects.create(club=club, name=name)


@transaction.atomic
def start_night(*, game: str, preset: str, players: Sequence[str], first_dealer: int = 0,
                house_rules: dict[str, Any] | None = None, club: Club | None = None, **settings: Any) -> CardNight:
    """A new night of `club` with its first table seated in the given (clockwise) order. Without a club,
    the night goes to its host's first club (`clubs.home_club`).

    Raises `IllegalDeal` for a rule set the engine refuses (field ``rules.<option>``) or a seating
    that cannot be (field ``players`` or ``first_dealer``); nothing is stored then.
    """
    _check_rules(game, {"preset": preset, **(house_rules or {})})
    if club is None:
        club = clubs.home_club(settings.get("host"))
    night = CardNight.objects.create(game=game, preset=preset, house_rules=house_rules or {}, club=club, **settings)
    seat_table(night, players, first_dealer)
    return night


@transaction.atomic
def seat_table(night: CardNight, players: Sequence[str], first_dealer: int = 0) -> CardTable:
    """Another table of the night, its players in clockwise order, `first_dealer` a position among them.

    The night's row is locked while the table is numbered, so two tables added at once get two numbers.
    """
    allowed = ledger.PLAYERS[night.game]
    if len(players) not in allowed:
        raise IllegalDeal("players", "{game} is played by {lo} to {hi} players at a table, not {got}",
                          game=night.get_game_display(), lo=allowed.start, hi=allowed.stop - 1, got=len(players))
    names = [" ".join(name.split()).casefold() for name in players]
    if "" in names or len(set(names)) != len(names):
        raise IllegalDeal("players", "every player needs a name, and no name twice at one table")
    _check_dealer(first_dealer, len(players))
    night = CardNight.objects.select_for_update().get(pk=night.pk)
    number = (night.tables.aggregate(n=Max("number"))["n"] or 0) + 1
    table = CardTable.objects.create(night=night, number=number, seats=ledger.engine_seats(night.game, len(players)),
                                     first_dealer=first_dealer,
                                     standing=ledger.TableStanding.start(night, len(players)).to_json())
    TablePlayer.objects.bulk_create(TablePlayer(table=table, player=player_named(night.club, name),
                                                position=position)
                                    for position, name in enumerate(players))
    _touch(night)  # the night page's tables (and a table page's header) show it
    return table


def next_dealer(table: CardTable) -> int:
    """Who deals next: the player to the left of the last deal's dealer (deleted deals were not
    dealt), or the table's first dealer."""
    last = table.deals.filter(deleted=False).order_by("-sequence").values_list("dealer", flat=True).first()
    players = table.places.count()
    return table.first_dealer if last is None else (last + 1) % players


def _check_rules(game: str, rules: dict[str, Any]) -> None:
    """Refuse a rule set the engine refuses, with its field (``rules.kontra`` …), before storing it."""
    GAMES[game].parse_rules(rules)


def _check_dealer(dealer: int, players: int) -> None:
    # An unknown place would seat a player who is not there (and break the ledger's columns).
    if not 0 <= dealer < players:
        raise IllegalDeal("dealer", "is a place at this table, 0 … {last}, not {got}", last=players - 1, got=dealer)


class Stale(Exception):
    """A change sent from a page that no longer shows the table or deal as it is: another phone saved
    first. `deals` are the deals entered since (a new deal) or `revisions` the changes made since (a
    correction), so the page can say what changed meanwhile; nothing was stored."""

    def __init__(self, deals: Sequence[Deal] = (), revisions: Sequence[DealRevision] = ()) -> None:
        super().__init__("changed meanwhile")
        self.deals = list(deals)
        self.revisions = list(revisions)


class Finished(Exception):
    """A change of a deal of a finished night (or of a closed tournament series' table) sent without the
    confirmation that it is meant (issue 33): nothing was stored. `at` is when the list was finished (None: it
    was finished before that was kept)."""

    def __init__(self, night: CardNight) -> None:
        super().__init__("the list is finished")
        at = (night.finish or {}).get("at")
        self.at = datetime.fromisoformat(at) if isinstance(at, str) else None


def _check_finished(night: CardNight, confirmed: bool) -> bool:
    """Whether the change is made after the finish; raises `Finished` when it is and was not confirmed."""
    if night.finished and not confirmed:
        raise Finished(night)
    return night.finished


def finished_now(night: CardNight) -> dict[str, Any]:
    """What a night keeps as it is finished (`CardNight.finish`): now, and what it settles now."""
    return settlement.at_finish(night, timezone.now().isoformat())


def _replayed(key: str | None) -> DealRevision | None:
    """The change already made with this idempotency key (a double tap or a retried request)."""
    return DealRevision.objects.select_related("deal").filter(request_key=key).first() if key else None


def _replay_of(key: str | None, kind: str, **where: Any) -> tuple[DealRevision | None, str | None]:
    """The revision this request repeats — the same kind of change of the same deal (a new deal: at the
    same table) made with the same key — and the key to store with this change: None when the key was
    used for another change already (a page sent again from the browser's history), so that change
    is made and stored, never mistaken for a repeat, and the unique key never collides."""
    found = _replayed(key)
    if found is None:
        return None, key or None
    if found.kind == kind and all(getattr(found.deal, name) == value for name, value in where.items()):
        return found, key
    return None, None


def _snapshot(deal: Deal) -> dict[str, Any]:
    snapshot = {"facts": deal.facts, "seating": deal.seating, "dealer": deal.dealer}
    if deal.play is not None:
        snapshot["play"] = deal.play
    return snapshot


def _touch_table(table: CardTable) -> None:
    """A write to one table's deals: its live pages (and the night's, which sums the versions) refresh.
    The night's row is not written, so saves at different tables do not wait for each other."""
    CardTable.objects.filter(pk=table.pk).update(version=F("version") + 1)
    # A tournament's table: its standings pages see the change by the table's version (`standings.version`,
    # the tables' versions summed), so 150 tables saving at once never wait for one tournament row.


def _touch_tournament(night: CardNight) -> None:
    """A change of a night that is a tournament's table (`CardNight.series`) as a whole: the tournament's
    version moves on too, and its standings pages stop answering 304."""
    if night.series_id is not None:
        Tournament.objects.filter(series_set=night.series_id).update(version=F("version") + 1)


def _touch(night: CardNight) -> None:
    """A change of the night itself: every page of it refreshes."""
    CardNight.objects.filter(pk=night.pk).update(version=F("version") + 1)
    CardTable.objects.filter(night=night).update(version=F("version") + 1)
    _touch_tournament(night)


def _lock_table(pk: int) -> CardTable:
    """Lock one table's row (PostgreSQL: only that row, so the other tables of the night save at the same
    time) and read its night afresh after the lock: a settings change locks every table of the night
    (`change_settings`), so a deal is always judged under the rules that are committed."""
    table = CardTable.objects.select_for_update(of=("self",)).get(pk=pk)
    table.night = CardNight.objects.get(pk=table.night_id)
    return table


@transaction.atomic
def enter_deal(table: CardTable, facts: dict[str, Any], *, dealer: int | None = None, by: str = "",
               key: str | None = None, expected: int | None = None, numbered: bool = False,
               judged: ledger.Judged | None = None) -> Deal:
    """Store the next deal of the table; raises `IllegalDeal` (nothing stored) when the engine refuses it.

    The table row is locked for the moment of numbering, so two scorers saving at once get two
    consecutive deals, never two with one number. `key` is the phone's idempotency key: sent again, it
    returns the deal it made (``deal.replayed`` is True) instead of a second one. `expected` is the deal
    number the phone's form was for: when other deals were entered since, `Stale` is raised with them
    (two people entering the same deal at one table store it once). With `numbered` it is the deal's number as
    it will be entered (`Deal.sequence`: one after the highest given, a deleted deal's too); without, as a form
    from before deal numbers stayed put sent it, the count of live deals plus one. `judged`: the page's verdict of
    this deal (the entry form's preview), stored when it fits, so a save asks the engine at most once.
    """
    # Writes to one table happen one after the other, and never beside a change of the night's rules
    # (_lock_table). On SQLite the whole database is locked from BEGIN (settings: transaction_mode IMMEDIATE).
    table = _lock_table(table.pk)
    # Under the lock: a retried request waits for the first one and then finds its deal.
    replayed, key = _replay_of(key, DealRevision.Kind.CREATED, table_id=table.pk)
    if replayed is not None:
        replayed.deal.replayed = True
        return replayed.deal
    # Where the table stands (kept on its row): the deal number, who deals, whether Bock is running — without
    # reading the table's deals, so a save costs the same at deal 1,000 as at deal 10.
    now = ledger.TableStanding.of(table)
    # The deal's number: given once, never again (a deleted deal keeps its own, as a gap in the list).
    sequence = (table.deals.aggregate(n=Max("sequence"))["n"] or 0) + 1
    stale = _entered_since(table, now, expected, numbered, sequence)
    if stale is not None:
        raise stale
    players = now.players
    if dealer is None:
        dealer = now.next_dealer(table.first_dealer)
    _check_dealer(dealer, players)
    seats = ledger.seating(table.night.game, players, dealer)
    # The new deal is the last: its Bock status follows from the deals before it, and no deal after it can
    # change, so it is judged once (or not at all, where the page judged it) and nothing else is.
    bock = now.next_is_bock
    verdict = ledger.judged_verdict(table.night, seats, dealer, facts, bock, judged).to_json()
    deal = Deal.objects.create(table=table, sequence=sequence, seating=seats, dealer=dealer, facts=facts,
                               verdict=verdict, bock=bock, entered_by=by)
    DealRevision.objects.create(deal=deal, kind=DealRevision.Kind.CREATED, new=_snapshot(deal), by=by,
                                request_key=key or None)
    now.add(table.night, deal)
    ledger.keep(table, now)
    _touch_table(table)
    deal.refresh_from_db()
    return deal


def _entered_since(table: CardTable, now: ledger.TableStanding, expected: int | None, numbered: bool,
                   next_number: int) -> Stale | None:
    """The deals entered since deal number `expected` was the next (None: it still is, or none was given).
    `numbered`: `expected` is a deal's number (`next_number` is the next); else a count of live deals plus one."""
    if expected is None or (next_number if numbered else now.deals + 1) == expected:
        return None
    live = table.deals.filter(deleted=False).order_by("sequence")
    if numbered:
        return Stale(deals=list(live.filter(sequence__gte=expected)))
    return Stale(deals=list(live)[max(0, expected - 1):])


def stored_with(table: CardTable, key: str | None) -> Deal | None:
    """The deal this table stored with idempotency key `key` (``replayed`` set): a request sent again after
    its answer was lost. None when the key made no deal here."""
    replayed = _replay_of(key, DealRevision.Kind.CREATED, table_id=table.pk)[0]
    if replayed is None:
        return None
    deal: Deal = replayed.deal
    deal.replayed = True  # attached here only, as in add_deal
    return deal


def entered_meanwhile(table: CardTable, standing: ledger.TableStanding, expected: int | None, *,
                      numbered: bool = False, next_number: int = 0) -> Stale | None:
    """Before a new deal's form is read: the deals another phone entered since the form's deal number, or
    None. The number comes first — a form for deal 18 read against deal 19's seating would only say that
    its declarer does not play. `enter_deal` checks the number again under the table's lock. `numbered`,
    `next_number`: as for `enter_deal` (the next deal's number, as the page read it)."""
    return _entered_since(table, standing, expected, numbered, next_number)


@transaction.atomic
def correct_deal(deal: Deal, facts: dict[str, Any], *, dealer: int | None = None, by: str = "",
                 reason: str = "", key: str | None = None, based_on: int | None = None,
                 judged: ledger.Judged | None = None, confirmed: bool = False) -> Deal:
    """Change an earlier deal's facts (and, if given, who dealt it); everything after it follows.

    `key`: as for `enter_deal`. `based_on` is the deal's version the correction was typed on: when the
    deal was changed, deleted or restored since, `Stale` is raised with those revisions. A finished night's
    deal is changed only `confirmed` (else `Finished`, nothing stored), and its history says so.
    """
    table = _lock_table(deal.table_id)
    deal = Deal.objects.select_for_update(of=("self",)).get(pk=deal.pk)
    deal.table = table
    replayed, key = _replay_of(key, DealRevision.Kind.CHANGED, pk=deal.pk)
    if replayed is not None:
        return deal
    if based_on is not None and based_on != deal.version:
        raise Stale(revisions=list(deal.revisions.order_by("at", "id"))[max(1, based_on):])
    old = _snapshot(deal)
    # The deal as it stood: the ledger takes its entries off the kept standing.
    was = Deal(pk=deal.pk, table_id=deal.table_id, sequence=deal.sequence, seating=list(deal.seating),
               dealer=deal.dealer, facts=deal.facts, verdict=deal.verdict, bock=deal.bock)
    if dealer is not None and dealer != deal.dealer:
        _check_dealer(dealer, deal.table.places.count())
        deal.dealer = dealer
        deal.seating = ledger.seating(deal.table.night.game, deal.table.places.count(), dealer)
    if facts == deal.facts and _snapshot(deal) == old:
        return deal
    after_finish = _check_finished(table.night, confirmed)
    # Refused before anything is stored; the verdict (the page's, where it fits) goes on to the ledger.
    verdict = ledger.judged_verdict(deal.table.night, deal.seating, deal.dealer, facts, deal.bock, judged)
    deal.facts = facts
    deal.version += 1
    deal.save(update_fields=["facts", "dealer", "seating", "version"])
    DealRevision.objects.create(deal=deal, kind=DealRevision.Kind.CHANGED, old=old, new=_snapshot(deal), by=by,
                                reason=reason, request_key=key or None, after_finish=after_finish)
    ledger.recompute(deal.table, since=deal.sequence, changed=deal,
                     judged=ledger.Judged(facts, tuple(deal.seating), deal.dealer, deal.bock, verdict), was=was)
    _touch_table(deal.table)
    deal.refresh_from_db()
    return deal


@transaction.atomic
def attach_play(deal: Deal, play: dict[str, Any] | None, *, by: str = "", reason: str = "",
                key: str | None = None, based_on: int | None = None) -> Deal:
    """Attach the cards as played (``deal.play``, docs/PLAY.md) to a deal, replace them, or remove them
    (`play` None), for the record: the facts the table entered stay what is scored, so no verdict and no
    total changes. The history keeps the cards before and after (a ``play`` revision).

    Raises `IllegalDeal` (nothing stored) when the engine refuses the cards with the deal's facts — a card
    twice, a card missing, a trick of the wrong size; a card that breaks a rule of play is no refusal but
    the engine's finding, shown on the deal's page. `key` and `based_on` as for `correct_deal`.
    """
    table = _lock_table(deal.table_id)
    deal = Deal.objects.select_for_update(of=("self",)).get(pk=deal.pk)
    deal.table = table
    replayed, key = _replay_of(key, DealRevision.Kind.PLAY, pk=deal.pk)
    if replayed is not None:
        return deal
    if based_on is not None and based_on != deal.version:
        raise Stale(revisions=list(deal.revisions.order_by("at", "id"))[max(1, based_on):])
    if deal.deleted:
        raise IllegalDeal("deal.play", "this deal is deleted: restore it before attaching its cards")
    if play == deal.play:
        return deal
    if play is not None:  # the engine reads the cards with the facts as entered; a refusal stores nothing
        ledger.judge_deal(table.night, deal.seating, deal.dealer, {**deal.facts, "play": play}, deal.bock)
    old = {**_snapshot(deal), "play": deal.play}
    deal.play = play
    deal.version += 1
    deal.save(update_fields=["play", "version"])
    DealRevision.objects.create(deal=deal, kind=DealRevision.Kind.PLAY, old=old, new={**_snapshot(deal), "play": play},
                                by=by, reason=reason, request_key=key or None)
    _touch_table(table)
    deal.refresh_from_db()
    return deal


def delete_deal(deal: Deal, *, by: str = "", reason: str = "", key: str | None = None,
                confirmed: bool = False) -> None:
    """Take a deal off the list (it stays in the history and can be restored). `confirmed`: as for
    `correct_deal`, at a finished night."""
    _set_deleted(deal, True, by, reason, key, confirmed)


def restore_deal(deal: Deal, *, by: str = "", reason: str = "", key: str | None = None,
                 confirmed: bool = False) -> None:
    """Put a deleted deal back in its place on the list. `confirmed`: as for `correct_deal`."""
    _set_deleted(deal, False, by, reason, key, confirmed)


@transaction.atomic
def _set_deleted(deal: Deal, deleted: bool, by: str, reason: str, key: str | None = None,
                 confirmed: bool = False) -> None:
    # Writes to one table happen one after the other, and never beside a change of the night's rules.
    table = _lock_table(deal.table_id)
    deal = Deal.objects.select_for_update(of=("self",)).get(pk=deal.pk)
    deal.table = table
    kind = DealRevision.Kind.DELETED if deleted else DealRevision.Kind.RESTORED
    replayed, key = _replay_of(key, kind, pk=deal.pk)
    if deal.deleted == deleted or replayed is not None:
        return
    after_finish = _check_finished(table.night, confirmed)
    deal.deleted = deleted
    deal.version += 1
    deal.save(update_fields=["deleted", "version"])
    state = "old" if deleted else "new"
    DealRevision.objects.create(deal=deal, kind=kind, by=by, reason=reason, request_key=key or None,
                                after_finish=after_finish, **{state: _snapshot(deal)})
    # A restored deal is judged again: the night's rules may have changed while it was deleted.
    ledger.recompute(deal.table, since=deal.sequence, changed=None if deleted else deal)
    _touch_table(deal.table)


def settings_of(night: CardNight) -> dict[str, Any]:
    return {key: (str(value) if key == "date" else value) for key in SETTINGS
            for value in [getattr(night, key)]}


@transaction.atomic
def change_settings(night: CardNight, *, by: str = "", reason: str = "", **changes: Any) -> CardNight:
    """Change the night's rule set, house rules, Bock or series settings; when a setting that scores
    deals changed (`SCORING`), every verdict is recomputed.

    Raises `IllegalDeal` for a rule set the engine refuses, and `ledger.LedgerError` (nothing
    changed either way) when a deal already played is not allowed under the new rules — which deal,
    and why.
    """
    night = CardNight.objects.select_for_update().get(pk=night.pk)
    # Every table of the night too: a deal being saved meanwhile waits, then is judged under the new rules.
    list(CardTable.objects.select_for_update().filter(night=night).values_list("pk", flat=True))
    old = settings_of(night)
    for key, value in changes.items():
        if key not in SETTINGS:
            raise TypeError(f"not a night setting: {key}")
        setattr(night, key, value)
    if night.currency != old["currency"]:  # the amounts count the new currency's minor unit (scorekeep.words.money)
        night.amount_exponent = currency_exponent(night.currency)
    _check_rules(night.game, night.rules_request)
    if night.finished != old["finished"]:  # finished: what it settles now is kept; opened again: nothing is
        night.finish = finished_now(night) if night.finished else {}
    night.save()
    new = settings_of(night)
    if new != old:
        NightRevision.objects.create(night=night, old=old, new=new, by=by, reason=reason)
        if any(old[key] != new[key] for key in SCORING):
            for table in night.tables.all():
                ledger.recompute(table)
        elif old["round_length"] != new["round_length"]:  # no verdict changes, but the rounds the standing places
            for table in night.tables.all():
                ledger.rewalk(table)
        _touch(night)
    night.refresh_from_db()
    return night
