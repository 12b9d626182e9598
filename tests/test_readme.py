"""The README's tour cannot drift from real output: every ``$ catbox ...`` command in a code
block of the README (a block may hold several, each followed by its output) is run through
Typer's CliRunner (100 columns, no terminal) and its output compared with the block, trailing
spaces aside. A block with a line ``…`` is abbreviated: the lines before it must open the real
output and the lines after it must close it. A block right after
``<!-- readme-test: skip (why) -->`` is an illustration, not a run (say why)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from catbox.cli import output
from catbox.cli.main import app
from catbox.solver.search import clear_cache

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
ELLIPSIS = "…"
SKIP = "<!-- readme-test: skip"


def _blocks() -> list[tuple[int, str, list[str]]]:
    """(line number, command, expected output lines) of every ``$ catbox`` code block."""
    text = README.read_text()
    out = []
    for m in re.finditer(r"^```[a-z]*\n(.*?)^```$", text, re.M | re.S):
        lines = m.group(1).splitlines()
        before = text[: m.start()].rstrip().rsplit("\n", 1)[-1]
        if not lines or not lines[0].startswith("$ catbox ") or before.startswith(SKIP):
            continue
        first = text.count("\n", 0, m.start()) + 2
        starts = [i for i, ln in enumerate(lines) if ln.startswith("$ catbox ")]
        for i, j in zip(starts, [*starts[1:], len(lines)], strict=True):
            out.append((first + i, lines[i][2:], lines[i + 1 : j]))
    return out


BLOCKS = _blocks()


def _norm(lines: list[str]) -> list[str]:
    lines = [ELLIPSIS if ln.strip() == ELLIPSIS else ln.rstrip() for ln in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def test_the_readme_has_a_tour() -> None:
    assert len(BLOCKS) >= 10
    assert any(ELLIPSIS in _norm(lines) for _, _, lines in BLOCKS)
    skipped = README.read_text().count(SKIP)
    assert skipped <= 1, "check the tour, do not skip it"


@pytest.mark.parametrize(
    ("line_no", "command", "expected"), BLOCKS, ids=[f"README:{b[0]}" for b in BLOCKS]
)
def test_readme_block_matches_real_output(
    line_no: int, command: str, expected: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(output, "_stdout", None)  # a console of the width below
    monkeypatch.setattr(output, "_stderr", None)
    clear_cache()  # the JSON reports search nodes: start from a cold transposition table
    args = shlex.split(command)[1:]
    res = CliRunner().invoke(app, args, env={"COLUMNS": "100", "CATBOX_NO_PROGRESS": "1"})
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    got = _norm(res.output.splitlines())
    want = _norm(expected)
    if ELLIPSIS in want:
        k = want.index(ELLIPSIS)
        head, tail = want[:k], want[k + 1 :]
        assert got[: len(head)] == head
        assert got[len(got) - len(tail) :] == tail
        assert len(got) > len(head) + len(tail)
    else:
        assert got == want
