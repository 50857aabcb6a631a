"""Clubs: who runs one, and every change to a club, each in one transaction.

A club owns its players and card nights. Its hosts — the owner and the co-hosts, who have the same
rights — see and run all of them; nobody else sees a club's players, nights or numbers (a night's link
holders see that night, `scorekeep.web.access`). A host may run several clubs. A co-host joins by the club's
invitation link (opened while logged in) or is added by account name by a host.

No HTTP here: `scorekeep.clubs.views` calls these.
"""

from __future__ import annotations

from typing import Any, cast

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest
from django.utils.translation import gettext

from scorekeep.models import Club, new_token


class ClubError(ValueError):
    """A change of a club refused: `field` is the input it concerns, the message says what is allowed."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


# The club of the nights started without a host (demo nights, nights from before accounts, the command line):
# it has no owner, so only the site owner sees it.
UNHOSTED = "Without a host"
LONGEST_NAME = cast(int, Club._meta.get_field("name").max_length)  # a CharField has one


def hosted_by(user: Any) -> QuerySet[Club]:
    """The clubs `user` runs (owner or co-host); every club for the site owner; none for anyone else."""
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(Q(owner=user) | Q(cohosts=user)).distinct()


def own_clubs(user: Any) -> QuerySet[Club]:
    """The clubs `user` is a host of (the site owner too: only those he owns or co-hosts), oldest first.
    These are offered when starting a night; `hosted_by` is what may be seen."""
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.filter(Q(owner=user) | Q(cohosts=user)).distinct().order_by("created", "id")


def offered(user: Any) -> list[Club]:
    """The clubs a night may be started in by `user`: their own (oldest first, the first is the default);
    for the site owner every other club after them."""
    own = list(own_clubs(user))
    if user is not None and user.is_authenticated and user.is_superuser:
        own += list(Club.objects.exclude(pk__in=[club.pk for club in own]).order_by("created", "id"))
    return own


def _clean_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise ClubError("name", gettext("A club needs a name."))
    if len(name) > LONGEST_NAME:
        raise ClubError("name", gettext("A club's name is at most %(most)s characters long, not %(got)s.")
                        % {"most": LONGEST_NAME, "got": len(name)})
    return name


@transaction.atomic
def start_club(owner: Any, name: str) -> Club:
    """A new club run by `owner`. Raises `ClubError` (field ``name``) for an empty or too long name."""
    return Club.objects.create(name=_clean_name(name), owner=owner)


@transaction.atomic
def rename_club(club: Club, name: str) -> Club:
    club = Club.objects.select_for_update().get(pk=club.pk)
    club.name = _clean_name(name)
    club.save(update_fields=["name"])
    return club


def home_club(host: Any) -> Club:
    """The club a night goes to when none was chosen: the host's first club, one named after the host
    when they have none yet; for a night without a host, the club of such nights (`UNHOSTED`)."""
    if host is None:
        club = Club.objects.filter(owner=None, name=UNHOSTED).order_by("id").first()
        return club or Club.objects.create(name=UNHOSTED)
    club = own_clubs(host).first()
    return club or Club.objects.create(name=host.get_username()[:LONGEST_NAME], owner=host)


@transaction.atomic
def add_cohost(club: Club, username: str) -> Any:
    """Make the account named `username` a co-host of the club. Raises `ClubError` (field ``username``)
    when there is no such account or it runs the club already."""
    name = username.strip()
    user = get_user_model().objects.filter(username=name).first() if name else None
    if user is None:
        raise ClubError("username", gettext("There is no account named “%(name)s”.") % {"name": name})
    club = Club.objects.select_for_update().get(pk=club.pk)
    if club.hosted_by(user):
        raise ClubError("username", gettext("%(name)s runs this club already.") % {"name": name})
    club.cohosts.add(user)
    return user


@transaction.atomic
def remove_cohost(club: Club, user_id: int) -> None:
    """A co-host leaves the club (or is taken off it); the owner stays."""
    club = Club.objects.select_for_update().get(pk=club.pk)
    club.cohosts.remove(user_id)


@transaction.atomic
def accept_invitation(user: Any, token: str) -> Club | None:
    """The club whose invitation link `token` is, with `user` now one of its hosts; None for an unknown
    (or renewed) link."""
    club = Club.objects.select_for_update().filter(invite_token=token).first()
    if club is None:
        return None
    if not club.hosted_by(user):
        club.cohosts.add(user)
    return club


@transaction.atomic
def renew_invitation(club: Club) -> Club:
    """A new invitation link; the old one stops working at once."""
    club = Club.objects.select_for_update().get(pk=club.pk)
    club.invite_token = new_token()
    club.save(update_fields=["invite_token"])
    return club


@transaction.atomic
def set_ratings(club: Club, on: bool) -> Club:
    """Show the players' ratings (`scorekeep.clubs.ratings`) beside the plain figures, or not."""
    club = Club.objects.select_for_update().get(pk=club.pk)
    club.ratings = on
    club.save(update_fields=["ratings"])
    return club


def club_of(request: HttpRequest, club_id: int) -> Club:
    """The club, for one of its hosts (or the site owner); 404 for anyone else, as for a club that does not exist."""
    club = hosted_by(request.user).filter(pk=club_id).select_related("owner").first()
    if club is None:
        raise Http404("No such club.")
    return club
