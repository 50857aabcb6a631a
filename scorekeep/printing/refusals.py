"""The answers where a PDF cannot be had just now (503): the queue is full, or no PDF can be made here."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext

from scorekeep.printing import pdf


def pdf_busy() -> HttpResponse:
    """The answer while the render queue is full (`pdf.PdfBusy`): 503 with when to try again."""
    response = HttpResponse(gettext("Many PDFs are being made just now; try again in a few seconds."),
                            content_type="text/plain; charset=utf-8", status=503)
    response["Retry-After"] = str(pdf.RETRY_AFTER)
    return response


def pdf_unavailable(err: pdf.PdfUnavailable) -> HttpResponse:
    """The answer where no PDF can be made (`pdf.PdfUnavailable`): 503, pointing to the printout instead."""
    return HttpResponse(gettext("No PDF can be made just now (%(reason)s); use the printout and your "
                                "browser's Print instead.") % {"reason": err},
                        content_type="text/plain; charset=utf-8", status=503)
