"""Checking and grading puzzles: the linter behind ``catbox puzzles check``.

A puzzle is **sound** when the solver proves its stated answer, and a solvable puzzle has exactly
one *key* (:mod:`.solve`: a first play of the goal's seat S that keeps the goal). Everything else
the check finds is a warning: *duals* (a later play of S along the line where more than one play
keeps the goal), *trivial choices* (fewer than 4 legal plays at the key, or the natural play
already works), no stated answer, or a stated difficulty other than the grade.

**The natural play** is the obvious move of a club player who does not read ahead:

- **trick goals** (``make-*``, ``max-score``): the seat first decides whether it *wants* this
  trick (``make-at-least``: yes; ``make-at-most``: no; ``make-exactly`` and ``max-score``: yes
  while its tricks are below the target, resp. its prediction, or 4 at 2 players (Sc2)). Then,
  among its legal plays, it prefers (1) a play that keeps every permission (leading, or following
  the led colour: F2), (2) a play that does what it wants as the trick stands (wins it so far /
  does not win it so far; a lead always "wins so far"), (3) the highest number when it wants the
  trick, the lowest when it does not, and finally (4) the colour: red first when it wants the
  trick, red last when it does not, else blue, yellow, green.
- **paradox goals** (``avoid-paradox``, ``paradox-free-round``): the play that leaves the seat
  the most usable cells (empty, in a colour it still holds) for the *distinct numbers* still in
  its hand; ties go to the number it holds most copies of (shed the duplicates), then to play
  order (number, then R, B, Y, G).

A *plausible* play is one the same one-ply reading accepts: for trick goals, every play that
keeps every permission and does what the seat wants with the trick as it stands (both of (1) and
(2) above, like the natural play); for paradox goals, every play that leaves at least the
natural play's usable cells less one.

**The grade** (difficulty 1 to 5; levels easy 1-2, medium 3, hard 4-5) is 1 plus one point per
reason, at most 5:

- *choice*: 6 or more legal plays at the key (+1), 9 or more (+2);
- *temptation*: 2 or more plausible plays that fail (+1; the natural play itself counts), 4 or
  more (+2); when the goal cannot be met, the plausible plays count as 2 at most (+1 at most);
- *depth*: 3 or more tricks left to read (+1), 4 or more (+2);
- *effort*: the game-tree search needs 5,000 nodes or more to settle S's forced answers from the
  position, on fresh tables, summed over the deals of any unknown hands (+1);
- *hidden cards*: some hand is unknown, so the reader reasons over deals (+1).

A non-trivial puzzle (4 or more legal plays, the natural play fails) with 2 tricks left starts
at 1: easy; most 3-trick puzzles with a real choice are medium; hard ones add breadth, more
tempting plays, depth or search effort.

The grade is deterministic: plays, the line and the node count do not depend on time.

>>> from .deal import random_position
>>> from .puzzle import Goal
>>> pos = random_position(3, seed=2, tricks_left=1)
>>> str(natural_play(pos, Goal(pos.to_play, "make-at-most", 0, "guaranteed")))
'4Y'
>>> grade_of(legal=9, failing=2, tricks_left=3, effort=5000, hidden=False).difficulty
5
>>> grade_of(legal=3, failing=0, tricks_left=1, effort=10, hidden=False).level
'easy'
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .answers import PROVEN, UNKNOWN
from .board import EMPTY, cell_index
from .cards import Colour, Play
from .limits import Limits
from .position import Position
from .puzzle import Goal, Puzzle
from .rules import trick_winner
from .scoring import TWO_PLAYER_BONUS_MAX
from .solve import Solution, solve

if TYPE_CHECKING:
    from .search import Session

__all__ = [
    "LEVELS",
    "PARADOX_KINDS",
    "Grade",
    "Level",
    "Problem",
    "PuzzleCheck",
    "check",
    "grade_of",
    "level_of",
    "natural_play",
    "plausible_plays",
    "search_effort",
    "wants_trick",
]

PARADOX_KINDS = frozenset({"avoid-paradox", "paradox-free-round"})
Level = Literal["easy", "medium", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")

#: A trivial choice: fewer legal plays than this at the key.
MIN_PLAYS = 4
#: Nodes of the forced search from which reading the position counts as effort.
EFFORT_NODES = 5_000


# ----------------------------------------------------------------------------- natural play
def wants_trick(pos: Position, goal: Goal) -> bool:
    """Does the seat, naively, want to win the current trick for this goal?"""
    tricks = pos.seats[goal.seat].tricks
    if goal.kind == "make-at-least":
        return True
    if goal.kind == "make-at-most":
        return False
    if goal.kind == "make-exactly":
        return goal.target is not None and tricks < goal.target
    if goal.kind == "max-score":
        if pos.players == 2:
            return tricks < TWO_PLAYER_BONUS_MAX
        pred = pos.seats[goal.seat].prediction
        return pred is None or tricks < pred
    return False


def _usable_cells(pos: Position, seat: int, play: Play) -> int:
    """Usable cells left for the distinct numbers of the seat's hand after ``play``."""
    s = pos.seats[seat]
    assert s.hand is not None
    rest = list(s.hand)
    rest.remove(play.number)
    colours = s.colours
    if pos.trick and play.colour != pos.trick[0].colour:
        colours &= ~pos.trick[0].colour.bit  # F2
    n = pos.max_number
    board = list(pos.board)
    board[cell_index(play.colour, play.number, n)] = seat
    return sum(
        1
        for number in set(rest)
        for c in Colour
        if colours & c.bit and board[cell_index(c, number, n)] == EMPTY
    )


def _ranking(pos: Position, goal: Goal) -> Callable[[Play], tuple[int, ...]] | None:
    """The natural play's preference (higher is better) for the seat to play, or None."""
    seat = pos.to_play
    if seat is None or seat != goal.seat or pos.seats[seat].hand is None:
        return None
    plays = pos.legal_plays()
    hand = Counter(pos.seats[seat].hand or ())
    if goal.kind in PARADOX_KINDS:
        return lambda p: (_usable_cells(pos, seat, p), hand[p.number], -plays.index(p))
    want = wants_trick(pos, goal)
    led = pos.led

    def key(p: Play) -> tuple[int, ...]:
        keeps = led is None or p.colour == led
        wins = led is None or trick_winner((*pos.trick, p)) == len(pos.trick)
        colour_rank = -int(p.colour) if want or p.colour != Colour.R else -9
        return (int(keeps), int(wins == want), p.number if want else -p.number, colour_rank)

    return key


def natural_play(pos: Position, goal: Goal) -> Play | None:
    """The obvious play for the seat to play (see the module docstring); None if the goal's seat
    is not the one to play, its hand is unknown, or it has no legal play."""
    rank = _ranking(pos, goal)
    plays = pos.legal_plays()
    if rank is None or not plays:
        return None
    return max(plays, key=rank)


def plausible_plays(pos: Position, goal: Goal) -> tuple[Play, ...]:
    """The plays the one-ply reading accepts (module docstring), the natural play first."""
    rank = _ranking(pos, goal)
    plays = pos.legal_plays()
    if rank is None or not plays:
        return ()
    best = max(plays, key=rank)
    top = rank(best)
    if goal.kind in PARADOX_KINDS:
        ok = [p for p in plays if rank(p)[0] >= top[0] - 1]
    else:
        ok = [p for p in plays if rank(p)[:2] == top[:2]]
    return (best, *(p for p in ok if p != best))


# ----------------------------------------------------------------------------- grade
@dataclass(frozen=True, slots=True)
class Grade:
    """A difficulty (1 easy .. 5), its level and the reasons: (reason, points) pairs."""

    difficulty: int
    level: Level
    reasons: tuple[tuple[str, int], ...]


def level_of(difficulty: int) -> Level:
    """easy 1-2, medium 3, hard 4-5."""
    return "easy" if difficulty <= 2 else "medium" if difficulty == 3 else "hard"


def grade_of(*, legal: int, failing: int, tricks_left: int, effort: int, hidden: bool) -> Grade:
    """The grade rule of the module docstring."""
    reasons: list[tuple[str, int]] = []
    choice = (legal >= 6) + (legal >= 9)
    reasons.append((f"{legal} legal plays at the key", choice))
    tempt = (failing >= 2) + (failing >= 4)
    plural = "s that fail" if failing != 1 else " that fails"
    reasons.append((f"{failing} plausible play{plural}", tempt))
    depth = (tricks_left >= 3) + (tricks_left >= 4)
    reasons.append((f"{tricks_left} trick{'s' if tricks_left != 1 else ''} to read", depth))
    reasons.append((f"{effort} search nodes", int(effort >= EFFORT_NODES)))
    if hidden:
        reasons.append(("hidden hands", 1))
    d = max(1, min(5, 1 + sum(p for _, p in reasons)))
    return Grade(d, level_of(d), tuple(reasons))


def search_effort(pos: Position, seat: int, *, limits: Limits | None = None) -> int | None:
    """Nodes the game-tree search visits to settle every forced answer of ``seat`` from
    ``pos`` on fresh tables (summed over the deals of unknown hands); None when a limit ran
    out (over sampled deals: the nodes of the sample, deterministic for the seed)."""
    from .forcing import forced_report
    from .search import Session

    fr = forced_report(pos, seat, limits=limits, session=Session())  # fresh tables
    return None if fr.status == UNKNOWN else fr.nodes


# ----------------------------------------------------------------------------- check
Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One finding of the check: an ``error`` makes the puzzle unsound."""

    severity: Severity
    code: str  # unproven, wrong-answer, cooked, unchecked, dual, few-plays, natural-works, ...
    message: str


@dataclass(frozen=True, slots=True)
class PuzzleCheck:
    """What :func:`check` found about one puzzle."""

    puzzle: Puzzle
    solution: Solution
    legal: tuple[Play, ...]
    natural: Play | None
    plausible_failing: tuple[Play, ...]
    effort: int | None
    grade: Grade | None
    problems: tuple[Problem, ...]
    seconds: float

    @property
    def sound(self) -> bool:
        """No error: proven, the stated answer holds, one key (none when unsolvable)."""
        return not any(p.severity == "error" for p in self.problems)

    @property
    def keys(self) -> tuple[Play, ...] | None:
        return self.solution.keys


def check(
    puzzle: Puzzle, *, limits: Limits | None = None, session: Session | None = None
) -> PuzzleCheck:
    """Solve the puzzle with every key and dual, then grade it (module docstring)."""
    t0 = time.monotonic()
    lim = Limits.of(limits).start()
    pos, goal = puzzle.position, puzzle.goal
    sol = solve(puzzle, limits=lim, session=session)
    legal = tuple(pos.legal_plays())
    natural = natural_play(pos, goal)
    problems: list[Problem] = []

    def add(severity: Severity, code: str, message: str) -> None:
        problems.append(Problem(severity, code, message))

    keys = sol.keys
    if pos.to_play != goal.seat:
        add("error", "unchecked", "the goal's seat is not the seat to play: no key to check")
    elif sol.status != PROVEN or sol.solvable is None:
        add("error", "unproven", f"the solver could not prove the answer ({sol.status})")
    elif keys is None:
        add("error", "unproven", sol.note or "the keys could not be settled")
    if puzzle.answer is None:
        add("warning", "no-answer", "the puzzle states no answer")
    elif sol.matches_answer is False:
        add("error", "wrong-answer", sol.note or "the stated answer is wrong")
    if keys is not None and len(keys) > 1:
        add("error", "cooked", f"cooked: {len(keys)} keys ({' '.join(map(str, keys))})")
    line = sol.checked_line or ()
    for d in sol.duals:
        add(
            "warning",
            "dual",
            f"dual at play {d.at + 1} ({line[d.at]}): "
            f"{' '.join(map(str, d.plays))} all keep the goal",
        )
    if len(legal) < MIN_PLAYS:
        add("warning", "few-plays", f"only {len(legal)} legal plays at the key")
    if sol.solvable and keys and natural is not None and natural in keys:
        add("warning", "natural-works", f"the natural play {natural} already works")
    failing: tuple[Play, ...] = ()
    effort = None
    grade = None
    if keys is not None:
        failing = tuple(p for p in plausible_plays(pos, goal) if p not in keys)
        tempting = len(failing) if keys else min(2, len(failing))
        if goal.seat < pos.players:
            effort = search_effort(pos, goal.seat, limits=lim)
        if effort is not None:
            grade = grade_of(
                legal=len(legal),
                failing=tempting,
                tricks_left=pos.tricks_left,
                effort=effort,
                hidden=not pos.all_hands_known,
            )
            if grade.difficulty != puzzle.difficulty:
                add(
                    "warning",
                    "difficulty",
                    f"stated difficulty {puzzle.difficulty}, graded {grade.difficulty}",
                )
    return PuzzleCheck(
        puzzle,
        sol,
        legal,
        natural,
        failing,
        effort,
        grade,
        tuple(problems),
        time.monotonic() - t0,
    )
