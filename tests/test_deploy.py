"""Production settings: `manage.py check --deploy` is clean, and every page carries the
Content-Security-Policy and the hardening headers."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

REPO = Path(__file__).resolve().parent.parent


def test_check_deploy_is_clean_under_production_settings() -> None:
    # As a server is started: not with the browser tests' DJANGO_ALLOW_ASYNC_UNSAFE (tests/browser/conftest.py).
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update({"SCOREKEEP_DEBUG": "0", "SCOREKEEP_SECRET_KEY": secrets.token_urlsafe(50),
                "SCOREKEEP_ALLOWED_HOSTS": "scores.example.org"})
    done = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


@pytest.mark.django_db
def test_pages_carry_the_content_security_policy() -> None:
    response = Client().get("/")
    policy = response["Content-Security-Policy"]
    for directive in ("default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'",
                      "object-src 'none'"):
        assert directive in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert response["X-Frame-Options"] == "DENY" and response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


def test_no_template_has_inline_script_or_style() -> None:
    """Under the policy an inline script, handler or style attribute would silently not work."""
    import re

    offenders = []
    for path in (REPO / "templates").rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        if re.search(r"<script(?![^>]*\bsrc=)[^>]*>|\son[a-z]+=\"|\sstyle=\"", text):
            offenders.append(path.name)
    assert not offenders


def production(**more: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "SCOREKEEP_SECRET_KEY")}
    env.update({"SCOREKEEP_DEBUG": "0", "SCOREKEEP_ALLOWED_HOSTS": "scores.example.org", **more})
    return env


@pytest.mark.parametrize("key", [None, "", "   "])
def test_without_a_secret_key_production_refuses_to_start_saying_what_to_set(key: str | None) -> None:
    env = production() if key is None else production(SCOREKEEP_SECRET_KEY=key)
    done = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0
    assert "SCOREKEEP_SECRET_KEY must be set" in done.stderr and "Traceback" not in done.stderr


def test_the_language_cookie_is_secure_in_production() -> None:
    code = "from django.conf import settings; print(settings.LANGUAGE_COOKIE_SECURE)"
    done = subprocess.run([sys.executable, "-c", f"import django; django.setup(); {code}"], cwd=REPO,
                          env=production(SCOREKEEP_SECRET_KEY=secrets.token_urlsafe(50),
                                         DJANGO_SETTINGS_MODULE="scorekeep.settings"),
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.stdout.strip() == "True", done.stderr
