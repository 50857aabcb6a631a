"""Production settings: `manage.py check --deploy` is clean, and every page carries the
Content-Security-Policy and the hardening headers."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client

REPO = Path(__file__).resolve().parent.parent


def test_check_deploy_is_clean_under_production_settings(tmp_path: Path) -> None:
    # As a server is started: not with the browser tests' DJANGO_ALLOW_ASYNC_UNSAFE (tests/browser/conftest.py).
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update({"SCOREKEEP_DEBUG": "0", "SCOREKEEP_SECRET_KEY": secrets.token_urlsafe(50),
                "SCOREKEEP_ALLOWED_HOSTS": "scores.example.org", "SCOREKEEP_STATIC_ROOT": str(tmp_path / "static")})
    # The README's order: collectstatic, then the check (which checks the static files were collected).
    collected = subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput"], cwd=REPO, env=env,
                               capture_output=True, text=True, timeout=120, check=False)
    assert collected.returncode == 0, collected.stderr
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


# --- the static files a production start serves (scorekeep.checks) ---------------------------------------------

MANIFEST_STORAGE = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}}


@pytest.fixture
def sources(tmp_path: Path) -> Iterator[Path]:
    """A copy of static/ as the project's static files, and STATIC_ROOT in the test's directory, with the manifest
    storage of production (DEBUG off): a test may change the copy and collect it."""
    import shutil

    from django.test import override_settings

    copy = tmp_path / "sources"
    shutil.copytree(REPO / "static", copy)
    with override_settings(DEBUG=False, STATICFILES_DIRS=[copy], STATIC_ROOT=tmp_path / "collected",
                           STORAGES=MANIFEST_STORAGE):
        yield copy


def collectstatic() -> None:
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)


def static_errors() -> list[str]:
    """What `manage.py check --deploy` says of the static files."""
    from django.core import checks

    return [error.msg for error in checks.run_checks(tags=[checks.Tags.staticfiles], include_deployment_checks=True)
            if error.id == "scorekeep.E001"]


def test_the_deploy_check_says_in_one_line_when_static_files_were_not_collected(sources: Path) -> None:
    [message] = static_errors()
    assert message.startswith("static files not collected: run manage.py collectstatic (no ")
    assert "staticfiles.json" in message and "\n" not in message
    collectstatic()
    assert static_errors() == []


def test_the_deploy_check_names_the_files_changed_or_added_since_collectstatic(sources: Path) -> None:
    collectstatic()
    assert static_errors() == []
    with (sources / "css" / "app.css").open("a") as style:
        style.write("\n.changed-after-collectstatic { color: red; }\n")
    [message] = static_errors()
    assert message == "static files changed since collectstatic: run manage.py collectstatic (css/app.css)"
    (sources / "js" / "added.js").write_text("/* new since collectstatic */\n")
    [message] = static_errors()
    # A file the manifest lacks is what answers 500 (the page names it): said first.
    assert message.startswith("static files not collected: run manage.py collectstatic (not in ")
    assert message.endswith(": js/added.js)")
    # collectstatic copies a file only when it is newer by whole seconds (Django drops the fraction); on a fast
    # machine the change above falls in the second of the first collectstatic (CI's preview run saw it).
    later = time.time() + 2
    os.utime(sources / "css" / "app.css", (later, later))
    collectstatic()
    assert static_errors() == []


def test_a_production_start_without_collected_static_files_stops_saying_so_in_one_line(tmp_path: Path) -> None:
    """Importing the WSGI application (what gunicorn's workers do) stops with exit status 3, gunicorn's "worker
    failed to boot", so the master stops as well; one line, no traceback."""
    env = production(SCOREKEEP_SECRET_KEY=secrets.token_urlsafe(50), SCOREKEEP_STATIC_ROOT=str(tmp_path / "none"),
                     DJANGO_SETTINGS_MODULE="scorekeep.settings")
    done = subprocess.run([sys.executable, "-c", "import scorekeep.wsgi"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 3
    assert done.stderr.splitlines() == [
        f"scorekeep: static files not collected: run manage.py collectstatic (no {tmp_path / 'none'}/staticfiles.json)"]
