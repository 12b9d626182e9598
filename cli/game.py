"""``catbox game``: a whole game (Sc4) with catbox in every seat, written as a game record."""

from __future__ import annotations

from typing import Annotated

import typer

from catbox.solver.cards import seat_letter
from catbox.solver.errors import FormatError
from catbox.solver.player import DEFAULT_LEVEL, MAX_LEVEL

from .options import DealSeedOpt, ForceOpt, JsonOpt, OutOpt, PlayersOpt
from .output import Ticker, command, emit_json, out
from .sources import check_writable, write_output


@command
def game(
    players: PlayersOpt,
    seed: DealSeedOpt,
    level: Annotated[
        int,
        typer.Option(
            "--level",
            min=0,
            max=MAX_LEVEL,
            help="How well catbox plays every seat: 0 its policy (instant); 1-5 its player "
            "(rollouts, then exact endgames over sampled deals: stronger, slower).",
        ),
    ] = DEFAULT_LEVEL,
    names: Annotated[
        str | None,
        typer.Option(
            "--names",
            help="The seats' names, separated by commas (e.g. Ann,Ben,Cy).",
            show_default=False,
        ),
    ] = None,
    out_path: OutOpt = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Play a whole game (as many rounds as players, the round start passing left) with catbox
    in every seat, each deciding from its own view only: its set-aside card and prediction,
    then its plays. The same seed and level give the same game. Writes the game record
    (catbox-game/1) with -o, else prints it."""
    from catbox.solver import formats
    from catbox.solver.selfplay import play_game

    seat_names = tuple(n.strip() for n in names.split(",")) if names is not None else ()
    if seat_names and (len(seat_names) != players or len(set(seat_names)) != players):
        raise FormatError(f"--names: give {players} different names", where="--names")
    if out_path is not None:  # fail now, not after the game
        check_writable(out_path, force=force, inputs=[])
    ticker = Ticker(not json_out)

    def tick(r: int, n: int) -> None:
        ticker(f"playing round {r}/{n}")

    g = play_game(players, seed=seed, level=level, names=seat_names, progress=tick)
    if out_path is not None:
        write_output(g, out_path, force=force, inputs=[])
    if json_out:
        emit_json(formats.to_json_obj(g))
        return
    if out_path is None:
        typer.echo(formats.dumps(g, "toml"), nl=False)
        return
    res = g.result()
    who = ", ".join(seat_letter(i) for i in res.winners)
    totals = "  ".join(f"{seat_letter(i)} {t}" for i, t in enumerate(res.totals))
    out().print(f"wrote {out_path}: {players} rounds; totals {totals}; winner {who}")
