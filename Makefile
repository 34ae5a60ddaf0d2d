# Domeng: `make run` to play in the browser, `make play` in the terminal, `make test` to check everything.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run play test types lint-web bench clean

# uv (from PyPI, into .venv) installs the packages in half pip's time: a fresh clone's
# .venv with the test tools in 12.6 s, 29.6 s with pip (no cache either way). Where uv
# cannot be had, pip installs them.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv || echo "no uv: pip installs the packages"

# `$(call install,WHAT)`: WHAT installed into .venv, with uv or else pip. Neither compiles
# every module of every package at install (pip: --no-compile): the modules a test
# imports are compiled when first imported (below; 11 s of a fresh clone's 37 with pip)
install = if [ -x $(BIN)/uv ]; then $(BIN)/uv pip install --quiet --python $(BIN)/python $(1); \
	else $(BIN)/python -m pip install --quiet --no-compile $(1); fi

$(STAMP): pyproject.toml | $(BIN)/python
	$(call install,-e .)
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(call install,-e '.[test]')
	touch $@ $(STAMP)

run: $(STAMP)
	$(BIN)/domeng serve

play: $(STAMP)
	$(BIN)/domeng play

# The tests: three workers, each taking a whole file at a time, the longest files first
# (they keep the 2 cores about 93% busy; four took 9% more CPU and no less time:
# docs/architecture.md)
# (--no-loadscope-reorder keeps tests/conftest.py's order). PYTHONDONTWRITEBYTECODE
# emptied: every Python the tests start (about 150: services, commands, their workers) reads
# the compiled modules instead of compiling domeng again, and the test files' rewritten
# asserts are kept too (a worker's collection: 18 s without, 6 s with).
# mypy and the page's checks (about 20 s of CPU on a fresh clone) run beside the tests,
# at a lower priority: they take the time the tests leave the cores idle (waiting on a
# service or a page) instead of 11 s before them; what they found is shown after the
# tests, and either failing fails `make test`.
test: $(TEST_STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	@nice -n 10 $(MAKE) --no-print-directory -j2 types lint-web > .checks.log 2>&1 & checks=$$!; \
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n 3 --dist loadfile --no-loadscope-reorder; \
	tests=$$?; wait $$checks; found=$$?; \
	echo "--- mypy --strict, ESLint and tsc (make types lint-web), run beside the tests:"; \
	cat .checks.log; rm -f .checks.log; \
	[ $$tests -eq 0 ] && [ $$found -eq 0 ]

types: $(TEST_STAMP)
	$(BIN)/mypy --strict src/domeng

# The page's ES modules: ESLint (eslint.config.js) and TypeScript's check of their JSDoc
# types (jsconfig.json), with the Node packages of package-lock.json (`npm ci`). Without
# them it says so and skips, except under CI (CI set), where it fails.
lint-web:
	@if [ -x node_modules/.bin/eslint ] && [ -x node_modules/.bin/tsc ]; then \
	  node_modules/.bin/eslint && node_modules/.bin/tsc -p jsconfig.json && echo "lint-web: ESLint and tsc found nothing"; \
	elif [ -n "$$CI" ]; then \
	  echo "lint-web: node_modules/.bin/eslint is missing (run npm ci); under CI that is a failure" >&2; exit 1; \
	else \
	  echo "lint-web: SKIPPED, the page's JS was NOT checked: node_modules/.bin/eslint is missing (npm ci installs it)"; \
	fi

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
