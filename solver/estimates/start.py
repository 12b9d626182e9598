"""The round-start advisor: which card to set aside (S2) and which prediction to make (S3), for
one seat's dealt cards, by estimated round score over playouts (analysis.md, "The player's
questions").

Each sample deals the cards the seat cannot see to the other seats (S1; at 2 players, the 5
undealt cards: 3 revealed with their neutral tokens, 2 hidden, 2P1-2P3); the other seats set
aside a copy of the number they hold most of (each number has only 4 cells, so a crowded
number is the usual risk) and the seats after the asking seat predict from their hand's
strength. Then, for every candidate (set-aside card, prediction), the round is played out by
catbox's policy on the same deal with the same random stream (common random numbers: the
differences between candidates are sharper than their intervals suggest).

>>> r = advise_start(3, (1, 1, 2, 3, 4, 4, 5, 6, 6, 6), order=0, samples=20)
>>> len(r.candidates), r.candidates[0].score.samples
(18, 20)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import variant
from ..errors import PositionError
from ..limits import Limits
from ..pool import run_samples
from .opening import check_start, deal_world, outcomes
from .stats import Estimate, mean, proportion

if TYPE_CHECKING:
    from ..search import Session

__all__ = ["DEFAULT_START_SAMPLES", "Candidate", "StartAdvice", "advise_start"]

DEFAULT_START_SAMPLES = 800


@dataclass(frozen=True, slots=True)
class Candidate:
    set_aside: int
    prediction: int | None  # None at 2 players (no prediction)
    score: Estimate
    avoid_paradox: Estimate

    def to_json(self) -> dict[str, object]:
        return {
            "set_aside": self.set_aside,
            "prediction": self.prediction,
            "score": self.score.to_json(),
            "avoid_paradox": self.avoid_paradox.to_json(),
        }


@dataclass(frozen=True, slots=True)
class StartAdvice:
    players: int
    order: int  # 0: the round start seat
    hand: tuple[int, ...]
    before: tuple[int, ...]
    samples: int
    candidates: tuple[Candidate, ...]  # best first
    stopped: bool

    def to_json(self) -> dict[str, object]:
        best = self.candidates[0] if self.candidates else None
        return {
            "players": self.players,
            "order": self.order,
            "hand": list(self.hand),
            "predictions_before": list(self.before),
            "method": "playouts",
            "samples": self.samples,
            "candidates": [c.to_json() for c in self.candidates],
            "best": best.to_json() if best else None,
            "status": "estimate",
            "stopped_by_time_limit": self.stopped,
        }


StartJob = tuple[int, tuple[int, ...], int, tuple[int, ...], int, int]


def _start_job(job: StartJob) -> list[tuple[float, bool]]:
    players, hand, order, before, seed, index = job
    v = variant(players)
    keys = [(a, p) for a in sorted(set(hand)) for p in (v.predictions or (None,))]
    world = deal_world(players, hand, order, seed, index, before)
    return [(s, ok) for _, ok, s in outcomes(world, order, keys, before, hazard=0.0)]


def advise_start(
    players: int,
    hand: tuple[int, ...],
    *,
    order: int,
    before: tuple[int, ...] = (),
    samples: int = DEFAULT_START_SAMPLES,
    seed: int = 0,
    workers: int = 1,
    limits: Limits | None = None,
    session: Session | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> StartAdvice:
    """Every (set-aside card, prediction) for ``hand``, ranked by estimated round score
    (playouts only: ``session`` is taken for the uniform signature; sampling stops at the
    deadline of ``limits``)."""
    hand = tuple(sorted(hand))
    before = tuple(before)
    check_start(players, hand, order, before)
    if samples < 2:
        raise PositionError("the sample count must be at least 2", where="samples")
    v = variant(players)
    jobs: list[StartJob] = [(players, hand, order, before, seed, i) for i in range(samples)]
    results, stopped = run_samples(
        _start_job, jobs, workers=workers, limits=Limits.of(limits), progress=progress
    )
    keys = [(a, p) for a in sorted(set(hand)) for p in (v.predictions or (None,))]
    cands = []
    for j, (aside, pred) in enumerate(keys):
        col = [r[j] for r in results]
        scores = [float(s) for s, _ in col]
        oks = sum(1.0 for _, ok in col if ok)
        cands.append(Candidate(aside, pred, mean(scores), proportion(oks, len(col))))
    cands.sort(
        key=lambda c: (-c.score.value, -c.avoid_paradox.value, c.set_aside, c.prediction or 0)
    )
    return StartAdvice(players, order, hand, before, len(results), tuple(cands), stopped)
