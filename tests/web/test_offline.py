"""What the server gives a phone for working offline (issue 16): the service worker at /sw.js with the app
shell it keeps, the manifest and its icons, and the table page's outbox section with the address of the
engine's input description. The browser's side is tests/browser/test_offline.py."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from scorekeep.nights import writes as nights
from scorekeep.web import offline

pytestmark = pytest.mark.django_db

PLAYERS = ["Anna", "Bernd", "Clara"]


def worker(client: Client) -> tuple[Any, str]:
    response = client.get("/sw.js")
    return response, response.content.decode()


def shell_of(source: str) -> list[str]:
    line = next(line for line in source.splitlines() if line.startswith("var SHELL = "))
    return list(json.loads(line.removeprefix("var SHELL = ").rstrip(";")))


def test_the_worker_is_served_from_the_sites_root_for_the_whole_site(client: Client) -> None:
    response, source = worker(client)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"  # checked on every visit: a new shell installs a new worker
    assert 'addEventListener("fetch"' in source


def test_the_worker_keeps_every_file_of_the_shell_and_each_is_there(client: Client) -> None:
    _response, source = worker(client)
    shell = shell_of(source)
    assert len(shell) == len(offline.SHELL)
    for url in shell:
        assert client.get(url).status_code == 200, url
    assert any(url.endswith("idb-keyval.umd.js") for url in shell)


def test_the_workers_version_follows_the_contents_of_the_shell(monkeypatch: pytest.MonkeyPatch,
                                                                 tmp_path: Path) -> None:
    files = {name: tmp_path / name.replace("/", "_") for name in offline.SHELL}
    for path in files.values():
        path.write_text("one")
    monkeypatch.setattr(offline.finders, "find", lambda name: str(files[name]))
    first = offline._digest()
    assert offline._digest() == first
    files["js/offline.js"].write_text("two")
    assert offline._digest() != first


def test_the_worker_refuses_a_post(client: Client) -> None:
    assert client.post("/sw.js").status_code == 405


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_names_the_app_and_its_icons_are_real_pngs(client: Client) -> None:
    page = client.get("/adjudicate/").content.decode()
    href = page.split('rel="manifest" href="')[1].split('"')[0]
    manifest = json.loads(b"".join(client.get(href).streaming_content))  # type: ignore[attr-defined]
    assert manifest["scope"] == "/" and manifest["start_url"] == "/nights/" and manifest["display"] == "standalone"
    base = href.rsplit("/", 1)[0]
    sizes = {}
    for icon in manifest["icons"]:
        data = b"".join(client.get(f"{base}/{icon['src']}").streaming_content)  # type: ignore[attr-defined]
        if icon["type"] == "image/png":
            sizes[icon["sizes"]] = png_size(data)
    assert sizes == {"192x192": (192, 192), "512x512": (512, 512)}


@pytest.mark.parametrize("more", [[], ["Emil"], ["Emil", "Frida"]])
def test_a_scorers_table_page_has_the_outbox_and_the_input_description_it_checks_against(client: Client,
                                                                                        more: list[str]) -> None:
    # At five or six players (they sit out in turn) the description is the engine's four seats': it asked for
    # five, the API refused, and offline the page checked nothing.
    night = nights.start_night(game="schafkopf", preset="classic", players=[*PLAYERS, "Dieter", *more])
    assert client.get(f"/join/{night.scorer_token}/").status_code == 303
    page = client.get(f"/nights/{night.pk}/tables/1/").content.decode()
    assert 'id="outbox"' in page and "jsonly" in page.split('id="outbox"')[0].rsplit("<section", 1)[1]
    url = page.split('data-inputs="')[1].split('"')[0].replace("&amp;", "&")
    described = client.get(url).json()
    assert described["ok"] is True
    contracts = [c["contract"] for c in described["games"][0]["rule_sets"][0]["contracts"]]
    assert "sauspiel" in contracts
    # The contracts the page offers are the ones the description describes.
    offered = {part.split('"')[0] for part in page.split('name="contract" value="')[1:]}
    assert offered <= set(contracts)


def test_a_viewer_gets_no_outbox() -> None:
    night = nights.start_night(game="skat", preset="isko", players=PLAYERS)
    client = Client()  # a phone that opened the viewer link, nobody logged in
    client.get(f"/join/{night.viewer_token}/")
    page = client.get(f"/nights/{night.pk}/tables/1/").content.decode()
    assert 'id="outbox"' not in page
    assert 'id="offline-copy"' in page  # the note a copy shown offline fills in


# --- as production serves it: DEBUG off, the files collected with the manifest storage -----------------------

MANIFEST_STORAGE = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}}


@pytest.fixture
def collected(tmp_path: Path) -> Any:
    """Production's static files: `collectstatic` (a real one) into a directory of the test's with the storage
    production uses (hashed names from staticfiles.json), DEBUG off."""
    from django.core.management import call_command
    from django.test import override_settings

    with override_settings(DEBUG=False, STATIC_ROOT=tmp_path / "static", STORAGES=MANIFEST_STORAGE):
        call_command("collectstatic", interactive=False, verbosity=0)
        yield tmp_path / "static"


def test_the_worker_is_served_with_the_manifest_storage_of_production(collected: Path) -> None:
    client = Client()
    response, source = worker(client)
    assert response.status_code == 200, source[:500]
    assert response["Content-Type"].startswith("text/javascript")
    # It keeps the shell by the hashed names the pages load, all under the prefix it answers from its cache.
    assert 'var STATIC_PREFIX = "/static/";' in source
    manifest = json.loads((collected / "staticfiles.json").read_text())["paths"]
    assert shell_of(source) == [f"/static/{manifest[name]}" for name in offline.SHELL]
    for name in offline.SHELL:
        assert (collected / manifest[name]).is_file(), name
