"""catbox's player deciding a play, with its reasons: :func:`decide` makes the decision of
:func:`choose_play` (the stable entry point) and returns the ranked candidates it weighed, each
with the estimates it ranked them by (``advise --player`` shows them).

* ``forced`` — one legal play;
* ``policy`` — level 0, or past the horizon without the compiled core: the policy's value of
  every play (:func:`.player.policy_ranked`);
* ``rollouts`` — before the exact horizon: the policy's best plays, each S's mean score over
  sampled deals played on by the policy (:func:`.player.rollout_plays`);
* ``endgame`` — from the horizon: every play solved on sampled deals (:func:`.player.score_plays`):
  the share of them on which S can still guarantee avoiding its paradox, S's mean score when the
  policy plays the round on, the mean score it can guarantee (:func:`.player.endgame_ranked`).

>>> from ..deal import random_position
>>> full = random_position(3, seed=2, tricks_left=2)
>>> view = full.hide([s for s in range(3) if s != full.to_play])
>>> d = decide(view, seed=1)
>>> d.method, d.play == d.candidates[0].play == choose_play(view, seed=1)
('endgame', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..cards import Play, seat_letter
from ..errors import PositionError
from ..limits import Limits
from ..position import Position
from .player import (
    DEFAULT_LEVEL,
    ENDGAME_PLAYOUTS,
    HORIZON,
    NODE_LIMIT,
    ROLLOUT_DEALS,
    SAMPLES,
    Scored,
    endgame_ranked,
    policy_play_known,
    policy_ranked,
    rollout_plays,
    score_plays,
)
from .policy import hazard_at

__all__ = ["PlayDecision", "PlayReason", "choose_play", "decide", "play_out"]

Method = Literal["forced", "policy", "rollouts", "endgame"]


@dataclass(frozen=True, slots=True)
class PlayReason:
    """One candidate play and what the player ranked it by: ``value`` (rollouts and endgame:
    S's mean round score when the round is played on by the policy, with its score at each
    later trick start credited at the decision's ``hazard`` per trick: another seat's paradox
    may end the round there, X3; policy: the policy's value), ``policy`` (the policy's value),
    and in the endgame ``avoids`` (the share of the solved deals on which S can still guarantee
    avoiding its paradox, X1) and ``guaranteed`` (the mean score it can guarantee; None when
    not searched: only for the safest plays)."""

    play: Play
    value: float
    policy: float
    avoids: float | None = None
    guaranteed: float | None = None


@dataclass(frozen=True, slots=True)
class PlayDecision:
    """The player's play for ``seat`` (the first candidate), how it was decided (``method``),
    over how many sampled deals (``deals``: rollouts' deals, the endgame's solved weight; 0
    otherwise), the candidates it weighed, best first, and the credit per trick for an early
    end its values carry (``hazard``, :data:`.policy.HAZARD`; 0 for the policy's values)."""

    seat: int
    play: Play
    method: Method
    level: int
    deals: float
    candidates: tuple[PlayReason, ...]
    hazard: float = 0.0


def _endgame_reason(r: Scored) -> PlayReason:
    w = r.weight
    return PlayReason(
        r.play,
        r.follow_score / w,
        r.policy,
        r.avoids / w,
        r.score / w if r.score is not None else None,
    )


def decide(
    view: Position, *, seed: int = 0, limits: Limits | None = None, level: int = DEFAULT_LEVEL
) -> PlayDecision:
    """The decision of :func:`choose_play` with its reasons (module docstring).

    Raises:
        PositionError: the round is over, or the hand of the seat to play is unknown.
    """
    pos = view.settle()
    seat = pos.to_play
    if seat is None:
        raise PositionError("the round is over: there is no play to choose", rule="E1")
    if pos.seats[seat].hand is None:
        raise PositionError(f"{seat_letter(seat)}'s hand must be known to choose its play")
    plays = pos.legal_plays()
    if len(plays) == 1:
        return PlayDecision(seat, plays[0], "forced", level, 0, (PlayReason(plays[0], 0, 0),))
    horizon = HORIZON[pos.players]
    if level >= 1 and pos.tricks_left <= horizon:
        from ..search import native

        if native.available():
            node_limit = limits.node_limit if limits and limits.node_limit else NODE_LIMIT
            rows = score_plays(
                pos,
                seed=seed,
                samples=level * SAMPLES,
                node_limit=node_limit,
                limits=limits,
                playouts=ENDGAME_PLAYOUTS,
            )
            if rows and rows[0].weight:
                ranked = tuple(_endgame_reason(r) for r in endgame_ranked(rows))
                return PlayDecision(
                    seat,
                    ranked[0].play,
                    "endgame",
                    level,
                    rows[0].weight,
                    ranked,
                    hazard_at(pos.players),
                )
    if level >= 1 and pos.tricks_left > horizon:
        deals = level * ROLLOUT_DEALS
        got = rollout_plays(pos, seed=seed, deals=deals)
        cands = tuple(PlayReason(p, v, pv) for p, v, pv in got)
        return PlayDecision(
            seat, cands[0].play, "rollouts", level, deals, cands, hazard_at(pos.players)
        )
    pol = tuple(PlayReason(p, v, v) for v, p in policy_ranked(pos, seed))
    return PlayDecision(seat, pol[0].play, "policy", level, 0, pol)


def choose_play(
    view: Position, *, seed: int = 0, limits: Limits | None = None, level: int = DEFAULT_LEVEL
) -> Play:
    """catbox's play for the seat to play in ``view`` (:mod:`.player`'s docstring): legal,
    from the view alone, the same for the same view, seed and level. ``limits`` bounds the
    exact endgame (time and nodes per deal); past it the policy's play is made. ``level`` 0 is
    the policy alone; from 1 on, rollouts over ``level * ROLLOUT_DEALS`` sampled deals before
    the horizon and exact endgames over ``level * SAMPLES`` sampled deals from it.

    Raises:
        PositionError: the round is over, or the hand of the seat to play is unknown.
    """
    return decide(view, seed=seed, limits=limits, level=level).play


def play_out(pos: Position, *, seed: int = 0, level: int = DEFAULT_LEVEL) -> Position:
    """``pos`` (every hand known) played to the end of the round with every seat playing
    :func:`choose_play` on its own view: from the exact horizon on at ``level``, before it the
    policy (level 0: the rollouts are left out, a playout must be cheap). The policy is asked
    on the whole position directly: it reads only the seat's own cards and the public state,
    so that is the same play, without filling the hidden hands."""
    pos = pos.settle()
    while not pos.finished:
        seat = pos.to_play
        assert seat is not None
        if level >= 1 and pos.tricks_left <= HORIZON[pos.players]:
            view = pos.hide([s for s in range(pos.players) if s != seat])
            play = choose_play(view, seed=seed, level=level)
        else:
            play = policy_play_known(pos, seed)
        pos = pos.play(play)
    return pos
