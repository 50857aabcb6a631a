from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django_stubs_ext import monkeypatch

# Django's generic classes take type arguments at run time too (admin.ModelAdmin[Club]), as django-stubs has
# them for mypy. Here, not in the settings: this module is imported first when Django starts (INSTALLED_APPS),
# and `manage.py adjudicate FILE` reads the settings without importing Django.
monkeypatch()


class ScorekeepConfig(AppConfig):
    default = True  # the app's own config; AdminConfig below is named in INSTALLED_APPS instead of Django's admin
    name = "scorekeep"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scorekeep import checks  # noqa: F401 - registers the self-checks of a production start


class AdminConfig(admin_apps.AdminConfig):
    """Django's admin with the site of scorekeep.web.admin_site (its log-in throttled, 429 past the limit)."""

    default = False
    default_site = "scorekeep.web.admin_site.Site"
