"""Issue 33: a finished list takes changes only after a confirmation. The night keeps when it was finished and
what it settled then (`CardNight.finish`); a deal's change made after the finish is marked so (`after_finish`)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("scorekeep", "0018_org_results_paper")]

    operations = [
        migrations.AddField(model_name="cardnight", name="finish",
                            field=models.JSONField(blank=True, default=dict, editable=False)),
        migrations.AddField(model_name="dealrevision", name="after_finish", field=models.BooleanField(default=False)),
    ]
