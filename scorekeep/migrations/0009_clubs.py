"""Clubs (issue 17): a club owns its players and card nights. This step adds them, the club fields still
empty; `0010_players_into_clubs` fills them, `0011_club_required` then requires them."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import scorekeep.models


class Migration(migrations.Migration):

    dependencies = [
        ('scorekeep', '0008_table_standing'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Club',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=80, verbose_name='name')),
                ('invite_token', models.CharField(default=scorekeep.models.new_token, editable=False, max_length=43,
                                                  unique=True)),
                ('created', models.DateTimeField(auto_now_add=True)),
                ('owner', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                            related_name='owned_clubs', to=settings.AUTH_USER_MODEL,
                                            verbose_name='owner')),
                ('cohosts', models.ManyToManyField(blank=True, related_name='cohosted_clubs',
                                                   to=settings.AUTH_USER_MODEL, verbose_name='co-hosts')),
            ],
            options={'ordering': ['name', 'id']},
        ),
        migrations.AddField(
            model_name='cardnight',
            name='club',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name='nights',
                                    to='scorekeep.club', verbose_name='club'),
        ),
        migrations.AddField(
            model_name='player',
            name='club',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name='players',
                                    to='scorekeep.club', verbose_name='club'),
        ),
        # Names are unique within a club only (the constraint follows once every player has a club).
        migrations.AlterField(
            model_name='player',
            name='name',
            field=models.CharField(max_length=40, verbose_name='name'),
        ),
        migrations.AlterField(
            model_name='player',
            name='key',
            field=models.CharField(editable=False, max_length=120),
        ),
    ]
