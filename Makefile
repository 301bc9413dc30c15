# Two commands do all set-up on a fresh machine:
#   make serve   build the site from the embedded corpus and serve it on 127.0.0.1:8000
#   make test    run every test (CPython, Pyodide under Node, real Chromium)
# and, before each commit, `make check`: the lint and the quick unit tests.
# Both install what they need first: a Python >= 3.12 virtualenv in .venv
# (pyodide-lock needs 3.12), `npm ci` into node_modules, and Debian's
# Chromium through apt when it is missing and we run as root.

PYTHON ?= $(shell for p in python3.13 python3.12 $$HOME/.pyenv/versions/3.13*/bin/python3.13 $$HOME/.pyenv/versions/3.12*/bin/python3.12; do \
	  $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1 && { echo $$p; break; }; done)
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# The full estate reads ../shared/data when it is beside the checkout, else the
# cache `make fetch` fills from the pinned upstream sources (site/sources.lock.toml).
SOURCES ?= $(if $(wildcard ../shared/data/SOURCES.md),../shared/data,.cache/sources)
MIRROR ?=

.PHONY: setup serve build test check lint-py lint-js bench-quick bench bench-scale eval chromium clean fetch build-full serve-full

setup: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: pyproject.toml
	@test -n "$(PYTHON)" || { echo "Python 3.12 or newer is needed (pyodide-lock requires it); install it or set PYTHON=/path/to/python3.12" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[build,test,mcp]"
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

chromium:
	@if ! command -v chromium >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else echo "Debian's Chromium is needed for the browser tests: sudo apt-get install chromium" >&2; exit 1; fi; \
	fi

build: setup
	$(PY) build.py

serve: setup
	$(PY) build.py --serve --port $(PORT)

fetch: setup
	$(PY) build.py fetch $(if $(MIRROR),--mirror $(MIRROR))

build-full: setup $(if $(filter .cache/sources,$(SOURCES)),fetch)
	$(PY) build.py --config site/full-estate.toml --sources $(SOURCES) --out _site-full --keep-going

serve-full: setup $(if $(filter .cache/sources,$(SOURCES)),fetch)
	$(PY) build.py --config site/full-estate.toml --sources $(SOURCES) --out _site-full --keep-going --serve --port $(PORT)

# Python lint and format check (configured in pyproject.toml's [tool.ruff]).
LINTED_PY := python_pkg tests bench eval build.py

lint-py: setup
	$(VENV)/bin/ruff check $(LINTED_PY)
	$(VENV)/bin/ruff format --check $(LINTED_PY)

test: setup chromium lint-py lint-js
	$(PY) -m pytest

# The fast check before a commit: the lint and every test that needs no browser,
# no real exports and no slow step (tests/conftest.py lists those; `make test` runs them).
check: setup lint-py lint-js
	$(PY) -m pytest -q -m "not browser and not shared_data and not slow"

# ESLint (eslint.config.js) over our browser modules, benchmark pages and Node test scripts.
lint-js: node_modules/.installed
	node_modules/.bin/eslint site/static/js bench/pages bench/*.mjs tests python_pkg/govsearch_build/snapshot.mjs python_pkg/govsearch_build/precompile.mjs eslint.config.js

bench-quick: setup chromium
	$(PY) bench/run.py --quick

bench: setup chromium
	$(PY) bench/run.py --sizes 1000,10000,full
	$(PY) bench/phone.py --site bench/work/full/ours

# The site built and searched at simulated estates of 100,000 and 300,000 records (bench/scale.py;
# learns from a full-estate build, so it needs ../shared/data or `make fetch`). About an hour on 2 cores.
SCALE_SIZES ?= 100000,300000
bench-scale: setup chromium $(if $(filter .cache/sources,$(SOURCES)),fetch)
	$(PY) bench/scale.py --sizes $(SCALE_SIZES) --sources $(SOURCES)

# Relevance on the judged queries in eval/ (full estate when ../shared/data exists); see eval/README.md.
eval: setup
	$(PY) eval/run.py

clean:
	rm -rf _site _site-full build .cache test-artifacts
