"""The card play as form inputs: the tricks, the skat and the hands (`PlayForm`), read into the contract's
``play`` object and written back; and the rows the dispute page lays its questions out in (`Item`, `Row`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from scorekeep.nights.deal_inputs import SPLIT
from scorekeep.nights.entry import short_card
from scorekeep.rules import IllegalDeal
from scorekeep.rules import play as played
from scorekeep.words.labels import Label, in_game


@dataclass(frozen=True, slots=True)
class Item:
    """One labelled question on the page: one input, or a group (one number per seat, …)."""

    slot: str
    label: Label
    help: Label
    layout: str  # field, check, nullable, seats, choices, hidden, group (a fieldset of other items)
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ReplayRow:
    """One trick of a played deal as the dispute page replays it."""

    number: int
    cards: list[tuple[str, str]]  # (card, who played it)
    winner: str
    points: int
    declaring: int | None  # card points the declaring side has taken so far
    defending: int | None
    broken: str  # the rule the marked card breaks
    broken_card: str
    after_end: bool = False  # played after the rules ended the deal: shown, but no part of it
    game: str = ""  # whose table's words write the cards in short (`shown_cards`)

    @property
    def shown_cards(self) -> list[tuple[str, str, str]]:
        """(card, who played it, the card in short as the game's table writes it: "♣A"), for a trick a row."""
        return [(card, seat, short_card(self.game, card)) for card, seat in self.cards]

    @property
    def broken_short(self) -> str:
        return short_card(self.game, self.broken_card) if self.broken_card else ""

    @property
    def running(self) -> str:
        """Each side's card points so far, in the words of the game the page speaks of (Kop's old and young
        side; game_words.py)."""
        return in_game(RUNNING) % {"declaring": self.declaring, "defending": self.defending}


RUNNING = gettext_noop("so far: declaring side %(declaring)s, defending side %(defending)s")


@dataclass(frozen=True, slots=True)
class Message:
    """One message at an input. `needed`: the engine asks for an input that is still empty — a
    prompt for the next thing to fill in, shown quietly, not a mistake."""

    text: str
    needed: bool = False

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Slot:
    """Where messages show: beside an input or group (`slot` is its name), or "top"."""

    slot: str
    errors: list[Message]


@dataclass(frozen=True, slots=True)
class Row:
    """An `Item` bound to the submitted values, with its error messages, for the template."""

    slot: str
    label: Label
    help: Label
    layout: str
    fields: list[forms.BoundField]
    errors: list[Message]


def play_inputs(game: str, players: int) -> list[tuple[Item, dict[str, forms.Field]]]:
    """The inputs of the cards as played (docs/PLAY.md), the same on the dispute page and on a card night's
    deal page: the tricks typed as codes, one trick a line (the card picker, static/js/play.js, types them on
    a phone; without JavaScript the text is the input), and the other keys of ``deal.play`` the game takes."""
    keys = played.PLAY_FIELDS[game]
    cards = {"rows": 5, "spellcheck": "false", "autocapitalize": "characters", "autocomplete": "off",
             "class": "cards", "data-trick-size": played.trick_size(game, players)}
    out: list[tuple[Item, dict[str, forms.Field]]] = [(Item("play-tricks", _("The tricks as played"), _(
        "One trick a line, each card in the order it fell, e.g. “CJ SJ HA” (suit C S H D, rank A 10 K Q J 9 "
        "8 7). The game's rules say who leads the first trick; the winner leads the next. The card points, "
        "tricks and matadors or Laufende then come from the cards."), "field", ("play-tricks",)), {
        "play-tricks": forms.CharField(required=False, label=_("The tricks as played"),
                                       widget=forms.Textarea(attrs=cards)),
    })]
    if "skat" in keys:
        out.append((Item("play-skat", _("The skat"), _(
            "The two cards put away, e.g. “D7 S8”; may be left out when every trick is there."), "field",
            ("play-skat",)), {
            "play-skat": forms.CharField(required=False, label=_("The skat"),
                                         widget=forms.TextInput(attrs={"class": "cards", "autocomplete": "off"})),
        }))
    if "trump" in keys:
        suits = [("", "—"), *((suit, gettext(name)) for suit, name, _cards in played.pack_layout(game))]
        out.append((Item("play-trump", _("Trump suit"), "", "field", ("play-trump",)), {
            "play-trump": forms.ChoiceField(choices=suits, required=False, label=_("Trump suit")),
        }))
    out.append((Item("play-hands", _("Cards not played"), _(
        "Only where play stopped early (conceded, claimed): one seat a line, its number, a colon and its "
        "cards, e.g. “2: H7 H8”."), "field", ("play-hands",)), {
        "play-hands": forms.CharField(required=False, label=_("Cards not played"),
                                      widget=forms.Textarea(attrs={**cards, "rows": 3})),
    }))
    return out


def play_from(cleaned: Mapping[str, Any], players: int) -> dict[str, Any] | None:
    """``deal.play`` from the typed cards (`play_inputs`), or None when no card was typed. Seats are typed
    as the pages number them (1 …) and sent as the contract numbers them (0 …). Raises ValidationError
    (for "play-hands") for a line of the cards not played that names no seat."""
    lines = (cleaned.get("play-tricks") or "").upper().splitlines()
    tricks = [trick for line in lines if (trick := [c for c in SPLIT.split(line.strip()) if c])]
    hands_text = (cleaned.get("play-hands") or "").upper()
    if not tricks and not hands_text.strip():
        return None
    play: dict[str, Any] = {"tricks": tricks}
    skat = [c for c in SPLIT.split((cleaned.get("play-skat") or "").upper().strip()) if c]
    if skat:
        play["skat"] = skat
    if cleaned.get("play-trump"):
        play["trump"] = cleaned["play-trump"]
    hands: dict[str, list[str]] = {}
    for line in hands_text.splitlines():
        if not line.strip():
            continue
        seat, colon, cards = line.partition(":")
        if not colon or not seat.strip().isdecimal() or not 1 <= int(seat) <= players:
            raise ValidationError(gettext("write one seat a line: its number (1 to %(n)s), a colon and its cards, "
                                          "e.g. “2: H7 H8”") % {"n": players})
        hands[str(int(seat) - 1)] = [c for c in SPLIT.split(cards.strip()) if c]
    if hands:
        play["hands"] = hands
    return play


def play_text(play: Mapping[str, Any] | None) -> dict[str, str]:
    """A stored ``deal.play`` as the inputs of `play_inputs` show it (the reverse of `play_from`)."""
    if not play:
        return {}
    out = {"play-tricks": "\n".join(" ".join(map(str, trick)) for trick in play.get("tricks") or [])}
    if play.get("skat"):
        out["play-skat"] = " ".join(map(str, play["skat"]))
    if play.get("trump"):
        out["play-trump"] = str(play["trump"])
    if play.get("hands"):
        out["play-hands"] = "\n".join(f"{int(seat) + 1}: {' '.join(map(str, cards))}"
                                      for seat, cards in play["hands"].items())
    return out


def pack_of(game: str) -> list[tuple[str, str, list[tuple[str, str, str]]]]:
    """The card picker's pack: per suit its name as the game's table says it, and its cards: each its code, its
    rank in words (the button's name for a screen reader) and the card in short (the button's face, "♣A")."""
    return [(suit, gettext(name), [(card, gettext(rank) if rank[0].isalpha() else rank, short_card(game, card))
                                   for card, rank in cards])
            for suit, name, cards in played.pack_layout(game)]


def at_trick(field: str, message: str) -> str:
    """An engine message about the tricks as played, saying which trick (and card) it is: the field
    ``deal.play.tricks.2.1`` is the third trick's second card."""
    place = field.split(".")
    if place[:3] != ["deal", "play", "tricks"] or len(place) <= 3 or not place[3].isdecimal():
        return message
    where = {"trick": int(place[3]) + 1, "card": int(place[4]) + 1 if len(place) > 4 and place[4].isdecimal() else 0}
    return (gettext("Trick %(trick)s, card %(card)s: %(message)s") if where["card"]
            else gettext("Trick %(trick)s: %(message)s")) % {**where, "message": message}


PLAY_INPUT = {"tricks": "play-tricks", "skat": "play-skat", "trump": "play-trump", "hands": "play-hands"}


class PlayForm(forms.Form):
    """The cards as played of a card night's deal, attached for the record (its page's "Attach the played
    cards"): the dispute page's inputs of the cards (`play_inputs`), who attaches them and why. `play` is
    ``deal.play`` as typed (None: no card typed, i.e. remove them)."""

    # Ids of their own: the deal's page has the correction's "Your name" and "Why" too.
    by = forms.CharField(label=_("Your name"), max_length=40, required=False,
                         widget=forms.TextInput(attrs={"id": "id_play-by", "autocomplete": "name"}))
    reason = forms.CharField(label=_("Why (optional)"), max_length=200, required=False,
                             widget=forms.TextInput(attrs={"id": "id_play-reason"}))

    def __init__(self, data: Any = None, *, game: str, players: int, play: Mapping[str, Any] | None = None,
                 scorer: str = "") -> None:
        super().__init__(data, initial={**play_text(play), "by": scorer})
        self.players = players
        self.items = []
        self.play: dict[str, Any] | None = None
        for item, fields in play_inputs(game, players):
            self.fields.update(fields)
            self.items.append(item)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or self.cleaned_data  # None: Django keeps cleaned_data
        try:
            self.play = play_from(cleaned, self.players)
        except ValidationError as err:
            self.add_error("play-hands", err)
        return cleaned

    def engine_error(self, err: IllegalDeal, message: str) -> None:
        """The engine's refusal (`message`: its sentence in the page's words) at the input of the cards its
        field names; a fact of the deal the cards contradict at the top, with the fact's name."""
        place = err.field.split(".")
        name = PLAY_INPUT.get(place[2]) if place[:2] == ["deal", "play"] and len(place) > 2 else None
        if name in self.fields:
            self.add_error(name, at_trick(err.field, message))
        else:
            self.add_error(None, message)

    @property
    def rows(self) -> list[Row]:
        return [Row(item.slot, item.label, item.help, item.layout, [self[name] for name in item.names],
                    [Message(str(text)) for name in item.names for text in self.errors.get(name, [])])
                for item in self.items]
