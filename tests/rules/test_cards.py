"""Cards as the engine reads them: typed (`Card`), and written back exactly as the contract writes them."""

import json

import pytest

from scorekeep.rules import IllegalDeal
from scorekeep.rules.cards import Card, parse_cards, points


def test_a_parsed_card_knows_its_suit_rank_and_points_and_stays_its_text() -> None:
    cards = parse_cards(["CJ", "H10", "SA"], "deal.cards", 3)
    assert all(type(card) is Card for card in cards)
    assert [(card.suit, card.rank, card.points) for card in cards] == [("C", "J", 2), ("H", "10", 10), ("S", "A", 11)]
    assert points(cards) == 23
    assert json.dumps(cards) == '["CJ", "H10", "SA"]' and cards[1] == "H10"


def test_a_card_twice_or_not_in_the_pack_is_refused_naming_it() -> None:
    with pytest.raises(IllegalDeal) as twice:
        parse_cards(["CJ", "CJ"], "deal.cards", 2)
    assert twice.value.field == "deal.cards.1"
    with pytest.raises(IllegalDeal) as unknown:
        parse_cards(["CJ", "C6"], "deal.cards", 2)
    assert unknown.value.field == "deal.cards.1"
