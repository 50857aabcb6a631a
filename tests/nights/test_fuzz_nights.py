"""Robustness of the card-night pages (issue 3's standards): no page ever answers a server error, whatever is
sent; everything a person typed is escaped on every page and plain in the JSON; a refused submit keeps what
was typed; a failure half-way through a write leaves nothing half-saved.

The fuzzing drives every card-night URL of `scorekeep.urls` with Hypothesis: random methods, whole pages and
htmx requests (each HX-Target the templates use, and one they do not), form data built from the forms' real
field names with hostile values. After every POST the ledger invariant is checked against the engine itself:
each live deal's stored verdict is `rules.judge` of its request (with the Bock flag derived from the deals
before it), and the ledger's totals are the sums of those verdicts. Each example runs in a savepoint that is
rolled back, so the examples are independent and a failure replays exactly.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from html import unescape
from typing import Any

import pytest
from django.db import transaction
from django.http import QueryDict
from django.test import Client
from django.utils.html import escape
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeep.models import CardNight, CardTable, Deal, DealRevision, NightRevision
from scorekeep.nights import ledger
from scorekeep.nights import writes as nights
from scorekeep.nights.entry import DealForm
from scorekeep.nights.forms import NightForm, SettingsForm
from scorekeep.rules import GAMES, judge
from scorekeep.words import labels

FOUR = ["Anna", "Bernd", "Clara", "Dieter"]

# One night per game, with what makes its pages differ: Bock events (Skat, Schafkopf), a fifth player
# who sits out in turn (Schafkopf), round placings (Kop, wolsztyn), three at the table (Fipsen).
NIGHTS: dict[str, dict[str, Any]] = {
    "skat": {"preset": "classic", "house_rules": {"bock": True}, "bock_events": ["kontra_lost", "sixty"],
             "series_length": 36, "players": FOUR},
    "schafkopf": {"preset": "classic", "house_rules": {"bock": True}, "bock_events": ["sixty", "sie"],
                  "players": [*FOUR, "Eva"]},
    "kop": {"preset": "wolsztyn", "round_length": 4, "players": FOUR},
    "fipsen": {"preset": "classic", "players": FOUR[:3]},
}

# Deals stored before the fuzzing starts (engine seats), so deal pages, corrections and Bock exist.
SEED_DEALS: dict[str, list[dict[str, Any]]] = {
    "skat": [{"contract": "spades", "declarer": 0, "bid": 22, "matadors": 1, "card_points": 45, "kontra": True},
             {"contract": "grand", "declarer": 1, "bid": 48, "matadors": 2, "card_points": 70},
             {"contract": "null", "declarer": 2, "bid": 23, "declarer_tricks": 0}],
    "schafkopf": [{"contract": "wenz", "declarer": 1, "card_points": 60},
                  {"contract": "sauspiel", "declarer": 0, "partner": 2, "card_points": 70},
                  {"contract": "sie", "declarer": 3}],
    "kop": [{"contract": "normal", "old": [0, 2], "card_points": 60, "old_tricks": 2},
            {"contract": "normal", "old": [1, 3], "card_points": 70, "old_tricks": 3},
            {"contract": "zolo", "old": [2], "card_points": 80, "old_tricks": 3}],
    "fipsen": [{"contract": "tricks", "declarer": 1, "bid": 3, "tricks_taken": 3},
               {"contract": "passed"},
               {"contract": "kieker", "declarer": 0, "tricks_taken": 5}],
}

# What a scorer sends for a typical deal (table positions, as the form names players), mutated below.
DEAL_DATA: dict[str, dict[str, Any]] = {
    "skat": {"contract": "grand", "declarer": "2", "bid": "48", "matadors": "2", "card_points": "70"},
    "schafkopf": {"contract": "sauspiel", "declarer": "0", "partner": "1", "card_points": "70"},
    "kop": {"contract": "normal", "old": ["0", "2"], "card_points": "60", "old_tricks": "2"},
    "fipsen": {"contract": "tricks", "declarer": "1", "bid": "4", "hand": "on", "tricks_taken": "4"},
}

# The ids of the regions the templates swap (htmx HX-Target), and one no template has.
TARGETS = ["entry", "preview", "table-region", "night-form-body", "night-extras", "seating-players", "first-dealer",
           "deal-form", "history", "complement", "err-top", "no-such-region"]

# Values a person (or a bot) may send, in any input.
NASTY = ["", " ", "0", "1", "2", "3", "4", "5", "6", "7", "-1", "18", "23", "48", "60", "61", "119", "120", "121",
         "on", "off", "true", "null", "[]", "{}", '{"normal": 99}', "[1, 2]", '"x"', "1e999", "NaN", "-0", "1.5",
         "0x10", "١", "０", "²", "9" * 30, "9" * 5000, "-" + "9" * 25, "\x00", "<b>bold</b>", "' OR 1=1 --",
         "grand", "null", "passed", "ramsch", "sauspiel", "sie", "wenz_tout", "normal", "zolo_du", "tricks",
         "kieker", "CJ SJ HA H10", "ZZ ZZ", "CJ CJ CJ", "EUR", "eur", "XXXX", "2024-02-30", "1900-01-01",
         "9999-12-31", "classic", "isko", "bsv", "wolsztyn", "koscian", "sauspiel", "skat", "kop", "fipsen",
         "schafkopf", "kontra_lost", "sixty", "sie", "schwarz", "Anna", "anna ", "Eva", "x" * 41, "x" * 300]
SCALAR = st.one_of(st.sampled_from(NASTY), st.integers(-10**20, 10**20).map(str),
                   st.text(max_size=12), st.integers(0, 3000).map(lambda n: "ä" * n))
VALUE = st.one_of(SCALAR, SCALAR, st.lists(SCALAR, max_size=3))


def night_field_names() -> list[str]:
    """Every input name the start, settings and seating forms of any game and rule set can have."""
    names = {"refresh", "count", "by", "reason", "finished", "game", "shown", "first_dealer", "date", "place", "preset",
             "series_length", "round_length", "currency", "bock_events", "bock_length",
             *(f"player-{p}" for p in range(8))}
    for game, module in GAMES.items():
        for preset in module.PRESETS:
            data = QueryDict(mutable=True)
            data.update({"game": game, "preset": preset, "count": "7"})
            names.update(NightForm(data, url="/").fields)
    return sorted(names)


def deal_field_names(night: CardNight, players: int) -> list[str]:
    """Every input name the deal form of this night can have, whatever the contract."""
    module = GAMES[night.game]
    names = {"preview", "by", "reason", "dealer", "contract", "captured"}
    for contract in module.contracts(module.parse_rules(night.rules_request)):
        form = DealForm(None, night=night, names=[f"P{p}" for p in range(players)], dealer=0, url="/",
                        initial={"contract": str(contract)})
        names.update(form.fields)
    return sorted(names)


NIGHT_FIELDS = night_field_names()


# --- the invariant ------------------------------------------------------------------------------

def assert_ledger_holds(table: CardTable) -> None:
    """Every live deal's verdict is the engine's for its request with the Bock flag the deals before it
    set off, and the ledger's running totals are the sums of those verdicts."""
    night = CardNight.objects.get(pk=table.night_id)
    table = CardTable.objects.select_related("night").get(pk=table.pk)
    names = [place.player.name for place in table.places.select_related("player")]
    deals = list(table.deals.filter(deleted=False).order_by("sequence"))
    totals = [0] * len(names)
    for number, deal in enumerate(deals):
        assert deal.bock == ledger.next_is_bock(night, len(names), deals[:number]), f"deal {deal.sequence} bock"
        assert deal.verdict == judge(ledger.request(night, deal.seating, deal.dealer, deal.facts, deal.bock)).to_json()
        assert len(set(deal.seating)) == len(deal.seating) and all(0 <= p < len(names) for p in deal.seating)
        for seat, position in enumerate(deal.seating):
            totals[position] += deal.verdict["scores"][seat]
    built = ledger.build(table)
    assert built.totals == totals
    assert [row.deal.pk for row in built.rows] == [deal.pk for deal in deals]
    assert built.rows == [] or built.rows[-1].totals == totals


def assert_every_ledger_holds() -> None:
    for table in CardTable.objects.all():
        assert_ledger_holds(table)


# --- the nights fuzzed ---------------------------------------------------------------------------

def start(game: str, **more: Any) -> CardNight:
    setup = {**NIGHTS[game], **more}
    night = nights.start_night(game=game, place="Zum Löwen", **setup)
    table = night.tables.get()
    for facts in SEED_DEALS[game]:
        nights.enter_deal(table, facts, by="Anna")
    nights.delete_deal(table.deals.get(sequence=2), by="Bernd", reason="dealt twice")
    return night


@pytest.fixture
def every_game(db: None) -> dict[str, CardNight]:
    return {game: start(game) for game in NIGHTS}


@pytest.fixture
def rolled_back() -> Iterator[Any]:
    """Run one Hypothesis example in a savepoint and undo it, so every example starts from the fixtures."""
    def run(body: Any) -> None:
        with transaction.atomic():
            body()
            transaction.set_rollback(True)
    yield run


def send(client: Client, method: str, url: str, data: dict[str, Any], target: str | None) -> Any:
    headers = {"HX-Request": "true", "HX-Target": target} if target is not None else {}
    if method == "GET":
        return client.get(url, data, headers=headers)
    if method == "POST":
        return client.post(url, data, headers=headers)
    return client.generic(method, url, headers=headers)


def assert_answered(response: Any, method: str, url: str, data: dict[str, Any]) -> None:
    assert response.status_code < 500, (method, url, data)
    if response.status_code in (200, 400) and response.get("Content-Type", "").startswith("text/html"):
        assert response.content.strip(), (method, url)


FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture],
                database=None)
METHOD = st.sampled_from(["GET", "POST", "POST", "POST", "PUT", "DELETE", "PATCH"])
TARGET = st.one_of(st.none(), st.sampled_from(TARGETS))

# Values that make sense somewhere on a deal form (positions, points, contracts), so that many random
# deals are saved, corrected and deleted, and the ledger invariant is tested on real changes.
PLAUSIBLE = st.one_of(st.integers(0, 6).map(str), st.integers(0, 125).map(str), st.sampled_from(
    ["on", "", "18", "23", "48", "-1", "-2", "2", "3", "H", "S", "double", "grand", "null", "passed", "ramsch",
     "clubs", "sauspiel", "wenz", "solo", "sie", "wenz_tout", "bettel", "normal", "wesele", "cicha", "zolo",
     "zolo_du", "tricks", "kieker", "siebener_fips", "CJ", "HA", "Anna"]))


def mutated(base: dict[str, Any], names: list[str], value: st.SearchStrategy[Any] = VALUE,
            ) -> st.SearchStrategy[dict[str, Any]]:
    """`base` (what a browser sends; sometimes nothing of it) with a few inputs set to random values,
    sometimes many, and now and then an input no form has."""
    few = st.dictionaries(st.sampled_from(names), value, max_size=3)
    many = st.dictionaries(st.sampled_from(names), st.one_of(value, VALUE), min_size=3, max_size=12)
    stray = st.dictionaries(st.text(max_size=8), VALUE, max_size=2)
    return st.tuples(st.sampled_from([base, base, base, {}]), st.one_of(few, few, many),
                     st.one_of(st.just({}), st.just({}), stray)).map(lambda parts: {**parts[0], **parts[2],
                                                                                   **parts[1]})


def run_all(client: Client, requests: list[tuple[str, str, str | None, dict[str, Any]]]) -> None:
    """Send each request; none may answer a server error, and after a POST every ledger still holds."""
    for method, url, target, data in requests:
        response = send(client, method, url, data, target)
        assert_answered(response, method, url, data)
        if method == "POST":
            assert_every_ledger_holds()


def live_and_deleted(table: CardTable) -> tuple[int, int]:
    live = table.deals.filter(deleted=False).values_list("sequence", flat=True).last() or 1
    deleted = table.deals.filter(deleted=True).values_list("sequence", flat=True).first() or 2
    return live, deleted


# --- 1. fuzzing: the table pages -------------------------------------------------------------------

TABLE_PATHS = ["", "deals/new/", "deals/new/", "deals/{live}/", "deals/{live}/", "deals/{deleted}/", "deals/999/",
               "deals/{live}/delete/", "deals/{deleted}/restore/", "deals/{deleted}/delete/",
               "deals/{live}/restore/", "deals/0/"]


@pytest.mark.django_db
@pytest.mark.parametrize("game", list(NIGHTS))
def test_no_table_page_answers_a_server_error(game: str, client: Client, every_game: dict[str, CardNight],
                                             rolled_back: Any) -> None:
    """Every table URL and method, whole page and htmx, with hostile inputs of the deal form."""
    night = every_game[game]
    table = night.tables.get()
    names = deal_field_names(night, len(NIGHTS[game]["players"]))

    @FUZZ
    @given(requests=st.lists(st.tuples(st.sampled_from(TABLE_PATHS), METHOD, TARGET,
                                       mutated(DEAL_DATA[game], names)), min_size=1, max_size=3))
    def fuzz(requests: list[tuple[str, str, str | None, dict[str, Any]]]) -> None:
        def body() -> None:
            for path, method, target, data in requests:
                live, deleted = live_and_deleted(table)
                url = f"/nights/{night.pk}/tables/1/" + path.format(live=live, deleted=deleted)
                run_all(client, [(method, url, target, data)])
        rolled_back(body)

    fuzz()


@pytest.mark.django_db
@pytest.mark.parametrize("game", list(NIGHTS))
def test_random_deals_saved_corrected_and_deleted_keep_the_ledger_equal_to_the_engine(
        game: str, client: Client, every_game: dict[str, CardNight], rolled_back: Any) -> None:
    """Mostly sensible entries, so that many are saved: new deals, corrections (with another dealer),
    deletions and restorings in random order; after each the ledger is checked against the engine."""
    night = every_game[game]
    table = night.tables.get()
    names = deal_field_names(night, len(NIGHTS[game]["players"]))
    saved: list[int] = []

    @FUZZ
    @given(requests=st.lists(st.tuples(st.sampled_from(["deals/new/", "deals/new/", "deals/{live}/",
                                                        "deals/{first}/", "deals/{live}/delete/",
                                                        "deals/{deleted}/restore/"]),
                                       st.sampled_from([None, None, "table-region"]),
                                       mutated(DEAL_DATA[game], names, PLAUSIBLE)), min_size=2, max_size=5))
    def fuzz(requests: list[tuple[str, str | None, dict[str, Any]]]) -> None:
        def body() -> None:
            before = table.deals.count()
            for path, target, data in requests:
                live, deleted = live_and_deleted(table)
                url = f"/nights/{night.pk}/tables/1/" + path.format(live=live, deleted=deleted, first=1)
                run_all(client, [("POST", url, target, data)])
            saved.append(table.deals.count() - before)
        rolled_back(body)

    fuzz()
    assert sum(saved) > 0, "no random deal was ever saved: the fuzzing tests only refusals"


# --- 1. fuzzing: the night pages -------------------------------------------------------------------

def settings_base(night: CardNight) -> dict[str, Any]:
    data = SettingsForm.data_of(night)
    return {key: data.getlist(key) for key in data}


def night_base(game: str) -> dict[str, Any]:
    data = NightForm(QueryDict(f"game={game}"), url="/nights/new/").data
    return {**{key: data.getlist(key) for key in data}, "place": "Club", "player-0": "Anna", "player-1": "Bernd",
            "player-2": "Clara", "player-3": "Dieter"}


SEATING_BASE = {"count": "4", "player-0": "Eva", "player-1": "Frieda", "player-2": "Gustav", "player-3": "Hanna",
                "first_dealer": "1"}

NIGHT_FORMS = {"new": "/nights/new/", "settings": "/nights/{id}/settings/", "table": "/nights/{id}/tables/new/"}


@pytest.mark.django_db
@pytest.mark.parametrize("form", list(NIGHT_FORMS))
def test_no_night_form_answers_a_server_error(form: str, client: Client, every_game: dict[str, CardNight],
                                             rolled_back: Any) -> None:
    """Starting a night, its settings, another table: hostile inputs, refreshes (htmx and without),
    saves; any settings change that is accepted leaves every ledger equal to the engine's verdicts."""
    bases = {game: {"new": night_base(game), "settings": settings_base(night), "table": SEATING_BASE}[form]
             for game, night in every_game.items()}

    @settings(FUZZ, max_examples=30)
    @given(game=st.sampled_from(list(NIGHTS)), requests=st.lists(st.tuples(
        st.sampled_from(["POST", "POST", "GET"]), TARGET, st.booleans(), st.data()), min_size=1, max_size=3))
    def fuzz(game: str, requests: list[tuple[str, str | None, bool, st.DataObject]]) -> None:
        def body() -> None:
            url = NIGHT_FORMS[form].format(id=every_game[game].pk)
            for method, target, refresh, draw in requests:
                data = draw.draw(mutated(bases[game], NIGHT_FIELDS))
                if refresh:
                    data["refresh"] = "1"
                run_all(client, [(method, url, target, data)])
        rolled_back(body)

    fuzz()


NIGHT_PATHS = ["/nights/", "/nights/{id}/", "/nights/{id}/finish/", "/nights/{id}/ledger.json",
               "/nights/{id}/print/", "/nights/{unknown}/", "/nights/{unknown}/settings/",
               "/nights/{unknown}/finish/", "/nights/{unknown}/ledger.json", "/nights/{huge}/tables/1/",
               "/nights/{huge}/tables/1/deals/new/", "/nights/{id}/tables/{huge}/",
               "/nights/{id}/tables/1/deals/{huge}/", "/nights/{huge}/", "/nights/{huge}/print/"]


@pytest.mark.django_db
def test_no_night_page_answers_a_server_error(client: Client, every_game: dict[str, CardNight],
                                             rolled_back: Any) -> None:
    """The list, a night, finishing and reopening it, its JSON and printout, unknown and absurd ids."""
    @settings(FUZZ, max_examples=30)
    @given(requests=st.lists(st.tuples(st.sampled_from(NIGHT_PATHS), st.sampled_from(list(NIGHTS)), METHOD,
                                       TARGET, mutated({"finished": "1"}, NIGHT_FIELDS)), min_size=1, max_size=4))
    def fuzz(requests: list[tuple[str, str, str, str | None, dict[str, Any]]]) -> None:
        def body() -> None:
            for path, game, method, target, data in requests:
                night = every_game[game]
                url = path.format(id=night.pk, unknown=night.pk + 1000, huge="9" * 30)
                run_all(client, [(method, url, target, data)])
        rolled_back(body)

    fuzz()



# --- 1. every URL, method and region, deterministically ------------------------------------------

def every_url(night: CardNight) -> list[str]:
    table = f"/nights/{night.pk}/tables/1/"
    return ["/nights/", "/nights/new/", f"/nights/{night.pk}/", f"/nights/{night.pk}/settings/",
            f"/nights/{night.pk}/finish/", f"/nights/{night.pk}/tables/new/", f"/nights/{night.pk}/ledger.json",
            f"/nights/{night.pk}/print/", table, table + "deals/new/", table + "deals/1/", table + "deals/2/",
            table + "deals/1/delete/", table + "deals/2/restore/", table + "deals/3/delete/",
            table + "deals/3/restore/"]


@pytest.mark.django_db
@pytest.mark.parametrize("game", list(NIGHTS))
def test_every_url_with_every_method_and_region_answers(game: str, client: Client, every_game: dict[str, CardNight],
                                                        rolled_back: Any) -> None:
    """The grid the random tests may miss: each URL × method, whole page and each htmx region id."""
    night = every_game[game]
    data = {"contract": "nonsense", "count": "99", "preset": "nonsense", "refresh": "1", "declarer": "99"}

    def body() -> None:
        for number, url in enumerate(every_url(night)):
            for method in ("GET", "POST", "PUT"):
                # Every region id on every URL for one game; for the others a different one per URL.
                every = game == "skat" and method != "PUT"
                for target in [None, *TARGETS] if every else [None, TARGETS[number % len(TARGETS)]]:
                    response = send(client, method, url, data, target)
                    assert_answered(response, method, url, data)
        assert_every_ledger_holds()

    rolled_back(body)


# Values that break code which trusts what a browser sends: more digits than int() reads, other
# scripts' digits, a NUL, JSON nested deeper than the recursion limit, infinity, very long text.
EXTREMES = ["9" * 5000, "-" + "9" * 5000, "١٢", "\x00", "[" * 999 + "]" * 999, "1e999", "NaN", "x" * 3000,
            "9" * 19, "-9"]


@pytest.mark.django_db
@pytest.mark.parametrize("game", list(NIGHTS))
def test_every_input_at_once_with_an_extreme_value_answers(game: str, client: Client,
                                                           every_game: dict[str, CardNight],
                                                           rolled_back: Any) -> None:
    """Each form posted (and previewed) with every one of its inputs set to the same extreme value."""
    night = every_game[game]
    table = f"/nights/{night.pk}/tables/1/"
    deal_names = deal_field_names(night, len(NIGHTS[game]["players"]))
    # The game, rule set and contract stay as sent, so the house rules' and the contract's inputs are read.
    forms = {"/nights/new/": (night_base(game), NIGHT_FIELDS),
             f"/nights/{night.pk}/settings/": (settings_base(night), NIGHT_FIELDS),
             f"/nights/{night.pk}/tables/new/": ({}, NIGHT_FIELDS), table + "deals/new/": (DEAL_DATA[game], deal_names),
             table + "deals/1/": (DEAL_DATA[game], deal_names), table + "deals/1/delete/": ({}, ["by", "reason"])}
    kept = {"game", "preset", "shown", "contract", "preview", "refresh"}

    def body() -> None:
        for url, (base, names) in forms.items():
            for value in EXTREMES:
                data = {**base, **{name: value for name in names if name not in kept}}
                for method in ("GET", "POST"):
                    response = send(client, method, url, data, None if method == "POST" else "preview")
                    assert_answered(response, method, url, {"every input": value[:20]})
        assert_every_ledger_holds()

    rolled_back(body)


# --- 2. escaping ----------------------------------------------------------------------------------

SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
PLACE = "<b onmouseover=alert(2)>Club</b>"
REASON = "<i>typo</i><script>alert(3)</script>"
RAW = [SCRIPT, "<img src=x", "<b onmouseover", "<i>typo</i>", "<script>alert(3)"]


@pytest.fixture
def hostile(db: None) -> CardNight:
    """A Skat night whose players, place, scorers and reasons are HTML: a correction, a deletion, a
    restoring and a settings change, so every history shows them."""
    night = nights.start_night(game="skat", preset="classic", players=[SCRIPT, IMG, "Clara", "Dieter"],
                               place=PLACE, series_length=36)
    table = night.tables.get()
    deal = nights.enter_deal(table, {"contract": "grand", "declarer": 0, "bid": 48, "matadors": 2,
                                     "card_points": 70}, by=SCRIPT)
    nights.correct_deal(deal, {**deal.facts, "card_points": 58}, by=IMG, reason=REASON)
    nights.delete_deal(deal, by=IMG, reason=REASON)
    nights.restore_deal(deal, by=SCRIPT, reason=REASON)
    nights.enter_deal(table, {"contract": "null", "declarer": 1, "bid": 23, "declarer_tricks": 0}, by=IMG)
    nights.change_settings(night, by=SCRIPT, reason=REASON, place=PLACE + " 2", bock_events=[])
    return night


@pytest.mark.django_db
def test_names_places_and_reasons_show_escaped_on_every_page(client: Client, hostile: CardNight) -> None:
    session = client.session
    session["scorers"] = {str(hostile.pk): IMG}  # "Your name" as remembered, in the forms' values
    session.save()
    table = f"/nights/{hostile.pk}/tables/1/"
    pages = {"list": "/nights/", "night": f"/nights/{hostile.pk}/", "settings": f"/nights/{hostile.pk}/settings/",
             "print": f"/nights/{hostile.pk}/print/", "table": table, "deal": table + "deals/1/",
             "new table": f"/nights/{hostile.pk}/tables/new/"}
    for page, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, page
        html = response.content.decode()
        for raw in RAW:
            assert raw not in html, (page, raw)
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, page
        if page not in ("new table",):
            assert "&lt;b onmouseover=alert(2)&gt;Club&lt;/b&gt;" in html or page in ("table", "deal"), page
    deal = client.get(table + "deals/1/").content.decode()
    assert "&lt;i&gt;typo&lt;/i&gt;&lt;script&gt;alert(3)&lt;/script&gt;" in deal  # the reason, in the history
    assert "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;" in deal  # who corrected it
    history = client.get(pages["settings"]).content.decode()
    assert "&lt;i&gt;typo&lt;/i&gt;" in history
    # The live preview names players in the explanation and the entries.
    preview = client.get(table + "deals/new/", {"contract": "grand", "declarer": "1", "bid": "48", "matadors": "2",
                                                "card_points": "70"}, headers={"HX-Request": "true",
                                                                              "HX-Target": "preview"})
    assert preview.status_code == 200
    # The table's pages write a player by the name's short form (labels.table_names: the first word here).
    shown = labels.table_names([SCRIPT, IMG, "Clara", "Dieter"])[1]
    assert shown == '"><img' and escape(shown) in preview.content.decode()
    assert not any(raw in preview.content.decode() for raw in RAW)


@pytest.mark.django_db
def test_the_json_has_the_names_place_and_reasons_as_plain_strings(client: Client, hostile: CardNight) -> None:
    response = client.get(f"/nights/{hostile.pk}/ledger.json")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    data = json.loads(response.content)
    assert data["night"]["place"] == PLACE + " 2"
    table = data["tables"][0]
    assert table["players"] == [SCRIPT, IMG, "Clara", "Dieter"]
    assert [deal["entered_by"] for deal in table["deals"]] == [SCRIPT, IMG]
    assert set(table["totals"]) == {SCRIPT, IMG, "Clara", "Dieter"}


# --- 3. nothing typed is lost -------------------------------------------------------------------------

def value_of(html: str, name: str) -> str | None:
    """The value an input shows (None: no value attribute); not the attach-the-cards form's own inputs
    (``id_play-…``), which the deal page shows beside the correction."""
    match = re.search(rf'<input(?![^>]*id="id_play-)[^>]*name="{re.escape(name)}"[^>]*>', html)
    assert match, f"no input {name}"
    value = re.search(r'value="([^"]*)"', match.group(0))
    return unescape(value.group(1)) if value else None


def selected(html: str, name: str) -> list[str]:
    """The values of a select's selected options, or of the ticked radios/checkboxes of that name."""
    select = re.search(rf'<select[^>]*name="{re.escape(name)}"[^>]*>(.*?)</select>', html, re.S)
    if select:
        return re.findall(r'<option value="([^"]*)"[^>]*selected', select.group(1))
    ticked = [tag for tag in re.findall(rf'<input[^>]*name="{re.escape(name)}"[^>]*>', html) if "checked" in tag]
    return [value.group(1) if (value := re.search(r'value="([^"]*)"', tag)) else "on" for tag in ticked]


@pytest.mark.django_db
def test_a_refused_new_night_keeps_everything_typed(client: Client) -> None:
    data = night_base("skat")
    data.update({"place": "Kneipe <Zum Löwen>", "date": "2025-03-01", "player-1": "anna ", "player-3": "",
                 "series_length": "48", "first_dealer": "2", "rule-kontra": [], "rule-bock": "on"})
    data = {key: value for key, value in data.items() if value != []}
    response = client.post("/nights/new/", data)
    assert response.status_code == 200 and CardNight.objects.count() == 0
    html = response.content.decode()
    assert "err-player-1" in html and "already at this table" in html
    assert value_of(html, "place") == "Kneipe <Zum Löwen>" and value_of(html, "date") == "2025-03-01"
    assert [value_of(html, f"player-{p}") for p in range(4)] == ["Anna", "anna ", "Clara", None]
    assert selected(html, "series_length") == ["48"] and selected(html, "first_dealer") == ["2"]
    assert selected(html, "rule-kontra") == [] and selected(html, "rule-bock") == ["on"]


@pytest.mark.django_db
def test_refused_settings_keep_everything_typed(client: Client, every_game: dict[str, CardNight]) -> None:
    night = every_game["skat"]
    data = settings_base(night)
    data.update({"place": "Neuer Ort", "by": "Clara", "reason": "moved upstairs", "bock_length": "0",
                 "bock_events": ["sixty", "schwarz"], "series_length": "48"})
    response = client.post(f"/nights/{night.pk}/settings/", data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "err-bock_length" in html
    assert value_of(html, "place") == "Neuer Ort" and value_of(html, "by") == "Clara"
    assert value_of(html, "reason") == "moved upstairs" and value_of(html, "bock_length") == "0"
    assert selected(html, "bock_events") == ["sixty", "schwarz"] and selected(html, "series_length") == ["48"]
    night.refresh_from_db()
    assert night.place == "Zum Löwen" and night.bock_length is None and night.revisions.count() == 0


@pytest.mark.django_db
def test_a_refused_table_keeps_everything_typed(client: Client, every_game: dict[str, CardNight]) -> None:
    night = every_game["fipsen"]
    data = {"count": "5", "player-0": "Eva", "player-1": "Frieda", "player-2": "x" * 41, "player-3": "",
            "player-4": "Hanna", "first_dealer": "4"}
    response = client.post(f"/nights/{night.pk}/tables/new/", data)
    assert response.status_code == 200 and night.tables.count() == 1
    html = response.content.decode()
    assert [value_of(html, f"player-{p}") for p in range(5)] == ["Eva", "Frieda", "x" * 41, None, "Hanna"]
    assert selected(html, "count") == ["5"] and selected(html, "first_dealer") == ["4"]


@pytest.mark.django_db
def test_a_refused_deal_and_correction_keep_everything_typed(client: Client, every_game: dict[str, CardNight]) -> None:
    night = every_game["schafkopf"]
    table = f"/nights/{night.pk}/tables/1/"
    refused = {"contract": "sauspiel", "declarer": "0", "partner": "1", "card_points": "119", "by": "Clara",
               "doublings": "1"}
    before = Deal.objects.count()
    response = client.post(table + "deals/new/", refused)
    assert response.status_code == 200 and Deal.objects.count() == before
    html = response.content.decode()
    assert value_of(html, "card_points") == "119" and value_of(html, "by") == "Clara"
    assert selected(html, "contract") == ["sauspiel"] and selected(html, "declarer") == ["0"]
    assert selected(html, "partner") == ["1"] and selected(html, "doublings") == ["1"]

    deal = Deal.objects.get(table__night=night, sequence=1)
    response = client.post(table + "deals/1/", {**refused, "contract": "wenz", "declarer": "3", "reason": "typo",
                                                "dealer": "2"})
    assert response.status_code == 200
    html = response.content.decode()
    assert value_of(html, "card_points") == "119" and value_of(html, "reason") == "typo"
    assert selected(html, "contract") == ["wenz"] and selected(html, "dealer") == ["2"]
    assert Deal.objects.get(pk=deal.pk).facts == deal.facts and deal.revisions.count() == 1


@pytest.mark.django_db
def test_a_refused_deletion_keeps_the_reason(client: Client, every_game: dict[str, CardNight],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    night = every_game["kop"]
    refuse = ledger.LedgerError(2, ledger.IllegalDeal("deal.card_points", "cannot be {points}", points=1))
    monkeypatch.setattr(ledger, "recompute", lambda table, **changed: (_ for _ in ()).throw(refuse))
    response = client.post(f"/nights/{night.pk}/tables/1/deals/1/delete/", {"reason": "never <played>"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "cannot be 1" in html
    assert unescape(re.search(r'id="delete-reason"[^>]*value="([^"]*)"', html).group(1)) == "never <played>"  # type: ignore[union-attr]
    assert not Deal.objects.get(table__night=night, sequence=1).deleted


# --- 4. transactions -----------------------------------------------------------------------------------

class Broken(Exception):
    """A failure after the first write (say, the database going away half-way)."""


@pytest.fixture
def fails_once_after_writing(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The first write fails at its very end, when it marks the pages to refresh: after every row it
    writes (the deal, its revision, the ledger's verdicts and Bock flags), inside its transaction."""
    calls: list[int] = []

    def failing_once(real: Callable[[Any], None]) -> Callable[[Any], None]:
        def touch(obj: Any) -> None:
            calls.append(obj.pk)
            if len(calls) == 1:
                raise Broken
            real(obj)
        return touch

    monkeypatch.setattr(nights, "_touch_table", failing_once(nights._touch_table))
    monkeypatch.setattr(nights, "_touch", failing_once(nights._touch))
    return calls


def stored(night: CardNight) -> tuple[Any, ...]:
    """Everything a night keeps, to compare before and after a failed write."""
    night = CardNight.objects.get(pk=night.pk)
    deals = list(Deal.objects.filter(table__night=night).order_by("pk").values_list(
        "sequence", "seating", "dealer", "facts", "verdict", "bock", "deleted"))
    versions = list(night.tables.order_by("pk").values_list("version", flat=True))
    revisions = DealRevision.objects.filter(deal__table__night=night).count()
    return (nights.settings_of(night), night.version, versions, deals, revisions,
            NightRevision.objects.filter(night=night).count())


@pytest.mark.django_db
@pytest.mark.parametrize("game", list(NIGHTS))
def test_a_failure_half_way_through_a_write_leaves_nothing_half_saved(
        game: str, every_game: dict[str, CardNight], fails_once_after_writing: list[int]) -> None:
    night = every_game[game]
    table = night.tables.get()
    first = table.deals.get(sequence=1)
    facts = SEED_DEALS[game][0]
    writes = [
        lambda: nights.enter_deal(table, facts, by="Anna"),
        lambda: nights.correct_deal(first, SEED_DEALS[game][2], dealer=1, by="Anna", reason="typo"),
        lambda: nights.delete_deal(first, by="Anna"),
        lambda: nights.restore_deal(table.deals.get(sequence=2), by="Anna"),
        lambda: nights.change_settings(night, by="Anna", place="Elsewhere", preset=night.preset,
                                       bock_length=2),
    ]
    for write in writes:
        before = stored(night)
        fails_once_after_writing.clear()
        with pytest.raises(Broken):
            write()
        assert fails_once_after_writing, "the write never got to its end"
        assert stored(night) == before
        write()  # the same write, not failing, does change what is stored: the comparison can fail
        assert stored(night) != before
        assert_ledger_holds(table)


@pytest.mark.django_db
def test_a_deal_refused_while_saving_through_the_page_stores_nothing_and_keeps_the_inputs(
        client: Client, every_game: dict[str, CardNight], monkeypatch: pytest.MonkeyPatch) -> None:
    night = every_game["skat"]
    before = stored(night)
    # Refused under the table's lock (say, the deal before it changed meanwhile and with it this one's Bock).
    refuse = ledger.IllegalDeal("deal.bid", "is too low")
    monkeypatch.setattr(ledger, "judged_verdict", lambda *args: (_ for _ in ()).throw(refuse))
    data = {**DEAL_DATA["skat"], "by": "Clara"}
    response = client.post(f"/nights/{night.pk}/tables/1/deals/new/", data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "is too low" in html and value_of(html, "card_points") == "70" and value_of(html, "by") == "Clara"
    assert stored(night) == before

