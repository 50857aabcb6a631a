"""Only the engine knows a game by name (issue 29): outside `scorekeep/rules/` no module imports a game module,
no Python names a game or a contract in a string, and no template or style sheet names a game. Pages ask the
engine (`rules.GAMES`, each game module's words, inputs and paper list) instead."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

from scorekeep.rules import GAMES

from .conftest import REPO

PACKAGE = REPO / "scorekeep"
GAME_NAMES = frozenset(GAMES)
CONTRACTS = frozenset(str(contract) for module in GAMES.values() for contract in module.CONTRACTS)
GAME_MODULE = re.compile(r"^\s*(from\s+(\.+|scorekeep\.)rules(\.(?P<a>\w+))?\s+import\s+(?P<names>[^#\n]+)"
                         r"|import\s+scorekeep\.rules\.(?P<b>\w+))", re.M)
# Strings that are a game's or contract's name and mean something else, each with why:
ALLOWED: dict[str, frozenset[str]] = {
    # message contexts: a word the games say differently is translated with the game as its context
    "words/game_words.py": GAME_NAMES,
    # deal.play's own keys: the skat (two cards) and the tricks as played (rules/play.py's format)
    "dispute/play.py": frozenset({"skat", "tricks"}),
    # the refusal of a JSON null ("null" is a JSON word here)
    "management/commands/import.py": frozenset({"null"}),
    # URL names ("clubs/" pages), not the suit
    "clubs/views.py": frozenset({"clubs"}), "clubs/forms.py": frozenset({"clubs"}),
    "urls.py": frozenset({"clubs"}),
    # house-rule option keys whose values the engine names by key only (Schafkopf's "price of a Sie")
    "nights/forms.py": frozenset({"clubs", "sie"}),
    # the demo's nights, one per game with the rule set a club of it plays (Schafkopf's "sauspiel" tariff);
    # their deals are drawn from the engine's inputs
    "nights/demo.py": GAME_NAMES | {"sauspiel"},
    # the demo club's seasons are of Skat nights (demo.season_nights)
    "management/commands/loaddemo.py": frozenset({"skat"}),
}


def _python_files() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py")
                  if "rules" not in path.relative_to(PACKAGE).parts[:1]
                  and "migrations" not in path.parts and path.name != "engine_messages.py")


def _strings(path: Path) -> list[tuple[int, str]]:
    """Every string constant of a module with its line (docstrings and comments say what they like)."""
    out = []
    tokens = list(tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline))
    for index, token in enumerate(tokens):
        if token.type != tokenize.STRING or token.string[:1] not in "\"'":
            continue
        before = tokens[index - 1].type if index else tokenize.NEWLINE
        if before in (tokenize.NEWLINE, tokenize.INDENT, tokenize.NL, tokenize.DEDENT):  # a docstring
            continue
        out.append((token.start[0], token.string.strip("\"'")))
    return out


def test_no_module_outside_the_engine_imports_a_game_module() -> None:
    found = []
    for path in _python_files():
        for match in GAME_MODULE.finditer(path.read_text(encoding="utf-8")):
            named = {match["a"], match["b"], *re.findall(r"\w+", match["names"] or "")}
            if named & GAME_NAMES:
                found.append(f"{path.relative_to(REPO)}: {match.group(0).strip()}")
    assert not found, "game modules imported outside scorekeep/rules/:\n" + "\n".join(found)


def test_no_python_outside_the_engine_names_a_game_or_a_contract() -> None:
    found = []
    for path in _python_files():
        allowed = ALLOWED.get(path.relative_to(PACKAGE).as_posix(), frozenset())
        for line, text in _strings(path):
            if text in (GAME_NAMES | CONTRACTS) - allowed:
                found.append(f"{path.relative_to(REPO)}:{line}: {text!r}")
    assert not found, "games or contracts named outside scorekeep/rules/:\n" + "\n".join(found)


def test_no_template_or_style_sheet_names_a_game() -> None:
    # 'kop', key == 'kop', tally.skat, .skat-list, .ledger-fipsen (a game's name capitalised is prose: "Skat's")
    word = re.compile(rf"(?<!\w)({'|'.join(sorted(GAME_NAMES))})(?!\w)")
    found = []
    for root, pattern in ((REPO / "templates", "*.html"), (REPO / "static" / "css", "*.css"),
                          (REPO / "static" / "js", "*.js")):
        for path in sorted(root.rglob(pattern)):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if word.search(line):
                    found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()[:100]}")
    assert not found, "templates or style sheets naming a game:\n" + "\n".join(found)
