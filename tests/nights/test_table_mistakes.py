"""What a real table does wrong on the entry form (issue 28): a refused entry, a switch of game, letters typed
into a number. The page re-rendered for the new game carries only what that game asks with the same meaning
(the engine's description says which), so a save sends exactly what the page shows; the numbers are checked
against the engine's description of the input as they are typed, and the server says the same."""

import re
from typing import Any

import pytest
from django.test import Client

from scorekeep.models import CardNight, Deal
from scorekeep.nights import writes as nights

FOUR = ["Anna", "Bernd", "Clara", "Dieter"]
HX = {"HX-Request": "true"}


def url(night: CardNight, tail: str = "") -> str:
    return f"/nights/{night.pk}/tables/1/{tail}"


def html(response: Any) -> str:
    return response.content.decode()


def question(page: str, key: str) -> str:
    """One question of the entry form (its fieldset or div), as rendered."""
    start = page.index(f'id="q-{key}"')
    ends = [end for end in (page.find("</fieldset>", start), page.find('class="errors"', start)) if end > 0]
    return page[start:min(ends)]


def ticked(page: str, key: str) -> list[str]:
    """The values of the inputs of a question that are ticked or tapped (not a tap that says "none")."""
    return [value for value in re.findall(r'value="([^"]*)"[^>]*checked', question(page, key)) if value]


@pytest.fixture
def kop(db: None) -> CardNight:
    return nights.start_night(game="kop", preset="classic", players=FOUR)


def test_a_refused_kop_deal_then_another_game_drops_the_old_side_ticked_for_the_first(client: Client,
                                                                                       kop: CardNight) -> None:
    """Issue 28's table: a normal game with Anna and Bernd ticked and 30 is refused; the scorer taps Wesele.
    The black-queen holders are not the wesele pair: the form for Wesele comes back with nobody ticked."""
    refused = html(client.post(url(kop, "deals/new/"), {"contract": "normal", "old": ["0", "1"], "card_points": "30"},
                               headers=HX))
    assert Deal.objects.count() == 0 and "cannot be 30" in refused
    assert 'name="inputs_for" value="normal"' in refused and ticked(refused, "old") == ["0", "1"]
    # htmx re-renders the entry with everything the form holds, the new game among it.
    switched = html(client.get(url(kop, "deals/new/"), {"contract": "wesele", "inputs_for": "normal",
                                                        "old": ["0", "1"], "card_points": "30"},
                               headers={**HX, "HX-Target": "entry"}))
    assert 'name="inputs_for" value="wesele"' in switched
    assert ticked(switched, "old") == []
    assert 'value="30"' in question(switched, "card_points")  # the old side's card points mean the same
    # A lone game after it: the pair is no lone player either.
    lone = html(client.get(url(kop, "deals/new/"), {"contract": "zolo_du", "inputs_for": "wesele",
                                                    "old": ["2", "3"]}, headers={**HX, "HX-Target": "entry"}))
    assert ticked(lone, "old") == []
    # Between two lone games the lone player stays ticked: he is the same player.
    kept = html(client.get(url(kop, "deals/new/"), {"contract": "zolo", "inputs_for": "zolo_du", "old": ["2"]},
                           headers={**HX, "HX-Target": "entry"}))
    assert ticked(kept, "old") == ["2"]


def test_without_javascript_the_update_button_gives_the_new_games_form_and_a_save_on_the_old_one_stores_nothing(
        client: Client, kop: CardNight) -> None:
    """Without JavaScript the game is switched by "Update the form"; a Save straight after tapping another game
    (the page still showing the first game's inputs) stores nothing and shows the new game's form."""
    updated = html(client.post(url(kop, "deals/new/"), {"contract": "zolo_du", "inputs_for": "normal",
                                                        "old": ["0", "1"], "card_points": "60", "preview": "1"}))
    assert ticked(updated, "old") == [] and 'name="inputs_for" value="zolo_du"' in updated
    saved = html(client.post(url(kop, "deals/new/"), {"contract": "zolo_du", "inputs_for": "normal",
                                                      "old": ["1"], "card_points": "60"}))
    assert Deal.objects.count() == 0
    assert "The form now asks what Zolo du needs: check it, then save again." in saved
    assert ticked(saved, "old") == []
    # Saved again from the form for Zolo du: stored as shown.
    client.post(url(kop, "deals/new/"), {"contract": "zolo_du", "inputs_for": "zolo_du", "old": ["1"],
                                         "card_points": "104"})
    deal = Deal.objects.get()
    assert deal.facts["contract"] == "zolo_du" and [deal.seating[s] for s in deal.facts["old"]] == [1]


def test_skat_a_switch_of_game_keeps_what_means_the_same_and_drops_a_choice_the_new_game_has_not(
        client: Client, db: None) -> None:
    """Skat at four (Anna deals and sits out; three play, so the game is tapped in the declarer's row): from a
    refused Clubs to a Grand in Clara's row. The bid, the card points and the matadors mean the same ("with 2"
    is the same two jacks); "with 6" is no Grand's: nothing is tapped, rather than a value the page hides."""
    skat = nights.start_night(game="skat", preset="classic", players=FOUR, series_length=36)
    refused = html(client.post(url(skat, "deals/new/"), {"contract": "clubs@1", "bid": "20", "matadors": "2",
                                                        "card_points": "130"}, headers=HX))
    assert Deal.objects.count() == 0 and 'name="inputs_for" value="clubs"' in refused
    switched = html(client.get(url(skat, "deals/new/"), {"contract": "grand@2", "inputs_for": "clubs", "bid": "20",
                                                         "matadors": "2", "card_points": "70"},
                               headers={**HX, "HX-Target": "entry"}))
    assert ticked(switched, "contract") == ["grand@2"]  # the declarer comes with the tap
    assert ticked(switched, "bid") == ["20"] and 'value="70"' in question(switched, "card_points")
    assert ticked(switched, "matadors") == ["2"]
    six = html(client.get(url(skat, "deals/new/"), {"contract": "grand@2", "inputs_for": "clubs", "matadors": "6"},
                          headers={**HX, "HX-Target": "entry"}))
    assert ticked(six, "matadors") == [] and 'id="err-matadors" aria-live="polite"></div>' in six


def test_without_javascript_a_game_that_asks_what_the_page_showed_is_saved_at_once(client: Client, db: None) -> None:
    """A page showing Clubs (the form's first game), Hearts tapped and saved without JavaScript: Hearts asks
    exactly what Clubs asked, so the deal is stored at the first save. A Grand with "with 6" is not: the page
    showed a choice Grand has not, so the form comes back for Grand. No game tapped at all (a tap cleared
    when the deal moved on): the form says to tap the game, never that a game nobody chose needs checking."""
    skat = nights.start_night(game="skat", preset="classic", players=FOUR, series_length=36)
    hearts = {"contract": "hearts@1", "inputs_for": "clubs", "bid": "20", "matadors": "2", "card_points": "70"}
    assert client.post(url(skat, "deals/new/"), hearts).status_code == 303
    assert Deal.objects.get().facts["contract"] == "hearts"
    six = html(client.post(url(skat, "deals/new/"), {**hearts, "contract": "grand@1", "matadors": "6"}))
    assert "The form now asks what Grand needs" in six and Deal.objects.count() == 1
    untapped = html(client.post(url(skat, "deals/new/"), {**hearts, "contract": "", "inputs_for": "grand"}))
    assert "The form now asks" not in untapped and Deal.objects.count() == 1
    assert "tap the game in the declarer" in untapped.split('id="err-declarer"')[1].split("</div>")[0]


def test_schafkopf_a_switch_of_game_keeps_the_trump_suit_and_drops_a_partner_of_another_game(
        client: Client, db: None) -> None:
    """A Sauspiel's partner held the called ace; a Hochzeit's accepted the Hochzeit: not the same player."""
    schafkopf = nights.start_night(game="schafkopf", preset="bsv", players=FOUR)
    switched = html(client.get(url(schafkopf, "deals/new/"), {"contract": "farbwenz", "inputs_for": "solo",
                                                              "declarer": "1", "trump": "H", "card_points": "70"},
                               headers={**HX, "HX-Target": "entry"}))
    assert ticked(switched, "declarer") == ["1"] and ticked(switched, "trump") == ["H"]
    wedding = html(client.get(url(schafkopf, "deals/new/"), {"contract": "hochzeit", "inputs_for": "sauspiel",
                                                             "declarer": "1", "partner": "2", "card_points": "70"},
                              headers={**HX, "HX-Target": "entry"}))
    assert ticked(wedding, "declarer") == ["1"] and ticked(wedding, "partner") == []
    assert 'value="70"' in question(wedding, "card_points")


def test_letters_in_a_number_say_not_a_number(client: Client, kop: CardNight) -> None:
    """A number typed with a letter reaches the server as typed (a text input with a numeric keyboard, not
    type=number, which dropped the letters) and is refused as not a number, at the input."""
    page = html(client.get(url(kop)))
    points = question(page, "card_points")
    assert 'type="text"' in points and 'inputmode="numeric"' in points and 'pattern="[0-9]*"' in points
    assert 'data-impossible="1 2 3 4 5 6 7 13' in points and 'data-say-not-number="not a number' in page
    saved = html(client.post(url(kop, "deals/new/"), {"contract": "normal", "old": ["0", "1"], "card_points": "6o"}))
    slot = saved.split('id="err-card_points"')[1].split("</div>")[0]
    assert "not a number: a whole number from 0 to 104" in slot and "needed" not in slot
    assert Deal.objects.count() == 0


def test_a_total_no_side_can_make_is_flagged_at_the_field_before_anything_else_is_tapped(client: Client,
                                                                                        kop: CardNight) -> None:
    """The preview of a Kop deal with 30 typed and nobody ticked yet already says 30 cannot be."""
    preview = html(client.get(url(kop, "deals/new/"), {"contract": "normal", "inputs_for": "normal",
                                                       "card_points": "30"}, headers={**HX, "HX-Target": "preview"}))
    slot = preview.split('id="err-card_points"')[1].split("</div>")[0]
    assert "cannot be 30: no side can make that total; the nearest possible totals are 29 and 32" in slot


def test_a_surrendered_kieker_with_tricks_is_refused_in_the_games_words(client: Client, db: None) -> None:
    fipsen = nights.start_night(game="fipsen", preset="classic", players=FOUR)
    saved = html(client.post(url(fipsen, "deals/new/"), {"contract": "kieker", "declarer": "1", "surrendered": "on",
                                                         "tricks_taken": "2"}))
    assert Deal.objects.count() == 0
    slot = saved.split('id="err-tricks_taken"')[1].split("</div>")[0]
    assert "leave the declarer&#x27;s tricks empty, or untick “surrendered”" in slot
    assert "tricks_taken" not in slot and "surrendered false" not in slot
