"""The printed list of a night and its PDF; included at the site's root by `scorekeep.urls`."""

from django.urls import path

from . import print_views

urlpatterns = [
    path("nights/<int:night_id>/print/", print_views.night_print, name="night-print"),
    path("nights/<int:night_id>/print.pdf", print_views.night_pdf, name="night-pdf"),
]
