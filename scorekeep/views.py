"""The pages: the home page, /adjudicate/ (the dispute page) and the glossary.

Views stay thin: bind the form, let it call the engine, render. The dispute page answers htmx
requests with one named partial of ``adjudicate.html`` and everything else with the whole page,
so the form works the same without JavaScript.
"""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from .forms import DisputeForm
from .glossary import GAMES_GLOSSARY as GLOSSARY
from .htmx import render_page
from .labels import GAME_LABELS, speaking_of

# Which partial answers an htmx request, by the id of the element it swaps (the HX-Target header):
# inputs that change the set of inputs swap their region (#dispute or #deal); every other edit
# swaps the verdict and refreshes the messages beside the inputs out of band (forms.REGIONS).
PARTIAL_FOR_TARGET = {"dispute": "dispute", "deal": "deal_update", "verdict": "update"}


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def adjudicate_page(request: HttpRequest) -> HttpResponse:
    # A GET form rather than POST + redirect: judging a deal changes nothing on the server, so the
    # verdict belongs at a URL — a table can bookmark it, share it, or reload it, and it works
    # without JavaScript. (POST would need a place to keep the entries across the redirect.)
    with speaking_of(request.GET.get("game")):  # the chosen game's own words (game_words.py)
        form = DisputeForm(request.GET, url=request.path)
        form.is_valid()  # binds and judges; the form keeps the verdict or the errors at their inputs
        return render_page(request, "adjudicate.html", {"form": form}, partials=PARTIAL_FOR_TARGET,
                           default="update")


def glossary(request: HttpRequest, game: str = "") -> HttpResponse:
    """The games' vocabulary in the page's language, each term beside the word its players use."""
    if game and game not in GLOSSARY:
        raise Http404("No such game.")
    games = [(key, GAME_LABELS[key], GLOSSARY[key].language, GLOSSARY[key].in_words_of(key))
             for key in ([game] if game else GLOSSARY)]
    all_games = [(key, GAME_LABELS[key]) for key in GLOSSARY]
    return render(request, "glossary.html", {"games": games, "game": game, "all_games": all_games})
