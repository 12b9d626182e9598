"""How hard to try: one frozen :class:`Limits` object carried by every question.

``time_limit`` is a wall-clock promise for the whole question (``--time-limit`` of every
command): :meth:`Limits.start` turns it into an absolute deadline once, and every loop, search
and CP-SAT call below checks that same deadline, so nested calls never restart the clock.
``None`` means no limit at all (not a default of some seconds). A limit never turns into a yes
or a no (analysis.md, "Honesty of answers"): what is not proven in time is ``unknown`` with
the proven bounds.

>>> lim = Limits(None)
>>> lim.start().left() is None and not lim.start().expired()
True
>>> Limits(0.0).start().expired()
True
>>> part = Limits(10.0).start().share(0.5)
>>> 4.0 < (part.left() or 0) <= 5.0
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

__all__ = ["Limits", "OutOfTime"]


class OutOfTime(Exception):
    """Raised inside a solver loop when the deadline of its :class:`Limits` has passed."""


@dataclass(frozen=True, slots=True)
class Limits:
    """A wall-clock budget (seconds, None: no limit), an optional node budget for the
    game-tree search, CP-SAT workers (0: choose) and the solver seed. ``deadline`` (a
    ``time.monotonic()`` instant) is set by :meth:`start`."""

    time_limit: float | None = 60.0
    node_limit: int | None = None
    workers: int = 0
    seed: int = 0
    deadline: float | None = None

    def start(self) -> Limits:
        """The same limits with the clock running (idempotent: a started clock is kept)."""
        if self.deadline is not None or self.time_limit is None:
            return self
        return replace(self, deadline=time.monotonic() + max(0.0, self.time_limit))

    def left(self) -> float | None:
        """Seconds until the deadline (never negative); None without a limit."""
        if self.deadline is None:
            return None if self.time_limit is None else max(0.0, self.time_limit)
        return max(0.0, self.deadline - time.monotonic())

    def expired(self) -> bool:
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
        return replace(lim, deadline=time.monotonic() + left * fraction)

    def seconds(self, floor: float = 0.0) -> float | None:
        """Time left for a solver that wants a relative limit (at least ``floor``)."""
        left = self.left()
        return None if left is None else max(floor, left)
