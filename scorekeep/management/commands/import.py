"""``manage.py import FILE [--replace]``: restore a backup written by ``manage.py export``.

The records keep their ids, so links to nights, tables and deals stay valid. A backup goes into a
database without card nights, players, users or groups (a row with an id the backup also has would
be overwritten); ``--replace`` deletes all of those first. Sessions are kept: a phone's link works
again only when the restored night has the token it opened (a different night under the same id
has other tokens), and a login only when the restored account has the same password hash. The
throttles' counts (`scorekeep.models.Attempt`) are neither in a backup nor deleted by ``--replace``.

Everything happens in one transaction: a file that does not fit leaves the database as it was.
What is refused, each with a one-line message and exit status 1: a file that cannot be read, is
not UTF-8 JSON or not a scorekeep backup; a backup format or a migration newer than this
scorekeep knows; a database that is not fully migrated; a record that does not fit (naming its
model, id and field). A backup from an older scorekeep is read with the fields added since at
their defaults (the migrations in between are not run on it), and the import says so.

Afterwards the id sequences are moved past the imported ids (PostgreSQL), so new rows do not
collide with restored ones.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterable
from typing import IO, Any, NoReturn

from django.core import serializers
from django.core.exceptions import FieldDoesNotExist, ObjectDoesNotExist, ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError, DeserializedObject
from django.db import DatabaseError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.models import AutoField, BigAutoField, Field, IntegerField, Model
from django.db.models.fields.related import RelatedField
from django.utils.translation import gettext as _

from scorekeep.api.contract_io import Refused, loads
from scorekeep.management.commands.export import (
    FORMAT,
    FORMAT_VERSION,
    applied_migrations,
    backed_up_models,
    in_dependency_order,
    summary,
)

Record = dict[str, Any]


def one_line(text: object) -> str:
    return " ".join(str(text).split())


def read_backup(file: str, stdin: IO[bytes]) -> dict[str, Any]:
    """The backup's envelope, checked: format, format version, migrations and a list of objects."""
    try:
        if file == "-":
            data = stdin.read()
        else:
            with open(file, "rb") as source:
                data = source.read()
    except OSError as err:
        raise CommandError(_("cannot read %(file)s: %(reason)s") % {"file": file, "reason": err.strerror}) from None
    name = _("standard input") if file == "-" else file
    try:
        backup = loads(data.decode("utf-8-sig"))  # the API's strict reader: no NaN, nesting or lone surrogates
    except UnicodeDecodeError as err:
        raise CommandError(_("%(file)s is not UTF-8 text (byte %(byte)s)") % {"file": name, "byte": err.start + 1}) \
            from None
    except json.JSONDecodeError as err:
        raise CommandError(_("%(file)s is not JSON: %(reason)s at line %(line)s, column %(column)s") % {
            "file": name, "reason": err.msg, "line": err.lineno, "column": err.colno}) from None
    except Refused as err:
        raise CommandError(_("%(file)s is not a backup scorekeep can read: %(reason)s") % {
            "file": name, "reason": err}) from None
    if not isinstance(backup, dict) or backup.get("format") != FORMAT:
        raise CommandError(_('%(file)s is not a scorekeep backup: it has no "format": "%(format)s" '
                             "(backups are written by manage.py export)") % {"file": name, "format": FORMAT})
    version = backup.get("format_version")
    if type(version) is not int or version < 1:
        raise CommandError(_('%(file)s has no valid "format_version" (a whole number from 1 to %(known)s)')
                           % {"file": name, "known": FORMAT_VERSION})
    if version > FORMAT_VERSION:
        raise CommandError(_("%(file)s was written by a newer scorekeep (backup format %(version)s; this one "
                             "reads format %(known)s): update scorekeep first") % {
            "file": name, "version": version, "known": FORMAT_VERSION})
    migrations = backup.get("migrations")
    if not isinstance(migrations, dict) or not all(
            isinstance(names, list) and all(isinstance(n, str) for n in names) for names in migrations.values()):
        raise CommandError(_('%(file)s has no valid "migrations": an object of app labels, each with a list '
                             "of migration names") % {"file": name})
    if not isinstance(backup.get("objects"), list):
        raise CommandError(_('%(file)s has no "objects" list') % {"file": name})
    return backup


def check_schema(migrations: dict[str, list[str]]) -> list[str]:
    """Refuse a backup of a newer schema, or a database not migrated; the migrations (``app.name``)
    this database has and the backup predates."""
    executor = MigrationExecutor(connection)
    loader = executor.loader
    known = set(loader.graph.nodes) | {old for migration in loader.replacements.values()
                                       for old in migration.replaces}
    for app, names in migrations.items():
        for name in names:
            if (app, name) not in known:
                raise CommandError(_("the backup comes from a newer scorekeep: its database has migration "
                                     "%(migration)s, unknown here; update scorekeep first")
                                   % {"migration": f"{app}.{name}"})
    if executor.migration_plan(loader.graph.leaf_nodes()):
        raise CommandError(_("the database is not fully migrated: run manage.py migrate first"))
    here = applied_migrations(backed_up_models())
    return [f"{app}.{name}" for app, names in here.items() for name in names
            if name not in migrations.get(app, [])]


def where(label: str, pk: object, field: str | None = None) -> str:
    return f"{label} {pk}" + (f", field {field}" if field else "")


TEXTS = {"CharField", "TextField", "EmailField", "SlugField", "URLField", "GenericIPAddressField", "FilePathField",
         "UUIDField", "DecimalField", "DateField", "DateTimeField", "TimeField", "DurationField"}
WHOLE_NUMBERS = {"AutoField", "BigAutoField", "SmallAutoField", "IntegerField", "BigIntegerField", "SmallIntegerField",
                 "PositiveIntegerField", "PositiveBigIntegerField", "PositiveSmallIntegerField"}


def json_kind(value: object) -> str:
    """What a JSON value is, in words."""
    if value is None:
        return _("null")
    if isinstance(value, bool):
        return _("true or false")
    if isinstance(value, int):
        return _("a whole number")
    if isinstance(value, float):
        return _("a number with a fraction")
    if isinstance(value, str):
        return _("a text")
    if isinstance(value, list):
        return _("a list")
    return _("an object")


def _model(field: Field[Any, Any]) -> type[Model]:
    """The model a relation points to: a class once the apps are loaded (never "self" or None then)."""
    model = field.related_model
    assert isinstance(model, type), field
    return model


def _is_id(field: Field[Any, Any], value: object) -> bool:
    """Whether `value` names a row of the field's model as the export writes it: its id, or its natural key
    (a list of texts: a user by name, a permission by codename, app and model)."""
    if isinstance(value, list):
        return bool(value) and all(isinstance(part, str) for part in value) \
            and hasattr(_model(field)._default_manager, "get_by_natural_key")
    target = _model(field)._meta.pk
    while isinstance(target, RelatedField):  # a primary key that is itself a foreign key
        target = target.target_field
    return type(value) is int if target.get_internal_type() in WHOLE_NUMBERS else isinstance(value, str)


def _check_type(field: Field[Any, Any], value: Any) -> None:
    """Raise ValidationError when `value` is not of the JSON type the export writes for the field: Django's
    deserializer would coerce it (a name {"a": [1, 2]} stored as the text "{'a': [1, 2]}", true as 1)."""
    if value is None and field.null and not field.many_to_many:
        return
    kind = field.get_internal_type()
    if field.many_to_many:
        ok = isinstance(value, list) and all(_is_id(field, item) for item in value)
    elif field.is_relation:
        ok = _is_id(field, value)
    elif kind == "BooleanField":
        ok = isinstance(value, bool)
    elif kind in WHOLE_NUMBERS:
        ok = type(value) is int
    elif kind == "FloatField":
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    elif kind in TEXTS:
        ok = isinstance(value, str)
    else:  # JSON: any JSON value is one (the rules check what the app keeps in it, e.g. a deal's facts)
        ok = True
    if not ok:
        raise ValidationError(_("must be %(expected)s, not %(found)s") % {"expected": _expected(field),
                                                                         "found": json_kind(value)})


def _expected(field: Field[Any, Any]) -> str:
    kind = field.get_internal_type()
    if field.many_to_many:
        return _("a list of ids (whole numbers) or natural keys (lists of texts)")
    if field.is_relation:
        return _("an id (a whole number) or a natural key (a list of texts)")
    if kind == "BooleanField":
        return _("true or false")
    if kind in WHOLE_NUMBERS:
        return _("a whole number")
    if kind == "FloatField":
        return _("a number")
    if kind in {"DateField", "DateTimeField", "TimeField"}:
        return _("a date or time written as a text")
    return _("a text")


def _holds_nul(value: object) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, list):
        return any(_holds_nul(item) for item in value)
    if isinstance(value, dict):
        return any(_holds_nul(key) or _holds_nul(item) for key, item in value.items())
    return False


def _check_value(field: Field[Any, Any], value: Any) -> None:
    """Raise ValidationError when `value` cannot be the field's (a natural key is checked when loaded)."""
    if _holds_nul(value):  # SQLite would store it; PostgreSQL refuses it, in a text and in JSON alike
        raise ValidationError(_("holds a NUL character, which no text may hold"))
    _check_type(field, value)
    if field.many_to_many:
        target = _model(field)._meta.pk
        for item in value:
            if not isinstance(item, list):
                target.to_python(item)
    elif value is not None and not (field.is_relation and isinstance(value, list)):
        field.to_python(value)


def check_records(objects: list[Any], models: list[type[Model]]) -> list[Record]:
    """The backup's records, each checked alone: a known model, an id, known fields, values that parse."""
    allowed = {model._meta.label_lower: model for model in models}
    seen: set[tuple[str, str]] = set()
    for number, record in enumerate(objects, start=1):
        if not (isinstance(record, dict) and isinstance(record.get("model"), str)
                and isinstance(record.get("fields"), dict)):
            raise CommandError(_('record %(n)s of the backup is not a record: an object with "model", "pk" and '
                                 '"fields"') % {"n": number})
        label = record["model"].lower()
        if label not in allowed:
            raise CommandError(_("record %(n)s of the backup is a %(model)s, which is not part of a scorekeep "
                                 "backup (allowed: %(allowed)s)") % {"n": number, "model": label,
                                                                     "allowed": ", ".join(allowed)})
        record["model"] = label  # app labels are case-sensitive to Django; "Scorekeep.Deal" is meant alike
        model = allowed[label]
        pk = record.get("pk")
        if isinstance(model._meta.pk, AutoField | BigAutoField | IntegerField) and pk is not None \
                and type(pk) is not int:  # true or 1.5 would be taken as 1
            raise CommandError(_("record %(n)s (%(model)s) has an invalid id %(pk)s: ids are whole numbers") % {
                "n": number, "model": label, "pk": json.dumps(pk)})
        try:
            key = str(model._meta.pk.to_python(pk)) if pk is not None else None
        except ValidationError as err:
            raise CommandError(_("record %(n)s (%(model)s) has an invalid id %(pk)s: %(reason)s") % {
                "n": number, "model": label, "pk": json.dumps(pk), "reason": one_line(" ".join(err.messages))}) \
                from None
        if key is None:
            raise CommandError(_("record %(n)s (%(model)s) has no id (pk)") % {"n": number, "model": label})
        if (label, key) in seen:
            raise CommandError(_("%(record)s appears twice in the backup") % {"record": where(label, key)})
        seen.add((label, key))
        for name, value in record["fields"].items():
            try:
                field = model._meta.get_field(name)
            except FieldDoesNotExist:
                field = None
            if not isinstance(field, Field) or not field.concrete or field.primary_key:  # None, a reverse relation
                raise CommandError(_("%(record)s has a field %(field)s, which %(model)s does not have here") % {
                    "record": where(label, key), "field": json.dumps(name), "model": label})
            try:
                _check_value(field, value)
            except ValidationError as err:
                raise CommandError(f"{where(label, key, name)}: {one_line(' '.join(err.messages))}") from None
    return objects


def refuse_unless_empty(models: Iterable[type[Model]]) -> None:
    counts = {model._meta.label_lower: model._base_manager.count() for model in models}
    if any(counts.values()):
        raise CommandError(_("the database already holds %(what)s: import restores a backup into an empty "
                             "database; --replace deletes all of it first") % {"what": summary(counts)})


def wipe(models: list[type[Model]]) -> None:
    """Delete every row of `models`: those that point to others first, so nothing protected is in the way."""
    for model in reversed(in_dependency_order(models)):
        model._base_manager.all().delete()


def load(records: list[Record]) -> Counter[str]:
    """Save every record with its id; the number of records per model label."""
    deferred: list[tuple[str, DeserializedObject]] = []
    counts: Counter[str] = Counter()
    for record in records:
        label, pk = record["model"], record["pk"]
        try:
            (obj,) = serializers.deserialize("python", [record], handle_forward_references=True)
        except DeserializationError as err:
            raise CommandError(f"{where(label, pk)}: {one_line(err)}") from None
        relations = [field.name for field in obj.object._meta.fields if field.is_relation]
        try:
            obj.object.clean_fields(exclude=relations)
        except ValidationError as err:
            field, messages = next(iter(err.message_dict.items()))
            raise CommandError(f"{where(label, pk, field)}: {one_line(' '.join(messages))}") from None
        try:
            obj.save()
        except DatabaseError as err:
            raise CommandError(_("%(record)s does not fit: %(reason)s") % {"record": where(label, pk),
                                                                          "reason": one_line(err)}) from None
        if obj.deferred_fields:
            deferred.append((label, obj))
        counts[label] += 1
    for label, obj in deferred:
        fields = ", ".join(field.name for field in obj.deferred_fields)
        try:
            obj.save_deferred_fields()
        except (DeserializationError, ObjectDoesNotExist) as err:
            raise CommandError(f"{where(label, obj.object.pk, fields)}: {one_line(err)}") from None
    return counts


def with_through(models: list[type[Model]]) -> list[type[Model]]:
    """`models` and the tables of their many-to-many fields (a user's groups and permissions)."""
    return [*models, *(through for model in models for field in model._meta.local_many_to_many
                       if (through := field.remote_field.through) is not None)]


def check_references(models: list[type[Model]]) -> None:
    """Refuse a foreign key pointing to no row, naming the record and field (the database checks only
    at commit, on SQLite in words that name neither)."""
    for model in models:
        for field in model._meta.fields:
            if not isinstance(field, RelatedField):  # the concrete relations: foreign keys, one-to-one
                continue
            target = _model(field)._base_manager.values(field.target_field.attname)
            dangling = (model._base_manager.filter(**{f"{field.attname}__isnull": False})
                        .exclude(**{f"{field.attname}__in": target}).values_list("pk", field.attname).first())
            if dangling is not None:
                pk, value = dangling
                raise CommandError(_("%(record)s: there is no %(target)s %(value)s in the backup") % {
                    "record": where(model._meta.label_lower, pk, field.name),
                    "target": _model(field)._meta.label_lower, "value": value})
    try:
        connection.check_constraints(table_names=[model._meta.db_table for model in with_through(models)])
    except DatabaseError as err:
        raise CommandError(_("a record does not fit: %(reason)s") % {"reason": one_line(err)}) from None


def rejudge() -> None:
    """Judge every imported deal again: a verdict is derived from the facts, so the file's verdicts are
    not taken on trust (one that is not a verdict would break every page of its night); a deal the rules
    refuse is refused, naming it."""
    from scorekeep.models import CardTable
    from scorekeep.nights import ledger

    for table in CardTable.objects.select_related("night"):
        try:
            ledger.recompute(table)
        except ledger.LedgerError as err:
            raise CommandError(_("deal %(number)s of table %(table)s of card night %(night)s: %(reason)s") % {
                "number": err.number, "table": table.number, "night": table.night_id,
                "reason": one_line(err.error)}) from None


def reset_sequences(models: list[type[Model]]) -> None:
    """Move the id sequences past the imported ids (PostgreSQL; SQLite's follow by themselves)."""
    statements = connection.ops.sequence_reset_sql(no_style(), with_through(models))
    if statements:
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)


class Command(BaseCommand):
    stealth_options = ("stdin",)  # call_command(..., stdin=BytesIO(...)) in tests
    help = ("Restore a backup written by `manage.py export` (FILE, or - for standard input) into a database "
            "without card nights, players or users; --replace deletes those first.")

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        if parser.called_from_command_line:
            # argparse prints the whole usage block before its message; one line says it better.
            def usage_error(message: str) -> NoReturn:
                parser.exit(2, f"{parser.prog}: {message} (usage: {parser.prog} [--replace] FILE; see --help)\n")

            parser.error = usage_error  # type: ignore[method-assign]  # this one parser's error, on purpose
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE", help="the backup; - reads standard input")
        parser.add_argument("--replace", action="store_true",
                            help="delete every card night, player, user account and group first")

    def handle(self, *args: Any, file: str, replace: bool, stdin: IO[bytes] | None = None, **options: Any) -> None:
        backup = read_backup(file, stdin if stdin is not None else sys.stdin.buffer)
        models = backed_up_models()
        predates = check_schema(backup["migrations"])
        records = check_records(backup["objects"], models)
        with transaction.atomic():
            if replace:
                wipe(models)
            else:
                refuse_unless_empty(models)
            counts = load(records)
            check_references(models)
            rejudge()
            reset_sequences(models)
        imported = {model._meta.label_lower: counts[model._meta.label_lower] for model in models}
        self.stdout.write(_("Imported %(what)s (exported %(when)s).") % {
            "what": summary(imported) or _("nothing"), "when": backup.get("exported_at", "?")})
        if predates:
            self.stdout.write(_("The backup predates %(migrations)s: fields added since have their defaults.")
                              % {"migrations": ", ".join(predates)})
