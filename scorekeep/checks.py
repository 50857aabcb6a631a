"""Self-checks of a production start (`manage.py check --deploy`, and scorekeep.wsgi before it serves).

Static files: with DEBUG off the pages name each static file by the hashed name `collectstatic` wrote into
STATIC_ROOT's manifest (staticfiles.json), and WhiteNoise serves only what is there. A start without the
manifest, or with a file added or changed since `collectstatic` ran, would answer 500 (a name the manifest
lacks) or serve yesterday's script to today's page; the check says so in one line instead, naming the files.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.core import checks

RUN = "run manage.py collectstatic"
NAMED = 3  # the files a message names; the others are counted


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _listed(names: list[str]) -> str:
    more = f", and {len(names) - NAMED} more" if len(names) > NAMED else ""
    return ", ".join(names[:NAMED]) + more


def static_files_problem() -> str | None:
    """One line saying what is wrong with the collected static files, or None: all there and current, or a
    storage without a manifest (development serves static/ itself)."""
    if not isinstance(staticfiles_storage, ManifestFilesMixin):
        return None
    root = Path(settings.STATIC_ROOT)
    manifest = root / staticfiles_storage.manifest_name
    try:
        paths = json.loads(manifest.read_text(encoding="utf-8"))["paths"]
    except FileNotFoundError:
        return f"static files not collected: {RUN} (no {manifest})"
    except (OSError, ValueError, KeyError, TypeError):
        return f"static files not collected: {RUN} ({manifest} is not a manifest collectstatic wrote)"
    missing: list[str] = []
    changed: list[str] = []
    seen: set[str] = set()
    ignore = apps.get_app_config("staticfiles").ignore_patterns
    for finder in finders.get_finders():
        for relative, storage in finder.list(ignore):
            prefix = getattr(storage, "prefix", None)
            name = f"{prefix}/{relative}" if prefix else relative
            if name in seen:  # as collectstatic does: the first finder's file is the one collected
                continue
            seen.add(name)
            hashed = paths.get(name)
            if not isinstance(hashed, str) or not (root / hashed).is_file() or not (root / name).is_file():
                missing.append(name)
                continue
            # collectstatic keeps each file under its own name beside the hashed copy (whose content differs
            # for a style sheet: its url()s are rewritten), so the source is compared with that copy.
            source = Path(storage.path(relative))
            collected = root / name
            if source.stat().st_size != collected.stat().st_size or _digest(source) != _digest(collected):
                changed.append(name)
    if missing:
        return f"static files not collected: {RUN} (not in {manifest}: {_listed(sorted(missing))})"
    if changed:
        return f"static files changed since collectstatic: {RUN} ({_listed(sorted(changed))})"
    return None


@checks.register(checks.Tags.staticfiles, deploy=True)
def check_static_files(**kwargs: object) -> list[checks.CheckMessage]:
    problem = static_files_problem()
    return [checks.Error(problem, id="scorekeep.E001")] if problem else []
