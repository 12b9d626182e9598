"""``catbox review``: annotate a recorded round play by play."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from catbox.solver.cards import seat_from_letter, seat_letter

from .analysis_json import forced_answers
from .options import JsonOpt, SeatOpt, TimeLimitOpt, WorkersOpt
from .output import command, emit_json, err, out
from .render import counts_text, play_text
from .replay import RecordArg, load_record

if TYPE_CHECKING:
    from catbox.solver.review import Review


def review_json(r: Review) -> dict[str, Any]:
    return {
        "depth": r.depth,
        "plays": [
            {
                "move": p.move,
                "seat": seat_letter(p.seat),
                "play": str(p.play),
                "analysed": p.analysed,
                "status": p.status,
                "before": forced_answers(p.before),
                "after": forced_answers(p.after),
                "marks": list(p.marks),
                "better": str(p.better) if p.better else None,
            }
            for p in r.plays
        ],
        "turning_points": [
            {"seat": seat_letter(t.seat), "move": t.move, "text": t.text} for t in r.turning_points
        ],
    }


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
            help="Analyse exactly from this many tricks left (default: 4, or 3 at 5 players); "
            "earlier plays are reported as not analysed.",
            show_default=False,
        ),
    ] = None,
    time_limit: TimeLimitOpt = 20.0,
    workers: WorkersOpt = 0,
    json_out: JsonOpt = False,
) -> None:
    """Review a recorded round: at every play, what the player could force before and after
    it; marks plays that gave up a forceable prediction, paradox safety, tricks or score."""
    from catbox.solver.review import review as review_record

    rec = load_record(record)
    s = seat_from_letter(seat, rec.players) if seat is not None else None
    if s is not None and any(d is None for d in rec.deal):  # only S's cards: the player's view
        from .review_view import review_player_view

        review_player_view(rec, s, json_out=json_out, time_limit=time_limit)
        return
    if depth is None:
        depth = 3 if rec.players == 5 else 4
    live = not json_out and err().is_terminal

    def tick(k: int, n: int) -> None:
        if live:
            err().print(f"  reviewing move {k}/{n}…", end="\r")

    r = review_record(rec, s, depth=depth, time_limit=time_limit, workers=workers, progress=tick)
    if json_out:
        emit_json(review_json(r))
        return
    t = Table(header_style="bold", box=None)
    for col in ("move", "seat", "play", "forceable before", "after", "verdict", "better"):
        t.add_column(col)
    skipped = 0
    for p in r.plays:
        if not p.analysed:
            skipped += 1
            continue
        assert p.before is not None and p.after is not None
        verdict = (
            Text("; ".join(p.marks), style="bold red")
            if p.marks
            else Text("keeps everything", style="green")
        )
        t.add_row(
            str(p.move),
            seat_letter(p.seat),
            play_text(p.play),
            counts_text(p.before.forceable),
            counts_text(p.after.forceable),
            verdict,
            play_text(p.better) if p.better else Text(""),
        )
    o = out()
    if skipped:
        o.print(
            Text(
                f"{skipped} plays with more than {r.depth} tricks left: not analysed "
                "(exact search starts at --depth tricks left).",
                style="dim",
            )
        )
    o.print(t)
    for tp in r.turning_points:
        o.print(Text("turning point: ", style="bold").append(tp.text))
    if not any(p.marks for p in r.plays if p.analysed):
        o.print(Text("No analysed play gave anything up.", style="green"))
