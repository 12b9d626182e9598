"""Run the doctests of every catbox.solver module (python-chess style examples in docstrings)."""

import doctest
import importlib
import pkgutil

import pytest

import catbox.solver

MODULES = sorted(
    m.name for m in pkgutil.walk_packages(catbox.solver.__path__, prefix="catbox.solver.")
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
