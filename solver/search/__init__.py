"""Game-tree search for perfect-information positions (every hand known): what one seat can
guarantee against the other seats acting together (analysis.md, "guaranteed").

AND-OR search with a shared interval transposition table for trick goals, fail-soft alpha-beta
with a bound table for the round score (Sc1-Sc3), both over a packed integer state whose
transitions are tested against the rules engine.
"""

from .api import (
    Forced,
    MoveRow,
    Target,
    analyze_moves,
    best_score_line,
    can_force,
    clear_cache,
    forced,
    main_line,
)
from .partial import Partial
from .session import Session

__all__ = [
    "Forced",
    "MoveRow",
    "Partial",
    "Session",
    "Target",
    "analyze_moves",
    "best_score_line",
    "can_force",
    "clear_cache",
    "forced",
    "main_line",
]
