"""The cards as played attached to a card night's deal (issue 19, docs/PLAY.md "On a card night"): stored with
the deal for the record — the facts as entered stay what is scored — attached, replaced and removed from
the deal's page with the history keeping the cards before and after, refused with the field named when the
engine refuses the cards, and read back as the engine reads them: the replay, the finding on the play, and
where the cards disagree with the facts as entered."""

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scorekeep.models import CardNight, Deal, DealRevision
from scorekeep.nights import writes as nights
from scorekeep.rules import IllegalDeal, Verdict, judge
from scorekeep.rules import play as played
from tests.roles import join

PLAYERS = ["Anna", "Bernd", "Clara", "Dieter"]
# docs/PLAY.md's Kop deal: dealt by Dieter (seat 3), the old side Anna and Clara (they hold the black queens).
KOP_TRICKS = [["S10", "HJ", "SQ", "SA"], ["DQ", "H10", "SJ", "HA"], ["DA", "HQ", "D10", "CQ"],
              ["CJ", "CA", "DJ", "C10"]]
# The same deal where Dieter threw C10 on a trump lead while he held a trump (HA).
KOP_REVOKE = [["S10", "HJ", "SQ", "SA"], ["DQ", "C10", "CQ", "HA"], ["DA", "DJ", "H10", "SJ"],
              ["D10", "CJ", "CA", "HQ"]]
KOP_FACTS = {"contract": "normal", "old": [0, 2], "card_points": 78}


def typed(tricks: list[list[str]]) -> str:
    return "\n".join(" ".join(trick) for trick in tricks)


@pytest.fixture
def kop(db: None, host: Any) -> CardNight:
    night = nights.start_night(game="kop", preset="classic", players=PLAYERS, first_dealer=3, host=host)
    nights.enter_deal(night.tables.get(), dict(KOP_FACTS), by="Anna")
    return night


def deal_of(night: CardNight) -> Deal:
    return Deal.objects.get(table__night=night, sequence=1)


def url(night: CardNight, name: str = "deal-play") -> str:
    return reverse(name, args=[night.pk, 1, 1])


def attach(client: Client, night: CardNight, tricks: str, **more: str) -> Any:
    return client.post(url(night), {"play-tricks": tricks, "by": "Clara", "version": str(deal_of(night).version),
                                    **more})


def test_a_legal_play_is_attached_for_the_record_and_the_page_replays_it(client: Client, kop: CardNight) -> None:
    before = deal_of(kop)
    response = attach(client, kop, typed(KOP_TRICKS))
    assert response.status_code == 303 and response["Location"].endswith("#played")
    deal = deal_of(kop)
    assert deal.play == {"tricks": KOP_TRICKS}
    assert deal.facts == before.facts and deal.verdict == before.verdict  # the list does not change
    html = client.get(url(kop, "deal")).content.decode()
    assert "Every card follows the rules of play" in html
    assert "The cards agree with the facts as entered." in html
    assert html.count("taken by ") == 4
    assert "taken by Clara, 26 points" in html  # the first trick: Clara's SQ
    assert "so far: old side 26, young side 0" in html or "so far: declaring side 26, defending side 0" in html
    assert 'id="pick-CQ"' in html and 'data-for="id_play-tricks"' in html  # the picker, to replace them
    revision = deal.revisions.get(kind=DealRevision.Kind.PLAY)
    assert revision.old["play"] is None and revision.new["play"] == {"tricks": KOP_TRICKS}
    assert revision.by == "Clara"
    assert "given its played cards by Clara" in html


def test_a_revoke_is_attached_and_shown_as_the_engines_finding(client: Client, kop: CardNight) -> None:
    assert attach(client, kop, typed(KOP_REVOKE)).status_code == 303
    assert deal_of(kop).play == {"tricks": KOP_REVOKE}
    html = client.get(url(kop, "deal")).content.decode()
    assert 'class="finding broken"' in html
    assert "Trick 2: Dieter played ♣10 on ♦Q led, but must follow trumps when a trump is led" in html
    assert '<li class="broken">' in html


def test_facts_the_cards_contradict_are_reported(client: Client, kop: CardNight) -> None:
    deal = deal_of(kop)
    nights.correct_deal(deal, {**KOP_FACTS, "card_points": 80}, by="Bernd")
    attach(client, kop, typed(KOP_TRICKS))
    html = client.get(url(kop, "deal")).content.decode()
    assert "entered 80 card points; the tricks hold 78" in html
    assert "The cards agree" not in html
    assert deal_of(kop).facts["card_points"] == 80  # the facts as entered stay, and are scored


def test_a_refused_play_names_its_field_and_stores_nothing(client: Client, kop: CardNight) -> None:
    twice = [list(trick) for trick in KOP_TRICKS]
    twice[1][1] = "S10"
    before = (deal_of(kop).version, DealRevision.objects.count())
    response = attach(client, kop, typed(twice))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Trick 2, card 2: S10 was played already (trick 1)" in html
    assert 'id="attach" open' in html and "S10 H10" not in html or "S10" in html  # what was typed stays
    assert (deal_of(kop).version, DealRevision.objects.count()) == before and deal_of(kop).play is None
    short = attach(client, kop, typed(KOP_TRICKS[:2]) + "\nDA HQ D10")
    assert "Trick 3: a trick holds 4 cards" in short.content.decode()
    assert deal_of(kop).play is None
    empty = attach(client, kop, "")
    assert "Enter the cards of the tricks" in empty.content.decode() and deal_of(kop).play is None


def test_the_engine_refuses_it_directly_too(kop: CardNight) -> None:
    with pytest.raises(IllegalDeal) as err:
        nights.attach_play(deal_of(kop), {"tricks": [["S10", "S10", "SQ", "SA"]]})
    assert err.value.field.startswith("deal.play")
    assert deal_of(kop).play is None


def test_replacing_and_removing_keep_the_history(client: Client, kop: CardNight) -> None:
    attach(client, kop, typed(KOP_REVOKE))
    attach(client, kop, typed(KOP_TRICKS), reason="the revoke was a typo")
    assert deal_of(kop).play == {"tricks": KOP_TRICKS}
    response = client.post(url(kop), {"remove": "1", "play-tricks": typed(KOP_TRICKS), "by": "Anna",
                                      "version": str(deal_of(kop).version)})
    assert response.status_code == 303
    deal = deal_of(kop)
    assert deal.play is None and deal.version == 4
    revisions = list(deal.revisions.filter(kind=DealRevision.Kind.PLAY))
    assert [(r.old["play"], r.new["play"]) for r in revisions] == [
        (None, {"tricks": KOP_REVOKE}), ({"tricks": KOP_REVOKE}, {"tricks": KOP_TRICKS}),
        ({"tricks": KOP_TRICKS}, None)]
    html = client.get(url(kop, "deal")).content.decode()
    assert "given other played cards by Clara" in html and "(reason: the revoke was a typo)" in html
    assert "cleared of its played cards by Anna" in html
    assert "No cards attached." in html


def test_a_form_from_before_another_change_is_refused_as_stale(client: Client, kop: CardNight) -> None:
    old_version = deal_of(kop).version
    attach(client, kop, typed(KOP_TRICKS))
    response = client.post(url(kop), {"play-tricks": typed(KOP_REVOKE), "version": str(old_version)})
    assert response.status_code == 200
    assert "The played cards were changed meanwhile by Clara." in response.content.decode()
    assert "Your cards were not attached." in response.content.decode()
    assert deal_of(kop).play == {"tricks": KOP_TRICKS}


def test_the_same_request_sent_twice_is_stored_once(client: Client, kop: CardNight) -> None:
    for _ in range(2):
        attach(client, kop, typed(KOP_TRICKS), key="attach-key-12345")
    assert deal_of(kop).revisions.filter(kind=DealRevision.Kind.PLAY).count() == 1


def test_a_scorer_attaches_and_a_viewer_only_sees(kop: CardNight) -> None:
    viewer, scorer = join(kop.viewer_token), join(kop.scorer_token)
    assert viewer.post(url(kop), {"play-tricks": typed(KOP_TRICKS)}).status_code == 403
    assert deal_of(kop).play is None
    assert "Attach the played cards" not in viewer.get(url(kop, "deal")).content.decode()
    assert "Attach the played cards" in scorer.get(url(kop, "deal")).content.decode()
    assert scorer.post(url(kop), {"play-tricks": typed(KOP_TRICKS), "by": "Bernd"}).status_code == 303
    html = viewer.get(url(kop, "deal")).content.decode()
    assert "Every card follows the rules of play" in html and 'action="' + url(kop) not in html


def test_cards_that_no_longer_fit_a_corrected_deal_are_said_not_crashed(client: Client, kop: CardNight) -> None:
    attach(client, kop, typed(KOP_TRICKS))
    nights.correct_deal(deal_of(kop), {**KOP_FACTS, "old": [0, 1]}, by="Bernd")
    response = client.get(url(kop, "deal"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "The cards attached no longer fit the deal as it now stands:" in html
    assert "the two black queens" in html


def test_a_deleted_deal_takes_no_cards(client: Client, kop: CardNight) -> None:
    nights.delete_deal(deal_of(kop), by="Bernd")
    response = attach(client, kop, typed(KOP_TRICKS))
    assert response.status_code == 200 and "deleted meanwhile by Bernd" in response.content.decode()
    assert deal_of(kop).play is None


def test_the_page_speaks_german_and_japanese(client: Client, kop: CardNight) -> None:
    attach(client, kop, typed(KOP_REVOKE))
    german = client.get(url(kop, "deal"), headers={"accept-language": "de"}).content.decode()
    japanese = client.get(url(kop, "deal"), headers={"accept-language": "ja"}).content.decode()
    for html in (german, japanese):
        assert "The cards as played" not in html and "For the record" not in html


def test_the_nights_json_carries_the_cards_and_the_printout_marks_the_deal(client: Client, kop: CardNight) -> None:
    nights.enter_deal(kop.tables.get(), dict(KOP_FACTS), by="Bernd")
    attach(client, kop, typed(KOP_TRICKS))
    tables = client.get(reverse("night-json", args=[kop.pk])).json()["tables"]
    assert [deal["play"] for deal in tables[0]["deals"]] == [{"tricks": KOP_TRICKS}, None]
    html = client.get(reverse("night-print", args=[kop.pk])).content.decode()
    assert html.count('class="mark played-mark"') == 1


def test_the_engine_says_the_finding_and_the_disagreements_apart_from_the_scoring() -> None:
    def findings(tricks: list[list[str]], card_points: int) -> played.Findings:
        verdict = judge({"game": "kop", "rules": {"preset": "classic"}, "dealer": 3,
                         "deal": {**KOP_FACTS, "card_points": card_points, "play": {"tricks": tricks}}})
        assert isinstance(verdict, Verdict)
        found = played.findings(verdict)
        assert found is not None
        return found

    legal = findings(KOP_TRICKS, 78)
    assert legal.legal and legal.agree and str(legal.finding) == "Every card follows the rules of play"
    revoke = findings(KOP_REVOKE, 80)
    assert not revoke.legal and str(revoke.finding).startswith("Trick 2: seat 3 played ♣10 on ♦Q led")
    assert [str(step) for step in revoke.disagreements] == ["entered 80 card points; the tricks hold 52"]
    plain = judge({"game": "kop", "rules": {"preset": "classic"}, "dealer": 3, "deal": dict(KOP_FACTS)})
    assert isinstance(plain, Verdict) and played.findings(plain) is None


# Issue 28: a Fipsen deal whose bid of 2 was made at trick 3 after trick 1 was lost, and one trick played on.
FIPSEN_PLAYED_ON = [["C8", "C9", "HQ", "CK"], ["SK", "S8", "SA", "S9"], ["SQ", "SJ", "S10", "CQ"],
                    ["H8", "H7", "H10", "HK"]]


def test_a_play_cut_short_is_not_called_legal_and_the_tricks_after_the_end_are_marked(client: Client, db: None,
                                                                                        host: Any) -> None:
    night = nights.start_night(game="fipsen", preset="classic", players=PLAYERS, first_dealer=3, host=host)
    nights.enter_deal(night.tables.get(), {"contract": "tricks", "declarer": 0, "bid": 2, "tricks_taken": 2},
                      by="Anna")
    response = attach(client, night, typed(FIPSEN_PLAYED_ON), **{"play-trump": "H"})
    assert response.status_code == 303, response.content.decode()[:2000]
    html = client.get(url(night, "deal")).content.decode()
    assert "Every card follows the rules of play" not in html
    assert 'class="finding unchecked"' in html
    assert "No rule break in the cards given; without the hands a card not followed cannot be seen" in html
    assert "The cards agree with the facts as entered." in html  # 2 tricks, no Durch: as the table entered it
    assert html.count('<li class="after-end">') == 1
    assert "Played after the deal ended: it does not count." in html
    german = client.get(url(night, "deal"), headers={"accept-language": "de"}).content.decode()
    assert "Kein Regelverstoß in den angegebenen Karten" in german
    assert "Nach dem Ende des Spiels gespielt: zählt nicht." in german
