#!/usr/bin/env python
"""Django's command-line utility for scorekeep."""
import os
import sys


def adjudicate_without_django(args: list[str]) -> int | None:
    """``manage.py adjudicate [--language LANG] [FILE]``: the command's work (`scorekeep.api.jsonlines`) without
    starting Django, which a filter with no database or templates does not need (it cost a third of a
    second before the first line); another language is read from its compiled catalogue with Python's own
    gettext. The exit status, or None to leave it to Django: any other option (``--help``, ``-v``,
    ``--settings`` …), a language the site does not offer, more than one file, or a file that cannot be
    opened, which the management command refuses in its own words."""
    language, args = _language_option(args)
    if language is None or len(args) > 1 or any(arg.startswith("-") and arg != "-" for arg in args):
        return None
    import importlib

    # The settings' own refusals stand for this command too (no secret key with DEBUG off).
    settings = importlib.import_module(os.environ["DJANGO_SETTINGS_MODULE"])
    from scorekeep.api.jsonlines import CannotRead, NoCatalogue, in_language, run

    if language not in {code for code, _ in settings.LANGUAGES}:
        return None
    try:
        adjudicate = in_language(language, settings.LOCALE_PATHS)
        if not args or args[0] == "-":
            return run(sys.stdin.buffer, "standard input", sys.stdout, adjudicate)
        try:
            source = open(args[0], "rb")
        except OSError:
            return None
        with source:
            return run(source, args[0], sys.stdout, adjudicate)
    except (CannotRead, NoCatalogue) as err:
        print(f"CommandError: {err}", file=sys.stderr)
        return 2


def _language_option(args: list[str]) -> tuple[str | None, list[str]]:
    """``--language LANG`` or ``--language=LANG`` taken out of `args`: (LANG, the other args); "en" when it
    is absent, None when it is given twice or without a value (Django's parser says what is wrong)."""
    rest: list[str] = []
    given: list[str] = []
    words = iter(args)
    for arg in words:
        if arg == "--language":
            value = next(words, None)
            if value is None:
                return None, args
            given.append(value)
        elif arg.startswith("--language="):
            given.append(arg.removeprefix("--language="))
        else:
            rest.append(arg)
    if len(given) > 1:
        return None, args
    return (given[0] if given else "en"), rest


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
