"""Accounts for hosts, and the scorer and viewer links of a night.

Hosts sign up and log in with Django's auth; a password is reset through Django's reset link, which
goes by e-mail where mail is configured and is otherwise printed on the server's console (and
`manage.py resetlink` prints one for the site owner to hand over). Log-ins and link tokens are
throttled (`scorekeep.web.throttle`).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.contrib.auth.views import LoginView, PasswordResetView
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from scorekeep.models import CardNight, token_shaped
from scorekeep.web import access, throttle
from scorekeep.web.flash import later
from scorekeep.web.forms import SignUpForm, ThrottledAuthenticationForm, throttled
from scorekeep.web.qr import qr_svg  # the links page's QR codes


class ThrottledPasswordResetView(PasswordResetView):
    """Django's password reset, sending at most a few mails per address (each costs the site a mail)."""

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        try:
            throttle.count("reset", {f"ip:{throttle.client_address(self.request)}": throttle.RESET_LIMIT})
        except throttle.Throttled as refused:
            form.add_error(None, throttle.wait_message(refused.wait))
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        return super().form_valid(form)


class ThrottledLoginView(LoginView):
    form_class = ThrottledAuthenticationForm
    redirect_authenticated_user = True

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        if throttled(form):
            response.status_code = 429
        return response


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return HttpResponseRedirect(reverse("nights"))
    form = SignUpForm(request.POST or None)
    if request.method == "POST":
        try:
            counted = throttle.count("signup", {f"ip:{throttle.client_address(request)}": throttle.LOGIN_LIMIT})
        except throttle.Throttled as refused:
            form.add_error(None, throttle.wait_message(refused.wait))
            return render(request, "registration/signup.html", {"form": form}, status=429)
        if form.is_valid():
            user = form.save()  # a sign-up counts
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, later(gettext_noop("Welcome, %(name)s. Start your first card night."),
                                            name=user.get_username()))
            return HttpResponseRedirect(reverse("night-new"), status=303)
        counted.undo()  # a form sent back to be corrected does not
    return render(request, "registration/signup.html", {"form": form})


def join(request: HttpRequest, token: str) -> HttpResponse:
    """A scorer or viewer link, opened (from the QR code on the table): remember it, go to the night."""
    try:
        counted = throttle.count("token", {f"ip:{throttle.client_address(request)}": throttle.TOKEN_LIMIT})
    except throttle.Throttled as refused:
        return render(request, "join_refused.html", {"message": throttle.wait_message(refused.wait)}, status=429)
    found = access.by_token(token) if token_shaped(token) else None
    if found is None:  # a wrong token stays counted
        return render(request, "join_refused.html", {"message": gettext(
            "This link does not open a card night. It may have been replaced by a new one: ask the host for "
            "the current link or QR code.")}, status=404)
    counted.undo()
    night, granted = found
    access.grant(request, night, granted)
    tables = list(night.tables.values_list("number", flat=True))
    # A scorer of a one-table night goes straight to the table.
    if granted == access.SCORE and len(tables) == 1:
        return HttpResponseRedirect(reverse("table", args=[night.pk, tables[0]]), status=303)
    return HttpResponseRedirect(reverse("night", args=[night.pk]), status=303)


def _links(request: HttpRequest, night: CardNight) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for which, token, label, help_text in (
        (access.SCORE, night.scorer_token, _("Scorer link"),
         _("Whoever opens it may enter, correct and delete deals. Give it to the people keeping score.")),
        (access.VIEW, night.viewer_token, _("Viewer link"),
         _("Whoever opens it sees the ledger live, but cannot change anything.")),
    ):
        url = request.build_absolute_uri(reverse("join", args=[token]))
        out.append({"which": which, "url": url, "label": label, "help": help_text, "qr": qr_svg(url)})
    return out


@access.night_access(access.HOST)
def night_links(request: HttpRequest, night_id: int) -> HttpResponse:
    """The host's page of the night's links and QR codes (printable as a table card)."""
    night = get_object_or_404(CardNight, pk=night_id)
    return render(request, "nights/night_links.html", {"night": night, "links": _links(request, night)})


@require_POST
@access.night_access(access.HOST)
def night_links_renew(request: HttpRequest, night_id: int) -> HttpResponse:
    night = get_object_or_404(CardNight, pk=night_id)
    which = request.POST.get("which")
    if which not in (access.SCORE, access.VIEW):
        messages.error(
            request, later(gettext_noop("Choose which link to replace: the scorer link or the viewer link.")))
    else:
        access.renew_link(night, which)
        messages.success(request, format_html("{}", gettext(
            "A new scorer link was made; the old one no longer works." if which == access.SCORE
            else "A new viewer link was made; the old one no longer works.")))
    return HttpResponseRedirect(reverse("night-links", args=[night_id]), status=303)
