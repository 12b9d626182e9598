"""``catbox show``: the board, the seats, the trick in progress and whose turn it is."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from catbox.solver.cards import seat_letter

from .options import AtOpt, JsonOpt, PositionArg
from .output import command, emit_json, out
from .render import position_view, print_line
from .sources import load_position

if TYPE_CHECKING:
    from catbox.solver.position import Position


def derived(pos: Position) -> dict[str, Any]:
    """What the rules derive from a position (formats.md: derived, never stored)."""
    return {
        "to_play": seat_letter(pos.to_play) if pos.to_play is not None else None,
        "led": pos.led.name if pos.led is not None else None,
        "red_broken": pos.red_broken,
        "finished": pos.finished,
        "paradox": seat_letter(pos.paradox) if pos.paradox is not None else None,
        "tricks_left": pos.tricks_left,
    }


@command
def show(
    position: PositionArg,
    at: AtOpt = None,
    line: Annotated[
        bool, typer.Option("--line", help="Print only the one-line position string.")
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Show a position: coloured board, hands, permissions, tricks, predictions, whose turn."""
    from catbox.solver import formats

    pos = load_position(position, at)
    text = formats.position_to_line(pos)
    if json_out:
        emit_json({**derived(pos), "line": text, "position": formats.to_json_obj(pos)})
    elif line:
        typer.echo(text)
    else:
        out().print(position_view(pos))
        print_line(text)
