"""Reading and writing positions, round records, games and puzzles (formats.md).

One data model, two syntaxes: TOML for people, JSON for programs, with the same keys. Every
file names its kind and version in ``format``; :func:`load` picks the reader from it. Every
mistake is a :class:`~catbox.solver.errors.CatboxError` whose ``where`` names the file, the key
and (TOML) the line, and whose ``rule`` names the rule broken.

>>> from catbox.solver.deal import random_position
>>> pos = random_position(4, seed=3, tricks_left=2, mid_trick=1)
>>> text = dumps(pos, "toml")
>>> print(text[:text.index("[seat.B]")].strip())
format = "catbox-position/1"
players = 4
<BLANKLINE>
[board]
red    = "C D C A . B B C"
blue   = "B C A . C A D D"
yellow = "A . D . . C . ."
green  = "A C B B A D B D"
<BLANKLINE>
[seat.A]
hand = [4, 6, 8]
prediction = 3
set_aside = 7
>>> loads(text) == loads(dumps(pos, "json"), "json") == pos
True
>>> load_position(position_to_line(pos)) == pos
True
>>> loads('format = "catbox-position/2"\\nplayers = 4\\n')
Traceback (most recent call last):
...
catbox.solver.errors.FormatError: format (line 1): catbox-position/2 is a newer version than \
this catbox reads (catbox-position/1) [rule format]
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import tomllib
from pathlib import Path
from typing import Any, Literal, TypeVar

from ..errors import CatboxError, FileError, FormatError
from ..game import Game
from ..position import Position
from ..puzzle import Puzzle
from ..record import Record
from .common import Source, as_str, json_dumps, relocated, toml_dumps
from .game import GAME_FORMAT, game_from_obj, game_line, game_to_obj, game_to_toml
from .line import LINE_TAG, looks_like_line, position_from_line, position_to_line
from .position import POSITION_FORMAT, position_from_obj, position_to_obj
from .puzzle import PUZZLE_FORMAT, puzzle_from_obj, puzzle_to_obj
from .record import RECORD_FORMAT, record_from_obj, record_to_obj

__all__ = [
    "FORMATS",
    "GAME_FORMAT",
    "LINE_TAG",
    "POSITION_FORMAT",
    "PUZZLE_FORMAT",
    "RECORD_FORMAT",
    "Document",
    "Syntax",
    "dumps",
    "from_json_obj",
    "load",
    "load_game",
    "load_position",
    "load_puzzle",
    "load_record",
    "loads",
    "looks_like_line",
    "position_from_line",
    "position_to_line",
    "save",
    "save_text",
    "syntax_of",
    "to_json_obj",
]

Document = Position | Record | Puzzle | Game
Syntax = Literal["toml", "json"]
#: The kinds this catbox reads, with the newest version of each.
FORMATS: dict[str, int] = {
    "catbox-position": 1,
    "catbox-record": 1,
    "catbox-puzzle": 1,
    "catbox-game": 1,
}

_TOML_AT_RE = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_TOML_END_RE = re.compile(r"\s*\(at end of document\)\s*$")


# ---------------------------------------------------------------------------- reading


def syntax_of(path: str | Path, text: str = "") -> Syntax:
    """``.toml`` or ``.json`` by extension; otherwise JSON if the text starts with ``{``."""
    suffix = Path(path).suffix.lower()
    if suffix == ".json":
        return "json"
    if suffix == ".toml":
        return "toml"
    return "json" if text.lstrip().startswith("{") else "toml"


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise FormatError(f"key {k!r} given twice", where=k)
        out[k] = v
    return out


def _parse(src: Source) -> dict[str, Any]:
    where = src.name or "<text>"
    try:
        if src.syntax == "json":
            try:
                doc: object = json.loads(src.text, object_pairs_hook=_no_duplicates)
            except json.JSONDecodeError as e:
                raise FormatError(f"JSON syntax error: {e.msg}", rule="syntax").located(
                    f"{where} (line {e.lineno}, column {e.colno})", final=True
                ) from None
        else:
            try:
                doc = tomllib.loads(src.text)
            except tomllib.TOMLDecodeError as e:
                message = str(e)
                m = _TOML_AT_RE.search(message)
                at = f" (line {m.group(1)}, column {m.group(2)})" if m else ""
                if _TOML_END_RE.search(message):
                    at = f" (line {src.text.count(chr(10)) + 1}, at end of document)"
                message = _TOML_END_RE.sub("", _TOML_AT_RE.sub("", message))
                raise FormatError(f"TOML syntax error: {message}", rule="syntax").located(
                    where + at, final=True
                ) from None
    except RecursionError:
        raise FormatError("nested too deeply", rule="syntax").located(where, final=True) from None
    except FormatError as e:  # a key given twice (JSON)
        raise relocated(e, src) from None
    if not isinstance(doc, dict):
        raise FormatError("expected a table (a JSON object) at the top", rule="syntax").located(
            where, final=True
        )
    return doc


def _kind(doc: dict[str, Any]) -> str:
    known = ", ".join(f"{k}/{v}" for k, v in FORMATS.items())
    value = doc.get("format")
    if value is None:
        raise FormatError(f"missing key format (one of {known})", rule="format", where="format")
    text = as_str(value, "format").strip()
    m = re.fullmatch(r"([a-z0-9-]+)/(\d+)", text.lower())
    if m is None or m.group(1) not in FORMATS:
        raise FormatError(
            f"unknown format {text!r}; this catbox reads {known}", rule="format", where="format"
        )
    kind, version = m.group(1), int(m.group(2))
    if version > FORMATS[kind]:
        raise FormatError(
            f"{text} is a newer version than this catbox reads ({kind}/{FORMATS[kind]})",
            rule="format",
            where="format",
        )
    if version < 1:
        raise FormatError(f"unknown format {text!r}; this catbox reads {known}", rule="format",
                          where="format")  # fmt: skip
    return kind


def _load_referenced(path: Path) -> Position:
    obj = load(path)
    if isinstance(obj, Puzzle):
        return obj.position
    if not isinstance(obj, Position):
        raise FormatError("a puzzle's position file must be a position").located(
            str(path), final=True
        )
    return obj


def _from_doc(doc: dict[str, Any], src: Source) -> Document:
    try:
        kind = _kind(doc)
        if kind == "catbox-position":
            return position_from_obj(doc)
        if kind == "catbox-record":
            return record_from_obj(doc)
        if kind == "catbox-game":
            return _game_from_doc(doc, src)
        stem = Path(src.name).stem if src.name else ""
        return puzzle_from_obj(
            doc,
            name=stem,
            load_file=_load_referenced if src.directory is not None else None,
            directory=src.directory,
        )
    except CatboxError as e:
        raise relocated(e, src) from None


def _game_from_doc(doc: dict[str, Any], src: Source) -> Game:
    """A game, an error in one of its rounds located at that round's line (TOML)."""
    try:
        return game_from_obj(doc)
    except CatboxError as e:
        line = game_line(src.text, e.where or "") if src.syntax == "toml" and src.text else None
        if line is None:
            raise
        where = f"{e.where} (line {line})"
        where = f"{src.name}: {where}" if src.name else where
        raise e.located(where, replace=True, final=True) from None


def from_json_obj(doc: dict[str, Any]) -> Document:
    """The object of a document table (the inverse of :func:`to_json_obj`).

    Raises:
        FormatError: not a document table, or a bad key or value.
        PositionError, IllegalPlayError: a well-formed document that breaks the rules.
    """
    if not isinstance(doc, dict):
        raise FormatError("expected a table (a JSON object)", rule="syntax")
    return _from_doc(doc, Source(None, "json"))


def loads(text: str, syntax: Syntax = "toml", *, name: str | None = None) -> Document:
    """Read a document from text; ``name`` (a file name) is used in error locations.

    Raises:
        FormatError: bad syntax, an unknown kind or version, a bad key or value.
        PositionError: a position that cannot arise (counts, tokens, permissions).
        IllegalPlayError: a record's move or a puzzle's answer line breaks a rule.
    """
    src = Source(name, syntax, text)
    return _from_doc(_parse(src), src)


def load(source: str | Path) -> Document:
    """Read a position, record, game or puzzle file (syntax by extension, kind by ``format``).

    Raises:
        FileError: the file (or a puzzle's position file) is missing or unreadable.
        FormatError, PositionError, IllegalPlayError: as :func:`loads`.
    """
    path = Path(source)
    where = str(source)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise FileError("no such file").located(where, final=True) from None
    except IsADirectoryError:
        raise FileError("is a directory, not a file").located(where, final=True) from None
    except UnicodeDecodeError:
        raise FormatError("not UTF-8 text", rule="syntax").located(where, final=True) from None
    except (OSError, ValueError) as e:
        message = f"cannot read: {getattr(e, 'strerror', None) or e}"
        raise FileError(message).located(where, final=True) from None
    src = Source(where, syntax_of(path, text), text, directory=path.parent)
    return _from_doc(_parse(src), src)


def _is_file(source: str | Path) -> bool:
    try:
        return Path(source).is_file()
    except (OSError, ValueError):
        return False


def load_position(source: str | Path) -> Position:
    """A position from a file (a position file, or a puzzle file's position) or from a one-line
    position string (``cbx1:…``).

    Raises:
        FileError: a missing or unreadable file.
        FormatError: neither a file nor a position string, a record (code
            ``record-not-position``), or as :func:`loads`.
        PositionError: as :func:`loads`.
    """
    if isinstance(source, str) and not _is_file(source) and looks_like_line(source):
        return position_from_line(source)
    if isinstance(source, str) and not _is_file(source) and not Path(source).suffix:
        raise FormatError(
            f"no such file, and not a position string (those start with {LINE_TAG}:)",
            where=source,
        )
    obj = load(source)
    if isinstance(obj, Puzzle):
        return obj.position
    if isinstance(obj, Game):
        raise FormatError(
            "this is a game record, not a position",
            rule="format",
            where=str(source),
            code="game-not-position",
        )
    if isinstance(obj, Record):
        raise FormatError(
            "this is a round record, not a position",
            rule="format",
            where=str(source),
            code="record-not-position",
        )
    return obj


def load_record(path: str | Path) -> Record:
    """A round record from a file.

    Raises:
        FileError, PositionError, IllegalPlayError: as :func:`load`.
        FormatError: not a round record, or as :func:`load`.
    """
    return _load_kind(path, Record, f"a round record ({RECORD_FORMAT})")


def load_game(path: str | Path) -> Game:
    """A whole game from a file.

    Raises:
        FileError, PositionError, IllegalPlayError: as :func:`load`.
        FormatError: not a game, or as :func:`load`.
    """
    return _load_kind(path, Game, f"a game ({GAME_FORMAT})")


def load_puzzle(path: str | Path) -> Puzzle:
    """A puzzle from a file.

    Raises:
        FileError, PositionError, IllegalPlayError: as :func:`load`.
        FormatError: not a puzzle, or as :func:`load`.
    """
    return _load_kind(path, Puzzle, f"a puzzle ({PUZZLE_FORMAT})")


D = TypeVar("D", Record, Puzzle, Game)


def _load_kind(path: str | Path, kind: type[D], what: str) -> D:
    """The document of ``path``, which must be of ``kind`` (``what`` names it)."""
    obj = load(path)
    if not isinstance(obj, kind):
        raise FormatError(
            f"expected {what}, got a {_kind_word(obj)}", rule="format", where=str(path)
        )
    return obj


def _kind_word(obj: Document) -> str:
    if isinstance(obj, Position):
        return "position"
    if isinstance(obj, Record):
        return "record"
    return "game" if isinstance(obj, Game) else "puzzle"


# ---------------------------------------------------------------------------- writing


def to_json_obj(obj: Document) -> dict[str, Any]:
    """The document table of ``obj``: the JSON form, with the same keys as the TOML form.

    Raises:
        FileError, PositionError, IllegalPlayError: as :func:`load`.
        FormatError: not a round record, or as :func:`load`.
    """
    if isinstance(obj, Position):
        return position_to_obj(obj)
    if isinstance(obj, Record):
        return record_to_obj(obj)
    if isinstance(obj, Puzzle):
        return puzzle_to_obj(obj)
    if isinstance(obj, Game):
        return game_to_obj(obj)
    raise TypeError(f"cannot write a {type(obj).__name__}")


def dumps(obj: Document, syntax: Syntax = "toml") -> str:
    """``obj`` as TOML or JSON text."""
    doc = to_json_obj(obj)
    if syntax == "json":
        return json_dumps(doc) + "\n"
    if syntax == "toml":
        return game_to_toml(obj) if isinstance(obj, Game) else toml_dumps(doc)
    raise ValueError(f"unknown syntax {syntax!r}")


def save(obj: Document, path: str | Path, *, force: bool = False) -> None:
    """Write ``obj`` to ``path`` (syntax by extension: ``.json`` is JSON, anything else TOML),
    atomically (:func:`save_text`). An existing file is overwritten only with ``force``.

    Raises:
        FileError: the file exists (code ``file-exists``) and ``force`` is not given,
            or it cannot be written.
    """
    target = Path(path)
    save_text(
        dumps(obj, syntax_of(target, "" if target.suffix.lower() != ".json" else "{")),
        target,
        force=force,
    )


def save_text(text: str, path: str | Path, *, force: bool = False) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file in the same directory, then a
    rename. An existing file is overwritten only with ``force``.

    Raises:
        FileError: the file exists (code ``file-exists``) and ``force`` is not given,
            or it cannot be written.
    """
    target = Path(path)
    where = str(path)
    exists_error = FileError("the file exists", where=where, code="file-exists")
    if not force and (target.exists() or target.is_symlink()):
        raise exists_error
    tmp = target.parent / f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if force:
            os.replace(tmp, target)
        else:
            try:
                os.link(tmp, target)  # atomic, and fails if the file appeared meanwhile
            except FileExistsError:
                raise exists_error from None
            except OSError:  # a file system without hard links
                os.replace(tmp, target)
    except OSError as e:
        raise FileError(f"cannot write: {e.strerror or e}", where=where) from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
