"""``--help`` reads well at any width: help text has no hard line breaks inside a paragraph,
so the terminal wraps it. Checked on ``catbox --help`` and every command's help at 80 and 120
columns: the renderer wraps greedily, so a line that ends while the next line's first word
would still have fitted on it was broken by the text itself, mid-sentence."""

from __future__ import annotations

import itertools
import re

import pytest
import typer
from typer.core import TyperGroup
from typer.testing import CliRunner

from catbox.cli.main import app


def _commands(group: TyperGroup, path: list[str]) -> list[list[str]]:
    """Every command path of the app, the groups included (``[]`` is ``catbox`` itself)."""
    out = [path]
    for name, cmd in sorted(group.commands.items()):
        if isinstance(cmd, TyperGroup):
            out += _commands(cmd, [*path, name])
        else:
            out.append([*path, name])
    return out


root = typer.main.get_command(app)
assert isinstance(root, TyperGroup)
COMMANDS = _commands(root, [])
BOX = "│"


def _render(args: list[str], width: int) -> str:
    res = CliRunner().invoke(
        app, [*args, "--help"], env={"COLUMNS": str(width), "NO_COLOR": "1"}, terminal_width=width
    )
    assert res.exit_code == 0, res.output
    return res.output


def _pieces(text: str, width: int) -> list[tuple[str, int]]:
    """Every rendered line as (content, room): the text inside a panel's borders, or the
    whole line, with the width it could have used (one space of padding on either side)."""
    out = []
    for line in text.splitlines():
        if line.startswith(BOX) and line.rstrip().endswith(BOX):
            inner = line.rstrip()[1:-1]
            out.append((inner[1:], len(inner) - 2))
        elif line.startswith(("╭", "╰")):
            out.append(("", 0))
        else:
            out.append((line.rstrip(), width - 2))
    return out


def _indent(s: str) -> int:
    """The column of a line's first word (the required-marker ``*`` of a row is not one)."""
    s = re.sub(r"^(\s*)\*(?=\s)", r"\1 ", s)
    return len(s) - len(s.lstrip())


def broken_lines(text: str, width: int) -> list[str]:
    """Lines the text broke although the next word still fitted (a hard line break)."""
    bad = []
    pieces = _pieces(text, width)
    for (line, room), (nxt, _) in itertools.pairwise(pieces):
        if not line.strip() or not nxt.strip():
            continue  # a paragraph break is meant
        if _indent(nxt) < _indent(line):
            continue  # the next row of a table
        if _indent(nxt) == _indent(line) and re.search(r"\S  +\S", line.strip()):
            continue  # a table row followed by the next row
        word = nxt.split()[0]
        if word.startswith("["):
            continue  # [default: …], [required]: put on their own line by the renderer
        if len(line.rstrip()) + 1 + len(word) <= room:
            bad.append(f"{line.strip()!r} / {nxt.strip()!r}")
    return bad


def test_the_check_sees_a_hard_break() -> None:
    text = "│ show   Show a position: coloured board,          │\n│        hands and turn.      │\n"
    assert broken_lines(text, 60)
    fine = "│ show   Show a position: coloured board, hands    │\n│        and whose turn.      │\n"
    assert not broken_lines(fine, 60)


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a) or "catbox")
def test_help_wraps_cleanly(args: list[str], width: int) -> None:
    text = _render(args, width)
    assert "Usage" in text
    assert broken_lines(text, width) == []
