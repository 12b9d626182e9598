"""Corrupted files: whatever happens to a valid file, reading it either succeeds or raises a
CatboxError (with a location) — never a TypeError, KeyError, IndexError, RecursionError …"""

from __future__ import annotations

import contextlib
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catbox.solver.deal import random_position
from catbox.solver.errors import CatboxError
from catbox.solver.formats import dumps, loads, position_from_line, position_to_line
from catbox.solver.position import Position
from catbox.solver.puzzle import Goal, Puzzle, PuzzleAnswer

from .documents import POS2, POS3, POS4
from .games import playout


def _pool() -> dict[str, tuple[str, str]]:
    pool: dict[str, tuple[str, str]] = {}
    positions: list[Position] = []
    for text in (POS2, POS3, POS4):
        pos = loads(text)
        assert isinstance(pos, Position)
        positions.append(pos)
    positions.append(random_position(5, 3, 4, mid_trick=3, hide=[2, 4]))
    rec = playout(3, 7)
    positions.append(rec.position())
    positions.append(random_position(2, 9, 5).hide([1]))
    pz = Puzzle(
        "Corrupt me",
        3,
        'with "quotes"',
        positions[2],
        Goal(2, "make-exactly", 3, "guaranteed"),
        PuzzleAnswer(True, (positions[2].legal_plays()[0],), None),
    )
    objs: list[Position | Puzzle | object] = [*positions, rec.with_moves(rec.moves[:10]), pz]
    for i, obj in enumerate(objs):
        for syntax in ("toml", "json"):
            pool[f"{i}.{syntax}"] = (dumps(obj, syntax), syntax)  # type: ignore[arg-type]
    return pool


POOL = _pool()
LINES = [position_to_line(loads(t)) for t in (POS2, POS3, POS4)]  # type: ignore[arg-type]

CHARS = '"[]{}=,.:/0123456789ABCDEFGNRYXabn\n -#\\'
BAD_VALUES = [
    '"x"',
    '[1, "2"]',
    "true",
    "3",
    "-1",
    "0",
    "99999999999999999999",
    "[]",
    '""',
    '"5B 7B"',
    "1.5",
    '["A", "B"]',
    "[[1], [2]]",
]


@st.composite
def mutate(draw: st.DrawFn, text: str, syntax: str) -> str:
    for _ in range(draw(st.integers(1, 3))):
        lines = text.split("\n")
        kind = draw(
            st.sampled_from(
                ["delete", "insert", "replace_line", "drop_line", "number", "value", "dup", "swap"]
            )
        )
        if kind == "delete" and text:
            i = draw(st.integers(0, len(text) - 1))
            text = text[:i] + text[i + 1 :]
        elif kind == "insert":
            i = draw(st.integers(0, len(text)))
            text = text[:i] + draw(st.sampled_from(CHARS)) + text[i:]
        elif kind == "replace_line":
            i = draw(st.integers(0, len(lines) - 1))
            lines[i] = draw(st.text(alphabet=CHARS, max_size=20))
            text = "\n".join(lines)
        elif kind == "drop_line":
            del lines[draw(st.integers(0, len(lines) - 1))]
            text = "\n".join(lines)
        elif kind == "number":
            spans = [m.span() for m in re.finditer(r"\d+", text)]
            if spans:
                a, b = draw(st.sampled_from(spans))
                new = draw(st.sampled_from(["0", "1", "2", "3", "5", "6", "9", "10", "-1", "1e3"]))
                text = text[:a] + new + text[b:]
        elif kind == "value":
            sep = "=" if syntax == "toml" else ":"
            spans = [m.span(1) for m in re.finditer(rf"{sep}\s*(.+?),?$", text, re.M)]
            if spans:
                a, b = draw(st.sampled_from(spans))
                text = text[:a] + draw(st.sampled_from(BAD_VALUES)) + text[b:]
        elif kind == "dup":
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i])
            text = "\n".join(lines)
        elif kind == "swap" and len(lines) > 1:
            i = draw(st.integers(0, len(lines) - 2))
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
            text = "\n".join(lines)
    return text


@st.composite
def corrupted(draw: st.DrawFn) -> tuple[str, str]:
    name = draw(st.sampled_from(sorted(POOL)))
    text, syntax = POOL[name]
    return draw(mutate(text, syntax)), syntax


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(corrupted())
def test_corrupted_files_raise_only_catbox_errors(case: tuple[str, str]) -> None:
    text, syntax = case
    try:
        loads(text, syntax, name="bad.file")  # type: ignore[arg-type]
    except CatboxError as e:
        assert e.where is not None and e.where.startswith("bad.file"), e
        assert str(e)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(LINES).flatmap(lambda line: mutate(line, "line")))
def test_corrupted_position_strings_raise_only_catbox_errors(text: str) -> None:
    try:
        position_from_line(text)
    except CatboxError as e:
        assert e.where is not None and e.where.startswith("position string"), e


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=60))
def test_arbitrary_text_raises_only_catbox_errors(text: str) -> None:
    for syntax in ("toml", "json"):
        with contextlib.suppress(CatboxError):
            loads(text, syntax)
    with contextlib.suppress(CatboxError):
        position_from_line("cbx1:" + text)


def test_deep_nesting_is_a_format_error() -> None:
    for text, syntax in [("[" * 100_000, "json"), ("a = " + "[" * 100_000, "toml")]:
        with pytest.raises(CatboxError):
            loads(text, syntax)  # type: ignore[arg-type]
