"""The card-night forms: start a night, seat another table, change a night's settings.

They are the seam between the night pages and the rules engine, built from the engine itself as
`forms.DisputeForm` is: the game's presets, one `forms.HouseRule` per option (inputs named
``rule-<option>``), and `GAMES[game].parse_rules` in `clean()`, whose `IllegalDeal` lands at the
option's input. Bock, the Skat series, the Kop round and the Schafkopf currency are asked only where
the game and rule set have them. Each form hands the view the keyword arguments of
`nights.start_night`, `nights.seat_table` or `nights.change_settings`.

The forms are always bound, to what was sent or (on a first visit) to defaults, so a refresh of the
game-dependent parts (htmx, or the "Update the form" button without JavaScript) keeps everything
typed. A refresh is `quiet`: it shows no errors for what is not filled in yet.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.forms.utils import ErrorDict
from django.http import QueryDict
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from scorekeep.models import CardNight, Club, NightRevision
from scorekeep.nights import ledger
from scorekeep.nights.entry import SUIT_SIGNS
from scorekeep.nights.settlement import (
    DEFAULT_STEP,
    STEPS,
    Extras,
    SettlementError,
    options_in_words,
    parse_money,
    plain,
    settle_night,
    stored,
)
from scorekeep.rules import DEFAULT_GAME, GAMES, IllegalDeal, bock, standing
from scorekeep.rules.games import Game
from scorekeep.web.fields import HouseRule, HouseRulesMixin, as_json, engine_message, peek
from scorekeep.words.cells import DATE_FORMAT
from scorekeep.words.labels import (
    CHOICE_LABELS,
    CONTRACT_LABELS,
    GAME_LABELS,
    NAMED_VALUE_LABELS,
    NONE_LABELS,
    OPTION_LABELS,
    OPTION_WORD_LABELS,
    PRESET_LABELS,
    listed,
    preformatted,
    translated,
    with_unit,
)
from scorekeep.words.money import CURRENCY, currency_exponent, format_money, money_input_error

Label = StrOrPromise  # str | Promise, typed as a lazy *string* (gettext_lazy's)

DEFAULT_PLAYERS = 4
LONGEST_NAME = 40  # Player.name

# How seats and sitting out work at each game, for the players' help text: the engine's words for its
# seating (rules/seating.py, which ledger.seating follows).
SEATING_HELP: dict[str, Label] = {game: translated(module.SEATING) for game, module in GAMES.items()}

# The settings a night keeps, as people name them (history lines).
SETTING_LABELS: dict[str, Label] = {
    "date": _("date"), "place": _("place"), "preset": _("rule set"), "series_length": _("series length"),
    "round_length": _("deals per round"), "currency": _("currency"), "bock_events": _("Bock events"),
    "bock_length": _("Bock deals"), "finished": _("status"), "print_language": _("printout language"),
}

# The printout's language: the reader's own, or one of the site's languages (each named in itself).
PRINT_LANGUAGES = [("", _("the reader's language")), *settings.LANGUAGES]

# htmx: an input that changes which inputs there are re-renders the region holding them; the
# request carries "refresh", so the view only re-renders (nothing is stored, no errors shown).
REFRESH_ALL = "night-form-body"
REFRESH_EXTRAS = "night-extras"
REFRESH_SEATING = "seating-players"
REFRESH_DEALER = "first-dealer"


def refresh_attrs(url: str, target: str) -> dict[str, str]:
    return {"hx-post": url, "hx-trigger": "change", "hx-target": f"#{target}", "hx-swap": "outerHTML",
            "hx-include": "closest form", "hx-vals": '{"refresh": "1"}'}


# --- words for rules and settings -------------------------------------------------------------

# Options whose engine label lists the codes of their values, and those values: in words (rules/option_words.py).
MORE_CHOICE_LABELS = NAMED_VALUE_LABELS
MORE_OPTION_LABELS = OPTION_WORD_LABELS

CARD_LISTS = frozenset({"trump_order"})  # lists of cards ("HA", "C10"): written with suit signs
PLACINGS = frozenset({"round_placing"})  # placing points, first place first: "4 / 3 / 2 / 1"


def preset_label(game: str, preset: str) -> Label:
    return PRESET_LABELS.get((game, preset), preset)


def option_label(key: str) -> str:
    return str(MORE_OPTION_LABELS.get(key) or OPTION_LABELS.get(key, key))


def card_words(card: str) -> str:
    """A card as the table writes it: "HA" → "♥A", "C10" → "♣10"."""
    return SUIT_SIGNS.get(card[:1], card[:1]) + card[1:]


def name_words(key: str, value: str) -> str:
    """A named value (a choice, a contract) in words; a key nobody labelled at least without underscores."""
    label = CHOICE_LABELS.get((key, value)) or MORE_CHOICE_LABELS.get((key, value)) or CONTRACT_LABELS.get(value)
    return str(label) if label else value.replace("_", " ")


def applied(value: object, preset_value: object) -> object:
    """An option's value as the engine applies it. Kop's per-contract objects keep the preset's number
    for a contract they leave out, and a single whole number stands for every contract (kop.PerContract)."""
    if isinstance(preset_value, dict):
        if isinstance(value, dict):
            return {**preset_value, **value}
        if isinstance(value, int) and not isinstance(value, bool):
            return dict.fromkeys(preset_value, value)
    return value


def value_words(key: str, value: object, money: tuple[str, int | None] | None = None) -> str:
    """An option's value as a person reads it: yes/no, the choice's words, "none: …", cards with suit
    signs, placing points "4 / 3 / 2 / 1", a list of names, "Cicha 4, Zolo 5" for a number per contract;
    an amount of money (`money`: the night's currency and decimals, for an option that is money) as money."""
    if money is not None and isinstance(value, int) and not isinstance(value, bool):
        return format_money(value, money[0], exponent=money[1])
    if value is None:
        return str(NONE_LABELS.get(key, _("none")))
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, str):
        return name_words(key, value)
    if isinstance(value, (list, tuple)):
        if not value:
            return gettext("none")
        if key in CARD_LISTS:
            return " ".join(card_words(str(card)) for card in value)
        if key in PLACINGS:
            return " / ".join(str(points) for points in value)
        return listed(value_words(key, v) for v in value)
    if isinstance(value, dict):
        return listed(f"{name_words(key, str(k))} {value_words(key, v)}" for k, v in value.items())
    return str(value)


@dataclass(frozen=True, slots=True)
class RuleWords:
    label: str
    value: str
    preset_value: str


def _money(night: CardNight, key: str) -> tuple[str, int | None] | None:
    """The night's currency and decimals where the option is money (its tariff), else None."""
    return (night.currency, night.exponent) if key in GAMES[night.game].AMOUNTS else None


def house_rules_in_words(night: CardNight) -> list[RuleWords]:
    """Each house rule of the night (an option that differs from its preset), in words."""
    preset = GAMES[night.game].PRESETS.get(night.preset, {})
    return [RuleWords(option_label(key), value_words(key, applied(value, preset.get(key)), _money(night, key)),
                      value_words(key, preset.get(key), _money(night, key)))
            for key, value in night.house_rules.items()]


def rules_in_words(night: CardNight) -> list[RuleWords]:
    """Every option the night's tables play by (the preset's values with the house rules applied)."""
    module = GAMES[night.game]
    preset = module.PRESETS.get(night.preset, {})
    return [RuleWords(option_label(key), value_words(key, applied(night.house_rules.get(key, preset.get(key)),
                                                                  preset.get(key)), _money(night, key)),
                      value_words(key, preset.get(key), _money(night, key)))
            for key in module.OPTIONS]


@dataclass(frozen=True, slots=True)
class BockWords:
    """Where the rule set has Bock: the events that start a Bock round and how long one lasts."""

    events: list[str]
    length: str


def deals_words(n: int) -> str:
    return ngettext("%(n)s deal", "%(n)s deals", n) % {"n": n}


def night_bock_words(night: CardNight) -> BockWords | None:
    if not ledger.bock_allowed(night):
        return None
    return BockWords([str(translated(event.label)) for _key, event in ledger.bock_events(night)],
                     deals_words(night.bock_length) if night.bock_length
                     else gettext("one round (a deal for every player at the table)"))


def setting_words(key: str, value: object, game: str = "") -> str:
    if key == "bock_events":
        labels = {k: translated(event.label) for k, event in bock.events(game).items()} if game else {}
        if not value or not isinstance(value, Iterable):
            return gettext("none")
        return listed(str(labels.get(k, k)) for k in value)
    if value is None:
        return {"series_length": gettext("open-ended"), "round_length": gettext("the whole night"),
                "bock_length": gettext("one round")}.get(key, gettext("none"))
    if key == "place" and not value:
        return gettext("none")
    if key == "finished":
        return gettext("finished") if value else gettext("open for deals")
    if key == "print_language":
        return str(dict(PRINT_LANGUAGES).get(str(value), value))
    if key == "bock_length" and isinstance(value, int):
        return deals_words(value)
    return str(value)


@dataclass(frozen=True, slots=True)
class Change:
    what: str
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    by: str
    at: datetime.datetime
    reason: str
    changes: list[Change]


def changes(game: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Change]:
    """What a settings change changed, setting by setting; house rules option by option, each
    compared as it applies (the preset's value where the night had no house rule)."""
    module = GAMES[game]
    out = []
    for key in ("date", "place"):
        if old.get(key) != new.get(key):
            out.append(Change(str(SETTING_LABELS[key]), setting_words(key, old.get(key)),
                              setting_words(key, new.get(key))))
    if old.get("preset") != new.get("preset"):
        out.append(Change(str(SETTING_LABELS["preset"]), str(preset_label(game, old.get("preset", ""))),
                          str(preset_label(game, new.get("preset", "")))))
    old_preset = module.PRESETS.get(old.get("preset", ""), {})
    new_preset = module.PRESETS.get(new.get("preset", ""), {})
    old_house, new_house = old.get("house_rules") or {}, new.get("house_rules") or {}
    for key in module.OPTIONS:
        was = applied(old_house.get(key, old_preset.get(key)), old_preset.get(key))
        now = applied(new_house.get(key, new_preset.get(key)), new_preset.get(key))
        if as_json(was) != as_json(now):
            money = key in module.AMOUNTS
            out.append(Change(option_label(key),
                              value_words(key, was, (old.get("currency") or "EUR", old.get("amount_exponent"))
                                          if money else None),
                              value_words(key, now, (new.get("currency") or "EUR", new.get("amount_exponent"))
                                          if money else None)))
    for key in ("series_length", "round_length", "currency", "bock_events", "bock_length", "finished",
                "print_language"):
        if old.get(key, False if key == "finished" else None) != new.get(key, False if key == "finished" else None):
            out.append(Change(str(SETTING_LABELS[key]), setting_words(key, old.get(key), game),
                              setting_words(key, new.get(key), game)))
    if (old.get("settlement") or {}) != (new.get("settlement") or {}):  # the settlement page's options
        out.append(Change(gettext("Settlement"),
                          _settlement_words(old.get("settlement"), old.get("currency"), old.get("amount_exponent")),
                          _settlement_words(new.get("settlement"), new.get("currency"), new.get("amount_exponent"))))
    return out


def _settlement_words(options: Mapping[str, Any] | None, currency: str | None, exponent: int | None) -> str:
    """The settlement page's options in words (`settlement.options_in_words`)."""
    return options_in_words(dict(options or {}), currency or "EUR", exponent) or "—"


def history(night: CardNight, revisions: Sequence[NightRevision]) -> list[HistoryEntry]:
    """The night's settings changes, newest first, in words."""
    return [HistoryEntry(rev.by, rev.at, rev.reason, changes(night.game, rev.old, rev.new))
            for rev in reversed(revisions)]


# --- the forms ------------------------------------------------------------------------------------

class QuietForm(forms.Form):
    """A bound form that, when `quiet`, shows no errors: a refresh of the page while it is filled in."""

    quiet = False
    _errors: ErrorDict | None  # Django's (the stubs leave it out): the errors a quiet form keeps from `errors`

    @property
    def errors(self) -> ErrorDict:
        errors = super().errors
        return ErrorDict() if self.quiet else errors

    def describe(self) -> None:
        """Tie each input to its messages and help, for screen readers."""
        for name, field in self.fields.items():
            if not field.widget.is_hidden:
                field.widget.attrs["aria-describedby"] = f"err-{name}" + (f" help-{name}" if field.help_text else "")


class SeatingMixin:
    """The players of a table in clockwise order (as many inputs as chosen) and who deals first."""

    fields: dict[str, forms.Field]
    data: QueryDict
    game: str
    url: str

    def _add_players(self, data: QueryDict, target: str) -> None:
        allowed = ledger.PLAYERS[self.game]
        lo, hi = allowed.start, allowed.stop - 1
        count = data.get("count", "")
        # Names typed into inputs beyond the count chosen are kept on the page: a count refused, or one
        # lowered without JavaScript and without "Update the form", must not drop them.
        typed = [p for p in range(hi) if data.get(f"player-{p}", "").strip()]
        filled = typed[-1] + 1 if typed else 0
        self.count_error = ""
        # Compared as text: int() of a few thousand digits raises (Python's limit), a server error.
        if count in {str(n) for n in allowed}:
            self.count = int(count)
            if filled > self.count and not self.quiet:  # type: ignore[attr-defined]
                self.count_error = gettext(
                    "%(filled)s names are filled in, but %(count)s players chosen: choose %(filled)s players, or "
                    "empty the names of those not at this table") % {"filled": filled, "count": self.count}
                self.count = filled
        else:
            default = DEFAULT_PLAYERS if DEFAULT_PLAYERS in allowed else lo
            self.count = min(max(default, filled), hi)
            if "count" in data:  # sent, not a first visit: say what is allowed
                self.count_error = gettext("Choose how many players sit at the table: %(lo)s to %(hi)s") % {
                    "lo": lo, "hi": hi}
            data["count"] = str(self.count)
        self.fields["count"] = forms.TypedChoiceField(
            label=_("Players at the table"), coerce=int,
            choices=[(n, gettext("%(n)s players") % {"n": n}) for n in allowed],
            widget=forms.Select(attrs=refresh_attrs(self.url, target)))
        for position in range(self.count):
            self.fields[f"player-{position}"] = forms.CharField(
                label=gettext("Player %(n)s") % {"n": position + 1}, required=False, max_length=LONGEST_NAME,
                widget=forms.TextInput(attrs={"list": "known-players", "autocomplete": "off",
                                              "autocapitalize": "words", "maxlength": LONGEST_NAME,
                                              # a name changed re-renders only "Deals first", which lists
                                              # them: the inputs being typed in are not swapped
                                              **refresh_attrs(self.url, REFRESH_DEALER)}))
        dealer = data.get("first_dealer", "")
        if dealer not in {str(p) for p in range(self.count)}:
            data["first_dealer"] = "0"
        names = [" ".join(data.get(f"player-{p}", "").split()) for p in range(self.count)]
        self.fields["first_dealer"] = forms.TypedChoiceField(
            label=_("Deals first"), coerce=int,
            choices=[(p, names[p] or gettext("Player %(n)s") % {"n": p + 1}) for p in range(self.count)])

    @property
    def player_fields(self) -> list[forms.BoundField]:
        return [self[f"player-{position}"] for position in range(self.count)]  # type: ignore[index]

    @property
    def seating_help(self) -> Label:
        return SEATING_HELP[self.game]

    def _clean_players(self, cleaned: Mapping[str, Any]) -> list[str] | None:
        """The names in seating order: each filled in, none twice (names match without regard to case)."""
        names: list[str] = []
        seen: dict[str, int] = {}
        ok = True
        if self.count_error:
            self.add_error("count", self.count_error)  # type: ignore[attr-defined]
            ok = False
        for position in range(self.count):
            field = f"player-{position}"
            if field not in cleaned:  # too long: the field's own error is already there
                ok = False
                continue
            name = " ".join((cleaned.get(field) or "").split())
            if not name:
                self.add_error(field, gettext("Enter the name of player %(n)s") % {"n": position + 1})  # type: ignore[attr-defined]
                ok = False
            elif name.casefold() in seen:
                self.add_error(field, gettext("%(name)s is already at this table (player %(n)s); enter "  # type: ignore[attr-defined]
                                              "each player once") % {"name": name, "n": seen[name.casefold()] + 1})
                ok = False
            else:
                seen[name.casefold()] = position
            names.append(name)
        return names if ok else None


class SettingsFields(HouseRulesMixin, QuietForm):
    """Date, place, rule set and house rules, and what the game adds: the Skat series, the Kop
    round, the Schafkopf currency, and Bock where the rule set has it."""

    def __init__(self, data: QueryDict, *, game: str, url: str, quiet: bool = False,
                 unit: tuple[str, int] | None = None) -> None:
        data = data.copy()
        super().__init__(data)
        self.quiet = quiet
        self.url = url
        self.game = game
        self.module: Game = GAMES[game]
        self.fields["date"] = forms.DateField(label=_("Date"),
                                             widget=forms.DateInput(attrs={"type": "date"}, format=DATE_FORMAT))
        self.fields["place"] = forms.CharField(label=_("Place"), max_length=100, required=False,
                                               help_text=_("optional, e.g. the club's room or a host's kitchen"))
        data.setdefault("date", timezone.localdate().isoformat())
        self._choose_rules(data, game, self._money_unit(data, unit) if self.module.MONEY else None)
        self.fields["preset"] = forms.ChoiceField(
            label=_("Rule set"), choices=[(p, preset_label(game, p)) for p in self.module.PRESETS],
            widget=forms.Select(attrs=refresh_attrs(url, REFRESH_ALL)))
        self.fields["shown"] = forms.CharField(widget=forms.HiddenInput, required=False)
        for rule in self.house_rules:
            fields = rule.fields()
            if rule.key in ("bock", "round_placing"):  # they decide which further inputs there are
                for field in fields.values():
                    field.widget.attrs.update(refresh_attrs(url, REFRESH_EXTRAS))
            self.fields.update(fields)
        self.rules = self._peek_rules()
        self._add_extras(data)

    def _add_extras(self, data: QueryDict) -> None:
        self.fields["print_language"] = forms.ChoiceField(
            label=_("Language of the printout"), choices=PRINT_LANGUAGES, required=False,
            help_text=_("the list and its PDF in this language, whoever prints it"))
        series = ledger.series_lengths(self.game)
        if series:
            self.fields["series_length"] = forms.TypedChoiceField(
                label=_("Series"), coerce=int, empty_value=None, required=False,
                choices=[*((str(n), gettext("%(n)s deals") % {"n": n}) for n in series),
                         ("", gettext("open-ended"))],
                help_text=_("passed deals count as deals of the series"))
            data.setdefault("series_length", str(series[0]))
        if self.has_round:
            self.fields["round_length"] = forms.IntegerField(
                label=_("Deals per round"), min_value=1, max_value=999, required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                help_text=_("for the round placing; empty: the whole night is one round"))
        if GAMES[self.game].MONEY:
            self.fields["currency"] = forms.CharField(
                label=_("Currency"), max_length=3, min_length=3,
                widget=forms.TextInput(attrs={"autocapitalize": "characters", "autocomplete": "off",
                                              "size": 4, **refresh_attrs(self.url, REFRESH_ALL)}),
                help_text=_("three letters, e.g. EUR, CHF or JPY; the tariff is typed in it: 0.10 for ten cents, "
                            "10 for ten yen"))
            data.setdefault("currency", "EUR")
        if self.has_bock:
            self.fields["bock_events"] = forms.MultipleChoiceField(
                label=_("A Bock round starts after"), required=False, widget=forms.CheckboxSelectMultiple,
                choices=[(key, translated(event.label)) for key, event in bock.events(self.game).items()])
            self.fields["bock_length"] = forms.IntegerField(
                label=_("Bock deals per event"), min_value=1, max_value=99, required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                help_text=_("empty: one round, a deal for every player at the table"))

    @staticmethod
    def _money_unit(data: QueryDict, unit: tuple[str, int] | None) -> tuple[str, int]:
        """The currency the tariff is typed in and the decimals of its minor unit: the currency typed (EUR
        while none is valid), with the night's own decimals while it is the night's (`unit`)."""
        typed = str(data.get("currency") or "").strip().upper()
        currency = typed if CURRENCY.fullmatch(typed) else "EUR"
        if unit is not None and unit[0] == currency:
            return unit
        return currency, currency_exponent(currency)

    # --- what the inputs describe so far ------------------------------------------------------

    def _peek(self, name: str) -> Any:
        return peek(self, name)

    @property
    def has_bock(self) -> bool:
        return bock.allowed(self.game, self.rules)

    @property
    def has_round(self) -> bool:
        return bool(standing.round_placing(self.game, self.rules))

    @property
    def rule_fields(self) -> list[tuple[HouseRule, list[forms.BoundField]]]:
        return [(rule, [self[name] for name in rule.names]) for rule in self.house_rules]

    @property
    def rules_open(self) -> bool:
        """Show the house rules when they differ from the rule set's or one has an error."""
        values = {name: self._peek(name) for rule in self.house_rules for name in rule.names}
        return len(self._rules_request(values)) > 1 or any(rule.name in self.errors or rule.none_name in self.errors
                                                            for rule in self.house_rules)

    # --- cleaning -----------------------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or self.cleaned_data  # None: Django keeps cleaned_data
        if self.data.get("preset") not in self.module.PRESETS:
            self.add_error("preset", gettext("Choose one of the rule sets listed"))
        complete = True
        for rule in self.house_rules:
            if any(name in self._errors for name in rule.names):  # type: ignore[operator]
                complete = False
                continue
            try:
                rule.value(cleaned)
            except ValidationError as err:
                self.add_error(rule.name, err)
                complete = False
        if complete:
            request = self._rules_request(cleaned)
            try:
                self.module.parse_rules(request)
            except IllegalDeal as err:
                self._rules_error(err)
            else:
                self.house_rules_value = {k: v for k, v in request.items() if k != "preset"}
        currency = cleaned.get("currency")
        if currency is not None:
            cleaned["currency"] = currency = currency.strip().upper()
            if not CURRENCY.fullmatch(currency):
                self.add_error("currency", gettext("Write the currency as three letters, e.g. EUR"))
        return cleaned

    def _rules_error(self, err: IllegalDeal) -> None:
        """The engine's message at the option it names (``rules.kontra`` → ``rule-kontra``)."""
        head, _sep, rest = err.field.partition(".")
        name = f"rule-{rest.split('.')[0]}" if head == "rules" and rest and rest != "preset" else "preset"
        self.add_error(name if name in self.fields else None, engine_message(err))

    def settings(self) -> dict[str, Any]:
        """The night's settings as `nights.start_night` and `nights.change_settings` take them."""
        cleaned = self.cleaned_data
        return {
            "date": cleaned["date"],
            "place": " ".join(cleaned.get("place", "").split()),
            "preset": self.preset,
            "house_rules": self.house_rules_value,
            "series_length": cleaned.get("series_length"),
            "round_length": cleaned.get("round_length"),
            "currency": cleaned.get("currency") or "EUR",
            "bock_events": list(cleaned.get("bock_events") or []),
            "bock_length": cleaned.get("bock_length"),
            "print_language": cleaned.get("print_language") or "",
        }


class NightForm(SeatingMixin, SettingsFields):
    """Start a card night: the settings, the game, and the first table's players and dealer."""

    data: QueryDict  # a mutable copy (SeatingMixin completes it)

    def __init__(self, data: QueryDict, *, url: str, quiet: bool = False, clubs: Sequence[Club] = ()) -> None:
        data = data.copy()
        self.clubs = {str(club.pk): club for club in clubs}
        game = data.get("game") or DEFAULT_GAME
        self.game_error = game not in GAMES
        game = game if game in GAMES else DEFAULT_GAME
        shown_game = data.get("shown", "").partition(":")[0]
        if shown_game and shown_game != game:
            # Another game was on the page: its rule set and its extras mean nothing here.
            for key in [k for k in data if k.startswith("rule-") or k in (
                    "preset", "series_length", "round_length", "currency", "bock_events", "bock_length")]:
                del data[key]
        data["game"] = game
        super().__init__(data, game=game, url=url, quiet=quiet)
        self.fields["game"] = forms.ChoiceField(label=_("Game"), choices=list(GAME_LABELS.items()),
                                                widget=forms.Select(attrs=refresh_attrs(url, REFRESH_ALL)))
        if self.clubs:
            # The club the night belongs to (its hosts run it, its players sit at it); the host's first
            # club unless another was asked for. A host without a club gets one at the first night.
            self.fields["club"] = forms.ChoiceField(
                label=pgettext_lazy("association", "Club"),
                choices=[(key, club.name) for key, club in self.clubs.items()],
                error_messages={"invalid_choice": preformatted(gettext("Choose one of your clubs: %(clubs)s."), {
                    "clubs": listed(club.name for club in self.clubs.values())})})
            self.data.setdefault("club", next(iter(self.clubs)))
        self._add_players(self.data, REFRESH_EXTRAS)
        self.describe()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or self.cleaned_data  # None: Django keeps cleaned_data
        if self.game_error:
            self.add_error("game", gettext("Choose one of the games listed"))
        self.players = self._clean_players(cleaned)
        return cleaned

    def start(self) -> dict[str, Any]:
        """The keyword arguments of `nights.start_night`."""
        club = {"club": self.clubs[self.cleaned_data["club"]]} if self.clubs else {}
        return {"game": self.game, "players": self.players, "first_dealer": self.cleaned_data["first_dealer"],
                **club, **self.settings()}


class SettingsForm(SettingsFields):
    """Change a night's settings; who changes them and why go into the history."""

    def __init__(self, data: QueryDict, *, night: CardNight, url: str, quiet: bool = False) -> None:
        super().__init__(data, game=night.game, url=url, quiet=quiet, unit=(night.currency, night.exponent))
        self.fields["by"] = forms.CharField(label=_("Your name"), max_length=LONGEST_NAME, required=False,
                                            widget=forms.TextInput(attrs={"list": "known-players",
                                                                          "autocomplete": "off"}))
        self.fields["reason"] = forms.CharField(label=_("Why (optional)"), max_length=200, required=False)
        self.describe()

    @staticmethod
    def data_of(night: CardNight, by: str = "") -> QueryDict:
        """The inputs as the night's current settings fill them."""
        module = GAMES[night.game]
        data = QueryDict(mutable=True)
        data.update({"date": night.date.isoformat(), "place": night.place, "preset": night.preset,
                     "shown": f"{night.game}:{night.preset}", "currency": night.currency,
                     "series_length": "" if night.series_length is None else str(night.series_length),
                     "round_length": "" if night.round_length is None else str(night.round_length),
                     "bock_length": "" if night.bock_length is None else str(night.bock_length), "by": by,
                     "print_language": night.print_language})
        data.setlist("bock_events", list(night.bock_events))
        values = {**module.PRESETS.get(night.preset, {}), **night.house_rules}
        for key, validator in module.OPTIONS.items():
            rule = HouseRule(key, validator, values.get(key),
                             (night.currency, night.exponent) if key in module.AMOUNTS else None)
            rule.put(data, values.get(key))
        return data


class SeatingForm(SeatingMixin, QuietForm):
    """Seat another table of the night: its players in clockwise order and who deals first."""

    data: QueryDict  # a mutable copy (SeatingMixin completes it)

    def __init__(self, data: QueryDict, *, night: CardNight, url: str, quiet: bool = False) -> None:
        data = data.copy()
        super().__init__(data)
        self.quiet = quiet
        self.game = night.game
        self.url = url
        self._add_players(self.data, REFRESH_SEATING)
        self.describe()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or self.cleaned_data  # None: Django keeps cleaned_data
        self.players = self._clean_players(cleaned)
        return cleaned


# --- the settlement's form (the host's choices for settling up) ---------------------------------------

RATE_EXTRA_DECIMALS = 2  # a hundredth of the minor unit (of a cent, of a yen) a point is the finest rate
PERCENT = re.compile(r"\d{1,3}")


# --- the host's form ------------------------------------------------------------------------------

def _step_label(step: int, currency: str, exponent: int) -> str:
    if step == 1 and exponent == 2:
        return gettext("exact to the cent (%(amount)s)") % {"amount": format_money(1, currency, exponent=exponent)}
    if step == 1:  # a currency without cents (whole yen) or with finer ones
        return gettext("exact (%(amount)s)") % {"amount": format_money(1, currency, exponent=exponent)}
    return format_money(step, currency, exponent=exponent)


class SettlementForm(forms.Form):
    """The settlement options, money in units of the night's currency. Only the inputs the game uses:
    no rate for Schafkopf (its amounts are money), basis and the fee per lost game only for Skat."""

    rate = forms.CharField(label=_("Money per point"), required=False, max_length=20)
    currency = forms.CharField(label=_("Currency"), required=False, max_length=3,
                               help_text=_("three letters, e.g. EUR or CHF"))
    basis = forms.ChoiceField(label=_("Settle on"), choices=[
        ("list", _("the list points")), ("performance", _("the performance (list points + Seeger-Fabian)"))])
    step = forms.TypedChoiceField(label=_("Round each balance to"), coerce=int)
    entry_fee = forms.CharField(label=_("Entry fee per player"), required=False, max_length=20)
    lost_game_fee = forms.CharField(label=_("Fee per lost game"), required=False, max_length=20,
                                    help_text=_("paid by the declarer into the pot for every game lost"))
    prize_split = forms.CharField(label=_("Prize split"), required=False, max_length=60,
                                  help_text=_("percent of the pot per place, first place first, e.g. 50/30/20"))

    def __init__(self, data: Any = None, *, night: CardNight) -> None:
        super().__init__(data, initial=self.data_of(night))
        self.night = night
        currency = night.currency
        if night.money:
            del self.fields["rate"], self.fields["currency"]
        else:
            self.fields["rate"].help_text = gettext(
                "in %(currency)s, e.g. 0.01 for a cent a point; empty: the points are not played for money, "
                "0: only the entry fees and prizes are settled") % {"currency": currency}
        if not night.seeger_fabian:  # the performance and the lost games are the Skat list's
            del self.fields["basis"], self.fields["lost_game_fee"]
        exponent = night.exponent
        step_field = self.fields["step"]
        assert isinstance(step_field, forms.ChoiceField)
        step_field.choices = [(step, _step_label(step, currency, exponent)) for step in STEPS]
        steps = {"steps": listed(_step_label(step, currency, exponent) for step in STEPS)}
        # "invalid_choice" is formatted again with the value sent, "required" is not.
        self.fields["step"].error_messages["invalid_choice"] = preformatted(gettext("Round to one of %(steps)s."),
                                                                            steps)
        self.fields["step"].error_messages["required"] = gettext("Round to one of %(steps)s.") % steps
        if "basis" in self.fields:
            self.fields["basis"].error_messages["invalid_choice"] = gettext(
                "Settle on the list points or on the performance.")
            self.fields["basis"].error_messages["required"] = self.fields["basis"].error_messages["invalid_choice"]
        for name in ("rate", "entry_fee", "lost_game_fee"):
            if name in self.fields:
                self.fields[name].widget.attrs.update({"inputmode": "decimal", "autocomplete": "off"})
        self.fields["prize_split"].widget.attrs["autocomplete"] = "off"
        if "currency" in self.fields:
            self.fields["currency"].widget.attrs.update({"autocapitalize": "characters", "autocomplete": "off",
                                                        "size": 4})
            self.fields["currency"].error_messages["max_length"] = gettext(
                "Write the currency as three letters, e.g. EUR or CHF.")
        for name in ("entry_fee", "lost_game_fee"):
            if name in self.fields:
                self.fields[name].label = with_unit(self.fields[name].label, currency)
        for name in ("rate", "entry_fee", "lost_game_fee", "prize_split"):
            if name in self.fields:
                self.fields[name].error_messages["max_length"] = gettext(
                    "Write at most %(limit_value)d characters here.")
        # Tie each input to its messages and help, for screen readers.
        for name, field in self.fields.items():
            field.widget.attrs["aria-describedby"] = f"err-{name}" + (f" help-{name}" if field.help_text else "")

    @staticmethod
    def data_of(night: CardNight) -> dict[str, Any]:
        """The stored options as the inputs show them (money in units of the currency)."""
        options = stored(night)
        data: dict[str, Any] = {"currency": night.currency, "basis": options.get("basis", "list"),
                                "step": options.get("step", DEFAULT_STEP)}
        try:
            if options.get("rate") is not None:
                data["rate"] = plain(Decimal(str(options["rate"])).scaleb(-night.exponent), night.exponent)
            for name in ("entry_fee", "lost_game_fee"):
                if options.get(name):
                    data[name] = plain(Decimal(options[name]).scaleb(-night.exponent), night.exponent)
        except (ArithmeticError, TypeError, ValueError):
            pass  # a stored value the page cannot read: the input stays empty, the page names the problem
        split = options.get("prize_split")
        if isinstance(split, list | tuple) and split:
            data["prize_split"] = "/".join(str(p) for p in split)
        return data

    # Each input parsed on its own; what they mean together is checked by the settlement in clean().

    @property
    def money_unit(self) -> tuple[str, int]:
        """The currency the money inputs are in, and the decimals of its minor unit: the one typed beside them
        (when it is three letters) or the night's."""
        typed = str(self.data.get("currency", "")).strip().upper() if "currency" in self.fields else ""
        if CURRENCY.fullmatch(typed) and typed != self.night.currency:
            return typed, currency_exponent(typed)
        return self.night.currency, self.night.exponent

    def clean_rate(self) -> Decimal | None:
        text = self.cleaned_data["rate"].strip()
        if not text:
            return None
        currency, exponent = self.money_unit
        try:
            return parse_money(text, exponent + RATE_EXTRA_DECIMALS, exponent)
        except ValueError:
            raise forms.ValidationError(gettext(
                "Write the money a point is worth in %(currency)s as a number with at most %(n)s decimals, "
                "e.g. 0.01 — not “%(value)s”.") % {"currency": currency, "n": exponent + RATE_EXTRA_DECIMALS,
                                                    "value": text}) from None

    def clean_currency(self) -> str:
        text: str = self.cleaned_data["currency"].strip().upper()
        if not text:
            return self.night.currency
        if not CURRENCY.fullmatch(text):
            raise forms.ValidationError(gettext("Write the currency as three letters, e.g. EUR or CHF."))
        return text

    def _fee(self, name: str) -> int:
        text = self.cleaned_data[name].strip()
        if not text:
            return 0
        currency, exponent = self.money_unit
        try:
            return int(parse_money(text, exponent, exponent))
        except ValueError:
            raise forms.ValidationError(money_input_error(text, currency, exponent)) from None

    def clean_entry_fee(self) -> int:
        return self._fee("entry_fee")

    def clean_lost_game_fee(self) -> int:
        return self._fee("lost_game_fee")

    def clean_prize_split(self) -> tuple[int, ...]:
        text = self.cleaned_data["prize_split"]
        parts = [part for part in re.split(r"[\s/,;+]+", text.replace("%", " ")) if part]
        for part in parts:
            if not PERCENT.fullmatch(part) or int(part) > 100:
                raise forms.ValidationError(gettext(
                    "Write the percent per place as whole numbers from 0 to 100, first place first, e.g. "
                    "50/30/20 — “%(part)s” is not one.") % {"part": part})
        return tuple(int(part) for part in parts)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or self.cleaned_data  # None: Django keeps cleaned_data
        if self.errors:
            return data
        entry_fee, lost_game_fee = data.get("entry_fee", 0), data.get("lost_game_fee", 0)
        if not self.night.money and data["rate"] is None:
            if entry_fee or lost_game_fee:
                self.add_error("rate", gettext("Give the money a point is worth, or 0 to settle only the entry "
                                               "fees and prizes."))
            return data  # not played for money: nothing to settle, nothing more to check
        try:
            settle_night(self.night, rate=None if data.get("rate") is None else Fraction(data["rate"]),
                         basis=data.get("basis", "list"), step=data["step"],
                         extras=Extras(entry_fee, lost_game_fee, data["prize_split"]), exponent=self.money_unit[1])
        except SettlementError as err:
            field = err.field if err.field in self.fields else None
            self.add_error(field, capfirst(err.message))
        return data

    @property
    def options(self) -> dict[str, Any]:
        """What `CardNight.settlement` stores (the form is valid): only the options that are set."""
        data = self.cleaned_data
        out: dict[str, Any] = {}
        if data.get("rate") is not None:
            out["rate"] = plain(data["rate"])
        if "basis" in data:
            out["basis"] = data["basis"]
        out["step"] = data["step"]
        for name in ("entry_fee", "lost_game_fee"):
            if data.get(name):
                out[name] = data[name]
        if data["prize_split"]:
            out["prize_split"] = list(data["prize_split"])
        return out

    @property
    def changes(self) -> dict[str, Any]:
        """`nights.change_settings`' arguments (the form is valid)."""
        changes: dict[str, Any] = {"settlement": self.options}
        if "currency" in self.cleaned_data:
            changes["currency"] = self.cleaned_data["currency"]
        return changes
