"""One goal vocabulary (solver/goals.py): every solver names the same questions."""

from __future__ import annotations

from typing import get_args

from catbox.solver import goals, puzzle
from catbox.solver.cpsat import model
from catbox.solver.search import Target


def test_search_target_kinds_are_the_forced_kinds() -> None:
    # solver/search keeps its own copy of the literal (it is compiled separately).
    hints = Target.__annotations__["kind"]
    assert set(get_args(goals.ForcedKind)) == set(goals.FORCED_KIND.values())
    assert "Literal['avoid-paradox', 'exactly', 'at-least', 'at-most']" in str(hints)
    for kind in get_args(goals.ForcedKind):
        Target(kind, 1)


def test_puzzle_and_solvers_share_the_literals() -> None:
    assert get_args(goals.GoalKind) == puzzle.GOAL_KINDS
    assert get_args(goals.GoalMode) == puzzle.GOAL_MODES
    assert model.Mode == goals.Question
    assert set(goals.FORCED_KIND) <= set(goals.GOAL_KINDS)
    assert set(goals.TARGET_KINDS) <= set(goals.FORCED_KIND)
