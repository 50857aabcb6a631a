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
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .rules import GAMES, Comparison, IllegalDeal, Table, Verdict, judge
from .rules.explain import signed

Label = str | Promise

DEFAULT_GAME = "skat"

GAME_LABELS: dict[str, Label] = {
    "skat": _("Skat"), "schafkopf": _("Schafkopf"), "kop": _("Kop"), "fipsen": _("Fipsen"),
}

PRESET_LABELS: dict[tuple[str, str], Label] = {
    ("skat", "classic"): _("Classic club rules"),
    ("skat", "isko"): _("ISkO (Skat Order)"),
    ("schafkopf", "classic"): _("Classic (fixed values)"),
    ("schafkopf", "bsv"): _("BSV tariff 10/50"),
    ("schafkopf", "sauspiel"): _("Sauspiel tariff 10/20/50"),
    ("kop", "classic"): _("Classic"),
    ("kop", "wolsztyn"): _("Wolsztyn tournament"),
    ("kop", "koscian"): _("Kościan tournament"),
    ("fipsen", "classic"): _("Classic (Prisdorf)"),
}

CONTRACT_LABELS: dict[str, Label] = {
    # Skat
    "clubs": _("Clubs (Kreuz)"), "spades": _("Spades (Pik)"), "hearts": _("Hearts (Herz)"),
    "diamonds": _("Diamonds (Karo)"), "grand": _("Grand"), "null": _("Null"), "ramsch": _("Ramsch"),
    "passed": _("All passed"),
    # Schafkopf
    "sauspiel": _("Sauspiel"), "wenz": _("Wenz"), "solo": _("Solo"), "wenz_tout": _("Wenz Tout"),
    "solo_tout": _("Solo Tout"), "sie": _("Sie"), "geier": _("Geier"), "farbwenz": _("Farbwenz"),
    "geier_tout": _("Geier Tout"), "farbwenz_tout": _("Farbwenz Tout"), "bettel": _("Bettel"),
    "hochzeit": _("Hochzeit"),
    # Kop
    "normal": _("Normal game"), "wesele": _("Wesele"), "cicha": _("Cicha"), "zolo": _("Zolo"),
    "zolo_du": _("Zolo du"),
    # Fipsen
    "tricks": _("Trick bid"), "kieker": _("Kieker"), "siebener_fips": _("Siebener Fips"),
}

# House rules: what each option means, in a few words (RULES.md); an option missing here shows its key.
OPTION_LABELS: dict[str, Label] = {
    # Skat
    "lost_hand_doubled": _("A lost hand game counts double"),
    "reverse_levels": _("Schneider/schwarz suffered by the declarer add levels"),
    "ouvert": _("Ouvert"),
    "grand_ouvert_fixed": _("Grand ouvert fixed value"),
    "announce_needs_hand": _("Schneider/schwarz announced only in hand games"),
    "conceded": _("A conceded game is charged"),
    "kontra": _("Kontra and Re may be said"),
    "bock": _("Bock deals"),
    "passed": _("When all pass"),
    "ramsch_skat": _("In Ramsch the skat goes to"),
    "ramsch_jungfrau": _("Jungfrau in Ramsch"),
    "ramsch_durchmarsch": _("Durchmarsch in Ramsch scores"),
    "ramsch_tie": _("Tie for most points in Ramsch"),
    # Schafkopf
    "price_partner": _("Price of a partner game (Sauspiel, Hochzeit)"),
    "price_solo": _("Price of a solo (Wenz, Solo, Geier, Farbwenz)"),
    "schneider": _("Schneider bonus"),
    "schwarz": _("Schwarz bonus"),
    "per_laufender": _("Per Laufender"),
    "laufende_min": _("Laufende count from"),
    "laufende_min_wenz": _("Laufende count from (Wenz, Geier)"),
    "tout": _("Tout: a fixed value, or double"),
    "sie": _("Sie: a fixed value, 4x_solo or 4x_solo_8_laufende"),
    "max_doublings": _("Most doublings"),
    "klopfen": _("Klopfen"),
    "variants": _("Variants played"),
    "price_bettel": _("Price of a Bettel"),
    "ramsch": _("Ramsch settlement"),
    # Kop
    "base_no_trick": _("Base when the losers took no trick"),
    "solo_scoring": _("Lone games are scored"),
    "solo_factors": _("Lone game factors"),
    "tie_lone_loses": _("The lone player loses a 52–52 tie"),
    "trump_order": _("Trump order (for play checks only)"),
    "round_placing": _("Placing points of a round"),
    # Fipsen
    "durch_outranks": _("Durch outranks at equal bids"),
}

CHOICE_LABELS: dict[tuple[str, str], Label] = {
    ("reverse_levels", "skat_taken"): _("only when the skat was taken"),
    ("reverse_levels", "always"): _("always"),
    ("ouvert", "plus_one"): _("adds one level"),
    ("ouvert", "isko"): _("ISkO: needs hand, implies schneider and schwarz announced"),
    ("conceded", "single"): _("once (−1 ×)"),
    ("conceded", "double"): _("twice (−2 ×)"),
    ("passed", "ramsch"): _("play Ramsch"),
    ("passed", "void"): _("the deal is void"),
    ("passed", "redeal"): _("deal again"),
    ("ramsch_skat", "last_trick"): _("the last trick"),
    ("ramsch_skat", "loser"): _("the loser"),
    ("ramsch_jungfrau", "double"): _("doubles the loss"),
    ("ramsch_jungfrau", "none"): _("no effect"),
    ("ramsch_tie", "all_lose"): _("all tied players lose"),
    ("ramsch", "bsv"): _("BSV"),
    ("ramsch", "sauspiel"): _("Sauspiel"),
    ("solo_scoring", "times_base"): _("base × factor"),
    ("solo_scoring", "flat"): _("flat factor"),
}

# What "none" (null) means for a nullable option; the default is just "none".
NONE_LABELS: dict[str, Label] = {
    "grand_ouvert_fixed": _("none: computed"),
    "ramsch_durchmarsch": _("none: no Durchmarsch"),
    "price_bettel": _("none: no Bettel"),
    "ramsch": _("none"),
    "round_placing": _("none"),
}

SUITS: tuple[tuple[str, Label], ...] = (
    ("C", _("Clubs · Eichel")), ("S", _("Spades · Gras")), ("H", _("Hearts · Herz")),
    ("D", _("Diamonds · Schellen")),
)


@dataclass(frozen=True, slots=True)
class Spec:
    """How the page asks for one deal field of the contract (ADJUDICATION.md, "Deals by game")."""

    kind: str  # seat, boolean, number, choice, per_seat, cards, seat_order, seat_set, bid, matadors, json
    label: Label
    help: Label = ""
    lo: int = 0
    hi: int = 0
    choices: tuple[tuple[str, Label], ...] = ()


DEAL_SPECS: dict[str, Spec] = {
    "declarer": Spec("seat", _("Declarer")),
    "partner": Spec("seat", _("Partner")),
    "called_ace": Spec("choice", _("Called ace (Sau)"), _("optional"),
                       choices=(("", _("not given")), ("C", _("Eichel-Sau (clubs)")),
                                ("S", _("Gras-Sau (spades)")), ("D", _("Schellen-Sau (diamonds)")))),
    "trump": Spec("choice", _("Trump suit"), choices=(("", "—"), *SUITS)),
    "bid": Spec("number", _("Bid"), lo=0, hi=999),
    "matadors": Spec("matadors", _("Matadors"),
                     _("“with n” or “without n”; leave it empty when you enter the cards")),
    "cards": Spec("cards", _("Declarer's cards and the skat"),
                  _("optional: the 12 cards, separated by spaces, e.g. CJ SJ HA H10 …; suits C S H D, "
                    "ranks A 10 K Q J 9 8 7. The matadors are then counted from them.")),
    "hand": Spec("boolean", _("Hand")),
    "announced": Spec("choice", _("Announced"),
                      choices=(("", _("nothing")), ("schneider", _("Schneider")), ("schwarz", _("Schwarz")))),
    "ouvert": Spec("boolean", _("Ouvert (open)")),
    "card_points": Spec("number", _("Declarer's card points"), lo=0, hi=120),
    "declarer_tricks": Spec("number", _("Declarer's tricks"), lo=0, hi=10),
    "conceded": Spec("boolean", _("Conceded (the declarer gave up)")),
    "kontra": Spec("boolean", _("Kontra")),
    "re": Spec("boolean", _("Re")),
    "bock": Spec("boolean", _("Bock deal")),
    "points": Spec("per_seat", _("Card points per seat"), lo=0, hi=120),
    "tricks": Spec("per_seat", _("Tricks per seat"), lo=0, hi=10),
    "laufende": Spec("number", _("Laufende"),
                     _("top trumps held in unbroken order by one side (either side)"), lo=0, hi=14),
    "doublings": Spec("number", _("Doublings (Stoß, Gegenstoß, Supra, Resupra)"), lo=0, hi=8),
    "klopfer": Spec("number", _("Players who knocked (Klopfer)"), lo=0, hi=4),
    "old": Spec("seat_set", _("Old side")),
    "old_tricks": Spec("number", _("Old side's tricks"), lo=0, hi=4),
    "ruten": Spec("boolean", _("Ruten")),
    "durch": Spec("boolean", _("Durch")),
    "tricks_taken": Spec("number", _("Declarer's tricks"), lo=0, hi=5),
    "surrendered": Spec("boolean", _("Surrendered after the exchange")),
}

# Where a game's field means something else or has another range than the default above.
GAME_SPECS: dict[tuple[str, str], Spec] = {
    ("skat", "bid"): Spec("bid", _("Bid (the final bid)")),
    ("skat", "hand"): Spec("boolean", _("Hand (played without picking up the skat)")),
    ("skat", "card_points"): Spec("number", _("Declarer's card points (skat included)"), lo=0, hi=120),
    ("skat", "declarer_tricks"): Spec("number", _("Declarer's tricks"),
                                      _("Null: required, 0 means won; otherwise optional"), lo=0, hi=10),
    ("skat", "points"): Spec("per_seat", _("Card points per seat"),
                             _("skat included where the rule set gives it"), lo=0, hi=120),
    ("schafkopf", "card_points"): Spec("number", _("Declaring side's card points"), lo=0, hi=120),
    ("schafkopf", "declarer_tricks"): Spec("number", _("Declaring side's tricks"),
                                           _("optional, except for Tout and Bettel"), lo=0, hi=8),
    ("schafkopf", "tricks"): Spec("per_seat", _("Tricks per seat"), lo=0, hi=8),
    ("kop", "card_points"): Spec("number", _("Old side's card points"), lo=0, hi=104),
    ("kop", "old"): Spec("seat_set", _("Old side"),
                         _("the two black-queen holders (normal game), the wesele pair, or the lone player")),
    ("kop", "old_tricks"): Spec("number", _("Old side's tricks"),
                                _("optional, except for zolo du and where the rule set values a trickless "
                                  "side"), lo=0, hi=4),
    ("kop", "doublings"): Spec("seat_order", _("Doublings, in the order said"),
                               _("the seat of each call as numbered on this page, e.g. 2 1 4")),
    ("fipsen", "bid"): Spec("number", _("Bid (tricks)"), lo=2, hi=5),
}

BID_LABELS: tuple[Label, ...] = (_("First bid"), _("Second bid"))
COMPARE_BIDS: tuple[tuple[str, Label], ...] = (
    ("", "—"), ("2", "2"), ("3", "3"), ("4", "4"), ("5", "5"), ("kieker", _("Kieker")),
)
COMPARE_ADD_ONS: tuple[tuple[str, Label], ...] = (("hand", _("Hand")), ("ruten", _("Ruten")), ("durch", _("Durch")))

# htmx: an input that changes which inputs there are re-renders the region they are in — the game,
# rule set and table size everything (#dispute); the dealer, a house rule or the contract the deal
# (#deal), so the open "House rules" section stays as it is. While such a request is under way the
# inputs it will replace are disabled (after htmx has read their values), so nothing chosen in that
# moment is lost to the swap. Typing in a number or text input re-renders only the verdict, so the
# input keeps its focus and text.
REGIONS = {"page": ("#dispute", "#dispute fieldset"), "deal": ("#deal", "#deal fieldset")}
LIVE_DELAY = "input changed delay:500ms"

SEAT_NUMBERS = re.compile(r"[\s,;]+")
BARE_WORD = re.compile(r"(?=[0-9]*[A-Za-z_])[A-Za-z0-9_]+")


def seat_label(seat: int) -> str:
    """How the page names a seat, in its inputs and in the engine's sentences alike: the contract
    numbers seats from 0; people count from 1."""
    return gettext("Seat %(number)s") % {"number": seat + 1}


def engine_message(err: IllegalDeal) -> str:
    """The engine's sentence, its template translated and filled with the engine's own values,
    each seat named as the page names it."""
    return err.render(seat_label, gettext(err.text), gettext)


def carries(value: object) -> bool:
    """Whether an input carries a value for the request (0 does; an empty input or unticked box not)."""
    return value is not None and value is not False and value != "" and value != []


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

    def _choose_rules(self, data: QueryDict, game: str) -> None:
        """Read the preset from `data` (the game's default for a missing or unknown one) and make one
        `HouseRule` per option; complete `data` so what the page shows is what the next submit sends.

        ``shown`` ("game:preset") records whose house rules the page showed: when the game or preset
        changed, the inputs start from the new preset's values instead of keeping the old ones.
        """
        preset = data.get("preset") or self.module.DEFAULT_PRESET
        self.preset = preset if preset in self.module.PRESETS else self.module.DEFAULT_PRESET
        data.setdefault("preset", self.preset)
        self.house_rules = [HouseRule(key, validator, self.module.PRESETS[self.preset][key])
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


def matador_choices() -> list[tuple[str, str]]:
    """Skat matadors as a select offers them: "with 1" … "with 11", "without 1" … "without 11"."""
    choices = [("", "—")]
    choices += [(str(n), gettext("with %(n)s") % {"n": n}) for n in range(1, 12)]
    choices += [(str(-n), gettext("without %(n)s") % {"n": n}) for n in range(1, 12)]
    return choices


def bid_choices(module: ModuleType) -> list[tuple[str, str]]:
    """A game's legal bid values (Skat's 18, 20, 22 …), or none where it has no such list."""
    bids = sorted(getattr(module, "BID_VALUES", ()))
    return [("", "—"), *((str(b), str(b)) for b in bids)] if bids else []


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


class HouseRule:
    """One option of a game's rule set as form inputs, built from its validator's `kind`.

    boolean → checkbox; integer → number with min/max; choice → select; nullable → the inner
    input plus a "none" choice; json (or anything else) → a text input taking JSON.
    """

    def __init__(self, key: str, validator: object, preset_value: object) -> None:
        self.key = key
        self.name = f"rule-{key}"
        self.none_name = f"{self.name}-none"
        self.preset_value = preset_value
        kind = getattr(validator, "kind", "json")
        self.nullable = kind == "nullable"
        inner = getattr(validator, "inner", None) if self.nullable else validator
        self.validator = inner
        self.kind = getattr(inner, "kind", "json") if inner is not None else "json"
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
        if self.kind in ("integer", "choice"):
            return {self.name: str(value)}
        return {self.name: json_text(value)}

    def value(self, cleaned: Mapping[str, Any]) -> object:
        """The option's value from the cleaned inputs; raises ValidationError for an empty one."""
        if self.none_box and cleaned.get(self.none_name):
            return None
        value = cleaned.get(self.name)
        if value is None and self.none_box:
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
        self.specs: dict[str, Spec] = {}
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
        if hasattr(self.module, "compare"):
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
        self.deal_keys = tuple(self.module.deal_fields(self.contract, self.rules, table))
        for key in self.deal_keys:
            spec = GAME_SPECS.get((self.game, key)) or DEAL_SPECS.get(key) or Spec("json", key)
            self._add_deal_field(key, spec)

    def _add_deal_field(self, key: str, spec: Spec) -> None:
        self.specs[key] = spec
        number = {"inputmode": "numeric", "min": spec.lo, "max": spec.hi}
        if spec.kind == "per_seat":
            names = tuple(f"{key}-{seat}" for seat in range(self.players))
            fields = {name: forms.IntegerField(required=False, label=seat_label(seat),
                                               widget=forms.NumberInput(attrs=dict(number)))
                      for seat, name in enumerate(names)}
            self._add("deal", Item(key, spec.label, spec.help, "seats", names), fields, "typed")
            return
        layout, role = "field", ""
        if spec.kind == "seat":
            field: forms.Field = forms.TypedChoiceField(choices=self._seats("—"), coerce=int, empty_value=None,
                                                        required=False)
        elif spec.kind == "boolean":
            field, layout = forms.BooleanField(required=False), "check"
        elif spec.kind == "number":
            field, role = forms.IntegerField(required=False, widget=forms.NumberInput(attrs=number)), "typed"
        elif spec.kind == "choice":
            field = forms.TypedChoiceField(choices=spec.choices, empty_value=None, required=False)
        elif spec.kind == "matadors":
            field = forms.TypedChoiceField(choices=matador_choices(), coerce=int, empty_value=None, required=False)
        elif spec.kind == "bid":
            bids = bid_choices(self.module)
            if bids:
                field = forms.TypedChoiceField(choices=bids, coerce=int, empty_value=None, required=False)
            else:
                field, role = forms.IntegerField(required=False, widget=forms.NumberInput(attrs=number)), "typed"
        elif spec.kind == "cards":
            field, role = forms.CharField(required=False, max_length=200, widget=forms.TextInput(attrs={
                "autocapitalize": "characters", "autocomplete": "off", "spellcheck": "false",
                "placeholder": "CJ SJ HA H10 …"})), "typed"
        elif spec.kind == "seat_order":
            field, role = forms.CharField(required=False, max_length=200, widget=forms.TextInput(attrs={
                "inputmode": "numeric", "autocomplete": "off", "placeholder": "2 1 4"})), "typed"
        elif spec.kind == "seat_set":
            field, layout = forms.TypedMultipleChoiceField(
                choices=self._seats(), coerce=int, required=False, widget=forms.CheckboxSelectMultiple), "choices"
        else:
            field, role = JSONText(required=False, example="…"), "typed"
        field.label = spec.label
        self._add("deal", Item(key, spec.label, spec.help, layout, (key,)), {key: field}, role)

    def _add_compare_fields(self) -> None:
        self._add("compare", Item("compare", _("Which bid is higher?"), "", "group", ()), {})
        for index, legend in enumerate(BID_LABELS):
            section = f"compare-{index}"
            self._add(section, Item(section, legend, "", "group", ()), {})
            self._add(section, Item(f"{section}-bid", _("Bid"), "", "field", (f"{section}-bid",)), {
                f"{section}-bid": forms.ChoiceField(choices=COMPARE_BIDS, required=False, label=_("Bid")),
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
        deal = self._deal(cleaned) if "deal" not in failed else None
        if deal is not None and ("show" in self.data or len(deal) > 1 or not self.deal_keys):
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

    def _deal(self, cleaned: Mapping[str, Any]) -> dict[str, Any] | None:
        """The request's ``deal``: the contract and every shown field that carries a value.

        None when a list cannot be read (a seat left empty, seats mistyped); the error is then at its input.
        """
        deal: dict[str, Any] = {"contract": self.contract}
        for key in self.deal_keys:
            spec = self.specs[key]
            if spec.kind == "per_seat":
                values = [cleaned.get(f"{key}-{seat}") for seat in range(self.players)]
                value: Any = values if any(v is not None for v in values) else None
                if value is not None and None in values:
                    for seat in (seat for seat, v in enumerate(values) if v is None):
                        self.add_error(f"{key}-{seat}", gettext("enter a number for every seat"))
                    return None
            elif spec.kind == "cards":
                value = SEAT_NUMBERS.split(cleaned[key].upper().strip()) if cleaned.get(key) else None
            elif spec.kind == "seat_order":
                value = self._seat_order(key, cleaned.get(key) or "")
                if value is None:
                    return None
            else:
                value = cleaned.get(key)
            if carries(value):
                deal[key] = value
        return deal

    def _seat_order(self, key: str, text: str) -> list[int] | None:
        """Seats typed as the page numbers them (1 … n), in order, as the contract's 0-based list."""
        tokens = [t for t in SEAT_NUMBERS.split(text.strip()) if t]
        if not all(t.isdecimal() and len(t) < 3 and 1 <= int(t) <= self.players for t in tokens):
            self.add_error(key, gettext("Write the seats as numbers from 1 to %(n)s in the order the calls "
                                        "were made, e.g. 2 1 4") % {"n": self.players})
            return None
        return [int(t) - 1 for t in tokens]

    def _compare(self, cleaned: Mapping[str, Any]) -> list[dict[str, Any]]:
        bids = []
        for index in range(len(BID_LABELS)):
            prefix = f"compare-{index}-"
            bid: dict[str, Any] = {}
            chosen = cleaned.get(prefix + "bid")
            if chosen == "kieker":
                bid["kieker"] = True
            elif chosen:
                bid["bid"] = int(chosen)
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
        message = engine_message(err)
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
    return result.explain(seat_label, gettext)
