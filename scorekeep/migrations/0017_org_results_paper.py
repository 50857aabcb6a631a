"""A tournament table's series result typed from its paper list (issue 31)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeep", "0016_tournament_lots"),
    ]

    operations = [
        migrations.AddField(
            model_name="cardtable",
            name="paper",
            field=models.JSONField(blank=True, default=dict, editable=False),
        ),
    ]
