from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scorekeep', '0016_tournament_lots'),
    ]

    operations = [
        migrations.AddField(
            model_name='entrant',
            name='member_number',
            field=models.CharField(blank=True, max_length=20, verbose_name='member number'),
        ),
    ]
