"""The rules of play in one place: legality (L1-L4, F1-F2) and the trick winner (W1).

These functions work on plain data (a board, a hand, a permission mask) so that the position
module, the search and the CP-SAT validators all ask the same code. Every solver's fast encoding
is tested against these functions.

>>> from .board import empty_board
>>> b = empty_board(3)
>>> [str(p) for p in legal_plays((2, 5), b, 6, 0b1111, leading=True, red_is_broken=False)]
['2B', '2Y', '2G', '5B', '5Y', '5G']
>>> why_illegal(Play(2, Colour.R), (2, 5), b, 6, 0b1111, leading=True, red_is_broken=False)
'L3'
>>> trick_winner([Play(5, Colour.B), Play(7, Colour.B), Play(2, Colour.R), Play(8, Colour.G)])
2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .board import EMPTY, Board, cell_index
from .cards import Colour, Play

# W1: a red play counts this plus its number, above every non-red play (numbers stay below
# it). The one definition: the packed search state, the compiled core (given at
# construction) and the playout simulator read it from here (tests/test_rule_numbers.py).
RED_BONUS = 16

__all__ = [
    "RED_BONUS",
    "RULE_TEXT",
    "after_follow",
    "is_red_broken",
    "legal_plays",
    "trick_value",
    "trick_winner",
    "why_illegal",
]

RULE_TEXT: dict[str, str] = {
    "L1": "the cell must be empty",
    "L2": "the player must still hold the permission for that colour",
    "L3": "the leader may declare red only once red is broken, or when no card can be "
    "declared blue, yellow or green",
    "F2": "a follower who declares another colour loses the led colour",
    "W1": "the highest red wins, else the highest card of the led colour",
    "E1": "tricks go on until every player holds exactly one card",
    "X1": "a paradox: the player due to play has no legal play",
}

_NON_RED = (Colour.B, Colour.Y, Colour.G)


def is_red_broken(board: Board, max_number: int) -> bool:
    """Red is broken once any player token is on the red row (L3a). Neutral tokens never touch
    red (2P2), so any filled red cell is a player's."""
    return any(o != EMPTY for o in board[:max_number])


def _open(board: Board, max_number: int, number: int, colour: Colour, colours: int) -> bool:
    """L1 and L2 together: the cell is empty and the permission is held."""
    return bool(colours & colour.bit) and board[cell_index(colour, number, max_number)] == EMPTY


def _has_non_red(hand: Iterable[int], board: Board, max_number: int, colours: int) -> bool:
    return any(_open(board, max_number, n, c, colours) for n in set(hand) for c in _NON_RED)


def why_illegal(
    play: Play,
    hand: Sequence[int],
    board: Board,
    max_number: int,
    colours: int,
    *,
    leading: bool,
    red_is_broken: bool,
) -> str | None:
    """The id of the first rule that forbids ``play`` (checked L1, L2, L3), or None if legal.
    The card must be in ``hand`` (the caller checks that)."""
    if not 1 <= play.number <= max_number:
        return "B1"
    if board[cell_index(play.colour, play.number, max_number)] != EMPTY:
        return "L1"
    if not colours & play.colour.bit:
        return "L2"
    if (
        leading
        and play.colour == Colour.R
        and not red_is_broken
        and _has_non_red(hand, board, max_number, colours)
    ):
        return "L3"
    return None


def legal_plays(
    hand: Sequence[int],
    board: Board,
    max_number: int,
    colours: int,
    *,
    leading: bool,
    red_is_broken: bool,
) -> list[Play]:
    """Every legal play of ``hand``, sorted by number then colour R, B, Y, G. Empty means the
    player cannot play: a paradox (X1)."""
    out: list[Play] = []
    red_ok = not leading or red_is_broken or not _has_non_red(hand, board, max_number, colours)
    for n in sorted(set(hand)):
        for c in Colour:
            if c == Colour.R and not red_ok:
                continue
            if _open(board, max_number, n, c, colours):
                out.append(Play(n, c))
    return out


def after_follow(colours: int, led: Colour, declared: Colour) -> int:
    """Permissions of a follower after declaring ``declared`` in a trick led ``led`` (F2; also
    when red was led). Leaders never call this (L4)."""
    return colours & ~led.bit if declared != led else colours


def trick_value(play: Play, led: Colour) -> int:
    """How strong ``play`` is in a trick led in ``led`` (W1): a red play counts
    :data:`RED_BONUS` plus its number (above every other play), a play of the led colour its
    number, any other play -1 (it cannot win)."""
    if play.colour == Colour.R:
        return RED_BONUS + play.number
    return play.number if play.colour == led else -1


def trick_winner(plays: Sequence[Play]) -> int:
    """Index (from the leader) of the winning play of a complete trick (W1; W2: no ties)."""
    led = plays[0].colour
    return max(range(len(plays)), key=lambda i: trick_value(plays[i], led))
