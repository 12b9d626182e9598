"""catbox.solver: the rules engine, files and solvers for Cat in the Box: Deluxe Edition.

The library never imports typer or rich; heavy solvers (ortools, networkx) load lazily.
"""

from .board import ASCENDING, EMPTY, NEUTRAL, Layout, cell_index, largest_group
from .cards import ALL_COLOURS, Colour, Play, Variant, variant
from .deal import Deal, deal_round
from .errors import CatboxError, FormatError, IllegalPlayError, PositionError, SolverBug
from .position import Position, Seat
from .record import Record
from .scoring import GameResult, RoundScore, SeatScore, game_result, round_score, seat_score

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
