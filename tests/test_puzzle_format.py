"""Puzzles (formats.md, ``catbox-puzzle/1``): the data model's checks, round trips, referenced
position files and errors located inside the puzzle's position table."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catbox.solver.cards import variant
from catbox.solver.deal import random_position
from catbox.solver.errors import (
    CatboxError,
    FileError,
    FormatError,
    IllegalPlayError,
    PositionError,
)
from catbox.solver.formats import (
    dumps,
    load,
    load_position,
    load_puzzle,
    loads,
    save,
    to_json_obj,
)
from catbox.solver.formats.common import toml_dumps
from catbox.solver.position import Position
from catbox.solver.puzzle import GOAL_KINDS, TARGET_KINDS, Goal, Puzzle, PuzzleAnswer

from .documents import POS4, line_no

GOAL = Goal(seat=0, kind="make-exactly", target=3, mode="guaranteed")


def puzzle(pos: Position | None = None, **changes: Any) -> Puzzle:
    pos = pos or loads(POS4)  # type: ignore[assignment]
    assert isinstance(pos, Position)
    fields: dict[str, Any] = {
        "title": "Last two tricks",
        "difficulty": 2,
        "description": "Ann must make exactly her prediction.",
        "position": pos,
        "goal": GOAL,
        "answer": PuzzleAnswer(True, (pos.legal_plays()[0],), None),
    }
    fields.update(changes)
    return Puzzle(**fields)


# ---------------------------------------------------------------------------- the model


def test_unknown_kind_lists_the_known_kinds() -> None:
    with pytest.raises(FormatError) as e:
        Goal(0, "win-everything", None, "possible")
    assert e.value.where == "goal.kind"
    assert all(kind in e.value.message for kind in GOAL_KINDS)


@pytest.mark.parametrize(
    ("kind", "target", "mode", "key"),
    [
        ("make-exactly", None, "guaranteed", "goal.target"),
        ("make-at-least", -1, "possible", "goal.target"),
        ("avoid-paradox", 2, "guaranteed", "goal.target"),
        ("max-score", 1, "possible", "goal.target"),
        ("avoid-paradox", None, "surely", "goal.mode"),
        ("paradox-free-round", None, "guaranteed", "goal.mode"),
    ],
)
def test_goal_checks(kind: str, target: int | None, mode: str, key: str) -> None:
    with pytest.raises(FormatError) as e:
        Goal(0, kind, target, mode)  # type: ignore[arg-type]
    assert e.value.where == key and e.value.rule == "goal"


def test_every_kind_in_every_allowed_mode() -> None:
    for kind in GOAL_KINDS:
        for mode in ("guaranteed", "possible"):
            if kind == "paradox-free-round" and mode == "guaranteed":
                continue
            goal = Goal(1, kind, 2 if kind in TARGET_KINDS else None, mode)
            assert goal.describe().startswith(("B ", "nobody"))


@pytest.mark.parametrize(
    ("changes", "key"),
    [
        ({"difficulty": 0}, "difficulty"),
        ({"difficulty": 6}, "difficulty"),
        ({"title": ""}, "title"),
        ({"goal": Goal(4, "avoid-paradox", None, "possible")}, "goal.seat"),
        ({"goal": Goal(0, "make-at-most", 9, "possible")}, "goal.target"),
        ({"answer": PuzzleAnswer(True, None, 5)}, "answer.value"),
    ],
)
def test_puzzle_checks(changes: dict[str, Any], key: str) -> None:
    with pytest.raises(FormatError) as e:
        puzzle(**changes)
    assert e.value.where == key


def test_name_is_not_part_of_equality() -> None:
    assert puzzle(name="a") == puzzle(name="b")


# ---------------------------------------------------------------------------- round trips


@st.composite
def puzzles(draw: st.DrawFn) -> Puzzle:
    players = draw(st.integers(2, 5))
    seed = draw(st.integers(0, 10**5))
    tricks_left = draw(st.integers(1, 4))
    mid = draw(st.integers(0, players - 1))
    pos = random_position(players, seed, tricks_left, mid_trick=mid)
    kind = draw(st.sampled_from(GOAL_KINDS))
    mode = "possible" if kind == "paradox-free-round" else draw(st.sampled_from(GOAL_MODES))
    target = draw(st.integers(0, variant(players).tricks)) if kind in TARGET_KINDS else None
    goal = Goal(draw(st.integers(0, players - 1)), kind, target, mode)  # type: ignore[arg-type]
    answer = None
    if draw(st.booleans()):
        rng = random.Random(seed)
        line = []
        p = pos
        for _ in range(draw(st.integers(0, 3))):
            if p.finished:
                break
            move = rng.choice(p.legal_plays())
            line.append(move)
            p = p.play(move)
        answer = PuzzleAnswer(
            solvable=draw(st.none() | st.booleans()),
            line=draw(st.sampled_from([None, tuple(line)])),
            value=draw(st.none() | st.integers(-8, 20)) if kind == "max-score" else None,
        )
    return Puzzle(
        title=draw(st.text(min_size=1, max_size=20).filter(lambda t: t.strip() != "")),
        difficulty=draw(st.integers(1, 5)),
        description=draw(st.text(max_size=40)),
        position=pos,
        goal=goal,
        answer=answer,
    )


GOAL_MODES = ("guaranteed", "possible")


@settings(max_examples=40, deadline=None)
@given(puzzles())
def test_puzzles_round_trip(pz: Puzzle) -> None:
    for syntax in ("toml", "json"):
        back = loads(dumps(pz, syntax), syntax)
        assert back == pz


def test_puzzle_file_round_trip_and_name(tmp_path: Path) -> None:
    pz = puzzle()
    for name in ("last-two.toml", "last-two.json"):
        save(pz, tmp_path / name)
        back = load_puzzle(tmp_path / name)
        assert back == pz and back.name == "last-two"
        assert load_position(str(tmp_path / name)) == pz.position
    text = (tmp_path / "last-two.toml").read_text()
    assert "[position.seat.A]" in text and "[goal]" in text and "[answer]" in text


def test_mode_may_be_omitted_for_paradox_free_round() -> None:
    doc = to_json_obj(puzzle(goal=Goal(0, "paradox-free-round", None, "possible"), answer=None))
    del doc["goal"]["mode"]
    back = loads(toml_dumps(doc))
    assert isinstance(back, Puzzle) and back.goal.mode == "possible"
    doc["goal"]["kind"] = "avoid-paradox"
    with pytest.raises(FormatError) as e:
        loads(toml_dumps(doc))
    assert e.value.where is not None and e.value.where.startswith("goal.mode")


def test_answer_line_as_a_string() -> None:
    pz = puzzle()
    doc = to_json_obj(pz)
    doc["answer"]["line"] = " ".join(doc["answer"]["line"])
    assert loads(toml_dumps(doc)) == pz


# ---------------------------------------------------------------------------- files and errors


def test_position_reference_relative_to_the_puzzle(tmp_path: Path) -> None:
    pz = puzzle()
    (tmp_path / "positions").mkdir()
    save(pz.position, tmp_path / "positions" / "p.toml")
    doc = to_json_obj(pz)
    doc["position"] = "positions/p.toml"
    (tmp_path / "pz.toml").write_text(toml_dumps(doc))
    assert load(tmp_path / "pz.toml") == pz
    # an error inside the referenced file names that file
    ref = tmp_path / "positions" / "p.toml"
    ref.write_text(ref.read_text().replace('colors = "RG"', 'colour = "RG"'))
    with pytest.raises(FormatError) as e:
        load(tmp_path / "pz.toml")
    assert e.value.where is not None
    assert e.value.where.startswith(f"{ref}: seat.B.colour (line ")
    # a missing file
    doc["position"] = "positions/missing.toml"
    (tmp_path / "pz.toml").write_text(toml_dumps(doc))
    with pytest.raises(FileError) as missing:
        load(tmp_path / "pz.toml")
    assert missing.value.where == str(tmp_path / "positions" / "missing.toml")


def test_position_reference_needs_a_file() -> None:
    doc = to_json_obj(puzzle())
    doc["position"] = "p.toml"
    with pytest.raises(FormatError) as e:
        loads(toml_dumps(doc))
    assert e.value.where == f"position (line {line_no(toml_dumps(doc), 'position = ')})"


def test_errors_inside_the_position_table_are_located() -> None:
    text = dumps(puzzle(), "toml").replace("hand = [4, 4, 7]", "hand = [4, 4]")
    with pytest.raises(PositionError) as e:
        loads(text, name="pz.toml")
    assert e.value.rule == "S2"
    assert e.value.where == f"pz.toml: position.seat.B.hand (line {line_no(text, 'hand = [4, 4]')})"
    text = dumps(puzzle(), "toml").replace("[position]", '[position]\nformat = "catbox-record/1"')
    with pytest.raises(FormatError) as f:
        loads(text, name="pz.toml")
    assert f.value.where == "pz.toml: position.format (line 7)"


def test_goal_errors_are_located() -> None:
    text = dumps(puzzle(), "toml").replace('kind = "make-exactly"', 'kind = "make-exactely"')
    with pytest.raises(FormatError) as e:
        loads(text, name="pz.toml")
    assert e.value.where == f"pz.toml: goal.kind (line {line_no(text, 'kind =')})"
    assert "make-exactly" in e.value.message
    text = dumps(puzzle(), "toml").replace('seat = "A"', 'seat = "E"')
    with pytest.raises(FormatError) as e:
        loads(text, name="pz.toml")
    assert e.value.where == f"pz.toml: goal.seat (line {line_no(text, 'seat = ')})"


def test_answer_line_must_replay() -> None:
    pz = puzzle()
    doc = to_json_obj(pz)
    doc["answer"]["line"] = ["1R"]  # the cell of C's lead
    text = toml_dumps(doc)
    with pytest.raises(IllegalPlayError) as e:
        loads(text, name="pz.toml")
    assert e.value.rule == "L1"
    assert e.value.where == f"pz.toml: answer.line[0] (line {line_no(text, 'line = ')})"


def test_load_puzzle_of_a_position_file(tmp_path: Path) -> None:
    save(puzzle().position, tmp_path / "p.toml")
    with pytest.raises(FormatError) as e:
        load_puzzle(tmp_path / "p.toml")
    assert e.value.rule == "format"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("difficulty = 2", 'difficulty = "2"'),
        ("difficulty = 2", "difficulty = 7"),
        ("[goal]", "[goals]"),
        ("solvable = true", 'solvable = "yes"'),
        ("target = 3", "target = [3]"),
        ('title = "Last two tricks"\n', ""),
    ],
)
def test_bad_puzzle_files(old: str, new: str) -> None:
    text = dumps(puzzle(), "toml")
    assert old in text
    with pytest.raises(CatboxError) as e:
        loads(text.replace(old, new), name="pz.toml")
    assert isinstance(e.value, FormatError)
    assert e.value.where is not None and e.value.where.startswith("pz.toml: ")
