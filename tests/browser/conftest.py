"""Chromium through Playwright's sync API against pytest-django's live server.

Playwright's sync API runs an event loop in this thread, which Django's async-safety check would
take for async code touching the database; the live server runs in its own thread, so the check
is switched off here, for the browser tests only.
"""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.in_flight import wait_until_answered

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


# Every wait is for an event (an element swapped in, a row counted, a URL reached); these are only the
# ceilings, high enough for a busy 2-core machine running two workers, each with a browser and a server.
TIMEOUT_MS = 20_000

# What the test knows of the live preview, kept by the page (an init script: before the site's own scripts and
# outside its Content-Security-Policy): the inputs typed or tapped in the entry form, and how many of them the
# latest preview that settled on the page was asked after. steps.preview_current() waits on it in the page:
# Playwright's own waits poll ever more slowly (0, 20, 50, 100, 100 ms, then every 500 ms), so a preview
# answered 450 ms after the last tap was seen at 770 ms, a third of a second lost for each deal entered.
PREVIEW_TRACKER = """(() => {
  const state = { inputs: 0, lastInput: 0, settled: 0, inFlight: 0 };
  window.scorekeepPreview = state;
  document.addEventListener('input', (event) => {
    if (event.target.closest && event.target.closest('#entry')) { state.inputs++; state.lastInput = performance.now(); }
  }, true);
  document.addEventListener('htmx:beforeRequest', (event) => {
    if (event.detail.target && event.detail.target.id === 'preview') {
      event.detail.xhr.scorekeepInputs = state.inputs; state.inFlight++;
    }
  });
  document.addEventListener('htmx:afterRequest', (event) => {
    if (event.detail.xhr && event.detail.xhr.scorekeepInputs !== undefined) state.inFlight--;
  });
  document.addEventListener('htmx:afterSettle', (event) => {
    const asked = event.detail.xhr && event.detail.xhr.scorekeepInputs;
    if (asked !== undefined) state.settled = Math.max(state.settled, asked);
  });
})();"""


# What the page did, kept in the page for a failed test's report (`told_on_failure`): the htmx requests and their
# answers (which element asked, for which target, whether the answer was swapped), the inputs, and what the
# form's top message slot said after each change. A flaky failure in CI then says which request did what.
EVENT_LOG = """(() => {
  const log = [];
  window.scorekeepLog = log;
  const start = performance.now();
  const say = (text) => { if (log.length < 600) { log.push(Math.round(performance.now() - start) + " ms " + text); } };
  const name = (element) => element ? (element.id || element.name || element.tagName || "?") : "-";
  for (const kind of ["beforeRequest", "beforeSend", "afterRequest", "beforeSwap", "afterSettle", "sendError",
                      "sendAbort", "responseError"]) {
    document.addEventListener("htmx:" + kind, (event) => {
      const detail = event.detail || {};
      const xhr = detail.xhr;
      const config = detail.requestConfig || {};
      const path = detail.pathInfo ? " " + detail.pathInfo.finalRequestPath.slice(0, 80) : "";
      say(kind + " " + (config.verb || "") + " by " + name(detail.elt) + " into " + name(detail.target)
          + (xhr && xhr.status ? " status " + xhr.status : "")
          + (kind === "beforeSwap" ? " swap " + detail.shouldSwap : "")
          + (event.defaultPrevented ? " prevented" : "") + path);
    }, true);
  }
  document.addEventListener("input", (event) => say("input " + name(event.target)), true);
  let top = null;
  new MutationObserver(() => {
    const slot = document.getElementById("err-top");
    const now = slot ? slot.textContent.trim().slice(0, 70) : null;
    if (now !== top) { top = now; say("top message: " + JSON.stringify(now)); }
  }).observe(document, { subtree: true, childList: true, characterData: true });
  window.addEventListener("online", () => say("online"));
  window.addEventListener("offline", () => say("offline"));
})();"""


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[pytest.TestReport]:
    report = yield
    if report.when == "call":
        item.stash[CALL_FAILED] = report.failed
    return report


CALL_FAILED = pytest.StashKey[bool]()


def told_on_failure(request: pytest.FixtureRequest, pages: list[object]) -> None:
    """After a failed test, print what each page did (EVENT_LOG): pytest shows it under the failure."""
    if not request.node.stash.get(CALL_FAILED, False):
        return
    for number, page in enumerate(pages, start=1):
        try:
            lines = page.evaluate("window.scorekeepLog || []")  # type: ignore[attr-defined]
        except Exception as error:  # a closed page, a page crashed: say so, the failure itself stands
            lines = [f"(no log: {error.__class__.__name__})"]
        print(f"\n--- page {number} ({page.url}), what it did:")  # type: ignore[attr-defined]
        print("\n".join(lines))


@pytest.fixture(scope="session")
def browser(request: pytest.FixtureRequest) -> Iterator[object]:
    if not CHROMIUM.exists():
        reason = f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium, or `make browser`)"
        if os.environ.get("CI"):
            pytest.fail(reason + "; CI is set, so this is a failure, not a skip")
        pytest.skip(reason)
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    playwright = request.getfixturevalue("playwright_driver")  # tests/conftest.py: one per process
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


def _log_in(context: object, request: pytest.FixtureRequest) -> None:
    """Log the browser in as the site owner (a session cookie), for tests against the live server."""
    if "live_server" not in request.fixturenames:
        return
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    live_server = request.getfixturevalue("live_server")
    user = get_user_model().objects.filter(username="host").first() or get_user_model().objects.create_superuser(
        "host", "host@example.org", "host-password-1")
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])  # type: ignore[attr-defined]


@pytest.fixture
def page(browser: object, request: pytest.FixtureRequest) -> Iterator[object]:
    """A phone-sized page (390 × 844, touch) with JavaScript on, logged in as the site owner."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,  # type: ignore[attr-defined]
                                  is_mobile=True, has_touch=True)
    context.add_init_script(PREVIEW_TRACKER)  # type: ignore[attr-defined]
    context.add_init_script(EVENT_LOG)  # type: ignore[attr-defined]
    _log_in(context, request)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    yield page
    told_on_failure(request, context.pages)  # type: ignore[attr-defined]
    context.close()
    wait_until_answered()  # its last fetches, before the test's database is emptied


@pytest.fixture
def page_without_js(browser: object, request: pytest.FixtureRequest) -> Iterator[object]:
    """The same phone, with JavaScript off: the form must work on its own."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)  # type: ignore[attr-defined]
    _log_in(context, request)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    yield page
    context.close()
    wait_until_answered()  # its last fetches, before the test's database is emptied
