"""Every player and night has its club now (`0010_players_into_clubs`): required from here on, and a
player's name unique within the club (its case-folded key)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scorekeep', '0010_players_into_clubs'),
    ]

    operations = [
        migrations.AlterField(
            model_name='cardnight',
            name='club',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='nights',
                                    to='scorekeep.club', verbose_name='club'),
        ),
        migrations.AlterField(
            model_name='player',
            name='club',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='players',
                                    to='scorekeep.club', verbose_name='club'),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.UniqueConstraint(fields=('club', 'key'), name='one_name_a_club'),
        ),
    ]
