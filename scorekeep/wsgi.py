"""WSGI entry point (gunicorn scorekeep.wsgi)."""
import os
import sys

import django
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeep.settings")


def _refuse_stale_static_files() -> None:
    """With DEBUG off, a start whose static files were not collected (or changed since) stops here, saying so in
    one line, rather than answering 500 for every page that names a file the manifest lacks. Exit status 3 is
    gunicorn's "worker failed to boot": its master stops too instead of starting the worker again and again."""
    from django.conf import settings

    if settings.DEBUG:
        return
    from scorekeep.checks import static_files_problem

    problem = static_files_problem()
    if problem:
        print(f"scorekeep: {problem}", file=sys.stderr, flush=True)
        sys.exit(3)


django.setup(set_prefix=False)  # the apps, for the check; get_wsgi_application's own setup sets the prefix
_refuse_stale_static_files()
application = get_wsgi_application()
