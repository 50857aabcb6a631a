"""The public conformance vectors (../shared/vectors), in-process and through the real command line.

Locally a checkout without ../shared skips these; under CI (the CI variable set) a missing
../shared fails them, so CI can never pass by skipping.
"""

import os
import shlex
import shutil
import subprocess
import sys

import pytest

from scorekeep.rules import adjudicate
from tests.conftest import REPO
from tests.rules.vectors import SHARED, VECTORS, check, load

TOOL = SHARED / "tools" / "conformance.py"
VECTOR_FILES = sorted(VECTORS.glob("*.jsonl"))


def every_vector() -> list:
    """One pytest param per vector of every file, its id the vector's id."""
    if not VECTOR_FILES:
        return load("skat")  # the shared loader's answer to a missing ../shared: skip, or fail under CI
    return [param for path in VECTOR_FILES for param in load(path.stem)]


@pytest.mark.parametrize("vector", every_vector())
def test_vector_in_process(vector: dict) -> None:
    check(vector, adjudicate(vector["input"]))


def test_all_vectors_through_manage_py_adjudicate() -> None:
    if not (TOOL.exists() and VECTOR_FILES):
        message = f"{SHARED} (the conformance tool and vectors) is not beside the repository"
        if os.environ.get("CI"):
            pytest.fail(message + "; CI must have it")
        pytest.skip(message)
    python3 = shutil.which("python3") or sys.executable
    command = f"{shlex.quote(sys.executable)} manage.py adjudicate"

    result = subprocess.run([python3, str(TOOL), "--cmd", command, *map(str, VECTOR_FILES)], cwd=REPO,
                            capture_output=True, text=True, timeout=300, check=False)

    last = result.stdout.strip().splitlines()[-1]
    vectors = sum(1 for path in VECTOR_FILES for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    assert last == f"conformance: {vectors} passed, 0 failed", result.stdout + result.stderr
    assert result.returncode == 0
