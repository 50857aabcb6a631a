from django.apps import AppConfig


class ScorekeepConfig(AppConfig):
    name = "scorekeep"
    default_auto_field = "django.db.models.BigAutoField"
