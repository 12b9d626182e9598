"""``catbox stats``: the first aggregates of a ``catbox batch`` output (solver/batch.py)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from catbox.solver.shapes import batch_stats_json

from .options import JsonOpt
from .output import command, emit_json, out

if TYPE_CHECKING:
    from catbox.solver.batch.stats import Group


def _num(x: float) -> str:
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.3g}"


def _show(g: Group, title: str) -> None:
    status = ", ".join(f"{n} {k}" for k, n in g.by_status.items())
    o = out()
    o.print(f"[bold]{title}[/]: {g.rows} rows ({status})", highlight=False)
    if g.shares:
        t = Table(header_style="bold", box=None, title_justify="left")
        for col in ("yes/no", "yes", "of", "share", "95% interval (Wilson)"):
            t.add_column(col, justify="left" if col == "yes/no" else "right")
        for s in g.shares:
            share = f"{100 * s.yes / s.n:.1f}%" if s.n else "—"
            t.add_row(
                s.name, str(s.yes), str(s.n), share, f"{100 * s.ci95[0]:.1f}-{100 * s.ci95[1]:.1f}%"
            )
        o.print(t)
    if g.numbers:
        t = Table(header_style="bold", box=None)
        for col in ("number", "n", "mean", "min", "q1", "median", "q3", "max"):
            t.add_column(col, justify="left" if col == "number" else "right")
        for n in g.numbers:
            t.add_row(n.name, str(n.n), f"{n.mean:.3g}", *(_num(q) for q in n.quartiles))
        o.print(t)
    for name, counts in g.values.items():
        o.print(f"  {name}: " + ", ".join(f"{v} {k}" for k, v in counts.items()), highlight=False)
    o.print()


@command
def stats(
    output: Annotated[
        Path,
        typer.Argument(metavar="OUT.jsonl", help="A `catbox batch` output.", show_default=False),
    ],
    json_out: JsonOpt = False,
) -> None:
    """Aggregates of a batch output: rows by status; for every yes/no answer the share of yes
    with its Wilson 95% interval; for every number its distribution; every row, then grouped
    by player count."""
    from catbox.solver.batch import read_output, summarize
    from catbox.solver.errors import FileError

    if not output.is_file():
        raise FileError("no such file", where=str(output))
    groups = summarize(read_output(output))
    if json_out:
        emit_json(batch_stats_json(groups))
        return
    if len(groups) == 2 and groups[1].rows == groups[0].rows:  # one player count: every row
        _show(groups[0], f"every row ({groups[1].players} players)")
        return
    for g in groups:
        _show(g, "every row" if g.players is None else f"{g.players} players")
