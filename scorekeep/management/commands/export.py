"""``manage.py export [--output FILE]``: all of scorekeep's data as one JSON backup.

What is in it: every model of the scorekeep app, taken from the app registry (so a model or field
added later is in the next backup without a change here), the user accounts (password hashes
included: the hosts log in with them after a restore) and the user groups. Permissions and content
types are not copied but named by natural key (``["add_cardnight", "scorekeep", "cardnight"]``):
``migrate`` creates them, with ids that differ between databases. Sessions, the admin log and the
content types themselves are not data: they are left out, and so are the throttles' counts of recent
log-in attempts (`scorekeep.models.Attempt`).

The file (read back by ``manage.py import``) is a JSON object, one record a line:

    {"format": "scorekeep-backup", "format_version": 1, "exported_at": "…", "migrations": {…}, "objects": [
    {"model": "auth.group", "pk": 1, "fields": {"name": "…", "permissions": [[…]]}},
    {"model": "scorekeep.cardnight", "pk": 7, "fields": {…}},
    …
    ]}

``objects`` are Django's serializer records with their ids, each after the records it refers to;
``migrations`` lists the migrations applied to the exported apps, so an import can tell a backup of
a newer scorekeep. Datetimes keep their microseconds (Django's JSON encoder would cut them to
milliseconds), so a backup restores exactly what was stored.

All records are read in one transaction (on PostgreSQL a repeatable-read snapshot), so the backup
is consistent while phones keep scoring. ``--output`` writes to a temporary file beside FILE and
renames it when complete: a crash never leaves half a backup under FILE. The file is readable only
by its owner, since it holds password hashes.
"""

from __future__ import annotations

import datetime
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import islice
from pathlib import Path
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core import serializers
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeep.models import Attempt

FORMAT = "scorekeep-backup"
FORMAT_VERSION = 1  # raised when the envelope changes in a way an older import cannot read
APP = "scorekeep"
BATCH = 500  # records serialized at a time, so a large table never sits in memory whole


def backed_up_models() -> list[type[Model]]:
    """The models a backup holds, each after the models it refers to."""
    found: list[type[Model]] = [Group, get_user_model()]
    for model in apps.get_app_config(APP).get_models():
        # The throttles' counts are no card night's data, but who guessed what in the last 15 minutes,
        # from which address: a restore must neither bring them back nor refuse a database that has them.
        if model is Attempt:
            continue
        if model not in found and not model._meta.proxy and model._meta.managed:
            found.append(model)
    return in_dependency_order(found)


def _refers_to(model: type[Model]) -> set[type[Model]]:
    return {field.related_model for field in model._meta.get_fields()
            if field.concrete and field.is_relation and isinstance(field.related_model, type)  # not None, not "self"
            and field.related_model is not model}


def in_dependency_order(models: list[type[Model]]) -> list[type[Model]]:
    """`models` with each after those among them it points to (foreign keys, many-to-many), otherwise
    in the given order: natural keys are looked up while importing, so their targets must be there."""
    ordered: list[type[Model]] = []
    remaining = list(models)
    while remaining:
        ready = [model for model in remaining
                 if all(target in ordered or target not in models for target in _refers_to(model))]
        if not ready:  # a cycle: constraints are checked at the end of the import, any order loads
            ready = remaining[:1]
        ordered.extend(ready)
        remaining = [model for model in remaining if model not in ready]
    return ordered


def applied_migrations(models: Iterable[type[Model]]) -> dict[str, list[str]]:
    """The migrations applied to the apps of `models`, per app label, in name order."""
    labels = {model._meta.app_label for model in models}
    applied: dict[str, list[str]] = {label: [] for label in sorted(labels)}
    for app, name in MigrationRecorder(connection).applied_migrations():
        if app in applied:
            applied[app].append(name)
    return {label: sorted(names) for label, names in applied.items()}


class BackupEncoder(DjangoJSONEncoder):
    """Django's encoder, but datetimes keep their microseconds (a backup is exact)."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime):
            text = o.isoformat()
            return text.removesuffix("+00:00") + "Z" if text.endswith("+00:00") else text
        return super().default(o)


def dumps(value: Any) -> str:
    return json.dumps(value, cls=BackupEncoder, ensure_ascii=False)


def records(model: type[Model]) -> Iterator[dict[str, Any]]:
    """The model's rows as serializer records, in id order, `BATCH` at a time."""
    rows = model._base_manager.order_by("pk").iterator(chunk_size=BATCH)
    while batch := list(islice(rows, BATCH)):
        yield from serializers.serialize("python", batch, use_natural_foreign_keys=True)


def write_backup(write: Callable[[str], Any]) -> dict[str, int]:
    """Write the backup piece by piece with `write`; the number of records per model label."""
    models = backed_up_models()
    envelope = {"format": FORMAT, "format_version": FORMAT_VERSION, "exported_at": timezone.now(),
                "migrations": applied_migrations(models)}
    write(dumps(envelope)[:-1] + ', "objects": [\n')
    counts: dict[str, int] = {}
    separator = ""
    for model in models:
        label = model._meta.label_lower
        counts[label] = 0
        for record in records(model):
            write(separator + dumps(record))
            separator = ",\n"
            counts[label] += 1
    write("\n]}\n")
    return counts


@contextmanager
def snapshot() -> Iterator[None]:
    """One transaction for every read; on PostgreSQL a repeatable-read snapshot (read committed, the
    default, would let a deal saved meanwhile appear without its revision)."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def summary(counts: dict[str, int]) -> str:
    return ", ".join(f"{count} {model._meta.verbose_name_plural if count != 1 else model._meta.verbose_name}"
                     for label, count in counts.items() if count
                     for model in [apps.get_model(label)])


class Command(BaseCommand):
    help = ("Write all data (card nights, players, user accounts and groups) as one JSON backup to standard "
            "output or --output FILE; `manage.py import` restores it.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output", "-o", metavar="FILE",
                            help="write the backup to FILE (replaced only once the backup is complete)")

    def handle(self, *args: Any, output: str | None = None, **options: Any) -> None:
        if output is None or output == "-":
            reconfigure = getattr(self.stdout, "reconfigure", None)
            if reconfigure is not None:
                reconfigure(encoding="utf-8")  # a backup is UTF-8 whatever the locale says
            with snapshot():
                counts = write_backup(lambda text: self.stdout.write(text, ending=""))
            self.stderr.write(_("Exported %(what)s.") % {"what": summary(counts) or _("nothing")})
            return
        target = Path(output)
        counts = self.write_file(target)
        self.stdout.write(_("Exported %(what)s to %(file)s.") % {"what": summary(counts) or _("nothing"),
                                                                  "file": target})

    def write_file(self, target: Path) -> dict[str, int]:
        """Write the backup to a temporary file beside `target`, then rename it to `target`."""
        try:
            fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".partial")
        except OSError as err:
            raise CommandError(_("cannot write %(file)s: %(reason)s") % {"file": target,
                                                                         "reason": err.strerror}) from None
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
                with snapshot():
                    counts = write_backup(out.write)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, target)
        except BaseException as err:
            Path(temporary).unlink(missing_ok=True)
            if isinstance(err, OSError):
                raise CommandError(_("cannot write %(file)s: %(reason)s") % {"file": target,
                                                                             "reason": err.strerror}) from None
            raise
        return counts
