"""``catbox review``: annotate a recorded round play by play."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer
from rich.table import Table
from rich.text import Text

from catbox.solver.cards import Play, seat_from_letter, seat_letter
from catbox.solver.game import Game
from catbox.solver.shapes import game_review_json, player_review_json, review_json

from .options import ForceOpt, HtmlOpt, JsonOpt, RecordArg, SeatOpt, TimeLimitOpt, WorkersOpt
from .output import Ticker, command, emit_json, err, out
from .render import counts_text, play_text
from .sources import check_writable, load_record_or_game, write_text

if TYPE_CHECKING:
    from catbox.solver.limits import Limits
    from catbox.solver.record import Record
    from catbox.solver.review import Review


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
    """Review a recorded round, or every round of a game: a verdict for every play — what it
    gave up for good (the prediction, a paradox-free round, the player's own safety, reachable
    trick counts) and, near the end, what the player could force before and after it; turning
    points and a per-seat summary; for a game, also its totals, predictions, paradoxes and
    costliest plays. With --html, also a page to step through the round (a game: every round) in a
    browser."""
    from catbox.solver.limits import Limits

    lim = Limits(time_limit, workers=workers).start_with_process()  # the whole command

    doc = load_record_or_game(record)
    if isinstance(doc, Game):
        _review_game(doc, seat, depth, lim, html, force, record, json_out)
        return
    rec = doc
    s = seat_from_letter(seat, rec.players) if seat is not None else None
    if html is not None:  # fail before the long review, not after it
        check_writable(html, force=force, inputs=[record])
    if s is not None and any(d is None for d in rec.deal):  # only S's cards: the player's view
        from .review_view import review_player_view

        pr = review_player_view(rec, s, json_out=json_out, limits=lim)
        if html is not None:
            _write_page(rec, player_review_json(pr, s), "player", s, html, force, record)
        return
    r = _review_round(rec, s, depth, lim, json_out)
    if html is not None:
        _write_page(rec, review_json(r), "full", s, html, force, record)
    if json_out:
        emit_json(review_json(r))
        return
    _print_review(r)


def _review_round(
    rec: Record, s: int | None, depth: int | None, lim: Limits, quiet: bool
) -> Review:
    from catbox.solver.review import review as review_record

    if depth is None:
        depth = 3 if rec.players == 5 else 4
    ticker = Ticker(not quiet)

    def tick(k: int, n: int) -> None:
        ticker(f"reviewing move {k}/{n}")

    return review_record(rec, s, depth=depth, limits=lim, progress=tick)


def _print_review(r: Review) -> None:
    from catbox.solver.review import GRADES

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
    o.print(Text(f"marks: {names} (thresholds: docs/analysis.md, or --html)", style="dim"))
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


def _review_game(
    game: Game,
    seat: str | None,
    depth: int | None,
    lim: Limits,
    html: Path | None,
    force: bool,
    source: str,
    json_out: bool,
) -> None:
    """Every round of a game (each a share of the time left), then the game's summary."""
    from .review_view import review_player_view

    s = seat_from_letter(seat, game.players) if seat is not None else None
    if html is not None:
        check_writable(html, force=force, inputs=[source])
    docs: list[dict[str, Any]] = []
    n = len(game.rounds)
    for k, rec in enumerate(game.rounds):
        part = lim.share(1 / (n - k))
        if not json_out:
            start = seat_letter(rec.round_start)
            out().print(Text(f"\nround {k + 1} (round start {start})", style="bold"))
        if s is not None and any(d is None for d in rec.deal):
            pr = review_player_view(rec, s, json_out=json_out, limits=part, emit=False)
            docs.append(player_review_json(pr, s))
            continue
        r = _review_round(rec, s, depth, part, json_out)
        docs.append(review_json(r))
        if not json_out:
            _print_review(r)
    summary = game_review_json(game, docs)
    if html is not None:
        _write_game_page(game, summary, s, html, force, source)
    if json_out:
        emit_json(summary)
        return
    _print_game_summary(summary["game"])


def _print_game_summary(g: dict[str, Any]) -> None:
    o = out()
    o.print(Text("\nthe game", style="bold"))
    for letter, sm in g["seats"].items():
        preds = ", ".join("—" if p is None else str(p) for p in sm["predictions"])
        total = "?" if sm["total"] is None else str(sm["total"])
        star = " ★" if g["winners"] and letter in g["winners"] else ""
        o.print(
            Text(f"{letter}{star}: ", style="bold").append(
                f"total {total}; predictions {preds}; paradoxes caused {sm['paradoxes']}"
            )
        )
    for p in g["costliest"]:
        line = Text(f"round {p['round']} move {p['move']} {p['seat']} ", style="red")
        line.append_text(play_text(Play.parse(p["play"])))
        line.append(f" {p.get('grade', '')} " + "; ".join(p.get("marks") or []))
        if p.get("score_change") is not None:
            line.append(f" score {p['score_change']:+.2f}")
        if p.get("better"):
            line.append(" better: ").append_text(play_text(Play.parse(p["better"])))
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


def _write_game_page(
    game: Game, doc: dict[str, Any], seat: int | None, html: Path, force: bool, source: str
) -> None:
    from catbox.solver.report import game_review_page

    title = f"Review of {Path(source).stem}" if source != "-" else ""
    page = game_review_page(game, doc, seat=seat, title=title)
    write_text(page, html, force=force, inputs=[source])
    if str(html) != "-":
        err().print(f"wrote {html}: open it in a browser")
