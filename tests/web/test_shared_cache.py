"""The shared cache of several app servers (issue 32): Redis through scorekeep.cache.ForgivingRedisCache. Two
servers are two cache clients (connection pools of their own) on one Redis: the viewers' standings board is
computed once per freshness window whichever server is asked, a PDF asked on both at once is rendered once, and a
Redis that is down answers as an empty cache (the site works, slower) and is used again once it is back."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from scorekeep.nights import writes as nights
from scorekeep.printing import pdf
from scorekeep.tournaments import standings
from tests.redis_server import RedisServer, need_redis
from tests.tournament_fixtures import draw, tournament

POLL = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "live-standings"}


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    need_redis()
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


def server_cache(url: str) -> Any:
    """One app server's cache, as settings.py makes it from SCOREKEEP_REDIS_URL."""
    from scorekeep.cache import ForgivingRedisCache

    return ForgivingRedisCache(url, {"KEY_PREFIX": "scorekeep", "OPTIONS": {"socket_connect_timeout": 0.5,
                                                                             "socket_timeout": 1.0}})


class Servers:
    """Which server's cache the code in this thread speaks to (each thread a request on one server)."""

    def __init__(self, *caches: Any) -> None:
        self.caches = caches
        self.local = threading.local()

    def on(self, n: int) -> None:
        self.local.n = n

    def __getattr__(self, name: str) -> Any:
        return getattr(self.caches[getattr(self.local, "n", 0)], name)

    def each(self, make: Any) -> Any:
        """One `make()` per server (a lock, a semaphore), the one of the thread's server used."""
        servers, objects = self, [make() for _ in self.caches]

        class PerServer:
            def __getattr__(self, name: str) -> Any:
                return getattr(objects[getattr(servers.local, "n", 0)], name)

            def __enter__(self) -> Any:
                return objects[getattr(servers.local, "n", 0)].__enter__()

            def __exit__(self, *exc: Any) -> Any:
                return objects[getattr(servers.local, "n", 0)].__exit__(*exc)

        return PerServer()


@pytest.fixture
def two_servers(redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[Servers]:
    servers = Servers(server_cache(redis_server.url), server_cache(redis_server.url))
    servers.caches[0].clear()
    monkeypatch.setattr("scorekeep.tournaments.standings_views.cache", servers)
    monkeypatch.setattr("scorekeep.printing.pdf.cache", servers)
    yield servers
    for cache in servers.caches:
        cache.close()


@pytest.mark.django_db
def test_two_servers_compute_a_tournament_s_board_once_per_freshness_window(
        client: Client, two_servers: Servers, settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.SCOREKEEP_STANDINGS_FRESH = 5
    clock = [1_000_000.0]
    monkeypatch.setattr("scorekeep.tournaments.standings_views.time.time", lambda: clock[0])
    computed = []
    compute = standings.standings
    monkeypatch.setattr(standings, "standings", lambda *a, **k: computed.append(1) or compute(*a, **k))
    tour = tournament("skat", "isko", players=3)
    (t1,) = draw(tour, 1, [[1, 2, 3]])
    url = f"/standings/{tour.viewer_token}/screen/"

    def poll(server: int, tag: str = "") -> Any:
        two_servers.on(server)
        return client.get(url, HTTP_IF_NONE_MATCH=tag, **POLL)

    first = poll(0)
    assert first.status_code == 200 and len(computed) == 1
    for server in (1, 0, 1):  # the other server answers from the board the first one computed
        assert poll(server, first["ETag"]).status_code == 304
        assert poll(server).content == first.content
    assert len(computed) == 1
    nights.enter_deal(t1, {"contract": "grand", "declarer": 0, "bid": 18, "matadors": -1, "card_points": 70})
    clock[0] += 6  # the window is over and the tournament changed
    two_servers.caches[0].add(f"standings:{tour.viewer_token}:screen:0:en:claim", 1, timeout=30)
    assert poll(1, first["ETag"]).status_code == 304  # server 0 is computing it: server 1 serves the last board
    two_servers.caches[0].delete(f"standings:{tour.viewer_token}:screen:0:en:claim")
    assert len(computed) == 1
    fresh = poll(1, first["ETag"])
    assert fresh.status_code == 200 and fresh["ETag"] != first["ETag"] and len(computed) == 2
    assert poll(0, fresh["ETag"]).status_code == 304 and len(computed) == 2


def test_a_pdf_asked_on_two_servers_at_once_is_rendered_once(two_servers: Servers,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    rendering, renders = threading.Event(), []

    def render(html: str, timeout: float = 60) -> bytes:
        renders.append(html)
        rendering.set()
        threading.Event().wait(0.5)  # the other server asks meanwhile
        return b"%PDF-1.7 " + html.encode()

    monkeypatch.setattr(pdf, "render", render)
    monkeypatch.setattr(pdf, "_turn", two_servers.each(threading.Lock))  # each server its own Chromium's turn
    monkeypatch.setattr(pdf, "_queue", two_servers.each(lambda: threading.Semaphore(1 + pdf.WAITING)))
    answers: list[bytes] = []

    def ask(server: int) -> None:
        two_servers.on(server)
        answers.append(pdf.rendered("night-1-v3-en", lambda: "<p>the list</p>"))

    first = threading.Thread(target=ask, args=(0,))
    first.start()
    assert rendering.wait(10)
    second = threading.Thread(target=ask, args=(1,))
    second.start()
    first.join(10)
    second.join(10)
    assert answers == [b"%PDF-1.7 <p>the list</p>"] * 2 and len(renders) == 1
    ask(1)  # asked again later, on either server: from the cache
    assert len(renders) == 1


@pytest.mark.django_db
def test_a_redis_that_is_down_costs_time_not_answers_and_is_used_again_once_back(
        client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        settings: Any) -> None:
    need_redis()
    import scorekeep.cache

    monkeypatch.setattr(scorekeep.cache, "RETRY_SECONDS", 0.0)
    settings.SCOREKEEP_STANDINGS_FRESH = 5
    down = RedisServer(tmp_path)  # its port: nothing listens there yet
    cache = server_cache(down.url)
    monkeypatch.setattr("scorekeep.tournaments.standings_views.cache", cache)
    monkeypatch.setattr("scorekeep.printing.pdf.cache", cache)
    monkeypatch.setattr(pdf, "render", lambda html, timeout=60: b"%PDF " + html.encode())
    assert cache.get("x", "default") == "default" and cache.add("claim", 1) is True
    cache.set("x", 1)
    assert cache.delete("x") is False and cache.get_many(["x"]) == {}
    tour = tournament("skat", "isko", players=3)
    draw(tour, 1, [[1, 2, 3]])
    url = f"/standings/{tour.viewer_token}/"
    page = client.get(url)
    assert page.status_code == 200 and "Player 1" in page.content.decode()
    assert client.get(url, HTTP_IF_NONE_MATCH=page["ETag"], **POLL).status_code == 304  # computed again, same
    assert pdf.rendered("k", lambda: "<p>x</p>") == b"%PDF <p>x</p>"
    said = [r.getMessage() for r in caplog.records if r.name == "scorekeep.cache"]
    assert len(said) == 1 and said[0].startswith("The shared cache (Redis) cannot be reached"), said  # once
    down.start()
    try:
        cache.set("x", 1)
        assert cache.get("x") == 1
        assert caplog.records[-1].getMessage() == "The shared cache (Redis) answers again."
        assert client.get(url, **POLL).status_code == 200 and cache.get(
            f"standings:{tour.viewer_token}:phone:0:en") is not None  # the board kept in Redis again
    finally:
        down.stop()
        cache.close()


def test_a_server_speaks_to_redis_through_one_client_made_once(redis_server: RedisServer,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import redis

    made = []
    real = redis.Redis.__init__

    def counted(self: Any, *args: Any, **kwargs: Any) -> None:
        made.append(1)
        real(self, *args, **kwargs)

    monkeypatch.setattr(redis.Redis, "__init__", counted)
    cache = server_cache(redis_server.url)
    try:
        for n in range(5):  # each call once made a client of its own (≈0.2 ms of CPU, a poll's round trip)
            cache.set(f"one-client-{n}", n)
            assert cache.get(f"one-client-{n}") == n and cache.get_many([f"one-client-{n}"]) == {f"one-client-{n}": n}
        assert len(made) == 1
    finally:
        cache.close()
