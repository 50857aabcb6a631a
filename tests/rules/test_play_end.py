"""Where the rules end a played deal, and what the cards given can prove (issue 28, items 8 and 9).

- The deal ends where the rules end it (fipsen.ja.txt, プレイ: the bid made, or no longer makeable; Durch and
  Kieker at the first trick given away; a Skat Null at the declarer's first trick, a Schafkopf Tout at the
  first trick given away, a Bettel at the first taken). Playing on after the bid was made is Durch only when
  the declarer has won every trick from the opening lead; otherwise what is played after the end is no part of
  the deal: it never changes the verdict, though it still shows what each player held.
- "Every card follows the rules of play" is said only where every card each player held is known. Without the
  hands, a revoke is found where the cards given prove it: the player shows the suit later, or the cards nobody
  played leave every hand a card of it.

Deals come from shuffled packs played by the rule-following player of tests/played_deals.py.
"""

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeep.rules import adjudicate
from tests.played_deals import SETUPS, Outcome, Setup, play_out, request_of

SEEDS = st.integers(0, 2**32 - 1)
LEGAL = "Every card follows the rules of play"
UNSEEN = "No rule break in the cards given; without the hands a card not followed cannot be seen"


def test_fipsen_playing_on_after_a_trick_given_away_is_not_durch() -> None:
    """The issue's deal: trick 1 lost, the bid of 2 made at trick 3, one more trick played. The deal ended
    with trick 3 and the bid made: +2, not a lost Durch (−8)."""
    request = {"game": "fipsen", "dealer": 3, "deal": {
        "contract": "tricks", "declarer": 0, "bid": 2,
        "play": {"tricks": [["C8", "C9", "HQ", "CK"], ["SK", "S8", "SA", "S9"], ["SQ", "SJ", "S10", "CQ"],
                            ["H8", "H7", "H10", "HK"]], "trump": "H"}}}
    verdict = adjudicate(request)

    assert (verdict["won"], verdict["value"], verdict["scores"]) == (True, 2, [2, 0, 0, 0]), verdict
    assert verdict["play"]["derived"] == {"tricks_taken": 2}
    assert verdict["play"]["counted"] == 3
    assert ("The deal ended with trick 3 (the bid was made): the cards played after it do not count"
            in verdict["explanation"])
    # Entered as the table counts it (2 tricks, no Durch), the cards agree.
    request["deal"]["tricks_taken"] = 2
    assert adjudicate(request)["play"]["disagreements"] == []


def test_fipsen_playing_on_after_every_trick_from_the_lead_is_durch() -> None:
    """Won tricks 1 and 2 (the bid of 2 made), played on, won 3 and 4, gave 5 away: Durch, lost."""
    request = {"game": "fipsen", "dealer": 3, "deal": {
        "contract": "tricks", "declarer": 0, "bid": 2,
        "play": {"tricks": [["HA", "H7", "SK", "S9"], ["HK", "H8", "SQ", "S8"], ["HQ", "H9", "SJ", "S7"],
                            ["CA", "CK", "CQ", "CJ"], ["C7", "C8", "S10", "D7"]], "trump": "H"}}}
    verdict = adjudicate(request)

    assert verdict["play"]["derived"] == {"tricks_taken": 4, "durch": True}
    assert (verdict["won"], verdict["value"], verdict["scores"]) == (False, 4, [-8, 0, 0, 0])
    assert verdict["play"]["counted"] == 5


def _oracle_fipsen(setup: Setup, flags: list[int]) -> tuple[bool, int, int]:
    """Fipsen's result from the declaring side's trick flags, written from the seed page (fipsen.ja.txt):
    (won, value, the number of tricks the deal lasted). The deal ends when the bid is made; playing on is
    allowed, and is Durch, only after every trick from the opening lead was won; Durch, a bid of 5 and a
    Kieker need all five tricks."""
    deal = setup.request["deal"]
    ruten = 1 if deal.get("ruten") else 0
    if deal["contract"] == "kieker":
        lost_at = flags.index(0) + 1 if 0 in flags else len(flags)
        return 0 not in flags, 10 * 2 ** ruten, lost_at
    bid = deal["bid"]
    if bid == 5:
        return 0 not in flags, 5 * 2 ** (ruten + 1), flags.index(0) + 1 if 0 in flags else len(flags)
    for k in range(1, len(flags) + 1):
        if sum(flags[:k]) == bid:
            if all(flags[:k]) and k < len(flags):  # played on with every trick won: Durch
                return 0 not in flags, bid * 2 ** (ruten + 1), flags.index(0) + 1 if 0 in flags else len(flags)
            return True, bid * 2 ** ruten, k
        if bid - sum(flags[:k]) > 5 - k:
            return False, bid * 2 ** ruten, k
    return False, bid * 2 ** ruten, len(flags)


def _played_on(game: str, seed: int, break_after_end: bool) -> tuple[Setup, Outcome, dict[str, Any], int] | None:
    """A deal of a contract the rules cut short, played out to the last trick by the rule-following player;
    with `break_after_end`, one card against the rules after where the rules' own stop falls."""
    rnd = random.Random(seed)
    setup = SETUPS[game](rnd)
    if setup.stop is None:
        return None
    stopped = play_out(setup, random.Random(seed))
    end = len(stopped.tricks)
    if end == setup.n_tricks:
        return None
    players = len(setup.playing)
    break_at = rnd.randrange(end * players, setup.n_tricks * players) if break_after_end else None
    outcome = play_out(dataclasses.replace(setup, stop=None), random.Random(seed), break_at)
    return setup, outcome, request_of(setup, outcome), end


@pytest.mark.parametrize("game", ["skat", "schafkopf", "fipsen"])
@settings(max_examples=120, deadline=None)
@given(seed=SEEDS, break_after_end=st.booleans())
def test_cards_played_after_the_deal_ended_never_change_the_verdict(game: str, seed: int,
                                                                     break_after_end: bool) -> None:
    made = _played_on(game, seed, break_after_end)
    if made is None:
        return
    setup, outcome, request, stop = made
    verdict = adjudicate(request)
    assert verdict["ok"] is True, (verdict, request)
    flags = [1 if w in setup.side else 0 for w in outcome.winners]
    if game == "fipsen":
        won, value, end = _oracle_fipsen(setup, flags)
    else:
        end = stop  # Null, Tout and Bettel end at the first trick the rules decide; nothing to play on for
    if outcome.broken is not None and outcome.broken[0] < end:
        return  # the harness's broken card fell before a Durch played on ended: a break of the deal itself
    assert verdict["play"]["counted"] == end
    assert verdict["play"]["break"] is None, verdict["play"]["break"]
    if end < setup.n_tricks:
        assert any(line.startswith(f"The deal ended with trick {end} (") for line in verdict["explanation"])
    if game == "fipsen":
        assert (verdict["won"], verdict["value"]) == (won, value), (flags, request)
        return
    # The same deal given only up to where the rules ended it, with the cards each player still held (what
    # the whole deal shows too, and a Tout's Laufende need), scores the same.
    later: dict[str, list[str]] = {}
    for trick in verdict["play"]["tricks"][end:]:
        for seat, card in zip(trick["seats"], trick["cards"], strict=True):
            later.setdefault(str(seat), []).append(card)
    cut = {**request, "deal": {**request["deal"], "play": {**request["deal"]["play"], "hands": later,
                                                          "tricks": request["deal"]["play"]["tricks"][:end]}}}
    alone = adjudicate(cut)
    assert alone["ok"] is True, alone
    assert (verdict["won"], verdict["value"], verdict["scores"]) == (alone["won"], alone["value"], alone["scores"])
    assert verdict["play"]["derived"] == alone["play"]["derived"]


def test_a_skat_null_revoke_after_the_declarers_first_trick_does_not_win_him_the_game() -> None:
    """The declarer takes trick 1 (the Null is lost); the players play on and an opponent revokes in trick 2
    (he shows a club in trick 3). The revoke is after the deal ended: the Null stays lost."""
    request = {"game": "skat", "dealer": 2, "deal": {"contract": "null", "declarer": 0, "bid": 23, "play": {
        "tricks": [["HA", "H7", "H8"], ["CA", "D7", "C7"], ["SA", "S7", "C8"]], "skat": ["DA", "DK"],
        "hands": {"0": ["SK", "SQ", "SJ", "S10", "S9", "S8", "HK"], "1": ["C9", "C10", "CJ", "CQ", "CK", "D8", "D9"],
                  "2": ["H9", "H10", "HJ", "HQ", "DQ", "DJ", "D10"]}}}}
    # The cards above: seat 1 held C9 … CK when it threw D7 on CA led.
    verdict = adjudicate(request)
    assert verdict["ok"] is True, verdict
    assert verdict["play"]["break"] is None
    assert (verdict["won"], verdict["scores"]) == (False, [-46, 0, 0])
    assert verdict["play"]["derived"] == {"declarer_tricks": 1}


# --- what the cards given prove -------------------------------------------------------------------------------

def _could_hide(setup: Setup, request: dict[str, Any], seat: int, led_class: str) -> bool:
    """Whether `seat`'s cards not shown could be free of `led_class`: there are as many cards nobody played
    (the skat given aside) of other classes as the seat has cards left."""
    tricks = request["deal"]["play"]["tricks"]
    pack = {"skat": "FULL", "schafkopf": "FULL", "fipsen": "FIPSEN"}[setup.game]
    from scorekeep.rules import play as engine_play
    cards = engine_play.FULL_PACK if pack == "FULL" else engine_play.FIPSEN_PACK
    shown = {c for trick in tricks for c in trick} | set(request["deal"]["play"].get("skat", ()))
    left = setup.n_tricks - len(tricks)
    return sum(1 for c in cards - shown if setup.rules.cls[c] != led_class) >= left


@pytest.mark.parametrize("game", ["skat", "schafkopf", "fipsen"])
@settings(max_examples=200, deadline=None)
@given(seed=SEEDS, at=st.integers(0, 40))
def test_without_the_hands_every_revoke_the_cards_prove_is_found_and_none_other_claimed(
        game: str, seed: int, at: int) -> None:
    rnd = random.Random(seed)
    setup = SETUPS[game](rnd)
    if setup.stop is None:
        return
    outcome = play_out(setup, rnd, break_at=at)
    request = request_of(setup, outcome)
    request["deal"]["play"].pop("hands", None)
    verdict = adjudicate(request)
    if not verdict["ok"]:  # the harness stops a Fipsen Durch/bid at its own rule; an unfinished Durch needs hands
        assert verdict["errors"][0]["field"] == "deal.play.hands", verdict
        return
    complete = len(outcome.tricks) == setup.n_tricks
    broken = verdict["play"]["break"]
    assert verdict["play"]["hands_known"] is complete
    if outcome.broken is None:
        assert broken is None
    else:
        trick, position, seat, card = outcome.broken
        led = setup.rules.cls[outcome.tricks[trick][0]]
        later = [c for t in outcome.tricks[trick + 1:] for c in t
                 if setup.rules.cls[c] == led and c in setup.hands[seat]]
        proven = complete or bool(later) or not _could_hide(setup, request, seat, led)
        if proven:
            assert broken is not None, (outcome.broken, request)
            assert (broken["trick"], broken["seat"], broken["card"]) == (trick, seat, card)
        else:
            assert broken is None, (broken, request)
    if broken is None:
        assert (LEGAL in verdict["explanation"]) is complete
        assert (UNSEEN in verdict["explanation"]) is not complete


def test_a_revoke_the_cards_nobody_played_prove_is_found() -> None:
    """A Skat Null the declarer (seat 2) loses at trick 8. Seat 1 threw S7 on CA led in trick 1 and never
    played a club; but the six cards nobody played (the skat is given) are five clubs and D7, and each seat
    holds two of them: every seat holds a club, seat 1 too. The opponents broke the rule: the declarer wins."""
    request = {"game": "skat", "dealer": 2, "deal": {"contract": "null", "declarer": 2, "bid": 23, "play": {
        "tricks": [["CA", "S7", "CQ"], ["SA", "SJ", "S9"], ["HA", "HJ", "H8"], ["HK", "H10", "H9"],
                   ["HQ", "H7", "D8"], ["DA", "DJ", "D9"], ["DK", "D10", "DQ"], ["S8", "S10", "SQ"]],
        "skat": ["SK", "CK"]}}}
    verdict = adjudicate(request)

    assert verdict["ok"] is True, verdict
    assert verdict["play"]["break"] == {"trick": 0, "seat": 1, "card": "S7", "led": "CA",
                                        "rule": "must follow the suit led", "field": "deal.play.tricks.0.1",
                                        "side": "defending"}
    assert (verdict["won"], verdict["scores"]) == (True, [0, 0, 23])
    # Without the skat it is not proven: the skat could hold two clubs and seat 1 SK and D7.
    del request["deal"]["play"]["skat"]
    unproven = adjudicate(request)
    assert unproven["play"]["break"] is None
    assert UNSEEN in unproven["explanation"] and LEGAL not in unproven["explanation"]
    assert (unproven["won"], unproven["scores"]) == (False, [0, 0, -46])


def test_a_fipsen_revoke_shown_after_the_deal_ended_is_found() -> None:
    """Seat 1 threw CK on H8 led in trick 1; the declarer makes the bid of 2 at trick 3 (trick 1 lost, so the
    deal ends there); seat 1 shows H7 in trick 4, played after the end: that card still proves the revoke."""
    request = {"game": "fipsen", "dealer": 3, "deal": {
        "contract": "tricks", "declarer": 0, "bid": 2,
        "play": {"tricks": [["H8", "CK", "HA", "HJ"], ["SK", "S8", "SA", "S7"], ["SQ", "S10", "SJ", "CQ"],
                            ["HK", "H7", "HQ", "C9"]], "trump": "H"}}}
    verdict = adjudicate(request)

    assert verdict["ok"] is True, verdict
    assert verdict["play"]["counted"] == 3
    broken = verdict["play"]["break"]
    assert (broken["trick"], broken["seat"], broken["card"]) == (0, 1, "CK")
    assert verdict["won"] is True  # scored first as the offending (defending) side losing
    assert verdict["play"]["as_played"]["scores"] == [2, 0, 0, 0]  # the bid made, as the cards fell
