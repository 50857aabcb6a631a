"""The deal entry form: the fields each contract asks, seats as players, facts in engine seats,
captured-card counting, messages at the field, and a deal's facts and history in words."""

from datetime import date, datetime
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.http import QueryDict

from scorekeep.models import CardNight
from scorekeep.nights import ledger
from scorekeep.nights import writes as nights
from scorekeep.nights.entry import DealForm, changes, deal_history, facts_in_words, initial_from, pack, refusal
from scorekeep.rules import IllegalDeal
from scorekeep.rules.explain import Seat

FOUR = ["Anna", "Bernd", "Clara", "Dieter"]


def form(night: CardNight, data: dict[str, Any] | None, dealer: int = 0, names: list[str] = FOUR,
         saving: bool = True) -> DealForm:
    """The entry form bound to `data` and checked as a save checks it (`saving`: every empty input needed is
    marked at its input); `saving=False` as a preview while typing."""
    query = None
    if data is not None:
        query = QueryDict(mutable=True)
        for key, value in data.items():
            query.setlist(key, value if isinstance(value, list) else [str(value)])
    f = DealForm(query, night=night, names=names, dealer=dealer, url="/x/", saving=saving)
    if data is not None:
        f.is_valid()
    return f


@pytest.fixture
def skat(db: None) -> CardNight:
    return nights.start_night(game="skat", preset="classic", players=FOUR, series_length=36)


@pytest.fixture
def kop(db: None) -> CardNight:
    return nights.start_night(game="kop", preset="classic", players=FOUR)


@pytest.fixture
def schafkopf(db: None) -> CardNight:
    return nights.start_night(game="schafkopf", preset="classic", players=FOUR)


def test_a_skat_suit_game_asks_its_fields_but_never_bock_or_schneider(skat: CardNight) -> None:
    f = form(skat, None)
    assert f.contract == "clubs"
    assert "bock" not in f.fields and "schneider" not in f.fields
    assert {"declarer", "bid", "matadors", "card_points", "hand"} <= set(f.fields)
    assert f.initial["bid"] == "18"


def test_the_declarer_is_chosen_by_name_and_the_sitting_dealer_is_not_offered(skat: CardNight) -> None:
    f = form(skat, None, dealer=3)  # Dieter deals at a 4-seat Skat table and sits out
    labels = [label for _value, label in f.fields["declarer"].choices]
    assert labels == ["Anna", "Bernd", "Clara"]
    assert f.header == {"dealer": "Dieter", "forehand": "Anna", "out": "Dieter", "forehand_line": "Anna is forehand",
                        "forehand_pattern": "%(name)s is forehand"}


def test_the_facts_name_engine_seats_for_the_players_chosen(db: None) -> None:
    night = nights.start_night(game="skat", preset="classic", players=[*FOUR, "Eva"])
    # Eva (position 4) deals: Anna, Bernd, Clara play seats 0–2, Eva is the engine's sitting dealer.
    f = form(night, {"contract": "grand", "declarer": 1, "bid": 48, "matadors": 2, "card_points": 70},
             dealer=4, names=[*FOUR, "Eva"])
    assert f.seats == [0, 1, 2, 4]
    assert f.facts == {"contract": "grand", "declarer": 1, "bid": 48, "matadors": 2, "card_points": 70}
    assert f.verdict is not None and f.verdict.value == 72
    assert [name for name, entry in f.entries if entry is None] == ["Dieter", "Eva"]


def test_ticked_cards_count_the_card_points_when_the_number_is_empty(skat: CardNight) -> None:
    captured = ["CA", "C10", "SA", "S10", "HA", "H10", "DK"]  # 11+10+11+10+11+10+4 = 67
    f = form(skat, {"contract": "clubs", "declarer": 1, "bid": 18, "matadors": 1, "captured": captured})
    assert f.facts is not None and f.facts["card_points"] == 67
    assert f.verdict is not None and f.verdict.won is True
    assert "Opponents: 53" in f.complement


def test_a_typed_number_wins_over_ticked_cards(skat: CardNight) -> None:
    f = form(skat, {"contract": "clubs", "declarer": 1, "bid": 18, "matadors": 1, "card_points": 50,
                    "captured": ["CA"]})
    assert f.facts is not None and f.facts["card_points"] == 50
    assert f.complement == "Opponents: 70"


def test_the_kop_pack_is_sixteen_cards_worth_104() -> None:
    cards = pack("kop")
    assert len(cards) == 16 and sum(points for _card, points in cards) == 104
    assert len(pack("skat")) == 32 and sum(points for _card, points in pack("skat")) == 120


def test_an_engine_refusal_lands_at_its_input_naming_players(skat: CardNight) -> None:
    f = form(skat, {"contract": "clubs", "declarer": 1, "bid": 18, "matadors": 1, "card_points": 119})
    assert not f.is_valid()
    assert f.verdict is None
    assert "card_points" in f.errors
    assert "119" in f.errors["card_points"][0]


def test_while_typing_a_missing_field_is_named_in_the_preview_not_marked_as_wrong(skat: CardNight) -> None:
    f = form(skat, {"contract": "clubs", "declarer": 1, "bid": 18, "card_points": 70}, saving=False)
    matadors = next(row for row in f.main_rows if row.question.key == "matadors")
    assert not matadors.errors and "matadors" not in f.errors
    assert f.still_needed == ["Matadors"] and f.impossible == []
    assert 'aria-invalid' not in str(matadors.fields[0])


def test_a_save_marks_the_missing_field_at_its_input(skat: CardNight) -> None:
    f = form(skat, {"contract": "clubs", "declarer": 1, "bid": 18, "card_points": 70})
    assert not f.is_valid()
    matadors = next(row for row in f.main_rows if row.question.key == "matadors")
    assert matadors.errors
    rendered = str(matadors.fields[0])
    assert 'aria-invalid="true"' in rendered and 'aria-describedby="err-matadors"' in rendered


def test_an_impossible_value_is_said_to_be_impossible_not_incomplete(skat: CardNight) -> None:
    f = form(skat, {"contract": "clubs", "declarer": 1, "bid": 18, "matadors": 1, "card_points": 125})
    assert f.impossible and f.impossible[0][0] == "Declarer's card points (skat included)"
    assert f.still_needed == []


def test_the_skat_bid_is_tapped_the_lowest_bids_first_and_the_rest_folded(skat: CardNight) -> None:
    f = form(skat, {"contract": "clubs"})
    bid = next(row for row in f.main_rows if row.question.key == "bid")
    values = [value for value, _label in bid.fields[0].field.choices]
    # Six in view and "Other": one row on a phone.
    assert bid.question.layout == "radios" and values[:bid.question.common] == ["18", "20", "22", "23", "24", "27"]
    assert len(values) == 63 and values[bid.question.common:][:3] == ["30", "33", "35"]
    null = next(row for row in form(skat, {"contract": "null"}).main_rows if row.question.key == "bid")
    assert [v for v, _ in null.fields[0].field.choices][:null.question.common] == ["18", "20", "22", "23", "35",
                                                                                      "46"]


def test_a_ramsch_asks_one_number_per_player_and_the_sitting_dealer_scores_nothing(skat: CardNight) -> None:
    data = {"contract": "ramsch", "points-0": 30, "points-1": 40, "points-2": 50,
            "tricks-0": 2, "tricks-1": 3, "tricks-2": 5}  # the tricks, folded away, are used when typed
    f = form(skat, data, dealer=3)
    assert "points-3" not in f.fields
    assert f.facts == {"contract": "ramsch", "points": [30, 40, 50, 0], "tricks": [2, 3, 5, 0]}
    assert f.verdict is not None


def ramsch_rows(f: DealForm) -> tuple[list[str], list[str]]:
    return [q.key for q in f.questions if not q.rare], [q.key for q in f.questions if q.rare]


def test_a_ramsch_asks_the_card_points_and_taps_the_tricks_are_folded_away(skat: CardNight) -> None:
    f = form(skat, {"contract": "ramsch"}, dealer=3)
    assert ramsch_rows(f) == (["points", "no_trick", "every_trick"], ["tricks"])
    assert [label for _v, label in f.fields["no_trick"].choices] == ["Anna", "Bernd", "Clara"]  # Dieter sits out
    assert [label for _v, label in f.fields["every_trick"].choices] == ["nobody", "Anna", "Bernd", "Clara"]
    assert f.more_label == "More: tricks"


def test_the_last_player_of_a_ramsch_has_the_rest_of_the_card_points(skat: CardNight) -> None:
    # Dieter deals and sits out: Anna, Bernd and Clara play (engine seats 0, 1, 2).
    f = form(skat, {"contract": "ramsch", "points-0": 30, "points-1": 40}, dealer=3)
    assert f.facts is not None and f.facts["points"] == [30, 40, 50, 0]
    assert sum(f.facts["tricks"]) == 10 and f.facts["tricks"][3] == 0
    assert f.verdict is not None and list(f.verdict.scores) == [0, 0, -50, 0]
    points = next(row for row in f.main_rows if row.question.key == "points")
    assert points.rest == "Clara 50: the rest of 120"
    assert next(row for row in form(skat, {"contract": "ramsch"}, dealer=3).main_rows
                if row.question.key == "points").rest == "Leave one player empty for the rest of 120."


def test_a_ramsch_with_two_players_left_empty_asks_for_the_second(skat: CardNight) -> None:
    f = form(skat, {"contract": "ramsch", "points-0": 30}, dealer=3)
    assert f.facts is None and list(f.errors) == ["points-2"]
    assert f.errors["points-2"] == ["enter the card points of every player but one (that one has the rest of the 120)"]


def test_a_jungfrau_is_a_tap_on_the_player_and_needs_no_number(skat: CardNight) -> None:
    # Anna deals and sits out: Bernd, Clara and Dieter are engine seats 0, 1 and 2.
    f = form(skat, {"contract": "ramsch", "points-1": 30, "no_trick": ["3"]}, dealer=0)
    assert f.facts is not None and f.facts["points"] == [30, 90, 0, 0] and f.facts["tricks"][2] == 0
    assert f.verdict is not None and list(f.verdict.scores) == [0, -180, 0, 0]  # Clara's loss doubles


def test_a_durchmarsch_is_one_tap(db: None) -> None:
    night = nights.start_night(game="skat", preset="isko", players=FOUR[:3], house_rules={"passed": "ramsch"})
    f = form(night, {"contract": "ramsch", "every_trick": "1"}, names=FOUR[:3], dealer=2)
    assert f.facts == {"contract": "ramsch", "points": [0, 120, 0], "tricks": [0, 10, 0]}
    assert f.verdict is not None and list(f.verdict.scores) == [0, 120, 0]


def test_a_jungfrau_with_card_points_is_refused_at_the_tap(skat: CardNight) -> None:
    f = form(skat, {"contract": "ramsch", "points-0": 30, "points-1": 40, "no_trick": ["0"]}, dealer=3)
    assert f.errors["no_trick"] == ["Anna took no trick, so it has no card points, not 30"]


def test_a_schafkopf_ramsch_takes_three_numbers_and_save(db: None) -> None:
    bsv = nights.start_night(game="schafkopf", preset="bsv", players=FOUR)
    f = form(bsv, {"contract": "ramsch", "points-0": 30, "points-1": 50, "points-2": 25})
    assert f.facts is not None and f.facts["points"] == [30, 50, 25, 15] and sum(f.facts["tricks"]) == 8
    assert f.verdict is not None and list(f.verdict.scores) == [10, -30, 10, 10]


def test_a_schafkopf_tie_on_points_asks_the_tied_players_tricks_in_the_fold(db: None) -> None:
    bsv = nights.start_night(game="schafkopf", preset="bsv", players=FOUR)
    tie = {"contract": "ramsch", "points-0": 40, "points-1": 40, "points-2": 25}
    f = form(bsv, tie)
    assert f.facts is None and f.verdict is None
    assert f.errors["tricks-0"] == ["Anna and Bernd tie on 40 card points, and the tricks decide who loses: "
                                    "enter their tricks"]
    assert f.rare_open  # "More: tricks" opens where the message is
    preview = form(bsv, tie, saving=False)
    assert preview.still_needed == ["Tricks per seat"] and not preview.impossible
    f = form(bsv, {**tie, "tricks-0": 3, "tricks-1": 2})
    assert f.verdict is not None and list(f.verdict.scores) == [-30, 10, 10, 10]  # Anna took more: she loses


def test_kop_old_side_by_name_and_doublings_in_order(kop: CardNight) -> None:
    f = form(kop, {"contract": "normal", "old": ["0", "2"], "card_points": 60, "doublings-0": 1,
                   "doublings-1": 0})
    assert f.facts == {"contract": "normal", "old": [0, 2], "card_points": 60, "doublings": [1, 0]}
    assert f.verdict is not None
    assert [label for _v, label in f.fields["old"].choices] == FOUR


def test_kop_doublings_are_a_chain_of_taps_in_view_kept_in_one_field_per_call(kop: CardNight) -> None:
    f = form(kop, {"contract": "normal"})
    row = next(row for row in f.main_rows if row.question.key == "doublings")  # in view, not under "More"
    assert row.question.layout == "chain" and row.chain == [] and row.question.empty == "no doubling"
    assert row.question.names == tuple(f"doublings-{i}" for i in range(6))  # classic: 4 count, and two calls more
    assert row.question.help == "who doubled, in the order said; at most 4 doublings count"
    # The chain as the taps leave it in the form: Bernd, Anna, Bernd (positions 1, 0, 1).
    chained = {"contract": "normal", "old": ["0", "2"], "card_points": 60,
               "doublings-0": 1, "doublings-1": 0, "doublings-2": 1}
    f = form(kop, chained)
    assert f.facts is not None and f.facts["doublings"] == [1, 0, 1]
    assert next(row for row in f.main_rows if row.question.key == "doublings").chain == ["Bernd", "Anna", "Bernd"]
    assert f.verdict is not None and f.verdict.to_json()["counted_doublings"] == 3


def test_a_kop_chain_the_rules_refuse_is_said_at_the_chain(kop: CardNight) -> None:
    f = form(kop, {"contract": "normal", "old": ["0", "2"], "card_points": 60, "doublings-0": 1, "doublings-1": 1})
    assert f.errors["doublings-1"] == ["Bernd doubles twice in a row; the same seat may not call twice running"]
    assert f.errors_at(next(q for q in f.questions if q.key == "doublings"))


def test_schafkopf_defaults_to_a_sauspiel_with_partner_by_name(schafkopf: CardNight) -> None:
    f = form(schafkopf, None)
    assert f.contract == "sauspiel" and "partner" in f.fields
    f = form(schafkopf, {"contract": "sauspiel", "declarer": 0, "partner": 2, "card_points": 70})
    assert f.verdict is not None and list(f.verdict.scores) == [10, -10, 10, -10]
    assert f.explanation[0].startswith("Sauspiel: Anna with partner Clara")


def test_a_stored_deal_fills_the_form_back_by_position(skat: CardNight) -> None:
    facts = {"contract": "grand", "declarer": 1, "bid": 24, "matadors": 1, "card_points": 70}
    assert initial_from(facts, [1, 2, 3, 0], skat, 0) == {"contract": "grand", "declarer": 2, "bid": 24,
                                                          "matadors": 1, "card_points": 70}


def test_a_stored_ramsch_is_shown_as_entered_its_tricks_only_where_they_do_not_follow(skat: CardNight) -> None:
    # Anna dealt and sat out: Bernd, Clara and Dieter were engine seats 0, 1 and 2.
    follows = {"contract": "ramsch", "points": [30, 90, 0, 0], "tricks": [2, 8, 0, 0]}
    assert initial_from(follows, [1, 2, 3, 0], skat, 0) == {
        "contract": "ramsch", "points-1": 30, "points-2": 90, "points-3": 0, "points-0": 0, "no_trick": ["3"]}
    own = {"contract": "ramsch", "points": [30, 90, 0, 0], "tricks": [4, 6, 0, 0]}
    assert initial_from(own, [1, 2, 3, 0], skat, 0) == {
        "contract": "ramsch", "points-1": 30, "points-2": 90, "points-3": 0, "points-0": 0,
        "tricks-1": 4, "tricks-2": 6, "tricks-3": 0, "tricks-0": 0, "no_trick": ["3"]}
    f = DealForm(None, night=skat, names=FOUR, dealer=0, url="/x/", initial=initial_from(own, [1, 2, 3, 0], skat, 0))
    assert f.rare_open  # the tricks of its own are shown


def test_facts_and_changes_in_words() -> None:
    facts = {"contract": "grand", "declarer": 1, "matadors": -2, "card_points": 58, "hand": True}
    words = dict(facts_in_words("skat", facts, [0, 1, 2], ["Anna", "Bernd", "Clara"]))
    assert words["Game"] == "Grand" and words["Declarer"] == "Bernd" and words["Matadors"] == "without 2"
    old = {"facts": facts, "seating": [0, 1, 2], "dealer": 2}
    new = {"facts": {**facts, "card_points": 62}, "seating": [0, 1, 2], "dealer": 0}
    assert changes("skat", old, new, ["Anna", "Bernd", "Clara"]) == [
        "Declarer's card points (skat included) 58 → 62", "dealer Clara → Anna"]


def test_fields_a_contract_cannot_do_without_are_not_hidden_under_more(skat: CardNight, schafkopf: CardNight,
                                                                         db: None) -> None:
    def rare(f: DealForm) -> set[str]:
        return {q.key for q in f.questions if q.rare}

    assert "declarer_tricks" in rare(form(skat, {"contract": "clubs"}))  # optional in a suit game
    assert "declarer_tricks" not in rare(form(skat, {"contract": "null"}))  # a Null game is judged by it
    assert "declarer_tricks" not in rare(form(schafkopf, {"contract": "solo_tout"}))
    wolsztyn = nights.start_night(game="kop", preset="wolsztyn", players=FOUR)  # values a trickless side
    assert "old_tricks" not in rare(form(wolsztyn, {"contract": "normal"}))


def test_a_missing_player_is_asked_for_by_name_not_by_seat_number(skat: CardNight) -> None:
    f = form(skat, {"contract": "grand", "bid": "24", "matadors": "1", "card_points": "70"})
    assert f.errors["declarer"] == ["tap the game in the declarer's row"]  # Skat asks them in one grid
    assert f.still_needed == ["Declarer"]


def test_small_counts_are_tapped_and_optional_ones_can_be_unset(db: None, kop: CardNight) -> None:
    fipsen = nights.start_night(game="fipsen", preset="classic", players=FOUR)
    f = form(fipsen, {"contract": "tricks"})
    assert [v for v, _label in f.fields["tricks_taken"].choices] == ["0", "1", "2", "3", "4", "5"]
    assert [v for v, _label in f.fields["bid"].choices] == ["2", "3", "4", "5"]
    optional = form(kop, {"contract": "normal"}).fields["old_tricks"]  # classic: optional
    assert [v for v, _label in optional.choices][:2] == ["", "0"]
    sauspiel = nights.start_night(game="schafkopf", preset="sauspiel", players=FOUR)
    assert [v for v, _label in form(sauspiel, {"contract": "solo"}).fields["doublings"].choices] == ["0", "1", "2"]


def test_laufende_are_not_asked_where_the_rule_set_pays_nothing_for_them(schafkopf: CardNight, db: None) -> None:
    assert "laufende" not in form(schafkopf, {"contract": "solo"}).fields  # classic: per_laufender 0
    bsv = nights.start_night(game="schafkopf", preset="bsv", players=FOUR)
    assert "laufende" in form(bsv, {"contract": "solo"}).fields


def test_the_trump_row_has_no_empty_button_and_missing_things_are_asked_in_plain_words(schafkopf: CardNight) -> None:
    f = form(schafkopf, {"contract": "solo", "declarer": "1", "card_points": "70"})
    assert "" not in [v for v, _label in f.fields["trump"].choices]
    assert f.errors["trump"] == ["tap one"]


def test_the_more_section_names_what_it_holds_in_each_game(skat: CardNight, kop: CardNight, db: None) -> None:
    assert form(kop, {"contract": "normal"}).more_label == "More: tricks"  # the doublings are a chain in view
    assert form(skat, {"contract": "clubs"}).more_label == "More: tricks, announced, Ouvert, conceded, cards"
    fipsen = nights.start_night(game="fipsen", preset="classic", players=FOUR)
    assert not form(fipsen, {"contract": "kieker"}).rare_rows  # nothing folded away: no "More" at all


def test_a_kop_old_side_with_the_wrong_number_of_players_says_how_many(kop: CardNight) -> None:
    f = form(kop, {"contract": "zolo", "old": ["1", "2"], "card_points": "60", "old_tricks": "2"})
    assert f.errors["old"] == ["tick only the lone player"]
    f = form(kop, {"contract": "normal", "old": ["1"], "card_points": "60"})
    assert f.errors["old"] == ["tick the two players of the old side"]


def test_the_history_says_the_day_only_for_a_change_made_on_another_day() -> None:
    berlin = ZoneInfo("Europe/Berlin")
    revisions = [SimpleNamespace(kind="created", by="Anna", at=datetime(2026, 11, 21, 21, 14, tzinfo=berlin),
                                 reason="", old=None, new=None, after_finish=False),
                 SimpleNamespace(kind="deleted", by="", at=datetime(2026, 11, 22, 9, 5, tzinfo=berlin),
                                 reason="double entry", old=None, new=None, after_finish=False)]
    assert deal_history("skat", 3, revisions, FOUR, date(2026, 11, 21)) == [
        "Deal 3 entered by Anna at 21:14", "Deal 3 deleted at 22 Nov, 09:05 (reason: double entry)"]


def refused_at_second_table(night: CardNight) -> ledger.LedgerError:
    """A refusal of the first deal at a second table, naming engine seat 1: Fritz there (Bernd at table 1)."""
    table = nights.seat_table(night, ["Eva", "Fritz", "Gerd"])
    deal = nights.enter_deal(table, {"contract": "grand", "declarer": 1, "bid": 18, "matadors": 1,
                                     "card_points": 70})
    error = IllegalDeal("deal.declarer", "{seat} cannot declare here", seat=Seat(1))
    return ledger.LedgerError(1, error, table.deals.get(pk=deal.pk))


def test_a_refusal_names_the_deal_its_table_and_the_players_of_its_seats(skat: CardNight) -> None:
    assert refusal(refused_at_second_table(skat)) == (
        "Deal 1 at table 2 would no longer be allowed, so nothing was changed: Fritz cannot declare here")


def test_a_refusal_at_the_only_table_names_no_table(db: None) -> None:
    # Clara deals at four: Dieter, Anna, Bernd sit in engine seats 0, 1, 2 and Clara in 3.
    night = nights.start_night(game="skat", preset="classic", players=FOUR, first_dealer=2)
    deal = nights.enter_deal(night.tables.get(), {"contract": "grand", "declarer": 1, "bid": 18, "matadors": 1,
                                                  "card_points": 70})
    assert deal.seating == [3, 0, 1, 2]
    err = ledger.LedgerError(4, IllegalDeal("deal.declarer", "{seat} cannot declare here", seat=Seat(1)), deal)
    assert refusal(err) == "Deal 4 would no longer be allowed, so nothing was changed: Anna cannot declare here"
    assert refusal(ledger.LedgerError(2, IllegalDeal("deal.card_points", "cannot be {n}", n=1))).endswith(
        ": cannot be 1")


def test_matadors_are_tapped_the_common_runs_in_view_the_rest_folded(skat: CardNight) -> None:
    f = form(skat, {"contract": "clubs", "matadors": "2"})
    choices = [label for _value, label in f.fields["matadors"].choices]
    assert choices[:8] == ["with 1", "with 2", "with 3", "with 4", "without 1", "without 2", "without 3", "without 4"]
    assert "with 11" in choices and choices[-1] == "none: count them from the cards"
    row = next(row for row in f.main_rows if row.question.key == "matadors")
    assert row.question.common == 8 and not row.folded_choice
    six = next(row for row in form(skat, {"contract": "clubs", "matadors": "-6"}).main_rows
               if row.question.key == "matadors")
    assert six.folded_choice == "without 6"  # the fold's "Other" names the choice made in it


def test_a_number_out_of_range_gets_one_message_not_also_a_prompt(skat: CardNight) -> None:
    f = form(skat, {"contract": "clubs", "declarer": "1", "bid": "18", "matadors": "1", "card_points": "125"})
    assert f.errors["card_points"] == ["a whole number from 0 to 120"]


def test_a_kieker_asks_whether_it_was_surrendered_up_front(db: None) -> None:
    fipsen = nights.start_night(game="fipsen", preset="classic", players=FOUR)
    f = form(fipsen, {"contract": "kieker"})
    assert "surrendered" in [row.question.key for row in f.main_rows]


def test_kop_tricks_the_card_points_settle_need_no_tap(db: None) -> None:
    wolsztyn = nights.start_night(game="kop", preset="wolsztyn", players=FOUR)  # the tricks are required
    settled = form(wolsztyn, {"contract": "normal", "old": ["1", "3"], "card_points": "45"})
    assert settled.facts is not None and settled.facts["old_tricks"] == 2 and settled.verdict is not None
    open_question = form(wolsztyn, {"contract": "normal", "old": ["1", "3"], "card_points": "60"})  # 2 or 3
    assert open_question.verdict is None and "old_tricks" in open_question.errors
    tapped = form(wolsztyn, {"contract": "normal", "old": ["1", "3"], "card_points": "60", "old_tricks": "3"})
    assert tapped.facts is not None and tapped.facts["old_tricks"] == 3


# --- who declared what, one tap (issue 14): a grid of players and games where at most three play ----------

def test_where_three_play_the_declarer_and_game_are_one_grid_of_the_players_who_play(skat: CardNight) -> None:
    f = form(skat, None, dealer=3)  # Dieter deals at four and sits out: three rows, Anna, Bernd, Clara
    grid = f.grid
    assert grid is not None
    assert [row.name for row in grid.rows] == ["Anna", "Bernd", "Clara"]
    assert [cell.value for cell in grid.rows[1].cells] == [
        "clubs@1", "spades@1", "hearts@1", "diamonds@1", "grand@1", "null@1"]
    assert [cell.shown for cell in grid.rows[1].cells] == ["♣", "♠", "♥", "♦", "Grand", "Null"]
    assert grid.rows[1].cells[2].label == "Bernd: Hearts (Herz)"  # what a screen reader says
    assert [cell.value for cell in grid.others] == ["ramsch"]  # no declarer: a tap of its own
    assert not any(cell.checked for row in grid.rows for cell in row.cells)  # nothing chosen before a tap
    assert "declarer" not in [row.question.key for group in f.main_groups for row in group]


def test_a_grid_tap_is_read_as_the_game_and_its_declarer(skat: CardNight) -> None:
    f = form(skat, {"contract": "hearts@2", "bid": 18, "matadors": 1, "card_points": 75})
    assert f.contract == "hearts"
    assert f.facts == {"contract": "hearts", "declarer": 1, "bid": 18, "matadors": 1, "card_points": 75}
    assert f.grid is not None and [c.value for row in f.grid.rows for c in row.cells if c.checked] == ["hearts@2"]
    # The same deal posted as before the grid (a page of before, a deal queued offline): the same facts.
    apart = form(skat, {"contract": "hearts", "declarer": 2, "bid": 18, "matadors": 1, "card_points": 75})
    assert apart.facts == f.facts


def test_a_grid_tap_naming_the_player_who_sits_out_is_refused_at_the_declarer(skat: CardNight) -> None:
    f = form(skat, {"contract": "grand@0", "bid": 18, "matadors": 1, "card_points": 70})  # Anna deals, sits out
    assert f.verdict is None and "declarer" in f.errors
    assert f.grid is not None and f.grid.invalid and f.grid.declarer is not None and f.grid.declarer.errors


def test_nothing_tapped_asks_for_the_game_in_the_declarers_row(skat: CardNight) -> None:
    f = form(skat, {"matadors": 1, "card_points": 70})
    assert f.errors["declarer"] == ["tap the game in the declarer's row"]
    preview = form(skat, {"matadors": 1}, saving=False)  # while typing: a prompt in the preview, no error
    assert "declarer" not in preview.errors and "Declarer" in preview.still_needed


def test_a_ramsch_is_tapped_beside_the_grid_and_asks_no_declarer(skat: CardNight) -> None:
    f = form(skat, {"contract": "ramsch", "points-1": 30, "points-2": 52}, dealer=0)
    assert f.contract == "ramsch" and f.grid is not None and f.grid.declarer is None
    assert [cell.value for cell in f.grid.others if cell.checked] == ["ramsch"]
    assert f.verdict is not None


def test_a_correction_shows_the_stored_deals_tap_in_the_grid(skat: CardNight) -> None:
    table = skat.tables.get()
    deal = nights.enter_deal(table, {"contract": "null", "declarer": 1, "bid": 23, "declarer_tricks": 0}, by="Anna")
    initial = initial_from(deal.facts, deal.seating, skat, deal.dealer)
    f = DealForm(None, night=skat, names=FOUR, dealer=deal.dealer, url="/x/", initial=initial, correcting=True)
    assert f.grid is not None
    assert [c.value for row in f.grid.rows for c in row.cells if c.checked] == [f"null@{deal.seating[1]}"]


def test_where_four_play_the_game_and_the_declarer_stay_two_questions(schafkopf: CardNight) -> None:
    f = form(schafkopf, None)
    assert f.grid is None
    assert "declarer" in [row.question.key for group in f.main_groups for row in group]
