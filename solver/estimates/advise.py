"""Which play keeps S's hand safe, estimated over the hands S cannot see (analysis.md, "The
player's view"; ``catbox advise``).

For every legal play X of the seat S to play, over deals of the unseen cards consistent with
S's knowledge (:mod:`.deals`):

* ``pimc`` — each deal is solved exactly by the forced search (:func:`..search.analyze_moves`):
  after X, can S guarantee avoiding its paradox with every hand open, and the best round score it
  can guarantee. Optimistic by nature: S sees the cards in each deal. A deal whose search hits
  its node budget is played out by the policy instead, for that deal only, and counted in
  ``fallbacks``.
* ``playouts`` — after X every seat plays the rest of the round by catbox's policy
  (:mod:`.policy`); ``avoid_paradox`` is the chance S causes no paradox, ``score`` its expected
  round score, ``tricks`` the distribution of S's final trick count.

Sample ``i`` draws its deal from a random stream derived from ``(seed, i)`` alone, so the answer
is the same for any number of workers. When every consistent deal can be enumerated (weights
included) and each is solved exactly, the answer is exact (``proven``).

>>> from ..deal import random_position
>>> pos = random_position(3, seed=4, tricks_left=2, hide=(0, 1))  # C to play sees only its hand
>>> a = advise(pos, 2, method="pimc")
>>> a.status, a.method, a.samples, str(a.best)
('proven', 'pimc', 108, '2R')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ..answers import PROVEN, Status
from ..cards import Play, seat_letter
from ..errors import PositionError
from ..limits import Limits
from ..pool import run_samples
from ..position import Position
from ..scoring import seat_score
from .deals import DealSpace, sample_rng
from .decision import play_out
from .policy import Sim, playout
from .stats import Estimate, exact, mean, proportion

if TYPE_CHECKING:
    from ..search import Session

__all__ = [
    "DEFAULT_SAMPLES",
    "EXACT_LIMIT",
    "PIMC_HORIZON",
    "Advice",
    "MoveEstimate",
    "advise",
    "pick_method",
]

Method = Literal["pimc", "playouts"]
DEFAULT_SAMPLES = 200
EXACT_LIMIT = 400  # enumerate (and solve) every consistent deal up to this many
# tricks left up to which "auto" solves each deal, per player count: the compiled search's reach
# at about 0.05 s a deal (measured: 40 deals of a 4-player position with 4 tricks left in
# 1.3-2.0 s, 2 of 40 x 9 plays over the node limit; one trick more costs 5-20x)
PIMC_HORIZON = {2: 6, 3: 4, 4: 4, 5: 3}
NODE_LIMIT = 3_000_000  # per deal; beyond it the deal is played out instead (a fallback)

# one sample's answer per move: (avoids S's paradox, S's score or None, S's tricks, fallback)
Outcome = tuple[bool, int | None, int, bool]


@dataclass(frozen=True, slots=True)
class MoveEstimate:
    play: Play
    avoid_paradox: Estimate
    score: Estimate | None  # None: S's prediction is unknown (Sc2)
    tricks: dict[int, float] | None  # playouts: distribution of S's final trick count
    fallbacks: int  # pimc: samples of this move played out because the search hit its budget

    def key(self) -> tuple[float, float]:
        return (self.avoid_paradox.value, self.score.value if self.score else float("-inf"))

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "play": str(self.play),
            "avoid_paradox": self.avoid_paradox.to_json(),
            "score": self.score.to_json() if self.score else None,
        }
        if self.tricks is not None:
            out["tricks"] = {str(k): round(v, 4) for k, v in sorted(self.tricks.items())}
        if self.fallbacks:
            out["fallbacks"] = self.fallbacks
        return out


@dataclass(frozen=True, slots=True)
class Advice:
    seat: int
    method: Method
    samples: int  # deals used (every consistent deal when exact)
    moves: tuple[MoveEstimate, ...]  # best first
    status: Status
    deals: int | None  # how many distinct consistent deals there are (None: not counted)
    fallbacks: int  # pimc: (sample, move) pairs played out instead of solved
    stopped: bool  # the time limit stopped sampling early
    level: int = 0  # the seats' model in playouts: 0 the policy, 1+ catbox's player

    @property
    def best(self) -> Play | None:
        return self.moves[0].play if self.moves else None

    def to_json(self) -> dict[str, object]:
        return {
            "seat": seat_letter(self.seat),
            "method": self.method,
            "samples": self.samples,
            "moves": [m.to_json() for m in self.moves],
            "best": str(self.best) if self.best else None,
            "status": self.status,
            "fallbacks": self.fallbacks,
            "stopped_by_time_limit": self.stopped,
        }


def pick_method(pos: Position, method: str) -> Method:
    if method == "auto":
        return "pimc" if pos.tricks_left <= PIMC_HORIZON[pos.players] else "playouts"
    if method not in ("pimc", "playouts"):
        raise PositionError(f"unknown method {method!r} (pimc, playouts or auto)")
    return "pimc" if method == "pimc" else "playouts"


def _play_out(
    deal: Position, seat: int, play: Play, seed: int, index: int, level: int = 0
) -> Outcome:
    if level:
        # every seat plays catbox's player on its own view (exact endgames over sampled deals)

        end = play_out(deal.play(play), seed=seed * 1_000_003 + index, level=level)
        return (end.paradox != seat, seat_score(end, seat), end.seats[seat].tricks, False)
    sim = Sim.of(deal)
    sim.play(play.number, int(play.colour))
    playout(sim, sample_rng(seed, index))
    return (sim.paradox != seat, sim.score(seat), sim.tricks[seat], False)


def evaluate_deal(
    deal: Position,
    seat: int,
    method: Method,
    seed: int,
    index: int,
    node_limit: int,
    session: Session | None = None,
    level: int = 0,
) -> list[Outcome]:
    """The outcome of every legal play of S (sorted) on one deal of every hand. ``level``: the
    model of every seat in playouts (0: catbox's policy; 1 and up: catbox's player,
    :func:`.decision.choose_play`, with exact endgames; slower)."""
    plays = deal.legal_plays()
    if method == "playouts":
        return [_play_out(deal, seat, p, seed, index, level) for p in plays]
    from ..search import analyze_moves

    rows = analyze_moves(deal, limits=Limits(node_limit=node_limit), session=session)
    out: list[Outcome] = []
    for row in rows:
        if row.status == PROVEN and row.guaranteed is not None:
            out.append((row.guaranteed, row.best_score, -1, False))
        else:
            ok, score, tricks, _ = _play_out(deal, seat, row.play, seed, index, level)
            out.append((ok, score, tricks, True))
    return out


def _sample_job(args: tuple[Position, int, Method, int, int, int, int]) -> list[Outcome]:
    pos, seat, method, seed, index, node_limit, level = args
    deal = DealSpace.of(pos).sample(sample_rng(seed, index))
    return evaluate_deal(deal, seat, method, seed, index, node_limit, level=level)


def advise(
    pos: Position,
    seat: int,
    *,
    method: str = "auto",
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    workers: int = 1,
    limits: Limits | None = None,
    session: Session | None = None,
    exact_limit: int = EXACT_LIMIT,
    progress: Callable[[int, int], None] | None = None,
    level: int = 0,
) -> Advice:
    """Every legal play of S ranked by estimated ``avoid_paradox``, then ``score``.
    ``limits``: sampling stops at its deadline (fewer samples, and says so); its
    ``node_limit`` (default :data:`NODE_LIMIT`) bounds each deal's search. ``level`` is the
    model of the seats in playouts: 0 catbox's policy (fast), 1 and up catbox's player
    (:func:`.decision.choose_play`: exact endgames over sampled deals, the policy before)."""
    pos = pos.settle()
    if pos.to_play is None:
        raise PositionError("the round is over: there is no play to advise", rule="E1")
    if pos.to_play != seat:
        raise PositionError(
            f"{seat_letter(seat)} is not to play ({seat_letter(pos.to_play)} is): advise ranks "
            "the plays of the seat to play",
            where="seat",
        )
    if pos.seats[seat].hand is None:
        raise PositionError(f"{seat_letter(seat)}'s hand must be known to advise it")
    if samples < 1:
        raise PositionError("the sample count must be at least 1", where="samples")
    m = pick_method(pos, method)
    plays = pos.legal_plays()
    space = DealSpace.of(pos)
    lim = Limits.of(limits)
    node_limit = NODE_LIMIT if lim.node_limit is None else lim.node_limit

    # exact: every consistent deal, weighed and solved
    if m == "pimc":
        count = space.count() if not space.trivial else 1
        if count <= exact_limit:
            deals = space.enumerate(exact_limit)
            assert deals is not None
            results: list[list[Outcome]] = []
            for i, (deal, _) in enumerate(deals):
                if lim.expired():
                    break
                results.append(
                    evaluate_deal(deal, seat, m, seed, i, node_limit, session, level=level)
                )
                if progress:
                    progress(i + 1, len(deals))
            solved = len(results) == len(deals) and not any(o[3] for r in results for o in r)
            if solved:
                weights = [w for _, w in deals]
                return _aggregate(
                    pos, seat, m, plays, results, weights, count, stopped=False, level=level
                )
            # a deal hit its budget (or time ran out): not exact; sample instead (an unweighted
            # average over the enumerated deals would be biased)
    # sampled
    jobs = [(pos, seat, m, seed, i, node_limit, level) for i in range(samples)]
    results, stopped = run_samples(
        _sample_job,
        jobs,
        workers=workers,
        limits=lim,
        progress=progress,
    )
    return _aggregate(pos, seat, m, plays, results, None, None, stopped=stopped, level=level)


def _aggregate(
    pos: Position,
    seat: int,
    method: Method,
    plays: list[Play],
    results: list[list[Outcome]],
    weights: list[int] | None,
    deals: int | None,
    *,
    stopped: bool,
    level: int = 0,
) -> Advice:
    n = len(results)
    moves = []
    fallbacks = 0
    for j, play in enumerate(plays):
        col = [r[j] for r in results]
        fb = sum(1 for o in col if o[3])
        fallbacks += fb
        oks = [1.0 if o[0] else 0.0 for o in col]
        scores = [o[1] for o in col]
        known = [float(s) for s in scores if s is not None]
        if weights is not None:
            avoid = exact(oks, weights)
            score = exact(known, weights) if len(known) == n else None
        else:
            avoid = proportion(sum(oks), n)
            score = mean(known) if len(known) == n else None
        tricks = None
        if method == "playouts" and n:
            tricks = {k: v / n for k, v in Counter(o[2] for o in col).items()}
        moves.append(MoveEstimate(play, avoid, score, tricks, fb))
    order = sorted(moves, key=lambda mv: (-mv.key()[0], -mv.key()[1], mv.play))
    status: Status = "proven" if weights is not None else "estimate"
    return Advice(seat, method, n, tuple(order), status, deals, fallbacks, stopped, level)
