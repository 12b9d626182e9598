"""``catbox tricks``: which final trick counts the seat can reach, and which it can force."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from catbox.solver.cards import seat_letter
from catbox.solver.errors import PositionError
from catbox.solver.shapes import tricks_json

from .analyze import bounded_counts
from .options import (
    AtOpt,
    JsonOpt,
    PositionArg,
    SeatOpt,
    SeedOpt,
    ThreadsOpt,
    TimeLimitOpt,
    WorkersOpt,
    search_limits,
)
from .output import command, emit_json, out, progress
from .paradox import witness_text
from .render import counts_text
from .sources import load_position, seat_arg

if TYPE_CHECKING:
    pass


@command
def tricks(
    position: PositionArg,
    seat: SeatOpt = None,
    at: AtOpt = None,
    line: Annotated[
        int | None,
        typer.Option(
            "--line",
            "-l",
            help="Show a witness line that ends with SEAT on exactly K tricks.",
            metavar="K",
            show_default=False,
        ),
    ] = None,
    time_limit: TimeLimitOpt = 30.0,
    workers: WorkersOpt = 0,
    seed: SeedOpt = 0,
    threads: ThreadsOpt = 0,
    json_out: JsonOpt = False,
) -> None:
    """Final trick counts for SEAT without causing a paradox: [bold]possible[/] (some
    continuation), [bold]forceable[/] (exactly k whatever the others do), at least / at most."""
    from catbox.solver.analysis import tricks_report

    lim = search_limits(time_limit, workers, seed, threads)
    pos = load_position(position, at)
    s = seat_arg(pos, seat)
    with progress(f"solving trick counts for {seat_letter(s)}…", not json_out):
        r = tricks_report(pos, s, limits=lim)
    if line is not None and line not in r.witnesses:
        raise PositionError(
            f"no witness for {line} tricks: possible counts are {list(r.possible) or 'none'}",
            where="--line",
        )
    if json_out:
        emit_json(tricks_json(r))
        return
    f = r.forced
    who = seat_letter(s)
    o = out()
    o.print(Text(f"Trick counts for {who}", style="bold"), Text(f"  [{r.status}]"))
    o.print(
        Text("  possible:  ").append_text(counts_text(r.possible)),
        Text(f"  (undecided: {list(r.undecided)})", style="yellow") if r.undecided else "",
    )
    b = r.bounds
    o.print(Text("  forceable: ").append_text(bounded_counts(f.forceable, b, "forceable")))

    def bound(v: int | None, key: str = "") -> str:
        if key in b:
            lo, hi = b[key]
            return f"unknown, proven {lo}..{hi}" if lo != hi else f"{lo}"
        if v is None and f.guaranteed is False and key != "best_score":
            return "—"  # no count is forceable without paradox avoidance, proven or not
        return "unknown" if f.status == "unknown" else "—" if v is None else str(v)

    o.print(
        f"  at least:  {bound(f.at_least, 'at_least')}    at most: {bound(f.at_most, 'at_most')}"
    )
    if f.guaranteed is False:
        o.print(Text(f"  (— : {who} cannot guarantee avoiding a paradox)", style="dim"))
    if f.best_score is not None or "best_score" in b:
        o.print(f"  best score {who} can guarantee: {bound(f.best_score, 'best_score')}")
    if line is not None:
        o.print(Text(f"  a line ending with {who} on {line} tricks:"))
        o.print(witness_text(pos, r.witnesses[line]))
    elif r.witnesses:
        o.print(Text("  (--line K shows a witness line for any possible K)", style="dim"))
