"""The sample positions and records shipped in puzzles/ (used by the README) load, validate and
work with every basic command."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from catbox.solver import Position, Record, formats

from .clirun import run, run_json

ROOT = Path(__file__).resolve().parent.parent / "puzzles"
POSITIONS = sorted((ROOT / "positions").glob("*.toml"))
RECORDS = sorted((ROOT / "records").glob("*.toml"))


def test_samples_cover_the_issue_list() -> None:
    loaded = [formats.load(p) for p in POSITIONS]
    assert all(isinstance(p, Position) for p in loaded)
    positions = [p for p in loaded if isinstance(p, Position)]
    assert {p.players for p in positions} == {2, 3, 4, 5}
    assert any(p.players == 2 and p.revealed for p in positions)  # neutral tokens
    assert any(p.trick for p in positions)  # mid-trick
    assert any(p.paradox is not None for p in positions)  # finished by a paradox
    assert any(not p.all_hands_known for p in positions)  # unknown hands


@pytest.mark.parametrize("path", POSITIONS, ids=lambda p: p.stem)
def test_sample_position_commands(path: Path) -> None:
    pos = formats.load(path)
    assert isinstance(pos, Position)
    pos.validate()
    shown = run_json("show", path)
    assert isinstance(shown, dict)
    assert formats.load_position(shown["line"]) == replace(pos, names=())  # names not in line
    assert run("score", path)[0] == 0
    code = run("moves", path)[0]
    assert code == 0 if not pos.finished and pos.all_hands_known else code != 0


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_sample_records_replay(path: Path) -> None:
    rec = formats.load(path)
    assert isinstance(rec, Record)
    end = rec.position()
    rep = run_json("replay", path)
    assert isinstance(rep, dict) and rep["at"] == len(rec.moves)
    assert rep["finished"] == end.finished
