"""``catbox score``: round scores (Sc1-Sc3) and, for several rounds, game totals (Sc4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from catbox.solver.cards import seat_letter
from catbox.solver.errors import PositionError
from catbox.solver.shapes import game_json, round_json

from .options import JsonOpt
from .output import command, emit_json, out
from .sources import load_game_file, load_position

if TYPE_CHECKING:
    from catbox.solver.position import Position
    from catbox.solver.scoring import GameResult, RoundScore


def _show_round(pos: Position, sc: RoundScore, title: str) -> None:
    state = "final" if sc.finished else "provisional (round still running)"
    t = Table(title=f"{title} — {state}", title_justify="left", header_style="bold")
    for col in ("seat", "tricks", "prediction", "largest group", "bonus", "score"):
        t.add_column(col, justify="right" if col != "seat" else "left")
    for i, s in enumerate(sc.seats):
        label = seat_letter(i) + (" (paradox)" if s.caused_paradox else "")
        score = "?" if s.score is None else str(s.score)
        bonus = "?" if s.bonus is None else str(s.bonus)
        pred = "—" if s.prediction is None else str(s.prediction)
        t.add_row(label, str(s.tricks), pred, str(s.largest_group), bonus, score)
    out().print(t)


@command
def score(
    positions: Annotated[
        list[str],
        typer.Argument(
            metavar="POSITION...",
            help="One finished (or running) round; give every "
            "round of a game, in order, for game totals (Sc4), or one game file.",
            show_default=False,
        ),
    ],
    json_out: JsonOpt = False,
) -> None:
    """Round scores by Sc1-Sc3 (provisional while the round runs); game totals for several
    rounds, or for a game file (catbox-game/1)."""
    from catbox.solver.scoring import game_result, round_score

    game = load_game_file(positions[0]) if len(positions) == 1 else None
    if game is not None:
        _show_game(list(game.scores()), game.result(), game.complete, json_out)
        return
    loaded = [load_position(p) for p in positions]
    scores = [round_score(p) for p in loaded]
    if len(loaded) == 1:
        if json_out:
            emit_json(round_json(scores[0]))
        else:
            _show_round(loaded[0], scores[0], "Round score")
        return
    players = loaded[0].players
    for k, p in enumerate(loaded):
        if p.players != players:
            raise PositionError(
                "every round of a game has the same players", rule="Sc4", where=positions[k]
            )
        expected = (loaded[0].round_start + k) % players
        if p.round_start != expected:
            raise PositionError(
                f"round {k + 1} should start with {seat_letter(expected)}: the round start "
                "player passes left each round",
                rule="Sc4",
                where=positions[k],
            )
    rows = []
    for k, sc in enumerate(scores):
        if any(s.score is None for s in sc.seats):
            raise PositionError(
                "a score depends on an unknown prediction", rule="Sc2", where=positions[k]
            )
        rows.append([s.score or 0 for s in sc.seats])
    game_res = game_result(rows)
    complete = game_res.rounds == players and all(sc.finished for sc in scores)
    _show_game(scores, game_res, complete, json_out)


def _show_game(scores: list[RoundScore], game: GameResult, complete: bool, json_out: bool) -> None:
    if json_out:
        emit_json(game_json(scores, game, complete))
        return
    players = len(game.totals)
    t = Table(
        title="Game totals (Sc4)" + ("" if complete else " — game not complete"),
        title_justify="left",
        header_style="bold",
    )
    t.add_column("seat")
    for k in range(len(scores)):
        t.add_column(f"round {k + 1}", justify="right")
    t.add_column("total", justify="right", style="bold")
    for i in range(players):
        mark = " ★" if i in game.winners else ""
        cells = [str(sc.seats[i].score) for sc in scores]
        t.add_row(seat_letter(i) + mark, *cells, str(game.totals[i]))
    out().print(t)
    names = ", ".join(seat_letter(i) for i in game.winners)
    how = "shared win" if len(game.winners) > 1 else "winner"
    out().print(f"{how}: {names}")
