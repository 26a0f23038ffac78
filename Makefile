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

# Rebuild the install (and so the compiled engine._core) when any of these change.
INSTALL_INPUTS := pyproject.toml setup.py requirements.lock \
	$(wildcard engine/core/*.c engine/core/*.h)
PO_FILES := $(wildcard tournaments/locale/*/LC_MESSAGES/*.po)

# `$(APT_INSTALL) pkg...`: Debian packages on demand (sudo when not root).
APT_INSTALL = sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	$$sudo apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends

# ------------------------------------------------------------------------------------------
# LEXICON HOOK. `make lexicon` builds the default French lexicon with the engine CLI
# (`python -m engine lexicon build-default -o FILE`, fed by Hunspell's fr_FR dictionary).
# RUN_HOOKS lists what `make run` does before starting the site; drop `lexicon` to skip it.
LEXICON ?= $(or $(TIRAGE_LEXICON),$(or $(TIRAGE_VAR_DIR),var)/lexicons/fr-libre.lex)
HUNSPELL_FR_DIC := /usr/share/hunspell/fr_FR.dic
HUNSPELL_FR_PKG := hunspell-fr-comprehensive
ENGINE_LEXICON_CMD := $(PY) -m engine lexicon build-default
LEXICON_INPUTS := $(wildcard engine/lexicon/*.py engine/core/gaddag*)
RUN_HOOKS ?= lexicon
# ------------------------------------------------------------------------------------------

.PHONY: help run test install messages lexicon lint format check lock clean

help:
	@echo "make run    install into $(VENV) if needed, migrate, set up demo data, serve on $(HOST):$(PORT)"
	@echo "make test   install into $(VENV) if needed, then pytest (PYTEST_ARGS=... to pass options)"
	@echo "make lint   ruff check + ruff format --check"
	@echo "make check  manage.py check"
	@echo "make lexicon  build the free default lexicon into $(LEXICON)"
	@echo "make lock   regenerate requirements.lock from pyproject.toml in a scratch venv"

run: install messages $(RUN_HOOKS)
	$(MANAGE) migrate --noinput
	$(MANAGE) tirage_setup --base-url http://$(HOST):$(PORT)
	$(MANAGE) runserver $(HOST):$(PORT)

test: install messages
	$(PY) -m pytest $(PYTEST_ARGS)

$(PY):
	$(PYTHON) -m venv $(VENV)

# Installs the pinned dependencies and tirage itself (editable), compiling engine._core.
$(INSTALL_STAMP): $(PY) $(INSTALL_INPUTS)
	$(PY) -m pip install -c requirements.lock -e '.[dev]'
	touch $@

install: $(INSTALL_STAMP)

messages: install
ifneq ($(PO_FILES),)
	@command -v msgfmt >/dev/null 2>&1 || { echo "messages: installing gettext"; $(APT_INSTALL) gettext; }
	$(MANAGE) compilemessages --verbosity 0 --ignore .venv --ignore var --ignore .git
endif

lexicon: install $(LEXICON)

# Rebuilt when the code that reads or writes the lexicon format changes.
$(LEXICON): $(LEXICON_INPUTS)
	@if [ ! -f "$(HUNSPELL_FR_DIC)" ]; then \
		echo "lexicon: installing $(HUNSPELL_FR_PKG)"; $(APT_INSTALL) $(HUNSPELL_FR_PKG); \
	fi
	mkdir -p "$(@D)"
	$(ENGINE_LEXICON_CMD) -o "$@.tmp"
	mv "$@.tmp" "$@"

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

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
