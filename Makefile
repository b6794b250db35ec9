# kbqa: `make run` serves the demo on http://127.0.0.1:8000, `make test` runs the whole suite.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test screenshots lint bench chromium clean

$(BIN)/python:
	$(PY) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

run: install
	KBQA_DEBUG=1 $(BIN)/python manage.py migrate --noinput
	KBQA_DEBUG=1 $(BIN)/python manage.py demo_setup --url http://$(HOST):$(PORT)/
	KBQA_DEBUG=1 $(BIN)/daphne -b $(HOST) -p $(PORT) kbqa.asgi:application

test: install
	$(BIN)/python -m pytest

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

# Debian's Chromium for the browser tests (never `playwright install`: it downloads a browser).
chromium:
	@test -x /usr/bin/chromium || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)

clean:
	rm -rf $(VENV) var .pytest_cache
