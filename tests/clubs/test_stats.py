"""Statistics per player across card nights (scorekeep/clubs/stats.py, /stats/, /stats/<player>/).

The numbers are checked against an independent count straight from the stored deals — their seating,
facts and verdicts, read here without `scorekeep.nights.ledger` — for the demo nights of every game and for
nights built by hand: Schafkopf in two currencies, a deleted deal, two hosts, periods and games.
"""

from __future__ import annotations

import datetime
import io
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeep.clubs import stats
from scorekeep.models import CardNight, Club, Deal, Player
from scorekeep.nights import writes as nights

PLAYERS = ["Anna", "Bernd", "Clara", "Dieter"]

GRAND = {"contract": "grand", "declarer": 0, "bid": 48, "matadors": 2, "card_points": 70}  # +72 to seat 0
LOST_CLUBS = {"contract": "clubs", "declarer": 1, "bid": 24, "matadors": 1, "card_points": 50}  # −48 to seat 1
SAUSPIEL = {"contract": "sauspiel", "declarer": 0, "partner": 2, "called_ace": "S", "card_points": 70}


@dataclass
class Count:
    """What the deals say about one player in one game (Schafkopf: one currency), counted by hand."""

    nights: set[int] = field(default_factory=set)
    deals: int = 0
    declared: int = 0
    won: int = 0
    lost: int = 0
    total: int = 0
    seeger_fabian: int = 0
    per_night: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    contracts: Counter[tuple[str, bool | None]] = field(default_factory=Counter)


def count_by_hand(night_ids: list[int]) -> dict[tuple[str, tuple[str, str | None]], Count]:
    """(player name, (game, currency)) → Count, from the live deals of those nights."""
    out: dict[tuple[str, tuple[str, str | None]], Count] = defaultdict(Count)
    deals = Deal.objects.filter(table__night__in=night_ids, deleted=False).select_related("table__night")
    for deal in deals:
        night = deal.table.night
        key = (night.game, night.currency if night.game == "schafkopf" else None)
        names = [place.player.name for place in deal.table.places.select_related("player")]
        seats = deal.seating
        # A four-seat Skat table: the engine's seat 3 is the dealer, who holds no cards.
        holding = seats[:3] if night.game == "skat" and len(seats) == 4 else seats
        for name in names:
            out[name, key].nights.add(night.pk)
        for seat, position in enumerate(seats):
            count = out[names[position], key]
            count.total += deal.verdict["scores"][seat]
            count.per_night[night.pk] += deal.verdict["scores"][seat]
            count.seeger_fabian += deal.verdict.get("seeger_fabian", [0] * len(seats))[seat]
            count.deals += position in holding
        facts = deal.facts
        side = [facts[k] for k in ("declarer", "partner") if isinstance(facts.get(k), int)] + list(facts.get("old", []))
        for seat in side:
            count = out[names[seats[seat]], key]
            count.declared += 1
            count.won += deal.verdict["won"] is True
            count.lost += deal.verdict["won"] is False
            count.contracts[facts["contract"], deal.verdict["won"]] += 1
    return out


def assert_matches(statistics: stats.Statistics, night_ids: list[int]) -> None:
    expected = count_by_hand(night_ids)
    got = {(p.player.name, key): tally for p in statistics.players for key, tally in p.tallies.items()}
    assert set(got) == set(expected)
    for key, count in expected.items():
        tally = got[key]
        assert {n.night.pk for n in tally.nights} == count.nights, key
        assert (tally.deals, tally.declared, tally.won, tally.lost) == (count.deals, count.declared, count.won,
                                                                        count.lost), key
        assert (tally.total, tally.seeger_fabian) == (count.total, count.seeger_fabian), key
        assert {n.night.pk: n.total for n in tally.nights} == {n: count.per_night[n] for n in count.nights}, key
        assert tally.per_deal == (Fraction(count.total, count.deals) if count.deals else None)
        assert tally.per_night == Fraction(count.total, len(count.nights))
        for item in tally.contracts.values():
            assert item.won == count.contracts[item.contract, True], (key, item.contract)
            assert item.lost == count.contracts[item.contract, False], (key, item.contract)
        assert sum(c.declared for c in tally.contracts.values()) == count.declared


@pytest.fixture
def host(db: None) -> User:
    """A host who is not the site owner: the statistics show only the nights this account runs.
    (Overrides conftest's ``host``, the site owner; the tests here use their own clients.)"""
    return User.objects.create_user("club-host", password="secret-password-1")


@pytest.fixture
def host_client(host: User) -> Client:
    client = Client()
    client.force_login(host)
    return client


@pytest.fixture
def demo(host: User) -> list[CardNight]:
    call_command("loaddemo", stdout=io.StringIO())
    demo_nights = list(CardNight.objects.all())
    CardNight.objects.update(host=host)
    Club.objects.filter(nights__isnull=False).update(owner=host)  # the demo club: the host runs it
    return demo_nights


def skat_night(host: User | None, date: str, deals: list[dict[str, Any]], players: list[str] = PLAYERS[:3],
               **settings: Any) -> CardNight:
    night = nights.start_night(game="skat", preset="classic", players=players, host=host,
                               date=datetime.date.fromisoformat(date), **settings)
    table = night.tables.get()
    for facts in deals:
        nights.enter_deal(table, facts)
    return night


# --- the computation ---------------------------------------------------------------------------------

@pytest.mark.django_db
def test_demo_nights_every_game_match_a_count_from_the_deals(demo: list[CardNight]) -> None:
    statistics = stats.collect(stats.with_ledgers(CardNight.objects.all()))
    assert statistics.nights == 4
    assert_matches(statistics, [n.pk for n in demo])
    anna = next(p for p in statistics.players if p.player.name == "Anna")
    assert anna.nights == 4 and {t.game for t in anna.tally_list} == {"skat", "schafkopf", "kop", "fipsen"}
    assert [t.game for t in anna.tally_list] == ["skat", "schafkopf", "kop", "fipsen"]
    eva = next(p for p in statistics.players if p.player.name == "Eva")  # only at the Kop night, five at the table
    assert eva.nights == 1 and eva.deals < 15


@pytest.mark.django_db
def test_demo_skat_four_at_the_table_the_dealer_sits_out(demo: list[CardNight]) -> None:
    statistics = stats.collect(stats.with_ledgers(CardNight.objects.filter(game="skat")))
    tallies = [p.tallies["skat", None] for p in statistics.players]
    # 36 deals, three of four hold cards in each: 108 seats.
    assert sum(t.deals for t in tallies) == 36 * 3
    assert sum(t.night_count for t in tallies) == 4
    for tally in tallies:
        assert tally.performance == tally.total + tally.seeger_fabian


@pytest.mark.django_db
def test_hand_built_skat_nights_totals_averages_best_and_worst(host: User) -> None:
    first = skat_night(host, "2025-01-10", [GRAND, LOST_CLUBS])  # Anna +72, Bernd −48
    second = skat_night(host, "2025-02-10", [LOST_CLUBS, LOST_CLUBS, GRAND])  # Anna +72, Bernd −96
    statistics = stats.collect(stats.with_ledgers(CardNight.objects.all()))
    assert_matches(statistics, [first.pk, second.pk])
    anna = next(p for p in statistics.players if p.player.name == "Anna").tallies["skat", None]
    bernd = next(p for p in statistics.players if p.player.name == "Bernd").tallies["skat", None]
    assert (anna.total, anna.deals, anna.night_count) == (144, 5, 2)
    assert anna.per_deal == Fraction(144, 5) and anna.per_night == 72
    assert (anna.declared, anna.won, anna.won_percent) == (2, 2, 100)
    assert (bernd.total, bernd.declared, bernd.won, bernd.lost, bernd.won_percent) == (-144, 3, 0, 3, 0)
    assert [(c.contract, c.declared, c.won) for c in bernd.contract_list] == [("clubs", 3, 0)]
    # Skat nights are ranked by performance (list points + Seeger-Fabian): Bernd lost more on the second.
    assert bernd.best_night is not None and bernd.best_night.night == first
    assert bernd.worst_night is not None and bernd.worst_night.night == second
    assert bernd.worst_night.performance == bernd.worst_night.total + bernd.worst_night.seeger_fabian


@pytest.mark.django_db
def test_schafkopf_money_is_kept_apart_by_currency(host: User) -> None:
    for currency in ("EUR", "CHF"):
        night = nights.start_night(game="schafkopf", preset="sauspiel", players=PLAYERS, host=host, currency=currency)
        nights.enter_deal(night.tables.get(), SAUSPIEL)
    statistics = stats.collect(stats.with_ledgers(CardNight.objects.all()))
    anna = next(p for p in statistics.players if p.player.name == "Anna")
    assert set(anna.tallies) == {("schafkopf", "EUR"), ("schafkopf", "CHF")}
    assert anna.tallies["schafkopf", "EUR"].total == anna.tallies["schafkopf", "CHF"].total > 0
    assert anna.nights == 2 and anna.declared == 2  # counts do add up across currencies
    clara = next(p for p in statistics.players if p.player.name == "Clara")  # the partner is on the declaring side
    assert clara.declared == 2 and clara.won == 2
    assert [g.label for g in statistics.games] == ["Schafkopf · CHF", "Schafkopf · EUR"]
    assert_matches(statistics, list(CardNight.objects.values_list("pk", flat=True)))


@pytest.mark.django_db
def test_deleted_deals_and_empty_tables_do_not_count(host: User) -> None:
    night = skat_night(host, "2025-01-10", [GRAND, LOST_CLUBS])
    nights.delete_deal(night.tables.get().deals.get(sequence=2))
    skat_night(host, "2025-01-11", [])  # seated, never played
    statistics = stats.collect(stats.with_ledgers(CardNight.objects.all()))
    assert statistics.nights == 1
    bernd = next(p for p in statistics.players if p.player.name == "Bernd")
    assert (bernd.nights, bernd.deals, bernd.declared) == (1, 1, 0)
    assert bernd.tallies["skat", None].total == 0
    assert_matches(statistics, [night.pk])


@pytest.mark.django_db
def test_filter_by_game_and_period(demo: list[CardNight]) -> None:
    visible = CardNight.objects.all()
    kop = stats.collect(stats.with_ledgers(stats.filtered(visible, game="kop")))
    assert {key for p in kop.players for key in p.tallies} == {("kop", None)}
    # The demo nights: Skat 7 March, Schafkopf 14 March, Kop 21 March, Fipsen 28 March 2025.
    march = stats.filtered(visible, since=datetime.date(2025, 3, 10), until=datetime.date(2025, 3, 21))
    assert sorted(n.game for n in march) == ["kop", "schafkopf"]
    assert_matches(stats.collect(stats.with_ledgers(march)), [n.pk for n in march])
    assert list(stats.filtered(visible, since=datetime.date(2025, 3, 29))) == []


# --- the pages -----------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_anonymous_is_sent_to_log_in() -> None:
    for url in ("/stats/", "/stats/1/"):
        response = Client().get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/?next=")


@pytest.mark.django_db
def test_stats_page_lists_players_per_game(host_client: Client, demo: list[CardNight]) -> None:
    response = host_client.get("/stats/")
    assert response.status_code == 200
    statistics = response.context["statistics"]
    assert [p.player.name for p in statistics.players] == ["Anna", "Bernd", "Clara", "Dieter", "Eva"]
    assert [g.game for g in statistics.games] == ["skat", "schafkopf", "kop", "fipsen"]
    skat = statistics.games[0]
    ranking = [s.tally.performance for s in skat.standings]
    assert ranking == sorted(ranking, reverse=True)
    page = response.content.decode()
    anna = next(p for p in statistics.players if p.player.name == "Anna")
    assert f'href="/stats/{anna.player.pk}/"' in page
    money = anna.tallies["schafkopf", "EUR"].total
    assert f"€{abs(money) // 100}.{abs(money) % 100:02d}" in page


@pytest.mark.django_db
def test_stats_page_filters_by_game_and_period(host_client: Client, demo: list[CardNight]) -> None:
    response = host_client.get("/stats/", {"game": "fipsen"})
    assert [g.game for g in response.context["statistics"].games] == ["fipsen"]
    response = host_client.get("/stats/", {"since": "2025-03-20", "until": "2025-03-31"})
    assert [g.game for g in response.context["statistics"].games] == ["kop", "fipsen"]
    page = response.content.decode()
    # Links to a player keep the filter.
    assert "?since=2025-03-20&amp;until=2025-03-31" in page
    response = host_client.get("/stats/", {"until": "2025-01-01"})
    assert response.context["statistics"].players == []
    assert "No deals in the card nights chosen" in response.content.decode()


@pytest.mark.django_db
def test_quick_periods_are_links_that_keep_the_game(host_client: Client, demo: list[CardNight]) -> None:
    response = host_client.get("/stats/", {"game": "skat"})
    periods = {str(p["label"]): p for p in response.context["periods"]}
    year = datetime.date.today().year
    assert periods["This year"]["query"] == f"game=skat&since={year}-01-01&until={year}-12-31"
    assert periods["All"]["query"] == "game=skat" and periods["All"]["current"]
    assert not periods["This year"]["current"]


@pytest.mark.parametrize(("query", "field", "message"), [
    ({"game": "poker"}, "game", "Choose a game: Skat, Schafkopf, Kop, Fipsen, or all games."),
    ({"since": "7.3.2025"}, "since", "Enter a date as year-month-day, e.g. 2025-03-07."),
    ({"since": "2025-03-07", "until": "2025-03-01"}, "until", "The end of the period is before its start"),
], ids=["unknown-game", "date-not-iso", "end-before-start"])
@pytest.mark.django_db
def test_bad_filters_are_named_at_their_input_and_kept(host_client: Client, query: dict[str, str], field: str,
                                                       message: str) -> None:
    response = host_client.get("/stats/", query)
    assert response.status_code == 200 and response.context["statistics"] is None
    assert any(message in error for error in response.context["form"].errors[field])
    page = response.content.decode()
    assert f'id="err-{field}"' in page and message.split(",")[0] in page
    for name in ("since", "until"):  # what was typed stays in its input
        if name in query:
            assert f'name="{name}" value="{query[name]}"' in page


@pytest.mark.django_db
def test_a_host_never_sees_another_hosts_nights(host_client: Client, host: User) -> None:
    other = User.objects.create_user("other", password="secret-password-2")
    mine = skat_night(host, "2025-01-10", [GRAND], players=["Anna", "Bernd", "Clara"])
    skat_night(other, "2025-01-10", [GRAND, LOST_CLUBS], players=["Anna", "Xaver", "Yvonne"])
    response = host_client.get("/stats/")
    statistics = response.context["statistics"]
    assert [p.player.name for p in statistics.players] == ["Anna", "Bernd", "Clara"]
    assert_matches(statistics, [mine.pk])  # Anna's deals at the other host's night are not counted
    assert "Xaver" not in response.content.decode()
    xaver = Player.objects.get(name="Xaver")
    assert host_client.get(f"/stats/{xaver.pk}/").status_code == 404
    anna = Player.objects.get(name="Anna", club__owner=host)
    others_anna = Player.objects.get(name="Anna", club__owner=other)
    page = host_client.get(f"/stats/{anna.pk}/")
    assert page.status_code == 200 and page.context["stats"].deals == 1
    assert host_client.get(f"/stats/{others_anna.pk}/").status_code == 404  # the other club's Anna is not hers


@pytest.mark.django_db
def test_the_site_owner_sees_every_night(host: User) -> None:
    skat_night(host, "2025-01-10", [GRAND])
    skat_night(None, "2025-01-11", [GRAND])
    client = Client()
    client.force_login(User.objects.create_superuser("owner", password="secret-password-3"))
    assert client.get("/stats/").context["statistics"].nights == 2


@pytest.mark.django_db
def test_player_page(host_client: Client, demo: list[CardNight]) -> None:
    anna = Player.objects.get(name="Anna")
    response = host_client.get(f"/stats/{anna.pk}/")
    assert response.status_code == 200
    player = response.context["stats"]
    assert player.nights == 4 and [t.game for t in player.tally_list] == ["skat", "schafkopf", "kop", "fipsen"]
    page = response.content.decode()
    for tally in player.tally_list:
        for item in tally.contract_list:
            assert f'<th scope="row">{item.label}</th><td>{item.declared}</td><td>{item.won}</td>' in page
    skat = player.tallies["skat", None]
    assert f"<dd>{skat.deals}</dd>" in page and f'href="/nights/{demo[0].pk}/"' in page
    filtered = host_client.get(f"/stats/{anna.pk}/", {"game": "kop"}).context["stats"]
    assert [t.game for t in filtered.tally_list] == ["kop"]
    assert filtered.tallies["kop", None].total == player.tallies["kop", None].total
    nothing = host_client.get(f"/stats/{anna.pk}/", {"until": "2024-12-31"})
    assert nothing.status_code == 200 and nothing.context["stats"].tallies == {}
    assert "played no deal in the card nights chosen" in nothing.content.decode()
    assert host_client.get("/stats/999999/").status_code == 404


@pytest.mark.django_db
def test_names_are_escaped(host_client: Client, host: User) -> None:
    name = '<b>Eve & "Co"</b>'
    skat_night(host, "2025-01-10", [GRAND], players=[name, "Bernd", "Clara"], place="<i>Club</i>")
    page = host_client.get("/stats/").content.decode()
    assert "&lt;b&gt;Eve &amp; &quot;Co&quot;&lt;/b&gt;" in page and "<b>Eve" not in page
    eve = Player.objects.get(name=name)
    page = host_client.get(f"/stats/{eve.pk}/").content.decode()
    assert "<b>Eve" not in page and "<i>Club" not in page and "&lt;i&gt;Club&lt;/i&gt;" in page


@pytest.mark.django_db
def test_queries_do_not_grow_with_the_deals(host_client: Client, host: User,
                                            django_assert_max_num_queries: Any) -> None:
    night = skat_night(host, "2025-01-10", [GRAND])
    anna = Player.objects.get(name="Anna")

    def queries(url: str) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert host_client.get(url).status_code == 200
        return len(captured)

    few = queries("/stats/"), queries(f"/stats/{anna.pk}/")
    table = night.tables.get()
    for _ in range(20):
        nights.enter_deal(table, GRAND)
    skat_night(host, "2025-01-11", [GRAND, LOST_CLUBS] * 5)
    assert (queries("/stats/"), queries(f"/stats/{anna.pk}/")) == few
    # The session, the user, the host's clubs (whether to offer a choice of club); the nights, their tables,
    # players and deals (the player page: the player, and whether the host's nights have them).
    with django_assert_max_num_queries(7):
        host_client.get("/stats/")
    with django_assert_max_num_queries(8):
        host_client.get(f"/stats/{anna.pk}/")


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "de", "ja"])
def test_negative_numbers_are_written_with_one_minus_sign(host_client: Client, demo: list[CardNight],
                                                          language: str) -> None:
    """Averages (−0.2 a deal) are written with the minus sign (U+2212) the totals (−7) have, never with
    an ASCII hyphen, on the statistics page and a player's page, in every language."""
    import re

    pages = [host_client.get("/stats/", headers={"accept-language": language}).content.decode()]
    pages += [host_client.get(f"/stats/{player.pk}/", headers={"accept-language": language}).content.decode()
              for player in Player.objects.all()]
    averages = 0
    for page in pages:
        cells = re.findall(r">\s*([^<>]*?\d[^<>]*?)\s*<", page)
        assert not [cell for cell in cells if re.match(r"-\d", cell)], "an ASCII hyphen as a minus sign"
        averages += len([cell for cell in cells if re.fullmatch(r"\u2212\d+[.,]\d", cell)])
    assert averages  # the demo nights have negative averages
