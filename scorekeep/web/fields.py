"""Form fields the dispute form and the night's forms share: a rule set's options as inputs (`HouseRule`,
`HouseRulesMixin`), JSON and money inputs, and how a page names a seat and words the engine's refusals.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scorekeep.rules import IllegalDeal
from scorekeep.rules.fields import Option, option_shape
from scorekeep.rules.games import Game
from scorekeep.words.labels import (
    CHOICE_LABELS,
    CONTRACT_LABELS,
    NAMED_VALUE_LABELS,
    NONE_LABELS,
    OPTION_LABELS,
    OPTION_WORD_LABELS,
    listed,
    page_words,
    with_unit,
)
from scorekeep.words.money import format_money, in_units, money_input_error, parse_units, symbol

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


class ChoicesTicked(forms.MultipleChoiceField):
    """Some of a list's choices, one box each; the empty value a link sends for "none ticked" is no choice."""

    def to_python(self, value: Any) -> list[str]:
        return [choice for choice in super().to_python(value) if choice != ""]


def _in_new_decimals(typed: str, before: int, now: int) -> str:
    """An amount typed with `before` decimals as the same count of the minor unit with `now` ("0.20", 2 → 0:
    "20"); what is no such amount (a name, a mistake) stays as typed, for the form to judge."""
    units = parse_units(typed, before)
    return typed if units is None else money_units(int(units.scaleb(before)), now)


class HouseRulesMixin:
    """The house-rule inputs of a form as the contract's ``rules`` object; the form sets `module`
    (the game), `preset` and `house_rules` (one `HouseRule` per option)."""

    module: Game
    preset: str
    house_rules: list[HouseRule]

    def _choose_rules(self, data: QueryDict, game: str, money: tuple[str, int] | None = None,
                      linked: bool = False) -> None:
        """Read the preset from `data` (the game's default for a missing or unknown one) and make one
        `HouseRule` per option; complete `data` so what the page shows is what the next submit sends.

        ``shown`` ("game:preset") records whose house rules the page showed: when the game or preset
        changed, the inputs start from the new preset's values instead of keeping the old ones.
        `linked`: a query without ``shown`` is a link (`short_rules`), which carries only the options that
        differ from the preset: those are kept, every other option takes the preset's value.
        """
        preset = data.get("preset") or self.module.DEFAULT_PRESET
        self.preset = preset if preset in self.module.PRESETS else self.module.DEFAULT_PRESET
        data.setdefault("preset", self.preset)
        # `money`: the currency amounts are typed in (a night's), for the options that are money.
        self.house_rules = [HouseRule(key, validator, self.module.PRESETS[self.preset][key],
                                      money if key in self.module.AMOUNTS else None)
                            for key, validator in self.module.OPTIONS.items()]
        # For a game played for money ``shown`` also says the decimals the amounts were typed with
        # ("schafkopf:sauspiel:2"): when the currency changes them (EUR → JPY), each amount typed is kept as the
        # same count of the minor unit, written anew (0.20 → 20), as the rule set's own tariff is — a Japanese
        # host was left with five amounts in cents, each refused as "JPY has no decimals".
        parts = str(data.get("shown") or "").split(":")
        shown, shown_unit = ":".join(parts[:2]), (parts[2] if len(parts) > 2 else "")
        if linked and "shown" not in data:
            for rule in self.house_rules:
                if not any(name in data for name in rule.names):
                    rule.put(data, rule.preset_value)
        elif shown != f"{game}:{self.preset}":
            for key in [k for k in data if k.startswith("rule-")]:
                del data[key]
            for rule in self.house_rules:
                rule.put(data, rule.preset_value)
        else:
            # A browser always sends a select, number or text input; one missing (a hand-made link)
            # keeps the preset's value. An unticked checkbox is the only input that sends nothing (and a
            # list of boxes none of which is ticked).
            for rule in self.house_rules:
                if rule.kind not in ("boolean", "choices") and rule.name not in data:
                    rule.put(data, rule.preset_value)
            if money is not None and shown_unit.isdigit() and int(shown_unit) != money[1]:
                for rule in self.house_rules:
                    if rule.money is not None:
                        data[rule.name] = _in_new_decimals(str(data.get(rule.name, "")), int(shown_unit), money[1])
        data["shown"] = f"{game}:{self.preset}" + (f":{money[1]}" if money is not None else "")

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

    def short_rules(self) -> list[tuple[str, str]]:
        """The house-rule inputs a link needs (`linked` in `_choose_rules`): only those of the options whose
        inputs say something other than the preset — a link of the preset's rules carries none of the ~40
        options. An unticked box that the preset ticks is written "false", so the link still says it."""
        pairs: list[tuple[str, str]] = []
        for rule in self.house_rules:
            values = {name: peek(self, name) for name in rule.names}  # type: ignore[arg-type]
            try:
                same = as_json(rule.value(values)) == as_json(rule.preset_value)
            except ValidationError:
                same = False  # an input the form refuses travels as typed, to be refused again at its input
            if same:
                continue
            if rule.kind == "boolean":
                pairs.append((rule.name, "on" if values[rule.name] else "false"))
                continue
            if rule.kind == "choices" and not values[rule.name]:
                pairs.append((rule.name, ""))  # none ticked, where the preset ticks some: said, not left out
                continue
            data: QueryDict = self.data  # type: ignore[attr-defined]
            pairs += [(name, value) for name in rule.names for value in data.getlist(name)]
        return pairs

    def _peek_rules(self) -> Any:
        """The rule set the inputs describe, to know what else to ask; the preset's while they are invalid."""
        values = {name: peek(self, name) for rule in self.house_rules for name in rule.names}  # type: ignore[arg-type]
        try:
            return self.module.parse_rules(self._rules_request(values))
        except IllegalDeal:
            return self.module.parse_rules({"preset": self.preset})


class NumberOrName(forms.CharField):
    """A whole number, or one of an option's named values written in words (a Sie's "4 × the solo price"; its
    code, "4x_solo", is taken too): the options whose value is a fixed number or a rule (`schafkopf._IntegerOr`)
    where no currency makes the number an amount."""

    def __init__(self, *, lo: int, hi: int, name_words: Mapping[str, object], **kwargs: Any) -> None:
        self.lo, self.hi, self.name_words = lo, hi, dict(name_words)
        super().__init__(strip=True, **kwargs)  # no max_length: its validator would measure the number too

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        return {**super().widget_attrs(widget), "autocomplete": "off", "maxlength": "60"}

    def to_python(self, value: object) -> int | str | None:  # type: ignore[override]
        text = super().to_python(value)
        if text is None or text in self.empty_values:
            return None
        folded = " ".join(text.strip('"').split()).casefold()
        for name, words in self.name_words.items():
            if folded in (name.casefold(), " ".join(str(words).split()).casefold()):
                return name
        if text.isdecimal() and self.lo <= int(text) <= self.hi:
            return int(text)
        raise ValidationError(gettext("Enter a whole number from %(lo)s to %(hi)s, or one of: %(names)s.") % {
            "lo": self.lo, "hi": self.hi, "names": listed(self.name_words.values())}, code="invalid")

    def prepare_value(self, value: object) -> object:
        if isinstance(value, str) and value in self.name_words:
            return str(self.name_words[value])
        return value


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

    def to_python(self, value: object) -> object:  # type: ignore[override]  # any JSON value, not only text
        text = super().to_python(value)
        if text is None or text in self.empty_values:
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
                 name_words: Mapping[str, object] | None = None, **kwargs: Any) -> None:
        self.currency, self.exponent, self.lo, self.hi, self.names = currency, exponent, lo, hi, names
        # Each named value as a player reads and types it ("4 × the solo price"); its code is taken too.
        self.name_words = dict(name_words or {})
        super().__init__(strip=True, **kwargs)

    def _words(self, name: str) -> str:
        return str(self.name_words.get(name, name))

    def _named(self, text: str) -> str | None:
        """The named value `text` stands for: its words in the page's language, or its code (JSON quotes or not)."""
        folded = " ".join(text.strip('"').split()).casefold()
        for name in self.names:
            if folded in (name.casefold(), " ".join(self._words(name).split()).casefold()):
                return name
        return None

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        attrs = {**super().widget_attrs(widget), "autocomplete": "off", "maxlength": "24" if self.names else "12"}
        if not self.names:  # a phone's number pad has no letters for a name
            attrs["inputmode"] = "decimal" if self.exponent else "numeric"
        return attrs

    def to_python(self, value: object) -> int | str | None:  # type: ignore[override]
        text = super().to_python(value)
        if text is None or text in self.empty_values:
            return None
        named = self._named(text)
        if named is not None:
            return named
        units = parse_units(text, self.exponent)
        if units is None:
            error = money_input_error(text, self.currency, self.exponent)
            if self.names:
                error = gettext("%(error)s Or write one of: %(names)s.") % {
                    "error": error, "names": gettext(", ").join(self._words(name) for name in self.names)}
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
        if isinstance(value, str) and value in self.names:
            return self._words(value)
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

    def __init__(self, key: str, validator: Option, preset_value: object,
                 money: tuple[str, int] | None = None) -> None:
        self.key = key
        self.money = money  # (currency, decimals of its minor unit) where the option is money and a night has one
        self.name = f"rule-{key}"
        self.none_name = f"{self.name}-none"
        self.preset_value = preset_value
        self.kind, self.validator, self.nullable = option_shape(validator)
        if self.kind == "json" and getattr(self.validator, "choices", None):
            # A list of some of its choices (Schafkopf's variants played): a box for each, never JSON to type.
            self.kind = "choices"
        # A nullable choice offers "none" inside its select; the other nullable inputs get a checkbox.
        self.none_box = self.nullable and self.kind != "choice"

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, self.none_name) if self.none_box else (self.name,)

    @property
    def named(self) -> bool:
        """Whether the option is a whole number or one of some named values (a Sie's price or "4x_solo")."""
        return bool(getattr(self.validator, "names", None))

    @property
    def layout(self) -> str:
        if self.none_box:
            return "nullable"
        return {"boolean": "check", "choices": "choices"}.get(self.kind, "field")

    def fields(self) -> dict[str, forms.Field]:
        label = OPTION_WORD_LABELS.get(self.key) or OPTION_LABELS.get(self.key, self.key)
        if self.kind == "boolean":
            field: forms.Field = forms.BooleanField(required=False, label=label)
        elif self.money is not None:  # an amount (integer), or an amount or a name (a Tout's fixed price or "double")
            currency, exponent = self.money
            field = MoneyField(required=not self.nullable, label=with_unit(label, symbol(currency)), currency=currency,
                               exponent=exponent, lo=self.validator.lo, hi=self.validator.hi,  # type: ignore[union-attr]
                               names=(names := tuple(getattr(self.validator, "names", ()))),
                               name_words={name: NAMED_VALUE_LABELS.get((self.key, name), name) for name in names})
        elif self.named:  # a whole number or a named value, with no currency to count it in
            names = tuple(self.validator.names)  # type: ignore[union-attr]
            field = NumberOrName(required=not self.nullable, label=label,
                                 lo=self.validator.lo, hi=self.validator.hi,  # type: ignore[union-attr]
                                 name_words={name: NAMED_VALUE_LABELS.get((self.key, name), name) for name in names})
        elif self.kind == "integer":
            lo, hi = self.validator.lo, self.validator.hi  # type: ignore[union-attr]
            field = forms.IntegerField(required=not self.nullable, label=label,
                                       widget=forms.NumberInput(attrs={"min": lo, "max": hi, "inputmode": "numeric"}))
        elif self.kind == "choices":
            field = ChoicesTicked(choices=[(c, CHOICE_LABELS.get((self.key, c)) or CONTRACT_LABELS.get(c, c))
                                           for c in self.validator.choices],  # type: ignore[union-attr]
                                  required=False, label=label, widget=forms.CheckboxSelectMultiple)
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

    def data(self, value: object) -> dict[str, str | list[str]]:
        """How `value` is written in the query string (to fill the inputs with a preset's value)."""
        if value is None:
            return {self.none_name: "on"} if self.none_box else {self.name: ""}
        if self.kind == "boolean":
            return {self.name: "on"} if value else {}
        if self.money is not None:
            return {self.name: money_units(value, self.money[1]) if isinstance(value, int) else str(value)}
        if self.kind in ("integer", "choice") or self.named:
            return {self.name: str(value)}
        if self.kind == "choices":  # each ticked box sends its choice; none ticked: the one empty value
            return {self.name: [str(choice) for choice in value] or [""]}  # type: ignore[attr-defined]
        return {self.name: json_text(value)}

    def put(self, data: QueryDict, value: object) -> None:
        """Fill the option's inputs in `data` with `value` (as `data` writes it)."""
        for name, written in self.data(value).items():
            if isinstance(written, list):
                data.setlist(name, written)
            else:
                data[name] = written

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
