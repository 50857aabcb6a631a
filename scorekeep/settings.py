"""Settings for scorekeep, read from the environment.

A fresh checkout runs the server and the tests with nothing set: SQLite next to manage.py, a
development secret and DEBUG on. Production sets SCOREKEEP_SECRET_KEY, SCOREKEEP_DEBUG=0,
SCOREKEEP_ALLOWED_HOSTS and (for PostgreSQL) DATABASE_URL; `manage.py check --deploy` checks them.
"""

import os
import sys
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("SCOREKEEP_DEBUG", True)
SECRET_KEY = os.environ.get(
    "SCOREKEEP_SECRET_KEY",
    "django-insecure-development-only-never-use-in-production" if DEBUG else "",
)
if not DEBUG and not SECRET_KEY.strip():
    # Without a key every page would fail; refuse to start, saying what to set (`check --deploy` included).
    sys.exit("scorekeep: SCOREKEEP_SECRET_KEY must be set when SCOREKEEP_DEBUG is off "
             "(a long random text, e.g. from: python3 -c 'import secrets; print(secrets.token_urlsafe(50))')")
ALLOWED_HOSTS = env_list("SCOREKEEP_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("SCOREKEEP_CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "scorekeep.apps.AdminConfig",  # django.contrib.admin, with the site owner's log-in throttled (429)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "csp",
    "scorekeep",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The viewers' standings board as a shared cache may keep it (scorekeep.web.shared): outside the session's
    # and the language's middleware, whose Vary it takes back where the address says all.
    "scorekeep.web.shared.SharedAnswers",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # A body, query string or path the site cannot read is a 400 in the reader's language, before any view
    # or the CSRF check reads it (scorekeep.web.unreadable).
    "scorekeep.web.unreadable.UnreadableRequests",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]
# The benchmarks' measures of a request: its CPU, its time in the app and in queries (scorekeep.web.timing).
if env_bool("SCOREKEEP_SERVER_TIMING", False):
    MIDDLEWARE.insert(0, "scorekeep.web.timing.ServerTiming")

ROOT_URLCONF = "scorekeep.urls"
WSGI_APPLICATION = "scorekeep.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]
# Django's form renderer with its input, option and select templates written in Python (the same HTML; the
# table page's entry form has some 150 inputs).
FORM_RENDERER = "scorekeep.web.form_renderer.Renderer"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("SCOREKEEP_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite has no row locks (select_for_update does nothing): a write transaction takes the write lock
    # when it begins (BEGIN IMMEDIATE), so two phones saving at the same instant wait for each other
    # instead of one failing with "database is locked" halfway through; and it waits up to 20 s.
    # WAL: readers (the phones polling the ledger) never wait for a writer, nor a writer for them; a
    # committed deal survives a killed server (synchronous stays FULL, SQLite's default: every commit is
    # on disk before the phone hears "saved").
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "transaction_mode": "IMMEDIATE", "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
    })

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Hosts' accounts (scorekeep.web.access_views): where log-in sends people, and where a reset link goes.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "nights"
LOGOUT_REDIRECT_URL = "home"
# Without a mail server the password-reset mail, link included, is printed on the server's console
# (its log); set SCOREKEEP_EMAIL_HOST (and _PORT, _USER, _PASSWORD, _FROM) to send it.
if os.environ.get("SCOREKEEP_EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["SCOREKEEP_EMAIL_HOST"]
    EMAIL_PORT = int(os.environ.get("SCOREKEEP_EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("SCOREKEEP_EMAIL_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("SCOREKEEP_EMAIL_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("SCOREKEEP_EMAIL_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("SCOREKEEP_EMAIL_FROM", "scorekeep@localhost")

# The cache keeps saved work only: rendered PDFs (scorekeep.printing.pdf) and the viewers' standings board
# (scorekeep.tournaments.standings_views), with the claims that make one server compute them while the others
# wait. Per process by default (one machine needs nothing more). Several app servers share it in Redis
# (SCOREKEEP_REDIS_URL, e.g. redis://127.0.0.1:6379/0; the `redis` package): each board is then computed once
# per freshness window and each PDF rendered once, whichever server is asked; a Redis that is down costs time,
# never an error (scorekeep.cache). SCOREKEEP_CACHE=db shares it in the database instead (run
# `manage.py createcachetable` once). The throttles (scorekeep.web.throttle) and the idempotency keys count in
# the app's tables, shared by every process whatever the cache.
REDIS_URL = os.environ.get("SCOREKEEP_REDIS_URL", "")
if REDIS_URL:
    try:
        # Django's RedisCache needs it: said here rather than on the first request.
        import redis  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
    except ImportError as missing:
        # Imported here only: the command line's adjudicate reads these settings without importing Django.
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(
            "SCOREKEEP_REDIS_URL is set but the redis package is missing: pip install -r requirements.txt"
        ) from missing
    CACHES = {"default": {
        "BACKEND": "scorekeep.cache.ForgivingRedisCache", "LOCATION": REDIS_URL, "KEY_PREFIX": "scorekeep",
        # A Redis that does not answer is given up on quickly (the cache then works as an empty one).
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1.0},
    }}
else:
    CACHES = {
        "default": (
            {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "scorekeep_cache"}
            if os.environ.get("SCOREKEEP_CACHE") == "db"
            else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
        )
    }
# A tournament's standings as the viewers poll them (`standings_views`): a board computed for every viewer is
# served for up to this many seconds after the tournament changed before it is computed again.
SCOREKEEP_STANDINGS_FRESH = float(os.environ.get("SCOREKEEP_STANDINGS_FRESH", "5"))
# Behind a reverse proxy: take the client's address from the last X-Forwarded-For entry (throttles).
SCOREKEEP_BEHIND_PROXY = env_bool("SCOREKEEP_BEHIND_PROXY", False)

# English, German and Japanese: the page follows the browser's Accept-Language until someone picks a
# language (the switch on every page, remembered in a cookie for a year). Catalogues under locale/
# (gettext .po, in git) are compiled to .mo by `manage.py compiletranslations` (make run / make test).
LANGUAGE_CODE = "en"
# Messages for the next page ("Welcome, …") are translated when shown, in the language the reader reads then.
MESSAGE_STORAGE = "scorekeep.web.flash.TranslatedWhenShown"
LANGUAGES = [("en", "English"), ("de", "Deutsch"), ("ja", "日本語")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = os.environ.get("SCOREKEEP_TIME_ZONE", "Europe/Berlin")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("SCOREKEEP_STATIC_ROOT", BASE_DIR / "staticfiles"))
# Development and tests serve static/ directly; production serves what `collectstatic` put in STATIC_ROOT.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Content-Security-Policy (django-csp): scripts, styles and images only from this site — no inline
# script or style, no eval (htmx is configured for that in base.html); inline SVG charts and QR codes
# are markup, not images, so they need nothing. Forms post only here; no framing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
    },
}

# Production hardening; all on when DEBUG is off (checked by `manage.py check --deploy`).
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
# A phone at the table stays joined to its night for a long card night and the morning after.
SESSION_COOKIE_AGE = 14 * 24 * 3600
if not DEBUG:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SCOREKEEP_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("SCOREKEEP_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("SCOREKEEP_LOG_LEVEL", "WARNING")},
}
