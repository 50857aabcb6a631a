"""Routes of the statistics pages and a night's ledger as CSV (included at the site's root)."""

from django.urls import path

from . import stats_views

urlpatterns = [
    path("stats/", stats_views.stats_page, name="stats"),
    path("stats/<int:player_id>/", stats_views.player_stats, name="player-stats"),
    path("nights/<int:night_id>/ledger.csv", stats_views.night_csv, name="night-csv"),
]
