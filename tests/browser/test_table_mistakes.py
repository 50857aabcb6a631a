"""What a real table does wrong, replayed on a phone (issue 28): a refused entry, a number typed again, another
game tapped, saved. What is stored is exactly what the page showed last — the players, the game, the numbers —
and nothing typed for the first game stands in for an answer the second game asks anew. And the checks made
while a number is typed: an impossible total and letters are said at the input before Save.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorekeep.models import Deal

from .steps import PLAYERS, choose_game, replaced, start_night, tap_choice

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def save(page: Page) -> None:
    """Tap Save, once the previews of what was typed have answered."""
    page.locator("#entry input:focus").evaluate_all("inputs => inputs.forEach((input) => input.blur())")
    expect(page.locator("#entry.htmx-request")).to_have_count(0)
    with replaced(page, "#table-region"):
        page.get_by_role("button", name="Save deal").click()


def retype(page: Page, key: str, text: str) -> None:
    field = page.locator(f"#id_{key}")
    field.fill("")
    field.press_sequentially(text)


def tick(page: Page, key: str, name: str) -> None:
    page.locator(f"#q-{key} label.tap").filter(has_text=re.compile(f"^{name}$")).click()


def shown(page: Page, key: str) -> list[str]:
    """The names (or choices) ticked in a question, as the page shows them."""
    return page.locator(f"#q-{key} label.tap:has(input:checked) span").all_inner_texts()


def names(deal: Deal, seats: list[int]) -> list[str]:
    return [PLAYERS[deal.seating[seat]] for seat in seats]


def test_kop_a_refused_deal_then_wesele_then_a_zolo_du_store_the_players_shown(page: Page, live_server: Any) -> None:
    """Issue 28's table: a normal game with Anna and Bernd ticked and 30 typed is refused; Wesele is tapped and
    Clara and Dieter ticked — two players ticked, not four. The next deal: the same refusal, then Zolo du with
    Anna tapped as the lone player — Anna, not the other one left ticked."""
    start_night(page, live_server, game="kop", preset="classic")
    choose_game(page, {"contract": "normal"})
    tick(page, "old", "Anna")
    tick(page, "old", "Bernd")
    retype(page, "card_points", "30")
    save(page)
    expect(page.locator("#err-card_points")).to_contain_text("cannot be 30")
    assert Deal.objects.count() == 0
    retype(page, "card_points", "60")
    choose_game(page, {"contract": "wesele"})
    expect(page.locator("#q-old input:checked")).to_have_count(0)
    tick(page, "old", "Clara")
    tick(page, "old", "Dieter")
    assert shown(page, "old") == ["Clara", "Dieter"]
    expect(page.locator("#id_card_points")).to_have_value("60")
    save(page)
    expect(page.locator("#table-region .saved")).to_contain_text("Deal 1 saved")
    deal = Deal.objects.get()
    assert deal.facts["contract"] == "wesele" and deal.facts["card_points"] == 60
    assert names(deal, deal.facts["old"]) == ["Clara", "Dieter"]

    choose_game(page, {"contract": "normal"})
    tick(page, "old", "Anna")
    tick(page, "old", "Bernd")
    retype(page, "card_points", "30")
    save(page)
    expect(page.locator("#err-card_points")).to_contain_text("cannot be 30")
    retype(page, "card_points", "104")
    choose_game(page, {"contract": "zolo_du"})
    tick(page, "old", "Anna")  # the lone player
    assert shown(page, "old") == ["Anna"]
    save(page)
    expect(page.locator("#table-region .saved")).to_contain_text("Deal 2 saved")
    deal = Deal.objects.order_by("sequence").last()
    assert deal is not None and deal.facts["contract"] == "zolo_du" and deal.facts["card_points"] == 104
    assert names(deal, deal.facts["old"]) == ["Anna"]


def test_schafkopf_a_refused_sauspiel_then_a_hochzeit_asks_its_partner_anew(page: Page, live_server: Any) -> None:
    """A Sauspiel (Bernd with Clara) with 130 card points is refused; the 75 typed again; the deal was a Hochzeit.
    Clara held the called ace — that does not make her the Hochzeit's partner: the page asks, and stores the
    partner tapped then."""
    start_night(page, live_server, game="schafkopf", preset="bsv")
    choose_game(page, {"contract": "sauspiel"})
    tap_choice(page, "declarer", "Bernd")
    tap_choice(page, "partner", "Clara")
    retype(page, "card_points", "130")
    save(page)
    expect(page.locator("#err-card_points")).to_have_text("a whole number from 0 to 120")
    retype(page, "card_points", "75")
    choose_game(page, {"contract": "hochzeit"})
    assert shown(page, "declarer") == ["Bernd"] and shown(page, "partner") == []
    save(page)
    expect(page.locator("#err-partner")).to_have_text("tap the player's name")
    assert Deal.objects.count() == 0
    tap_choice(page, "partner", "Dieter")
    assert shown(page, "partner") == ["Dieter"]
    expect(page.locator("#id_card_points")).to_have_value("75")
    save(page)
    expect(page.locator("#table-region .saved")).to_contain_text("Deal 1 saved")
    deal = Deal.objects.get()
    assert deal.facts["contract"] == "hochzeit" and deal.facts["card_points"] == 75
    assert names(deal, [deal.facts["declarer"], deal.facts["partner"]]) == ["Bernd", "Dieter"]


def test_skat_a_refused_clubs_then_a_grand_keeps_only_what_a_grand_can_have(page: Page, live_server: Any) -> None:
    """Skat at four (Anna deals and sits out; the game is tapped in its declarer's row). Clubs by Bernd "with 6"
    and 130 card points is refused; 70 typed again; it was a Grand. "With 6" is no Grand's: the Grand asks its
    matadors (in its words, not "Select a valid choice"), and stores the ones tapped then."""
    start_night(page, live_server, game="skat", preset="classic", series="36")
    choose_game(page, {"contract": "clubs", "declarer": "Bernd"})
    page.locator("#q-matadors details.more-choices > summary").click()
    tap_choice(page, "matadors", "with 6")
    retype(page, "card_points", "130")
    save(page)
    expect(page.locator("#err-card_points")).to_have_text("a whole number from 0 to 120")
    retype(page, "card_points", "70")
    choose_game(page, {"contract": "grand", "declarer": "Bernd"})
    expect(page.locator("#q-matadors input:checked:not([value=''])")).to_have_count(0)
    expect(page.locator("#err-matadors")).to_have_text("")
    save(page)
    expect(page.locator("#err-matadors")).to_have_text("tap one")
    assert Deal.objects.count() == 0
    tap_choice(page, "matadors", "with 2")
    expect(page.locator("#id_card_points")).to_have_value("70")
    save(page)
    expect(page.locator("#table-region .saved")).to_contain_text("Deal 1 saved")
    deal = Deal.objects.get()
    assert {key: deal.facts[key] for key in ("contract", "matadors", "card_points", "bid")} == {
        "contract": "grand", "matadors": 2, "card_points": 70, "bid": 18}
    assert names(deal, [deal.facts["declarer"]]) == ["Bernd"]


def test_kop_the_total_and_letters_are_checked_at_the_input_as_they_are_typed(page: Page, live_server: Any) -> None:
    """With no round trip at all (the previews are cut off): 30 typed into the Kop card points says at the input
    that no side can make it, before anyone is ticked and before Save; letters say "not a number"; a possible
    total takes the message back. Typing is never held up: the input holds every key typed."""
    start_night(page, live_server, game="kop", preset="classic")
    page.route(re.compile(r".*/deals/new/\?.*"), lambda route: route.abort())
    field, slot = page.locator("#id_card_points"), page.locator("#err-card_points")
    field.click()
    field.press_sequentially("30")
    expect(slot).to_have_text("cannot be 30: no side can make that total; the nearest possible totals are 29 and 32")
    expect(field).to_have_attribute("aria-invalid", "true")
    field.press("Backspace")
    field.press_sequentially("2")
    expect(field).to_have_value("32")
    expect(slot).to_have_text("")
    field.fill("")
    field.press_sequentially("6o")
    expect(field).to_have_value("6o")
    expect(slot).to_have_text("not a number: a whole number from 0 to 104")
    field.fill("")
    field.press_sequentially("150")
    expect(slot).to_have_text("a whole number from 0 to 104")
    assert Deal.objects.count() == 0
