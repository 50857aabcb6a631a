"""The dispute page /adjudicate/ and the home page, through pytest-django's client.

The page is driven the way a browser drives it: read the form's current values from the HTML,
change what a person would change, submit. `Page` is a small HTML reader for that.
"""

import json
import re
from html import escape, unescape
from html.parser import HTMLParser
from urllib.parse import urlencode

import pytest
from django.http import QueryDict
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeep.dispute.forms import DisputeForm
from scorekeep.rules import IllegalDeal, adjudicate, judge
from scorekeep.web.fields import seat_label
from tests.rules import vectors

URL = "/adjudicate/"
HTMX = {"HX-Request": "true"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Page(HTMLParser):
    """What a test needs from a rendered page: text by element id, and the form as a browser sends it."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.html = html
        self.texts: dict[str, list[str]] = {}
        self.open_ids: list[str | None] = []
        self.inputs: list[dict[str, str | None]] = []
        self.selects: dict[str, dict] = {}
        self.select: str | None = None
        self.option: dict[str, str | None] | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_data(" ")  # cells and list items read as separate words
        a = dict(attrs)
        if tag == "input":
            self.inputs.append(a)
        elif tag == "select":
            self.select = a.get("name")
            self.selects[self.select or ""] = {"attrs": a, "options": [], "selected": None}
        elif tag == "option" and self.select is not None:
            self.option = a
            self.selects[self.select]["options"].append(a.get("value"))
            if "selected" in a:
                self.selects[self.select]["selected"] = a.get("value")
        if tag not in VOID:
            self.open_ids.append(a.get("id"))
            if a.get("id"):
                self.texts[a["id"]] = []

    def handle_endtag(self, tag: str) -> None:
        self.handle_data(" ")
        if tag == "select":
            self.select = None
        if tag not in VOID and self.open_ids:
            self.open_ids.pop()

    def handle_data(self, data: str) -> None:
        for element in self.open_ids:
            if element:
                self.texts[element].append(data)

    def text(self, element_id: str) -> str:
        """The text inside the element with this id ("" when it is empty; KeyError when missing)."""
        return " ".join("".join(self.texts[element_id]).split())

    def value(self, name: str) -> str | None:
        """An input's value attribute, or a select's selected option (None: nothing selected)."""
        if name in self.selects:
            return self.selects[name]["selected"]
        for attrs in self.inputs:
            if attrs.get("name") == name:
                return attrs.get("value")
        raise KeyError(name)

    def input(self, name: str) -> dict[str, str | None]:
        return next(a for a in self.inputs if a.get("name") == name)

    def names(self) -> set[str]:
        return {a["name"] for a in self.inputs if a.get("name")} | set(self.selects)

    def form(self) -> dict[str, list[str]]:
        """What submitting the form sends: every named input, ticked checkbox and select."""
        values: dict[str, list[str]] = {}
        for a in self.inputs:
            name, kind = a.get("name"), a.get("type")
            if not name or kind == "submit" or (kind == "checkbox" and "checked" not in a):
                continue
            values.setdefault(name, []).append(a.get("value") or ("on" if kind == "checkbox" else ""))
        for name, select in self.selects.items():
            chosen = select["selected"] if select["selected"] is not None else select["options"][0]
            values[name] = [chosen or ""]
        return values


def get(client: Client, values: dict, **headers: str) -> tuple[int, Page]:
    response = client.get(URL + "?" + urlencode(values, doseq=True), headers=headers)
    return response.status_code, Page(response.content.decode())


def opened(client: Client, game: str, preset: str | None = None, players: int | None = None) -> Page:
    """The page for a game (and rule set, table size) as a person gets there."""
    query = {"game": game, **({"preset": preset} if preset else {}), **({"players": players} if players else {})}
    status, page = get(client, query)
    assert status == 200
    return page


def set_rules(values: dict, rules: dict) -> None:
    """Change house-rule inputs as a person would: tick, untick, choose or type."""
    for key, value in rules.items():
        name = f"rule-{key}"
        if value is True:
            values[name] = ["on"]
        elif value is False:
            values.pop(name, None)
        elif value is None:
            values[f"{name}-none"] = ["on"]
            values[name] = [""]
        elif isinstance(value, (list, dict)):
            values[name] = [json.dumps(value)]
        else:
            values[name] = [str(value)]
            values.pop(f"{name}-none", None)


def set_deal(page: Page, values: dict, game: str, deal: dict) -> None:
    """Enter a contract deal in the page's inputs: seats as 0-based values under "Seat n" labels,
    per-seat lists one input a seat, cards and Kop doublings typed (doublings as the page numbers seats)."""
    names = page.names()
    for key, value in deal.items():
        if key == "contract":
            continue
        if f"{key}-0" in names:
            for seat, number in enumerate(value):
                values[f"{key}-{seat}"] = [str(number)]
        elif key == "old":
            values[key] = [str(seat) for seat in value]
        elif key == "doublings" and game == "kop":
            values[key] = [" ".join(str(seat + 1) for seat in value)]
        elif key == "cards":
            values[key] = [" ".join(value)]
        elif value is True:
            values[key] = ["on"]
        elif value is False or value is None:
            values.pop(key, None)
        else:
            assert key in names, f"the page has no input for {key}"
            values[key] = [str(value)]


def enter(client: Client, request: dict, show: bool = True) -> tuple[int, Page]:
    """Do on the page what `request` says: game, rule set, house rules, table, contract, deal."""
    rules = request.get("rules") or {}
    page = opened(client, request["game"], rules.get("preset"), request.get("players"))
    values = page.form()
    set_rules(values, {k: v for k, v in rules.items() if k != "preset"})
    values["dealer"] = [str(request.get("dealer", values["dealer"][0]))]
    values["contract"] = [request["deal"]["contract"]]
    status, page = get(client, values)  # the contract decides which deal inputs there are
    assert status == 200
    values = page.form()
    set_deal(page, values, request["game"], request["deal"])
    if show:
        values["show"] = ["1"]
    return get(client, values)


def shown_request(page: Page) -> dict:
    """The request the verdict shows as JSON (what the page sent to the engine)."""
    start = page.html.index("<pre><code>", page.html.index('<section id="verdict"')) + len("<pre><code>")
    return json.loads(unescape(page.html[start:page.html.index("</code></pre>", start)]))


def page_seat(seat: int) -> str:
    """How the page names a seat, everywhere it shows one: Seat 1 … Seat n (the contract counts from 0)."""
    return f"Seat {seat + 1}"


def minus(number: int) -> str:
    return f"{number:+d}".replace("-", "\N{MINUS SIGN}") if number else "0"


# --- the home page and the page frame ---------------------------------------------------------

def test_home_page_says_what_scorekeep_is_and_links_to_the_dispute_page(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Skat, Schafkopf, Kop and Fipsen" in html
    assert f'href="{URL}"' in html


def test_page_is_mobile_ready_and_loads_htmx_from_our_static_files(client: Client) -> None:
    html = client.get(URL).content.decode()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert '<script src="/static/vendor/htmx/htmx.min.js"' in html
    assert "unpkg" not in html and "cdn" not in html.lower()
    assert html.count("X-CSRFToken") == 1 and "<body hx-headers=" in html
    assert '<a class="brand" href="/">scorekeep</a>' in html


def test_fresh_page_offers_the_default_game_and_no_verdict_yet(client: Client) -> None:
    status, page = get(client, {})
    assert status == 200
    assert page.value("game") == "skat" and page.value("preset") == "classic"
    assert "Enter the deal above" in page.text("verdict")
    assert "Show verdict" in page.html


# --- htmx partials --------------------------------------------------------------------------------

DEAL = {"game": "skat", "rules": {"preset": "isko"}, "players": 3,
        "deal": {"contract": "diamonds", "declarer": 1, "bid": 18, "matadors": -2, "card_points": 50}}


def test_verdict_partial_for_htmx_is_the_verdict_region_only(client: Client) -> None:
    status, full = enter(client, DEAL)
    query = urlencode(full.form(), doseq=True)
    response = client.get(f"{URL}?{query}", headers={**HTMX, "HX-Target": "verdict"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and "<body" not in html and "<form" not in html
    assert html.lstrip().startswith('<section id="verdict"')
    assert "Value <strong>27</strong>" in html
    # the messages beside the inputs come along out of band, so a typed-in input is never replaced
    assert 'id="err-card_points" aria-live="polite" hx-swap-oob="true"' in html
    assert 'name="card_points"' not in html
    assert "HX-Request" in response["Vary"]


@pytest.mark.parametrize(("target", "starts", "has", "lacks"), [
    ("dispute", '<div id="dispute">', ['name="game"', 'name="card_points"', 'id="verdict"'], []),
    ("deal", '<div id="deal">', ['name="contract"', 'name="card_points"', 'id="err-rule-kontra"'],
     ['name="game"', 'name="rule-kontra"']),
], ids=["whole-form", "deal-region"])
def test_region_partials_for_inputs_that_change_the_form(client: Client, target: str, starts: str,
                                                         has: list[str], lacks: list[str]) -> None:
    _status, full = enter(client, DEAL)
    response = client.get(URL + "?" + urlencode(full.form(), doseq=True), headers={**HTMX, "HX-Target": target})
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert html.lstrip().startswith(starts)
    for snippet in has:
        assert snippet in html
    for snippet in lacks:
        assert snippet not in html


def test_inputs_are_wired_to_swap_the_right_region(client: Client) -> None:
    page = opened(client, "skat")
    assert page.input("card_points")["hx-trigger"] == "input changed delay:500ms"
    assert "hx-target" not in page.input("card_points")  # inherits #verdict from the form
    assert page.selects["game"]["attrs"]["hx-target"] == "#dispute"
    assert page.selects["contract"]["attrs"]["hx-target"] == "#deal"
    assert page.input("rule-kontra")["hx-target"] == "#deal"
    assert 'hx-target="#verdict"' in page.html and 'hx-trigger="change, submit"' in page.html


def test_a_history_restore_gets_the_whole_page(client: Client) -> None:
    response = client.get(URL, headers={**HTMX, "HX-History-Restore-Request": "true"})
    assert "<html" in response.content.decode()


# --- each game's inputs -----------------------------------------------------------------------------

@pytest.mark.parametrize(("game", "preset", "contract", "present", "absent"), [
    ("skat", "classic", "clubs", {"declarer", "bid", "matadors", "cards", "hand", "announced", "ouvert",
                                  "card_points", "declarer_tricks", "conceded", "kontra", "re"},
     {"points-0", "partner", "bock"}),
    ("skat", "isko", "null", {"declarer", "bid", "hand", "ouvert", "declarer_tricks"},
     {"matadors", "card_points", "kontra", "announced"}),
    ("skat", "classic", "ramsch", {"points-0", "points-1", "points-2", "tricks-2"}, {"declarer", "points-3"}),
    ("schafkopf", "classic", "sauspiel", {"declarer", "partner", "called_ace", "card_points", "declarer_tricks",
                                          "laufende", "doublings"}, {"klopfer", "trump", "bock"}),
    ("schafkopf", "bsv", "solo", {"declarer", "trump", "klopfer"}, {"partner"}),
    ("schafkopf", "bsv", "ramsch", {"points-3", "tricks-3", "klopfer"}, {"declarer"}),
    ("kop", "classic", "normal", {"old", "card_points", "old_tricks", "doublings"}, {"declarer"}),
    ("fipsen", "classic", "tricks", {"declarer", "bid", "hand", "ruten", "durch", "tricks_taken"},
     {"surrendered"}),
    ("fipsen", "classic", "kieker", {"declarer", "ruten", "surrendered", "tricks_taken"}, {"bid", "hand"}),
])
def test_each_game_shows_only_the_fields_its_contract_uses(client: Client, game: str, preset: str, contract: str,
                                                           present: set[str], absent: set[str]) -> None:
    values = opened(client, game, preset).form()
    values["contract"] = [contract]
    status, page = get(client, values)
    assert status == 200
    names = page.names()
    assert present <= names, present - names
    assert not absent & names, absent & names


def test_inputs_fit_their_values(client: Client) -> None:
    values = opened(client, "skat").form()
    page = get(client, values)[1]
    # seats: 1-based labels, the contract's 0-based values
    assert '<option value="0">Seat 1</option>' in page.html and '<option value="2">Seat 3</option>' in page.html
    # numbers: a number keypad and the contract's range
    card_points = page.input("card_points")
    assert (card_points["type"], card_points["inputmode"], card_points["min"], card_points["max"]) == (
        "number", "numeric", "0", "120")
    assert page.input("hand")["type"] == "checkbox"
    # Skat's bids: a select of the legal values only
    bids = page.selects["bid"]["options"]
    assert bids[:6] == ["", "18", "20", "22", "23", "24"] and "19" not in bids and bids[-1] == "264"
    assert page.input("cards")["type"] == "text"


def test_kop_old_side_is_a_checkbox_per_seat_and_doublings_are_typed(client: Client) -> None:
    page = opened(client, "kop")
    old = [a for a in page.inputs if a.get("name") == "old"]
    assert [(a["type"], a["value"]) for a in old] == [("checkbox", str(seat)) for seat in range(4)]
    assert page.input("doublings")["type"] == "text"


def test_fipsen_bid_is_a_number_from_2_to_5_and_the_page_offers_a_bidding_dispute(client: Client) -> None:
    page = opened(client, "fipsen")
    bid = page.input("bid")
    assert (bid["type"], bid["min"], bid["max"]) == ("number", "2", "5")
    assert {"compare-0-bid", "compare-0-hand", "compare-0-seat", "compare-1-ruten", "compare-1-seat"} <= page.names()
    assert "compare-0-bid" not in opened(client, "skat").names()


# --- house rules ----------------------------------------------------------------------------------

def test_house_rules_are_built_from_each_options_kind_and_filled_with_the_preset(client: Client) -> None:
    page = opened(client, "skat", "classic")
    assert "<summary>House rules</summary>" in page.html
    assert "checked" in page.input("rule-kontra")  # boolean, classic plays Kontra
    assert page.selects["rule-ouvert"]["selected"] == "plus_one"  # choice
    fixed = page.input("rule-grand_ouvert_fixed")  # nullable integer: a number and a "none" box
    assert (fixed["type"], fixed["value"], fixed["min"]) == ("number", "36", "1")
    assert "checked" not in page.input("rule-grand_ouvert_fixed-none")
    page = opened(client, "skat", "isko")
    assert "checked" not in page.input("rule-kontra")
    assert "checked" in page.input("rule-grand_ouvert_fixed-none")
    page = opened(client, "schafkopf", "bsv")
    # A list of some choices: a box each, the preset's ticked (it was JSON to type: ["geier", …]).
    assert page.form()["rule-variants"] == ["geier", "farbwenz", "bettel", "hochzeit"]
    assert "Geier" in page.text("row-rule-variants") and "[" not in page.text("row-rule-variants")
    values = page.form()
    values.update({"rule-variants": ["geier"], "contract": ["farbwenz"]})  # Farbwenz no longer played
    _status, page = get(client, values)
    assert "farbwenz" not in page.form().get("contract", []) and page.form()["rule-variants"] == ["geier"]
    assert page.selects["rule-ramsch"]["options"][0] == "" and page.value("rule-ramsch") == "bsv"  # nullable choice


def test_json_house_rules_take_named_values_without_quotes(client: Client) -> None:
    values = opened(client, "schafkopf", "bsv").form()
    # Shown in words (issue 30), taken back in words or as the code.
    assert values["rule-tout"] == ["(solo + Laufende) × 2"] and values["rule-sie"] == ["4 × the solo price"]
    values.update({"rule-tout": ["200"], "rule-sie": ["4x_solo_8_laufende"], "contract": ["solo_tout"]})
    values = get(client, values)[1].form()
    values.update({"declarer": ["0"], "trump": ["H"], "card_points": ["120"], "declarer_tricks": ["8"]})
    _status, page = get(client, values)
    assert shown_request(page)["rules"] == {"preset": "bsv", "tout": 200, "sie": "4x_solo_8_laufende"}
    assert "Value 200" in page.text("verdict")
    values["rule-tout"] = ["triple"]
    _status, page = get(client, values)
    assert "(solo + Laufende) × 2" in page.text("err-rule-tout") and page.value("rule-tout") == "triple"


def test_changing_the_preset_refills_the_house_rules(client: Client) -> None:
    values = opened(client, "skat", "classic").form()
    values["preset"] = ["isko"]
    page = get(client, values)[1]
    assert page.value("shown") == "skat:isko"
    assert "checked" not in page.input("rule-kontra")
    assert page.selects["rule-conceded"]["selected"] == "double"


def test_a_house_rule_changes_the_fields_and_the_verdict(client: Client) -> None:
    values = opened(client, "skat", "classic").form()
    values.pop("rule-kontra")
    page = get(client, values)[1]
    assert "kontra" not in page.names()
    assert "<details class=\"group house-rules\" open>" in page.html  # a changed rule set stays in view


def test_an_overridden_house_rule_goes_into_the_request(client: Client) -> None:
    request = {"game": "skat", "rules": {"preset": "isko", "kontra": True}, "players": 3,
               "deal": {"contract": "grand", "declarer": 0, "bid": 72, "matadors": 2, "card_points": 70,
                        "kontra": True}}
    status, page = enter(client, request)
    assert status == 200
    assert shown_request(page)["rules"] == {"preset": "isko", "kontra": True}
    assert f"Value {adjudicate(request)['value']}" in page.text("verdict")


def test_changing_the_game_starts_that_game_fresh(client: Client) -> None:
    _status, page = enter(client, DEAL, show=False)
    values = page.form()
    values["game"] = ["kop"]
    status, page = get(client, values)
    assert status == 200
    assert page.value("preset") == "classic" and page.value("shown") == "kop:classic"
    assert page.value("card_points") is None and "old" in page.names()
    assert not page.text("err-top")


# --- verdicts ---------------------------------------------------------------------------------------

def _ok_vectors() -> list:
    params = []
    for game in ("skat", "schafkopf", "kop", "fipsen"):
        for param in vectors.load(game):
            vector = param.values[0]
            if vector is None:
                params.append(param)
            elif vector["expect"].get("ok") and "deal" in vector["input"]:
                params.append(param)
    return params


@pytest.mark.parametrize("vector", _ok_vectors())
def test_a_deal_entered_on_the_page_gets_the_engines_verdict(client: Client, vector: dict) -> None:
    """Every public vector with a verdict, entered through the form: the page shows its numbers."""
    request, expect = vector["input"], vector["expect"]
    status, page = enter(client, request)
    assert status == 200
    verdict = page.text("verdict")
    assert not page.text("err-top"), page.text("err-top")
    engine = adjudicate(request)
    assert f"Value {expect.get('value', engine['value'])}" in verdict, verdict
    if "scores" in expect:
        for seat, score in enumerate(expect["scores"]):
            assert f"Seat {seat + 1} {minus(score)}" in verdict
    if "seeger_fabian" in expect:
        for seat, (score, points) in enumerate(zip(expect["scores"], expect["seeger_fabian"], strict=True)):
            assert f"Seat {seat + 1} {minus(score)} {minus(points)}" in verdict
    if "won" in expect:
        assert {True: "Won", False: "Lost", None: "No declaring side"}[expect["won"]] in verdict
    for line in judge(request).explain(page_seat):
        assert " ".join(line.split()) in verdict
    assert adjudicate(shown_request(page))["scores"] == engine["scores"]


def test_skat_verdict_shows_scores_seeger_fabian_and_the_explanation_in_order(client: Client) -> None:
    status, page = enter(client, DEAL)
    assert status == 200
    verdict = page.text("verdict")
    assert "Lost Value 27" in verdict
    assert "Seat 1 0 +40 Seat 2 \N{MINUS SIGN}54 \N{MINUS SIGN}50 Seat 3 0 +40" in verdict
    explanation = judge(DEAL).explain(seat_label)  # the engine's lines, seats as the page labels them
    assert explanation[0].startswith("Diamonds game by Seat 2")
    assert page.html.count("<li>") >= len(explanation)
    positions = [page.html.index(escape(line)) for line in explanation]
    assert positions == sorted(positions)
    assert shown_request(page) == {**DEAL, "dealer": 2}


def test_the_request_holds_only_fields_that_carry_a_value(client: Client) -> None:
    request = {"game": "skat", "rules": {"preset": "classic"}, "players": 3,
               "deal": {"contract": "grand", "declarer": 0, "bid": 48, "matadors": 1, "card_points": 0,
                        "declarer_tricks": 0}}
    _status, page = enter(client, request)
    deal = shown_request(page)["deal"]
    assert deal == request["deal"]  # 0 points and 0 tricks are values; unticked boxes and empty inputs not


def test_kop_doublings_are_typed_as_the_page_numbers_seats(client: Client) -> None:
    values = opened(client, "kop").form()
    values.update({"old": ["0", "2"], "card_points": ["45"], "old_tricks": ["2"], "doublings": ["2 1"]})
    _status, page = get(client, values)
    assert shown_request(page)["deal"]["doublings"] == [1, 0]
    assert "Value 4" in page.text("verdict")


def test_fipsen_bidding_dispute_says_which_bid_is_higher(client: Client) -> None:
    values = opened(client, "fipsen").form()
    values.update({"compare-0-bid": ["3"], "compare-0-hand": ["on"], "compare-0-seat": ["0"],
                   "compare-1-bid": ["kieker"], "compare-1-seat": ["2"], "compare": ["1"]})
    status, page = get(client, values)
    assert status == 200
    engine = judge({"game": "fipsen", "players": 4, "dealer": 3, "rules": {"preset": "classic"},
                    "compare": [{"bid": 3, "hand": True, "seat": 0}, {"kieker": True, "seat": 2}]})
    assert engine.higher == 1
    comparison = page.text("comparison")
    assert comparison.startswith("Second bid is higher")
    for line in engine.explain(page_seat):
        assert " ".join(line.split()) in comparison
    assert "Bid 0: 3 Hand by Seat 1: trick count 3" in comparison
    assert "Enter the deal above" in page.text("verdict")  # the deal itself was not asked about


def test_a_mistyped_deal_does_not_stop_the_bidding_dispute(client: Client) -> None:
    values = opened(client, "fipsen").form()
    values.update({"declarer": ["0"], "tricks_taken": ["lots"], "compare-0-bid": ["5"], "compare-0-seat": ["1"],
                   "compare-1-bid": ["kieker"], "compare-1-ruten": ["on"], "compare-1-seat": ["2"]})
    _status, page = get(client, values)
    assert page.text("err-tricks_taken") == "Enter a whole number."
    assert page.text("comparison").startswith("First bid is higher")


def test_comparison_comes_along_with_a_verdict_update(client: Client) -> None:
    values = opened(client, "fipsen").form()
    values.update({"compare-0-bid": ["4"], "compare-0-seat": ["1"], "compare-1-bid": ["4"], "compare-1-seat": ["2"]})
    response = client.get(URL + "?" + urlencode(values, doseq=True), headers={**HTMX, "HX-Target": "verdict"})
    html = response.content.decode()
    assert '<section id="comparison" class="comparison" aria-live="polite" hx-swap-oob="true">' in html
    assert "First bid is higher" in Page(html).text("comparison")


# --- invalid deals: the message at the input, everything kept, status 200 -------------------------

@pytest.mark.parametrize(("request_", "slot", "says"), [
    ({"game": "skat", "rules": {"preset": "isko"}, "players": 3,
      "deal": {"contract": "clubs", "declarer": 0, "bid": 24, "matadors": 1, "card_points": 130}},
     "card_points", "from 0 to 120"),
    ({"game": "skat", "rules": {"preset": "classic"}, "players": 3,
      "deal": {"contract": "clubs", "declarer": 0, "bid": 24, "matadors": 1, "card_points": 70, "re": True}},
     "re", "Kontra"),
    ({"game": "skat", "rules": {"preset": "isko"}, "players": 3,
      "deal": {"contract": "grand", "declarer": 0, "bid": 48, "matadors": 3,
               "cards": ["CJ", "SJ", "HJ", "CA", "C10", "SA", "S10", "HA", "H10", "DA", "DJ", "D7"],
               "card_points": 70}}, "matadors", ""),
    ({"game": "skat", "rules": {"preset": "classic"}, "players": 3,
      "deal": {"contract": "ramsch", "points": [30, 50, 50], "tricks": [3, 4, 3]}}, "points", ""),
    ({"game": "schafkopf", "rules": {"preset": "bsv"}, "players": 4,
      "deal": {"contract": "hochzeit", "declarer": 2, "partner": 2, "card_points": 70}}, "partner", ""),
    ({"game": "kop", "rules": {"preset": "koscian"}, "players": 4, "dealer": 3,
      "deal": {"contract": "zolo", "old": [2], "card_points": 61, "old_tricks": 2, "doublings": [3, 2, 2]}},
     "doublings", "twice"),
    ({"game": "kop", "rules": {"preset": "classic"}, "players": 4,
      "deal": {"contract": "normal", "old": [0, 2], "card_points": 29, "old_tricks": 0}}, "old_tricks", ""),
    ({"game": "fipsen", "rules": {"preset": "classic"}, "players": 4,
      "deal": {"contract": "tricks", "declarer": 0, "bid": 6, "tricks_taken": 5}}, "bid", "2"),
], ids=["skat-points-130", "skat-re-without-kontra", "skat-cards-vs-matadors", "skat-ramsch-points-sum",
        "schafkopf-partner-is-declarer", "kop-same-seat-twice", "kop-no-trick-but-points", "fipsen-bid-6"])
def test_an_illegal_deal_shows_the_message_at_its_input_and_keeps_what_was_typed(
        client: Client, request_: dict, slot: str, says: str) -> None:
    with pytest.raises(IllegalDeal) as caught:
        judge(request_)
    status, page = enter(client, request_)
    assert status == 200
    message = page.text(f"err-{slot}")
    assert message and says in message
    assert caught.value.render(page_seat) in message
    assert "Not settled yet" in page.text("verdict")
    assert f'href="#row-{slot}"' in page.html
    for key, value in request_["deal"].items():  # nothing entered is lost
        if isinstance(value, bool) or key in ("cards", "doublings", "old") or isinstance(value, list):
            continue
        assert page.value(key) == str(value), key
    if "cards" in request_["deal"]:
        assert page.value("cards") == " ".join(request_["deal"]["cards"])
    if "doublings" in request_["deal"]:
        assert page.value("doublings") == " ".join(str(s + 1) for s in request_["deal"]["doublings"])


SAUSPIEL = {"game": "schafkopf", "rules": {"preset": "classic"}, "players": 4,
            "deal": {"contract": "sauspiel", "declarer": 2, "partner": 0, "called_ace": "C", "card_points": 70}}
DEALER_DECLARES = {"game": "skat", "rules": {"preset": "classic"}, "players": 4, "dealer": 1,
                   "deal": {"contract": "clubs", "declarer": 1, "bid": 18, "matadors": 1, "card_points": 70}}


def test_the_explanation_names_seats_as_the_page_does(client: Client) -> None:
    _status, page = enter(client, SAUSPIEL)
    verdict = page.text("verdict")
    assert "Sauspiel: Seat 3 called the Ace of Eichel (clubs), partner Seat 1; tariff 10" in verdict
    assert "value 10, a partner game: Seat 3 and Seat 1 each receive it, Seat 2 and Seat 4 each pay it" in verdict
    assert "seat 2" not in verdict  # no line counts from 0 …
    assert "The explanation counts" not in page.html
    # … only the JSON request does, as the contract says, and the page says so beside it
    assert shown_request(page)["deal"]["declarer"] == 2
    assert "In the request seats count from 0" in verdict
    assert adjudicate(SAUSPIEL)["explanation"][0] == (
        "Sauspiel: seat 2 called the Ace of Eichel (clubs), partner seat 0; tariff 10")


def test_an_engine_message_names_seats_as_the_page_does(client: Client) -> None:
    _status, page = enter(client, DEALER_DECLARES)
    said = ("Seat 2 deals at this 4-seat table and sits the deal out, so cannot declare; the declarer is one of "
            "Seat 1, Seat 3 and Seat 4")
    assert page.text("err-declarer") == said
    assert said in page.text("verdict")  # the list of what to check repeats it
    assert adjudicate(DEALER_DECLARES)["errors"] == [{"field": "deal.declarer", "message": (
        "seat 1 deals at this 4-seat table and sits the deal out, so cannot declare; the declarer is one of "
        "seats 0, 2 and 3")}]


@pytest.mark.parametrize(("typed", "says"), [
    ("4 3 3", "Seat 3 doubles twice in a row"),
    ("3 1", "the lone player (Seat 3) may not make the first call"),
], ids=["same-seat-twice", "lone-player-calls-first"])
def test_kop_doubling_messages_name_seats_as_typed(client: Client, typed: str, says: str) -> None:
    values = opened(client, "kop").form()
    values.update({"contract": ["zolo"]})
    values = get(client, values)[1].form()
    values.update({"old": ["2"], "card_points": ["61"], "old_tricks": ["2"], "doublings": [typed]})
    _status, page = get(client, values)
    assert says in page.text("err-doublings")


def test_a_missing_value_is_asked_for_quietly_where_it_goes(client: Client) -> None:
    values = opened(client, "skat").form()
    values.update({"declarer": ["0"], "bid": ["18"]})
    page = get(client, values)[1]
    assert page.text("err-matadors") and '<p class="needed">' in page.html


def test_an_error_without_an_input_goes_to_the_top(client: Client) -> None:
    values = opened(client, "schafkopf").form()
    values.update({"players": ["3"], "show": ["1"]})  # Schafkopf shows no players input: it is 4
    status, page = get(client, values)
    assert status == 200
    assert "Players" in page.text("err-top") and "3" in page.text("err-top")


def test_per_seat_lists_need_every_seat(client: Client) -> None:
    values = opened(client, "skat").form()
    values.update({"contract": ["ramsch"]})
    values = get(client, values)[1].form()
    values.update({"points-0": ["30"], "points-1": ["50"], "points-2": ["40"], "tricks-0": ["3"], "tricks-2": ["4"]})
    status, page = get(client, values)
    assert status == 200
    assert page.text("err-tricks") == "Seat 2: enter a number for every seat"
    assert page.value("points-1") == "50" and page.value("tricks-2") == "4"


def test_without_show_and_without_values_nothing_is_judged(client: Client) -> None:
    values = opened(client, "skat").form()
    status, page = get(client, values)
    assert status == 200 and "Enter the deal above" in page.text("verdict")
    values["show"] = ["1"]
    page = get(client, values)[1]
    assert "Not settled yet" in page.text("verdict") and page.text("err-declarer")


# --- garbage never makes a server error -----------------------------------------------------------

GARBAGE = [
    {"game": "chess"},
    {"game": ["skat", "kop"], "preset": "nope"},
    {"game": "skat", "preset": "dskv", "shown": "skat:dskv"},
    {"game": "skat", "players": "three", "dealer": "x"},
    {"game": "skat", "players": "99999999999999999999", "dealer": "-1"},
    {"game": "skat", "contract": "kreuz", "show": "1"},
    {"game": "skat", "contract": "clubs", "declarer": "7", "bid": "19", "matadors": "12", "card_points": "abc"},
    {"game": "skat", "contract": "clubs", "card_points": "1" * 5000, "declarer_tricks": "1e9"},
    {"game": "skat", "contract": "clubs", "card_points": str(10**30), "declarer": "0", "bid": "18", "matadors": "1"},
    {"game": "skat", "contract": "clubs", "card_points": "-0", "declarer": "0", "bid": "18", "matadors": "-1"},
    {"game": "skat", "contract": "grand", "cards": "XX YY ZZ", "declarer": "0", "bid": "48"},
    {"game": "skat", "contract": "ramsch", "points-0": "1e5", "tricks-9": "3", "points-1": "NaN"},
    {"game": "skat", "shown": "skat:classic", "rule-grand_ouvert_fixed": "abc", "rule-ouvert": "sideways"},
    {"game": "skat", "shown": "skat:classic", "rule-grand_ouvert_fixed": "", "contract": "grand"},
    {"game": "kop", "shown": "kop:classic", "rule-max_doublings": "{not json", "contract": "normal"},
    {"game": "kop", "shown": "kop:classic", "rule-max_doublings": '{"zolo": "many"}', "old": "0"},
    {"game": "kop", "shown": "kop:classic", "rule-trump_order": "[" * 3000 + "]" * 3000},
    {"game": "kop", "shown": "kop:classic", "rule-solo_factors": "null", "rule-round_placing": "{}"},
    {"game": "kop", "shown": "kop:classic", "rule-base_no_trick": "99999999999999999999999"},
    {"game": "kop", "contract": "normal", "old": ["0", "0", "9", "x"], "doublings": "1 1 9 x", "card_points": "1"},
    {"game": "schafkopf", "shown": "schafkopf:bsv", "preset": "bsv", "rule-variants": '["poker"]'},
    {"game": "schafkopf", "shown": "schafkopf:bsv", "preset": "bsv", "rule-tout": '"triple"', "rule-sie": "[]"},
    {"game": "schafkopf", "shown": "schafkopf:classic", "rule-passed": "ramsch", "contract": "ramsch"},
    {"game": "schafkopf", "contract": "solo", "trump": "X", "called_ace": "H", "partner": "4"},
    {"game": "fipsen", "compare-0-bid": "9", "compare-1-bid": "kieker", "compare-1-durch": "on", "compare": "1"},
    {"game": "fipsen", "compare-0-seat": "0", "compare-1-seat": "0", "compare-0-bid": "2", "compare-1-bid": "2"},
    {"game": "fipsen", "players": "3", "dealer": "3", "contract": "kieker", "surrendered": "on", "tricks_taken": "5"},
    {"shown": ":::", "game": "", "preset": "", "contract": ""},
    {"game": "skat\x00", "preset": "\u2603", "show": "1"},
    {"game": "skat", "players": "\u00b2", "dealer": "\u00b3", "contract": "clubs", "declarer": "\u0663"},
    {"game": "kop", "contract": "normal", "doublings": "\u00b2 \u0663 1", "old": "\u0661"},
]


@pytest.mark.parametrize("query", GARBAGE, ids=[str(i) for i in range(len(GARBAGE))])
@pytest.mark.parametrize("htmx", [None, "verdict", "deal", "dispute"])
def test_garbage_in_the_query_never_makes_a_server_error(client: Client, query: dict, htmx: str | None) -> None:
    headers = {**HTMX, "HX-Target": htmx} if htmx else {}
    response = client.get(URL + "?" + urlencode(query, doseq=True), headers=headers)
    assert response.status_code == 200


NAMES = ["game", "preset", "players", "dealer", "shown", "contract", "declarer", "partner", "bid", "matadors",
         "cards", "hand", "announced", "card_points", "declarer_tricks", "points-0", "points-1", "tricks-2", "old",
         "doublings", "trump", "called_ace", "laufende", "klopfer", "tricks_taken", "rule-kontra",
         "rule-max_doublings", "rule-variants", "rule-grand_ouvert_fixed", "rule-grand_ouvert_fixed-none",
         "rule-tout", "compare-0-bid", "compare-1-seat", "compare", "show"]
VALUES = st.one_of(
    st.sampled_from(["skat", "schafkopf", "kop", "fipsen", "classic", "isko", "bsv", "koscian", "clubs", "grand",
                     "null", "ramsch", "passed", "sauspiel", "solo", "normal", "zolo_du", "tricks", "kieker",
                     "on", "0", "1", "3", "4", "18", "120", "-1", "", "null", "[]", "{}", "[1, 0]", "C", "H",
                     "skat:classic", "kop:classic", "schafkopf:bsv", "fipsen:classic", "CJ SJ"]),
    st.integers(min_value=-10**40, max_value=10**40).map(str),
    st.text(max_size=30),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=st.dictionaries(st.sampled_from(NAMES), VALUES, max_size=12),
       target=st.sampled_from([None, "verdict", "deal", "dispute"]))
def test_random_queries_never_make_a_server_error(query: dict, target: str | None) -> None:
    headers = {**HTMX, "HX-Target": target} if target else {}
    response = Client().get(URL + "?" + urlencode(query), headers=headers)
    assert response.status_code == 200


@pytest.mark.parametrize("query", [{"game": "skat", "dealer": "9" * 5000}, {"game": "skat", "players": "9" * 5000}])
def test_absurdly_long_numbers_are_not_a_server_error(client: Client, query: dict[str, str]) -> None:
    response = client.get("/adjudicate/", query)
    assert response.status_code == 200


# --- a shared link (issue 33): the rule set and only the house rules that differ from it --------------------

SHARED_DEAL = {"game": "skat", "preset": "isko", "players": "3", "dealer": "2", "contract": "diamonds",
               "declarer": "1", "bid": "18", "matadors": "-2", "card_points": "50", "show": "1"}


def _share_url(client: Client, query: str) -> str:
    html = client.get("/adjudicate/?" + query).content.decode()
    found = re.search(r'<a class="share" href="([^"]+)"', html)
    assert found, "no link to share"
    return unescape(found.group(1))


def _long_query(client: Client, unticked: tuple[str, ...] = ()) -> str:
    """The query the page's own form sends: every input as the page filled it, less the boxes unticked (an
    unticked box sends nothing)."""
    data = DisputeForm(QueryDict(urlencode(SHARED_DEAL)), url="/adjudicate/").data.copy()
    for key in unticked:
        data.pop(key)
    return data.urlencode()


def _verdict(client: Client, url: str) -> tuple[str, str]:
    html = client.get(url).content.decode()
    value = re.search(r'<span class="value">.*?<strong>(-?\d+)</strong>', html, re.S)
    scores = re.search(r'<table class="scores">.*?</table>', html, re.S)
    assert value and scores, html[:2000]
    return value.group(1), scores.group(0)


def test_a_shared_link_carries_the_rule_set_and_only_the_changed_house_rule(client: Client) -> None:
    long = _long_query(client, ("rule-lost_hand_doubled",))  # ISkO doubles a lost Hand; this table does not
    assert long.count("rule-") >= 10 and "rule-lost_hand_doubled" not in long  # every other option
    short = _share_url(client, long)
    query = QueryDict(short.partition("?")[2])
    assert [key for key in query if key.startswith("rule-")] == ["rule-lost_hand_doubled"]
    assert query["rule-lost_hand_doubled"] == "false" and query["preset"] == "isko" and "shown" not in query
    assert len(short) < 200, short
    assert _verdict(client, short) == _verdict(client, "/adjudicate/?" + long)
    # The short link opens with the house rule as changed, and links to itself.
    html = client.get(short).content.decode()
    assert 'name="rule-lost_hand_doubled"' in html and 'id="id_rule-lost_hand_doubled" checked' not in html
    assert _share_url(client, short.partition("?")[2]) == short


def test_an_old_long_link_still_opens_to_the_same_verdict(client: Client) -> None:
    """A link from before issue 33 carries every option and ``shown``: it opens as it did (RULES.md's Diamonds
    without 2, lost: value 27), and its short form gives the same verdict."""
    long = _long_query(client)
    assert "shown=skat%3Aisko" in long and long.count("rule-") >= 10
    value, scores = _verdict(client, "/adjudicate/?" + long)
    assert value == "27"
    short = _share_url(client, long)
    assert len(short) < len(long) / 2
    assert _verdict(client, short) == (value, scores)


def test_the_htmx_answer_puts_the_short_link_in_the_address_bar(client: Client) -> None:
    long = _long_query(client)
    response = client.get("/adjudicate/?" + long, headers={"HX-Request": "true", "HX-Target": "verdict"})
    assert response["HX-Replace-Url"] == _share_url(client, long)
    assert "rule-" not in response["HX-Replace-Url"]
