# catbox — everything goes through a local virtualenv (.venv) built from pyproject.toml.
PY      ?= python3
VENV    ?= .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed-stamp
DEMO    ?= puzzles/the-red-herring.toml
# the compiled search core (C++17): `pip install -e` builds it; editing it rebuilds via the stamp
NATIVE  := setup.py $(wildcard solver/search/cxx/*.h solver/search/cxx/*.cpp)

.PHONY: setup demo test lint format typecheck pytest bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml $(NATIVE)
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[dev]'
	$(BIN)/python -c 'import catbox.solver.search._native' || \
		{ echo "catbox: the native search core did not build (needs g++)" >&2; exit 1; }
	@touch $(STAMP)

# mypy cannot follow setuptools' editable import hook, so it reads the packages through a
# symlink shim that mirrors the installed names (catbox.solver -> solver/, catbox.cli -> cli/).
.typecheck/catbox/solver:
	@mkdir -p .typecheck/catbox
	@ln -sfn ../../solver .typecheck/catbox/solver
	@ln -sfn ../../cli .typecheck/catbox/cli

demo: setup
	$(BIN)/catbox solve $(DEMO)

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: setup .typecheck/catbox/solver
	$(BIN)/mypy -p catbox.solver -p catbox.cli

test: lint typecheck
	$(BIN)/pytest

format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: setup
	$(BIN)/python bench/run.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .typecheck .mypy_cache .pytest_cache .ruff_cache .hypothesis build *.egg-info
	rm -f solver/search/_native.*.so
