"""The ``catbox`` command: Typer is the only front door.

Each command lives in its own module; heavy solvers load only when a command needs them.
"""

from __future__ import annotations

import typer

from . import (
    advise,
    analyze,
    moves,
    new,
    paradox,
    play,
    puzzles,
    replay,
    review,
    score,
    show,
    solve,
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
app.command()(paradox.paradox)
app.command()(tricks.tricks)
app.command()(analyze.analyze)
app.command()(solve.solve)
app.command()(review.review)
app.command()(advise.advise)
app.add_typer(puzzles.app, name="puzzles")


def main() -> None:
    run(app)
