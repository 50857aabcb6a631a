"""Malformed requests, and how to send them to a site and check that none is answered with a server error.

Used by tests/test_malformed.py (Django's test client, every URL pattern with a POST handler) and meant for
a served site too (gunicorn with DEBUG off, PostgreSQL): nothing here needs Django or pytest. A site is
reached through a `Send` callable — ``send(method, path, body, headers) -> status`` — made by
`client_send` (a Django test client) or `HttpSite` (a base URL, over plain HTTP).

What is sent, for each form (`Form`: where it posts and the inputs it has, as read from a page by
`forms_in`): a NUL in each input in turn and in an input's name; the form in Latin-1 and in UTF-16 (a
charset Django refuses for a form); no inputs at all; the inputs under other content types (plain text,
JSON, bytes, multipart without a boundary or broken); odd values in every input at once (right-to-left
overrides, ``%`` signs, a byte order mark, far dates, long accented names: the body that once broke
``/nights/new/``). Every body carries the CSRF token, so the request reaches the view behind the check.
The rule: 400, the form with its errors, or any other answer, but never 5xx.
"""

from __future__ import annotations

import http.client
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import quote, urlencode, urljoin, urlsplit

# send(method, path, body, headers) -> the answer's status
Send = Callable[[str, str, bytes, dict[str, str]], int]
FORM = "application/x-www-form-urlencoded"
CSRF_FIELD = "csrfmiddlewaretoken"

# Odd values, put into every input of a form at once (one a input, in turn). The first ones are the body
# that made /nights/new/ fail while rendering an error: a NUL game, a place with a right-to-left override
# and % signs, a byte order mark for the count, players "0", a far date, a 30-character "é".
ODD = ["\x00", "\u202eOchsen %s %(value)s 100%", "\ufeff", "0", "99999-01-01", "é" * 30, "%", "%(x)s%d",
       "-1", "9" * 30, "<b>x</b>", "", " ", "1e999", "NaN", "\u0661", "x" * 5000]
# The same without the NUL, which a form refuses first: so that the other odd values reach the forms'
# further checks and error messages too.
ODD_WITHOUT_NUL = [value for value in ODD if "\x00" not in value]


@dataclass(frozen=True)
class Form:
    """A form that posts to `action` (a path), with its inputs as a page fills them (name, value)."""

    action: str
    inputs: tuple[tuple[str, str], ...] = ()

    def names(self) -> list[str]:
        return list(dict.fromkeys(name for name, _value in self.inputs if name != CSRF_FIELD))


@dataclass(frozen=True)
class Probe:
    """One malformed request: what it is (for the report), and what is sent."""

    what: str
    method: str
    path: str
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)


# --- reading pages ------------------------------------------------------------------------------------

class _FormReader(HTMLParser):
    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.forms: list[tuple[str, list[tuple[str, str]]]] = []
        self.links: list[str] = []
        self._open: list[tuple[str, str]] | None = None
        self._select: str | None = None
        self._textarea: str | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        if tag == "a" and a.get("href"):
            self.links.append(urljoin(self.page, a["href"]))
        elif tag == "form":
            if a.get("method", "get").lower() == "post":
                self._open = []
                self.forms.append((urljoin(self.page, a.get("action") or self.page), self._open))
            else:
                self._open = None
        elif self._open is not None and tag in ("input", "button") and a.get("name"):
            kind = a.get("type", "text").lower()
            if kind in ("checkbox", "radio") and "checked" not in a:
                self._open.append((a["name"], ""))  # an input the probe fills all the same
            elif kind != "submit" or tag == "input":
                self._open.append((a["name"], a.get("value", "")))
        elif self._open is not None and tag == "select" and a.get("name"):
            self._select = a["name"]
            self._open.append((a["name"], ""))
        elif self._open is not None and self._select and tag == "option" and "selected" in a:
            self._open.append((self._select, a.get("value", "")))
        elif self._open is not None and tag == "textarea" and a.get("name"):
            self._textarea, self._text = a["name"], ""

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._open = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea" and self._textarea is not None and self._open is not None:
            self._open.append((self._textarea, self._text))
            self._textarea = None


def forms_in(html: str, page: str) -> list[Form]:
    """The POST forms of a page (its path `page`), each with the path it posts to."""
    reader = _FormReader(page)
    reader.feed(html)
    return [Form(urlsplit(action).path, tuple(inputs)) for action, inputs in reader.forms
            if not urlsplit(action).netloc or urlsplit(action).netloc == urlsplit(page).netloc]


def links_in(html: str, page: str) -> list[str]:
    """The paths (with their query strings) of the page's links within the site."""
    reader = _FormReader(page)
    reader.feed(html)
    out = []
    for link in reader.links:
        parts = urlsplit(link)
        if parts.scheme in ("", "http", "https") and not parts.netloc:
            out.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return list(dict.fromkeys(out))


def merged(forms: Iterable[Form]) -> dict[str, Form]:
    """One form per action: the inputs of every form that posts there (a page may hold several)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for form in forms:
        have = out.setdefault(form.action, [])
        have.extend(pair for pair in form.inputs if pair[0] not in {name for name, _v in have})
    return {action: Form(action, tuple(inputs)) for action, inputs in out.items()}


# --- the probes ----------------------------------------------------------------------------------------

def _body(pairs: Iterable[tuple[str, str]], encoding: str = "utf-8") -> bytes:
    return urlencode(list(pairs), encoding=encoding, errors="replace").encode("ascii")


def _multipart(pairs: Iterable[tuple[str, str]], boundary: str) -> bytes:
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
             for name, value in pairs]
    return ("".join(parts) + f"--{boundary}--\r\n").encode("utf-8", "replace")


def probes(form: Form, csrf: str = "", fill: dict[str, str] | None = None) -> Iterator[Probe]:
    """The malformed requests for one form: `csrf` is the token its page carried (sent in every body),
    `fill` values to send instead of the page's (a valid form, so that only the malformed part is wrong)."""
    token = [(CSRF_FIELD, csrf)] if csrf else []
    values = dict(form.inputs)
    values.update(fill or {})
    pairs = [(name, values.get(name, "")) for name in form.names()]
    path = form.action

    def post(what: str, body: bytes, content_type: str | None = FORM) -> Probe:
        return Probe(what, "POST", path, body, {"Content-Type": content_type} if content_type else {})

    for name in form.names():  # a NUL in each input, the others as filled
        yield post(f"NUL in {name}", _body(token + [(n, f"a\x00{v}" if n == name else v) for n, v in pairs]))
    yield post("NUL in an input's name", _body(token + pairs + [("na\x00me", "x")]))
    accented = [(n, v or "Ärger é") for n, v in pairs]
    yield post("Latin-1 body", _body(token + accented, "latin-1"), f"{FORM}; charset=latin-1")
    yield post("UTF-16 body", "&".join(f"{quote(n)}={quote(v)}" for n, v in token + accented).encode("utf-16"),
               f"{FORM}; charset=utf-16")
    yield post("UTF-8 body said to be ISO-8859-15", _body(token + accented), f"{FORM}; charset=iso-8859-15")
    yield post("no inputs", _body(token))
    yield post("no body, no content type", b"", None)
    yield post("inputs as plain text", _body(token + pairs), "text/plain")
    yield post("inputs as JSON", b'{"' + CSRF_FIELD.encode() + b'": "' + csrf.encode() + b'"}', "application/json")
    yield post("bytes", b"\xff\xfe\x00\x01" * 64, "application/octet-stream")
    yield post("multipart without a boundary", _multipart(token + pairs, "x"), "multipart/form-data")
    yield post("multipart, broken", b"--b\r\nContent-Disposition: form-data; na", "multipart/form-data; boundary=b")
    yield post("multipart", _multipart(token + pairs, "b0undary"), "multipart/form-data; boundary=b0undary")
    yield post("multipart with a NUL", _multipart(token + [(n, f"a\x00{v}") for n, v in pairs], "b0undary"),
               "multipart/form-data; boundary=b0undary")
    yield post("odd values", _body(token + [(n, ODD[i % len(ODD)]) for i, (n, _v) in enumerate(pairs)]))
    yield post("odd values without a NUL", _body(token + [(n, ODD_WITHOUT_NUL[i % len(ODD_WITHOUT_NUL)])
                                                          for i, (n, _v) in enumerate(pairs)]))
    yield post("odd values, shifted", _body(token + [(n, ODD_WITHOUT_NUL[(i + 3) % len(ODD_WITHOUT_NUL)])
                                                     for i, (n, _v) in enumerate(pairs)]))
    yield Probe("GET with a NUL in the query", "GET", f"{path}?q=a%00b&series=%00", b"", {})


def path_probes(path: str) -> Iterator[Probe]:
    """Malformed paths and query strings for a page (a link token with a NUL, a query of odd values)."""
    yield Probe("NUL in the query", "GET", f"{path}?q=%00&page=%00&series=%00&game=%00", b"")
    yield Probe("odd query", "GET", f"{path}?series=%25s&page=%E2%80%AE&game=%EF%BB%BF&since=99999-01-01", b"")
    yield Probe("a query in Latin-1", "GET", f"{path}?q=%E9%FC&series=%FF", b"")


def token_probes(prefix: str) -> Iterator[Probe]:
    """Link tokens that are no tokens, below a token URL's `prefix` (e.g. "/join/")."""
    for token in ("%00", "a%00b", "%25s", "%E9", "%C0%AF", "x" * 70, "%E2%80%AE", "..", "%20"):
        yield Probe(f"token {token[:12]}", "GET", f"{prefix}{token}/", b"")


def run(send: Send, sent: Iterable[Probe]) -> list[str]:
    """Send every probe; the ones answered 5xx, each with its status (empty: none)."""
    failures = []
    for probe in sent:
        status = send(probe.method, probe.path, probe.body, probe.headers)
        if status >= 500:
            failures.append(f"{probe.method} {probe.path} ({probe.what}): {status}")
    return failures


# --- sending -------------------------------------------------------------------------------------------

def client_send(client: Any, **extra: str) -> Send:
    """A `Send` through a Django test client (build it with ``raise_request_exception=False`` to see 500s as
    statuses, and ``enforce_csrf_checks=True`` as a browser meets the site); `extra` are WSGI environ keys
    for every request (``REMOTE_ADDR``)."""

    def send(method: str, path: str, body: bytes, headers: dict[str, str]) -> int:
        environ = {f"HTTP_{key.upper().replace('-', '_')}": value for key, value in headers.items()
                   if key.lower() != "content-type"}
        content_type = headers.get("Content-Type", "")
        if method == "GET":
            return int(client.get(path, **environ, **extra).status_code)
        return int(client.generic(method, path, body, content_type=content_type, **environ, **extra).status_code)

    return send


class HttpSite:
    """A site at `base_url` over plain HTTP, with its own cookies (session, CSRF), as a browser keeps them;
    `headers` go with every request (behind no proxy: ``{"X-Forwarded-Proto": "https"}``)."""

    def __init__(self, base_url: str, headers: dict[str, str] | None = None, timeout: float = 30) -> None:
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.headers = dict(headers or {})
        self.timeout = timeout
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
                ) -> tuple[int, str]:
        send = {**self.headers, **(headers or {})}
        if self.cookies:
            send["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method != "GET":  # over HTTPS (X-Forwarded-Proto) Django's CSRF check wants a Referer of the site
            send.setdefault("Referer", f"https://{send.get('Host', f'{self.host}:{self.port}')}/")
        connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            connection.request(method, path, body=body if method != "GET" else None, headers=send)
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
        finally:
            connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return response.status, text

    def get(self, path: str) -> tuple[int, str]:
        return self.request("GET", path)

    def send(self, method: str, path: str, body: bytes, headers: dict[str, str]) -> int:
        return self.request(method, path, body, headers)[0]

    @property
    def csrf(self) -> str:
        """The CSRF token to put in a form (its cookie's value: Django takes it as the form's token)."""
        return self.cookies.get("csrftoken", "")


def crawl(get: Callable[[str], tuple[int, str]], start: Iterable[str], limit: int = 200,
          skip: Callable[[str], bool] = lambda path: False) -> tuple[dict[str, Form], list[str]]:
    """The POST forms (merged by action) of the pages reached from `start` through the site's links, and the
    pages read; `get(path) -> (status, html)`; at most `limit` pages, none that `skip` says to leave out
    (PDFs, the admin's every list)."""
    queue, seen, forms = list(start), set[str](), []
    while queue and len(seen) < limit:
        path = queue.pop(0)
        if path in seen or skip(path):
            continue
        seen.add(path)
        status, html = get(path)
        if status != 200:
            continue
        forms.extend(forms_in(html, path))
        queue.extend(link for link in links_in(html, path) if link not in seen)
    return merged(forms), sorted(seen)
