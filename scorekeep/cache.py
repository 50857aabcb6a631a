"""The shared cache of several app servers: Redis (`SCOREKEEP_REDIS_URL`), through Django's own `RedisCache`,
made forgiving.

What the cache keeps is only ever saved work — the viewers' standings board, rendered PDFs, a board's or a PDF's
claim — never something that must be right: the throttles' counts and the idempotency keys stay in the database
(atomic there). So a Redis that is down, restarting or slow must cost time, not answers: Django's backend raises
on a connection error, and this one logs it (once, and again when Redis is back) and answers as an empty cache
would: nothing found, nothing kept, every claim granted (each server then computes for itself, as without a
shared cache). After a failure it does not try Redis again for `RETRY_SECONDS`, so a Redis that is gone costs
one failed connection a few seconds, not one a request.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

log = logging.getLogger("scorekeep.cache")

RETRY_SECONDS = 2.0  # after a failure, Redis is left alone this long: calls answer as an empty cache
T = TypeVar("T")


def _failures() -> tuple[type[BaseException], ...]:
    # Only where Redis is configured (the package is needed then; not installed everywhere mypy runs).
    import redis  # type: ignore[import-not-found, unused-ignore]

    return redis.RedisError, OSError


class _ClientKept(RedisCacheClient):
    """Django's Redis client maker, keeping the `redis.Redis` it makes for each connection pool. Django makes a
    new one for every call — some 200 response callbacks set up each time, as much CPU as a small command's
    whole round trip to Redis, and a viewer's poll is one such command. One client serves every thread: each
    command takes a connection of its own from the pool."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's own attributes (the stubs name only the public ones).
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:  # two threads may both make one: either serves
            client = self._clients[id(pool)] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


class ForgivingRedisCache(RedisCache):
    """Django's `RedisCache` that answers as an empty cache while Redis cannot be reached (see the module)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _ClientKept
        self._down_until = 0.0
        self._lock = threading.Lock()
        self._reported = False

    def _try(self, call: Callable[[], T], fallback: T) -> T:
        if time.monotonic() < self._down_until:
            return fallback
        try:
            answer = call()
        except _failures() as failure:
            with self._lock:
                self._down_until = time.monotonic() + RETRY_SECONDS
                if not self._reported:  # once per outage, not once a request
                    self._reported = True
                    log.warning("The shared cache (Redis) cannot be reached, working without it: %s", failure)
            return fallback
        if self._reported:
            with self._lock:
                if self._reported:
                    self._reported = False
                    log.warning("The shared cache (Redis) answers again.")
        return answer

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        # Granted while Redis is down: a claim only saves work, and without Redis each server does its own.
        return self._try(lambda: super(ForgivingRedisCache, self).add(key, value, timeout, version), True)

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._try(lambda: super(ForgivingRedisCache, self).get(key, default, version), default)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        self._try(lambda: super(ForgivingRedisCache, self).set(key, value, timeout, version), None)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._try(lambda: super(ForgivingRedisCache, self).touch(key, timeout, version), False)

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._try(lambda: super(ForgivingRedisCache, self).delete(key, version), False)

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        return self._try(lambda: super(ForgivingRedisCache, self).get_many(keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._try(lambda: super(ForgivingRedisCache, self).has_key(key, version), False)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        # Nothing here counts what decides (that is the database's); a missing key raises as in any backend.
        missing = object()
        answer = self._try(lambda: super(ForgivingRedisCache, self).incr(key, delta, version), missing)
        if answer is missing:
            raise ValueError(f"Key '{key}' not found (the shared cache cannot be reached)")
        return answer  # type: ignore[return-value]

    def set_many(self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> list[Any]:
        return self._try(lambda: super(ForgivingRedisCache, self).set_many(data, timeout, version), list(data))

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        self._try(lambda: super(ForgivingRedisCache, self).delete_many(keys, version), None)

    def clear(self) -> None:
        self._try(lambda: super(ForgivingRedisCache, self).clear(), None)
