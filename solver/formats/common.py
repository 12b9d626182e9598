"""Shared machinery of the readers and writers: where an error is, type checks, and the two
emitters (TOML for people, JSON for programs).

Readers raise errors whose ``where`` is a bare key path (``seat.B.hand``); :class:`Source`
turns it into ``file: key (line n)`` once, at the top. ``tomllib`` gives no line per key, so
:func:`toml_key_lines` scans the raw text for ``[table]`` headers and ``key =`` lines.

>>> lines = toml_key_lines('players = 4\\n[seat.B]\\nhand = [1, 2]\\n')
>>> lines["players"], lines["seat.b"], lines["seat.b.hand"]
(1, 2, 3)
>>> src = Source("x.toml", "toml", 'players = 4\\n[seat.B]\\nhand = [1, 2]\\n')
>>> src.where("seat.B.hand"), src.where("seat.B.colors"), src.where("trick.plays[2]")
('x.toml: seat.B.hand (line 3)', 'x.toml: seat.B.colors (line 2)', 'x.toml: trick.plays[2]')
>>> print(toml_dumps({"format": "f/1", "board": {"red": "A .", "blue": ". ."}, "seat": {"A": {}}}))
format = "f/1"
<BLANKLINE>
[board]
red  = "A ."
blue = ". ."
<BLANKLINE>
[seat.A]
<BLANKLINE>
>>> print(json_dumps({"a": [1, 2], "b": {"c": "x"}, "d": []}))
{
  "a": [1, 2],
  "b": {
    "c": "x"
  },
  "d": []
}
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..cards import SEAT_LETTERS, seat_from_letter, variant
from ..errors import CatboxError, FormatError
from ..position import Position

__all__ = [
    "Source",
    "Syntax",
    "as_bool",
    "as_int",
    "as_int_list",
    "as_seat",
    "as_str",
    "as_str_list",
    "check_keys",
    "checked_position",
    "get",
    "get_table",
    "json_dumps",
    "relocated",
    "seat_of_key",
    "toml_dumps",
    "toml_key_lines",
]

Syntax = Literal["toml", "json"]

# ---------------------------------------------------------------------------- locations

_BARE = r"[A-Za-z0-9_-]+"
_QUOTED = r"\"(?:[^\"\\]|\\.)*\"|'[^']*'"
_PART = rf"(?:{_BARE}|{_QUOTED})"
_DOTTED = rf"{_PART}(?:\s*\.\s*{_PART})*"
_HEADER_RE = re.compile(rf"^\s*\[\[?\s*({_DOTTED})\s*\]\]?\s*(?:#.*)?$")
_KEY_RE = re.compile(rf"^\s*({_DOTTED})\s*=")
_PART_RE = re.compile(_PART)
_INDEX_RE = re.compile(r"\[\d+\]")


def _parts(dotted: str) -> list[str]:
    out = []
    for p in _PART_RE.findall(dotted):
        if p[:1] in "\"'":
            p = p[1:-1]
        out.append(p.lower())
    return out


def toml_key_lines(text: str) -> dict[str, int]:
    """The line (1-based) of every ``[table]`` header and ``key =`` line of a TOML text, by
    full dotted key path in lower case (first occurrence wins). Best effort: lines inside
    multi-line strings are skipped, keys inside inline tables are not seen."""
    found: dict[str, int] = {}
    table: list[str] = []
    in_multiline = False
    for lineno, line in enumerate(text.splitlines(), start=1):
        quotes = line.count('"""') + line.count("'''")
        if in_multiline:
            if quotes % 2:
                in_multiline = False
            continue
        m = _HEADER_RE.match(line)
        if m:
            table = _parts(m.group(1))
            found.setdefault(".".join(table), lineno)
            continue
        m = _KEY_RE.match(line)
        if m:
            found.setdefault(".".join([*table, *_parts(m.group(1))]), lineno)
        if quotes % 2:
            in_multiline = True
    return found


@dataclass(slots=True)
class Source:
    """Where a document came from: the file name (or None), its syntax and raw text."""

    name: str | None
    syntax: str
    text: str = ""
    directory: Path | None = None
    _lines: dict[str, int] | None = field(default=None, repr=False)

    def line_of(self, key: str) -> int | None:
        if self.syntax != "toml":
            return None
        if self._lines is None:
            self._lines = toml_key_lines(self.text)
        parts = _INDEX_RE.sub("", key).lower().split(".")
        while parts:
            line = self._lines.get(".".join(parts))
            if line is not None:
                return line
            parts.pop()
        return None

    def where(self, key: str | None) -> str | None:
        out = []
        if self.name:
            out.append(self.name)
        if key:
            line = self.line_of(key)
            out.append(f"{key} (line {line})" if line is not None else key)
        return ": ".join(out) or None


def relocated(e: CatboxError, src: Source) -> CatboxError:
    """Turn the bare key path of ``e.where`` into ``file: key (line n)``, once (the result is
    final: an outer reader does not prefix it again)."""
    return e.located(src.where(e.where), replace=True, final=True)


# ---------------------------------------------------------------------------- type checks


def _type_name(value: object) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def _bad_type(value: object, expected: str, key: str) -> FormatError:
    return FormatError(f"expected {expected}, got {_type_name(value)} {value!r:.40}", where=key)


def checked_position(pos: Position, where: str, *, sep: str = ": ") -> Position:
    """The shared tail of every position reader (file tables, the one-line string, and the
    importers to come): check every consistency rule (``Position.validate``), locating an error
    at ``where``, and settle the position (a certain paradox is recorded)."""
    try:
        pos.validate()
    except CatboxError as e:
        raise e.located(where, sep=sep) from None
    return pos.settle()


def check_keys(table: Mapping[str, Any], allowed: Iterable[str], key: str) -> None:
    """Reject any key of ``table`` not in ``allowed`` (typos like ``colour``)."""
    allowed = list(allowed)
    for k in table:
        if k not in allowed:
            close = difflib.get_close_matches(k, allowed, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise FormatError(
                f"unknown key {k!r} (known keys: {', '.join(allowed)}){hint}",
                where=f"{key}.{k}" if key else k,
            )


def get(table: Mapping[str, Any], name: str) -> Any:
    """A value, or None when absent (JSON ``null`` counts as absent)."""
    return table.get(name)


def sub(key: str, name: str) -> str:
    return f"{key}.{name}" if key else name


def get_table(table: Mapping[str, Any], name: str, key: str) -> dict[str, Any] | None:
    value = table.get(name)
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _bad_type(value, "a table", sub(key, name))
    return value


def as_int(value: object, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad_type(value, "a whole number", key)
    return value


def as_bool(value: object, key: str) -> bool:
    if not isinstance(value, bool):
        raise _bad_type(value, "true or false", key)
    return value


def as_str(value: object, key: str) -> str:
    if not isinstance(value, str):
        raise _bad_type(value, "text", key)
    return value


def as_int_list(value: object, key: str) -> list[int]:
    if not isinstance(value, list):
        raise _bad_type(value, "a list of numbers", key)
    return [as_int(v, f"{key}[{i}]") for i, v in enumerate(value)]


def as_str_list(value: object, key: str) -> list[str]:
    if not isinstance(value, list):
        raise _bad_type(value, "a list of text", key)
    return [as_str(v, f"{key}[{i}]") for i, v in enumerate(value)]


def seat_of_key(name: str, players: int, where: str) -> int:
    """The seat a table key names (``A``.., lower case and spaces accepted); a key that names
    no seat at this player count is an error at ``where``."""
    letters = SEAT_LETTERS[:players]
    letter = name.strip().upper()
    if len(letter) != 1 or letter not in letters:
        raise FormatError(
            f"no seat {name!r} at {players} players (seats {', '.join(letters)})",
            rule="seats",
            where=where,
        )
    return letters.index(letter)


def read_players(d: Mapping[str, Any], prefix: str = "") -> int:
    """A document's ``players`` (2 to 5): the one reader of the key for positions, records
    and games.

    Raises:
        FormatError: the key is missing or not a whole number 2 to 5.
    """
    raw = get(d, "players")
    where = sub(prefix, "players")
    if raw is None:
        raise FormatError("missing key players (2 to 5)", rule="players", where=where)
    players = as_int(raw, where)
    try:
        variant(players)
    except CatboxError as e:
        raise e.located(where) from None
    return players


def as_seat(value: object, players: int, key: str) -> int:
    text = as_str(value, key)
    try:
        return seat_from_letter(text, players)
    except CatboxError as e:
        e.rule = e.rule or "seats"
        raise e.located(key) from None


# ---------------------------------------------------------------------------- writers


def _toml_key(k: str) -> str:
    return k if re.fullmatch(_BARE, k) else _toml_str(k)


def _toml_str(s: str) -> str:
    # JSON string escapes are valid TOML basic-string escapes; TOML also forbids a raw DEL.
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _toml_str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def _toml_table(d: Mapping[str, Any], path: list[str], out: list[str]) -> None:
    scalars = [(k, v) for k, v in d.items() if not isinstance(v, dict)]
    tables = [(k, v) for k, v in d.items() if isinstance(v, dict)]
    if path and (scalars or not tables):
        out.append("")
        out.append("[" + ".".join(_toml_key(p) for p in path) + "]")
    width = max((len(_toml_key(k)) for k, _ in scalars), default=0)
    align = bool(path) and path[-1] == "board"
    for k, v in scalars:
        name = _toml_key(k)
        out.append(f"{name.ljust(width) if align else name} = {_toml_value(v)}")
    for k, v in tables:
        _toml_table(v, [*path, k], out)


def toml_dumps(doc: Mapping[str, Any]) -> str:
    """A document (nested dicts of str, int, bool and lists of those) as TOML text: the scalars
    of each table first, then its sub-tables; tables holding only tables get no header."""
    out: list[str] = []
    _toml_table(doc, [], out)
    return "\n".join(out) + "\n"


def json_dumps(doc: object, indent: int = 0) -> str:
    """JSON with tables indented and lists of scalars kept on one line."""
    pad = "  " * (indent + 1)
    if isinstance(doc, dict):
        if not doc:
            return "{}"
        items = [
            f"{pad}{json.dumps(k, ensure_ascii=False)}: {json_dumps(v, indent + 1)}"
            for k, v in doc.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(doc, list):
        if any(isinstance(x, dict | list) for x in doc):
            items = [pad + json_dumps(x, indent + 1) for x in doc]
            return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
        return "[" + ", ".join(json.dumps(x, ensure_ascii=False) for x in doc) + "]"
    return json.dumps(doc, ensure_ascii=False)
