"""The benchmarks' Server-Timing (scorekeep.web.timing): what a request cost the server, split as the spectators'
bench reports it — its CPU, its time inside the app, and of that the database's."""

import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from scorekeep.web.timing import ServerTiming


def timing(response: HttpResponse) -> dict[str, float]:
    return {name: float(value) for name, value in re.findall(r"(\w+);dur=([0-9.]+)", response["Server-Timing"])}


@pytest.mark.django_db
def test_the_answer_says_its_cpu_its_time_in_the_app_and_of_that_the_databases() -> None:
    def view(request: HttpRequest) -> HttpResponse:
        list(get_user_model().objects.all())
        list(get_user_model().objects.filter(username="anna"))
        time.sleep(0.03)  # a wait that is neither CPU nor a query: a lock, a turn on a core
        return HttpResponse("ok")

    said = timing(ServerTiming(view)(RequestFactory().get("/")))
    assert set(said) == {"cpu", "app", "db"}
    assert said["app"] >= 30, said
    assert 0 < said["db"] <= said["app"], said
    assert said["cpu"] < said["app"] - 25, said  # the sleep is not the thread's CPU


def test_a_request_without_queries_spent_nothing_in_the_database() -> None:
    said = timing(ServerTiming(lambda request: HttpResponse("ok"))(RequestFactory().get("/")))
    assert said["db"] == 0.0
