"""Benchmark the PDF of a card night: the first PDF of a process (Chromium starts) against the next ones
(the same Chromium prints in a new tab), and as before issue 12, one Chromium started per PDF
(``--print-to-pdf``); and the memory the kept Chromium holds.

    .venv/bin/python bench/pdf.py [--runs N]

Run by hand, never by the test suite; results go to docs/PERFORMANCE.md. The page is the demo Skat
night's printout (48 deals), rendered on a throw-away SQLite database as the PDF view renders it.
"""

import argparse
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._check import measured, need, parse  # noqa: E402
from tests.live_site import Database, copy_migrated  # noqa: E402


def session_memory(session: int) -> tuple[int, float]:
    """The processes of the session and their proportional set size together, in MiB."""
    count, kib = 0, 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[3]) != session:
                continue
            rollup = (stat.parent / "smaps_rollup").read_text()
        except (OSError, IndexError):
            continue
        count += 1
        kib += next(int(line.split()[1]) for line in rollup.splitlines() if line.startswith("Pss:"))
    return count, kib / 1024


def one_chromium_per_pdf(chromium: str, html: str) -> bytes:
    """What scorekeep.printing.pdf did before: a Chromium started for the PDF and ended after it."""
    from scorekeep.printing.pdf import FLAGS

    flags = [flag for flag in FLAGS if flag not in ("--remote-debugging-pipe", "--no-startup-window")]
    with tempfile.TemporaryDirectory() as work:
        page, out = Path(work) / "page.html", Path(work) / "page.pdf"
        page.write_text(html, encoding="utf-8")
        subprocess.run([chromium, *flags, "--no-pdf-header-footer", f"--user-data-dir={work}/profile",
                        f"--print-to-pdf={out}", page.as_uri()], capture_output=True, timeout=60, check=True,
                       env={**os.environ, "HOME": work}, start_new_session=True)
        return out.read_bytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--more", type=int, default=40, help="PDFs made after the runs, to see the memory grow")
    args = parse(parser, tiny={"runs": 1, "more": 1})
    need(args.runs > 0, "nothing timed: --runs must be at least 1")
    os.environ["DATABASE_URL"] = f"sqlite:///{Path(tempfile.mkdtemp()) / 'bench.sqlite3'}"
    # A copy of the database migrated once (tests/live_site.py): its migrate below finds nothing to do.
    copy_migrated(Database(os.environ["DATABASE_URL"]), dict(os.environ))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeep.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.template.loader import render_to_string
    from django.test import RequestFactory

    call_command("migrate", verbosity=0)
    call_command("loaddemo", stdout=io.StringIO())
    from scorekeep.models import CardNight
    from scorekeep.nights.loading import load_night
    from scorekeep.printing import pdf
    from scorekeep.printing.lists import list_template
    from scorekeep.printing.views import print_context

    night = load_night(CardNight.objects.get(game="skat").pk)
    html = render_to_string(list_template(night.game), print_context(night, pdf_render=True),
                            request=RequestFactory().get("/"))
    chromium = pdf.chromium_path()

    made = [0]

    def timed(make: object) -> float:
        start = time.perf_counter()
        need(make().startswith(b"%PDF"), "Chromium made no PDF")  # type: ignore[operator]
        made[0] += 1
        return time.perf_counter() - start

    before = [timed(lambda: one_chromium_per_pdf(chromium, html)) for _ in range(args.runs)]
    firsts, nexts = [], []
    for _ in range(args.runs):
        pdf.close_browser()
        firsts.append(timed(lambda: pdf.render(html)))
        assert pdf._browser is not None
        after_one = session_memory(pdf._browser.pid)
        nexts.extend(timed(lambda: pdf.render(html)) for _ in range(args.runs))
    for _ in range(args.more):  # does it grow?
        timed(lambda: pdf.render(html))
    processes, mib = session_memory(pdf._browser.pid)
    print(f"Skat demo night, {len(html) // 1024} KiB of HTML, {args.runs} runs each (median, min–max):")
    for label, times in (("a Chromium per PDF (before)", before), ("first PDF of a process", firsts),
                         ("next PDFs, Chromium kept", nexts)):
        print(f"  {label:28} {statistics.median(times):.2f} s  ({min(times):.2f}–{max(times):.2f})")
    print(f"  kept Chromium: {after_one[0]} processes, {after_one[1]:.0f} MiB (PSS) after its first PDF, "
          f"{processes} and {mib:.0f} MiB after {args.runs + args.more + 1}")
    pdf.close_browser()
    measured(pdfs_made=made[0], kept_chromium_processes=processes)


if __name__ == "__main__":
    main()
