"""The dispute form: the seam between the /adjudicate/ page and the rules engine.

`DisputeForm` builds its inputs from the engine itself — the game's presets, its options'
validators (`kind`), the contracts a rule set allows and the deal fields a contract uses — turns
what was entered into a request of the adjudication contract (``shared/spec/ADJUDICATION.md``)
holding only the fields that carry a value, calls `scorekeep.rules.judge` in `clean()`, and puts
the engine's `IllegalDeal` at the input it names. The view binds it and renders; nothing else.

Input names mirror the contract's dotted paths so errors map back plainly: ``deal.card_points``
is the input ``card_points``, ``deal.points.2`` the input ``points-2``, ``rules.kontra`` the input
``rule-kontra``, ``compare.1.seat`` the input ``compare-1-seat``.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from .deal_inputs import PLAIN, SPLIT, DealInputs, People, carries
from .labels import (
    CHOICE_LABELS,
    CONTRACT_LABELS,
    GAME_LABELS,
    NONE_LABELS,
    OPTION_LABELS,
    PRESET_LABELS,
    Label,
    in_game,
    page_words,
)
from .labels import translated as word_label
from .money import format_money, in_units, money_input_error, parse_units, symbol
from .rules import DEFAULT_GAME, GAMES, Comparison, IllegalDeal, Table, Verdict, inputs, judge, settles_bidding
from .rules import play as played
from .rules.explain import signed
from .rules.fields import option_shape

BID_LABELS: tuple[Label, ...] = (_("First bid"), _("Second bid"))
COMPARE_ADD_ONS: tuple[tuple[str, Label], ...] = (("hand", _("Hand")), ("ruten", _("Ruten")), ("durch", _("Durch")))

# htmx: an input that changes which inputs there are re-renders the region they are in — the game,
# rule set and table size everything (#dispute); the dealer, a house rule or the contract the deal
# (#deal), so the open "House rules" section stays as it is. While such a request is under way the
# inputs it will replace are disabled (after htmx has read their values), so nothing chosen in that
# moment is lost to the swap. Typing in a number or text input re-renders only the verdict, so the
# input keeps its focus and text.
REGIONS = {"page": ("#dispute", "#dispute fieldset"), "deal": ("#deal", "#deal fieldset")}
LIVE_DELAY = "input changed delay:500ms"

# How the page lays out each kind of deal input (the template's row layouts).
DEAL_LAYOUTS = {"check": "check", "per_seat": "seats", "checks": "choices"}
BARE_WORD = re.compile(r"(?=[0-9]*[A-Za-z_])[A-Za-z0-9_]+")


def seat_label(seat: int) -> str:
    """How the page names a seat, in its inputs and in the engine's sentences alike: the contract
    numbers seats from 0; people count from 1."""
    return gettext("Seat %(number)s") % {"number": seat + 1}


def engine_message(err: IllegalDeal) -> str:
    """The engine's sentence, its template translated and filled with the engine's own values,
    each seat named as the page names it."""
    return err.render(seat_label, gettext(err.text), page_words)


def json_text(value: object) -> str:
    """A value as a JSON input shows it; a named value (``double``) without JSON's quotes."""
    if isinstance(value, str) and BARE_WORD.fullmatch(value):
        return value
    return json.dumps(as_json(value), ensure_ascii=False)


def as_json(value: object) -> object:
    """A value as JSON sees it (tuples become lists), so preset values compare with entered ones."""
    return json.loads(json.dumps(value))


def peek(form: forms.Form, name: str) -> Any:
    """One input's cleaned value before the form is validated (None when it is not valid): what the
    forms need to know early, to build the inputs that depend on it (game, rule set, contract)."""
    field = form.fields[name]
    try:
        return field.clean(field.widget.value_from_datadict(form.data, form.files, form.add_prefix(name)))
    except ValidationError:
        return None


class HouseRulesMixin:
    """The house-rule inputs of a form as the contract's ``rules`` object; the form sets `module`
    (the game), `preset` and `house_rules` (one `HouseRule` per option)."""

    module: ModuleType
    preset: str
    house_rules: list[HouseRule]

    def _choose_rules(self, data: QueryDict, game: str, money: tuple[str, int] | None = None) -> None:
        """Read the preset from `data` (the game's default for a missing or unknown one) and make one
        `HouseRule` per option; complete `data` so what the page shows is what the next submit sends.

        ``shown`` ("game:preset") records whose house rules the page showed: when the game or preset
        changed, the inputs start from the new preset's values instead of keeping the old ones.
        """
        preset = data.get("preset") or self.module.DEFAULT_PRESET
        self.preset = preset if preset in self.module.PRESETS else self.module.DEFAULT_PRESET
        data.setdefault("preset", self.preset)
        # `money`: the currency amounts are typed in (a night's), for the options that are money.
        self.house_rules = [HouseRule(key, validator, self.module.PRESETS[self.preset][key],
                                      money if key in self.module.AMOUNTS else None)
                            for key, validator in self.module.OPTIONS.items()]
        if data.get("shown") != f"{game}:{self.preset}":
            for key in [k for k in data if k.startswith("rule-")]:
                del data[key]
            for rule in self.house_rules:
                data.update(rule.data(rule.preset_value))
        else:
            # A browser always sends a select, number or text input; one missing (a hand-made link)
            # keeps the preset's value. An unticked checkbox is the only input that sends nothing.
            for rule in self.house_rules:
                if rule.kind != "boolean" and rule.name not in data:
                    data.update(rule.data(rule.preset_value))
        data["shown"] = f"{game}:{self.preset}"

    def _rules_request(self, values: Mapping[str, Any]) -> dict[str, object]:
        """The preset and only the options that differ from it, as JSON writes them."""
        rules: dict[str, object] = {"preset": self.preset}
        for rule in self.house_rules:
            try:
                value = rule.value(values)
            except ValidationError:
                continue
            if as_json(value) != as_json(rule.preset_value):
                rules[rule.key] = as_json(value)
        return rules

    def _peek_rules(self) -> Any:
        """The rule set the inputs describe, to know what else to ask; the preset's while they are invalid."""
        values = {name: peek(self, name) for rule in self.house_rules for name in rule.names}  # type: ignore[arg-type]
        try:
            return self.module.parse_rules(self._rules_request(values))
        except IllegalDeal:
            return self.module.parse_rules({"preset": self.preset})


class JSONText(forms.CharField):
    """A text input holding one JSON value (house rules whose values are lists or objects)."""

    widget = forms.TextInput
    longest = 2000

    def __init__(self, *, example: str, **kwargs: Any) -> None:
        self.example = example
        super().__init__(strip=True, **kwargs)

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        return {**super().widget_attrs(widget), "maxlength": str(self.longest), "autocomplete": "off",
                "spellcheck": "false", "autocapitalize": "off"}

    def to_python(self, value: object) -> object:
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        if len(text) > self.longest:
            raise ValidationError(gettext("Keep this under %(n)s characters") % {"n": self.longest}, code="long")
        try:
            return json.loads(text)
        except (ValueError, RecursionError):
            if BARE_WORD.fullmatch(text):  # a named value such as double, written without JSON's quotes
                return text
            raise ValidationError(gettext("Write this as JSON, e.g. %(example)s") % {"example": self.example},
                                  code="invalid") from None

    def validate(self, value: object) -> None:
        # [] and {} are values here (no variants, …); only an empty input is missing.
        if value is None and self.required:
            raise ValidationError(self.error_messages["required"], code="required")

    def prepare_value(self, value: object) -> object:
        if isinstance(value, str) or value is None:
            return value
        return json_text(value)


class MoneyField(forms.CharField):
    """An amount typed in units of a currency ("0.10", "0,10", "10" — ¥ without decimals), cleaned to a count
    of its minor unit (10 cents, 10 yen) within the option's range; shown the same way. An option that also
    takes named values (a Tout's "double") takes them as typed, in place of an amount."""

    def __init__(self, *, currency: str, exponent: int, lo: int, hi: int, names: tuple[str, ...] = (),
                 **kwargs: Any) -> None:
        self.currency, self.exponent, self.lo, self.hi, self.names = currency, exponent, lo, hi, names
        super().__init__(strip=True, **kwargs)

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        attrs = {**super().widget_attrs(widget), "autocomplete": "off", "maxlength": "24" if self.names else "12"}
        if not self.names:  # a phone's number pad has no letters for a name
            attrs["inputmode"] = "decimal" if self.exponent else "numeric"
        return attrs

    def to_python(self, value: object) -> int | str | None:  # type: ignore[override]
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        if text.strip('"') in self.names:  # a name, with or without the JSON quotes the input once took
            return str(text.strip('"'))
        units = parse_units(text, self.exponent)
        if units is None:
            error = money_input_error(text, self.currency, self.exponent)
            if self.names:
                error = gettext("%(error)s Or write one of: %(names)s.") % {
                    "error": error, "names": ", ".join(self.names)}
            raise ValidationError(error, code="invalid")
        amount = int(units.scaleb(self.exponent))
        if not self.lo <= amount <= self.hi:
            raise ValidationError(gettext("Enter an amount from %(lo)s to %(hi)s") % {
                "lo": format_money(self.lo, self.currency, exponent=self.exponent),
                "hi": format_money(self.hi, self.currency, exponent=self.exponent)}, code="range")
        return amount

    def prepare_value(self, value: object) -> object:
        if isinstance(value, int) and not isinstance(value, bool):
            return money_units(value, self.exponent)
        return value


def money_units(amount: int, exponent: int) -> str:
    """A count of minor units as typed in units of the currency: 10 cents → "0.10", 10 yen → "10"."""
    return format(in_units(amount, exponent), "f")


class HouseRule:
    """One option of a game's rule set as form inputs, built from its validator's `kind`.

    boolean → checkbox; integer → number with min/max; an amount of money (`money` given), or an amount or a
    name: typed in units of the currency; choice → select; nullable → the inner input plus a "none" choice;
    json (or anything else) → a text input taking JSON.
    """

    def __init__(self, key: str, validator: object, preset_value: object,
                 money: tuple[str, int] | None = None) -> None:
        self.key = key
        self.money = money  # (currency, decimals of its minor unit) where the option is money and a night has one
        self.name = f"rule-{key}"
        self.none_name = f"{self.name}-none"
        self.preset_value = preset_value
        self.kind, self.validator, self.nullable = option_shape(validator)
        # A nullable choice offers "none" inside its select; the other nullable inputs get a checkbox.
        self.none_box = self.nullable and self.kind != "choice"

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, self.none_name) if self.none_box else (self.name,)

    @property
    def layout(self) -> str:
        if self.none_box:
            return "nullable"
        return "check" if self.kind == "boolean" else "field"

    def fields(self) -> dict[str, forms.Field]:
        label = OPTION_LABELS.get(self.key, self.key)
        if self.kind == "boolean":
            field: forms.Field = forms.BooleanField(required=False, label=label)
        elif self.money is not None:  # an amount (integer), or an amount or a name (a Tout's fixed price or "double")
            currency, exponent = self.money
            field = MoneyField(required=not self.nullable, label=f"{label} ({symbol(currency)})", currency=currency,
                               exponent=exponent, lo=self.validator.lo, hi=self.validator.hi,  # type: ignore[union-attr]
                               names=tuple(getattr(self.validator, "names", ())))
        elif self.kind == "integer":
            lo, hi = self.validator.lo, self.validator.hi  # type: ignore[union-attr]
            field = forms.IntegerField(required=not self.nullable, label=label,
                                       widget=forms.NumberInput(attrs={"min": lo, "max": hi, "inputmode": "numeric"}))
        elif self.kind == "choice":
            choices = [(c, CHOICE_LABELS.get((self.key, c), c)) for c in self.validator.choices]  # type: ignore[union-attr]
            if self.nullable:
                choices.insert(0, ("", NONE_LABELS.get(self.key, _("none"))))
            field = forms.TypedChoiceField(choices=choices, required=not self.nullable, empty_value=None,
                                           label=label)
        else:
            field = JSONText(required=not self.nullable, label=label,
                             example=json_text(self.preset_value) if self.preset_value is not None else "[]")
        fields = {self.name: field}
        if self.none_box:
            fields[self.none_name] = forms.BooleanField(required=False, label=NONE_LABELS.get(self.key, _("none")))
        return fields

    def data(self, value: object) -> dict[str, str]:
        """How `value` is written in the query string (to fill the inputs with a preset's value)."""
        if value is None:
            return {self.none_name: "on"} if self.none_box else {self.name: ""}
        if self.kind == "boolean":
            return {self.name: "on"} if value else {}
        if self.money is not None:
            return {self.name: money_units(value, self.money[1]) if isinstance(value, int) else str(value)}
        if self.kind in ("integer", "choice"):
            return {self.name: str(value)}
        return {self.name: json_text(value)}

    def value(self, cleaned: Mapping[str, Any]) -> object:
        """The option's value from the cleaned inputs; raises ValidationError for an empty one."""
        if self.none_box and cleaned.get(self.none_name):
            return None
        value = cleaned.get(self.name)
        if value is None and self.none_box:
            if self.kind == "integer" and self.money is not None:
                raise ValidationError(gettext("Enter an amount, or tick “none”"))
            if self.kind == "integer":
                raise ValidationError(
                    gettext("Enter a whole number from %(lo)s to %(hi)s, or tick “none”")
                    % {"lo": self.validator.lo, "hi": self.validator.hi})  # type: ignore[union-attr]
            raise ValidationError(gettext("Enter a value, or tick “none”"))
        return value


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
    tricks = [cards for line in lines if (cards := [c for c in SPLIT.split(line.strip()) if c])]
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


def pack_of(game: str) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """The card picker's pack: per suit its name as the game's table says it, and its cards."""
    return [(suit, gettext(name), [(card, gettext(rank) if rank[0].isalpha() else rank) for card, rank in cards])
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
        cleaned = super().clean()
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


class DisputeForm(HouseRulesMixin, forms.Form):
    """The whole dispute page: table, house rules, deal and (Fipsen) a bidding dispute.

    Always bound: the query is completed with the defaults (the first game, its default preset,
    the preset's options) so what the page shows is exactly what the next submit sends. It is
    judged only once there is something to judge (a deal value, or "Show verdict" pressed).
    """

    def __init__(self, query: QueryDict | None, url: str) -> None:
        self.submitted = bool(query)
        data = query.copy() if query is not None else QueryDict(mutable=True)
        super().__init__(data)
        self.url = url
        self.items: dict[str, list[Item]] = defaultdict(list)
        self.slot_of: dict[str, str] = {}
        self.verdict: Verdict | None = None
        self.comparison: Comparison | None = None
        self.request_obj: dict[str, Any] | None = None
        self.compare_request: dict[str, Any] | None = None
        self.section_of: dict[str, str] = {}
        self.hidden_slots: set[str] = set()
        # The engine names a Kieker by its own key; the page chooses it in the bid's select.
        self.alias = {f"compare-{i}-kieker": f"compare-{i}-bid" for i in range(len(BID_LABELS))}

        # The game and preset decide every other input; an unknown one is reported at its input
        # and the page is built for the default meanwhile.
        game = data.get("game") or DEFAULT_GAME
        self.game = game if game in GAMES else DEFAULT_GAME
        self.module: ModuleType = GAMES[self.game]
        shown_game, _sep, _preset = data.get("shown", "").partition(":")
        if shown_game and shown_game != self.game:
            # Another game was on the page: its preset, table and deal mean nothing here.
            data = QueryDict(mutable=True)
            data["game"] = game
            self.data = data
        data.setdefault("game", self.game)
        self._choose_rules(data, self.game)

        self._add_table_fields(data)
        self._add_house_rules()
        self.rules = self._peek_rules()
        self._add_deal_fields()
        self._add_play_fields()
        if settles_bidding(self.game):
            self._add_compare_fields()

    # --- building the inputs ------------------------------------------------------------------

    def _add(self, section: str, item: Item, fields: Mapping[str, forms.Field], role: str = "") -> None:
        """Register an item's fields with their htmx wiring and accessibility attributes."""
        described = f"err-{item.slot}" + (f" help-{item.slot}" if item.help else "")
        for name, field in fields.items():
            attrs = field.widget.attrs
            if not field.widget.is_hidden:
                attrs["aria-describedby"] = described
            if role in REGIONS:
                target, replaced = REGIONS[role]
                attrs.update({"hx-get": self.url, "hx-trigger": "change consume", "hx-target": target,
                              "hx-disabled-elt": replaced})
            elif role == "typed":
                attrs.update({"hx-get": self.url, "hx-trigger": LIVE_DELAY})
            self.fields[name] = field
            self.slot_of[name] = item.slot
            self.section_of[name] = section
        self.slot_of[item.slot] = item.slot
        if item.layout == "hidden":
            self.hidden_slots.add(item.slot)
        self.items[section].append(item)

    def _add_table_fields(self, data: QueryDict) -> None:
        module = self.module
        self._add("table", Item("game", _("Game"), "", "field", ("game",)), {
            "game": forms.ChoiceField(choices=list(GAME_LABELS.items()), label=_("Game")),
        }, "page")
        self._add("table", Item("preset", _("Rule set"), "", "field", ("preset",)), {
            "preset": forms.ChoiceField(
                choices=[(p, PRESET_LABELS.get((self.game, p), p)) for p in module.PRESETS], label=_("Rule set")),
        }, "page")
        seats = module.SEATS
        # Compared as text: int() of a 5,000-digit value raises (Python's limit on digits).
        by_text = {str(n): n for n in seats}
        self.players = by_text.get(data.get("players", ""), module.DEFAULT_SEATS)
        data.setdefault("players", str(self.players))
        # A dealer beyond a smaller table (players changed) moves to the last seat, as by default.
        dealer = data.get("dealer", "")
        if not dealer or (dealer.isdecimal() and dealer not in {str(n) for n in range(self.players)}):
            data["dealer"] = str(self.players - 1)
        self.dealer = int(data["dealer"]) if data["dealer"].isdecimal() else self.players - 1
        one_size = len(seats) == 1
        self._add("table", Item("players", _("Players"), "", "hidden" if one_size else "field", ("players",)), {
            "players": forms.TypedChoiceField(
                choices=[(n, gettext("%(n)s players") % {"n": n}) for n in seats], coerce=int, label=_("Players"),
                widget=forms.HiddenInput if one_size else forms.Select),
        }, "page")
        self._add("table", Item("dealer", _("Dealer"), "", "field", ("dealer",)), {
            "dealer": forms.TypedChoiceField(choices=self._seats(), coerce=int, label=_("Dealer")),
        }, "deal")
        self._add("table", Item("shown", "", "", "hidden", ("shown",)), {
            "shown": forms.CharField(widget=forms.HiddenInput, required=False),
        })

    def _add_house_rules(self) -> None:
        for rule in self.house_rules:
            item = Item(rule.name, OPTION_LABELS.get(rule.key, rule.key), "", rule.layout, rule.names)
            self._add("rules", item, rule.fields(), "deal")

    def _peek(self, name: str) -> Any:
        return peek(self, name)

    def _seats(self, empty: Label | None = None) -> list[tuple[str, str]]:
        seats = [(str(seat), seat_label(seat)) for seat in range(self.players)]
        return [("", str(empty)), *seats] if empty is not None else seats

    def _add_deal_fields(self) -> None:
        contracts = [str(c) for c in self.module.contracts(self.rules)]
        self._add("contract", Item("contract", _("Contract"), "", "field", ("contract",)), {
            "contract": forms.ChoiceField(choices=[(c, CONTRACT_LABELS.get(c, c)) for c in contracts],
                                          label=_("Contract")),
        }, "deal")
        self.data.setdefault("contract", contracts[0])
        contract = self.data.get("contract")
        self.contract = contract if contract in contracts else contracts[0]
        table = Table(self.players, min(max(self.dealer, 0), self.players - 1))
        people = People(tuple(range(self.players)), tuple((seat, seat_label(seat)) for seat in range(self.players)))
        self.deal_inputs = DealInputs(inputs(self.game, self.contract, self.rules, table), people, PLAIN)
        for question in self.deal_inputs.questions:
            fields = {name: self.deal_inputs.fields[name] for name in question.names}
            item = Item(question.key, question.label, question.help, DEAL_LAYOUTS.get(question.layout, "field"),
                        question.names)
            self._add("deal", item, fields, "typed" if question.typed else "")

    def _add_play_fields(self) -> None:
        """The cards as played (issue 19, docs/PLAY.md): typed as codes, one trick a line — a card picker
        (static/js/play.js) types them for a phone; the engine checks every card and counts."""
        for item, fields in play_inputs(self.game, self.players):
            self._add("play", item, fields, "" if item.slot == "play-trump" else "typed")

    def _play(self, cleaned: Mapping[str, Any]) -> dict[str, Any] | None:
        """``deal.play`` from the typed cards, or None when no card was typed."""
        try:
            return play_from(cleaned, self.players)
        except ValidationError as err:
            self.add_error("play-hands", err)
            return None

    def _compare_bids(self) -> list[tuple[str, Label]]:
        """The bids a bidding dispute compares, as the game offers them (`COMPARE_BIDS` of a game that settles
        bidding disputes: each trick bid, and a Kieker)."""
        return [("", "—"), *((value, word_label(words)) for value, _fields, words in self._offered_bids())]

    def _offered_bids(self) -> tuple[tuple[str, Mapping[str, object], object], ...]:
        """The engine's bids of a bidding dispute (only a game that settles them has any)."""
        offered: tuple[tuple[str, Mapping[str, object], object], ...] = getattr(self.module, "COMPARE_BIDS", ())
        return offered

    def _add_compare_fields(self) -> None:
        self._add("compare", Item("compare", _("Which bid is higher?"), "", "group", ()), {})
        for index, legend in enumerate(BID_LABELS):
            section = f"compare-{index}"
            self._add(section, Item(section, legend, "", "group", ()), {})
            self._add(section, Item(f"{section}-bid", _("Bid"), "", "field", (f"{section}-bid",)), {
                f"{section}-bid": forms.ChoiceField(choices=self._compare_bids(), required=False, label=_("Bid")),
            })
            for add_on, label in COMPARE_ADD_ONS:
                name = f"{section}-{add_on}"
                self._add(section, Item(name, label, "", "check", (name,)), {
                    name: forms.BooleanField(required=False, label=label)})
            self._add(section, Item(f"{section}-seat", _("Seat"), "", "field", (f"{section}-seat",)), {
                f"{section}-seat": forms.TypedChoiceField(choices=self._seats("—"), coerce=int, empty_value=None,
                                                          required=False, label=_("Seat")),
            })

    # --- judging --------------------------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        failed = {self.section_of.get(name) for name in self.errors}
        if failed & {"table", "rules", "contract"}:
            return cleaned
        rules_complete = True
        for rule in self.house_rules:
            try:
                rule.value(cleaned)
            except ValidationError as err:
                self.add_error(rule.name, err)
                rules_complete = False
        if not rules_complete:
            return cleaned
        envelope = {"game": self.game, "rules": self._rules_request(cleaned),
                    "players": cleaned["players"], "dealer": cleaned["dealer"]}
        try:
            self.module.parse_rules(envelope["rules"])
        except IllegalDeal as err:
            self._engine_error(err)
            return cleaned
        if not self.submitted:
            return cleaned
        deal = None
        if "deal" not in failed:
            deal = self.deal_inputs.facts(self.contract, cleaned, self.add_error,
                                          gettext("enter a number for every seat"))
        if deal is not None and "play" not in failed:
            play = self._play(cleaned)
            if play is not None:
                deal["play"] = play
        if deal is not None and ("show" in self.data or len(deal) > 1 or not self.deal_inputs.questions):
            self.request_obj = {**envelope, "deal": deal}
            try:
                self.verdict = judge(self.request_obj)  # type: ignore[assignment]
            except IllegalDeal as err:
                self._engine_error(err)
        if self.compares and not failed & {"compare-0", "compare-1"}:
            bids = self._compare(cleaned)
            if any(bids) or "compare" in self.data:
                self.compare_request = {**envelope, "compare": bids}
                try:
                    self.comparison = judge(self.compare_request)  # type: ignore[assignment]
                except IllegalDeal as err:
                    self._engine_error(err)
        return cleaned

    def _compare(self, cleaned: Mapping[str, Any]) -> list[dict[str, Any]]:
        bids = []
        for index in range(len(BID_LABELS)):
            prefix = f"compare-{index}-"
            bid: dict[str, Any] = {}
            chosen = cleaned.get(prefix + "bid")
            bid.update(next((fields for value, fields, _words in self._offered_bids() if value == chosen), {}))
            for add_on, _label in COMPARE_ADD_ONS:
                if cleaned.get(prefix + add_on):
                    bid[add_on] = True
            if cleaned.get(prefix + "seat") is not None:
                bid["seat"] = cleaned[prefix + "seat"]
            bids.append(bid)
        return bids

    def _engine_error(self, err: IllegalDeal) -> None:
        """Put the engine's message at the input its field names, or at the top of the page."""
        name = self.input_for(err.field)
        message = at_trick(err.field, engine_message(err))
        if name is None:
            self.add_error(None, f"{err.field}: {message}")
        elif name in self.fields:
            needed = not carries(self.cleaned_data.get(name))
            self.add_error(name, ValidationError(message, code="needed" if needed else "illegal"))
        else:  # a group without an input of its own: a per-seat list, a compared bid, the comparison
            self.add_error(None, ValidationError(message, code=f"slot:{name}"))

    def input_for(self, path: str) -> str | None:
        """The input (or group) for a contract field path, trying the most specific name first."""
        head, *rest = path.split(".")
        if head == "rules":
            candidates = ["preset"] if rest == ["preset"] else [f"rule-{rest[0]}"] if rest else []
        elif head == "deal":
            candidates = ["-".join(rest[:i]) for i in range(len(rest), 0, -1)]
        elif head == "compare":
            candidates = ["-".join(["compare", *rest[:i]]) for i in range(len(rest), -1, -1)]
        else:
            candidates = [path]
        for name in candidates:
            name = self.alias.get(name, name)
            if name in self.slot_of:
                return name
        return None

    # --- what the template shows -------------------------------------------------------------

    def _errors_by_slot(self) -> dict[str, list[Message]]:
        slots: dict[str, list[Message]] = defaultdict(list)
        for name, errors in self.errors.as_data().items():
            for error in errors:
                needed = error.code == "needed"
                for text in error.messages:
                    if name != "__all__":
                        slot = self.slot_of.get(name, "top")
                        if slot in self.hidden_slots:  # an input not shown: say it at the top
                            slot = "top"
                        label = self.fields[name].label
                        text = f"{label}: {text}" if slot != name and label else text
                    elif error.code and error.code.startswith("slot:"):
                        slot = error.code[5:]
                    else:
                        slot = "top"
                    slots[slot].append(Message(text, needed))
        return slots

    def rows(self, section: str) -> list[Row]:
        errors = self.slot_errors
        return [Row(item.slot, item.label, item.help, item.layout, [self[name] for name in item.names],
                    errors.get(item.slot, [])) for item in self.items.get(section, [])]

    @property
    def slot_errors(self) -> dict[str, list[Message]]:
        if not hasattr(self, "_slot_errors"):
            self._slot_errors = self._errors_by_slot()
        return self._slot_errors

    @property
    def table_rows(self) -> list[Row]:
        return self.rows("table")

    @property
    def rule_rows(self) -> list[Row]:
        return self.rows("rules")

    @property
    def deal_rows(self) -> list[Row]:
        return self.rows("contract") + self.rows("deal")

    @property
    def play_rows(self) -> list[Row]:
        return self.rows("play")

    @property
    def pack(self) -> list[tuple[str, str, list[tuple[str, str]]]]:
        """The card picker's pack: per suit its name as the game's table says it, and its cards."""
        return pack_of(self.game)

    @property
    def replay(self) -> list[ReplayRow]:
        """The played deal trick by trick (the engine's `play.replay`), seats named as the page names them."""
        if self.verdict is None:
            return []
        return [ReplayRow(trick.number, [(card, seat_label(seat)) for card, seat in trick.cards],
                          seat_label(trick.winner), trick.points, trick.declaring, trick.defending,
                          gettext(trick.broken_rule) if trick.broken_rule else "", trick.broken_card or "",
                          trick.after_end)
                for trick in played.replay(self.verdict)]

    @property
    def compare_sections(self) -> list[tuple[Row, list[Row]]]:
        """Each compared bid: its fieldset (legend and errors) and its inputs."""
        sections = []
        for index in range(len(BID_LABELS)):
            head, *rows = self.rows(f"compare-{index}")
            sections.append((head, rows))
        return sections

    @property
    def compare_row(self) -> Row | None:
        rows = self.rows("compare")
        return rows[0] if rows else None

    @property
    def all_slots(self) -> list[Slot]:
        """Every error slot on the page with its messages: the verdict update refreshes them all."""
        errors = self.slot_errors
        return [self.top_slot] + [Slot(item.slot, errors.get(item.slot, []))
                                  for items in self.items.values() for item in items
                                  if item.slot not in self.hidden_slots]

    @property
    def slots_outside_deal(self) -> list[Slot]:
        """The error slots a #deal swap does not replace: the top, the table and the house rules."""
        errors = self.slot_errors
        return [self.top_slot] + [Slot(item.slot, errors.get(item.slot, []))
                                  for section in ("table", "rules") for item in self.items[section]
                                  if item.slot not in self.hidden_slots]

    @property
    def top_slot(self) -> Slot:
        return Slot("top", self.slot_errors.get("top", []))

    @property
    def rules_open(self) -> bool:
        """Show the house rules when they differ from the rule set's or hold an error."""
        changed = len(self._rules_request(getattr(self, "cleaned_data", {}))) > 1
        return changed or any(self.slot_errors.get(item.slot) for item in self.items["rules"])

    @property
    def error_summary(self) -> list[tuple[str, str, str]]:
        """(label, message, anchor) for every problem outside the bidding dispute, to list with the verdict."""
        labels = {item.slot: item.label for items in self.items.values() for item in items}
        compare = {item.slot for section, items in self.items.items() if section.startswith("compare")
                   for item in items}
        return [(str(labels.get(slot, "")), message.text, f"row-{slot}" if slot in labels else "dispute")
                for slot, messages in self.slot_errors.items() if slot not in compare for message in messages]

    @property
    def compares(self) -> bool:
        return "compare" in self.items

    @property
    def outcome(self) -> tuple[str, str] | None:
        if self.verdict is None:
            return None
        won = self.verdict.won
        if won is None:
            return "none", gettext("No declaring side")
        return ("won", gettext("Won")) if won else ("lost", gettext("Lost"))

    @property
    def score_rows(self) -> list[tuple[str, str, str | None]]:
        """Each seat's score and (Skat) Seeger-Fabian points."""
        if self.verdict is None:
            return []
        seeger_fabian = self.verdict.extra.get("seeger_fabian")
        return [(seat_label(seat), signed(score), signed(seeger_fabian[seat]) if seeger_fabian else None)
                for seat, score in enumerate(self.verdict.scores)]

    @property
    def has_seeger_fabian(self) -> bool:
        return self.verdict is not None and "seeger_fabian" in self.verdict.extra

    @property
    def explanation(self) -> list[str]:
        return translated(self.verdict)

    @property
    def comparison_explanation(self) -> list[str]:
        return translated(self.comparison)

    @property
    def higher_bid(self) -> str:
        if self.comparison is None:
            return ""
        return gettext("%(bid)s is higher") % {"bid": BID_LABELS[self.comparison.higher]}

    @property
    def request_json(self) -> str:
        return json.dumps(self.request_obj, indent=2, ensure_ascii=False) if self.request_obj else ""

    @property
    def compare_json(self) -> str:
        return json.dumps(self.compare_request, indent=2, ensure_ascii=False) if self.compare_request else ""


def translated(result: Verdict | Comparison | None) -> list[str]:
    """The explanation lines, each template translated and filled with the engine's values, each
    seat named as the page names it."""
    if result is None:
        return []
    return result.explain(seat_label, page_words)
