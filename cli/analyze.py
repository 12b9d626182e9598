"""``catbox analyze``: a double-dummy-like table for the seat to play."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text

from catbox.solver.cards import seat_letter
from catbox.solver.shapes import analyze_json

from .options import (
    AtOpt,
    JsonOpt,
    PositionArg,
    SeedOpt,
    ThreadsOpt,
    TimeLimitOpt,
    WorkersOpt,
    search_limits,
)
from .output import Ticker, command, emit_json, out
from .render import counts_text, play_text, position_view, yes_no
from .sources import load_position


def bounded_counts(values: tuple[int, ...] | None, bounds: dict[str, Any], key: str) -> Text:
    """A set column: the set when proven, else what is proven in (and out)."""
    if values is not None or key not in bounds:
        return counts_text(values)
    b = bounds[key]
    if not b["in"] and not b["out"]:
        return Text("unknown", style="yellow")
    t = Text("≥{" + " ".join(map(str, b["in"])) + "}" if b["in"] else "?", style="yellow")
    if b["out"]:
        t.append(" not " + " ".join(map(str, b["out"])), style="dim")
    return t


@command
def analyze(
    position: PositionArg,
    at: AtOpt = None,
    time_limit: TimeLimitOpt = 60.0,
    workers: WorkersOpt = 0,
    seed: SeedOpt = 0,
    threads: ThreadsOpt = 0,
    json_out: JsonOpt = False,
) -> None:
    """For each legal play of the seat to play: possible and forceable trick counts, whether
    paradox avoidance stays possible / guaranteed, and the best score it guarantees. The rows
    of the forced columns are searched by --threads threads (default: one per core)."""
    from catbox.solver.analysis import analyze as analyze_position
    from catbox.solver.analysis import best_rows
    from catbox.solver.answers import merge_status

    lim = search_limits(time_limit, workers, seed, threads)
    pos = load_position(position, at)
    ticker = Ticker(not json_out)

    def tick(stage: str, k: int, n: int) -> None:
        what = "possible columns" if stage == "possible" else "forced columns"
        ticker(f"{what}: {k}/{n} plays")

    rows = analyze_position(pos, limits=lim, progress=tick)
    status = merge_status(*(r.status for r in rows)) if rows else "proven"
    assert pos.to_play is not None
    if json_out:
        emit_json(analyze_json(pos, rows, status))
        return
    o = out()
    o.print(position_view(pos))
    o.print()
    who = seat_letter(pos.to_play)
    pred = pos.seats[pos.to_play].prediction
    t = Table(
        title=f"{who} to play — every legal play (prediction: "
        f"{pred if pred is not None else '—'})  [{status}]",
        title_justify="left",
        header_style="bold",
    )
    for col in (
        "play",
        "possible tricks",
        "forceable tricks",
        "avoid paradox: possible",
        "guaranteed",
        "best score",
    ):
        t.add_column(col, justify="center")
    best = set(best_rows(rows))
    for i, r in enumerate(rows):
        score = Text(str(r.best_score))
        if r.best_score is None:  # unknown: its proven interval when there is one
            sb = r.bounds.get("best_score")
            score = Text(f"unknown, {sb[0]}..{sb[1]}" if sb else "unknown", "yellow")
        t.add_row(
            play_text(r.play),
            bounded_counts(r.possible, r.bounds, "possible"),
            bounded_counts(r.forceable, r.bounds, "forceable"),
            yes_no(r.avoid_possible),
            yes_no(r.avoid_guaranteed),
            score,
            style="on grey23" if i in best else None,
        )
    o.print(t)
    sampled = [r.deals for r in rows if not r.exact_deals]
    if sampled:
        o.print(
            Text(
                f"forced columns: estimates over {max(sampled)} sampled deals of the unknown "
                "hands (possible columns: for some deal)",
                style="yellow",
            )
        )
    if status == "unknown":
        o.print(
            Text(
                "unknown: not proven within --time-limit; ≥{…}: counts proven in so far, "
                "not …: counts proven out",
                style="dim",
            )
        )
    if best:
        o.print(
            Text("best: ", style="bold").append(" ".join(str(rows[i].play) for i in sorted(best)))
        )
