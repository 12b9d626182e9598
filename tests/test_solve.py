"""Puzzle solving (solver/solve.py): every goal kind in both modes against the reference, and
the check of a puzzle's stated answer."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from catbox.cli.main import app
from catbox.cli.output import EXIT_MISMATCH
from catbox.solver import Position, formats
from catbox.solver.cards import Play
from catbox.solver.deal import random_position
from catbox.solver.puzzle import Goal, Puzzle, PuzzleAnswer
from catbox.solver.solve import goal_reached, solve, solve_goal

from .documents import cooked_puzzle
from .reference import forced, possible, terminals


def ref_possible(pos: Position, goal: Goal) -> bool:
    return any(goal_reached(goal, end) for end in terminals(pos))


def ref_guaranteed(pos: Position, goal: Goal) -> bool:
    return forced(pos, goal.seat, lambda end: goal_reached(goal, end))


GOALS = [
    ("avoid-paradox", None),
    ("paradox-free-round", None),
    ("make-exactly", 0),
    ("make-exactly", 1),
    ("make-at-least", 1),
    ("make-at-most", 0),
]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(3))
def test_goals_agree_with_reference(players: int, seed: int) -> None:
    pos = random_position(players, seed + 60, 2, mid_trick=seed % players)
    seat = pos.to_play
    assert seat is not None
    now = pos.seats[seat].tricks
    for kind, k in GOALS:
        target = None if k is None else now + k
        for mode in ("possible", "guaranteed"):
            if kind == "paradox-free-round" and mode == "guaranteed":
                continue
            goal = Goal(seat, kind, target, mode)
            sol = solve_goal(pos, goal)
            want = ref_possible(pos, goal) if mode == "possible" else ref_guaranteed(pos, goal)
            assert sol.status == "proven" and sol.solvable == want, (kind, mode)
            if sol.solvable:
                assert sol.line is not None
                end = pos
                for play in sol.line:
                    end = end.play(play)
                assert end.finished
                if mode == "possible":
                    assert goal_reached(goal, end)


@pytest.mark.parametrize("players", [3, 4])
def test_max_score_both_modes(players: int) -> None:
    pos = random_position(players, 5, 1, mid_trick=1)
    seat = pos.to_play
    assert seat is not None
    best_possible = max(possible(pos, seat).scores)
    sol = solve_goal(pos, Goal(seat, "max-score", None, "possible"))
    assert sol.value == best_possible and sol.solvable
    from .reference import best_score

    sol_g = solve_goal(pos, Goal(seat, "max-score", None, "guaranteed"))
    assert sol_g.value == best_score(pos, seat)
    assert sol_g.value is not None and sol_g.value <= best_possible


def _puzzle(pos: Position, goal: Goal, answer: PuzzleAnswer | None) -> Puzzle:
    return Puzzle("t", 1, "", pos, goal, answer)


def test_stated_answer_checks() -> None:
    pos = random_position(3, 8, 2)
    seat = pos.to_play
    assert seat is not None
    goal = Goal(seat, "avoid-paradox", None, "possible")
    sol = solve_goal(pos, goal)
    assert sol.solvable is not None
    assert solve(_puzzle(pos, goal, None)).matches_answer is None
    right = PuzzleAnswer(sol.solvable, sol.line, None)
    assert solve(_puzzle(pos, goal, right)).matches_answer is True
    wrong = PuzzleAnswer(not sol.solvable, None, None)
    assert solve(_puzzle(pos, goal, wrong)).matches_answer is False


def test_a_losing_stated_first_play_is_caught() -> None:
    """A guaranteed puzzle whose stated first play does not keep the goal forceable."""
    for seed in range(40):
        pos = random_position(3, seed, 2)
        seat = pos.to_play
        assert seat is not None
        goal = Goal(seat, "avoid-paradox", None, "guaranteed")
        if not ref_guaranteed(pos, goal):
            continue
        losing = [m for m in pos.legal_plays() if not ref_guaranteed(pos.play(m), goal)]
        if not losing:
            continue
        bad = solve(_puzzle(pos, goal, PuzzleAnswer(True, (losing[0],), None)))
        assert bad.matches_answer is False and bad.note
        return
    pytest.skip("no position with a losing first play among the seeds")


def test_cli_solve_exit_code_on_mismatch(tmp_path: Path) -> None:
    pos = random_position(3, 8, 2)
    seat = pos.to_play
    assert seat is not None
    goal = Goal(seat, "avoid-paradox", None, "possible")
    truth = solve_goal(pos, goal).solvable
    assert truth is not None
    path = tmp_path / "p.toml"
    formats.save(_puzzle(pos, goal, PuzzleAnswer(not truth, None, None)), path)
    res = CliRunner().invoke(app, ["solve", str(path), "--json"])
    assert res.exit_code == EXIT_MISMATCH
    import json

    out = json.loads(res.stdout)
    assert out["matches_answer"] is False and out["solvable"] is truth
    assert set(out) >= {"goal", "solvable", "value", "line", "matches_answer", "status"}
    good = tmp_path / "good.toml"
    formats.save(replace(formats.load_puzzle(path), answer=PuzzleAnswer(truth, None, None)), good)
    assert CliRunner().invoke(app, ["solve", str(good)]).exit_code == 0


# ----------------------------------------------------------------------- keys, cooks, duals
def ref_keys(pos: Position, goal: Goal) -> set[str]:
    """Every first play of the seat to play that keeps the goal, by the reference alone."""
    ref = ref_possible if goal.mode == "possible" else ref_guaranteed
    return {str(m) for m in pos.legal_plays() if ref(pos.play(m), goal)}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_keys_agree_with_reference(players: int) -> None:
    """Every key, for every goal kind in both modes, is the reference's set of first plays
    that keep the goal; sound exactly when there is one."""
    checked = 0
    for seed in range(3 if players < 5 else 1):  # the 5-player reference is slow
        pos = random_position(
            players, seed + 80, 2, mid_trick=(seed + 3 * (players == 5)) % players
        )
        seat = pos.to_play
        assert seat is not None
        now = pos.seats[seat].tricks
        for kind, k in GOALS:
            for mode in ("possible", "guaranteed"):
                if kind == "paradox-free-round" and mode == "guaranteed":
                    continue
                goal = Goal(seat, kind, None if k is None else now + k, mode)
                sol = solve(_puzzle(pos, goal, None))
                assert sol.keys is not None and sol.status == "proven"
                want = ref_keys(pos, goal)
                assert {str(p) for p in sol.keys} == want, (kind, mode)
                assert sol.sound == (len(want) == (1 if sol.solvable else 0))
                assert sol.cooked == (len(want) > 1)
                checked += bool(want)
    assert checked >= 2


def test_a_cooked_puzzle_lists_every_key() -> None:
    pz = cooked_puzzle()
    sol = solve(pz)
    assert [str(p) for p in sorted(sol.keys or ())] == ["2G", "4B"]
    assert ref_keys(pz.position, pz.goal) == {"2G", "4B"}
    assert sol.matches_answer is True and sol.cooked and sol.sound is False


def test_duals_along_the_line_agree_with_reference() -> None:
    pz = cooked_puzzle()
    sol = solve(pz)
    line = sol.checked_line
    assert line is not None and line[0] == Play.parse("2G")
    p = pz.position
    seat = pz.goal.seat
    want = []
    for i, play in enumerate(line):
        if i and p.to_play == seat:
            keep = ref_keys(p, pz.goal)
            if len(keep) > 1:
                want.append((i, keep))
        p = p.play(play)
    assert want and [(d.at, {str(x) for x in d.plays}) for d in sol.duals] == want


def test_cli_solve_says_cooked(tmp_path: Path) -> None:
    path = tmp_path / "cooked.toml"
    formats.save(cooked_puzzle(), path)
    res = CliRunner().invoke(app, ["solve", str(path)])
    assert res.exit_code == 0
    assert "Keys: 2G 4B" in res.stdout and "cooked" in res.stdout
    import json

    out = json.loads(CliRunner().invoke(app, ["solve", str(path), "--json"]).stdout)
    assert out["keys"] == ["2G", "4B"] and out["sound"] is False and out["cooked"] is True
    assert all(set(d) == {"at", "plays"} for d in out["duals"])


def test_an_illegal_stated_line_is_a_wrong_answer() -> None:
    """An author's stated line that breaks a rule is their mistake: a mismatch with a note,
    never a crash."""
    pos = random_position(3, 8, 2)
    seat = pos.to_play
    assert seat is not None
    goal = Goal(seat, "avoid-paradox", None, "possible")
    sol = solve_goal(pos, goal)
    assert sol.solvable and sol.line
    bad = (*sol.line[:-1], sol.line[0])  # a card played twice: its cell is taken (L1)
    got = solve(_puzzle(pos, goal, PuzzleAnswer(True, bad, None)))
    assert got.matches_answer is False and got.note and "illegal" in got.note
    short = solve(_puzzle(pos, goal, PuzzleAnswer(True, sol.line[:1], None)))
    assert short.matches_answer is False and short.note and "stops before" in short.note
