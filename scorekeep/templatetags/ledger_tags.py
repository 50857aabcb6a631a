"""The table pages' template filters and tags: signed numbers, money, placings, matadors (scorekeep.words.numbers),
a game's words, and the ledger laid out as its score sheet (scorekeep.nights.sheet)."""

from __future__ import annotations

from django import template

from scorekeep.models import CardNight
from scorekeep.nights.ledger import Ledger
from scorekeep.nights.record import Gap, Record
from scorekeep.nights.sheet import Sheet, sheet
from scorekeep.words.labels import page_words
from scorekeep.words.numbers import (
    amount,
    average,
    decimal,
    matadors,
    money,
    placing,
    signed,
    signed_amount,
    signed_money,
)

register = template.Library()

for _filter in (signed, average, decimal, money, signed_money, amount, signed_amount, placing, matadors):
    register.filter(_filter.__name__, _filter)


@register.filter
def game_word(text: str) -> str:
    """A word of the engine's in the page's language, in the words of the game the page speaks of
    (`labels.speaking_of`): "Value" is ゲームバリュー on a Skat page, 金額 on a Schafkopf one."""
    return page_words(text)


@register.simple_tag
def score_sheet(ledger: Ledger, night: CardNight, record: Record | None = None,
                gaps: list[Gap] | None = None) -> Sheet:
    """``{% score_sheet ledger night record gaps as sheet %}``: the ledger laid out for `_ledger.html`, the
    table's record (its changes marked, the deleted deals as gaps) where the page has it."""
    # A variable the page does not have is "" in a template.
    return sheet(ledger, night, record if isinstance(record, Record) else None,
                 gaps if isinstance(gaps, list) else None)
