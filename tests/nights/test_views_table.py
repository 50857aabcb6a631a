"""The table page (deal entry and ledger) and a deal's page (verdict, history, corrections)."""

import gzip
import json
import re
from html import unescape
from typing import Any

import pytest
from django.db import OperationalError, connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeep.models import CardNight, CardTable, Deal, DealRevision
from scorekeep.nights import ledger
from scorekeep.nights import writes as nights
from scorekeep.rules import GAMES
from scorekeep.words.numbers import amount, signed_amount

FOUR = ["Anna", "Bernd", "Clara", "Dieter"]
HX = {"HX-Request": "true"}
GRAND = {"contract": "grand", "declarer": 1, "bid": 48, "matadors": 2, "card_points": 70}


def url(night: CardNight, tail: str = "", table: int = 1) -> str:
    return f"/nights/{night.pk}/tables/{table}/{tail}"


def html(response: Any) -> str:
    return response.content.decode()


@pytest.fixture
def skat(db: None) -> CardNight:
    """A 4-seat Skat night, series of 36; Anna deals first (and sits out)."""
    return nights.start_night(game="skat", preset="classic", players=FOUR, series_length=36)


def table_of(night: CardNight) -> CardTable:
    return night.tables.get()


# --- the table page ------------------------------------------------------------------------------

def test_the_table_page_says_which_deal_who_deals_and_who_is_forehand(client: Client, skat: CardNight) -> None:
    nights.enter_deal(table_of(skat), GRAND)
    response = client.get(url(skat))
    assert response.status_code == 200
    page = html(response)
    assert "Deal 2 of 36" in page and "Bernd deals" in page and "Clara is forehand" in page
    assert "Sits out: Bernd" in page
    assert '<form id="deal-form"' in page and "<caption" in page and 'scope="col"' in page
    assert response["Vary"].count("HX-Request") == 1


def test_the_table_page_as_an_htmx_partial(client: Client, skat: CardNight) -> None:
    response = client.get(url(skat), headers={**HX, "HX-Target": "table-region"})
    assert response.status_code == 200
    assert html(response).lstrip().startswith('<div id="table-region">')
    assert "<html" not in html(response)


@pytest.mark.parametrize("path", ["", "deals/new/", "deals/1/", "deals/1/delete/", "deals/1/restore/"])
def test_unknown_night_table_or_deal_is_404(client: Client, skat: CardNight, path: str) -> None:
    ask = client.post if path.endswith(("delete/", "restore/")) else client.get
    assert ask(f"/nights/{skat.pk + 99}/tables/1/{path}").status_code == 404
    assert ask(url(skat, path, table=7)).status_code == 404
    assert client.post(url(skat, "deals/9/")).status_code == 404


def test_saving_a_deal_redirects_and_the_ledger_shows_it(client: Client, skat: CardNight) -> None:
    response = client.post(url(skat, "deals/new/"), {**GRAND, "by": "Clara"})
    deal = Deal.objects.get()
    assert response.status_code == 303 and response["Location"] == f"{url(skat)}?saved={deal.sequence}"
    # The form names players by table position; the facts hold the engine's seats for this deal.
    assert deal.seating[deal.facts["declarer"]] == 1
    assert {**deal.facts, "declarer": 1} == GRAND and deal.entered_by == "Clara" and deal.dealer == 0
    page = html(client.get(url(skat)))
    assert url(skat, "deals/1/") in page and "+72" in page and "with 2" in page
    assert 'value="Clara"' in page  # "Your name" remembered for the next deal


def test_totals_are_the_sum_of_the_verdicts(client: Client, skat: CardNight) -> None:
    posts = [GRAND, {"contract": "clubs", "declarer": 2, "bid": 18, "matadors": -1, "card_points": 40},
             {"contract": "null", "declarer": 0, "bid": 23, "declarer_tricks": 0}]
    for data in posts:
        assert client.post(url(skat, "deals/new/"), data).status_code == 303
    totals = [0, 0, 0, 0]
    for deal in Deal.objects.all():
        for seat, position in enumerate(deal.seating):
            totals[position] += deal.verdict["scores"][seat]
    assert totals == [23, 72, -48, 0]
    footer = html(client.get(url(skat, "list/"))).split("<tfoot>")[1].split("</tr>")[0]
    assert ["+23", "+72", "−48", "0"] == [cell.split("<")[0] for cell in footer.split('class="player">')[1:]]


def test_an_htmx_save_returns_the_refreshed_region(client: Client, skat: CardNight) -> None:
    response = client.post(url(skat, "deals/new/"), GRAND, headers={**HX, "HX-Target": "table-region"})
    assert response.status_code == 200
    page = html(response)
    assert page.lstrip().startswith('<div id="table-region">')
    # The saved deal in words (a live region), its row marked among the latest, the form for the next one.
    said = '<p class="saved visually-hidden">Deal 1 saved: Bernd: Grand · won 72</p>'
    assert f'role="status" aria-live="polite">{said}' in page
    assert 'class="deal-row just-saved' in page and "Undo" in page
    assert "Deal 2 of 36" in page and "+72" in page
    assert Deal.objects.count() == 1


def test_a_refused_entry_keeps_everything_and_stores_nothing(client: Client, skat: CardNight) -> None:
    data = {**GRAND, "card_points": 119, "hand": "on", "by": "Anna"}
    response = client.post(url(skat, "deals/new/"), data)
    assert response.status_code == 200
    page = html(response)
    slot = page.split('id="err-card_points"')[1].split("</div>")[0]
    assert "119" in slot
    assert 'value="119"' in page and 'value="Anna"' in page
    # Bernd's Grand stays tapped in the grid of players and games (its tap posts "grand@1").
    assert re.search(r'value="grand@1"[^>]*checked', page.split('id="q-contract"')[1].split("</fieldset>")[0])
    assert Deal.objects.count() == 0


def test_a_seat_that_sits_out_is_refused_at_the_declarer(client: Client, skat: CardNight) -> None:
    response = client.post(url(skat, "deals/new/"), {**GRAND, "declarer": 0})  # Anna deals and sits out
    assert response.status_code == 200 and Deal.objects.count() == 0
    assert "err-declarer" in html(response)


def test_the_preview_shows_value_entries_and_named_explanation(client: Client, skat: CardNight) -> None:
    response = client.get(url(skat, "deals/new/"), {**GRAND, "declarer": 2},
                          headers={**HX, "HX-Target": "preview"})
    assert response.status_code == 200
    page = html(response)
    assert page.lstrip().startswith('<section id="preview"')
    assert "Grand game by Clara, with 2" in page and "<strong>72</strong>" in page
    assert 'id="complement"' in page and "Opponents: 50" in page and 'hx-swap-oob="true"' in page
    assert Deal.objects.count() == 0


def test_choosing_another_game_re_renders_the_entry(client: Client, skat: CardNight) -> None:
    response = client.get(url(skat, "deals/new/"), {"contract": "ramsch"}, headers={**HX, "HX-Target": "entry"})
    page = html(response)
    assert page.lstrip().startswith('<div id="entry"')
    assert 'name="points-1"' in page and 'name="declarer"' not in page and 'name="points-0"' not in page


def test_the_entries_a_phone_keeps_offline_come_in_one_request_each_as_its_own_request_answers(
        client: Client, skat: CardNight) -> None:
    """static/js/offline.js keeps an entry for each seating and game; asked at once, each is the very entry the
    phone would get asking for it alone (what was typed so far goes into every one)."""
    nights.enter_deal(table_of(skat), GRAND)  # Bernd deals deal 2: a seating other than the first
    typed = {"inputs_for": "grand", "bid": "18", "card_points": "", "by": "Clara"}
    wants = ["1:", "1:grand", "2:ramsch", "3:null", "0:clubs"]
    batch = client.get(url(skat, "deals/new/"), {**typed, "want": wants}, headers={**HX, "HX-Target": "entry"})
    assert batch.status_code == 200 and batch["Content-Type"] == "application/json"
    entries = batch.json()["entries"]
    assert [(dealer, contract) for dealer, contract, _html in entries] == [(1, ""), (1, "grand"), (2, "ramsch"),
                                                                            (3, "null"), (0, "clubs")]
    for dealer, contract, entry in entries:
        alone = client.get(url(skat, "deals/new/"), {**typed, "dealer": dealer, **({"contract": contract} if contract
                                                                                  else {})},
                           headers={**HX, "HX-Target": "entry"})
        assert entry == html(alone)
        assert entry.lstrip().startswith('<div id="entry"')
    assert 'name="points-' in entries[2][2] and 'name="points-' not in entries[1][2]  # the Ramsch asks each player


def test_the_entries_go_gzipped_to_a_phone_that_takes_it(client: Client, skat: CardNight) -> None:
    wants = {"want": ["0:", "0:grand", "1:null", "2:clubs"]}
    plain = client.get(url(skat, "deals/new/"), wants, headers={**HX, "HX-Target": "entry"})
    zipped = client.get(url(skat, "deals/new/"), wants,
                        headers={**HX, "HX-Target": "entry", "Accept-Encoding": "br, gzip, deflate"})
    assert "Content-Encoding" not in plain and zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"]
    assert json.loads(gzip.decompress(zipped.content)) == plain.json()
    assert len(zipped.content) * 5 < len(plain.content)


@pytest.mark.parametrize("want", ["4:grand", "x:grand", "1-grand", "1:gr and", "1:" + "a" * 41])
def test_an_entry_wanted_for_a_seat_the_table_lacks_or_malformed_is_refused_naming_the_field(
        client: Client, skat: CardNight, want: str) -> None:
    response = client.get(url(skat, "deals/new/"), {"want": ["1:grand", want]}, headers={**HX, "HX-Target": "entry"})
    assert response.status_code == 400
    assert response.json()["error"].startswith("want: up to 36 entries, each a dealer's seat (0 to 3)")  # 4 × (8 + 1)


def test_at_most_each_seats_blank_entry_and_its_entry_of_every_game_are_asked_at_once(client: Client,
                                                                                      db: None) -> None:
    """Seven Schafkopf players (each deal one sits out, so seven seatings), Schafkopf's 14 games: 7 × 15."""
    night = nights.start_night(game="schafkopf", preset="bsv", players=[*FOUR, "Erich", "Frieda", "Gustl"])
    contracts = list(GAMES["schafkopf"].CONTRACTS)
    every = [f"{dealer}:{contract}" for dealer in range(7) for contract in ["", *contracts]]
    asked = client.get(url(night, "deals/new/"), {"want": every}, headers={**HX, "HX-Target": "entry"})
    assert asked.status_code == 200 and len(asked.json()["entries"]) == 105
    # The wants alone, 2 KB of gunicorn's 4 KB request line: room left for what was typed, sent with them.
    assert len(asked.request["QUERY_STRING"]) < 2500
    once_more = client.get(url(night, "deals/new/"), {"want": [*every, "0:"]}, headers={**HX, "HX-Target": "entry"})
    assert once_more.status_code == 400


def test_a_ramsch_is_saved_from_two_numbers_and_the_preview_says_the_rest(client: Client, skat: CardNight) -> None:
    # Anna deals and sits out: Bernd, Clara and Dieter play. Dieter took no trick.
    typing = {"contract": "ramsch", "points-1": "30", "points-2": "", "points-3": "", "no_trick": "3"}
    page = html(client.get(url(skat, "deals/new/"), typing, headers={**HX, "HX-Target": "preview"}))
    assert ('<output class="rest" id="rest-points" aria-live="polite" hx-swap-oob="true">Clara 90, Dieter 0: the rest '
            'of 120</output>') in page
    assert "Jungfrau" in page and "<strong>180</strong>" in page  # the loss doubles
    response = client.post(url(skat, "deals/new/"), {**typing, "key": "r1", "expected": "1"})
    assert response.status_code == 303
    deal = Deal.objects.get()
    assert deal.facts["points"] == [30, 90, 0, 0] and deal.facts["tricks"][2:] == [0, 0]
    assert deal.result.scores == (0, -180, 0, 0)


def test_a_stored_ramsch_is_corrected_with_its_taps_and_its_tricks_kept(client: Client, skat: CardNight) -> None:
    table = table_of(skat)
    nights.enter_deal(table, {"contract": "ramsch", "points": [30, 90, 0, 0], "tricks": [4, 6, 0, 0]})
    page = html(client.get(url(skat, "deals/1/")))
    assert re.search(r'<input type="checkbox" name="no_trick" value="3"[^>]* checked', page)  # Dieter: no trick
    assert 'name="tricks-1" value="4"' in page and re.search(r'<details class="more" open>', page)
    response = client.post(url(skat, "deals/1/"), {"contract": "ramsch", "points-1": "30", "points-2": "90",
                                                   "points-3": "0", "tricks-1": "4", "tricks-2": "6", "tricks-3": "0",
                                                   "no_trick": "3", "by": "Anna"})
    assert response.status_code == 303
    assert Deal.objects.get().facts == {"contract": "ramsch", "points": [30, 90, 0, 0], "tricks": [4, 6, 0, 0]}


def test_kop_doublings_are_taps_on_the_players_with_the_selects_behind_them(client: Client, db: None) -> None:
    night = nights.start_night(game="kop", preset="classic", players=FOUR)
    page = html(client.get(url(night)))
    chain = page[page.index('id="q-doublings"'):page.index("</fieldset>", page.index('id="q-doublings"'))]
    assert [m for m in re.findall(r'data-chain-add="(\d)"[^>]*>(\w+)<', chain)] == [
        ("0", "Anna"), ("1", "Bernd"), ("2", "Clara"), ("3", "Dieter")]
    assert 'class="chain-list" id="chain-doublings" aria-live="polite"' in chain and "no doubling" in chain
    assert chain.count("<select") == 6 and 'class="per-seat nojs"' in chain
    assert "data-chain-undo" in chain and "data-chain-clear" in chain
    assert page.index('id="q-doublings"') < page.index('<details class="more"')  # not folded away under "More"


def test_preview_without_javascript_saves_nothing(client: Client, skat: CardNight) -> None:
    response = client.post(url(skat, "deals/new/"), {**GRAND, "preview": "1"})
    assert response.status_code == 200 and "Grand game by Bernd" in html(response)
    assert Deal.objects.count() == 0


def test_captured_cards_are_counted_when_saving(client: Client, skat: CardNight) -> None:
    captured = ["CA", "C10", "SA", "S10", "HA", "H10", "DK"]  # 67
    data = {"contract": "clubs", "declarer": 1, "bid": 18, "matadors": 1, "captured": captured}
    assert client.post(url(skat, "deals/new/"), data).status_code == 303
    assert Deal.objects.get().facts["card_points"] == 67


def test_someone_else_dealt(client: Client, skat: CardNight) -> None:
    response = client.post(url(skat, "deals/new/"), {**GRAND, "declarer": 0, "dealer": 2})
    assert response.status_code == 303
    assert Deal.objects.get().dealer == 2


def test_a_complete_series_refuses_more_deals(client: Client, db: None) -> None:
    night = nights.start_night(game="skat", preset="classic", players=FOUR[:3], series_length=36)
    table = table_of(night)
    for _ in range(36):
        nights.enter_deal(table, {**GRAND, "declarer": 0})
    page = html(client.get(url(night)))
    assert "The series of 36 deals is complete" in page and 'id="deal-form"' not in page
    response = client.post(url(night, "deals/new/"), {**GRAND, "declarer": 0, "card_points": 87})
    assert response.status_code == 200 and "complete" in html(response)
    assert 'id="deal-form"' in html(response) and 'value="87"' in html(response)  # what was typed stays
    assert Deal.objects.count() == 36


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_deal_typed_while_the_night_was_finished_keeps_every_input(client: Client, skat: CardNight,
                                                                     htmx: bool) -> None:
    nights.change_settings(skat, finished=True)
    data = {**GRAND, "card_points": 87, "hand": "on", "by": "Clara"}
    response = client.post(url(skat, "deals/new/"), data, headers={**HX, "HX-Target": "table-region"} if htmx else {})
    assert response.status_code == 200
    page = html(response)
    assert "This card night is finished; no more deals can be entered." in page
    assert 'id="deal-form"' in page and 'value="87"' in page and 'value="Clara"' in page
    assert re.search(r'name="hand"[^>]*checked', page)
    assert Deal.objects.count() == 0


def test_a_fifth_player_sits_out_in_turn(client: Client, db: None) -> None:
    night = nights.start_night(game="schafkopf", preset="classic", players=[*FOUR, "Eva"])
    page = html(client.get(url(night)))
    assert "Sits out: Anna" in page  # Anna deals first and sits out; Bernd … Eva play
    data = {"contract": "sauspiel", "declarer": 1, "partner": 3, "card_points": 70}
    assert client.post(url(night, "deals/new/"), data).status_code == 303
    deal = Deal.objects.get()
    assert deal.seating == [1, 2, 3, 4] and deal.facts["declarer"] == 0 and deal.facts["partner"] == 2
    assert "Sits out: Bernd" in html(client.get(url(night)))
    page = html(client.get(url(night, "list/")))
    row = page.split('class="deal-row')[1].split("</tr>")[0]
    assert 'class="player out"' in row and "+€0.10" in row and "−€0.10" in row
    assert '<td class="sum">€0.00</td>' in row


def test_kop_ledger_shows_placings_per_round(client: Client, db: None) -> None:
    night = nights.start_night(game="kop", preset="wolsztyn", players=FOUR, round_length=2)
    table = table_of(night)
    for _ in range(2):
        nights.enter_deal(table, {"contract": "normal", "old": [0, 2], "card_points": 60, "old_tricks": 2})
    page = html(client.get(url(night, "list/")))
    assert "Round placing" in page and "Placing points" in page and "3½" in page
    assert "3½ pl." in html(client.get(url(night)))  # the standings strip


def test_fipsen_ledger_shows_running_scores_and_the_value(client: Client, db: None) -> None:
    night = nights.start_night(game="fipsen", preset="classic", players=FOUR)
    nights.enter_deal(table_of(night), {"contract": "tricks", "declarer": 1, "bid": 4, "hand": True,
                                        "tricks_taken": 4})
    page = html(client.get(url(night, "list/")))
    assert "4 Hand" in page and '<span class="running">+8</span>' in page


def reads_every_deal(sql: str) -> bool:
    """A query reading a table's deals without a bound: no LIMIT, not an aggregate."""
    return sql.startswith("SELECT") and 'FROM "scorekeep_deal"' in sql and "LIMIT" not in sql and "MAX(" not in sql


@pytest.mark.parametrize("what", ["page", "poll", "htmx save", "plain save"])
def test_the_page_its_poll_and_a_save_cost_the_same_queries_at_any_size_and_read_no_whole_list(
        client: Client, skat: CardNight, what: str) -> None:
    """Issue 12: at 30 deals (or 1,000) the table page, a poll with a change and a save make the queries they
    make at 3, and none of them reads every deal (where the table stands is kept on its row)."""
    table = table_of(skat)

    def request(sent: dict[str, Any]) -> Any:
        if what == "page":
            return client.get(url(skat))
        if what == "poll":  # a phone whose page is older than the table
            return client.get(url(skat), headers={**HX, "HX-Target": "live-ledger", "If-None-Match": 'W/"old"'})
        return client.post(url(skat, "deals/new/"), sent, headers={**HX, "HX-Target": "table-region"}
                           if what == "htmx save" else {})

    def queries() -> int:
        dealer, count = nights.next_dealer(table), table.deals.count()  # the dealer sits out at four
        sent = {**GRAND, "declarer": (dealer + 1) % 4, "key": f"key-{count}", "expected": count + 1}
        with CaptureQueriesContext(connection) as captured:
            response = request(sent)
        assert response.status_code == (303 if what == "plain save" else 200)
        assert what != "htmx save" or b'<p class="saved' in response.content
        assert [query["sql"] for query in captured if reads_every_deal(query["sql"])] == []
        return len(captured)

    for _ in range(3):
        nights.enter_deal(table, {**GRAND, "declarer": 0})  # engine seat 0: forehand
    few = queries()
    for _ in range(27):
        nights.enter_deal(table, {**GRAND, "declarer": 0})
    assert queries() == few


KEYS = re.compile(r'(name="(?:key|csrfmiddlewaretoken)" value=")[^"]*"|(value=")[0-9a-f]{32}u"')


def test_a_saves_answer_is_the_table_as_read_again_whatever_happened_before(
        client: Client, skat: CardNight, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save answers with the table as it stands after the deal without reading the table again where it can
    (`table_views._after_save`): the answer is the one a second reading gives — after plain deals, a Kontra
    lost (Bock follows), a deal deleted before the latest (a gap among them: read again), a correction, another
    phone's correction during the save (read again), and the series' last deals."""
    from django.db import transaction

    from scorekeep.nights import table_views

    table = table_of(skat)
    lost_kontra = {"contract": "spades", "declarer": 2, "bid": 18, "matadors": 1, "card_points": 40, "kontra": True}
    said = {"derived": 0}
    derive, store = table_views._after_save, nights.enter_deal

    def counted(*args: Any) -> Any:
        after = derive(*args)
        said["derived"] += after is not None
        return after

    def save(sent: dict[str, Any], read_again: bool) -> str:
        monkeypatch.setattr(table_views, "_after_save", (lambda *args: None) if read_again else counted)
        count = Deal.objects.filter(table=table).count()
        response = client.post(url(skat, "deals/new/"), {**sent, "key": f"k{count:08}", "expected": count + 1,
                                                         "expected_is": "number"},
                               headers={**HX, "HX-Target": "table-region"})
        assert response.status_code == 200 and b'<p class="saved' in response.content, html(response)[-2000:]
        return KEYS.sub(lambda m: (m.group(1) or m.group(2)) + '"', html(response))

    for number in range(1, 37):
        dealer = nights.next_dealer(table)
        if number == 9:
            nights.delete_deal(table.deals.get(sequence=7), by="Anna", reason="wrong table")
        if number == 13:
            nights.restore_deal(table.deals.get(sequence=7), by="Anna")
        if number == 20:  # another phone corrects deal 19 while this save is under way: a row shown and the totals
            def and_a_correction(*args: Any, **kwargs: Any) -> Deal:
                deal = store(*args, **kwargs)
                before = table.deals.get(sequence=19)
                nights.correct_deal(before, {**before.facts, "card_points": 120 - before.facts["card_points"]},
                                    by="Bernd")
                return deal

            monkeypatch.setattr(nights, "enter_deal", and_a_correction)
        sent = {**(lost_kontra if number % 5 == 1 else GRAND), "declarer": (dealer + 1 + number % 3) % 4}
        if sent["declarer"] == dealer:
            sent["declarer"] = (dealer + 1) % 4
        client.get(url(skat))  # the phone's page, read before the deal is typed
        with transaction.atomic():
            again = save(sent, read_again=True)
            transaction.set_rollback(True)
        assert save(sent, read_again=False) == again, number
        monkeypatch.setattr(nights, "enter_deal", store)
    assert Deal.objects.filter(table=table, deleted=False).count() == 36
    assert DealRevision.objects.filter(kind=DealRevision.Kind.CHANGED).count() == 1
    assert 20 <= said["derived"] < 35  # most saves answer from what they read; the gaps and the foreign deal not


@pytest.mark.parametrize(("path", "target"), [("deals/new/", "preview"), ("deals/new/", "entry"),
                                              ("deals/1/", "preview"), ("deals/1/", "entry")])
def test_a_preview_builds_no_ledger_and_its_queries_do_not_grow_with_deals(
        client: Client, skat: CardNight, monkeypatch: pytest.MonkeyPatch, path: str, target: str) -> None:
    table = table_of(skat)

    def no_ledger(*args: object, **kwargs: object) -> ledger.Ledger:
        raise AssertionError("a preview built the whole ledger")

    def queries() -> int:
        # The declarer is forehand of the deal being previewed (the dealer sits out at four).
        dealer = nights.next_dealer(table) if path == "deals/new/" else Deal.objects.get(sequence=1).dealer
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url(skat, path), {**GRAND, "declarer": (dealer + 1) % 4, "card_points": 90},
                                  headers={**HX, "HX-Target": target})
        assert response.status_code == 200 and "Schneider" in html(response)
        return len(captured)

    def enter(deals: int) -> None:
        for _ in range(deals):
            nights.enter_deal(table, {**GRAND, "declarer": 0})  # engine seat 0: forehand

    enter(3)
    monkeypatch.setattr(ledger, "build", no_ledger)
    few = queries()
    enter(27)
    assert queries() == few


# --- a deal's page -------------------------------------------------------------------------------

@pytest.fixture
def entered(client: Client, skat: CardNight) -> Deal:
    """Bernd's Grand with 2 at 58 card points, lost, entered through the form by Anna."""
    assert client.post(url(skat, "deals/new/"), {**GRAND, "card_points": 58, "by": "Anna"}).status_code == 303
    return Deal.objects.get()


def test_the_deal_page_shows_facts_verdict_explanation_and_history(client: Client, entered: Deal) -> None:
    night = entered.table.night
    page = html(client.get(url(night, "deals/1/")))
    assert "<h1>Deal 1</h1>" in page
    assert "Bernd" in page and "Grand" in page and "Lost" in page
    assert "Grand game by Bernd, with 2" in page
    assert "Deal 1 entered by Anna at" in page
    assert 'name="card_points"' in page and 'value="58"' in page


def test_a_correction_is_stored_with_its_history_in_words(client: Client, entered: Deal) -> None:
    night = entered.table.night
    data = {**GRAND, "card_points": 62, "by": "Clara", "reason": "miscounted"}
    response = client.post(url(night, "deals/1/"), data)
    assert response.status_code == 303 and response["Location"] == url(night, "deals/1/")
    entered.refresh_from_db()
    assert entered.facts["card_points"] == 62 and entered.verdict["won"] is True
    page = html(client.get(url(night, "deals/1/")))
    assert "Deal 1 changed by Clara at" in page
    assert "Declarer&#x27;s card points (skat included) 58 → 62" in page and "miscounted" in page


def test_a_refused_correction_changes_nothing(client: Client, entered: Deal) -> None:
    night = entered.table.night
    response = client.post(url(night, "deals/1/"), {**GRAND, "card_points": 119})
    assert response.status_code == 200 and "err-card_points" in html(response)
    entered.refresh_from_db()
    assert entered.facts["card_points"] == 58
    assert DealRevision.objects.count() == 1


def test_a_correction_of_a_deal_deleted_meanwhile_says_so_and_keeps_what_was_typed(client: Client,
                                                                                    entered: Deal) -> None:
    night = entered.table.night
    nights.delete_deal(entered, by="Dieter", reason="double entry")
    response = client.post(url(night, "deals/1/"), {**GRAND, "card_points": 63, "by": "Clara", "reason": "recount"})
    assert response.status_code == 200
    page = html(response)
    assert "This deal was deleted meanwhile by Dieter; restore it to correct it." in page
    assert 'value="63"' in page and 'value="recount"' in page and 'value="Clara"' in page
    assert "Restore this deal" in page and url(night, "deals/1/delete/") not in page
    entered.refresh_from_db()
    assert entered.deleted and entered.facts["card_points"] == 58
    assert "Correct this deal" not in html(client.get(url(night, "deals/1/")))  # no correction offered unasked


def test_the_history_says_the_day_of_a_change_made_after_the_night(client: Client, entered: Deal) -> None:
    night = entered.table.night
    night.date = entered.entered_at.date().replace(year=entered.entered_at.year - 1)
    night.save()
    page = html(client.get(url(night, "deals/1/")))
    assert re.search(r"Deal 1 entered by Anna at \d{1,2} [A-Z][a-z]{2}, \d\d:\d\d", page)


def test_the_deal_page_preview_partial(client: Client, entered: Deal) -> None:
    night = entered.table.night
    response = client.get(url(night, "deals/1/"), {**GRAND, "card_points": 90},
                          headers={**HX, "HX-Target": "preview"})
    assert html(response).lstrip().startswith('<section id="preview"') and "Schneider" in html(response)


def test_delete_and_restore(client: Client, entered: Deal) -> None:
    night = entered.table.night
    assert client.get(url(night, "deals/1/delete/")).status_code == 405
    response = client.post(url(night, "deals/1/delete/"), {"reason": "double entry"})
    assert response.status_code == 303
    entered.refresh_from_db()
    assert entered.deleted
    page = html(client.get(url(night, "deals/1/")))
    assert "This deal is deleted" in page and "Restore this deal" in page and "double entry" in page
    # Issue 33: the table page keeps it as a gap in its place, with its deletion and a Restore.
    gap = re.search(r'<tr class="gap-row".*?</tr>', html(client.get(url(night))), re.S)
    assert gap and "deleted by Anna: double entry" in gap[0] and url(night, "deals/1/restore/") in gap[0]
    assert client.post(url(night, "deals/1/restore/")).status_code == 303
    entered.refresh_from_db()
    assert not entered.deleted
    assert "Deal 1 restored" in html(client.get(url(night, "deals/1/")))


def test_a_schafkopf_preview_writes_the_value_as_money(client: Client, db: None) -> None:
    night = nights.start_night(game="schafkopf", preset="bsv", players=["Anna", "Bernd", "Clara", "Dieter"])
    # Anna deals; table positions are the inputs: Bernd declares with Dieter, 75 card points, 3 Laufende.
    response = client.get(url(night, "deals/new/"), {"contract": "sauspiel", "declarer": "1", "partner": "3",
                                                     "card_points": "75", "laufende": "3"},
                          headers={**HX, "HX-Target": "preview"})
    page = html(response)
    assert "Value <strong>€0.40</strong>" in page
    assert "Value <strong>40</strong>" not in page


def test_ledger_rows_say_what_was_said_so_an_entry_can_be_checked_against_the_value(client: Client,
                                                                                    db: None) -> None:
    skat = nights.start_night(game="skat", preset="classic", players=["Anna", "Bernd", "Clara"])
    nights.enter_deal(table_of(skat), {"contract": "grand", "declarer": 0, "bid": 18, "matadors": -1,
                                       "card_points": 61, "kontra": True, "re": True})
    assert "Kontra · Re" in html(client.get(url(skat, "list/")))
    kop = nights.start_night(game="kop", preset="classic", players=FOUR)
    nights.enter_deal(table_of(kop), {"contract": "normal", "old": [0, 2], "card_points": 40, "old_tricks": 1,
                                      "doublings": [1, 0]})
    page = html(client.get(url(kop, "list/")))
    assert "2 doubled" in page and ">lost<" in page
    fipsen = nights.start_night(game="fipsen", preset="classic", players=FOUR)
    nights.enter_deal(table_of(fipsen), {"contract": "kieker", "declarer": 1, "ruten": True, "surrendered": True})
    assert "Kieker Ruten · surrendered" in html(client.get(url(fipsen, "list/")))
    schafkopf = nights.start_night(game="schafkopf", preset="bsv", players=FOUR)
    nights.enter_deal(table_of(schafkopf), {"contract": "solo", "declarer": 1, "trump": "H", "card_points": 70,
                                            "laufende": 3, "doublings": 1})
    assert "Stoß · 3 Laufende" in html(client.get(url(schafkopf, "list/")))


def test_without_javascript_a_save_redirects_and_says_it_saved(client: Client, skat: CardNight) -> None:
    response = client.post(url(skat, "deals/new/"), GRAND, follow=True)
    assert response.redirect_chain[-1][1] == 303
    page = html(response)
    # The saved deal named with its value, marked among the latest deals, and an Undo for it.
    assert '<p class="saved visually-hidden">Deal 1 saved: Bernd: Grand · won 72' in page
    assert 'class="deal-row just-saved' in page and url(skat, "deals/1/delete/") in page
    # Reloaded later, once another deal followed, the note and the Undo are gone.
    assert client.post(url(skat, "deals/new/"), {**GRAND, "declarer": 2}).status_code == 303
    again = html(client.get(response.redirect_chain[-1][0]))
    assert "Deal 1 saved" not in again and url(skat, "deals/1/delete/") not in again


def test_restoring_a_deal_the_rules_now_forbid_is_refused_naming_the_deal_and_its_players(client: Client,
                                                                                         db: None) -> None:
    night = nights.start_night(game="skat", preset="classic", players=["Anna", "Bernd", "Clara"])
    deal = nights.enter_deal(table_of(night), {"contract": "grand", "declarer": 1, "bid": 18, "matadors": -1,
                                               "card_points": 50, "kontra": True})
    nights.delete_deal(deal)
    nights.change_settings(night, house_rules={"kontra": False})
    response = client.post(url(night, f"deals/{deal.sequence}/restore/"), {"reason": "found the sheet"})
    page = html(response)
    assert response.status_code == 200
    assert "Deal 1 would no longer be allowed" in page and "deal 1: deal.kontra" not in page
    assert "Kontra is not played under this rule set" in page
    deal.refresh_from_db()
    assert deal.deleted


def test_a_reason_with_a_nul_character_is_refused_with_a_message_not_stored(client: Client,
                                                                            skat: CardNight) -> None:
    deal = nights.enter_deal(table_of(skat), GRAND)
    response = client.post(url(skat, f"deals/{deal.sequence}/delete/"), {"reason": "oops\x00"})
    assert response.status_code == 200
    assert "Null characters are not allowed" in html(response)
    deal.refresh_from_db()
    assert not deal.deleted


# --- Bock on the deal page, amounts --------------------------------------------------------------

def test_a_bock_deal_says_whether_its_contract_was_doubled(client: Client, db: None) -> None:
    night = nights.start_night(game="skat", preset="classic", players=FOUR[:3], house_rules={"bock": True,
                               "passed": "void"}, bock_events=["re"])
    table = table_of(night)
    nights.enter_deal(table, {**GRAND, "declarer": 0, "card_points": 50, "kontra": True, "re": True})
    nights.enter_deal(table, {"contract": "passed"})
    nights.enter_deal(table, {**GRAND, "declarer": 0})
    passed, doubled = Deal.objects.order_by("sequence")[1:]
    assert passed.bock and doubled.bock and doubled.verdict["value"] * 2 in doubled.verdict["scores"]
    page = html(client.get(url(night, f"deals/{passed.sequence}/")))
    assert "a Bock round was running; this contract is not doubled" in page and "counts double" not in page
    page = html(client.get(url(night, f"deals/{doubled.sequence}/")))
    assert "a Bock deal (the value counts double)" in page


def test_amounts_are_money_in_schafkopf_and_points_elsewhere() -> None:
    schafkopf, skat = CardNight(game="schafkopf", currency="EUR"), CardNight(game="skat")
    assert (amount(40, schafkopf), signed_amount(-60, schafkopf), signed_amount(20, schafkopf)) == (
        "€0.40", "−€0.60", "+€0.20")
    assert (amount(48, skat), signed_amount(-96, skat), signed_amount(0, skat), signed_amount(None, skat)) == (
        "48", "−96", "0", "")


# --- a busy database ---------------------------------------------------------------------------------

def busy(*args: object, **kwargs: object) -> None:
    raise OperationalError("database is locked")


BUSY = "The database was busy; nothing was saved — tap Save again."


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_busy_database_while_saving_a_deal_keeps_it_typed(client: Client, skat: CardNight, htmx: bool,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nights, "enter_deal", busy)
    response = client.post(url(skat, "deals/new/"), {**GRAND, "card_points": 87, "by": "Clara"},
                           headers={**HX, "HX-Target": "table-region"} if htmx else {})
    assert response.status_code == 200
    page = html(response)
    assert BUSY in page and 'value="87"' in page and 'value="Clara"' in page
    assert Deal.objects.count() == 0


def test_a_busy_database_while_correcting_keeps_the_correction(client: Client, entered: Deal,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nights, "correct_deal", busy)
    night = entered.table.night
    response = client.post(url(night, "deals/1/"), {**GRAND, "card_points": 63, "reason": "recount"})
    assert response.status_code == 200
    page = html(response)
    assert BUSY in page and 'value="63"' in page and 'value="recount"' in page
    entered.refresh_from_db()
    assert entered.facts["card_points"] == 58


@pytest.mark.parametrize("delete", [True, False], ids=["delete", "restore"])
def test_a_busy_database_while_deleting_or_restoring_keeps_the_reason(client: Client, entered: Deal, delete: bool,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    night = entered.table.night
    if not delete:
        nights.delete_deal(entered)
    monkeypatch.setattr(nights, "delete_deal" if delete else "restore_deal", busy)
    response = client.post(url(night, "deals/1/delete/" if delete else "deals/1/restore/"),
                           {"reason": "found the sheet"})
    assert response.status_code == 200
    page = html(response)
    assert BUSY in page
    if delete:
        assert re.search(r'id="delete-reason"[^>]*value="found the sheet"', page)
    entered.refresh_from_db()
    assert entered.deleted is not delete


def test_the_entry_header_says_when_the_next_deal_is_a_bock_deal(client: Client, db: None) -> None:
    night = nights.start_night(game="skat", preset="classic", players=["Anna", "Bernd", "Clara"],
                               house_rules={"bock": True}, bock_events=["sixty"])
    assert "Bock deal" not in html(client.get(url(night)))
    nights.enter_deal(table_of(night), {"contract": "grand", "declarer": 0, "bid": 18, "matadors": 1,
                                        "card_points": 60})  # 60:60 starts a Bock round
    assert '<strong class="badge">Bock deal</strong>' in html(client.get(url(night)))


def test_a_save_through_the_page_and_a_deal_page_each_ask_the_engine_once(
        client: Client, skat: CardNight, monkeypatch: pytest.MonkeyPatch) -> None:
    for declarer in (0, 1, 2, 0):  # a table with deals on it (engine seats): the save must not judge them again
        nights.enter_deal(table_of(skat), {**GRAND, "declarer": declarer})
    calls: list[int] = []
    real = ledger.judge_deal
    monkeypatch.setattr(ledger, "judge_deal", lambda *args: calls.append(1) or real(*args))
    assert client.post(url(skat, "deals/new/"), {**GRAND, "by": "Clara"}).status_code == 303
    assert len(calls) == 1  # the form's preview; the save stores that verdict
    calls.clear()
    assert client.get(url(skat, "deals/5/")).status_code == 200
    assert len(calls) == 1  # the explanation with the players' names


def test_a_deal_tapped_in_the_grid_of_players_and_games_is_saved(client: Client, skat: CardNight) -> None:
    """Who declared what is one tap where at most three play: its radio posts "grand@1" (Bernd's Grand), with
    the page's bid of 18 left as it was (the bid counts only when a game is overbid)."""
    page = html(client.get(url(skat)))
    grid = page.split('id="q-contract"')[1].split("</fieldset>")[0]
    assert 'value="grand@1"' in grid and "Bernd: Grand" in grid and 'value="ramsch"' in grid
    assert 'id="q-declarer"' not in page
    assert "Bid (counts only when overbid)" in page
    response = client.post(url(skat, "deals/new/"), {"contract": "grand@1", "bid": 18, "matadors": 2,
                                                     "card_points": 70}, headers=HX)
    assert response.status_code == 200
    deal = Deal.objects.get()
    assert deal.facts == {"contract": "grand", "declarer": deal.seating.index(1), "bid": 18, "matadors": 2,
                          "card_points": 70}
    assert "Deal 1 saved: Bernd: Grand · won 72" in html(response)


# --- issue 28: a deal kept on a phone for another deal number -----------------------------------------------

def test_a_deal_entered_meanwhile_is_said_before_the_seats_are_checked(client: Client, skat: CardNight) -> None:
    """Two phones on deal 1 at a table of four: the second's Bernd declared, and Bernd deals deal 2 (he sits
    out). The answer says whose deal 1 it was and what (the outbox reads #conflict), never Django's
    "Select a valid choice"; at the declarer, in the players' words, who does not play deal 2."""
    nights.enter_deal(table_of(skat), GRAND, by="Clara")  # deal 1: Anna deals, Bernd declares
    sent = {"contract": "grand@1", "bid": 48, "matadors": 2, "card_points": 70, "key": "second-phone-1",
            "expected": "1"}
    page = html(client.post(url(skat, "deals/new/"), sent, headers={"HX-Target": "table-region", **HX}))
    assert "Deal 1 was entered meanwhile on another phone by Clara (Game: Grand" in page
    assert re.search(r'<div id="conflict" hidden data-next="2"><p data-number="1">Deal 1 was entered', page)
    assert "valid choice" not in page
    assert "Not in this deal: Bernd (Bernd deals) — tap one of Clara, Dieter, Anna." in page
    assert Deal.objects.count() == 1


def test_the_same_deal_from_a_second_phone_is_stored_once_unless_the_scorer_says_it_was_played_twice(
        client: Client, skat: CardNight) -> None:
    """Two phones type Clara's Grand as deal 1; the first stores it. The second is told, and its form is for deal
    2 with everything typed: saving it again (a tap, or after a reload: the draft keeps `same_as`) is refused
    as most likely deal 1 — a copy of deal 1 had been one tap away. "Save as deal 2" stores it, as does a
    deal with other entries."""
    clara = {"contract": "grand@2", "bid": 48, "matadors": 2, "card_points": 70}
    assert client.post(url(skat, "deals/new/"), {**clara, "key": "phone-a", "expected": "1"}).status_code == 303
    stale = html(client.post(url(skat, "deals/new/"), {**clara, "key": "phone-b", "expected": "1"}, headers=HX))
    assert "Deal 1 was entered meanwhile on another phone" in stale
    assert 'name="same_as" value="1"' in stale and 'name="second" value="1"' in stale
    assert "Save as deal 2" in stale and "data-leave-draft" in stale
    again = {**clara, "key": "phone-b", "expected": "2", "same_as": "1"}
    twin = html(client.post(url(skat, "deals/new/"), again, headers=HX))
    assert "Deal 1, entered meanwhile on another phone, has the same entries" in unescape(twin)
    assert 'name="same_as" value="1"' in twin and Deal.objects.count() == 1
    second = html(client.post(url(skat, "deals/new/"), {**again, "second": "1"}, headers=HX))
    assert "Deal 2 saved" in second and Deal.objects.count() == 2
    other = {**again, "contract": "grand@0", "key": "phone-b-3", "expected": "3", "card_points": "75"}
    assert "Deal 3 saved" in html(client.post(url(skat, "deals/new/"), other, headers=HX))
    assert [d.facts["card_points"] for d in Deal.objects.order_by("sequence")] == [70, 70, 75]


def test_a_request_sent_again_after_its_deal_was_stored_is_answered_as_stored(client: Client,
                                                                             skat: CardNight) -> None:
    """An outbox sends a deal again when the answer was lost: Bernd's Grand was stored as deal 1, and Bernd
    sits out deal 2 — the repeat is "saved already", not a refusal of its declarer, and stores nothing."""
    sent = {"contract": "grand@1", "bid": 48, "matadors": 2, "card_points": 70, "key": "lost-answer-1",
            "expected": "1"}
    assert client.post(url(skat, "deals/new/"), sent).status_code == 303
    page = html(client.post(url(skat, "deals/new/"), sent, headers={"HX-Target": "table-region", **HX}))
    assert "This deal was saved already" in page
    assert "meanwhile" not in page and "Not in this deal" not in page
    assert Deal.objects.count() == 1


# --- the saved line states what the list books (issue 28, item 6) ------------------------------------------

SAVED_LINES = [
    # A surrendered Kieker with Ruten is worth 20, but the declarer is charged a share of it.
    pytest.param("fipsen", "classic", FOUR, {"contract": "kieker", "declarer": 1, "ruten": True, "surrendered": True},
                 "Bernd: Kieker Ruten · surrendered · lost 5", 1, "−5", id="fipsen-kieker-ruten-surrendered"),
    # A Zolo du is worth 10 to each of the three; the lone player pays all three.
    pytest.param("kop", "classic", FOUR, {"contract": "zolo_du", "old": [1], "old_tricks": 2, "card_points": 41},
                 "lost 30", 1, "−30", id="kop-zolo-du-lost"),
    # A lost Skat game is charged twice its value.
    pytest.param("skat", "classic", FOUR[:3], {"contract": "hearts", "declarer": 1, "bid": 18, "matadors": 1,
                                               "card_points": 50}, "lost 40", 1, "−40", id="skat-lost"),
    pytest.param("skat", "classic", FOUR[:3], {"contract": "grand", "declarer": 2, "bid": 18, "matadors": 1,
                                               "card_points": 70}, "won 48", 2, "+48", id="skat-won"),
    pytest.param("schafkopf", "bsv", FOUR, {"contract": "sauspiel", "declarer": 1, "partner": 3, "card_points": 50},
                 "lost €0.10", 1, "−€0.10", id="schafkopf-sauspiel-lost"),
    pytest.param("fipsen", "classic", FOUR, {"contract": "tricks", "declarer": 2, "bid": 3, "tricks_taken": 3},
                 "won 3", 2, "+3", id="fipsen-bid-made"),
    # Nobody declares a Ramsch: the row names who lost it (it named nobody, in the list and the CSV alike).
    pytest.param("schafkopf", "sauspiel", FOUR, {"contract": "ramsch", "points": [40, 35, 45, 0],
                                                 "tricks": [3, 2, 3, 0]},
                 "Clara: Ramsch · lost €1.20", 2, "−€1.20", id="schafkopf-ramsch-loser"),
]


@pytest.mark.parametrize(("game", "preset", "players", "facts", "says", "declarer", "booked"), SAVED_LINES)
def test_the_saved_line_states_the_amount_the_list_books_for_the_declaring_side(
        client: Client, db: None, game: str, preset: str, players: list[str], facts: dict[str, Any], says: str,
        declarer: int, booked: str) -> None:
    night = nights.start_night(game=game, preset=preset, players=players)
    nights.enter_deal(table_of(night), facts)
    page = html(client.get(url(night) + "?saved=1"))
    line = re.search(r'<p class="saved[^"]*">Deal 1 saved: ([^<]*)</p>', page)
    assert line is not None, page
    assert line.group(1).endswith(says)
    # The latest row (what the list books) charges the declarer that amount, and its line says it too.
    row = page.split('id="latest-1"')[1].split("</tr>")[0]
    cells = re.findall(r'<td class="player[^"]*">([^<]*)</td>', row)
    assert cells[declarer] == booked
    what = page.split('id="latest-1"')[1].split('class="what">')[1].split("<")[0]
    assert what.endswith(says)


# --- players' names at a table (issue 28, item 5) -----------------------------------------------------------

def test_short_names_stay_unique_at_the_table() -> None:
    from scorekeep.words.labels import table_names

    assert table_names(["Winnie Schmidt", "Winnie Müller", "Anna", "Bernd Berg"]) == [
        "Winnie S.", "Winnie M.", "Anna", "Bernd"]
    assert table_names(["Winnie Schmidt", "Winnie Smith", "Winnie"]) == ["Winnie Sc.", "Winnie Sm.", "Winnie"]
    # Nothing shorter tells them apart: whole.
    assert table_names(["Winnie Schmidt", "Winnie Sch"]) == ["Winnie Schm.", "Winnie Sch"]


def test_the_table_page_names_two_players_with_one_first_name_apart(client: Client, db: None) -> None:
    night = nights.start_night(game="skat", preset="classic", players=["Winnie Schmidt", "Winnie Müller", "Clara"])
    nights.enter_deal(table_of(night), {**GRAND, "declarer": 0})
    page = html(client.get(url(night)))
    assert '<span class="name">Winnie S.</span>' in page and '<span class="name">Winnie M.</span>' in page
    assert "Winnie S.: Grand · won 72" in page
