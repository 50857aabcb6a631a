"""A table at a card night: the page held at the table (deal entry and ledger) and a deal's own page
(its facts, verdict and history; corrections, deleting and restoring).

Views stay thin: load the table with its players and deals in a fixed number of queries, bind the
`DealForm` (which calls the engine), write through `scorekeep.nights.writes` (each change one transaction
with its history), render. htmx requests get the named partial of ``table.html`` that their
HX-Target names; everything else the whole page, so every form works without JavaScript (POST,
then a 303 redirect). A preview (typing, htmx) builds no ledger: it answers every keystroke.

Nothing typed is lost: a save that cannot be stored (the night finished or the series completed
meanwhile, the deal deleted meanwhile, a busy database) answers with the message and the form as
it was sent.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.formats import date_format
from django.utils.text import compress_string
from django.utils.translation import gettext, gettext_noop

from scorekeep.dispute.play import PlayForm, ReplayRow, pack_of
from scorekeep.models import CardNight, CardTable, Deal
from scorekeep.nights import ledger, record, sheet
from scorekeep.nights import writes as nights
from scorekeep.nights.entry import (
    BUSY,
    ChangeNote,
    DealForm,
    changes,
    deal_bock_words,
    deal_history,
    fact_label,
    facts_in_words,
    initial_from,
    refusal,
)
from scorekeep.nights.record import Record
from scorekeep.rules import GAMES, IllegalDeal, Verdict
from scorekeep.rules import play as played
from scorekeep.rules.seating import engine_seats, rotation
from scorekeep.rules.verdict import explained
from scorekeep.web import access, live
from scorekeep.web.access import SCORE, VIEW, NightRequest, allows, night_access, role_of
from scorekeep.web.flash import later
from scorekeep.web.htmx import render_page
from scorekeep.web.shared import takes_gzip
from scorekeep.words.labels import in_game, page_words, table_names

# Which partial answers an htmx request, by the id of the element it swaps (HX-Target): the dealer
# or the contract re-render the whole entry, any other edit only the preview (with the messages
# beside the inputs out of band), a save the whole region of the page.
PARTIAL_FOR_TARGET = {"entry": "entry", "preview": "preview_update", "table-region": "region"}
PREVIEWS = ("entry", "preview")  # the targets a preview answers: only the entry form, no ledger

LIVE = "live-ledger"  # the id of the ledger section a page polls (htmx, every 2 s)
KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")


# What a new deal's form says its `expected` number is: the deal's number as it will be entered (one after the
# highest given, deleted deals' too). A form from before this field (a page kept by the service worker, a deal
# waiting in a phone's outbox) sent the count of live deals plus one, and is read so (`nights.enter_deal`).
EXPECTED_IS = "number"
# The deals another phone entered under the number a form was for (the form said so, `_stale_new`): a save
# of the same entries again is refused as most likely that deal, until the scorer taps "Save as deal N"
# (`SECOND`). A hidden input of the form, so a draft restored after a reload keeps it (offline.js).
SAME_AS = "same_as"
SECOND = "second"

RECENT = 3  # the latest deals the table page shows under the standings; the whole list is a page of its own
LIST_PAGE = 50  # deals a page of the whole list shows


@dataclass(slots=True)
class Loaded:
    """A table with everything its page needs, loaded in a fixed number of queries: where it stands (kept on
    the table, `ledger.TableStanding`) and its latest live deals — or, for the whole list, every
    live deal (`every`), whose ledger is then built from the deals alone."""

    night: CardNight
    table: CardTable
    names: list[str]
    deals: list[Deal]
    standing: ledger.TableStanding
    every: bool
    record: Record  # the deleted deals (gaps), the footnotes of the history, the numbers given

    @property
    def count(self) -> int:
        """How many live deals the table has."""
        return self.standing.deals

    @property
    def number(self) -> int:
        """The next deal's number: one after the highest given, a deleted deal's too (numbers never shift)."""
        return self.record.entered + 1

    @property
    def next_dealer(self) -> int:
        """The player left of the last live deal's dealer."""
        return self.standing.next_dealer(self.table.first_dealer)

    def ledger(self) -> ledger.Ledger:
        if self.every:
            return ledger.build(self.table, self.deals, self.names)
        return ledger.build(self.table, self.deals, self.names, since=self.standing.before(self.deals, self.night))

    def url(self, name: str, *args: object) -> str:
        return reverse(name, args=[self.night.pk, self.table.number, *args])


def _load(night_id: int, table_number: int, every: bool = False) -> Loaded:
    # By the night's pk, not the foreign key column: Django answers an id beyond the database's integers
    # with "no such row" (404) for a pk lookup, but the plain column lookup overflowed (a 500).
    table = get_object_or_404(CardTable.objects.select_related("night"), night__pk=night_id, number=table_number)
    # Short names that still tell the players apart (labels.table_names): a phone's columns and the grid's
    # rows have room for "Winnie S.", not for "Winnie Schmidt".
    names = table_names([place.player.name for place in table.places.select_related("player")])
    live = table.deals.filter(deleted=False)
    standing = ledger.TableStanding.of(table, len(names))
    if every:  # the ledger is built from these deals (`Loaded.ledger`), not from the standing
        deals = list(live.order_by("sequence"))
    else:
        if standing.last_sequence is not None:  # a deal saved since the standing was read waits for the next poll
            live = live.filter(sequence__lte=standing.last_sequence)
        deals = list(live.order_by("-sequence")[:min(RECENT, standing.deals)])[::-1]
    # The table page reads the record of its latest deals only (and the deleted deals after them).
    since = None if every else (deals[0].sequence - 1 if deals else 0)
    return Loaded(table.night, table, names, deals, standing, every,
                  record.of_table(table, names, standing.deals, since))


def _deal(loaded: Loaded, sequence: int) -> Deal:
    return get_object_or_404(Deal, table=loaded.table, sequence=sequence)


def _scorer(request: HttpRequest, night: CardNight) -> str:
    return access.scorer(request, night)


def _changed_by(request: HttpRequest, night: CardNight, typed: str) -> str:
    """Who a change is recorded as made by. A finished night (a tournament's closed series) is changed only by
    its hosts' accounts: the history names the account (with the name typed, where another), so a correction
    after closing always says who made it (issue 31)."""
    return access.recorded_by(request, typed) if night.finished else typed


def _remember(request: HttpRequest, night: CardNight, name: str) -> None:
    access.remember_scorer(request, night, name)


def _render(request: HttpRequest, template: str, context: dict[str, Any], partial: str = "") -> HttpResponse:
    """The whole page, or for htmx the partial of the table page's entry its target asks for (the deal
    page's correction uses the same partials)."""
    return render_page(request, template, context, partials=PARTIAL_FOR_TARGET, default="region", partial=partial,
                       partial_of="nights/table.html")


def _key(request: HttpRequest) -> str | None:
    """The idempotency key the form was sent with (None when missing or malformed: then no replay guard)."""
    key = request.POST.get("key", "")
    return key if KEY.fullmatch(key) else None


def _int(value: object) -> int | None:
    try:
        return int(str(value))
    except ValueError:
        return None


def _can_score(request: HttpRequest) -> bool:
    return allows(role_of(request), SCORE)


@dataclass(frozen=True, slots=True)
class Conflict:
    """Deals another phone entered since the deal number a new deal's form was for: each (number, in words),
    and the number the form is for now. The page says it at the top; the outbox of a phone that was offline
    reads it (#conflict) to offer saving its deal as the next one, or leaving it out."""

    entered: list[tuple[int, str]]
    next: int


def _conflict(loaded: Loaded, err: nights.Stale, numbered: bool = True) -> Conflict:
    """Each deal entered meanwhile under its number, and the number the form is for now. `numbered`: the form
    sent a deal's number as entered (`EXPECTED_IS`); a form from before counted the live deals, and its outbox
    row is sent again with the count it knows (`next` in that count, so a queued deal is still stored once)."""
    entered = []
    for deal in err.deals:
        what = "; ".join(f"{label}: {text}" for label, text in facts_in_words(
            loaded.night.game, deal.facts, deal.seating, loaded.names)[:6])
        by = gettext(" by %(by)s") % {"by": deal.entered_by} if deal.entered_by else ""
        entered.append((deal.sequence, gettext(
            "Deal %(number)s was entered meanwhile on another phone%(by)s (%(what)s).") % {
            "number": deal.sequence, "by": by, "what": what}))
    return Conflict(entered, loaded.number if numbered else loaded.count + 1)


def _stale_new(form: DealForm, context: dict[str, Any], loaded: Loaded, err: nights.Stale,
               numbered: bool = True) -> None:
    """What was entered meanwhile, for a form that was for an earlier deal number: said at the top of the
    form (now for the next deal, with everything typed), and as data for the outbox (`Conflict`)."""
    conflict = _conflict(loaded, err, numbered)
    parts = [text for _number, text in conflict.entered]
    parts.append(gettext("Your form is now for deal %(number)s: check it against the ledger, then save again "
                         "— or leave it if it was the same deal.") % {"number": loaded.number})
    form.add_error(None, " ".join(parts))
    context["conflict"] = conflict
    context[SAME_AS] = ",".join(str(number) for number, _text in conflict.entered)


def _twin(request: HttpRequest, loaded: Loaded, form: DealForm) -> Deal | None:
    """The deal entered meanwhile on another phone (`SAME_AS`) whose entries this form repeats — the same
    players and facts in words, whoever dealt — unless the scorer said it is a second deal (`SECOND`)."""
    if request.POST.get(SECOND) or form.facts is None:
        return None
    numbers = {int(n) for n in str(request.POST.get(SAME_AS, "")).split(",") if n.strip().isdigit()}
    if not numbers:
        return None
    game = loaded.night.game
    mine = facts_in_words(game, form.facts, form.seats, loaded.names)
    return next((deal for deal in loaded.deals if deal.sequence in numbers and not deal.deleted
                 and facts_in_words(game, deal.facts, deal.seating, loaded.names) == mine), None)


def _stale_edit(loaded: Loaded, err: nights.Stale, cards: bool = False) -> str:
    """What was changed meanwhile, for a correction (or, `cards`, played cards to attach) typed on an older
    version of the deal."""
    parts = []
    for revision in err.revisions:
        by = gettext(" by %(by)s") % {"by": revision.by} if revision.by else ""
        if revision.kind == "changed":
            what = "; ".join(changes(loaded.night.game, revision.old or {}, revision.new or {}, loaded.names))
            parts.append(gettext("Changed meanwhile%(by)s: %(what)s.") % {"by": by, "what": what})
        elif revision.kind == "play":
            parts.append(gettext("The played cards were changed meanwhile%(by)s.") % {"by": by})
        elif revision.kind == "deleted":
            parts.append(gettext("Deleted meanwhile%(by)s.") % {"by": by})
        else:
            parts.append(gettext("Restored meanwhile%(by)s.") % {"by": by})
    parts.append(gettext("Your cards were not attached. The deal is shown as it is now and what you typed is "
                         "kept: check it, then attach them again.") if cards else
                 gettext("Your correction was not saved. The deal is shown as it is now and what you typed is "
                         "kept: check it, then save again."))
    return " ".join(parts)


def _is_preview(request: HttpRequest) -> bool:
    return bool(request.htmx and request.htmx.target in PREVIEWS and not request.htmx.history_restore_request)  # type: ignore[attr-defined]  # django-htmx's middleware sets it


def _closed(loaded: Loaded) -> str:
    """Why no more deals can be entered at this table, or "" while they can (from the loaded deals:
    no ledger is needed to count them)."""
    night = loaded.night
    if night.finished and night.series_id is not None:  # a tournament table (issue 18): its series is closed
        return gettext("This series of the tournament is closed; no more deals can be entered. The organiser "
                       "can still correct a deal.")
    if night.finished:
        return gettext("This card night is finished; no more deals can be entered.")
    if night.series_length is not None and loaded.count >= night.series_length:
        return gettext("The series of %(n)s deals is complete; no more deals can be entered.") % {
            "n": night.series_length}
    return ""


def _saving(request: HttpRequest) -> bool:
    """Whether the request is a save (not a preview, nor the "update the form" button)."""
    return request.method == "POST" and "preview" not in request.POST


def _new_form(request: HttpRequest, loaded: Loaded, data: Any = None) -> DealForm:
    return DealForm(data, night=loaded.night, names=loaded.names, dealer=loaded.next_dealer,
                    url=loaded.url("deal-new"), scorer=_scorer(request, loaded.night), saving=_saving(request),
                    bock=loaded.standing.next_is_bock)


def _table_context(request: HttpRequest, loaded: Loaded, form: DealForm | None,
                   preview: bool = False) -> dict[str, Any]:
    """The table page's context; a preview's without the ledger, which only the whole region shows; a poll's
    and a viewer's without the entry form (None), which they do not show.
    `key` is the idempotency key of the form on the page: the one it was sent with while it stays on
    the page (a refused save), a new one for a new form."""
    key = (_key(request) if form is not None and form.is_bound else None) or uuid.uuid4().hex
    context: dict[str, Any] = {"night": loaded.night, "table": loaded.table, "form": form, "closed": _closed(loaded),
               "number": loaded.number, "count": loaded.count, "record": loaded.record,
               "last_number": loaded.record.entered, "expected_is": EXPECTED_IS, "names": loaded.names,
               "action": loaded.url("deal-new"), "table_url": loaded.url("table"),
               "list_url": loaded.url("table-list"), "key": key, "can_score": _can_score(request),
               "etag": live.table_tag(request, loaded.table), "live_id": LIVE, "poll": live.POLL,
               "next_dealer": loaded.names[loaded.next_dealer], "bock_next": loaded.standing.next_is_bock,
               "inputs_url": _inputs_url(loaded), "seating": _seating(loaded),
               "turn": loaded.next_dealer}
    if not preview:  # a preview (typing) sends back only the entry: no standings, no rows
        context["standings"] = sheet.standings(loaded.night, loaded.names, loaded.standing, loaded.next_dealer)
        latest = sheet.latest(loaded.ledger(), loaded.night)
        context["latest"] = loaded.record.merged(loaded.record.marked(latest), loaded.record.within(latest))
    return context


def _seating(loaded: Loaded) -> dict[str, Any]:
    """What the page needs to follow the deals offline (static/js/offline.js): the engine's seating of every
    dealer (`rules.seating.rotation`), who deals next, and whether the deals can be Bock deals — which only
    the server knows, so the page shows it as pending. The names are the form's own (its dealer's select)."""
    return {**rotation(loaded.night.game, len(loaded.names)), "dealer": loaded.next_dealer,
            "bock": bool(ledger.bock_events(loaded.night)), "bock_next": loaded.standing.next_is_bock}


def _inputs_url(loaded: Loaded) -> str:
    """The engine's description of this table's inputs (its game, rule set and size): the page checks a deal
    typed without a connection against it (static/js/offline.js), and the service worker keeps a copy. Its size
    is the engine's seats: at a table of more players (Fipsen at five) they sit out in turn, and the API refused
    the five, so the page checked nothing offline."""
    query = {"game": loaded.night.game, "players": engine_seats(loaded.night.game, len(loaded.names)),
             "rules": json.dumps(loaded.night.rules_request, sort_keys=True, separators=(",", ":"))}
    return f"{reverse('api-games')}?{urlencode(query)}"


@night_access(VIEW)
def table_page(request: NightRequest, night_id: int, table_number: int) -> HttpResponse:
    """The table: the entry form (for scorers) and the ledger, which the page polls for changes."""
    polled = live.polled(request, LIVE)
    if polled:
        unchanged = live.not_modified(request, LIVE, live.current_table_tag(request, night_id, table_number))
        if unchanged is not None:
            return unchanged
    loaded = _load(night_id, table_number)
    if polled:  # the strip, and the latest deals out of band: no entry form
        context = {**_table_context(request, loaded, None), "polled": True}
        return live.mark(_render(request, "nights/table.html", context, "live"), context["etag"])
    form = _new_form(request, loaded) if _can_score(request) else None
    context = _table_context(request, loaded, form)
    just = _int(request.GET.get("saved"))  # after a save without JavaScript (deal_new's redirect)
    if just is not None and context["can_score"] and loaded.deals and loaded.deals[-1].sequence == just:
        deal = loaded.deals[-1]
        context.update(saved=_saved_words(loaded, deal, gettext("Deal saved.")), saved_number=deal.sequence,
                       undo_url=loaded.url("deal-delete", deal.sequence))
    return _render(request, "nights/table.html", context)


@night_access(SCORE)
def deal_new(request: NightRequest, night_id: int, table_number: int) -> HttpResponse:
    """GET: the entry re-rendered for the values typed so far (htmx preview). POST: save the deal."""
    loaded = _load(night_id, table_number)
    if request.method == "GET":
        if not request.GET:
            return HttpResponseRedirect(loaded.url("table"), status=303)
        if WANT in request.GET:
            return _offline_entries(request, loaded)
        form = _new_form(request, loaded, request.GET)
        form.is_valid()
        return _render(request, "nights/table.html",
                       _table_context(request, loaded, form, preview=_is_preview(request)))
    if request.method != "POST":
        return HttpResponseNotAllowed(["GET", "POST"])
    form = _new_form(request, loaded, request.POST)
    context = _table_context(request, loaded, form)
    # A request sent again whose deal was stored (the answer was lost: an outbox sends it again) is answered
    # as stored, whatever the next deal's form would make of it. Then another phone's deal under this form's
    # number is said first: the form, read against the next deal's seating, would otherwise only refuse a
    # declarer who does not play that deal.
    deal = None if context["closed"] else nights.stored_with(loaded.table, _key(request))
    numbered = request.POST.get("expected_is") == EXPECTED_IS
    meanwhile = None if context["closed"] or deal is not None else nights.entered_meanwhile(
        loaded.table, loaded.standing, _int(request.POST.get("expected")), numbered=numbered,
        next_number=loaded.number)
    by = str(request.POST.get("by", "")).strip()
    if context["closed"]:
        form.is_valid()  # the page says why; the form stays with everything typed (table.html#region)
    elif deal is not None:
        pass
    elif meanwhile is not None:
        _stale_new(form, context, loaded, meanwhile, numbered)
    elif form.is_valid() and "preview" not in request.POST and (twin := _twin(request, loaded, form)) is not None:
        form.add_error(None, gettext(
            "Deal %(number)s, entered meanwhile on another phone, has the same entries: this is most likely the "
            "same deal. Leave yours out — or, if the table played it twice, save it as deal %(next)s.") % {
            "number": twin.sequence, "next": loaded.number})
        context[SAME_AS] = request.POST.get(SAME_AS, "")
    elif form.is_valid() and "preview" not in request.POST and form.facts is not None:
        by = form.cleaned_data.get("by", "").strip()
        try:
            deal = nights.enter_deal(loaded.table, form.facts, dealer=form.dealer, by=by, key=_key(request),
                                     expected=_int(request.POST.get("expected")), numbered=numbered,
                                     judged=form.judged)
        except IllegalDeal as err:  # the deal before it changed meanwhile (e.g. a Bock round)
            form.engine_error(err)
        except ledger.LedgerError as err:
            form.add_error(None, refusal(err))
        except nights.Stale as err:
            # The form again, for the deal that is next now (dealer, seats), with everything typed.
            loaded = _load(night_id, table_number)
            form = _new_form(request, loaded, request.POST)
            context = _table_context(request, loaded, form)
            _stale_new(form, context, loaded, err, numbered)
        except OperationalError:
            form.add_error(None, BUSY)
    if deal is None:
        return _render(request, "nights/table.html", context, "region")
    _remember(request, loaded.night, by)
    saved = (gettext("This deal was saved already (a second tap or a repeated request); it is stored once.")
             if deal.replayed else gettext("Deal saved."))
    if not request.htmx:  # type: ignore[attr-defined]  # (django-htmx) the table page names and marks the saved deal, with its Undo
        if deal.replayed:
            messages.success(request, saved)
            return HttpResponseRedirect(loaded.url("table"), status=303)
        return HttpResponseRedirect(f"{loaded.url('table')}?saved={deal.sequence}", status=303)
    loaded = _after_save(loaded, deal) or _load(night_id, table_number)
    context = _table_context(request, loaded, _new_form(request, loaded))
    context["saved"] = _saved_words(loaded, deal, saved)
    context["saved_number"] = deal.sequence
    context["undo_url"] = loaded.url("deal-delete", deal.sequence)
    return _render(request, "nights/table.html", context, "region")


# The entries a phone keeps for offline use (static/js/offline.js, keepEntries), asked in one request: each
# `want` is "dealer:contract" (contract empty: the blank entry of that dealer's deal). Before, the phone asked
# for each of them on its own, ~31 requests one after the other at a table of four Skat players: the table was
# ready for a Wi-Fi drop only seconds after it opened, and each request read the table again.
WANT = "want"
WANTED = re.compile(r"(\d{1,2}):([A-Za-z0-9_-]{0,40})")


def _offline_entries(request: HttpRequest, loaded: Loaded) -> HttpResponse:
    """JSON: {"entries": [[dealer, contract, html], …]}, each html the very answer of the entry's own request (the
    base values typed so far, with `dealer` and `contract`; HX-Target "entry"). A want that is malformed, or names
    a seat the table does not have, is refused with the field and what is allowed. At most each seat's blank entry
    and its entry of every game the game has (any rule set): a table of seven Schafkopf players, 105."""
    wants = request.GET.getlist(WANT)
    parsed = [WANTED.fullmatch(want) for want in wants]
    seats = len(loaded.names)
    most = seats * (len(GAMES[loaded.night.game].CONTRACTS) + 1)
    if len(wants) > most or not all(match and int(match.group(1)) < seats for match in parsed):
        return JsonResponse({"error": gettext("want: up to %(most)s entries, each a dealer's seat (0 to %(last)s), a "
                                              "colon and a game, e.g. 0:grand.") % {"most": most, "last": seats - 1}},
                            status=400)
    entries = []
    for match in parsed:
        assert match is not None  # checked above
        data = request.GET.copy()
        data.pop(WANT)
        data["dealer"] = match.group(1)
        data.pop("contract", None)
        if match.group(2):
            data["contract"] = match.group(2)
        form = _new_form(request, loaded, data)
        form.is_valid()
        html = render_to_string("nights/table.html#entry", _table_context(request, loaded, form, preview=True),
                                request)
        entries.append([int(match.group(1)), match.group(2), html])
    response = JsonResponse({"entries": entries})
    # Gzipped here for a phone that takes it: ~30 entries of a few dozen KiB, mostly the same markup (a tenth of
    # it gzipped). One at a time they were HTML, which a proxy gzips by default (Debian's nginx: text/html only);
    # JSON it would send whole. No secret is in an entry (the CSRF token and the key are outside it).
    if takes_gzip(request):
        response.content = compress_string(response.content)
        response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ("HX-Request", "HX-Target", "Accept-Encoding"))
    return response


def _after_save(loaded: Loaded, deal: Deal) -> Loaded | None:
    """The table right after `deal` was stored as the next deal of `loaded`, read again in one query instead of
    `_load`'s six (a fifth of a save's cost): the deal joins the latest deals, and the table's row (its version,
    the standing the save kept) says where it stands. Only where that is exactly what `_load` would read: the
    save was the only write since the page read the table (its version moved by one: every write moves it,
    `writes._touch_table`, a change of the night's settings too), the deal took the number the page expected,
    and no deleted or corrected deal is among the latest (their gaps and footnotes are read again). Else None:
    the table is read again whole."""
    if deal.replayed or loaded.every or deal.sequence != loaded.number or loaded.record.gaps or loaded.record.notes:
        return None
    table = CardTable.objects.filter(pk=loaded.table.pk).first()
    if table is None or table.version != loaded.table.version + 1:
        return None
    table.night = loaded.night  # unchanged: a change of it would have moved the version too
    standing = ledger.TableStanding.of(table, len(loaded.names))
    deals = [*loaded.deals, deal][-RECENT:]
    return Loaded(loaded.night, table, loaded.names, deals, standing, False,
                  Record(counted=standing.deals, entered=deal.sequence, deleted=loaded.record.deleted))


def _saved_words(loaded: Loaded, deal: Deal, saved: str) -> str:
    """"Deal 17 saved: Jürgen: Grand · won 96" — the live region's announcement and the note after a save."""
    row = next((row for row in sheet.latest(loaded.ledger(), loaded.night)
                if row.url == loaded.url("deal", deal.sequence)), None)
    if row is None or deal.replayed:
        return saved
    return gettext("Deal %(number)s saved: %(what)s") % {"number": row.number, "what": row.what}


def _deal_context(request: HttpRequest, loaded: Loaded, deal: Deal, form: DealForm | None) -> dict[str, Any]:
    revisions = list(deal.revisions.all())
    return {"night": loaded.night, "table": loaded.table, "deal": deal, "number": deal.sequence,
            "bock": deal_bock_words(loaded.night, deal),
            "no_side": in_game(gettext_noop("No declaring side"), loaded.night.game),  # a Ramsch: nobody declared
            "form": form, "names": loaded.names, "action": loaded.url("deal", deal.sequence),
            "table_url": loaded.url("table"), "facts": facts_in_words(loaded.night.game, deal.facts, deal.seating,
                                                                       loaded.names),
            "explanation": _explanation(loaded, deal), "dealer_name": loaded.names[deal.dealer],
            "history": deal_history(loaded.night.game, deal.sequence, revisions, loaded.names,
                                    loaded.night.date),
            "scorer": _scorer(request, loaded.night), "can_score": _can_score(request),
            # Each form its own idempotency key: a correction's key never stands for a deletion.
            "key": (_key(request) if form is not None and form.is_bound else None) or uuid.uuid4().hex,
            "change_key": uuid.uuid4().hex,
            "version": deal.version, "entries": _entries(loaded, deal),
            **_played_context(request, loaded, deal)}


def _seat_namer(loaded: Loaded, deal: Deal) -> Any:
    return lambda seat: loaded.names[deal.seating[seat]]


def _played_context(request: HttpRequest, loaded: Loaded, deal: Deal,
                    form: PlayForm | None = None) -> dict[str, Any]:
    """The cards attached to the deal, as the engine reads them with the facts as entered (`rules.play`):
    the trick-by-trick replay, the finding on the play, the facts the cards contradict and how the cards
    alone would score — and, for a scorer, the form that attaches, replaces or removes them."""
    context: dict[str, Any] = {"play_url": loaded.url("deal-play", deal.sequence)}
    if _can_score(request) and not deal.deleted:
        context["play_form"] = form or PlayForm(game=loaded.night.game, players=len(deal.seating), play=deal.play,
                                                scorer=_scorer(request, loaded.night))
        context["pack"] = pack_of(loaded.night.game)
        context["seat_names"] = [(seat + 1, loaded.names[position]) for seat, position in enumerate(deal.seating)]
    if deal.play is None:
        return context
    name = _seat_namer(loaded, deal)
    try:
        verdict = ledger.judge_deal(loaded.night, deal.seating, deal.dealer, {**deal.facts, "play": deal.play},
                                    deal.bock)
    except IllegalDeal as err:  # the facts or the rules changed since the cards were attached
        context["play_problem"] = _play_refusal(loaded, deal, err)
        return context
    found = played.findings(verdict)
    assert found is not None
    context.update(played=found, play_verdict=verdict, replay=_replay(verdict, name, loaded.night.game),
                   finding=explained((found.finding,), name, page_words)[0],
                   disagreements=explained(found.disagreements, name, page_words),
                   cards_explanation=verdict.explain(name, page_words))
    return context


def _replay(verdict: Verdict, name: Any, game: str) -> list[ReplayRow]:
    """The played deal trick by trick (the engine's `play.replay`), each card's player by name."""
    return [ReplayRow(trick.number, [(card, name(seat)) for card, seat in trick.cards], name(trick.winner),
                      trick.points, trick.declaring, trick.defending,
                      gettext(trick.broken_rule) if trick.broken_rule else "", trick.broken_card or "",
                      trick.after_end, game)
            for trick in played.replay(verdict)]


def _play_refusal(loaded: Loaded, deal: Deal, err: IllegalDeal) -> str:
    """The engine's refusal of the cards in the page's words; a fact of the deal it names, by its label."""
    message = err.render(_seat_namer(loaded, deal), gettext(err.text), page_words)
    place = err.field.split(".")
    if len(place) == 2 and place[0] == "deal" and place[1] != "play":
        return f"{fact_label(loaded.night.game, place[1])}: {message}"
    return message


def _entries(loaded: Loaded, deal: Deal) -> list[tuple[str, int | None]]:
    """Each player's entry for the deal; None for who sat it out (the dealer at a 4-seat Skat table too)."""
    out = ledger.sits_out(loaded.night.game, deal.seating, deal.dealer, len(loaded.names))
    scores = deal.result.scores
    return [(name, None if p in out else scores[deal.seating.index(p)])
            for p, name in enumerate(loaded.names)]


def _explanation(loaded: Loaded, deal: Deal) -> list[str]:
    """The stored verdict's explanation with player names: the engine judges the stored facts again
    (the same verdict, as recompute keeps them equal) to name each seat."""
    try:
        verdict = ledger.judge_deal(loaded.night, deal.seating, deal.dealer, deal.facts, deal.bock)
    except IllegalDeal:
        return list(deal.result.explanation)
    return verdict.explain(lambda seat: loaded.names[deal.seating[seat]], page_words)


def _edit_form(request: HttpRequest, loaded: Loaded, deal: Deal, data: Any = None) -> DealForm:
    return DealForm(data, night=loaded.night, names=loaded.names, dealer=deal.dealer, saving=_saving(request),
                    url=loaded.url("deal", deal.sequence), bock=deal.bock, correcting=True,
                    initial=initial_from(deal.facts, deal.seating, loaded.night, deal.dealer),
                    scorer=_scorer(request, loaded.night))


def _confirmed(request: HttpRequest) -> bool:
    """Whether a change to a finished list was confirmed (the question's own button, `confirm_finished`)."""
    return request.POST.get("confirm_finished") == "1"


def _finished_question(err: nights.Finished) -> str:
    """What a change to a finished list asks first (issue 33)."""
    if err.at is None:
        return gettext("This list was already finished; change it anyway?")
    return gettext("This list was already finished on %(when)s; change it anyway?") % {
        "when": date_format(timezone.localtime(err.at), "DATETIME_FORMAT")}


def _deleted_meanwhile(deal: Deal) -> str:
    """Why a correction of a deleted deal is not saved, naming who deleted it."""
    deletion = deal.revisions.filter(kind="deleted").order_by("-at", "-id").first()
    if deletion is not None and deletion.by:
        return gettext("This deal was deleted meanwhile by %(by)s; restore it to correct it.") % {"by": deletion.by}
    return gettext("This deal was deleted meanwhile; restore it to correct it.")


@night_access(VIEW)
def deal_page(request: NightRequest, night_id: int, table_number: int, sequence: int) -> HttpResponse:
    """GET: the deal, its verdict and history, and the correction form. POST: the correction."""
    loaded = _load(night_id, table_number)
    deal = _deal(loaded, sequence)
    confirm = ""
    if request.method == "POST":
        if not _can_score(request):
            raise PermissionDenied
        form = _edit_form(request, loaded, deal, request.POST)
        if deal.deleted:  # deleted while this correction was typed: show why, keep what was typed
            form.is_valid()
            form.add_error(None, _deleted_meanwhile(deal))
        elif form.is_valid() and "preview" not in request.POST and form.facts is not None:
            by = form.cleaned_data.get("by", "").strip()
            try:
                nights.correct_deal(deal, form.facts, dealer=form.dealer, by=_changed_by(request, loaded.night, by),
                                    reason=form.cleaned_data.get("reason", "").strip(), key=_key(request),
                                    based_on=_int(request.POST.get("version")), judged=form.judged,
                                    confirmed=_confirmed(request))
            except nights.Finished as err:  # asked again, with everything typed, before anything is stored
                confirm = _finished_question(err)
            except nights.Stale as err:
                deal.refresh_from_db()
                form.add_error(None, _stale_edit(loaded, err))
            except IllegalDeal as err:
                form.engine_error(err)
            except ledger.LedgerError as err:  # a later deal no longer fits (say, a seat that now sits out)
                form.add_error(None, refusal(err))
            except OperationalError:
                form.add_error(None, BUSY)
            else:
                _remember(request, loaded.night, by)
                messages.success(
                    request, later(gettext_noop("Correction saved; every deal after it was scored again.")))
                return HttpResponseRedirect(loaded.url("deal", sequence), status=303)
    elif request.method == "GET":
        live = request.htmx and request.GET  # type: ignore[attr-defined]  # django-htmx's middleware sets it
        form = _edit_form(request, loaded, deal, request.GET if live else None)
        if live:
            form.is_valid()
        if _is_preview(request):  # typing: only the entry form is sent back, so only it is worked out
            return _render(request, "nights/deal.html", {"night": loaded.night, "table": loaded.table, "form": form})
    else:
        return HttpResponseNotAllowed(["GET", "POST"])
    # A deleted deal offers no correction, unless one was just sent: that stays on the page.
    context = _deal_context(request, loaded, deal, form if not deal.deleted or form.is_bound else None)
    context["confirm_finish"] = confirm
    response = render(request, "nights/deal.html", context)
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


def _change(request: HttpRequest, night_id: int, table_number: int, sequence: int, delete: bool) -> HttpResponse:
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    loaded = _load(night_id, table_number)
    deal = _deal(loaded, sequence)
    note = ChangeNote(request.POST)
    refused = ""
    confirm: dict[str, str] = {}
    if note.is_valid():
        by = " ".join(note.cleaned_data["by"].split()) or _scorer(request, loaded.night)
        try:
            (nights.delete_deal if delete else nights.restore_deal)(deal, by=_changed_by(request, loaded.night, by),
                                                                    reason=note.cleaned_data["reason"],
                                                                    key=_key(request), confirmed=_confirmed(request))
        except nights.Finished as err:  # asked again: the same change, confirmed, is one tap away
            confirm = {"question": _finished_question(err), "action": request.path, "by": by,
                       "reason": note.cleaned_data["reason"], "next": request.POST.get("next", ""),
                       "key": _key(request) or ""}
        except ledger.LedgerError as err:
            refused = refusal(err)
        except OperationalError:
            refused = str(BUSY)
        else:
            _remember(request, loaded.night, by)
            messages.success(request, gettext("Deal deleted; every deal after it was scored again.") if delete
                             else gettext("Deal restored; every deal after it was scored again."))
            # Undo right after a save (the table page's button) goes back to the table; else to the deal's page.
            back = loaded.url("table") if request.POST.get("next") == "table" else loaded.url("deal", sequence)
            return HttpResponseRedirect(back, status=303)
    else:  # a NUL character or an over-long text: say which and what is allowed
        refused = "; ".join(f"{ChangeNote.base_fields[name].label}: {' '.join(map(str, errors))}"
                            for name, errors in note.errors.items())
    context = _deal_context(request, loaded, deal, None if deal.deleted else _edit_form(request, loaded, deal))
    context["change_error"] = refused
    context["change_reason"] = request.POST.get("reason", "")  # a refused delete keeps the reason typed
    context["confirm_change"] = confirm
    return render(request, "nights/deal.html", context)


@night_access(SCORE)
def deal_play(request: NightRequest, night_id: int, table_number: int, sequence: int) -> HttpResponse:
    """POST: attach the cards as played to the deal, replace them, or ("remove") take them off; the facts
    as entered stay what is scored. A refusal comes back on the deal's page with what was typed."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    loaded = _load(night_id, table_number)
    deal = _deal(loaded, sequence)
    data = request.POST.copy()
    if "remove" in data:  # no card typed: the cards come off
        for name in ("play-tricks", "play-skat", "play-trump", "play-hands"):
            data[name] = ""
    form = PlayForm(data, game=loaded.night.game, players=len(deal.seating), play=deal.play,
                    scorer=_scorer(request, loaded.night))
    if not deal.deleted and form.is_valid() and form.play is None and "remove" not in data:
        form.add_error("play-tricks", gettext("Enter the cards of the tricks, one trick a line (or tap them)."))
    elif not deal.deleted and form.is_valid():
        by = " ".join(form.cleaned_data["by"].split())
        try:
            nights.attach_play(deal, form.play, by=by, reason=form.cleaned_data["reason"].strip(), key=_key(request),
                               based_on=_int(request.POST.get("version")))
        except nights.Stale as err:
            deal.refresh_from_db()
            form.add_error(None, _stale_edit(loaded, err, cards=True))
        except IllegalDeal as err:
            form.engine_error(err, _play_refusal(loaded, deal, err))
        except OperationalError:
            form.add_error(None, BUSY)
        else:
            _remember(request, loaded.night, by)
            messages.success(request, gettext("The played cards were removed; the list is unchanged.")
                             if form.play is None else
                             gettext("The played cards are attached; the list keeps the facts as entered."))
            return HttpResponseRedirect(loaded.url("deal", sequence) + "#played", status=303)
    context = _deal_context(request, loaded, deal, None if deal.deleted else _edit_form(request, loaded, deal))
    context.update(_played_context(request, loaded, deal, form if not deal.deleted else None))
    if deal.deleted:
        context["change_error"] = _deleted_meanwhile(deal)
    return render(request, "nights/deal.html", context)


@night_access(SCORE)
def deal_delete(request: NightRequest, night_id: int, table_number: int, sequence: int) -> HttpResponse:
    return _change(request, night_id, table_number, sequence, delete=True)


@night_access(SCORE)
def deal_restore(request: NightRequest, night_id: int, table_number: int, sequence: int) -> HttpResponse:
    return _change(request, night_id, table_number, sequence, delete=False)


@night_access(VIEW)
def table_list(request: NightRequest, night_id: int, table_number: int) -> HttpResponse:
    """The table's whole list, a page of `LIST_PAGE` deals at a time (the table page shows the latest few),
    with the totals at its foot and the chart of the running totals."""
    loaded = _load(night_id, table_number, every=True)
    book = loaded.ledger()
    pages = Paginator(book.rows, LIST_PAGE, allow_empty_first_page=True)
    asked = request.GET.get("page", "last")
    page = pages.page(pages.num_pages) if asked == "last" else pages.get_page(asked)
    shown = replace(book, rows=list(page.object_list))
    # The deleted deals of this page stand in their places: those after the last page's row, and on the last
    # page those after every row.
    after = pages.page(page.number - 1).object_list[-1].number if page.has_previous() else 0
    upto = shown.rows[-1].number if shown.rows and page.has_next() else None
    return render(request, "nights/table_list.html", {
        "night": loaded.night, "table": loaded.table, "ledger": shown, "whole": book, "page": page,
        "record": loaded.record, "gaps": loaded.record.between(after, upto), "can_score": _can_score(request),
        "first": shown.rows[0].number if shown.rows else None, "last": shown.rows[-1].number if shown.rows else None,
        "table_url": loaded.url("table"), "list_url": loaded.url("table-list")})
