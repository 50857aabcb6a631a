"""`python manage.py resetlink NAME`: print a password-reset link for an account.

For a site that sends no e-mail: the owner hands the host this link (it works once, and for
PASSWORD_RESET_TIMEOUT, three days by default), exactly the link Django's reset mail would carry.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode


class Command(BaseCommand):
    help = "Print a one-time link that lets the account choose a new password."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="the account's user name")
        parser.add_argument("--base-url", default="http://127.0.0.1:8000",
                            help="where the site is served (default %(default)s)")

    def handle(self, *args: Any, name: str, base_url: str, **options: Any) -> None:
        user = get_user_model().objects.filter(username=name).first()
        if user is None:
            raise CommandError(f"there is no account named {name!r}")
        if not user.is_active:
            raise CommandError(f"the account {name!r} is deactivated; activate it in the admin first")
        path = reverse("password_reset_confirm", kwargs={"uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
                                                         "token": default_token_generator.make_token(user)})
        self.stdout.write(base_url.rstrip("/") + path)
