"""``catbox review``: annotate a recorded round play by play."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer
from rich.table import Table
from rich.text import Text

from catbox.solver.cards import seat_from_letter, seat_letter
from catbox.solver.shapes import player_review_json, review_json

from .options import ForceOpt, HtmlOpt, JsonOpt, RecordArg, SeatOpt, TimeLimitOpt, WorkersOpt
from .output import Ticker, command, emit_json, err, out
from .render import counts_text, play_text
from .sources import check_writable, load_record, write_text

if TYPE_CHECKING:
    from catbox.solver.record import Record


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
    html: HtmlOpt = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Review a recorded round: a verdict for every play — what it gave up for good (the
    prediction, a paradox-free round, the player's own safety, reachable trick counts) and,
    near the end, what the player could force before and after it; turning points and a
    per-seat summary. With --html, also a page to step through the round in a browser."""
    from catbox.solver.limits import Limits
    from catbox.solver.review import GRADES
    from catbox.solver.review import review as review_record

    lim = Limits(time_limit, workers=workers).start_with_process()  # the whole command

    rec = load_record(record)
    s = seat_from_letter(seat, rec.players) if seat is not None else None
    if html is not None:  # fail before the long review, not after it
        check_writable(html, force=force, inputs=[record])
    if s is not None and any(d is None for d in rec.deal):  # only S's cards: the player's view
        from .review_view import review_player_view

        pr = review_player_view(rec, s, json_out=json_out, limits=lim)
        if html is not None:
            _write_page(rec, player_review_json(pr, s), "player", s, html, force, record)
        return
    if depth is None:
        depth = 3 if rec.players == 5 else 4
    ticker = Ticker(not json_out)

    def tick(k: int, n: int) -> None:
        ticker(f"reviewing move {k}/{n}")

    r = review_record(rec, s, depth=depth, limits=lim, progress=tick)
    if html is not None:
        _write_page(rec, review_json(r), "full", s, html, force, record)
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
            verdict = Text(f"{p.grade} " + "; ".join(p.marks), style="bold red")
        else:
            verdict = Text(f"{p.grade} keeps everything".strip(), style="green")
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
    names = ", ".join(f"{k} {v.split(':')[0]}" for k, v in GRADES.items())
    o.print(Text(f"marks: {names} (thresholds: README, or the --html page)", style="dim"))
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


def _write_page(
    rec: Record,
    doc: dict[str, Any],
    view: Literal["full", "player"],
    seat: int | None,
    html: Path,
    force: bool,
    source: str,
) -> None:
    from catbox.solver.report import review_page

    title = f"Review of {Path(source).stem}" if source != "-" else ""
    write_text(
        review_page(rec, doc, view=view, seat=seat, title=title), html, force=force, inputs=[source]
    )
    if str(html) != "-":
        err().print(f"wrote {html}: open it in a browser")
