"""What the tournament pages' small forms post, read as the pages need it: a text stored as typed, the
account that acts, the entrant a start number names. Shared by the view modules (which import no other view
module: .importlinter)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.http import HttpRequest
from django.utils.translation import gettext_noop

from scorekeep.models import Entrant, Tournament
from scorekeep.web.flash import later


def typed(request: HttpRequest, name: str, longest: int) -> str:
    """A text typed into one of the tournament page's small forms that is stored as typed (a reason, a seed),
    at most `longest` characters; a NUL (which PostgreSQL cannot store) refused as the forms' fields refuse it."""
    text = request.POST.get(name, "")[:longest]
    if "\x00" in text:
        raise ValidationError({name: ProhibitNullCharactersValidator.message})
    return text


def by(request: HttpRequest) -> str:
    return request.user.get_username()[:40]


def entrant(request: HttpRequest, tournament: Tournament) -> Entrant | None:
    number = request.POST.get("number", "")
    entrant = tournament.entrants.select_related("player").filter(number=int(number)).first() \
        if number.isdigit() and len(number) < 6 else None
    if entrant is None:
        messages.error(request, later(gettext_noop("Start number: choose a registered player.")))
    return entrant
