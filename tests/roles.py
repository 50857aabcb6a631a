"""The authorization rules the tests hold the site to (`ACCESS`: who may GET and POST each URL), the roles
and the world they are checked in (a night with its links, another host's night, the site owner), and how
each URL is reached. Used by tests/test_authorization.py, tests/web/test_access.py and tests/test_fuzz_forms.py;
the `world` fixture is in tests/conftest.py.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.contrib.auth.models import User
from django.db import transaction
from django.http import HttpResponse, QueryDict
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scorekeep.models import Attempt, CardNight, Deal, Player, Season, Tournament
from scorekeep.nights import writes as nights
from scorekeep.nights.forms import NightForm, SettingsForm
from scorekeep.tournaments import writes as tournaments

ANONYMOUS, OTHER_HOST, VIEWER, SCORER, HOST, COHOST, SITE_OWNER = (
    "anonymous", "other host", "viewer", "scorer", "host", "co-host", "site owner")
ROLES = [ANONYMOUS, OTHER_HOST, VIEWER, SCORER, HOST, COHOST, SITE_OWNER]
ACCOUNTS = {OTHER_HOST, HOST, COHOST, SITE_OWNER}
CLUB_HOSTS = {HOST, COHOST, SITE_OWNER}  # who runs the night's club (the co-host was invited, with the same rights)
NIGHT_RANK = {VIEWER: 0, SCORER: 1, HOST: 2, COHOST: 2, SITE_OWNER: 2}  # strangers have none

# --- the rules -----------------------------------------------------------------------------------
PUBLIC = "public"  # anyone
NO_ACCOUNT = "no account"  # anyone; a logged-in host is sent on (sign-up, log-in)
ACCOUNT = "account"  # a logged-in host; anyone else is sent to log in
ACCOUNT_OR_LINK = "account or link"  # a logged-in host, or a phone that opened a link (the nights list)
OWN_PLAYER = "own player"  # a host of the player's club; other hosts 404, no account: log in
CLUB_HOST = "club host"  # a host of the club (owner or co-host); other accounts 404, no account: log in
STAFF = "staff"  # the site owner; everyone else is sent to the admin's log-in
VIEW, SCORE, NIGHT_HOST = "night: view", "night: score", "night: host"  # scorekeep.web.access roles
READS = "reads only"  # a POST is answered like the GET (or 405), by whoever may GET, and changes nothing
NONE = "not offered"  # 405 (or the refusal the URL's other method gives this role)

# Per URL name: (who may GET, who may POST). "admin:*" covers every pattern of the admin site.
ACCESS: dict[str, tuple[str, str]] = {
    "home": (PUBLIC, READS),
    "adjudicate": (PUBLIC, READS),
    "api-adjudicate": (NONE, PUBLIC),  # stateless: judges one deal, stores nothing
    "api-games": (PUBLIC, NONE),  # the games' description of their inputs
    "service-worker": (PUBLIC, NONE),  # the offline app's worker (issue 16): one script, the same for everyone
    "glossary": (PUBLIC, READS),
    "glossary-game": (PUBLIC, READS),
    "set_language": (PUBLIC, PUBLIC),  # Django's language switch: a cookie, nothing stored
    "set-language-shared": (PUBLIC, PUBLIC),  # the same, without a CSRF token (the standings kept for everyone)
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
    "clubs": (ACCOUNT, ACCOUNT),
    "club": (CLUB_HOST, CLUB_HOST),
    "club-cohost-add": (NONE, CLUB_HOST),
    "club-cohost-remove": (NONE, CLUB_HOST),
    "club-invitation-renew": (NONE, CLUB_HOST),
    "club-ratings": (NONE, CLUB_HOST),
    "club-join": (ACCOUNT, ACCOUNT),  # whoever has the invitation link and an account may accept it
    "season-new": (CLUB_HOST, CLUB_HOST),
    "season": (CLUB_HOST, READS),
    "season-print": (CLUB_HOST, READS),
    "season-pdf": (CLUB_HOST, READS),
    "season-csv": (CLUB_HOST, READS),
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
    "table-list": (VIEW, READS),
    "deal-new": (SCORE, SCORE),
    "deal": (VIEW, SCORE),
    "deal-play": (NONE, SCORE),  # the cards as played, attached to a deal (tests/dispute/test_attach_play.py)
    "deal-delete": (NONE, SCORE),
    "deal-restore": (NONE, SCORE),
    "night-print": (VIEW, READS),
    "night-pdf": (VIEW, READS),
    "night-csv": (VIEW, READS),
    "night-settlement": (VIEW, NIGHT_HOST),
    "stats": (ACCOUNT, READS),
    "player-stats": (OWN_PLAYER, READS),
    # Tournaments (issue 18): the organiser's pages are the club's hosts'.
    "tournaments": (ACCOUNT, NONE),
    "tournament-new": (ACCOUNT, ACCOUNT),
    "tournament": (CLUB_HOST, NONE),
    "tournament-register": (CLUB_HOST, CLUB_HOST),
    "tournament-withdraw": (CLUB_HOST, CLUB_HOST),  # GET: the confirmation; POST: the withdrawal (issue 31)
    "tournament-reinstate": (NONE, CLUB_HOST),
    "tournament-register-list": (NONE, CLUB_HOST),
    "tournament-paid": (NONE, CLUB_HOST),
    "tournament-series": (CLUB_HOST, NONE),
    "series-draw": (NONE, CLUB_HOST),
    "series-close": (NONE, CLUB_HOST),
    "series-reopen": (NONE, CLUB_HOST),
    # The tournament's printouts (issue 18, tour-print): read by the club's hosts.
    "tournament-printouts": (CLUB_HOST, NONE),
    "tournament-print-cards": (CLUB_HOST, NONE),
    "tournament-pdf-cards": (CLUB_HOST, NONE),
    "tournament-print-lists": (CLUB_HOST, NONE),
    "tournament-pdf-lists": (CLUB_HOST, NONE),
    "tournament-print-standings": (CLUB_HOST, NONE),
    "tournament-pdf-standings": (CLUB_HOST, NONE),
    "tournament-print-ranking": (CLUB_HOST, NONE),
    "tournament-pdf-ranking": (CLUB_HOST, NONE),
    # The standings and the money (issue 18, tour-stand): the organiser's pages are the club's hosts' (a POST
    # draws a lot, or saves the money settings); the standings by the tournament's viewer link are anyone's.
    "tournament-standings": (CLUB_HOST, CLUB_HOST),
    "tournament-money": (CLUB_HOST, CLUB_HOST),
    "standings-viewer": (PUBLIC, NONE),
    "standings-screen": (PUBLIC, NONE),
    "standings-board": (PUBLIC, NONE),  # the board alone, as the two pages above poll it (issue 32)
    # Issue 31: a table's result from its paper list (the organiser's), the CSV exports, and by the viewer link
    # the read-only results page and its CSVs.
    "tournament-table-paper": (CLUB_HOST, CLUB_HOST),
    "tournament-standings-csv": (CLUB_HOST, NONE),
    "tournament-ranking-csv": (CLUB_HOST, NONE),
    "results": (PUBLIC, NONE),
    "results-standings-csv": (PUBLIC, NONE),
    "results-ranking-csv": (PUBLIC, NONE),
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
    if rule in (OWN_PLAYER, CLUB_HOST):
        return None if role in CLUB_HOSTS else "404" if role == OTHER_HOST else "login"
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
# The cards of SEED's first deal as played (docs/PLAY.md), one trick a line: forehand (Anna, the declarer) leads
# and takes every trick, everyone following suit; the skat is SA S10.
SPADES_PLAYED = "CJ DJ S9\nSJ SK S8\nHJ SQ S7\nCA CK C9\nC10 CQ C8\nHA HK H9\nH10 HQ H8\nDA DK D9\nD10 DQ D8\nC7 H7 D7"
GRAND = {"contract": "grand", "declarer": "2", "bid": "48", "matadors": "2", "card_points": "70"}


@dataclass
class World:
    night: CardNight
    other_night: CardNight
    host: User
    other_host: User
    cohost: User
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


def stored() -> list[list[dict[str, Any]]]:
    """Everything the app stores (every model, every field, so new fields count too) but the throttles'
    counts: a refused request counts against its address, and that is no change to card-night data."""
    # The many-to-many tables too (a club's co-hosts).
    return [list(model.objects.order_by("pk").values())
            for model in apps.get_app_config("scorekeep").get_models(include_auto_created=True) if model is not Attempt]


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


SITE_NAMES = [name for name in ACCESS if not name.startswith("admin:")]


def url_of(name: str, world: World, night_id: int | None = None) -> str:
    """The URL of a pattern with arguments that exist: the host's night, its table 1, deal 1 (live) or
    deal 2 (deleted, for restoring), the host's player Anna, the viewer link."""
    route = next(p.route for p in every_pattern() if p.name == name)
    values = {"night_id": night_id or world.night.pk, "table_number": 1,
              "sequence": 2 if name == "deal-restore" else 1, "player_id": world.player.pk,
              "token": world.night.club.invite_token if name == "club-join"
              else Tournament.objects.filter(club_id=world.night.club_id).values_list("viewer_token", flat=True)
              .first() if name.startswith(("standings-", "results")) else world.night.viewer_token,
              "uidb64": "MQ", "game": "skat", "club_id": world.night.club_id, "user_id": world.cohost.pk,
              "season_id": Season.objects.filter(club_id=world.night.club_id).values_list("pk", flat=True).first(),
              "tournament_id": Tournament.objects.filter(club_id=world.night.club_id).values_list("pk", flat=True)
              .first(), "series_number": 1, "kind": "phone", "language": "en"}
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
    "clubs": lambda w: {"name": "Skatfreunde Nord"},
    "club": lambda w: {"name": "Skatfreunde Süd"},
    "club-cohost-add": lambda w: {"username": "otherhost"},
    "club-ratings": lambda w: {"ratings": "1"},
    "season-new": lambda w: {"name": "2026", "basis": "skat:seeger_fabian", "start": "2026-01-01", "end": "2026-12-31",
                             "min_nights": "3", "absence_penalty": "0"},
    "night-links-renew": lambda w: {"which": "score"},
    "tournament-standings": lambda w: {"scope": "overall"},
    "tournament-register-list": lambda w: {"players": "Neu Zugang; SC Gast; 4711", "confirm": "1"},
    "tournament-table-paper": lambda w: {"deals": "1", **{f"{key}_{p}": "0" for p in range(4)
                                                          for key in ("total", "won", "lost", "performance")}},
    "tournament-money": lambda w: {"entry_fee": "10", "lost_game_money": "1: 0.50, 4: 1.00", "prize_kind": "amounts",
                                   "prize_places": "20, 10", "retention_kind": "share", "retention_value": "0"},
    "night-settings": lambda w: settings_data(w.night),
    "night-finish": lambda w: {"finished": "1"},
    "table-new": lambda w: {"count": "3", "player-0": "Eva", "player-1": "Frieda", "player-2": "Gustav",
                            "first_dealer": "0"},
    "deal-new": lambda w: {**GRAND, "by": "Clara", "key": "deal-new-key-1", "expected": "3"},
    "deal": lambda w: {**GRAND, "by": "Clara", "reason": "typo", "key": "correction-key-1",
                       "version": str(Deal.objects.get(table__night=w.night, sequence=1).version)},
    "deal-play": lambda w: {"play-tricks": SPADES_PLAYED, "play-skat": "SA S10", "by": "Clara", "key": "play-key-1",
                            "version": str(Deal.objects.get(table__night=w.night, sequence=1).version)},
    "deal-delete": lambda w: {"reason": "never played", "key": "delete-key-1"},
    "deal-restore": lambda w: {"reason": "was played", "key": "restore-key-1"},
    "night-settlement": lambda w: {"rate": "0.10", "currency": "EUR", "basis": "list", "step": "10"},
}
CLUB_WRITES = {"clubs", "club", "season-new", "club-ratings", "club-cohost-add", "club-cohost-remove",
               "club-invitation-renew"}
NIGHT_WRITES = {"night-settlement", "night-links-renew", "night-settings", "night-finish", "table-new", "deal-new",
                "deal", "deal-play", "deal-delete", "deal-restore"}


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


def make_world(django_user_model: Any) -> World:
    # Accounts without a usable password: the clients log in by force_login, and no hashing slows the tests.
    host = django_user_model.objects.create_user("hostess")
    other = django_user_model.objects.create_user("otherhost")
    cohost = django_user_model.objects.create_user("cohost")
    owner = django_user_model.objects.create_superuser("siteowner", "owner@example.org", None)
    night = nights.start_night(game="skat", preset="classic", players=FOUR, place=PLACE, series_length=36, host=host)
    night.club.cohosts.add(cohost)
    Season.objects.create(club=night.club, name="2025", game="skat", start=datetime.date(2025, 1, 1),
                          end=datetime.date(2025, 12, 31), basis="seeger_fabian")
    table = night.tables.get()
    for facts in SEED:
        nights.enter_deal(table, facts, by="Anna")
    nights.delete_deal(table.deals.get(sequence=2), by="Bernd", reason="dealt twice")
    tournament = tournaments.create_tournament(club=night.club, name="Turnier", game="skat", preset="isko",
                                               series_count=2, series_length=48)
    for name in FOUR:
        tournaments.register(tournament, name=name)
    tournaments.draw_series(tournament, 1, seed="world", host=host)
    other_night = nights.start_night(game="fipsen", preset="classic", players=OTHERS, place=OTHER_PLACE, host=other)
    nights.enter_deal(other_night.tables.get(), {"contract": "tricks", "declarer": 1, "bid": 3, "tricks_taken": 3})
    night.refresh_from_db()
    clients = {ANONYMOUS: Client(), OTHER_HOST: logged_in(other), VIEWER: join(night.viewer_token),
               SCORER: join(night.scorer_token), HOST: logged_in(host), COHOST: logged_in(cohost),
               SITE_OWNER: logged_in(owner)}
    return World(night, other_night, host, other, cohost, owner, clients)
