from django.apps import AppConfig


class ScorekeepConfig(AppConfig):
    name = "scorekeep"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scorekeep import checks  # noqa: F401 - registers the self-checks of a production start
