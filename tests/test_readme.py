"""The README's tour and the docs cannot drift from real output: every ``$ catbox ...`` command in
a code block of README.md or docs/*.md (a block may hold several, each followed by its output) is
run through
Typer's CliRunner (100 columns, no terminal) and its output compared with the block, trailing
spaces aside. A block with a line ``…`` is abbreviated: the lines before it must open the real
output and the lines after it must close it. A block right after
``<!-- readme-test: skip (why) -->`` is an illustration, not a run (say why). A block's test id
is its page and its command (``README:show_puzzles/...``; a second run of the same command on a
page adds ``#2``), so ids do not move when text above them does."""

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
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
ELLIPSIS = "…"
SKIP = "<!-- readme-test: skip"


def block_id(page: Path, command: str) -> str:
    """The test id of a command block: its page and its command, without ``catbox`` and with
    spaces as ``_`` (``README:tricks_puzzles/positions/four-player-endgame.toml_--line_3``)."""
    name = "README" if page == README else f"docs/{page.stem}"
    words = command.removeprefix("catbox ").replace("'", "").split()
    return f"{name}:{'_'.join(words)}"


def _blocks() -> list[tuple[str, str, list[str]]]:
    """(id, command, expected output lines) of every ``$ catbox`` code block of every page."""
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        seen: dict[str, int] = {}
        for m in re.finditer(r"^```[a-z]*\n(.*?)^```$", text, re.M | re.S):
            lines = m.group(1).splitlines()
            before = text[: m.start()].rstrip().rsplit("\n", 1)[-1]
            if not lines or not lines[0].startswith("$ catbox ") or before.startswith(SKIP):
                continue
            starts = [i for i, ln in enumerate(lines) if ln.startswith("$ catbox ")]
            for i, j in zip(starts, [*starts[1:], len(lines)], strict=True):
                command = lines[i][2:]
                bid = block_id(page, command)
                seen[bid] = seen.get(bid, 0) + 1
                if seen[bid] > 1:
                    bid += f"#{seen[bid]}"
                out.append((bid, command, lines[i + 1 : j]))
    return out


BLOCKS = _blocks()


def _norm(lines: list[str]) -> list[str]:
    lines = [ELLIPSIS if ln.strip() == ELLIPSIS else ln.rstrip() for ln in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def test_the_readme_has_a_tour() -> None:
    assert sum(bid.startswith("README:") for bid, _, _ in BLOCKS) >= 5
    assert len(BLOCKS) >= 12
    assert any(ELLIPSIS in _norm(lines) for _, _, lines in BLOCKS)
    skipped = sum(page.read_text(encoding="utf-8").count(SKIP) for page in PAGES)
    assert skipped <= 1, "check the tour, do not skip it"


def test_block_ids_come_from_the_command_not_the_line() -> None:
    ids = [bid for bid, _, _ in BLOCKS]
    assert len(ids) == len(set(ids))
    assert "README:show_puzzles/positions/three-player-midtrick.toml" in ids
    assert block_id(README, "catbox moves 'cbx1:3A'") == "README:moves_cbx1:3A"


@pytest.mark.parametrize(("block", "command", "expected"), BLOCKS, ids=[b[0] for b in BLOCKS])
def test_readme_block_matches_real_output(
    block: str, command: str, expected: list[str], monkeypatch: pytest.MonkeyPatch
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
