"""Live updates: a page section that polls (htmx, every 2 s) and is answered 304 Not Modified while
the night is as the page shows it.

The ETag is the night's version (bumped by every write to it, `nights._touch`) and the phone's role,
so a poll costs one small query and no rendering while nothing happens; a change is on every phone
within one poll. The section sends its ETag as If-None-Match (static/js/app.js), and htmx swaps
nothing on a 304 (base.html's htmx-config).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified

from .models import CardNight

POLL = "every 2s"


def etag(request: HttpRequest, night: CardNight) -> str:
    return f'W/"{night.pk}-{night.version}-{getattr(request, "night_role", "")}"'


def polled(request: HttpRequest, target: str) -> bool:
    """Whether this is a poll of the section with id `target`."""
    return bool(request.htmx and request.htmx.target == target and not request.htmx.history_restore_request)


def not_modified(request: HttpRequest, night_id: int, target: str) -> HttpResponse | None:
    """304 for a poll of `target` whose ETag is current; None otherwise (render the section)."""
    if not polled(request, target):
        return None
    night = CardNight.objects.only("pk", "version").get(pk=night_id)
    tag = etag(request, night)
    if request.headers.get("If-None-Match") != tag:
        return None
    response = HttpResponseNotModified()
    response["ETag"] = tag
    return response


def mark(response: HttpResponse, tag: str) -> HttpResponse:
    """A freshly rendered section: its ETag, and no caching by the browser beyond revalidation."""
    response["ETag"] = tag
    response["Cache-Control"] = "no-cache, private"
    return response
