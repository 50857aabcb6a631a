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
from scorekeep.rules import GAMES
from scorekeep.tournaments import money as tournament_money
from scorekeep.tournaments import writes as tournaments
from scorekeep.words.labels import listed
from scorekeep.words.money import CURRENCY, currency_exponent


def preset_choices() -> list[tuple[str, str]]:
    """Each game's rule sets, in the page's language."""
    return [(f"{game}:{preset}", f"{label} · {preset_label(game, preset)}")
            for game, label in GAME_CHOICES for preset in GAMES[game].PRESETS]


class TournamentForm(forms.Form):
    """A new tournament: the money typed in units of the currency; the lost-game tiers one a line
    ("1 0.50", "4 1.00": from the n-th lost game, the amount), the prizes one a line (an amount or a share
    in per cent, the first place first)."""

    club: forms.ModelChoiceField[Any] = forms.ModelChoiceField(label=_("Club"), queryset=None, empty_label=None)
    name = forms.CharField(label=_("Name"), max_length=100)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
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
    entry_fee = forms.CharField(label=_("Entry fee"), required=False, initial="0")
    lost_game_money = forms.CharField(label=_("Lost-game money"), required=False, widget=forms.Textarea(
        attrs={"rows": 2}), help_text=_("one tier a line: from which lost game of a series, and the amount — "
                                        "e.g. “1 0.50” and “4 1.00”"))
    prize_kind = forms.ChoiceField(label=_("Prizes are"), choices=[("amounts", _("amounts")),
                                                                    ("shares", _("shares of the pot (%)"))])
    prizes = forms.CharField(label=_("Prizes"), required=False, widget=forms.Textarea(attrs={"rows": 3}),
                             help_text=_("one place a line, the first first"))
    # xgettext:no-python-format ("% of" is no placeholder: the label is never %-formatted)
    retention = forms.CharField(label=_("Organiser's retention (% of the pot)"), required=False, initial="0")
    teams = forms.BooleanField(label=_("Team scoring"), required=False)

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs.hosted_by(user)  # type: ignore[attr-defined]

    def clean_currency(self) -> str:
        text = str(self.cleaned_data["currency"]).strip().upper()
        if not CURRENCY.fullmatch(text):
            raise forms.ValidationError(gettext("Write the currency as three letters, e.g. EUR or CHF."))
        return text

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            currency = data.get("currency") or "EUR"
            exponent = currency_exponent(currency)
            data["entry_fee_minor"] = tournament_money.minor(data.get("entry_fee") or "0", exponent, "entry_fee",
                                                             currency)
            kind = data["prize_kind"]
            # The tiers and the amounts as the money page reads them (`tournament_money`); shares in per cent.
            data["tiers"] = tournament_money.parse_tiers(data.get("lost_game_money") or "", exponent, currency)
            if kind == "shares":
                values = [tournament_money.share(line.strip(), "prizes")
                          for line in (data.get("prizes") or "").splitlines() if line.strip()]
            else:
                values = tournament_money.parse_places(data.get("prizes") or "", kind, exponent, currency)
            data["prize_table"] = {"kind": kind, "places": values, "retention": {
                "kind": "share", "value": tournament_money.share(data.get("retention") or "0", "retention")}} \
                if values else {}
        except tournament_money.MoneyError as err:
            self.add_error("prizes" if err.field == "prize_places" else err.field, err.message)
        except ValidationError as err:
            for field, errors in err.message_dict.items():
                self.add_error(field, errors)
        return data


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


class MoneyForm(forms.Form):
    """The tournament's money settings as typed; `clean` turns them into what is kept, each refusal on the
    field it concerns (`tournament_money.MoneyError`)."""

    entry_fee = forms.CharField(label=_("Entry fee"), required=False, max_length=12)
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
    retention_value = forms.CharField(label=_("Organiser's retention"), required=False, max_length=12)

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
        t = self.tournament
        e, currency = t.exponent, t.currency
        steps: dict[str, Callable[[], Any]] = {
            "entry_fee": lambda: tournament_money.minor(data.get("entry_fee") or "0", e, "entry_fee", currency),
            "lost_game_money": lambda: tournament_money.parse_tiers(data.get("lost_game_money", ""), e, currency),
            "prize_places": lambda: tournament_money.parse_places(data.get("prize_places", ""),
                                                                   data.get("prize_kind", "amounts"), e, currency),
            "retention_value": lambda: tournament_money.parse_retention(
                data.get("retention_value", ""), data.get("retention_kind", "share"), e, currency),
        }
        parsed: dict[str, Any] = {}
        for name, step in steps.items():
            try:
                parsed[name] = step()
            except tournament_money.MoneyError as err:
                self.add_error(err.field, err.message)
        # A kind missing or not offered is a field error already (the form sent without it, empty or as
        # another content type): nothing to keep then.
        if len(parsed) == len(steps) and "prize_kind" in data and "retention_kind" in data:
            prizes = {"kind": data["prize_kind"], "places": parsed["prize_places"],
                      "retention": {"kind": data["retention_kind"], "value": parsed["retention_value"]}}
            try:  # the rules of the money settings, as for a new tournament (`tournaments.check_money`)
                data["settings"] = tournaments.check_money(parsed["entry_fee"], parsed["lost_game_money"],
                                                           prizes if parsed["prize_places"] else {})
                if not parsed["prize_places"]:
                    data["settings"]["prizes"] = prizes  # no prize places: the retention is still kept
            except ValidationError as err:
                for name, errors in err.message_dict.items():
                    self.add_error({"prizes": "prize_places"}.get(name, name), errors)
        return data
