"""The goal vocabulary, defined once (formats.md "goal", analysis.md): what a puzzle asks, and
how each solver names the same question. A low module: it imports nothing of catbox.

- :data:`GoalKind` — a puzzle's goal kind (``puzzle.Goal.kind``), :data:`GoalMode` its mode.
- :data:`ForcedKind` — a goal the game-tree search can force (``search.Target.kind``; the
  compiled search package keeps its own copy of the literal, asserted equal to this one in
  ``tests/test_goals.py``); :data:`FORCED_KIND` maps puzzle kinds onto it.
- :data:`Question` — a cooperative question ("is there some line…"): avoid a paradox for S,
  a paradox-free round, S makes exactly k tricks. ``possible`` takes it as it is and
  ``cpsat.Mode`` is this literal.

>>> FORCED_KIND["make-at-least"]
'at-least'
>>> "max-score" in TARGET_KINDS
False
"""

from __future__ import annotations

from typing import Literal, get_args

__all__ = [
    "FORCED_KIND",
    "GOAL_KINDS",
    "GOAL_MODES",
    "TARGET_KINDS",
    "ForcedKind",
    "GoalKind",
    "GoalMode",
    "Question",
]

#: Every goal kind of formats.md, in the order documented there.
GoalKind = Literal[
    "avoid-paradox",
    "paradox-free-round",
    "make-exactly",
    "make-at-least",
    "make-at-most",
    "max-score",
]
GOAL_KINDS: tuple[GoalKind, ...] = get_args(GoalKind)
#: Kinds that need a ``target`` (a trick count); every other kind forbids one.
TARGET_KINDS: frozenset[GoalKind] = frozenset({"make-exactly", "make-at-least", "make-at-most"})

GoalMode = Literal["guaranteed", "possible"]
GOAL_MODES: tuple[GoalMode, ...] = get_args(GoalMode)

#: A goal the game-tree search can force (``search.Target.kind``).
ForcedKind = Literal["avoid-paradox", "exactly", "at-least", "at-most"]
#: Puzzle goal kinds the game-tree search forces directly, and its name for each.
FORCED_KIND: dict[str, ForcedKind] = {
    "avoid-paradox": "avoid-paradox",
    "make-exactly": "exactly",
    "make-at-least": "at-least",
    "make-at-most": "at-most",
}

#: A cooperative question: S avoids a paradox, nobody does, S makes exactly k tricks.
Question = Literal["avoid", "round", "tricks"]
