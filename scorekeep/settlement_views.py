"""The settlement page: who pays whom at the end of a card night, and the host's options for it.

Everyone who may see the night (`access.VIEW`) reads the transfers in words ("Clara pays Anna
€4.20"), each player's line (points, money, fees, prize, balance), the rounding step and whether the
transfers are proven to be the fewest. The arithmetic is `scorekeep.settlement`'s; this module only
reads the options stored with the night, parses the host's form and writes what is shown.

The options live in `CardNight.settlement` (saved with `nights.change_settings`, so each change is in
the night's history), in the units the settlement computes in::

    {"rate": "0.5",          # cents a point is worth, as an exact decimal string (absent: not for money)
     "basis": "list",        # Skat only: "list" points or "performance" (list + Seeger-Fabian)
     "step": 10,             # rounding step in cents, one of settlement.STEPS
     "entry_fee": 500,       # cents per player (absent: none)
     "lost_game_fee": 50,    # cents per lost game, Skat only (absent: none)
     "prize_split": [50, 30, 20]}  # percent of the pot per place, first place first

A Schafkopf night is played for money already (its amounts are cents): it settles at once with a
rate of one cent per cent and has no rate input. The form takes money as people write it — in units
of the night's currency, "0.05" or "0,05" — and shows each refusal at its input, keeping what was
typed. Plain POST and 303 redirect; nothing needs JavaScript.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from . import access, nights
from .access import HOST, VIEW, night_access
from .entry import BUSY
from .labels import GAME_LABELS, preformatted
from .models import CardNight
from .money import currency_exponent, money_input_error
from .settlement import (
    DEFAULT_STEP,
    STEPS,
    Extras,
    SettlementError,
    format_money,
    money_text,
    parse_money,
    plain,
    played_for_money,
    settle_night,
    stored,
    units,
)
from .settlement import settle_as_stored as settle

SCORER = "scorer"  # the session key for "Your name", shared with the table and night pages
RATE_EXTRA_DECIMALS = 2  # a hundredth of the minor unit (of a cent, of a yen) a point is the finest rate
PERCENT = re.compile(r"\d{1,3}")
CURRENCY = re.compile(r"[A-Z]{3}")


class HttpResponseSeeOther(HttpResponseRedirect):
    """After a POST that changed something: the browser follows with a GET (no resubmit on reload)."""

    status_code = 303


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
        steps = {"steps": ", ".join(_step_label(step, currency, exponent) for step in STEPS)}
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
                self.fields[name].label = f"{self.fields[name].label} ({currency})"
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


# --- the page -------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class LineView:
    """One player's line as the page writes it."""

    name: str
    points: int
    from_points: str
    entry_fee: str
    lost: int
    lost_fees: str
    prize: str
    balance: str
    negative: bool
    exact: str  # the balance before rounding, where rounding moved it


@dataclass(frozen=True, slots=True)
class TransferView:
    payer: str
    payee: str
    amount: str


def _page_context(night: CardNight) -> dict[str, Any]:
    """The settlement as the page shows it, or why there is none (not for money, or refused options)."""
    context: dict[str, Any] = {"night": night, "game_label": GAME_LABELS[night.game], "for_money": False,
                               "result": None, "problem": None}
    if not played_for_money(night):
        return context
    context["for_money"] = True
    try:
        result = settle(night)
    except SettlementError as err:
        context["problem"] = capfirst(err.message)
        return context
    currency, exponent = result.currency, result.exponent

    def text(value: Fraction | int) -> str:
        return money_text(value, currency, exponent=exponent, plus=True)

    def amount(value: int, plus: bool = False) -> str:
        return format_money(value, currency, exponent=exponent, plus=plus)

    lines = [LineView(line.name, line.points, text(line.from_points), text(-line.entry_fee), line.lost,
                      text(-line.lost_fees), text(line.prize), amount(line.balance, plus=True), line.balance < 0,
                      "" if line.exact == line.balance else text(line.exact))
             for line in result.lines]
    options = stored(night)
    context.update({
        "result": result, "lines": lines,
        "transfers": [TransferView(t.payer, t.payee, amount(t.cents)) for t in result.transfers],
        "step": amount(result.step), "pot": amount(result.pot),
        "rate": units(Decimal(str(options["rate"])), currency, exponent) if options.get("rate") is not None else "",
        "performance": options.get("basis") == "performance",
        "entry_fee": amount(options.get("entry_fee", 0)),
        "lost_game_fee": amount(options.get("lost_game_fee", 0)),
        "prize_split": "/".join(str(p) for p in options.get("prize_split", [])),
        "has_lost_fees": bool(options.get("lost_game_fee")),
    })
    return context


@require_http_methods(["GET", "POST"])
@night_access(VIEW)
def night_settlement(request: HttpRequest, night_id: int) -> HttpResponse:
    night = get_object_or_404(CardNight, pk=night_id)
    host = access.allows(request.night_role, HOST)  # type: ignore[attr-defined]
    form = SettlementForm(night=night) if host else None
    if request.method == "POST":
        if not host:
            raise PermissionDenied
        form = SettlementForm(request.POST, night=night)
        if form.is_valid():
            by = " ".join(str(request.session.get(SCORER, "")).split())
            try:
                nights.change_settings(night, by=by, **form.changes)
            except OperationalError:
                form.add_error(None, BUSY)
            else:
                messages.success(request, gettext("Settlement options saved."))
                return HttpResponseSeeOther(reverse("night-settlement", args=[night.id]))
    return render(request, "settlement.html", {**_page_context(night), "form": form, "host": host})
