"""Board geometry and connected groups (solver/board.py; rules B1-B5, Sc3)."""

from __future__ import annotations

import random

import networkx as nx
from hypothesis import given
from hypothesis import strategies as st

from catbox.solver import Colour
from catbox.solver.board import (
    ASCENDING,
    EMPTY,
    cell_index,
    cell_play,
    empty_board,
    group_sizes,
    largest_group,
)


def test_cell_index_and_cell_play_are_inverse() -> None:
    for n in (5, 6, 8, 9):
        for idx in range(4 * n):
            p = cell_play(idx, n)
            assert cell_index(p.colour, p.number, n) == idx


@given(st.sampled_from([2, 3, 4, 5]), st.integers(0, 10**6))
def test_groups_partition_the_seat_tokens(players: int, seed: int) -> None:
    rng = random.Random(seed)
    board = tuple(rng.choice([EMPTY, *range(players)]) for _ in empty_board(players))
    for seat in range(players):
        sizes = group_sizes(board, seat, players)
        assert sum(sizes) == board.count(seat)
        assert list(sizes) == sorted(sizes, reverse=True)
        assert largest_group(board, seat, players) == (sizes[0] if sizes else 0)


def test_groups_against_a_grid_graph() -> None:
    """Ascending layout: the same components as networkx's own grid graph (B4)."""
    rng = random.Random(5)
    n = 8
    grid = nx.grid_2d_graph(4, n)
    for _ in range(50):
        board = tuple(rng.choice([EMPTY, 0, 1]) for _ in range(4 * n))
        mine = [(c, k) for c in range(4) for k in range(n) if board[c * n + k] == 0]
        comps = nx.connected_components(grid.subgraph(mine))
        want = sorted((len(c) for c in comps), reverse=True)
        assert list(group_sizes(board, 0, 4, ASCENDING)) == want


def test_red_row_is_row_zero() -> None:
    assert cell_play(0, 6).colour == Colour.R and cell_play(6, 6).colour == Colour.B
