"""Card nights: list, start, overview, settings, ledger JSON, printout. (Being written.)"""

from django.http import Http404, HttpRequest, HttpResponse


def _todo(request: HttpRequest, **kwargs: object) -> HttpResponse:
    raise Http404("not yet")


night_list = night_new = night_page = night_settings = table_new = night_json = night_print = _todo
