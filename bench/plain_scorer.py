"""The floor for ``manage.py adjudicate``: the same answers for a file of valid deals, with nothing around them.

    .venv/bin/python bench/plain_scorer.py FILE > verdicts.jsonl

One file, the standard library and the engine (`scorekeep.rules.adjudicate`), nothing else: no Django, no
strict reader (plain `json.loads`: repeated keys, NaN and lone surrogates are not looked for), no refusal
of broken lines (a broken line stops it), no streaming (the answers are written in one go at the end).
For valid requests its output is byte for byte the command's (bench/adjudicate.py checks that), so the
command's time over this floor is what the command adds: Python and Django start-up, the strict reading,
answering malformed lines one by one, streaming.

Why this floor and not a scorer with its own rules: the contract's answer is the engine's (its explanation
lines included), and a second implementation of four rule books that writes the same lines would be a
second engine to keep in step — its speed would be the speed of other code. The engine's own speed is
measured in process by bench/adjudicate.py (deals per CPU-second per game).
"""

import json
import sys
from pathlib import Path
from typing import NoReturn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeep.rules import adjudicate  # noqa: E402


def fail(why: str) -> NoReturn:
    """Stop as every benchmark does when it measured nothing (bench/_check.py), imported only then: the floor's
    own time stays the standard library's and the engine's."""
    from bench._check import fail

    fail(why)


def main() -> None:
    encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    if len(sys.argv) != 2:
        fail("usage: bench/plain_scorer.py FILE")
    with open(sys.argv[1], "rb") as lines:
        answers = [encode(adjudicate(json.loads(line))) for line in lines if line.strip()]
    # A floor over no deals is no floor (bench/_check.py): bench/adjudicate.py would time starting Python.
    if not answers:
        fail(f"no deal in {sys.argv[1]}")
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    sys.stdout.write("\n".join(answers) + "\n")


if __name__ == "__main__":
    main()
