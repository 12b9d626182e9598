"""catbox.solver: the rules engine, files and solvers for Cat in the Box: Deluxe Edition.

The library never imports typer or rich; heavy solvers (ortools, networkx) load lazily.
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .board import ASCENDING, EMPTY, NEUTRAL, Layout, cell_index, largest_group
    from .cards import ALL_COLOURS, Colour, Play, Variant, variant
    from .deal import Deal, deal_round
    from .errors import CatboxError, FormatError, IllegalPlayError, PositionError, SolverBug
    from .position import Position, Seat
    from .record import Record
    from .scoring import GameResult, RoundScore, SeatScore, game_result, round_score, seat_score

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
    "GameResult": "scoring",
    "RoundScore": "scoring",
    "SeatScore": "scoring",
    "game_result": "scoring",
    "round_score": "scoring",
    "seat_score": "scoring",
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
    "GameResult",
    "IllegalPlayError",
    "Layout",
    "Play",
    "Position",
    "PositionError",
    "Record",
    "RoundScore",
    "Seat",
    "SeatScore",
    "SolverBug",
    "Variant",
    "cell_index",
    "deal_round",
    "game_result",
    "largest_group",
    "round_score",
    "seat_score",
    "variant",
]
