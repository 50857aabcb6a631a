"""The dispute page with the cards as played (issue 19, docs/PLAY.md): without JavaScript the tricks are
typed as codes, one trick a line; the page shows each trick's cards and winner, the running points, the
first broken rule, and the verdict. The card picker (static/js/play.js) only types into the same field."""

from urllib.parse import urlencode

import pytest
from django.test import Client

from scorekeep.rules import adjudicate

URL = "/adjudicate/"
KOP_TRICKS = [["S10", "HJ", "SQ", "SA"], ["DQ", "H10", "SJ", "HA"], ["DA", "HQ", "D10", "CQ"],
              ["CJ", "CA", "DJ", "C10"]]
KOP = {"game": "kop", "preset": "classic", "players": "4", "dealer": "3", "contract": "normal", "old": ["0", "2"]}


def page(client: Client, values: dict, **headers: str) -> str:
    response = client.get(URL + "?" + urlencode(values, doseq=True), headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def typed(tricks: list[list[str]]) -> str:
    return "\n".join(" ".join(trick) for trick in tricks)


def test_the_page_offers_the_played_cards_and_a_picker_in_the_games_pack(client: Client) -> None:
    html = page(client, {"game": "schafkopf"})
    assert 'name="play-tricks"' in html
    assert 'class="card-picker" data-for="id_play-tricks" hidden' in html  # shown by play.js only
    # The German pack: each card's name in the game's words for a screen reader, its face in short ("♣O").
    assert 'data-card="CQ" aria-label="Eichel Ober">♣O<' in html and ">Eichel<" in html
    assert 'data-trick-size="4"' in html
    skat = page(client, {"game": "skat"})
    assert 'name="play-skat"' in skat and 'data-trick-size="3"' in skat and "♣ Clubs" in skat
    kop = page(client, {"game": "kop"})
    assert 'data-card="CA"' in kop and 'data-card="C9"' not in kop  # Kop's 16 cards
    fipsen = page(client, {"game": "fipsen"})
    assert 'name="play-trump"' in fipsen and 'data-card="D7"' in fipsen and 'data-card="D8"' not in fipsen


def test_typed_tricks_give_the_verdict_the_replay_and_the_disagreement(client: Client) -> None:
    html = page(client, {**KOP, "card_points": "82", "play-tricks": typed(KOP_TRICKS), "show": "1"})
    expected = adjudicate({"game": "kop", "rules": {"preset": "classic"}, "dealer": 3,
                           "deal": {"contract": "normal", "old": [0, 2], "card_points": 82,
                                    "play": {"tricks": KOP_TRICKS}}})
    assert expected["won"] is True
    assert "Trick by trick" in html
    assert html.count('<li class="broken"') == 0
    assert "taken by Seat 3, 26 points" in html  # seat 2 in the contract is "Seat 3" on the page
    assert "so far: declaring side 26, defending side 0" in html
    assert "entered 82 card points; the tricks hold 78" in html
    assert "Every card follows the rules of play" in html


def test_the_replay_names_kops_sides_as_its_table_does(client: Client) -> None:
    values = {**KOP, "play-tricks": typed(KOP_TRICKS), "show": "1"}
    assert "ここまで：老人チーム 26、若者チーム 0" in page(client, values, accept_language="ja")
    assert "bisher: Partei der Alten 26, Partei der Jungen 0" in page(client, values, accept_language="de")
    broken = [["S10", "HJ", "SQ", "SA"], ["DQ", "C10", "CQ", "HA"], ["DA", "DJ", "H10", "SJ"],
              ["D10", "CJ", "CA", "HQ"]]  # the young side's C10 on a trump led: the consequence lines too
    html = page(client, {**KOP, "play-tricks": typed(broken), "show": "1"}, accept_language="ja")
    assert "カードが出たとおりなら：老人チーム" in html and "デクレアラー側" not in html
    # Other games keep the declaring side's words (Schafkopf's page: デクレアラー側).
    assert "老人チーム" not in page(client, {"game": "schafkopf"}, accept_language="ja")


def test_a_broken_rule_is_marked_at_its_trick_with_the_rule(client: Client) -> None:
    tricks = [["S10", "HJ", "SQ", "SA"], ["DQ", "C10", "CQ", "HA"], ["DA", "DJ", "H10", "SJ"],
              ["D10", "CJ", "CA", "HQ"]]
    html = page(client, {**KOP, "play-tricks": typed(tricks), "show": "1"})
    assert '<li class="broken">' in html
    assert "♣10: must follow trumps when a trump is led" in html  # the card as the table writes it
    assert "The rule page does not say what a broken rule of play costs" in html


def test_a_card_twice_is_refused_at_the_tricks_input_naming_trick_and_card(client: Client) -> None:
    tricks = [list(t) for t in KOP_TRICKS]
    tricks[1][0] = "S10"
    html = page(client, {**KOP, "play-tricks": typed(tricks), "show": "1"})
    assert 'id="err-play-tricks"' in html
    assert "Trick 2, card 1: S10 was played already (trick 1)" in html


def test_lowercase_and_commas_are_read_and_the_htmx_answer_is_the_verdict_only(client: Client) -> None:
    text = "\n".join(", ".join(card.lower() for card in trick) for trick in KOP_TRICKS)
    html = page(client, {**KOP, "play-tricks": text}, **{"HX-Request": "true", "HX-Target": "verdict"})
    assert html.lstrip().startswith('<section id="verdict"')
    assert "Trick by trick" in html


@pytest.mark.parametrize("hands", ["x: H7", "9: H7"])
def test_a_hands_line_that_cannot_be_read_says_how_to_write_it(client: Client, hands: str) -> None:
    html = page(client, {**KOP, "play-tricks": typed(KOP_TRICKS[:3]), "play-hands": hands, "show": "1"})
    assert "write one seat a line: its number (1 to 4), a colon and its cards" in html
