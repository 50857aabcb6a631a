"""The organiser's page for a table without a phone (issue 31): its series result typed from the paper list.

A thin view: load the table → bind `paper.PaperForm` (the engine's columns and checks) → `paper.record` → 303
back to the tournament's overview. Only the tournament's club's hosts reach it (`tournament_of`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from scorekeep.tournaments import paper
from scorekeep.tournaments.loading import tournament_of
from scorekeep.words.labels import GAME_LABELS


@login_required
@require_http_methods(["GET", "POST"])
def table_paper(request: HttpRequest, tournament_id: int, series_number: int, table_number: int) -> HttpResponse:
    tournament = tournament_of(request, tournament_id)
    table = paper.table_of(tournament, series_number, table_number)
    if table is None:
        raise Http404("No such table.")
    status = 200
    if request.method == "POST":
        form = paper.PaperForm(request.POST, tournament=tournament, table=table)
        if form.is_valid():
            paper.record(table, form.cleaned_data["deals"], form.cleaned_data["rows"],
                         by=request.user.get_username())
            messages.success(request, gettext("The paper list of table %(table)s is entered: it counts in the "
                                              "standings and the money.") % {"table": table.number})
            return HttpResponseRedirect(reverse("tournament", args=[tournament.pk]) + f"#series-{series_number}",
                                        status=303)
        status = 400
    else:
        form = paper.PaperForm.of(tournament, table)
    _kept, from_paper = paper.standing_of(table)
    return render(request, "tournaments/table_paper.html", {
        "tournament": tournament, "game_label": GAME_LABELS[tournament.game], "table": table,
        "series_number": series_number, "form": form, "from_paper": from_paper,
        "typed_deals": paper.typed_deals(table), "paper_deals": (table.paper or {}).get("deals"),
        "grid": [(name, [form[n] for n in names]) for name, names in form.grid]}, status=status)
