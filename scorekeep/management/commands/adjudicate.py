"""``manage.py adjudicate [FILE]``: the adjudication contract on the command line.

Reads JSON Lines (one request a line; blank lines skipped) or one JSON object that may span
several lines, from FILE or standard input, and writes one compact JSON verdict a line to
standard output, in input order (shared/spec/ADJUDICATION.md). Exit 0 when every input was
adjudicated, 1 when at least one was rejected, 2 on a usage error. ``--language de`` (or ``ja``) writes
the explanation lines and rejection messages in that language; the JSON keys, field paths and codes stay
as the contract has them, and English (the default) is the contract's text itself.

It streams: each line is answered as soon as it is read, and flushed whenever the input read so far
is used up, so a program can talk to it line by line, and a long file never sits in memory.

The work is `scorekeep.api.jsonlines`, which needs no Django: ``manage.py adjudicate [FILE]`` with no
option but ``--language`` runs it without starting Django at all (manage.py); this command runs it for
the other options (``--help``, ``-v``, ``--settings`` …), for a usage error and for `call_command`.
"""

import sys
from typing import IO, Any, NoReturn

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeep.api.jsonlines import Adjudicate, CannotRead, NoCatalogue, in_language, run


class Command(BaseCommand):
    help = ("Adjudicate deals per the adjudication contract: reads JSON Lines (or one JSON object) from FILE "
            "or standard input, writes one JSON verdict a line. Exit 0: all adjudicated; 1: at least one "
            "rejected; 2: usage error.")
    requires_system_checks: list[str] = []  # a filter in a pipeline; no database, nothing to check
    stealth_options = ("stdin",)  # call_command(..., stdin=BytesIO(...)) in tests
    judge: Adjudicate

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        if parser.called_from_command_line:
            # argparse prints the whole usage block before its message; one line says it better.
            def usage_error(message: str) -> NoReturn:
                parser.exit(2, f"{parser.prog}: {message} (usage: {parser.prog} [--language LANG] [FILE]; "
                               "see --help)\n")

            parser.error = usage_error  # type: ignore[method-assign]  # this one parser's error, on purpose
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", metavar="FILE",
                            help="JSON Lines or one JSON object to adjudicate; standard input if absent or -")
        parser.add_argument("--language", default="en", choices=[code for code, _ in settings.LANGUAGES],
                            help="the language of the explanation lines and rejection messages (default en, the "
                                 "contract's English); the JSON keys and codes stay as the contract has them")

    def handle(self, *args: Any, file: str | None = None, stdin: IO[bytes] | None = None,
               language: str = "en", **options: Any) -> None:
        try:
            self.judge = in_language(language, settings.LOCALE_PATHS)
        except NoCatalogue as err:
            raise CommandError(str(err), returncode=2) from None
        if file is None or file == "-":
            self.adjudicate(stdin if stdin is not None else sys.stdin.buffer, "standard input")
            return
        try:
            source = open(file, "rb")
        except OSError as err:
            raise CommandError(f"cannot read {file}: {err.strerror}", returncode=2) from None
        with source:
            self.adjudicate(source, file)

    def adjudicate(self, source: IO[bytes], name: str) -> None:
        """Write a verdict line for each request in `source`; exit 1 if any was rejected."""
        try:
            status = run(source, name, self.stdout, self.judge)
        except CannotRead as err:
            raise CommandError(str(err), returncode=2) from None
        if status:
            sys.exit(status)
