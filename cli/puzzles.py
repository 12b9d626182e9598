"""``catbox puzzles``: the bundled collection."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from catbox.solver.errors import CatboxError
from catbox.solver.shapes import puzzle_json, puzzle_list_json

from .options import (
    ForceOpt,
    JsonOpt,
    OutOpt,
    PuzzleArg,
    PuzzlePlayersOpt,
    PuzzleSeedOpt,
    SvgOpt,
)
from .output import command, emit_json, out
from .render import puzzle_view
from .sources import bundled, find_puzzle

if TYPE_CHECKING:
    from catbox.solver.puzzle import Puzzle

app = typer.Typer(help="The bundled puzzle collection.", no_args_is_help=True)


def _load_all() -> list[tuple[str, Puzzle]]:
    from catbox.solver import formats
    from catbox.solver.puzzle import Puzzle

    found = []
    for path in bundled():
        obj = formats.load(path)
        if isinstance(obj, Puzzle):
            found.append((path.stem, obj))
    return found


@app.command("list")
@command
def list_(json_out: JsonOpt = False) -> None:
    """List the bundled puzzles: name, players, goal, difficulty and title."""
    rows = _load_all()
    if json_out:
        emit_json(puzzle_list_json(rows))
        return
    t = Table(header_style="bold", box=None)
    for col in ("name", "players", "goal", "level", "title"):
        t.add_column(col)
    for name, p in rows:
        t.add_row(name, str(p.position.players), p.goal.describe(), "★" * p.difficulty, p.title)
    out().print(t)
    out().print(
        Text(f"{len(rows)} puzzles — `catbox puzzles show NAME`, `catbox solve NAME`", style="dim")
    )


@app.command("show")
@command
def show_(
    name: PuzzleArg,
    answer: Annotated[
        bool, typer.Option("--answer", help="Also reveal the stated answer.")
    ] = False,
    svg: SvgOpt = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Show a puzzle: the story, the position and the goal (the answer only with --answer).
    With --svg, also draw it as an SVG picture."""

    p = find_puzzle(name)
    if svg is not None:
        from catbox.solver.svg import puzzle

        from .sources import write_text

        write_text(puzzle(p), svg, force=force, inputs=[name])
        if str(svg) == "-":
            return
    if json_out:
        emit_json(puzzle_json(p, answer))
        return
    o = out()
    o.print(puzzle_view(p))
    if answer and p.answer is not None:
        line = " ".join(map(str, p.answer.line or ()))
        o.print(f"Stated answer: solvable={p.answer.solvable} value={p.answer.value} line={line}")


@app.command("generate")
@command
def generate_(
    players: PuzzlePlayersOpt,
    seed: PuzzleSeedOpt = 0,
    kind: Annotated[
        str | None,
        typer.Option("--kind", help="Goal kind (default: any).", show_default=False),
    ] = None,
    mode: Annotated[
        str | None,
        typer.Option("--mode", help="guaranteed or possible (default: any).", show_default=False),
    ] = None,
    tricks_left: Annotated[
        int | None,
        typer.Option(
            "--tricks-left", help="Tricks left, 1 to 4 (default: any).", show_default=False
        ),
    ] = None,
    out_path: OutOpt = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Generate a puzzle: search seeded random positions for one whose natural play fails,
    prove its answer with the solver and print it (or write it with -o)."""
    from catbox.solver import formats
    from catbox.solver.puzzlegen import generate

    from .errors import as_options
    from .sources import write_output

    try:
        g = generate(players, seed, kind=kind, mode=mode, tricks_left=tricks_left)
    except CatboxError as e:
        names = {"kind": "--kind", "mode": "--mode", "tricks_left": "--tricks-left"}
        raise as_options(e, names) from None
    if out_path is not None:
        write_output(g.puzzle, out_path, force=force, inputs=[])
        if not json_out:
            out().print(f"wrote {out_path}")
    if json_out:
        emit_json(formats.to_json_obj(g.puzzle))
    elif out_path is None:
        typer.echo(formats.dumps(g.puzzle, "toml"), nl=False)
