"""The card-night pages: the list, starting a night, a night's page, another table, settings and
their history, the printout — whole pages and the htmx partials that refresh a form."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.db import OperationalError, connection
from django.http import QueryDict
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeep.models import CardNight, Deal, NightRevision
from scorekeep.nights import writes as nights
from scorekeep.nights.forms import NightForm, SettingsForm
from scorekeep.rules import GAMES

PLAYERS = ["Anna", "Bernd", "Clara", "Dieter"]
HTMX = {"HX-Request": "true"}

GRAND = {"contract": "grand", "declarer": 0, "bid": 48, "matadors": 2, "card_points": 70}
LOST_HAND = {"contract": "clubs", "declarer": 1, "bid": 24, "matadors": 1, "hand": True, "card_points": 50}
KONTRA = {"contract": "spades", "declarer": 2, "bid": 22, "matadors": 1, "card_points": 45, "kontra": True}


def new_night_data(**changes: str) -> dict[str, Any]:
    """What a browser sends for the start form as first shown (Skat), with `changes`."""
    data = dict(NightForm(QueryDict(), url="/nights/new/").data.items())
    data.update({"place": "Club", "player-0": "Anna", "player-1": "Bernd", "player-2": "Clara",
                 "player-3": "Dieter"})
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def settings_data(night: CardNight, **changes: str | None) -> dict[str, Any]:
    data = SettingsForm.data_of(night)
    out: dict[str, Any] = {key: data.getlist(key) if key == "bock_events" or len(data.getlist(key)) > 1
                           else data[key] for key in data}
    out.update(changes)
    return {k: v for k, v in out.items() if v is not None}


def sent_after(response: Any) -> dict[str, list[str]]:
    """What the browser sends next from a refreshed form: its inputs as shown (without "refresh")."""
    data = response.context["form"].data
    return {key: data.getlist(key) for key in data if key != "refresh"}


def text(html: bytes | str, element_id: str) -> str:
    """The text inside the element with that id (tags dropped)."""
    page = html.decode() if isinstance(html, bytes) else html
    match = re.search(rf'id="{re.escape(element_id)}"[^>]*>(.*?)</(?:div|p|section)>', page, re.S)
    assert match, f"no element #{element_id}"
    return unescape(re.sub(r"<[^>]+>", " ", match.group(1))).strip()


def value_of(html: bytes, name: str) -> str | None:
    match = re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*>', html.decode())
    assert match, f"no input {name}"
    value = re.search(r'value="([^"]*)"', match.group(0))
    return unescape(value.group(1)) if value else None


@pytest.fixture
def skat_night() -> CardNight:
    night = nights.start_night(game="skat", preset="classic", players=PLAYERS, place="Zum Löwen",
                               series_length=36)
    table = night.tables.get()
    nights.enter_deal(table, GRAND, by="Anna")
    nights.enter_deal(table, LOST_HAND, by="Bernd")
    return night


# --- the list ---------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_list_shows_each_night_with_players_and_deals(client: Client, skat_night: CardNight) -> None:
    response = client.get("/nights/")
    assert response.status_code == 200
    page = response.content.decode()
    assert f'href="/nights/{skat_night.id}/"' in page
    assert "Zum Löwen" in page and "Anna, Bernd, Clara, Dieter" in page and "2 deals" in page
    assert 'href="/nights/new/"' in page


@pytest.mark.django_db
def test_list_queries_do_not_grow_with_the_nights(client: Client) -> None:
    nights.start_night(game="kop", preset="wolsztyn", players=PLAYERS)
    with CaptureQueriesContext(connection) as one:
        client.get("/nights/")
    for game in ("skat", "schafkopf", "fipsen", "kop"):
        night = nights.start_night(game=game, preset=GAMES[game].DEFAULT_PRESET, players=PLAYERS)
        nights.seat_table(night, ["Eva", "Fritz", "Gerd", "Hanna"])
    with CaptureQueriesContext(connection) as many:
        client.get("/nights/")
    assert len(many) == len(one)


# --- starting a night -------------------------------------------------------------------------------

@pytest.mark.django_db
def test_new_night_form_offers_known_players_and_skat_series(client: Client, skat_night: CardNight) -> None:
    response = client.get("/nights/new/")
    assert response.status_code == 200
    page = response.content.decode()
    assert '<datalist id="known-players">' in page and '<option value="Clara">' in page
    assert 'name="series_length"' in page and 'name="currency"' not in page
    assert 'name="rule-kontra"' in page  # every option of the preset, inside the house rules
    assert "<details class=\"group house-rules\">" in page  # collapsed: nothing differs yet
    assert 'name="bock_events"' not in page  # the classic rule set has no Bock


@pytest.mark.django_db
def test_start_stores_the_night_and_only_the_changed_house_rules(client: Client) -> None:
    data = new_night_data(first_dealer="2", series_length="48")
    del data["rule-kontra"]  # unticked
    response = client.post("/nights/new/", data)
    night = CardNight.objects.get()
    assert response.status_code == 303
    assert response["Location"] == f"/nights/{night.id}/tables/1/"
    assert (night.game, night.preset, night.house_rules, night.series_length) == ("skat", "classic",
                                                                                 {"kontra": False}, 48)
    table = night.tables.get()
    assert [p.player.name for p in table.places.all()] == PLAYERS
    assert table.first_dealer == 2 and table.seats == 4


@pytest.mark.django_db
def test_start_a_schafkopf_night_with_bock(client: Client) -> None:
    refreshed = client.post("/nights/new/", new_night_data(game="schafkopf", refresh="1"))
    data = sent_after(refreshed)
    data.update({"rule-bock": "on", "bock_events": ["sixty", "sie"], "bock_length": "8", "currency": "chf"})
    response = client.post("/nights/new/", data)
    assert response.status_code == 303
    night = CardNight.objects.get()
    assert (night.game, night.house_rules, night.bock_events, night.bock_length, night.currency) == (
        "schafkopf", {"bock": True}, ["sixty", "sie"], 8, "CHF")


@pytest.mark.django_db
def test_a_tariff_follows_a_change_of_currency_to_one_without_decimals(client: Client) -> None:
    """A Japanese host typed JPY: the Sauspiel.de tariff stayed 0.20, 0.50 … and each was refused ("JPY has no
    decimals"). Each amount is kept as the same count of the minor unit (the rule set's 20 is 20 ct, 20 ¥),
    an amount the host had changed too; the night then starts at the first save."""
    refreshed = client.post("/nights/new/", new_night_data(game="schafkopf", refresh="1"))
    data = sent_after(refreshed)
    data.update({"preset": "sauspiel", "refresh": "1"})
    euros = sent_after(client.post("/nights/new/", data))
    assert euros["rule-price_partner"] == ["0.20"] and euros["rule-price_solo"] == ["0.50"]
    euros.update({"rule-price_solo": "0.60", "currency": "jpy", "refresh": "1"})
    yen = sent_after(client.post("/nights/new/", euros))
    assert yen["rule-price_partner"] == ["20"] and yen["rule-price_solo"] == ["60"]
    assert yen["rule-per_laufender"] == ["10"]
    response = client.post("/nights/new/", yen)
    assert response.status_code == 303, response.context["form"].errors
    night = CardNight.objects.get()
    assert (night.currency, night.preset, night.house_rules) == ("JPY", "sauspiel", {"price_solo": 60})


@pytest.mark.django_db
def test_the_variants_played_are_boxes_and_none_ticked_is_none(client: Client) -> None:
    """Schafkopf's variants were a JSON list to type (["geier", "farbwenz"]); a box each now, the rule set's
    ticked. Unticking every box sends nothing for them: that is "none", not the rule set's again."""
    data = sent_after(client.post("/nights/new/", new_night_data(game="schafkopf", refresh="1")))
    data.update({"preset": "bsv", "refresh": "1"})
    bsv = sent_after(client.post("/nights/new/", data))
    assert bsv["rule-variants"] == ["geier", "farbwenz", "bettel", "hochzeit"]
    del bsv["rule-variants"]
    assert client.post("/nights/new/", bsv).status_code == 303
    assert CardNight.objects.get().house_rules == {"variants": []}


@pytest.mark.django_db
def test_duplicate_and_empty_names_are_refused_at_their_inputs_with_everything_kept(client: Client) -> None:
    response = client.post("/nights/new/", new_night_data(**{"player-2": " anna ", "player-3": "",
                                                             "place": "Keller"}))
    assert response.status_code == 200
    assert "already at this table (player 1)" in text(response.content, "err-player-2")
    assert "Enter the name of player 4" in text(response.content, "err-player-3")
    assert value_of(response.content, "place") == "Keller"
    assert value_of(response.content, "player-1") == "Bernd"
    assert not CardNight.objects.exists()


@pytest.mark.django_db
def test_an_option_the_engine_refuses_is_reported_at_its_input(client: Client) -> None:
    refreshed = client.post("/nights/new/", new_night_data(game="schafkopf", refresh="1"))
    data = sent_after(refreshed)
    data["rule-variants"] = ["geier", "schnapsen"]  # a box the page has not (a hand-made request)
    response = client.post("/nights/new/", data)
    assert response.status_code == 200
    assert "schnapsen" in text(response.content, "err-rule-variants")
    assert re.search(r'name="rule-variants" value="geier"[^>]*checked', response.content.decode())
    assert "<details class=\"group house-rules\" open>" in response.content.decode()
    assert not CardNight.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("garbage", [
    {"game": "poker"}, {"preset": "nonsense"}, {"count": "99"}, {"count": "x"}, {"date": "tomorrow"},
    {"first_dealer": "9"}, {"series_length": "37"}, {"rule-grand_ouvert_fixed": "-5"},
    {"rule-passed": "maybe"}, {"player-0": "x" * 41}, {"shown": "kop:wolsztyn"},
])
def test_garbage_never_500s(client: Client, garbage: dict[str, str]) -> None:
    response = client.post("/nights/new/", new_night_data(**garbage))
    assert response.status_code in (200, 303)
    if "game" in garbage:
        assert response.status_code == 200 and "Choose one of the games" in text(response.content, "err-game")
    if "date" in garbage:
        assert response.status_code == 200 and text(response.content, "err-date")
    if "player-0" in garbage:
        assert response.status_code == 200 and text(response.content, "err-player-0")


@pytest.mark.django_db
def test_htmx_game_change_returns_the_form_body_only(client: Client) -> None:
    response = client.post("/nights/new/", new_night_data(game="kop", refresh="1"),
                           headers={**HTMX, "HX-Target": "night-form-body"})
    page = response.content.decode()
    assert response.status_code == 200 and "<html" not in page
    assert page.lstrip().startswith('<div id="night-form-body">')
    assert 'name="series_length"' not in page and "Wolsztyn tournament" in page
    assert value_of(response.content, "player-0") == "Anna"  # kept across the game change
    assert "errors" in page and "Enter the name" not in page  # a refresh shows no errors


@pytest.mark.django_db
def test_htmx_rule_set_with_round_placing_offers_the_round_length(client: Client) -> None:
    response = client.post("/nights/new/", new_night_data(game="kop", preset="wolsztyn",
                                                          shown="kop:classic", refresh="1"),
                           headers={**HTMX, "HX-Target": "night-form-body"})
    assert 'name="round_length"' in response.content.decode()
    response = client.post("/nights/new/", new_night_data(game="kop", preset="classic", shown="kop:classic",
                                                          refresh="1"),
                           headers={**HTMX, "HX-Target": "night-form-body"})
    assert 'name="round_length"' not in response.content.decode()


@pytest.mark.django_db
def test_htmx_extras_refresh_after_ticking_bock(client: Client) -> None:
    response = client.post("/nights/new/", new_night_data(**{"rule-bock": "on", "count": "5", "refresh": "1"}),
                           headers={**HTMX, "HX-Target": "night-extras"})
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="night-extras">')
    assert 'value="kontra_lost"' in page and 'name="player-4"' in page
    assert value_of(response.content, "player-3") == "Dieter"


@pytest.mark.django_db
def test_refresh_without_javascript_returns_the_whole_page_without_storing(client: Client) -> None:
    response = client.post("/nights/new/", new_night_data(game="fipsen", refresh="1"))
    assert response.status_code == 200 and "<html" in response.content.decode()
    assert not CardNight.objects.exists()


# --- a night's page and another table ----------------------------------------------------------------

@pytest.mark.django_db
def test_night_page_shows_rules_tables_totals_and_links(client: Client) -> None:
    night = nights.start_night(game="skat", preset="isko", players=PLAYERS[:3], house_rules={"kontra": True})
    nights.enter_deal(night.tables.get(), GRAND)
    page = client.get(f"/nights/{night.id}/").content.decode()
    assert "ISkO (Skat Order)" in page and "Kontra and Re may be said" in page
    assert f'href="/nights/{night.id}/tables/1/"' in page
    assert f'href="/nights/{night.id}/ledger.json"' in page and f'href="/nights/{night.id}/print/"' in page
    assert f'href="/nights/{night.id}/settings/"' in page
    seats = night.tables.get().deals.get().seating
    assert re.search(rf"<th scope=\"row\">{PLAYERS[seats[0]]}</th><td[^>]*>\+72</td>", page)


@pytest.mark.django_db
def test_add_a_table(client: Client, skat_night: CardNight) -> None:
    url = f"/nights/{skat_night.id}/tables/new/"
    assert client.get(url).status_code == 200
    response = client.post(url, {"count": "3", "player-0": "Eva", "player-1": "Fritz", "player-2": "Gerd",
                                 "first_dealer": "1"})
    assert response.status_code == 303 and response["Location"] == f"/nights/{skat_night.id}/tables/2/"
    table = skat_night.tables.get(number=2)
    assert (table.seats, table.first_dealer) == (3, 1)


@pytest.mark.django_db
def test_add_a_table_refused_with_names_kept(client: Client, skat_night: CardNight) -> None:
    response = client.post(f"/nights/{skat_night.id}/tables/new/",
                           {"count": "3", "player-0": "Eva", "player-1": "eva", "player-2": "", "first_dealer": "0"})
    assert response.status_code == 200
    assert text(response.content, "err-player-1") and text(response.content, "err-player-2")
    assert value_of(response.content, "player-0") == "Eva"
    assert skat_night.tables.count() == 1


@pytest.mark.django_db
def test_add_a_table_htmx_partial(client: Client, skat_night: CardNight) -> None:
    response = client.post(f"/nights/{skat_night.id}/tables/new/", {"count": "6", "refresh": "1"},
                           headers={**HTMX, "HX-Target": "seating-players"})
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="seating-players">') and 'name="player-5"' in page


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/nights/999/", "/nights/999/settings/", "/nights/999/tables/new/",
                                  "/nights/999/ledger.json", "/nights/999/print/"])
def test_unknown_night_is_404(client: Client, path: str) -> None:
    assert client.get(path).status_code == 404


# --- settings ----------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_settings_page_is_filled_from_the_night(client: Client, skat_night: CardNight) -> None:
    page = client.get(f"/nights/{skat_night.id}/settings/").content.decode()
    assert 'value="Zum Löwen"' in page and '<option value="36" selected>' in page
    assert "have not been changed" in page


@pytest.mark.django_db
def test_changing_the_rule_set_recomputes_every_verdict_and_records_history(client: Client,
                                                                           skat_night: CardNight) -> None:
    lost = Deal.objects.get(table__night=skat_night, sequence=2)
    declarer = lost.verdict["scores"].index(min(lost.verdict["scores"]))
    assert lost.verdict["scores"][declarer] == -36  # classic: a lost hand game, 12 × 3, is not doubled
    refreshed = client.post(f"/nights/{skat_night.id}/settings/",
                            settings_data(skat_night, preset="isko", refresh="1"))
    data = sent_after(refreshed)
    data.update({"by": "Anna", "reason": "club rules"})
    response = client.post(f"/nights/{skat_night.id}/settings/", data)
    assert response.status_code == 303 and response["Location"] == f"/nights/{skat_night.id}/"
    lost.refresh_from_db()
    assert lost.verdict["scores"][declarer] == -72  # isko: lost hand games count double
    assert NightRevision.objects.get().by == "host (Anna)"  # the host's account, with the name typed
    assert client.session["scorers"] == {str(skat_night.id): "Anna"}
    page = client.get(f"/nights/{skat_night.id}/settings/").content.decode()
    assert "changed by host (Anna)" in page and "rule set: Classic club rules → ISkO (Skat Order)" in page
    assert "Why: club rules" in page
    assert 'value="Anna"' in page  # "Your name" remembered


@pytest.mark.django_db
def test_history_names_each_house_rule_change(client: Client, skat_night: CardNight) -> None:
    data = settings_data(skat_night, by="Clara", series_length="")
    del data["rule-announce_needs_hand"]
    assert client.post(f"/nights/{skat_night.id}/settings/", data).status_code == 303
    skat_night.refresh_from_db()
    assert skat_night.house_rules == {"announce_needs_hand": False} and skat_night.series_length is None
    page = client.get(f"/nights/{skat_night.id}/settings/").content.decode()
    assert "Schneider/schwarz announced only in hand games: yes → no" in page
    assert "series length: 36 → open-ended" in page


@pytest.mark.django_db
def test_a_rule_change_that_forbids_a_played_deal_changes_nothing(client: Client, skat_night: CardNight) -> None:
    nights.enter_deal(skat_night.tables.get(), KONTRA)
    before = list(Deal.objects.values_list("verdict", flat=True))
    data = settings_data(skat_night, by="Bernd", reason="no Kontra tonight", place="Anderswo")
    del data["rule-kontra"]
    response = client.post(f"/nights/{skat_night.id}/settings/", data)
    assert response.status_code == 200
    message = text(response.content, "err-top")
    assert message.startswith("Deal 3 would no longer be allowed, so nothing was changed:") and "Kontra" in message
    assert value_of(response.content, "reason") == "no Kontra tonight"
    assert value_of(response.content, "place") == "Anderswo"
    skat_night.refresh_from_db()
    assert skat_night.house_rules == {} and skat_night.place == "Zum Löwen"
    assert list(Deal.objects.values_list("verdict", flat=True)) == before
    assert not NightRevision.objects.exists()


@pytest.mark.django_db
def test_a_refused_rule_change_names_the_table_where_the_night_has_more(client: Client,
                                                                        skat_night: CardNight) -> None:
    second = nights.seat_table(skat_night, ["Eva", "Fritz", "Gerd"])
    nights.enter_deal(second, KONTRA)
    data = settings_data(skat_night, by="Bernd")
    del data["rule-kontra"]
    response = client.post(f"/nights/{skat_night.id}/settings/", data)
    assert response.status_code == 200
    assert text(response.content, "err-top").startswith("Deal 1 at table 2 would no longer be allowed")
    assert not NightRevision.objects.exists()


@pytest.mark.django_db
def test_settings_htmx_partial_after_turning_bock_on(client: Client, skat_night: CardNight) -> None:
    response = client.post(f"/nights/{skat_night.id}/settings/",
                           settings_data(skat_night, **{"rule-bock": "on", "refresh": "1"}),
                           headers={**HTMX, "HX-Target": "night-extras"})
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="night-extras">') and 'name="bock_events"' in page


@pytest.mark.django_db
def test_settings_garbage_never_500s(client: Client, skat_night: CardNight) -> None:
    response = client.post(f"/nights/{skat_night.id}/settings/", {"preset": "x", "date": "", "bock_length": "y",
                                                                  "rule-ouvert": "z", "shown": "skat:x"})
    assert response.status_code == 200
    assert text(response.content, "err-date")


@pytest.mark.django_db
def test_the_name_a_phone_entered_under_is_offered_at_that_night_only(client: Client, skat_night: CardNight) -> None:
    """"Your name" comes back at the night it was typed for, not at the next night of other players."""
    table_url = f"/nights/{skat_night.id}/tables/1/"
    saved = client.post(f"{table_url}deals/new/", {**{k: str(v) for k, v in GRAND.items()}, "by": "Clara",
                                                   "dealer": "2"})
    assert saved.status_code in (200, 303)
    assert Deal.objects.filter(table__night=skat_night, entered_by="Clara").exists()
    other = nights.start_night(game="kop", preset="classic", players=["Ewa", "Jan", "Ola", "Piotr"])
    def offered(url: str) -> list[str]:
        inputs = re.findall(r'<input[^>]*name="by"[^>]*>', client.get(url).content.decode())
        return [next(iter(re.findall(r'value="([^"]*)"', tag)), "") for tag in inputs]

    assert offered(table_url) == ["Clara"]
    assert offered(f"/nights/{other.id}/tables/1/") == [""]


# --- the printout -------------------------------------------------------------------------------------



@pytest.mark.django_db
def test_finishing_a_night_closes_its_tables_and_opening_it_again_reopens_them(client: Client,
                                                                                skat_night: CardNight) -> None:
    session = client.session
    session["scorers"] = {str(skat_night.id): "Anna"}
    session.save()
    table_url = f"/nights/{skat_night.id}/tables/1/"
    response = client.post(f"/nights/{skat_night.id}/finish/", {"finished": "1"})
    assert response.status_code == 303
    skat_night.refresh_from_db()
    assert skat_night.finished
    assert "no more deals can be entered" in client.get(table_url).content.decode()
    deals = Deal.objects.count()
    refused = client.post(f"{table_url}deals/new/", {"contract": "grand", "declarer": "1", "bid": "48",
                                                     "matadors": "2", "card_points": "70"})
    assert refused.status_code == 200 and Deal.objects.count() == deals
    history = client.get(f"/nights/{skat_night.id}/settings/").content.decode()
    # The host finished it: their account, with the name this phone enters under (never "Anna" alone).
    assert "changed by host (Anna)" in history and "open for deals → finished" in unescape(history)
    assert client.post(f"/nights/{skat_night.id}/finish/", {"finished": "0"}).status_code == 303
    skat_night.refresh_from_db()
    assert not skat_night.finished
    assert client.get(f"/nights/{skat_night.id}/finish/").status_code == 405


# --- the tester's findings: names in "Deals first", rules in words, Bock, the printout, the count ---------

def dealer_options(html: bytes) -> list[str]:
    """The names "Deals first" offers, in order."""
    match = re.search(r'<select name="first_dealer"[^>]*>(.*?)</select>', html.decode(), re.S)
    assert match, "no first_dealer select"
    return [unescape(label).strip() for label in re.findall(r"<option[^>]*>(.*?)</option>", match.group(1), re.S)]


@pytest.mark.django_db
def test_deals_first_lists_the_typed_names_after_a_refresh_without_javascript(client: Client) -> None:
    response = client.post("/nights/new/", new_night_data(**{"player-2": "  Clara  Maria ", "player-3": "",
                                                             "refresh": "1"}))
    assert response.status_code == 200 and "<html" in response.content.decode()
    assert dealer_options(response.content) == ["Anna", "Bernd", "Clara Maria", "Player 4"]
    assert value_of(response.content, "player-2") == "  Clara  Maria "  # the input keeps what was typed


@pytest.mark.django_db
def test_a_name_changed_refreshes_only_deals_first(client: Client) -> None:
    first = client.get("/nights/new/").content.decode()
    name_input = re.search(r'<input[^>]*name="player-0"[^>]*>', first)
    assert name_input and 'hx-target="#first-dealer"' in name_input.group(0) and 'hx-trigger="change"' in \
        name_input.group(0)
    assert dealer_options(first.encode()) == ["Player 1", "Player 2", "Player 3", "Player 4"]
    response = client.post("/nights/new/", new_night_data(**{"player-1": "Bärbel", "first_dealer": "1",
                                                             "refresh": "1"}),
                           headers={**HTMX, "HX-Target": "first-dealer"})
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="first-dealer">') and 'name="player-0"' not in page
    assert dealer_options(response.content) == ["Anna", "Bärbel", "Clara", "Dieter"]
    assert '<option value="1" selected>' in page  # the dealer chosen stays chosen


@pytest.mark.django_db
def test_after_a_refused_start_deals_first_still_names_the_players(client: Client) -> None:
    response = client.post("/nights/new/", new_night_data(date="tomorrow"))
    assert response.status_code == 200 and dealer_options(response.content) == PLAYERS


@pytest.mark.django_db
def test_add_a_table_deals_first_follows_the_names(client: Client, skat_night: CardNight) -> None:
    url = f"/nights/{skat_night.id}/tables/new/"
    response = client.post(url, {"count": "3", "player-0": "Eva", "player-1": "", "player-2": "Gerd",
                                 "first_dealer": "2", "refresh": "1"}, headers={**HTMX, "HX-Target": "first-dealer"})
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="first-dealer">') and "<html" not in page
    assert dealer_options(response.content) == ["Eva", "Player 2", "Gerd"]
    assert '<option value="2" selected>' in page
    night_page = client.get(f"/nights/{skat_night.id}/").content.decode()
    assert re.search(r'<input[^>]*name="player-0"[^>]*hx-target="#first-dealer"', night_page)


def night_facts(html: bytes) -> str:
    """The words of the night's facts list (rule set, house rules, Bock …), tags dropped."""
    match = re.search(r'<dl class="night-facts">(.*?)</dl>', html.decode(), re.S)
    assert match, "no night facts"
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", match.group(1))).split())


def history_words(html: bytes | str) -> str:
    """The words of the settings history section, tags dropped."""
    page = html.decode() if isinstance(html, bytes) else html
    match = re.search(r'<section class="history".*?</section>', page, re.S)
    assert match, "no history"
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", match.group(0))).split())


KOP_HOUSE_RULES = {"solo_factors": {"zolo": 6}, "max_doublings": 3, "round_placing": [4, 3, 2, 1],
                   "trump_order": ["HA", "C10", "S10", "H10", "CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ", "DA",
                                   "D10"]}


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/nights/{id}/"])
def test_kop_house_rules_are_written_in_words(client: Client, path: str) -> None:
    night = nights.start_night(game="kop", preset="classic", players=PLAYERS, house_rules=KOP_HOUSE_RULES,
                               round_length=4)
    facts = night_facts(client.get(path.format(id=night.id)).content)
    assert "Lone game factors: Cicha 4, Zolo 6, Zolo du 10 (rule set: Cicha 4, Zolo 5, Zolo du 10)" in facts
    assert "Most doublings: Normal game 3, Wesele 3, Cicha 3, Zolo 3, Zolo du 3" in facts
    assert "Placing points of a round: 4 / 3 / 2 / 1 (rule set: none)" in facts
    assert "♥A ♣10 ♠10 ♥10 ♣Q ♠Q ♥Q ♦Q ♣J ♠J ♥J ♦J ♦A ♦10 (rule set: ♥A ♥10 ♣Q" in facts
    assert not re.search(r"[\[\]{}_\"]", facts)




@pytest.mark.django_db
def test_schafkopf_named_values_and_an_empty_list_are_written_in_words(client: Client) -> None:
    night = nights.start_night(game="schafkopf", preset="bsv", players=PLAYERS,
                               house_rules={"sie": "4x_solo_8_laufende", "variants": [], "price_bettel": None})
    facts = night_facts(client.get(f"/nights/{night.id}/").content)
    assert "Price of a Sie: 4 × (solo + 8 Laufende) (rule set: 4 × the solo price)" in facts
    assert "Variants played: none (rule set: Geier, Farbwenz, Bettel, Hochzeit)" in facts
    assert not re.search(r"[\[\]{}_\"]|4x", facts)
    assert "Price of a Tout: (solo + Laufende) × 2" not in facts  # the preset's own value: not a house rule


def test_every_value_of_every_option_has_words() -> None:
    """Each preset's value and each named value an option takes is written without keys or JSON."""
    from scorekeep.nights.forms import CHOICE_LABELS, CONTRACT_LABELS, MORE_CHOICE_LABELS, option_label, value_words
    for game, module in GAMES.items():
        for preset in module.PRESETS.values():
            for key, value in preset.items():
                assert not re.search(r"[\[\]{}_\"]", option_label(key) + value_words(key, value)), (game, key)
        for key, validator in module.OPTIONS.items():
            inner = getattr(validator, "inner", validator)
            for name in [*getattr(inner, "choices", ()), *getattr(inner, "names", ())]:
                assert (key, name) in CHOICE_LABELS or (key, name) in MORE_CHOICE_LABELS or name in CONTRACT_LABELS, (
                    game, key, name)


@pytest.mark.django_db
def test_settings_history_writes_rule_changes_in_words(client: Client) -> None:
    night = nights.start_night(game="kop", preset="classic", players=PLAYERS)
    nights.change_settings(night, by="Anna", preset="wolsztyn", house_rules={"solo_factors": {"zolo_du": 12}},
                           round_length=4)
    words = history_words(client.get(f"/nights/{night.id}/settings/").content)
    assert "Lone game factors: Cicha 4, Zolo 5, Zolo du 10 → Cicha 4, Zolo 5, Zolo du 12" in words
    assert "Placing points of a round: none → 4 / 3 / 2 / 1" in words
    assert "Trump order (for play checks only): ♥A ♥10 ♣Q" in words and "→ ♥A ♣10 ♠10" in words
    assert not re.search(r"[\[\]{}_\"]", words)


@pytest.mark.django_db
def test_settings_history_writes_bock_in_words(client: Client) -> None:
    night = nights.start_night(game="skat", preset="classic", players=PLAYERS, house_rules={"bock": True},
                               bock_events=["kontra_lost"])
    nights.change_settings(night, by="Anna", bock_events=["kontra_lost", "sixty"], bock_length=8)
    words = history_words(client.get(f"/nights/{night.id}/settings/").content)
    assert "Bock events: a lost game with Kontra → a lost game with Kontra, a 60:60 game" in words
    assert "Bock deals: one round → 8 deals" in words


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/nights/{id}/"])
@pytest.mark.parametrize(("bock_length", "lasts"), [(None, "one round (a deal for every player at the table)"),
                                                    (8, "8 deals")])
def test_bock_events_and_length_are_shown(client: Client, path: str, bock_length: int | None, lasts: str) -> None:
    night = nights.start_night(game="skat", preset="classic", players=PLAYERS, house_rules={"bock": True},
                               bock_events=["kontra_lost", "grand_hand_won"], bock_length=bock_length)
    facts = night_facts(client.get(path.format(id=night.id)).content)
    assert "A Bock round starts after a lost game with Kontra, a won Grand Hand" in facts
    assert f"A Bock round lasts {lasts}" in facts


@pytest.mark.django_db
def test_bock_without_events_says_so_and_no_bock_says_nothing(client: Client) -> None:
    night = nights.start_night(game="schafkopf", preset="classic", players=PLAYERS, house_rules={"bock": True})
    facts = night_facts(client.get(f"/nights/{night.id}/").content)
    assert "A Bock round starts after no event chosen, so there are no Bock rounds" in facts
    assert "A Bock round lasts" not in facts
    plain = nights.start_night(game="schafkopf", preset="classic", players=PLAYERS, bock_events=["sixty"])
    assert "Bock round" not in night_facts(client.get(f"/nights/{plain.id}/").content)




@pytest.mark.django_db
@pytest.mark.parametrize("count", ["99", "2", "x", ""])
def test_a_count_not_allowed_is_refused_at_its_input_with_the_names_kept(client: Client, count: str) -> None:
    response = client.post("/nights/new/", new_night_data(count=count, place="Keller"))
    assert response.status_code == 200
    assert text(response.content, "err-count") == "Choose how many players sit at the table: 3 to 7"
    assert [value_of(response.content, f"player-{p}") for p in range(4)] == PLAYERS
    assert value_of(response.content, "place") == "Keller"
    assert not CardNight.objects.exists()


@pytest.mark.django_db
def test_a_count_lower_than_the_names_typed_keeps_them_and_says_so(client: Client) -> None:
    # Without JavaScript the inputs follow the count only after "Update the form".
    response = client.post("/nights/new/", new_night_data(count="3"))
    assert response.status_code == 200
    assert "4 names are filled in, but 3 players chosen" in text(response.content, "err-count")
    assert value_of(response.content, "player-3") == "Dieter"
    assert not CardNight.objects.exists()
    refreshed = client.post("/nights/new/", new_night_data(count="3", refresh="1"))
    assert 'name="player-3"' not in refreshed.content.decode()  # asked for: the fourth input goes


@pytest.mark.django_db
def test_add_a_table_with_a_count_not_allowed(client: Client) -> None:
    night = nights.start_night(game="kop", preset="classic", players=PLAYERS)
    response = client.post(f"/nights/{night.id}/tables/new/", {"count": "3", "player-0": "Eva", "player-1": "Fritz",
                                                               "player-2": "Gerd", "first_dealer": "0"})
    assert response.status_code == 200
    assert text(response.content, "err-count") == "Choose how many players sit at the table: 4 to 7"
    assert [value_of(response.content, f"player-{p}") for p in range(3)] == ["Eva", "Fritz", "Gerd"]
    assert night.tables.count() == 1


# --- a busy database ----------------------------------------------------------------------------------

BUSY = "The database was busy; nothing was saved — tap Save again."


def busy(*args: object, **kwargs: object) -> None:
    raise OperationalError("database is locked")


@pytest.mark.django_db
def test_a_busy_database_while_saving_settings_keeps_them_typed(client: Client, skat_night: CardNight,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nights, "change_settings", busy)
    response = client.post(f"/nights/{skat_night.id}/settings/",
                           settings_data(skat_night, place="Anderswo", reason="moved"))
    assert response.status_code == 200
    assert BUSY in text(response.content, "err-top")
    assert value_of(response.content, "place") == "Anderswo" and value_of(response.content, "reason") == "moved"


@pytest.mark.django_db
def test_a_busy_database_while_finishing_the_night_says_so(client: Client, skat_night: CardNight,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nights, "change_settings", busy)
    response = client.post(f"/nights/{skat_night.id}/finish/", {"finished": "1"})
    assert response.status_code == 200
    page = response.content.decode()
    assert BUSY in page and 'name="finished" value="1"' in page
    skat_night.refresh_from_db()
    assert not skat_night.finished


@pytest.mark.django_db
def test_a_busy_database_while_seating_a_table_keeps_the_names(client: Client, skat_night: CardNight,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nights, "seat_table", busy)
    response = client.post(f"/nights/{skat_night.id}/tables/new/",
                           {"count": "3", "player-0": "Eva", "player-1": "Fritz", "player-2": "Gerd",
                            "first_dealer": "1"})
    assert response.status_code == 200
    assert BUSY in text(response.content, "err-top")
    assert [value_of(response.content, f"player-{i}") for i in range(3)] == ["Eva", "Fritz", "Gerd"]
    assert skat_night.tables.count() == 1


@pytest.mark.django_db
def test_a_busy_database_while_starting_a_night_keeps_the_form(client: Client,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nights, "start_night", busy)
    response = client.post("/nights/new/", new_night_data())
    assert response.status_code == 200
    assert BUSY in text(response.content, "err-top")
    assert value_of(response.content, "place") == "Club" and value_of(response.content, "player-3") == "Dieter"
    assert not CardNight.objects.exists()
