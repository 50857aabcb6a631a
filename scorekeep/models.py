"""What a card night keeps: players, the night and its rule set, tables and their seats, deals and
every correction of a deal.

A deal stores the facts the table declared (the adjudication contract's ``deal`` object, seats as
the engine numbers them for that deal) and the engine's verdict for them. The verdict is always
recomputable from the facts and is recomputed whenever facts or house rules change
(`scorekeep.nights.ledger.recompute`); running totals, Bock deals, deal numbers and the series count are
derived from the deal list, never stored by hand.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .rules import GAMES
from .rules.verdict import Recorded
from .words.labels import GAME_LABELS
from .words.money import currency_exponent

# The engine's games under their names; Django records the choices in migrations (the names are the same).
GAME_CHOICES = [(game, GAME_LABELS[game]) for game in GAMES]


class OrderedJSONField(models.JSONField):
    """JSON kept as it was written, its keys in the order the table entered them. PostgreSQL's ``jsonb``
    (Django's JSONField) reorders an object's keys, so pages, history and backups read differently from
    SQLite's; its ``json`` type keeps the text. Not for fields that are queried into or compared in SQL
    (``json`` has no equality): a deal's facts and verdict and the revisions are only read whole."""

    def db_type(self, connection: Any) -> str | None:
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        prepped = super().get_db_prep_value(value, connection, prepared)
        if connection.vendor == "postgresql":  # sent as jsonb, the value would be reordered before it is stored
            from psycopg.types.json import Json, Jsonb

            if isinstance(prepped, Jsonb):
                return Json(prepped.obj, prepped.dumps)
        return prepped

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        # psycopg reads a ``json`` column into Python already (keys in order); Django reads ``jsonb`` as text.
        if isinstance(value, dict | list):
            return value
        return super().from_db_value(value, expression, connection)


def new_token() -> str:
    """An unguessable link token: 128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


def token_shaped(text: str) -> bool:
    """Whether `text` can be a link token at all (URL-safe base64, as `new_token` makes them; older ones were
    longer): anything else is wrong without asking the database, which might refuse to compare it (a NUL)."""
    return len(text) <= 64 and all(c.isascii() and (c.isalnum() or c in "-_") for c in text) and bool(text)


class Club(models.Model):
    """A group of players run by one or more hosts: it owns its players and card nights, and nobody but
    its hosts (and the site owner) sees them — a night's link holders see that night (`scorekeep.web.access`).

    The owner started the club; co-hosts were invited (by a link or by their account name) and have the
    same rights. A club without an owner holds the nights started without a host (the demo nights,
    nights from before accounts): only the site owner sees those.
    """

    name = models.CharField(_("name"), max_length=80)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("owner"), null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="owned_clubs")
    cohosts = models.ManyToManyField(settings.AUTH_USER_MODEL, verbose_name=_("co-hosts"), blank=True,
                                     related_name="cohosted_clubs")
    # Ratings (OpenSkill, `scorekeep.clubs.ratings`) beside the plain figures: off until the club's hosts turn them on.
    ratings = models.BooleanField(_("show ratings"), default=False)
    # The co-host invitation link: whoever opens it logged in becomes a host. A new token revokes the old link.
    invite_token = models.CharField(max_length=43, unique=True, default=new_token, editable=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def hosted_by(self, user: Any) -> bool:
        """Whether `user` runs the club: its owner or a co-host (the site owner may do everything anyway)."""
        if user is None or not user.is_authenticated:
            return False
        return self.owner_id == user.pk or self.cohosts.filter(pk=user.pk).exists()


class Player(models.Model):
    """A person who plays in a club; kept across the club's card nights so statistics can follow them.
    The same person in two clubs is two players: no club learns who plays in another."""

    club = models.ForeignKey(Club, verbose_name=pgettext_lazy("association", "club"), on_delete=models.CASCADE,
                             related_name="players")
    name = models.CharField(_("name"), max_length=40)
    # The name case-folded, so "Jürgen" and "jürgen" are one player of a club on every database (SQLite's
    # case-insensitive matching knows only ASCII). Folding can lengthen a name ("ß" becomes "ss"; one
    # character folds to at most three), so the key has room for three times the name.
    key = models.CharField(max_length=120, editable=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["club", "key"], name="one_name_a_club")]

    def __str__(self) -> str:
        return self.name

    @staticmethod
    def key_of(name: str) -> str:
        return " ".join(name.split()).casefold()

    def clean(self) -> None:
        if Player.objects.filter(club_id=self.club_id, key=self.key_of(self.name)).exclude(pk=self.pk).exists():
            raise ValidationError({"name": _("There is already a player of that name in this club.")})

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.key = self.key_of(self.name)
        super().save(*args, **kwargs)


class CardNight(models.Model):
    """One evening of one game under one rule set: the preset and the house rules that differ from it."""

    date = models.DateField(_("date"), default=timezone.localdate)
    place = models.CharField(_("place"), max_length=100, blank=True)
    game = models.CharField(_("game"), max_length=12, choices=GAME_CHOICES)
    preset = models.CharField(_("rule set"), max_length=20)
    # Only the options that differ from the preset, as the contract's ``rules`` object writes them.
    house_rules = models.JSONField(_("house rules"), default=dict, blank=True)
    # Skat: a series of 36 or 48 deals (passed deals count); null: open-ended.
    series_length = models.PositiveSmallIntegerField(_("series length"), null=True, blank=True)
    # Kop: deals per round for the round placing; null: the whole night is one round.
    round_length = models.PositiveSmallIntegerField(_("deals per round"), null=True, blank=True)
    # Schafkopf (money): the engine's amounts are counts of this currency's minor unit (cents, yen); the
    # settlement's fees too, in every game.
    currency = models.CharField(_("currency"), max_length=3, default="EUR")
    # How many decimals that unit is (scorekeep.words.money): set from the currency when the night is made or its
    # currency changes, kept with the night so that a stored integer always means the same money.
    amount_exponent = models.PositiveSmallIntegerField(_("decimals of the amounts"), null=True, blank=True,
                                                       editable=False)
    # Bock rounds (Skat, Schafkopf, where the rule set has Bock): which events start one, and how
    # many deals one lasts (null: one round, a deal for every player at the table).
    bock_events = models.JSONField(_("Bock events"), default=list, blank=True)
    bock_length = models.PositiveSmallIntegerField(_("Bock deals"), null=True, blank=True)
    finished = models.BooleanField(_("finished"), default=False)
    # The language of the night's printout and PDF: empty, the reader's own (the page's language).
    print_language = models.CharField(_("printout language"), max_length=8, blank=True, default="",
                                      choices=[("", _("the reader's language")), *settings.LANGUAGES])
    # Settling the night in money (issue 5): rate per point, rounding, fees, prize split.
    settlement = models.JSONField(_("settlement"), default=dict, blank=True)
    # Who runs the night (scorekeep.web.access): the host's account, and the two links for the table. A new
    # token revokes the old link: a phone that opened it loses access at its next request.
    host = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("host"), null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="card_nights")
    # The club the night belongs to: its hosts run the night, and its players sit at the night's tables.
    club = models.ForeignKey(Club, verbose_name=pgettext_lazy("association", "club"), on_delete=models.PROTECT,
                             related_name="nights")
    scorer_token = models.CharField(max_length=43, unique=True, default=new_token, editable=False)
    viewer_token = models.CharField(max_length=43, unique=True, default=new_token, editable=False)
    # A table of a tournament's series (issue 18): the night is that table's list; null for a card night.
    series = models.ForeignKey("Series", null=True, blank=True, on_delete=models.CASCADE, related_name="nights")
    created = models.DateTimeField(auto_now_add=True)
    # Bumped on every change of the night's data, so a page can tell whether it is current.
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-date", "-id"]

    def __str__(self) -> str:
        return f"{self.get_game_display()} {self.date:%Y-%m-%d}" + (f" {self.place}" if self.place else "")

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.amount_exponent is None:
            self.amount_exponent = currency_exponent(self.currency)
        super().save(*args, **kwargs)

    @property
    def exponent(self) -> int:
        """The decimals of the unit the night's amounts count (EUR cents 2, whole yen 0): scorekeep.words.money."""
        return currency_exponent(self.currency) if self.amount_exponent is None else self.amount_exponent

    @classmethod
    def from_db(cls, db: Any, field_names: Any, values: Any) -> CardNight:
        """The night as stored, its house rules in the game's own order of options (PostgreSQL's ``jsonb``
        keeps an object's keys in an order of its own; the night's other JSON is queried, so stays ``jsonb``)."""
        night = super().from_db(db, field_names, values)
        rules = night.__dict__.get("house_rules")
        if isinstance(rules, dict) and night.__dict__.get("game") in GAMES:
            order = {key: i for i, key in enumerate(GAMES[night.game].OPTIONS)}
            night.house_rules = dict(sorted(rules.items(), key=lambda item: order.get(item[0], len(order))))
        return night

    @property
    def rules_request(self) -> dict[str, Any]:
        """The contract's ``rules`` object for every deal of the night."""
        return {"preset": self.preset, **self.house_rules}

    # What the game's rules say about its scores (each game module of scorekeep.rules says it).
    @property
    def money(self) -> bool:
        """The scores are money in the night's currency's minor unit (Schafkopf's tariff), not points."""
        return bool(GAMES[self.game].MONEY)

    @property
    def zero_sum(self) -> bool:
        """Every deal's scores sum to zero (what one side wins the other pays)."""
        return bool(GAMES[self.game].ZERO_SUM)

    @property
    def seeger_fabian(self) -> bool:
        """The list is evaluated by Seeger-Fabian points, and a player's performance adds them (Skat)."""
        return bool(GAMES[self.game].SEEGER_FABIAN)


class Season(models.Model):
    """A named period of one game's nights of a club, ranked by the club's rules (`scorekeep.clubs.seasons`).

    The basis is one the game's engine module offers (`rules.season`: Skat's Seeger-Fabian points or their
    average per series, Schafkopf's money, Kop's placing points …). Only nights within the period count;
    standings are derived from the stored verdicts whenever asked, never kept."""

    club = models.ForeignKey(Club, verbose_name=pgettext_lazy("association", "club"), on_delete=models.CASCADE,
                             related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    game = models.CharField(_("game"), max_length=12, choices=GAME_CHOICES)
    start = models.DateField(_("first day"))
    end = models.DateField(_("last day"))
    basis = models.CharField(_("ranked by"), max_length=40)
    # To be ranked, a player has played at least this many of the season's nights (fewer: listed, unranked).
    min_nights = models.PositiveSmallIntegerField(_("nights needed to be ranked"), default=0)
    # Count only the best n results of each player (null: all) …
    best_of = models.PositiveSmallIntegerField(_("count the best results"), null=True, blank=True)
    # … or drop the worst result for every k results (null: none dropped).
    drop_every = models.PositiveSmallIntegerField(_("drop the worst result every"), null=True, blank=True)
    # A night of the season a ranked player missed counts as a result of minus this (0: no penalty).
    absence_penalty = models.PositiveIntegerField(_("absence penalty"), default=0)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-start", "name", "id"]

    def __str__(self) -> str:
        return self.name


class CardTable(models.Model):
    """A table of a night: its players in seating order (clockwise) and who deals first.

    ``seats`` is the table size the engine scores (Skat 3 or 4, Fipsen 3 or 4, Schafkopf and Kop
    4); players beyond it sit out in turn (`scorekeep.nights.ledger.seating`).
    """

    night = models.ForeignKey(CardNight, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(default=1)
    seats = models.PositiveSmallIntegerField()
    first_dealer = models.PositiveSmallIntegerField(default=0)  # a position in the seating order
    # Bumped by every write to this table's deals and every change of the night: the table page's live
    # ledger is current while it is unchanged (scorekeep.web.live), whatever happens at the other tables.
    version = models.PositiveIntegerField(default=0)
    # Where the table stands after its live deals (totals, games, Bock to come, who dealt last): derived state,
    # kept so a page, a poll and a save need not read every deal (`scorekeep.nights.ledger.TableStanding`). Empty: not
    # kept yet (a table from before), walked from the deals when asked.
    standing = models.JSONField(default=dict, blank=True, editable=False)
    # A tournament table without a phone (issue 31): its series result as the organiser typed it from the
    # paper list — {"deals": n, "rows": [{"total": …, "won": …, "lost": …}, …] by position, "by", "at"} — which
    # counts until the deals typed in reach as many (`scorekeep.tournaments.paper`). Empty: none.
    paper = models.JSONField(default=dict, blank=True, editable=False)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["night", "number"], name="one_table_number_a_night")]

    def __str__(self) -> str:
        return f"{self.night} · table {self.number}"


class TablePlayer(models.Model):
    """A player's place at a table (0 … n−1 clockwise)."""

    table = models.ForeignKey(CardTable, on_delete=models.CASCADE, related_name="places")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="places")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_player_a_place"),
            models.UniqueConstraint(fields=["table", "player"], name="one_place_a_player"),
        ]


class Deal(models.Model):
    """One deal as the table declared it, and the engine's verdict for it.

    ``seating`` lists the positions (in `TablePlayer` order) of the players in the engine's seats
    0 … seats−1 for this deal, and ``dealer`` is the position of the player who dealt (who may sit
    out): the facts name seats, so they keep naming the same people when an earlier deal is
    corrected or deleted. ``facts`` is the
    contract's ``deal`` object as entered; ``bock`` is not entered but derived and added when judged.
    """

    table = models.ForeignKey(CardTable, on_delete=models.CASCADE, related_name="deals")
    # The order of play. Numbers shown to people are derived (deleted deals are skipped).
    sequence = models.PositiveIntegerField()
    seating = models.JSONField()
    dealer = models.PositiveSmallIntegerField()
    facts = OrderedJSONField()
    verdict = OrderedJSONField()
    # The cards as played (the contract's ``deal.play``, docs/PLAY.md), attached for the record: the facts
    # stay what the table entered and are what is scored; the page checks the cards against them.
    play = OrderedJSONField(null=True, blank=True)
    bock = models.BooleanField(default=False)  # derived from the deals before (ledger.recompute)
    entered_by = models.CharField(max_length=40, blank=True)
    entered_at = models.DateTimeField(default=timezone.now)
    deleted = models.BooleanField(default=False)
    # Bumped by every correction, deletion and restoring: an edit sent from an older version is refused
    # (optimistic concurrency), naming what changed meanwhile.
    version = models.PositiveIntegerField(default=1)
    # Not stored: True on the deal nights.writes found for a save sent again (its idempotency key), so the page
    # answers as for the first save.
    replayed: bool = False

    class Meta:
        ordering = ["sequence"]
        constraints = [models.UniqueConstraint(fields=["table", "sequence"], name="one_deal_a_sequence")]

    def __str__(self) -> str:
        return f"{self.table} · deal #{self.sequence}"

    @property
    def contract(self) -> str:
        """The contract the table declared ("grand", "sauspiel", "passed" …)."""
        return str(self.facts.get("contract", ""))

    @property
    def result(self) -> Recorded:
        """The stored verdict, typed (won, value, scores, Seeger-Fabian points, explanation, the game's own keys)."""
        return Recorded.from_json(self.verdict)


class DealRevision(models.Model):
    """One entry in a deal's history: its creation, each correction, its deletion or restoring."""

    class Kind(models.TextChoices):
        CREATED = "created", _("entered")
        CHANGED = "changed", _("changed")
        DELETED = "deleted", _("deleted")
        RESTORED = "restored", _("restored")
        PLAY = "play", _("played cards changed")

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="revisions")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # What the deal was before and after: {"facts": …, "seating": …, "dealer": …}, and "play" (the cards
    # attached) where there were cards before or after.
    old = OrderedJSONField(null=True, blank=True)
    new = OrderedJSONField(null=True, blank=True)
    by = models.CharField(max_length=40, blank=True)
    at = models.DateTimeField(default=timezone.now)
    reason = models.CharField(max_length=200, blank=True)
    # The idempotency key the phone sent with the change: the same key sent again (a double tap, a
    # retried request) finds this revision instead of making a second deal or a second correction.
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)

    class Meta:
        ordering = ["at", "id"]


class NightRevision(models.Model):
    """A change of a night's settings (rule set, house rules, Bock, series): what was there before."""

    night = models.ForeignKey(CardNight, on_delete=models.CASCADE, related_name="revisions")
    old = OrderedJSONField()
    new = OrderedJSONField()
    by = models.CharField(max_length=40, blank=True)
    at = models.DateTimeField(default=timezone.now)
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["at", "id"]


class Attempt(models.Model):
    """The attempts a throttle counts (`scorekeep.web.throttle`) for one scope ("login", "token", …) and one
    client address or account name: when each was made, while it is within the window. In the database,
    not the cache, so every process and thread counts the same attempts and takes its turn at the row's
    lock. Not card-night data: backups leave it out (`export.backed_up_models`)."""

    scope = models.CharField(max_length=20)
    who = models.CharField(max_length=200)
    made = models.JSONField(default=list)  # the attempts' times (seconds since the epoch), oldest first
    # When the newest attempt leaves the window: from then on the row counts nothing and is deleted.
    until = models.FloatField(db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scope", "who"], name="attempt_scope_who")]


class Tournament(models.Model):
    """A tournament a club organises (issue 18): one game under one rule set, played in series (Kop: rounds)
    at many tables, each table of each series a card night of its own (`CardNight.series`), so every table
    keeps its list with the table page as it is, its scorer link and its history.

    What the rule set says of a tournament — the series' length at a table of three or four, how tables are
    filled, what is checked when a table's list closes, the standings' order and tie-breaks — is the engine's
    (`scorekeep.rules.tournament`); the money is the organiser's: the entry fee, the lost-game money and the
    prize table, amounts in the currency's minor unit (`scorekeep.words.money`)."""

    club = models.ForeignKey(Club, verbose_name=pgettext_lazy("association", "club"), on_delete=models.PROTECT,
                             related_name="tournaments")
    name = models.CharField(_("name"), max_length=100)
    date = models.DateField(_("date"), default=timezone.localdate)
    place = models.CharField(_("place"), max_length=100, blank=True)
    game = models.CharField(_("game"), max_length=12, choices=GAME_CHOICES)
    preset = models.CharField(_("rule set"), max_length=20)
    house_rules = models.JSONField(_("house rules"), default=dict, blank=True)
    # How many series (Kop: rounds) are played, and the deals of one at a full table (the engine derives the
    # length at a smaller table: Skat 48 at four, 36 at three).
    series_count = models.PositiveSmallIntegerField(_("number of series"), default=2)
    series_length = models.PositiveSmallIntegerField(_("deals per series"))
    # How the second and later series are drawn: at random, or by the standings so far.
    DRAW_MODES = [("random", _("at random")), ("standings", _("by the standings"))]
    draw_mode = models.CharField(_("later series drawn"), max_length=10, choices=DRAW_MODES, default="random")
    currency = models.CharField(_("currency"), max_length=3, default="EUR")
    amount_exponent = models.PositiveSmallIntegerField(_("decimals of the amounts"), null=True, blank=True,
                                                       editable=False)
    entry_fee = models.PositiveIntegerField(_("entry fee"), default=0)  # minor units
    # Lost-game money, tiered by the count of lost games in a series: [{"from": 1, "amount": 50},
    # {"from": 4, "amount": 100}] — 0.50 for each of the first three, 1.00 from the fourth. Empty: none.
    lost_game_money = models.JSONField(_("lost-game money"), default=list, blank=True)
    # The prize table: {"kind": "amounts" | "shares", "places": [...], "retention": {"kind": "share" |
    # "amount", "value": n}} — amounts in minor units, shares in per mille of the pot.
    prizes = models.JSONField(_("prizes"), default=dict, blank=True)
    # Team scoring: registered teams rank by the sum of their members' results.
    teams = models.BooleanField(_("team scoring"), default=False)
    # Lots the organiser drew where players stay tied after every tie-break: by standings scope ("overall",
    # "series-2", "teams"), the tied start numbers (team ids) in the order drawn (`rules.ranking.rank`).
    lots = models.JSONField(_("lots"), default=dict, blank=True)
    print_language = models.CharField(_("printout language"), max_length=8, blank=True, default="",
                                      choices=[("", _("the reader's language")), *settings.LANGUAGES])
    # The standings link for the big screen and the players' phones (read-only, no account needed).
    viewer_token = models.CharField(max_length=43, unique=True, default=new_token, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    # Bumped on every change of the tournament's data (registration, a draw, a deal at any of its tables), so
    # the standings pages can answer 304 while nothing changed and never re-judge a deal.
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-date", "-id"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.amount_exponent is None:
            self.amount_exponent = currency_exponent(self.currency)
        super().save(*args, **kwargs)

    @property
    def exponent(self) -> int:
        return currency_exponent(self.currency) if self.amount_exponent is None else self.amount_exponent

    @property
    def rules_request(self) -> dict[str, Any]:
        return {"preset": self.preset, **self.house_rules}


class Team(models.Model):
    """A team registered for a tournament: ranked by the sum of its members' results."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="team_set")
    name = models.CharField(_("name"), max_length=80)

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="one_team_name_a_tournament")]

    def __str__(self) -> str:
        return self.name


class Entrant(models.Model):
    """A player registered for a tournament: a player of the organising club, or a guest (kept as a player of
    the organising club, marked as a guest, with the club they come from for the draw)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveSmallIntegerField(_("start number"))
    guest = models.BooleanField(_("guest"), default=False)
    home_club = models.CharField(_("club"), max_length=80, blank=True)  # for a guest: the club they come from
    team = models.ForeignKey(Team, verbose_name=_("team"), null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="members")
    # Late entries and withdrawals between series: plays series `first_series` … `last_series` (null: to the end).
    first_series = models.PositiveSmallIntegerField(default=1)
    last_series = models.PositiveSmallIntegerField(null=True, blank=True)
    paid = models.BooleanField(_("entry fee paid"), default=False)
    registered = models.DateTimeField(default=timezone.now)
    # The player's number in their association (a DSkV or club member number), kept as typed: shown on the
    # lists, standings and printouts so results can be reported to the association.
    member_number = models.CharField(_("member number"), max_length=20, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_a_player"),
            models.UniqueConstraint(fields=["tournament", "number"], name="one_start_number"),
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.player}"

    def plays(self, series: int) -> bool:
        return self.first_series <= series and (self.last_series is None or series <= self.last_series)


class Series(models.Model):
    """One series (Kop: round) of a tournament: its seating draw (the seed and what it was drawn from, so the
    draw can be shown to be fair and repeated) and its tables, each a card night (`CardNight.series`)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="series_set")
    number = models.PositiveSmallIntegerField()
    # The draw: how it was made, the seed, and the draw as made ({"tables": [[entrant number, …], …], …}).
    mode = models.CharField(max_length=10, default="random")
    seed = models.CharField(max_length=64, blank=True)
    draw = models.JSONField(default=dict, blank=True)
    drawn_at = models.DateTimeField(null=True, blank=True)
    closed = models.BooleanField(_("closed"), default=False)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="one_series_number")]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.number}"


class TournamentRevision(models.Model):
    """A change of a tournament the organiser made (registration, withdrawal, a draw, closing or reopening a
    series, settings): what was there before, kept like a night's revisions."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="revisions")
    kind = models.CharField(max_length=20)
    old = OrderedJSONField(null=True, blank=True)
    new = OrderedJSONField(null=True, blank=True)
    by = models.CharField(max_length=40, blank=True)
    at = models.DateTimeField(default=timezone.now)
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["at", "id"]
