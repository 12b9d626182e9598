"""The search's packed state obeys the rules engine: legality (L1-L3), transitions (P1, F2, W1,
W3), paradoxes (X1) and the end of the round (E1), on thousands of random positions and random
playouts; and its connected-group count equals the board's (Sc3)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from catbox.solver import Position
from catbox.solver.board import largest_group
from catbox.solver.deal import random_position
from catbox.solver.search.engine import _group_sizes_max
from catbox.solver.search.state import apply, cells, from_position, legal_mask, to_play


def _check_same(pos: Position, seat: int, st: tuple[int, ...]) -> None:
    """The packed state after a play equals the packing of the engine's position (a recorded
    paradox aside: the packed state marks it by an empty legal mask instead)."""
    _, expect = from_position(replace(pos, paradox=None), seat)
    assert st == expect


def _playout_checks(pos: Position, seat: int, rng: random.Random) -> set[str]:
    """Walk a random playout, comparing the packed state with the rules engine at every step.
    Returns the kinds of step compared: "lead", "follow", and how the playout ended ("end" or
    "paradox")."""
    ctx, st = from_position(pos, seat)
    kinds: set[str] = set()
    while True:
        pos = pos.settle()
        if st[11] == 0:
            assert pos.finished and pos.paradox is None
            kinds.add("end")
            break
        lm = legal_mask(ctx, st)
        engine = pos.legal_plays() if pos.paradox is None else []
        assert sorted(ctx.play_of(i) for i in cells(lm)) == engine
        if not lm:  # X1: a paradox by the seat to play
            assert pos.paradox == to_play(ctx, st)
            kinds.add("paradox")
            break
        kinds.add("follow" if st[6] else "lead")
        assert pos.to_play == to_play(ctx, st)
        assert st[10] == pos.seats[seat].tricks
        assert st[11] == pos.tricks_left
        idx = rng.choice(cells(lm))
        play = ctx.play_of(idx)
        pos = pos.play(play)
        st = apply(ctx, st, idx)
        _check_same(pos, seat, st)
    return kinds


CASES = [
    (players, tricks_left, mid)
    for players in (2, 3, 4, 5)
    for tricks_left in (1, 2, 4, 7)
    for mid in sorted({0, 1, players - 1})
]


@pytest.mark.parametrize(("players", "tricks_left", "mid"), CASES)
def test_packed_state_matches_rules_engine(players: int, tricks_left: int, mid: int) -> None:
    kinds: set[str] = set()
    for seed in range(12):
        pos = random_position(players, seed, tricks_left, mid_trick=mid)
        rng = random.Random(seed)
        for seat in range(players):
            kinds |= _playout_checks(pos, seat, rng)
    # the playouts compared leads and follows, and ended at the round's end or a paradox
    assert {"lead", "follow"} <= kinds or (tricks_left == 1 and "follow" in kinds)
    assert kinds & {"end", "paradox"}


def test_fresh_deals_played_out() -> None:
    """Whole rounds from the deal (trick 1, red unbroken, L3) under random play."""
    from catbox.solver.deal import deal_round

    everywhere: set[str] = set()
    for players in (2, 3, 4, 5):
        kinds: set[str] = set()
        for seed in range(40):
            pos = deal_round(players, seed).position
            kinds |= _playout_checks(pos, seed % players, random.Random(seed))
        assert {"lead", "follow", "paradox"} <= kinds, players  # random play: paradoxes
        everywhere |= kinds
    assert "end" in everywhere  # and some rounds played to the end


def test_group_count_matches_board() -> None:
    rng = random.Random(5)
    for players in (2, 3, 4, 5):
        pos = random_position(players, 0, 1)
        n = pos.max_number
        for _ in range(300):
            mine = rng.getrandbits(4 * n) & rng.getrandbits(4 * n)
            board = tuple(0 if mine >> i & 1 else -1 for i in range(4 * n))
            assert _group_sizes_max(mine, n) == largest_group(board, 0, players)
