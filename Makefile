# `make demo` and `make test` are the README's two quick-start commands: each creates .venv on
# first use (python3 -m venv), installs what it needs, then runs its job. The demo needs only
# the package and its dependencies (pip install -e .); the tests need the dev extra as well
# (pip install -e '.[dev]': test tools, the web, png and dask extras, Playwright, ...). A stamp
# file per install remembers it was done for this pyproject.toml.
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check
BASE_STAMP := $(VENV)/.installed-base
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: demo test bench docs

$(BIN)/python:
	python3 -m venv $(VENV)

$(BASE_STAMP): pyproject.toml | $(BIN)/python
	$(PIP) -e .
	touch $@

# the dev extra includes the package itself: it stamps both
$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(PIP) -e '.[dev]'
	touch $(BASE_STAMP) $@

demo: $(BASE_STAMP)
	$(BIN)/perfectplay demo

test: $(DEV_STAMP)
	$(BIN)/ruff check perfectplay tests benchmarks docs/reference
	$(BIN)/ruff format --check perfectplay tests benchmarks docs/reference
	$(BIN)/mypy
	$(BIN)/python -m pytest -q

bench: $(DEV_STAMP)
	for f in benchmarks/bench_*.py; do $(BIN)/python $$f || exit 1; done

# The documentation site, from docs/ and the docstrings, into site/ (see mkdocs.yml); strict: a
# broken link or a missing reference fails. NO_MKDOCS_2_WARNING silences a banner of Material's.
docs: $(DEV_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict
