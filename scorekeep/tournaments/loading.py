"""A tournament as its organiser's pages load it."""

from __future__ import annotations

from django.http import Http404, HttpRequest

from scorekeep.clubs import clubs
from scorekeep.models import Tournament


def tournament_of(request: HttpRequest, tournament_id: int) -> Tournament:
    """The tournament, for a host of its club (or the site owner); 404 for anyone else, as for none at all."""
    tournament = (Tournament.objects.filter(pk=tournament_id, club__in=clubs.hosted_by(request.user))
                  .select_related("club").first())
    if tournament is None:
        raise Http404("No such tournament.")
    return tournament
