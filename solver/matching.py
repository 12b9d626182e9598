"""The matching test of cooperative questions (:mod:`.possible`): a seat that must still
play all but one of its cards (E1) needs that many distinct usable cells (L1, L2)."""

from __future__ import annotations

from collections import Counter

from .board import EMPTY
from .cards import Colour, seat_letter
from .position import Position


def hall_violation(pos: Position, seat: int) -> tuple[tuple[int, ...], int] | None:
    """A set of ``seat``'s cards (a Hall violator) that proves it cannot play all but one of its
    cards (E1) into distinct usable cells (L1: empty; L2: a colour it still holds): the cards and
    the number of usable cells between them, with ``len(cards) - cells >= 2``. None when the
    seat's hand is unknown or a matching exists. Cells only shrink (I4), so this stays true.

    >>> from .cards import Colour
    >>> from .board import cell_index
    >>> from .position import Seat
    >>> pos = Position.start(3, [(1, 1, 1, 2, 2, 3, 3, 4, 4), None, None])
    >>> hall_violation(pos, 0) is None
    True
    """
    s = pos.seats[seat]
    if s.hand is None or s.hand_size <= 1:
        return None
    n_max = pos.max_number
    cards: list[int] = []
    cells = 0
    for n, k in sorted(Counter(s.hand).items()):
        usable = sum(
            1
            for c in Colour
            if s.colours & c.bit and pos.board[c * n_max + n - 1] == EMPTY  # cell_index
        )
        if k > usable:
            cards += [n] * k
            cells += usable
    if len(cards) - cells >= 2:
        return tuple(cards), cells
    return None


def hall_reason(pos: Position, seat: int) -> str | None:
    v = hall_violation(pos, seat)
    if v is None:
        return None
    cards, cells = v
    who = seat_letter(seat)
    return (
        f"cards {', '.join(map(str, cards))} of {who} have only {cells} usable "
        f"cell{'' if cells == 1 else 's'} left between them, and {who} must still play all but "
        "one card (E1; L1, L2)"
    )
