import secrets

from django.conf import settings
from django.db import migrations, models

import scorekeep.models


def fill_tokens(apps, schema_editor):
    CardNight = apps.get_model("scorekeep", "CardNight")
    for night in CardNight.objects.all():
        night.scorer_token = secrets.token_urlsafe(16)
        night.viewer_token = secrets.token_urlsafe(16)
        night.save(update_fields=["scorer_token", "viewer_token"])


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeep", "0001_cardnights"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="cardnight", name="host",
            field=models.ForeignKey(blank=True, null=True, on_delete=models.deletion.SET_NULL,
                                    related_name="card_nights", to=settings.AUTH_USER_MODEL, verbose_name="host"),
        ),
        migrations.AddField(model_name="cardnight", name="settlement",
                            field=models.JSONField(blank=True, default=dict, verbose_name="settlement")),
        migrations.AddField(model_name="cardnight", name="scorer_token",
                            field=models.CharField(editable=False, max_length=43, null=True)),
        migrations.AddField(model_name="cardnight", name="viewer_token",
                            field=models.CharField(editable=False, max_length=43, null=True)),
        migrations.RunPython(fill_tokens, migrations.RunPython.noop),
        migrations.AlterField(model_name="cardnight", name="scorer_token",
                              field=models.CharField(default=scorekeep.models.new_token, editable=False,
                                                     max_length=43, unique=True)),
        migrations.AlterField(model_name="cardnight", name="viewer_token",
                              field=models.CharField(default=scorekeep.models.new_token, editable=False,
                                                     max_length=43, unique=True)),
        migrations.AddField(model_name="deal", name="version", field=models.PositiveIntegerField(default=1)),
        migrations.AddField(model_name="dealrevision", name="request_key",
                            field=models.CharField(blank=True, max_length=64, null=True, unique=True)),
    ]
