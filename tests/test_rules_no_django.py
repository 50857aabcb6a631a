"""The rules engine is a library: importing and using it loads no Django (STYLE.md)."""

import json
import os
import subprocess
import sys

from tests.conftest import REPO

# Runs in a fresh interpreter, where nothing has imported Django yet: one deal of every game, a
# rejection and a Fipsen bidding dispute, through both entry points.
PROGRAM = """
import json, sys
import scorekeep.rules
from scorekeep.rules import adjudicate, judge

answers = [
    adjudicate({"game": "skat", "deal": {"contract": "grand", "declarer": 0, "bid": 48, "matadors": 2,
                                         "card_points": 70}}),
    adjudicate({"game": "schafkopf", "deal": {"contract": "sauspiel", "declarer": 0, "partner": 2,
                                              "card_points": 70}}),
    adjudicate({"game": "kop", "deal": {"contract": "normal", "old": [0, 2], "card_points": 60}}),
    adjudicate({"game": "fipsen", "players": 4, "deal": {"contract": "tricks", "declarer": 1, "bid": 4,
                                                         "hand": True, "tricks_taken": 4}}),
    adjudicate({"game": "fipsen", "dealer": 3, "compare": [{"bid": 3, "hand": True, "seat": 0},
                                                          {"bid": 3, "ruten": True, "seat": 2}]}),
    adjudicate({"game": "skat", "deal": {"contract": "grand", "card_points": 130}}),
]
judge({"game": "kop", "deal": {"contract": "normal", "old": [0, 2], "card_points": 60}})
print(json.dumps({
    "ok": [answer["ok"] for answer in answers],
    "games": sorted(name for name in sys.modules if name.startswith("scorekeep.rules.")),
    "django": sorted(name for name in sys.modules if name.startswith("django")),
}))
"""


def test_the_rules_engine_imports_and_adjudicates_without_loading_django() -> None:
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}

    result = subprocess.run([sys.executable, "-c", PROGRAM], cwd=REPO, env=env, capture_output=True, text=True,
                            timeout=60, check=False)

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["ok"] == [True, True, True, True, True, False]  # it really scored each game
    assert {"scorekeep.rules.skat", "scorekeep.rules.schafkopf", "scorekeep.rules.kop",
            "scorekeep.rules.fipsen"} <= set(report["games"])
    assert report["django"] == []
