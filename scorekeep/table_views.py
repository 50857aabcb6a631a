"""A table at a card night: ledger, deal entry, a deal's page. (Being written.)"""

from django.http import Http404, HttpRequest, HttpResponse


def _todo(request: HttpRequest, **kwargs: object) -> HttpResponse:
    raise Http404("not yet")


table_page = deal_new = deal_page = deal_delete = deal_restore = _todo
