"""A tournament's standings (scorekeep.tournaments.standings) and their pages: from the tables' kept standings only,
ties and lots, withdrawals and late entries, teams, and 304 while nothing changed."""

import gzip
import re
from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape

from scorekeep.models import CardTable, Entrant, Tournament
from scorekeep.nights import ledger
from scorekeep.nights import writes as nights
from scorekeep.rules.ranking import UNRANKED
from scorekeep.tournaments import standing_rows, standings
from scorekeep.web import throttle
from tests.tournament_fixtures import draw, tournament

pytestmark = pytest.mark.django_db


def grand(declarer: int, card_points: int) -> dict[str, Any]:
    return {"contract": "grand", "declarer": declarer, "bid": 18, "matadors": -1, "card_points": card_points}


def by_number(now: standings.TournamentStandings) -> dict[int, standings.Line]:
    return {line.number: line for line in now.lines}


def test_skat_standings_add_each_series_seeger_fabian_points_per_player() -> None:
    tour = tournament("skat", "isko", players=6)
    t1, t2 = draw(tour, 1, [[1, 2, 3], [4, 5, 6]])
    nights.enter_deal(t1, grand(0, 70))  # at a table of three seat 0 is the first seated: Player 1 wins, 48 + 50
    nights.enter_deal(t2, grand(0, 40))  # Player 4 loses: −96 − 50; Players 5 and 6 get 40 each
    now = standings.standings(tour)
    line = by_number(now)
    assert line[1].total["performance"] == 48 + 50 and line[1].total["won"] == 1
    assert line[4].total["performance"] == -96 - 50 and line[4].total["lost"] == 1
    assert line[5].total["performance"] == line[6].total["performance"] == 40
    assert [ln.number for ln in now.lines] == [1, 5, 6, 2, 3, 4]
    assert [ln.place for ln in now.lines] == [1, 2, 2, 4, 4, 6]  # tied on everything: they share a place
    assert now.tied == [[5, 6], [2, 3]]


def test_the_standings_read_no_deal_and_cost_the_same_at_any_number_of_deals() -> None:
    tour = tournament("skat", "isko", players=6)
    t1, t2 = draw(tour, 1, [[1, 2, 3], [4, 5, 6]])
    nights.enter_deal(t1, grand(0, 70))
    tour = Tournament.objects.select_related("club").get(pk=tour.pk)
    with CaptureQueriesContext(connection) as few:
        standings.standings(tour)
    for _ in range(6):
        nights.enter_deal(t1, grand(1, 70))
        nights.enter_deal(t2, grand(2, 30))
    tour = Tournament.objects.select_related("club").get(pk=tour.pk)
    with CaptureQueriesContext(connection) as many:
        standings.standings(tour)
    assert len(many) == len(few) == 4  # entrants, series, tables, their players
    assert not any("scorekeep_deal" in q["sql"] for q in many.captured_queries)


def test_a_lot_breaks_a_tie_and_is_shown_as_such() -> None:
    tour = tournament("skat", "isko", players=3)
    (t1,) = draw(tour, 1, [[1, 2, 3]])
    nights.enter_deal(t1, {"contract": "passed"})
    now = standings.standings(tour)
    assert {ln.place for ln in now.lines} == {1} and now.tied == [[1, 2, 3]]
    drawn = standings.draw_lot(tour, standings.OVERALL, by="host")
    assert sorted(drawn) == [1, 2, 3]
    tour.refresh_from_db()
    now = standings.standings(tour)
    assert [ln.number for ln in now.lines] == drawn
    assert [ln.place for ln in now.lines] == [1, 2, 3] and all(ln.by_lot for ln in now.lines)
    assert tour.revisions.filter(kind="lot").count() == 1
    assert standings.draw_lot(tour, standings.OVERALL) == []  # no tie left: nothing drawn, nothing stored
    assert tour.revisions.filter(kind="lot").count() == 1


def test_withdrawals_and_late_entries_are_shown_and_movement_follows_the_series() -> None:
    tour = tournament("skat", "isko", players=4)
    Entrant.objects.filter(tournament=tour, number=1).update(last_series=1)
    Entrant.objects.filter(tournament=tour, number=4).update(first_series=2)
    (s1,) = draw(tour, 1, [[1, 2, 3]])
    nights.enter_deal(s1, grand(1, 70))  # Player 2: +98
    nights.enter_deal(s1, grand(2, 40))  # Player 3: −146; Players 1 and 2 +40 each
    (s2,) = draw(tour, 2, [[2, 3, 4]])
    nights.enter_deal(s2, grand(2, 70))  # Player 4 (late): +98
    nights.enter_deal(s2, grand(0, 70))  # Player 2: +98
    now = standings.standings(tour)
    line = by_number(now)
    assert line[1].withdrew == 1 and line[1].series[1] is None
    assert line[4].joined == 2 and line[4].series[0] is None
    assert now.played == 2
    # after series 1: 2 (138), 1 (40), 3 (−146), and 4 (joins in series 2) not ranked (issue 31: a late
    # entrant's 0 is no result); now: 2 (236), 4 (98), 1 (40), 3 (−146) — 4 has no movement, having had no place
    assert [(ln.number, ln.place, ln.movement) for ln in now.lines] == [(2, 1, 0), (4, 2, None), (1, 3, -1),
                                                                        (3, 4, -1)]
    after_one = standings.standings(tour, upto=1)
    assert after_one.numbers == [1] and after_one.played == 1
    assert [(ln.number, ln.place) for ln in after_one.lines] == [(2, 1), (1, 2), (3, 3), (4, UNRANKED)]
    assert after_one.tied == []  # the unranked are no tie to draw a lot for
    assert standing_rows.rows(after_one, after_one.lines)[3]["notes"] == ["joins in series 2; not ranked before"]
    one = standings.standings(tour, series=2)
    assert [(ln.number, ln.table) for ln in one.lines][:2] == [(2, 1), (4, 1)]
    assert 1 not in by_number(one)  # withdrew after series 1: not in the list of series 2
    assert by_number(standings.standings(tour, series=1))[1].series[0] is not None
    assert 4 not in by_number(standings.standings(tour, series=1))  # joined in series 2


def test_team_standings_sum_the_members() -> None:
    tour = tournament("skat", "isko", players=6, teams=["Nord", "Süd"])
    t1, t2 = draw(tour, 1, [[1, 2, 3], [4, 5, 6]])
    nights.enter_deal(t1, grand(0, 70))  # Player 1 (Nord) +98
    nights.enter_deal(t2, grand(0, 40))  # Player 4 (Süd) −146, Players 5 (Nord), 6 (Süd) +40 each
    now = standings.standings(tour)
    teams = {t.name: t for t in now.teams}
    assert teams["Nord"].total["performance"] == 98 + 40 and teams["Nord"].place == 1
    assert teams["Süd"].total["performance"] == -146 + 40 and teams["Süd"].place == 2


def test_a_deal_at_a_tournament_table_moves_the_standings_version_on_without_writing_the_tournament() -> None:
    tour = tournament("skat", "isko", players=3)
    (t1,) = draw(tour, 1, [[1, 2, 3]])
    own = Tournament.objects.get(pk=tour.pk).version
    before = standings.version(tour)
    deal = nights.enter_deal(t1, grand(0, 70))
    after_deal = standings.version(tour)
    assert after_deal != before
    nights.correct_deal(deal, grand(0, 40), reason="typo")
    assert standings.version(tour) not in (before, after_deal)
    assert Tournament.objects.get(pk=tour.pk).version == own  # no table waits for the tournament's row
    assert by_number(standings.standings(tour))[1].total["lost"] == 1  # the correction is followed


def kop_deal(old: list[int], card_points: int, old_tricks: int) -> dict[str, Any]:
    return {"contract": "normal", "old": old, "card_points": card_points, "old_tricks": old_tricks}


def test_kop_ranks_by_placing_points_then_small_points_then_round_wins() -> None:
    tour = tournament("kop", "koscian", players=4)
    (t1,) = draw(tour, 1, [[1, 2, 3, 4]], round_length=2)
    nights.enter_deal(t1, kop_deal([0, 1], 60, 2))  # +1 +1 −1 −1
    nights.enter_deal(t1, kop_deal([0, 2], 60, 2))  # +1 −1 +1 −1 → round: 2, 0, 0, −2: places 1, 2, 2, 4
    now = standings.standings(tour)
    assert [c.key for c in now.order] == ["placing", "total", "round_wins", "second_places"]
    line = by_number(now)
    assert line[1].total["placing"] == 5 and line[1].total["round_wins"] == 1
    assert line[2].total["placing"] == line[3].total["placing"] == 2  # 3 and 1 shared
    assert line[2].total["second_places"] == line[3].total["second_places"] == 1
    assert [ln.place for ln in now.lines] == [1, 2, 2, 4]


def test_a_kop_table_without_a_round_length_plays_its_series_as_one_round() -> None:
    tour = tournament("kop", "wolsztyn", players=4)
    (t1,) = draw(tour, 1, [[1, 2, 3, 4]])
    nights.enter_deal(t1, kop_deal([0, 1], 60, 2))  # +1 +1 −1 −1: 1 and 2 share first
    line = by_number(standings.standings(tour))
    assert line[1].total["placing"] == line[2].total["placing"] == Fraction(7, 2)
    assert line[1].total["round_wins"] == line[2].total["round_wins"] == 1
    assert line[3].total["second_places"] == 0 and line[3].total["round_wins"] == 0


def test_schafkopf_ties_on_the_total_go_to_more_soli_won() -> None:
    tour = tournament("schafkopf", "bsv", players=4)
    (t1,) = draw(tour, 1, [[1, 2, 3, 4]])
    nights.enter_deal(t1, {"contract": "sauspiel", "declarer": 0, "partner": 2, "card_points": 70})
    nights.enter_deal(t1, {"contract": "wenz", "declarer": 1, "card_points": 61})
    line = by_number(standings.standings(tour))
    soli = {n: line[n].total["soli_won"] for n in line}
    assert sorted(soli.values()) == [0, 0, 0, 1]
    assert sum(line[n].total["total"] for n in line) == 0


# --- the pages -----------------------------------------------------------------------------------------

def test_the_organiser_sees_the_standings_and_draws_a_lot(client: Client, host: User) -> None:
    tour = tournament("skat", "isko", players=3, host=host)  # the conftest's client is logged in as `host`
    (t1,) = draw(tour, 1, [[1, 2, 3]])
    nights.enter_deal(t1, {"contract": "passed"})
    url = f"/tournaments/{tour.pk}/standings/"
    assert Client().get(url).status_code == 302  # log-in first
    page = client.get(url)
    assert page.status_code == 200 and "Player 3" in page.content.decode()
    assert "Draw the lot" in page.content.decode()
    answer = client.post(url, {"scope": "overall"})
    assert answer.status_code == 303
    page = client.get(url).content.decode()
    assert page.count("tie broken by lot") == 3
    refused = client.post(url, {"scope": "series-9"})
    assert refused.status_code == 400 and "scope" in refused.content.decode()


def test_another_account_gets_404(client: Client, host: User, django_user_model: Any) -> None:
    tour = tournament("skat", "isko", players=3)
    client.force_login(django_user_model.objects.create_user("stranger", password="pw"))
    assert client.get(f"/tournaments/{tour.pk}/standings/").status_code == 404


def test_the_viewer_link_polls_with_304_until_a_deal_is_entered(client: Client) -> None:
    tour = tournament("skat", "isko", players=3)
    (t1,) = draw(tour, 1, [[1, 2, 3]])
    for url in (f"/standings/{tour.viewer_token}/", f"/standings/{tour.viewer_token}/screen/"):
        first = client.get(url)
        assert first.status_code == 200 and "Player 1" in first.content.decode()
        poll = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "live-standings"}
        tag = first["ETag"]
        assert client.get(url, HTTP_IF_NONE_MATCH=tag, **poll).status_code == 304
        nights.enter_deal(t1, grand(0, 70))
        changed = client.get(url, HTTP_IF_NONE_MATCH=tag, **poll)
        assert changed.status_code == 200 and changed["ETag"] != tag
        assert "<html" not in changed.content.decode() and "Player 1" in changed.content.decode()


def frozen_clock(monkeypatch: Any) -> list[float]:
    """The standings' clock, stopped at a moment the test moves by hand (``clock[0] += 6``)."""
    clock = [1_000_000.0]
    monkeypatch.setattr("scorekeep.tournaments.standings_views.time.time", lambda: clock[0])
    return clock


def three_at_one_table() -> tuple[Any, Any]:
    """A Skat tournament (ISkO) of three players, drawn to one table for the first series."""
    tour = tournament("skat", "isko", players=3)
    (t1,) = draw(tour, 1, [[1, 2, 3]])
    return tour, t1


def test_viewers_share_one_board_for_a_few_seconds_while_the_tables_keep_changing(client: Client, settings: Any,
                                                                                 monkeypatch: Any) -> None:
    settings.SCOREKEEP_STANDINGS_FRESH = 5
    clock = frozen_clock(monkeypatch)
    tour, t1 = three_at_one_table()
    url, poll = f"/standings/{tour.viewer_token}/screen/", {"HTTP_HX_REQUEST": "true",
                                                            "HTTP_HX_TARGET": "live-standings"}
    first = client.get(url, **poll)
    assert first.status_code == 200
    nights.enter_deal(t1, grand(0, 70))  # the standings changed: Player 1 won a Grand
    clock[0] += 4  # … but the board computed 4 s ago is still served, with its own ETag
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **poll).status_code == 304
    other_viewer = client.get(url, **poll)
    assert other_viewer["ETag"] == first["ETag"] and other_viewer.content == first.content
    whole_page = client.get(url)  # a screen opened now: the page around the same board
    assert whole_page["ETag"] == first["ETag"] and first.content.decode() in whole_page.content.decode()
    clock[0] += 2  # older than 5 s: computed again, the deal in it
    fresh = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **poll)
    assert fresh.status_code == 200 and fresh["ETag"] != first["ETag"] and fresh.content != first.content
    assert client.get(url, HTTP_IF_NONE_MATCH=fresh["ETag"], **poll).status_code == 304


def test_a_viewer_poll_is_answered_from_the_shared_board_with_its_own_etag_without_reading_a_table(
        client: Client, host: User, settings: Any, monkeypatch: Any) -> None:
    settings.SCOREKEEP_STANDINGS_FRESH = 5
    clock = frozen_clock(monkeypatch)
    tour, t1 = three_at_one_table()
    deal = nights.enter_deal(t1, grand(0, 70))
    poll = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "live-standings"}
    tags = {}
    for url in (f"/standings/{tour.viewer_token}/", f"/standings/{tour.viewer_token}/screen/"):
        first = client.get(url, **poll)
        tags[url] = first["ETag"]
        assert first.status_code == 200 and f'data-etag="{escape(first["ETag"])}"' in first.content.decode()
        with CaptureQueriesContext(connection) as queries:
            again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **poll)
        assert again.status_code == 304 and again["ETag"] == first["ETag"]
        assert [q["sql"] for q in queries] == []  # not a table, nor the session or the tournament: the cache alone
    # A correction that leaves every figure as it was moves the tables' versions on, not the board: once the
    # window is over the board is computed again, and the same board keeps its ETag (the sum of the tables'
    # versions would have changed with it)
    nights.correct_deal(deal, grand(0, 70), reason="same")
    clock[0] += 6
    for url, tag in tags.items():
        assert client.get(url, HTTP_IF_NONE_MATCH=tag, **poll).status_code == 304
    # The organiser's page is current at every poll, whatever the viewers' window
    client.force_login(host)
    mine = f"/tournaments/{tour.pk}/standings/"
    before = client.get(mine, **poll)
    nights.enter_deal(t1, grand(1, 70))
    after = client.get(mine, HTTP_IF_NONE_MATCH=before["ETag"], **poll)
    assert after.status_code == 200 and after.content != before.content


def test_the_big_screen_pages_by_script_and_shows_every_row_without_it(client: Client) -> None:
    tour = tournament("skat", "isko", players=30)
    page = client.get(f"/standings/{tour.viewer_token}/screen/").content.decode()
    assert "js/bigscreen.js" in page and 'data-rows="12"' in page
    assert page.count("<tr>") == 31 and "paged-out" not in page  # the rows are hidden by the script only
    assert "<script>" not in page  # nothing inline (CSP)


def test_a_series_that_does_not_exist_is_refused_by_name(client: Client) -> None:
    tour = tournament("skat", "isko", players=3)
    answer = client.get(f"/standings/{tour.viewer_token}/?series=7")
    assert answer.status_code == 400
    assert "series: “7” is not a series of this tournament" in answer.content.decode()
    assert client.get("/standings/nonsense/").status_code == 404


def test_teams_still_tied_get_a_lot_of_their_own(client: Client, host: User) -> None:
    tour = tournament("skat", "isko", players=4, teams=["Nord", "Süd"], host=host)
    draw(tour, 1, [[1, 2, 3, 4]])
    now = standings.standings(tour)
    assert len(now.teams_tied) == 1 and {t.place for t in now.teams} == {1}
    url = f"/tournaments/{tour.pk}/standings/"
    assert "Draw the lot for the teams" in client.get(url).content.decode()
    assert client.post(url, {"scope": "teams"}).status_code == 303
    tour.refresh_from_db()
    teams = standings.standings(tour).teams
    assert [t.place for t in teams] == [1, 2] and all(t.by_lot for t in teams)


@pytest.mark.parametrize(("language", "words"), [("de", ["Gesamtstand", "SF-Punkte", "Gleichstand durch Los"]),
                                                 ("ja", ["総合成績", "SF点", "同点をくじで決定"])])
def test_the_big_screen_speaks_the_viewer_s_language(language: str, words: list[str]) -> None:
    tour = tournament("skat", "isko", players=3)
    draw(tour, 1, [[1, 2, 3]])
    standings.draw_lot(tour, standings.OVERALL)
    page = Client().get(f"/standings/{tour.viewer_token}/screen/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for word in words:
        assert word in page


def test_a_standing_kept_before_tournaments_is_walked_once_and_kept_again() -> None:
    tour = tournament("schafkopf", "bsv", players=4)
    (t1,) = draw(tour, 1, [[1, 2, 3, 4]])
    nights.enter_deal(t1, {"contract": "wenz", "declarer": 1, "card_points": 61})
    t1.refresh_from_db()
    old = {key: value for key, value in t1.standing.items() if key not in ledger.TableStanding.KEPT_SINCE_TOURNAMENTS}
    CardTable.objects.filter(pk=t1.pk).update(standing=old)
    t1.refresh_from_db()
    with CaptureQueriesContext(connection) as walked:
        now = ledger.TableStanding.of(t1)
    assert any("scorekeep_deal" in q["sql"] for q in walked.captured_queries)
    assert sorted(now.soli_won) == [0, 0, 0, 1]
    t1.refresh_from_db()
    assert t1.standing["soli_won"] == now.soli_won
    with CaptureQueriesContext(connection) as kept:
        assert ledger.TableStanding.of(t1).soli_won == now.soli_won
    assert len(kept) == 0


@pytest.mark.parametrize("game", ["skat", "schafkopf", "kop", "fipsen"])
def test_the_standings_of_a_tournament_the_organiser_flow_made(game: str, host: User) -> None:
    from scorekeep.rules import GAMES
    from scorekeep.tournaments import writes as tournaments

    club = Tournament._meta.get_field("club").related_model.objects.create(name="Verein", owner=host)
    preset = {"skat": "isko", "schafkopf": "bsv", "kop": "koscian", "fipsen": "classic"}[game]
    tour = tournaments.create_tournament(club=club, name="Offen", game=game, preset=preset, series_count=2,
                                         series_length=48 if game == "skat" else 32)
    for n in range(8):
        tournaments.register(tour, name=f"Spieler {n + 1}")
    tournaments.draw_series(tour, 1, seed="stand", host=host)
    before = standings.version(tour)
    first = CardTable.objects.filter(night__series__tournament=tour).order_by("number").first()
    assert first is not None
    deal = {"kop": kop_deal([0, 1], 60, 2), "schafkopf": {"contract": "wenz", "declarer": 1, "card_points": 61}}
    nights.enter_deal(first, deal.get(game, {"contract": "passed"}))
    tour = Tournament.objects.get(pk=tour.pk)
    assert standings.version(tour) != before
    now = standings.standings(tour)
    assert [c.key for c in now.order] == list(GAMES[game].tournament_ranking(
        GAMES[game].parse_rules(tour.rules_request)))
    assert len(now.lines) == 8 and all(line.series[0] is not None for line in now.lines)
    assert now.played == 1
    if game == "schafkopf":
        assert sum(line.total["soli_won"] for line in now.lines) == 1


CSRF_IN_PAGE = re.compile(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")([^"]+)"')
POLL = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "live-standings"}


def csrf_tokens(page: str) -> set[str]:
    return {found.group(2) for found in CSRF_IN_PAGE.finditer(page)}


def without_csrf(page: str) -> str:
    return CSRF_IN_PAGE.sub(r'\1…"', page)


def as_kept(page: str) -> str:
    """A viewers' page rendered for one viewer, as the page kept for all of them has it: no CSRF token (neither
    htmx's header nor the language form's), the language form posting to the switch that takes none."""
    page = page.replace("""<body hx-headers='{"X-CSRFToken": \"""", "<body data-csrf=\"")
    page = re.sub(r'<body data-csrf="[^"]+"}\'>', "<body>", page)
    page = re.sub(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]+">', "", page)
    return page.replace('action="/i18n/setlang/"', 'action="/i18n/setlang/shared/"')


def test_a_viewer_opening_the_standings_gets_the_page_kept_for_everyone_reading_only_the_throttle(
        settings: Any, monkeypatch: Any) -> None:
    settings.SCOREKEEP_STANDINGS_FRESH = 5
    frozen_clock(monkeypatch)  # the kept page and board stay fresh
    tour, t1 = three_at_one_table()
    nights.enter_deal(t1, grand(0, 70))
    for url in (f"/standings/{tour.viewer_token}/", f"/standings/{tour.viewer_token}/screen/",
                f"/standings/{tour.viewer_token}/?series=1"):
        first = Client().get(url)
        assert first.status_code == 200
        viewer = Client(enforce_csrf_checks=True)
        with CaptureQueriesContext(connection) as queries:
            kept = viewer.get(url)
        # One read of the link throttle (an address past its limit is refused even a kept page), no write: not
        # the session, not the tournament, no count.
        assert len(queries) == 1 and "scorekeep_attempt" in queries[0]["sql"], [q["sql"] for q in queries]
        assert kept.status_code == 200 and kept["ETag"] == first["ETag"]
        # The same page for every viewer: no CSRF token in it, no cookie set
        assert kept.content == first.content and not kept.cookies
        page = kept.content.decode()
        assert "Player 1" in page and "<html" in page and not csrf_tokens(page) and "X-CSRFToken" not in page
        # … and as rendering it for this viewer would give, but for the CSRF token
        with monkeypatch.context() as rendered:
            rendered.setattr("scorekeep.tournaments.standings_views._page_key", lambda request, key: None)
            afresh = Client().get(url)
        assert page == as_kept(afresh.content.decode())
        # Kept gzipped too, for every browser (they all take it): compressed once, not once a viewer
        zipped = Client().get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
        assert zipped["Content-Encoding"] == "gzip" and "Accept-Encoding" in zipped["Vary"]
        assert gzip.decompress(zipped.content) == kept.content
        # The language switch takes no token here, and the page follows it
        switched = viewer.post("/i18n/setlang/shared/", {"language": "de", "next": url})
        assert switched.status_code == 302 and switched["Location"] == url
        assert "Gesamtstand" in viewer.get(url).content.decode() or "?series=" in url


def test_a_kept_standings_page_is_never_older_than_the_window(settings: Any, monkeypatch: Any) -> None:
    settings.SCOREKEEP_STANDINGS_FRESH = 5
    clock = frozen_clock(monkeypatch)
    tour, t1 = three_at_one_table()
    url = f"/standings/{tour.viewer_token}/"

    def rename(name: str) -> None:  # an organiser's change of what the page shows: the version moves on with it
        Tournament.objects.filter(pk=tour.pk).update(name=name, version=F("version") + 1)

    first = Client().get(url)
    rename("Renamed open")
    nights.enter_deal(t1, grand(0, 70))
    clock[0] += 4  # within the window: the page kept, round the board kept
    kept = Client().get(url)
    assert kept["ETag"] == first["ETag"] and without_csrf(kept.content.decode()) == without_csrf(
        first.content.decode())
    clock[0] += 2  # the board is older than the window: computed again, and the page round it rendered again
    later = Client().get(url)
    assert later["ETag"] != first["ETag"] and "Renamed open" in later.content.decode()
    # A board computed afresh by a poll after the organiser's next change: the page kept from before that
    # change is not put round it, even though the board is fresh
    rename("Final open")
    clock[0] += 6
    assert Client().get(url, **POLL).status_code == 200
    page = Client().get(url).content.decode()
    assert "Final open" in page and "Renamed open" not in page


@pytest.mark.parametrize(("kind", "path"), [("phone", ""), ("screen", "screen/")])
def test_a_kept_standings_page_is_in_the_viewer_s_language_and_never_another_s(kind: str, path: str,
                                                                               settings: Any) -> None:
    settings.SCOREKEEP_STANDINGS_FRESH = 60  # every page open within the window: from the kept pages
    tour = tournament("skat", "isko", players=3)
    draw(tour, 1, [[1, 2, 3]])
    url = f"/standings/{tour.viewer_token}/{path}"
    words = {"en": "Overall standings", "de": "Gesamtstand", "ja": "総合成績"}
    for _round in range(2):  # the second time round, every language's page is kept
        for language, word in words.items():
            page = Client().get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
            assert f'<html lang="{language}">' in page and word in page, (kind, language)
            assert not any(other in page for other in words.values() if other != word), (kind, language)


def test_an_organiser_opening_the_viewer_link_gets_the_page_of_their_account(client: Client, host: User,
                                                                             settings: Any) -> None:
    settings.SCOREKEEP_STANDINGS_FRESH = 60
    tour = tournament("skat", "isko", players=3, host=host)
    draw(tour, 1, [[1, 2, 3]])
    url = f"/standings/{tour.viewer_token}/"
    assert "Log in" in Client().get(url).content.decode()  # an anonymous viewer's page, kept
    client.force_login(host)
    mine = client.get(url).content.decode()
    assert host.get_username() in mine and "Log out" in mine
    anonymous = Client().get(url).content.decode()
    assert host.get_username() not in anonymous and "Log out" not in anonymous


def test_without_a_cache_every_standings_page_is_computed_and_current(monkeypatch: Any) -> None:
    from django.core.cache.backends.dummy import DummyCache

    monkeypatch.setattr("scorekeep.tournaments.standings_views.cache", DummyCache("", {}))
    tour = tournament("skat", "isko", players=3)
    (t1,) = draw(tour, 1, [[1, 2, 3]])
    url = f"/standings/{tour.viewer_token}/"
    before = Client().get(url)
    nights.enter_deal(t1, grand(0, 70))
    after = Client().get(url)
    assert before.status_code == after.status_code == 200 and after["ETag"] != before["ETag"]


def test_a_poll_s_board_is_sent_gzipped_as_compressed_once_to_a_browser_that_takes_it(settings: Any,
                                                                                     monkeypatch: Any) -> None:
    settings.SCOREKEEP_STANDINGS_FRESH = 60
    compressed = []
    real = gzip.compress
    monkeypatch.setattr(gzip, "compress", lambda data, **options: compressed.append(1) or real(data, **options))
    tour = tournament("skat", "isko", players=30)
    draw(tour, 1, [[1, 2, 3]])
    for url in (f"/standings/{tour.viewer_token}/", f"/standings/{tour.viewer_token}/screen/"):
        plain = Client().get(url, **POLL)
        assert plain.status_code == 200 and "Content-Encoding" not in plain and "Player 30" in plain.content.decode()
        for _viewer in range(3):
            zipped = Client().get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br", **POLL)
            assert zipped["Content-Encoding"] == "gzip" and zipped["ETag"] == plain["ETag"]
            assert gzip.decompress(zipped.content) == plain.content and len(zipped.content) < len(plain.content) / 4
            assert "Accept-Encoding" in zipped["Vary"] and "Accept-Encoding" in plain["Vary"]
            assert Client().get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=zipped["ETag"],
                                **POLL).status_code == 304
    assert len(compressed) == 2  # once a board, not once a poll


def test_a_viewer_whose_page_came_from_the_cache_is_not_counted_by_the_throttle_when_the_board_is_renewed(
        settings: Any, monkeypatch: Any) -> None:
    settings.SCOREKEEP_STANDINGS_FRESH = 5
    clock = frozen_clock(monkeypatch)
    tour, t1 = three_at_one_table()
    url = f"/standings/{tour.viewer_token}/"
    Client().get(url)  # the first viewer: counted (and taken back), the board and the page kept
    counted = []
    real = throttle.count
    monkeypatch.setattr(throttle, "count", lambda *args: counted.append(args) or real(*args))
    viewer = Client()
    page = viewer.get(url)  # from the cache: no session remembers the token
    nights.enter_deal(t1, grand(0, 70))
    clock[0] += 6  # the board is renewed by this viewer's poll
    poll = viewer.get(url, HTTP_IF_NONE_MATCH=page["ETag"], **POLL)
    assert poll.status_code == 200 and poll["ETag"] != page["ETag"]
    assert counted == []  # a hall's phones behind one address would otherwise be refused past the limit
    assert Client().get(f"/standings/{'x' * 22}/").status_code == 404 and len(counted) == 1  # a wrong one counts


POLL_URL = re.compile(r'id="live-standings"[^>]*hx-get="([^"]+)"', re.S)


def poll_url(page: str) -> str:
    """Where a viewers' page polls its board (the section's hx-get), as the browser reads it."""
    found = POLL_URL.search(page)
    assert found is not None, page[:500]
    return found.group(1).replace("&amp;", "&")


@pytest.mark.parametrize(("kind", "path"), [("phone", ""), ("screen", "screen/")])
def test_viewers_poll_their_board_at_an_address_that_says_all_so_a_shared_cache_may_keep_it(
        kind: str, path: str, settings: Any, monkeypatch: Any) -> None:
    """Issue 32: the board's address names the token, the page, the language and the series; its answer reads
    nothing of the asker, so a balancer's cache may answer every viewer's poll while the board is fresh."""
    settings.SCOREKEEP_STANDINGS_FRESH = 5
    clock = frozen_clock(monkeypatch)
    tour, t1 = three_at_one_table()
    viewer = Client(HTTP_ACCEPT_LANGUAGE="ja")  # a Japanese phone …
    viewer.cookies["django_language"] = "de"  # … whose reader chose German
    page = viewer.get(f"/standings/{tour.viewer_token}/{path}")
    url = poll_url(page.content.decode())
    assert url == f"/standings/{tour.viewer_token}/board/{kind}/de/"
    clock[0] += 3
    board = Client().get(url)  # anyone asking it, any language of their own: the German board
    assert board.status_code == 200 and board["ETag"] == page["ETag"] and board["Content-Language"] == "de"
    text = board.content.decode()
    assert "<html" not in text and "Player 1" in text and poll_url(text) == url
    assert "Gesamtstand" in text and "Overall standings" not in text
    # Kept by a shared cache for what is left of the board's window, revalidated by a browser every time; it
    # varies with nothing but the compression, and sets no cookie (the session is not read)
    assert board["Cache-Control"] == "public, s-maxage=2" and board["Vary"] == "Accept-Encoding"
    assert not board.cookies and "sessionid" not in board.cookies
    unchanged = Client().get(url, HTTP_IF_NONE_MATCH=board["ETag"])  # no htmx headers needed: a board's address
    assert unchanged.status_code == 304 and unchanged["Cache-Control"] == "public, s-maxage=2"
    # A deal, and the window over: a new board, kept for a whole window again
    nights.enter_deal(t1, grand(0, 70))
    clock[0] += 3
    renewed = Client().get(url, HTTP_IF_NONE_MATCH=board["ETag"])
    assert renewed.status_code == 200 and renewed["ETag"] != board["ETag"]
    assert renewed["Cache-Control"] == "public, s-maxage=5"
    # A series' board polls its own address
    series = Client().get(f"/standings/{tour.viewer_token}/{path}?series=1")
    assert poll_url(series.content.decode()) == f"/standings/{tour.viewer_token}/board/{kind}/en/?series=1"


def test_the_board_address_refuses_what_it_cannot_answer_and_never_lets_a_refusal_be_kept(
        settings: Any, monkeypatch: Any) -> None:
    tour, _t1 = three_at_one_table()
    token = tour.viewer_token
    board = f"/standings/{token}/board/phone/en/"
    assert Client().get(f"/standings/{token}/board/phone/fr/").status_code == 404  # not a language of the site
    assert Client().get(f"/standings/{token}/board/organiser/en/").status_code == 404
    wrong_series = Client().get(board + "?series=7")
    assert wrong_series.status_code == 400 and "series" in wrong_series.content.decode()
    assert "public" not in wrong_series.get("Cache-Control", "")
    counted = []
    real = throttle.count
    monkeypatch.setattr(throttle, "count", lambda *args: counted.append(args) or real(*args))
    wrong = Client().get(f"/standings/{'x' * 22}/board/phone/en/")  # a wrong token counts, as any new visit
    assert wrong.status_code == 404 and len(counted) == 1 and "public" not in wrong.get("Cache-Control", "")
    settings.SCOREKEEP_STANDINGS_FRESH = 0  # no board fresh: every request looks the token up
    for _ in range(throttle.TOKEN_LIMIT):
        Client().get(f"/standings/{'y' * 22}/board/phone/en/")
    refused = Client().get(board)  # past the limit, the right token is refused too
    assert refused.status_code == 429 and "public" not in refused.get("Cache-Control", "")
