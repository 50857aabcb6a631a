from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


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
