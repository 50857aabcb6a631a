"""The accounts' forms: sign-up, and the log-in forms (the site's and the admin's) with their throttle."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from scorekeep.web import throttle
from scorekeep.web.throttle import ACCOUNT_LIMIT, LOGIN_LIMIT, wait_message


class ThrottleLogins:
    """Refuse further log-ins after too many wrong passwords: from one address (for one account or for
    all), and for one account from all addresses together at a far higher count — so guessing costs
    hours, while someone guessing a host's name from elsewhere does not lock the host out."""

    data: Any
    request: HttpRequest | None

    def clean(self) -> dict[str, Any]:
        name = str(self.data.get("username", "")).strip().casefold()[:150]
        address = throttle.client_address(self.request) if self.request else ""
        try:
            # Counted before the password is checked: attempts at the same moment cannot pass the limit.
            counted = throttle.count("login", {f"ip:{address}": LOGIN_LIMIT, f"user:{name}": ACCOUNT_LIMIT})
        except throttle.Throttled as refused:
            raise forms.ValidationError(wait_message(refused.wait), code="throttled") from None
        cleaned: dict[str, Any] = super().clean()  # type: ignore[misc]  # a wrong password stays counted
        counted.undo()
        return cleaned


class ThrottledAuthenticationForm(ThrottleLogins, AuthenticationForm):
    """Django's log-in form, throttled."""


class ThrottledAdminAuthenticationForm(ThrottleLogins, AdminAuthenticationForm):
    """The admin's log-in form, throttled alike: the same accounts, the same counts."""


def throttled(form: forms.Form) -> bool:
    """Whether a log-in form was refused by the throttle (`ThrottleLogins`): then the answer is 429."""
    return form.is_bound and any(error.code == "throttled" for error in form.errors.as_data().get("__all__", []))


class SignUpForm(UserCreationForm[User]):
    email = forms.EmailField(label=_("E-mail (for a password reset; optional)"), required=False)

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc]  # the stubs leave Django's Meta out
        fields = ("username", "email")
