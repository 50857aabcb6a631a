"""Loading what a night's pages show, in a fixed number of queries however many deals it has."""

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404

from scorekeep.models import CardNight, CardTable, Deal, TablePlayer


def load_night(night_id: int) -> CardNight:
    """The night with its tables, each table's players and live deals (`table.live_deals`), in three
    more queries; 404 for a night that does not exist."""
    tables = CardTable.objects.prefetch_related(
        Prefetch("places", queryset=TablePlayer.objects.select_related("player")),
        Prefetch("deals", queryset=Deal.objects.filter(deleted=False).order_by("sequence"), to_attr="live_deals"),
    )
    return get_object_or_404(CardNight.objects.prefetch_related(Prefetch("tables", queryset=tables)), pk=night_id)
