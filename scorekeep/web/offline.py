"""The pieces that let a scorer's phone keep working when the club's Wi-Fi drops: the service worker
(`/sw.js`, scope "/") and what it keeps.

The worker is a template, so it knows the app shell by the names the static files have here (hashed in
production); its version is a digest of those files' contents, so any change to a script or a style installs
a new worker, which fetches the shell anew and drops the old caches. What the page keeps itself (the outbox
of deals not sent yet, the draft, the entry form of each contract) is in IndexedDB, written by
static/js/offline.js; docs/ARCHITECTURE.md describes both.
"""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.template.loader import get_template, render_to_string
from django.templatetags.static import static
from django.views.decorators.http import require_safe

# The app shell: what every scorer's page loads, kept by the worker when it installs.
SHELL = (
    "css/app.css", "css/nights.css", "css/table.css", "css/access.css", "css/settlement.css",
    "vendor/htmx/htmx.min.js", "vendor/idb-keyval/idb-keyval.umd.js", "js/app.js", "js/offline.js",
    "manifest.webmanifest", "icons/icon-192.png", "icons/icon-512.png", "icons/icon.svg",
)


def _digest() -> str:
    """A digest of the shell's contents and of the worker's own source: the worker's version."""
    digest = hashlib.sha256(get_template("sw.js").template.source.encode())  # type: ignore[attr-defined]
    for name in SHELL:
        found = finders.find(name)
        if isinstance(found, str):
            with open(found, "rb") as file:
                digest.update(file.read())
        else:  # only the collected copy is there: its hashed name stands for its content
            digest.update(static(name).encode())
    return digest.hexdigest()[:16]


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, from the site's own origin so that its scope is the whole site. Never cached by
    HTTP: the browser checks it on each visit and installs a new version when the shell changed."""
    # The prefix is STATIC_URL itself, not `static("")`: the manifest storage of production knows only files,
    # and refuses the empty name (a 500, and no phone kept a deal offline).
    body = render_to_string("sw.js", {"version": _digest(), "shell": json.dumps([static(name) for name in SHELL]),
                                      "static_prefix": settings.STATIC_URL})
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response
