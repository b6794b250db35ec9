# kbqa: `make run` serves the demo on http://127.0.0.1:8000, `make test` runs the whole suite.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# `make run` needs only the server's packages (and psycopg, so a DATABASE_URL works);
# the suite's tools (playwright, mypy, reportlab, the load bench's clients) come with `make test`.
RUN_STAMP := $(VENV)/.installed-run
HOST ?= 127.0.0.1
PORT ?= 8000
# What an empty knowledge base starts with: a folder of documents, or `none`.
DOCS ?= sources/demo/docs

.PHONY: install run test test-postgres services screenshots lint bench bench-load chromium clean

$(BIN)/python:
	$(PY) -m venv $(VENV)

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[postgres]"
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev,postgres]"
	touch $(STAMP) $(RUN_STAMP)

install: $(STAMP)

# KBQA_DEMO: DEBUG off (the app's own error pages), a demo login, static files served.
run: $(RUN_STAMP)
	KBQA_DEMO=1 $(BIN)/python manage.py migrate --noinput
	KBQA_DEMO=1 $(BIN)/python manage.py demo_setup --url http://$(HOST):$(PORT)/ --docs "$(DOCS)"
	KBQA_DEMO=1 $(BIN)/daphne -b $(HOST) -p $(PORT) kbqa.asgi:application

test: install
	$(BIN)/python -m pytest

# PostgreSQL + Redis on loopback (Debian packages; .ci/services.sh installs them as root).
PG_URL ?= postgres://kbqa:kbqa@127.0.0.1:5432/kbqa
REDIS_URL ?= redis://127.0.0.1:6379/0

# `start` only starts the two; `setup` creates the role and database PG_URL names (kbqa).
services:
	.ci/services.sh start
	.ci/services.sh setup

# The suite against PostgreSQL and the Redis channel layer (the scale-out configuration).
test-postgres: install services
	DATABASE_URL=$(PG_URL) KBQA_REDIS_URL=$(REDIS_URL) $(BIN)/python -m pytest

# Rewrite docs/screenshots/*.png (README) from a live server; needs Debian's chromium.
screenshots: install chromium
	KBQA_UPDATE_SCREENSHOTS=1 $(BIN)/python -m pytest tests/browser -k readme_screenshots

lint: install
	$(BIN)/ruff check kbqa sources chat tests bench
	$(BIN)/lint-imports
	$(BIN)/mypy

bench: install
	$(BIN)/python bench/retrieval.py
	$(BIN)/python bench/pipeline.py

# Many users at once against one Daphne process (README: Benchmarks); DB=postgres for PG.
bench-load: install
	$(BIN)/python bench/load.py

# Debian's Chromium for the browser tests (never `playwright install`: it downloads a browser).
chromium:
	@test -x /usr/bin/chromium || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)

clean:
	rm -rf $(VENV) var .pytest_cache
