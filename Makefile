# The README's quick start: `make run` (the app at http://127.0.0.1:8000/) and `make test`.
# Both create .venv and install the pinned requirements on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-requirements

.PHONY: run test browser lint bench conformance translations messages

$(STAMP): requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

# The gettext catalogues (locale/*/LC_MESSAGES/django.po, in git) compiled for Django (Babel; no GNU gettext).
translations: $(STAMP)
	$(BIN)/python manage.py compiletranslations -v0

run: $(STAMP) translations
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py runserver 127.0.0.1:8000

# The browser tests drive Debian's Chromium, and the production pass (tests/production/) serves the app behind
# Debian's nginx with a certificate openssl makes; install them when missing and we may (root).
browser:
	@test -x /usr/bin/chromium || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null; \
	  else echo "Chromium is missing: run 'sudo apt-get install -y chromium' for the browser tests"; fi; }
	@test -x /usr/sbin/nginx -a -x /usr/bin/openssl || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx openssl) >/dev/null; \
	  else echo "nginx is missing: run 'sudo apt-get install -y nginx' for the production pass"; fi; }

# The tests run on as many workers as the machine has cores (pytest-xdist; a file's tests stay together, so
# its module fixtures are made once; the heaviest files first, tests/conftest.py: heaviest_files_first). One
# worker more kept two cores 95 % busy instead of 86 % and ran 4-7 % faster, but two of three runs with it met a
# timing failure (docs/PERFORMANCE.md, stop 41): not worth it. PYTEST_ARGS adds options: .ci/run passes
# --database-only on PostgreSQL.
WORKERS ?= auto
test: $(STAMP) browser translations
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache  # .importlinter: the engine, the games and the view modules
	$(BIN)/python -m pytest -n $(WORKERS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache  # .importlinter: the engine, the games and the view modules

conformance: $(STAMP)
	$(PYTHON) ../shared/tools/conformance.py --cmd "$(BIN)/python manage.py adjudicate" ../shared/vectors/*.jsonl

# After changing texts: collect the engine's message ids and update the catalogues (needs GNU gettext's xgettext).
messages: $(STAMP)
	$(BIN)/python manage.py enginemessages
	$(BIN)/python manage.py makemessages -l de -l ja -i ".venv/*" -i "tests/*" -i "bench/*" -i "staticfiles/*" \
	  -i "docs/*" --no-obsolete --add-location file

bench: $(STAMP)
	$(BIN)/python bench/adjudicate.py
	$(BIN)/python bench/ledger.py
