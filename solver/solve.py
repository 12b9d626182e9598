"""Solving puzzles (formats.md, ``catbox-puzzle/1``): every goal kind, in both modes, with the
line, every key, and whether the puzzle's stated answer holds.

A stated answer holds when ``solvable`` (and ``value`` for max-score) agree with the solver and
its line checks out: for a *possible* goal the whole line replays and reaches the goal; for a
*guaranteed* goal every play the seat makes in the stated line keeps the goal forceable.

**Keys, cooks and duals** (the chess-problem words). A *key* is a first play of the goal's seat
S (the seat to play) that keeps the goal: for a guaranteed goal, S can still force it after the
play; for a possible goal, a witness line still exists after it; for ``max-score``, the best
value is still reached. A solvable puzzle is *sound* when it has exactly one key, *cooked* when
it has more (an unsolvable one is sound when its stated answer is right). Along the checked line
(the stated line, continued by the solver's line with its best defence), every later play of S
where more than one play keeps the goal is a *dual*: reported, but not a cook.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from .answers import PROVEN, UNKNOWN, Status, Witness, merge_status
from .cards import Play
from .errors import CatboxError, PositionError
from .forcing import ForcedReport, forced_report
from .goals import FORCED_KIND
from .limits import Limits, OutOfTime
from .position import Position
from .puzzle import Goal, Puzzle
from .sampling import deals_of
from .scoring import seat_score

if TYPE_CHECKING:
    from .search import Session, Target

__all__ = [
    "Dual",
    "Solution",
    "forced_goal_holds",
    "goal_reached",
    "keeping_plays",
    "solve",
    "solve_goal",
]

_DFS_NODES = 2_000_000


@dataclass(frozen=True, slots=True)
class Dual:
    """A later play of S along the checked line where more than one play keeps the goal:
    ``at`` is the index of that play in ``line`` (0 is the first play of the line)."""

    at: int
    plays: tuple[Play, ...]


@dataclass(frozen=True, slots=True)
class Solution:
    """A puzzle's goal solved. ``keys``: every first play of S that keeps the goal (empty when
    the goal cannot be met; None when not asked, S is not the seat to play, or a limit stopped
    the check). ``duals`` and ``checked_line``: the line whose later plays of S were checked
    (None when not checked) and the duals found on it."""

    goal: Goal
    solvable: bool | None
    value: int | None  # max-score: the score; otherwise None
    line: tuple[Play, ...] | None
    witness: Witness | None  # possible goals: the full line (+ any assumed deal)
    matches_answer: bool | None  # None: the puzzle states no answer (or status not proven)
    status: Status
    note: str | None = None
    keys: tuple[Play, ...] | None = None
    duals: tuple[Dual, ...] = ()
    checked_line: tuple[Play, ...] | None = None

    @property
    def cooked(self) -> bool | None:
        """More than one key (None: keys not known)."""
        return None if self.keys is None else len(self.keys) > 1

    @property
    def sound(self) -> bool | None:
        """Proven, the stated answer (if any) holds, and at most one key: exactly one when the
        goal can be met. None when that is not known (a limit, or keys not asked)."""
        if self.status != PROVEN or self.keys is None or self.solvable is None:
            return None
        if self.matches_answer is False:
            return False
        return len(self.keys) == (1 if self.solvable else 0)


def goal_reached(goal: Goal, end: Position) -> bool:
    """Does a finished position satisfy a (non-score) goal?"""
    s = goal.seat
    tricks = end.seats[s].tricks
    own_ok = end.paradox != s
    match goal.kind:
        case "avoid-paradox":
            return own_ok
        case "paradox-free-round":
            return end.paradox is None
        case "make-exactly":
            return own_ok and tricks == goal.target
        case "make-at-least":
            return own_ok and goal.target is not None and tricks >= goal.target
        case "make-at-most":
            return own_ok and goal.target is not None and tricks <= goal.target
    raise PositionError(f"goal kind {goal.kind!r} has no end condition")


def forced_goal_holds(goal: Goal, fr: ForcedReport) -> bool:
    """Can the seat force a (non-score) goal, by the forced answers of analysis.md?"""
    k = goal.target
    match goal.kind:
        case "avoid-paradox":
            return bool(fr.guaranteed)
        case "make-exactly":
            return fr.forceable is not None and k in fr.forceable
        case "make-at-least":
            return fr.at_least is not None and k is not None and fr.at_least >= k
        case "make-at-most":
            return fr.at_most is not None and k is not None and fr.at_most <= k
    raise PositionError(f"goal kind {goal.kind!r} cannot be forced", where="goal.kind")


def _target(goal: Goal) -> Target:
    from .search import Target

    return Target(FORCED_KIND[goal.kind], goal.target)


# ----------------------------------------------------------------------------- possible
def _max_score_possible(
    pos: Position, seat: int, lim: Limits
) -> tuple[int | None, Witness | None, Status]:
    """The best score ``seat`` reaches in some continuation (and some deal): a memoised
    cooperative search over the rules engine.

    Not on :class:`.coop.CoopSearch`: its compact state keeps only which colours of each number
    are filled, not who filled them, and the score needs the seat's largest group (Sc3), so
    the search here runs over whole positions (cached by value)."""
    boards, exact = deals_of(pos, limit=256)
    if not exact:
        return None, None, UNKNOWN
    nodes = [0]

    @cache
    def best(p: Position) -> tuple[int | None, tuple[Play, ...]]:
        nodes[0] += 1
        if nodes[0] > _DFS_NODES or (nodes[0] % 512 == 0 and lim.expired()):
            raise OutOfTime
        if p.finished:
            return seat_score(p, seat), ()
        top: tuple[int | None, tuple[Play, ...]] = (None, ())
        for m in p.legal_plays():
            v, line = best(p.play(m))
            if v is not None and (top[0] is None or v > top[0]):
                top = (v, (m, *line))
        return top

    result: tuple[int | None, Witness | None] = (None, None)
    try:
        for full in boards:
            v, line = best(full)
            if v is not None and (result[0] is None or v > result[0]):
                hands = tuple(
                    full.seats[i].hand if pos.seats[i].hand is None else None
                    for i in range(pos.players)
                )
                result = (v, Witness(hands, line))
    except OutOfTime:
        return None, None, UNKNOWN
    return result[0], result[1], PROVEN


def _solve_possible(pos: Position, goal: Goal, lim: Limits, session: Session | None) -> Solution:
    from .possible import paradox_possible, tricks_possible

    s = goal.seat
    if goal.kind in ("avoid-paradox", "paradox-free-round"):
        r = paradox_possible(pos, s, limits=lim)
        if goal.kind == "avoid-paradox":
            ok, w = r.possible, r.witness
        else:
            ok, w = r.round_possible, r.round_witness
        return Solution(goal, ok, None, w.line if w else None, w, None, r.status)
    if goal.kind == "max-score":
        value, w, status = _max_score_possible(pos, s, lim)
        return Solution(
            goal,
            value is not None if status == PROVEN else None,
            value,
            w.line if w else None,
            w,
            None,
            status,
        )
    t = tricks_possible(pos, s, limits=lim)
    k = goal.target
    assert k is not None
    ok_counts: Callable[[int], bool] = {
        "make-exactly": lambda j: j == k,
        "make-at-least": lambda j: j >= k,
        "make-at-most": lambda j: j <= k,
    }[goal.kind]
    found = [j for j in t.possible if ok_counts(j)]
    if found:
        pick = min(found) if goal.kind != "make-at-most" else max(found)
        w = t.witnesses[pick]
        return Solution(goal, True, None, w.line, w, None, PROVEN)
    if any(ok_counts(j) for j in t.undecided):
        return Solution(goal, None, None, None, None, None, UNKNOWN)
    return Solution(goal, False, None, None, None, None, t.status)


# ----------------------------------------------------------------------------- guaranteed
def _solve_guaranteed(
    pos: Position, goal: Goal, lim: Limits, session: Session | None, want_line: bool = True
) -> Solution:
    s = goal.seat
    if goal.kind == "paradox-free-round":
        raise PositionError(
            'a paradox-free round is a cooperative goal: use mode = "possible"', where="goal.mode"
        )
    fr = forced_report(pos, s, limits=lim, session=session)
    if fr.status == UNKNOWN:
        return Solution(goal, None, None, None, None, None, UNKNOWN)
    value = fr.best_score if goal.kind == "max-score" else None
    ok = value is not None if goal.kind == "max-score" else forced_goal_holds(goal, fr)
    line = None
    if ok and want_line and pos.all_hands_known:
        from .search import best_score_line, main_line

        if goal.kind == "max-score":
            _, line = best_score_line(pos, s, limits=lim, session=session)
        else:
            line = main_line(pos, s, _target(goal), limits=lim, session=session)
    return Solution(goal, ok, value, line, None, None, fr.status)


# ----------------------------------------------------------------------------- checking
def _stated_line_holds(
    pos: Position,
    goal: Goal,
    line: tuple[Play, ...],
    value: int | None,
    lim: Limits,
    session: Session | None,
) -> tuple[bool, str | None]:
    """Does the puzzle's stated line do what it claims?"""
    try:
        if goal.mode == "possible":
            if not pos.all_hands_known:
                return True, "the stated line assumes a deal; only its verdict is checked"
            end = pos
            for play in line:  # an author's line: an illegal play is their mistake (below)
                end = end.play(play)
            if not end.finished:
                return False, "the stated line stops before the end of the round"
            if goal.kind == "max-score":
                ok = seat_score(end, goal.seat) == value
            else:
                ok = goal_reached(goal, end)
            return ok, None if ok else "the stated line does not reach the goal"
        p = pos
        for play in line:
            mover = p.to_play
            p = p.play(play)
            if mover != goal.seat:
                continue
            fr = forced_report(p, goal.seat, limits=lim, session=session)
            if fr.status != PROVEN:
                return True, "the stated line could not be checked in time"
            ok = fr.best_score == value if goal.kind == "max-score" else forced_goal_holds(goal, fr)
            if not ok:
                return False, f"after the stated play {play} the goal can no longer be forced"
        return True, None
    except CatboxError as e:
        return False, f"the stated line is illegal: {e}"


# ----------------------------------------------------------------------------- keys, duals
def _keeps(
    child: Position, goal: Goal, value: int | None, lim: Limits, session: Session | None
) -> bool | None:
    """Does the goal (for max-score: the value) survive to ``child``? None: not proven."""
    if child.finished:
        if goal.kind == "max-score":
            return seat_score(child, goal.seat) == value
        return goal_reached(goal, child)
    if goal.mode == "possible":
        got = _solve_possible(child, goal, lim, session)
    else:
        got = _solve_guaranteed(child, goal, lim, session, want_line=False)
    if got.status != PROVEN:
        return None
    return got.value == value if goal.kind == "max-score" else bool(got.solvable)


def keeping_plays(
    pos: Position,
    goal: Goal,
    value: int | None = None,
    *,
    limits: Limits | None = None,
    session: Session | None = None,
) -> tuple[Play, ...] | None:
    """Every legal play of the seat to play (which must be the goal's seat) after which the
    goal still holds (module docstring); ``value``: the max-score value to keep. None when a
    limit stopped one of the solves."""
    if pos.to_play != goal.seat:
        raise PositionError("the goal's seat must be the seat to play", where="goal.seat")
    lim = Limits.of(limits).start()
    found: list[Play] = []
    for play in pos.legal_plays():
        ok = _keeps(pos.play(play), goal, value, lim, session)
        if ok is None:
            return None
        if ok:
            found.append(play)
    return tuple(found)


def _checked_line(
    pos: Position,
    goal: Goal,
    sol: Solution,
    keys: tuple[Play, ...],
    stated: tuple[Play, ...] | None,
    lim: Limits,
    session: Session | None,
) -> tuple[Play, ...] | None:
    """The line whose later plays of S are checked for duals: the stated line when its first
    play is a key (else the solver's first key), continued to the end by the solver's line
    (best defence; guaranteed goals). None with unknown hands."""
    if not keys or not pos.all_hands_known:
        return None
    if goal.mode == "possible":
        return stated if stated and stated[0] in keys else sol.line
    prefix = stated if stated and stated[0] in keys else keys[:1]
    try:
        p = pos
        for play in prefix:
            p = p.play(play)
    except CatboxError:
        return None
    if p.finished:
        return prefix
    from .search import best_score_line, main_line

    if goal.kind == "max-score":
        _, rest = best_score_line(p, goal.seat, limits=lim, session=session)
    else:
        rest = main_line(p, goal.seat, _target(goal), limits=lim, session=session)
    return None if rest is None else (*prefix, *rest)


def _duals(
    pos: Position,
    goal: Goal,
    line: tuple[Play, ...],
    value: int | None,
    lim: Limits,
    session: Session | None,
) -> tuple[Dual, ...] | None:
    """Every later play of S along ``line`` where more than one play keeps the goal (None: a
    limit stopped the check)."""
    found: list[Dual] = []
    p = pos
    for i, play in enumerate(line):
        if i > 0 and p.to_play == goal.seat and len(p.legal_plays()) > 1:
            keep = keeping_plays(p, goal, value, limits=lim, session=session)
            if keep is None:
                return None
            if len(keep) > 1:
                found.append(Dual(i, keep))
        p = p.play(play)
    return tuple(found)


def solve_goal(
    pos: Position,
    goal: Goal,
    *,
    limits: Limits | None = None,
    session: Session | None = None,
) -> Solution:
    """Solve ``goal`` from ``pos`` (formats.md, ``catbox-puzzle/1`` goals), with its line."""
    if goal.seat >= pos.players:
        raise PositionError("goal seat out of range", where="goal.seat")
    lim = Limits.of(limits)
    if goal.mode == "possible":
        sol = _solve_possible(pos, goal, lim, session)
    else:
        sol = _solve_guaranteed(pos, goal, lim, session)
    if sol.witness is not None:
        sol.witness.verify(pos)
    elif sol.line is not None:
        Witness.of(pos, sol.line).verify(pos)
    return sol


def solve(
    puzzle: Puzzle,
    *,
    limits: Limits | None = None,
    session: Session | None = None,
    keys: bool = True,
) -> Solution:
    """Solve ``puzzle`` and check its stated answer (and line) against the solution; with
    ``keys`` (when the goal's seat is to play) also every key and the duals along the checked
    line (module docstring)."""
    lim = Limits.of(limits).start()
    sol = solve_goal(puzzle.position, puzzle.goal, limits=lim, session=session)
    ans = puzzle.answer
    if sol.status == UNKNOWN:
        return sol
    matches: bool | None = None
    note = None
    if ans is not None:
        matches = ans.solvable is None or ans.solvable == sol.solvable
        if matches and puzzle.goal.kind == "max-score" and ans.value is not None:
            matches = ans.value == sol.value
        if matches and ans.line and sol.solvable:
            holds, note = _stated_line_holds(
                puzzle.position, puzzle.goal, ans.line, sol.value, lim, session
            )
            matches = holds
    found: tuple[Play, ...] | None = None
    duals: tuple[Dual, ...] = ()
    checked = None
    pos, goal = puzzle.position, puzzle.goal
    if keys and sol.status == PROVEN and sol.solvable is not None and pos.to_play == goal.seat:
        found = ()
        if sol.solvable:
            found = keeping_plays(pos, goal, sol.value, limits=lim, session=session)
        if found:
            stated = ans.line if ans is not None and matches else None
            checked = _checked_line(pos, goal, sol, found, stated, lim, session)
            got = None if checked is None else _duals(pos, goal, checked, sol.value, lim, session)
            if got is None:
                checked = None
            else:
                duals = got
        elif found is None:
            note = note or "the keys could not be settled in time"
    return Solution(
        sol.goal,
        sol.solvable,
        sol.value,
        sol.line,
        sol.witness,
        matches,
        merge_status(sol.status),
        note,
        found,
        duals,
        checked,
    )
