"""``manage.py adjudicate``'s work: JSON Lines (or one JSON object) in, one verdict a line out.

Reads JSON Lines (one request a line; blank lines skipped) or one JSON object that may span several
lines, and writes one compact JSON verdict a line, in input order (shared/spec/ADJUDICATION.md).

It streams: a line is answered as soon as it is read, and the answers are flushed whenever the input
read so far is used up — so a program talking to it line by line gets each verdict at once, while a
file is answered in batches of a chunk's lines (one write instead of one per line), and never sits in
memory whole.

No Django here: ``manage.py adjudicate [FILE]`` runs `run` without starting Django (see manage.py);
the management command (`scorekeep.management.commands.adjudicate`) runs the same code for its
options and for `call_command`.
"""

import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from io import TextIOBase  # a management command's stdout (Django's OutputWrapper)
from typing import IO, Any

from scorekeep.api.contract_io import Refused, Translation, adjudicate_safely, adjudicating_in, dumps, loads, rejection

Adjudicate = Callable[[object], dict[str, Any]]

JSON_LINES = "each line must be one JSON object (JSON Lines), or the whole input a single JSON object"
CHUNK = 64 * 1024
"""Bytes read at a time: about a hundred requests."""
BATCH = 1024
"""Answers written at most in one go, however much input is waiting."""


def _line_rejection(number: int, err: ValueError) -> dict[str, Any]:
    if isinstance(err, json.JSONDecodeError):
        return rejection(f"is not valid JSON (input line {number}): {err.msg} at column {err.colno}; "
                         f"{JSON_LINES}")
    return rejection(f"is not valid JSON for a request (input line {number}): {err}")


def _answer_line(number: int, line: bytes, adjudicate: Adjudicate) -> dict[str, Any]:
    """The verdict for one line read on its own."""
    try:
        text = line.decode("utf-8").rstrip("\r\n")  # so a column past the end is still on this line
    except UnicodeDecodeError as err:
        return rejection(f"is not UTF-8 text (input line {number}, byte {err.start + 1}); {JSON_LINES}")
    try:
        return adjudicate(loads(text))
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


def verdicts(lines: Iterable[bytes], adjudicate: Adjudicate = adjudicate_safely) -> Iterator[dict[str, Any]]:
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
            yield _answer_line(number, line, adjudicate)
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
            yield adjudicate(request)
            return
        numbered = iter(rest)
        number, line = next(numbered)
        answer = _answer_line(number, line, adjudicate)
        if broken is not None and broken.lineno > 1:
            where = f"line {number + broken.lineno - 1}, column {broken.colno}: {broken.msg}"
            answer["errors"][0]["message"] += f" (read as one JSON object, it breaks at {where})"
        yield answer
        break
    for number, line in numbered:
        if line.strip():
            yield _answer_line(number, line, adjudicate)


class Lines:
    """The lines of a binary stream as they arrive, each with its ``\\n`` (the last one may lack it), as
    iterating the stream gives them; `ready` counts the whole lines already read and not yet taken, so
    a writer knows when the next line may have to wait for the other end."""

    __slots__ = ("ready", "source")

    def __init__(self, source: IO[bytes]) -> None:
        self.source = source
        self.ready = 0

    def __iter__(self) -> Iterator[bytes]:
        read = getattr(self.source, "read1", None)
        if read is None:  # a stream that reads only whole lines: each one as it comes
            yield from self.source
            return
        tail: list[bytes] = []  # the start of a line not yet ended, in the chunks it came in
        while chunk := read(CHUNK):
            *whole, rest = chunk.split(b"\n")
            if whole:
                if tail:
                    whole[0] = b"".join((*tail, whole[0]))
                    tail = []
                self.ready = len(whole)
                for line in whole:
                    self.ready -= 1
                    yield line + b"\n"
            if rest:
                tail.append(rest)
        if tail:
            yield b"".join(tail)


def answer(source: IO[bytes], write: Callable[[str], object], flush: Callable[[], object],
           adjudicate: Adjudicate = adjudicate_safely) -> bool:
    """Write a verdict line for each request in `source` through `write`, flushing whenever the input read
    so far is answered; True when at least one was rejected."""
    lines = Lines(source)
    rejected = False
    batch: list[str] = []
    for verdict in verdicts(lines, adjudicate):
        if verdict["ok"] is False:
            rejected = True
        batch.append(dumps(verdict))
        if not lines.ready or len(batch) >= BATCH:
            batch.append("")  # so the join ends the last line too
            write("\n".join(batch))
            flush()
            batch.clear()
    if batch:
        batch.append("")
        write("\n".join(batch))
        flush()
    return rejected


def run(source: IO[bytes], name: str, out: IO[str] | TextIOBase, adjudicate: Adjudicate = adjudicate_safely) -> int:
    """Answer `source` (named `name` in a complaint) onto `out` through `adjudicate` (`in_language` for
    another language); the exit status (ADJUDICATION.md): 0 when every input was adjudicated, 1 when one
    was rejected (or the reader went away), 2 when `source` could not be read; 130 on Ctrl-C. A read
    error is said on standard error as Django says a `CommandError`."""
    reconfigure = getattr(out, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(encoding="utf-8")  # JSON Lines are UTF-8 whatever the locale says
    try:
        return 1 if answer(source, out.write, out.flush, adjudicate) else 0
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, and keep Python's exit-time flush quiet too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        return 130
    except OSError as err:
        raise CannotRead(f"cannot read {name}: {err.strerror}") from None


class CannotRead(OSError):
    """The input could not be read: a usage error (exit 2), said in one line."""


def in_language(language: str, localedirs: Iterable[str | os.PathLike[str]]) -> Adjudicate:
    """How ``--language`` adjudicates: English as the contract writes it (`adjudicate_safely`, the fast path,
    untouched), or the explanation lines and rejection messages through the compiled catalogue
    ``<localedir>/<language>/LC_MESSAGES/django.mo`` — Python's own gettext, so Django need not start.
    Raises `NoCatalogue` when no localedir has one."""
    if language == "en":
        return adjudicate_safely
    import gettext  # only here: English never needs it

    for localedir in localedirs:
        try:
            catalogue = gettext.translation("django", os.fspath(localedir), languages=[language])
        except OSError:
            continue
        return adjudicating_in(Translation(catalogue.gettext, catalogue.ngettext, pgettext=catalogue.pgettext))
    raise NoCatalogue(f"no compiled catalogue for --language {language}: run manage.py compiletranslations")


class NoCatalogue(OSError):
    """A language has no compiled catalogue (``.mo``): a usage error (exit 2), said in one line."""
