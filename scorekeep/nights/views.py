"""Card nights: the list, starting one, a night's page, its settings, another table, the ledger as
JSON and a plain printout.

Views stay thin: load the night (tables, players and live deals prefetched, so the number of
queries does not grow with the deals), bind a form from `night_forms`, call `scorekeep.nights.writes` to
write (each change a transaction with its history), and render. The ledgers are derived by
`scorekeep.nights.ledger.build` from the stored verdicts. htmx requests that refresh the game-dependent
parts of a form get the named partial of the page (by the HX-Target header); everything works as
plain POST + redirect without JavaScript. A write the database could not take (SQLite busy) answers
with the page as it was sent and a message, never a server error.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.contrib import messages
from django.db import OperationalError
from django.db.models import Count, Prefetch, Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse, QueryDict
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_http_methods, require_POST

from scorekeep.clubs import clubs
from scorekeep.models import CardNight, CardTable, Player, TablePlayer
from scorekeep.nights import ledger
from scorekeep.nights import writes as nights
from scorekeep.nights.entry import BUSY, refusal
from scorekeep.nights.forms import (
    REFRESH_ALL,
    REFRESH_DEALER,
    REFRESH_EXTRAS,
    REFRESH_SEATING,
    NightForm,
    SeatingForm,
    SettingsForm,
    history,
    house_rules_in_words,
    night_bock_words,
    preset_label,
)
from scorekeep.nights.loading import load_night
from scorekeep.rules import GAMES, rules_json
from scorekeep.web import access, live
from scorekeep.web.access import HOST, SCORE, VIEW, NightRequest, night_access
from scorekeep.web.flash import later
from scorekeep.web.htmx import HttpResponseSeeOther, render_page
from scorekeep.words.labels import GAME_LABELS

# Which partial of a page answers an htmx refresh, by the id of the element it swaps.
PARTIALS = {REFRESH_ALL: "form_body", REFRESH_EXTRAS: "extras", REFRESH_SEATING: "seating_players",
            REFRESH_DEALER: "dealer"}
# The partials each page has: a target of another page (a stale tab or a hand-made request) gets the
# whole page, where asking for a partial the template lacks was a server error.
PAGE_PARTIALS = {"nights/night_new.html": {"form_body", "extras", "dealer"},
                 "nights/night_settings.html": {"form_body", "extras"},
                 "nights/night.html": {"seating_players", "dealer"}}


def _render(request: HttpRequest, template: str, context: dict[str, Any], status: int = 200) -> HttpResponse:
    """The whole page, or for an htmx refresh the partial its target names (where the page has it)."""
    partials = {target: name for target, name in PARTIALS.items() if name in PAGE_PARTIALS.get(template, ())}
    return render_page(request, template, context, partials=partials, status=status)


def _known_players(request: HttpRequest, night: CardNight | None = None) -> list[str]:
    """Names for the players' input suggestions: the players of the clubs this host runs (starting a
    night), of the night's club for its hosts; nobody's for a phone with a link. Nobody learns who plays
    in a club they do not run."""
    if night is None:
        players = access.visible_players(request)
    elif access.hosts(request, night):
        players = Player.objects.filter(club_id=night.club_id)
    else:
        return []
    return list(players.order_by("name").distinct().values_list("name", flat=True)[:500])


@dataclass(frozen=True, slots=True)
class TableView:
    """A table as the night's pages show it: its ledger and each player's totals."""

    table: CardTable
    ledger: ledger.Ledger
    url: str

    @property
    def standings(self) -> list[tuple[str, int, Any]]:
        """(name, total, placing points or None) per player in seating order."""
        placing = self.ledger.placing_totals
        return [(name, total, placing[p] if placing is not None else None)
                for p, (name, total) in enumerate(zip(self.ledger.names, self.ledger.totals, strict=True))]


def _tables(night: CardNight) -> list[TableView]:
    return [TableView(table, ledger.build(table, table.live_deals, [place.player.name for place in table.places.all()]),  # type: ignore[attr-defined]  # prefetched (to_attr)
                      reverse("table", args=[night.id, table.number]))
            for table in night.tables.all()]


def _night_context(night: CardNight) -> dict[str, Any]:
    return {"night": night, "game_label": GAME_LABELS[night.game],
            "preset_label": preset_label(night.game, night.preset),
            "house_rules": house_rules_in_words(night), "bock": night_bock_words(night), "tables": _tables(night)}


# --- the list -------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class NightSummary:
    night: CardNight
    game_label: Any
    preset_label: Any
    players: list[str]
    deals: int


def night_list(request: HttpRequest) -> HttpResponse:
    """A host's nights; on any phone also the nights it opened a scorer or viewer link of."""
    joined = access.joined_nights(request)
    if not request.user.is_authenticated and not joined:
        return HttpResponseRedirect(f"{reverse('login')}?next={reverse('nights')}")
    # A tournament's tables are nights of their own, but the tournament's page lists them (tournaments/writes.py).
    nights = (access.visible_nights(request).filter(series=None).select_related("club")
              .annotate(deals_played=Count("tables__deals", filter=Q(tables__deals__deleted=False)))
              .prefetch_related(Prefetch("tables__places", queryset=TablePlayer.objects.select_related("player")))
              [:100])
    summaries = []
    for night in nights:
        players = [place.player.name for table in night.tables.all() for place in table.places.all()]
        summaries.append(NightSummary(night, GAME_LABELS[night.game], preset_label(night.game, night.preset),
                                      list(dict.fromkeys(players)), night.deals_played))
    own = {summary.night.pk for summary in summaries}
    joined_summaries = [(NightSummary(night, GAME_LABELS[night.game], preset_label(night.game, night.preset), [], 0),
                         role) for night, role in joined if night.pk not in own]
    return render(request, "nights/nights.html", {"nights": summaries, "joined": joined_summaries})


# --- starting a night ------------------------------------------------------------------------------

@require_http_methods(["GET", "POST"])
def night_new(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:  # a night has a host: log in (or sign up) first
        return HttpResponseRedirect(f"{reverse('login')}?next={reverse('night-new')}")
    url = reverse("night-new")
    own = clubs.offered(request.user)
    if request.method == "GET":
        form = NightForm(request.GET, url=url, quiet=True, clubs=own)
    else:
        form = NightForm(request.POST, url=url, quiet="refresh" in request.POST, clubs=own)
        if not form.quiet and form.is_valid():
            try:
                night = nights.start_night(**form.start(), host=request.user)
            except OperationalError:
                form.add_error(None, BUSY)
            else:
                return HttpResponseSeeOther(reverse("table", args=[night.id, 1]))
    return _render(request, "nights/night_new.html", {"form": form, "known_players": _known_players(request)})


# --- a night's page, another table --------------------------------------------------------------

LIVE = "live-night"  # the id of the night page's tables section, polled for changes (scorekeep.web.live)


@night_access(VIEW)
def night_page(request: NightRequest, night_id: int) -> HttpResponse:
    tag = live.night_tag(request, night_id)
    unchanged = live.not_modified(request, LIVE, tag)
    if unchanged is not None:
        return unchanged
    night = load_night(night_id)
    if live.polled(request, LIVE):
        context = {**_night_context(night), "etag": tag, "live_id": LIVE, "poll": live.POLL}
        return live.mark(render(request, "nights/night.html#tables", context), tag)
    return _night_page(request, night, tag)


def _night_page(request: HttpRequest, night: CardNight, tag: str | None = None) -> HttpResponse:
    form = SeatingForm(QueryDict(), night=night, url=reverse("table-new", args=[night.id]), quiet=True)
    return render(request, "nights/night.html", {**_night_context(night), "seating_form": form,
                                          "known_players": _known_players(request, night),
                                          "etag": tag or live.night_tag(request, night.pk), "live_id": LIVE,
                                          "poll": live.POLL})



def _a_tournament_table(request: HttpRequest, night: CardNight) -> HttpResponse | None:
    """A tournament's table (issue 18) keeps the tournament's settings and its one table, and is finished and
    opened with its series on the tournament's page: here it is refused, back on the night's page."""
    if night.series_id is None:
        return None
    messages.error(request, gettext("This is a table of a tournament: its settings, its tables and closing it "
                                    "are the tournament's, on the organiser's tournament page."))
    return HttpResponseSeeOther(reverse("night", args=[night.pk]))


@require_http_methods(["GET", "POST"])
@night_access(SCORE)
def table_new(request: NightRequest, night_id: int) -> HttpResponse:
    night = load_night(night_id)
    if (refused := _a_tournament_table(request, night)) is not None:
        return refused
    url = reverse("table-new", args=[night.id])
    if request.method == "GET":
        form = SeatingForm(request.GET, night=night, url=url, quiet=True)
    else:
        form = SeatingForm(request.POST, night=night, url=url, quiet="refresh" in request.POST)
        if not form.quiet and form.is_valid():
            assert form.players is not None  # a valid form has its players (`_clean_players`)
            try:
                table = nights.seat_table(night, form.players, form.cleaned_data["first_dealer"])
            except OperationalError:
                form.add_error(None, BUSY)
            else:
                return HttpResponseSeeOther(reverse("table", args=[night.id, table.number]))
    return _render(request, "nights/night.html", {**_night_context(night), "seating_form": form, "adding_table": True,
                                           "known_players": _known_players(request, night)})


# --- settings ------------------------------------------------------------------------------------

@require_http_methods(["GET", "POST"])
@night_access(HOST)
def night_settings(request: NightRequest, night_id: int) -> HttpResponse:
    night = get_object_or_404(CardNight, pk=night_id)
    if (refused := _a_tournament_table(request, night)) is not None:
        return refused
    url = reverse("night-settings", args=[night.id])
    if request.method == "GET":
        form = SettingsForm(SettingsForm.data_of(night, access.scorer(request, night)), night=night, url=url,
                            quiet=True)
    else:
        form = SettingsForm(request.POST, night=night, url=url, quiet="refresh" in request.POST)
        if not form.quiet and form.is_valid():
            by = " ".join(form.cleaned_data["by"].split())
            access.remember_scorer(request, night, by)
            try:
                nights.change_settings(night, by=access.recorded_by(request, by),
                                       reason=form.cleaned_data["reason"].strip(), **form.settings())
            except ledger.LedgerError as err:
                form.add_error(None, refusal(err))
            except OperationalError:
                form.add_error(None, BUSY)
            else:
                messages.success(
                    request, later(gettext_noop("Settings saved; every deal was scored again under them.")))
                return HttpResponseSeeOther(reverse("night", args=[night.id]))
    context = {"form": form, "night": night, "game_label": GAME_LABELS[night.game],
               "history": history(night, list(night.revisions.all())),
               "known_players": _known_players(request, night)}
    return _render(request, "nights/night_settings.html", context)


@require_POST
@night_access(HOST)
def night_finish(request: NightRequest, night_id: int) -> HttpResponse:
    """Finish the night (no more deals; the lists are final) or open it again — a change in its history."""
    night = get_object_or_404(CardNight, pk=night_id)
    if (refused := _a_tournament_table(request, night)) is not None:
        return refused
    finished = request.POST.get("finished") == "1"
    by = access.recorded_by(request, access.scorer(request, night))  # the host's account, never a player's name
    try:
        nights.change_settings(night, by=by, finished=finished)
    except OperationalError:
        # The page again with the message, the button as it was: tapping it again is all there is to do.
        messages.error(request, BUSY)
        return _night_page(request, load_night(night_id))
    messages.success(request, gettext("The card night is finished.") if finished
                     else gettext("The card night is open for deals again."))
    return HttpResponseSeeOther(reverse("night", args=[night.id]))


# --- the ledger as JSON ------------------------------------------------------------------------------

def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def _table_json(night: CardNight, view: TableView) -> dict[str, Any]:
    book = view.ledger
    names = book.names
    deals = []
    for row in book.rows:
        deal = row.deal
        out = [names[p] for p in ledger.sits_out(night.game, deal.seating, deal.dealer, len(names))]
        deals.append({
            "number": row.number,  # as entered, never shifted (issue 33): the same as "sequence"
            "sequence": deal.sequence,
            "counted": row.position,  # its place among the deals that count (deleted deals do not)
            "dealer": names[deal.dealer],
            "seats": [names[p] for p in deal.seating],
            "sitting_out": out,
            "facts": deal.facts,
            "play": deal.play,  # the cards as played, attached for the record (docs/PLAY.md); null: none
            "bock": deal.bock,
            "verdict": deal.verdict,
            "entries": dict(zip(names, row.entries, strict=True)),
            "totals": dict(zip(names, row.totals, strict=True)),
            "entered_by": deal.entered_by,
            "entered_at": deal.entered_at.isoformat(),
        })
    table: dict[str, Any] = {"number": view.table.number, "seats": view.table.seats, "players": names,
                             "deals": deals, "totals": dict(zip(names, book.totals, strict=True))}
    if night.seeger_fabian:
        table["seeger_fabian"] = dict(zip(names, book.seeger_fabian_totals, strict=True))
        table["performance"] = dict(zip(names, book.performance, strict=True))
    if book.placing_totals is not None:
        table["placing"] = {name: _number(points) for name, points in zip(names, book.placing_totals, strict=True)}
    return table


def _rules_json(night: CardNight) -> dict[str, Any]:
    """Every option the night's deals are judged by, as a verdict's ``rules`` writes them. Kop's
    options hold objects of their own (solo factors, doubling limits) that its ``rules_json`` writes."""
    return rules_json(night.game, GAMES[night.game].parse_rules(night.rules_request))


@night_access(VIEW)
def night_json(request: NightRequest, night_id: int) -> JsonResponse:
    night = load_night(night_id)
    data = {
        "night": {
            "id": night.id, "date": night.date.isoformat(), "place": night.place, "game": night.game,
            "preset": night.preset, "house_rules": night.house_rules,
            "rules": _rules_json(night),
            "series_length": night.series_length, "round_length": night.round_length, "currency": night.currency,
            "bock_events": night.bock_events, "bock_length": night.bock_length,
            # Changes with every write to the night or any of its deals (the night page's ETag counts the same).
            "version": night.version + sum(table.version for table in night.tables.all()),
        },
        "tables": [_table_json(night, view) for view in _tables(night)],
    }
    return JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 2})
