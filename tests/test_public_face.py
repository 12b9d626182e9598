"""The public face of the library: ``catbox.solver.__all__`` resolves, and every question
entry point takes ``limits`` and ``session`` the same way (keyword-only, default None); the
cooperative questions of ``possible`` keep no tables, so they take ``limits`` alone."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

import catbox.solver as solver
from catbox.solver import puzzlecheck, puzzlegen, review, search, solve
from catbox.solver.estimates import review as player_review
from catbox.solver.possible import rows_possible

QUESTIONS: list[Callable[..., Any]] = [
    search.forced,
    search.can_force,
    search.main_line,
    search.best_score_line,
    search.analyze_moves,
    solver.paradox_report,
    solver.tricks_report,
    solver.analyze,
    solver.forced_report,
    solve.solve,
    solve.solve_goal,
    review.review,
    puzzlecheck.check,
    solve.keeping_plays,
    puzzlegen.generate,
    solver.advise,
    solver.advise_start,
    player_review.review_player,
]


COOPERATIVE: list[Callable[..., Any]] = [
    solver.paradox_possible,
    solver.tricks_possible,
    rows_possible,
]


@pytest.mark.parametrize("fn", COOPERATIVE, ids=lambda f: f"{f.__module__}.{f.__name__}")
def test_cooperative_questions_take_limits_and_no_session(fn: Callable[..., Any]) -> None:
    params = inspect.signature(fn).parameters
    p = params["limits"]
    assert p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is None
    assert "session" not in params  # nothing of a session would be used
    assert fn.__doc__


def test_every_exported_name_resolves() -> None:
    assert len(set(solver.__all__)) == len(solver.__all__)
    for name in solver.__all__:
        assert getattr(solver, name) is not None, name


@pytest.mark.parametrize("fn", QUESTIONS, ids=lambda f: f"{f.__module__}.{f.__name__}")
def test_every_question_takes_limits_and_session_the_same_way(fn: Callable[..., Any]) -> None:
    params = inspect.signature(fn).parameters
    for name in ("limits", "session"):
        p = params[name]
        assert p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is None, name
    names = list(params)
    assert names.index("session") == names.index("limits") + 1  # always in this order
    for old in ("time_limit", "deadline", "node_limit"):
        assert old not in params, old  # one way to bound a job: Limits
    assert fn.__doc__, "a question has a docstring"
