"""Running the ``catbox`` command in-process (Typer's CliRunner): a plain helper module shared
by the CLI tests."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from catbox.cli.main import app

runner = CliRunner()


def run(*args: str | Path | int) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``catbox ARGS``; never a traceback."""
    res = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in res.stdout + res.stderr
    return res.exit_code, res.stdout, res.stderr


def run_json(*args: str | Path | int) -> object:
    """The JSON document ``catbox ARGS --json`` prints (exit code 0)."""
    code, out, _ = run(*args, "--json")
    assert code == 0, out
    return json.loads(out)
