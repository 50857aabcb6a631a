"""Prove a speed-up changed nothing: MD5s of everything the engine writes, over a ~100,000-line corpus.

    .venv/bin/python bench/identical.py [--save FILE | --check FILE] [--lines N] [--keep CORPUS]

The corpus (made the same way from the same seed every time): the benchmark's valid deals
(bench/adjudicate.py's generators, kept when accepted), raw generator deals (accepted or not), the
conformance vectors' inputs, mutated requests (wrong types, missing and unknown fields, rule sets that
do not fit, other seats and games) and broken lines (cut-off JSON, NaN, repeated keys, lone surrogates,
deep nesting, huge numbers, non-UTF-8 bytes, a BOM, blank lines, one object over several lines).

What is hashed, each on its own:
- ``manage.py adjudicate FILE``, the same through standard input and through ``-``, and with
  ``--language de`` and ``--language ja`` (output and exit status);
- ``../shared/tools/conformance.py`` over the shared vectors (its whole output);
- the pages' renderings of every verdict's steps and every refusal's message, for each line the strict
  reader takes: `explain` with names, with names and a translation function (a marker, and the German and
  Japanese catalogues), `explanation` (the contract's English) and `judge`'s other fields.

``--save`` writes the MD5s as JSON; ``--check`` compares with such a file and exits 1 on any difference.
Run by hand before and after each optimisation; never by the test suite.
"""

import argparse
import copy
import gettext
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from adjudicate import MAKERS, valid_requests  # noqa: E402

from bench._check import measured, need, parse  # noqa: E402
from scorekeep.api.contract_io import loads  # noqa: E402
from scorekeep.rules import IllegalDeal, judge  # noqa: E402

# The shared contract beside the clone (another tree, e.g. main's exported for an A/B, names it by SCOREKEEP_SHARED).
SHARED = Path(os.environ.get("SCOREKEEP_SHARED", ROOT.parent / "shared"))
VECTORS = sorted((SHARED / "vectors").glob("*.jsonl"))
CONFORMANCE = SHARED / "tools" / "conformance.py"
if not VECTORS:
    raise SystemExit(f"no conformance vectors in {SHARED / 'vectors'}: set SCOREKEEP_SHARED")

# Values a mutation puts in place of a field's: every JSON type, edges of ranges, strangers.
ODD_VALUES: list[object] = [None, True, False, 0, 1, -1, 2, 3, 4, 7, 10, 11, 12, 18, 23, 30, 59, 60, 61, 90, 120,
                            121, 264, 999, 10**6, -(10**12), 1.5, 0.0, "", "x", "1", "clubs", "ramsch", "schneider",
                            "CJ", [], [0], [1, 2], [0, 0, 0], [40, 40, 40], [0, 0, 0, 0], [3, 3, 4], ["CJ"],
                            ["CJ", "SJ", "HJ", "DJ", "CA", "C10", "CK", "CQ", "C9", "C8", "C7", "SA"], {}, {"a": 1},
                            "a text longer than twenty characters", "\u00e4\u00f6\u00fc\u00df", "\u5148"]
RULE_KEYS = ["preset", "kontra", "bock", "passed", "ouvert", "reverse_levels", "grand_ouvert_fixed", "conceded",
             "ramsch_durchmarsch", "klopfer", "laufende", "tariff", "wenz", "unknown_option", "lost_hand_doubled"]
PRESETS = ["classic", "isko", "bsv", "sauspiel", "wolsztyn", "koscian", "nope", ""]


def mutate(request: dict, rng: random.Random) -> object:
    """One request changed in one or two ways a careless client might."""
    out = copy.deepcopy(request)
    for _ in range(rng.choice([1, 1, 1, 2])):
        if not isinstance(out, dict):  # the first change made it something else than an object: that is enough
            break
        kind = rng.randrange(10)
        deal = out.get("deal")
        if kind <= 3 and isinstance(deal, dict) and deal:
            key = rng.choice(sorted(deal))
            deal[key] = rng.choice(ODD_VALUES)
        elif kind == 4 and isinstance(deal, dict) and deal:
            del deal[rng.choice(sorted(deal))]
        elif kind == 5 and isinstance(deal, dict):
            key = rng.choice(["declarer", "bid", "matadors", "cards", "hand", "announced", "ouvert", "card_points",
                              "declarer_tricks", "conceded", "kontra", "re", "bock", "points", "tricks", "partner",
                              "trump", "laufende", "doublings", "klopfer", "old", "old_tricks", "ruten", "durch",
                              "tricks_taken", "surrendered", "contract", "unknown", "play"])
            deal[key] = rng.choice(ODD_VALUES)
        elif kind == 6:
            rules = out.get("rules") if isinstance(out.get("rules"), dict) else {}
            rules = dict(rules)
            key = rng.choice(RULE_KEYS)
            rules[key] = rng.choice(PRESETS) if key == "preset" else rng.choice(ODD_VALUES)
            out["rules"] = rules if rng.random() < 0.95 else rng.choice(ODD_VALUES)
        elif kind == 7:
            out[rng.choice(["players", "dealer"])] = rng.choice(ODD_VALUES)
        elif kind == 8:
            out["game"] = rng.choice(["skat", "schafkopf", "kop", "fipsen", "Skat", "doppelkopf", None, 1])
        else:
            key = rng.choice(["deal", "rules", "compare", "extra", "game"])
            if rng.random() < 0.5:
                out.pop(key, None)
            else:
                out[key] = rng.choice(ODD_VALUES)
    return out


def broken_lines(rng: random.Random, valid: list[dict]) -> list[bytes]:
    """Lines no strict reader takes, and a few it takes that look odd."""
    lines: list[bytes] = []
    for _ in range(200):
        text = json.dumps(rng.choice(valid))
        cut = rng.randrange(1, len(text))
        lines += [text[:cut].encode(), text.replace('"deal"', '"deal": 1, "deal"', 1).encode(),
                  text.replace("18", "NaN", 1).encode(), text.replace("}", "}}", 1).encode(),
                  b"\xef\xbb\xbf" + text.encode(), text.encode() + b"\r"]
    lines += [b"NaN", b"Infinity", b"-Infinity", b"[]", b"null", b"1", b'"skat"', b"{}", b"{", b"}", b"   ",
              b'{"game": "\\ud800"}', b'{"game": "skat", "rules": {"preset": "\\udfff"}}',
              b'{"\\ud800": 1}', b'{"game": "skat", "deal": {"contract": "\\ud83d\\ude00"}}',
              b"[" * 5000 + b"]" * 5000, b'{"a":' * 3000 + b"1" + b"}" * 3000,
              b'{"game": "skat", "players": ' + b"9" * 5000 + b"}", b'{"game": "skat", "players": 1e999}',
              b"\xff\xfe{}", b'{"game": "sk\xe4t"}', b'{"game": "skat"}\x00', b"\t", b"\x1b[0m"]
    return lines


def corpus(lines: int, seed: int) -> bytes:
    rng = random.Random(seed)
    valid = [request for game in MAKERS for request in valid_requests(game, lines // 20, rng)]  # 20 %
    raw = [MAKERS[game](rng) for _ in range(lines // 5) for game in (rng.choice(list(MAKERS)),)]  # 20 %
    vectors = [json.loads(line)["input"] for path in VECTORS for line in path.read_text().splitlines() if line]
    pool = valid + raw + vectors
    mutated = [mutate(rng.choice(pool), rng) for _ in range(lines // 5)]  # 20 %
    # The rest: the valid and raw deals again in another order, so that a cache meets repeats as a stream would.
    again = [rng.choice(pool) for _ in range(lines - len(valid) - len(raw) - len(vectors) - len(mutated) - 1200)]
    out = [json.dumps(r, ensure_ascii=rng.random() < 0.5).encode() for r in valid + raw + vectors + mutated + again]
    broken = broken_lines(rng, valid)
    for line in broken:
        out.insert(rng.randrange(len(out)), line)
    for _ in range(50):
        out.insert(rng.randrange(len(out)), b"")
    rng.shuffle(out)
    return b"\n".join(out) + b"\n"


def md5(data: bytes) -> str:
    return hashlib.md5(data).hexdigest()


def commands(path: Path, data: bytes) -> dict[str, str]:
    python = sys.executable
    runs = {"file": ([python, "manage.py", "adjudicate", str(path)], None),
            "stdin": ([python, "manage.py", "adjudicate"], data),
            "dash": ([python, "manage.py", "adjudicate", "-"], data),
            "file de": ([python, "manage.py", "adjudicate", "--language", "de", str(path)], None),
            "file ja": ([python, "manage.py", "adjudicate", "--language", "ja", str(path)], None)}
    out = {}
    for name, (command, stdin) in runs.items():
        proc = subprocess.run(command, cwd=ROOT, input=stdin, capture_output=True)
        need(proc.stdout, f"command {name}: no answer at all (exit {proc.returncode}: {proc.stderr[-300:]!r})")
        out[f"command {name}"] = f"{md5(proc.stdout)} exit {proc.returncode} stderr {md5(proc.stderr)}"
    return out


def conformance() -> dict[str, str]:
    proc = subprocess.run([sys.executable, str(CONFORMANCE), "--cmd", f"{sys.executable} manage.py adjudicate",
                           *map(str, VECTORS)], cwd=ROOT, capture_output=True)
    said = need(proc.stdout.decode().strip().splitlines(),
                f"the conformance tool said nothing (exit {proc.returncode}: {proc.stderr[-300:]!r})")
    last = said[-1]
    return {"conformance": f"{md5(proc.stdout)} exit {proc.returncode} ({last})"}


def renderings(data: bytes) -> dict[str, str]:
    """Every line the strict reader takes, judged as the pages judge it, and rendered as they render it."""
    catalogues = {code: gettext.translation("django", str(ROOT / "locale"), [code]).gettext for code in ("de", "ja")}
    translations: dict[str, Callable[[str], str] | None] = {"none": None, "marker": lambda text: f"<{text}>",
                                                            **catalogues}
    hashes = {name: hashlib.md5() for name in ("english", "fields", *translations)}
    names = ["Anna", "Bernd", "Clara", "Dieter", "Emil", "Fritz", "Gerda", "Hans"]

    def seat_name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"#{seat}"

    judged = 0
    for line in data.splitlines():
        try:
            request = loads(line.decode("utf-8"))
        except ValueError:
            continue
        try:
            verdict = judge(request)
        except IllegalDeal as err:
            hashes["fields"].update(f"refused {err.field}|{err.message}|{err.to_json()}\n".encode())
            for name, translate in translations.items():
                text = None if translate is None else translate(err.text)
                hashes[name].update((err.render(seat_name, text, translate) + "\n").encode())
            continue
        judged += 1
        hashes["english"].update(json.dumps(verdict.explanation, ensure_ascii=False).encode() + b"\n")
        hashes["fields"].update(json.dumps(verdict.to_json(), ensure_ascii=False).encode() + b"\n")
        hashes["fields"].update(repr([(step.text, sorted(step.params)) for step in verdict.steps]).encode())
        for name, translate in translations.items():
            lines = verdict.explain(seat_name, translate)
            hashes[name].update(json.dumps(lines, ensure_ascii=False).encode() + b"\n")
            hashes[name].update(json.dumps(verdict.explain(str, translate), ensure_ascii=False).encode() + b"\n")
    out = {f"explain {name}": h.hexdigest() for name, h in hashes.items()}
    out["verdicts judged"] = str(judged)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--save", type=Path, help="write the MD5s to this JSON file")
    ap.add_argument("--check", type=Path, help="compare the MD5s with this JSON file; exit 1 if any differs")
    ap.add_argument("--keep", type=Path, help="also write the corpus to this file")
    args = parse(ap, tiny={"lines": 400})
    data = corpus(args.lines, args.seed)
    # A file of this run's own: two runs at once (an A/B) must not rewrite each other's input.
    path = args.keep or Path(tempfile.gettempdir()) / f"identical-{args.seed}-{args.lines}-{os.getpid()}.jsonl"
    path.write_bytes(data)
    newlines = data.count(b"\n")
    results = {"corpus": f"{md5(data)} ({newlines} lines)"}
    commands_run = commands(path, data)
    results.update(commands_run)
    results.update(conformance())
    results.update(renderings(data))
    if not args.keep:
        path.unlink()
    for key, value in results.items():
        print(f"{key:<18} {value}")
    measured(corpus_lines=newlines, commands_run=len(commands_run), verdicts_judged=int(results["verdicts judged"]))
    if args.save:
        args.save.write_text(json.dumps(results, indent=1) + "\n")
    if args.check:
        expected = json.loads(args.check.read_text())
        differ = [key for key in expected if results.get(key) != expected[key]]
        print("identical" if not differ else f"DIFFERENT: {', '.join(differ)}")
        sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
