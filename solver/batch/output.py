"""A batch's output: ``OUT.jsonl`` (one row per item, appended and flushed as each is
answered) and ``OUT.meta.json`` beside it (the catbox version, the task, the options and a
digest of the inputs), and how a later run resumes it (:func:`prepare`)."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import FileError, FormatError
from .items import Item
from .one import Options

__all__ = ["META_FORMAT", "Plan", "Summary", "input_digest", "meta_path", "prepare", "read_output"]

META_FORMAT = "catbox-batch/1"


def meta_path(out: Path) -> Path:
    """``OUT.jsonl`` -> ``OUT.meta.json`` (any other name: ``OUT.meta.json`` beside it)."""
    name = out.name[: -len(".jsonl")] if out.name.endswith(".jsonl") else out.name
    return out.with_name(name + ".meta.json")


def input_digest(items: list[Item]) -> str:
    h = hashlib.sha256()
    for it in items:
        h.update(f"{it.id}\0{it.digest}\n".encode())
    return h.hexdigest()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("catbox")
    except PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True, slots=True)
class Plan:
    """What a run will do: the output file, the items still to answer, and how many rows the
    output already holds (a resumed run)."""

    out: Path
    items: list[Item]
    todo: list[Item]
    kept: int
    cut: bool  # a torn last line was cut


def _read_rows(out: Path) -> tuple[set[str], int, bool]:
    """Finished ids of an existing output; cuts a torn last line (the file is truncated after
    its last complete row)."""
    data = out.read_bytes()
    end = data.rfind(b"\n") + 1
    cut = end < len(data)
    if cut:
        with out.open("r+b") as f:
            f.truncate(end)
    ids: set[str] = set()
    for no, line in enumerate(data[:end].splitlines(), 1):
        try:
            row = json.loads(line)
            ids.add(str(row["id"]))
        except (ValueError, KeyError, TypeError):
            raise FormatError(
                "not a row of a batch output (refusing to resume over it)", where=f"{out}:{no}"
            ) from None
    return ids, len(ids), cut


def prepare(
    out: Path, items: list[Item], opts: Options, inputs: list[str], extra: dict[str, Any]
) -> Plan:
    """Check (or write) ``.meta.json`` beside ``out`` and list what is left to do.

    Raises:
        FileError: ``out`` exists but is not a batch output (code ``batch-not-output``), or
            was made with another task or other options (code ``batch-options``).
    """
    meta_file = meta_path(out)
    options = opts.to_json() | extra
    meta = {
        "format": META_FORMAT,
        "catbox": _version(),
        "task": opts.task,
        "options": options,
        "inputs": inputs,
        "items": len(items),
        "input_digest": input_digest(items),
    }
    done: set[str] = set()
    kept, cut = 0, False
    if out.exists():
        try:
            old = json.loads(meta_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise FileError(
                f"exists and has no readable {meta_file.name}: not a batch output to resume",
                where=str(out),
                code="batch-not-output",
            ) from None
        if old.get("format") != META_FORMAT or old.get("task") != opts.task:
            raise FileError(
                f"was made by task {old.get('task')!r}, not {opts.task!r}",
                where=str(out),
                code="batch-options",
            )
        if old.get("options") != options:
            diff = sorted(
                k
                for k in set(options) | set(old.get("options") or {})
                if options.get(k) != (old.get("options") or {}).get(k)
            )
            raise FileError(
                "was made with other options (" + ", ".join(diff) + "): resuming would mix "
                "answers to two questions",
                where=str(out),
                code="batch-options",
            )
        done, kept, cut = _read_rows(out)
    tmp = meta_file.with_name(meta_file.name + ".tmp")
    tmp.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, meta_file)
    todo = [it for it in items if it.id not in done]
    return Plan(out, items, todo, kept, cut)


def read_output(out: Path) -> list[dict[str, Any]]:
    """Every complete row of a batch output (a torn last line is left out)."""
    rows = []
    with out.open(encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            if not line.endswith("\n"):
                break
            try:
                rows.append(json.loads(line))
            except ValueError:
                raise FormatError("not a JSON row", rule="syntax", where=f"{out}:{no}") from None
    return rows


@dataclass
class Summary:
    """Counts of one run (rows written now; ``kept`` from an earlier run)."""

    written: int = 0
    kept: int = 0
    by_status: dict[str, int] = field(default_factory=dict)

    @property
    def errors(self) -> int:
        return self.by_status.get("error", 0)
