"""How hard to try: one frozen :class:`Limits` object carried by every question, one
exception (:class:`OutOfTime`) when a limit runs out, and one clock (:func:`now`).

Every question of the library takes ``limits=None`` (no limit at all) and
``session=None`` as keyword arguments (see :mod:`catbox.solver.search.session`); the
command line owns the defaults (its ``--time-limit``). Inside, the limits are carried as they
are and unpacked only at the two boundaries that need plain numbers: the compiled search core
(nodes and seconds left, :meth:`Limits.seconds`) and CP-SAT (``max_time_in_seconds``,
``max_deterministic_time``, workers and seed).

* ``time_limit`` is a wall-clock promise for the whole question: :meth:`Limits.start` turns
  it into an absolute ``deadline`` once (a command's, :meth:`Limits.start_with_process`, from
  the moment the process started), and every loop, search and CP-SAT call below checks
  that same deadline, so nested calls never restart the clock. A time limit is never
  reproducible: the answer it cuts depends on the machine.
* ``node_limit`` (game-tree nodes per search) and ``work_limit`` (CP-SAT deterministic
  seconds per solve) are work budgets: the same position, limits and seed give the same
  answer on every machine, so a batch runner can give reproducible cut answers by using them
  without a ``time_limit``.
* ``threads`` is how many threads may search the rows of one table at once (the rows of
  :func:`catbox.solver.search.analyze_moves`, each thread with its own engine and table), or
  the plays of one yes/no question (:func:`catbox.solver.search.can_force`, from 5 tricks
  left). No answer depends on it: a proven row or play is exact whichever engine found it, and
  under a ``node_limit`` the search stays in one thread, in order, whatever ``threads`` says.

A limit never turns into a yes or a no (analysis.md, "Honesty of answers"): what is not
proven in time is ``unknown`` with the proven bounds.

>>> lim = Limits()
>>> lim.start().left() is None and not lim.start().expired()
True
>>> Limits(0.0).start().expired()
True
>>> part = Limits(10.0).start().share(0.5)
>>> 4.0 < (part.left() or 0) <= 5.0
True
>>> Limits(node_limit=1000).reproducible, Limits(5.0).reproducible
(True, False)
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace

__all__ = ["FINISH", "Limits", "OutOfTime", "mark_process_start", "now", "process_age"]

#: Seconds a command keeps, of a whole-process time limit, to write its answer and exit after
#: the searches stop (:meth:`Limits.start_with_process`): drawing ``analyze``'s table took
#: 0.2 s on the project's loaded 2-core machine (its JSON, under 0.05 s).
FINISH = 0.2


def now() -> float:
    """The one clock every deadline is read on (``time.monotonic``, seconds)."""
    return time.monotonic()


#: When this process started, on the clock of :func:`now` (None: not marked, a library use).
_process_start: list[float] = []


def mark_process_start() -> None:
    """Mark that this process is one command, whose time limits count from the process's own
    start (:meth:`Limits.start_with_process`): the ``catbox`` entry point calls it first. A
    long-lived process (a notebook, the tests, a server) never does, and its limits count
    from the moment they are started."""
    _process_start[:] = [now() - process_age()]


def process_age() -> float:
    """Seconds since this process started, as the operating system counts them: what the
    interpreter's start-up and the imports already used of a time limit. Read from Linux's
    ``/proc`` (to 1/100 s); 0.0 where that is not available.

    >>> 0.0 <= process_age() < 3600.0
    True
    """
    try:
        with open("/proc/self/stat", "rb") as f:
            stat = f.read()
        with open("/proc/uptime", "rb") as f:
            up = float(f.read().split()[0])
        # fields after the command name in parentheses; starttime is field 22 (ticks since boot)
        ticks = int(stat[stat.rindex(b")") + 2 :].split()[19])
        return max(0.0, up - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


class OutOfTime(Exception):
    """A limit of a :class:`Limits` ran out (the deadline passed, or a node or work budget
    was spent) inside a solver loop. Raised and caught inside the library: a question returns
    ``unknown`` for what the limit left open, it never raises this to its caller."""


@dataclass(frozen=True, slots=True)
class Limits:
    """A wall-clock budget (seconds, None: no limit), a node budget per game-tree search and
    a deterministic-work budget per CP-SAT solve (None: none), CP-SAT workers (0: choose),
    the solver seed and the search threads of a table's rows (1: the calling thread alone).
    ``deadline`` (an instant of :func:`now`) is set by :meth:`start`."""

    time_limit: float | None = None
    node_limit: int | None = None
    work_limit: float | None = None
    workers: int = 0
    seed: int = 0
    deadline: float | None = None
    threads: int = 1

    @classmethod
    def of(cls, limits: Limits | None) -> Limits:
        """``limits`` started, or no limit at all for None (how every question reads its
        ``limits=`` argument)."""
        return (limits or cls()).start()

    @property
    def reproducible(self) -> bool:
        """True when no wall clock can cut an answer (only node and work budgets)."""
        return self.time_limit is None and self.deadline is None

    def start(self) -> Limits:
        """The same limits with the clock running (idempotent: a started clock is kept)."""
        if self.deadline is not None or self.time_limit is None:
            return self
        return replace(self, deadline=now() + max(0.0, self.time_limit))

    def start_with_process(self) -> Limits:
        """The same limits with the clock started when this process started, if it is one
        command (:func:`mark_process_start`: a ``--time-limit`` is for the whole process, as a
        user times it from the shell), else now; less :data:`FINISH` to write the answer.

        >>> lim = Limits(5.0).start_with_process()
        >>> (lim.left() or 0) <= 5.0 - FINISH
        True
        """
        if self.deadline is not None or self.time_limit is None:
            return self
        start = _process_start[0] if _process_start else now()
        return replace(self, deadline=start + max(0.0, self.time_limit - FINISH))

    def left(self) -> float | None:
        """Seconds until the deadline (never negative); None without a limit."""
        if self.deadline is None:
            return None if self.time_limit is None else max(0.0, self.time_limit)
        return max(0.0, self.deadline - now())

    def expired(self) -> bool:
        """True once the deadline has passed."""
        left = self.left()
        return left is not None and left <= 0.0

    def check(self) -> None:
        """Raise :class:`OutOfTime` once the deadline has passed."""
        if self.expired():
            raise OutOfTime

    def share(self, fraction: float) -> Limits:
        """Limits for a part of the work: ``fraction`` of the time left (the whole deadline
        still bounds it)."""
        lim = self.start()
        left = lim.left()
        if left is None:
            return lim
        return replace(lim, deadline=now() + left * fraction)

    def within(self, seconds: float) -> Limits:
        """The same limits, with at most ``seconds`` more from now (a part's own cap inside
        the whole deadline)."""
        lim = self.start()
        end = now() + seconds
        return replace(lim, deadline=end if lim.deadline is None else min(end, lim.deadline))

    def seconds(self, floor: float = 0.0) -> float | None:
        """Time left for a solver that wants a relative limit (at least ``floor``)."""
        left = self.left()
        return None if left is None else max(floor, left)
