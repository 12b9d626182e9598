"""Witness lines are replayed through the rules engine (solver/answers.py)."""

from __future__ import annotations

import pytest

from catbox.solver import Play, Position, SolverBug
from catbox.solver.answers import Witness, fill_hands
from catbox.solver.deal import random_position


def _first_line(pos: Position) -> list[Play]:
    line = []
    while not pos.finished:
        m = pos.legal_plays()[0]
        line.append(m)
        pos = pos.play(m)
    return line


def test_a_good_line_replays() -> None:
    pos = random_position(4, 2, 2)
    end = Witness.of(pos, _first_line(pos)).verify(pos)
    assert end.finished


def test_an_illegal_or_short_line_is_a_solver_bug() -> None:
    pos = random_position(4, 2, 2)
    line = _first_line(pos)
    with pytest.raises(SolverBug, match="rules engine"):
        Witness.of(pos, [line[0], line[0]]).verify(pos)
    with pytest.raises(SolverBug, match="stops before"):
        Witness.of(pos, line[:1]).verify(pos)


def test_assumed_hands_must_fit_the_unknown_pool() -> None:
    full = random_position(3, 4, 1)
    hidden = full.hide([1])
    hands = (None, full.seats[1].hand, None)
    assert fill_hands(hidden, hands).seats[1].hand == full.seats[1].hand
    with pytest.raises(SolverBug):  # a known hand may not be changed
        fill_hands(hidden, (full.seats[2].hand, None, None))
    with pytest.raises(SolverBug):  # wrong size
        fill_hands(hidden, (None, (1,), None))
    pool = hidden.unknown_pool()
    absent = next(n for n in range(1, 7) if pool[n] == 0)  # a card the pool does not have
    impossible = (absent,) * full.seats[1].hand_size
    with pytest.raises(SolverBug, match="unseen"):
        fill_hands(hidden, (None, impossible, None))
