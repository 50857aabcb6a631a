"""The organiser's tournament pages (issue 18): the host's tournaments, a new one, its overview (settings,
entrants, each series' tables with their scorer links, progress and closing check), registration at the
door, withdrawal, drawing a series, closing and reopening it.

Only the hosts of the tournament's club (and the site owner) reach them; to any other account a tournament
is "not found" (404), and anyone not logged in is sent to log in, as for a club's pages. Every write goes
through `scorekeep.tournaments.writes`, in a transaction; every form is a plain POST and a 303, so the pages work
without JavaScript.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorekeep.clubs import clubs
from scorekeep.models import Entrant, Series, Tournament
from scorekeep.nights.forms import preset_label
from scorekeep.rules.draw import Conflict
from scorekeep.tournaments import corrections, registration
from scorekeep.tournaments import money as tournament_money
from scorekeep.tournaments import writes as tournaments
from scorekeep.tournaments.forms import RegisterForm, TournamentForm, tariff_lines
from scorekeep.tournaments.loading import tournament_of
from scorekeep.web.qr import qr_svg
from scorekeep.words.labels import GAME_LABELS, unit_text


def _see_other(url: str) -> HttpResponse:
    return HttpResponseRedirect(url, status=303)


def _typed(request: HttpRequest, name: str, longest: int) -> str:
    """A text typed into one of the tournament page's small forms that is stored as typed (a reason, a seed),
    at most `longest` characters; a NUL (which PostgreSQL cannot store) refused as the forms' fields refuse it."""
    text = request.POST.get(name, "")[:longest]
    if "\x00" in text:
        raise ValidationError({name: ProhibitNullCharactersValidator.message})
    return text


def _by(request: HttpRequest) -> str:
    return request.user.get_username()[:40]


def _optional_link(name: str, tournament: Tournament) -> str:
    """A page another part of issue 18 makes (the standings, the money), where it exists."""
    try:
        return reverse(name, args=[tournament.pk])
    except NoReverseMatch:
        return ""


def _form_errors(form: forms.Form, err: ValidationError) -> None:
    """The service's refusals at the inputs they name; one naming no input of the form says its field."""
    for field, errors in err.message_dict.items():
        if field in form.fields:
            form.add_error(field, errors)
        else:
            form.add_error(None, [f"{field}: {error}" for error in errors])


# --- the list and a new tournament -----------------------------------------------------------------

@require_safe
@login_required
def tournament_list(request: HttpRequest) -> HttpResponse:
    """The tournaments of the clubs the host runs, newest first."""
    rows = Tournament.objects.filter(club__in=clubs.hosted_by(request.user)).select_related("club")[:200]
    return render(request, "tournaments/tournaments.html", {
        "tournaments": [(t, GAME_LABELS[t.game]) for t in rows]})


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None, user=request.user,
                          initial={"date": timezone.localdate()})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        game, preset = data["rules"].split(":", 1)
        try:
            tournament = tournaments.create_tournament(
                club=data["club"], name=data["name"], game=game, preset=preset, date=data["date"],
                place=data["place"], series_count=data["series_count"], series_length=data["series_length"],
                draw_mode=data["draw_mode"], currency=data["currency"], house_rules=data["house_rules"],
                **data["settings"], teams=data["teams"], by=_by(request))
        except ValidationError as err:
            _form_errors(form, err)
        else:
            messages.success(request, gettext("The tournament is set up. Register the players, then draw "
                                              "the first series."))
            return _see_other(reverse("tournament", args=[tournament.pk]))
    return render(request, "tournaments/tournament_new.html", {"form": form})


# --- the overview ----------------------------------------------------------------------------------

def _series_rows(request: HttpRequest, tournament: Tournament) -> list[dict[str, Any]]:
    rows = []
    names = {e.number: e.player.name for e in tournament.entrants.select_related("player")}
    for series in tournament.series_set.all():
        checks = tournaments.table_checks(series) if series.drawn_at else []
        unavoided = [(table, names.get(a, a), names.get(b, b), CONFLICT_WORDS.get(kind, kind))
                     for table, a, b, kind in series.draw.get("unavoided", []) if kind == Conflict.REPEAT]
        # Players of one club (or team) sharing a table follow from how many came from it: one line says how
        # many such pairings and where, and the list keeps the repeats, which the organiser can act on.
        shared = {kind: sorted({table for table, _a, _b, k in series.draw.get("unavoided", []) if k == kind})
                  for kind in (Conflict.CLUB, Conflict.TEAM)}
        together = [(CONFLICT_WORDS[kind], sum(1 for u in series.draw.get("unavoided", []) if u[3] == kind),
                     ", ".join(map(str, tables))) for kind, tables in shared.items() if tables]
        rows.append({"series": series, "tables": [
            {"check": check, "problems": check.problems_in_words(),
             "scorer": request.build_absolute_uri(reverse("join", args=[check.night.scorer_token]))}
            for check in checks], "done": sum(1 for c in checks if c.done), "unavoided": unavoided,
            "together": together, "byes": [names.get(n, n) for n in series.draw.get("byes", [])]})
    return rows


CONFLICT_WORDS = {Conflict.REPEAT: _("shared a table before"), Conflict.TEAM: _("one team"),
                  Conflict.CLUB: _("one club")}


@require_safe
@login_required
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_of(request, tournament_id)
    entrants = list(tournament.entrants.select_related("player", "team"))
    drawn = tournaments.drawn(tournament)
    series = list(tournament.series_set.all())
    closed_all = all(s.closed for s in series if s.drawn_at)
    next_draw = drawn + 1 if drawn < tournament.series_count and closed_all else None
    last = next((s for s in series if s.number == drawn), None)
    return render(request, "tournaments/tournament.html", {
        "tournament": tournament, "game_label": GAME_LABELS[tournament.game],
        "preset_label": preset_label(tournament.game, tournament.preset), "entrants": entrants,
        "money_lines": [*tournament_money.overview(tournament), *tariff_lines(tournament)],
        "series_rows": _series_rows(request, tournament), "next_draw": next_draw,
        "redraw": last if last is not None and not last.closed else None,
        "standings_url": _optional_link("tournament-standings", tournament),
        "money_url": _optional_link("tournament-money", tournament),
        "printouts_url": _optional_link("tournament-printouts", tournament)}
        | corrections.page_context(tournament, entrants))


@require_safe
@login_required
def series_page(request: HttpRequest, tournament_id: int, series_number: int) -> HttpResponse:
    """A series' tables with their scorer links as QR codes, to hand to each table's list keeper."""
    tournament = tournament_of(request, tournament_id)
    series = Series.objects.filter(tournament=tournament, number=series_number, drawn_at__isnull=False).first()
    if series is None:
        raise Http404("No such series.")
    rows = _series_rows(request, tournament)
    row = next(r for r in rows if r["series"].pk == series.pk)
    for table in row["tables"]:
        table["qr"] = qr_svg(table["scorer"])
    return render(request, "tournaments/tournament_series.html", {"tournament": tournament, "row": row})


# --- registration and withdrawal -------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def tournament_register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_of(request, tournament_id)
    form = RegisterForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        withdrawn = registration.withdrawn_named(tournament, data["name"])
        try:
            entrant = tournaments.register(tournament, name=data["name"], guest=data["guest"],
                                           home_club=data["home_club"], team=data.get("team", ""),
                                           number=data["number"], paid=data["paid"],
                                           member_number=data.get("member_number", ""), by=_by(request))
        except ValidationError as err:
            _form_errors(form, err)
        else:
            messages.success(request, (gettext("%(name)s is reinstated with start number %(number)s.") if withdrawn
                                       else gettext("%(name)s is registered with start number %(number)s.")) % {
                "name": entrant.player.name, "number": entrant.number})
            return _see_other(reverse("tournament-register", args=[tournament.pk]))
    drawn = tournaments.drawn(tournament)
    return render(request, "tournaments/tournament_register.html", {
        "tournament": tournament, "form": form, "drawn": drawn, "list_form": registration.ListForm(),
        "late_from": drawn + 1 if drawn and drawn < tournament.series_count else None,
        "entrants": tournament.entrants.select_related("player", "team"),
        "players": list(tournament.club.players.values_list("name", flat=True)[:2000])})


def _entrant(request: HttpRequest, tournament: Tournament) -> Entrant | None:
    number = request.POST.get("number", "")
    entrant = tournament.entrants.select_related("player").filter(number=int(number)).first() \
        if number.isdigit() and len(number) < 6 else None
    if entrant is None:
        messages.error(request, gettext("Start number: choose a registered player."))
    return entrant


@require_POST
@login_required
def tournament_paid(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_of(request, tournament_id)
    entrant = _entrant(request, tournament)
    if entrant is not None:
        tournaments.set_paid(entrant, request.POST.get("paid") == "1", by=_by(request))
    return _see_other(reverse("tournament", args=[tournament.pk]) + "#entrants")


# --- the draw, closing and reopening ----------------------------------------------------------------

def _series_action(request: HttpRequest, tournament_id: int, series_number: int, action: str) -> HttpResponse:
    tournament = tournament_of(request, tournament_id)
    by = _by(request)
    series: Series | None  # drawn here, or looked up (None: not drawn yet)
    try:
        reason = _typed(request, "reason", 200)
        if action == "draw":
            seed = _typed(request, "seed", 64).strip()
            if tournaments.drawn(tournament) >= series_number and request.POST.get("confirm") != "1":
                # A redraw seats everyone anew: only with the box ticked that says so (issue 31).
                raise ValidationError({"confirm": gettext(
                    "%(part)s is drawn already: tick “Yes, draw it again” to replace its draw")
                    % {"part": unit_text(tournament.game, "numbered", series_number)}})
            series = tournaments.draw_series(tournament, series_number, seed=seed or None, host=request.user,
                                             by=by)
            messages.success(request, gettext("%(part)s is drawn (seed %(seed)s).") % {
                "part": unit_text(tournament.game, "numbered", series.number), "seed": series.seed})
        else:
            series = Series.objects.filter(tournament=tournament, number=series_number).first()
            if series is None:
                raise ValidationError({"series": gettext("%(part)s is not drawn yet")
                                       % {"part": unit_text(tournament.game, "in_text", series_number)}})
            if action == "close":
                tournaments.close_series(series, by=by, reason=reason)
                messages.success(request, gettext("%(part)s is closed.")
                                 % {"part": unit_text(tournament.game, "numbered", series.number)})
            else:
                tournaments.reopen_series(series, by=by, reason=reason)
                messages.success(request, gettext("%(part)s is open again.")
                                 % {"part": unit_text(tournament.game, "numbered", series.number)})
    except ValidationError as err:
        messages.error(request, " ".join(err.messages))
    return _see_other(reverse("tournament", args=[tournament.pk]) + f"#series-{series_number}")


@require_POST
@login_required
def series_draw(request: HttpRequest, tournament_id: int, series_number: int) -> HttpResponse:
    return _series_action(request, tournament_id, series_number, "draw")


@require_POST
@login_required
def series_close(request: HttpRequest, tournament_id: int, series_number: int) -> HttpResponse:
    return _series_action(request, tournament_id, series_number, "close")


@require_POST
@login_required
def series_reopen(request: HttpRequest, tournament_id: int, series_number: int) -> HttpResponse:
    return _series_action(request, tournament_id, series_number, "reopen")
