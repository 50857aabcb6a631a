"""A live site for the tests that need one: gunicorn on a throw-away database of its own, and phones
speaking plain HTTP to it (the standard library only). Used by tests/web/test_live_concurrency.py,
tests/web/test_crash.py and bench/load.py; and, served as README's "Serving in production" says (``production=True``:
DEBUG off, a secret key, `collectstatic` with the manifest storage, behind `Proxy` — nginx terminating HTTPS
with a certificate of its own), by the production pass, tests/production/.

The server is gunicorn — several processes with several threads each, as the app is served — on a
throw-away database: a SQLite file, or, when DATABASE_URL names PostgreSQL (CI), a temporary PostgreSQL
database beside the test database. Not pytest-django's ``live_server``: on SQLite its test database lives
in memory and Django hands the server's request threads that one shared connection, so concurrent
requests would interleave their transactions on a single connection instead of contending for the
database as phones do. The tests set a night up and read it back in a separate Django process
(`Site.django`), which sees the server's database as it is on disk.
"""

from __future__ import annotations

import base64
import hashlib
import http.client
import json
import os
import pwd
import re
import secrets
import select
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode, urlsplit, urlunsplit

if TYPE_CHECKING:
    import psycopg

REPO = Path(__file__).resolve().parent.parent
NAMES = ["Anna", "Bernd", "Clara"]
# What the pages say (English: the app's language unless a catalogue is chosen).
ENTERED_MEANWHILE = "was entered meanwhile on another phone"
CHANGED_MEANWHILE = "Changed meanwhile"
SAVED = '<p class="saved'  # "Deal 3 saved: Anna: Grand · won 72" (htmx: said, the row marked), a message
SAVED_ALREADY = "This deal was saved already"


# --- a throw-away database and a server on it ----------------------------------------------------------

@dataclass
class Database:
    """A database for one server: its DATABASE_URL, and how to remove it afterwards."""

    url: str
    drop: Callable[[], None] = lambda: None

    @property
    def vendor(self) -> str:
        return "sqlite" if self.url.startswith("sqlite") else "postgresql"


def temp_database(directory: Path, base_url: str | None = None) -> Database:
    """A new empty database: a SQLite file in `directory`, or a PostgreSQL database named
    ``scorekeep_live_<random>`` on the server of `base_url` (default: DATABASE_URL) when that is PostgreSQL.
    The role needs CREATEDB, as for pytest-django's test database."""
    base_url = base_url if base_url is not None else os.environ.get("DATABASE_URL", "")
    if not base_url.startswith(("postgres://", "postgresql://")):
        return Database(f"sqlite:///{directory / 'live.sqlite3'}")

    parts = urlsplit(base_url)
    name = f"scorekeep_live_{secrets.token_hex(4)}"
    with postgres_admin(base_url) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        import psycopg

        # FORCE ends the sessions still on it, but a role without superuser may not end an autovacuum worker
        # (PostgreSQL: "must be a member of the role whose process is being terminated", seen in CI once, after
        # a bench's burst of writes). A plain DROP makes autovacuum give way; the worker is gone within moments.
        for attempt in range(20):
            try:
                with postgres_admin(base_url) as connection:
                    connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                return
            except (psycopg.errors.InsufficientPrivilege, psycopg.errors.ObjectInUse):
                if attempt == 19:
                    raise
                time.sleep(0.25)

    return Database(urlunsplit(parts._replace(path=f"/{name}")), drop)


def postgres_admin(url: str) -> psycopg.Connection[Any]:
    """A connection to the maintenance database of `url`'s server, as Django uses for creating its test database."""
    import psycopg

    return psycopg.connect(urlunsplit(urlsplit(url)._replace(path="/postgres")), autocommit=True)


# --- what every site needs, made once: the migrated database, the collected static files -------------------
# `manage.py migrate` on a new database costs seconds of CPU, `collectstatic` with the manifest storage (and its
# compression) seconds more; a test run starts dozens of sites. Each is done once into a template kept for reuse
# (by later sites, later processes and later runs), named by a hash of everything it is made from, so that a
# changed migration or static file is never served stale: a new hash, a new template.
TEMPLATES = Path(tempfile.gettempdir()) / "scorekeep-live-templates"


def manage(command: str, env: dict[str, str], *args: str) -> None:
    """`manage.py <command> --noinput args…` in a process of its own with `env`; fail with its errors."""
    done = subprocess.run([sys.executable, "manage.py", command, "--noinput", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr


def made_from(*patterns: str, more: str = "") -> str:
    """A hash of the files under REPO matching `patterns` (their names and contents), the settings, the
    versions of the packages whose migrations and static files count too (Django's own), and `more`."""
    from importlib.metadata import version

    digest = hashlib.sha256(f"django {version('django')} whitenoise {version('whitenoise')} {more}".encode())
    files = {REPO / "scorekeep" / "settings.py"} | {path for pattern in patterns for path in REPO.glob(pattern)}
    for path in sorted(path for path in files if path.is_file()):
        digest.update(str(path.relative_to(REPO)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def migrations_hash() -> str:
    return made_from("scorekeep/**/migrations/*.py")


def copy_migrated(database: Database, env: dict[str, str]) -> bool:
    """Make the still empty `database` a copy of the migrated template — False when it is not empty (a site
    migrated already, or given a database with data): then it is migrated as it is. SQLite: the template is a
    file, copied; PostgreSQL: a database on the same server that takes no connections, copied by CREATE
    DATABASE … TEMPLATE, made once under an advisory lock (test processes on several workers start at once)."""
    if database.vendor == "sqlite":
        path = Path(database.url.removeprefix("sqlite:///"))
        if path.exists() and path.stat().st_size > 0:
            return False
        template = TEMPLATES / f"migrated-{migrations_hash()}.sqlite3"
        if not template.exists():
            TEMPLATES.mkdir(exist_ok=True)
            building = template.with_name(f"building-{os.getpid()}-{secrets.token_hex(4)}.sqlite3")
            manage("migrate", {**env, "DATABASE_URL": f"sqlite:///{building}"})
            # Its last connection closed, SQLite wrote the write-ahead log back into the file (no -wal left).
            os.replace(building, template)  # whole or not there: a process racing this one makes its own
        shutil.copyfile(template, path)
        return True
    import psycopg

    with psycopg.connect(database.url) as connection:
        if connection.execute("SELECT 1 FROM pg_tables WHERE schemaname = 'public' LIMIT 1").fetchone():
            return False
    parts = urlsplit(database.url)
    name = parts.path.removeprefix("/")
    copied = f"scorekeep_migrated_{migrations_hash()}"
    with postgres_admin(database.url) as connection:
        connection.execute("SELECT pg_advisory_lock(hashtext(%s))", [copied])
        made = connection.execute("SELECT datallowconn FROM pg_database WHERE datname = %s", [copied]).fetchone()
        if made is None or made[0]:  # not there, or left half-made by a process that died migrating it
            connection.execute(f'DROP DATABASE IF EXISTS "{copied}" WITH (FORCE)')
            connection.execute(f'CREATE DATABASE "{copied}"')
            manage("migrate", {**env, "DATABASE_URL": urlunsplit(parts._replace(path=f"/{copied}"))})
            # No connection can be open while it is copied: none is ever allowed (and it marks it as whole).
            connection.execute(f'ALTER DATABASE "{copied}" ALLOW_CONNECTIONS false')
        connection.execute("SELECT pg_advisory_unlock(hashtext(%s))", [copied])
        connection.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{copied}"')
    return True


def collected_static(env: dict[str, str]) -> Path:
    """The static files as `manage.py collectstatic` collects them with `env`'s settings, collected once into a
    template directory (renamed into place whole, so a racing process never copies half of it)."""
    template = TEMPLATES / f"static-{made_from('static/**/*', more=env.get('SCOREKEEP_DEBUG', ''))}"
    if not template.exists():
        TEMPLATES.mkdir(exist_ok=True)
        building = template.with_name(f"building-{os.getpid()}-{secrets.token_hex(4)}")
        manage("collectstatic", {**env, "SCOREKEEP_STATIC_ROOT": str(building)})
        try:
            os.rename(building, template)
        except OSError:  # another process put its own there meanwhile: the same files
            shutil.rmtree(building)
    return template


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_answering(process: subprocess.Popen[bytes], connect: Callable[[], http.client.HTTPConnection],
                         headers: dict[str, str], what: str, log: Callable[[], str]) -> None:
    """Wait until the server `process` answers GET /adjudicate/ with 200 on a connection from `connect`; fail
    with its log as soon as it exits, or after 30 s."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert process.poll() is None, log()
        try:
            connection = connect()
            connection.request("GET", "/adjudicate/", headers=headers)
            if connection.getresponse().status == 200:
                connection.close()
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"{what} did not answer within 30 s")


@dataclass
class Site:
    """gunicorn serving scorekeep on loopback, on its own database (migrated when made)."""

    database: Database
    directory: Path
    workers: int = 2
    threads: int = 4
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0
    settings: dict[str, str] = field(default_factory=dict)  # more environment, e.g. SCOREKEEP_BEHIND_PROXY
    keep_alive: int = 2  # seconds gunicorn keeps an idle connection (its default)
    # Served as README's "Serving in production" says: DEBUG off (secure cookies, HTTPS redirect, HSTS), a secret
    # key, the host names allowed, the client's address from the proxy, the static files collected into the
    # site's directory (`collectstatic`, before `start`) and served with their hashed names.
    production: bool = False
    # `django`'s process (tests/site_runner.py), the environment it was started with, and one call at a time.
    _runner: subprocess.Popen[str] | None = field(default=None, repr=False)
    _runner_env: dict[str, str] = field(default_factory=dict, repr=False)
    _runner_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        if self.production:
            self.settings = {"SCOREKEEP_DEBUG": "0", "SCOREKEEP_SECRET_KEY": secrets.token_urlsafe(50),
                             "SCOREKEEP_ALLOWED_HOSTS": "127.0.0.1,localhost", "SCOREKEEP_BEHIND_PROXY": "1",
                             "SCOREKEEP_STATIC_ROOT": str(self.directory / "static"), **self.settings}

    @property
    def env(self) -> dict[str, str]:
        return {**os.environ, "DATABASE_URL": self.database.url, "DJANGO_SETTINGS_MODULE": "scorekeep.settings",
                "SCOREKEEP_LOG_LEVEL": "ERROR", "PYTHONUNBUFFERED": "1", **self.settings}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def migrate(self) -> None:
        """The site's database migrated: a copy of the migrated template (`copy_migrated`) when it is still
        empty, else `manage.py migrate` on it."""
        if not copy_migrated(self.database, self.env):
            manage("migrate", self.env)

    def collectstatic(self) -> None:
        """The static files as production's `manage.py collectstatic` leaves them (the manifest storage when
        DEBUG is off) in the site's STATIC_ROOT: a copy of those collected once (`collected_static`) when it is
        the site's own directory and still empty, else collected there."""
        root = self.settings.get("SCOREKEEP_STATIC_ROOT")
        if root and not (Path(root).exists() and any(Path(root).iterdir())):
            shutil.copytree(collected_static(self.env), root, dirs_exist_ok=True)
        else:
            manage("collectstatic", self.env)

    @property
    def log(self) -> str:
        """What the server wrote (every start's log, in order): its errors and tracebacks."""
        return "".join((self.directory / f"gunicorn-{n}.log").read_text(errors="replace") for n in range(self.starts))

    def django(self, code: str, **values: Any) -> Any:
        """Run `code` in the site's Django process (tests/site_runner.py: started at the first call, kept until
        `stop`) on the site's database, as a fresh process would: `values` arrive as the dict ``ARGS``; what the
        code assigns to ``OUT`` comes back (as JSON). An exception in the code fails with its traceback."""
        with self._runner_lock:
            runner = self._runner_started()
            assert runner.stdin is not None and runner.stdout is not None
            runner.stdin.write(json.dumps({"code": code, "args": values}) + "\n")
            runner.stdin.flush()
            ready, _, _ = select.select([runner.stdout], [], [], 120)
            line = runner.stdout.readline() if ready else ""
            if not line:  # no answer in time, or the process died: a fresh one for the next call
                self._stop_runner()
                raise AssertionError(f"the site's Django process did not answer:\n{self._runner_log()[-4000:]}")
        answer = json.loads(line)
        assert "error" not in answer, answer["error"]
        return answer["out"]

    def _runner_started(self) -> subprocess.Popen[str]:
        """The site's Django process, started now if there is none or the site's environment changed since."""
        env = self.env
        if self._runner is not None and (self._runner.poll() is not None or self._runner_env != env):
            self._stop_runner()
        if self._runner is None:
            with open(self.directory / "django.log", "ab") as log:
                self._runner = subprocess.Popen([sys.executable, "-m", "tests.site_runner"], cwd=REPO, env=env,
                                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                                                text=True, encoding="utf-8")
            self._runner_env = env
        return self._runner

    def _stop_runner(self) -> None:
        """End the Django process: stdin closed, it exits (it holds no database connection between calls)."""
        runner, self._runner = self._runner, None
        if runner is None:
            return
        for stream in (runner.stdin, runner.stdout):
            if stream is not None:
                stream.close()
        try:
            runner.wait(timeout=10)
        except subprocess.TimeoutExpired:
            runner.kill()
            runner.wait(timeout=10)

    def _runner_log(self) -> str:
        path = self.directory / "django.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def start(self) -> None:
        """Start gunicorn and wait until it answers. Its own process group, so `kill` reaches every worker."""
        log = open(self.directory / f"gunicorn-{self.starts}.log", "wb")  # noqa: SIM115 - the server writes it
        self.starts += 1
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "scorekeep.wsgi", "--bind", f"127.0.0.1:{self.port}",
             "--workers", str(self.workers), "--threads", str(self.threads), "--worker-class", "gthread",
             "--timeout", "60", "--graceful-timeout", "2", "--backlog", "512", "--keep-alive", str(self.keep_alive)],
            cwd=REPO, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        # In production the site redirects plain HTTP to HTTPS unless a proxy says the client's request was HTTPS.
        headers = {"X-Forwarded-Proto": "https"} if self.production else {}
        log_file = self.directory / f"gunicorn-{self.starts - 1}.log"
        wait_until_answering(self.process, lambda: http.client.HTTPConnection("127.0.0.1", self.port, timeout=2),
                             headers, "gunicorn", lambda: log_file.read_text())

    def kill(self) -> None:
        """SIGKILL the whole server (master and workers) at once: no shutdown, no cleanup — a crash."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        """Stop the server, and the site's Django process (started again by the next `django` call)."""
        with self._runner_lock:
            self._stop_runner()
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        self.process = None

    def night(self, tables: int = 1, game: str = "skat", preset: str = "isko") -> dict[str, Any]:
        """A new open-ended night with `tables` tables of three: its id and links."""
        return self.django(SETUP, tables=tables, game=game, preset=preset, names=NAMES)

    def inspect(self, night_id: int) -> dict[str, Any]:
        """The night's tables as stored (see INSPECT)."""
        return self.django(INSPECT, night=night_id)


NGINX_CONFIG = """
# nginx in front of one test site, as README's production section has it: HTTPS ends here, and the site hears
# the scheme, the host and the client's address from the proxy. In the foreground, its files in its directory.
daemon off;
worker_processes 1;
user {user};
pid {directory}/nginx.pid;
error_log {directory}/error.log warn;
events {{ worker_connections 512; }}
http {{
    access_log {directory}/access.log;
    client_body_temp_path {directory}/body;
    proxy_temp_path {directory}/proxy;
    fastcgi_temp_path {directory}/fastcgi;
    uwsgi_temp_path {directory}/uwsgi;
    scgi_temp_path {directory}/scgi;
    server {{
        listen 127.0.0.1:{port} ssl;
        ssl_certificate {directory}/cert.pem;
        ssl_certificate_key {directory}/key.pem;
        location / {{
            proxy_pass http://127.0.0.1:{upstream};
            proxy_set_header Host $http_host;  # with the port: the browser's Origin names it (CSRF)
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_read_timeout 120s;
        }}
    }}
}}
"""


@dataclass
class Proxy:
    """nginx in front of `site` on a loopback port of its own, terminating HTTPS with a self-signed certificate
    made for 127.0.0.1 (`cert`: a phone here trusts it; Chromium is told its key, `spki`), passing `Host`,
    `X-Forwarded-Proto` and `X-Forwarded-For` as README's "Serving in production" says. Not the system's nginx
    service: a foreground process of the test's, its configuration, pid and logs in `directory`."""

    site: Site
    directory: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    @property
    def cert(self) -> Path:
        return self.directory / "cert.pem"

    @property
    def spki(self) -> str:
        """The certificate's public key as Chromium's --ignore-certificate-errors-spki-list takes it (base64 of
        the SHA-256 of the DER key), so that the browser accepts this certificate and no other."""
        key = subprocess.run(["openssl", "x509", "-in", str(self.cert), "-noout", "-pubkey"], capture_output=True,
                             check=True).stdout
        der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=key, capture_output=True,
                             check=True).stdout
        return base64.b64encode(hashlib.sha256(der).digest()).decode()

    def start(self) -> None:
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        assert Path(nginx).exists(), "the production pass needs nginx (apt-get install nginx; .ci/run does)"
        self.directory.mkdir(parents=True, exist_ok=True)
        if not self.cert.exists():
            subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                            "-nodes", "-keyout", str(self.directory / "key.pem"), "-out", str(self.cert), "-days", "2",
                            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                           capture_output=True, check=True)
        config = self.directory / "nginx.conf"
        config.write_text(NGINX_CONFIG.format(user=pwd.getpwuid(os.geteuid()).pw_name, directory=self.directory,
                                              port=self.port, upstream=self.site.port))
        log = open(self.directory / "nginx.log", "wb")  # noqa: SIM115 - nginx writes it
        self.process = subprocess.Popen([nginx, "-p", str(self.directory), "-e", str(self.directory / "error.log"),
                                         "-c", str(config)], stdout=log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        log.close()
        context = ssl.create_default_context(cafile=str(self.cert))
        wait_until_answering(
            self.process, lambda: http.client.HTTPSConnection("127.0.0.1", self.port, timeout=2, context=context),
            {}, "nginx", lambda: "".join((self.directory / name).read_text() for name in ("nginx.log", "error.log")))

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)  # nginx's fast shutdown
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        self.process = None


HAPROXY_CONFIG = """
# haproxy in front of several app servers on one database and one Redis, as README's "Several app servers" has
# it: HTTPS ends here, the requests go round the servers, a server that stops answering its health check is
# left out until it answers again, and the site hears the scheme and the client's address from the balancer.
# In the foreground, its files in its directory. X-Served-By (the server's name; empty for an answer from the
# cache) and X-Cache-Hit are the tests' additions.
global
    maxconn {maxconn}
defaults
    mode http
    timeout connect 2s
    timeout client 120s
    timeout server 120s
    timeout http-request 10s
    # A phone keeps its connection between polls (README's recipe: the client's timeout applies there).
    timeout http-keep-alive 120s
    timeout queue 60s
    option forwardfor
    # A request whose connection to a server failed (not sent) goes to another one; one that was sent is not
    # sent again here: the phone sends it again itself, with its idempotency key.
    retries 2
    option redispatch
{cache_section}frontend site
    bind 127.0.0.1:{port}{tls}
{cache_use}    # When every server thread is busy, the tables' requests go ahead of the spectators' in haproxy's queue
    # (a lower class first): a save waits for a free thread, not behind thousands of standings polls; and a
    # save or a correction (a POST) ahead of a page opened. Of the spectators', a board the cache lacks goes
    # before a page opened: it is kept for everyone once answered.
    http-request set-priority-class int(2) if {{ path_beg /standings/ }}
    http-request set-priority-class int(-1) if METH_POST
{board_first}
{cache_store}    http-response set-header X-Served-By %[srv_name]
    default_backend app
backend app
    balance roundrobin
    option httpchk
    http-check send meth GET uri /adjudicate/ ver HTTP/1.1 hdr Host 127.0.0.1 hdr X-Forwarded-Proto https
    # A check every second, given 5 s (a busy server is slow, not gone); a server refusing a connection is left
    # out at once (observe layer4), and taken back after one check it passes.
    timeout check 5s
    default-server inter 1s fall 2 rise 1 observe layer4 error-limit 1 on-error mark-down
{servers}
"""

# README's cache of the viewers' standings boards (issue 32: scorekeep.web.shared). What the tests add: each
# answer says whether the cache gave it (X-Cache-Hit: 1), and one from the cache drops the Server-Timing of the
# server that computed it (bench/spectators.py counts the servers' CPU per request).
HAPROXY_CACHE = """cache boards
    total-max-size 256
    max-object-size 4194304
    max-age 60
    process-vary on
"""
HAPROXY_CACHE_USE = """    acl board path_reg ^/standings/[^/]+/board/
    http-request cache-use boards if board
    http-request del-header If-None-Match if board
"""
HAPROXY_CACHE_STORE = """    http-response cache-store boards
    http-response set-header X-Cache-Hit %[res.cache_hit]
    http-response del-header Server-Timing if { res.cache_hit }
"""


@dataclass
class Balancer:
    """haproxy in front of `sites` (several gunicorn servers on one database) on a loopback port of its own,
    terminating HTTPS with a self-signed certificate made for 127.0.0.1 (`cert`), the requests going round the
    servers; each answer names its server (X-Served-By: app1, app2 …). A foreground process of the test's."""

    sites: list[Site]
    directory: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    tls: bool = True  # False: plain HTTP on loopback (bench/spectators.py: the app's cost, not the handshakes)
    maxconn: int = 2048  # connections at once (bench/spectators.py: one per viewer, each kept alive)
    cache: bool = True  # README's cache of the viewers' boards (False: every poll goes to a server)
    at_once: int | None = None  # requests a server is given at once (None: its workers × threads)

    @property
    def url(self) -> str:
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}"

    @property
    def cert(self) -> Path:
        return self.directory / "cert.pem"

    def start(self) -> None:
        haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
        assert Path(haproxy).exists(), "the several-servers pass needs haproxy (apt-get install haproxy; .ci/run does)"
        self.directory.mkdir(parents=True, exist_ok=True)
        if not self.cert.exists():
            subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                            "-nodes", "-keyout", str(self.directory / "key.pem"), "-out", str(self.cert), "-days", "2",
                            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                           capture_output=True, check=True)
            key = (self.directory / "key.pem").read_bytes()
            (self.directory / "site.pem").write_bytes(self.cert.read_bytes() + key)  # haproxy: one file
        # Each server gets at most as many requests at once as it has threads (or `at_once`); the rest wait in
        # haproxy's queue (and the health checks, which do not queue, still reach a busy server).
        servers = "\n".join(f"    server app{n} 127.0.0.1:{site.port} check maxconn "
                             f"{self.at_once or site.workers * site.threads}" for n, site in enumerate(self.sites, 1))
        config = self.directory / "haproxy.cfg"
        # Behind TLS the site hears it was HTTPS; plain, it is told nothing (it then needs SCOREKEEP_SSL_REDIRECT=0).
        tls = (f" ssl crt {self.directory}/site.pem\n    http-request set-header X-Forwarded-Proto https" if self.tls
               else "")
        config.write_text(HAPROXY_CONFIG.format(
            directory=self.directory, port=self.port, servers=servers, tls=tls, maxconn=self.maxconn,
            cache_section=HAPROXY_CACHE if self.cache else "", cache_use=HAPROXY_CACHE_USE if self.cache else "",
            cache_store=HAPROXY_CACHE_STORE if self.cache else "",
            board_first="    http-request set-priority-class int(1) if board\n" if self.cache else ""))
        log = open(self.directory / "haproxy.log", "wb")  # noqa: SIM115 - haproxy writes it
        self.process = subprocess.Popen([haproxy, "-db", "-f", str(config)], stdout=log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        log.close()
        context = ssl.create_default_context(cafile=str(self.cert))
        wait_until_answering(
            self.process, lambda: http.client.HTTPSConnection("127.0.0.1", self.port, timeout=2, context=context)
            if self.tls else http.client.HTTPConnection("127.0.0.1", self.port, timeout=2),
            {}, "haproxy", lambda: (self.directory / "haproxy.log").read_text())

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        self.process = None


SETUP = """
from scorekeep.nights import writes as nights
night = nights.start_night(game=ARGS["game"], preset=ARGS["preset"], players=ARGS["names"])
for _ in range(ARGS["tables"] - 1):
    nights.seat_table(night, ARGS["names"])
OUT = {"night": night.pk, "scorer": night.scorer_token, "viewer": night.viewer_token}
"""

# Everything a check needs, per table: the deals (deleted ones too) with their revisions, and whether
# recomputing the table from its facts gives the verdicts stored (done in a transaction rolled back, so
# the database is left as it was).
INSPECT = """
from django.db import transaction
from scorekeep.nights import ledger
from scorekeep.models import CardTable, Deal
OUT = []
for table in CardTable.objects.filter(night_id=ARGS["night"]).select_related("night").order_by("number"):
    deals = list(table.deals.order_by("sequence").prefetch_related("revisions"))
    stored = {deal.pk: (deal.verdict, deal.bock) for deal in deals}
    with transaction.atomic():
        ledger.recompute(table)
        again = {deal.pk: (deal.verdict, deal.bock) for deal in Deal.objects.filter(table=table)}
        transaction.set_rollback(True)
    OUT.append({"number": table.number, "recomputed_equal": again == stored, "deals": [
        {"sequence": deal.sequence, "deleted": deal.deleted, "version": deal.version, "facts": deal.facts,
         "verdict_ok": bool(deal.verdict.get("ok")) and "scores" in deal.verdict, "by": deal.entered_by,
         "revisions": [{"kind": r.kind, "key": r.request_key} for r in deal.revisions.all()]}
        for deal in deals]})
"""


# --- a phone: one session speaking HTTP ----------------------------------------------------------------

@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: str
    ms: float

    def saved(self) -> str:
        """Whether the server says it stored the deal — a 303 after a plain POST, or the htmx answer's
        message: "new", "replayed" (the key had made the deal already), or "" (not stored)."""
        if self.status == 303:
            return "new"
        if self.status == 200 and SAVED_ALREADY in self.body:
            return "replayed"
        if self.status == 200 and SAVED in self.body:
            return "new"
        return ""

    def offered(self, name: str) -> list[str]:
        """The values the page's forms may send for the input `name`, as a browser reads the form (a radio's
        or checkbox's each, a select's options, another input's value), in the page's order."""
        inputs = _Inputs()
        inputs.feed(self.body)
        inputs.close()
        return inputs.values.get(name, [])

    def hidden(self, name: str) -> str | None:
        """The value of the page's hidden input `name` (the entry form's `expected`, `key`, `version`)."""
        found = re.search(rf'name="{name}" value="([^"]*)"', self.body)
        return found.group(1) if found else None


class _Inputs(HTMLParser):
    """The named inputs of a page and the values each may send (`Answer.offered`)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.values: dict[str, list[str]] = {}
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "input" and named.get("name"):
            default = "on" if named.get("type") in ("radio", "checkbox") else ""
            self.values.setdefault(str(named["name"]), []).append(named.get("value") or default)
        elif tag == "select":
            self._select = named.get("name") or None
        elif tag == "option" and self._select is not None:
            self.values.setdefault(self._select, []).append(named.get("value") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


class Phone:
    """A phone at the table: its own cookies (session, CSRF), a new connection per request (a phone's
    connection comes and goes), nothing followed automatically."""

    def __init__(self, base_url: str, timeout: float = 30, cafile: Path | None = None,
                 source: str | None = None) -> None:
        """`base_url` https://…: through a proxy terminating HTTPS, whose certificate is `cafile`. `source`: the
        local address to connect from (a loopback address of its own: a phone of its own to the throttles)."""
        parts = urlsplit(base_url)
        self.https = parts.scheme == "https"
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or (443 if self.https else 80)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.context = ssl.create_default_context(cafile=str(cafile) if cafile else None) if self.https else None
        self.timeout = timeout
        self.cookies: dict[str, str] = {}
        self.source = (source, 0) if source else None

    def connection(self) -> http.client.HTTPConnection:
        if self.context is not None:
            return http.client.HTTPSConnection(self.host, self.port, timeout=self.timeout, context=self.context,
                                               source_address=self.source)
        return http.client.HTTPConnection(self.host, self.port, timeout=self.timeout, source_address=self.source)

    def request(self, method: str, path: str, data: dict[str, Any] | None = None,
                headers: dict[str, str] | None = None) -> Answer:
        """Raises OSError (refused, reset, timed out) when no answer came: the phone cannot know whether
        the server stored anything."""
        # A copy first (one C-level step under the GIL): a phone sending requests from several threads at once
        # (tests/web/test_throttle_concurrency.py) has its cookies set by an answer while another request reads them.
        cookies = dict(self.cookies)
        send = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()), **(headers or {})}
        body = None
        if data is not None:
            body = urlencode(data)
            send["Content-Type"] = "application/x-www-form-urlencoded"
            if "csrftoken" in cookies:
                send["X-CSRFToken"] = cookies["csrftoken"]
        if self.https and method != "GET":  # as a browser does: over HTTPS Django's CSRF check wants the origin
            send.setdefault("Origin", self.origin)
        start = time.perf_counter()
        connection = self.connection()
        try:
            connection.request(method, path, body=body, headers=send)
            response = connection.getresponse()
            text = response.read().decode()
        except http.client.HTTPException as err:  # a half-written answer from a killed server
            raise ConnectionError(str(err)) from err
        finally:
            connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return Answer(response.status, dict(response.headers.items()), text, (time.perf_counter() - start) * 1000)

    def send(self, method: str, path: str, body: bytes, headers: dict[str, str]) -> int:
        """Send `body` as it is (a malformed request: tests/malformed.py's ``Send``), with the phone's cookies; the
        answer's status. Its cookies are kept as a browser keeps them."""
        send = {"Cookie": "; ".join(f"{k}={v}" for k, v in dict(self.cookies).items()), **headers}
        if self.https and method != "GET":
            send.setdefault("Origin", self.origin)
        connection = self.connection()
        try:
            connection.request(method, path, body=body if method != "GET" else None, headers=send)
            response = connection.getresponse()
            response.read()
        finally:
            connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return response.status

    def join(self, token: str, table_path: str) -> Answer:
        """Open the night's link (scorer or viewer), then the table page (which sets the CSRF cookie)."""
        assert self.request("GET", f"/join/{token}/").status == 303
        page = self.request("GET", table_path)
        assert page.status == 200, page.body[:500]
        return page


def table_path(night_id: int, table: int = 1) -> str:
    return f"/nights/{night_id}/tables/{table}/"


def grand(declarer: int, card_points: int = 70, **more: Any) -> dict[str, Any]:
    """A Skat Grand with one, bid 18: valid for any declarer and card points 0 … 120 but 1 and 119."""
    return {"contract": "grand", "declarer": declarer % 3, "bid": 18, "matadors": 1, "card_points": card_points,
            **more}


def new_key() -> str:
    return uuid.uuid4().hex


def all_at_once(jobs: list[Callable[[], Any]]) -> list[Any]:
    """Run the jobs in threads released together (a barrier), and return their results in order."""
    barrier = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)

    def run(index: int) -> None:
        barrier.wait()
        try:
            results[index] = jobs[index]()
        except Exception as err:  # reported by the test, not lost in a thread
            results[index] = err

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


def assert_whole(table: dict[str, Any]) -> None:
    """No half-saved deal: each has its 'created' revision and a verdict, the numbers run 1 … n without a
    gap, and recomputing the table from the facts gives the verdicts stored."""
    assert [deal["sequence"] for deal in table["deals"]] == list(range(1, len(table["deals"]) + 1))
    for deal in table["deals"]:
        assert deal["verdict_ok"], deal
        assert [r["kind"] for r in deal["revisions"]][:1] == ["created"], deal
    assert table["recomputed_equal"]


