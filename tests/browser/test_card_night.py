"""Whole card nights played through the UI in Chromium, as a scorer with a phone plays them.

A night is started on /nights/new/, every deal is entered on the table page by tapping the game,
the players and the flags and typing the numbers, and saved with one tap. The ledger the page then
shows is read cell by cell from the DOM and compared with the engine's verdicts for the same deals,
computed here independently: the test seats the players itself (a 4-seat Skat table puts forehand,
the dealer's left, in engine seat 0 and the sitting dealer in seat 3; Schafkopf keeps table order)
and calls `scorekeep.rules.judge` with the contract's request for each deal.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorekeep.models import Deal
from scorekeep.nights import writes as nights

from .steps import (
    PLAYERS,
    SCHAFKOPF_ROUND,
    SKAT_SERIES,
    check_ledger,
    choose_game,
    enter_deal,
    judged,
    judged_all,
    play,
    replaced,
    start_night,
    tap_choice,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# --- the tests ----------------------------------------------------------------------------------

def test_a_whole_skat_series_at_four(page: Page, live_server: Any) -> None:
    expected = judged_all("skat", "classic", SKAT_SERIES)
    table_url = start_night(page, live_server, game="skat", preset="classic", series="36")
    expect(page.locator("#entry .deal-head")).to_contain_text("Sits out: Anna")  # and beside "Game"
    expect(page.locator("#q-contract legend .sits-out")).to_have_text("Sits out: Anna")
    play(page, "skat", expected, series=36)

    # The series is complete: the form is gone and a 37th deal is refused.
    expect(page.locator("#table-region .closed")).to_have_text(
        "The series of 36 deals is complete; no more deals can be entered.")
    expect(page.locator("#deal-form")).to_have_count(0)
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    answer = page.request.post(f"{table_url}deals/new/", headers={"X-CSRFToken": csrf}, form={
        "contract": "grand", "declarer": "1", "bid": "18", "matadors": "1", "card_points": "70"})
    assert answer.ok and "The series of 36 deals is complete" in answer.text()
    assert Deal.objects.count() == 36

    # Every running total and the footer are the engine's sums, after a reload too.
    totals = check_ledger(page, "skat", expected)
    expect(page.locator("table.ledger caption")).to_contain_text("36 of 36 deals")
    page.reload()
    assert check_ledger(page, "skat", expected) == totals
    assert any(deal.verdict.won is False for deal in expected) and any(totals)


def test_a_schafkopf_round_in_euros(page: Page, live_server: Any) -> None:
    expected = judged_all("schafkopf", "bsv", SCHAFKOPF_ROUND)
    start_night(page, live_server, game="schafkopf", preset="bsv")
    play(page, "schafkopf", expected)
    totals = check_ledger(page, "schafkopf", expected)
    page.reload()
    assert check_ledger(page, "schafkopf", expected) == totals
    assert sum(totals) == 0 and any(totals)


def test_kop_doublings_are_tapped_in_the_order_said(page: Page, live_server: Any) -> None:
    """The doublings are a row of the players' names under the Kop entry: each tap adds the player to the
    chain, shown in order; "Remove last" and "Clear" take players back; the keyboard does the same."""
    start_night(page, live_server, game="kop", preset="classic")
    chain = page.locator("#q-doublings .chain-list li")
    expect(chain).to_have_text(["no doubling"])  # in view, nothing to open
    expect(page.locator("#q-doublings select").first).to_be_hidden()  # the selects are the page without JavaScript

    def tap(name: str) -> None:
        page.locator("#q-doublings [data-chain-add]").filter(has_text=re.compile(f"^{name}$")).click()

    for name in ("Bernd", "Anna", "Dieter"):
        tap(name)
    expect(chain).to_have_text(["Bernd", "Anna", "Dieter"])
    page.get_by_role("button", name="Remove last").click()
    expect(chain).to_have_text(["Bernd", "Anna"])
    page.get_by_role("button", name="Clear").click()
    expect(chain).to_have_text(["no doubling"])
    expect(page.get_by_role("button", name="Remove last")).to_be_disabled()
    page.locator("#q-doublings [data-chain-add]").first.focus()  # Anna's button, then Enter: Anna doubles
    page.keyboard.press("Enter")
    expect(chain).to_have_text(["Anna"])
    page.get_by_role("button", name="Clear").click()
    # The deal itself: Anna and Clara are the old side; Bernd doubled, Anna answered, Dieter again.
    facts = {"contract": "normal", "old": ["Anna", "Clara"], "doublings": ["Bernd", "Anna", "Dieter"],
             "card_points": 60}
    deal = judged("kop", "classic", 0, facts)
    page.locator("#entry details.dealer > summary").click()
    page.get_by_label("Your name").fill("Anna")
    enter_deal(page, "kop", 1, deal)
    assert Deal.objects.get().facts == {"contract": "normal", "old": [0, 2], "card_points": 60,
                                        "doublings": [1, 0, 3]}


def test_a_ramsch_is_the_card_points_of_all_but_one_and_a_tap_for_a_jungfrau(page: Page, live_server: Any) -> None:
    start_night(page, live_server, game="skat", preset="classic", series="")
    with replaced(page, "#entry"):
        tap_choice(page, "contract", "Ramsch")
    expect(page.locator("#rest-points")).to_have_text("Leave one player empty for the rest of 120.")
    page.locator("#id_points-1").fill("35")  # Bernd; Anna deals and sits out
    page.locator("#q-no_trick label.tap").filter(has_text="Dieter").click()
    expect(page.locator("#rest-points")).to_have_text("Clara 85, Dieter 0: the rest of 120")
    expect(page.locator("#preview .value strong")).to_have_text("170")  # Clara loses 85, doubled by the Jungfrau
    page.locator("#entry details.dealer > summary").click()
    page.get_by_label("Your name").fill("Anna")
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator("#table-region .saved")).to_contain_text("Deal 1 saved: ")
    deal = Deal.objects.get()
    assert deal.facts["points"] == [35, 85, 0, 0] and deal.facts["tricks"][2:] == [0, 0]
    assert deal.result.scores == (0, -170, 0, 0)


def test_correcting_deleting_and_restoring_a_deal(page: Page, live_server: Any) -> None:
    deals = list(SKAT_SERIES[:4])
    assert deals[2]["card_points"] == 58
    table_url = start_night(page, live_server, game="skat", preset="classic", series="")
    expected = judged_all("skat", "classic", deals)
    play(page, "skat", expected)
    check_ledger(page, "skat", expected)

    # Deal 3 was lost with 58; the table recounts and finds 62.
    page.locator("table.ledger tbody tr.deal-row").nth(2).locator("th.number a").click()
    expect(page.locator("h1")).to_have_text("Deal 3")
    expect(page.locator(".deal-facts")).to_contain_text("58")
    expect(page.locator(".verdict .outcome > strong")).to_have_text("Lost")
    correction = page.get_by_role("region", name="Correct this deal")
    points = correction.get_by_label("Declarer's card points (skat included)")
    expect(points).to_have_value("58")
    points.fill("62")
    expect(page.locator("#preview .outcome strong").first).to_have_text("Won")
    correction.get_by_label("Why (optional)").fill("recounted the tricks")
    expect(correction.get_by_label("Your name")).to_have_value("Anna")
    correction.get_by_role("button", name="Save the correction").click()
    expect(page.locator(".verdict .outcome > strong")).to_have_text("Won")
    history = page.locator(".history-list li")
    expect(history).to_have_count(2)
    expect(history.first).to_contain_text("Deal 3 entered by Anna at")
    expect(history.last).to_have_text(re.compile(
        r"^Deal 3 changed by Anna at \d\d:\d\d: Declarer's card points \(skat included\) 58 → 62 "
        r"\(reason: recounted the tricks\)$"))

    deals[2] = {**deals[2], "card_points": 62}
    corrected = judged_all("skat", "classic", deals)
    assert corrected[2].entries != expected[2].entries
    page.locator(".crumbs a").click()
    expect(page).to_have_url(table_url)
    check_ledger(page, "skat", corrected)

    # Delete deal 2: it leaves the ledger's sums, its number stays a gap (issue 33); restored, it is back.
    page.locator("table.ledger tbody tr.deal-row").nth(1).locator("th.number a").click()
    expect(page.locator("h1")).to_have_text("Deal 2")
    deal_url = page.url
    deleting = page.get_by_role("region", name="Delete this deal")
    deleting.get_by_label("Why (optional)").fill("entered twice")
    deleting.get_by_role("button", name="Delete this deal").click()
    expect(page.locator(".deleted")).to_contain_text("This deal is deleted")
    expect(page.locator("h1")).to_have_text("Deal 2 · deleted")
    expect(page.locator(".history-list li").last).to_contain_text("deleted by Anna")
    expect(page.locator(".history-list li").last).to_contain_text("(reason: entered twice)")
    page.locator(".crumbs a").click()
    check_ledger(page, "skat", [corrected[0], *corrected[2:]], numbers=[1, *range(3, len(corrected) + 1)])
    page.goto(table_url)
    expect(page.locator("#entry .deal-head")).to_contain_text("Deal 5")  # 4 entered: the numbers go on after a gap

    page.goto(deal_url)
    page.get_by_role("button", name="Restore this deal").click()
    expect(page.locator("h1")).to_have_text("Deal 2")
    expect(page.locator(".history-list li").last).to_contain_text("Deal 2 restored by Anna")
    page.locator(".crumbs a").click()
    check_ledger(page, "skat", corrected)


def test_one_tap_saves_straight_from_typing_the_card_points(page: Page, live_server: Any) -> None:
    """The scorer types the points and taps Save at once, keyboard still open: the tap must save.

    Leaving the input and typing start previews just as the finger lands on the button; a preview
    must neither disable the button nor move it between touch-down and touch-up (it once did both).
    """
    start_night(page, live_server, game="skat", preset="isko", series="")
    games = [("Bernd", "70"), ("Clara", "45"), ("Dieter", "88"), ("Anna", "61"), ("Bernd", "95")]
    for number_, (declarer, points) in enumerate(games, start=1):
        choose_game(page, {"contract": "grand", "declarer": declarer})  # one tap in the grid of players and games
        tap_choice(page, "matadors", "with 1")
        field = page.locator("#id_card_points")
        field.click()
        field.press_sequentially(points)
        page.get_by_role("button", name="Save deal").click()  # no blur, no waiting for the preview
        expect(page.locator("#table-region .saved")).to_contain_text(f"Deal {number_} saved: {declarer}: Grand")
        # Counted first: while htmx settles the swap, the row saved before keeps its old class for 20 ms.
        saved = page.locator("table.latest-deals tr.deal-row.just-saved th.number")
        expect(saved).to_have_count(1)
        expect(saved).to_have_text(str(number_))
    assert Deal.objects.count() == len(games)


def test_a_save_without_connection_keeps_the_deal_on_the_phone_and_sends_it_later(page: Page, live_server: Any) -> None:
    """At a table with poor internet: the tap gets no answer, the deal goes into the phone's outbox as a pending
    row with everything typed, and is stored once the server answers again (issue 16; more in test_offline.py)."""
    start_night(page, live_server, game="skat", preset="isko", series="")
    choose_game(page, {"contract": "clubs", "declarer": "Bernd"})
    tap_choice(page, "matadors", "with 1")
    page.locator("#id_card_points").fill("70")
    expect(page.locator("#preview .outcome strong").first).to_have_text("Won")
    page.route("**/deals/new/", lambda route: route.abort("internetdisconnected"))
    page.get_by_role("button", name="Save deal").click()
    pending = page.locator("#outbox .outbox-rows li")
    expect(pending).to_have_count(1)
    expect(pending).to_contain_text("Deal 1")
    expect(pending).to_contain_text("Bernd: Clubs")
    expect(pending).to_contain_text("70")
    expect(page.locator("#table-region .saved")).to_contain_text("Deal 1 is kept on this phone")
    expect(page.locator("#id_card_points")).to_have_value("")  # the form is for the next deal
    assert Deal.objects.count() == 0
    expect(page.get_by_role("button", name="Send now")).to_be_visible()
    page.unroute("**/deals/new/")  # the next poll gets through, and the outbox is sent
    expect(pending).to_have_count(0)
    expect(page.locator("table.latest-deals tr.deal-row th.number")).to_have_text(["1"])
    assert Deal.objects.count() == 1


def test_without_javascript_a_kop_chain_and_a_ramsch_are_entered(page_without_js: Page, live_server: Any) -> None:
    """The chain of taps needs JavaScript; without it, one select per call in the order said does the same,
    and a Ramsch's taps and the rest of the card points work as plain form fields."""
    page = page_without_js
    kop = nights.start_night(game="kop", preset="classic", players=PLAYERS)
    page.goto(f"{live_server.url}/nights/{kop.pk}/tables/1/")
    expect(page.locator("#q-doublings [data-chain-add]").first).to_be_hidden()
    page.locator("#q-old label.tap").filter(has_text="Anna").click()
    page.locator("#q-old label.tap").filter(has_text="Clara").click()
    page.locator("#id_card_points").fill("60")
    page.get_by_label("Call 1").select_option(label="Bernd")
    page.get_by_label("Call 2").select_option(label="Anna")
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator(".saved")).to_contain_text("Deal 1 saved: Anna + Clara: Normal game · 2 doubled")
    assert Deal.objects.get().facts["doublings"] == [1, 0]

    skat = nights.start_night(game="skat", preset="classic", players=PLAYERS)
    page.goto(f"{live_server.url}/nights/{skat.pk}/tables/1/")
    tap_choice(page, "contract", "Ramsch")
    page.get_by_role("button", name="Update the form").click()
    page.locator("#id_points-1").fill("35")
    page.locator("#id_points-2").fill("85")
    page.locator("#q-no_trick label.tap").filter(has_text="Dieter").click()
    page.get_by_role("button", name="Update the form").click()
    expect(page.locator("#rest-points")).to_have_text("Dieter 0: the rest of 120")
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator(".saved")).to_contain_text("Deal 1 saved: Clara: Ramsch · lost 170")  # its loser named
    deal = Deal.objects.get(table__night=skat)
    assert deal.facts["points"] == [35, 85, 0, 0] and deal.result.scores == (0, -170, 0, 0)


def test_without_javascript_a_night_is_started_and_a_deal_saved_and_corrected(page_without_js: Page,
                                                                               live_server: Any) -> None:
    """htmx only enhances: with JavaScript off, plain forms start the night, save and correct a deal."""
    page = page_without_js
    page.goto(f"{live_server.url}/nights/new/")
    for position, name in enumerate(PLAYERS[:3]):
        page.get_by_label(f"Player {position + 1}", exact=True).fill(name)
    page.get_by_label("Players at the table").select_option("3")
    page.get_by_role("button", name="Update the form").click()
    expect(page.get_by_label("Player 3", exact=True)).to_have_value("Clara")
    page.get_by_role("button", name="Start the night").click()
    expect(page).to_have_url(re.compile(r"/nights/\d+/tables/1/$"))
    # Who declared what: one tap in the grid (its radio posts "clubs@1"; the form asks clubs' inputs already).
    page.locator("#q-contract label.tap").filter(has_text="Bernd: Clubs").click()
    tap_choice(page, "matadors", "with 1")
    page.locator("#id_card_points").fill("70")
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator(".saved")).to_contain_text("Deal 1 saved: Bernd: ")
    expect(page.locator("table.latest-deals tbody tr.deal-row.just-saved")).to_have_count(1)
    page.locator("table.latest-deals tbody tr.deal-row th.number a").click()
    page.locator("#id_card_points").fill("58")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator(".history-list")).to_contain_text("70 → 58")
    deal = Deal.objects.get()
    assert deal.facts["card_points"] == 58 and deal.verdict["won"] is False
