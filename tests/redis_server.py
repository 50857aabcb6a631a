"""A Redis server of a test's own (Debian's redis-server on a free loopback port, nothing saved to disk), for the
shared cache of several app servers (scorekeep.cache). Without redis-server or the `redis` package the tests
that need it are skipped, as the browser tests are without Chromium; under CI (CI set) that is a failure:
.ci/run installs redis-server and requirements.txt pins the package."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.live_site import free_port


def need_redis() -> None:
    """Skip (fail under CI) where redis-server or the redis package is missing."""
    missing = [what for what, there in (
        ("redis-server (apt-get install redis-server)",
         shutil.which("redis-server") or Path("/usr/bin/redis-server").exists()),
        ("the redis package (pip install -r requirements.txt)", importlib.util.find_spec("redis") is not None),
    ) if not there]
    if missing:
        reason = "the shared cache's tests need " + " and ".join(missing)
        if os.environ.get("CI"):
            pytest.fail(reason + "; CI is set, so this is a failure, not a skip")
        pytest.skip(reason)


@dataclass
class RedisServer:
    directory: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start it (again, on the same port, empty) and wait until it answers PING."""
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.directory), "--loglevel", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        import redis

        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5)
        deadline = time.monotonic() + 20
        while True:
            assert self.process.poll() is None, "redis-server exited"
            try:
                if client.ping():
                    break
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        client.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # nothing to save: as a crash or a stop, all the same to a cache
            self.process.wait(timeout=10)
        self.process = None
