"""Live updates: a page section that polls (htmx, every 2 s) and is answered 304 Not Modified while
what it shows is unchanged.

A table page's ETag is its table's version (bumped by every write to that table's deals and every
change of the night, `nights._touch_table` / `nights._touch`), so the other tables of a club hall do
not make it render again; the night page's is the night's version plus its tables' versions. The
phone's role is part of both (a scorer's page differs from a viewer's). A poll costs one small query
and no rendering while nothing happens; a change is on every phone within one poll. The section sends
its ETag as If-None-Match (static/js/app.js), and htmx swaps nothing on a 304 (base.html's htmx-config).
"""

from __future__ import annotations

from django.db.models import F, Sum
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified

from scorekeep.models import CardNight, CardTable
from scorekeep.web.access import role_of

POLL = "every 2s"


def _tag(request: HttpRequest, kind: str, pk: int, version: int) -> str:
    return f'W/"{kind}{pk}-{version}-{role_of(request) or ""}"'


def table_tag(request: HttpRequest, table: CardTable) -> str:
    return _tag(request, "t", table.pk, table.version)


def night_tag(request: HttpRequest, night_id: int) -> str:
    """The night's version plus every table's: changes with anything the night page shows."""
    version = (CardNight.objects.filter(pk=night_id)
               .annotate(total=F("version") + Coalesce(Sum("tables__version"), 0))
               .values_list("total", flat=True).first())
    return _tag(request, "n", night_id, version or 0)


def current_table_tag(request: HttpRequest, night_id: int, table_number: int) -> str | None:
    table = CardTable.objects.filter(night__pk=night_id, number=table_number).only("pk", "version").first()
    return table_tag(request, table) if table is not None else None


def polled(request: HttpRequest, target: str) -> bool:
    """Whether this is a poll of the section with id `target`."""
    return bool(request.htmx and request.htmx.target == target and not request.htmx.history_restore_request)  # type: ignore[attr-defined]  # django-htmx's middleware sets it


def not_modified(request: HttpRequest, target: str, tag: str | None) -> HttpResponse | None:
    """304 for a poll of `target` whose ETag is `tag`; None otherwise (render the section)."""
    if tag is None or not polled(request, target) or request.headers.get("If-None-Match") != tag:
        return None
    response = HttpResponseNotModified()
    response["ETag"] = tag
    return response


def mark(response: HttpResponse, tag: str) -> HttpResponse:
    """A freshly rendered section: its ETag, and no caching by the browser beyond revalidation."""
    response["ETag"] = tag
    response["Cache-Control"] = "no-cache, private"
    return response
