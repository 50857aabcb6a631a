"""The settlement page: who pays whom at the end of a card night, and the host's options for it.

Everyone who may see the night (`access.VIEW`) reads the transfers in words ("Clara pays Anna
€4.20"), each player's line (points, money, fees, prize, balance), the rounding step and whether the
transfers are proven to be the fewest. The arithmetic is `scorekeep.nights.settlement`'s; this module only
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

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import OperationalError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_http_methods

from scorekeep.models import CardNight
from scorekeep.nights import writes as nights
from scorekeep.nights.entry import BUSY
from scorekeep.nights.forms import SettlementForm
from scorekeep.nights.settlement import (
    SettlementError,
    format_money,
    money_text,
    played_for_money,
    since_finish,
    stored,
    units,
)
from scorekeep.nights.settlement import settle_as_stored as settle
from scorekeep.web import access
from scorekeep.web.access import HOST, VIEW, NightRequest, night_access
from scorekeep.web.flash import later
from scorekeep.web.htmx import HttpResponseSeeOther
from scorekeep.words.labels import GAME_LABELS

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
    since = since_finish(night, result) if night.finished else None
    if since is not None and since.changed:  # changes made after the finish (issue 33): against what was settled
        context["since_finish"] = {
            "at": night.finish.get("at", ""),
            "then": [TransferView(t.payer, t.payee, amount(t.cents)) for t in since.then],
            "moved": [(name, amount(then, plus=True), amount(now, plus=True), amount(now - then, plus=True))
                      for name, then, now in since.moved]}
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
def night_settlement(request: NightRequest, night_id: int) -> HttpResponse:
    night = get_object_or_404(CardNight, pk=night_id)
    host = access.allows(request.night_role, HOST)
    form = SettlementForm(night=night) if host else None
    if request.method == "POST":
        if not host:
            raise PermissionDenied
        form = SettlementForm(request.POST, night=night)
        if form.is_valid():
            by = access.recorded_by(request, access.scorer(request, night))
            try:
                nights.change_settings(night, by=by, **form.changes)
            except OperationalError:
                form.add_error(None, BUSY)
            else:
                messages.success(request, later(gettext_noop("Settlement options saved.")))
                return HttpResponseSeeOther(reverse("night-settlement", args=[night.id]))
    return render(request, "nights/settlement.html", {**_page_context(night), "form": form, "host": host})
