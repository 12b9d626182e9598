"""Option and argument definitions shared by every command (one place, one help text).

Every ``typer.Option``/``typer.Argument`` used by more than one command is defined here
(an option of one command only, like ``advise --method``, may live in its module); a command
picks aliases and defaults, and the defaults show in ``--help``. One name, one meaning,
except where noted per command:

- ``--seed``: the random seed of the command's randomised part, documented per command in
  its alias: the shuffle in ``new`` (:data:`DealSeedOpt`), the position search in
  ``puzzles generate`` (:data:`PuzzleSeedOpt`), the deal sampling in ``advise``
  (:data:`SampleSeedOpt`), everything random in a ``batch`` (its deals, CP-SAT, sampling)
  and the CP-SAT search elsewhere (:data:`SeedOpt`). In every
  command the same seed gives the same answer, whatever ``--workers``.
- ``--workers``: CP-SAT worker threads (:data:`WorkersOpt`), or worker processes over
  sampled deals in ``advise`` (:data:`ProcessesOpt`) and over items in ``batch``; never
  changes an answer.
- ``--time-limit``: wall-clock seconds for the whole command (:data:`TimeLimitOpt`); in
  ``advise`` sampling stops then (:data:`SampleTimeLimitOpt`), fewer samples; in ``batch``
  per item (0: none).
- ``--line``: in ``show``, print the one-line position string; in ``tricks``, a witness play
  sequence for K tricks (kept for the README and scripts).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from catbox.solver.limits import Limits

PositionArg = Annotated[
    str,
    typer.Argument(
        metavar="POSITION",
        help="A position, record, game (with --at R:N) or puzzle file (TOML or JSON), or a "
        "one-line position string.",
        show_default=False,
    ),
]
JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print JSON for programs (shapes in docs/analysis.md).")
]
SeatOpt = Annotated[
    str | None,
    typer.Option(
        "--seat",
        "-s",
        help="The seat asked about, A-E (default: the seat to play).",
        show_default=False,
    ),
]
AtOpt = Annotated[
    str | None,
    typer.Option(
        "--at",
        metavar="N|R:N",
        help="For a round record: the position after N moves (default: after every move); "
        "for a game: R:N, round R (from 1) after N moves (R:end after its last move).",
        show_default=False,
    ),
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        "-o",
        help="Write the resulting file here (.toml or .json).",
        show_default=False,
        dir_okay=False,
    ),
]
ForceOpt = Annotated[
    bool,
    typer.Option("--force", help="Allow the file written (--out, --svg, --html) to replace one."),
]
HtmlOpt = Annotated[
    Path | None,
    typer.Option(
        "--html",
        help="Also write a self-contained HTML page to step through the round in a browser.",
        show_default=False,
        dir_okay=False,
    ),
]
SvgOpt = Annotated[
    Path | None,
    typer.Option(
        "--svg",
        help="Also draw the board as an SVG picture into this file ('-': print it instead).",
        show_default=False,
        dir_okay=False,
    ),
]
TimeLimitOpt = Annotated[
    float,
    typer.Option(
        "--time-limit",
        min=0.01,
        help="Wall-clock seconds for the whole command; what is not proven by then is "
        "'unknown' with its proven bounds, never a guess.",
    ),
]
WorkersOpt = Annotated[
    int, typer.Option("--workers", min=0, help="CP-SAT worker threads (0: choose).")
]
SeedOpt = Annotated[
    int,
    typer.Option("--seed", help="Solver random seed (answers are deterministic for a given seed)."),
]
ThreadsOpt = Annotated[
    int,
    typer.Option(
        "--threads",
        min=0,
        help="Threads searching at once (0: one per core): the rows of a table, the first "
        "plays of a question, or the score's thresholds; the answers never depend on it.",
    ),
]


def search_limits(time_limit: float, workers: int, seed: int, threads: int) -> Limits:
    """The limits of a searching command (``analyze``, ``paradox``, ``tricks``), the clock
    started when the process started: the time limit is for the whole command, start-up
    included. ``--threads`` 0 means one per core this process may use."""
    from catbox.solver.limits import Limits
    from catbox.solver.pool import default_workers

    lim = Limits(time_limit, workers=workers, seed=seed, threads=threads or default_workers())
    return lim.start_with_process()


RecordArg = Annotated[
    str,
    typer.Argument(
        metavar="RECORD",
        help="A round record (catbox-record/1) or a game (catbox-game/1) file, TOML or JSON.",
        show_default=False,
    ),
]
PuzzleArg = Annotated[
    str,
    typer.Argument(
        metavar="PUZZLE",
        help="A puzzle file, or the name of a bundled puzzle (see `catbox puzzles list`).",
        show_default=False,
    ),
]
PlayersOpt = Annotated[
    int, typer.Option("--players", "-p", min=2, max=5, help="The player count, 2 to 5.")
]
HandPlayersOpt = Annotated[
    int | None,
    typer.Option("--players", "-p", min=2, max=5, help="With --hand: the player count, 2 to 5."),
]
#: Range-checked by the generator (an error naming the rule, exit 3), not by the parser.
PuzzlePlayersOpt = Annotated[
    int,
    typer.Option("--players", "-p", help="The player count, 2 to 5.", show_default=False),
]
DealSeedOpt = Annotated[
    int, typer.Option("--seed", help="Shuffle seed: the same seed, the same deal.")
]
PuzzleSeedOpt = Annotated[
    int, typer.Option("--seed", help="Search seed: the same seed, the same puzzle.")
]
SampleSeedOpt = Annotated[
    int, typer.Option("--seed", help="Sampling seed: the same seed gives the same answer.")
]
ProcessesOpt = Annotated[
    int,
    typer.Option("--workers", min=1, help="Worker processes (the answer does not depend on it)."),
]
SampleTimeLimitOpt = Annotated[
    float | None,
    typer.Option(
        "--time-limit",
        min=0.01,
        help="Stop sampling after this many seconds, fewer samples (default: no limit).",
        show_default=False,
    ),
]
