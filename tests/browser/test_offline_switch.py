"""A switch of game without a connection (issue 28): the page takes the new game's form from the copy kept on
the phone and puts back what was typed — only into the inputs that mean the same in the new game (the
questions' data-meaning, from the engine's description), as the server does online. Kop's old side of a normal
game is no wesele pair: it comes back unticked.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.live_site import SETUP, Site

from .test_offline import contexts, open_table, site, stored  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser  # one phone offline: the SQLite pass is enough (see test_offline.py)


def test_offline_a_switch_from_a_normal_game_to_wesele_drops_the_old_side(contexts: list[BrowserContext],  # noqa: F811
                                                                         site: Site) -> None:  # noqa: F811
    night: dict[str, Any] = site.django(SETUP, tables=1, game="kop", preset="classic",
                                        names=["Ola", "Piotr", "Kasia", "Marek"])
    context = contexts[0]
    page = open_table(context, site, night)
    context.set_offline(True)
    page.locator("#q-contract label.tap").filter(has=page.locator("input[value='normal']")).click()
    for name in ("Ola", "Piotr"):
        page.locator("#q-old label.tap").filter(has_text=re.compile(f"^{name}$")).click()
    page.locator("#id_card_points").fill("60")
    expect(page.locator("#q-old input:checked")).to_have_count(2)
    page.locator("#q-contract label.tap").filter(has=page.locator("input[value='wesele']")).click()
    expect(page.locator("#entry input[name=inputs_for]")).to_have_value("wesele")  # the kept copy is in
    expect(page.locator("#q-contract input[value='wesele']")).to_be_checked()
    expect(page.locator("#q-old input:checked")).to_have_count(0)
    expect(page.locator("#id_card_points")).to_have_value("60")  # the old side's card points mean the same
    for name in ("Kasia", "Marek"):
        page.locator("#q-old label.tap").filter(has_text=re.compile(f"^{name}$")).click()
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator("#outbox .outbox-rows li")).to_have_count(1)
    context.set_offline(False)
    expect(page.locator("#outbox .outbox-rows li")).to_have_count(0)
    [deal] = stored(site, night)
    assert deal["facts"]["contract"] == "wesele" and deal["facts"]["card_points"] == 60
    assert deal["facts"]["old"] == [2, 3]  # Kasia and Marek: at four, Kop seats the players in table order
