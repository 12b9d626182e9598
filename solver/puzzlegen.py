"""Finding puzzles: what the *natural* play is, whether it works, and a seeded generator.

A puzzle is interesting when the obvious move is wrong. "Obvious" is made concrete here by
:func:`natural_play`, a one-ply heuristic a club player would reach for without reading ahead:

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

:func:`assess` solves a goal, then every first play of the seat, and reports which first plays
keep the goal (for ``max-score``: keep the best value). A puzzle is *non-obvious* when the goal is
solvable but the natural play does not keep it. :func:`generate` searches seeded random positions
for such a puzzle and proves its answer with the real solver.

>>> from .deal import random_position
>>> from .puzzle import Goal
>>> pos = random_position(3, seed=2, tricks_left=1)
>>> str(natural_play(pos, Goal(pos.to_play, "make-at-most", 0, "guaranteed")))
'4Y'
>>> a = assess(pos, Goal(pos.to_play, "avoid-paradox", None, "guaranteed"))
>>> a.solution.solvable, [str(p) for p in a.working] == [str(p) for p in a.legal]
(True, True)
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, cast

from .board import EMPTY, cell_index
from .cards import Colour, Play, variant
from .deal import random_position
from .errors import FormatError, PositionError
from .limits import Limits
from .position import Position
from .puzzle import (
    GOAL_KINDS,
    GOAL_MODES,
    TARGET_KINDS,
    Goal,
    GoalMode,
    Puzzle,
    PuzzleAnswer,
)
from .rules import trick_winner
from .scoring import TWO_PLAYER_BONUS_MAX, seat_score
from .solve import Solution, goal_reached, solve_goal

if TYPE_CHECKING:
    from .search import Session

__all__ = [
    "Assessment",
    "Generated",
    "assess",
    "difficulty_of",
    "generate",
    "natural_play",
    "wants_trick",
]

PARADOX_KINDS = frozenset({"avoid-paradox", "paradox-free-round"})
_TIME_LIMIT = 30.0


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


def natural_play(pos: Position, goal: Goal) -> Play | None:
    """The obvious play for the seat to play (see the module docstring); None if the goal's seat
    is not the one to play, its hand is unknown, or it has no legal play."""
    seat = pos.to_play
    if seat is None or seat != goal.seat or pos.seats[seat].hand is None:
        return None
    plays = pos.legal_plays()
    if not plays:
        return None
    hand = Counter(pos.seats[seat].hand or ())
    if goal.kind in PARADOX_KINDS:
        return max(
            plays, key=lambda p: (_usable_cells(pos, seat, p), hand[p.number], -plays.index(p))
        )
    want = wants_trick(pos, goal)
    led = pos.led

    def key(p: Play) -> tuple[int, int, int, int]:
        keeps = led is None or p.colour == led
        wins = led is None or trick_winner((*pos.trick, p)) == len(pos.trick)
        colour_rank = -int(p.colour) if want or p.colour != Colour.R else -9
        return (int(keeps), int(wins == want), p.number if want else -p.number, colour_rank)

    return max(plays, key=key)


# ----------------------------------------------------------------------------- assessment
@dataclass(frozen=True, slots=True)
class Assessment:
    """A goal solved at the root and after each first play of the seat to play."""

    solution: Solution
    legal: tuple[Play, ...]
    working: tuple[Play, ...]  # first plays that keep the goal (max-score: keep the value)
    natural: Play | None

    @property
    def natural_fails(self) -> bool:
        """Solvable, yet the natural first play does not keep the goal."""
        return (
            bool(self.solution.solvable)
            and self.natural is not None
            and self.natural not in self.working
        )

    @property
    def proven(self) -> bool:
        return self.solution.status == "proven"


def _child_keeps(
    child: Position, goal: Goal, sol: Solution, lim: Limits, session: Session | None
) -> bool | None:
    if child.finished:
        if goal.kind == "max-score":
            return seat_score(child, goal.seat) == sol.value
        return goal_reached(goal, child)
    got = solve_goal(child, goal, limits=lim.within(_TIME_LIMIT), session=session)
    if got.status != "proven":
        return None
    if goal.kind == "max-score":
        return got.value == sol.value
    return bool(got.solvable)


def assess(
    pos: Position, goal: Goal, *, limits: Limits | None = None, session: Session | None = None
) -> Assessment:
    """Solve ``goal`` and every first play of its seat (which must be the seat to play); each
    solve gets at most ``_TIME_LIMIT`` seconds of ``limits``."""
    lim = Limits.of(limits)
    if pos.to_play != goal.seat:
        raise PositionError("the goal's seat must be the seat to play", where="goal.seat")
    sol = solve_goal(pos, goal, limits=lim.within(_TIME_LIMIT), session=session)
    legal = tuple(pos.legal_plays())
    working: list[Play] = []
    if sol.status == "proven" and sol.solvable:
        for p in legal:
            keeps = _child_keeps(pos.play(p), goal, sol, lim, session)
            if keeps is None:
                return Assessment(replace(sol, status="unknown"), legal, (), None)
            if keeps:
                working.append(p)
    return Assessment(sol, legal, tuple(working), natural_play(pos, goal))


def difficulty_of(pos: Position, a: Assessment) -> int:
    """1 (easy) to 5: depth, how few first plays work, and whether the natural play fails."""
    d = 1 + (pos.tricks_left >= 3) + (pos.tricks_left >= 4)
    if a.solution.solvable:
        if a.natural_fails:
            d += 2
        if len(a.working) == 1 and len(a.legal) > 2:
            d += 1
        elif len(a.working) * 2 <= len(a.legal):
            d += 0 if a.natural_fails else 1
    elif a.solution.solvable is False:
        d += 1
    if not pos.all_hands_known:
        d += 1
    return max(1, min(5, d))


def interest(a: Assessment) -> int:
    """How good a puzzle the assessment makes (0: not worth showing)."""
    if not a.proven or a.solution.solvable is None:
        return 0
    if a.solution.solvable:
        if len(a.legal) < 2 or len(a.working) == len(a.legal):
            return 0
        score = 10 if a.natural_fails else 3
        return score + (2 if len(a.working) == 1 else 0)
    return 6 if len(a.legal) > 1 else 2


# ----------------------------------------------------------------------------- answers, text
def answer_of(pos: Position, goal: Goal, a: Assessment) -> PuzzleAnswer:
    """The stated answer: for guaranteed goals a first play that works (not the natural one
    when that fails); for possible goals with every hand known the solver's full line."""
    sol = a.solution
    value = sol.value if goal.kind == "max-score" else None
    if not sol.solvable:
        return PuzzleAnswer(solvable=False, value=value)
    if goal.mode == "guaranteed":
        return PuzzleAnswer(solvable=True, line=a.working[:1] or None, value=value)
    if pos.all_hands_known and sol.line is not None:
        return PuzzleAnswer(solvable=True, line=sol.line, value=value)
    return PuzzleAnswer(solvable=True, value=value)


NAME_SETS: tuple[tuple[str, ...], ...] = (
    ("Erwin", "Niels", "Marie", "Werner", "Lise"),
    ("Mochi", "Tofu", "Pixel", "Biscuit", "Noodle"),
    ("Ada", "Boris", "Chloe", "Dmitri", "Esme"),
    ("Felix", "Tom", "Luna", "Salem", "Garfield"),
)

_ASKS = {
    "avoid-paradox": "never cause a paradox",
    "paradox-free-round": "steer the round to its end with no paradox at all",
    "make-exactly": "finish on exactly {t} trick{s}",
    "make-at-least": "finish on at least {t} trick{s}",
    "make-at-most": "finish on at most {t} trick{s}",
    "max-score": "score as much as possible this round",
}

_TITLES = {
    "avoid-paradox": ("Out of Cells", "The Last Permission", "Nowhere to Go"),
    "paradox-free-round": ("Everybody Home", "Tidy Universe", "No Cat Left Behind"),
    "make-exactly": ("On the Nose", "Exactly So", "Counting Cats"),
    "make-at-least": ("Hungry Cat", "One More Trick", "Grab Bag"),
    "make-at-most": ("Duck, Duck, Paradox", "Stay Small", "Lie Low"),
    "max-score": ("Every Point Counts", "Greedy Whiskers", "The Big Box"),
}


def describe(pos: Position, goal: Goal, a: Assessment) -> str:
    """A short story for the puzzle: who plays, what they predicted, what is asked."""
    names = pos.seat_names
    me = names[goal.seat]
    s = pos.seats[goal.seat]
    left = pos.tricks_left
    parts = [
        f"{me} is to play"
        + (" in the middle of a trick" if pos.trick else " and leads")
        + f", {left} trick{'s' if left != 1 else ''} to go."
    ]
    if s.prediction is not None:
        parts.append(f"{me} predicted {s.prediction} and has {s.tricks} so far.")
    else:
        parts.append(f"{me} has {s.tricks} trick{'s' if s.tricks != 1 else ''} so far.")
    ask = _ASKS[goal.kind].format(t=goal.target, s="" if goal.target == 1 else "s")
    if goal.kind == "max-score":
        if goal.mode == "guaranteed":
            parts.append(
                f"What is the best round score {me} can guarantee, whatever the others do?"
            )
        else:
            parts.append(f"What is the best round score {me} can reach in any line at all?")
    elif goal.mode == "guaranteed":
        parts.append(f"Can {me} {ask}, whatever the others do?")
    elif not pos.all_hands_known:
        parts.append(f"Is there any deal of the hidden cards and any line in which {me} can {ask}?")
    else:
        parts.append(f"Is there any line at all in which {me} can {ask}?")
    if a.natural_fails and a.natural is not None:
        parts.append(f"The obvious {a.natural} fails — why?")
    return " ".join(parts)


# ----------------------------------------------------------------------------- generator
@dataclass(frozen=True, slots=True)
class Generated:
    puzzle: Puzzle
    assessment: Assessment
    seed: int  # the random_position seed that gave the position


def _check_options(
    players: int, kind: str | None, mode: str | None, tricks_left: int | None
) -> None:
    v = variant(players)  # FormatError for a bad player count
    if kind is not None and kind not in GOAL_KINDS:
        raise FormatError(
            f"unknown goal kind {kind!r}; known kinds: {', '.join(GOAL_KINDS)}", where="kind"
        )
    if mode is not None and mode not in GOAL_MODES:
        raise FormatError(
            f"unknown mode {mode!r}; expected {' or '.join(GOAL_MODES)}", where="mode"
        )
    if kind == "paradox-free-round" and mode == "guaranteed":
        raise FormatError("goal kind paradox-free-round takes mode 'possible' only", where="mode")
    if tricks_left is not None and not 1 <= tricks_left <= min(4, v.tricks):
        raise FormatError(
            f"must be 1 to 4 (solving stays fast), not {tricks_left}",
            where="tricks_left",
        )


def _targets(pos: Position, goal_kind: str, seat: int, rng: random.Random) -> list[int | None]:
    if goal_kind not in TARGET_KINDS:
        return [None]
    now = pos.seats[seat].tricks
    ks: list[int | None] = list(range(now, now + pos.tricks_left + 1))
    rng.shuffle(ks)
    pred = pos.seats[seat].prediction
    if goal_kind == "make-exactly" and pred in ks:
        ks.remove(pred)
        ks.insert(0, pred)
    return ks


def generate(
    players: int,
    seed: int,
    *,
    kind: str | None = None,
    mode: str | None = None,
    tricks_left: int | None = None,
    attempts: int = 24,
    limits: Limits | None = None,
    session: Session | None = None,
) -> Generated:
    """Search seeded random positions for an interesting puzzle (deterministic per arguments).
    Stops at the first one whose natural play fails; otherwise returns the most interesting one
    found. Raises PositionError if no candidate could be proven."""
    _check_options(players, kind, mode, tricks_left)
    rng = random.Random(f"catbox-puzzlegen/{players}/{seed}/{kind}/{mode}/{tricks_left}")
    best: tuple[int, Generated] | None = None
    for attempt in range(attempts):
        k = kind or rng.choice(GOAL_KINDS)
        m = cast(
            GoalMode, "possible" if k == "paradox-free-round" else (mode or rng.choice(GOAL_MODES))
        )
        tl = tricks_left or rng.choice((1, 2, 2, 3, 3, 3) if players < 5 else (1, 2, 2, 3))
        mid = rng.randrange(players) if rng.random() < 0.4 else 0
        hide_one = m == "possible" and k != "max-score" and rng.random() < 0.3
        pos_seed = seed * 1000 + attempt
        try:
            pos = random_position(players, pos_seed, tl, mid_trick=mid)
        except PositionError:
            continue
        seat = pos.to_play
        assert seat is not None
        pos = replace(pos, names=NAME_SETS[rng.randrange(len(NAME_SETS))][:players])
        if hide_one:
            pos = pos.hide([rng.choice([i for i in range(players) if i != seat])])
        for target in _targets(pos, k, seat, rng)[:3]:
            goal = Goal(seat, k, target, m)
            a = assess(pos, goal, limits=limits, session=session)
            score = interest(a)
            if score == 0:
                continue
            title = rng.choice(_TITLES[k])
            pz = Puzzle(
                title=title,
                difficulty=difficulty_of(pos, a),
                description=describe(pos, goal, a),
                position=pos,
                goal=goal,
                answer=answer_of(pos, goal, a),
                name="",
            )
            found = Generated(pz, a, pos_seed)
            if best is None or score > best[0]:
                best = (score, found)
            if a.natural_fails:
                return found
    if best is None:
        raise PositionError(
            f"no puzzle found for seed {seed} in {attempts} attempts; try another seed"
        )
    return best[1]
