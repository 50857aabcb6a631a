"""The dispute page, /adjudicate/.

Views stay thin: bind the form, let it call the engine, render. The dispute page answers htmx
requests with one named partial of ``adjudicate.html`` and everything else with the whole page,
so the form works the same without JavaScript.
"""

from django.http import HttpRequest, HttpResponse

from scorekeep.dispute.forms import DisputeForm
from scorekeep.web.htmx import render_page
from scorekeep.words.labels import speaking_of

# Which partial answers an htmx request, by the id of the element it swaps (the HX-Target header):
# inputs that change the set of inputs swap their region (#dispute or #deal); every other edit
# swaps the verdict and refreshes the messages beside the inputs out of band (forms.REGIONS).
PARTIAL_FOR_TARGET = {"dispute": "dispute", "deal": "deal_update", "verdict": "update"}


def adjudicate_page(request: HttpRequest) -> HttpResponse:
    # A GET form rather than POST + redirect: judging a deal changes nothing on the server, so the
    # verdict belongs at a URL — a table can bookmark it, share it, or reload it, and it works
    # without JavaScript. (POST would need a place to keep the entries across the redirect.)
    with speaking_of(request.GET.get("game")):  # the chosen game's own words (words/game_words.py)
        form = DisputeForm(request.GET, url=request.path)
        form.is_valid()  # binds and judges; the form keeps the verdict or the errors at their inputs
        response = render_page(request, "dispute/adjudicate.html", {"form": form}, partials=PARTIAL_FOR_TARGET,
                               default="update")
        if getattr(request, "htmx", None):
            # The address htmx puts in the bar (hx-replace-url) is the short link, not the form's every input:
            # that is what a table copies and shares.
            response["HX-Replace-Url"] = form.share_url
        return response
