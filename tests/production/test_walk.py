"""One scorer's evening against the production server, in Chromium on a phone (390 × 844): sign up, start a
night, enter deals, the service worker installs, five deals entered offline are stored once after a reload
offline, a correction, the printout and its PDF; and the site owner logs in to the admin.

Over HTTPS through the proxy (its certificate accepted by its key, nothing else), so the secure cookies, the
HTTPS redirect, HSTS, the CSRF origin check and the service worker all work as a club's phones meet them; the
pages load their static files by the hashed names `collectstatic` wrote.
"""

from __future__ import annotations

import base64
import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, TIMEOUT_MS
from tests.browser.steps import fill_deal, show_scorer, start_night
from tests.browser.test_offline import FIVE, PENDING, save_offline

from .conftest import Served

pytestmark = [pytest.mark.production, pytest.mark.database, pytest.mark.browser]

THREE = ("Anna", "Bernd", "Clara")
HOST = {"username": "wirtin", "password": "Kreuz-Bube-72-Schneider"}
OWNER = {"username": "owner", "password": "Herz-Dame-48-Schwarz"}


@pytest.fixture(scope="module")
def chromium(served: Served, playwright_driver: Any) -> Iterator[Browser]:
    """Chromium accepting the proxy's certificate by its public key (and no other certificate error), from the
    process's one Playwright (tests/conftest.py): the browser tests' may run in this worker too."""
    if not CHROMIUM.exists():
        pytest.fail(f"the production pass needs Chromium at {CHROMIUM}")
    expect.set_options(timeout=TIMEOUT_MS)
    browser = playwright_driver.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=[
        *CHROMIUM_ARGS, f"--ignore-certificate-errors-spki-list={served.proxy.spki}"])
    yield browser
    browser.close()


def phone(browser: Browser) -> Page:
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return page


def fetched(page: Page, path: str) -> dict[str, Any]:
    """`path` fetched by the page itself (its cookies, its network, its service worker): status, type, body."""
    return page.evaluate("""async (path) => {
        const answer = await fetch(path, {cache: "no-store"});
        const bytes = new Uint8Array(await answer.arrayBuffer());
        let text = ""; for (const byte of bytes) { text += String.fromCharCode(byte); }
        return {status: answer.status, type: answer.headers.get("content-type"), body: btoa(text)};
    }""", path)


def test_a_scorers_evening_and_the_admin_log_in(served: Served, chromium: Browser) -> None:
    page = phone(chromium)
    context = page.context

    # Sign up: over HTTPS through the proxy, the secure session and CSRF cookies are kept and sent back.
    page.goto(f"{served.url}/accounts/signup/")
    expect(page.locator("link[rel=stylesheet]").first).to_have_attribute(
        "href", re.compile(r"^/static/css/\w+\.[0-9a-f]{12}\.css$"))  # the manifest's hashed names
    page.locator("#id_username").fill(HOST["username"])
    page.locator("#id_password1").fill(HOST["password"])
    page.locator("#id_password2").fill(HOST["password"])
    page.get_by_role("button", name="Sign up").click()
    expect(page).to_have_url(f"{served.url}/nights/new/")
    cookies = {cookie["name"]: cookie for cookie in context.cookies()}
    assert cookies["sessionid"]["secure"] and cookies["sessionid"]["httpOnly"], cookies
    assert cookies["csrftoken"]["secure"], cookies

    # A night at a table of three (the offline tests' table); two deals entered online.
    table_url = start_night(page, served, game="skat", preset="isko", series="", players=THREE)
    night_id = int(re.findall(r"/nights/(\d+)/", table_url)[0])
    # The service worker: served as JavaScript, installed, controlling the page, the outbox ready for offline.
    worker = fetched(page, "/sw.js")
    assert worker["status"] == 200 and worker["type"].startswith("text/javascript"), worker
    assert page.evaluate("""() => navigator.serviceWorker.controller ? true : new Promise(resolve =>
        navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true)))""")
    page.locator("#outbox[data-ready=offline]").wait_for(state="attached")
    show_scorer(page)
    page.get_by_label("Your name").fill("Anna")
    for number, facts in enumerate(FIVE[:2], start=1):
        fill_deal(page, facts)
        page.get_by_role("button", name="Save deal").click()
        expect(page.locator("#table-region .saved")).to_contain_text(f"Deal {number} saved")

    # Five deals without a connection, right after the saves online (the outbox is the one htmx swapped in with
    # the last save): pending on the phone, still there after a reload served by the worker.
    context.set_offline(True)
    expect(page.locator("#outbox .net-status")).to_have_text("Offline")
    for waiting, facts in enumerate(FIVE, start=1):
        save_offline(page, facts, waiting)
    numbers = page.locator(f"{PENDING} .number")
    expect(numbers).to_have_text([f"Deal {n}" for n in range(3, 8)])
    page.reload()
    page.locator("html.js").wait_for(state="attached")
    expect(page.locator("#offline-copy")).to_be_visible()
    expect(numbers).to_have_text([f"Deal {n}" for n in range(3, 8)])
    assert len(stored(served, night_id)) == 2
    context.set_offline(False)
    expect(page.locator(PENDING)).to_have_count(0)
    expect(page.locator("#outbox .net-status")).to_have_text("Online")
    expect(page.locator("table.latest-deals tbody tr.deal-row th.number")).to_have_text(["5", "6", "7"])
    deals = stored(served, night_id)
    assert [deal["sequence"] for deal in deals] == list(range(1, 8))  # each once, in order
    assert [deal["facts"]["contract"] for deal in deals] == [facts["contract"] for facts in (*FIVE[:2], *FIVE)]
    assert all([r["kind"] for r in deal["revisions"]] == ["created"] for deal in deals)

    # A correction: deal 4, Clara's Clubs, was won with 75; the table recounts and finds 55.
    page.goto(f"{table_url}deals/4/")
    expect(page.locator("h1")).to_have_text("Deal 4")
    expect(page.locator(".verdict .outcome > strong")).to_have_text("Won")
    correction = page.get_by_role("region", name="Correct this deal")
    correction.get_by_label("Declarer's card points (skat included)").fill("55")
    expect(page.locator("#preview .outcome strong").first).to_have_text("Lost")
    correction.get_by_role("button", name="Save the correction").click()
    expect(page.locator(".verdict .outcome > strong")).to_have_text("Lost")
    expect(page.locator(".history-list li").last).to_contain_text("75 → 55")
    corrected = stored(served, night_id)[3]
    assert corrected["facts"]["card_points"] == 55 and [r["kind"] for r in corrected["revisions"]][0] == "created"
    assert len(corrected["revisions"]) == 2

    # The printout, and its PDF rendered by the server's Chromium, with the corrected deal.
    page.goto(f"{served.url}/nights/{night_id}/print/")
    expect(page.locator("h1")).to_contain_text("Skat")
    expect(page.locator("body")).to_contain_text("Clara")
    pdf = fetched(page, f"/nights/{night_id}/print.pdf")
    assert pdf["status"] == 200 and pdf["type"] == "application/pdf", pdf["type"]
    data = base64.b64decode(pdf["body"])
    assert data.startswith(b"%PDF")
    from pypdf import PdfReader

    text = "".join(sheet.extract_text() for sheet in PdfReader(io.BytesIO(data)).pages)
    assert all(name in text for name in THREE), text[:500]
    context.close()

    # The site owner, made on the server's command line, logs in to the admin on another phone.
    served.site.django("from django.contrib.auth import get_user_model\n"
                       "get_user_model().objects.create_superuser(ARGS['username'], '', ARGS['password'])\nOUT = 1",
                       **OWNER)
    admin = phone(chromium)
    admin.goto(f"{served.url}/admin/")
    expect(admin).to_have_url(re.compile(r"/admin/login/\?next=/admin/$"))
    admin.locator("#id_username").fill(OWNER["username"])
    admin.locator("#id_password").fill(OWNER["password"])
    admin.locator("input[type=submit]").click()
    expect(admin).to_have_url(f"{served.url}/admin/")
    expect(admin.locator("#site-name")).to_be_visible()
    expect(admin.get_by_role("link", name=re.compile("^card nights$", re.I))).to_be_visible()
    admin.context.close()


def stored(served: Served, night_id: int) -> list[dict[str, Any]]:
    return [deal for deal in served.site.inspect(night_id)[0]["deals"] if not deal["deleted"]]
