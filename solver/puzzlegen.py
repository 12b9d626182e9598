"""The seeded puzzle generator: only sound, non-trivial puzzles, graded.

A candidate is a seeded random position (:func:`.deal.random_position`) with a goal for the
seat to play; :func:`.puzzlecheck.check` solves it with every key and grades it. The generator
keeps a candidate only when it is **sound** (one key; or the goal cannot be met and the answer
says so), **not trivial** (at least 4 legal plays, and the natural play fails when the goal can
be met) and, with ``level``, graded at that level (easy, medium or hard). The natural play and
the grade rule are documented in :mod:`.puzzlecheck`.

>>> g = generate(3, 1, kind="make-at-least", mode="guaranteed", tricks_left=2)
>>> g.check.sound, len(g.check.legal) >= 4
(True, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, cast

from .cards import Play, variant
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
from .puzzlecheck import (
    LEVELS,
    MIN_PLAYS,
    PARADOX_KINDS,
    PuzzleCheck,
    check,
    natural_play,
    wants_trick,
)
from .solve import Solution

if TYPE_CHECKING:
    from .search import Session

__all__ = [
    "PARADOX_KINDS",
    "Generated",
    "answer_of",
    "describe",
    "generate",
    "natural_play",
    "wants_trick",
]

#: Seconds for each candidate's check: a puzzle slow to check does not belong in a collection.
_TIME_LIMIT = 5.0
#: The share of acceptable puzzles with no key (the answer is "no") the generator keeps.
_KEEP_NO = 0.25


# ----------------------------------------------------------------------------- answers, text
def answer_of(pos: Position, goal: Goal, sol: Solution) -> PuzzleAnswer:
    """The stated answer: for guaranteed goals the key; for possible goals with every hand
    known the solver's full line (its first play is the key)."""
    value = sol.value if goal.kind == "max-score" else None
    if not sol.solvable:
        return PuzzleAnswer(solvable=False, value=value)
    if goal.mode == "guaranteed":
        return PuzzleAnswer(solvable=True, line=(sol.keys or ())[:1] or None, value=value)
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


def describe(pos: Position, goal: Goal, natural_fails: Play | None = None) -> str:
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
    if natural_fails is not None:
        parts.append(f"The obvious {natural_fails} fails — why?")
    return " ".join(parts)


# ----------------------------------------------------------------------------- generator
@dataclass(frozen=True, slots=True)
class Generated:
    puzzle: Puzzle
    check: PuzzleCheck  # the check of the puzzle as written (sound, graded)
    seed: int  # the random_position seed that gave the position


def _check_options(
    players: int, kind: str | None, mode: str | None, tricks_left: int | None, level: str | None
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
    if level is not None and level not in LEVELS:
        raise FormatError(f"unknown level {level!r}; expected {', '.join(LEVELS)}", where="level")


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


def acceptable(c: PuzzleCheck, level: str | None = None) -> bool:
    """Sound, not trivial (at least 4 legal plays; when the goal can be met, the natural play
    fails) and, with ``level``, graded at that level."""
    if not c.sound or c.grade is None or len(c.legal) < MIN_PLAYS:
        return False
    if c.solution.solvable and (c.natural is None or c.natural in (c.keys or ())):
        return False
    return level is None or c.grade.level == level


def _written(pos: Position, goal: Goal, c: PuzzleCheck, rng: random.Random) -> Puzzle:
    """The puzzle as written from its draft's check: the solver's answer, a story, the grade."""
    sol = c.solution
    fails = c.natural if sol.solvable and c.natural not in (sol.keys or ()) else None
    return Puzzle(
        title=rng.choice(_TITLES[goal.kind]),
        difficulty=c.grade.difficulty if c.grade else 1,
        description=describe(pos, goal, fails),
        position=pos,
        goal=goal,
        answer=answer_of(pos, goal, sol),
        name="",
    )


def generate(
    players: int,
    seed: int,
    *,
    kind: str | None = None,
    mode: str | None = None,
    tricks_left: int | None = None,
    level: str | None = None,
    min_plays: int = MIN_PLAYS,
    attempts: int = 200,
    limits: Limits | None = None,
    session: Session | None = None,
) -> Generated:
    """Search seeded random positions for a sound, non-trivial puzzle (:func:`acceptable`),
    graded at ``level`` when given (easy, medium, hard); deterministic per arguments. Puzzles
    whose answer is "no" are kept a quarter of the time (most puzzles should have a key).
    ``min_plays``: the fewest legal plays at the key (at least 4).
    Each candidate's check gets at most ``_TIME_LIMIT`` seconds of ``limits`` (a puzzle slow
    to check is not kept). Raises PositionError if none of ``attempts`` positions gives one,
    :class:`.limits.OutOfTime` when ``limits`` ran out first."""
    _check_options(players, kind, mode, tricks_left, level)
    lim = Limits.of(limits).start()
    rng = random.Random(f"catbox-puzzlegen/{players}/{seed}/{kind}/{mode}/{tricks_left}/{level}")
    for attempt in range(attempts):
        lim.check()
        k = kind or rng.choice(GOAL_KINDS)
        m = cast(
            GoalMode, "possible" if k == "paradox-free-round" else (mode or rng.choice(GOAL_MODES))
        )
        tl = tricks_left or rng.choice((2, 3, 3, 4) if players < 5 else (2, 2, 3, 3))
        mid = rng.randrange(players) if rng.random() < 0.4 else 0
        hide_one = m == "possible" and k != "max-score" and rng.random() < 0.3
        pos_seed = seed * 1000 + attempt
        try:
            pos = random_position(players, pos_seed, tl, mid_trick=mid)
        except PositionError:
            continue
        seat = pos.to_play
        assert seat is not None
        if len(pos.legal_plays()) < max(min_plays, MIN_PLAYS):
            continue
        pos = replace(pos, names=NAME_SETS[rng.randrange(len(NAME_SETS))][:players])
        if hide_one:
            pos = pos.hide([rng.choice([i for i in range(players) if i != seat])])
        for target in _targets(pos, k, seat, rng)[:3]:
            goal = Goal(seat, k, target, m)
            part = lim.within(_TIME_LIMIT)
            draft = check(
                Puzzle(_TITLES[k][0], 1, "", pos, goal, None), limits=part, session=session
            )
            if not acceptable(draft, level):
                continue
            if not draft.solution.solvable and rng.random() >= _KEEP_NO:
                continue
            pz = _written(pos, goal, draft, rng)
            again = check(pz, limits=lim.within(_TIME_LIMIT), session=session)
            return Generated(pz, again, pos_seed)
    raise PositionError(
        f"no sound puzzle found for seed {seed} in {attempts} attempts; try another seed"
    )
