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


def red_cells(pos: Position, seat: int) -> tuple[frozenset[int], frozenset[int]] | None:
    """The red rows' numbers for :func:`trick_cap`: those ``seat`` can still fill (an empty
    red cell of a number in its hand, with its red permission, L1 and L2; and the red card it
    has already played in the trick in progress, which still counts there), and the empty red
    cells it can never fill (any other seat's, if anyone's). None when its hand is unknown."""
    s = pos.seats[seat]
    if s.hand is None:
        return None
    n_max = pos.max_number
    empty = {n for n in range(1, n_max + 1) if pos.board[n - 1] == EMPTY}  # cell_index(R, n)
    mine = {n for n in set(s.hand) & empty if s.colours & Colour.R.bit}
    for who, p in zip(pos.trick_seats(), pos.trick, strict=True):
        if who == seat and p.colour == Colour.R:
            mine.add(p.number)
    return frozenset(mine), frozenset(empty - mine)


def trick_cap(pos: Position, seat: int) -> int | None:
    """An upper bound on the final trick count ``seat`` (S) reaches in any continuation
    without its paradox (cooperative: every seat may help), from the red cells (W1); None when
    S's hand is unknown. Counts above it are impossible: a proof, with no search.

    Proof. Let A be the red numbers S can fill, O the empty red cells it cannot
    (:func:`red_cells`; I4: cells only fill and permissions only go, so neither grows). A
    trick in which another seat fills a cell o of O is won by a red of o or more (W1), so S
    wins it only with a red above o, one of A's, each filled once (L1, P1): for any x, the
    tricks holding an O-cell above x are lost but for at most |A above x| of them. Every play
    fills one cell (P1), so at the start of the j-th trick from now (the current one is the
    first, c0 of its plays made) at most R_j = E - (p(j - 1) - c0) cells are still empty (E:
    empty cells now, p players): at least |O above x| - R_j O-cells above x were filled, in
    at least that many / (p - 1) tricks (the others' plays in one trick). The round either
    ends with another seat's paradox in the j-th trick (j <= left: the tricks before it only
    count, X3) or completes (j = left + 1, E1); S wins at most j - 1 of those tricks less the
    losses, for the best j."""
    cells = red_cells(pos, seat)
    if cells is None:
        return None
    mine, others = cells
    p, left, c0 = pos.players, pos.tricks_left, len(pos.trick)
    empty = sum(1 for o in pos.board if o == EMPTY)
    best = 0
    for j in range(1, left + 2):
        room = empty - (p * (j - 1) - c0)  # R_j: cells that may still be empty then
        lost = 0
        for x in range(pos.max_number + 1):
            filled = sum(1 for o in others if o > x) - room
            if filled > 0:
                tricks = -(-filled // (p - 1))
                lost = max(lost, tricks - sum(1 for a in mine if a > x))
        best = max(best, j - 1 - lost)
    return pos.seats[seat].tricks + best
