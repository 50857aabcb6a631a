"""The engine's explanation lines read as players write them, in every language (issue 30).

Every verdict the engine is judged on — the public conformance vectors (../shared/vectors), the contract's own
cases (tests/contract_cases.py) and the requests the translation checks reach every line with
(tests/rules/test_explain_i18n.py's SAMPLE, the play check's included) — is rendered in English, German and
Japanese as a page renders it: Django's catalogue for the language, in the words of the verdict's game
(`speaking_of`), seats by their label. No line may show the contract's code (a preset, an option key or
named value, a card code, a snake_case identifier), a file name, a "^" power or an ASCII hyphen as a minus;
Japanese lines use 、 and full-width parentheses; and each game's Japanese lines use its seed page's words.

Refusals are left out: they name the request's fields and quote its values on purpose (ADJUDICATION.md).
"""

import re
from collections.abc import Iterator

import pytest
from django.utils import translation

from scorekeep.rules import GAMES, IllegalDeal, Table, complete, judge
from scorekeep.rules.cards import ALL_CARDS
from scorekeep.words.labels import page_words, speaking_of
from tests import contract_cases
from tests.rules.test_explain_i18n import SAMPLE, vectors

LANGUAGES = ("en", "de", "ja")


def _requests() -> Iterator[dict]:
    cases = [contract_cases.DEALER_DECLARES, contract_cases.SAUSPIEL]
    for request in [*SAMPLE, *vectors(), *cases]:
        if isinstance(request, tuple):  # a Ramsch as a page enters it: completed first
            request = request[1]
            module = GAMES[request["game"]]
            players = request.get("players", module.DEFAULT_SEATS)
            try:
                deal = complete(request["game"], request["deal"], module.parse_rules(request.get("rules")),
                                Table(players, request.get("dealer", players - 1)))
            except IllegalDeal:
                continue
            request = {**request, "deal": deal}
        if isinstance(request, dict):
            yield request


def _lines() -> dict[str, list[tuple[str, str]]]:
    """Each language's lines, each with its game."""
    verdicts = []
    for request in _requests():
        try:
            verdicts.append(judge(request))
        except IllegalDeal:
            continue
    found: dict[str, list[tuple[str, str]]] = {}
    for language in LANGUAGES:
        with translation.override(language):
            seat_word = page_words("Seat %(number)s")

            def seat(n: int, word: str = seat_word) -> str:
                return word % {"number": n}

            for verdict in verdicts:
                with speaking_of(verdict.game):
                    found.setdefault(language, []).extend(
                        (verdict.game, line) for line in verdict.explain(seat, page_words))
    return found


LINES = _lines()


def _codes() -> dict[str, frozenset[str]]:
    """The contract's code a player must not read, per game: presets, named option values and option keys of
    more than one word (a key that is one word, "tout", "passed", is also that word: `OPTION_SAID` finds it
    where it is said as code, "tout: double")."""
    codes: dict[str, frozenset[str]] = {}
    for game, module in GAMES.items():
        found = set(module.PRESETS) | {key for key in module.OPTIONS if "_" in key}
        for values in module.PRESETS.values():
            for value in values.values():
                items = value if isinstance(value, tuple | list) else (value,)
                found.update(item for item in items if isinstance(item, str))
        found.update(choice for _option, choice in module.CHOICE_LABELS)
        codes[game] = frozenset(found)
    return codes


CODES = _codes()
OPTION_SAID = {game: re.compile(r"[(（](?:" + "|".join(module.OPTIONS) + r"): ") for game, module in GAMES.items()}
# Named option values that are also plain English words: in an English line they are that word.
ENGLISH_WORDS = {"double", "always", "single", "void", "flat", "none", "loser"}
CARD = re.compile(r"(?<![\w♣♠♥♦])(?:" + "|".join(sorted(ALL_CARDS, key=len, reverse=True)) + r")(?!\w)")
WORD = re.compile(r"[\w.]+")


def _problems(language: str, game: str, line: str) -> list[str]:
    problems = []
    for token in WORD.findall(line):
        if token in CODES[game] and not (language == "en" and token in ENGLISH_WORDS):
            problems.append(f"code {token!r}")
        elif re.fullmatch(r"[a-z0-9]+(?:_[a-z0-9]+)+", token):
            problems.append(f"identifier {token!r}")
    if OPTION_SAID[game].search(line):
        problems.append(f"an option said as code {OPTION_SAID[game].search(line).group()!r}")  # type: ignore[union-attr]
    if re.search(r"\b\w+\.md\b|RULES", line):
        problems.append("a file name")
    if "^" in line:
        problems.append('a "^" power')
    if re.search(r"(?<![\w\d])-\d", line):
        problems.append("an ASCII hyphen as a minus")
    if CARD.search(line):
        problems.append(f"a card code {CARD.search(line).group()!r}")  # type: ignore[union-attr]
    if language == "ja":
        if ", " in line or "; " in line:
            problems.append('an ASCII ", " or "; " in a list')
        if re.search(r"[()]", line):
            problems.append("half-width parentheses")
    return problems


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_line_shows_code_file_names_or_ascii_signs(language: str) -> None:
    bad = {line: problems for game, line in LINES[language] if (problems := _problems(language, game, line))}
    assert len(LINES[language]) > 900
    assert not bad, f"{len(bad)} {language} lines, e.g. " + "\n".join(
        f"{line}  <- {', '.join(problems)}" for line, problems in list(bad.items())[:25])


# Each game's Japanese lines use the words of its seed page (../shared/seeds, ../shared/spec/VOCABULARY.md):
# the words below are another game's (or no page's) and must not appear in that game's lines.
NOT_IN_JAPANESE = {
    "skat": ("ビッド", "デクレアラー", "クロイツ", "ピク", "カロ", "（ヘルツ）"),
    "schafkopf": ("オーバー", "ウンター", "ザウ", "アイヒェル", "グラース", "シェレン", "フォアハンド", "ノック",
                  "クロップファー", "ビッド"),
    "kop": ("係数", "コール", "がダブル", "フォアハンド"),
    "fipsen": ("ハンド", "フォアハンド"),
}


@pytest.mark.parametrize("game", list(NOT_IN_JAPANESE))
def test_each_game_speaks_japanese_in_its_seed_pages_words(game: str) -> None:
    lines = [line for line_game, line in LINES["ja"] if line_game == game]
    assert lines
    bad = {line: [word for word in NOT_IN_JAPANESE[game] if word in line] for line in lines}
    bad = {line: words for line, words in bad.items() if words}
    assert not bad, f"{len(bad)} {game} lines, e.g. " + "\n".join(
        f"{line}  <- {', '.join(words)}" for line, words in list(bad.items())[:15])


def test_kop_names_each_doubling_call() -> None:
    lines = "\n".join(line for game, line in LINES["ja"] if game == "kop")
    assert all(call in lines for call in ("コントラ", "レ", "ボック", "スウップ")), "Kop's calls by name"


def test_fipsen_counts_no_card_points() -> None:
    """Fipsen counts tricks, not card points: its summary gives none (rules/fipsen.py)."""
    for language, points in (("en", "card points"), ("de", "Augen"), ("ja", "点")):
        bad = [line for game, line in LINES[language] if game == "fipsen" and re.search(rf"\b0 ?{points}", line)]
        assert not bad, bad[:5]
