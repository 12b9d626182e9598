"""Rule facts I1-I5 (rules.md §9) hold along random legal playouts for 2-5 players."""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from catbox.solver import EMPTY, Colour, Position, deal_round, variant
from catbox.solver.board import cell_index
from catbox.solver.deal import random_position

from .reference import terminals

players_st = st.sampled_from([2, 3, 4, 5])
seeds = st.integers(min_value=0, max_value=10**6)


def options(pos: Position, seat: int) -> set[tuple[int, Colour]]:
    """Every (card, colour) the seat could still use, ignoring L3 (I4)."""
    s = pos.seats[seat]
    n = pos.max_number
    return {
        (c, col)
        for c in set(s.hand or ())
        for col in Colour
        if s.colours & col.bit and pos.board[cell_index(col, c, n)] == EMPTY
    }


def playout(players: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    pos = deal_round(players, seed, predictions=True).position
    line = [pos]
    while not pos.finished:
        pos = pos.play(rng.choice(pos.legal_plays()))
        line.append(pos)
    return line


@settings(max_examples=60, deadline=None)
@given(players_st, seeds)
def test_I1_at_most_four_copies_of_a_number_are_played(players: int, seed: int) -> None:
    end = playout(players, seed)[-1]
    played = end.board_numbers()
    assert all(k <= 4 for k in played.values())


@settings(max_examples=60, deadline=None)
@given(players_st, seeds)
def test_I4_what_a_player_may_use_only_shrinks(players: int, seed: int) -> None:
    line = playout(players, seed)
    for before, after in pairwise(line):
        for seat in range(players):
            assert options(after, seat) <= options(before, seat)
            assert after.seats[seat].colours & ~before.seats[seat].colours == 0
        assert after.red_broken or not before.red_broken


@settings(max_examples=80, deadline=None)
@given(players_st, seeds)
def test_I5_no_paradox_in_trick_1(players: int, seed: int) -> None:
    for pos in playout(players, seed):
        if pos.paradox is not None:
            assert pos.completed_tricks >= 1


@settings(max_examples=80, deadline=None)
@given(players_st, seeds)
def test_invariants_of_every_position(players: int, seed: int) -> None:
    """Counts stay consistent (formats.md checks) at every step of a playout."""
    for pos in playout(players, seed):
        pos.validate()
        assert pos.completed_tricks == sum(s.tricks for s in pos.seats)
        owned = Counter(o for o in pos.board if 0 <= o < players)
        assert all(owned[i] == pos.cards_played(i) for i in range(players))


@settings(max_examples=25, deadline=None)
@given(players_st, st.integers(0, 10**4))
def test_I2_I3_paradox_free_rounds_fill_the_board(players: int, seed: int) -> None:
    pos = random_position(players, seed, tricks_left=1)
    v = variant(players)
    for end in terminals(pos):
        if end.paradox is not None:
            continue
        empty = sum(1 for o in end.board if o == EMPTY)
        assert empty == v.empty_after  # I2 (0 at 3-4), I3 (1 at 5), 1 of 17 at 2 players
        if players in (3, 4):  # I2: set-aside + last cards = one copy of each number
            rest = Counter(s.set_aside for s in end.seats) + Counter(
                c for s in end.seats for c in (s.hand or ())
            )
            assert rest == Counter(v.numbers)
