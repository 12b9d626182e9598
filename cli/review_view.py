"""``catbox review RECORD --seat S`` on a record that shows only S's cards: every play of S
judged from S's view, with estimates over the hidden hands (solver/estimates/review.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from catbox.solver.cards import seat_letter
from catbox.solver.shapes import player_review_json

from .advise import PIMC_CAVEAT, est_text
from .output import Ticker, emit_json, out
from .render import play_text

if TYPE_CHECKING:
    from catbox.solver.estimates.review import PlayerReview
    from catbox.solver.limits import Limits
    from catbox.solver.record import Record


def review_player_view(
    rec: Record,
    seat: int,
    *,
    json_out: bool,
    samples: int | None = None,
    seed: int = 0,
    workers: int = 1,
    limits: Limits | None = None,
    emit: bool = True,
) -> PlayerReview:
    """Print (or emit as JSON, unless not ``emit``: a game's review emits one document for
    all its rounds) the player's-view review of ``seat`` in ``rec``; return it."""
    from catbox.solver.estimates.advise import DEFAULT_SAMPLES
    from catbox.solver.estimates.review import review_player

    ticker = Ticker(not json_out)

    def tick(k: int, n: int) -> None:
        ticker(f"reviewing play {k}/{n} of {seat_letter(seat)}")

    r = review_player(
        rec,
        seat,
        samples=samples or DEFAULT_SAMPLES,
        seed=seed,
        workers=workers,
        limits=limits,
        progress=tick,
    )
    if json_out:
        if emit:
            emit_json(player_review_json(r, seat))
        return r
    o = out()
    o.print(
        Text(f"Review of {seat_letter(seat)}'s plays from its own view", style="bold"),
        Text("  (other hands hidden: estimates over their deals)", style="dim"),
    )
    t = Table(header_style="bold", box=None)
    for col in (
        "move",
        "play",
        "method",
        "avoids paradox",
        "score",
        "best play",
        "change",
        "verdict",
    ):
        t.add_column(col)
    for p in r.plays:
        sc = p.score_change
        change = f"{100 * p.avoid_change:+.1f}% / " + (f"{sc:+.2f}" if sc is not None else "—")
        verdict = (
            Text(f"{p.grade} better: ", style="bold red").append_text(play_text(p.better))
            if p.better
            else Text("fine", style="green")
        )
        t.add_row(
            str(p.move),
            play_text(p.play),
            f"{p.method} ({p.samples})",
            est_text(p.made.avoid_paradox, True),
            est_text(p.made.score, False),
            play_text(p.best.play),
            change,
            verdict,
        )
    o.print(t)
    clear = sum(1 for p in r.plays if p.better)
    o.print(
        Text(
            f"{len(r.plays)} plays of {seat_letter(seat)} judged; {clear} with a clearly better "
            "play (95% intervals apart).",
        )
    )
    if any(p.method == "pimc" for p in r.plays):
        o.print(Text("  note: " + PIMC_CAVEAT, style="yellow"))
    return r
