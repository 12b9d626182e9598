"""Turning command-line arguments into positions, and writing results without losing input."""

from __future__ import annotations

import re
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


def parse_at(at: str | None) -> tuple[int | None, int | None]:
    """``--at``: ``N`` (a record after N moves) or ``R:N`` (round R of a game, from 1, after N
    moves; ``R:`` or ``R:end`` after its last move). Returns (round or None, moves or None)."""
    if at is None:
        return None, None
    m = re.fullmatch(r"\s*(?:(\d+)\s*:)?\s*(\d+|end)?\s*", at)
    if m is None or (m.group(1) is None and m.group(2) in (None, "end")):
        raise FormatError(f"--at {at}: expected N (moves) or R:N (round R of a game)", where="--at")
    moves = m.group(2)
    return (
        int(m.group(1)) if m.group(1) is not None else None,
        int(moves) if moves not in (None, "end") else None,
    )


def game_round(game: Game, r: int | None) -> Record:
    """Round ``r`` (from 1) of ``game`` for ``--at R:N``."""
    if r is None:
        raise FormatError("a game needs --at R:N (round R, after N moves)", where="--at")
    if not 1 <= r <= len(game.rounds):
        raise PositionError(f"the game has {len(game.rounds)} rounds, not {r}", where="--at")
    return game.rounds[r - 1]


def record_at(rec: Record, n: int | None) -> Position:
    """The position after ``n`` moves of ``rec`` (None: all)."""
    if n is not None and not 0 <= n <= len(rec.moves):
        raise PositionError(f"the record has {len(rec.moves)} moves, not {n}", where="--at")
    return rec.position(n)


def load_position(source: str, at: str | None = None) -> Position:
    """A position from a position file, a puzzle file, a record (after ``at`` = N moves,
    default all), a game (``at`` = R:N, round R after N moves) or a one-line position string."""
    from catbox.solver import formats
    from catbox.solver.game import Game
    from catbox.solver.puzzle import Puzzle
    from catbox.solver.record import Record

    r, n = parse_at(at)
    path = Path(source)
    if path.is_file():
        obj = formats.load(path)
        if isinstance(obj, Game):
            if at is None:
                raise FormatError(
                    "this is a game record, not a position",
                    rule="format",
                    where=source,
                    code="game-not-position",
                )
            return record_at(game_round(obj, r), n)
        if r is not None:
            raise FormatError("--at R:N applies to game records only", where="--at")
        if isinstance(obj, Record):
            return record_at(obj, n)
        if at is not None:
            raise FormatError("--at applies to round records and games only", where=source)
        if isinstance(obj, Puzzle):
            return obj.position
        return obj
    if at is not None:
        raise FormatError("--at applies to round records and games only", where="--at")
    return formats.load_position(source)


def load_game_file(source: str) -> Game | None:
    """The game of ``source`` when it is a game file, else None (the caller reads it as what
    else it accepts)."""
    from catbox.solver import formats
    from catbox.solver.game import Game

    path = Path(source)
    if not path.is_file():
        return None
    obj = formats.load(path)
    return obj if isinstance(obj, Game) else None


def load_record_or_game(source: str) -> Record | Game:
    """A round record or a game file (a clear error for anything else)."""
    from catbox.solver import formats
    from catbox.solver.game import Game
    from catbox.solver.record import Record

    obj = formats.load(source)
    if not isinstance(obj, Record | Game):
        raise FormatError(
            f"expected a round record ({formats.RECORD_FORMAT}) or a game ({formats.GAME_FORMAT})",
            rule="format",
            where=source,
        )
    return obj


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
