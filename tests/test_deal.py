"""Dealing (S1-S3) and the 2-player setup (2P1-2P4)."""

from __future__ import annotations

from collections import Counter

import pytest

from catbox.solver import NEUTRAL, Colour, deal_round, variant
from catbox.solver.board import cell_index
from catbox.solver.position import neutral_cells


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_deal_is_deterministic_per_seed(players: int) -> None:
    assert deal_round(players, 42) == deal_round(players, 42)
    assert deal_round(players, 42).dealt != deal_round(players, 43).dealt


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_deal_uses_the_whole_deck(players: int) -> None:
    d = deal_round(players, 8)
    cards = Counter(c for h in d.dealt for c in h) + Counter(d.revealed) + Counter(d.hidden)
    assert cards == Counter(dict.fromkeys(variant(players).numbers, 5))


def test_2P1_three_revealed_two_hidden() -> None:
    d = deal_round(2, 5)
    assert len(d.revealed) == 3 and len(d.hidden) == 2
    assert d.position.revealed == tuple(sorted(d.revealed))


def test_2P2_neutral_tokens_green_then_yellow_then_blue() -> None:
    n = 5
    assert neutral_cells((3, 3, 5), n) == {
        cell_index(Colour.G, 3, n),
        cell_index(Colour.Y, 3, n),
        cell_index(Colour.G, 5, n),
    }
    triple = neutral_cells((2, 2, 2), n)
    assert triple == {cell_index(c, 2, n) for c in (Colour.G, Colour.Y, Colour.B)}
    for seed in range(30):
        pos = deal_round(2, seed).position
        neutral = {i for i, o in enumerate(pos.board) if o == NEUTRAL}
        assert neutral == neutral_cells(pos.revealed, n)
        assert all(pos.board[i] != NEUTRAL for i in range(n))  # never red


def test_2P3_hidden_cards_are_out_of_play() -> None:
    d = deal_round(2, 6)
    pos = d.position
    # the hidden pair is unseen by both seats, so it is part of each seat's unseen cards
    for seat in (0, 1):
        unseen = pos.unseen_by(seat)
        assert all(unseen[c] >= Counter(d.hidden)[c] for c in d.hidden)


def test_2P4_eight_tricks_and_a_set_aside_each() -> None:
    v = variant(2)
    assert (v.hand_start, v.tricks) == (9, 8)
    d = deal_round(2, 7)
    assert all(a in h for a, h in zip(d.set_aside, d.dealt, strict=True))
