# `make demo` and `make test` are the README's two quick-start commands: each creates .venv on
# first use (python3 -m venv + pip install -e '.[dev]'), then runs its job.
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test bench

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/perfectplay demo

test: $(STAMP)
	$(BIN)/ruff check perfectplay tests benchmarks
	$(BIN)/ruff format --check perfectplay tests benchmarks
	$(BIN)/mypy
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	for f in benchmarks/bench_*.py; do $(BIN)/python $$f || exit 1; done
