"""``POST /api/adjudicate``: the contract over HTTP (shared/spec/ADJUDICATION.md).

None of these tests may touch the database (pytest-django refuses it without a marker): the API
is stateless.
"""

import json
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeep import rules
from scorekeep.api.views import MAX_BODY
from tests.contract_cases import BAD_FIELDS, DEALER_DECLARES, IN_OTHER_LANGUAGES, SAUSPIEL

URL = "/api/adjudicate"
ANYONE = Client()  # one client for the Hypothesis examples: the API keeps no state between requests


def post(client: Client, body: bytes | str, content_type: str = "application/json") -> Any:
    # The test client leaves out Content-Type for an empty body; a real client sends what it is told.
    return client.generic("POST", URL, body, content_type=content_type, headers={"Content-Type": content_type})


def post_json(client: Client, request: object) -> Any:
    return post(client, json.dumps(request))


def the_error(response: Any) -> dict[str, str]:
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/json"
    answer = response.json()
    assert answer["ok"] is False
    [error] = answer["errors"]
    return error


def test_a_deal_gets_200_with_the_engines_verdict(client: Client, grand_with_two: dict) -> None:
    response = post_json(client, grand_with_two)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == rules.adjudicate(grand_with_two)
    assert response.json()["value"] == 72


def test_a_bidding_dispute_gets_200_with_the_higher_bid(client: Client) -> None:
    dispute = {"game": "fipsen", "compare": [{"bid": 3, "hand": True, "seat": 0}, {"bid": 3, "ruten": True, "seat": 2}],
               "dealer": 3}

    response = post_json(client, dispute)

    assert response.status_code == 200
    assert response.json()["higher"] == 0


def test_non_ascii_is_sent_as_utf8_text(client: Client, grand_with_two: dict) -> None:
    response = post_json(client, grand_with_two)

    assert "game 3 × 24 = 72".encode() in response.content


def test_no_csrf_token_login_or_cookie_is_needed_and_none_is_set(grand_with_two: dict) -> None:
    client = Client(enforce_csrf_checks=True)

    response = post_json(client, grand_with_two)

    assert response.status_code == 200
    assert not response.cookies
    assert "Set-Cookie" not in response.headers


def test_a_rejection_is_set_without_a_cookie_too() -> None:
    response = post(Client(enforce_csrf_checks=True), b"{")

    assert response.status_code == 400
    assert not response.cookies


@pytest.mark.parametrize(("change", "field", "says"), BAD_FIELDS)
def test_bad_fields_get_400_naming_the_field(client: Client, grand_with_two: dict, change, field: str,
                                             says: str) -> None:
    error = the_error(post_json(client, change(grand_with_two)))

    assert error["field"] == field
    assert says in error["message"]


def test_seats_are_written_as_the_contract_numbers_them_from_0(client: Client) -> None:
    """Pages name seats their own way (Seat 1 …); the contract's English counts from 0."""
    assert the_error(post_json(client, DEALER_DECLARES))["message"] == (
        "seat 1 deals at this 4-seat table and sits the deal out, so cannot declare; the declarer is one of "
        "seats 0, 2 and 3")
    explanation = post_json(client, SAUSPIEL).json()["explanation"]
    assert explanation[0] == "Sauspiel: seat 2 called the Ace of Eichel (clubs), partner seat 0; tariff 10"
    assert explanation[-1] == "value 10, a partner game: seats 2 and 0 each receive it, seats 1 and 3 each pay it"


@pytest.mark.parametrize(("body", "content_type", "says"), [
    (b'{"game": "skat",', "application/json", "is not valid JSON: Expecting property name"),
    (b'{"game": "skat" "deal": {}}', "application/json", "line 1, column 17"),
    (b"[1, 2]", "application/json", "must be a JSON object"),
    (b'"skat"', "application/json", "must be a JSON object"),
    (b"null", "application/json", "must be a JSON object"),
    (b"", "application/json", "has an empty body: send one JSON object"),
    (b" \n", "application/json", "has an empty body"),
    (b'{"game": "skat"}', "text/plain", "must be sent with Content-Type: application/json, not text/plain"),
    (b"game=skat", "application/x-www-form-urlencoded", "must be sent with Content-Type: application/json"),
    (b'{"game": "skat"}', "", "must be sent with Content-Type: application/json, not none"),
    (b'{"game": "sk\xe4t"}', "application/json", "is not UTF-8 text (byte 13 of the body)"),
    (b'{"game": "skat"}', "application/json; charset=latin-1", "must be UTF-8 JSON"),
    (b'{"a": 1, "a": 2}', "application/json", 'the key "a" appears twice'),
    (b'{"card_points": Infinity}', "application/json", "Infinity is not a JSON number"),
], ids=["cut-off", "missing-comma", "list", "string", "null", "empty", "blank", "text-plain", "form",
        "no-content-type", "latin-1-bytes", "latin-1-charset", "repeated-key", "infinity"])
def test_what_is_not_one_json_object_gets_400_naming_the_request(client: Client, body: bytes,
                                                                 content_type: str, says: str) -> None:
    error = the_error(post(client, body, content_type))

    assert error["field"] == "request"
    assert says in error["message"]


def test_utf8_charset_is_accepted(client: Client, grand_with_two: dict) -> None:
    response = post(client, json.dumps(grand_with_two), "application/json; charset=UTF-8")

    assert response.status_code == 200


def test_a_body_over_64_kib_gets_400_saying_the_limit(client: Client, grand_with_two: dict) -> None:
    padded = json.dumps(grand_with_two).replace("{", "{" + " " * MAX_BODY, 1)
    assert json.loads(padded) == grand_with_two  # valid JSON, just too big

    error = the_error(post(client, padded))

    assert error["field"] == "request"
    assert "is over 65536 bytes (64 KiB), the most accepted" in error["message"]


def test_a_body_of_exactly_64_kib_is_read(client: Client, grand_with_two: dict) -> None:
    text = json.dumps(grand_with_two)
    padded = text.replace("{", "{" + " " * (MAX_BODY - len(text)), 1)

    assert post(client, padded).status_code == 200


def test_an_empty_post_without_content_type_is_told_to_send_an_object(client: Client) -> None:
    error = the_error(client.generic("POST", URL))

    assert error == {"field": "request", "message": error["message"]}
    assert error["message"].startswith("has an empty body: send one JSON object such as {")


@pytest.mark.parametrize("method", ["GET", "PUT", "PATCH", "DELETE", "OPTIONS"])
def test_other_methods_get_405_with_allow_post_and_a_json_rejection(client: Client, method: str) -> None:
    response = client.generic(method, URL)

    assert response.status_code == 405
    assert response["Allow"] == "POST"
    assert response.json() == {"ok": False, "errors": [
        {"field": "request", "message": f"must be sent with POST (one JSON object as the body), not {method}"}]}


def test_an_engine_bug_becomes_a_rejection_not_a_500(client: Client, monkeypatch, grand_with_two: dict,
                                                     caplog) -> None:
    def broken(request: object) -> dict:
        raise KeyError("a bug")

    monkeypatch.setattr(rules, "adjudicate", broken)

    error = the_error(post_json(client, grand_with_two))

    assert error["field"] == "request"
    assert "internal error" in error["message"]
    assert "KeyError" in caplog.text


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    max_leaves=20,
)
# Values shaped like requests, so the engine's deeper checks get arbitrary input too.
request_like = st.fixed_dictionaries(
    {"game": st.sampled_from(["skat", "schafkopf", "kop", "fipsen"])},
    optional={"deal": json_values | st.dictionaries(st.sampled_from(
        ["contract", "declarer", "bid", "card_points", "matadors", "hand", "partner", "old", "tricks_taken",
         "doublings", "points", "tricks", "trump"]), json_values)},
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values | request_like)
def test_any_json_value_gets_a_verdict_or_a_rejection_never_a_500(value: object) -> None:
    response = post(ANYONE, json.dumps(value))

    assert response.status_code in (200, 400)
    answer = response.json()
    assert answer["ok"] is (response.status_code == 200)
    if not answer["ok"]:
        assert all(error["field"] and error["message"] for error in answer["errors"])


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_get_a_verdict_or_a_rejection_never_a_500(body: bytes) -> None:
    response = post(ANYONE, body)

    assert response.status_code in (200, 400)
    assert response.json()["ok"] is (response.status_code == 200)


# --- GET /api/games: the games' own description of their inputs -------------------------------------

def test_the_games_describe_every_contract_and_its_fields(client: Client) -> None:
    response = client.get("/api/games")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    games = {game["game"]: game for game in response.json()["games"]}
    assert list(games) == list(rules.GAMES)
    isko = next(s for s in games["skat"]["rule_sets"] if s["preset"] == "isko")
    grand = next(c for c in isko["contracts"] if c["contract"] == "grand")
    fields = {field["key"]: field for field in grand["fields"]}
    assert fields["card_points"] == {"key": "card_points", "kind": "count", "need": "required", "min": 0, "max": 120,
                                     "label": "Declarer's card points (skat included)", "unless": ["conceded"],
                                     "impossible": [1, 119]}
    assert [c["label"] for c in fields["matadors"]["choices"]][:2] == ["with 1", "with 2"]
    assert "kontra" not in fields and "kontra" in grand["unused"]  # the ISkO has no Kontra


def test_the_totals_no_side_can_make_are_said_and_refused(client: Client) -> None:
    """Kop's card points no side can make with whole tricks are in the description (`impossible`), and the
    contract refuses each of them: a page can check them as they are typed."""
    answer = client.get("/api/games", {"game": "kop", "rules": '{"preset": "classic"}'}).json()
    normal = next(c for c in answer["games"][0]["rule_sets"][0]["contracts"] if c["contract"] == "normal")
    points = next(field for field in normal["fields"] if field["key"] == "card_points")
    assert 30 in points["impossible"] and 32 not in points["impossible"] and 0 not in points["impossible"]
    for total in (points["impossible"][0], 30, points["impossible"][-1]):
        error = the_error(post_json(client, {"game": "kop", "rules": {"preset": "classic"}, "players": 4,
                                             "dealer": 3, "deal": {"contract": "normal", "old": [0, 2],
                                                                   "card_points": total}}))
        assert error["field"] == "deal.card_points", total


def test_a_ramsch_says_what_its_lists_add_up_to_and_publishes_no_page_taps(client: Client) -> None:
    answer = client.get("/api/games", {"game": "schafkopf", "rules": '{"preset": "bsv"}'}).json()
    ramsch = next(c for c in answer["games"][0]["rule_sets"][0]["contracts"] if c["contract"] == "ramsch")
    fields = {field["key"]: field for field in ramsch["fields"]}
    assert (fields["points"]["total"], fields["tricks"]["total"]) == (120, 8)
    assert set(fields) == {"points", "tricks", "klopfer"}  # the taps standing in for tricks are the page's own
    assert "marks" not in fields["tricks"] and fields["tricks"]["need"] == "required"


def test_the_seldom_played_contracts_and_the_common_values_are_said(client: Client) -> None:
    answer = client.get("/api/games", {"game": "schafkopf", "rules": '{"preset": "bsv"}'}).json()
    contracts = {c["contract"]: c for c in answer["games"][0]["rule_sets"][0]["contracts"]}
    assert contracts["solo_tout"]["seldom_played"] is True and "seldom_played" not in contracts["sauspiel"]
    skat = client.get("/api/games", {"game": "skat", "rules": '{"preset": "classic"}'}).json()
    clubs = next(c for c in skat["games"][0]["rule_sets"][0]["contracts"] if c["contract"] == "clubs")
    fields = {field["key"]: field for field in clubs["fields"]}
    assert fields["bid"]["common"] == [18, 20, 22, 23, 24, 27] and fields["matadors"]["common"][:2] == [1, 2]
    assert all("seldom_played" not in c for c in skat["games"][0]["rule_sets"][0]["contracts"])


def test_the_words_come_in_the_language_asked_for(client: Client) -> None:
    answer = client.get("/api/games?game=kop", headers={"Accept-Language": "de"}).json()
    assert answer["language"] == "de"
    [kop] = answer["games"]
    normal = kop["rule_sets"][0]["contracts"][0]
    assert {f["key"]: f["label"] for f in normal["fields"]}["old_tricks"] == "Stiche der alten Partei"


@pytest.mark.parametrize(("language", "first_line", "message"), IN_OTHER_LANGUAGES)
def test_accept_language_translates_explanations_and_rejections_only(client: Client, grand_with_two: dict,
                                                                      language: str, first_line: str,
                                                                      message: str) -> None:
    english = rules.adjudicate(grand_with_two)
    asked = {"Accept-Language": f"{language},en;q=0.5"}

    verdict = client.post(URL, grand_with_two, content_type="application/json", headers=asked)
    rejected = client.post(URL, DEALER_DECLARES, content_type="application/json", headers=asked)

    assert verdict.status_code == 200
    answer = verdict.json()
    assert answer["explanation"][0] == first_line
    assert list(answer) == list(english)
    assert {**answer, "explanation": None} == {**english, "explanation": None}
    assert rejected.status_code == 400
    assert rejected.json() == {"ok": False, "errors": [{"field": "deal.declarer", "message": message}]}


def test_the_language_cookie_is_honoured_and_nothing_asked_is_english(grand_with_two: dict, settings: Any) -> None:
    chooser = Client()
    chooser.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"

    assert post_json(chooser, grand_with_two).json()["explanation"][0] == "Grandspiel von Platz 0, mit 2: Grundwert 24"
    assert post_json(Client(), grand_with_two).json() == rules.adjudicate(grand_with_two)
    assert post_json(Client(headers={"Accept-Language": "fr"}), grand_with_two).json() == rules.adjudicate(
        grand_with_two)


def test_an_engine_bug_in_another_language_is_a_rejection_too(client: Client, monkeypatch, grand_with_two: dict,
                                                              caplog) -> None:
    def broken(request: object) -> dict:
        raise KeyError("a bug")

    monkeypatch.setattr(rules, "judge", broken)

    response = client.post(URL, grand_with_two, content_type="application/json", headers={"Accept-Language": "ja"})

    assert "internal error" in the_error(response)["message"]
    assert "KeyError" in caplog.text


def test_house_rules_and_a_table_size_describe_one_rule_set(client: Client) -> None:
    answer = client.get("/api/games", {"game": "kop", "rules": '{"preset": "wolsztyn"}'}).json()
    [rule_set] = answer["games"][0]["rule_sets"]
    zolo = next(c for c in rule_set["contracts"] if c["contract"] == "zolo")
    fields = {f["key"]: f for f in zolo["fields"]}
    assert (fields["old"]["min"], fields["old"]["max"], fields["doublings"]["max"]) == (1, 1, 2)


@pytest.mark.parametrize(("query", "field"), [
    ({"game": "poker"}, "game"),
    ({"game": "skat", "rules": '{"preset": "isko", "kontra": 1}'}, "rules.kontra"),
    ({"game": "skat", "rules": "{"}, "rules"),
    ({"game": "kop", "players": "3"}, "players"),
    ({"players": "many"}, "players"),
])
def test_a_description_the_game_refuses_names_the_field(client: Client, query: dict[str, str], field: str) -> None:
    assert the_error(client.get("/api/games", query))["field"] == field


def test_the_description_is_only_read(client: Client) -> None:
    assert client.post("/api/games").status_code == 405


@pytest.mark.parametrize("body", [rb'{"game": "\ud800"}', rb'{"game": "skat", "rules": {"preset": "\udc00"}}'])
def test_a_lone_surrogate_is_a_rejection_not_a_server_error(body: bytes, settings: Any) -> None:
    settings.DEBUG = False  # as served: a server error would be an HTML page
    error = the_error(post(Client(raise_request_exception=False), body))
    assert error["field"] == "request" and "lone surrogate" in error["message"]
