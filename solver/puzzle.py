"""Puzzles: a position plus a question, and for bundled puzzles the proven answer
(formats.md, ``catbox-puzzle/1``).

A :class:`Goal` names the seat, the kind of question, its target (for the ``make-*`` kinds) and
the mode: ``guaranteed`` (against any play of the other seats) or ``possible`` (some line
exists). Values are checked on construction; a mistake is a :class:`~.errors.FormatError` whose
``where`` names the key (``goal.kind``, ``difficulty`` …) and whose ``rule`` is ``goal`` or
``puzzle``.

>>> g = Goal(seat=0, kind="make-exactly", target=3, mode="guaranteed")
>>> g.needs_target, g.describe()
(True, 'A makes exactly 3 tricks (guaranteed)')
>>> Goal(0, "make-it-so", None, "possible")
Traceback (most recent call last):
...
catbox.solver.errors.FormatError: goal.kind: unknown goal kind 'make-it-so'; known kinds: \
avoid-paradox, paradox-free-round, make-exactly, make-at-least, make-at-most, max-score [rule goal]
>>> Goal(1, "max-score", None, "possible").describe()
'B reaches the best round score it can (possible)'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Play, seat_letter
from .errors import FormatError
from .goals import GOAL_KINDS, GOAL_MODES, TARGET_KINDS, GoalKind, GoalMode
from .position import Position

__all__ = [
    "GOAL_KINDS",
    "GOAL_MODES",
    "TARGET_KINDS",
    "Goal",
    "GoalKind",
    "GoalMode",
    "Puzzle",
    "PuzzleAnswer",
]

#: Kinds that allow only one mode.
_ONLY_MODE: dict[str, str] = {"paradox-free-round": "possible"}

_WORDS = {
    "avoid-paradox": "{s} never causes a paradox",
    "paradox-free-round": "nobody causes a paradox",
    "make-exactly": "{s} makes exactly {t} tricks",
    "make-at-least": "{s} makes at least {t} tricks",
    "make-at-most": "{s} makes at most {t} tricks",
    "max-score": "{s} reaches the best round score it can",
}


def _err(message: str, where: str, rule: str = "goal") -> FormatError:
    return FormatError(message, rule=rule, where=where)


@dataclass(frozen=True, slots=True)
class Goal:
    """The question of a puzzle, asked about ``seat`` (an index 0..players-1)."""

    seat: int
    kind: str  # one of GOAL_KINDS (a GoalKind), checked here: callers pass file text
    target: int | None
    mode: GoalMode

    def __post_init__(self) -> None:
        if self.kind not in GOAL_KINDS:
            raise _err(
                f"unknown goal kind {self.kind!r}; known kinds: {', '.join(GOAL_KINDS)}",
                "goal.kind",
            )
        if self.mode not in GOAL_MODES:
            raise _err(
                f"unknown mode {self.mode!r}; expected {' or '.join(GOAL_MODES)}", "goal.mode"
            )
        only = _ONLY_MODE.get(self.kind)
        if only is not None and self.mode != only:
            raise _err(f"goal kind {self.kind} takes mode {only!r} only", "goal.mode")
        if self.kind in TARGET_KINDS:
            if self.target is None:
                raise _err(f"goal kind {self.kind} needs a target (a trick count)", "goal.target")
            if isinstance(self.target, bool) or not isinstance(self.target, int):
                raise _err("target must be a whole number", "goal.target")
            if self.target < 0:
                raise _err(f"target {self.target} is negative", "goal.target")
        elif self.target is not None:
            raise _err(f"goal kind {self.kind} takes no target", "goal.target")
        if isinstance(self.seat, bool) or not isinstance(self.seat, int) or self.seat < 0:
            raise _err(f"bad seat {self.seat!r}", "goal.seat")

    @property
    def needs_target(self) -> bool:
        return self.kind in TARGET_KINDS

    def describe(self) -> str:
        text = _WORDS[self.kind].format(s=seat_letter(self.seat), t=self.target)
        return f"{text} ({self.mode})"


@dataclass(frozen=True, slots=True)
class PuzzleAnswer:
    """The stated answer: whether the goal can be met, a line (``guaranteed``: a first play that
    works; ``possible``: a full line) and, for ``max-score``, the value. Any part may be
    unknown (None)."""

    solvable: bool | None = None
    line: tuple[Play, ...] | None = None
    value: int | None = None


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position plus a goal. ``name`` is where the puzzle came from (the file stem when read
    from a file); it is not part of the puzzle's content and is ignored by ``==``."""

    title: str
    difficulty: int
    description: str
    position: Position
    goal: Goal
    answer: PuzzleAnswer | None
    name: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.title, str) or not self.title.strip():
            raise _err("a puzzle needs a title", "title", "puzzle")
        if not isinstance(self.description, str):
            raise _err("description must be text", "description", "puzzle")
        if (
            isinstance(self.difficulty, bool)
            or not isinstance(self.difficulty, int)
            or not 1 <= self.difficulty <= 5
        ):
            raise _err(
                f"difficulty must be 1 (easy) to 5, not {self.difficulty!r}", "difficulty", "puzzle"
            )
        players = self.position.players
        if self.goal.seat >= players:
            raise _err(
                f"seat {seat_letter(self.goal.seat) if self.goal.seat < 5 else self.goal.seat} "
                f"does not exist at {players} players",
                "goal.seat",
            )
        tricks = self.position.variant.tricks
        if self.goal.target is not None and self.goal.target > tricks:
            raise _err(
                f"target {self.goal.target} is more than the {tricks} tricks of a round",
                "goal.target",
            )
        a = self.answer
        if a is not None and a.value is not None and self.goal.kind != "max-score":
            raise _err("answer.value is given only for goal kind max-score", "answer.value")

    def _repr_svg_(self) -> str:
        """The puzzle's position as an SVG picture, titled (:func:`.svg.puzzle`)."""
        from .svg import puzzle

        return puzzle(self)
