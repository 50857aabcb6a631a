"""Three languages: the catalogues are complete and consistent, every page renders in English,
German and Japanese, and no English is left on a Japanese page.

- Every entry of locale/de and locale/ja is translated (all plural forms), none fuzzy, and keeps the
  English's placeholders and HTML tags (a missing `%(name)s` would crash or lose a number).
- The engine's message ids (`scorekeep/words/engine_messages.py`) are current, and the catalogues hold every
  message the source marks (makemessages run on a copy of the project, where GNU gettext is installed).
- Each main page answers in each language with `<html lang>` set; on Japanese pages no run of three
  English words remains in the visible text (apart from the players' names and places typed in).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.test import Client

from scorekeep.management.commands import enginemessages
from scorekeep.models import CardNight
from scorekeep.nights import writes as nights
from tests.rules.vectors import VECTORS

REPO = Path(__file__).resolve().parent.parent
LANGUAGES = ("de", "ja")
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|%[sd]|\{\{ ?[a-z_.]+ ?\}\}|\{[a-z_]+\}")
TAG = re.compile(r"</?[a-z]+[^>]*>")
CARD_CODE = re.compile(r"[A-Z]{1,2}|[A-Z]10")  # cards and suits as the forms write them: CJ, HA, C, K


def catalogue(language: str):  # noqa: ANN201 - babel's Catalog
    with (REPO / "locale" / language / "LC_MESSAGES" / "django.po").open("rb") as po:
        return read_po(po, locale=language)


def entries(language: str) -> list:
    return [message for message in catalogue(language) if message.id]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_is_translated_and_none_is_fuzzy(language: str) -> None:
    untranslated = [message.id for message in entries(language)
                    if not message.string or (isinstance(message.string, tuple) and not all(message.string))]
    fuzzy = [message.id for message in entries(language) if message.fuzzy]
    assert not untranslated, f"{len(untranslated)} untranslated, e.g. {untranslated[:5]}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy, e.g. {fuzzy[:5]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_placeholders_and_tags(language: str) -> None:
    wrong = []
    for message in entries(language):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = sorted(PLACEHOLDER.findall(ids[-1]))
        tags = sorted(tag.split()[0].rstrip(">") for tag in TAG.findall(ids[0]))
        for string in strings:
            # A plural's singular may say "one" in words instead of its count.
            got = sorted(PLACEHOLDER.findall(string))
            if got != wanted and not (len(ids) > 1 and set(got) <= set(wanted)):
                wrong.append((ids[0], string))
            if sorted(tag.split()[0].rstrip(">") for tag in TAG.findall(string)) != tags:
                wrong.append((ids[0], string))
    assert not wrong, f"{len(wrong)} translations change placeholders or tags, e.g. {wrong[:3]}"


@pytest.mark.skipif(not VECTORS.exists() and not os.environ.get("CI"),
                    reason=f"{VECTORS} not found: the engine's ids include those it writes for the vectors")
def test_the_engine_message_ids_are_current() -> None:
    from scorekeep.words.engine_messages import MESSAGES

    assert sorted(set(MESSAGES)) == enginemessages.messages(), "run: manage.py enginemessages (make messages)"
    written = enginemessages.OUTPUT.read_text(encoding="utf-8")
    assert written == enginemessages.render(enginemessages.messages()), "run: manage.py enginemessages"


@pytest.mark.skipif(shutil.which("xgettext") is None and not os.environ.get("CI"),
                    reason="GNU gettext's xgettext is needed to extract the messages (apt-get install gettext)")
def test_the_catalogues_hold_every_marked_message(tmp_path: Path) -> None:
    """makemessages on a copy of the project finds no message id the catalogues lack."""
    for name in ("manage.py", "scorekeep", "templates", "locale"):
        source = REPO / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, tmp_path / name)
    subprocess.run([sys.executable, "manage.py", "makemessages", "-l", "de", "-l", "ja", "--no-obsolete",
                    "--add-location", "file"], cwd=tmp_path, check=True, capture_output=True, timeout=120,
                   env={**os.environ, "DJANGO_SETTINGS_MODULE": "scorekeep.settings"})
    for language in LANGUAGES:
        with (tmp_path / "locale" / language / "LC_MESSAGES" / "django.po").open("rb") as po:
            extracted = {message.id for message in read_po(po, locale=language) if message.id}
        known = {message.id for message in entries(language)}
        assert extracted - known == set(), f"run: make messages, then translate {sorted(extracted - known)[:5]}"


# --- pages in every language ---------------------------------------------------------------------------

def page_urls(demo: dict[str, CardNight]) -> list[str]:
    urls = ["/", "/adjudicate/", "/adjudicate/?game=skat&contract=grand&declarer=0&bid=48&matadors=2&card_points=70",
            "/glossary/", "/nights/", "/nights/new/", "/stats/"]
    for night in demo.values():
        table = f"/nights/{night.id}/tables/1/"
        urls += [f"/nights/{night.id}/", table, f"{table}deals/1/", f"/nights/{night.id}/settings/",
                 f"/nights/{night.id}/links/", f"/nights/{night.id}/settlement/", f"/nights/{night.id}/print/"]
    return urls


def visible_text(html: str) -> str:
    html = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r"<datalist\b.*?</datalist>", " ", html, flags=re.S)
    html = re.sub(r"<option\b[^>]*lang=\"(en|de)\"[^>]*>.*?</option>", " ", html, flags=re.S)  # the language names
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.mark.parametrize("language", ("en", *LANGUAGES))
def test_every_page_renders_in_each_language(client: Client, demo: dict[str, CardNight], language: str) -> None:
    client.cookies["django_language"] = language
    for url in page_urls(demo):
        response = client.get(url)
        assert response.status_code == 200, url
        assert f'<html lang="{language}">' in response.content.decode(), url


def test_a_japanese_page_has_no_english_left(client: Client, demo: dict[str, CardNight]) -> None:
    client.cookies["django_language"] = "ja"
    # What people typed (names, places) and the games' proper names may stay in Latin letters.
    typed = {name for night in demo.values() for table in night.tables.all()
             for name in table.places.values_list("player__name", flat=True)}
    typed |= {night.place for night in demo.values()} | {"host", "scorekeep"}
    leftovers = {}
    for url in page_urls(demo):
        text = visible_text(client.get(url).content.decode())
        for word in sorted(typed, key=len, reverse=True):
            text = text.replace(word, " ")
        runs = [run for run in re.findall(r"[A-Za-z][A-Za-z'’-]*(?: [A-Za-z][A-Za-z'’-]*){2,}", text)
                if not all(CARD_CODE.fullmatch(word) for word in run.split())]
        if runs:
            leftovers[url] = runs[:5]
    assert not leftovers, f"English left on Japanese pages: {dict(list(leftovers.items())[:5])}"


def test_the_printout_language_is_the_nights_choice(client: Client, demo: dict[str, CardNight]) -> None:
    night = nights.change_settings(demo["skat"], print_language="de")
    client.cookies["django_language"] = "en"
    page = client.get(f"/nights/{night.id}/print/").content.decode()
    assert '<html lang="de">' in page
    assert '<html lang="en">' in client.get(f"/nights/{night.id}/").content.decode()


@pytest.mark.parametrize(("language", "forms"), [("de", 2), ("ja", 1)])
def test_each_catalogue_names_its_language_and_plural_forms(language: str, forms: int) -> None:
    """Without them gettext guesses English plurals: a Japanese "5 deals" would fall back to English."""
    from django.utils import translation
    from django.utils.translation import ngettext

    cat = catalogue(language)
    assert str(cat.locale) == language and cat.num_plurals == forms
    with translation.override(language):
        many = ngettext("%(n)s deal", "%(n)s deals", 5) % {"n": 5}
    assert "deal" not in many and "5" in many


@pytest.mark.parametrize(("language", "tricks", "written"), [
    ("de", 1, "kann mit 1 Stich nicht 90 Augen haben"), ("de", 2, "kann mit 2 Stichen nicht 90 Augen haben"),
    ("en", 1, "cannot hold 90 card points with 1 trick"), ("en", 2, "cannot hold 90 card points with 2 tricks"),
    ("ja", 1, "1トリックでカード点90点を持つことはできません"),
])
def test_a_refusal_that_counts_takes_the_plural_form_of_its_count(language: str, tricks: int, written: str) -> None:
    """"1 Stiche" no more: the engine's lines that count go through ngettext (explain.counted)."""
    from django.utils import translation

    from scorekeep.rules import IllegalDeal, judge
    from scorekeep.words.labels import page_words

    request = {"game": "skat", "rules": {"preset": "classic"}, "players": 3,
               "deal": {"contract": "ramsch", "points": [90, 20, 10], "tricks": [tricks, 5, 5 - tricks]}}
    with pytest.raises(IllegalDeal) as refused:
        judge(request)
    with translation.override(language):
        message = refused.value.render(str, None, page_words)
    assert written in message
    assert refused.value.message.endswith(f"with {tricks} tricks")  # the contract's English stays as it was


def test_the_api_and_the_command_line_count_in_their_language(client: Client) -> None:
    """POST /api/adjudicate with Accept-Language and `manage.py adjudicate --language` write the count's form."""
    request = {"game": "skat", "rules": {"preset": "classic"}, "players": 3,
               "deal": {"contract": "ramsch", "points": [90, 20, 10], "tricks": [1, 5, 4]}}
    answer = client.post("/api/adjudicate", request, content_type="application/json",
                         headers={"Accept-Language": "de"}).json()
    assert answer["errors"][0]["message"] == "Platz 0 kann mit 1 Stich nicht 90 Augen haben"
    from scorekeep.api.jsonlines import in_language

    assert "mit 1 Stich nicht" in in_language("de", [REPO / "locale"])(request)["errors"][0]["message"]


def _example_deals() -> list[dict]:
    """The demo nights' deals and the conformance vectors' deals, as adjudication requests."""
    import json

    from scorekeep.nights import demo

    requests = [{"game": night.game, "rules": {"preset": night.preset, **night.house_rules},
                 "players": len(night.players), "deal": facts} for night in demo.nights() for facts in night.deals]
    for path in sorted(VECTORS.glob("*.jsonl")) if VECTORS.exists() else []:
        vectors = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        requests += [vector["input"] for vector in vectors if "deal" in vector["input"]]
    return requests


@pytest.mark.parametrize("language", ["en", "de", "ja"])
def test_explanations_name_options_in_words_not_by_their_codes(language: str) -> None:
    """No explanation line of the demo nights or the example deals shows an option's code ("price_solo",
    "laufende_min_wenz", "reverse_levels = skat_taken"): the engine names options by their labels."""
    from django.utils import translation
    from django.utils.translation import gettext

    from scorekeep.rules import GAMES, IllegalDeal, judge

    codes = {game: {key for key in module.OPTIONS if "_" in key} | {choice for key, choice in module.CHOICE_LABELS
                                                                     if "_" in choice}
             for game, module in GAMES.items()}
    lines = 0
    with translation.override(language):
        for request in _example_deals():
            try:
                verdict = judge(request)
            except IllegalDeal:
                continue
            for line in verdict.explain(str, gettext):
                lines += 1
                found = [code for code in codes[request["game"]] if re.search(rf"(?<!\w){code}(?!\w)", line)]
                assert not found, f"{line!r} shows the option code {found}"
                assert not re.search(r"(?i)\boption [a-z]|オプション ?[a-z]", line), line
                # The Schafkopf bonuses' codes, which are English words too: a German or Japanese line says them
                # in its own words.
                assert language == "en" or not re.search(r"[(（](schneider|schwarz)[)）]", line), line
    assert lines > (500 if VECTORS.exists() else 300)  # the vectors sit beside the clone (../shared) when present


@pytest.mark.parametrize(("language", "one", "many"), [
    ("de", "Bitte in 1 Minute erneut", "Bitte in 15 Minuten erneut"),
    ("en", "Try again in 1 minute.", "Try again in 15 minutes."),
])
def test_a_count_on_a_page_agrees_with_its_noun(language: str, one: str, many: str) -> None:
    """Python's counts go through ngettext too: the wait after too many attempts, a round of one deal."""
    from django.template import Context, Template
    from django.utils import translation

    from scorekeep.web.throttle import wait_message

    with translation.override(language):
        assert one in wait_message(30) and many in wait_message(15 * 60)
        round_of = Template("{% load i18n %}{% blocktranslate count n=n %}a round is {{ n }} deal{% plural %}"
                            "a round is {{ n }} deals{% endblocktranslate %}")
        if language == "de":
            assert round_of.render(Context({"n": 1})) == "eine Runde hat 1 Spiel"
            assert round_of.render(Context({"n": 5})) == "eine Runde hat 5 Spiele"
