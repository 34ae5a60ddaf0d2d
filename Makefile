# Domeng: `make run` to play in the browser, `make play` in the terminal, `make test` to check everything.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run play test lint-web bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(STAMP)

run: $(STAMP)
	$(BIN)/domeng serve

play: $(STAMP)
	$(BIN)/domeng play

test: $(TEST_STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy --strict src/domeng
	$(MAKE) lint-web
	$(BIN)/python -m pytest -n 3 --dist loadfile

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
