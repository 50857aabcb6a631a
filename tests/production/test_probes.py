"""What the production configuration can change, sent to the production server without a browser: the throttles
behind the proxy (the client's address is the one nginx appended, whatever X-Forwarded-For a client sends; the
admin's log-in answers 429 past the limit; wrong tournament viewer tokens are counted), HTTPS (plain HTTP is
redirected, HSTS, secure cookies), the static files by their hashed names, and malformed requests (PostgreSQL
refuses a NUL in text; other charsets; broken bodies) to the forms of the pages a host and a stranger see —
through tests/malformed.py's probes, sent over HTTPS through the proxy by `Phone.send` (a ``malformed.Send``).
"""

from __future__ import annotations

import http.client
import importlib
import json
import re
from types import ModuleType
from typing import Any

import pytest

from tests.live_site import NAMES, Phone

from .conftest import Served

pytestmark = [pytest.mark.production, pytest.mark.database]

HOST = {"username": "wirt", "password": "Pik-Sieben-18-Hand"}
TOKEN_LIMIT = 20  # scorekeep.web.throttle.TOKEN_LIMIT, LOGIN_LIMIT: as the README promises them
LOGIN_LIMIT = 10

WORLD = """
from django.contrib.auth import get_user_model
from scorekeep.nights import writes as nights
from scorekeep.models import Club
from tests.tournament_fixtures import tournament
user = get_user_model().objects.create_user(ARGS["username"], password=ARGS["password"])
get_user_model().objects.create_superuser("owner", password=ARGS["password"])
club = Club.objects.create(name="Zum Ochsen", owner=user)
night = nights.start_night(game="skat", preset="isko", players=ARGS["names"], club=club)
night.host = user
night.save()
tour = tournament("skat", host=user, club=club)
OUT = {"night": night.pk, "scorer": night.scorer_token, "club": club.pk, "tournament": tour.pk,
       "viewer": tour.viewer_token}
"""


@pytest.fixture(scope="module")
def world(served: Served) -> dict[str, Any]:
    """A host with a club, a night and a tournament, and the site owner (password as the host's)."""
    return served.site.django(WORLD, names=NAMES, **HOST)  # type: ignore[no-any-return]


@pytest.fixture(autouse=True)
def _fresh_throttles(served: Served) -> None:
    served.forget_attempts()


def logged_in(served: Served, path: str = "/accounts/login/", **account: str) -> Phone:
    phone = served.phone()
    assert phone.request("GET", path).status == 200
    answer = phone.request("POST", path, {**(account or HOST), "next": "/nights/"})
    assert answer.status in (302, 303), (answer.status, answer.body[:300])
    return phone


def test_plain_http_is_redirected_to_https_and_https_is_answered_with_hsts_and_secure_cookies(
        served: Served) -> None:
    direct = http.client.HTTPConnection("127.0.0.1", served.site.port, timeout=30)
    direct.request("GET", "/accounts/login/", headers={"Host": "127.0.0.1"})
    answer = direct.getresponse()
    assert answer.status == 301 and answer.getheader("Location") == "https://127.0.0.1/accounts/login/"
    direct.close()
    phone = served.phone()
    page = phone.request("GET", "/accounts/login/")
    assert page.status == 200
    assert page.headers["Strict-Transport-Security"].startswith("max-age=31536000")
    assert re.search(r"csrftoken=\w+;.*Secure", page.headers["Set-Cookie"]), page.headers["Set-Cookie"]


def test_the_service_worker_and_the_shell_it_keeps_are_served_by_their_hashed_names(served: Served) -> None:
    phone = served.phone()
    worker = phone.request("GET", "/sw.js")
    assert worker.status == 200 and worker.headers["Content-Type"].startswith("text/javascript")
    line = next(line for line in worker.body.splitlines() if line.startswith("var SHELL = "))
    shell = json.loads(line.removeprefix("var SHELL = ").rstrip(";"))
    assert shell and all(re.search(r"\.[0-9a-f]{12}\.\w+$", url) for url in shell), shell
    for url in shell:
        answer = phone.request("GET", url, headers={"Accept-Encoding": "identity"}) if url.endswith(".js") \
            else phone.request("HEAD", url)
        assert answer.status == 200, url
        assert "immutable" in answer.headers["Cache-Control"], url  # WhiteNoise: a hashed name never changes


def test_the_log_in_past_the_limit_is_429_whatever_x_forwarded_for_the_client_sends(served: Served,
                                                                                     world: dict[str, Any]) -> None:
    """Behind the proxy the throttle takes the address nginx appended: a client cannot be someone else by
    sending X-Forwarded-For itself."""
    phone = served.phone()
    phone.request("GET", "/accounts/login/")
    for attempt in range(LOGIN_LIMIT):
        answer = phone.request("POST", "/accounts/login/", {"username": HOST["username"], "password": "wrong"},
                               headers={"X-Forwarded-For": f"198.51.100.{attempt}"})
        assert answer.status == 200, attempt  # the form again, with its error
    answer = phone.request("POST", "/accounts/login/", HOST, headers={"X-Forwarded-For": "198.51.100.99"})
    assert answer.status == 429 and "Too many attempts" in answer.body


def test_the_admin_log_in_past_the_limit_answers_429(served: Served, world: dict[str, Any]) -> None:
    phone = served.phone()
    assert phone.request("GET", "/admin/login/").status == 200
    for attempt in range(LOGIN_LIMIT):
        answer = phone.request("POST", "/admin/login/", {"username": "owner", "password": f"wrong-{attempt}"})
        assert answer.status == 200, attempt
    answer = phone.request("POST", "/admin/login/", {"username": "owner", "password": HOST["password"]})
    assert answer.status == 429 and "Too many attempts" in answer.body
    assert "sessionid" not in phone.cookies


def test_wrong_tournament_viewer_tokens_are_throttled(served: Served, world: dict[str, Any]) -> None:
    phone = served.phone()
    assert phone.request("GET", f"/standings/{world['viewer']}/").status == 200
    for attempt in range(TOKEN_LIMIT):
        assert phone.request("GET", f"/standings/guess{attempt:04d}/").status == 404, attempt
    assert phone.request("GET", "/standings/guess-again/").status == 429
    assert phone.request("GET", f"/join/{world['scorer']}/").status == 429  # one count per address


# --- malformed requests: tests/malformed.py's probes, over HTTPS through the proxy --------------------------

def probe_module() -> ModuleType | None:
    try:
        return importlib.import_module("tests.malformed")
    except ModuleNotFoundError:
        return None


MALFORMED = probe_module()
SKIP = re.compile(r"\.(pdf|csv|json)$|/logout/|/print/|^/admin/(?!login)|/i18n/")


@pytest.mark.skipif(MALFORMED is None, reason="tests/malformed.py (the malformed-request probes) is not here")
def test_no_malformed_request_to_the_forms_of_a_hosts_and_a_strangers_pages_is_a_server_error(
        served: Served, world: dict[str, Any]) -> None:
    assert MALFORMED is not None
    table = f"/nights/{world['night']}/tables/1/"
    pages = {
        "stranger": ["/accounts/login/", "/accounts/signup/", "/accounts/password-reset/", "/admin/login/"],
        "host": ["/nights/new/", table, f"/nights/{world['night']}/", f"/nights/{world['night']}/settings/",
                 f"/clubs/{world['club']}/", f"/tournaments/{world['tournament']}/",
                 f"/tournaments/{world['tournament']}/money/", "/tournaments/new/"],
    }
    failures: list[str] = []
    sent = 0
    for who, start in pages.items():
        phone = logged_in(served) if who == "host" else served.phone()

        def get(path: str, phone: Phone = phone) -> tuple[int, str]:
            answer = phone.request("GET", path)
            return answer.status, answer.body

        forms, _read = MALFORMED.crawl(get, start, limit=len(start), skip=lambda path: bool(SKIP.search(path)))
        assert forms, who
        for action, form in forms.items():
            if SKIP.search(action):
                continue
            served.forget_attempts()  # every probe here comes from one address: a 429 would hide the rest
            probes = [*MALFORMED.probes(form, phone.cookies.get("csrftoken", "")), *MALFORMED.path_probes(action)]
            sent += len(probes)
            failures += [f"{who}: {failure}" for failure in MALFORMED.run(phone.send, probes)]
    stranger = served.phone()
    for prefix in ("/join/", "/clubs/join/", "/standings/"):
        served.forget_attempts()
        failures += MALFORMED.run(stranger.send, MALFORMED.token_probes(prefix))
    assert not failures, f"{len(failures)} of {sent} answered 5xx:\n" + "\n".join(failures[:40])
    assert sent > 300
    # Nothing stored with a NUL (read back whole: PostgreSQL cannot even be asked for one).
    stored = served.site.django("from scorekeep.models import Attempt\n"
                                "OUT = [who for who in Attempt.objects.values_list('who', flat=True) if chr(0) in who]")
    assert stored == []
