"""Solving the round model: deterministic parameters, solution extraction into plays (and the
chosen deal), and an independent replay of every extracted line through the rules engine.

>>> from catbox.solver.deal import random_position
>>> pos = random_position(4, seed=2, tricks_left=3)
>>> res = solve_possible(pos, 0, "round")
>>> res.feasible is not None and (res.witness is None or res.witness.verify(pos).finished)
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from ..answers import Witness
from ..cards import Colour, Play
from ..errors import SolverBug
from ..limits import Limits
from ..position import Position
from .model import Mode, RoundModel, build

__all__ = ["Feasibility", "extract", "solve_possible", "solve_rows", "solve_tricks"]


@dataclass(frozen=True, slots=True)
class Feasibility:
    feasible: bool | None  # None: the time limit was hit first
    witness: Witness | None


# Two deterministic stages, tuned on bench/bench_possible.py. Witnesses are found fastest by pure
# propagation and clause learning (no LP relaxation, no probing, no symmetry detection); the
# "no such line" proofs about trick winners (W1) are found orders of magnitude faster with the full
# LP relaxation. Stage 1 stops at a deterministic work limit, so runs stay reproducible.
FAST: dict[str, Any] = {
    "linearization_level": 0,
    "cp_model_probing_level": 0,
    "symmetry_level": 0,
}
PROOF: dict[str, Any] = {
    "linearization_level": 2,
    "cp_model_probing_level": 0,
    "symmetry_level": 0,
}
# CP-SAT's defaults (probing, symmetry, LP level 1) settle some proofs neither stage finds.
DEFAULT: dict[str, Any] = {}
STAGES = (FAST, PROOF, DEFAULT)
FAST_DTIME = 0.5  # deterministic seconds of each stage in the first round
# The trick-set runs (solve_tricks) end with an infeasibility proof that no further count
# exists. At the full 4-player deal the hardest (bench seed 1008: "the seat cannot win 7 of 8")
# falls to the defaults in ~3.5 deterministic seconds and to neither other stage in 50; 5-player
# proofs often fall to the LP stage just above 0.5. So there the LP stage gets 2x and the
# defaults 8x the fast stage's work (bench_analyze.py trick set: seed 1008 24.8 s -> 6.0 s,
# no seed of 1000-1029 at 4 or 1000-1009 at 5 players slower).
EVEN = (1.0, 1.0, 1.0)
TRICKS_WEIGHTS = (1.0, 2.0, 8.0)
# At 3 and 4 players (where the model carries the I2 facts, model._add_facts) the trick set's
# final proofs at a full deal fall to the defaults (probing) and to the LP stage rarely, which
# also runs ~5x slower per deterministic second there: the defaults come second. Measured
# (bench_native.py --only possible and seeds 1000-1029, CPU seconds): 4p seed 1008 11.3 ->
# 7.9, seed 807 10.2 -> 4.8, seed 1022 6.1 -> 4.0; 3p full deals unchanged (<= 1 s).
DEFAULT_FIRST = (FAST, DEFAULT, PROOF)
DEFAULT_FIRST_WEIGHTS = (1.0, 8.0, 2.0)


def _solver(lim: Limits, params: dict[str, Any], dtime: float) -> Any:
    """A CP-SAT solver for one stage: the boundary where :class:`..limits.Limits` becomes
    CP-SAT's parameters (seconds left, deterministic work, workers, seed)."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    prm = solver.parameters
    prm.random_seed = lim.seed
    for key, val in params.items():
        setattr(prm, key, val)
    # deterministic: one worker, or several interleaved (the same answer and line every run)
    prm.num_workers = lim.workers if lim.workers > 0 else 1
    if prm.num_workers > 1:
        prm.interleave_search = True
    left = lim.seconds()
    if left is not None:
        prm.max_time_in_seconds = max(0.01, left)
    prm.max_deterministic_time = dtime
    return solver


def _run(
    model: Any,
    lim: Limits,
    callback: Any = None,
    weights: tuple[float, ...] = EVEN,
    stages: tuple[dict[str, Any], ...] = STAGES,
) -> tuple[Any, int]:
    """Solve by cycling the stages (fast search, LP proof, defaults) with deterministic work
    limits doubling every round (0.5, 1, 2, ... deterministic seconds) until one settles the
    question, the deadline passes or the work limit (``lim.work_limit`` deterministic seconds
    in all) is spent; returns (solver, status). ``weights`` scale each stage's work limit.
    Deterministic for a given input (the wall-clock limit only ever turns an answer into
    "unknown"; the work limit does so reproducibly). ``stages``: the cycle's order."""
    from ortools.sat.python import cp_model

    dtime = FAST_DTIME
    stage = 0
    spent = 0.0
    while True:
        i = stage % len(stages)
        work = dtime * weights[i]
        if lim.work_limit is not None:
            work = max(0.0, min(work, lim.work_limit - spent))
        solver = _solver(lim, stages[i], work)
        status = solver.solve(model, callback)
        spent += work
        if status != cp_model.UNKNOWN:
            return solver, status
        if lim.expired() or (lim.work_limit is not None and spent >= lim.work_limit):
            return solver, status
        stage += 1
        if stage % len(stages) == 0:
            dtime *= 2


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
    pos: Position, seat: int, mode: Mode, *, limits: Limits | None = None
) -> Feasibility:
    """Is there a continuation (and deal) with no paradox at all (``round``) or none by
    ``seat`` (``avoid``)? A feasible answer carries its replayed witness."""
    from ortools.sat.python import cp_model

    rm = build(pos, seat, mode)
    solver, status = _run(rm.model, Limits.of(limits))
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Feasibility(True, _replay(pos, extract(rm, solver.value)))
    if status == cp_model.INFEASIBLE:
        return Feasibility(False, None)
    if status == cp_model.MODEL_INVALID:
        raise SolverBug(f"cp-sat model invalid: {rm.model.validate()}")
    return Feasibility(None, None)


H = TypeVar("H")


def _alternating(
    rm: RoundModel,
    lim: Limits,
    harvest: Callable[[], H],
    weights: tuple[float, ...] = EVEN,
    stages: tuple[dict[str, Any], ...] = STAGES,
    plain: Callable[[], bool] | None = None,
) -> Iterator[tuple[H, int]]:
    """Solve ``rm``'s model again and again, maximising and minimising the trick count in turn,
    with a fresh solution callback from ``harvest`` each time; yields (callback, status). The
    caller excludes what each run found and stops. Alternating pays: the extreme counts are
    the ones a plain search finds last (bench/bench_possible.py: the worst full-deal trick set
    dropped from tens of seconds to a few). A run after the first for which ``plain()`` is
    true has no objective (any further count)."""
    from ortools.sat.python import cp_model

    m = rm.model
    turn = 0
    while True:
        if turn > 0 and plain is not None and plain():
            m.clear_objective()  # type: ignore[no-untyped-call]
        elif turn % 2 == 0:
            m.maximize(rm.tricks)
        else:
            m.minimize(rm.tricks)
        turn += 1
        cb = harvest()
        _, status = _run(m, lim, cb, weights, stages)
        if status == cp_model.MODEL_INVALID:
            raise SolverBug(f"cp-sat model invalid: {m.validate()}")
        yield cb, status


def solve_tricks(
    pos: Position,
    seat: int,
    *,
    limits: Limits | None = None,
    exclude: set[int] | None = None,
    cap: int | None = None,
) -> tuple[dict[int, Witness], set[int]]:
    """Every final trick count of ``seat`` without its paradox: one model, solved repeatedly
    with each count found so far excluded ("find a new k"). Returns the witnesses found and the
    counts left undecided by the time limit. ``exclude``: counts already witnessed; ``cap``:
    counts above it are proven impossible already (``matching.trick_cap``)."""
    from ortools.sat.python import cp_model

    rm = build(pos, seat, "tricks")
    now = pos.seats[seat].tricks
    found: dict[int, Witness] = {}
    done = set(exclude or ())
    every = set(range(now, now + rm.tricks_left + 1))
    if cap is not None:
        every = {k for k in every if k <= cap}
    if every <= done:
        return found, set()
    if done or cap is not None:
        rm.model.add_linear_expression_in_domain(
            rm.tricks, cp_model.Domain.from_values(sorted(every - done))
        )
    m = rm.model

    class Harvest(cp_model.CpSolverSolutionCallback):
        """Every improving solution of an optimisation run is a new count."""

        def __init__(self) -> None:
            super().__init__()
            self.found: dict[int, Witness] = {}

        def on_solution_callback(self) -> None:
            k = int(self.value(rm.tricks))
            if k not in self.found:
                self.found[k] = extract(rm, self.value)

    def top_left() -> bool:
        """Only counts above every count found are left (after the first, maximising run):
        what remains is most often the proof that S cannot win (nearly) every trick, cheaper
        with no objective (full 4p deals, CPU seconds: seed 807 4.3 -> 2.1, 1008 8.9 -> 7.7;
        from the first run on, seeds whose top counts are reachable lost up to 7 s). Off at
        5 players, where it cost (full deal seed 1002: 4.4 -> 19 s CPU)."""
        rest = every - set(found) - done
        return bool(rest) and min(rest) > max(set(found) | done, default=now - 1)

    lim = Limits.of(limits)
    if pos.players in (3, 4):
        order = _alternating(rm, lim, Harvest, DEFAULT_FIRST_WEIGHTS, DEFAULT_FIRST, top_left)
    else:
        order = _alternating(rm, lim, Harvest, TRICKS_WEIGHTS)
    for cb, status in order:
        for k, w in sorted(cb.found.items()):
            if k in found or k in done:
                raise SolverBug(f"cp-sat found the excluded trick count {k} again")
            found[k] = _replay(pos, w)
            m.add(rm.tricks != k)
        if status == cp_model.INFEASIBLE:
            return found, set()
        if not cb.found:  # the deadline came first
            return found, every - set(found) - done
    raise AssertionError("unreachable: _alternating never ends")  # pragma: no cover


def solve_rows(
    pos: Position,
    plays: list[Play],
    *,
    limits: Limits | None = None,
    exclude: dict[Play, set[int]] | None = None,
) -> tuple[dict[Play, dict[int, Witness]], bool]:
    """The possible final trick counts of the seat to play S after each of ``plays`` (its
    legal plays, or representatives of them), without S's paradox, in ONE model: S's first play
    is a decision variable restricted to ``plays``, each found (play, count) pair is excluded
    by a clause, and a final infeasibility proves that no other pair exists. ``exclude``: pairs
    already witnessed. Returns the new witnesses by play and count, and whether the search was
    completed (False: the deadline came first; the pairs not found are undecided)."""
    from ortools.sat.python import cp_model

    seat = pos.to_play
    if seat is None or not plays:
        return {}, True
    rm = build(pos, seat, "tricks")
    m = rm.model
    lits: dict[Play, Any] = {}
    for p in plays:
        v = rm.x.get((seat, 0, p.number, int(p.colour)))
        if v is None:
            raise SolverBug(f"cp-sat: the legal play {p} is missing from the model")
        lits[p] = v
    chosen = set(lits.values())
    for (s, t, _, _), v in rm.x.items():
        if s == seat and t == 0 and v not in chosen:
            m.add(v == 0)
    m.add_exactly_one(list(lits.values()))
    now = pos.seats[seat].tricks
    ks = range(now, now + rm.tricks_left + 1)
    eq = {k: m.new_bool_var(f"tricks_is_{k}") for k in ks}
    for k, e in eq.items():
        m.add(rm.tricks == k).only_enforce_if(e)
    m.add_exactly_one(list(eq.values()))
    for p, done in (exclude or {}).items():
        for k in done:
            if p in lits and k in eq:
                m.add_bool_or([lits[p].Not(), eq[k].Not()])
    found: dict[Play, dict[int, Witness]] = {}

    class Harvest(cp_model.CpSolverSolutionCallback):
        """Every improving solution of an optimisation run is a new (play, count) pair."""

        def __init__(self) -> None:
            super().__init__()
            self.pairs: dict[tuple[Play, int], Witness] = {}

        def on_solution_callback(self) -> None:
            k = int(self.value(rm.tricks))
            p = next(q for q, v in lits.items() if self.value(v))
            if (p, k) not in self.pairs:
                self.pairs[p, k] = extract(rm, self.value)

    for cb, status in _alternating(rm, Limits.of(limits), Harvest):
        for (p, k), w in sorted(cb.pairs.items(), key=lambda x: (x[0][0], x[0][1])):
            if k in found.get(p, {}):
                raise SolverBug(f"cp-sat found the excluded pair ({p}, {k}) again")
            w = _replay(pos, w)
            if not w.line or w.line[0] != p:
                raise SolverBug(f"cp-sat: the line for {p} starts with another play: {w}")
            found.setdefault(p, {})[k] = w
            m.add_bool_or([lits[p].Not(), eq[k].Not()])
        if status == cp_model.INFEASIBLE:
            return found, True
        if not cb.pairs:  # the deadline came first
            return found, False
    raise AssertionError("unreachable: _alternating never ends")  # pragma: no cover
