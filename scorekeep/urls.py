from django.contrib import admin
from django.urls import path

from . import api, night_views, table_views, views

TABLE = "nights/<int:night_id>/tables/<int:table_number>/"

urlpatterns = [
    path("", views.home, name="home"),
    path("adjudicate/", views.adjudicate_page, name="adjudicate"),
    path("api/adjudicate", api.adjudicate, name="api-adjudicate"),
    path("nights/", night_views.night_list, name="nights"),
    path("nights/new/", night_views.night_new, name="night-new"),
    path("nights/<int:night_id>/", night_views.night_page, name="night"),
    path("nights/<int:night_id>/settings/", night_views.night_settings, name="night-settings"),
    path("nights/<int:night_id>/finish/", night_views.night_finish, name="night-finish"),
    path("nights/<int:night_id>/tables/new/", night_views.table_new, name="table-new"),
    path("nights/<int:night_id>/ledger.json", night_views.night_json, name="night-json"),
    path("nights/<int:night_id>/print/", night_views.night_print, name="night-print"),
    path(TABLE, table_views.table_page, name="table"),
    path(TABLE + "deals/new/", table_views.deal_new, name="deal-new"),
    path(TABLE + "deals/<int:sequence>/", table_views.deal_page, name="deal"),
    path(TABLE + "deals/<int:sequence>/delete/", table_views.deal_delete, name="deal-delete"),
    path(TABLE + "deals/<int:sequence>/restore/", table_views.deal_restore, name="deal-restore"),
    path("admin/", admin.site.urls),
]
