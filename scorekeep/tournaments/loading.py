"""A tournament as its pages load it: the organiser's (a host of its club) and, by its viewer link, anyone's."""

from __future__ import annotations

from django.http import Http404, HttpRequest

from scorekeep.clubs import clubs
from scorekeep.models import Tournament, token_shaped
from scorekeep.web import throttle


def tournament_of(request: HttpRequest, tournament_id: int) -> Tournament:
    """The tournament, for a host of its club (or the site owner); 404 for anyone else, as for none at all."""
    tournament = (Tournament.objects.filter(pk=tournament_id, club__in=clubs.hosted_by(request.user))
                  .select_related("club").first())
    if tournament is None:
        raise Http404("No such tournament.")
    return tournament


def _lookup(token: str) -> Tournament | None:
    return (Tournament.objects.filter(viewer_token=token).select_related("club").first()
            if token_shaped(token) else None)


def tournament_by_token(request: HttpRequest, token: str, viewed: str, remembered: int,
                        known: bool = False, remember: bool = True) -> Tournament:
    """The tournament a viewer link opens (the standings, the big screen, the results page). Wrong tokens are
    throttled as a night's links are (`access_views.join`): each attempt is counted against the address before
    the token is looked up, and a right one is taken back; past the limit `throttle.Throttled`, right token or
    wrong. A phone or screen that opened the link is remembered in its session (under `viewed`, the latest
    `remembered` tokens), as a night's link is, so its polls every few seconds are not counted again. `known`:
    the caller holds proof that the token opened its tournament lately (the standings' board kept under it,
    which a viewer whose page came from the cache has no session to say): looked up without counting, as a
    remembered one — unless the address is past its limit, where every new visit is refused, right or wrong
    (a kept board must not tell a guesser which token is right). `remember` False: the session is neither read
    nor written (an answer that a shared cache may keep for everyone, `standings_views.viewer_board`)."""
    address = f"ip:{throttle.client_address(request)}"
    if known and throttle.waiting("token", address, throttle.TOKEN_LIMIT):
        known = False  # counted below, and refused
    if known or (remember and token in request.session.get(viewed, ())):
        tournament = _lookup(token)
        if tournament is not None:
            return tournament
    counted = throttle.count("token", {address: throttle.TOKEN_LIMIT})
    tournament = _lookup(token)
    if tournament is None:  # a wrong token stays counted
        raise Http404("No such standings link.")
    counted.undo()
    if not remember:
        return tournament
    request.session[viewed] = [*request.session.get(viewed, [])[-(remembered - 1):], token]
    return tournament
