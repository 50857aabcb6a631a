"""The organiser's forms: a new tournament, an entrant's registration, the money sheet's fee and prizes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scorekeep.clubs import clubs
from scorekeep.models import GAME_CHOICES, Tournament
from scorekeep.nights.forms import preset_label
from scorekeep.rules import GAMES, IllegalDeal
from scorekeep.tournaments import money as tournament_money
from scorekeep.tournaments import writes as tournaments
from scorekeep.web.fields import HouseRule
from scorekeep.words.cells import DATE_FORMAT
from scorekeep.words.labels import GAME_LABELS, OPTION_LABELS, listed, page_words
from scorekeep.words.money import CURRENCY, currency_exponent


def preset_choices() -> list[tuple[str, str]]:
    """Each game's rule sets, in the page's language."""
    return [(f"{game}:{preset}", f"{label} · {preset_label(game, preset)}")
            for game, label in GAME_CHOICES for preset in GAMES[game].PRESETS]


class MoneyFields(forms.Form):
    """The money settings as typed, alike on the new-tournament form and the money page (issue 31: one way):
    the same inputs with the same names, hints and readers (`tournament_money`: `minor`, `parse_tiers`,
    `parse_places`, `parse_retention`), then the one check of what is kept (`tournaments.check_money`)."""

    entry_fee = forms.CharField(label=_("Entry fee"), required=False, max_length=12, initial="0")
    lost_game_money = forms.CharField(
        label=_("Lost-game money per series"), required=False, max_length=200,
        help_text=_("From which lost game of a series: the amount for each, e.g. “1: 0.50, 4: 1.00” — 0.50 for "
                    "each of the first three, 1.00 from the fourth. Empty: none."))
    prize_kind = forms.ChoiceField(label=_("Prizes as"), choices=[("amounts", _("amounts per place")),
                                                                  ("shares", _("shares of the pot (per cent)"))])
    prize_places = forms.CharField(label=_("Prizes, first place first"), required=False, max_length=400,
                                   help_text=_("Amounts, e.g. “100, 50, 25”, or shares in per cent, e.g. "
                                               "“50, 30, 20”."))
    retention_kind = forms.ChoiceField(label=_("Organiser's retention as"),
                                       choices=[("share", _("per cent of fees and lost-game money")),
                                                ("amount", _("an amount"))])
    retention_value = forms.CharField(label=_("Organiser's retention"), required=False, max_length=12, initial="0")

    MONEY = ("entry_fee", "lost_game_money", "prize_kind", "prize_places", "retention_kind", "retention_value")

    def money_settings(self, data: dict[str, Any], exponent: int, currency: str) -> dict[str, Any] | None:
        """What is kept of the money typed (``entry_fee``, ``lost_game_money``, ``prizes``), each refusal at
        its input; None where something was refused."""
        steps: dict[str, Callable[[], Any]] = {
            "entry_fee": lambda: tournament_money.minor(data.get("entry_fee") or "0", exponent, "entry_fee",
                                                        currency),
            "lost_game_money": lambda: tournament_money.parse_tiers(data.get("lost_game_money", ""), exponent,
                                                                    currency),
            "prize_places": lambda: tournament_money.parse_places(data.get("prize_places", ""),
                                                                   data.get("prize_kind", "amounts"), exponent,
                                                                   currency),
            "retention_value": lambda: tournament_money.parse_retention(
                data.get("retention_value", ""), data.get("retention_kind", "share"), exponent, currency),
        }
        parsed: dict[str, Any] = {}
        for name, step in steps.items():
            try:
                parsed[name] = step()
            except tournament_money.MoneyError as err:
                self.add_error(err.field, err.message)
        # A kind missing or not offered is a field error already (the form sent without it, empty or as
        # another content type): nothing to keep then.
        if len(parsed) != len(steps) or "prize_kind" not in data or "retention_kind" not in data:
            return None
        prizes = {"kind": data["prize_kind"], "places": parsed["prize_places"],
                  "retention": {"kind": data["retention_kind"], "value": parsed["retention_value"]}}
        try:  # the rules of the money settings, one for every way in (`tournaments.check_money`)
            return tournaments.check_money(parsed["entry_fee"], parsed["lost_game_money"], prizes)
        except ValidationError as err:
            for name, errors in err.message_dict.items():
                self.add_error({"prizes": "prize_places"}.get(name, name), errors)
            return None


def tariff_rules() -> dict[str, HouseRule]:
    """The options that are money in any game's rule set (a tariff: Schafkopf's prices), each once, as the
    night form's house-rule inputs (`rule-<key>`), from the first game that has it."""
    out: dict[str, HouseRule] = {}
    for module in GAMES.values():
        for key, validator in module.OPTIONS.items():  # in the rule set's order of options
            if key in module.AMOUNTS and key not in out:
                out[key] = HouseRule(key, validator, None)
    return out


def tariff_lines(tournament: Tournament) -> list[tuple[str, str]]:
    """A money game's tariff in words for the overview: each amount option of its rule set, in the currency."""
    module = GAMES[tournament.game]
    values = {**module.PRESETS.get(tournament.preset, {}), **tournament.house_rules}
    out = []
    for key in module.OPTIONS:
        if key in module.AMOUNTS and key in values and values[key] is not None:
            value = values[key]
            shown = tournament_money.text(value, tournament) if isinstance(value, int) else str(value)
            out.append((str(OPTION_LABELS.get(key, key)), shown))
    return out


class TournamentForm(MoneyFields):
    """A new tournament: the money as the money page takes it (`MoneyFields`), typed in units of the currency;
    for a game played for money its tariff, typed in the currency (empty: the rule set's)."""

    club: forms.ModelChoiceField[Any] = forms.ModelChoiceField(label=_("Club"), queryset=None, empty_label=None)
    name = forms.CharField(label=_("Name"), max_length=100)
    # The ISO format whatever the language: a browser's date input reads no other, and a German "30.11.2026" in it
    # showed an empty date that had to be picked again.
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format=DATE_FORMAT))
    place = forms.CharField(label=_("Place"), max_length=100, required=False)
    rules = forms.ChoiceField(label=_("Game and rule set"), choices=preset_choices)
    series_count = forms.IntegerField(label=_("Number of series (Kop: rounds)"), min_value=1,
                                      max_value=tournaments.MAX_SERIES, initial=2)
    series_length = forms.IntegerField(label=_("Deals per series at a table of four"), initial=48,
                                       help_text=_("a multiple of 4; a table of three plays three quarters of it "
                                                   "(Skat: 48 and 36)"))
    draw_mode = forms.ChoiceField(label=_("Later series drawn"), choices=Tournament.DRAW_MODES)
    currency = forms.CharField(label=_("Currency"), max_length=3, initial="EUR",
                               help_text=_("three letters, e.g. EUR or CHF"))
    teams = forms.BooleanField(label=_("Team scoring"), required=False)

    field_order = ["club", "name", "date", "place", "rules", "series_count", "series_length", "draw_mode",
                   "currency", *MoneyFields.MONEY, "teams"]

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs.hosted_by(user)  # type: ignore[attr-defined]
        currency = str(self.data.get("currency") or "EUR").strip().upper()
        self.exponent = currency_exponent(currency if CURRENCY.fullmatch(currency) else "EUR")
        self.tariff = tariff_rules()
        for rule in self.tariff.values():
            rule.money = (currency if CURRENCY.fullmatch(currency) else "EUR", self.exponent)
            field = rule.fields()[rule.name]  # the amount alone: empty keeps the rule set's (no "none" box)
            field.required = False
            field.help_text = gettext("for a game played for money: its tariff in the currency above; "
                                      "empty: the rule set's")
            # Shown only while a game whose rules take it is chosen (static/js/app.js; without JavaScript
            # every tariff shows, with its hint).
            field.widget.attrs["data-for-games"] = " ".join(
                game for game, module in GAMES.items() if rule.key in module.AMOUNTS)
            self.fields[rule.name] = field
        self.fields["rules"].widget.attrs["data-game-choice"] = ""
        order = list(self.field_order or ())
        at = order.index("currency") + 1
        self.order_fields([*order[:at], *(rule.name for rule in self.tariff.values()), *order[at:]])

    def clean_currency(self) -> str:
        text = str(self.cleaned_data["currency"]).strip().upper()
        if not CURRENCY.fullmatch(text):
            raise forms.ValidationError(gettext("Write the currency as three letters, e.g. EUR or CHF."))
        return text

    def clean(self) -> dict[str, Any]:
        data = super().clean() or self.cleaned_data
        currency = data.get("currency") or "EUR"
        settings = self.money_settings(data, currency_exponent(currency), currency)
        if settings is not None:
            data["settings"] = settings
        if "rules" in data:
            data["house_rules"] = self._tariff(data)
        return data

    def _tariff(self, data: dict[str, Any]) -> dict[str, Any]:
        """The tariff typed, as house rules of the chosen game: an amount only where that game's rules take
        one (the engine checks its range), refused at its input otherwise."""
        game, preset = data["rules"].split(":", 1)
        module = GAMES[game]
        house: dict[str, Any] = {}
        for key, rule in self.tariff.items():
            value = data.get(rule.name)
            if value is None or value == "":
                continue
            if key not in module.AMOUNTS:
                self.add_error(rule.name, gettext("%(game)s is not played for money: leave its tariff empty.")
                               % {"game": GAME_LABELS[game]})
                continue
            try:
                module.parse_rules({"preset": preset, key: value})
            except IllegalDeal as err:
                self.add_error(rule.name, err.render(str, gettext(err.text), page_words))
                continue
            house[key] = value
        return house


class RegisterForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=40, widget=forms.TextInput(
        attrs={"list": "club-players", "autocomplete": "off", "autofocus": True}))
    guest = forms.BooleanField(label=_("Guest from another club"), required=False)
    home_club = forms.CharField(label=_("Their club"), max_length=80, required=False)
    team = forms.CharField(label=_("Team"), max_length=80, required=False)
    number = forms.IntegerField(label=_("Start number"), required=False, min_value=1, max_value=9999,
                                help_text=_("empty: the next free one"))
    paid = forms.BooleanField(label=_("Entry fee paid"), required=False)
    member_number = forms.CharField(label=_("Member number"), max_length=20, required=False,
                                    help_text=_("optional: the player's number in their association"))

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not tournament.teams:
            del self.fields["team"]


class MoneyForm(MoneyFields):
    """The tournament's money settings on the money page; `clean` turns them into what is kept (`settings`),
    each refusal on the field it concerns."""

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    @classmethod
    def of(cls, tournament: Tournament) -> MoneyForm:
        e, prizes = tournament.exponent, tournament.prizes or {}
        kind = prizes.get("kind", "amounts")
        retention = prizes.get("retention") or {"kind": "share", "value": 0}
        places = prizes.get("places", [])
        return cls(tournament=tournament, initial={
            "entry_fee": tournament_money.units(tournament.entry_fee, e),
            "lost_game_money": tournament_money.tiers_text(tournament.lost_game_money or [], e),
            "prize_kind": kind,
            "prize_places": listed(tournament_money.percent_text(p) if kind == "shares"
                                      else tournament_money.units(p, e) for p in places),
            "retention_kind": retention["kind"],
            "retention_value": tournament_money.percent_text(retention["value"]) if retention["kind"] == "share"
            else tournament_money.units(retention["value"], e)})

    def clean(self) -> dict[str, Any]:
        data = super().clean() or self.cleaned_data  # None: Django keeps cleaned_data
        settings = self.money_settings(data, self.tournament.exponent, self.tournament.currency)
        if settings is not None:
            data["settings"] = settings
        return data
