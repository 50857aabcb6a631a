"""The organiser's tournament (issue 18, `scorekeep.tournaments.writes` and its pages): creating one with its
settings checked, registration at the door, the draw stored and repeatable from its seed, each table a card
night whose scorer link works on the table page, the closing checks, withdrawals and late entries in the
next draw, the organiser's correction after a series closed, and only the club's hosts reaching any of it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeep.clubs import clubs
from scorekeep.models import CardNight, Club, DealRevision, Series, Tournament, TournamentRevision
from scorekeep.nights import writes as nights
from scorekeep.rules import GAMES
from scorekeep.rules.draw import pairs_of
from scorekeep.tournaments import standings
from scorekeep.tournaments import writes as tournaments

SEVEN = ["Anna", "Bernd", "Clara", "Dieter", "Erika", "Fritz", "Gisela"]


def grand(declarer: int, card_points: int = 70) -> dict[str, Any]:
    return {"contract": "grand", "declarer": declarer, "bid": 18, "matadors": -1, "card_points": card_points}


@pytest.fixture
def organiser(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("orga")


@pytest.fixture
def club(organiser: Any) -> Club:
    return clubs.home_club(organiser)


def skat(club: Club, **changes: Any) -> Tournament:
    settings: dict[str, Any] = {"name": "Herbstpreisskat", "game": "skat", "preset": "isko", "series_count": 2,
                                "series_length": 4, "entry_fee": 1000,
                                "lost_game_money": [{"from": 1, "amount": 50}, {"from": 4, "amount": 100}],
                                "prizes": {"kind": "shares", "places": [500, 300, 200],
                                           "retention": {"kind": "share", "value": 100}}}
    return tournaments.create_tournament(club=club, **(settings | changes))


@pytest.fixture
def seven(club: Club) -> Tournament:
    tournament = skat(club)
    for name in SEVEN:
        tournaments.register(tournament, name=name)
    return tournament


# --- creating one ------------------------------------------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize(("changes", "field"), [
    ({"game": "doppelkopf"}, "game"),
    ({"preset": "nonsense"}, "rules.preset"),
    ({"house_rules": {"kontra": "maybe"}}, "rules.kontra"),
    ({"series_length": 30}, "series_length"),
    ({"series_count": 0}, "series_count"),
    ({"name": "  "}, "name"),
    ({"entry_fee": -5}, "entry_fee"),
    ({"draw_mode": "by hat"}, "draw_mode"),
    ({"currency": "euro"}, "currency"),
    ({"lost_game_money": [{"from": 2, "amount": 50}]}, "lost_game_money"),
    ({"lost_game_money": [{"from": 1, "amount": 50}, {"from": 1, "amount": 100}]}, "lost_game_money"),
    ({"prizes": {"kind": "shares", "places": [600, 500]}}, "prizes"),
    ({"prizes": {"kind": "amounts", "places": [100, 200]}}, "prizes"),
    ({"prizes": {"kind": "lots", "places": [1]}}, "prizes"),
    ({"prizes": {"kind": "amounts", "places": [100], "retention": {"kind": "share", "value": 1200}}}, "prizes"),
], ids=lambda v: str(v))
def test_bad_settings_are_refused_naming_the_field(club: Club, changes: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError) as err:
        skat(club, **changes)
    assert field in err.value.message_dict
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_a_tournament_is_created_with_its_money_and_its_history(club: Club) -> None:
    tournament = skat(club)
    assert tournament.lost_game_money == [{"from": 1, "amount": 50}, {"from": 4, "amount": 100}]
    assert tournament.prizes["retention"] == {"kind": "share", "value": 100}
    assert [r.kind for r in tournament.revisions.all()] == ["created"]
    assert Tournament.objects.get().version == 1


# --- registration --------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_registration_numbers_players_and_keeps_guests_with_their_club(club: Club) -> None:
    nights.player_named(club, "Anna")
    tournament = skat(club, teams=True)
    anna = tournaments.register(tournament, name="anna", team="Kreuz")
    guest = tournaments.register(tournament, name="Zoë", guest=True, home_club="SC Grand Hand", number=10)
    third = tournaments.register(tournament, name="Bernd")
    assert (anna.number, guest.number, third.number) == (1, 10, 11)
    assert anna.player.name == "Anna" and anna.team is not None and anna.team.name == "Kreuz"
    assert guest.player.club == club and guest.guest and guest.home_club == "SC Grand Hand"
    with pytest.raises(ValidationError) as err:
        tournaments.register(tournament, name="ANNA")
    assert "name" in err.value.message_dict
    with pytest.raises(ValidationError) as err:
        tournaments.register(tournament, name="Clara", number=10)
    assert "number" in err.value.message_dict
    with pytest.raises(ValidationError) as err:
        tournaments.register(tournament, name="Clara", guest=True)
    assert "home_club" in err.value.message_dict
    assert tournament.revisions.filter(kind="registered").count() == 3


# --- the draw ----------------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_seven_skat_players_are_one_table_of_four_and_one_of_three(seven: Tournament, organiser: Any) -> None:
    series = tournaments.draw_series(seven, 1, seed="abc", host=organiser)
    tables = series.draw["tables"]
    assert sorted(len(t) for t in tables) == [3, 4]
    assert sorted(n for t in tables for n in t) == list(range(1, 8))
    night_tables = {night.tables.get().number: night for night in series.nights.all()}
    for number, drawn in enumerate(tables, start=1):
        night = night_tables[number]
        table = night.tables.get()
        assert [p.player.name for p in table.places.all()] == [SEVEN[n - 1] for n in drawn]
        assert night.series_length == (48 if len(drawn) == 4 else 36) // 12  # 4 at four, 3 at three
        assert night.game == "skat" and night.preset == "isko" and night.club == seven.club
        assert table.first_dealer == 0 and night.host == organiser
    # The same seed and entrants draw the same tables: the stored draw can be shown to be fair.
    assert tournaments.make_draw(seven, 1, "abc", "random").tables == tables


@pytest.mark.django_db
def test_a_redraw_is_refused_once_a_deal_is_entered(seven: Tournament) -> None:
    first = tournaments.draw_series(seven, 1, seed="a")
    again = tournaments.draw_series(seven, 1, seed="b")
    assert again.pk == first.pk and again.seed == "b" and CardNight.objects.count() == 2
    table = again.nights.first().tables.get()  # type: ignore[union-attr]
    nights.enter_deal(table, grand(0))
    with pytest.raises(ValidationError):
        tournaments.draw_series(seven, 1, seed="c")
    assert Series.objects.get().seed == "b"


@pytest.mark.django_db
def test_the_next_series_waits_for_the_last_to_close_and_avoids_repeat_pairs(club: Club) -> None:
    tournament = skat(club)
    for i in range(16):
        tournaments.register(tournament, name=f"Spieler {i}")
    first = tournaments.draw_series(tournament, 1, seed="one")
    with pytest.raises(ValidationError) as err:
        tournaments.draw_series(tournament, 2)
    assert "series" in err.value.message_dict
    tournaments.close_series(first, reason="test: no deals played")
    second = tournaments.draw_series(tournament, 2, seed="two")
    assert not pairs_of(second.draw["tables"]) & pairs_of(first.draw["tables"])


@pytest.mark.django_db
def test_a_withdrawal_and_a_late_entry_count_from_the_next_series(seven: Tournament) -> None:
    first = tournaments.draw_series(seven, 1, seed="x")
    tournaments.withdraw(seven.entrants.get(number=2))
    late = tournaments.register(seven, name="Heinz")
    assert late.first_series == 2
    tournaments.close_series(first, reason="nothing entered in this test")
    second = tournaments.draw_series(seven, 2, seed="y")
    seated = sorted(n for t in second.draw["tables"] for n in t)
    assert seated == [1, 3, 4, 5, 6, 7, 8]
    assert 2 in sorted(n for t in first.draw["tables"] for n in t)


# --- closing ---------------------------------------------------------------------------------------------

def play_out(series: Series) -> None:
    """Every table plays its series: each seat deals in turn, a Grand each time."""
    for night in series.nights.all():
        table = night.tables.get()
        for _ in range(night.series_length or 0):
            nights.enter_deal(table, grand(0))


@pytest.mark.django_db
def test_a_series_closes_when_every_list_is_complete(seven: Tournament) -> None:
    series = tournaments.draw_series(seven, 1, seed="s")
    checks = tournaments.table_checks(series)
    assert not any(check.done for check in checks)
    assert any("deals missing: 4 of 4" in p for c in checks for p in c.problems_in_words())
    with pytest.raises(ValidationError) as err:
        tournaments.close_series(series)
    assert "reason" in err.value.message_dict
    play_out(series)
    assert all(check.done for check in tournaments.table_checks(series))
    tournaments.close_series(series)
    assert Series.objects.get().closed
    assert all(night.finished for night in CardNight.objects.all())
    assert TournamentRevision.objects.filter(kind="closed").get().new["failed"] == {}


@pytest.mark.django_db
def test_a_list_whose_dealers_are_wrong_fails_its_check_by_name(seven: Tournament) -> None:
    series = tournaments.draw_series(seven, 1, seed="s")
    night = series.nights.get(tables__number=2)
    table = night.tables.get()
    for _ in range(night.series_length or 0):
        nights.enter_deal(table, grand(0), dealer=0)
    names = [p.player.name for p in table.places.all()]
    problems = next(c for c in tournaments.table_checks(series) if c.table.pk == table.pk).problems_in_words()
    assert f"{names[0]} dealt {night.series_length} times, not 1" in problems
    tournaments.close_series(series, reason="Tisch 2 hat falsch gegeben", by="orga")
    closed = TournamentRevision.objects.get(kind="closed")
    assert closed.reason == "Tisch 2 hat falsch gegeben" and "2" in closed.new["failed"]


# --- the pages ---------------------------------------------------------------------------------------------

@pytest.fixture
def host_client(organiser: Any) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


@pytest.mark.django_db
def test_the_new_tournament_page_refuses_bad_input_at_its_field(host_client: Client, club: Club) -> None:
    data = {"club": club.pk, "name": "Preisskat", "date": "2026-11-28", "rules": "skat:isko", "series_count": 2,
            "series_length": 30, "draw_mode": "random", "currency": "EUR", "entry_fee": "10,5x",
            "prize_kind": "amounts", "prize_places": "100, 50", "retention_kind": "share", "retention_value": "0",
            "lost_game_money": "1 0.50\n4 1.00"}
    response = host_client.post(reverse("tournament-new"), data)
    assert response.status_code == 200
    form = response.context["form"]
    assert "entry_fee" in form.errors
    data["entry_fee"] = "10.50"
    response = host_client.post(reverse("tournament-new"), data)
    assert "series_length" in response.context["form"].errors
    data["series_length"] = 48
    response = host_client.post(reverse("tournament-new"), data)
    assert response.status_code == 303
    tournament = Tournament.objects.get()
    assert tournament.entry_fee == 1050 and tournament.prizes["places"] == [10000, 5000]
    assert tournament.lost_game_money == [{"from": 1, "amount": 50}, {"from": 4, "amount": 100}]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "de", "ja"])
def test_the_date_a_new_tournament_night_or_season_starts_with_is_one_a_date_input_reads(
        host_client: Client, club: Club, language: str) -> None:
    """A browser's date input takes the ISO date only: a German "30.11.2026" in it showed an empty date."""
    host_client.cookies["django_language"] = language
    today = timezone.localdate().isoformat()
    for url in (reverse("tournament-new"), "/nights/new/", reverse("season-new", args=[club.pk])):
        page = host_client.get(url).content.decode()
        dates = re.findall(r'<input type="date" name="(\w+)" value="([^"]*)"', page)
        assert dates and all(re.fullmatch(r"\d{4}-\d\d-\d\d", value) for _name, value in dates), (url, dates)
        assert today in dict(dates).values() or url.endswith("/seasons/new/"), (url, dates)


@pytest.mark.django_db
def test_register_draw_and_the_overview_show_the_tables_with_their_links(host_client: Client, club: Club) -> None:
    tournament = skat(club)
    for name in SEVEN:
        response = host_client.post(reverse("tournament-register", args=[tournament.pk]), {"name": name})
        assert response.status_code == 303
    response = host_client.post(reverse("tournament-register", args=[tournament.pk]), {"name": "Zed", "guest": "on"})
    assert response.status_code == 200 and "home_club" in response.context["form"].errors
    host_client.post(reverse("series-draw", args=[tournament.pk, 1]), {"seed": "fair"})
    series = Series.objects.get()
    assert series.seed == "fair"
    page = host_client.get(reverse("tournament", args=[tournament.pk])).content.decode()
    for night in series.nights.all():
        assert reverse("join", args=[night.scorer_token]) in page
    assert "deal 0 of 4" in page and "deal 0 of 3" in page
    assert reverse("tournament-printouts", args=[tournament.pk]) in page  # tour-print's list of printouts
    qr = host_client.get(reverse("tournament-series", args=[tournament.pk, 1])).content.decode()
    assert qr.count("<svg") == 2


@pytest.mark.django_db
def test_a_tables_scorer_link_enters_deals_until_the_series_closes_and_the_organiser_corrects_after(
        host_client: Client, seven: Tournament) -> None:
    series = tournaments.draw_series(seven, 1, seed="s")
    night = series.nights.get(tables__number=1)
    phone = Client()
    assert phone.get(reverse("join", args=[night.scorer_token])).status_code == 303
    url = reverse("deal-new", args=[night.pk, 1])
    response = phone.post(url, {"contract": "grand", "declarer": "1", "bid": "18", "matadors": "-1",
                                "card_points": "70", "by": "Anna", "key": "k1", "expected": "1"})
    assert response.status_code == 303, response.context["form"].errors
    assert night.tables.get().deals.count() == 1
    play_out_rest = night.series_length - 1  # type: ignore[operator]
    table = night.tables.get()
    for _ in range(play_out_rest):
        nights.enter_deal(table, grand(1))
    tournaments.close_series(series, reason="table 2 had no deals in this test")
    correction = {"contract": "grand", "declarer": "1", "bid": "18", "matadors": "-1", "card_points": "50",
                  "by": "orga", "reason": "Zählfehler", "version": "1"}
    deal_url = reverse("deal", args=[night.pk, 1, table.deals.order_by("sequence").first().sequence])  # type: ignore[union-attr]
    assert phone.post(deal_url, {**correction, "key": "k2"}).status_code == 403
    assert phone.get(reverse("table", args=[night.pk, 1])).status_code == 200  # the phone still reads
    # Issue 33: the closed list asks the organiser first, and stores the correction once confirmed.
    response = host_client.post(deal_url, {**correction, "key": "k3"})
    assert response.status_code == 200 and "This list was already finished on" in response.content.decode()
    assert not DealRevision.objects.filter(kind="changed", deal__table=table).exists()
    response = host_client.post(deal_url, {**correction, "key": "k3", "confirm_finished": "1"})
    assert response.status_code == 303
    assert DealRevision.objects.get(kind="changed", deal__table=table).after_finish


@pytest.mark.django_db
def test_tournament_tables_stay_out_of_the_nights_list(host_client: Client, seven: Tournament) -> None:
    tournaments.draw_series(seven, 1, seed="s")
    page = host_client.get(reverse("nights")).content.decode()
    for night in CardNight.objects.all():
        assert f'href="/nights/{night.pk}/"' not in page


@pytest.mark.django_db
def test_a_tournament_table_is_named_as_the_tournaments_and_offers_no_night_actions(
        host_client: Client, club: Club, seven: Tournament) -> None:
    """The club page listed the tables of a tournament as identical card nights (and counted each as a night
    of its players), and a table's night page offered reopening, settings and a new table, refused only
    once tapped."""
    tournaments.draw_series(seven, 1, seed="s")
    own = nights.start_night(game="skat", preset="isko", players=SEVEN[:3], club=club)
    night = CardNight.objects.exclude(pk=own.pk).first()
    assert night is not None
    page = host_client.get(reverse("night", args=[night.pk])).content.decode()
    assert f"{seven.name} · Series 1" in page and f'href="{reverse("tournament", args=[seven.pk])}"' in page
    for offered in (reverse("night-finish", args=[night.pk]), reverse("night-settings", args=[night.pk]),
                    reverse("table-new", args=[night.pk])):
        assert f'"{offered}"' not in page, offered
    club_page = host_client.get(reverse("club", args=[club.pk])).content.decode()
    nights_listed = club_page.split('id="club-nights"')[1].split("</section>")[0]
    assert f'href="/nights/{own.pk}/"' in nights_listed and f'href="/nights/{night.pk}/"' not in nights_listed
    assert f"<strong>{seven.name}</strong>" in club_page.split('id="club-tournaments"')[1].split("</section>")[0]
    first = SEVEN[0]
    assert re.search(rf">{re.escape(first)}</a> <span class=\"note\">1 night</span>", club_page)


@pytest.mark.django_db
def test_another_clubs_host_finds_no_tournament(django_user_model: Any, seven: Tournament) -> None:
    tournaments.draw_series(seven, 1, seed="s")
    other = Client()
    other.force_login(django_user_model.objects.create_user("fremd"))
    for url in (reverse("tournament", args=[seven.pk]), reverse("tournament-register", args=[seven.pk]),
                reverse("tournament-series", args=[seven.pk, 1])):
        assert other.get(url).status_code == 404
    for name in ("series-draw", "series-close", "series-reopen"):
        assert other.post(reverse(name, args=[seven.pk, 1])).status_code == 404
    assert other.post(reverse("tournament-withdraw", args=[seven.pk]), {"number": "1"}).status_code == 404
    assert seven.entrants.get(number=1).last_series is None and not Series.objects.get().closed
    assert seven.name not in other.get(reverse("tournaments")).content.decode()
    assert Client().get(reverse("tournament", args=[seven.pk])).status_code == 302  # log in first


@pytest.mark.django_db
def test_a_closed_series_is_reopened_only_while_it_is_the_last_drawn(seven: Tournament) -> None:
    first = tournaments.draw_series(seven, 1, seed="s")
    with pytest.raises(ValidationError):
        tournaments.reopen_series(first)  # it is open
    tournaments.close_series(first, reason="test")
    tournaments.reopen_series(first, by="orga", reason="Tisch 1 hat sich verschrieben")
    assert not Series.objects.get().closed and not any(n.finished for n in CardNight.objects.all())
    tournaments.close_series(first, reason="test")
    tournaments.draw_series(seven, 2, seed="t")
    with pytest.raises(ValidationError) as err:
        tournaments.reopen_series(Series.objects.get(number=1))
    assert "a later series is drawn" in err.value.messages[0]
    assert [r.kind for r in seven.revisions.filter(kind__in=["closed", "reopened"])] == [
        "closed", "reopened", "closed"]


@pytest.mark.django_db
def test_a_closed_tables_page_says_its_series_is_closed(host_client: Client, seven: Tournament) -> None:
    series = tournaments.draw_series(seven, 1, seed="s")
    tournaments.close_series(series, reason="test")
    night = series.nights.get(tables__number=1)
    page = host_client.get(reverse("table", args=[night.pk, 1])).content.decode()
    assert "This series of the tournament is closed" in page


@pytest.mark.django_db
def test_schafkopf_seats_four_at_a_table_and_gives_the_rest_a_bye_in_turn(club: Club) -> None:
    tournament = tournaments.create_tournament(club=club, name="Preisschafkopf", game="schafkopf", preset="bsv",
                                               series_count=3, series_length=32)
    for i in range(9):
        tournaments.register(tournament, name=f"Spieler {i}")
    byes = []
    for number in (1, 2, 3):
        series = tournaments.draw_series(tournament, number, seed=f"s{number}")
        assert [len(t) for t in series.draw["tables"]] == [4, 4]
        assert all(n.series_length == 32 for n in series.nights.all())
        byes += series.draw["byes"]
        tournaments.close_series(series, reason="test")
    assert len(byes) == 3 and len(set(byes)) == 3  # a different player sits out each series


@pytest.mark.django_db
def test_a_kop_round_is_the_table_nights_round_for_its_placing(club: Club) -> None:
    tournament = tournaments.create_tournament(club=club, name="Kop", game="kop", preset="koscian",
                                               series_count=2, series_length=32)
    for i in range(8):
        tournaments.register(tournament, name=f"Gracz {i}")
    series = tournaments.draw_series(tournament, 1, seed="k")
    assert {(n.series_length, n.round_length) for n in series.nights.all()} == {(32, 32)}


@pytest.mark.django_db
def test_a_tournaments_tables_are_no_nights_of_a_club_season(seven: Tournament) -> None:
    from scorekeep.clubs import seasons

    series = tournaments.draw_series(seven, 1, seed="s")
    play_out(series)
    season = seasons.start_season(seven.club, name="2026", game="skat", start=seven.date, end=seven.date,
                                  basis="seeger_fabian", absence_penalty=50)
    assert seasons.season_nights(season, seven.date) == []


@pytest.mark.django_db
def test_the_organisers_club_is_a_club_to_part_only_where_guests_came(club: Club, seven: Tournament) -> None:
    own = tournaments.draw_series(seven, 1, seed="s")
    assert own.draw["unavoided"] == []  # everyone is of one club: nothing a draw could part
    open_field = skat(club, name="Offenes Turnier")
    for name in SEVEN[:6]:
        tournaments.register(open_field, name=name)
    tournaments.register(open_field, name="Gast", guest=True, home_club="SC Herz")
    drawn = tournaments.draw_series(open_field, 1, seed="s")
    # Six of the organiser's club at a table of four and one of three: some of them must sit together.
    assert {kind for _table, _a, _b, kind in drawn.draw["unavoided"]} == {"club"}


@pytest.mark.django_db
def test_the_registration_page_says_a_newcomer_plays_from_the_next_series(host_client: Client,
                                                                         seven: Tournament) -> None:
    url = reverse("tournament-register", args=[seven.pk])
    assert "a late entry" not in host_client.get(url).content.decode()
    tournaments.draw_series(seven, 1, seed="s")
    assert "whoever registers now plays from series 2" in host_client.get(url).content.decode()
    host_client.post(url, {"name": "Heinz", "paid": "on"})
    late = seven.entrants.get(player__name="Heinz")
    assert late.first_series == 2 and late.paid


@pytest.mark.django_db
def test_a_tournament_tables_night_is_finished_and_set_only_through_its_series(host_client: Client,
                                                                              seven: Tournament) -> None:
    series = tournaments.draw_series(seven, 1, seed="s")
    tournaments.close_series(series, reason="test")
    night = series.nights.get(tables__number=1)
    response = host_client.post(reverse("night-finish", args=[night.pk]), {"finished": "0"})
    assert response.status_code == 303
    assert CardNight.objects.get(pk=night.pk).finished  # still closed with its series
    assert host_client.get(reverse("night-settings", args=[night.pk])).status_code == 303
    phone = Client()
    phone.get(reverse("join", args=[night.scorer_token]))
    tournaments.reopen_series(series)
    response = phone.post(reverse("table-new", args=[night.pk]), {"player-0": "X", "player-1": "Y", "player-2": "Z"})
    assert response.status_code == 303 and night.tables.count() == 1


@pytest.mark.django_db
def test_a_later_series_by_standings_seats_the_leaders_together(club: Club) -> None:
    tournament = tournaments.create_tournament(club=club, name="Rangfolge", game="schafkopf", preset="bsv",
                                               series_count=2, series_length=4, draw_mode="standings")
    for i in range(8):
        tournaments.register(tournament, name=f"Spieler {i}")
    first = tournaments.draw_series(tournament, 1, seed="r")
    assert first.mode == "random"  # the first series is always drawn at random
    for night in first.nights.all():  # at each table the players in seats 0 and 2 win every deal
        table = night.tables.get()
        for _ in range(4):
            nights.enter_deal(table, {"contract": "sauspiel", "declarer": 0, "partner": 2, "card_points": 70})
    tournaments.close_series(first)
    winners = {entrant.number for entrant in tournament.entrants.all()
               if any(place.position in (0, 2) for place in entrant.player.places.all())}
    assert set(tournaments.standings_order(tournament, 1)[:4]) == winners
    second = tournaments.draw_series(tournament, 2, seed="r2")
    assert second.mode == "standings"
    # The top four by the standings sit at table 1: two pairs who met in series 1, as any split of two tables of
    # four into two others repeats two pairs at each, so no swap can do better.
    assert set(second.draw["tables"][0]) == winners


@pytest.mark.django_db
def test_a_draw_by_standings_follows_the_ranking_and_its_lot_not_the_start_numbers(club: Club) -> None:
    """Players tied after every tie-break are ordered by the organiser's lot in the standings, and so in the
    draw by standings (not by start number)."""
    tournament = tournaments.create_tournament(club=club, name="Los", game="schafkopf", preset="bsv",
                                               series_count=2, series_length=4, draw_mode="standings")
    for i in range(8):
        tournaments.register(tournament, name=f"Spieler {i}")
    first = tournaments.draw_series(tournament, 1, seed="l")
    tournaments.close_series(first, reason="nobody played: everyone is tied")
    tournament.refresh_from_db()
    lot = standings.draw_lot(tournament, standings.OVERALL)
    assert sorted(lot) == list(range(1, 9))
    tournament.refresh_from_db()
    assert tournaments.standings_order(tournament, 1) == lot
    assert tournaments.standings_order(tournament, 1) == [
        line.number for line in standings.standings(tournament, upto=1).lines]



@pytest.mark.django_db
def test_a_kop_tournament_s_refusals_speak_of_rounds(club: Club) -> None:
    tournament = tournaments.create_tournament(club=club, name="Kop", game="kop", preset=GAMES["kop"].DEFAULT_PRESET,
                                               series_count=2, series_length=32)
    for i in range(4):
        tournaments.register(tournament, name=f"Gracz {i}")
    tournaments.draw_series(tournament, 1, seed="k")
    with pytest.raises(ValidationError) as refused:
        tournaments.draw_series(tournament, 2)
    assert refused.value.message_dict == {"series": ["close round 1 before drawing the next"]}


@pytest.mark.django_db
def test_a_kop_tournament_s_page_speaks_of_rounds(host_client: Client, club: Club) -> None:
    tournament = tournaments.create_tournament(club=club, name="Kop", game="kop", preset=GAMES["kop"].DEFAULT_PRESET,
                                               series_count=2, series_length=32)
    for i in range(4):
        tournaments.register(tournament, name=f"Gracz {i}")
    tournaments.draw_series(tournament, 1, seed="k")
    page = host_client.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert "Rounds" in page and "Round 1" in page and "Draw round 1 again" in page
    assert "Series" not in page and "series 1" not in page
