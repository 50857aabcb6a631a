"""Every benchmark under bench/ run once at its tiny size (``--tiny``), as a user runs it: it exits 0 and says it
measured something (bench/_check.py's "measured:" line, every count above zero). A page change that breaks a
benchmark — a selector that finds nothing, a worker thread that dies — fails here like a broken test. And a
benchmark that measured nothing exits non-zero, saying why.

The benchmarks that drive Chromium carry the `browser` marker; those serving with gunicorn on a database of
their own carry `database`, so the PostgreSQL pass runs them on PostgreSQL (DATABASE_URL handed on); the
spectators' (several servers, which run on PostgreSQL only) carries `production` too, so CI runs it there only.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from contextlib import redirect_stderr
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
# Each bench runs in a process of its own, on a database of its own (tests/conftest.py: heaviest_files_first).
SECONDS_A_TEST = 5.0
PERFORMANCE = REPO / "docs" / "PERFORMANCE.md"
CHROMIUM = Path("/usr/bin/chromium")

browser, database, production = pytest.mark.browser, pytest.mark.database, pytest.mark.production
# Each script with what it needs besides --tiny; the marks as above.
BENCHES = [
    pytest.param("adjudicate.py", id="adjudicate"),
    pytest.param("draw.py", id="draw"),
    pytest.param("identical.py", id="identical"),
    pytest.param("ledger.py", id="ledger"),
    pytest.param("load.py", marks=database, id="load"),
    pytest.param("offline.py", id="offline"),
    pytest.param("pdf.py", marks=browser, id="pdf"),
    pytest.param("play.py", id="play"),
    pytest.param("reach.py", marks=browser, id="reach"),
    pytest.param("save.py", id="save"),
    pytest.param("season.py", id="season"),
    # Served as in production (gunicorn, haproxy, Redis), and several servers run on PostgreSQL only (README):
    # CI runs it in the PostgreSQL pass, as its production pass.
    pytest.param("spectators.py", marks=[database, production], id="spectators"),
    pytest.param("standings.py", id="standings"),
    pytest.param("table_page.py", id="table_page"),
    pytest.param("taps.py", marks=browser, id="taps"),
    pytest.param("tournament.py", marks=database, id="tournament"),
    pytest.param("tournament_print.py", marks=browser, id="tournament_print"),
]
NOT_HERE = {"_check.py", "plain_scorer.py", "crowd.py"}  # the shared checks; the floor, run on its file below;
# bench/spectators.py's viewers, run by it (and checked below)
TAKES_A_DATABASE = {"load.py", "offline.py", "spectators.py", "table_page.py", "tournament.py"}  # --database-url
SEVERAL_SERVERS = {"spectators.py"}  # Redis and haproxy in front of two servers (tests/redis_server.py)


def bench(script: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`python bench/<script> args…` from the repository root, as a user runs it."""
    return subprocess.run([sys.executable, f"bench/{script}", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=timeout, check=False)


def counts(stderr: str) -> dict[str, int]:
    """The counts of the "measured: deals stored 12, requests 40" line."""
    found = re.search(r"^measured: (.+)$", stderr, re.MULTILINE)
    assert found, f"no 'measured:' line in\n{stderr[-2000:]}"
    pairs = [re.fullmatch(r"(.+) (\d+)", part) for part in found.group(1).split(", ")]
    assert all(pairs), found.group(0)
    return {pair.group(1): int(pair.group(2)) for pair in pairs if pair}


def needs_chromium(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("browser") and not CHROMIUM.exists():
        reason = f"the browser benchmarks need Chromium at {CHROMIUM}"
        if os.environ.get("CI"):
            pytest.fail(reason + "; CI is set, so this is a failure, not a skip")
        pytest.skip(reason)


def needs_several_servers() -> None:
    """Skip (fail under CI) without redis-server, the redis package or haproxy."""
    from tests.redis_server import need_redis

    need_redis()
    if not (shutil.which("haproxy") or Path("/usr/sbin/haproxy").exists()):
        reason = "bench/spectators.py needs haproxy (apt-get install haproxy)"
        if os.environ.get("CI"):
            pytest.fail(reason + "; CI is set, so this is a failure, not a skip")
        pytest.skip(reason)


def test_every_benchmark_is_run_here() -> None:
    """A benchmark added to bench/ is run at its tiny size too, or it could break unnoticed."""
    listed = {param.values[0] for param in BENCHES}
    assert {path.name for path in (REPO / "bench").glob("*.py")} - NOT_HERE == listed


@pytest.mark.parametrize(("script", "more"), [pytest.param(p.values[0], p.values[1:], marks=p.marks, id=p.id)
                                              for p in BENCHES])
def test_each_benchmark_measures_something_at_its_tiny_size(script: str, more: tuple[str, ...],
                                                             request: pytest.FixtureRequest) -> None:
    needs_chromium(request)
    if script in SEVERAL_SERVERS:
        needs_several_servers()
    args = ["--tiny", *more]
    url = os.environ.get("DATABASE_URL", "")
    if script in TAKES_A_DATABASE and url.startswith(("postgres://", "postgresql://")):
        args += ["--database-url", url]
    before = hashlib.md5(PERFORMANCE.read_bytes()).hexdigest()
    done = bench(script, *args)
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    measured = counts(done.stderr)
    assert measured and all(count > 0 for count in measured.values()), measured
    assert "FAILED" not in done.stderr
    assert hashlib.md5(PERFORMANCE.read_bytes()).hexdigest() == before  # a tiny run publishes nothing


def test_the_floor_answers_every_deal_of_its_file(tmp_path: Path, grand_with_two: dict[str, Any],
                                                  four_hand_made: dict[str, Any]) -> None:
    deals = tmp_path / "deals.jsonl"
    deals.write_text(f"{json.dumps(grand_with_two)}\n\n{json.dumps(four_hand_made)}\n")
    done = bench("plain_scorer.py", str(deals))
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [answer["ok"] for answer in answers] == [True, True]
    assert answers[0]["scores"] == [72, 0, 0]


# --- measuring nothing fails, saying why ------------------------------------------------------------------

@pytest.mark.parametrize(("script", "args", "why"), [
    # The in-process rounds got no CPU time to count deals in: no rate is a rate of nothing.
    ("adjudicate.py", ["--tiny", "--seconds", "0"], "no deal timed in 0 CPU seconds"),
    ("ledger.py", ["--deals", "0"], "no deal to save"),
    ("play.py", ["--deals", "0"], "no deal to check"),
    ("plain_scorer.py", [os.devnull], f"no deal in {os.devnull}"),
])
def test_a_benchmark_that_measures_nothing_fails_and_says_why(script: str, args: list[str], why: str) -> None:
    done = bench(script, *args)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"bench/{script}: FAILED: {why}" in done.stderr
    assert "Traceback" not in done.stderr  # one line saying why, not a crash


def test_counts_with_a_zero_fail_the_run_naming_what_was_not_measured() -> None:
    from bench._check import measured

    said = io.StringIO()
    with redirect_stderr(said), pytest.raises(SystemExit) as stopped:
        measured(tables=2, deals_acknowledged=0, deals_stored=0)
    assert stopped.value.code == 1
    assert said.getvalue().splitlines()[0] == "measured: tables 2, deals acknowledged 0, deals stored 0"
    assert "FAILED: measured nothing: deals acknowledged, deals stored 0" in said.getvalue()


def test_a_worker_thread_that_dies_is_counted_and_fails_the_run() -> None:
    from bench._check import Workers

    def save(deals: list[str]) -> None:
        deals.append("saved")

    def keeper(declarers: list[str]) -> None:
        declarers[0]  # noqa: B018 - what bench/tournament.py's keepers died of: no declarer found on the page

    workers = Workers()
    saved: list[str] = []
    workers.add(save, saved)
    workers.add(keeper, [])
    workers.add(keeper, [])
    workers.run()
    assert saved == ["saved"]  # the others went on
    said = io.StringIO()
    with redirect_stderr(said), pytest.raises(SystemExit) as stopped:
        workers.check()
    assert stopped.value.code == 1
    assert "FAILED: 2 of 3 worker threads died: IndexError: list index out of range (× 2)" in said.getvalue()
    assert "Traceback" in said.getvalue()  # the first death's, to find it by



def test_the_crowd_s_viewers_answered_garbage_die_and_fail_the_run_and_refusals_are_errors() -> None:
    import socket
    import threading
    import time

    from bench.crowd import Crowd

    listener = socket.create_server(("127.0.0.1", 0))

    def answer_garbage() -> None:  # a status line without a status: what no server sends
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            connection.recv(65536)
            connection.sendall(b"HTTP/1.1 OK\r\n\r\n")
            connection.close()

    threading.Thread(target=answer_garbage, daemon=True).start()
    crowd = Crowd("127.0.0.1", listener.getsockname()[1], ["/standings/x/"], 2, poll=0.2, arrive=0.1, timeout=5)
    try:
        crowd.start()
        with pytest.raises(RuntimeError, match=r"2 of 2 viewers died: ValueError"):
            crowd.run(time.monotonic() + 1)
    finally:
        crowd.stop()
        listener.close()
    port = socket.create_server(("127.0.0.1", 0))
    nobody = port.getsockname()[1]
    port.close()  # nothing listens there: every request an error, no viewer dead
    refused = Crowd("127.0.0.1", nobody, ["/standings/x/"], 2, poll=0.2, arrive=0.1, timeout=5)
    refused.start()
    refused.run(time.monotonic() + 0.5)
    assert refused.result["errors"] == {"standings: no answer (ConnectionRefusedError)": refused.result["requests"]}
    assert refused.result["requests"] >= 2 and not refused.result["died"]


# --- bench/tournament.py reads who declared from what the form may send -----------------------------------

@pytest.mark.django_db
def test_the_tournament_keepers_declarers_are_those_the_form_offers_and_each_saves(client: Any, host: Any) -> None:
    """At a Skat table of four the dealer sits out: the grid of players and games offers the three others,
    and a deal saved with each of those choices is stored."""
    from bench.tournament import declarer_choices
    from scorekeep.nights import writes as nights
    from tests.live_site import Answer, grand

    night = nights.start_night(game="skat", preset="isko", players=["Anna", "Bernd", "Clara", "Dieter"], host=host)
    table = f"/nights/{night.pk}/tables/1/"
    facts = {name: value for name, value in grand(0).items() if name != "declarer"}
    offered = []
    for number in range(1, 4):  # each deal another dealer sits out
        page = client.get(table)
        choices = declarer_choices(Answer(page.status_code, {}, page.content.decode(), 0), "grand")
        offered.append(sorted(choice["contract"] for choice in choices))
        saved = client.post(f"{table}deals/new/", {**facts, **choices[number - 1], "expected": number})
        assert saved.status_code == 303, saved.content.decode()[:500]
    assert [len(choices) for choices in offered] == [3, 3, 3] and len({tuple(c) for c in offered}) == 3
    assert night.tables.get().deals.count() == 3
