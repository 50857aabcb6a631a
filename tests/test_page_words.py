"""Issue 30, the pages' side: what a player reads on a page of each game shows words, not codes.

The pages of each game — a night's table page, its deal pages, the printout, the settlement, the dispute form,
a tournament's standings (its big screen and its printouts) and a club's season — are fetched in German and
Japanese (and English where a code or a date would show in any language), their visible text taken (tags,
attributes, scripts and styles removed), and the test fails on:

- a rule-set or option code, or any snake_case identifier ("4x_solo", "wolsztyn", "durch_outranks");
- a file name ("RULES.md");
- an ISO date (2025-03-07): each language writes dates its own way ("7. März 2025", "2025年3月7日");
- an ASCII hyphen-minus used as a minus before a digit ("-1,0"): the pages write "−";
- in Japanese, half-width parentheses or ", " in the text (、 and （ ） are the page's punctuation).

The explanation lines the engine writes (`Word(...)` in scorekeep/rules/) are the engine's side of the issue,
checked by tests/test_i18n.py; the blocks that hold them (`data-engine-lines`, see ENGINE_BLOCK) are cut out
here so that this test sees the pages' own words only.
"""

from __future__ import annotations

import datetime
import re
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scorekeep.clubs import seasons
from scorekeep.models import CardNight, Club
from scorekeep.nights import writes as nights
from scorekeep.rules import GAMES
from tests.tournament_fixtures import draw, tournament

# The explanation lines and findings the engine writes: checked by the engine's own test, not here.
ENGINE_BLOCK = re.compile(r"<(ol|ul|div|p|section|td)\b[^>]*\bdata-engine-lines\b[^>]*>.*?</\1>", re.S)
# A word in the players' own language (the glossary's "as players say it": Polish "kontra"), marked with its lang.
FOREIGN = re.compile(r"<span\b[^>]*\blang=\"[^\"]*\"[^>]*>.*?</span>", re.S)
# An example of what to type (「1: 0.50, 4: 1.00」): written as the input takes it, ASCII commas and all.
TYPED_EXAMPLE = re.compile(r"「[^」]*」")
ISO_DATE = re.compile(r"(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)")
SNAKE = re.compile(r"(?<![\w.-])[a-z0-9]+(?:_[a-z0-9]+)+(?![\w-])")
FILE_NAME = re.compile(r"(?<![\w/])[\w-]+\.(?:md|py|json|jsonl|html|txt|po)(?!\w)")
# A hyphen-minus as a minus: after a space, an opening bracket or the start, before a digit (not 3-4 or 2025-03).
HYPHEN_MINUS = re.compile(r"(?:^|(?<=[\s(（:：=]))-(?=\d)")
JA_HALF_WIDTH = re.compile(r"[()]|, ")
# Deal pages per night: enough to show every kind of line a night's deals have without fetching all 95.
DEALS_PER_NIGHT = 6


def visible_text(html: str) -> str:
    """What a reader sees: scripts, styles, pictures, the engine's lines and every tag with its attributes gone."""
    html = re.sub(r"<(script|style|svg|template|datalist)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r"<!--.*?-->", " ", html, flags=re.S)
    html = ENGINE_BLOCK.sub(" ", FOREIGN.sub(" ", html))
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def codes() -> set[str]:
    """Every rule-set and option code of every game, and every choice of an option, as the engine spells them."""
    found: set[str] = set()
    for module in GAMES.values():
        found |= set(module.PRESETS) | set(module.OPTIONS)
        found |= {choice for _key, choice in module.CHOICE_LABELS}
    # "sie" (Schafkopf's Sie) is also German's "they", and "ouvert" is how German writes Grand ouvert.
    return {code for code in found if not code.isdigit()} - {"sie", "ouvert"}


CODES = codes()


def problems(text: str, language: str) -> list[str]:
    """The places in `text` a reader trips over, each with a little of its surroundings."""
    out = []

    def near(match: re.Match[str], what: str) -> str:
        return f"{what}: …{text[max(0, match.start() - 30):match.end() + 30]}…"

    for match in SNAKE.finditer(text):
        out.append(near(match, "identifier"))
    for match in FILE_NAME.finditer(text):
        out.append(near(match, "file name"))
    for match in ISO_DATE.finditer(text):
        out.append(near(match, "ISO date"))
    for match in HYPHEN_MINUS.finditer(text):
        out.append(near(match, "hyphen as minus"))
    # A rule-set or option code is lower case where the word it stands for is not ("wolsztyn", "classic"): in
    # English "classic" may be a word of a sentence, so codes are looked for in German and Japanese.
    if language != "en":
        for code in CODES:
            for match in re.finditer(rf"(?<![\w-]){re.escape(code)}(?![\w-])", text):
                out.append(near(match, f"code {code!r}"))
    if language == "ja":
        # An example's text blanked to spaces of its length, so that the places found stay where they are.
        untyped = TYPED_EXAMPLE.sub(lambda typed: " " * len(typed.group()), text)
        for match in JA_HALF_WIDTH.finditer(untyped):
            out.append(near(match, "half-width punctuation"))
    return out


def night_urls(night: CardNight) -> list[str]:
    table = night.tables.order_by("number").first()
    assert table is not None
    base = reverse("table", args=[night.pk, table.number])
    deals = list(table.deals.order_by("sequence").values_list("sequence", flat=True))[:DEALS_PER_NIGHT]
    return [reverse("night", args=[night.pk]), base, *(f"{base}deals/{sequence}/" for sequence in deals),
            reverse("night-print", args=[night.pk]), reverse("night-settlement", args=[night.pk]),
            reverse("night-settings", args=[night.pk]), reverse("night-links", args=[night.pk]),
            reverse("table-list", args=[night.pk, table.number])]


def tournament_urls(host: Any) -> list[str]:
    """A Schafkopf tournament of eight: series 1 drawn and played a little, its standings and printouts."""
    tour = tournament("schafkopf", players=8, host=host)
    tour.date = datetime.date(2025, 3, 7)
    tour.save(update_fields=["date"])
    tables = draw(tour, 1, [[1, 2, 3, 4], [5, 6, 7, 8]], host=host)
    for table in tables:
        nights.enter_deal(table, {"contract": "sauspiel", "declarer": 0, "partner": 2, "card_points": 70})
        nights.enter_deal(table, {"contract": "sauspiel", "declarer": 1, "partner": 3, "card_points": 40})
    return [reverse("tournament", args=[tour.pk]),
            reverse("tournament-money", args=[tour.pk]), reverse("tournament-printouts", args=[tour.pk]),
            reverse("tournament-print-cards", args=[tour.pk, 1]), f"/standings/{tour.viewer_token}/",
            reverse("tournament-standings", args=[tour.pk]), f"/standings/{tour.viewer_token}/screen/",
            reverse("tournament-print-standings", args=[tour.pk, 1]),
            reverse("tournament-print-lists", args=[tour.pk, 1]),
            reverse("tournament-print-ranking", args=[tour.pk])]


def season_urls(night: CardNight) -> list[str]:
    """A season of the demo club's Skat night, the club's ratings on (the rating column and its changes)."""
    club: Club = night.club
    club.ratings = True
    club.save(update_fields=["ratings"])
    season = seasons.start_season(club, name="2025", game="skat", start=datetime.date(2025, 1, 1),
                                  end=datetime.date(2025, 12, 31), basis="seeger_fabian")
    players = night.tables.get().places.order_by("position").values_list("player_id", flat=True)
    return [reverse("season", args=[club.pk, season.pk]), reverse("season-print", args=[club.pk, season.pk]),
            reverse("club", args=[club.pk]), reverse("season-new", args=[club.pk]), "/clubs/",
            *(reverse("player-stats", args=[player]) for player in players)]


def adjudicate_urls() -> list[str]:
    """The dispute form, the new night's form and the glossary of each game, and each game's rule sets."""
    urls = ["/", "/glossary/", "/nights/", "/tournaments/new/", "/stats/"]
    for game, module in GAMES.items():
        urls += [f"/adjudicate/?game={game}", f"/nights/new/?game={game}", f"/glossary/{game}/"]
        urls += [f"/adjudicate/?game={game}&preset={preset}" for preset in module.PRESETS]
    return urls


@pytest.mark.parametrize("language", ["en", "de", "ja"])
def test_no_page_of_any_game_shows_a_code_a_file_an_iso_date_or_a_hyphen_as_minus(
        client: Client, demo: dict[str, CardNight], host: Any, language: str) -> None:
    client.force_login(host)
    for night in demo.values():  # the demo nights are the demo host's: the site owner sees them too
        night.host = host
        night.save(update_fields=["host"])
    urls = [*adjudicate_urls(), *tournament_urls(host), *season_urls(demo["skat"])]
    for night in demo.values():
        urls += night_urls(night)
    client.cookies["django_language"] = language
    found = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        wrong = problems(visible_text(response.content.decode()), language)
        if wrong:
            found[url] = wrong[:4]
    assert not found, "\n".join(f"{url}: {wrong}" for url, wrong in found.items())


@pytest.mark.parametrize("language", ["en", "de", "ja"])
def test_the_language_switch_names_each_language_in_its_own_words(client: Client, language: str) -> None:
    client.cookies["django_language"] = language
    page = client.get("/").content.decode()
    select = re.search(r'<select id="language-select".*?</select>', page, re.S)
    assert select is not None
    assert re.findall(r"<option[^>]*>([^<]*)</option>", select.group()) == ["English", "Deutsch", "日本語"]


def test_a_message_queued_in_one_language_shows_in_the_language_of_the_page(client: Client) -> None:
    client.logout()
    client.cookies["django_language"] = "en"
    answer = client.post(reverse("signup"), {"username": "neu", "password1": "ein-gutes-Passwort-1",
                                             "password2": "ein-gutes-Passwort-1"})
    assert answer.status_code in (302, 303)
    client.cookies["django_language"] = "de"
    page = visible_text(client.get(answer["Location"]).content.decode())
    assert "Willkommen" in page and "Welcome" not in page


def test_the_checks_find_what_they_look_for() -> None:
    """Each check finds the mistake it names (so that a clean page means something)."""
    assert problems("Sie: fester Wert, 4x_solo oder Tarif", "de")
    assert problems("Regelwerk wolsztyn", "de")
    assert problems("siehe RULES.md", "de")
    assert problems("Abend vom 2025-03-07", "de")
    assert problems("Änderung -1,0", "de") and problems("(-4.4)", "en")
    assert problems("その他：トリック数, 宣言", "ja") and problems("通貨 (EUR)", "ja")
    assert not problems("Änderung −1,0 · Tisch 3-4 · 7. März 2025", "de")
    assert not problems("通貨（EUR）、宣言 2025年3月7日", "ja")
    assert visible_text('<p>a</p><ol data-engine-lines><li>Regelwerk wolsztyn</li></ol><time datetime="2025-03-07">'
                        "7. März 2025</time>") == "a 7. März 2025"


@pytest.mark.parametrize(("language", "written"), [("en", "−4.4"), ("de", "−4,4"), ("ja", "−4.4")])
def test_a_negative_rating_is_written_with_a_minus_sign(language: str, written: str) -> None:
    from django.template import Context, Template
    from django.utils import translation

    with translation.override(language):
        assert Template("{% load ledger_tags %}{{ v|decimal }}").render(Context({"v": -4.44})) == written


def test_no_template_writes_a_number_that_can_be_negative_with_floatformat() -> None:
    """Django's floatformat writes "-4.4" with a hyphen: a rating, μ or a change goes through `decimal`; only
    percentages (never negative) keep floatformat."""
    from pathlib import Path

    wrong = [f"{path.name}: {use}" for path in Path("templates").rglob("*.html")
             for use in re.findall(r"\{\{ ?([\w.]+)\|floatformat", path.read_text(encoding="utf-8"))
             if not use.endswith("_percent")]
    assert not wrong, wrong


@pytest.mark.parametrize(("language", "ober", "unter", "played"), [
    ("de", "♣O", "♣U", "Ober"), ("en", "♣O", "♣U", "Ober"), ("ja", "♣Q", "♣J", "Q")])
def test_the_schafkopf_counting_picker_names_ober_and_unter_as_the_play_picker_does(
        client: Client, host: Any, language: str, ober: str, unter: str, played: str) -> None:
    """The table page's "count by tapping the cards" and the play picker write Schafkopf's Ober and Unter short
    (O, U; Japanese Q, J as the seed page does), the picker naming them in full for a screen reader (Ober, Unter;
    Q, J): the same cards under the same names."""
    night = nights.start_night(game="schafkopf", preset="classic", players=["Anna", "Bernd", "Clara", "Dieter"],
                               club=Club.objects.create(name="Schafkopfrunde", owner=host))
    night.host = host
    night.save(update_fields=["host"])
    client.cookies["django_language"] = language
    table = client.get(reverse("table", args=[night.pk, 1])).content.decode()
    labels = dict(re.findall(r'value="(C[QJ])"[^>]*>\s*<span>([^<]*)</span>', table))
    assert labels == {"CQ": ober, "CJ": unter}, labels
    picker = client.get("/adjudicate/?game=schafkopf&contract=sauspiel").content.decode()
    # The play picker's card shows the same short face, and says the card in full to a screen reader.
    assert re.search(rf'data-card="CQ"[^>]*aria-label="[^"]*{played}"[^>]*>{ober}<', picker)


@pytest.mark.parametrize(("language", "words"), [("en", "4 × the solo price"), ("de", "4 × Solotarif"),
                                                 ("ja", "4 × ソロの基本点")])
def test_the_sie_s_price_is_shown_and_typed_in_words(client: Client, language: str, words: str) -> None:
    """The dispute form's Sie (BSV: four times the solo price) shows its named value in words, takes the words
    back (and the code), and a value that is neither names the numbers and the words allowed."""
    client.cookies["django_language"] = language
    page = client.get("/adjudicate/?game=schafkopf&preset=bsv").content.decode()
    field = re.search(r'<input type="text" name="rule-sie"[^>]*>', page)
    assert field is not None and f'value="{words}"' in field.group(), field
    assert "4x_solo" not in page
    for typed in (words, "4x_solo", "600"):
        answer = client.get("/adjudicate/", {"game": "schafkopf", "preset": "bsv", "shown": "schafkopf:bsv",
                                              "rule-sie": typed}).content.decode()
        errors = re.search(r'id="err-rule-sie"[^>]*>(.*?)</div>', answer, re.S)
        assert errors is not None and not errors.group(1).strip(), (typed, errors.group(1))
    refused = client.get("/adjudicate/", {"game": "schafkopf", "preset": "bsv", "shown": "schafkopf:bsv",
                                          "rule-sie": "viermal"}).content.decode()
    errors = re.search(r'id="err-rule-sie"[^>]*>(.*?)</div>', refused, re.S)
    assert errors is not None and words in unescape(errors.group(1)), errors


@pytest.mark.django_db
def test_a_period_ending_before_it_starts_names_the_start_as_the_language_writes_dates(host: Any) -> None:
    from django.utils import translation

    club = Club.objects.create(name="Skatclub", owner=host)
    with translation.override("de"), pytest.raises(seasons.SeasonError) as refused:
        seasons.start_season(club, name="2025", game="skat", start=datetime.date(2025, 3, 7),
                             end=datetime.date(2025, 3, 1), basis="seeger_fabian")
    assert "7. März 2025" in str(refused.value) and not ISO_DATE.search(str(refused.value))


def test_sf_is_spelled_out_once_on_the_table_page_and_the_big_screen(client: Client, demo: dict[str, CardNight],
                                                                     host: Any) -> None:
    """Japanese players do not know the abbreviation "SF": the table page's strip and the big screen's column
    say it in full once (the big screen's heading keeps the short form, with the full name as its title)."""
    client.cookies["django_language"] = "ja"
    night = demo["skat"]
    page = visible_text(client.get(reverse("table", args=[night.pk, 1])).content.decode())
    assert "SF" in page and page.count("SF：ゼーガー・ファビアン点") == 1
    tour = tournament("skat", "isko", players=6, host=host)
    draw(tour, 1, [[1, 2, 3], [4, 5, 6]], host=host)
    screen = client.get(f"/standings/{tour.viewer_token}/screen/").content.decode()
    assert '<abbr title="ゼーガー・ファビアン点">' in screen
    assert "：ゼーガー・ファビアン点" in visible_text(screen)


@pytest.mark.parametrize(("game", "said", "not_said"), [("schafkopf", "ディーラーの左隣", "フォアハンド"),
                                                        ("fipsen", "ディーラーの左隣", "フォアハンド"),
                                                        ("skat", "フォアハンド", "ディーラーの左隣")])
def test_who_leads_first_is_said_in_each_games_japanese(client: Client, game: str, said: str, not_said: str) -> None:
    """Skat's page says フォアハンド; the Schafkopf and Fipsen pages say the dealer's left (ディーラーの左隣), on the
    entry form's heading and in the words the outbox writes the next deals with."""
    night = nights.start_night(game=game, preset=GAMES[game].DEFAULT_PRESET,
                               players=["Anna", "Bernd", "Clara", "Dieter"][:3 if game != "schafkopf" else 4])
    client.get(f"/join/{night.scorer_token}/")
    client.cookies["django_language"] = "ja"
    page = client.get(reverse("table", args=[night.pk, 1])).content.decode()
    assert "id=\"entry\"" in page
    assert f"Berndが{said}" in visible_text(page) and not_said not in visible_text(page)
    assert re.search(f'data-forehand="%\\(name\\)sが{said}"', page)


@pytest.mark.parametrize(("game", "said"), [("skat", "宣言者なし"), ("schafkopf", "デクレアラー側なし")])
def test_a_ramsch_without_a_declarer_is_said_in_each_games_japanese(client: Client, game: str, said: str) -> None:
    """A Ramsch has no declaring side: Skat's page says so with its 宣言者, the Schafkopf page with its
    デクレアラー (each seed page's word for the declarer)."""
    client.cookies["django_language"] = "ja"
    deal = ({"points-0": "30", "points-1": "40", "points-2": "50", "tricks-0": "3", "tricks-1": "3", "tricks-2": "4"}
            if game == "skat" else
            {"preset": "bsv", "points-0": "30", "points-1": "30", "points-2": "30", "points-3": "30",
             "tricks-0": "2", "tricks-1": "2", "tricks-2": "2", "tricks-3": "2"})
    page = client.get("/adjudicate/", {"game": game, "contract": "ramsch", **deal}).content.decode()
    assert re.findall(r'class="outcome[^"]*"><strong>([^<]*)', page) == [said]
