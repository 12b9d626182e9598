"""``catbox moves``: the legal plays of the seat to play, and why the others are illegal."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from catbox.solver.cards import seat_letter
from catbox.solver.rules import RULE_TEXT
from catbox.solver.shapes import moves_json

from .options import AtOpt, JsonOpt, PositionArg
from .output import command, emit_json, out
from .render import play_text, plays_text
from .sources import load_position


@command
def moves(
    position: PositionArg,
    at: AtOpt = None,
    explain: Annotated[
        bool, typer.Option("--explain", help="Also list every illegal (card, colour) and its rule.")
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Legal plays for the seat to play (L1-L3); with --explain, the rule against each other."""
    pos = load_position(position, at)
    table = pos.explain()
    legal = [p for p, rule in table if rule is None]
    illegal = [(p, rule) for p, rule in table if rule is not None]
    assert pos.to_play is not None  # explain() raises once the round is over
    if json_out:
        emit_json(moves_json(pos, legal, illegal))
        return
    head = Text(f"{seat_letter(pos.to_play)} to play", style="bold magenta")
    head.append(
        f" ({'leads' if not pos.trick else 'follows ' + pos.trick[0].colour.word}): ", style=""
    )
    head.append_text(plays_text(legal) if legal else Text("no legal play — paradox (X1)", "red"))
    out().print(head)
    if explain and illegal:
        t = Table(box=None, header_style="bold", pad_edge=False)
        t.add_column("play")
        t.add_column("rule")
        t.add_column("why")
        for p, rule in illegal:
            assert rule is not None
            t.add_row(play_text(p), rule, RULE_TEXT.get(rule, ""))
        out().print(t)
