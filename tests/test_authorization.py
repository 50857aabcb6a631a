"""Who may reach which URL (issue 4: "strangers see nothing").

`ACCESS` below names, for every URL pattern of `scorekeep.urls` (included modules and the admin too),
who may GET it and who may POST to it. `test_every_url_pattern_has_an_access_rule` walks the resolver,
so a page added without a rule fails until someone decides who may see it.

The roles: an anonymous visitor; another host (logged in, runs a night of their own); a phone that
opened the night's viewer link; one that opened its scorer link; the night's host; the site owner (a
superuser, host of every night and the only one in the admin). For a night's URLs a stranger (anonymous
or another host) gets the same 404 as for a night that does not exist, so ids cannot be probed; a viewer
asking to write and a scorer asking for the host's pages get 403, and then nothing stored has changed;
whoever may write does change what is stored, so the refusals cannot pass by the write never working.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scorekeep.models import CardNight, Deal, Player
from scorekeep.printing import pdf
from tests.roles import (
    ACCESS,
    ANONYMOUS,
    CLUB_WRITES,
    COHOST,
    FOUR,
    GRAND,
    HOST,
    NIGHT_WRITES,
    NONE,
    OTHER_HOST,
    OTHER_PLACE,
    OTHERS,
    PLACE,
    PUBLIC,
    READS,
    ROLES,
    SCORER,
    SITE_NAMES,
    SITE_OWNER,
    VIEWER,
    World,
    allowed_outcomes,
    every_pattern,
    in_savepoint,
    outcome,
    send,
    stored,
    url_of,
)


@pytest.fixture(scope="module")
def world_once(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    """The world built once for the module (216 tests: its nights, deals, clubs, tournament and signed-in
    clients cost ~0.4 s a test on PostgreSQL), inside a transaction that is rolled back after the module. Each
    test's own transaction (pytest-django's `db`) is then a savepoint in it, rolled back after the test, as
    Django's TestCase does with `setUpTestData`: every test meets the world as it was built."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from tests.roles import make_world

    outer = transaction.atomic()
    with django_db_blocker.unblock():
        outer.__enter__()
        built = make_world(get_user_model())
    yield built
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        outer.__exit__(None, None, None)


@pytest.fixture
def world(world_once: World, db: None) -> World:
    """The module's world with its objects read afresh and each client's cookies copied, so that what one test
    changes in memory (a client logged out, a night's field set) does not reach the next; the database is
    rolled back after each test."""
    clients = {}
    for role, built in world_once.clients.items():
        client = Client()
        client.cookies = copy.deepcopy(built.cookies)
        clients[role] = client
    users = type(world_once.host).objects.in_bulk([world_once.host.pk, world_once.other_host.pk,
                                                    world_once.cohost.pk, world_once.site_owner.pk])
    return World(CardNight.objects.get(pk=world_once.night.pk), CardNight.objects.get(pk=world_once.other_night.pk),
                 users[world_once.host.pk], users[world_once.other_host.pk], users[world_once.cohost.pk],
                 users[world_once.site_owner.pk], clients)


@pytest.fixture(autouse=True)
def quick_hashing(settings: Any) -> None:
    """A log-in checks a password hash even for a wrong name; the slow hasher would take most of the time."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def quick_pdf(monkeypatch: pytest.MonkeyPatch) -> None:
    """Who may fetch the PDF is the question here, not the PDF: skip the second of Chromium per render."""
    monkeypatch.setattr(pdf, "render", lambda html, **kw: b"%PDF-1.4 (the printout)")


def test_every_url_pattern_has_an_access_rule() -> None:
    patterns = every_pattern()
    missing = sorted({f"{p.name} ({p.route})" for p in patterns if p.rule_key not in ACCESS})
    assert not missing, ("URLs without an access rule in tests/test_authorization.py ACCESS (decide who may GET "
                         f"and POST them, and protect the view): {missing}")
    unused = set(ACCESS) - {p.rule_key for p in patterns}
    assert not unused, f"ACCESS names URLs that no longer exist: {sorted(unused)}"
    # The walk does find the included modules' URLs, so a missing rule there cannot go unnoticed.
    assert {"night-print", "night-pdf", "stats", "night-csv", "admin:index"} <= {p.name for p in patterns}


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["GET", "POST"])
@pytest.mark.parametrize("name", SITE_NAMES)
def test_each_role_gets_what_the_rule_says(name: str, method: str, world: World) -> None:
    rules = ACCESS[name]
    url = url_of(name, world)
    wrong: list[str] = []
    for role in ROLES:
        def check(role: str = role) -> None:
            before = stored()
            response = send(world.clients[role], method, name, url, world)
            got = outcome(response)
            allowed = allowed_outcomes(rules, method, role)
            if got not in allowed:
                wrong.append(f"{role}: {method} {url} answered {response.status_code} ({got}), expected {allowed}")
                return
            writes = method == "POST" and name in NIGHT_WRITES | CLUB_WRITES | {"night-new"}
            if got != "ok" and stored() != before:
                wrong.append(f"{role}: {method} {url} was refused ({got}) but changed what is stored")
            if writes and got == "ok" and stored() == before:
                wrong.append(f"{role}: {method} {url} may write but changed nothing (the test's data is wrong?)")
            if got == "ok" and method == "POST" and ACCESS[name][1] == READS and stored() != before:
                wrong.append(f"{role}: {method} {url} only reads but changed what is stored")
            if got in ("404", "403", "login") and response.status_code != 302:
                # A refusal shows nothing of the night: not its place, not its players.
                html = response.content.decode(errors="replace")
                leaked = [text for text in (PLACE, "Dieter") if text in html]
                if leaked:
                    wrong.append(f"{role}: {method} {url} refused ({got}) but shows {leaked}")
        in_savepoint(check)
    assert not wrong, "\n".join(wrong)


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["GET", "POST"])
@pytest.mark.parametrize("name", [name for name in SITE_NAMES if "<int:night_id>" in
                                  next(p.route for p in every_pattern() if p.name == name)])
def test_a_stranger_cannot_tell_a_night_from_no_night(name: str, method: str, world: World) -> None:
    """The answer to a stranger for the host's night is the answer for an id that has no night."""
    missing = CardNight.objects.order_by("-pk").first().pk + 1000  # type: ignore[union-attr]
    for role in (ANONYMOUS, OTHER_HOST):
        client = world.clients[role]
        real = send(client, method, name, url_of(name, world), world)
        none = send(client, method, name, url_of(name, world, night_id=missing), world)
        assert real.status_code == none.status_code, (role, method, name)
        assert real.status_code in (404, 405), (role, method, name, real.status_code)


# --- the admin ---------------------------------------------------------------------------------------

def admin_paths(world: World) -> list[tuple[str, str]]:
    """Every admin pattern as a path, with ids of objects that exist (the host's night, deal 1, Anna)."""
    night = world.night
    deal = Deal.objects.get(table__night=night, sequence=1)
    ids = {"player": world.player.pk, "cardtable": night.tables.get().pk, "cardnight": night.pk, "deal": deal.pk,
           "dealrevision": deal.revisions.first().pk, "nightrevision": 1, "user": world.host.pk,  # type: ignore[union-attr]
           "group": 1}
    out = []
    for pattern in every_pattern():
        if not pattern.route.startswith("admin/"):
            continue
        route = pattern.route
        model = re.search(r"admin/\w+/(\w+)/", route)
        object_id = str(ids.get(model.group(1), 1)) if model else "1"
        path = (route.replace("<path:object_id>", object_id).replace("<id>", object_id)
                .replace("<path:content_type_id>", "1").replace("^(?P<app_label>auth|scorekeep)/$", "scorekeep/")
                .replace("(?P<url>.*)$", "no/such/page/"))
        assert "<" not in path and "(" not in path, f"no path for admin route {route}: extend admin_paths"
        out.append((pattern.name, "/" + path))
    return out


def admin_problem(client: Client, method: str, path: str, rule: str, role: str) -> str | None:
    """What is wrong with the admin's answer to this role, or None."""
    response = client.get(path) if method == "GET" else client.post(path, {})
    got = outcome(response)
    said = f"{role}: {method} {path} answered {response.status_code} ({got})"
    if rule in (PUBLIC, NONE):  # its log-in page, and logging out
        return None if got in ("ok", "405", "admin login") else said
    if role == SITE_OWNER:
        return said if got in ("admin login", "login") or response.status_code >= 500 else None
    if got == "admin login":
        return None
    # A redirect inside the admin (an object's bare URL) may come first; it must end at the log-in.
    final = client.get(path, follow=True) if method == "GET" and got == "ok" else None
    if final is not None and final.redirect_chain and final.request["PATH_INFO"] == reverse("admin:login"):
        return None
    return said


@pytest.mark.django_db
def test_only_the_site_owner_reaches_the_admin(world: World) -> None:
    wrong: list[str] = []
    for name, path in admin_paths(world):
        rules = ACCESS.get(name, ACCESS["admin:*"])
        for role in ROLES:
            for method in ("GET", "POST") if role != SITE_OWNER else ("GET",):
                rule = rules[0 if method == "GET" else 1]
                in_savepoint(lambda args=(world.clients[role], method, path, rule, role):
                             wrong.extend(filter(None, [admin_problem(*args)])))
    assert not wrong, "\n".join(wrong)


# --- the nights list, the suggestions, statistics -----------------------------------------------------

def night_links_in(html: str) -> set[int]:
    return {int(n) for n in re.findall(r'href="/nights/(\d+)/"', html)}


@pytest.mark.django_db
def test_the_nights_list_shows_each_host_their_nights_and_each_phone_its_joined_nights(world: World) -> None:
    mine, theirs = world.night.pk, world.other_night.pk
    pages = {role: world.clients[role].get(reverse("nights")) for role in ROLES}
    assert outcome(pages[ANONYMOUS]) == "login"
    seen = {role: night_links_in(page.content.decode()) for role, page in pages.items() if role != ANONYMOUS}
    assert seen == {HOST: {mine}, COHOST: {mine}, OTHER_HOST: {theirs}, VIEWER: {mine}, SCORER: {mine},
                    SITE_OWNER: {mine, theirs}}
    assert OTHER_PLACE not in pages[HOST].content.decode() and "Xaver" not in pages[HOST].content.decode()
    assert PLACE not in pages[OTHER_HOST].content.decode() and "Dieter" not in pages[OTHER_HOST].content.decode()
    # A phone with a link sees that night as joined, with what it may do, and no one else's nights.
    assert "you watch" in pages[VIEWER].content.decode() and "you keep score" in pages[SCORER].content.decode()
    assert OTHER_PLACE not in pages[VIEWER].content.decode()


@pytest.mark.django_db
def test_a_host_who_opened_another_hosts_link_sees_that_night_as_joined(world: World) -> None:
    client = world.clients[OTHER_HOST]
    client.get(reverse("join", args=[world.night.viewer_token]))
    html = client.get(reverse("nights")).content.decode()
    assert night_links_in(html) == {world.night.pk, world.other_night.pk}
    assert client.get(reverse("night", args=[world.night.pk])).status_code == 200
    assert client.post(reverse("deal-new", args=[world.night.pk, 1]), {**GRAND, "key": "abcdefgh12"}).status_code == 403


def suggested(html: str) -> set[str]:
    datalist = re.search(r'<datalist id="known-players">(.*?)</datalist>', html, re.S)
    assert datalist, "no suggestions of known players on the page"
    return set(re.findall(r'<option value="([^"]*)"', datalist.group(1)))


@pytest.mark.django_db
def test_known_player_suggestions_never_name_another_hosts_players(world: World) -> None:
    host, other = world.clients[HOST], world.clients[OTHER_HOST]
    assert suggested(host.get(reverse("night-new")).content.decode()) == set(FOUR)
    assert suggested(other.get(reverse("night-new")).content.decode()) == set(OTHERS)
    assert suggested(world.clients[SITE_OWNER].get(reverse("night-new")).content.decode()) == {*FOUR, *OTHERS}
    # On the night's own pages a phone with a link is offered nobody's names.
    for role in (VIEWER, SCORER):
        client = world.clients[role]
        for url in (reverse("night", args=[world.night.pk]), reverse("table-new", args=[world.night.pk])):
            response = client.get(url)
            if response.status_code == 200 and 'id="known-players"' in response.content.decode():
                assert suggested(response.content.decode()) == set(), (role, url)
    assert suggested(host.get(reverse("night-settings", args=[world.night.pk])).content.decode()) == set(FOUR)


@pytest.mark.django_db
def test_statistics_show_a_host_only_the_players_of_their_nights(world: World) -> None:
    host = world.clients[HOST].get(reverse("stats")).content.decode()
    other = world.clients[OTHER_HOST].get(reverse("stats")).content.decode()
    assert "Dieter" in host and "Zacharias" not in host
    assert "Zacharias" in other and "Dieter" not in other
    xaver = Player.objects.get(name="Xaver")
    assert world.clients[HOST].get(reverse("player-stats", args=[xaver.pk])).status_code == 404
    assert world.clients[OTHER_HOST].get(reverse("player-stats", args=[xaver.pk])).status_code == 200
    assert world.clients[OTHER_HOST].get(reverse("player-stats", args=[world.player.pk])).status_code == 404


# --- links: revoking, joining twice, the live poll --------------------------------------------------

def renew(world: World, which: str) -> None:
    response = world.clients[HOST].post(reverse("night-links-renew", args=[world.night.pk]), {"which": which})
    assert response.status_code == 303
    world.night.refresh_from_db()


@pytest.mark.django_db
@pytest.mark.parametrize("which, role", [("score", SCORER), ("view", VIEWER)])
def test_a_renewed_link_loses_access_at_the_next_request(which: str, role: str, world: World) -> None:
    client = world.clients[role]
    table = reverse("table", args=[world.night.pk, 1])
    old = world.night.scorer_token if which == "score" else world.night.viewer_token
    assert client.get(table).status_code == 200
    renew(world, which)
    for url in (table, reverse("night", args=[world.night.pk]), reverse("night-json", args=[world.night.pk]),
                reverse("deal", args=[world.night.pk, 1, 1]), reverse("night-print", args=[world.night.pk])):
        assert client.get(url).status_code == 404, url
    before = stored()
    assert client.post(reverse("deal-new", args=[world.night.pk, 1]), GRAND).status_code == 404
    assert stored() == before
    # The old link opens nothing any more; the new one does.
    assert client.get(reverse("join", args=[old])).status_code == 404
    new = world.night.scorer_token if which == "score" else world.night.viewer_token
    assert new != old
    assert client.get(reverse("join", args=[new])).status_code == 303
    assert client.get(table).status_code == 200
    assert reverse("nights") and night_links_in(client.get(reverse("nights")).content.decode()) == {world.night.pk}


@pytest.mark.django_db
def test_renewing_one_link_leaves_the_other_working(world: World) -> None:
    renew(world, "score")
    assert world.clients[VIEWER].get(reverse("table", args=[world.night.pk, 1])).status_code == 200
    renew(world, "view")
    assert world.clients[SCORER].get(reverse("table", args=[world.night.pk, 1])).status_code == 404
    assert world.clients[VIEWER].get(reverse("table", args=[world.night.pk, 1])).status_code == 404


@pytest.mark.django_db
def test_the_live_poll_of_a_revoked_viewer_is_refused_not_answered_unchanged(world: World) -> None:
    client = world.clients[VIEWER]
    table = reverse("table", args=[world.night.pk, 1])
    poll = {"HX-Request": "true", "HX-Target": "live-ledger"}
    first = client.get(table, headers=poll)
    assert first.status_code == 200 and first["ETag"]
    assert client.get(table, headers={**poll, "If-None-Match": first["ETag"]}).status_code == 304
    renew(world, "view")
    assert client.get(table, headers={**poll, "If-None-Match": first["ETag"]}).status_code == 404


@pytest.mark.django_db
def test_opening_the_viewer_link_after_the_scorer_link_keeps_scoring(world: World) -> None:
    client = world.clients[SCORER]
    assert client.get(reverse("join", args=[world.night.viewer_token])).status_code == 303
    before = Deal.objects.filter(table__night=world.night).count()
    response = client.post(reverse("deal-new", args=[world.night.pk, 1]), {**GRAND, "key": "keeps-scoring-1"})
    assert response.status_code == 303
    assert Deal.objects.filter(table__night=world.night).count() == before + 1


@pytest.mark.django_db
def test_opening_the_scorer_link_after_the_viewer_link_lets_a_viewer_score(world: World) -> None:
    client = world.clients[VIEWER]
    assert client.post(reverse("deal-new", args=[world.night.pk, 1]), GRAND).status_code == 403
    assert client.get(reverse("join", args=[world.night.scorer_token])).status_code == 303
    assert client.post(reverse("deal-new", args=[world.night.pk, 1]), {**GRAND, "key": "now-scoring-1"}).status_code \
        == 303


@pytest.mark.django_db
def test_a_link_of_one_night_opens_no_other_night(world: World) -> None:
    client = world.clients[SCORER]
    other = world.other_night.pk
    for url in (reverse("night", args=[other]), reverse("table", args=[other, 1]), reverse("night-json", args=[other]),
                reverse("deal-new", args=[other, 1])):
        assert client.get(url).status_code == 404, url
    assert client.post(reverse("deal-new", args=[other, 1]), {"contract": "passed"}).status_code == 404


@pytest.mark.django_db
def test_a_session_forged_to_name_a_role_without_the_token_gets_nothing(world: World) -> None:
    """The grant in the session must carry the night's current token; a role alone opens nothing."""
    client = Client()
    session = client.session
    session["nights"] = {str(world.night.pk): {"score": "", "view": "not-the-token"},
                         str(world.other_night.pk): {"host": "yes", "role": "host"}}
    session.save()
    assert client.get(reverse("night", args=[world.night.pk])).status_code == 404
    assert client.get(reverse("night", args=[world.other_night.pk])).status_code == 404


@pytest.mark.django_db
def test_a_host_loses_a_night_when_it_is_given_to_another_club(world: World) -> None:
    CardNight.objects.filter(pk=world.night.pk).update(club=world.other_night.club)
    assert world.clients[HOST].get(reverse("night", args=[world.night.pk])).status_code == 404
    assert world.clients[OTHER_HOST].get(reverse("night-settings", args=[world.night.pk])).status_code == 200
