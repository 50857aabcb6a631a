#!/usr/bin/env python
"""Django's command-line utility for scorekeep."""
import os
import sys


def adjudicate_without_django(args: list[str]) -> int | None:
    """``manage.py adjudicate [FILE]`` with no option: the command's work (`scorekeep.jsonlines`) without
    starting Django, which a filter with no database, templates or translations does not need (it cost a
    third of a second before the first line). The exit status, or None to leave it to Django: any option
    (``--help``, ``-v``, ``--settings`` …), more than one file, or a file that cannot be opened, which
    the management command refuses in its own words."""
    if len(args) > 1 or any(arg.startswith("-") and arg != "-" for arg in args):
        return None
    import importlib

    # The settings' own refusals stand for this command too (no secret key with DEBUG off).
    importlib.import_module(os.environ["DJANGO_SETTINGS_MODULE"])
    from scorekeep.jsonlines import CannotRead, run

    try:
        if not args or args[0] == "-":
            return run(sys.stdin.buffer, "standard input", sys.stdout)
        try:
            source = open(args[0], "rb")
        except OSError:
            return None
        with source:
            return run(source, args[0], sys.stdout)
    except CannotRead as err:
        print(f"CommandError: {err}", file=sys.stderr)
        return 2


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeep.settings")
    if sys.argv[1:2] == ["adjudicate"]:
        status = adjudicate_without_django(sys.argv[2:])
        if status is not None:
            sys.exit(status)
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
