"""Solving the round model: deterministic parameters, solution extraction into plays (and the
chosen deal), and an independent replay of every extracted line through the rules engine.

>>> from catbox.solver.generate import random_position
>>> pos = random_position(4, seed=2, tricks_left=3)
>>> res = solve_possible(pos, 0, "round", deadline=None)
>>> res.feasible is not None and (res.witness is None or res.witness.verify(pos).finished)
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..answers import Witness
from ..cards import Colour, Play
from ..errors import SolverBug
from ..position import Position
from .model import Mode, RoundModel, build

__all__ = ["Outcome", "extract", "solve_possible", "solve_tricks"]


@dataclass(frozen=True, slots=True)
class Outcome:
    feasible: bool | None  # None: the time limit was hit first
    witness: Witness | None


def _solver(deadline: float | None, workers: int, seed: int) -> Any:
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    prm = solver.parameters
    prm.random_seed = seed
    # deterministic: one worker, or several interleaved (the same answer and line every run)
    prm.num_workers = workers if workers > 0 else 1
    if prm.num_workers > 1:
        prm.interleave_search = True
    if deadline is not None:
        prm.max_time_in_seconds = max(0.01, deadline - time.monotonic())
    return solver


def extract(rm: RoundModel, value: Any) -> Witness:
    """The line (and deal) of a solution; ``value`` maps a variable to its value."""
    pos = rm.pos
    p = pos.players
    by_seat_trick: dict[tuple[int, int], Play] = {}
    for (s, t, n, c), v in rm.x.items():
        if value(v):
            by_seat_trick[s, t] = Play(n, Colour(c))
    line: list[Play] = []
    for t in range(rm.tricks_left):
        leader = next(s for s in range(p) if value(rm.lead[t, s]))
        for k in range(p):
            if not value(rm.done[t, k]) or (t == 0 and k < len(pos.trick)):
                continue
            line.append(by_seat_trick[(leader + k) % p, t])
    hands: list[tuple[int, ...] | None] = []
    for s, st in enumerate(pos.seats):
        if st.hand is not None:
            hands.append(None)
        else:
            cards: list[int] = []
            for n in rm.numbers[s]:
                cards += [n] * int(value(rm.deal[s, n]))
            hands.append(tuple(sorted(cards)))
    if all(h is None for h in hands):
        return Witness.of(pos, line)
    return Witness(tuple(hands), tuple(line))


def _replay(pos: Position, w: Witness) -> Witness:
    """Independent check: the extracted line must replay through the rules engine."""
    try:
        w.verify(pos)
    except SolverBug as e:
        raise SolverBug(f"cp-sat: {e}") from e
    return w


def solve_possible(
    pos: Position, seat: int, mode: Mode, *, deadline: float | None, workers: int = 0, seed: int = 0
) -> Outcome:
    """Is there a continuation (and deal) with no paradox at all (``round``) or none by
    ``seat`` (``avoid``)? A feasible answer carries its replayed witness."""
    from ortools.sat.python import cp_model

    rm = build(pos, seat, mode)
    solver = _solver(deadline, workers, seed)
    status = solver.solve(rm.model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Outcome(True, _replay(pos, extract(rm, solver.value)))
    if status == cp_model.INFEASIBLE:
        return Outcome(False, None)
    if status == cp_model.MODEL_INVALID:
        raise SolverBug(f"cp-sat model invalid: {rm.model.validate()}")
    return Outcome(None, None)


def solve_tricks(
    pos: Position, seat: int, *, deadline: float | None, workers: int = 0, seed: int = 0
) -> tuple[dict[int, Witness], set[int]]:
    """Every final trick count of ``seat`` without its paradox: one model, solved repeatedly
    with each count found so far excluded ("find a new k"). Returns the witnesses found and the
    counts left undecided by the time limit."""
    from ortools.sat.python import cp_model

    rm = build(pos, seat, "tricks")
    now = pos.seats[seat].tricks
    found: dict[int, Witness] = {}
    while True:
        solver = _solver(deadline, workers, seed)
        status = solver.solve(rm.model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            k = int(solver.value(rm.tricks))
            if k in found:
                raise SolverBug(f"cp-sat found the excluded trick count {k} again")
            found[k] = _replay(pos, extract(rm, solver.value))
            rm.model.add(rm.tricks != k)
            continue
        if status == cp_model.INFEASIBLE:
            return found, set()
        if status == cp_model.MODEL_INVALID:
            raise SolverBug(f"cp-sat model invalid: {rm.model.validate()}")
        rest = set(range(now, now + rm.tricks_left + 1)) - set(found)
        return found, rest
