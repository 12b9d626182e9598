"""``catbox paradox``: can the seat avoid causing a paradox — possibly, or whatever happens?"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from catbox.solver.cards import seat_letter
from catbox.solver.shapes import paradox_json

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
from .render import line_text, yes_no
from .sources import load_position, seat_arg

if TYPE_CHECKING:
    from catbox.solver.answers import Witness
    from catbox.solver.position import Position


def witness_text(pos: Position, w: Witness) -> Text:
    from catbox.solver.answers import fill_hands

    start = fill_hands(pos, w.hands) if w.assumes_deal else pos
    t = Text("    ")
    if w.assumes_deal:
        t.append("with ", style="dim")
        t.append(
            ", ".join(
                f"{seat_letter(i)} holding {' '.join(map(str, h))}"
                for i, h in enumerate(w.hands)
                if h is not None
            ),
            style="italic",
        )
        t.append(": ", style="dim")
    t.append_text(line_text(start, w.line))
    return t


@command
def paradox(
    position: PositionArg,
    seat: SeatOpt = None,
    at: AtOpt = None,
    time_limit: TimeLimitOpt = 30.0,
    workers: WorkersOpt = 0,
    seed: SeedOpt = 0,
    threads: ThreadsOpt = 0,
    json_out: JsonOpt = False,
) -> None:
    """Can SEAT still avoid causing a paradox? [bold]possible[/]: in some continuation (unknown
    hands: for some deal); [bold]guaranteed[/]: whatever the other seats play. Also whether the
    round can end with nobody in a paradox."""
    from catbox.solver.analysis import paradox_report

    lim = search_limits(time_limit, workers, seed, threads)
    pos = load_position(position, at)
    s = seat_arg(pos, seat)
    with progress(f"solving paradox questions for {seat_letter(s)}…", not json_out):
        r = paradox_report(pos, s, limits=lim)
    if json_out:
        emit_json(paradox_json(r))
        return
    who = seat_letter(s)
    o = out()
    o.print(Text(f"Paradox analysis for {who}", style="bold"), Text(f"  [{r.status}]"))
    o.print(Text(f"  {who} can avoid a paradox (possible):   ").append_text(yes_no(r.possible)))
    if r.witness is not None:
        o.print(witness_text(pos, r.witness))
    if r.reason:
        o.print(Text(f"    why not: {r.reason}", style="red"))
    o.print(Text(f"  {who} can always avoid it (guaranteed): ").append_text(yes_no(r.guaranteed)))
    if r.strategy_line is not None:
        o.print(Text("    main line: ").append_text(line_text(pos, r.strategy_line)))
    if r.forced.guaranteed_status == "estimate":
        o.print(Text(f"    estimate from {r.forced.deals} sampled deals", style="yellow"))
    o.print(
        Text("  a round with no paradox at all is possible: ").append_text(yes_no(r.round_possible))
    )
    if r.round_witness is not None and r.round_witness != r.witness:
        o.print(witness_text(pos, r.round_witness))
