"""Shared test configuration.

Test modules never import each other: shared fixtures live in plain helper modules imported
relatively (``tests`` is a package, so pytest puts the repository root on ``sys.path``):
``games.py`` (hand-checked rounds), ``reference.py`` (the exhaustive reference solver),
``documents.py`` (hand-written files), ``clirun.py`` (the CLI in-process).

Hypothesis runs derandomized (the same examples on every run: a red test stays red, a green one
never flakes) and without deadlines (tests never assert wall-clock limits).
"""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("catbox", derandomize=True, deadline=None, database=None)
settings.load_profile("catbox")
