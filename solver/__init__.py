"""catbox.solver: the rules engine, files and solvers for Cat in the Box: Deluxe Edition.

The public face: the rules (:class:`Position`, :class:`Record`, scores), the files
(:mod:`.formats`), and the questions of docs/analysis.md. Every question takes ``limits``
(:class:`Limits`, None: no limit) and ``session`` (:class:`Session`, None: the calling thread's
default) as keyword arguments:

- perfect information (every hand known), :mod:`.search`: ``search.forced`` (not exported
  here: ``catbox.solver.forcing`` is the module of :func:`forced_report`), :func:`can_force`,
  :func:`main_line`, :func:`best_score_line`, :func:`analyze_moves`;
- cooperative ("possible"), :mod:`.possible`: :func:`paradox_possible`,
  :func:`tricks_possible`;
- the commands' reports, :mod:`.analysis`: :func:`paradox_report`, :func:`tricks_report`,
  :func:`analyze`, :func:`forced_report`;
- puzzles and rounds: :func:`solve_goal` (:mod:`.solve`), the round review (:mod:`.review`);
- whole games (:mod:`.game`): :class:`Game`, :func:`next_round`; catbox in every seat
  (:mod:`.selfplay`): :func:`play_game`;
- the player's view, :mod:`.estimates`: :func:`advise`, :func:`advise_start`.

The library never imports typer or rich; heavy solvers (ortools, networkx) load lazily.
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .analysis import analyze, paradox_report, tricks_report
    from .board import ASCENDING, EMPTY, NEUTRAL, Layout, cell_index, largest_group
    from .cards import ALL_COLOURS, Colour, Play, Variant, variant
    from .deal import Deal, deal_round
    from .errors import CatboxError, FormatError, IllegalPlayError, PositionError, SolverBug
    from .estimates.advise import advise
    from .estimates.start import advise_start
    from .forcing import forced_report
    from .game import Game, next_round
    from .limits import Limits, OutOfTime
    from .player import choose_aside, choose_play, choose_prediction
    from .position import Position, Seat
    from .possible import paradox_possible, tricks_possible
    from .record import Record
    from .scoring import GameResult, RoundScore, SeatScore, game_result, round_score, seat_score
    from .search import (
        Session,
        Target,
        analyze_moves,
        best_score_line,
        can_force,
        main_line,
    )
    from .selfplay import play_game
    from .solve import solve_goal

_HOME = {
    "ALL_COLOURS": "cards",
    "Colour": "cards",
    "Play": "cards",
    "Variant": "cards",
    "variant": "cards",
    "ASCENDING": "board",
    "EMPTY": "board",
    "NEUTRAL": "board",
    "Layout": "board",
    "cell_index": "board",
    "largest_group": "board",
    "Deal": "deal",
    "deal_round": "deal",
    "CatboxError": "errors",
    "FormatError": "errors",
    "IllegalPlayError": "errors",
    "PositionError": "errors",
    "SolverBug": "errors",
    "Position": "position",
    "Seat": "position",
    "Record": "record",
    "Game": "game",
    "next_round": "game",
    "play_game": "selfplay",
    "GameResult": "scoring",
    "RoundScore": "scoring",
    "SeatScore": "scoring",
    "game_result": "scoring",
    "round_score": "scoring",
    "seat_score": "scoring",
    "Limits": "limits",
    "OutOfTime": "limits",
    "Session": "search",
    "Target": "search",
    "analyze_moves": "search",
    "best_score_line": "search",
    "can_force": "search",
    "main_line": "search",
    "choose_aside": "player",
    "choose_play": "player",
    "choose_prediction": "player",
    "paradox_possible": "possible",
    "tricks_possible": "possible",
    "analyze": "analysis",
    "forced_report": "analysis",
    "paradox_report": "analysis",
    "tricks_report": "analysis",
    "solve_goal": "solve",
    "advise": "estimates.advise",
    "advise_start": "estimates.start",
}


def __getattr__(name: str) -> Any:
    """Lazy exports: ``import catbox.solver`` stays cheap (the CLI must start fast)."""
    if name in _HOME:
        return getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ALL_COLOURS",
    "ASCENDING",
    "EMPTY",
    "NEUTRAL",
    "CatboxError",
    "Colour",
    "Deal",
    "FormatError",
    "Game",
    "GameResult",
    "IllegalPlayError",
    "Layout",
    "Limits",
    "OutOfTime",
    "Play",
    "Position",
    "PositionError",
    "Record",
    "RoundScore",
    "Seat",
    "SeatScore",
    "Session",
    "SolverBug",
    "Target",
    "Variant",
    "advise",
    "advise_start",
    "analyze",
    "analyze_moves",
    "best_score_line",
    "can_force",
    "cell_index",
    "choose_aside",
    "choose_play",
    "choose_prediction",
    "deal_round",
    "forced_report",
    "game_result",
    "largest_group",
    "main_line",
    "next_round",
    "paradox_possible",
    "paradox_report",
    "play_game",
    "round_score",
    "seat_score",
    "solve_goal",
    "tricks_possible",
    "tricks_report",
    "variant",
]
