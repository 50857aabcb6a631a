"""``manage.py adjudicate``: the contract on the command line (shared/spec/ADJUDICATION.md).

The exit codes, files and pipes are checked through the real command line in a subprocess; the
many-case checks run the same command in-process through `call_command`.
"""

import io
import json
import os
import select
import subprocess
import sys
from typing import Any

import pytest
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeep import rules
from scorekeep.api.contract_io import dumps
from tests.conftest import REPO, Run
from tests.contract_cases import BAD_FIELDS, DEALER_DECLARES, IN_OTHER_LANGUAGES, SAUSPIEL


def line(request: object) -> bytes:
    return json.dumps(request).encode() + b"\n"


def verdict_lines(stdout: bytes) -> list[dict[str, Any]]:
    return [json.loads(text) for text in stdout.decode("utf-8").splitlines()]


def adjudicate(data: bytes) -> tuple[int, list[dict[str, Any]]]:
    """Run the command in-process on `data` as standard input: (exit status, verdicts)."""
    out = io.StringIO()
    try:
        call_command("adjudicate", stdin=io.BytesIO(data), stdout=out)
        status = 0
    except SystemExit as exit:
        status = exit.code
    return status, [json.loads(text) for text in out.getvalue().splitlines()]


def the_error(verdict: dict[str, Any]) -> dict[str, str]:
    assert verdict["ok"] is False, verdict
    [error] = verdict["errors"]
    return error


# --- the real command line --------------------------------------------------------------------


def test_json_lines_on_stdin_give_one_verdict_a_line_in_order_and_exit_0(
        manage: Run, grand_with_two: dict, four_hand_made: dict) -> None:
    result = manage("adjudicate", input=line(grand_with_two) + line(four_hand_made) + line(grand_with_two))

    assert result.returncode == 0, result.stderr
    assert [(v["game"], v["value"]) for v in verdict_lines(result.stdout)] == [
        ("skat", 72), ("fipsen", 8), ("skat", 72)]
    assert result.stderr == b""


def test_verdict_is_the_engines_answer_as_compact_utf8_json(manage: Run, grand_with_two: dict) -> None:
    result = manage("adjudicate", input=line(grand_with_two))

    [text] = result.stdout.decode("utf-8").splitlines()
    verdict = json.loads(text)
    assert verdict == rules.adjudicate(grand_with_two)
    assert text == json.dumps(verdict, ensure_ascii=False, separators=(",", ":"))
    assert "game 3 × 24 = 72" in " ".join(verdict["explanation"])  # "×" written as itself, not \u00d7


def test_reads_the_file_given_instead_of_stdin(manage: Run, tmp_path, grand_with_two: dict,
                                               four_hand_made: dict) -> None:
    deals = tmp_path / "deals.jsonl"
    deals.write_bytes(line(four_hand_made) + line(grand_with_two))

    result = manage("adjudicate", str(deals), input=b"this is not read\n")

    assert result.returncode == 0, result.stderr
    assert [v["value"] for v in verdict_lines(result.stdout)] == [8, 72]


def test_exit_1_when_any_input_is_rejected(manage: Run, grand_with_two: dict) -> None:
    over = {**grand_with_two, "deal": {**grand_with_two["deal"], "card_points": 130}}

    result = manage("adjudicate", input=line(grand_with_two) + line(over))

    assert result.returncode == 1
    good, bad = verdict_lines(result.stdout)
    assert good["ok"] is True
    assert the_error(bad)["field"] == "deal.card_points"


def test_a_pretty_printed_object_over_several_lines_is_one_request(manage: Run, grand_with_two: dict) -> None:
    result = manage("adjudicate", input=json.dumps(grand_with_two, indent=2).encode() + b"\n")

    assert result.returncode == 0, result.stderr
    [verdict] = verdict_lines(result.stdout)
    assert verdict["value"] == 72


def test_malformed_lines_among_good_ones_each_get_their_own_rejection_in_order(
        manage: Run, grand_with_two: dict, four_hand_made: dict) -> None:
    data = (line(grand_with_two) + b'{"game": "skat", oops}\n' + line(four_hand_made) + b"\n   \n"
            + b'{"game": "skat", "deal": {\n' + b"\xff\xfe not UTF-8\n" + line(grand_with_two))

    result = manage("adjudicate", input=data)

    assert result.returncode == 1
    verdicts = verdict_lines(result.stdout)
    assert [v["ok"] for v in verdicts] == [True, False, True, False, False, True]  # blank lines skipped
    assert [v.get("value") for v in verdicts] == [72, None, 8, None, None, 72]
    oops, truncated, binary = (the_error(verdicts[i]) for i in (1, 3, 4))
    assert oops == {"field": "request", "message": oops["message"]}
    assert "input line 2" in oops["message"] and "not valid JSON" in oops["message"]
    assert "column 18" in oops["message"]  # where the parser stopped: the o of oops
    assert "input line 6" in truncated["message"]  # lines counted as in an editor, blank ones too
    assert binary["field"] == "request" and "not UTF-8" in binary["message"]
    assert result.stderr == b""


def test_a_first_line_that_is_cut_off_does_not_swallow_the_lines_after_it(
        manage: Run, grand_with_two: dict) -> None:
    result = manage("adjudicate", input=b'{"game": "skat",\n' + line(grand_with_two) + line(grand_with_two))

    assert result.returncode == 1
    assert [v["ok"] for v in verdict_lines(result.stdout)] == [False, True, True]


def test_a_pretty_printed_object_with_a_typo_says_where_it_breaks(manage: Run) -> None:
    text = b'{\n  "game": "skat"\n  "deal": {"contract": "grand"}\n}\n'

    result = manage("adjudicate", input=text)

    assert result.returncode == 1
    first = the_error(verdict_lines(result.stdout)[0])
    assert "line 3, column 3: Expecting ',' delimiter" in first["message"]


@pytest.mark.parametrize(("args", "complaint"), [
    (["--frobnicate"], b"unrecognized arguments: --frobnicate"),
    (["-v", "7"], b"invalid choice: 7"),
    (["one.jsonl", "two.jsonl"], b"unrecognized arguments: two.jsonl"),
    (["no-such-file.jsonl"], b"cannot read no-such-file.jsonl: No such file or directory"),
    (["scorekeep"], b"cannot read scorekeep: Is a directory"),
    (["--language", "fr"], b"argument --language: invalid choice: 'fr' (choose from 'en', 'de', 'ja')"),
    (["--language=EN"], b"argument --language: invalid choice: 'EN' (choose from 'en', 'de', 'ja')"),
    (["--language"], b"argument --language: expected one argument"),
], ids=["unknown-flag", "bad-verbosity", "two-files", "missing-file", "directory", "unknown-language",
        "language-in-capitals", "language-without-value"])
def test_usage_errors_exit_2_with_one_line_and_no_traceback(manage: Run, args: list[str],
                                                            complaint: bytes) -> None:
    result = manage("adjudicate", *args)

    assert result.returncode == 2
    assert result.stdout == b""
    assert complaint in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert b"Traceback" not in result.stderr


def test_answers_each_line_while_standard_input_is_still_open(grand_with_two: dict) -> None:
    buffered = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    proc = subprocess.Popen([sys.executable, "manage.py", "adjudicate"], cwd=REPO, env=buffered,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for _ in range(3):
            proc.stdin.write(line(grand_with_two))
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 30)
            assert ready, "no verdict within 30 s of sending a line: the command does not stream"
            assert json.loads(proc.stdout.readline())["value"] == 72
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path, grand_with_two: dict) -> None:
    deals = tmp_path / "deals.jsonl"
    deals.write_bytes(line(grand_with_two) * 3000)
    proc = subprocess.Popen([sys.executable, "manage.py", "adjudicate", str(deals)], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert json.loads(proc.stdout.readline())["ok"] is True
    proc.stdout.close()  # like `| head -n 1`

    errors = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 1
    assert errors == b""


# --- in-process: what is rejected, and that nothing crashes it -------------------------------


@pytest.mark.parametrize(("change", "field", "says"), BAD_FIELDS)
def test_bad_fields_are_rejected_naming_the_field(grand_with_two: dict, change, field: str, says: str) -> None:
    status, [verdict] = adjudicate(line(change(grand_with_two)))

    assert status == 1
    error = the_error(verdict)
    assert error["field"] == field
    assert says in error["message"]


def test_seats_are_written_as_the_contract_numbers_them_from_0() -> None:
    """Pages name seats their own way (Seat 1 …); the contract's English counts from 0."""
    status, [rejected, verdict] = adjudicate(line(DEALER_DECLARES) + line(SAUSPIEL))

    assert status == 1
    assert the_error(rejected)["message"].startswith("seat 1 deals at this 4-seat table")
    assert the_error(rejected)["message"].endswith("the declarer is one of seats 0, 2 and 3")
    assert verdict["explanation"][0].startswith("Sauspiel: seat 2 called the Ace of Eichel (clubs), partner seat 0")


# --- in another language -------------------------------------------------------------------------


@pytest.mark.parametrize(("language", "first_line", "message"), IN_OTHER_LANGUAGES)
def test_language_writes_explanations_and_rejections_from_the_catalogue(
        manage: Run, grand_with_two: dict, language: str, first_line: str, message: str) -> None:
    english = [rules.adjudicate(grand_with_two), rules.adjudicate(DEALER_DECLARES)]

    result = manage("adjudicate", "--language", language, input=line(grand_with_two) + line(DEALER_DECLARES))

    assert result.returncode == 1, result.stderr
    verdict, rejected = verdict_lines(result.stdout)
    assert verdict["explanation"][0] == first_line
    assert len(verdict["explanation"]) == len(english[0]["explanation"])
    # Only the words change: every key, number and code is the contract's, in the contract's order.
    assert list(verdict) == list(english[0])
    assert {**verdict, "explanation": None} == {**english[0], "explanation": None}
    assert rejected == {"ok": False, "errors": [{"field": "deal.declarer", "message": message}]}


@pytest.mark.parametrize(("language", "first_line", "message"), IN_OTHER_LANGUAGES)
def test_call_command_takes_the_language_too(grand_with_two: dict, language: str, first_line: str,
                                             message: str) -> None:
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit:
        call_command("adjudicate", language=language, stdin=io.BytesIO(line(grand_with_two) + line(DEALER_DECLARES)),
                     stdout=out)

    assert exit.value.code == 1
    verdict, rejected = [json.loads(text) for text in out.getvalue().splitlines()]
    assert verdict["explanation"][0] == first_line
    assert the_error(rejected)["message"] == message


@pytest.mark.parametrize(("request_", "language", "word", "not_word"), [
    ({"game": "fipsen", "deal": {"contract": "tricks", "declarer": 1, "bid": 4, "hand": True, "tricks_taken": 4}},
     "ja", "ハント", "ハンド"),
    ({"game": "kop", "deal": {"contract": "normal", "old": [0, 2], "card_points": 61, "doublings": [1, 0]}},
     "ja", "がレ：", "リコントラ"),
    ({"game": "skat", "deal": {"contract": "grand", "declarer": 0, "bid": 96, "matadors": 2, "card_points": 70}},
     "ja", "競り値", "ビッド"),
], ids=["fipsen-hand", "kop-re", "skat-bid"])
def test_a_language_speaks_in_the_words_of_the_requests_game(request_: dict, language: str, word: str,
                                                              not_word: str) -> None:
    """The command line's catalogue says each game's words (message contexts per game), as the pages do."""
    out = io.StringIO()
    call_command("adjudicate", language=language, stdin=io.BytesIO(line(request_)), stdout=out)
    explanation = " ".join(json.loads(out.getvalue())["explanation"])
    assert word in explanation and not_word not in explanation, explanation


def test_english_is_the_default_and_the_contracts_text_byte_for_byte(manage: Run, grand_with_two: dict) -> None:
    requests = [grand_with_two, DEALER_DECLARES, SAUSPIEL]
    data = b"".join(line(request) for request in requests)
    contract = "".join(dumps(rules.adjudicate(request)) + "\n" for request in requests).encode()

    assert manage("adjudicate", input=data).stdout == contract
    assert manage("adjudicate", "--language", "en", input=data).stdout == contract


@pytest.mark.parametrize(("text", "says"), [
    (b'{"game": "skat", "game": "kop"}', 'the key "game" appears twice'),
    (b'{"game": "skat", "deal": {"card_points": NaN}}', "NaN is not a JSON number"),
    (b"[" * 50_000 + b"]" * 50_000, "nested too deeply"),
    (b'{"game": "skat", "players": ' + b"9" * 5000 + b"}", "no field takes numbers that long"),
    (b"[1, 2, 3]", "must be a JSON object"),
], ids=["repeated-key", "nan", "deep", "huge-number", "not-an-object"])
def test_json_no_request_can_be_is_rejected_as_the_request(text: bytes, says: str) -> None:
    status, [verdict] = adjudicate(text + b"\n")

    assert status == 1
    assert the_error(verdict)["field"] == "request"
    assert says in the_error(verdict)["message"]


def test_blank_input_gives_no_verdicts_and_exit_0() -> None:
    assert adjudicate(b"\n  \n\n") == (0, [])


def test_an_engine_bug_becomes_an_internal_error_rejection_not_a_crash(monkeypatch, grand_with_two: dict,
                                                                        caplog) -> None:
    def broken(request: object) -> dict:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(rules, "adjudicate", broken)

    status, verdicts = adjudicate(line(grand_with_two) * 2)

    assert status == 1
    assert [the_error(v)["field"] for v in verdicts] == ["request", "request"]
    assert "internal error" in verdicts[0]["errors"][0]["message"]
    assert "ZeroDivisionError" in caplog.text


request_lines = st.one_of(
    st.text(),
    st.binary().map(lambda b: b.replace(b"\n", b"")),
    st.sampled_from(["{", "}", "[", "]", '"game": "skat",', '{"game": "skat", "deal": {"contract": "passed"}}',
                     '{"game": "fipsen", "players": 3, "deal": {"contract": "passed"}}', "null", "  "]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(request_lines, max_size=8))
def test_arbitrary_lines_never_crash_the_command(lines: list[str | bytes]) -> None:
    data = b"\n".join(part if isinstance(part, bytes) else part.encode("utf-8", "surrogatepass")
                      for part in lines)

    status, verdicts = adjudicate(data)

    requests = sum(1 for text in io.BytesIO(data) if text.strip())
    assert len(verdicts) == requests or len(verdicts) == 1 <= requests  # a line each, or one object
    for verdict in verdicts:
        assert type(verdict["ok"]) is bool
        if not verdict["ok"]:
            assert all(error["field"] and error["message"] for error in verdict["errors"])
    assert status == (1 if any(not v["ok"] for v in verdicts) else 0)


@pytest.mark.parametrize("surrogate", [rb'{"game": "\ud800"}', rb'{"game": "skat", "rules": {"preset": "\udc00"}}',
                                       rb'{"\ud800": 1}'])
def test_a_lone_surrogate_is_refused_in_one_line_and_the_lines_after_it_are_answered(
        manage: Run, grand_with_two: dict, surrogate: bytes) -> None:
    result = manage("adjudicate", input=surrogate + b"\n" + line(grand_with_two))
    assert result.returncode == 1 and b"Traceback" not in result.stderr, result.stderr
    refused, judged = verdict_lines(result.stdout)
    assert "lone surrogate" in the_error(refused)["message"] and the_error(refused)["field"] == "request"
    assert judged["ok"] is True and judged["value"] == 72


# --- without Django, and in batches --------------------------------------------------------------


@pytest.mark.parametrize("options", [[], ["--language", "de"], ["--language=ja"]], ids=["english", "de", "ja"])
def test_the_command_line_with_a_file_answers_without_starting_django(tmp_path, grand_with_two: dict,
                                                                      options: list[str]) -> None:
    """`manage.py adjudicate [--language LANG] FILE` needs no database or templates, and reads a catalogue with
    Python's own gettext: manage.py runs it without importing Django (a third of a second before the first
    line), with the same answers."""
    deals = tmp_path / "deals.jsonl"
    deals.write_bytes(line(grand_with_two) * 2)
    probe = ("import runpy, sys\n"
             f"sys.argv = ['manage.py', 'adjudicate', *{options!r}, {str(deals)!r}]\n"
             "try:\n    runpy.run_path('manage.py', run_name='__main__')\n"
             "except SystemExit as exit:\n    status = exit.code\n"
             "print(status, sorted(m for m in sys.modules if m.split('.')[0] == 'django'), file=sys.stderr)\n")
    result = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True)

    assert result.stderr.decode().strip() == "0 []"
    assert [v["value"] for v in verdict_lines(result.stdout)] == [72, 72]


def test_lines_longer_than_a_chunk_and_split_between_chunks_are_read_whole(grand_with_two: dict) -> None:
    from scorekeep.api import jsonlines

    text = json.dumps(grand_with_two).replace(", ", "," + " " * jsonlines.CHUNK, 1).encode() + b"\n"
    data = line(grand_with_two) * 1000 + text + line(grand_with_two) * 1000 + b"\r\n" + text.rstrip(b"\n")

    status, verdicts = adjudicate(data)

    assert status == 0
    assert len(verdicts) == 2002 and {v["value"] for v in verdicts} == {72}


def test_answers_are_flushed_once_the_lines_read_so_far_are_answered(grand_with_two: dict) -> None:
    from scorekeep.api import jsonlines

    class Reader(io.BytesIO):
        """Gives the data a few lines at a time, as a pipe does."""

        def read1(self, size: int = -1) -> bytes:
            return super().read1(min(size, len(line(grand_with_two)) * 3))

    writes: list[str] = []
    rejected = jsonlines.answer(Reader(line(grand_with_two) * 7), writes.append, lambda: writes.append("flush"))

    assert rejected is False
    assert [w.count("\n") if w != "flush" else w for w in writes] == [3, "flush", 3, "flush", 1, "flush"]
