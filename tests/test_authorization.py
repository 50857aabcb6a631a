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

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse, QueryDict
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scorekeep import nights, pdf
from scorekeep.models import CardNight, Deal, Player
from scorekeep.night_forms import NightForm, SettingsForm

ANONYMOUS, OTHER_HOST, VIEWER, SCORER, HOST, SITE_OWNER = (
    "anonymous", "other host", "viewer", "scorer", "host", "site owner")
ROLES = [ANONYMOUS, OTHER_HOST, VIEWER, SCORER, HOST, SITE_OWNER]
ACCOUNTS = {OTHER_HOST, HOST, SITE_OWNER}
NIGHT_RANK = {VIEWER: 0, SCORER: 1, HOST: 2, SITE_OWNER: 2}  # strangers have none

# --- the rules -----------------------------------------------------------------------------------
PUBLIC = "public"  # anyone
NO_ACCOUNT = "no account"  # anyone; a logged-in host is sent on (sign-up, log-in)
ACCOUNT = "account"  # a logged-in host; anyone else is sent to log in
ACCOUNT_OR_LINK = "account or link"  # a logged-in host, or a phone that opened a link (the nights list)
OWN_PLAYER = "own player"  # a host who ran a night with that player; other hosts 404, no account: log in
STAFF = "staff"  # the site owner; everyone else is sent to the admin's log-in
VIEW, SCORE, NIGHT_HOST = "night: view", "night: score", "night: host"  # scorekeep.access roles
READS = "reads only"  # a POST is answered like the GET (or 405), by whoever may GET, and changes nothing
NONE = "not offered"  # 405 (or the refusal the URL's other method gives this role)

# Per URL name: (who may GET, who may POST). "admin:*" covers every pattern of the admin site.
ACCESS: dict[str, tuple[str, str]] = {
    "home": (PUBLIC, READS),
    "adjudicate": (PUBLIC, READS),
    "api-adjudicate": (NONE, PUBLIC),  # stateless: judges one deal, stores nothing
    "api-games": (PUBLIC, NONE),  # the games' description of their inputs
    "glossary": (PUBLIC, READS),
    "glossary-game": (PUBLIC, READS),
    "set_language": (PUBLIC, PUBLIC),  # Django's language switch: a cookie, nothing stored
    "signup": (NO_ACCOUNT, NO_ACCOUNT),
    "login": (NO_ACCOUNT, NO_ACCOUNT),
    "logout": (NONE, PUBLIC),
    "password_reset": (PUBLIC, PUBLIC),
    "password_reset_done": (PUBLIC, NONE),
    "password_reset_confirm": (PUBLIC, PUBLIC),
    "password_reset_complete": (PUBLIC, NONE),
    "password_change": (ACCOUNT, ACCOUNT),
    "password_change_done": (ACCOUNT, NONE),
    "join": (PUBLIC, READS),
    "nights": (ACCOUNT_OR_LINK, READS),
    "night-new": (ACCOUNT, ACCOUNT),
    "night": (VIEW, READS),
    "night-links": (NIGHT_HOST, READS),
    "night-links-renew": (NONE, NIGHT_HOST),
    "night-settings": (NIGHT_HOST, NIGHT_HOST),
    "night-finish": (NONE, NIGHT_HOST),
    "table-new": (SCORE, SCORE),
    "night-json": (VIEW, READS),
    "table": (VIEW, READS),
    "deal-new": (SCORE, SCORE),
    "deal": (VIEW, SCORE),
    "deal-delete": (NONE, SCORE),
    "deal-restore": (NONE, SCORE),
    "night-print": (VIEW, READS),
    "night-pdf": (VIEW, READS),
    "night-csv": (VIEW, READS),
    "night-settlement": (VIEW, NIGHT_HOST),
    "stats": (ACCOUNT, READS),
    "player-stats": (OWN_PLAYER, READS),
    "admin:*": (STAFF, STAFF),
    "admin:login": (PUBLIC, PUBLIC),
    "admin:logout": (NONE, PUBLIC),  # logging out is harmless; the admin sends anyone else to its log-in
}

NIGHT_RULES = {VIEW: VIEWER, SCORE: SCORER, NIGHT_HOST: HOST}  # the least role each night rule lets in


def refusal(rule: str, role: str) -> str | None:
    """How `rule` refuses `role` ("login", "admin login", "404", "403"), or None when it lets the role in."""
    if rule in (PUBLIC, NO_ACCOUNT, READS):
        return None
    if rule == ACCOUNT:
        return None if role in ACCOUNTS else "login"
    if rule == ACCOUNT_OR_LINK:
        return "login" if role == ANONYMOUS else None
    if rule == OWN_PLAYER:
        return None if role in (HOST, SITE_OWNER) else "404" if role == OTHER_HOST else "login"
    if rule == STAFF:
        return None if role == SITE_OWNER else "admin login"
    if rule in NIGHT_RULES:
        if role not in NIGHT_RANK:
            return "404"
        return None if NIGHT_RANK[role] >= NIGHT_RANK[NIGHT_RULES[rule]] else "403"
    raise AssertionError(f"unknown rule {rule!r}")


def outcome(response: HttpResponse) -> str:
    """The kind of answer: "ok", "login", "admin login", "404", "403", "405" or the status."""
    status = response.status_code
    if status in (301, 302, 303):
        location = response["Location"]
        if location.startswith(reverse("admin:login")):
            return "admin login"
        if location.startswith(reverse("login")):
            return "login"
        return "ok"
    if status in (200, 204, 304):
        return "ok"
    return str(status)


def allowed_outcomes(rules: tuple[str, str], method: str, role: str) -> set[str]:
    get, post = rules
    rule, other = (get, post) if method == "GET" else (post, get)
    if rule == NONE:
        # Nobody may: 405, unless the role is refused the URL altogether (a stranger's 404 comes first).
        return {"405"} | ({refused} if (refused := refusal(other, role)) else set())
    if rule == READS:
        refused = refusal(get, role)
        return {refused} if refused else {"ok", "405"}
    refused = refusal(rule, role)
    return {refused} if refused else {"ok"}


# --- the world the rules are checked in -------------------------------------------------------------

FOUR = ["Anna", "Bernd", "Clara", "Dieter"]
OTHERS = ["Xaver", "Yvonne", "Zacharias"]  # another host's players: never shown to the night's host
PLACE, OTHER_PLACE = "Zum Goldenen Ochsen", "Bei Xaver im Keller"
SEED = [{"contract": "spades", "declarer": 0, "bid": 22, "matadors": 1, "card_points": 45},
        {"contract": "grand", "declarer": 1, "bid": 48, "matadors": 2, "card_points": 70},
        {"contract": "null", "declarer": 2, "bid": 23, "declarer_tricks": 0}]
GRAND = {"contract": "grand", "declarer": "2", "bid": "48", "matadors": "2", "card_points": "70"}


@dataclass
class World:
    night: CardNight
    other_night: CardNight
    host: User
    other_host: User
    site_owner: User
    clients: dict[str, Client]

    @property
    def player(self) -> Player:
        return Player.objects.get(name="Anna")


def join(token: str) -> Client:
    client = Client()
    response = client.get(reverse("join", args=[token]))
    assert response.status_code == 303, "opening a link of the night does not let in"
    return client


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture(autouse=True)
def no_throttle_left_over() -> Iterator[None]:
    """The throttles count in the cache, which outlives the test database: start and leave it empty."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def quick_hashing(settings: Any) -> None:
    """A log-in checks a password hash even for a wrong name; the slow hasher would take most of the time."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def quick_pdf(monkeypatch: pytest.MonkeyPatch) -> None:
    """Who may fetch the PDF is the question here, not the PDF: skip the second of Chromium per render."""
    monkeypatch.setattr(pdf, "render", lambda html: b"%PDF-1.4 (the printout)")


@pytest.fixture
def world(db: None, django_user_model: Any) -> World:
    # Accounts without a usable password: the clients log in by force_login, and no hashing slows the tests.
    host = django_user_model.objects.create_user("hostess")
    other = django_user_model.objects.create_user("otherhost")
    owner = django_user_model.objects.create_superuser("siteowner", "owner@example.org", None)
    night = nights.start_night(game="skat", preset="classic", players=FOUR, place=PLACE, series_length=36, host=host)
    table = night.tables.get()
    for facts in SEED:
        nights.enter_deal(table, facts, by="Anna")
    nights.delete_deal(table.deals.get(sequence=2), by="Bernd", reason="dealt twice")
    other_night = nights.start_night(game="fipsen", preset="classic", players=OTHERS, place=OTHER_PLACE, host=other)
    nights.enter_deal(other_night.tables.get(), {"contract": "tricks", "declarer": 1, "bid": 3, "tricks_taken": 3})
    night.refresh_from_db()
    clients = {ANONYMOUS: Client(), OTHER_HOST: logged_in(other), VIEWER: join(night.viewer_token),
               SCORER: join(night.scorer_token), HOST: logged_in(host), SITE_OWNER: logged_in(owner)}
    return World(night, other_night, host, other, owner, clients)


def stored() -> list[list[dict[str, Any]]]:
    """Everything the app stores (every model, every field, so new fields count too)."""
    return [list(model.objects.order_by("pk").values()) for model in apps.get_app_config("scorekeep").get_models()]


# --- every URL pattern ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Pattern:
    name: str  # "namespace:name", or "admin:*"-style "namespace:" + "?" for unnamed ones
    route: str
    rule_key: str


def walk(patterns: list[Any], prefix: str = "", namespace: str = "") -> Iterator[tuple[str, str, str]]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            inner = ":".join(part for part in (namespace, entry.namespace or "") if part)
            yield from walk(entry.url_patterns, prefix + str(entry.pattern), inner)
        else:
            assert isinstance(entry, URLPattern)
            yield namespace, entry.name or "", prefix + str(entry.pattern)


def every_pattern() -> list[Pattern]:
    out = []
    for namespace, name, route in walk(get_resolver().url_patterns):
        full = f"{namespace}:{name}" if namespace else name
        key = full if full in ACCESS else f"{namespace}:*" if namespace else full
        out.append(Pattern(full or f"(unnamed) {route}", route, key))
    return out


def test_every_url_pattern_has_an_access_rule() -> None:
    patterns = every_pattern()
    missing = sorted({f"{p.name} ({p.route})" for p in patterns if p.rule_key not in ACCESS})
    assert not missing, ("URLs without an access rule in tests/test_authorization.py ACCESS (decide who may GET "
                         f"and POST them, and protect the view): {missing}")
    unused = set(ACCESS) - {p.rule_key for p in patterns}
    assert not unused, f"ACCESS names URLs that no longer exist: {sorted(unused)}"
    # The walk does find the included modules' URLs, so a missing rule there cannot go unnoticed.
    assert {"night-print", "night-pdf", "stats", "night-csv", "admin:index"} <= {p.name for p in patterns}


SITE_NAMES = [name for name in ACCESS if not name.startswith("admin:")]


def url_of(name: str, world: World, night_id: int | None = None) -> str:
    """The URL of a pattern with arguments that exist: the host's night, its table 1, deal 1 (live) or
    deal 2 (deleted, for restoring), the host's player Anna, the viewer link."""
    route = next(p.route for p in every_pattern() if p.name == name)
    values = {"night_id": night_id or world.night.pk, "table_number": 1,
              "sequence": 2 if name == "deal-restore" else 1, "player_id": world.player.pk,
              "token": world.night.viewer_token, "uidb64": "MQ", "game": "skat"}
    kwargs = {}
    for arg in re.findall(r"<(?:\w+:)?(\w+)>", route):
        assert arg in values, f"no value for <{arg}> of URL {name}: add one to url_of"
        kwargs[arg] = values[arg]
    if name == "password_reset_confirm":
        kwargs["token"] = "set-password"  # no valid reset token: the page says the link is invalid
    return reverse(name, kwargs=kwargs)


def night_base() -> dict[str, list[str]]:
    data = NightForm(QueryDict("game=skat"), url=reverse("night-new")).data
    return {**{key: data.getlist(key) for key in data}, "place": ["Neu"],
            **{f"player-{p}": [name] for p, name in enumerate(FOUR)}}


def settings_data(night: CardNight) -> dict[str, list[str]]:
    data = SettingsForm.data_of(night)
    return {**{key: data.getlist(key) for key in data}, "place": ["Im Hinterzimmer"], "by": ["Anna"]}


# What a browser sends to each URL: for the writes, a write that succeeds for whoever may make it.
POSTS: dict[str, Callable[[World], dict[str, Any]]] = {
    "signup": lambda w: {"username": "newhost", "email": "", "password1": "Lang-genug-42x",
                         "password2": "Lang-genug-42x"},
    "login": lambda w: {"username": "hostess", "password": "wrong"},
    "password_reset": lambda w: {"email": "nobody@example.org"},
    "password_reset_confirm": lambda w: {"new_password1": "Lang-genug-42x", "new_password2": "Lang-genug-42x"},
    "password_change": lambda w: {"old_password": "wrong", "new_password1": "x", "new_password2": "y"},
    "night-new": lambda w: night_base(),
    "night-links-renew": lambda w: {"which": "score"},
    "night-settings": lambda w: settings_data(w.night),
    "night-finish": lambda w: {"finished": "1"},
    "table-new": lambda w: {"count": "3", "player-0": "Eva", "player-1": "Frieda", "player-2": "Gustav",
                            "first_dealer": "0"},
    "deal-new": lambda w: {**GRAND, "by": "Clara", "key": "deal-new-key-1", "expected": "3"},
    "deal": lambda w: {**GRAND, "by": "Clara", "reason": "typo", "key": "correction-key-1",
                       "version": str(Deal.objects.get(table__night=w.night, sequence=1).version)},
    "deal-delete": lambda w: {"reason": "never played", "key": "delete-key-1"},
    "deal-restore": lambda w: {"reason": "was played", "key": "restore-key-1"},
    "night-settlement": lambda w: {"rate": "0.10", "currency": "EUR", "basis": "list", "step": "10"},
}
NIGHT_WRITES = {"night-settlement", "night-links-renew", "night-settings", "night-finish", "table-new", "deal-new",
                "deal", "deal-delete", "deal-restore"}


def send(client: Client, method: str, name: str, url: str, world: World) -> HttpResponse:
    if name == "api-adjudicate" and method == "POST":
        body = '{"game": "skat", "players": 3, "deal": {"contract": "grand", "declarer": 0, "bid": 48, ' \
               '"matadors": 2, "card_points": 70}}'
        return client.post(url, body, content_type="application/json")
    if method == "GET":
        return client.get(url)
    return client.post(url, POSTS.get(name, lambda w: {})(world))


def in_savepoint(check: Callable[[], None]) -> None:
    """Undo what a request changed, so every role meets the same night."""
    with transaction.atomic():
        check()
        transaction.set_rollback(True)


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
            writes = method == "POST" and name in NIGHT_WRITES | {"night-new"}
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
    assert seen == {HOST: {mine}, OTHER_HOST: {theirs}, VIEWER: {mine}, SCORER: {mine}, SITE_OWNER: {mine, theirs}}
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
def test_a_host_loses_a_night_when_it_is_given_to_another_host(world: World) -> None:
    CardNight.objects.filter(pk=world.night.pk).update(host=world.other_host)
    assert world.clients[HOST].get(reverse("night", args=[world.night.pk])).status_code == 404
    assert world.clients[OTHER_HOST].get(reverse("night-settings", args=[world.night.pk])).status_code == 200
