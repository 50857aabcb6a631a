"""Hosts' accounts and the links of a night (issue 4): signing up, logging in and out, resetting a
password by the link in the mail (it works once), opening a scorer or viewer link, the throttles on
log-ins and link tokens, the QR codes, and CSRF on every form."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html import unescape
from types import SimpleNamespace
from typing import Any

import pytest
import segno
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from scorekeep.models import Attempt, CardNight, Tournament
from scorekeep.nights import writes as nights
from scorekeep.web import throttle
from scorekeep.web.qr import qr_svg
from scorekeep.web.throttle import ACCOUNT_LIMIT, LOGIN_LIMIT, RESET_LIMIT, TOKEN_LIMIT
from tests.conftest import REPO
from tests.roles import (
    ACCESS,
    HOST,
    NIGHT_WRITES,
    NONE,
    POSTS,
    READS,
    SITE_NAMES,
    World,
    stored,
    url_of,
)

PASSWORD = "Karo-Bube-1957"
FOUR = ["Anna", "Bernd", "Clara", "Dieter"]


@pytest.fixture(autouse=True)
def quick_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def hostess(db: None, django_user_model: Any) -> User:
    return django_user_model.objects.create_user("hostess", "hostess@example.org", PASSWORD)


def logged_in_as(client: Client) -> str | None:
    user_id = client.session.get("_auth_user_id")
    return User.objects.get(pk=user_id).username if user_id else None


def errors(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", m)) for m in re.findall(
        r'<(?:p|div)[^>]*(?:class="errors?"|role="alert")[^>]*>(.*?)</(?:p|div)>', html, re.S))


# --- signing up -------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_signing_up_logs_the_new_host_in_and_their_first_night_is_theirs() -> None:
    client = Client()
    form = client.get(reverse("signup"))
    assert form.status_code == 200 and 'name="csrfmiddlewaretoken"' in form.content.decode()
    response = client.post(reverse("signup"), {"username": "Kartenrunde", "email": "runde@example.org",
                                               "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 303 and response["Location"] == reverse("night-new")
    assert logged_in_as(client) == "Kartenrunde"
    user = User.objects.get(username="Kartenrunde")
    assert not user.is_staff and not user.is_superuser and user.check_password(PASSWORD)
    assert "Kartenrunde" in client.get(reverse("night-new")).content.decode()  # the welcome message
    night = nights.start_night(game="skat", preset="classic", players=FOUR, host=user)
    assert client.get(reverse("night-settings", args=[night.pk])).status_code == 200
    # Signed up already: the form sends them on.
    assert client.get(reverse("signup"))["Location"] == reverse("nights")


@pytest.mark.django_db
def test_a_refused_sign_up_says_why_keeps_the_name_and_stores_nobody() -> None:
    client = Client()
    response = client.post(reverse("signup"), {"username": "Kartenrunde", "email": "not-an-address",
                                               "password1": PASSWORD, "password2": PASSWORD + "x"})
    assert response.status_code == 200 and not User.objects.exists()
    html = response.content.decode()
    assert "didn’t match" in unescape(html) or "match" in errors(html)
    assert 'value="Kartenrunde"' in html and 'value="not-an-address"' in html
    assert logged_in_as(client) is None


@pytest.mark.django_db
def test_a_taken_name_is_refused(hostess: User) -> None:
    response = Client().post(reverse("signup"), {"username": "hostess", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 200 and User.objects.count() == 1
    assert "already exists" in unescape(response.content.decode())


# --- logging in and out ---------------------------------------------------------------------------------

@pytest.mark.django_db
def test_logging_in_goes_to_the_nights_or_where_the_host_was_going(hostess: User) -> None:
    client = Client()
    response = client.post(reverse("login"), {"username": "hostess", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("nights")
    assert logged_in_as(client) == "hostess"
    client = Client()
    to_new = client.get(reverse("night-new"))
    assert to_new["Location"] == f"{reverse('login')}?next={reverse('night-new')}"
    response = client.post(reverse("login"), {"username": "hostess", "password": PASSWORD,
                                              "next": reverse("night-new")})
    assert response["Location"] == reverse("night-new")


@pytest.mark.django_db
def test_logging_in_never_sends_the_host_to_another_site(hostess: User) -> None:
    for next_url in ("https://evil.example/", "//evil.example/", "/\\evil.example"):
        client = Client()
        response = client.post(reverse("login"), {"username": "hostess", "password": PASSWORD, "next": next_url})
        assert response.status_code == 302 and "evil.example" not in response["Location"], next_url


@pytest.mark.django_db
def test_a_wrong_password_is_refused_with_a_message(hostess: User) -> None:
    client = Client()
    response = client.post(reverse("login"), {"username": "hostess", "password": "Herz-Dame"})
    assert response.status_code == 200 and logged_in_as(client) is None
    assert "correct username and password" in errors(response.content.decode())
    assert 'value="hostess"' in response.content.decode()


@pytest.mark.django_db
def test_logging_out_takes_a_post(hostess: User) -> None:
    client = Client()
    client.force_login(hostess)
    assert client.get(reverse("logout")).status_code == 405
    assert logged_in_as(client) == "hostess"
    response = client.post(reverse("logout"))
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert logged_in_as(client) is None
    assert client.get(reverse("night-new"))["Location"].startswith(reverse("login"))


# --- resetting a password --------------------------------------------------------------------------------

def reset_link(message: Any) -> str:
    match = re.search(r"https?://[^/\s]+(/accounts/reset/[^\s]+/)", message.body)
    assert match, message.body
    return match.group(1)


@pytest.mark.django_db
def test_the_reset_link_in_the_mail_sets_a_new_password_once(hostess: User) -> None:
    client = Client()
    response = client.post(reverse("password_reset"), {"email": "hostess@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["hostess@example.org"]
    link = reset_link(mail.outbox[0])
    form = client.get(link, follow=True)
    assert form.status_code == 200 and form.context["validlink"]
    set_password = form.request["PATH_INFO"]
    new = "Pik-As-und-Kreuz-7"
    done = client.post(set_password, {"new_password1": new, "new_password2": new})
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")
    hostess.refresh_from_db()
    assert hostess.check_password(new) and not hostess.check_password(PASSWORD)
    # The link has done its work: opened again (on this phone or another) it offers no form.
    for again in (client, Client()):
        page = again.get(link, follow=True)
        assert page.status_code == 200 and not page.context["validlink"]
        assert "does not work any more" in page.content.decode()
    assert Client().post(reverse("login"), {"username": "hostess", "password": new}).status_code == 302


@pytest.mark.django_db
def test_a_reset_for_an_unknown_address_looks_the_same_and_sends_nothing(hostess: User) -> None:
    response = Client().post(reverse("password_reset"), {"email": "stranger@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


@pytest.mark.django_db
def test_without_a_mail_server_the_reset_link_is_printed(hostess: User, settings: Any,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    Client().post(reverse("password_reset"), {"email": "hostess@example.org"})
    assert re.search(r"/accounts/reset/[^\s/]+/[^\s/]+/", capsys.readouterr().out)


def test_the_settings_print_mail_unless_a_mail_server_is_configured() -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("SCOREKEEP_EMAIL")}
    env["DJANGO_SETTINGS_MODULE"] = "scorekeep.settings"
    out = subprocess.run([sys.executable, "-c", "from django.conf import settings; print(settings.EMAIL_BACKEND)"],
                         cwd=REPO, env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "django.core.mail.backends.console.EmailBackend"


# --- opening a link ----------------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_scorer_of_a_one_table_night_lands_on_the_table(world: World) -> None:
    night = world.night
    response = Client().get(reverse("join", args=[night.scorer_token]))
    assert response.status_code == 303 and response["Location"] == reverse("table", args=[night.pk, 1])
    # A viewer goes to the night; with two tables a scorer chooses there.
    viewer = Client().get(reverse("join", args=[night.viewer_token]))
    assert viewer["Location"] == reverse("night", args=[night.pk])
    nights.seat_table(night, ["Eva", "Frieda", "Gustav"])
    assert Client().get(reverse("join", args=[night.scorer_token]))["Location"] == reverse("night", args=[night.pk])


@pytest.mark.django_db
def test_a_wrong_token_gets_a_page_that_says_so(world: World) -> None:
    for token in ("not-a-token", world.night.scorer_token[:-1], world.night.scorer_token + "x", "x" * 300):
        response = Client().get(reverse("join", args=[token]))
        assert response.status_code == 404, token
        html = response.content.decode()
        assert "This link does not open a card night" in html and "ask the host" in html
        assert world.night.place not in html


# --- throttles ---------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_eleventh_wrong_password_is_refused_even_when_right(hostess: User) -> None:
    client = Client()
    for attempt in range(LOGIN_LIMIT):
        response = client.post(reverse("login"), {"username": "hostess", "password": f"wrong-{attempt}"})
        assert response.status_code == 200, attempt
    for password in ("wrong-again", PASSWORD):
        response = client.post(reverse("login"), {"username": "hostess", "password": password})
        assert response.status_code == 429, password
        assert "Too many attempts. Try again in 15 minutes." in response.content.decode()
        assert logged_in_as(client) is None
    # The address is refused for every account; the host, from elsewhere, is not locked out by it.
    assert client.post(reverse("login"), {"username": "someone", "password": "x"}).status_code == 429
    elsewhere = Client(REMOTE_ADDR="192.0.2.7")
    assert elsewhere.post(reverse("login"), {"username": "hostess", "password": PASSWORD}).status_code == 302
    assert logged_in_as(elsewhere) is not None


@pytest.mark.django_db
def test_an_account_guessed_from_many_addresses_is_refused_from_all_of_them(hostess: User) -> None:
    for attempt in range(ACCOUNT_LIMIT):
        address = f"198.51.100.{attempt % 200}" if attempt < 200 else f"203.0.113.{attempt % 200}"
        Client(REMOTE_ADDR=address).post(reverse("login"), {"username": "hostess", "password": f"wrong-{attempt}"})
    response = Client(REMOTE_ADDR="192.0.2.99").post(reverse("login"), {"username": "hostess", "password": PASSWORD})
    assert response.status_code == 429


@pytest.mark.django_db
def test_the_admin_log_in_is_throttled_like_the_sites(hostess: User) -> None:
    hostess.is_staff = True
    hostess.save()
    client = Client()
    for attempt in range(LOGIN_LIMIT):
        client.post("/admin/login/", {"username": "hostess", "password": f"wrong-{attempt}"})
    response = client.post("/admin/login/", {"username": "hostess", "password": PASSWORD})
    assert "Too many attempts" in response.content.decode() and logged_in_as(client) is None
    assert response.status_code == 429  # as the README says, and as the site's log-in answers
    assert client.get("/admin/login/").status_code == 200  # the page itself is not refused


@pytest.mark.django_db
def test_password_reset_mails_are_throttled_per_address(hostess: User, mailoutbox: list[Any]) -> None:
    client = Client()
    for _attempt in range(RESET_LIMIT):
        assert client.post(reverse("password_reset"), {"email": "hostess@example.org"}).status_code == 302
    response = client.post(reverse("password_reset"), {"email": "hostess@example.org"})
    assert response.status_code == 429 and "Too many attempts" in response.content.decode()
    assert len(mailoutbox) <= RESET_LIMIT


@pytest.mark.django_db
def test_the_login_throttle_lifts_after_its_window(hostess: User, monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client()
    for attempt in range(LOGIN_LIMIT):
        client.post(reverse("login"), {"username": "hostess", "password": f"wrong-{attempt}"})
    assert client.post(reverse("login"), {"username": "hostess", "password": PASSWORD}).status_code == 429
    later = throttle.time.time() + throttle.WINDOW + 1
    monkeypatch.setattr(throttle, "time", SimpleNamespace(time=lambda: later))
    assert client.post(reverse("login"), {"username": "hostess", "password": PASSWORD}).status_code == 302


@pytest.mark.django_db
def test_right_passwords_do_not_count_against_the_address(hostess: User) -> None:
    for _attempt in range(LOGIN_LIMIT - 1):
        assert Client().post(reverse("login"), {"username": "hostess", "password": "wrong"}).status_code == 200
        for _again in range(2):
            assert Client().post(reverse("login"), {"username": "hostess", "password": PASSWORD}).status_code == 302
    assert Client().post(reverse("login"), {"username": "hostess", "password": "wrong"}).status_code == 200
    assert Client().post(reverse("login"), {"username": "hostess", "password": PASSWORD}).status_code == 429


@pytest.mark.django_db
def test_an_attempt_counts_against_all_its_names_or_none() -> None:
    throttle.count("login", {"ip:192.0.2.1": 1, "user:anna": 5})
    with pytest.raises(throttle.Throttled) as refused:
        throttle.count("login", {"ip:192.0.2.1": 1, "user:anna": 5})
    assert throttle.WINDOW - 5 <= refused.value.wait <= throttle.WINDOW + 1
    assert len(Attempt.objects.get(scope="login", who="user:anna").made) == 1  # the refused one is not counted
    throttle.count("login", {"ip:192.0.2.2": 1, "user:anna": 5}).undo()
    assert len(Attempt.objects.get(scope="login", who="user:anna").made) == 1  # nor one taken back


@pytest.mark.django_db
def test_counts_past_their_window_are_deleted_by_the_next_attempt(monkeypatch: pytest.MonkeyPatch) -> None:
    for number in range(5):
        throttle.count("token", {f"ip:192.0.2.{number}": TOKEN_LIMIT})
    later = throttle.time.time() + throttle.WINDOW + 1
    monkeypatch.setattr(throttle, "time", SimpleNamespace(time=lambda: later))
    throttle.count("token", {"ip:198.51.100.1": TOKEN_LIMIT})
    assert list(Attempt.objects.values_list("who", flat=True)) == ["ip:198.51.100.1"]


@pytest.mark.django_db
def test_the_twenty_first_wrong_token_is_refused_and_then_the_right_one_too(world: World) -> None:
    client = Client()
    for attempt in range(TOKEN_LIMIT):
        assert client.get(reverse("join", args=[f"guess{attempt:04d}"])).status_code == 404, attempt
    for token in ("guess-again", world.night.scorer_token):
        response = client.get(reverse("join", args=[token]))
        assert response.status_code == 429, token
        assert "Too many attempts" in response.content.decode()
    assert client.get(reverse("night", args=[world.night.pk])).status_code == 404
    # Another address is not punished for this one's guessing.
    assert Client(REMOTE_ADDR="192.0.2.8").get(reverse("join", args=[world.night.scorer_token])).status_code == 303


def token_url(name: str, token: str) -> str:
    """A link's address with `token` in it (the standings' board has the page and the language after it)."""
    return reverse(name, args=[token, "phone", "en"] if name == "standings-board" else [token])


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["standings-viewer", "standings-screen", "standings-board"])
def test_wrong_tournament_viewer_tokens_are_throttled_like_a_nights_links(world: World, name: str) -> None:
    right = Tournament.objects.get(club=world.night.club).viewer_token
    client = Client()
    for attempt in range(TOKEN_LIMIT):
        assert client.get(token_url(name, f"guess{attempt:04d}")).status_code == 404, attempt
    for token in ("guess-again", right):
        response = client.get(token_url(name, token))
        assert response.status_code == 429, token
        assert "Too many attempts" in response.content.decode()
    # Night links and tournament links are one count per address: the night's link is refused too.
    assert client.get(reverse("join", args=[world.night.viewer_token])).status_code == 429
    assert Client(REMOTE_ADDR="192.0.2.8").get(token_url(name, right)).status_code == 200


@pytest.mark.django_db
def test_right_tournament_viewer_tokens_and_their_polls_are_not_counted(world: World) -> None:
    right = Tournament.objects.get(club=world.night.club).viewer_token
    screen = Client()
    for _poll in range(TOKEN_LIMIT + 5):  # a big screen polling all evening
        assert screen.get(reverse("standings-screen", args=[right]), HTTP_HX_REQUEST="true").status_code == 200
    for _phone in range(TOKEN_LIMIT + 5):  # phones behind the hall's one address, each opening the link
        assert Client().get(reverse("standings-viewer", args=[right])).status_code == 200
    assert not Attempt.objects.filter(scope="token").exclude(made=[]).exists()
    for attempt in range(TOKEN_LIMIT):
        assert Client().get(reverse("standings-viewer", args=[f"guess{attempt:04d}"])).status_code == 404
    # The screen that opened the link before the guessing keeps polling; a phone opening it now is refused.
    assert screen.get(reverse("standings-screen", args=[right]), HTTP_HX_REQUEST="true").status_code == 200
    assert Client().get(reverse("standings-viewer", args=[right])).status_code == 429


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/"])
def test_a_nul_in_the_log_in_name_is_refused_and_nothing_is_stored_with_it(hostess: User, path: str) -> None:
    """PostgreSQL refuses a NUL in text: the throttle stored "user:a\x00b" before the form was checked (500)."""
    response = Client().post(path, {"username": "host\x00ess", "password": PASSWORD})
    assert response.status_code == 200 and "Null characters are not allowed." in response.content.decode()
    assert logged_in_as(Client()) is None
    assert not [who for who in Attempt.objects.values_list("who", flat=True) if "\x00" in who]


@pytest.mark.django_db
def test_the_throttle_counts_a_name_with_a_nul_as_the_database_can_store_it() -> None:
    counted = throttle.count("login", {"ip:192.0.2.1": LOGIN_LIMIT, "user:host\x00ess": ACCOUNT_LIMIT})
    assert sorted(Attempt.objects.values_list("who", flat=True)) == ["ip:192.0.2.1", "user:host\ufffdess"]
    counted.undo()


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["join", "club-join", "standings-viewer", "standings-screen", "standings-board"])
def test_a_link_token_that_cannot_be_one_is_not_looked_up(world: World, name: str,
                                                          django_assert_max_num_queries: Any) -> None:
    """A token with a NUL (PostgreSQL refuses to compare it) or any character no token has: wrong at once,
    counted as a wrong token; the database is never asked for it."""
    client = world.clients[HOST]
    for token in ("a\u202eb", "x" * 65, "a%b", "é"):
        with django_assert_max_num_queries(12) as queries:
            response = client.get(token_url(name, token))
        assert response.status_code == 404, token
        assert not any(token in query["sql"] for query in queries.captured_queries), token
    assert client.get(token_url(name, "a\x00b")).status_code == 400


@pytest.mark.django_db
def test_sign_ups_from_one_address_are_throttled() -> None:
    for number in range(LOGIN_LIMIT):
        client = Client()
        response = client.post(reverse("signup"), {"username": f"host{number}", "password1": PASSWORD,
                                                   "password2": PASSWORD})
        assert response.status_code == 303, number
    response = Client().post(reverse("signup"), {"username": "one-more", "password1": PASSWORD,
                                                 "password2": PASSWORD})
    assert response.status_code == 429 and "Too many attempts" in response.content.decode()
    assert not User.objects.filter(username="one-more").exists()


# --- the links page -------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_links_page_shows_each_link_with_its_qr_code(world: World) -> None:
    night = world.night
    html = world.clients[HOST].get(reverse("night-links", args=[night.pk])).content.decode()
    assert html.count("<svg") == 2
    for token in (night.scorer_token, night.viewer_token):
        url = f"http://testserver{reverse('join', args=[token])}"
        assert f'href="{url}"' in html
        assert str(qr_svg(url)) in html  # the code on the page is the code of that very link
        # small enough for a phone's camera across the table (a version-10 code has 57 modules a side)
        assert int(segno.make(url, error="m").designator.split("-")[0]) <= 10
    assert 'name="which" value="score"' in html and 'name="which" value="view"' in html


@pytest.mark.django_db
def test_renewing_a_link_asks_which_one(world: World) -> None:
    before = stored()
    response = world.clients[HOST].post(reverse("night-links-renew", args=[world.night.pk]), {"which": "both"},
                                        follow=True)
    assert response.status_code == 200 and stored() == before
    assert "Choose which link to replace" in response.content.decode()
    response = world.clients[HOST].post(reverse("night-links-renew", args=[world.night.pk]), {"which": "view"},
                                        follow=True)
    assert "A new viewer link was made; the old one no longer works." in response.content.decode()
    assert CardNight.objects.get(pk=world.night.pk).viewer_token != world.night.viewer_token


# --- CSRF -------------------------------------------------------------------------------------------------

FORM_PAGES = ["signup", "login", "password_reset", "password_change", "night-new", "night", "night-links",
              "night-settings", "table", "deal", "night-settlement"]


@pytest.mark.django_db
@pytest.mark.parametrize("name", FORM_PAGES)
def test_every_post_form_carries_a_csrf_token(name: str, world: World) -> None:
    client = world.clients[HOST] if name not in ("signup", "login", "password_reset") else Client()
    html = client.get(url_of(name, world)).content.decode()
    forms = re.findall(r'<form[^>]*method="post"[^>]*>(.*?)</form>', html, re.S | re.I)
    assert forms, f"{name} has no POST form"
    for form in forms:
        assert 'name="csrfmiddlewaretoken"' in form, (name, form[:200])


# The API (JSON, no cookie) and the language switch of the pages kept alike for every viewer (a cookie, nothing
# stored: scorekeep.urls) take no CSRF token; every other POST needs one.
CSRF_FREE = ("api-adjudicate", "set-language-shared")
CSRF_CHECKED = [name for name in SITE_NAMES if ACCESS[name][1] not in (NONE, READS) and name not in CSRF_FREE]


@pytest.mark.django_db
@pytest.mark.parametrize("name", CSRF_CHECKED)
def test_a_post_without_the_csrf_token_is_refused(name: str, world: World) -> None:
    """As the night's host (who may do everything) and as an anonymous visitor: 403, nothing changed."""
    for user in (world.host, None):
        client = Client(enforce_csrf_checks=True)
        if user is not None:
            client.force_login(user)
        before = stored(), User.objects.count(), len(mail.outbox)
        response = client.post(url_of(name, world), POSTS.get(name, lambda w: {})(world))
        assert response.status_code == 403, (name, user)
        assert "CSRF" in response.content.decode(), (name, user)
        assert (stored(), User.objects.count(), len(mail.outbox)) == before, (name, user)
        if user is not None:
            assert logged_in_as(client) == user.username  # a forged log-out does not log out


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(NIGHT_WRITES))
def test_the_same_write_with_the_token_of_the_page_goes_through(name: str, world: World) -> None:
    """The refusals above are CSRF's, not the data's: with the token the host's browser has, it is stored."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.host)
    client.get(reverse("night", args=[world.night.pk]))  # sets the CSRF cookie, as opening any page does
    before = stored()
    token = client.cookies["csrftoken"].value
    response = client.post(url_of(name, world), {**POSTS[name](world), "csrfmiddlewaretoken": token})
    assert response.status_code in (302, 303), name
    assert stored() != before


def test_the_api_is_the_one_post_without_csrf_and_it_stores_nothing(db: None) -> None:
    before = stored()
    response = Client(enforce_csrf_checks=True).post(
        reverse("api-adjudicate"), '{"game": "skat", "players": 3, "deal": {"contract": "null", "declarer": 0, '
        '"bid": 23, "declarer_tricks": 0}}', content_type="application/json")
    assert response.status_code == 200 and response.json()["ok"] is True
    assert stored() == before


def test_the_shared_pages_language_switch_takes_no_token_sets_only_the_language_and_stores_nothing(
        db: None) -> None:
    before = stored(), User.objects.count()
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("set-language-shared"), {"language": "ja", "next": "/glossary/"})
    assert response.status_code == 302 and response["Location"] == "/glossary/"
    assert client.cookies["django_language"].value == "ja" and set(client.cookies) == {"django_language"}
    assert (stored(), User.objects.count()) == before
    # Nowhere but the site itself: a forged switch cannot send the visitor on elsewhere
    away = client.post(reverse("set-language-shared"), {"language": "de", "next": "https://evil.example/"})
    assert away.status_code == 302 and away["Location"] == "/"


@pytest.mark.django_db
def test_resetlink_prints_a_link_that_sets_a_new_password() -> None:
    """`manage.py resetlink NAME` (for a site without mail): the printed link lets the host choose a new
    password, once; an unknown name is a one-line error."""
    from io import StringIO

    from django.contrib.auth import get_user_model
    from django.core.management import CommandError, call_command

    user = get_user_model().objects.create_user("clubhost", password="old-password-123")
    out = StringIO()
    call_command("resetlink", "clubhost", "--base-url", "https://club.example", stdout=out)
    link = out.getvalue().strip()
    assert link.startswith("https://club.example/accounts/reset/")
    client = Client()
    form = client.get(link.removeprefix("https://club.example"), follow=True)
    assert form.status_code == 200 and b"new_password1" in form.content
    done = client.post(form.redirect_chain[-1][0] if form.redirect_chain else link,
                       {"new_password1": "a-brand-new-pass-9", "new_password2": "a-brand-new-pass-9"})
    assert done.status_code == 302
    user.refresh_from_db()
    assert user.check_password("a-brand-new-pass-9")
    with pytest.raises(CommandError, match="no account named 'nobody'"):
        call_command("resetlink", "nobody")
