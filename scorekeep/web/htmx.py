"""One way every page answers htmx: the whole page, or the named partial (`{% partialdef %}`) of its
template that the request's target asks for (the HX-Target header, the id of the element it swaps).

A page maps the targets it knows to its partials; a request for any other target (a stale tab, a hand-made
request) gets `default` — or the whole page where there is none. A history restore (the browser's back
button with htmx's cache empty) always gets the whole page. The response varies by both headers, so no cache
hands a partial to a plain request.
"""

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.cache import patch_vary_headers


def render_page(request: HttpRequest, template: str, context: Mapping[str, Any], *,
                partials: Mapping[str, str] | None = None, default: str | None = None, partial: str = "",
                partial_of: str | None = None, status: int = 200) -> HttpResponse:
    """`template` whole, or for htmx the partial of `partial_of` (default: `template`) named by `partial`, by
    the request's target in `partials`, or `default`."""
    htmx = getattr(request, "htmx", None)
    if htmx and not htmx.history_restore_request:
        name: str | None = partial or (partials or {}).get(htmx.target or "", default)
        if name:
            template = f"{partial_of or template}#{name}"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


class HttpResponseSeeOther(HttpResponseRedirect):
    """After a POST that changed something: the browser follows with a GET (no resubmit on reload)."""

    status_code = 303
