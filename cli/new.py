"""``catbox new``: deal a new round from a seed (S1-S3, 2P1-2P3)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from catbox.solver.cards import seat_from_letter

from .options import DealSeedOpt, ForceOpt, JsonOpt, OutOpt, PlayersOpt
from .output import command, emit_json, out
from .sources import write_output

if TYPE_CHECKING:
    pass


@command
def new(
    players: PlayersOpt,
    seed: DealSeedOpt,
    record: Annotated[
        bool,
        typer.Option(
            "--record",
            help="Write a round record (the deal, "
            "set-aside cards, predictions, no moves) instead of a position.",
        ),
    ] = False,
    predictions: Annotated[
        bool,
        typer.Option(
            "--predictions/--no-predictions",
            help="Choose random allowed predictions (3-5 players).",
        ),
    ] = True,
    start: Annotated[str, typer.Option("--start", help="The round start player.")] = "A",
    out_path: OutOpt = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Deal a new round: every hand known, one card set aside per seat (chosen by the seed)."""
    from catbox.solver import formats
    from catbox.solver.deal import deal_round
    from catbox.solver.record import Record

    round_start = seat_from_letter(start, players)
    d = deal_round(players, seed, round_start=round_start, predictions=predictions)
    obj = Record.from_deal(d) if record else d.position
    if out_path is not None:
        write_output(obj, out_path, force=force, inputs=[])
        if not json_out:
            out().print(f"wrote {out_path}")
    if json_out:
        emit_json(formats.to_json_obj(obj))
    elif out_path is None:
        typer.echo(formats.dumps(obj, "toml"), nl=False)
