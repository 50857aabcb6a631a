"""The clubs' forms: a club's name, a co-host, a season, the date a season's table stands at, the statistics' filter."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.db.models import QuerySet
from django.utils import formats
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scorekeep.clubs import clubs, seasons
from scorekeep.models import GAME_CHOICES, CardNight, Club
from scorekeep.rules import GAMES
from scorekeep.words.cells import DATE_FORMAT
from scorekeep.words.labels import GAME_LABELS, listed, preformatted, translated


def _basis_choices() -> list[tuple[str, str]]:
    return [(f"{game}:{basis.key}", f"{GAME_LABELS[game]}: {translated(basis.label)}")
            for game in GAMES for basis in seasons.bases(game)]


class ClubNameForm(forms.Form):
    name = forms.CharField(label=_("Name of the club"), max_length=clubs.LONGEST_NAME,
                           error_messages={"required": _("A club needs a name.")})


class CohostForm(forms.Form):
    username = forms.CharField(label=_("Account name"), max_length=150,
                               help_text=_("the co-host signs up first; a co-host has the same rights as you"),
                               error_messages={"required": _("Enter the account name of the co-host.")})


class SeasonForm(forms.Form):
    """A new season: its name, game and period, what it ranks by, and the club's rules for the table."""

    name = forms.CharField(label=_("Name of the season"), max_length=80)
    basis = forms.ChoiceField(label=_("Game and ranking"), choices=_basis_choices)
    start = forms.DateField(label=_("First day"), input_formats=[DATE_FORMAT],
                            widget=forms.DateInput(attrs={"type": "date"}, format=DATE_FORMAT))
    end = forms.DateField(label=_("Last day"), input_formats=[DATE_FORMAT],
                          widget=forms.DateInput(attrs={"type": "date"}, format=DATE_FORMAT))
    min_nights = forms.IntegerField(label=_("Nights needed to be ranked"), min_value=0, max_value=366, initial=0)
    best_of = forms.IntegerField(label=_("Count only the best results"), min_value=1, max_value=366,
                                 required=False, help_text=_("e.g. 10: each player's best 10 nights count"))
    drop_every = forms.IntegerField(label=_("Drop the worst result for every"), min_value=2, max_value=366,
                                    required=False, help_text=_("e.g. 5: one result dropped for every 5 played"))
    absence_penalty = forms.IntegerField(
        label=_("Absence penalty"), min_value=0, max_value=100_000, initial=0,
        help_text=_("taken off for each night of the season a player misses after their first (points; "
                    "cents where the season counts money)"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("start", "end"):
            self.fields[name].error_messages["invalid"] = gettext("Enter a date as year-month-day, e.g. 2025-03-07.")
        choices = listed(label for _key, label in _basis_choices())
        self.fields["basis"].error_messages["invalid_choice"] = gettext(
            "Choose one of: %(choices)s.") % {"choices": choices}

    def season(self) -> dict[str, Any]:
        """`seasons.start_season`'s keyword arguments (the form is valid)."""
        data = dict(self.cleaned_data)
        data["game"], data["basis"] = data.pop("basis").split(":", 1)
        data["min_nights"] = data["min_nights"] or 0
        data["absence_penalty"] = data["absence_penalty"] or 0
        return data


class AsOf(forms.Form):
    as_of = forms.DateField(label=_("Standings as of"), required=False, input_formats=[DATE_FORMAT],
                            widget=forms.DateInput(attrs={"type": "date"}, format=DATE_FORMAT))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["as_of"].error_messages["invalid"] = gettext("Enter a date as year-month-day, e.g. 2025-03-07.")


class StatsFilter(forms.Form):
    """Which nights the statistics count: one game or all, and a period (either end may stay open)."""

    game = forms.ChoiceField(label=_("Game"), required=False, choices=[("", _("All games")), *GAME_CHOICES])
    since = forms.DateField(label=_("From"), required=False, input_formats=[DATE_FORMAT],
                            widget=forms.DateInput(attrs={"type": "date"}, format=DATE_FORMAT))
    until = forms.DateField(label=_("To"), required=False, input_formats=[DATE_FORMAT],
                            widget=forms.DateInput(attrs={"type": "date"}, format=DATE_FORMAT))

    def __init__(self, *args: Any, clubs: Sequence[Club] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if len(clubs) > 1:  # a host of several clubs: one club's players and nights, or all of them
            self.fields["club"] = forms.TypedChoiceField(
                label=pgettext_lazy("association", "Club"), required=False, coerce=int, empty_value=None,
                choices=[("", _("All clubs")), *((str(club.pk), club.name) for club in clubs)])
            self.fields["club"].error_messages["invalid_choice"] = preformatted(gettext(
                "Choose one of your clubs: %(clubs)s."), {"clubs": listed(club.name for club in clubs)})
        games = listed(str(label) for _key, label in GAME_CHOICES)
        self.fields["game"].error_messages["invalid_choice"] = gettext(
            "Choose a game: %(games)s, or all games.") % {"games": games}
        for name in ("since", "until"):
            self.fields[name].error_messages["invalid"] = gettext(
                "Enter a date as year-month-day, e.g. 2025-03-07.")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or self.cleaned_data  # None: Django keeps cleaned_data
        since, until = data.get("since"), data.get("until")
        if since and until and until < since:
            self.add_error("until", gettext("The end of the period is before its start (%(since)s).")
                           % {"since": formats.date_format(since, "DATE_FORMAT")})
        return data

    @property
    def filters(self) -> dict[str, Any]:
        """`stats.filtered`'s arguments (the form is valid)."""
        return {"game": self.cleaned_data["game"] or None, "since": self.cleaned_data["since"],
                "until": self.cleaned_data["until"]}

    def of_club(self, nights: QuerySet[CardNight]) -> QuerySet[CardNight]:
        """The nights of the club chosen (the form is valid; without a choice, all)."""
        club = self.cleaned_data.get("club")
        return nights if club is None else nights.filter(club_id=club)

    @property
    def query(self) -> str:
        """The filter as typed, for links to the other statistics pages (so they keep it)."""
        return urlencode({name: self.data[name] for name in self.fields if self.data.get(name)})
