from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

from scorekeep.api import views as api
from scorekeep.clubs import season_views, stats_views
from scorekeep.clubs import views as club_views
from scorekeep.dispute import views as dispute_views
from scorekeep.nights import settlement_views, table_views
from scorekeep.nights import views as night_views
from scorekeep.printing import views as print_views
from scorekeep.tournaments import paper_views, registration_views, results_views, standings_views
from scorekeep.tournaments import printouts as tournament_print
from scorekeep.tournaments import views as tournament_views
from scorekeep.web import access_views, offline, views

# Django's 400 page reads the body again (for a CSRF token) and fails on the body it refused: ours reads nothing.
handler400 = "scorekeep.web.unreadable.bad_request"

TABLE = "nights/<int:night_id>/tables/<int:table_number>/"

urlpatterns = [
    path("", views.home, name="home"),
    path("adjudicate/", dispute_views.adjudicate_page, name="adjudicate"),
    path("glossary/", views.glossary, name="glossary"),
    path("glossary/<str:game>/", views.glossary, name="glossary-game"),
    path("api/adjudicate", api.adjudicate, name="api-adjudicate"),
    path("api/games", api.games, name="api-games"),
    path("sw.js", offline.service_worker, name="service-worker"),  # scope "/": the whole site works offline
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the language switch on every page
    # The same switch on the pages kept alike for every viewer (a tournament's standings by its link: issue 32),
    # which carry no CSRF token: choosing a language sets a cookie and stores nothing, so a forged switch can
    # do no more than change a visitor's language.
    path("i18n/setlang/shared/", csrf_exempt(set_language), name="set-language-shared"),
    # Hosts' accounts (Django's auth views; the log-in is throttled).
    path("accounts/signup/", access_views.signup, name="signup"),
    path("accounts/login/", access_views.ThrottledLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password-reset/", access_views.ThrottledPasswordResetView.as_view(), name="password_reset"),
    path("accounts/password-reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("accounts/reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("accounts/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path("accounts/password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    # A night's scorer or viewer link (the QR code on the table).
    path("join/<str:token>/", access_views.join, name="join"),
    # Clubs: their hosts, players and nights; a co-host's invitation link.
    path("clubs/", club_views.club_list, name="clubs"),
    path("clubs/<int:club_id>/", club_views.club_page, name="club"),
    path("clubs/<int:club_id>/hosts/", club_views.club_cohost_add, name="club-cohost-add"),
    path("clubs/<int:club_id>/hosts/<int:user_id>/remove/", club_views.club_cohost_remove, name="club-cohost-remove"),
    path("clubs/<int:club_id>/ratings/", club_views.club_ratings, name="club-ratings"),
    path("clubs/<int:club_id>/invitation/renew/", club_views.club_invitation_renew, name="club-invitation-renew"),
    path("clubs/join/<str:token>/", club_views.club_join, name="club-join"),
    path("clubs/<int:club_id>/seasons/new/", season_views.season_new, name="season-new"),
    path("clubs/<int:club_id>/seasons/<int:season_id>/", season_views.season_page, name="season"),
    path("clubs/<int:club_id>/seasons/<int:season_id>/print/", season_views.season_print, name="season-print"),
    path("clubs/<int:club_id>/seasons/<int:season_id>/season.pdf", season_views.season_pdf, name="season-pdf"),
    path("clubs/<int:club_id>/seasons/<int:season_id>/season.csv", season_views.season_csv, name="season-csv"),
    path("nights/", night_views.night_list, name="nights"),
    path("nights/new/", night_views.night_new, name="night-new"),
    path("nights/<int:night_id>/", night_views.night_page, name="night"),
    path("nights/<int:night_id>/links/", access_views.night_links, name="night-links"),
    path("nights/<int:night_id>/links/renew/", access_views.night_links_renew, name="night-links-renew"),
    path("nights/<int:night_id>/settings/", night_views.night_settings, name="night-settings"),
    path("nights/<int:night_id>/finish/", night_views.night_finish, name="night-finish"),
    path("nights/<int:night_id>/tables/new/", night_views.table_new, name="table-new"),
    path("nights/<int:night_id>/ledger.json", night_views.night_json, name="night-json"),
    path(TABLE, table_views.table_page, name="table"),
    path(TABLE + "list/", table_views.table_list, name="table-list"),
    path(TABLE + "deals/new/", table_views.deal_new, name="deal-new"),
    path(TABLE + "deals/<int:sequence>/", table_views.deal_page, name="deal"),
    path(TABLE + "deals/<int:sequence>/play/", table_views.deal_play, name="deal-play"),
    path(TABLE + "deals/<int:sequence>/delete/", table_views.deal_delete, name="deal-delete"),
    path(TABLE + "deals/<int:sequence>/restore/", table_views.deal_restore, name="deal-restore"),
    path("nights/<int:night_id>/print/", print_views.night_print, name="night-print"),
    path("nights/<int:night_id>/print.pdf", print_views.night_pdf, name="night-pdf"),
    path("tournaments/<int:tournament_id>/print/series/<int:series_number>/cards/", tournament_print.series_print,
         {"kind": "cards"}, name="tournament-print-cards"),
    path("tournaments/<int:tournament_id>/print/series/<int:series_number>/cards.pdf", tournament_print.series_pdf,
         {"kind": "cards"}, name="tournament-pdf-cards"),
    path("tournaments/<int:tournament_id>/print/series/<int:series_number>/lists/", tournament_print.series_print,
         {"kind": "lists"}, name="tournament-print-lists"),
    path("tournaments/<int:tournament_id>/print/series/<int:series_number>/lists.pdf", tournament_print.series_pdf,
         {"kind": "lists"}, name="tournament-pdf-lists"),
    path("tournaments/<int:tournament_id>/print/series/<int:series_number>/standings/", tournament_print.series_print,
         {"kind": "standings"}, name="tournament-print-standings"),
    path("tournaments/<int:tournament_id>/print/series/<int:series_number>/standings.pdf", tournament_print.series_pdf,
         {"kind": "standings"}, name="tournament-pdf-standings"),
    path("tournaments/<int:tournament_id>/print/", tournament_print.printouts, name="tournament-printouts"),
    path("tournaments/<int:tournament_id>/print/ranking/", tournament_print.ranking_print,
         name="tournament-print-ranking"),
    path("tournaments/<int:tournament_id>/print/ranking.pdf", tournament_print.ranking_pdf,
         name="tournament-pdf-ranking"),
    path("nights/<int:night_id>/ledger.csv", stats_views.night_csv, name="night-csv"),
    path("nights/<int:night_id>/settlement/", settlement_views.night_settlement, name="night-settlement"),
    path("stats/", stats_views.stats_page, name="stats"),
    path("stats/<int:player_id>/", stats_views.player_stats, name="player-stats"),
    # Tournaments (issue 18): the organiser's pages; each table of a series is a card night of its own.
    path("tournaments/", tournament_views.tournament_list, name="tournaments"),
    path("tournaments/new/", tournament_views.tournament_new, name="tournament-new"),
    path("tournaments/<int:tournament_id>/", tournament_views.tournament_page, name="tournament"),
    path("tournaments/<int:tournament_id>/register/", tournament_views.tournament_register, name="tournament-register"),
    path("tournaments/<int:tournament_id>/withdraw/", registration_views.withdraw, name="tournament-withdraw"),
    path("tournaments/<int:tournament_id>/reinstate/", registration_views.reinstate, name="tournament-reinstate"),
    path("tournaments/<int:tournament_id>/register/list/", registration_views.register_list,
         name="tournament-register-list"),
    path("tournaments/<int:tournament_id>/paid/", tournament_views.tournament_paid, name="tournament-paid"),
    path("tournaments/<int:tournament_id>/series/<int:series_number>/", tournament_views.series_page,
         name="tournament-series"),
    path("tournaments/<int:tournament_id>/series/<int:series_number>/draw/", tournament_views.series_draw,
         name="series-draw"),
    path("tournaments/<int:tournament_id>/series/<int:series_number>/close/", tournament_views.series_close,
         name="series-close"),
    path("tournaments/<int:tournament_id>/series/<int:series_number>/reopen/", tournament_views.series_reopen,
         name="series-reopen"),
    path("tournaments/<int:tournament_id>/series/<int:series_number>/tables/<int:table_number>/paper/",
         paper_views.table_paper, name="tournament-table-paper"),
    path("tournaments/<int:tournament_id>/standings-after-<int:series_number>.csv", results_views.standings_csv,
         name="tournament-standings-csv"),
    path("tournaments/<int:tournament_id>/ranking.csv", results_views.ranking_csv, name="tournament-ranking-csv"),
    path("results/<str:token>/", results_views.results_page, name="results"),
    path("results/<str:token>/standings-after-<int:series_number>.csv", results_views.results_standings_csv,
         name="results-standings-csv"),
    path("results/<str:token>/ranking.csv", results_views.results_ranking_csv, name="results-ranking-csv"),
    path("tournaments/<int:tournament_id>/standings/", standings_views.tournament_standings,
         name="tournament-standings"),
    path("tournaments/<int:tournament_id>/money/", standings_views.money_page, name="tournament-money"),
    path("standings/<str:token>/", standings_views.viewer_standings, name="standings-viewer"),
    path("standings/<str:token>/screen/", standings_views.viewer_screen, name="standings-screen"),
    path("standings/<str:token>/board/<str:kind>/<str:language>/", standings_views.viewer_board,
         name="standings-board"),
    path("admin/", admin.site.urls),
]
