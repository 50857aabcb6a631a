"""Clubs: a host's clubs, starting one, a club's page (its hosts, players and nights), inviting a co-host
by a link or by account name, and accepting an invitation.

Only a club's hosts (and the site owner) reach its pages; to anyone else logged in a club is "not found"
(404), as a night is to a stranger, and anyone not logged in is sent to log in. Every write goes through
`scorekeep.clubs.clubs`, in a transaction; each page works as plain POST and redirect.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_http_methods, require_POST

from scorekeep.clubs import clubs, ratings
from scorekeep.clubs.clubs import club_of
from scorekeep.clubs.forms import ClubNameForm, CohostForm
from scorekeep.models import Club, token_shaped
from scorekeep.web import throttle
from scorekeep.web.flash import later
from scorekeep.web.qr import qr_svg
from scorekeep.words.labels import GAME_LABELS


def _see_other(url: str) -> HttpResponse:
    return HttpResponseRedirect(url, status=303)


@login_required
@require_http_methods(["GET", "POST"])
def club_list(request: HttpRequest) -> HttpResponse:
    """The clubs this account runs, and a form to start another."""
    form = ClubNameForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            club = clubs.start_club(request.user, form.cleaned_data["name"])
        except clubs.ClubError as err:
            form.add_error(err.field, str(err))
        else:
            return _see_other(reverse("club", args=[club.pk]))
    own = (clubs.own_clubs(request.user)
           .annotate(night_count=Count("nights", distinct=True), player_count=Count("players", distinct=True)))
    return render(request, "clubs/clubs.html", {"clubs": own, "form": form})


def _club_context(request: HttpRequest, club: Club, **forms_: Any) -> dict[str, Any]:
    invite = request.build_absolute_uri(reverse("club-join", args=[club.invite_token]))
    # The club's own card nights, as /nights/ lists them: a tournament's tables are the tournament's (listed
    # apart, by name), not as many nights of the same date and place.
    nights = [(night, GAME_LABELS[night.game]) for night in club.nights.filter(series=None)[:100]]
    tournaments = [(tournament, GAME_LABELS[tournament.game])
                   for tournament in club.tournaments.order_by("-date", "-pk")[:100]]
    nights_played = Count("places__table__night", filter=Q(places__table__night__series=None), distinct=True)
    return {"club": club, "cohosts": list(club.cohosts.order_by("username")),
            "seasons": [(season, GAME_LABELS[season.game]) for season in club.seasons.all()],
            "rated_after": ratings.RATED_AFTER,
            "players": list(club.players.annotate(night_count=nights_played)),
            "nights": nights, "tournaments": tournaments, "invite_url": invite, "invite_qr": qr_svg(invite),
            "name_form": forms_.get("name_form") or ClubNameForm(initial={"name": club.name}),
            "cohost_form": forms_.get("cohost_form") or CohostForm()}


@login_required
@require_http_methods(["GET", "POST"])
def club_page(request: HttpRequest, club_id: int) -> HttpResponse:
    """A club: its name (renamed here), hosts, invitation link, players and nights."""
    club = club_of(request, club_id)
    name_form = None
    if request.method == "POST":
        name_form = ClubNameForm(request.POST)
        if name_form.is_valid():
            try:
                clubs.rename_club(club, name_form.cleaned_data["name"])
            except clubs.ClubError as err:
                name_form.add_error(err.field, str(err))
            else:
                messages.success(request, later(gettext_noop("The club's name was changed.")))
                return _see_other(reverse("club", args=[club.pk]))
    return render(request, "clubs/club.html", _club_context(request, club, name_form=name_form))


@login_required
@require_POST
def club_cohost_add(request: HttpRequest, club_id: int) -> HttpResponse:
    """Make an account a co-host, by its name."""
    club = club_of(request, club_id)
    form = CohostForm(request.POST)
    if form.is_valid():
        try:
            user = clubs.add_cohost(club, form.cleaned_data["username"])
        except clubs.ClubError as err:
            form.add_error(err.field, str(err))
        else:
            messages.success(request, gettext("%(name)s is now a host of this club.") % {"name": user.get_username()})
            return _see_other(reverse("club", args=[club.pk]))
    return render(request, "clubs/club.html", _club_context(request, club, cohost_form=form), status=200)


@login_required
@require_POST
def club_cohost_remove(request: HttpRequest, club_id: int, user_id: int) -> HttpResponse:
    """Take a co-host off the club (a co-host may also leave). The owner stays."""
    club = club_of(request, club_id)
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None or not club.cohosts.filter(pk=user_id).exists():
        raise Http404("No such co-host.")
    clubs.remove_cohost(club, user_id)
    messages.success(request, gettext("%(name)s no longer hosts this club.") % {"name": user.get_username()})
    if user_id == request.user.pk and not request.user.is_superuser:
        return _see_other(reverse("clubs"))
    return _see_other(reverse("club", args=[club.pk]))


@login_required
@require_POST
def club_ratings(request: HttpRequest, club_id: int) -> HttpResponse:
    """Turn the ratings (OpenSkill) on or off for the club."""
    club = club_of(request, club_id)
    on = request.POST.get("ratings") == "1"
    clubs.set_ratings(club, on)
    messages.success(request, gettext("Ratings are shown beside the figures.") if on
                     else gettext("Ratings are no longer shown."))
    return _see_other(reverse("club", args=[club.pk]))


@login_required
@require_POST
def club_invitation_renew(request: HttpRequest, club_id: int) -> HttpResponse:
    """A new invitation link; the old one stops working."""
    club = club_of(request, club_id)
    clubs.renew_invitation(club)
    messages.success(request, later(gettext_noop("A new invitation link was made; the old one no longer works.")))
    return _see_other(reverse("club", args=[club.pk]))


@require_http_methods(["GET", "POST"])
def club_join(request: HttpRequest, token: str) -> HttpResponse:
    """A co-host invitation, opened: log in (or sign up) first, then accept it with a button."""
    if not request.user.is_authenticated:
        return HttpResponseRedirect(f"{reverse('login')}?next={reverse('club-join', args=[token])}")
    try:
        counted = throttle.count("token", {f"ip:{throttle.client_address(request)}": throttle.TOKEN_LIMIT})
    except throttle.Throttled as refused:
        return render(request, "join_refused.html", {"message": throttle.wait_message(refused.wait)}, status=429)
    club = Club.objects.filter(invite_token=token).first() if token_shaped(token) else None
    if club is None:  # a wrong token stays counted
        return render(request, "join_refused.html", {"message": gettext(
            "This link does not invite to a club. It may have been replaced by a new one: ask a host of the "
            "club for the current link.")}, status=404)
    counted.undo()
    if request.method == "POST":
        clubs.accept_invitation(request.user, token)
        messages.success(request, gettext("You are now a host of %(club)s.") % {"club": club.name})
        return _see_other(reverse("club", args=[club.pk]))
    already = Club.objects.filter(Q(owner=request.user) | Q(cohosts=request.user), pk=club.pk).exists()
    return render(request, "clubs/club_join.html", {"club": club, "token": token, "already": already})
