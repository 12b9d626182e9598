"""Turning command-line arguments into positions, and writing results without losing input."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from catbox.solver.cards import seat_from_letter
from catbox.solver.errors import FileError, FormatError, PositionError

if TYPE_CHECKING:
    from catbox.solver.game import Game
    from catbox.solver.position import Position
    from catbox.solver.puzzle import Puzzle
    from catbox.solver.record import Record


def load_position(source: str, at: int | None = None) -> Position:
    """A position from a position file, a puzzle file, a record (after ``at`` moves, default
    all), or a one-line position string."""
    from catbox.solver import formats
    from catbox.solver.game import Game
    from catbox.solver.puzzle import Puzzle
    from catbox.solver.record import Record

    path = Path(source)
    if path.is_file():
        obj = formats.load(path)
        if isinstance(obj, Record):
            if at is not None and not 0 <= at <= len(obj.moves):
                raise PositionError(
                    f"the record has {len(obj.moves)} moves, not {at}", where="--at"
                )
            return obj.position(at)
        if at is not None:
            raise FormatError("--at applies to round records only", where=source)
        if isinstance(obj, Puzzle):
            return obj.position
        if isinstance(obj, Game):
            raise FormatError(
                "this is a game record, not a position",
                rule="format",
                where=source,
                code="game-not-position",
            )
        return obj
    if at is not None:
        raise FormatError("--at applies to round records only", where="--at")
    return formats.load_position(source)


def load_record(source: str) -> Record:
    """A round record file (``solver.formats.load_record``: a clear error for anything else)."""
    from catbox.solver import formats

    return formats.load_record(source)


def bundled_dir() -> Path:
    """The bundled puzzle collection (installed as ``catbox.puzzles``)."""
    return Path(str(resources.files("catbox.puzzles")))


def bundled() -> list[Path]:
    return sorted(bundled_dir().glob("*.toml"))


def find_puzzle(source: str) -> Puzzle:
    """A puzzle file, or a bundled puzzle by name."""
    from catbox.solver import formats

    path = Path(source)
    if not path.is_file():
        named = bundled_dir() / f"{source}.toml"
        if named.is_file():
            path = named
        else:
            raise FileError(
                "no such file, and no bundled puzzle of that name (see `catbox puzzles list`)",
                where=source,
            )
    return formats.load_puzzle(path)


def seat_arg(pos: Position, seat: str | None) -> int:
    """The seat asked about: ``--seat`` or, by default, the seat to play."""
    if seat is not None:
        return seat_from_letter(seat, pos.players)
    if pos.to_play is None:
        raise PositionError("the round is over: name a seat with --seat", where="--seat")
    return pos.to_play


def write_text(text: str, out: Path, *, force: bool, inputs: list[str]) -> None:
    """Write a picture or page to ``out`` (``-``: standard output); never onto one of the
    command's inputs, and never over an existing file unless ``force``."""
    import sys

    from catbox.solver import formats

    if str(out) == "-":
        sys.stdout.write(text)
        return
    _not_an_input(out, inputs)
    formats.save_text(text, out, force=force)


def check_writable(out: Path, *, force: bool, inputs: list[str]) -> None:
    """Fail now, before a long computation, if writing ``out`` later would fail: it is one of
    the inputs, or it exists and ``force`` is not given."""
    if str(out) == "-":
        return
    _not_an_input(out, inputs)
    if not force and (out.exists() or out.is_symlink()):
        raise FileError("the file exists", where=str(out), code="file-exists")


def _not_an_input(out: Path, inputs: list[str]) -> None:
    target = out.resolve()
    for src in inputs:
        p = Path(src)
        if p.exists() and p.resolve() == target:
            raise FileError("refusing to overwrite the command's own input", where=str(out))


def write_output(
    obj: Position | Record | Puzzle | Game, out: Path, *, force: bool, inputs: list[str]
) -> None:
    """Write ``obj`` to ``out``; never onto one of the command's inputs, and never over an
    existing file unless ``force``."""
    from catbox.solver import formats

    _not_an_input(out, inputs)
    formats.save(obj, out, force=force)


def load_document(source: str) -> Position | Record | Puzzle | Game:
    """A position, record or puzzle file, a bundled puzzle by name, or a one-line position
    string."""
    from catbox.solver import formats

    path = Path(source)
    if path.is_file():
        return formats.load(path)
    if formats.looks_like_line(source):
        return formats.position_from_line(source)
    if not path.suffix and (bundled_dir() / f"{source}.toml").is_file():
        return find_puzzle(source)
    return formats.load(path)  # the file's own error (missing, a directory …)
