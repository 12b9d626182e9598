"""The puzzle generator: natural plays, determinism, and only sound, non-trivial, graded puzzles
whose answers the solver proves."""

from __future__ import annotations

from pathlib import Path

import pytest

from catbox.cli.output import EXIT_FORMAT
from catbox.solver import formats
from catbox.solver.deal import random_position
from catbox.solver.puzzle import Goal, Puzzle
from catbox.solver.puzzlecheck import check
from catbox.solver.puzzlegen import generate, natural_play, wants_trick
from catbox.solver.solve import solve

from .clirun import run

CASES = [
    (2, 1, "make-exactly", "guaranteed", None),
    (3, 2, "max-score", "guaranteed", 3),
    (4, 5, "paradox-free-round", None, 2),
    (5, 1, "make-at-least", "guaranteed", 2),
]


@pytest.mark.parametrize(("players", "seed", "kind", "mode", "left"), CASES)
def test_generate_is_deterministic_and_proven(
    players: int, seed: int, kind: str, mode: str | None, left: int | None
) -> None:
    g = generate(players, seed, kind=kind, mode=mode, tricks_left=left)
    again = generate(players, seed, kind=kind, mode=mode, tricks_left=left)
    assert formats.dumps(g.puzzle) == formats.dumps(again.puzzle)
    pz = g.puzzle
    assert pz.goal.kind == kind and pz.position.players == players
    if mode is not None:
        assert pz.goal.mode == mode
    if left is not None:
        assert pz.position.tricks_left == left
    pz.position.validate()
    sol = solve(pz)
    assert sol.status == "proven" and sol.matches_answer is True, sol.note
    assert formats.loads(formats.dumps(pz)) == pz
    # sound and not trivial: one key (or a proven "no"), 4+ legal plays, the natural play fails
    c = check(pz)
    assert c.sound and sol.sound, c.problems
    assert sol.keys == (() if not sol.solvable else sol.keys) and len(sol.keys or ()) <= 1
    assert len(c.legal) >= 4
    assert c.grade is not None and c.grade.difficulty == pz.difficulty
    if sol.solvable:
        assert c.natural is not None and c.natural not in (sol.keys or ())
        assert f"obvious {c.natural}" in pz.description
        assert pz.answer is not None and pz.answer.line and pz.answer.line[0] in (sol.keys or ())


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_natural_play_is_legal_and_deterministic(players: int) -> None:
    for seed in range(4):
        pos = random_position(players, seed, 2, mid_trick=seed % players)
        seat = pos.to_play
        assert seat is not None
        for kind, target in [("make-at-least", 1), ("make-at-most", 0), ("avoid-paradox", None)]:
            goal = Goal(seat, kind, target, "guaranteed")
            nat = natural_play(pos, goal)
            assert nat in pos.legal_plays()
            assert nat == natural_play(pos, goal)
        assert natural_play(pos, Goal((seat + 1) % players, "max-score", None, "possible")) is None


def test_wants_trick() -> None:
    pos = random_position(4, 1, 2)
    seat = pos.to_play
    assert seat is not None
    t = pos.seats[seat].tricks
    assert wants_trick(pos, Goal(seat, "make-at-least", 0, "guaranteed"))
    assert not wants_trick(pos, Goal(seat, "make-at-most", 8, "guaranteed"))
    assert wants_trick(pos, Goal(seat, "make-exactly", t + 1, "guaranteed"))
    assert not wants_trick(pos, Goal(seat, "make-exactly", t, "guaranteed"))


@pytest.mark.parametrize(
    ("level", "seed", "left"), [("easy", 1, 2), ("medium", 4, None), ("hard", 3, None)]
)
def test_generate_aims_at_a_level(level: str, seed: int, left: int | None) -> None:
    g = generate(3, seed, level=level, tricks_left=left)
    assert g.check.grade is not None and g.check.grade.level == level
    assert g.check.sound


def test_cli_generate_prints_writes_and_refuses(tmp_path: Path) -> None:
    args = ("puzzles", "generate", "--players", 3, "--seed", 2, "--kind", "max-score")
    code, out, _ = run(*args, "--mode", "guaranteed", "--tricks-left", 3)
    assert code == 0
    printed = formats.loads(out)
    assert isinstance(printed, Puzzle)
    path = tmp_path / "gen.toml"
    assert run(*args, "--mode", "guaranteed", "--tricks-left", 3, "-o", path)[0] == 0
    assert formats.load(path) == printed
    code, _, err = run(*args, "--mode", "guaranteed", "--tricks-left", 3, "-o", path)
    assert code != 0 and "exists" in err
    assert run(*args, "--mode", "guaranteed", "--tricks-left", 3, "-o", path, "--force")[0] == 0
    assert run("solve", path)[0] == 0


@pytest.mark.parametrize(
    "bad",
    [
        ("--players", 6),
        ("--players", 3, "--kind", "make-it-so"),
        ("--players", 3, "--mode", "maybe"),
        ("--players", 3, "--kind", "paradox-free-round", "--mode", "guaranteed"),
        ("--players", 3, "--tricks-left", 0),
        ("--players", 3, "--level", "fiendish"),
    ],
)
def test_cli_generate_bad_options(bad: tuple[str | int, ...]) -> None:
    code, _out, err = run("puzzles", "generate", *bad)
    assert code == EXIT_FORMAT
    assert err.startswith("error:") and len(err.strip().splitlines()) == 1
    if bad[-2] != "--players":  # the CLI names its option (the library names its parameter)
        assert f"error: {bad[-2]}: " in err
