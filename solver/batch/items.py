"""A batch's inputs: the command's arguments as :class:`Item` s with stable ids, and how a
worker reads an item into the document a task asks about.

Every kind of input is one :data:`ItemKind` and one reader in :data:`READERS`: ``file`` (a
position, record or puzzle file), ``line`` (a line of a line file, or a ``cbx1:`` argument),
``deal`` (a fresh deal by seed) and ``missing`` (an argument that names nothing: its row is an
error). A new kind of input (a game of several rounds, say) adds a kind, a reader and the
arguments that name it in :func:`expand`."""

from __future__ import annotations

import glob as globmod
import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..errors import FileError, FormatError

__all__ = [
    "DOCUMENT_SUFFIXES",
    "LINE_SUFFIXES",
    "READERS",
    "Item",
    "ItemKind",
    "deal_items",
    "expand",
    "players_of",
    "read_item",
]

LINE_SUFFIXES = (".txt", ".jsonl")
DOCUMENT_SUFFIXES = (".toml", ".json")
ItemKind = Literal["file", "line", "deal", "missing"]


@dataclass(frozen=True, slots=True)
class Item:
    """One input: ``source`` is a path (``file``), a line's text (``line``), ``players:seed``
    (``deal``) or the argument that named nothing (``missing``); ``text`` a file's content."""

    id: str
    index: int
    kind: ItemKind
    source: str
    text: str | None = None

    @property
    def digest(self) -> str:
        """The content digest: items with equal digests get the same answer (solved once)."""
        body = self.text if self.kind == "file" else f"{self.kind}:{self.source}"
        return hashlib.sha256((body or "").encode()).hexdigest()


# ---------------------------------------------------------------------- naming the items
def _line_items(path: str, text: str, start: int) -> list[Item]:
    out: list[Item] = []
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line and not line.startswith("#"):
            out.append(Item(f"{path}:{no}", start + len(out), "line", line))
    return out


def _file_items(path: str, start: int) -> list[Item]:
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return [Item(path, start, "file", path, None)]  # the worker reports the error
    if path.endswith(LINE_SUFFIXES):
        return _line_items(path, text, start)
    return [Item(path, start, "file", path, text)]


def _paths(arg: str) -> list[str] | None:
    """The files an argument names (a folder: its documents and line files, recursively; a
    glob: its matches), sorted; None when it names nothing."""
    p = Path(arg)
    if p.is_dir():
        found = [
            str(f)
            for f in p.rglob("*")
            if f.is_file() and f.suffix in DOCUMENT_SUFFIXES + LINE_SUFFIXES
        ]
        return sorted(found)
    if p.is_file():
        return [arg]
    if any(ch in arg for ch in "*?["):
        return sorted(f for f in globmod.glob(arg, recursive=True) if Path(f).is_file()) or None
    return None


def expand(inputs: Iterable[str]) -> list[Item]:
    """The items of the command's inputs, in order (see :mod:`catbox.solver.batch`); an id
    seen twice (the same file named twice) is one item."""
    from ..formats.line import looks_like_line

    items: list[Item] = []
    seen: set[str] = set()

    def add(new: list[Item]) -> None:
        for it in new:
            if it.id not in seen:
                seen.add(it.id)
                items.append(Item(it.id, len(items), it.kind, it.source, it.text))

    for arg in inputs:
        if looks_like_line(arg) and not Path(arg).exists():
            digest = hashlib.sha256(arg.encode()).hexdigest()[:12]
            add([Item(f"cbx1:{digest}", 0, "line", arg)])
            continue
        paths = _paths(arg)
        if paths is None:
            add([Item(arg, 0, "missing", arg)])
            continue
        for path in paths:
            add(_file_items(path, 0))
    return items


def deal_items(players: int, count: int, seed: int, start: int = 0) -> list[Item]:
    """``count`` fresh deals, seeds ``seed`` .. ``seed+count-1``: deal S is the round that
    ``catbox new --players P --seed S`` deals (:func:`..deal.deal_round`: the shuffle, each
    seat's set-aside card (S2) and, at 3-5 players, each seat's prediction (S3) all drawn at
    random by the seed; the round start is A)."""
    if not 2 <= players <= 5:
        raise FormatError(f"{players} players: a deal needs 2 to 5", where="players")
    if count < 1:
        raise FormatError("the deal count must be at least 1", where="count")
    return [
        Item(f"deal:{players}p:{s}", start + k, "deal", f"{players}:{s}")
        for k, s in enumerate(range(seed, seed + count))
    ]


# ---------------------------------------------------------------------- reading one item
def _missing(source: str, text: str | None) -> Any:
    raise FileError("no such file or folder, and not a position string").located(source, final=True)


def _deal(source: str, text: str | None) -> Any:
    from ..deal import deal_round

    players, seed = map(int, source.split(":"))
    return deal_round(players, seed, predictions=True).position


def _line(source: str, text: str | None) -> Any:
    from .. import formats

    line = source
    if line.startswith(("{", '"')):
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise FormatError(f"bad JSON: {e.msg}", rule="syntax") from None
        if isinstance(obj, dict) and "format" not in obj and isinstance(obj.get("line"), str):
            obj = obj["line"]
        if isinstance(obj, dict):
            return formats.from_json_obj(obj)
        if not isinstance(obj, str):
            raise FormatError("expected a position string or a JSON object", rule="syntax")
        line = obj
    return formats.position_from_line(line)


def _file(source: str, text: str | None) -> Any:
    from .. import formats

    if Path(source).is_file() or text is None:
        return formats.load(source)  # a puzzle may name a position file beside it
    # a worker that does not see the file (a cluster): its text
    return formats.loads(text, formats.syntax_of(source, text), name=source)


#: How a worker reads each kind of item into a position, record or puzzle.
READERS: dict[ItemKind, Callable[[str, str | None], Any]] = {
    "missing": _missing,
    "deal": _deal,
    "line": _line,
    "file": _file,
}


def read_item(kind: ItemKind, source: str, text: str | None) -> Any:
    """The document an item holds (a position, record or puzzle).

    Raises:
        CatboxError: the item cannot be read (its row is an error).
    """
    return READERS[kind](source, text)


def players_of(doc: Any) -> int | None:
    """The player count of a document, for its row."""
    from ..puzzle import Puzzle
    from ..record import Record

    if isinstance(doc, Record):
        return doc.players
    if isinstance(doc, Puzzle):
        return doc.position.players
    players = getattr(doc, "players", None)
    return players if isinstance(players, int) else None
