"""The error tree (solver/errors.py) and the CLI's last resort: a bug is never bad input, one way
to attach a location, no command-line words in library messages, exit 70 for the unexpected."""

from __future__ import annotations

import ast
import inspect
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import catbox.solver
from catbox.cli import errors as cli_errors
from catbox.cli.main import invoke
from catbox.cli.output import EXIT_FORMAT, EXIT_INTERNAL, EXIT_IO, exit_code, report_error
from catbox.solver import formats
from catbox.solver.deal import random_position
from catbox.solver.errors import (
    CatboxError,
    FileError,
    FormatError,
    IllegalPlayError,
    PositionError,
    SolverBug,
)


def test_tree() -> None:
    assert issubclass(SolverBug, RuntimeError) and not issubclass(SolverBug, ValueError)
    assert not issubclass(SolverBug, CatboxError)
    for cls in (FormatError, FileError, PositionError, IllegalPlayError):
        assert cls.__bases__ == (CatboxError,), cls  # siblings, one level under the base
        assert issubclass(cls, ValueError)
    kinds = [c.kind for c in (FormatError, FileError, PositionError, IllegalPlayError, SolverBug)]
    assert kinds == ["format", "file", "position", "illegal-play", "internal"]


def test_exit_codes_as_documented_in_the_readme() -> None:
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    table = {
        int(row.split("|")[1]): row.split("|")[2].strip()
        for row in readme.split("## Exit codes", 1)[1].split("\n\n")[1].splitlines()
        if row.startswith("| ") and row.split("|")[1].strip().isdigit()
    }
    cases = {
        FormatError("x"): "format error",
        FileError("x"): "file error",
        PositionError("x"): "position error",
        IllegalPlayError("x"): "illegal play",
        SolverBug("x"): "internal error",
        OSError(2, "No such file"): "file error",
    }
    for e, words in cases.items():
        assert table[exit_code(e)].startswith(words), (e, table)
    assert exit_code(FileError("x")) == EXIT_IO and exit_code(FormatError("x")) == EXIT_FORMAT


def test_located_is_the_one_way_to_attach_a_location() -> None:
    e = FormatError("bad", where="hand[1]")
    assert e.located("seat.B", sep=".") is e and e.where == "seat.B.hand[1]"
    e.located("pos.toml: seat.B.hand[1] (line 4)", replace=True, final=True)
    e.located("puzzle.toml")  # final: an outer reader leaves it alone
    assert str(e) == "pos.toml: seat.B.hand[1] (line 4): bad"
    assert FormatError("bad").located("").where is None
    assert FormatError("bad").located("x").where == "x"


def _error_texts(tree: ast.AST) -> Iterator[str]:
    """Every string literal inside a call of an ``...Error``/``SolverBug`` constructor."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = (
                f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            )
            if name.endswith(("Error", "Bug", "_err")):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                        yield sub.value


def test_no_cli_words_in_library_messages() -> None:
    """The library names no command or option; the CLI adds hints by ``code``."""
    root = Path(catbox.solver.__file__).parent
    texts = [
        t for path in sorted(root.rglob("*.py")) for t in _error_texts(ast.parse(path.read_text()))
    ]
    assert len(texts) > 100  # the walk finds the messages
    for text in texts:
        assert "catbox " not in text.replace("this catbox", ""), text
        assert not re.search(r"(^|\s|`)--[a-z]", text), text


def test_cli_hints_by_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    e = FileError("the file exists", where="o.toml", code="file-exists")
    assert report_error(e, json_mode=False) == EXIT_IO
    assert "o.toml: the file exists; use --force to overwrite it" in capsys.readouterr().err
    assert set(cli_errors.HINTS) == {
        "file-exists",
        "record-not-position",
        "game-not-position",
        "needs-known-hands",
        "batch-options",
        "batch-not-output",
    }


def test_solver_bug_reports_internal(capsys: pytest.CaptureFixture[str]) -> None:
    assert report_error(SolverBug("witness fails"), json_mode=True) == EXIT_INTERNAL
    doc = json.loads(capsys.readouterr().out)
    assert doc == {
        "error": {"kind": "internal", "message": "witness fails", "rule": None, "where": None}
    }


def _main(monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    monkeypatch.setattr(sys, "argv", ["catbox", *args])
    return invoke()  # main() itself ends the process (os._exit)


def test_unexpected_exception_exits_70_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "p.toml"
    formats.save(random_position(3, seed=4, tricks_left=3), path)
    assert _main(monkeypatch, "show", str(path)) == 0
    capsys.readouterr()

    def boom(source: object) -> object:
        raise KeyError("oops")

    monkeypatch.setattr(formats, "load", boom)
    monkeypatch.delenv(cli_errors.TRACEBACK_ENV, raising=False)
    assert _main(monkeypatch, "show", str(path)) == EXIT_INTERNAL == 70
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("internal error: KeyError: 'oops'")
    assert "Traceback" not in err

    monkeypatch.setenv(cli_errors.TRACEBACK_ENV, "1")
    assert _main(monkeypatch, "show", str(path)) == 70
    assert "Traceback (most recent call last)" in capsys.readouterr().err


def test_public_api_documents_what_it_raises() -> None:
    """``Raises:`` sections on the public API: the loaders, the writers, Position.play …"""
    from catbox.solver.position import Position
    from catbox.solver.record import Record

    public = [
        formats.load,
        formats.loads,
        formats.load_position,
        formats.load_record,
        formats.load_puzzle,
        formats.from_json_obj,
        formats.save,
        formats.position_from_line,
        Position.play,
        Position.legal_plays,
        Position.validate,
        Record.positions,
        Record.position,
        Record.validate,
        catbox.solver.variant,
        catbox.solver.Play.parse,
    ]
    for fn in public:
        doc = inspect.getdoc(fn) or ""
        assert "Raises:" in doc, fn.__qualname__
        assert "Error" in doc.split("Raises:", 1)[1], fn.__qualname__


def test_cli_adds_the_hint_for_unknown_hands(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from catbox.cli.main import app

    path = tmp_path / "p.toml"
    mover = random_position(4, seed=2, tricks_left=2).to_play
    assert mover is not None
    formats.save(random_position(4, seed=2, tricks_left=2, hide=[mover]), path)
    res = CliRunner().invoke(app, ["analyze", str(path)])
    assert res.exit_code == 4 and res.stdout == ""
    assert res.stderr.count("\n") == 1
    assert "the hand of the seat to play" in res.stderr and "use `catbox paradox`" in res.stderr
