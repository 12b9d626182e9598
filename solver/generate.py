"""Random positions for tests, benchmarks and puzzle hunting: a shim kept for the old import path.

``random_position`` lives in :mod:`.deal` (seeded deals and playouts), hiding hands is
:meth:`.Position.hide`.

>>> hide_hands(random_position(3, seed=1, tricks_left=3), [1]).seats[1].hand is None
True
"""

from __future__ import annotations

from collections.abc import Iterable

from .deal import random_position
from .position import Position

__all__ = ["hide_hands", "random_position"]


def hide_hands(pos: Position, seats: Iterable[int]) -> Position:
    """The same position with the hands and set-aside cards of ``seats`` unknown."""
    return pos.hide(seats)
