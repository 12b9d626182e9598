"""One way to bound a job: ``Limits``. A work budget (search nodes, CP-SAT deterministic
time) cuts answers the same way on every run, and a cut answer is never a guess; ``within``
caps a part inside the whole deadline."""

from __future__ import annotations

from catbox.solver.deal import random_position
from catbox.solver.limits import Limits, now
from catbox.solver.possible import tricks_possible


def test_a_cpsat_work_budget_is_reproducible_and_never_a_guess() -> None:
    pos = random_position(4, 21, 6)
    seat = pos.to_play
    assert seat is not None
    full = tricks_possible(pos, seat, method="cp-sat")
    assert full.status == "proven"
    cut = Limits(work_limit=0.01)
    assert cut.reproducible
    runs = [tricks_possible(pos, seat, method="cp-sat", limits=cut) for _ in range(2)]
    assert runs[0] == runs[1]  # the same cut answer on every run
    got = runs[0]
    assert set(got.possible) <= set(full.possible)  # what it found is real
    assert set(full.possible) <= set(got.possible) | set(got.undecided)  # the rest is open
    assert got.status == "unknown" and got.undecided  # this budget does cut it


def test_within_caps_a_part_inside_the_whole_deadline() -> None:
    whole = Limits(100.0).start()
    part = whole.within(1.0)
    assert part.deadline is not None and whole.deadline is not None
    assert part.deadline <= now() + 1.0 and part.deadline < whole.deadline
    assert not Limits().within(1.0).reproducible
    short = Limits(0.5).start()
    assert short.within(10.0).deadline == short.deadline
