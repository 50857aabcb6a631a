"""`manage.py loaddemo`: one finished night per game, every URL it prints answers, and every total
is the sum of the engine's verdicts for the deals as entered."""

from __future__ import annotations

import io
import re
from collections import Counter
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from scorekeep.models import CardNight
from scorekeep.nights import ledger
from scorekeep.rules import judge


def loaddemo(*args: str) -> str:
    out = io.StringIO()
    call_command("loaddemo", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_prints_the_links_and_pages_of_each_game_and_each_answers() -> None:
    output = loaddemo("--base-url", "https://club.example/")
    urls = re.findall(r"https://club\.example(/\S*)", output)
    assert len(urls) == 20
    for game in ("Skat", "Schafkopf", "Kop", "Fipsen"):
        assert re.search(rf"^{game}: https://club\.example/nights/\d+/$", output, re.M)
    # A phone that opened the night's viewer link reads every printed page; a stranger reads none.
    viewer, stranger = Client(), Client()
    for line in output.splitlines():
        if "viewer link:" in line:
            assert viewer.get(urlsplit(line.split()[-1]).path).status_code == 303
    for path in urls:
        if path.startswith("/join/"):
            continue
        assert viewer.get(urlsplit(path).path).status_code == 200, path
        assert stranger.get(urlsplit(path).path).status_code == 404, path


@pytest.mark.django_db
def test_host_option_gives_the_nights_to_an_account(django_user_model: Any) -> None:
    anna = django_user_model.objects.create_user("anna", password="a-long-password-1")
    loaddemo("--host", "anna")
    assert CardNight.objects.filter(host=anna).count() == 4
    with pytest.raises(CommandError, match="no account named 'nobody'"):
        loaddemo("--host", "nobody")


@pytest.mark.django_db
def test_one_finished_night_per_game_with_its_deals() -> None:
    loaddemo()
    demo = {night.game: night for night in CardNight.objects.all()}
    assert set(demo) == {"skat", "schafkopf", "kop", "fipsen"}
    assert all(night.finished and night.place.startswith("Demo") for night in demo.values())
    counts = {game: night.tables.get().deals.count() for game, night in demo.items()}
    assert counts == {"skat": 36, "schafkopf": 24, "kop": 15, "fipsen": 20}
    skat = demo["skat"]
    assert skat.series_length == 36 and ledger.build(skat.tables.get()).series_complete
    assert demo["kop"].preset == "wolsztyn" and demo["kop"].round_length == 5
    assert demo["kop"].tables.get().places.count() == 5


@pytest.mark.django_db
def test_the_deals_a_table_would_play() -> None:
    loaddemo()
    deals = {night.game: [d for d in night.tables.get().deals.all()] for night in CardNight.objects.all()}
    skat = deals["skat"]
    assert {"ramsch", "null", "grand"} <= {d.facts["contract"] for d in skat}
    assert any(d.facts.get("kontra") for d in skat)
    assert any(d.facts["contract"] == "grand" and d.facts.get("hand") and d.verdict["won"] for d in skat)
    assert any(d.verdict.get("overbid") for d in skat)
    assert any(d.verdict["won"] is False for d in skat)
    declarers = Counter(d.seating[d.facts["declarer"]] for d in skat if "declarer" in d.facts)
    assert len(declarers) == 4  # everyone declares now and then
    schafkopf = deals["schafkopf"]
    contracts = {d.facts["contract"] for d in schafkopf}
    assert {"sauspiel", "wenz", "solo", "ramsch"} <= contracts
    assert any(d.facts.get("doublings") for d in schafkopf)
    assert any(d.verdict.get("laufende_counted") for d in schafkopf)
    fipsen = deals["fipsen"]
    assert {"tricks", "kieker", "siebener_fips", "passed"} <= {d.facts["contract"] for d in fipsen}
    assert any(d.facts.get("hand") or d.facts.get("ruten") for d in fipsen)


@pytest.mark.django_db
def test_every_total_is_the_sum_of_the_engines_verdicts() -> None:
    loaddemo()
    for night in CardNight.objects.all():
        table = night.tables.get()
        names = [place.player.name for place in table.places.select_related("player")]
        expected = [0] * len(names)
        book = ledger.build(table)
        for row in book.rows:
            deal = row.deal
            verdict = judge(ledger.request(night, deal.seating, deal.dealer, deal.facts, deal.bock))
            for seat, position in enumerate(deal.seating):
                expected[position] += verdict.scores[seat]
            assert row.totals == expected, (night.game, row.number)
        assert book.totals == expected
        if night.game in ("schafkopf", "kop"):
            assert sum(book.totals) == 0


@pytest.mark.django_db
def test_twice_makes_a_second_set_and_replace_removes_the_earlier() -> None:
    loaddemo()
    loaddemo()
    assert CardNight.objects.count() == 8
    assert "Removed the earlier demo nights" in loaddemo("--replace")
    assert CardNight.objects.count() == 4


@pytest.mark.django_db
def test_the_demo_is_reproducible() -> None:
    loaddemo()
    first = [(d.table.night.game, d.facts, d.verdict) for d in _all_deals()]
    loaddemo("--replace")
    assert [(d.table.night.game, d.facts, d.verdict) for d in _all_deals()] == first


def _all_deals() -> list:
    from scorekeep.models import Deal

    return list(Deal.objects.select_related("table__night").order_by("table__night__game", "sequence"))


@pytest.mark.django_db
def test_seasons_option_gives_the_demo_club_two_seasons_of_nights(django_user_model: Any) -> None:
    from django.urls import reverse

    from scorekeep.clubs import seasons
    from scorekeep.models import Club, Season

    django_user_model.objects.create_user("anna")
    output = loaddemo("--seasons", "--host", "anna")
    club = Club.objects.get(name="Demo club")
    assert club.owner.get_username() == "anna" and club.nights.count() == 16
    made = list(Season.objects.filter(club=club).order_by("start"))
    assert [season.name for season in made] == ["Herbst 2024", "Frühjahr 2025"]
    for season in made:
        table = seasons.standings(season)
        assert len(table.nights) >= 6 and table.ranked
        assert f"/clubs/{club.pk}/seasons/{season.pk}/" in output
    host = Client()
    host.force_login(club.owner)
    page = host.get(reverse("season", args=[club.pk, made[1].pk]))
    assert page.status_code == 200 and "Frühjahr 2025" in page.content.decode()
    assert Client().get(reverse("season", args=[club.pk, made[1].pk])).status_code == 302  # log in first
