"""A card night in German and in Japanese, in Chromium: the language switch, a deal entered, the printout.

The translated texts are never written here: each is read from the compiled catalogue
(`translation.override(lang)` + `gettext`), and a text expected to differ from the English must — a
catalogue that lost its translations fails the test rather than passing it in English. Inputs are found
by name or id, which do not change with the language; players' names do not either.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Page, expect

from scorekeep.models import CardNight, Deal
from scorekeep.nights import writes as nights
from scorekeep.words.labels import CONTRACT_LABELS, page_words, speaking_of
from scorekeep.words.numbers import signed_amount

from .steps import PLAYERS, Judged, choose_game, judged, replaced, show_scorer, tap_choice

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "ja": "日本語"}


def said(lang: str, text: str, **params: Any) -> str:
    """`text` as the page writes it in `lang`, from the compiled catalogue."""
    with translation.override(lang):
        translated = gettext(text)
    if lang != "en":
        assert translated != text, f"{text!r} has no {lang} translation (run manage.py compiletranslations)"
    return translated % params if params else translated


def switch_language(page: Page, lang: str) -> None:
    """Choose the language in the header's switch, as a person does (the page reloads in it)."""
    with page.expect_navigation():
        page.locator("#language-select").select_option(label=LANGUAGE_NAMES[lang])
    expect(page.locator("html")).to_have_attribute("lang", lang)


def nav_link(page: Page, lang: str, text: str) -> Any:
    return page.locator("header.site-header nav a").filter(has_text=re.compile(f"^{re.escape(said(lang, text))}$"))


# --- the switch --------------------------------------------------------------------------------------------

def test_the_language_switch_is_remembered_from_page_to_page(page: Page, live_server: Any) -> None:
    page.goto(f"{live_server.url}/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(nav_link(page, "en", "Card nights")).to_have_count(1)

    switch_language(page, "de")
    expect(page).to_have_url(f"{live_server.url}/")  # back on the page it was chosen on
    expect(nav_link(page, "de", "Card nights")).to_have_count(1)
    expect(page.locator("#language-select")).to_have_value("de")
    nav_link(page, "de", "Card nights").click()
    expect(page).to_have_url(f"{live_server.url}/nights/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(nav_link(page, "de", "Settle a dispute")).to_have_count(1)

    switch_language(page, "ja")
    expect(page).to_have_url(f"{live_server.url}/nights/")
    nav_link(page, "ja", "Settle a dispute").click()
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(nav_link(page, "ja", "Card nights")).to_have_count(1)
    page.goto(f"{live_server.url}/stats/")  # typed into the address bar: still Japanese
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    cookie = next(c for c in page.context.cookies() if c["name"] == "django_language")
    assert cookie["value"] == "ja"


def test_the_switch_works_without_javascript(page_without_js: Page, live_server: Any) -> None:
    page = page_without_js
    page.goto(f"{live_server.url}/nights/")
    page.locator("#language-select").select_option("de")
    page.get_by_role("button", name=said("en", "Switch")).click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page).to_have_url(f"{live_server.url}/nights/")
    expect(nav_link(page, "de", "Card nights")).to_have_count(1)


# --- a night in the language -------------------------------------------------------------------------------

# The first deal of each night: Anna deals. Schafkopf seats everybody in table order; at a Skat table of four
# the dealer sits out.
FIRST_DEALS = {
    "schafkopf": ("bsv", {"contract": "sauspiel", "declarer": "Bernd", "partner": "Dieter", "card_points": 75}),
    "skat": ("classic", {"contract": "grand", "declarer": "Bernd", "bid": 48, "matadors": 2, "card_points": 70}),
}


def start_night(page: Page, live_server: Any, lang: str, game: str, preset: str) -> str:
    """Start a night of four on /nights/new/ in `lang`, inputs found by id. Returns the table page's URL."""
    page.goto(f"{live_server.url}/nights/new/")
    page.locator("html.js").wait_for(state="attached")
    expect(page.locator("h1")).to_have_text(said(lang, "Start a card night"))
    if page.locator("#id_game").input_value() != game:
        with replaced(page, "#night-form-body"):
            page.locator("#id_game").select_option(game)
    with replaced(page, "#night-form-body"):
        page.locator("#id_preset").select_option(preset)
    expect(page.locator("#id_count")).to_have_value("4")
    for position, name in enumerate(PLAYERS):
        page.locator(f"#id_player-{position}").fill(name)
    page.locator("#id_first_dealer").select_option(index=0)
    page.get_by_role("button", name=said(lang, "Start the night")).click()
    expect(page).to_have_url(re.compile(r"/nights/\d+/tables/1/$"))
    page.locator("html.js").wait_for(state="attached")
    return page.url


def tap_value(page: Page, key: str, value: object) -> None:
    """Tap the button of question `key` whose radio holds `value` (its label is in the page's language)."""
    page.locator(f"#q-{key} label.tap").filter(has=page.locator(f"input[value='{value}']")).click()
    expect(page.locator(f"#q-{key} input[value='{value}']")).to_be_checked()


def enter_first_deal(page: Page, lang: str, game: str, facts: dict[str, Any], deal: Judged, night: CardNight) -> None:
    expect(page.locator("#entry .deal-head")).to_contain_text(
        said(lang, "Deal %(n)s of %(total)s", n=1, total=night.series_length) if night.series_length
        else said(lang, "Deal %(n)s", n=1))
    expect(page.locator("#entry .deal-head")).to_contain_text(said(lang, "%(name)s deals", name="Anna"))
    in_grid = choose_game(page, facts)
    for key in ("declarer", "partner"):
        if key in facts and not (in_grid and key == "declarer"):
            tap_choice(page, key, facts[key])  # players' names, the same in every language
    if "matadors" in facts:
        tap_value(page, "matadors", facts["matadors"])
    if "bid" in facts:  # the common bids are taps in view; the rest folded under "Other"
        if not page.locator(f"#q-bid input[value='{facts['bid']}']").is_visible():
            page.locator("#q-bid details.more-choices > summary").click()
        tap_value(page, "bid", facts["bid"])
    page.locator("#id_card_points").fill(str(facts["card_points"]))
    show_scorer(page)
    page.locator("#id_by").fill("Anna")

    # The preview, in the language: the outcome, each player's entry, the engine's explanation.
    verdict = deal.verdict
    with translation.override(lang):
        outcome = gettext("Won") if verdict.won else gettext("Lost")
        sits_out = gettext("sits out")
        entries = [f"{name} {sits_out if game == 'skat' and p == deal.dealer else signed_amount(entry, night)}"
                   for p, (name, entry) in enumerate(zip(PLAYERS, deal.entries, strict=True))]
        seats = [(deal.dealer + 1 + s) % 4 for s in range(4)] if game == "skat" else list(range(4))
        with speaking_of(game, (night.currency, night.exponent)):  # as the night's pages: a Schafkopf amount as money
            explanation = verdict.explain(lambda seat: PLAYERS[seats[seat]], page_words)
        contract = str(CONTRACT_LABELS[facts["contract"]])
    assert outcome != said("en", "Won") and contract
    expect(page.locator("#preview .outcome strong").first).to_have_text(outcome)
    expect(page.locator("#preview table.scores tr")).to_have_text(entries)
    expect(page.locator("#preview ol.explanation li")).to_have_text(explanation)

    with replaced(page, "#table-region"):
        page.get_by_role("button", name=said(lang, "Save deal")).click()
    # The saved deal in words in the language, and marked among the latest deals with its game.
    expect(page.locator("#table-region .saved")).to_contain_text(
        said(lang, "Deal %(number)s saved: %(what)s", number=1, what="Bernd"))
    row = page.locator("table.latest-deals tbody tr.deal-row.just-saved")
    expect(row).to_have_count(1)
    expect(row.locator("th.number")).to_contain_text("1")
    expect(page.locator("table.latest-deals tbody tr.what-row.just-saved")).to_contain_text(contract)
    expect(page.locator("table.latest-deals thead th.number")).to_have_text(said(lang, "Deal"))


@pytest.mark.parametrize(("lang", "game"), [("de", "schafkopf"), ("ja", "skat")])
def test_a_night_started_scored_and_printed_in_the_language(page: Page, live_server: Any, lang: str,
                                                             game: str) -> None:
    page.goto(f"{live_server.url}/nights/")
    switch_language(page, lang)
    preset, facts = FIRST_DEALS[game]
    table_url = start_night(page, live_server, lang, game, preset)
    night = CardNight.objects.get()
    enter_first_deal(page, lang, game, facts, judged(game, preset, 0, facts), night)
    stored = Deal.objects.get()
    assert stored.facts["contract"] == facts["contract"] and stored.facts["card_points"] == facts["card_points"]

    # Reloaded, the ledger and its player columns are still there, in the language.
    page.goto(table_url)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("table.latest-deals thead th.player")).to_have_text(list(PLAYERS))
    with page.expect_navigation():
        page.locator("a.whole-list").click()
    expect(page.locator("h1")).to_have_text(said(lang, "Table %(number)s: the whole list", number=1))
    expect(page.locator("table.ledger thead th.player")).to_have_text(list(PLAYERS))

    # The printout follows the reader's language when the night fixes none.
    assert night.print_language == ""
    page.goto(f"{live_server.url}/nights/{night.pk}/print/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator(".list-facts dt").first).to_have_text(said(lang, "Date"))
    expect(page.locator("nav.toolbar a").first).to_have_text(f"← {said(lang, 'Back to the night')}")


def test_a_printout_in_german_for_an_english_reader(page: Page, live_server: Any) -> None:
    night = nights.start_night(game="skat", preset="classic", players=PLAYERS, print_language="de")
    preset, facts = FIRST_DEALS["skat"]
    table = night.tables.get()
    nights.enter_deal(table, {**facts, "declarer": 0}, by="Anna")  # engine seat 0: forehand, Bernd
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    expect(page.locator("html")).to_have_attribute("lang", "en")  # the reader's pages stay English
    page.goto(f"{live_server.url}/nights/{night.pk}/print/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator(".list-facts dt").nth(1)).to_have_text(said("de", "Place"))
    expect(page.locator("nav.toolbar a").first).to_have_text(f"← {said('de', 'Back to the night')}")
    with translation.override("de"):
        contract = str(CONTRACT_LABELS["grand"])
    expect(page.locator("main")).to_contain_text(contract)
    # A Japanese reader gets the German list too: the night fixed it.
    japanese = page.context.new_page()
    page.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    japanese.goto(f"{live_server.url}/nights/{night.pk}/print/")
    expect(japanese.locator("html")).to_have_attribute("lang", "de")
    japanese.goto(f"{live_server.url}/nights/{night.pk}/")
    expect(japanese.locator("html")).to_have_attribute("lang", "ja")
