"""Every host's nights and players become a club's (issue 17), nothing lost.

Each host gets a club named after their account, owned by them, holding their nights; the nights without
a host go to one club without an owner (`clubs.UNHOSTED`: only the site owner sees it). A player becomes
the player of the club of the nights they sat at; a player who sat at two hosts' nights becomes two
players, one in each club, each keeping the places at that club's nights (the first keeps the id). A
player who sat at no night goes to the club without an owner.
"""

from django.conf import settings
from django.db import migrations

UNHOSTED = "Without a host"  # scorekeep.clubs.UNHOSTED, copied: a migration does not import the app's code


def into_clubs(apps, schema_editor):
    Club = apps.get_model("scorekeep", "Club")
    CardNight = apps.get_model("scorekeep", "CardNight")
    Player = apps.get_model("scorekeep", "Player")
    TablePlayer = apps.get_model("scorekeep", "TablePlayer")
    User = apps.get_model(settings.AUTH_USER_MODEL)

    club_of_host = {}

    def club_for(host_id):
        if host_id not in club_of_host:
            if host_id is None:
                club = Club.objects.filter(owner=None, name=UNHOSTED).first() or Club.objects.create(name=UNHOSTED)
            else:
                club = Club.objects.create(name=User.objects.get(pk=host_id).username[:80], owner_id=host_id)
            club_of_host[host_id] = club
        return club_of_host[host_id]

    for host_id in CardNight.objects.order_by().values_list("host_id", flat=True).distinct():
        CardNight.objects.filter(host_id=host_id).update(club=club_for(host_id))

    for player in Player.objects.order_by("pk"):
        hosts = sorted({host for host in TablePlayer.objects.filter(player=player)
                        .values_list("table__night__host_id", flat=True)}, key=lambda h: (h is not None, h or 0))
        if not hosts:
            player.club = club_for(None)
            player.save(update_fields=["club"])
            continue
        first, *others = hosts
        player.club = club_for(first)
        player.save(update_fields=["club"])
        for host_id in others:
            twin = Player.objects.create(name=player.name, key=player.key, club=club_for(host_id))
            Player.objects.filter(pk=twin.pk).update(created=player.created)  # auto_now_add set it to now
            # None sorts first, so every other host is an account.
            TablePlayer.objects.filter(player=player, table__night__host_id=host_id).update(player=twin)


class Migration(migrations.Migration):

    dependencies = [
        ('scorekeep', '0009_clubs'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    # Back to one global list would have to merge the twins again: the data stays as it is, the fields go.
    operations = [migrations.RunPython(into_clubs, migrations.RunPython.noop)]
