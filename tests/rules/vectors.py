"""The public conformance vectors (../shared/vectors beside the repository, as CI has it)."""

import json
import os
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
VECTORS = SHARED / "vectors"


def load(game: str) -> list:
    """pytest params, one per vector of `game`, with the vector id as the test id.

    Missing vectors skip the tests on a developer's machine but fail under CI, where ../shared
    is always beside the clone: a CI run must never pass by skipping.
    """
    path = VECTORS / f"{game}.jsonl"
    if not path.exists():
        if os.environ.get("CI"):
            raise FileNotFoundError(f"{path} is missing: CI must have ../shared beside the repository")
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{path} not found"), id="no-vectors")]
    vectors = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [pytest.param(v, id=v["id"]) for v in vectors]


def same(expected: object, got: object) -> bool:
    """The conformance tool's JSON equality: true/false/null never equal numbers."""
    if isinstance(expected, bool) or expected is None or isinstance(got, bool) or got is None:
        return type(expected) is type(got) and expected == got
    if isinstance(expected, (int, float)):
        return isinstance(got, (int, float)) and expected == got
    if isinstance(expected, list):
        return isinstance(got, list) and len(expected) == len(got) and all(map(same, expected, got))
    if isinstance(expected, dict):
        return isinstance(got, dict) and expected.keys() == got.keys() and all(
            same(expected[k], got[k]) for k in expected)
    return type(expected) is type(got) and expected == got


def check(vector: dict, verdict: dict) -> None:
    """Assert `verdict` meets the vector's expectation, as the conformance tool judges it."""
    expect = vector["expect"]
    if expect.get("ok") is False:
        assert verdict.get("ok") is False, f"expected a rejection, got {verdict}"
        assert verdict["errors"] and all(e["field"] and e["message"] for e in verdict["errors"])
        return
    assert verdict.get("ok") is True, f"expected a verdict, got {verdict}"
    for key, want in expect.items():
        assert key in verdict, f"{key} missing from {verdict}"
        assert same(want, verdict[key]), f"{key}: expected {want!r}, got {verdict[key]!r}"
