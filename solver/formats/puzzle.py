"""Puzzles as documents (``catbox-puzzle/1``).

``[position]`` is a position table exactly as in a position file (its own ``format`` key may be
given, and must then be ``catbox-position/1``), or ``position = "other.toml"``: a position file
resolved relative to the puzzle file. Writing always inlines the position table.

``[goal]``: ``seat``, ``kind``, ``target`` (the ``make-*`` kinds only) and ``mode``; ``mode`` may
be omitted for ``paradox-free-round`` (it can only be ``possible``). ``[answer]`` is optional:
``solvable``, ``line`` (a list of plays, or one string of plays separated by spaces) and
``value`` (``max-score`` only). The stated line is replayed through the rules engine on reading.

>>> from ..deal import random_position
>>> from ..puzzle import Goal
>>> pos = random_position(3, seed=1, tricks_left=2)
>>> pz = Puzzle("Two to go", 2, "", pos, Goal(0, "make-at-least", 1, "possible"), None)
>>> doc = puzzle_to_obj(pz)
>>> sorted(doc), doc["goal"]
(['description', 'difficulty', 'format', 'goal', 'position', 'title'], \
{'seat': 'A', 'kind': 'make-at-least', 'target': 1, 'mode': 'possible'})
>>> puzzle_from_obj(doc) == pz
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, cast

from ..cards import seat_letter
from ..errors import CatboxError, FormatError
from ..position import Position
from ..puzzle import GOAL_KINDS, GOAL_MODES, Goal, GoalMode, Puzzle, PuzzleAnswer
from .common import as_bool, as_int, as_seat, as_str, check_keys, get, get_table
from .position import POSITION_FORMAT, parse_plays, position_from_obj, position_to_obj

__all__ = ["PUZZLE_FORMAT", "puzzle_from_obj", "puzzle_to_obj"]

PUZZLE_FORMAT = "catbox-puzzle/1"
PUZZLE_KEYS = ("format", "title", "difficulty", "description", "position", "goal", "answer")
GOAL_KEYS = ("seat", "kind", "target", "mode")
ANSWER_KEYS = ("solvable", "line", "value")


def _require(table: Mapping[str, Any], name: str, key: str, what: str) -> object:
    value = get(table, name)
    if value is None:
        raise FormatError(f"missing key {name} ({what})", rule="puzzle", where=key)
    return value


def _goal(d: Mapping[str, Any], players: int) -> Goal:
    goal_t = get_table(d, "goal", "")
    if goal_t is None:
        raise FormatError("missing [goal] table (seat, kind, mode)", rule="goal", where="goal")
    check_keys(goal_t, GOAL_KEYS, "goal")
    seat = as_seat(_require(goal_t, "seat", "goal.seat", "a seat letter"), players, "goal.seat")
    kind = as_str(
        _require(goal_t, "kind", "goal.kind", "one of " + ", ".join(GOAL_KINDS)), "goal.kind"
    )
    target_v = get(goal_t, "target")
    target = None if target_v is None else as_int(target_v, "goal.target")
    mode_v = get(goal_t, "mode")
    if mode_v is None and kind == "paradox-free-round":
        mode = "possible"
    else:
        mode_v = _require(goal_t, "mode", "goal.mode", " or ".join(GOAL_MODES))
        mode = as_str(mode_v, "goal.mode")
    return Goal(seat=seat, kind=kind, target=target, mode=cast(GoalMode, mode))


def _answer(d: Mapping[str, Any]) -> PuzzleAnswer | None:
    answer_t = get_table(d, "answer", "")
    if answer_t is None:
        return None
    check_keys(answer_t, ANSWER_KEYS, "answer")
    solvable_v, line_v, value_v = (get(answer_t, k) for k in ANSWER_KEYS)
    return PuzzleAnswer(
        solvable=None if solvable_v is None else as_bool(solvable_v, "answer.solvable"),
        line=None if line_v is None else parse_plays(line_v, "answer.line"),
        value=None if value_v is None else as_int(value_v, "answer.value"),
    )


def puzzle_from_obj(
    d: Mapping[str, Any],
    *,
    name: str = "",
    load_file: Callable[[Path], Position] | None = None,
    directory: Path | None = None,
) -> Puzzle:
    """Build and check a puzzle. ``load_file`` reads a referenced position file (``position =
    "other.toml"``, relative to ``directory``); without it such a reference is an error."""
    check_keys(d, PUZZLE_KEYS, "")
    title = as_str(_require(d, "title", "title", "text"), "title")
    difficulty = as_int(_require(d, "difficulty", "difficulty", "1 to 5"), "difficulty")
    desc_v = get(d, "description")
    description = "" if desc_v is None else as_str(desc_v, "description")

    pos_v = _require(d, "position", "position", "a position table or a position file name")
    if isinstance(pos_v, str):
        if load_file is None:
            raise FormatError(
                f"position = {pos_v!r} refers to a file, which only a puzzle file can do",
                where="position",
            )
        path = Path(pos_v)
        if directory is not None and not path.is_absolute():
            path = directory / path
        position = load_file(path)
    elif isinstance(pos_v, dict):
        fmt = get(pos_v, "format")
        if fmt is not None and as_str(fmt, "position.format") != POSITION_FORMAT:
            raise FormatError(
                f"the position table's format must be {POSITION_FORMAT!r}, not {fmt!r}",
                rule="format",
                where="position.format",
            )
        position = position_from_obj(pos_v, "position")
    else:
        raise FormatError(
            "position must be a table, or the name of a position file", where="position"
        )

    goal = _goal(d, position.players)
    answer = _answer(d)
    puzzle = Puzzle(
        title=title,
        difficulty=difficulty,
        description=description,
        position=position,
        goal=goal,
        answer=answer,
        name=name,
    )
    if answer is not None and answer.line:
        pos = position
        for i, play in enumerate(answer.line):
            try:
                pos = pos.play(play)
            except CatboxError as e:
                who = seat_letter(pos.to_play) if pos.to_play is not None else "nobody"
                raise type(e)(
                    f"the answer's line does not replay: play {i + 1} ({who} plays {play}): "
                    f"{e.message}",
                    rule=e.rule,
                    where=f"answer.line[{i}]",
                ) from None
    return puzzle


def puzzle_to_obj(pz: Puzzle) -> dict[str, Any]:
    """The document table of a puzzle, with the position inlined."""
    g = pz.goal
    goal: dict[str, Any] = {"seat": seat_letter(g.seat), "kind": g.kind}
    if g.target is not None:
        goal["target"] = g.target
    goal["mode"] = g.mode
    d: dict[str, Any] = {
        "format": PUZZLE_FORMAT,
        "title": pz.title,
        "difficulty": pz.difficulty,
        "description": pz.description,
        "position": position_to_obj(pz.position, with_format=False),
        "goal": goal,
    }
    if pz.answer is not None:
        a = pz.answer
        answer: dict[str, Any] = {}
        if a.solvable is not None:
            answer["solvable"] = a.solvable
        if a.line is not None:
            answer["line"] = [str(p) for p in a.line]
        if a.value is not None:
            answer["value"] = a.value
        d["answer"] = answer
    return d
