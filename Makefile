# Tirage developer entry points. The README documents exactly two: `make run` and `make test`.
# Everything else here is plumbing for those two, plus `make lint`, `make check` and the
# `make lexicon` hook. See docs/development.md.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-builtin-rules

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
MANAGE := $(PY) manage.py
INSTALL_STAMP := $(VENV)/.tirage-install.stamp
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
# `make test` runs pytest on this many processes (pytest-xdist; 0: in this process only, for
# --pdb or a single test). Tests that share a session's stack, Celery worker or browser run
# on one worker in order (xdist groups, tests/conftest.py).
PYTEST_WORKERS ?= 2

# Rebuild the install (and so the compiled engine._core) when any of these change.
INSTALL_INPUTS := pyproject.toml setup.py requirements.lock \
	$(wildcard engine/core/*.c engine/core/*.h)
PO_FILES := $(wildcard tournaments/locale/*/LC_MESSAGES/*.po)

# The Debian packages each target needs, installed when missing (one list, shared with .ci/run;
# without root it stops with one sentence naming what to install).
SYSTEM_PACKAGES := deploy/ensure-system-packages
# `make test` runs pytest with a PostgreSQL and a Redis: DATABASE_URL/REDIS_URL when set,
# else private ones started for the run and removed after it.
WITH_TEST_SERVICES := TIRAGE_PYTHON=$(abspath $(PY)) deploy/with-test-services

# ------------------------------------------------------------------------------------------
# LEXICON HOOK. `make lexicon` builds the default French lexicon with the engine CLI
# (`python -m engine lexicon build-default -o FILE`, fed by Hunspell's fr_FR dictionary).
# RUN_HOOKS lists what `make run` does before starting the site; drop `lexicon` to skip it.
LEXICON ?= $(or $(TIRAGE_LEXICON),$(or $(TIRAGE_VAR_DIR),var)/lexicons/fr-libre.lex)
ENGINE_LEXICON_CMD := $(PY) -m engine lexicon build-default
LEXICON_INPUTS := $(wildcard engine/lexicon/*.py engine/core/gaddag*)
RUN_HOOKS ?= lexicon
RUN_SUMMARY := $(or $(TIRAGE_VAR_DIR),var)/run-summary.txt
# ------------------------------------------------------------------------------------------

.PHONY: help run test screenshots system-packages install messages lexicon lint format check \
	lock clean

help:
	@echo "make run    install into $(VENV) if needed, migrate, set up demo data, serve on $(HOST):$(PORT)"
	@echo "make test   install what is missing, then every test (PYTEST_ARGS=tests/engine for a part)"
	@echo "make screenshots  refresh docs/screenshots with the browser test"
	@echo "make lint   ruff check + ruff format --check"
	@echo "make check  manage.py check"
	@echo "make lexicon  build the free default lexicon into $(LEXICON)"
	@echo "make lock   regenerate requirements.lock from pyproject.toml in a scratch venv"

# The login, addresses and tablet links come last: tirage_setup writes them into
# $(RUN_SUMMARY), and tirage_serve prints them once the server listens.
run: install messages $(RUN_HOOKS)
	$(MANAGE) migrate --noinput --verbosity 0
	$(MANAGE) tirage_setup --base-url http://$(HOST):$(PORT) --summary $(RUN_SUMMARY)
	$(MANAGE) tirage_serve --summary $(RUN_SUMMARY) $(HOST):$(PORT)

test: system-packages install messages
	$(WITH_TEST_SERVICES) $(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

# The browser test writes its screenshots into docs/screenshots instead of var/screenshots.
screenshots: system-packages install messages
	TIRAGE_SCREENSHOT_DIR=$(CURDIR)/docs/screenshots $(PY) -m pytest tests/browser -q $(PYTEST_ARGS)

# Everything `make test` needs: Chromium, PostgreSQL and Redis binaries, gettext, Hunspell.
system-packages:
	@PYTHON=$(PYTHON) $(SYSTEM_PACKAGES) test

$(PY):
	@PYTHON=$(PYTHON) $(SYSTEM_PACKAGES) build
	$(PYTHON) -m venv $(VENV)

# Installs the pinned dependencies and tirage itself (editable), compiling engine._core.
$(INSTALL_STAMP): $(PY) $(INSTALL_INPUTS)
	@PYTHON=$(PYTHON) $(SYSTEM_PACKAGES) build
	$(PY) -m pip install -c requirements.lock -e '.[dev]'
	touch $@

install: $(INSTALL_STAMP)

messages: install
ifneq ($(PO_FILES),)
	@PYTHON=$(PYTHON) $(SYSTEM_PACKAGES) run
	$(MANAGE) compilemessages --verbosity 0 --ignore .venv --ignore var --ignore .git
endif

lexicon: install $(LEXICON)

# Rebuilt when the code that reads or writes the lexicon format changes.
$(LEXICON): $(LEXICON_INPUTS)
	@PYTHON=$(PYTHON) $(SYSTEM_PACKAGES) run
	mkdir -p "$(@D)"
	$(ENGINE_LEXICON_CMD) -o "$@.tmp"
	mv "$@.tmp" "$@"

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

check: install
	$(MANAGE) check

# Resolve the newest versions allowed by pyproject.toml in a throw-away venv and pin them.
lock:
	rm -rf var/lock-venv
	$(PYTHON) -m venv var/lock-venv
	var/lock-venv/bin/python -c 'import tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]; print("\n".join(p["dependencies"] + p["optional-dependencies"]["dev"]))' > var/lock-venv/requirements.in
	var/lock-venv/bin/python -m pip install -q -r var/lock-venv/requirements.in
	{ sed -n '/^#/p' requirements.lock; var/lock-venv/bin/python -m pip freeze; } > requirements.lock.new
	mv requirements.lock.new requirements.lock
	rm -rf var/lock-venv

clean:
	rm -rf build *.egg-info .pytest_cache .hypothesis engine/_core*.so $(INSTALL_STAMP)

# ------------------------------------------------------------------------------------------
# STACK: the production-like stack on this machine (deploy/stack, docs/deploy.md): private
# PostgreSQL (5544) and Redis (6380), gunicorn on 127.0.0.1:8100, one Celery worker.
# `make stack` starts it (idempotent), `make stack-stop` stops it, `make stack-status`;
# `make test-production` runs tests/production against it (started and stopped by pytest).
.PHONY: stack stack-stop stack-status test-production

stack: install messages
	deploy/stack start

stack-stop:
	deploy/stack stop

stack-status:
	deploy/stack status

test-production: install messages
	$(PY) -m pytest tests/production $(PYTEST_ARGS)
