from django.contrib import admin
from django.urls import path

from . import api, views

urlpatterns = [
    path("", views.home, name="home"),
    path("adjudicate/", views.adjudicate_page, name="adjudicate"),
    path("api/adjudicate", api.adjudicate, name="api-adjudicate"),
    path("admin/", admin.site.urls),
]
