"""What is settled of one seat's forced answers at one node (:class:`Partial`), and how the
answers of two searches of one node, or of a node's plays, combine. Below both the questions
(:mod:`.api`) and the session that stores settled nodes (:mod:`.session`)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Partial", "combine", "merged", "within"]


@dataclass(frozen=True, slots=True)
class Partial:
    """What is settled of S's answers at one node, in the order they are searched
    (``guaranteed``, ``at_least``, ``at_most``, ``forceable``, ``best_score``): a limit that
    ran out leaves the later ones None. Trick counts are final (absolute) counts."""

    guaranteed: bool | None = None
    at_least: int | None = None
    at_most: int | None = None
    forceable: tuple[int, ...] | None = None
    best_score: int | None = None
    score_bounds: tuple[int, int] | None = None  # proven while best_score is not (a limit cut it)


def merged(a: Partial, b: Partial) -> Partial:
    """What either of two searches of one row settled (both proven, so they agree)."""
    return Partial(
        a.guaranteed if a.guaranteed is not None else b.guaranteed,
        a.at_least if a.at_least is not None else b.at_least,
        a.at_most if a.at_most is not None else b.at_most,
        a.forceable if a.forceable is not None else b.forceable,
        a.best_score if a.best_score is not None else b.best_score,
        within(a.score_bounds, b.score_bounds),
    )


def within(a: tuple[int, int] | None, b: tuple[int, int] | None) -> tuple[int, int] | None:
    """Two proven intervals of one score as one (None: not known)."""
    if a is None or b is None:
        return a or b
    return max(a[0], b[0]), min(a[1], b[1])


def combine(outs: list[Partial]) -> Partial | None:
    """The answers of the seat to play (S) from those of its plays (all settled): S picks the
    play, so it can guarantee whatever one of its plays guarantees. None when the rows leave
    the fewest tricks S can force undecided: a row whose ``at_most`` is None has it above its
    ``at_least`` only (:func:`.api._row_tricks`), and that may be below every row's known one."""
    ok = [o for o in outs if o.guaranteed]
    scores = [o.best_score for o in outs]
    known = [o.at_most for o in ok if o.at_most is not None]
    above = [(o.at_least or 0) + 1 for o in ok if o.at_most is None]
    if above and (not known or min(above) < min(known)):
        return None
    return Partial(
        guaranteed=bool(ok),
        at_least=max(o.at_least or 0 for o in ok) if ok else None,
        at_most=min(known) if ok else None,
        forceable=tuple(sorted({k for o in ok for k in o.forceable or ()})),
        best_score=None if any(v is None for v in scores) else max(v or 0 for v in scores),
    )
