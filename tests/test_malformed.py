"""Malformed requests are never a server error: a body the site cannot read (another charset, broken
multipart, too large), a NUL in any field, path or query, missing or odd fields — a 400 with one sentence,
or the form with its errors. The probe (tests/malformed.py) is sent to every URL pattern that takes a POST,
with the inputs its pages' forms have, as a browser meets the site: CSRF checked, the token in the body. Run on
PostgreSQL too (DATABASE_URL), which refuses a NUL in text where SQLite stores it.
"""

from __future__ import annotations

import itertools
import logging
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from scorekeep.clubs import clubs
from scorekeep.models import Attempt, Tournament
from tests import malformed
from tests.live_site import Site, temp_database
from tests.roles import (
    ACCESS,
    ANONYMOUS,
    HOST,
    NO_ACCOUNT,
    NONE,
    POSTS,
    PUBLIC,
    SITE_OWNER,
    World,
    every_pattern,
    url_of,
)

pytestmark = pytest.mark.django_db

CANNOT_READ = "The site cannot read this request: send it again from the site's own page."
TOO_LARGE = "This request is too large for the site to read."
ADDRESSES = (f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}" for n in itertools.count(1))


def browser(user: User | None = None, page: str = "/") -> tuple[Client, str]:
    """A client as a browser meets the site (CSRF checked, server errors as statuses) and its CSRF token."""
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    client.get(page)
    return client, client.cookies["csrftoken"].value


def no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    logged = [record for record in caplog.records if record.exc_info]
    assert not logged, logged[0].getMessage() + "\n" + logging.Formatter().formatException(logged[0].exc_info)


# --- a body the site cannot read -------------------------------------------------------------------------

ANONYMOUS_FORMS = ["/accounts/login/", "/accounts/signup/", "/accounts/password-reset/", "/admin/login/"]


@pytest.mark.parametrize("charset", ["latin-1", "utf-16", "iso-8859-15"])
@pytest.mark.parametrize("path", ANONYMOUS_FORMS)
def test_a_form_in_another_charset_than_utf8_is_a_400_with_one_sentence(
        path: str, charset: str, caplog: pytest.LogCaptureFixture) -> None:
    client, token = browser(page=path)
    body = f"csrfmiddlewaretoken={token}&username=J%FCrgen&password=x&email=j%E9@example.org".encode()
    response = client.generic("POST", path, body,
                              content_type=f"application/x-www-form-urlencoded; charset={charset}")
    assert response.status_code == 400
    assert response.content.decode() == CANNOT_READ + "\n"
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    no_traceback(caplog)


@pytest.mark.parametrize(("language", "sentence"), [
    ("de", "Die Seite kann diese Anfrage nicht lesen: Senden Sie sie noch einmal von der Seite selbst aus."),
    ("ja", "このリクエストは読み取れません。サイトのページからもう一度送信してください。")])
def test_the_sentence_is_in_the_readers_language(language: str, sentence: str) -> None:
    client, token = browser(page="/accounts/login/")
    response = client.generic("POST", "/accounts/login/", f"csrfmiddlewaretoken={token}&username=%E9".encode(),
                              content_type="application/x-www-form-urlencoded; charset=latin-1",
                              HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400 and response.content.decode() == sentence + "\n"


@pytest.mark.parametrize(("content_type", "body"), [
    ("multipart/form-data", b"--x\r\nContent-Disposition: form-data; name=\"username\"\r\n\r\nx\r\n--x--\r\n"),
    ("multipart/form-data; boundary=\"\"", b"--\r\n"),
], ids=["no-boundary", "empty-boundary"])
def test_a_broken_multipart_body_is_never_a_server_error(content_type: str, body: bytes,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    client, _token = browser(page="/accounts/login/")
    response = client.generic("POST", "/accounts/login/", body, content_type=content_type)
    assert response.status_code in (400, 403)
    no_traceback(caplog)


def test_more_fields_than_django_reads_are_a_400(caplog: pytest.LogCaptureFixture) -> None:
    client, token = browser(page="/accounts/login/")
    fields = "&".join(f"f{n}=1" for n in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
    response = client.generic("POST", "/accounts/login/", f"csrfmiddlewaretoken={token}&{fields}".encode(),
                              content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400 and response.content.decode() == CANNOT_READ + "\n"
    no_traceback(caplog)


def test_a_body_larger_than_django_reads_is_a_400_saying_so(caplog: pytest.LogCaptureFixture) -> None:
    client, token = browser(page="/accounts/login/")
    body = f"csrfmiddlewaretoken={token}&username=".encode() + b"x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    response = client.generic("POST", "/accounts/login/", body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400 and response.content.decode() == TOO_LARGE + "\n"
    no_traceback(caplog)


def test_a_nul_in_the_admins_search_filters_or_forms_is_a_400(world: World, caplog: pytest.LogCaptureFixture) -> None:
    """The admin puts the query into database lookups before any form checks it (PostgreSQL: a 500)."""
    owner = world.clients[SITE_OWNER]
    for path in ("/admin/scorekeep/player/?q=An%00na", "/admin/scorekeep/cardnight/?game__exact=%00",
                 "/admin/scorekeep/club/?q=%00"):
        response = owner.get(path)
        assert response.status_code == 400 and response.content.decode() == CANNOT_READ + "\n", path
    response = owner.post(reverse("admin:scorekeep_player_change", args=[world.player.pk]), {"name": "An\x00na"})
    assert response.status_code == 400
    assert owner.get("/admin/scorekeep/player/?q=Anna").status_code == 200
    no_traceback(caplog)


@pytest.mark.parametrize(("name", "body"), [("tournament-withdraw", {"number": "1", "reason": "ill\x00"}),
                                            ("series-close", {"reason": "done\x00"}),
                                            ("series-draw", {"seed": "s\x00eed", "reason": ""})])
def test_a_nul_in_a_tournament_reason_or_seed_is_refused_with_the_fields_message(
        world: World, name: str, body: dict[str, str]) -> None:
    """These small forms store what was typed without a Django form: a NUL reached PostgreSQL (a 500)."""
    tournament = Tournament.objects.get()
    path = reverse(name, args={"tournament-withdraw": [tournament.pk], "series-close": [tournament.pk, 1],
                               "series-draw": [tournament.pk, 2]}[name])
    before = list(tournament.revisions.values_list("pk", flat=True))
    client, token = browser(world.host, "/")
    response = client.post(path, {**body, "csrfmiddlewaretoken": token}, follow=True)
    assert response.status_code == 200
    assert "Null characters are not allowed." in response.content.decode()
    assert list(tournament.revisions.values_list("pk", flat=True)) == before


# --- missing and odd fields ------------------------------------------------------------------------------

@pytest.mark.parametrize("body", [{}, {"entry_fee": "10", "prize_places": "20, 10", "retention_value": "0"},
                                  {"prize_kind": "amounts"}, {"retention_kind": "share"}],
                         ids=["empty", "no-kinds", "no-retention-kind", "no-prize-kind"])
def test_the_money_form_without_its_choices_shows_them_as_field_errors(world: World, body: dict[str, str]) -> None:
    tournament = Tournament.objects.get()
    client, token = browser(world.host, reverse("tournament-money", args=[tournament.pk]))
    response = client.post(reverse("tournament-money", args=[tournament.pk]), {**body, "csrfmiddlewaretoken": token})
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert {"prize_kind", "retention_kind"} - set(body) <= set(errors)
    tournament.refresh_from_db()
    assert tournament.prizes == Tournament.objects.get().prizes


def test_the_money_form_as_another_content_type_shows_field_errors(world: World) -> None:
    tournament = Tournament.objects.get()
    client, token = browser(world.host, reverse("tournament-money", args=[tournament.pk]))
    response = client.generic("POST", reverse("tournament-money", args=[tournament.pk]),
                              b"prize_kind=amounts", content_type="text/plain", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 400 and "prize_kind" in response.context["form"].errors


ISSUE_BODY = {"game": "\u202e", "place": "\u202eOchsen 100% %s %(value)s %", "count": "\ufeff",
              "player-0": "0", "player-1": "99999-01-01", "player-2": "é" * 30, "date": "99999-01-01",
              "club": "no such club"}


@pytest.mark.parametrize("club_name", ["100% Skat", "Skat %(value)s", "50 %s Kop", "%", "%(x)d %"])
def test_a_club_name_with_percent_signs_does_not_break_the_error_about_clubs(world: World, club_name: str) -> None:
    """The night form's "Choose one of your clubs: …" was formatted by Django again with the value sent: a
    club named "100% Skat" made rendering its error a TypeError or ValueError (a 500)."""
    clubs.start_club(world.host, club_name)  # as the clubs page makes it
    client, token = browser(world.host, reverse("night-new"))
    response = client.post(reverse("night-new"), {**ISSUE_BODY, "csrfmiddlewaretoken": token})
    assert response.status_code in (200, 400)  # the form again, with its errors
    (message,) = response.context["form"].errors["club"]
    assert message.startswith("Choose one of your clubs: ") and club_name in message  # as it is named
    assert escape(message) in response.content.decode()
    stats = client.get(reverse("stats"), {"club": "999999"})
    (message,) = stats.context["form"].errors["club"]
    assert message.startswith("Choose one of your clubs: ") and club_name in message


# --- the probe: every URL with a POST handler -------------------------------------------------------------

def from_anywhere(client: Client) -> malformed.Send:
    """Each request from an address of its own: a throttle's 429 would hide what the probes after it find."""

    def send(method: str, path: str, body: bytes, headers: dict[str, str]) -> int:
        return malformed.client_send(client, REMOTE_ADDR=next(ADDRESSES))(method, path, body, headers)

    return send


def role_for(name: str) -> str:
    get, post = ACCESS.get(name, ACCESS["admin:*"] if name.startswith("admin:") else (NONE, NONE))
    if name.startswith("admin:") and name not in ("admin:login", "admin:logout"):
        return SITE_OWNER
    return ANONYMOUS if post in (PUBLIC, NO_ACCOUNT) and get in (PUBLIC, NO_ACCOUNT, NONE) else HOST


def post_urls(world: World) -> dict[str, str]:
    """Every URL pattern that takes a POST (`tests.roles.ACCESS`), with arguments that exist; of the admin's,
    its log-in and log-out and a player's and a night's change forms."""
    out = {}
    for pattern in every_pattern():
        if pattern.name.startswith("admin:") or "(unnamed)" in pattern.name:
            continue
        if ACCESS[pattern.rule_key][1] != NONE:
            out[pattern.name] = url_of(pattern.name, world)
    out["admin:login"], out["admin:logout"] = reverse("admin:login"), reverse("admin:logout")
    out["admin:scorekeep_player_change"] = reverse("admin:scorekeep_player_change", args=[world.player.pk])
    out["admin:scorekeep_cardnight_change"] = reverse("admin:scorekeep_cardnight_change", args=[world.night.pk])
    return out


def users(world: World) -> dict[str, User | None]:
    return {ANONYMOUS: None, HOST: world.host, SITE_OWNER: world.site_owner}


def page_forms(world: World) -> dict[str, malformed.Form]:
    """The POST forms of every page the URL patterns serve (as the role each is for), merged by action."""
    found = []
    for pattern in every_pattern():
        if pattern.name.startswith(("admin:", "(unnamed)")) or ACCESS[pattern.rule_key][0] == NONE \
                or pattern.name.endswith(("-pdf", "-cards", "-lists", "-standings", "-ranking")):
            continue
        role = role_for(pattern.name)
        client, _token = browser(users(world)[role], "/")
        path = url_of(pattern.name, world)
        response = client.get(path)
        if response.status_code == 200 and "html" in response.get("Content-Type", ""):
            found.extend(malformed.forms_in(response.content.decode(), path))
    for name, path in post_urls(world).items():
        if name.startswith("admin:scorekeep"):
            client, _token = browser(world.site_owner, path)
            found.extend(malformed.forms_in(client.get(path).content.decode(), path))
    return malformed.merged(found)


def test_the_probe_reads_the_forms_of_the_pages(world: World) -> None:
    forms = page_forms(world)
    login = forms[reverse("login")]
    assert {"username", "password"} <= set(login.names())
    night_new = forms[reverse("night-new")]
    assert {"game", "place", "date", "player-0"} <= set(night_new.names())
    assert {"key", "expected", "contract", "bid", "card_points", "by"} <= set(forms[url_of("deal-new", world)].names())


def test_no_malformed_request_to_any_post_url_is_a_server_error(world: World,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    forms = page_forms(world)
    failures: list[str] = []
    sent = 0
    for name, path in post_urls(world).items():
        role = role_for(name)
        form = forms.get(path, malformed.Form(path))
        fill = {key: str((value or [""])[0] if isinstance(value, list) else value)
                for key, value in POSTS.get(name, lambda w: {})(world).items()}
        form = malformed.Form(path, form.inputs + tuple((key, "") for key in fill if key not in form.names()))
        with transaction.atomic():  # every URL meets the same world: what a probe changed is undone
            client, token = browser(users(world)[role], "/")
            probes = [*malformed.probes(form, token, fill), *malformed.path_probes(path)]
            sent += len(probes)
            failures += [f"{name} as {role}: {failure}" for failure in malformed.run(from_anywhere(client), probes)]
            transaction.set_rollback(True)
    for prefix in ("/join/", "/clubs/join/", "/standings/", "/accounts/reset/MQ/"):
        client, _token = browser(world.host)
        failures += malformed.run(malformed.client_send(client), malformed.token_probes(prefix))
    assert not failures, f"{len(failures)} of {sent} answered 5xx:\n" + "\n".join(failures[:40])
    assert sent > 1000
    no_traceback(caplog)
    assert not [who for who in Attempt.objects.values_list("who", flat=True) if "\x00" in who]


def test_run_reports_every_5xx_with_its_probe() -> None:
    statuses = iter([200, 500, 400, 502])
    probes = [malformed.Probe(f"p{n}", "POST", "/x/", b"") for n in range(4)]
    assert malformed.run(lambda *args: next(statuses), probes) == ["POST /x/ (p1): 500", "POST /x/ (p3): 502"]


@pytest.mark.database
def test_the_probe_against_a_served_site(tmp_path: Path) -> None:
    """The probe as it is sent to a served site (gunicorn, its own database, over HTTP): `HttpSite` keeps the
    cookies and sends the CSRF token, `crawl` finds the anonymous visitor's forms; no 5xx, no traceback logged."""
    database = temp_database(tmp_path)
    served = Site(database, tmp_path, workers=1, threads=2, settings={"SCOREKEEP_LOG_LEVEL": "WARNING"})
    try:
        served.migrate()
        served.start()
        site = malformed.HttpSite(served.url)
        forms, pages = malformed.crawl(site.get, ["/accounts/login/", "/admin/login/"], limit=15,
                                       skip=lambda path: path.endswith(".pdf") or "?" in path)
        assert {"/accounts/login/", "/accounts/signup/", "/admin/login/"} <= set(forms), pages
        failures = []
        for form in forms.values():
            site.request("GET", "/accounts/login/")  # a fresh CSRF cookie, should a probe have changed it
            failures += malformed.run(site.send, malformed.probes(form, site.csrf))
        status, text = site.request("POST", "/accounts/login/", b"username=J%FCrgen&csrfmiddlewaretoken=" +
                                    site.csrf.encode(), {"Content-Type": f"{malformed.FORM}; charset=latin-1"})
    finally:
        served.stop()
        database.drop()
    assert not failures, "\n".join(failures)
    assert (status, text) == (400, CANNOT_READ + "\n")  # the token was read: the body itself was refused
    log = "".join(path.read_text() for path in tmp_path.glob("gunicorn-*.log"))
    assert "Traceback" not in log and "Bad Request: /accounts/login/" in log
