"""Hypothesis against every form of issue 4, as each role (tests/nights/test_fuzz_nights.py fuzzes the night and
table pages as the host; this file adds the accounts, the links, the idempotency key and version of the
deal forms, the roles, the JSON API's content types, and escaping on the pages issue 4 and later added).

Never a server error; a refused role never changes anything stored; a deal sent twice with one key is
stored once; a correction typed on an older version of the deal changes nothing; whatever a person typed
(names, places, reasons, "your name") never appears unescaped on any page, printouts included.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.html import escape
from django.utils.http import urlsafe_base64_encode
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from scorekeep.models import CardNight, Deal
from scorekeep.nights import writes as nights
from scorekeep.printing import pdf
from scorekeep.words import labels
from tests.roles import (
    ACCESS,
    GRAND,
    HOST,
    NIGHT_WRITES,
    POSTS,
    ROLES,
    SCORER,
    VIEWER,
    World,
    outcome,
    refusal,
    stored,
    url_of,
)

# No shrinking: a failure is reported as found, in seconds, instead of minutes spent minimising it.
FUZZ = settings(max_examples=20, deadline=None, database=None, phases=[Phase.explicit, Phase.generate],
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# What a person (or a bot) may type into any input.
NASTY = ["", " ", "0", "1", "2", "3", "-1", "99", "9" * 30, "1e999", "NaN", "\x00", "x" * 5000, "<b>", "' OR 1=1 --",
         "score", "view", "both", "SCORE", "host", "on", "true", "[]", "{}", "١", "０", "EUR", "list", "10",
         "hostess", "hostess@example.org", "Karo-Bube-1957", "ä" * 200]
VALUE = st.one_of(st.sampled_from(NASTY), st.text(max_size=20), st.integers(-10**20, 10**20).map(str))
# Idempotency keys: well-formed ones (8–64 of [A-Za-z0-9_-]) and not, drawn from a few so they repeat.
KEY = st.one_of(st.from_regex(r"[A-Za-z0-9_-]{8,12}", fullmatch=True), st.sampled_from(
    ["", "short", "x" * 65, "has space!", "\x00\x00\x00\x00\x00\x00\x00\x00", "ÄÖÜäöüßé", "same-key-1"]))


def random_inputs(names: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    return st.dictionaries(st.sampled_from(names), st.one_of(VALUE, st.lists(VALUE, max_size=3)), max_size=6)


@pytest.fixture(autouse=True)
def quick(settings: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A fast password hasher, and the PDF's HTML kept (the printout is checked, not Chromium)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    pages: list[str] = []
    monkeypatch.setattr(pdf, "render", lambda html, **kw: pages.append(html) or b"%PDF-1.4")
    return pages


def rolled_back(body: Callable[[], None]) -> None:
    """One example in a savepoint, undone afterwards: every example meets the same night."""
    cache.clear()
    with transaction.atomic():
        body()
        transaction.set_rollback(True)


def answered(response: Any, what: object) -> None:
    assert response.status_code < 500, what


# --- accounts -------------------------------------------------------------------------------------------

ACCOUNT_FORMS = {
    "signup": ["username", "email", "password1", "password2"],
    "login": ["username", "password", "next"],
    "password_reset": ["email"],
    "set_password": ["new_password1", "new_password2"],
    "password_change": ["old_password", "new_password1", "new_password2"],
}


@pytest.mark.django_db
def test_the_account_forms_never_fail_and_never_let_a_wrong_password_in(world: World) -> None:
    world.host.set_password("Karo-Bube-1957")
    world.host.email = "hostess@example.org"
    world.host.save()

    @FUZZ
    @given(form=st.sampled_from(list(ACCOUNT_FORMS)), logged_in=st.booleans(), data=st.data())
    def fuzz(form: str, logged_in: bool, data: st.DataObject) -> None:
        sent = data.draw(random_inputs(ACCOUNT_FORMS[form]))

        def body() -> None:
            client = Client()
            if logged_in:
                client.force_login(world.host)
            users = User.objects.count()
            if form == "set_password":
                uid = urlsafe_base64_encode(force_bytes(world.host.pk))
                link = reverse("password_reset_confirm", args=[uid, default_token_generator.make_token(world.host)])
                url = client.get(link, follow=True).request["PATH_INFO"]
            else:
                url = reverse(form)
            response = client.post(url, sent)
            answered(response, (form, sent))
            if form == "login" and not logged_in:
                assert "_auth_user_id" not in client.session or sent.get("password") == "Karo-Bube-1957"
            if form == "signup":
                assert User.objects.count() == users + (response.status_code == 303)
            if response.status_code == 302 and form == "login":
                assert not re.match(r"(https?:)?//", response["Location"]), response["Location"]
        rolled_back(body)

    fuzz()


# --- every form of a night, as every role -------------------------------------------------------------------

NIGHT_FORMS = sorted(NIGHT_WRITES | {"night-new"})
NIGHT_INPUTS = ["key", "expected", "version", "which", "finished", "reason", "by", "contract", "declarer", "bid",
                "matadors", "card_points", "place", "date", "preset", "series_length", "count", "player-0",
                "player-3", "first_dealer", "rate", "currency", "basis", "step", "entry_fee", "prize_split", "preview",
                "refresh", "dealer"]


@pytest.mark.django_db
def test_every_night_form_as_every_role_never_fails_and_a_refused_role_changes_nothing(world: World) -> None:
    @settings(FUZZ, max_examples=100)
    @given(name=st.sampled_from(NIGHT_FORMS), role=st.sampled_from(ROLES), htmx=st.booleans(),
           mutation=random_inputs(NIGHT_INPUTS), key=KEY)
    def fuzz(name: str, role: str, htmx: bool, mutation: dict[str, Any], key: str) -> None:
        def body() -> None:
            before = stored()
            sent = {**POSTS[name](world), "key": key, **mutation}
            headers = {"HX-Request": "true", "HX-Target": "table-region"} if htmx else {}
            response = world.clients[role].post(url_of(name, world), sent, headers=headers)
            answered(response, (name, role, sent))
            refused = refusal(ACCESS[name][1], role)
            if refused is not None:
                assert outcome(response) == refused, (name, role, response.status_code)
                assert stored() == before, (name, role)
        rolled_back(body)

    fuzz()


# --- the idempotency key and the version -----------------------------------------------------------------------

def deals_of(world: World) -> int:
    return Deal.objects.filter(table__night=world.night).count()


@pytest.mark.django_db
def test_a_deal_sent_again_with_its_key_is_stored_once(world: World) -> None:
    scorer = world.clients[SCORER]
    url = reverse("deal-new", args=[world.night.pk, 1])

    @FUZZ
    @given(key=st.from_regex(r"new-[A-Za-z0-9_-]{5,20}", fullmatch=True), times=st.integers(2, 3),
           expected=st.one_of(st.none(), st.sampled_from(["3", "2", "4", "0", "-1", "x", "9" * 40, ""])),
           htmx=st.lists(st.booleans(), min_size=3, max_size=3))
    def fuzz(key: str, times: int, expected: str | None, htmx: list[bool]) -> None:
        def body() -> None:
            before = deals_of(world)
            sent = {**GRAND, "key": key, **({"expected": expected} if expected is not None else {})}
            for again in range(times):
                headers = {"HX-Request": "true", "HX-Target": "table-region"} if htmx[again] else {}
                answered(scorer.post(url, sent, headers=headers), (key, expected))
            # Stored once for the form of the next deal (3: two live deals) or without a number; a form for
            # another deal number is refused as stale.
            assert deals_of(world) - before == (1 if expected in (None, "3", "x", "") else 0), expected
        rolled_back(body)

    fuzz()


@pytest.mark.django_db
def test_a_correction_typed_on_an_older_version_changes_nothing(world: World) -> None:
    scorer = world.clients[SCORER]
    deal = Deal.objects.get(table__night=world.night, sequence=1)
    nights.correct_deal(deal, {**deal.facts, "card_points": 50}, by="Anna")  # version 2 now
    url = reverse("deal", args=[world.night.pk, 1, 1])

    @FUZZ
    @given(version=st.one_of(st.integers(-3, 6).map(str), st.sampled_from(["", "x", "2.0", "9" * 40, "\x00"])),
           key=st.one_of(st.from_regex(r"fix-[A-Za-z0-9_-]{5,20}", fullmatch=True), st.just("")),
           points=st.integers(0, 120))
    def fuzz(version: str, key: str, points: int) -> None:
        def body() -> None:
            current = Deal.objects.get(pk=deal.pk)
            sent = {"contract": "spades", "declarer": "0", "bid": "22", "matadors": "1", "card_points": str(points),
                    "version": version, "key": key, "reason": "fuzz"}
            response = scorer.post(url, sent)
            answered(response, sent)
            after = Deal.objects.get(pk=deal.pk)
            if re.fullmatch(r"-?\d{1,18}", version) and int(version) != current.version:
                assert after.facts == current.facts and response.status_code == 200, version
                # the page says so, unless the engine refused the deal anyway
                assert ("Your correction was not saved" in response.content.decode()
                        or response.context["form"].errors), version
        rolled_back(body)

    fuzz()


@pytest.mark.django_db
def test_deleting_and_restoring_with_any_key_and_reason_never_fails(world: World) -> None:
    @FUZZ
    @given(steps=st.lists(st.tuples(st.sampled_from(["delete", "restore"]), st.integers(1, 4), st.sampled_from(
        [SCORER, HOST, VIEWER]), st.one_of(st.from_regex(r"del-[A-Za-z0-9_-]{5,20}", fullmatch=True),
                                           st.sampled_from(["", "short", "x" * 65])),
        random_inputs(["reason", "by"])), min_size=1, max_size=4))
    def fuzz(steps: list[tuple[str, int, str, str, dict[str, Any]]]) -> None:
        def body() -> None:
            for action, sequence, role, key, note in steps:
                before = stored()
                url = reverse(f"deal-{action}", args=[world.night.pk, 1, sequence])
                response = world.clients[role].post(url, {"key": key, **note})
                answered(response, (action, sequence, role, key, note))
                if role == VIEWER:
                    assert response.status_code == 403 and stored() == before
        rolled_back(body)

    fuzz()


@pytest.mark.django_db
def test_a_key_used_for_another_change_is_never_a_server_error(world: World) -> None:
    scorer = world.clients[SCORER]
    night = world.night.pk
    assert scorer.post(reverse("deal-new", args=[night, 1]), {**GRAND, "key": "reused-key-1"}).status_code == 303
    response = scorer.post(reverse("deal", args=[night, 1, 1]), {**GRAND, "key": "reused-key-1", "card_points": "80"})
    assert response.status_code < 500


@pytest.mark.django_db
def test_the_deal_page_reopened_after_a_correction_still_deletes(world: World) -> None:
    """deal.html gives its correction and delete forms one key; back on the page as it was before the
    correction (the browser's back button), Delete must delete, or say it did not."""
    scorer = world.clients[SCORER]
    night = world.night.pk
    key = "same-page-key-1"
    fixed = scorer.post(reverse("deal", args=[night, 1, 1]), {**GRAND, "key": key, "card_points": "80"})
    assert fixed.status_code == 303
    response = scorer.post(reverse("deal-delete", args=[night, 1, 1]), {"key": key}, follow=True)
    deleted = Deal.objects.get(table__night=world.night, sequence=1).deleted
    assert deleted or "Deal deleted" not in response.content.decode()


# --- the links -----------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_renewing_changes_exactly_the_link_named(world: World) -> None:
    url = reverse("night-links-renew", args=[world.night.pk])

    @FUZZ
    @given(which=st.one_of(st.sampled_from(["score", "view", "Score", "both", "", "host"]), VALUE),
           extra=random_inputs(["which", "token", "scorer_token", "viewer_token"]))
    def fuzz(which: str, extra: dict[str, Any]) -> None:
        def body() -> None:
            before = CardNight.objects.values("scorer_token", "viewer_token").get(pk=world.night.pk)
            response = world.clients[HOST].post(url, {**extra, "which": which})
            assert response.status_code == 303, which
            after = CardNight.objects.values("scorer_token", "viewer_token").get(pk=world.night.pk)
            changed = {field for field in before if before[field] != after[field]}
            assert changed == ({"scorer_token"} if which == "score" else {"viewer_token"} if which == "view"
                               else set()), which
        rolled_back(body)

    fuzz()


# --- the JSON API -----------------------------------------------------------------------------------------------

CONTENT_TYPES = ["application/json", "application/json; charset=utf-8", "application/json; charset=latin-1",
                 "application/json; charset=utf-16", "text/plain", "application/x-www-form-urlencoded",
                 "multipart/form-data; boundary=xyz", "", "application/json;;;", "application/json; charset=",
                 "APPLICATION/JSON", "text/html; charset=utf-8"]
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                  max_size=3), max_leaves=12)
REQUEST_LIKE = st.fixed_dictionaries({"game": st.sampled_from(["skat", "schafkopf", "kop", "fipsen", "go", 1]),
                                      "players": st.one_of(st.integers(-1, 6), JSON)},
                                     optional={"deal": JSON, "rules": JSON, "dealer": JSON})


@pytest.mark.django_db
@FUZZ
@given(method=st.sampled_from(["POST", "POST", "POST", "GET", "PUT", "DELETE", "PATCH", "OPTIONS"]),
       content_type=st.one_of(st.sampled_from(CONTENT_TYPES), st.text(max_size=30)),
       body=st.one_of(st.binary(max_size=200), JSON.map(lambda v: json.dumps(v).encode()),
                      REQUEST_LIKE.map(lambda v: json.dumps(v).encode()),
                      st.text(max_size=60).map(lambda t: t.encode("utf-16"))))
def test_the_api_answers_any_body_and_content_type_with_json(method: str, content_type: str, body: bytes) -> None:
    response = Client().generic(method, reverse("api-adjudicate"), body, content_type=content_type)
    assert response.status_code in (200, 400, 405), (method, content_type, body)
    answer = response.json()
    assert answer["ok"] is (response.status_code == 200)
    if not answer["ok"]:
        assert answer["errors"] and all(error["field"] and error["message"] for error in answer["errors"])


# --- escaping -------------------------------------------------------------------------------------------

SNIPPETS = ["<b>", "<script>", "</td><td>", '"', "'", "&", "&lt;", "<!--", '"><img src=x onerror=alert(1)>', "<",
            ">", "&amp;", "</textarea>", "<a href='x'>"]  # each with a character HTML escapes
MARKER = st.text(alphabet="bcdfghjklmnpqrstvwxz", min_size=5, max_size=6)


def pages(world: World, night: CardNight, hostile: dict[str, str], pdf_pages: list[str]) -> dict[str, str]:
    """Every page that shows what was typed, as the role that sees it, plus the PDF's HTML."""
    host, viewer, scorer = world.clients[HOST], world.clients[VIEWER], world.clients[SCORER]
    table = reverse("table", args=[night.pk, 1])
    player = night.tables.get().places.first().player  # type: ignore[union-attr]
    urls = {
        "nights (host)": (host, reverse("nights")), "nights (viewer)": (viewer, reverse("nights")),
        "night": (viewer, reverse("night", args=[night.pk])), "table": (scorer, table),
        "table (viewer)": (viewer, table), "deal": (viewer, reverse("deal", args=[night.pk, 1, 1])),
        "settings": (host, reverse("night-settings", args=[night.pk])),
        "links": (host, reverse("night-links", args=[night.pk])), "print": (viewer, reverse("night-print",
                                                                                          args=[night.pk])),
        "pdf": (viewer, reverse("night-pdf", args=[night.pk])), "stats": (host, reverse("stats")),
        "player": (host, reverse("player-stats", args=[player.pk])),
        "settlement": (viewer, reverse("night-settlement", args=[night.pk])),
        "night-new": (host, reverse("night-new")), "table-new": (scorer, reverse("table-new", args=[night.pk])),
    }
    out = {}
    for page, (client, url) in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (page, response.status_code)
        out[page] = response.content.decode() if page != "pdf" else pdf_pages[-1]
    preview = {**GRAND, "declarer": "0"}
    out["preview"] = scorer.get(reverse("deal-new", args=[night.pk, 1]), preview,
                                headers={"HX-Request": "true", "HX-Target": "preview"}).content.decode()
    # A form refused as stale names what was entered meanwhile, and by whom.
    out["stale"] = scorer.post(reverse("deal-new", args=[night.pk, 1]), {**GRAND, "expected": "1",
                                                                       "by": hostile["by"]}).content.decode()
    out["refused"] = scorer.post(reverse("deal", args=[night.pk, 1, 1]), {
        **GRAND, "card_points": "999", "reason": hostile["reason"], "by": hostile["by"]}).content.decode()
    return out


@pytest.mark.django_db
def test_whatever_was_typed_never_appears_unescaped_on_any_page(world: World, quick: list[str]) -> None:
    @settings(FUZZ, max_examples=10)
    @given(marker=MARKER, snippets=st.lists(st.sampled_from(SNIPPETS), min_size=8, max_size=8))
    def fuzz(marker: str, snippets: list[str]) -> None:
        names = [" ".join(f"{snippets[p]}{marker}{p}".split())[:40] for p in range(4)]
        hostile = {"place": f"{snippets[4]}{marker}P", "by": f"{snippets[5]}{marker}B",
                   "reason": f"{snippets[6]}{marker}R", "settings reason": f"{snippets[7]}{marker}S"}

        def body() -> None:
            night = nights.start_night(game="skat", preset="classic", players=names, place=hostile["place"],
                                       series_length=36, host=world.host)
            table = night.tables.get()
            deal = nights.enter_deal(table, {"contract": "grand", "declarer": 0, "bid": 48, "matadors": 2,
                                             "card_points": 70}, by=hostile["by"])
            nights.correct_deal(deal, {**deal.facts, "card_points": 58}, by=hostile["by"], reason=hostile["reason"])
            nights.enter_deal(table, {"contract": "null", "declarer": 1, "bid": 23, "declarer_tricks": 0},
                              by=hostile["by"])
            nights.change_settings(night, by=hostile["by"], reason=hostile["settings reason"], bock_events=[])
            night.refresh_from_db()
            for role in (VIEWER, SCORER):
                token = night.viewer_token if role == VIEWER else night.scorer_token
                world.clients[role].get(reverse("join", args=[token]))
            shown = pages(world, night, hostile, quick)
            for page, html in shown.items():
                for text in [*names, *hostile.values()]:
                    assert text not in html, (page, text)
            # Not vacuous: the names are on the pages, escaped (the table's page by their short form, which must
            # not show unescaped either).
            short = labels.table_names(names)
            assert all(escape(name) in shown["table"] for name in short)
            assert not any(name in shown["table"] for name in short if marker in name and escape(name) != name)
            assert escape(hostile["place"]) in shown["print"] and escape(hostile["reason"]) in shown["deal"]
        rolled_back(body)

    fuzz()
