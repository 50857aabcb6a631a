"""Requests the site cannot read: answered 400 with one plain sentence, never a server error.

Django refuses some bodies only when a view first reads ``request.POST`` (a form body in another charset
than UTF-8, a broken multipart body, more fields or bytes than ``DATA_UPLOAD_MAX_*`` allow), and it does
not remember the refusal: its own 400 page (``requires_csrf_token``) reads ``request.POST`` again and
fails again, so every such request became a 500 with a traceback. `UnreadableRequests` reads the form
data once, before any view or the CSRF check, and answers what it cannot read itself; `bad_request`
(``handler400``) answers every other 400 without reading the body again.

A NUL character in the path is refused here too: no link of the site has one, and PostgreSQL refuses to
compare text holding one (a link token is looked up by it). In a form a NUL is the form's error ("Null
characters are not allowed"), as every text field checks; where text reaches the database before a form
checks it, its code refuses a NUL itself (the throttles' names, the tournament's reasons, the admin's
search and filters: `holds_nul`).
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import BadRequest, RequestDataTooBig, SuspiciousOperation
from django.http import HttpRequest, HttpResponse, UnreadablePostError
from django.http.multipartparser import MultiPartParserError
from django.utils.translation import gettext

NUL = "\x00"


def refusal(too_large: bool = False) -> HttpResponse:
    """The 400 answer: one sentence, in the request's language (LocaleMiddleware ran before)."""
    text = (gettext("This request is too large for the site to read.") if too_large else
            gettext("The site cannot read this request: send it again from the site's own page."))
    return HttpResponse(text + "\n", status=400, content_type="text/plain; charset=utf-8")


def holds_nul(request: HttpRequest) -> bool:
    """Whether a NUL is in the request's path, query string or form (names and values)."""
    if NUL in request.path_info:
        return True
    datas = [request.GET, request.POST] if request.method == "POST" else [request.GET]
    return any(NUL in text for data in datas for key, values in data.lists() for text in (key, *values))


def unreadable(request: HttpRequest) -> HttpResponse | None:
    """The 400 answer when the request's path, query string or form body cannot be read, else None."""
    try:
        request.GET  # noqa: B018 - read once, here, for every view (Django reads on access)
        if request.method == "POST":
            request.POST  # noqa: B018
    except RequestDataTooBig:
        return refusal(too_large=True)
    except (BadRequest, SuspiciousOperation, MultiPartParserError, UnreadablePostError, UnicodeError, ValueError):
        # A charset other than UTF-8, a broken multipart body, too many fields or files, a connection
        # dropped while the body was read: nothing of it can be trusted.
        return refusal()
    if NUL in request.path_info:
        return refusal()
    return None


class UnreadableRequests:
    """Middleware (after LocaleMiddleware, before CsrfViewMiddleware): refuse unreadable requests at once."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return unreadable(request) or self.get_response(request)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler400``: Django's own reads ``request.POST`` again (for a CSRF token) and fails again on the
    very body it refused; this one reads nothing."""
    return refusal(too_large=isinstance(exception, RequestDataTooBig))
