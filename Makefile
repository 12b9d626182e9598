# catbox — everything goes through a local virtualenv (.venv) built from pyproject.toml.
PY      ?= python3
VENV    ?= .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed-stamp
DEMO    ?= puzzles/positions/four-player-endgame.toml
# the compiled search core (C++17): `pip install -e` builds it; editing it rebuilds via the stamp
NATIVE  := setup.py $(wildcard solver/search/cxx/*.h solver/search/cxx/*.cpp)

.PHONY: setup demo test quick lint format typecheck bench clean constraints

setup: $(STAMP)

# constraints.txt pins every package the tests run with (the package keeps its ranges).
# PYTHONWARNINGS hides one message only: setuptools' own "Editable installation." notice (an
# InformationOnly warning it prints for every editable install of a package-dir layout like
# ours); every warning about the project's configuration still shows.
PIP_INSTALL := PYTHONWARNINGS="ignore:Editable installation" $(BIN)/python -m pip install -q \
	--disable-pip-version-check -c constraints.txt

$(STAMP): pyproject.toml constraints.txt $(NATIVE)
	$(PY) -m venv $(VENV)
	$(PIP_INSTALL) --upgrade pip
	$(PIP_INSTALL) -e '.[dev]'
	$(BIN)/python -c 'import catbox.solver.search._native' || \
		{ echo "catbox: the native search core did not build (needs g++)" >&2; exit 1; }
	@touch $(STAMP)

# Re-pin constraints.txt to the newest releases pyproject.toml's ranges allow (then make test).
constraints:
	rm -rf .venv-pin
	$(PY) -m venv .venv-pin
	.venv-pin/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
	PYTHONWARNINGS="ignore:Editable installation" .venv-pin/bin/python -m pip install -q \
		--disable-pip-version-check -e '.[dev]'
	{ echo "# Exact versions the tests run with (make setup and CI: pip install -c constraints.txt)."; \
	  echo "# The package itself keeps ranges (pyproject.toml). Re-pin with: make constraints"; \
	  .venv-pin/bin/python -m pip freeze --all --exclude-editable | grep -v '^setuptools=='; \
	} > constraints.txt
	rm -rf .venv-pin

# mypy cannot follow setuptools' editable import hook, so it reads the packages through a
# symlink shim that mirrors the installed names (catbox.solver -> solver/, catbox.cli -> cli/,
# catbox.web -> web/).
.typecheck/catbox/solver .typecheck/catbox/web:
	@mkdir -p .typecheck/catbox
	@ln -sfn ../../solver .typecheck/catbox/solver
	@ln -sfn ../../cli .typecheck/catbox/cli
	@ln -sfn ../../web .typecheck/catbox/web

demo: setup
	$(BIN)/catbox analyze $(DEMO)

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: setup .typecheck/catbox/solver .typecheck/catbox/web
	$(BIN)/mypy -p catbox.solver -p catbox.cli -p catbox.web
	$(BIN)/mypy tests bench

# the suite spread over the machine's cores (pytest-xdist); the slowest tests listed at the end
test: lint typecheck
	$(BIN)/pytest -n auto --durations=15

# the quick lane: lint and the fast tests (no `slow` marker), under a minute; CI runs `make test`
quick: setup
	$(BIN)/ruff check .
	$(BIN)/pytest -m "not slow" -x

format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: setup
	$(BIN)/python bench/run.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .venv-pin .typecheck .mypy_cache .pytest_cache .ruff_cache .hypothesis build *.egg-info
	rm -f solver/search/_native.*.so
