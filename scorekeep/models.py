"""What a card night keeps: players, the night and its rule set, tables and their seats, deals and
every correction of a deal.

A deal stores the facts the table declared (the adjudication contract's ``deal`` object, seats as
the engine numbers them for that deal) and the engine's verdict for them. The verdict is always
recomputable from the facts and is recomputed whenever facts or house rules change
(`scorekeep.ledger.recompute`); running totals, Bock deals, deal numbers and the series count are
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

GAME_CHOICES = [("skat", _("Skat")), ("schafkopf", _("Schafkopf")), ("kop", _("Kop")), ("fipsen", _("Fipsen"))]
assert {key for key, _label in GAME_CHOICES} == set(GAMES)


class OrderedJSONField(models.JSONField):  # type: ignore[type-arg]
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


class Club(models.Model):
    """A group of players run by one or more hosts: it owns its players and card nights, and nobody but
    its hosts (and the site owner) sees them — a night's link holders see that night (`scorekeep.access`).

    The owner started the club; co-hosts were invited (by a link or by their account name) and have the
    same rights. A club without an owner holds the nights started without a host (the demo nights,
    nights from before accounts): only the site owner sees those.
    """

    name = models.CharField(_("name"), max_length=80)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("owner"), null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="owned_clubs")
    cohosts = models.ManyToManyField(settings.AUTH_USER_MODEL, verbose_name=_("co-hosts"), blank=True,
                                     related_name="cohosted_clubs")
    # Ratings (OpenSkill, `scorekeep.ratings`) beside the plain figures: off until the club's hosts turn them on.
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
    # Schafkopf (money): the engine's amounts are cents of this currency.
    currency = models.CharField(_("currency"), max_length=3, default="EUR")
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
    # Who runs the night (scorekeep.access): the host's account, and the two links for the table. A new
    # token revokes the old link: a phone that opened it loses access at its next request.
    host = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("host"), null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="card_nights")
    # The club the night belongs to: its hosts run the night, and its players sit at the night's tables.
    club = models.ForeignKey(Club, verbose_name=pgettext_lazy("association", "club"), on_delete=models.PROTECT,
                             related_name="nights")
    scorer_token = models.CharField(max_length=43, unique=True, default=new_token, editable=False)
    viewer_token = models.CharField(max_length=43, unique=True, default=new_token, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    # Bumped on every change of the night's data, so a page can tell whether it is current.
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-date", "-id"]

    def __str__(self) -> str:
        return f"{self.get_game_display()} {self.date:%Y-%m-%d}" + (f" {self.place}" if self.place else "")

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
        """The scores are cents of the night's currency (Schafkopf's tariff), not points."""
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
    """A named period of one game's nights of a club, ranked by the club's rules (`scorekeep.seasons`).

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
    4); players beyond it sit out in turn (`scorekeep.ledger.seating`).
    """

    night = models.ForeignKey(CardNight, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(default=1)
    seats = models.PositiveSmallIntegerField()
    first_dealer = models.PositiveSmallIntegerField(default=0)  # a position in the seating order
    # Bumped by every write to this table's deals and every change of the night: the table page's live
    # ledger is current while it is unchanged (scorekeep.live), whatever happens at the other tables.
    version = models.PositiveIntegerField(default=0)
    # Where the table stands after its live deals (totals, games, Bock to come, who dealt last): derived state,
    # kept so a page, a poll and a save need not read every deal (`scorekeep.ledger.Standing`). Empty: not
    # kept yet (a table from before), walked from the deals when asked.
    standing = models.JSONField(default=dict, blank=True, editable=False)

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
    bock = models.BooleanField(default=False)  # derived from the deals before (ledger.recompute)
    entered_by = models.CharField(max_length=40, blank=True)
    entered_at = models.DateTimeField(default=timezone.now)
    deleted = models.BooleanField(default=False)
    # Bumped by every correction, deletion and restoring: an edit sent from an older version is refused
    # (optimistic concurrency), naming what changed meanwhile.
    version = models.PositiveIntegerField(default=1)

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

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="revisions")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # What the deal was before and after: {"facts": …, "seating": …, "dealer": …}.
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
    """The attempts a throttle counts (`scorekeep.throttle`) for one scope ("login", "token", …) and one
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
