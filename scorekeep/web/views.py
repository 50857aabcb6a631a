"""The pages: the home page and the glossary (the dispute page is scorekeep.dispute.views)."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from scorekeep.words.glossary import GAMES_GLOSSARY as GLOSSARY
from scorekeep.words.labels import GAME_LABELS


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def glossary(request: HttpRequest, game: str = "") -> HttpResponse:
    """The games' vocabulary in the page's language, each term beside the word its players use."""
    if game and game not in GLOSSARY:
        raise Http404("No such game.")
    games = [(key, GAME_LABELS[key], GLOSSARY[key].language, GLOSSARY[key].in_words_of(key))
             for key in ([game] if game else GLOSSARY)]
    all_games = [(key, GAME_LABELS[key]) for key in GLOSSARY]
    return render(request, "glossary.html", {"games": games, "game": game, "all_games": all_games})
