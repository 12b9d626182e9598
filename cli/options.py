"""Option and argument definitions shared by every command (one place, one help text)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

PositionArg = Annotated[
    str,
    typer.Argument(
        metavar="POSITION",
        help="A position, record or puzzle file (TOML or JSON), or a one-line position string.",
        show_default=False,
    ),
]
JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print JSON for programs (shapes in analysis.md).")
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
    int | None,
    typer.Option(
        "--at",
        min=0,
        help="For a round record: the position after N moves (default: after every move).",
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
ForceOpt = Annotated[bool, typer.Option("--force", help="Allow --out to replace an existing file.")]
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
