"""The ``catbox`` command: Typer is the only front door.

Each command lives in its own module; heavy solvers load only when a command needs them.
"""

from __future__ import annotations

import contextlib
import os
import sys

import typer

from . import (
    advise,
    analyze,
    batch,
    game,
    moves,
    new,
    paradox,
    play,
    puzzles,
    replay,
    review,
    score,
    serve,
    show,
    solve,
    stats,
    tricks,
)
from .errors import run

app = typer.Typer(
    name="catbox",
    help="Constraint-solver assistant and puzzle analyzer for Cat in the Box: Deluxe Edition.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)

app.command()(show.show)
app.command()(moves.moves)
app.command()(play.play)
app.command()(score.score)
app.command()(replay.replay)
app.command()(new.new)
app.command()(game.game)
app.command()(paradox.paradox)
app.command()(tricks.tricks)
app.command()(analyze.analyze)
app.command()(solve.solve)
app.command()(review.review)
app.command()(advise.advise)
app.command()(batch.batch)
app.command()(stats.stats)
app.command()(serve.serve)
app.add_typer(puzzles.app, name="puzzles")


def invoke() -> int:
    """Run the app on ``sys.argv`` and return its exit code (what :func:`main` exits with)."""
    try:
        run(app)
    except SystemExit as e:
        if isinstance(e.code, int):
            return e.code
        if e.code is not None:  # sys.exit("message"): print it, as Python would
            print(e.code, file=sys.stderr)
            return 1
    return 0


def main() -> None:
    """The ``catbox`` entry point. It ends the process without the interpreter's teardown: a
    long search leaves large tables behind, and freeing them object by object took seconds
    after the answer was printed (``--time-limit`` is a promise for the whole process, from
    its start: :func:`catbox.solver.limits.mark_process_start`)."""
    from catbox.solver.limits import mark_process_start

    mark_process_start()
    code = invoke()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError):  # a closed pipe (`catbox ... | head`)
            stream.flush()
    os._exit(code)
