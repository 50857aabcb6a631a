"""The site owner's admin site: Django's, with the log-in throttled as the site's own log-in is."""

from __future__ import annotations

from collections.abc import Callable
from functools import update_wrapper
from typing import Any, TypeVar, cast

from django.contrib import admin
from django.http import HttpRequest, HttpResponse, HttpResponseBase

from scorekeep.web.forms import ThrottledAdminAuthenticationForm, throttled
from scorekeep.web.unreadable import holds_nul, refusal

View = TypeVar("View", bound=Callable[..., HttpResponseBase])  # AdminSite.admin_view's: a view in, the same out


class Site(admin.AdminSite):
    # Wrong passwords count with the site's own log-in (scorekeep.web.access_views.ThrottleLogins).
    login_form = ThrottledAdminAuthenticationForm

    def admin_view(self, view: View, cacheable: bool = False) -> View:
        """Every admin page but the log-in: a NUL in the query or form is a 400. The admin puts the query
        into database lookups before any form checks it (the search, the filters), and PostgreSQL refuses
        to compare text holding a NUL."""
        wrapped = super().admin_view(view, cacheable)

        def refusing_nul(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponseBase:
            return refusal() if holds_nul(request) else wrapped(request, *args, **kwargs)

        return cast(View, update_wrapper(refusing_nul, wrapped))  # called as the view is

    def login(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        """Past the limit the log-in answers 429, as the site's log-in does (the form says how long to wait)."""
        response = super().login(request, extra_context)
        form = (getattr(response, "context_data", None) or {}).get("form")
        if response.status_code == 200 and form is not None and throttled(form):
            response.status_code = 429
        return response
