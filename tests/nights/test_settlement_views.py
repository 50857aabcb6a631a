"""The settlement page (scorekeep/nights/settlement_views.py) and the chart fragment (templates/nights/_chart.html).

The transfers are read back from the page as a person reads them ("Anna pays Bernd €1.10") and must
pay each player's balance to the cent; the balances are computed here from the ledger's totals, apart
from the settlement module. The options form saves (303), changes the transfers, and a refused input
comes back at its field with what was typed. Who may do what: viewers read, only the host changes
options, strangers get 404.
"""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client

from scorekeep.clubs import clubs
from scorekeep.models import CardNight, NightRevision, Player
from scorekeep.nights import ledger
from scorekeep.nights import writes as nights
from scorekeep.nights.forms import SettlementForm

TRANSFER = re.compile(r'<li class="transfer">(.*?)</li>', re.S)
SENTENCE = re.compile(r"(.+) pays (.+) ([\u2212-]?)€(\d+)\.(\d\d)")


def url(night: CardNight) -> str:
    return f"/nights/{night.pk}/settlement/"


def transfers(html: bytes) -> list[tuple[str, str, int]]:
    """The transfers as the page writes them: (payer, payee, cents)."""
    out = []
    for item in TRANSFER.findall(html.decode()):
        match = SENTENCE.fullmatch(unescape(item).strip())
        assert match, item
        payer, payee, sign, whole, cents = match.groups()
        assert not sign, "a transfer is never negative"
        out.append((payer, payee, int(whole) * 100 + int(cents)))
    return out


def received(paid: list[tuple[str, str, int]]) -> dict[str, int]:
    """What each player ends up with: received minus paid (players without a transfer left out)."""
    net: dict[str, int] = {}
    for payer, payee, cents in paid:
        net[payer] = net.get(payer, 0) - cents
        net[payee] = net.get(payee, 0) + cents
    return {name: cents for name, cents in net.items() if cents}


def totals(night: CardNight) -> dict[str, int]:
    sheet = ledger.build(night.tables.get())
    return dict(zip(sheet.names, sheet.totals, strict=True))


def error_at(html: bytes, field: str) -> str:
    match = re.search(rf'<div class="errors" id="err-{field}"[^>]*>(.*?)</div>', html.decode(), re.S)
    assert match, f"no messages for {field}"
    return unescape(re.sub(r"<[^>]+>", " ", match.group(1))).strip()


def value_of(html: bytes, name: str) -> str | None:
    match = re.search(rf'<input[^>]*name="{name}"[^>]*>', html.decode())
    assert match, f"no input {name}"
    value = re.search(r'value="([^"]*)"', match.group(0))
    return unescape(value.group(1)) if value else None


def options(night: CardNight, **changes: str) -> dict[str, str]:
    """What a browser sends from the form as first shown for the night, with `changes` typed in (inputs the
    night's game does not have are ignored by the form)."""
    data = {"rate": "", "entry_fee": "", "lost_game_fee": "", "prize_split": ""}
    data.update({name: str(value) for name, value in SettlementForm.data_of(night).items()})
    data.update(changes)
    return data


# --- every demo night ----------------------------------------------------------------------------

def test_schafkopf_settles_at_once_in_cents_as_they_stand(client: Any, demo: dict[str, CardNight]) -> None:
    night = demo["schafkopf"]
    response = client.get(url(night))
    assert response.status_code == 200
    paid = transfers(response.content)
    assert paid, "the demo night has winners and losers"
    # Step 10 by default; the demo's amounts are whole tens of cents, so nothing is rounded away.
    assert received(paid) == {name: total for name, total in totals(night).items() if total}
    assert "fewest that settle the night" in response.content.decode()
    assert "Balances are rounded to €0.10" in response.content.decode()


@pytest.mark.parametrize("game", ["skat", "kop", "fipsen"])
def test_a_points_night_is_not_played_for_money_until_the_host_gives_a_rate(
        client: Any, demo: dict[str, CardNight], game: str) -> None:
    night = demo[game]
    page = client.get(url(night)).content.decode()
    assert "not played for money yet" in page
    assert 'class="transfer"' not in page
    assert 'name="rate"' in page  # the host's form to set one


@pytest.mark.parametrize("game", ["skat", "fipsen"])
def test_a_list_settles_each_pays_each_the_difference(client: Any, demo: dict[str, CardNight], game: str) -> None:
    night = demo[game]
    response = client.post(url(night), options(night, rate="0.01", step="1"))
    assert response.status_code == 303 and response["Location"] == url(night)
    night.refresh_from_db()
    assert night.settlement["rate"] == "1" and night.settlement["step"] == 1
    points = totals(night)
    n, table_sum = len(points), sum(points.values())
    expected = {name: n * p - table_sum for name, p in points.items() if n * p != table_sum}
    page = client.get(url(night)).content
    assert received(transfers(page)) == expected
    assert len(transfers(page)) <= len(expected) - 1


def test_kop_small_points_are_money_as_they_stand(client: Any, demo: dict[str, CardNight]) -> None:
    night = demo["kop"]
    assert client.post(url(night), options(night, rate="0.05", step="5")).status_code == 303
    expected = {name: 5 * total for name, total in totals(night).items() if total}
    assert received(transfers(client.get(url(night)).content)) == expected


def test_the_options_form_saves_and_changes_the_transfers(client: Any, demo: dict[str, CardNight]) -> None:
    night = demo["skat"]
    client.post(url(night), options(night, rate="0.01", step="1"))
    cheap = received(transfers(client.get(url(night)).content))
    response = client.post(url(night), options(night, rate="0,02", step="1"), follow=True)
    assert "Settlement options saved." in response.content.decode()
    dear = received(transfers(response.content))
    assert dear == {name: 2 * cents for name, cents in cheap.items()}
    revision = NightRevision.objects.filter(night=night).latest("at", "id")
    assert revision.old["settlement"]["rate"] == "1" and revision.new["settlement"]["rate"] == "2"
    # What was saved is what the form shows next time, in the currency's units.
    assert value_of(response.content, "rate") == "0.02"


def test_tournament_extras_go_into_the_pot_and_out_by_placing(client: Any, demo: dict[str, CardNight]) -> None:
    night = demo["skat"]
    response = client.post(url(night), options(night, rate="0.01", entry_fee="5", lost_game_fee="0.50",
                                               prize_split="50/30/20", step="1"))
    assert response.status_code == 303
    night.refresh_from_db()
    assert night.settlement == {"rate": "1", "basis": "list", "step": 1, "entry_fee": 500, "lost_game_fee": 50,
                                "prize_split": [50, 30, 20]}
    page = client.get(url(night))
    sheet = ledger.build(night.tables.get())
    pot = 500 * 4 + 50 * sum(sheet.lost)
    assert f"The pot, €{pot // 100}.{pot % 100:02d}, goes by the final placing: 50/30/20 %." in page.content.decode()
    # Points money + prizes − fees, computed here: list points place the players (no ties in the demo).
    points = dict(zip(sheet.names, sheet.totals, strict=True))
    lost = dict(zip(sheet.names, sheet.lost, strict=True))
    order = sorted(points, key=lambda name: -points[name])
    prize = dict(zip(order, [pot * 50 // 100, pot * 30 // 100, pot * 20 // 100, 0], strict=True))
    expected = {name: 4 * points[name] - sum(points.values()) - 500 - 50 * lost[name] + prize[name]
                for name in points}
    assert received(transfers(page.content)) == {name: cents for name, cents in expected.items() if cents}


def test_a_player_on_the_performance_settles_on_the_seeger_fabian_sum(client: Any, demo: dict[str, CardNight]) -> None:
    night = demo["skat"]
    client.post(url(night), options(night, rate="0.01", basis="performance", step="1"))
    sheet = ledger.build(night.tables.get())
    performance = dict(zip(sheet.names, sheet.performance, strict=True))
    expected = {name: 4 * p - sum(performance.values()) for name, p in performance.items()}
    assert received(transfers(client.get(url(night)).content)) == {k: v for k, v in expected.items() if v}


def test_rounding_to_a_step_keeps_every_balance_within_a_step(client: Any, demo: dict[str, CardNight]) -> None:
    night = demo["skat"]
    client.post(url(night), options(night, rate="0.013", step="50"))
    page = client.get(url(night)).content
    points = totals(night)
    paid = received(transfers(page))
    for name, p in points.items():
        exact = 1.3 * (4 * p - sum(points.values()))
        assert paid.get(name, 0) % 50 == 0
        assert abs(paid.get(name, 0) - exact) < 50
    assert "Balances are rounded to €0.50" in page.decode()
    assert "before rounding" in page.decode()


def test_a_points_night_can_be_settled_in_another_currency(client: Any, demo: dict[str, CardNight]) -> None:
    night = demo["fipsen"]
    assert client.post(url(night), options(night, rate="0.10", currency="chf", step="100")).status_code == 303
    night.refresh_from_db()
    assert night.currency == "CHF" and night.settlement == {"rate": "10", "step": 100}
    page = unescape(client.get(url(night)).content.decode())
    assert re.search(r'<li class="transfer">\w+ pays \w+ \d+\.00\u00a0CHF</li>', page)
    assert "Balances are rounded to 1.00\u00a0CHF" in page


def test_a_night_without_deals_is_even(client: Any, db: None) -> None:
    night = nights.start_night(game="schafkopf", preset="classic", players=["Anna", "Bernd", "Clara", "Dieter"])
    page = client.get(url(night)).content.decode()
    assert "Everybody is even: nobody pays anybody." in page
    assert "not finished yet" in page


# --- refused input ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("changes", "field", "message"), [
    pytest.param({"rate": "abc"}, "rate", "Write the money a point is worth in EUR", id="rate-not-a-number"),
    pytest.param({"rate": "-0.01"}, "rate", "not “-0.01”", id="rate-negative"),
    pytest.param({"rate": "1e9"}, "rate", "not “1e9”", id="rate-exponent"),
    pytest.param({"rate": "0.00001"}, "rate", "at most 4 decimals", id="rate-too-fine"),
    pytest.param({"rate": "", "entry_fee": "5", "prize_split": "100"}, "rate", "or 0 to settle only",
                 id="fees-without-rate"),
    pytest.param({"rate": "0.01", "entry_fee": "5.555"}, "entry_fee", "at most two decimals", id="fee-cents"),
    pytest.param({"rate": "0.01", "lost_game_fee": "x"}, "lost_game_fee", "not “x”", id="lost-fee"),
    pytest.param({"rate": "0.01", "entry_fee": "5"}, "prize_split", "say how the pot is split", id="pot-unsplit"),
    pytest.param({"rate": "0.01", "entry_fee": "5", "prize_split": "60/30"}, "prize_split",
                 "must add up to 100 %, not 90 %", id="split-sum"),
    pytest.param({"rate": "0.01", "entry_fee": "5", "prize_split": "50/20/10/10/10"}, "prize_split",
                 "5 places paid but only 4 players", id="split-places"),
    pytest.param({"rate": "0.01", "prize_split": "50/x"}, "prize_split", "“x” is not one", id="split-word"),
    pytest.param({"rate": "0.01", "step": "7"}, "step", "Round to one of", id="step"),
    pytest.param({"rate": "0.01", "basis": "average"}, "basis", "list points or on the performance", id="basis"),
    pytest.param({"rate": "0.01", "currency": "euro"}, "currency", "three letters", id="currency"),
])
def test_bad_input_is_shown_at_its_field_and_kept(client: Any, demo: dict[str, CardNight], changes: dict[str, str],
                                                  field: str, message: str) -> None:
    night = demo["skat"]
    response = client.post(url(night), options(night, **changes))
    assert response.status_code == 200
    assert message in error_at(response.content, field)
    for name, typed in changes.items():
        if name not in ("step", "basis"):
            assert (value_of(response.content, name) or "") == typed
    night.refresh_from_db()
    assert night.settlement == {}, "nothing stored"


def test_stored_options_that_no_longer_fit_are_named_not_a_server_error(client: Any,
                                                                       demo: dict[str, CardNight]) -> None:
    night = demo["fipsen"]
    nights.change_settings(night, settlement={"rate": "1", "basis": "performance", "step": 10})
    for client_kind in (client, viewer(night)):
        page = client_kind.get(url(night))
        assert page.status_code == 200
        assert "Only a Skat list has a performance" in page.content.decode()


# --- who may do what -------------------------------------------------------------------------------

def viewer(night: CardNight) -> Client:
    c = Client()
    c.get(f"/join/{night.viewer_token}/")
    return c


def test_a_viewer_reads_the_settlement_but_cannot_change_it(demo: dict[str, CardNight]) -> None:
    night = demo["schafkopf"]
    c = viewer(night)
    page = c.get(url(night))
    assert page.status_code == 200 and transfers(page.content)
    assert 'name="step"' not in page.content.decode()
    assert c.post(url(night), {"step": "1"}).status_code == 403
    scorer = Client()
    scorer.get(f"/join/{night.scorer_token}/")
    assert scorer.post(url(night), {"step": "1"}).status_code == 403
    night.refresh_from_db()
    assert night.settlement == {}
    kop = demo["kop"]
    assert "The host can set the money a point is worth." in viewer(kop).get(url(kop)).content.decode()


def test_a_stranger_is_told_there_is_no_such_night(demo: dict[str, CardNight]) -> None:
    night = demo["schafkopf"]
    assert Client().get(url(night)).status_code == 404
    assert Client().post(url(night), {"step": "1"}).status_code == 404
    assert Client().get("/nights/999999/settlement/").status_code == 404


def test_a_night_s_own_host_may_change_its_options(demo: dict[str, CardNight], django_user_model: Any) -> None:
    night = demo["schafkopf"]
    owner = django_user_model.objects.create_user("owner", password="owner-password-1")
    CardNight.objects.filter(pk=night.pk).update(host=owner, club=clubs.home_club(owner))
    c = Client()
    c.force_login(owner)
    assert c.post(url(night), {"step": "1", "entry_fee": "", "prize_split": ""}).status_code == 303
    night.refresh_from_db()
    assert night.settlement == {"step": 1}
    other = django_user_model.objects.create_user("other", password="other-password-1")
    c.force_login(other)
    assert c.get(url(night)).status_code == 404


def test_the_form_needs_the_csrf_token(demo: dict[str, CardNight], host: Any) -> None:
    night = demo["schafkopf"]
    c = Client(enforce_csrf_checks=True)
    c.force_login(host)
    assert c.post(url(night), {"step": "1"}).status_code == 403
    page = c.get(url(night)).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    assert c.post(url(night), {"step": "1", "csrfmiddlewaretoken": token}).status_code == 303


def test_names_are_escaped(client: Any, demo: dict[str, CardNight]) -> None:
    night = demo["schafkopf"]
    book = ledger.build(night.tables.get())
    payer = book.names[book.totals.index(min(book.totals))]  # the night's biggest loser pays someone
    Player.objects.filter(name=payer).update(name="<script>alert(1)</script>")
    page = client.get(url(night)).content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; pays" in page


# --- the chart fragment ---------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["skat", "schafkopf", "kop", "fipsen"])
def test_the_chart_has_its_numbers_as_a_table(demo: dict[str, CardNight], game: str) -> None:
    night = demo[game]
    sheet = ledger.build(night.tables.get())
    html = render_to_string("nights/_chart.html", {"ledger": sheet, "night": night})
    assert html.count("<svg") == 1 and 'role="img"' in html
    assert f"Running totals at table {sheet.table.number}" in html
    body = html.split("<tbody>")[1]
    assert body.count("<tr>") == len(sheet.rows)
    last = re.findall(r"<tr><th scope=\"row\">(\d+)</th>(.*?)</tr>", body, re.S)[-1]
    assert int(last[0]) == len(sheet.rows)
    cells = [unescape(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", last[1])]
    minus = "\u2212"
    if game == "schafkopf":
        expected = [f"{minus if t < 0 else '+' if t > 0 else ''}€{abs(t) // 100}.{abs(t) % 100:02d}"
                    for t in sheet.totals]
    else:
        expected = [f"{minus if t < 0 else '+' if t > 0 else ''}{abs(t)}" for t in sheet.totals]
    assert cells == expected


def test_the_chart_escapes_names_and_is_left_out_before_the_first_deal(demo: dict[str, CardNight]) -> None:
    night = demo["skat"]
    Player.objects.filter(name="Anna").update(name="<b>Anna</b>")
    html = render_to_string("nights/_chart.html", {"ledger": ledger.build(night.tables.get()), "night": night})
    assert "<b>Anna</b>" not in html and "&lt;b&gt;Anna&lt;/b&gt;" in html
    empty = nights.start_night(game="skat", preset="classic", players=["Anna", "Bernd", "Clara"])
    chart = render_to_string("nights/_chart.html", {"ledger": ledger.build(empty.tables.get()), "night": empty})
    assert chart.strip() == ""
