"""``manage.py adjudicate [FILE]``: the adjudication contract on the command line.

Reads JSON Lines (one request a line; blank lines skipped) or one JSON object that may span
several lines, from FILE or standard input, and writes one compact JSON verdict a line to
standard output, in input order (shared/spec/ADJUDICATION.md). Exit 0 when every input was
adjudicated, 1 when at least one was rejected, 2 on a usage error.

It streams: each line is answered and flushed as soon as it is read, so a program can talk to it
line by line, and a long file never sits in memory.
"""

import json
import os
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any, NoReturn

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeep.api import Refused, adjudicate_safely, dumps, loads, rejection

JSON_LINES = "each line must be one JSON object (JSON Lines), or the whole input a single JSON object"


def _line_rejection(number: int, err: ValueError) -> dict[str, Any]:
    if isinstance(err, json.JSONDecodeError):
        return rejection(f"is not valid JSON (input line {number}): {err.msg} at column {err.colno}; "
                         f"{JSON_LINES}")
    return rejection(f"is not valid JSON for a request (input line {number}): {err}")


def _answer_line(number: int, line: bytes) -> dict[str, Any]:
    """The verdict for one line read on its own."""
    try:
        text = line.decode("utf-8").rstrip("\r\n")  # so a column past the end is still on this line
    except UnicodeDecodeError as err:
        return rejection(f"is not UTF-8 text (input line {number}, byte {err.start + 1}); {JSON_LINES}")
    try:
        return adjudicate_safely(loads(text))
    except ValueError as err:
        return _line_rejection(number, err)


def _unfinished(line: bytes) -> bool:
    """True when `line` alone is the start of a JSON value that continues on the next lines."""
    try:
        text = line.decode("utf-8").removeprefix("\ufeff")
        loads(text)
    except json.JSONDecodeError as err:
        return err.pos >= len(text.rstrip())
    except ValueError:
        return False
    return False


def verdicts(lines: Iterable[bytes]) -> Iterator[dict[str, Any]]:
    """One verdict (or rejection) per request in `lines`, in order, each as soon as it is read.

    The first non-blank line decides the format. If it is a JSON value on its own, or broken
    inside the line, the input is JSON Lines and every line stands alone. If it is the unfinished
    start of a value (the ``{`` of a pretty-printed object), the rest is read and the whole text
    taken as one request; if it is not valid JSON as a whole either, every line is answered on its
    own after all, so a truncated first line among good ones costs only its own verdict.
    """
    numbered: Iterator[tuple[int, bytes]] = enumerate(lines, 1)
    for number, line in numbered:
        if not line.strip():
            continue
        if not _unfinished(line):
            yield _answer_line(number, line)
            break
        rest = [(number, line), *numbered]
        try:
            request = loads(b"".join(part for _, part in rest).decode("utf-8"))
        except UnicodeDecodeError:
            broken = None
        except json.JSONDecodeError as err:
            broken = err
        except Refused as err:
            yield rejection(f"is not valid JSON for a request: {err}")
            return
        else:
            yield adjudicate_safely(request)
            return
        numbered = iter(rest)
        number, line = next(numbered)
        answer = _answer_line(number, line)
        if broken is not None and broken.lineno > 1:
            where = f"line {number + broken.lineno - 1}, column {broken.colno}: {broken.msg}"
            answer["errors"][0]["message"] += f" (read as one JSON object, it breaks at {where})"
        yield answer
        break
    for number, line in numbered:
        if line.strip():
            yield _answer_line(number, line)


class Command(BaseCommand):
    help = ("Adjudicate deals per the adjudication contract: reads JSON Lines (or one JSON object) from FILE "
            "or standard input, writes one JSON verdict a line. Exit 0: all adjudicated; 1: at least one "
            "rejected; 2: usage error.")
    requires_system_checks: list[str] = []  # a filter in a pipeline; no database, nothing to check
    stealth_options = ("stdin",)  # call_command(..., stdin=BytesIO(...)) in tests

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        if parser.called_from_command_line:
            # argparse prints the whole usage block before its message; one line says it better.
            def usage_error(message: str) -> NoReturn:
                parser.exit(2, f"{parser.prog}: {message} (usage: {parser.prog} [FILE]; see --help)\n")

            parser.error = usage_error
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", metavar="FILE",
                            help="JSON Lines or one JSON object to adjudicate; standard input if absent or -")

    def handle(self, *args: Any, file: str | None = None, stdin: IO[bytes] | None = None,
               **options: Any) -> None:
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
        reconfigure = getattr(self.stdout, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8")  # JSON Lines are UTF-8 whatever the locale says
        rejected = False
        try:
            for answer in verdicts(source):
                rejected = rejected or answer["ok"] is False
                self.stdout.write(dumps(answer))
                self.stdout.flush()
        except BrokenPipeError:
            # The reader went away (`| head`): stop quietly, and keep Python's exit-time flush quiet too.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)
        except KeyboardInterrupt:
            sys.exit(130)
        except OSError as err:
            raise CommandError(f"cannot read {name}: {err.strerror}", returncode=2) from None
        if rejected:
            sys.exit(1)
