"""The organiser's pages of issue 31 that register or take back entries: a whole list at once (preview, then
confirm), withdrawal with its confirmation and reason, and undoing it (reinstate). Plain form POSTs answered
with a page or a 303, so they work without JavaScript; every write goes through the services in one
transaction (`registration.store`, `writes.withdraw`, `writes.reinstate`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from scorekeep.models import Entrant, Tournament
from scorekeep.tournaments import registration
from scorekeep.tournaments import writes as tournaments
from scorekeep.tournaments.loading import tournament_of
from scorekeep.tournaments.posted import by as _by
from scorekeep.tournaments.posted import entrant as _entrant
from scorekeep.tournaments.posted import typed as _typed
from scorekeep.words.labels import unit_text


def _see_other(url: str) -> HttpResponse:
    return HttpResponseRedirect(url, status=303)


@require_POST
@login_required
def register_list(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A pasted list or a CSV: "preview" shows the rows with their start numbers and flags and stores nothing;
    "confirm" stores the text the preview showed, all rows or none."""
    tournament = tournament_of(request, tournament_id)
    form = registration.ListForm(request.POST, request.FILES)
    preview = None
    text = ""
    status = 200
    if form.is_valid():
        try:
            text = form.text()
        except ValidationError as err:
            for field, errors in err.message_dict.items():
                form.add_error(field, errors)
        else:
            if "confirm" in request.POST:
                try:
                    stored = registration.store(tournament, text, by=_by(request))
                except ValidationError as err:
                    if not registration.preview(tournament, text).errors:  # else the preview below names them
                        form.add_error("players", err.messages)
                else:
                    messages.success(request, ngettext("%(n)s player is registered from the list.",
                                                       "%(n)s players are registered from the list.",
                                                       len(stored)) % {"n": len(stored)})
                    return _see_other(reverse("tournament-register", args=[tournament.pk]))
            preview = registration.preview(tournament, text)
    if not form.is_valid() or (preview is not None and preview.errors):
        status = 400
    return render(request, "tournaments/register_preview.html", {
        "tournament": tournament, "form": form, "preview": preview, "text": text,
        "late_from": _late_from(tournament)}, status=status)


def _late_from(tournament: Tournament) -> int | None:
    drawn = tournaments.drawn(tournament)
    return drawn + 1 if drawn and drawn < tournament.series_count else None


def _back(tournament: Tournament) -> str:
    return reverse("tournament", args=[tournament.pk]) + "#entrants"


@login_required
@require_http_methods(["GET", "POST"])
def withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET (?number=n) or a POST without "confirm": the confirmation, asking for a reason. A POST with
    "confirm": the withdrawal, recorded with its reason in the tournament's history."""
    tournament = tournament_of(request, tournament_id)
    data = request.POST if request.method == "POST" else request.GET
    number = data.get("number", "")
    entrant: Entrant | None
    if request.method == "POST":
        entrant = _entrant(request, tournament)
    else:
        entrant = tournament.entrants.select_related("player").filter(number=int(number)).first() \
            if number.isdigit() and len(number) < 6 else None
        if entrant is None:
            messages.error(request, gettext("Start number: choose a registered player."))
    if entrant is None:
        return _see_other(_back(tournament))
    try:
        reason = _typed(request, "reason", 200) if request.method == "POST" else ""
        if request.method == "POST" and request.POST.get("confirm") == "1":
            tournaments.withdraw(entrant, by=_by(request), reason=reason)
            messages.success(request, gettext("%(name)s is withdrawn and is not drawn for a later %(unit)s.")
                             % {"name": entrant.player.name, "unit": unit_text(tournament.game, "word")})
            return _see_other(_back(tournament))
    except ValidationError as err:
        messages.error(request, " ".join(err.messages))
        return _see_other(_back(tournament))
    return render(request, "tournaments/withdraw_confirm.html", {
        "tournament": tournament, "entrant": entrant, "reason": reason,
        "drawn": tournaments.drawn(tournament)})


@require_POST
@login_required
def reinstate(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Undo a withdrawal (before the next draw): the player is drawn again."""
    tournament = tournament_of(request, tournament_id)
    entrant = _entrant(request, tournament)
    if entrant is not None:
        try:
            tournaments.reinstate(entrant, by=_by(request), reason=_typed(request, "reason", 200))
        except ValidationError as err:
            messages.error(request, " ".join(err.messages))
        else:
            messages.success(request, gettext("%(name)s is reinstated and is drawn again in the next draw.")
                             % {"name": entrant.player.name})
    return _see_other(_back(tournament))
