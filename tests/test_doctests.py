"""Run the doctests of every catbox.solver, catbox.cli and catbox.web module (python-chess style
examples in docstrings)."""

import doctest
import importlib
import pkgutil

import pytest

import catbox.cli
import catbox.solver
import catbox.web

MODULES = sorted(
    m.name
    for pkg in (catbox.solver, catbox.cli, catbox.web)
    for m in pkgutil.walk_packages(pkg.__path__, prefix=f"{pkg.__name__}.")
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_doctests_are_found() -> None:
    """The walk sees the packages (a doctest run over nothing would pass)."""
    assert {"catbox.solver.errors", "catbox.cli.errors", "catbox.web.practice"} <= set(MODULES)
    assert doctest.testmod(importlib.import_module("catbox.solver.errors")).attempted >= 5
