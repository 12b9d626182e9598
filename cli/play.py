"""``catbox play``: make plays from a position and show (or write) the result."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from catbox.solver.cards import Play
from catbox.solver.errors import CatboxError
from catbox.solver.shapes import position_json

from .options import AtOpt, ForceOpt, JsonOpt, OutOpt, PositionArg
from .output import command, emit_json, out
from .render import position_view, print_line
from .sources import load_position, write_output

if TYPE_CHECKING:
    pass


@command
def play(
    position: PositionArg,
    plays: Annotated[
        list[str], typer.Argument(metavar="PLAY...", help="Plays like 7R 5b.", show_default=False)
    ],
    at: AtOpt = None,
    out_path: OutOpt = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Play PLAY... in turn (each checked against the rules) and show the new position."""
    from catbox.solver import formats

    pos = load_position(position, at)
    for k, text in enumerate(plays, start=1):
        try:
            pos = pos.play(Play.parse(text))
        except CatboxError as e:
            raise e.located(f"play {k} ({text})") from None
    if out_path is not None:
        write_output(pos, out_path, force=force, inputs=[position])
    text = formats.position_to_line(pos)
    if json_out:
        emit_json(position_json(pos))
    elif out_path is None:
        out().print(position_view(pos))
        print_line(text)
    else:
        out().print(f"wrote {out_path}")
