"""Clubs (issue 17): a club owns its players and nights, and nobody outside its hosts and the nights' link
holders sees any of it — not a stranger, not another club's host, not a phone holding a link of another
club's night. Names are unique within a club only; co-hosts join by a link or by account name; a host
with several clubs chooses one when starting a night; the migration splits each host's players into
their own club without losing anything.

Runs on SQLite and on PostgreSQL (``DATABASE_URL=postgres://…``)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from scorekeep.models import CardNight, Club, Player, Season
from scorekeep.nights import writes as nights
from tests.roles import every_pattern

# Club A's night: the names and place that must never reach anyone outside club A. Club B has an Anna too.
A_PLAYERS = ["ANNA", "Bernhard", "Cordula"]
B_PLAYERS = ["anna", "Xaver", "Yvonne"]
A_PLACE, B_PLACE = "Hinterzimmer Goldener Hirsch", "Kellerstube Xaver"
SECRETS = ["Bernhard", "Cordula", A_PLACE]
GRAND = {"contract": "grand", "declarer": 1, "bid": 48, "matadors": 2, "card_points": 70}

STRANGER, OTHER_CLUB_HOST, OTHER_VIEWER, OTHER_SCORER = (
    "stranger", "another club's host", "viewer of another night", "scorer of another night")
OUTSIDERS = [STRANGER, OTHER_CLUB_HOST, OTHER_VIEWER, OTHER_SCORER]


def joined(token: str, client: Client | None = None) -> Client:
    client = client or Client()
    assert client.get(reverse("join", args=[token])).status_code == 303
    return client


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def two_clubs(db: None) -> dict[str, Any]:
    host_a = User.objects.create_user("host-a")
    host_b = User.objects.create_user("host-b")
    night_a = nights.start_night(game="skat", preset="classic", players=A_PLAYERS, place=A_PLACE, host=host_a)
    nights.enter_deal(night_a.tables.get(), GRAND, by="Bernhard")
    night_b = nights.start_night(game="skat", preset="classic", players=B_PLAYERS, place=B_PLACE, host=host_b)
    nights.enter_deal(night_b.tables.get(), GRAND, by="Xaver")
    night_a.refresh_from_db()
    night_b.refresh_from_db()
    Season.objects.create(club=night_a.club, name="Saison", game="skat", start=night_a.date, end=night_a.date,
                          basis="seeger_fabian")
    clients = {STRANGER: Client(), OTHER_CLUB_HOST: logged_in(host_b), OTHER_VIEWER: joined(night_b.viewer_token),
               OTHER_SCORER: joined(night_b.scorer_token)}
    return {"host_a": host_a, "host_b": host_b, "night_a": night_a, "night_b": night_b, "clients": clients,
            "host": logged_in(host_a)}


def shows_secrets(response: HttpResponse) -> list[str]:
    if response.status_code in (301, 302, 303, 304):
        return []
    body = response.content.decode(errors="replace")
    return [text for text in SECRETS if text in body]


def club_a_urls(world: dict[str, Any]) -> list[str]:
    """Every URL pattern that names a night, a table, a deal, a player or a club, filled with club A's."""
    night = world["night_a"]
    values = {"night_id": night.pk, "table_number": 1, "sequence": 1, "club_id": night.club_id,
              "player_id": Player.objects.get(club=night.club, name="Bernhard").pk,
              "user_id": world["host_a"].pk, "season_id": Season.objects.get(club=night.club).pk}
    urls = []
    for pattern in every_pattern():
        args = re.findall(r"<(?:\w+:)?(\w+)>", pattern.route)
        if pattern.route.startswith("admin/") or not args or not set(args) <= set(values):
            continue
        urls.append(reverse(pattern.name, kwargs={arg: values[arg] for arg in args}))
    return urls


def test_every_url_of_a_club_s_night_player_or_club_is_covered(two_clubs: dict[str, Any]) -> None:
    urls = club_a_urls(two_clubs)
    night, club = two_clubs["night_a"], two_clubs["night_a"].club_id
    for expected in (f"/nights/{night.pk}/", f"/nights/{night.pk}/ledger.json", f"/nights/{night.pk}/ledger.csv",
                     f"/nights/{night.pk}/print.pdf", f"/clubs/{club}/",
                     f"/clubs/{club}/seasons/{Season.objects.get().pk}/season.csv"):
        assert expected in urls
    assert any(url.startswith("/stats/") for url in urls)


@pytest.mark.parametrize("outsider", OUTSIDERS)
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_nobody_outside_the_club_reaches_its_nights_players_or_club_pages(
        two_clubs: dict[str, Any], outsider: str, method: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from scorekeep.printing import pdf

    monkeypatch.setattr(pdf, "render", lambda html, **kw: b"%PDF-1.4 (the printout)")
    client = two_clubs["clients"][outsider]
    wrong = []
    for url in club_a_urls(two_clubs):
        response = client.get(url) if method == "GET" else client.post(url, {"name": "x", "username": "host-b"})
        refused = response.status_code in (403, 404, 405) or (
            response.status_code == 302 and response["Location"].startswith(reverse("login")))
        if not refused or shows_secrets(response):
            wrong.append(f"{method} {url}: {response.status_code} {shows_secrets(response)}")
    assert not wrong, "\n".join(wrong)
    club = Club.objects.get(pk=two_clubs["night_a"].club_id)
    assert not club.cohosts.exists() and club.name == "host-a"  # nothing was changed either


@pytest.mark.parametrize("outsider", OUTSIDERS)
def test_the_lists_suggestions_and_statistics_show_an_outsider_nothing_of_the_club(
        two_clubs: dict[str, Any], outsider: str) -> None:
    client = two_clubs["clients"][outsider]
    for name in ("nights", "night-new", "stats", "clubs", "home", "glossary"):
        response = client.get(reverse(name))
        assert not shows_secrets(response), (outsider, name)
        if response.status_code == 200:
            assert f'href="/nights/{two_clubs["night_a"].pk}/"' not in response.content.decode()
    # What the other night's pages show its link holders and host: none of club A's names.
    night_b = two_clubs["night_b"]
    for url in (reverse("night", args=[night_b.pk]), reverse("table-new", args=[night_b.pk]),
                reverse("night-json", args=[night_b.pk]), reverse("night-csv", args=[night_b.pk])):
        assert not shows_secrets(client.get(url)), (outsider, url)


def test_another_club_s_host_sees_only_their_own_anna(two_clubs: dict[str, Any]) -> None:
    """Two clubs' "Anna" are two players: each club keeps its own spelling, statistics and page."""
    club_a, club_b = two_clubs["night_a"].club, two_clubs["night_b"].club
    anna_a, anna_b = Player.objects.get(club=club_a, key="anna"), Player.objects.get(club=club_b, key="anna")
    assert (anna_a.name, anna_b.name) == ("ANNA", "anna") and anna_a.pk != anna_b.pk
    other = two_clubs["clients"][OTHER_CLUB_HOST]
    page = other.get(reverse("night-new")).content.decode()
    names = set(re.findall(r'<option value="([^"]*)">', page.split('id="known-players"')[1].split("</datalist>")[0]))
    assert names == set(B_PLAYERS)
    stats = other.get(reverse("stats")).context["statistics"]
    assert {p.player.pk for p in stats.players} == set(Player.objects.filter(club=club_b).values_list("pk", flat=True))
    assert other.get(reverse("player-stats", args=[anna_a.pk])).status_code == 404
    assert other.get(reverse("player-stats", args=[anna_b.pk])).status_code == 200
    # A later night of club B typed "aNNA" is club B's Anna, never club A's.
    again = nights.start_night(game="skat", preset="classic", players=["aNNA", "Xaver", "Yvonne"], club=club_b)
    assert again.tables.get().places.get(position=0).player == anna_b


def test_a_name_is_unique_within_a_club_only(db: None) -> None:
    club_a, club_b = Club.objects.create(name="A"), Club.objects.create(name="B")
    first = nights.player_named(club_a, "Jürgen")
    assert nights.player_named(club_a, "JÜRGEN") == first
    assert nights.player_named(club_b, "jürgen") != first
    long_name = "ß" * 40  # its case-folded key is 80 characters: within the key's room on every database
    assert nights.player_named(club_a, long_name).key == "ss" * 40


# --- co-hosts -----------------------------------------------------------------------------------------

def test_a_co_host_invited_by_link_runs_the_club_and_a_renewed_link_no_longer_invites(
        two_clubs: dict[str, Any]) -> None:
    night_a = two_clubs["night_a"]
    club = night_a.club
    invitation = reverse("club-join", args=[club.invite_token])
    anonymous = Client()
    response = anonymous.get(invitation)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    guest = two_clubs["clients"][OTHER_CLUB_HOST]
    assert guest.get(reverse("night", args=[night_a.pk])).status_code == 404
    page = guest.get(invitation)
    assert page.status_code == 200 and "host-a" in page.content.decode()
    assert Club.objects.get(pk=club.pk).cohosts.count() == 0  # opening the link changes nothing yet
    assert guest.post(invitation).status_code == 303
    assert guest.get(reverse("night", args=[night_a.pk])).status_code == 200
    assert guest.get(reverse("night-settings", args=[night_a.pk])).status_code == 200
    assert guest.get(reverse("club", args=[club.pk])).status_code == 200
    # The host makes a new invitation link: the old one invites nobody.
    host = two_clubs["host"]
    assert host.post(reverse("club-invitation-renew", args=[club.pk])).status_code == 303
    third = logged_in(User.objects.create_user("third"))
    assert third.get(invitation).status_code == 404
    assert third.post(invitation).status_code == 404
    assert not Club.objects.get(pk=club.pk).cohosts.filter(username="third").exists()
    # Taken off the club, the co-host loses its nights again.
    assert host.post(reverse("club-cohost-remove", args=[club.pk, two_clubs["host_b"].pk])).status_code == 303
    assert guest.get(reverse("night", args=[night_a.pk])).status_code == 404


def test_a_co_host_is_added_by_account_name_and_a_wrong_name_is_named(two_clubs: dict[str, Any]) -> None:
    club = two_clubs["night_a"].club
    host = two_clubs["host"]
    url = reverse("club-cohost-add", args=[club.pk])
    response = host.post(url, {"username": "nobody-here"})
    assert response.status_code == 200
    assert "There is no account named “nobody-here”." in response.content.decode()
    response = host.post(url, {"username": "host-a"})
    assert "host-a runs this club already." in response.content.decode()
    assert host.post(url, {"username": "host-b"}).status_code == 303
    guest = two_clubs["clients"][OTHER_CLUB_HOST]
    assert guest.get(reverse("night", args=[two_clubs["night_a"].pk])).status_code == 200


def test_a_host_with_two_clubs_chooses_one_when_starting_a_night(two_clubs: dict[str, Any]) -> None:
    host = two_clubs["host"]
    assert host.post(reverse("clubs"), {"name": "  Skatfreunde   Nord "}).status_code == 303
    second = Club.objects.get(name="Skatfreunde Nord")
    assert second.owner == two_clubs["host_a"]
    form = host.get(reverse("night-new")).content.decode()
    assert 'name="club"' in form and "Skatfreunde Nord" in form and "host-b" not in form
    data = {key: value for key, value in host.get(reverse("night-new")).context["form"].data.items()}
    data.update({"place": "Nord", "count": "3", "player-0": "ANNA", "player-1": "Dora", "player-2": "Emil",
                 "club": str(second.pk)})
    assert host.post(reverse("night-new"), data).status_code == 303
    night = CardNight.objects.get(place="Nord")
    assert night.club == second
    # Club A's ANNA is not club "Nord"'s: the same name there is a new player of that club.
    assert Player.objects.filter(key="anna").count() == 3
    # Another club's id is refused naming the field and what is allowed.
    data["club"] = str(two_clubs["night_b"].club_id)
    response = host.post(reverse("night-new"), data)
    assert response.status_code == 200
    assert response.context["form"].errors["club"] == ["Choose one of your clubs: host-a, Skatfreunde Nord."]


def test_a_club_needs_a_name_that_fits(two_clubs: dict[str, Any]) -> None:
    host = two_clubs["host"]
    response = host.post(reverse("clubs"), {"name": "   "})
    assert response.status_code == 200 and "A club needs a name." in response.content.decode()
    response = host.post(reverse("clubs"), {"name": "x" * 81})
    assert response.status_code == 200 and response.context["form"].errors["name"]
    assert Club.objects.filter(owner=two_clubs["host_a"]).count() == 1


def test_the_club_page_shows_its_nights_players_and_hosts_to_its_hosts(two_clubs: dict[str, Any]) -> None:
    club = two_clubs["night_a"].club
    page = two_clubs["host"].get(reverse("club", args=[club.pk])).content.decode()
    for text in (A_PLACE, "Bernhard", "Cordula", "ANNA", club.invite_token):
        assert text in page
    assert "Xaver" not in page and B_PLACE not in page


# --- the migration ------------------------------------------------------------------------------------

BEFORE, AFTER = [("scorekeep", "0008_table_standing")], [("scorekeep", "0011_club_required")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_each_host_a_club_and_splits_a_shared_player() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        OldUser, OldNight = old.get_model("auth", "User"), old.get_model("scorekeep", "CardNight")
        OldTable, OldPlayer = old.get_model("scorekeep", "CardTable"), old.get_model("scorekeep", "Player")
        OldPlace = old.get_model("scorekeep", "TablePlayer")
        hosts = [OldUser.objects.create(username="erna"), OldUser.objects.create(username="fritz")]
        players = {name: OldPlayer.objects.create(name=name, key=name.casefold())
                   for name in ("Anna", "Bernd", "Clara", "Dieter", "Nobody")}
        seatings = {"erna": ["Anna", "Bernd", "Clara"], "fritz": ["Anna", "Dieter", "Clara"], None: ["Bernd", "Clara",
                                                                                                     "Dieter"]}
        for host in [*hosts, None]:
            night = OldNight.objects.create(game="skat", preset="classic", host=host, place=f"bei {host}")
            table = OldTable.objects.create(night=night, number=1, seats=3)
            for position, name in enumerate(seatings[host.username if host else None]):
                OldPlace.objects.create(table=table, player=players[name], position=position)
        anna_id = players["Anna"].pk

        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps
        NewClub, NewNight = new.get_model("scorekeep", "Club"), new.get_model("scorekeep", "CardNight")
        NewPlayer, NewPlace = new.get_model("scorekeep", "Player"), new.get_model("scorekeep", "TablePlayer")

        assert sorted(NewClub.objects.values_list("name", "owner__username")) == [
            ("Without a host", None), ("erna", "erna"), ("fritz", "fritz")]
        for night in NewNight.objects.all():
            expected_owner = night.host_id
            assert NewClub.objects.get(pk=night.club_id).owner_id == expected_owner
            # Every place at a night is held by a player of the night's club, the seating unchanged.
            places = NewPlace.objects.filter(table__night=night).order_by("position")
            assert all(place.player.club_id == night.club_id for place in places)
            host = NewClub.objects.get(pk=night.club_id).owner
            assert [place.player.name for place in places] == seatings[host.username if host else None]
        # Anna sat at erna's and fritz's nights: two players now, erna's keeping the id; Clara in all three clubs.
        annas = NewPlayer.objects.filter(key="anna")
        assert sorted(annas.values_list("club__name", flat=True)) == ["erna", "fritz"]
        assert annas.get(club__name="erna").pk == anna_id
        assert NewPlayer.objects.filter(key="clara").count() == 3
        assert NewPlayer.objects.get(key="nobody").club.name == "Without a host"  # nothing lost
        assert NewPlace.objects.count() == 9

    finally:  # the other tests' schema back (the leaf migrations)
        MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

def test_a_host_of_two_clubs_filters_the_statistics_by_club(two_clubs: dict[str, Any]) -> None:
    host = two_clubs["host"]
    second = Club.objects.create(name="Nord", owner=two_clubs["host_a"])
    nights.enter_deal(nights.start_night(game="skat", preset="classic", players=["Anna", "Dora", "Emil"],
                                         club=second).tables.get(), GRAND)
    every = host.get(reverse("stats")).context["statistics"]
    assert sorted(p.player.name for p in every.players) == ["ANNA", "Anna", "Bernhard", "Cordula", "Dora", "Emil"]
    north = host.get(reverse("stats"), {"club": str(second.pk)})
    assert sorted(p.player.name for p in north.context["statistics"].players) == ["Anna", "Dora", "Emil"]
    assert 'name="club"' in north.content.decode()
    refused = host.get(reverse("stats"), {"club": str(two_clubs["night_b"].club_id)})
    assert refused.context["form"].errors["club"] == ["Choose one of your clubs: Nord, host-a."]
    assert refused.context["statistics"] is None
    # A host of one club is not asked which.
    assert 'name="club"' not in two_clubs["clients"][OTHER_CLUB_HOST].get(reverse("stats")).content.decode()
