"""Django admin for the site owner: look into players, nights, tables, deals and their history.

Only what no verdict depends on can be changed here: a night's place, date and currency, a
player's name. The rule set, Bock, seating and deals are read-only — a change behind the ledger's
back would skip the recomputation and the history (`scorekeep.nights.writes` does both), so those changes
go through the card-night pages.
"""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from scorekeep.models import CardNight, CardTable, Club, Deal, DealRevision, NightRevision, Player, TablePlayer

# admin.site is scorekeep.web.admin_site.Site (settings.INSTALLED_APPS): its log-in is throttled.


class ReadOnlyAdmin(admin.ModelAdmin[Any]):
    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline[Any, Any]):
    extra = 0

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin[Club]):
    search_fields = ["name"]
    list_display = ["name", "owner", "created"]
    readonly_fields = ["created"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    search_fields = ["name"]
    list_display = ["name", "club", "created"]
    readonly_fields = ["club"]  # the player's places are at the club's nights


class TablePlayerInline(ReadOnlyInline):
    model = TablePlayer


@admin.register(CardTable)
class CardTableAdmin(ReadOnlyAdmin):
    list_display = ["night", "number", "seats"]
    list_select_related = ["night"]
    inlines = [TablePlayerInline]


class CardTableInline(ReadOnlyInline):
    model = CardTable
    show_change_link = True


@admin.register(CardNight)
class CardNightAdmin(admin.ModelAdmin[CardNight]):
    list_display = ["date", "place", "club", "game", "preset", "finished"]
    list_filter = ["game", "finished"]
    search_fields = ["place"]
    # The club too: its players sit at the night's tables, so a night cannot change clubs.
    readonly_fields = ["club", "game", "preset", "house_rules", "series_length", "round_length", "bock_events",
                       "bock_length", "finished", "version", "created"]
    inlines = [CardTableInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a night is started on /nights/new/, where its first table is seated


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin):
    list_display = ["table", "sequence", "dealer", "bock", "deleted", "entered_by", "entered_at"]
    list_filter = ["deleted", "bock"]
    list_select_related = ["table__night"]


@admin.register(DealRevision)
class DealRevisionAdmin(ReadOnlyAdmin):
    list_display = ["deal", "kind", "by", "at", "reason"]
    list_select_related = ["deal__table__night"]


@admin.register(NightRevision)
class NightRevisionAdmin(ReadOnlyAdmin):
    list_display = ["night", "by", "at", "reason"]
    list_select_related = ["night"]
