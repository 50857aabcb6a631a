"""`python manage.py loaddemo`: one finished card night per game, with realistic deals.

Prints each night's viewer and scorer links (anyone who opens one reaches the night, no account
needed), its page, ledger JSON and printout URL. `--host NAME` makes an existing account the
owner of the nights' club, "Demo club" (otherwise only the links and the site owner reach them). Everything
is created in one transaction: a deal the engine refuses leaves nothing behind. `--replace` first removes the
earlier demo nights (those whose place starts with "Demo") and the demo clubs they leave empty.
`--seasons` adds twelve Skat nights of the demo club and its two seasons (autumn 2024, spring 2025), and turns
the club's ratings on.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from scorekeep.clubs import clubs
from scorekeep.clubs import seasons as club_seasons
from scorekeep.models import CardNight, Club, DealRevision
from scorekeep.nights import demo
from scorekeep.nights import writes as nights
from scorekeep.rules import IllegalDeal

EVENING_START = datetime.time(19, 0)
MINUTES_A_DEAL = 3  # the entry times of the demo deals, as a table plays them


class Command(BaseCommand):
    help = "Create one finished demo card night per game and print the URLs of its pages."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--base-url", default="http://127.0.0.1:8000",
                            help="where the site is served, for the printed URLs (default %(default)s)")
        parser.add_argument("--replace", action="store_true",
                            help="remove the earlier demo nights (place starting with \"Demo\") first")
        parser.add_argument("--seasons", action="store_true",
                            help="also twelve Skat club nights and the demo club's two seasons over them")
        parser.add_argument("--host", default="", metavar="NAME",
                            help="the account (user name) that hosts the demo nights; it must exist")

    def handle(self, *args: Any, base_url: str, replace: bool, host: str, seasons: bool = False,
               **options: Any) -> None:
        base = base_url.rstrip("/")
        self.host = None
        if host:
            self.host = get_user_model().objects.filter(username=host).first()
            if self.host is None:
                raise CommandError(f"--host: there is no account named {host!r}; create it first "
                                   "(sign up on the site, or manage.py createsuperuser)")
        try:
            with transaction.atomic():
                if replace:
                    removed, _detail = CardNight.objects.filter(place__startswith=demo.PLACE_PREFIX).delete()
                    Club.objects.filter(name=demo.CLUB, nights__isnull=True).delete()
                    if removed:
                        self.stdout.write("Removed the earlier demo nights.")
                self.club = Club.objects.create(name=demo.CLUB, owner=self.host)
                created = [(spec, self._create(spec)) for spec in demo.nights()]
                if seasons:
                    for spec in demo.season_nights():
                        self._create(spec)
                    made = [club_seasons.start_season(self.club, name=item.name, game="skat",
                                                      start=datetime.date.fromisoformat(item.start),
                                                      end=datetime.date.fromisoformat(item.end), basis=item.basis,
                                                      min_nights=item.min_nights, best_of=item.best_of,
                                                      drop_every=item.drop_every,
                                                      absence_penalty=item.absence_penalty)
                            for item in demo.SEASONS]
                    self.club = clubs.set_ratings(self.club, True)  # the demo shows them; a new club starts without
        except IllegalDeal as err:  # a demo deal the engine refuses: a bug in scorekeep/nights/demo.py
            raise CommandError(f"a demo deal was refused: {err.field}: {err}") from err
        for spec, night in created:
            self.stdout.write(f"{spec.label}: {base}{reverse('night', args=[night.id])}")
            self.stdout.write(f"  viewer link: {base}{reverse('join', args=[night.viewer_token])}")
            self.stdout.write(f"  scorer link: {base}{reverse('join', args=[night.scorer_token])}")
            self.stdout.write(f"  ledger JSON: {base}{reverse('night-json', args=[night.id])}")
            self.stdout.write(f"  printout:    {base}{reverse('night-print', args=[night.id])}")
        if seasons:
            self.stdout.write(f"{self.club.name}: {base}{reverse('club', args=[self.club.pk])}")
            for season in made:
                self.stdout.write(f"  season {season.name}: {base}{reverse('season', args=[self.club.pk, season.pk])}")
        self.stdout.write("Open a viewer or scorer link first (it lets this browser in); the night's host"
                          + (f" ({self.host.get_username()})" if self.host else " (none: use --host)")
                          + " and the site owner reach the pages directly.")

    def _create(self, spec: demo.DemoNight) -> CardNight:
        night = nights.start_night(game=spec.game, preset=spec.preset, players=spec.players,
                                   first_dealer=spec.first_dealer, house_rules=spec.house_rules,
                                   date=datetime.date.fromisoformat(spec.date), place=spec.place, host=self.host,
                                   club=self.club,
                                   **spec.settings)
        table = night.tables.get()
        start = timezone.make_aware(datetime.datetime.combine(night.date, EVENING_START))
        for number, facts in enumerate(spec.deals):
            by = spec.players[number % len(spec.players)]  # the scorer changes through the evening
            deal = nights.enter_deal(table, facts, by=by)
            at = start + datetime.timedelta(minutes=MINUTES_A_DEAL * number)
            type(deal).objects.filter(pk=deal.pk).update(entered_at=at)
            DealRevision.objects.filter(deal=deal).update(at=at)
        CardNight.objects.filter(pk=night.pk).update(finished=True)
        night.refresh_from_db()
        return night
