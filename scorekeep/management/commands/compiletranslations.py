"""`python manage.py compiletranslations`: compile the gettext catalogues (locale/*/LC_MESSAGES/*.po,
under version control) to the .mo files Django reads — with Babel, so no GNU gettext is needed on the
machine. A .mo newer than its .po is left alone. Fuzzy entries are not compiled (they would show a
guess); `tests/test_i18n.py` requires every entry to be translated and none fuzzy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = "Compile the .po catalogues under locale/ to .mo files (Babel; no GNU gettext needed)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--force", action="store_true", help="compile even where the .mo is newer")

    def handle(self, *args: Any, force: bool, **options: Any) -> None:
        compiled = 0
        for root in settings.LOCALE_PATHS:
            for po_path in sorted(Path(root).glob("*/LC_MESSAGES/*.po")):
                mo_path = po_path.with_suffix(".mo")
                if not force and mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
                    continue
                with po_path.open("rb") as po_file:
                    catalog = read_po(po_file, locale=po_path.parent.parent.name)
                tmp = mo_path.with_suffix(".mo.tmp")
                with tmp.open("wb") as mo_file:
                    write_mo(mo_file, catalog, use_fuzzy=False)
                tmp.replace(mo_path)
                compiled += 1
        if options.get("verbosity", 1) > 0:
            self.stdout.write(f"compiled {compiled} catalogue(s)")
