"""``catbox review``: annotate a recorded round play by play."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from catbox.solver.cards import seat_from_letter, seat_letter
from catbox.solver.shapes import review_json

from .options import JsonOpt, RecordArg, SeatOpt, TimeLimitOpt, WorkersOpt
from .output import Ticker, command, emit_json, out
from .render import counts_text, play_text
from .sources import load_record

if TYPE_CHECKING:
    pass


@command
def review(
    record: RecordArg,
    seat: SeatOpt = None,
    depth: Annotated[
        int | None,
        typer.Option(
            "--depth",
            min=1,
            max=8,
            help="Compare forced answers (exact game-tree search) from this many tricks left "
            "(default: 4, or 3 at 5 players); every play gets the possible verdicts.",
            show_default=False,
        ),
    ] = None,
    time_limit: TimeLimitOpt = 120.0,
    workers: WorkersOpt = 0,
    json_out: JsonOpt = False,
) -> None:
    """Review a recorded round: a verdict for every play — what it gave up for good (the
    prediction, a paradox-free round, the player's own safety, reachable trick counts) and,
    near the end, what the player could force before and after it; turning points and a
    per-seat summary."""
    from catbox.solver.limits import Limits
    from catbox.solver.review import review as review_record

    lim = Limits(time_limit, workers=workers).start()  # the whole command

    rec = load_record(record)
    s = seat_from_letter(seat, rec.players) if seat is not None else None
    if s is not None and any(d is None for d in rec.deal):  # only S's cards: the player's view
        from .review_view import review_player_view

        review_player_view(rec, s, json_out=json_out, limits=lim)
        return
    if depth is None:
        depth = 3 if rec.players == 5 else 4
    ticker = Ticker(not json_out)

    def tick(k: int, n: int) -> None:
        ticker(f"reviewing move {k}/{n}")

    r = review_record(rec, s, depth=depth, limits=lim, progress=tick)
    if json_out:
        emit_json(review_json(r))
        return
    t = Table(header_style="bold", box=None)
    for col in ("move", "seat", "play", "possible before", "after", "verdict", "better"):
        t.add_column(col)
    for p in r.plays:
        if not p.analysed:
            verdict = Text("unknown (time limit)", style="yellow")
        elif p.marks:
            verdict = Text("; ".join(p.marks), style="bold red")
        else:
            verdict = Text("keeps everything", style="green")
        t.add_row(
            str(p.move),
            seat_letter(p.seat),
            play_text(p.play),
            counts_text(p.possible_before),
            counts_text(p.possible_after),
            verdict,
            play_text(p.better) if p.better else Text(""),
        )
    o = out()
    o.print(t)
    for tp in r.turning_points:
        o.print(Text("turning point: ", style="bold").append(tp.text))
    for sm in r.summary:
        line = Text(f"{seat_letter(sm.seat)}: ", style="bold")
        line.append(f"{sm.judged}/{sm.plays} plays judged; ")
        if sm.gave_up:
            line.append(
                f"{len(sm.gave_up)} gave something up (moves {', '.join(map(str, sm.gave_up))})",
                style="red",
            )
        else:
            line.append("none gave anything up", style="green")
        o.print(line)
