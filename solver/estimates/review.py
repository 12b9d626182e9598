"""Review from the player's view: a record in which only S's cards are known, judged for S play
by play with the estimates of :mod:`.advise` (the usual record of one's own online game).

At each play of S: the estimate of the best play there (the position's value for S under the
method), the estimate of the play made, the change (made - best) in S's chance of avoiding a
paradox and in its expected score, and the better play when the difference is clear (the two
95% intervals do not overlap). Every play of S is judged, whatever the number of tricks left:
``playouts`` beyond the exact search's horizon, ``pimc`` within it (method ``auto``).

>>> from ..deal import deal_round
>>> from ..record import Record
>>> d = deal_round(3, seed=2, predictions=True)
>>> rec = Record.from_deal(d)
>>> pos, moves = rec.start(), []
>>> for _ in range(6):
...     if pos.finished:
...         break
...     moves.append(pos.legal_plays()[0])
...     pos = pos.play(moves[-1])
>>> r = review_player(rec.with_moves(moves), 0, samples=20)
>>> [p.move for p in r.plays]
[1, 6]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..answers import Status
from ..cards import Play
from ..errors import PositionError
from ..limits import Limits
from ..position import Position
from ..record import Record
from .advise import DEFAULT_SAMPLES, Advice, MoveEstimate, advise
from .stats import Estimate

if TYPE_CHECKING:
    from ..search import Session

__all__ = ["PLAYER_GRADES", "PlayerPlay", "PlayerReview", "player_view", "review_player"]

#: The marks of a play judged from the player's view, worst first, with their thresholds. A play
#: is marked only when a clearly better play exists (the two 95% intervals apart).
PLAYER_GRADES: dict[str, str] = {
    "??": "blunder: a clearly better play, and the estimated chance of avoiding a paradox drops "
    "by 20 points or more",
    "?": "mistake: a clearly better play, and the chance drops by 5 points or more, or the "
    "expected score by 1 point or more",
    "?!": "inaccuracy: a clearly better play, by less than that",
}


@dataclass(frozen=True, slots=True)
class PlayerPlay:
    move: int  # 1-based index in the record
    play: Play
    method: str
    samples: int
    status: Status
    made: MoveEstimate
    best: MoveEstimate
    better: Play | None  # a play clearly better than the one made (intervals apart)

    @property
    def avoid_change(self) -> float:
        return self.made.avoid_paradox.value - self.best.avoid_paradox.value

    @property
    def score_change(self) -> float | None:
        if self.made.score is None or self.best.score is None:
            return None
        return self.made.score.value - self.best.score.value

    @property
    def grade(self) -> str:
        """``??``, ``?``, ``?!`` or ``""`` (:data:`PLAYER_GRADES`)."""
        if self.better is None:
            return ""
        sc = self.score_change
        if self.avoid_change <= -0.20:
            return "??"
        if self.avoid_change <= -0.05 or (sc is not None and sc <= -1.0):
            return "?"
        return "?!"

    def to_json(self) -> dict[str, object]:
        sc = self.score_change
        return {
            "move": self.move,
            "play": str(self.play),
            "method": self.method,
            "samples": self.samples,
            "status": self.status,
            "made": self.made.to_json(),
            "best": self.best.to_json(),
            "avoid_paradox_change": round(self.avoid_change, 4),
            "score_change": round(sc, 4) if sc is not None else None,
            "better": str(self.better) if self.better else None,
            "grade": self.grade,
        }


@dataclass(frozen=True, slots=True)
class PlayerReview:
    seat: int
    plays: tuple[PlayerPlay, ...]


def player_view(pos: Position, seat: int) -> Position:
    """``pos`` as S sees it: every other hand and set-aside card unknown."""
    seats = list(pos.seats)
    for i, s in enumerate(seats):
        if i != seat:
            seats[i] = replace(s, hand=None, set_aside=None)
    return replace(pos, seats=tuple(seats))


def _clearly_better(a: Estimate | None, b: Estimate | None) -> bool:
    return a is not None and b is not None and a.ci95[0] > b.ci95[1]


def _judge(move: int, play: Play, adv: Advice) -> PlayerPlay:
    made = next(m for m in adv.moves if m.play == play)
    best = adv.moves[0]
    better = None
    if best.play != play and (
        _clearly_better(best.avoid_paradox, made.avoid_paradox)
        or (
            not _clearly_better(made.avoid_paradox, best.avoid_paradox)
            and _clearly_better(best.score, made.score)
        )
    ):
        better = best.play
    return PlayerPlay(move, play, adv.method, adv.samples, adv.status, made, best, better)


def review_player(
    rec: Record,
    seat: int,
    *,
    method: str = "auto",
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    workers: int = 1,
    limits: Limits | None = None,
    session: Session | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> PlayerReview:
    """Judge every play of ``seat`` in ``rec`` from its own view (other hands hidden).
    ``limits`` is for the whole review: each play gets an equal share of what is left."""
    if not 0 <= seat < rec.players:
        raise PositionError(f"seat {seat} out of range", where="seat")
    if rec.deal[seat] is None:
        raise PositionError("the reviewed seat's deal must be known in the record", where="deal")
    positions = list(rec.positions())
    mine = [k for k in range(len(rec.moves)) if positions[k].to_play == seat]
    out = []
    lim = Limits.of(limits)
    for done, k in enumerate(mine):
        share = lim.share(1.0 / (len(mine) - done))
        pos = player_view(positions[k], seat)
        adv = advise(
            pos,
            seat,
            method=method,
            samples=samples,
            seed=seed,
            workers=workers,
            limits=share,
            session=session,
        )
        out.append(_judge(k + 1, rec.moves[k], adv))
        if progress:
            progress(done + 1, len(mine))
    return PlayerReview(seat, tuple(out))
