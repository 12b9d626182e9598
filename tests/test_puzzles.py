"""The bundled puzzle collection (puzzles/*.toml): every puzzle loads, validates and is proven by
the solver to have exactly its stated answer; the collection covers every goal kind, mode and
player count; the puzzles flagged non-obvious really punish the natural play; and a sample is
cross-checked against the brute-force reference."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from catbox.solver import Position, formats
from catbox.solver.limits import Limits
from catbox.solver.puzzle import GOAL_KINDS, Goal, Puzzle
from catbox.solver.puzzlegen import natural_play
from catbox.solver.scoring import seat_score
from catbox.solver.solve import solve, solve_goal

from . import reference

PUZZLE_DIR = Path(__file__).resolve().parent.parent / "puzzles"
PATHS = sorted(PUZZLE_DIR.glob("*.toml"))
NAMES = [p.stem for p in PATHS]

#: Bundled puzzles (file stems in ``puzzles/``) whose natural first play fails although the goal
#: can be met (facts about the collection, re-proved below; not library code).
NON_OBVIOUS: frozenset[str] = frozenset(
    {
        "counting-cats",
        "duck-duck-paradox",
        "every-point-counts",
        "everybody-home",
        "five-cats-in-a-box",
        "greedy-whiskers",
        "hidden-variables",
        "last-light",
        "no-cat-left-behind",
        "nowhere-to-hide",
        "on-the-nose",
        "one-more-mouse",
        "second-fiddle",
        "squeezed",
        "stay-small",
        "the-big-box",
        "the-final-observation",
        "the-hungry-cat",
        "the-long-fuse",
        "the-middle-seat",
        "the-red-herring",
        "two-cats-one-box",
    }
)


def load(name: str) -> Puzzle:
    pz = formats.load(PUZZLE_DIR / f"{name}.toml")
    assert isinstance(pz, Puzzle)
    return pz


ALL = {name: load(name) for name in NAMES}


@pytest.mark.parametrize("name", NAMES)
def test_puzzle_is_well_formed(name: str) -> None:
    pz = ALL[name]
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name)
    assert pz.name == name
    pz.position.validate()
    assert pz.title.strip() and pz.description.strip()
    pos = pz.position
    assert pos.to_play == pz.goal.seat, "every puzzle asks about the seat to play"
    assert 1 <= pos.tricks_left <= (5 if pos.players == 4 else 4)
    assert pz.answer is not None and pz.answer.solvable is not None
    if pz.goal.kind == "max-score":
        assert pz.answer.value is not None
    if pz.answer.solvable and pos.all_hands_known:
        assert pz.answer.line, "a solvable puzzle with every hand known states a line"
    # round trip: what we ship is what the writer writes
    assert formats.loads(formats.dumps(pz)) == pz


@pytest.mark.parametrize("name", NAMES)
def test_puzzle_answer_is_proven(name: str) -> None:
    sol = solve(ALL[name], limits=Limits(60))
    assert sol.status == "proven"
    assert sol.matches_answer is True, sol.note


def test_collection_coverage() -> None:
    puzzles = list(ALL.values())
    assert len(puzzles) >= 30
    assert {p.position.players for p in puzzles} == {2, 3, 4, 5}
    pairs = {(p.goal.kind, p.goal.mode) for p in puzzles}
    for kind in GOAL_KINDS:
        modes = ("possible",) if kind == "paradox-free-round" else ("possible", "guaranteed")
        for mode in modes:
            assert (kind, mode) in pairs, (kind, mode)
    assert any(not p.position.all_hands_known for p in puzzles), "some hidden hands"
    assert any(p.position.trick for p in puzzles), "some mid-trick positions"
    assert sum(1 for p in puzzles if p.answer and p.answer.solvable is False) >= 3
    assert any(p.position.players == 2 and p.position.revealed for p in puzzles)
    assert len(NON_OBVIOUS) * 3 >= len(puzzles)
    assert set(NAMES) >= NON_OBVIOUS
    assert len({p.title for p in puzzles}) == len(puzzles), "titles are unique"


def _keeps(pos: Position, goal: Goal, value: int | None) -> bool:
    """Does the goal (or the max-score value) survive to ``pos``?"""
    if pos.finished:
        if goal.kind == "max-score":
            return seat_score(pos, goal.seat) == value
        from catbox.solver.solve import goal_reached

        return goal_reached(goal, pos)
    sol = solve_goal(pos, goal)
    assert sol.status == "proven"
    return sol.value == value if goal.kind == "max-score" else bool(sol.solvable)


@pytest.mark.parametrize("name", sorted(NON_OBVIOUS))
def test_non_obvious_natural_play_fails(name: str) -> None:
    pz = ALL[name]
    assert pz.answer is not None and pz.answer.solvable
    nat = natural_play(pz.position, pz.goal)
    assert nat is not None
    assert f"obvious {nat}" in pz.description
    assert not _keeps(pz.position.play(nat), pz.goal, pz.answer.value)


# ----------------------------------------------------------------------- brute-force cross-check
def _reference_answer(pz: Puzzle) -> tuple[bool, int | None]:
    """(solvable, value) by the exhaustive reference solver alone."""
    pos, g = pz.position, pz.goal
    s, k = g.seat, g.target
    tricks_ok: dict[str, Callable[[int], bool]] = {
        "make-exactly": lambda t: t == k,
        "make-at-least": lambda t: k is not None and t >= k,
        "make-at-most": lambda t: k is not None and t <= k,
    }
    if g.mode == "possible":
        ans = reference.possible(pos, s)
        if g.kind == "avoid-paradox":
            return ans.avoid, None
        if g.kind == "paradox-free-round":
            return ans.round, None
        if g.kind == "max-score":
            return bool(ans.scores), max(ans.scores) if ans.scores else None
        return any(tricks_ok[g.kind](t) for t in ans.tricks), None
    if g.kind == "max-score":
        v = reference.best_score(pos, s)
        return v is not None, v
    if g.kind == "avoid-paradox":
        return reference.forced(pos, s, lambda p: p.paradox != s), None
    ok = tricks_ok[g.kind]
    return reference.forced(pos, s, lambda p: p.paradox != s and ok(p.seats[s].tricks)), None


def _small(pz: Puzzle) -> bool:
    """Small enough for the brute force: few plays left, every hand known or a tiny pool."""
    pos = pz.position
    plays_left = pos.tricks_left * pos.players - len(pos.trick)
    return plays_left <= (9 if pos.all_hands_known else 6)


SMALL = [n for n in NAMES if _small(ALL[n])]


@pytest.mark.parametrize("name", SMALL)
def test_small_puzzles_match_the_reference(name: str) -> None:
    pz = ALL[name]
    assert pz.answer is not None
    solvable, value = _reference_answer(pz)
    assert solvable == pz.answer.solvable
    if pz.goal.kind == "max-score":
        assert value == pz.answer.value


def test_reference_sample_is_meaningful() -> None:
    assert len(SMALL) >= 8
