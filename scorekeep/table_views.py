"""A table at a card night: the page held at the table (deal entry and ledger) and a deal's own page
(its facts, verdict and history; corrections, deleting and restoring).

Views stay thin: load the table with its players and deals in a fixed number of queries, bind the
`DealForm` (which calls the engine), write through `scorekeep.nights` (each change one transaction
with its history), render. htmx requests get the named partial of ``table.html`` that their
HX-Target names; everything else the whole page, so every form works without JavaScript (POST,
then a 303 redirect).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext

from . import ledger, nights
from .entry import ChangeNote, DealForm, deal_history, facts_in_words, initial_from
from .models import CardNight, CardTable, Deal
from .rules import IllegalDeal

# Which partial answers an htmx request, by the id of the element it swaps (HX-Target): the dealer
# or the contract re-render the whole entry, any other edit only the preview (with the messages
# beside the inputs out of band), a save the whole region of the page.
PARTIAL_FOR_TARGET = {"entry": "entry", "preview": "preview_update", "table-region": "region"}

SCORER = "scorer"  # the session key remembering "Your name"


@dataclass(slots=True)
class Loaded:
    """A table with everything its page needs, loaded in a fixed number of queries."""

    night: CardNight
    table: CardTable
    names: list[str]
    deals: list[Deal]

    @property
    def next_dealer(self) -> int:
        """The player left of the last live deal's dealer (as `nights.next_dealer`, from the loaded deals)."""
        return (self.deals[-1].dealer + 1) % len(self.names) if self.deals else self.table.first_dealer

    def ledger(self) -> ledger.Ledger:
        return ledger.build(self.table, self.deals, self.names)

    def url(self, name: str, *args: object) -> str:
        return reverse(name, args=[self.night.pk, self.table.number, *args])


def _load(night_id: int, table_number: int) -> Loaded:
    # By the night's pk, not the foreign key column: Django answers an id beyond the database's integers
    # with "no such row" (404) for a pk lookup, but the plain column lookup overflowed (a 500).
    table = get_object_or_404(CardTable.objects.select_related("night"), night__pk=night_id, number=table_number)
    names = [place.player.name for place in table.places.select_related("player")]
    deals = list(table.deals.filter(deleted=False).order_by("sequence"))
    return Loaded(table.night, table, names, deals)


def _refused(loaded: Loaded, err: ledger.LedgerError) -> str:
    """Why a change was refused because a deal of the table would no longer be allowed: that deal's
    number and the engine's sentence, the seats it names written as the players who sat there."""
    seating = err.deal.seating if err.deal is not None else []

    def name(seat: int) -> str:
        return loaded.names[seating[seat]] if 0 <= seat < len(seating) else gettext("Seat %(n)s") % {"n": seat}

    message = err.error.render(name, gettext(err.error.text), gettext)
    return gettext("Deal %(number)s would no longer be allowed: %(message)s") % {"number": err.number,
                                                                                 "message": message}


def _deal(loaded: Loaded, sequence: int) -> Deal:
    return get_object_or_404(Deal, table=loaded.table, sequence=sequence)


def _scorer(request: HttpRequest) -> str:
    return str(request.session.get(SCORER, ""))


def _remember(request: HttpRequest, name: str) -> None:
    if name and request.session.get(SCORER) != name:
        request.session[SCORER] = name


def _render(request: HttpRequest, template: str, context: dict[str, Any], partial: str = "") -> HttpResponse:
    """The whole page, or for htmx the partial its target asks for."""
    if request.htmx and not request.htmx.history_restore_request:
        template = "table.html#" + (partial or PARTIAL_FOR_TARGET.get(request.htmx.target or "", "region"))
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


def _closed(loaded: Loaded, built: ledger.Ledger) -> str:
    """Why no more deals can be entered at this table, or "" while they can."""
    if loaded.night.finished:
        return gettext("This card night is finished; no more deals can be entered.")
    if built.series_complete:
        return gettext("The series of %(n)s deals is complete; no more deals can be entered.") % {
            "n": built.series_length}
    return ""


def _new_form(request: HttpRequest, loaded: Loaded, data: Any = None) -> DealForm:
    return DealForm(data, night=loaded.night, names=loaded.names, dealer=loaded.next_dealer,
                    url=loaded.url("deal-new"), scorer=_scorer(request),
                    bock=ledger.next_is_bock(loaded.night, len(loaded.names), loaded.deals))


def _table_context(loaded: Loaded, form: DealForm) -> dict[str, Any]:
    built = loaded.ledger()
    return {"night": loaded.night, "table": loaded.table, "ledger": built, "form": form,
            "closed": _closed(loaded, built), "number": built.deals_played + 1, "names": loaded.names,
            "action": loaded.url("deal-new"), "table_url": loaded.url("table")}


def table_page(request: HttpRequest, night_id: int, table_number: int) -> HttpResponse:
    loaded = _load(night_id, table_number)
    return _render(request, "table.html", _table_context(loaded, _new_form(request, loaded)))


def deal_new(request: HttpRequest, night_id: int, table_number: int) -> HttpResponse:
    """GET: the entry re-rendered for the values typed so far (htmx preview). POST: save the deal."""
    loaded = _load(night_id, table_number)
    if request.method == "GET":
        if not request.GET:
            return HttpResponseRedirect(loaded.url("table"), status=303)
        form = _new_form(request, loaded, request.GET)
        form.is_valid()
        return _render(request, "table.html", _table_context(loaded, form))
    if request.method != "POST":
        return HttpResponseNotAllowed(["GET", "POST"])
    form = _new_form(request, loaded, request.POST)
    context = _table_context(loaded, form)
    if context["closed"]:
        form.is_valid()
        form.add_error(None, context["closed"])
    elif form.is_valid() and "preview" not in request.POST and form.facts is not None:
        by = form.cleaned_data.get("by", "").strip()
        try:
            nights.enter_deal(loaded.table, form.facts, dealer=form.dealer, by=by)
        except IllegalDeal as err:  # the deal before it changed meanwhile (e.g. a Bock round)
            form.engine_error(err)
        except ledger.LedgerError as err:
            form.add_error(None, _refused(loaded, err))
        else:
            _remember(request, by)
            if not request.htmx:
                messages.success(request, gettext("Deal saved."))
                return HttpResponseRedirect(loaded.url("table"), status=303)
            loaded = _load(night_id, table_number)
            context = _table_context(loaded, _new_form(request, loaded))
            context["saved"] = True
            return _render(request, "table.html", context, "region")
    return _render(request, "table.html", context, "region")


def _deal_context(request: HttpRequest, loaded: Loaded, deal: Deal, form: DealForm | None) -> dict[str, Any]:
    numbers = {d.pk: number for number, d in enumerate(loaded.deals, start=1)}
    revisions = list(deal.revisions.all())
    return {"night": loaded.night, "table": loaded.table, "deal": deal, "number": numbers.get(deal.pk),
            "form": form, "names": loaded.names, "action": loaded.url("deal", deal.sequence),
            "table_url": loaded.url("table"), "facts": facts_in_words(loaded.night.game, deal.facts, deal.seating,
                                                                       loaded.names),
            "explanation": _explanation(loaded, deal), "dealer_name": loaded.names[deal.dealer],
            "history": deal_history(loaded.night.game, numbers.get(deal.pk), revisions, loaded.names),
            "scorer": _scorer(request),
            "entries": _entries(loaded, deal)}


def _entries(loaded: Loaded, deal: Deal) -> list[tuple[str, int | None]]:
    """Each player's entry for the deal; None for who sat it out (the dealer at a 4-seat Skat table too)."""
    out = ledger.sits_out(loaded.night.game, deal.seating, deal.dealer, len(loaded.names))
    return [(name, None if p in out else deal.verdict["scores"][deal.seating.index(p)])
            for p, name in enumerate(loaded.names)]


def _explanation(loaded: Loaded, deal: Deal) -> list[str]:
    """The stored verdict's explanation with player names: the engine judges the stored facts again
    (the same verdict, as recompute keeps them equal) to name each seat."""
    try:
        verdict = ledger.judge_deal(loaded.night, deal.seating, deal.dealer, deal.facts, deal.bock)
    except IllegalDeal:
        return list(deal.verdict.get("explanation", []))
    return verdict.explain(lambda seat: loaded.names[deal.seating[seat]], gettext)


def _edit_form(request: HttpRequest, loaded: Loaded, deal: Deal, data: Any = None) -> DealForm:
    return DealForm(data, night=loaded.night, names=loaded.names, dealer=deal.dealer,
                    url=loaded.url("deal", deal.sequence), bock=deal.bock, correcting=True,
                    initial=initial_from(deal.facts, deal.seating, loaded.night.game), scorer=_scorer(request))


def deal_page(request: HttpRequest, night_id: int, table_number: int, sequence: int) -> HttpResponse:
    """GET: the deal, its verdict and history, and the correction form. POST: the correction."""
    loaded = _load(night_id, table_number)
    deal = _deal(loaded, sequence)
    if request.method == "POST":
        if deal.deleted:
            return HttpResponseRedirect(loaded.url("deal", sequence), status=303)
        form = _edit_form(request, loaded, deal, request.POST)
        if form.is_valid() and "preview" not in request.POST and form.facts is not None:
            by = form.cleaned_data.get("by", "").strip()
            try:
                nights.correct_deal(deal, form.facts, dealer=form.dealer, by=by,
                                    reason=form.cleaned_data.get("reason", "").strip())
            except IllegalDeal as err:
                form.engine_error(err)
            except ledger.LedgerError as err:  # a later deal no longer fits (say, a seat that now sits out)
                form.add_error(None, _refused(loaded, err))
            else:
                _remember(request, by)
                messages.success(request, gettext("Correction saved; every deal after it was scored again."))
                return HttpResponseRedirect(loaded.url("deal", sequence), status=303)
    elif request.method == "GET":
        live = request.htmx and request.GET
        form = _edit_form(request, loaded, deal, request.GET if live else None)
        if live:
            form.is_valid()
    else:
        return HttpResponseNotAllowed(["GET", "POST"])
    context = _deal_context(request, loaded, deal, None if deal.deleted else form)
    if request.htmx and request.htmx.target in ("entry", "preview"):
        return _render(request, "deal.html", context)
    response = render(request, "deal.html", context)
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


def _change(request: HttpRequest, night_id: int, table_number: int, sequence: int, delete: bool) -> HttpResponse:
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    loaded = _load(night_id, table_number)
    deal = _deal(loaded, sequence)
    note = ChangeNote(request.POST)
    refusal = ""
    if note.is_valid():
        by = " ".join(note.cleaned_data["by"].split()) or _scorer(request)
        try:
            (nights.delete_deal if delete else nights.restore_deal)(deal, by=by, reason=note.cleaned_data["reason"])
        except ledger.LedgerError as err:
            refusal = _refused(loaded, err)
        else:
            _remember(request, by)
            messages.success(request, gettext("Deal deleted; every deal after it was scored again.") if delete
                             else gettext("Deal restored; every deal after it was scored again."))
            return HttpResponseRedirect(loaded.url("deal", sequence), status=303)
    else:  # a NUL character or an over-long text: say which and what is allowed
        refusal = "; ".join(f"{ChangeNote.base_fields[name].label}: {' '.join(errors)}"
                            for name, errors in note.errors.items())
    context = _deal_context(request, loaded, deal, None if deal.deleted else _edit_form(request, loaded, deal))
    context["change_error"] = refusal
    context["change_reason"] = request.POST.get("reason", "")  # a refused delete keeps the reason typed
    return render(request, "deal.html", context)


def deal_delete(request: HttpRequest, night_id: int, table_number: int, sequence: int) -> HttpResponse:
    return _change(request, night_id, table_number, sequence, delete=True)


def deal_restore(request: HttpRequest, night_id: int, table_number: int, sequence: int) -> HttpResponse:
    return _change(request, night_id, table_number, sequence, delete=False)
