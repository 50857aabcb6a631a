"""Route of a night's settlement page (included at the site's root)."""

from django.urls import path

from . import settlement_views

urlpatterns = [
    path("nights/<int:night_id>/settlement/", settlement_views.night_settlement, name="night-settlement"),
]
