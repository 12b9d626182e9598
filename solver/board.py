"""The research board: cells, owners and geometry (rules.md §2, Sc3).

A board is a tuple of owners, one per cell, indexed ``colour * N + (number - 1)`` where ``N``
is the highest number in play (B1, B3: columns of numbers not in the deck simply do not exist).
An owner is a seat index 0..4, :data:`EMPTY` or :data:`NEUTRAL` (2-player tokens, 2P2).

Geometry is data (B5): a :class:`Layout` maps each cell to a (row, column) place; adjacency is
orthogonal between places (B4). Connected groups are computed with networkx (Sc3).

>>> b = empty_board(4)
>>> len(b), cell_index(Colour.B, 3, 8)
(32, 10)
>>> b = with_owner(with_owner(b, cell_index(Colour.R, 1, 8), 0), cell_index(Colour.B, 1, 8), 0)
>>> largest_group(b, 0, 4)
2
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .cards import Colour, Play, variant

if TYPE_CHECKING:  # networkx is imported lazily: `catbox --help` must start fast
    import networkx as nx

__all__ = [
    "ASCENDING",
    "EMPTY",
    "LAYOUTS",
    "NEUTRAL",
    "Board",
    "Layout",
    "cell_index",
    "cell_play",
    "empty_board",
    "group_sizes",
    "largest_group",
    "with_owner",
]

EMPTY = -1
NEUTRAL = 5

Board = tuple[int, ...]


def cell_index(colour: Colour | int, number: int, max_number: int) -> int:
    return int(colour) * max_number + number - 1


def cell_play(index: int, max_number: int) -> Play:
    """The (number, colour) of a cell index, as a Play."""
    colour, col = divmod(index, max_number)
    return Play(col + 1, Colour(colour))


def empty_board(players: int) -> Board:
    return (EMPTY,) * (4 * variant(players).max_number)


def with_owner(board: Board, index: int, owner: int) -> Board:
    return (*board[:index], owner, *board[index + 1 :])


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each (colour, number) cell sits on the physical board (B5).

    ``table`` lists ``(colour, number, row, column)`` entries; an empty table means the
    ascending layout (row = colour, column = number - 1). Places absent from the table are holes
    and break groups."""

    name: str
    table: tuple[tuple[int, int, int, int], ...] = ()

    def place(self, colour: int, number: int) -> tuple[int, int] | None:
        if not self.table:
            return (colour, number - 1)
        for c, n, row, col in self.table:
            if c == colour and n == number:
                return (row, col)
        return None


ASCENDING = Layout("ascending")
LAYOUTS: dict[str, Layout] = {ASCENDING.name: ASCENDING}


@lru_cache(maxsize=32)
def _graph(layout: Layout, max_number: int) -> nx.Graph[int]:
    import networkx as nx

    places: dict[tuple[int, int], int] = {}
    for colour in Colour:
        for number in range(1, max_number + 1):
            p = layout.place(colour, number)
            if p is not None:
                places[p] = cell_index(colour, number, max_number)
    g: nx.Graph[int] = nx.Graph()
    g.add_nodes_from(places.values())
    for (row, col), idx in places.items():
        for other in ((row + 1, col), (row, col + 1)):
            if other in places:
                g.add_edge(idx, places[other])
    return g


@lru_cache(maxsize=200_000)
def _component_sizes(cells: frozenset[int], layout: Layout, max_number: int) -> tuple[int, ...]:
    import networkx as nx

    sub: Any = _graph(layout, max_number).subgraph(cells)
    return tuple(sorted((len(c) for c in nx.connected_components(sub)), reverse=True))


def group_sizes(
    board: Board, seat: int, players: int, layout: Layout = ASCENDING
) -> tuple[int, ...]:
    """Sizes of ``seat``'s orthogonally connected token groups, largest first (Sc3)."""
    return _component_sizes(owned(board, seat), layout, variant(players).max_number)


def owned(board: Iterable[int], seat: int) -> frozenset[int]:
    return frozenset(i for i, o in enumerate(board) if o == seat)


def largest_group(board: Board, seat: int, players: int, layout: Layout = ASCENDING) -> int:
    """Tokens in ``seat``'s single largest connected group: the bonus value (Sc3).
    Other seats' tokens, neutral tokens and empty cells break groups."""
    sizes = group_sizes(board, seat, players, layout)
    return sizes[0] if sizes else 0
