"""Money in each currency's own minor unit (scorekeep/words/money.py, docs/MONEY.md).

A night keeps its amounts as integers of its currency's minor unit — cents of EUR, whole yen — and
the decimals of that unit (`CardNight.amount_exponent`, from CLDR through Babel when the night is
made). Pages, printouts, CSV, settlement and statistics write them per language with the currency's
own decimals; typed money is refused with the currency's decimals named; and migration 0009 keeps
the amounts of the nights stored before, in hundredths of every currency.
"""

from __future__ import annotations

import csv
import io
import re
from html import unescape
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.utils import translation

from scorekeep.clubs import stats
from scorekeep.models import CardNight
from scorekeep.nights import ledger
from scorekeep.nights import writes as nights
from scorekeep.nights.forms import SettlementForm
from scorekeep.nights.settlement import settle_as_stored
from scorekeep.words.money import currency_exponent, format_money
from scorekeep.words.numbers import money

PLAYERS = ["Anna", "Bernd", "Clara", "Dieter"]
# A partner game Anna and Clara lose with 40 card points: each pays the partner price to Bernd and Dieter.
SAUSPIEL = {"contract": "sauspiel", "declarer": 0, "partner": 2, "called_ace": "S", "card_points": 40}


@pytest.mark.parametrize(("currency", "exponent"), [("EUR", 2), ("CHF", 2), ("JPY", 0), ("KRW", 0), ("KWD", 3)])
def test_each_currency_has_the_decimals_of_its_minor_unit(currency: str, exponent: int) -> None:
    assert currency_exponent(currency) == exponent


@pytest.mark.parametrize(("language", "amount", "currency", "written"), [
    ("en", 1200, "JPY", "¥1,200"), ("en", 1250, "EUR", "€12.50"), ("en", 150, "CHF", "1.50\u00a0CHF"),
    ("en", -60, "EUR", "\u2212€0.60"), ("en", 123456, "GBP", "£1,234.56"),
    ("de", 1200, "JPY", "1.200\u00a0¥"), ("de", 1250, "EUR", "12,50\u00a0€"), ("de", -60, "EUR", "\u22120,60\u00a0€"),
    ("ja", 1200, "JPY", "￥1,200"), ("ja", 1250, "EUR", "€12.50"),
])
def test_money_is_written_per_language_with_the_currencys_decimals(language: str, amount: int, currency: str,
                                                                   written: str) -> None:
    with translation.override(language):
        assert format_money(amount, currency) == written


def test_an_amount_finer_than_the_currency_shows_its_decimals() -> None:
    """A night kept in hundredths of a yen (exponent 2) that has such an amount: nothing is rounded away."""
    with translation.override("en"):
        assert format_money(1210, "JPY", exponent=2) == "¥12.1"
        assert format_money(1200, "JPY", exponent=2) == "¥12"
        assert format_money(5, "EUR", plus=True) == "+€0.05"


@pytest.mark.django_db
def test_a_new_night_counts_in_its_currencys_minor_unit_and_follows_a_change_of_currency() -> None:
    yen = nights.start_night(game="schafkopf", preset="sauspiel", players=PLAYERS, currency="JPY")
    euro = nights.start_night(game="schafkopf", preset="sauspiel", players=PLAYERS)
    assert (yen.amount_exponent, euro.amount_exponent) == (0, 2)
    euro = nights.change_settings(euro, currency="KWD")
    assert euro.amount_exponent == 3
    assert euro.revisions.get().new["amount_exponent"] == 3


@pytest.mark.django_db
def test_a_yen_night_shows_whole_yen_on_the_table_page_printout_csv_and_statistics(client: Client) -> None:
    night = nights.start_night(game="schafkopf", preset="sauspiel", players=PLAYERS, currency="JPY",
                               house_rules={"price_partner": 100})
    nights.enter_deal(night.tables.get(), SAUSPIEL)
    book = ledger.build(night.tables.get())
    assert book.totals[1] == 100  # Bernd receives the price: ¥100, not ¥1.00
    client.cookies["django_language"] = "en"
    table = unescape(client.get(f"/nights/{night.pk}/tables/1/").content.decode())
    assert "+¥100" in table and "¥1.00" not in table
    printout = unescape(client.get(f"/nights/{night.pk}/print/").content.decode())
    assert "¥100" in printout and "¥1.00" not in printout
    body = client.get(f"/nights/{night.pk}/ledger.csv").content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(body, newline="")))
    assert rows[0]["Bernd (JPY)"] == "100" and rows[0]["Anna (JPY)"] == "-100"
    tally = next(t for t in stats.collect([night]).players[1].tallies.values())
    assert (tally.currency, tally.total) == ("JPY", 100)
    assert money(tally.total, tally.currency) == "¥100"
    client.cookies["django_language"] = "de"
    assert "+100\u00a0¥" in unescape(client.get(f"/nights/{night.pk}/tables/1/").content.decode())


@pytest.mark.django_db
def test_statistics_add_an_old_night_in_hundredths_to_a_new_one_in_the_currencys_unit() -> None:
    old = nights.start_night(game="schafkopf", preset="sauspiel", players=PLAYERS, currency="KWD")
    CardNight.objects.filter(pk=old.pk).update(amount_exponent=2)  # as migration 0009 leaves a night from before
    new = nights.start_night(game="schafkopf", preset="sauspiel", players=PLAYERS, currency="KWD")
    for night in (old, new):
        nights.enter_deal(night.tables.get(), SAUSPIEL)
    price = 20  # the sauspiel preset's partner price, in each night's unit
    tally = next(iter(stats.collect(CardNight.objects.filter(pk__in=[old.pk, new.pk])).players[1].tallies.values()))
    assert tally.total == price * 10 + price  # 20 hundredths are 200 thousandths, + 20 thousandths


def _form(night: CardNight, **typed: str) -> SettlementForm:
    data: dict[str, Any] = {"rate": "", "entry_fee": "", "lost_game_fee": "", "prize_split": ""}
    data.update({name: str(value) for name, value in SettlementForm.data_of(night).items()})
    data.update(typed)
    return SettlementForm(data, night=night)


@pytest.mark.django_db
def test_settlement_money_is_typed_in_the_currencys_unit() -> None:
    yen = nights.start_night(game="schafkopf", preset="sauspiel", players=PLAYERS, currency="JPY")
    with translation.override("en"):
        form = _form(yen, entry_fee="5.5", prize_split="100")
        assert not form.is_valid()
        assert form.errors["entry_fee"] == ["¥ has no decimals: write whole JPY, e.g. 500 — not “5.5”."]
        form = _form(yen, entry_fee="500", prize_split="100")
        assert form.is_valid(), form.errors
        assert form.options["entry_fee"] == 500
    euro = nights.start_night(game="skat", preset="classic", players=PLAYERS[:3])
    # The fee is in the currency typed beside it.
    form = _form(euro, rate="0.01", entry_fee="5", currency="JPY", prize_split="100")
    assert form.is_valid(), form.errors
    assert form.options["entry_fee"] == 5 and form.options["rate"] == "0.01"
    form = _form(euro, rate="0.01", entry_fee="5.50", prize_split="100")
    assert form.is_valid() and form.options["entry_fee"] == 550


# --- migration 0013: the nights stored before keep their amounts ---------------------------------------

BEFORE, AFTER = ("scorekeep", "0012_seasons_and_ratings"), ("scorekeep", "0013_amounts_in_the_currencys_minor_unit")


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_every_nights_amounts() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    try:
        state = executor.loader.project_state([BEFORE]).apps
        old = state.get_model("scorekeep", "CardNight")
        club = state.get_model("scorekeep", "Club").objects.create(name="Club", invite_token="i")
        euro = old.objects.create(club=club, game="schafkopf", preset="sauspiel", currency="EUR",
                                  house_rules={"price_partner": 20},
                                  settlement={"step": 10, "entry_fee": 500}, scorer_token="a", viewer_token="b")
        # A yen night: the tariff typed as yen (the form said cents; the pages showed ¥0.30), the settlement's
        # fee typed as ¥500 and kept × 100, a rate of ¥2 a point kept as 200, rounding to a hundredth.
        yen = old.objects.create(club=club, game="skat", preset="classic", currency="JPY",
                                 settlement={"rate": "200", "step": 10, "entry_fee": 50000, "lost_game_fee": 2050},
                                 scorer_token="c", viewer_token="d")
        dinar = old.objects.create(club=club, game="schafkopf", preset="sauspiel", currency="KWD",
                                   settlement={"entry_fee": 150}, scorer_token="e", viewer_token="f")
        executor = MigrationExecutor(connection)
        executor.migrate([AFTER])
        new = executor.loader.project_state([AFTER]).apps.get_model("scorekeep", "CardNight")
        euro, yen, dinar = (new.objects.get(pk=night.pk) for night in (euro, yen, dinar))
        assert (euro.amount_exponent, euro.settlement, euro.house_rules) == (2, {"step": 10, "entry_fee": 500},
                                                                            {"price_partner": 20})
        assert yen.amount_exponent == 0
        assert yen.settlement == {"rate": "2", "step": 1, "entry_fee": 500, "lost_game_fee": 21}
        assert (dinar.amount_exponent, dinar.settlement) == (2, {"entry_fee": 150})  # 1.50 KWD, as before
    finally:
        MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db
def test_a_night_kept_in_hundredths_settles_and_shows_as_before() -> None:
    night = nights.start_night(game="schafkopf", preset="sauspiel", players=PLAYERS, currency="KWD")
    CardNight.objects.filter(pk=night.pk).update(amount_exponent=2, settlement={"entry_fee": 150,
                                                                                "prize_split": [100]})
    night.refresh_from_db()
    nights.enter_deal(night.tables.get(), SAUSPIEL)
    result = settle_as_stored(night)
    assert (result.exponent, result.pot) == (2, 600)
    with translation.override("en"):
        assert money(150, night) == "1.500\u00a0KWD"  # 1.50 dinar, in the dinar's three decimals


# --- the tariff typed in units of the currency on the night form -----------------------------------------

def _night_form_data(currency: str, preset: str = "sauspiel", **rules: str) -> dict[str, Any]:
    from django.http import QueryDict

    from scorekeep.nights.forms import NightForm

    query = QueryDict(mutable=True)
    query.update({"game": "schafkopf", "preset": preset, "currency": currency})
    # Every value of an input a browser sends several of (the boxes of the variants played), one of the others.
    data = {key: values if len(values) > 1 else values[0]
            for key, values in NightForm(query, url="/nights/new/").data.lists()}
    data.update({"place": "Club", **{f"player-{i}": name for i, name in enumerate(PLAYERS)}})
    data.update({f"rule-{key}": value for key, value in rules.items()})
    return {key: value for key, value in data.items() if value is not None}


@pytest.mark.django_db
def test_the_tariff_is_typed_in_units_of_the_currency(client: Client) -> None:
    form = _night_form_data("EUR")
    assert form["rule-price_partner"] == "0.20" and form["rule-price_solo"] == "0.50"  # the preset, in euros
    assert _night_form_data("JPY")["rule-price_partner"] == "20"  # the same integers, in yen
    response = client.post("/nights/new/", _night_form_data("JPY", price_partner="100", price_solo="500"))
    assert response.status_code == 303
    night = CardNight.objects.get()
    assert (night.currency, night.amount_exponent) == ("JPY", 0)
    assert night.house_rules == {"price_partner": 100, "price_solo": 500}
    client.cookies["django_language"] = "en"
    page = unescape(client.get(f"/nights/{night.pk}/").content.decode())
    assert "¥100" in page and "¥500" in page  # the house rules in words, as money
    settings = unescape(client.get(f"/nights/{night.pk}/settings/").content.decode())
    assert 'value="100"' in settings and "(¥)" in settings


DOUBLE = "(solo + Laufende) × 2"  # the Tout's named value "double", as the page writes it


@pytest.mark.django_db
@pytest.mark.parametrize(("currency", "typed", "stored", "error"), [
    ("EUR", "0.10", 10, None), ("EUR", "0,25", 25, None), ("EUR", "1", 100, None),
    ("EUR", "0.105", None, "at most two decimals"),
    ("JPY", "10.5", None, "¥ has no decimals: write whole JPY, e.g. 500 — not “10.5”."),
    ("JPY", "0", None, "Enter an amount from ¥1 to ¥100,000"),
    ("EUR", "ten", None, "at most two decimals"),
])
def test_a_typed_price_is_refused_naming_the_currencys_decimals(client: Client, currency: str, typed: str,
                                                                stored: int | None, error: str | None) -> None:
    client.cookies["django_language"] = "en"
    response = client.post("/nights/new/", _night_form_data(currency, price_partner=typed))
    if error is None:
        assert response.status_code == 303
        assert CardNight.objects.get().house_rules.get("price_partner", 20) == stored
    else:
        assert response.status_code == 200 and not CardNight.objects.exists()
        assert error in unescape(response.content.decode())


# --- a Tout's and a Sie's fixed price: money too, or a name ---------------------------------------------------

def test_every_money_option_of_a_money_game_is_typed_as_money() -> None:
    from scorekeep.rules import GAMES
    from scorekeep.rules.fields import option_shape

    schafkopf = GAMES["schafkopf"]
    # every option that takes a number of the tariff's size is money; the counts (Laufende, doublings) are not
    counts = {"laufende_min", "laufende_min_wenz", "max_doublings"}
    numbers = {key for key, option in schafkopf.OPTIONS.items()
               if option_shape(option)[0] == "integer" or hasattr(option_shape(option)[1], "names")}
    assert numbers - counts == schafkopf.AMOUNTS and {"tout", "sie"} <= schafkopf.AMOUNTS
    assert all(not module.AMOUNTS for game, module in GAMES.items() if not module.MONEY)


@pytest.mark.django_db
def test_a_touts_and_a_sies_fixed_price_are_typed_in_units_of_the_currency(client: Client) -> None:
    form = _night_form_data("EUR", "classic")  # the classic preset: Tout 180, Sie 540 (cents)
    assert (form["rule-tout"], form["rule-sie"]) == ("1.80", "5.40")
    assert (_night_form_data("JPY", "classic")["rule-tout"], _night_form_data("EUR")["rule-tout"]) == ("180", "double")
    response = client.post("/nights/new/", _night_form_data("JPY", "classic", tout="1000", sie="4x_solo"))
    assert response.status_code == 303
    night = CardNight.objects.get()
    assert night.house_rules == {"tout": 1000, "sie": "4x_solo"}
    client.cookies["django_language"] = "en"
    page = unescape(client.get(f"/nights/{night.pk}/").content.decode())
    assert "¥1,000" in page and "¥180" in page  # the house rule and the preset's value, as money
    settings = unescape(client.get(f"/nights/{night.pk}/settings/").content.decode())
    assert 'name="rule-tout" value="1000"' in settings and 'value="4 × the solo price"' in settings
    assert re.search(r"Tout[^<]*\(¥\)", settings)
    euro = nights.start_night(game="schafkopf", preset="classic", players=PLAYERS, house_rules={"tout": 250})
    settings = unescape(client.get(f"/nights/{euro.pk}/settings/").content.decode())
    assert 'name="rule-tout" value="2.50"' in settings and 'name="rule-sie" value="5.40"' in settings


DOUBLE = "(solo + Laufende) × 2"  # the Tout's named value "double", as the page writes it


@pytest.mark.django_db
@pytest.mark.parametrize(("currency", "typed", "stored", "error"), [
    ("EUR", "2.50", 250, None), ("EUR", "2,5", 250, None), ("EUR", "double", "double", None),
    ("EUR", '"double"', "double", None), ("JPY", "1000", 1000, None),
    ("EUR", "(solo + Laufende) × 2", "double", None),  # the named value as the page writes it (issue 30)
    ("EUR", "2.505", None, "at most two decimals, e.g. 5 or 0.50 — not “2.505”. Or write one of: " + DOUBLE + "."),
    ("JPY", "10.5", None,
     "¥ has no decimals: write whole JPY, e.g. 500 — not “10.5”. Or write one of: " + DOUBLE + "."),
    ("EUR", "0", None, "Enter an amount from €0.01 to €10,000.00"),
    ("EUR", "twice", None, "Or write one of: (solo + Laufende) × 2."),
])
def test_a_typed_tout_price_is_money_or_a_name(client: Client, currency: str, typed: str, stored: object,
                                               error: str | None) -> None:
    client.cookies["django_language"] = "en"
    response = client.post("/nights/new/", _night_form_data(currency, "classic", tout=typed))
    if error is None:
        assert response.status_code == 303
        assert CardNight.objects.get().house_rules.get("tout", 180) == stored
    else:
        assert response.status_code == 200 and not CardNight.objects.exists()
        assert error in unescape(response.content.decode())


@pytest.mark.django_db
def test_a_sie_at_a_fixed_price_is_explained_in_money_where_the_api_keeps_the_integer(client: Client) -> None:
    night = nights.start_night(game="schafkopf", preset="classic", players=PLAYERS, currency="EUR")
    nights.enter_deal(night.tables.get(), {"contract": "sie", "declarer": 1})
    client.cookies["django_language"] = "de"
    page = unescape(client.get(f"/nights/{night.pk}/tables/1/deals/1/").content.decode())
    assert "5,40\u00a0€" in page and "16,20\u00a0€" in page  # the fixed value, and what the three pay in all
    # The API has no currency: its refusal of a doubled Sie names the engine's integer (here in German).
    request = {"game": "schafkopf", "rules": {"preset": "classic"}, "players": 4,
               "deal": {"contract": "sie", "declarer": 1, "doublings": 1}}
    answer = client.post("/api/adjudicate", request, content_type="application/json").json()
    message = answer["errors"][0]["message"]
    assert "festem Wert 540 (rules.sie)" in message and "€" not in message
