"""Django admin for the site owner: look into players, nights, tables, deals and their history.

Deals and revisions are read-only here: a change made behind the ledger's back would skip the
recomputation and the history (`scorekeep.nights` does both), so corrections go through the pages.
"""

from django.contrib import admin

from .models import CardNight, CardTable, Deal, DealRevision, NightRevision, Player, TablePlayer


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    search_fields = ["name"]
    list_display = ["name", "created"]


class TablePlayerInline(admin.TabularInline):
    model = TablePlayer
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(CardTable)
class CardTableAdmin(admin.ModelAdmin):
    list_display = ["night", "number", "seats"]
    inlines = [TablePlayerInline]


class CardTableInline(admin.TabularInline):
    model = CardTable
    extra = 0
    show_change_link = True


@admin.register(CardNight)
class CardNightAdmin(admin.ModelAdmin):
    list_display = ["date", "place", "game", "preset", "finished"]
    list_filter = ["game", "finished"]
    search_fields = ["place"]
    readonly_fields = ["version", "created"]
    inlines = [CardTableInline]


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin):
    list_display = ["table", "sequence", "dealer", "bock", "deleted", "entered_by", "entered_at"]
    list_filter = ["deleted", "bock"]


@admin.register(DealRevision)
class DealRevisionAdmin(ReadOnlyAdmin):
    list_display = ["deal", "kind", "by", "at", "reason"]


@admin.register(NightRevision)
class NightRevisionAdmin(ReadOnlyAdmin):
    list_display = ["night", "by", "at", "reason"]
