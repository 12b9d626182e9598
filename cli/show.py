"""``catbox show``: the board, the seats, the trick in progress and whose turn it is."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from catbox.solver.shapes import position_json

from .options import AtOpt, ForceOpt, JsonOpt, PositionArg, SvgOpt
from .output import command, emit_json, out
from .render import position_view, print_line
from .sources import load_position, write_text

if TYPE_CHECKING:
    pass


@command
def show(
    position: PositionArg,
    at: AtOpt = None,
    line: Annotated[
        bool, typer.Option("--line", help="Print only the one-line position string.")
    ] = False,
    svg: SvgOpt = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Show a position: coloured board, hands, permissions, tricks, predictions, whose turn.
    With --svg, also draw it as an SVG picture."""
    from catbox.solver import formats

    pos = load_position(position, at)
    text = formats.position_to_line(pos)
    if svg is not None:
        from catbox.solver.svg import board

        write_text(board(pos), svg, force=force, inputs=[position])
        if str(svg) == "-":
            return
    if json_out:
        emit_json(position_json(pos))
    elif line:
        typer.echo(text)
    else:
        out().print(position_view(pos))
        print_line(text)
