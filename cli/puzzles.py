"""``catbox puzzles``: the bundled collection."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from catbox.solver.errors import CatboxError
from catbox.solver.limits import Limits
from catbox.solver.shapes import puzzle_checks_json, puzzle_json, puzzle_list_json

from .options import (
    ForceOpt,
    JsonOpt,
    OutOpt,
    PuzzleArg,
    PuzzlePlayersOpt,
    PuzzleSeedOpt,
    SvgOpt,
)
from .output import EXIT_MISMATCH, Ticker, command, emit_json, out
from .render import puzzle_view
from .sources import bundled, find_puzzle

if TYPE_CHECKING:
    from catbox.solver.puzzle import Puzzle
    from catbox.solver.puzzlecheck import PuzzleCheck

#: Seconds each puzzle's check may take.
CHECK_SECONDS = 60.0

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
    level: Annotated[
        str | None,
        typer.Option(
            "--level",
            help="Aim at a grade: easy, medium or hard (default: any).",
            show_default=False,
        ),
    ] = None,
    out_path: OutOpt = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Generate a puzzle: search seeded random positions for a sound one (one key, or a proven
    "no") that is not trivial (4 or more legal plays; the natural play fails), graded (at
    --level when given); print it (or write it with -o). The grade goes to stderr."""
    from catbox.solver import formats
    from catbox.solver.puzzlegen import generate

    from .errors import as_options
    from .sources import write_output

    try:
        g = generate(players, seed, kind=kind, mode=mode, tricks_left=tricks_left, level=level)
    except CatboxError as e:
        names = {
            "kind": "--kind",
            "mode": "--mode",
            "tricks_left": "--tricks-left",
            "level": "--level",
        }
        raise as_options(e, names) from None
    if out_path is not None:
        write_output(g.puzzle, out_path, force=force, inputs=[])
        if not json_out:
            out().print(f"wrote {out_path}")
    if json_out:
        emit_json(formats.to_json_obj(g.puzzle))
        return
    if out_path is None:
        typer.echo(formats.dumps(g.puzzle, "toml"), nl=False)
    if g.check.grade is not None:
        from .output import err

        err().print(Text(f"grade: {_grade_text(g.check)}", style="dim"))


def _grade_text(c: PuzzleCheck) -> str:
    g = c.grade
    if g is None:
        return "not graded"
    why = ", ".join(f"{r} (+{p})" for r, p in g.reasons if p)
    return f"{g.level} ({g.difficulty}/5){': ' + why if why else ''}"


PuzzlesArg = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="[NAME|FILE]...",
        help="Bundled puzzle names or puzzle files (default: the whole bundled collection).",
        show_default=False,
    ),
]


def _chosen(names: list[str] | None) -> list[tuple[str, Puzzle]]:
    if not names:
        return _load_all()
    found = []
    for n in names:
        p = find_puzzle(n)
        found.append((p.name or n, p))
    return found


@app.command("check")
@command
def check_(
    names: PuzzlesArg = None,
    json_out: JsonOpt = False,
) -> None:
    """Check puzzles like a problem composer: the stated answer is proven, there is exactly one
    key (every first play that works is listed; more is a cook), duals along the line, trivial
    choices (fewer than 4 legal plays, the natural play already works), and a difficulty grade
    with its reasons. Each puzzle gets 60 s (a puzzle not settled by then is unsound: unproven).
    Exit code 1 when any puzzle is unsound."""
    from catbox.solver.puzzlecheck import check

    chosen = _chosen(names)
    rows: list[tuple[str, PuzzleCheck]] = []
    tick = Ticker(not json_out)
    for i, (name, pz) in enumerate(chosen):
        tick(f"checking {i + 1}/{len(chosen)} {name}")
        rows.append((name, check(pz, limits=Limits(CHECK_SECONDS))))
    if json_out:
        emit_json(puzzle_checks_json(rows))
    else:
        _show_checks(rows)
    if any(not c.sound for _, c in rows):
        raise typer.Exit(EXIT_MISMATCH)


def _show_checks(rows: list[tuple[str, PuzzleCheck]]) -> None:
    o = out()
    t = Table(header_style="bold", box=None)
    for col in ("name", "verdict", "keys", "legal", "grade", "warnings"):
        t.add_column(col)
    for name, c in rows:
        verdict = (
            Text("sound", style="green")
            if c.sound
            else Text(next(p.code for p in c.problems if p.severity == "error"), style="bold red")
        )
        keys = "—" if c.keys is None else (" ".join(map(str, sorted(c.keys))) or "none")
        grade = "—" if c.grade is None else f"{'★' * c.grade.difficulty} {c.grade.level}"
        warns = sum(1 for p in c.problems if p.severity == "warning")
        t.add_row(name, verdict, keys, str(len(c.legal)), grade, str(warns or ""))
    o.print(t)
    for name, c in rows:
        if not c.problems and len(rows) > 1:
            continue
        o.print(Text(f"{name}: ", style="bold").append(_grade_text(c), style="dim"))
        for p in c.problems:
            style = "bold red" if p.severity == "error" else "yellow"
            o.print(Text(f"  {p.severity}: {p.message}", style=style))
    bad = [n for n, c in rows if not c.sound]
    summary = f"{len(rows)} puzzle{'s' if len(rows) != 1 else ''} checked, {len(bad)} unsound"
    o.print(Text(summary, style="bold red" if bad else "bold green"))


@app.command("sheet")
@command
def sheet_(
    names: PuzzlesArg = None,
    out_path: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="The HTML file to write ('-': print it instead).",
            show_default=False,
            dir_okay=False,
        ),
    ] = Path("-"),
    force: ForceOpt = False,
) -> None:
    """A printable puzzle sheet: one self-contained HTML page (no scripts, nothing loaded from
    the network) with each puzzle's diagram, story and goal, and the answers — every key and
    the line, proven by the solver — at the end. Default: the whole bundled collection."""
    from catbox.solver.puzzlesheet import sheet

    from .output import progress
    from .sources import write_text

    chosen = _chosen(names)
    with progress(f"solving {len(chosen)} puzzles for the answers…", str(out_path) != "-"):
        page = sheet([p for _, p in chosen])
    write_text(page, out_path, force=force, inputs=list(names or []))
    if str(out_path) != "-":
        out().print(f"wrote {out_path}")
