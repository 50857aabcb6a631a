"""Who may see and change a card night.

A night is reached in one of three ways, never by its id alone:

- the **hosts of its club** (`scorekeep.clubs.clubs`: the club's owner and co-hosts; the site owner, a
  superuser, too) may do everything: settings, finishing, the links;
- a phone that opened the night's **scorer link** may enter, correct, delete and restore deals and add
  tables;
- a phone that opened its **viewer link** may read: the night, its tables, deals, ledger and printouts.

Opening a link (`join`) stores the night's id, the role and the token in the session. Every request
compares that token with the night's current one, so making a new link (`renew_link`) revokes the old
one at once, on every phone that used it. A stranger — no account, no link — is told that there is no
such night (404), so ids cannot be probed; a viewer asking to write gets 403.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, cast

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse

from scorekeep.clubs import clubs
from scorekeep.models import CardNight, Club, Player, new_token
from scorekeep.words.labels import speaking_of

VIEW, SCORE, HOST = "view", "score", "host"
RANK = {VIEW: 0, SCORE: 1, HOST: 2}
SCORERS = "scorers"  # session key: {night id: the "Your name" this phone scores that night under}
KEPT_SCORERS = 50  # the nights a phone remembers its name for, the latest kept
GRANTS = "nights"  # session key: {night id: {"score": token, "view": token}} — the links this phone opened


def scorer(request: HttpRequest, night: CardNight) -> str:
    """The name this phone last entered under at `night` ("" when none). Kept per night: a name typed at one
    night's table is no player of the next (it was offered there as who enters)."""
    names = request.session.get(SCORERS)
    return str(names.get(str(night.pk), "")) if isinstance(names, dict) else ""


def remember_scorer(request: HttpRequest, night: CardNight, name: str) -> None:
    """Keep `name` as the one this phone enters under at `night` (the latest `KEPT_SCORERS` nights)."""
    names = request.session.get(SCORERS)
    names = dict(names) if isinstance(names, dict) else {}
    key = str(night.pk)
    if not name or names.get(key) == name:
        return
    names.pop(key, None)
    names[key] = name
    request.session[SCORERS] = dict(list(names.items())[-KEPT_SCORERS:])


def recorded_by(request: HttpRequest, typed: str) -> str:
    """Who a change is recorded as made by, when an account makes it (a host's: the settings, finishing the
    night, a change after it): the account, with the name typed on this phone where that is another — so the
    history never credits a host's act to a player whose name the phone last entered under."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return typed
    account = user.get_username()
    return (account if not typed or typed == account else f"{account} ({typed})")[:40]


def role(request: HttpRequest, night: CardNight) -> str | None:
    """What this request may do with the night: HOST, SCORE, VIEW, or None (a stranger)."""
    if hosts(request, night):
        return HOST
    grant = request.session.get(GRANTS, {}).get(str(night.pk))
    if not isinstance(grant, dict):
        return None
    # Each link counts while it is the night's current one: a renewed scorer link leaves a phone that
    # also opened the viewer link watching.
    if grant.get(SCORE) == night.scorer_token:
        # A tournament table's list closes with its series: from then on only the organiser (a host) corrects it.
        return VIEW if night.series_id is not None and night.finished else SCORE
    if grant.get(VIEW) == night.viewer_token:
        return VIEW
    return None


def hosts(request: HttpRequest, night: CardNight) -> bool:
    """Whether the request's account runs the night's club (its owner or a co-host), or is the site owner."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    known = night.__dict__.get("hosted")  # asked already with the night (`night_access`)
    if known is not None:
        return bool(known)
    return hosting(user).filter(pk=night.club_id).exists()


def hosting(user: Any) -> QuerySet[Club]:
    """The clubs `user` is the owner or a co-host of."""
    return Club.objects.filter(Q(owner=user) | Q(cohosts=user))


def allows(have: str | None, need: str) -> bool:
    return have is not None and RANK[have] >= RANK[need]


def check(request: HttpRequest, night: CardNight, need: str) -> str:
    """The request's role, or Http404 for a stranger and PermissionDenied for too small a role."""
    have = role(request, night)
    if have is None:
        raise Http404("No such card night.")
    if not allows(have, need):
        raise PermissionDenied
    return have


class NightRequest(HttpRequest):
    """A request `night_access` let through: the role it found on the night (`VIEW`, `SCORE` or `HOST`), which
    the night's views and templates read (what to offer)."""

    night_role: str


def role_of(request: HttpRequest) -> str | None:
    """The role `night_access` found for this request, None where no night was asked (a club's or a
    tournament's page)."""
    return getattr(request, "night_role", None)


def night_access(need: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A view decorator for URLs with ``night_id``: refuse strangers (404) and too small roles (403);
    sets ``request.night_role`` for the templates (what to offer)."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, night_id: int, **kwargs: Any) -> HttpResponse:
            nights = CardNight.objects.filter(pk=night_id).only("pk", "club_id", "scorer_token", "viewer_token",
                                                                "game", "currency", "amount_exponent",
                                                                "series", "finished")
            user = request.user
            if user.is_authenticated and not user.is_superuser:  # whether the account hosts the club, in one query
                nights = nights.annotate(hosted=Exists(hosting(user).filter(pk=OuterRef("club_id"))))
            night = nights.first()
            if night is None:
                raise Http404("No such card night.")
            night_request = cast(NightRequest, request)  # the role rides on the request, as a NightRequest
            night_request.night_role = check(request, night, need)
            # The night's pages say each word as its game does, and the engine's amounts in the night's money.
            with speaking_of(night.game, (night.currency, night.exponent)):
                return view(request, *args, night_id=night_id, **kwargs)

        return wrapped

    return decorate


def grant(request: HttpRequest, night: CardNight, granted: str) -> None:
    """Remember on this phone (its session) that it opened one of the night's links."""
    token = night.scorer_token if granted == SCORE else night.viewer_token
    grants = dict(request.session.get(GRANTS, {}))
    current = grants.get(str(night.pk))
    # Both links are kept: a scorer who then opens the viewer link keeps scoring.
    grants[str(night.pk)] = {**(current if isinstance(current, dict) else {}), granted: token}
    request.session[GRANTS] = grants


def by_token(token: str) -> tuple[CardNight, str] | None:
    """The night a link token opens and the role it gives, or None."""
    night = CardNight.objects.filter(scorer_token=token).first()
    if night is not None:
        return night, SCORE
    night = CardNight.objects.filter(viewer_token=token).first()
    return (night, VIEW) if night is not None else None


@transaction.atomic
def renew_link(night: CardNight, which: str) -> CardNight:
    """A new scorer or viewer link; the old one stops working on every phone at its next request."""
    night = CardNight.objects.select_for_update().get(pk=night.pk)
    field = "scorer_token" if which == SCORE else "viewer_token"
    setattr(night, field, new_token())
    night.version += 1  # open pages notice (their next poll is refused)
    night.save(update_fields=[field, "version"])
    return night


def visible_nights(request: HttpRequest) -> QuerySet[CardNight]:
    """The nights of the clubs a logged-in host runs (every night for the site owner); none for anyone else."""
    user = request.user
    if not user.is_authenticated:
        return CardNight.objects.none()
    if user.is_superuser:
        return CardNight.objects.all()
    return CardNight.objects.filter(club__in=clubs.hosted_by(user))


def visible_players(request: HttpRequest) -> QuerySet[Player]:
    """The players of the clubs a logged-in host runs (every player for the site owner); none for anyone else."""
    return Player.objects.filter(club__in=clubs.hosted_by(request.user))


def joined_nights(request: HttpRequest) -> list[tuple[CardNight, str]]:
    """The nights this phone opened a link of and may still reach, with the role (newest first)."""
    grants = request.session.get(GRANTS, {})
    ids = [int(key) for key in grants if str(key).isdigit()]
    out = []
    for night in CardNight.objects.filter(pk__in=ids):
        have = role(request, night)
        if have is not None:
            out.append((night, have))
    return sorted(out, key=lambda item: (item[0].date, item[0].pk), reverse=True)
