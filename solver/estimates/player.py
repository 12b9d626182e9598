"""catbox's player: one play for the seat to play, from what that seat knows (the machinery;
:mod:`.decision` makes the decision and gives its reasons).

:func:`.decision.choose_play` is the stable entry point used by the benchmark's arena, the practice
opponent and ``advise``. ``view`` is a :class:`Position` as the seat to play knows it: its own
hand and set-aside card, every other hand by size only (:meth:`Position.hide`); the player reads
nothing else, and the same view, seed and level give the same play.

How it plays (``level``):

* **0 — the policy.** catbox's playing policy (:func:`.policy.choose`): the cells and
  colours the seat's remaining numbers need, the card it keeps (E1), red timing and the
  prediction. It reads only the seat's own cards and the public state; the other hands are
  filled with one consistent deal only because the playout state wants every hand.
* **1 and up, before the horizon — rollouts over sampled deals** (flat Monte Carlo). The
  policy's :data:`ROLLOUT_TOP` best plays are each made on :data:`ROLLOUT_DEALS` deals of the
  unseen cards consistent with the view and the round is played on to its end by the policy in
  every seat (the same deals and random streams for every play, so the differences are
  paired); the play with the best mean score of S (Sc1-Sc3: its tricks, the bonus when they
  match its prediction, minus its tricks when it causes the paradox) is made, the policy's
  value breaking ties. This is what gives the policy its trick control: a play is judged by
  where the round goes after it, not by the next trick. Each rollout also asks the compiled
  core, at the first trick start of the exact horizon (every hand of that deal known), whether
  S can still guarantee avoiding its paradox there; a rollout where it cannot counts
  :data:`HORIZON_RISK` points less: the policy in the other seats rarely finishes such a
  squeeze, real opponents often do (the seats that went on to cause their paradox against the
  peer's ISMCTS bot entered the horizon safe on far fewer sampled deals than the others).
* **1 and up, from the horizon — exact endgames over sampled deals.** From :data:`HORIZON`
  tricks left (per player count, measured in bench/arena.py), it draws deals of the unseen
  cards consistent with the view (:class:`.deals.DealSpace`, a fair shuffle of the
  physical cards) and solves every legal play on each with the compiled search core, the way
  bridge programs play card by card (perfect-information Monte Carlo). It first keeps the
  plays after which S can still guarantee avoiding its paradox (X1) against every other seat
  on nearly as many deals as the safest play (within :data:`AVOID_TOLERANCE` of them), and
  among those makes the one with the best mean score of S when the policy plays the round on
  in every seat from each solved deal (:data:`ENDGAME_PLAYOUTS` per deal: the guaranteed
  score below assumes the others play against S, and so misses most prediction hits); ties go
  to :meth:`Scored.key`, in this order:

  1. the play after which S can still guarantee avoiding its paradox on the most deals;
  2. then on which S can at least still avoid it if the others let it (cooperative);
  3. then after which the round can still end with no paradox at all (the cooperative search
     in the last tricks (:data:`ROUND_EXACT_FROM`), Hall's condition for every other seat
     before): S alone does not care who causes a paradox — another seat's ends the round
     with S safe (X3) — and this key lowers self-play paradoxes, though at 4 players not to
     the policy's rate (docs/player.md, "Self-play and the ranking");
  4. then the best mean score (Sc1-Sc3) S can guarantee;
  5. then the policy's own value of the play.

  A deal whose search exceeds its node budget is dropped; if none is solved the policy plays.
  When every consistent deal fits in :data:`SAMPLES` they are enumerated with their weights.

>>> from ..deal import random_position
>>> full = random_position(4, seed=5, tricks_left=2)
>>> view = full.hide([s for s in range(4) if s != full.to_play])
>>> endgame_choice(score_plays(view, seed=1, playouts=1)) in view.legal_plays()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import Colour, Play
from ..errors import PositionError
from ..limits import Limits, OutOfTime
from ..position import Position
from .deals import DealSpace
from .policy import Sim, choose, hazard_at, hazard_value, values

if TYPE_CHECKING:
    from ..search.native import NativeEngine
    from ..search.state import Ctx, State

__all__ = [
    "DEFAULT_LEVEL",
    "HORIZON",
    "MAX_LEVEL",
    "ROLLOUT_DEALS",
    "ROLLOUT_TOP",
    "SAMPLES",
    "Scored",
    "endgame_choice",
    "endgame_ranked",
    "policy_play_known",
    "policy_ranked",
    "rollout_plays",
    "score_plays",
]

DEFAULT_LEVEL = 1
MAX_LEVEL = 5  # the front doors' budget knob (--level) stops here: 100 deals per decision
# tricks left (the current one included) from which the player solves sampled deals exactly,
# per player count: measured in bench/arena.py ("endgame speed") against the decision targets.
# At 5 players from 4 (2 before; a play 0.3 s CPU median at 4 tricks left, under 0.1 s in the
# last three): of the seats that caused the paradox against the peer's heuristic bot, some
# could still guarantee avoiding it at 3 or 4 tricks left and lost it in the rollouts; from 4
# they caused fewer (docs/player.md, "Five players")
HORIZON = {2: 6, 3: 5, 4: 4, 5: 4}
SAMPLES = 20  # sampled deals per decision (level 1); level k uses k times as many
NODE_LIMIT = 200_000  # per deal and play; a deal over it is left out


@dataclass(frozen=True, slots=True)
class Scored:
    """One play over the solved deals (``weight``: their total weight): on how much of it S
    can still guarantee avoiding its paradox against every other seat (``avoids``), on how
    much it can at least still avoid it if the others let it (``possible``, the cooperative
    question), the weighted sum of the best scores S can guarantee (``score``; only for the
    plays that avoid it most, else None), the policy's value of the play (``policy``, the
    last tie-break), the weight on which the round can still end paradox-free (``clear``)
    and, with ``playouts`` in :func:`score_plays`, the weight on which the policy played by
    every seat after the play ends it paradox-free (``follow``) and S's mean score there
    (``follow_score``; measured in the arena's self-play, not part of :meth:`key`)."""

    play: Play
    avoids: float
    possible: float
    score: float | None
    weight: float
    policy: float = 0.0
    clear: float = 0.0
    follow: float = 0.0
    follow_score: float = 0.0

    def key(self) -> tuple[float, ...]:
        if not self.weight:
            return (0.0, 0.0, float("-inf"), 0.0, self.policy)
        w = self.weight
        sc = self.score / w if self.score is not None else float("-inf")
        return (self.avoids / w, self.possible / w, self.clear / w, sc, self.policy)


def _rng(seed: int, pos: Position) -> random.Random:
    """A stream that depends on the seed and the public state only (never a hidden card)."""
    return random.Random(f"catbox-player/{seed}/{pos.completed_tricks}/{len(pos.trick)}")


def policy_ranked(view: Position, seed: int) -> list[tuple[float, Play]]:
    """The policy's value of every legal play of the seat to play in ``view`` (level 0's
    decision: the first of these is its play), best first."""
    rng = _rng(seed, view)
    # the policy reads the seat's own cards and the public state only; the unseen hands are
    # filled (by the same seeded stream) because the playout state wants every hand
    deal = DealSpace.of(view).sample(random.Random(rng.random()))
    vals = [(v, Play(num, Colour(c))) for v, (num, c) in values(Sim.of(deal), rng)]
    # choose's order: the first of the highest values (a stable sort keeps it first)
    return sorted(vals, key=lambda r: -r[0])


def policy_play_known(pos: Position, seed: int) -> Play:
    """Level 0's play on a position with every hand known: the same play (the policy
    never reads another hand; the same stream, less its draw for the filling)."""
    rng = _rng(seed, pos)
    rng.random()
    num, colour = choose(Sim.of(pos), rng)
    return Play(num, Colour(colour))


# tricks left from which "the round can still end paradox-free" is searched exactly, per player
# count (the cooperative search has no node budget; at 5 players two tricks cost seconds)
ROUND_EXACT_FROM = {2: 2, 3: 2, 4: 2, 5: 1}


def _round_open(pos: Position, seat: int) -> bool:
    """Can the round still end with no paradox at all (every seat cooperating)? Searched
    exactly (the cooperative search) in the last tricks (:data:`ROUND_EXACT_FROM`); before
    that, the necessary condition that no other seat is left unable to play all but one of
    its cards into distinct usable cells (Hall's condition, E1)."""
    if pos.finished:
        return pos.paradox is None
    if pos.tricks_left <= ROUND_EXACT_FROM[pos.players]:
        from ..possible import paradox_possible

        return bool(
            paradox_possible(pos, seat, limits=Limits(None), method="search").round_possible
        )
    from ..matching import hall_violation

    return not any(hall_violation(pos, o) for o in range(pos.players) if o != seat)


def _policy_values(view: Position, seed: int, filled: Position) -> dict[Play, float]:
    """The policy's value of every legal play (it reads the view only; ``filled`` is any deal
    consistent with it, for the playout state)."""
    return {Play(n, Colour(c)): v for v, (n, c) in values(Sim.of(filled), _rng(seed, view))}


def _deals_of(pos: Position, samples: int, seed: int) -> list[tuple[Position, int]]:
    """Every deal of the unseen cards consistent with ``pos`` with its weight when there are at
    most ``samples``; otherwise ``samples`` seeded draws of weight 1."""
    space = DealSpace.of(pos)
    if space.trivial or space.count() <= samples:
        deals = space.enumerate(samples)
        if deals is not None:
            return deals
    rng = _rng(seed, pos)
    return [(space.sample(random.Random(rng.random())), 1) for _ in range(samples)]


class _Tally:
    """Pass 1 of :func:`score_plays`, deal by deal: the solved deals (weight, the packed
    children of every play), per deal and play whether S can still guarantee avoiding its
    paradox and whether it can at least if the others let it, and per play the weights of
    :class:`Scored`'s ``clear``, ``follow`` and ``follow_score``."""

    __slots__ = ("clear", "follow", "follow_score", "oks", "solved")

    def __init__(self, plays: int) -> None:
        self.solved: list[tuple[int, list[State]]] = []
        self.oks: list[list[tuple[bool, bool]]] = []
        self.clear = [0.0] * plays  # no other seat is left unable to play out its hand
        self.follow = [0.0] * plays  # the policy's playouts after the play: paradox-free
        self.follow_score = [0.0] * plays  # ... and S's score there

    @property
    def weight(self) -> float:
        return float(sum(w for w, _ in self.solved))

    def avoids(self, j: int) -> tuple[float, float]:
        """Play ``j``'s weight of deals on which S can guarantee avoiding its paradox, and on
        which it can if the others let it."""
        rows = list(zip(self.solved, self.oks, strict=True))
        return (
            float(sum(w * r[j][0] for (w, _), r in rows)),
            float(sum(w * r[j][1] for (w, _), r in rows)),
        )


def _solve_deal(
    eng: NativeEngine,
    deal: Position,
    w: int,
    plays: list[Play],
    tally: _Tally,
    playouts: int,
    seed: int,
) -> None:
    """Pass 1 on one deal: every play solved (X1, the others against S; else the cooperative
    question), the round's openness after it, and ``playouts`` policy playouts from it.
    Raises OutOfTime (the deal is then left out for every play)."""
    from ..search.state import LEFT

    children = [ch for _, ch in eng.children(eng.state_of(deal))]
    row = []
    for ch in children:
        ok = eng.win(ch, 0, ch[LEFT])
        row.append((ok, ok or eng.avoid_possible(ch)))
    tally.solved.append((w, children))
    tally.oks.append(row)
    seat = eng.ctx.seat
    for j, p in enumerate(plays):
        if _round_open(deal.play(p), seat):
            tally.clear[j] += w
    if not playouts:
        return
    sim0 = Sim.of(deal)
    for j, p in enumerate(plays):
        for k in range(playouts):
            rng_k = random.Random(f"{seed}/{len(tally.solved)}/{k}")
            starts: list[int] = []
            sim, _, cut = _rolled_out(sim0, p, rng_k, seat, starts=starts)
            tally.follow[j] += w * (sim.paradox is None) / playouts
            tally.follow_score[j] += w * _value(sim, seat, cut, starts) / playouts


def _guaranteed_means(
    eng: NativeEngine, tally: _Tally, cands: list[int], budget: Callable[[], None], lim: Limits
) -> dict[int, float]:
    """Pass 2: the mean best score S can guarantee after each play of ``cands`` over the
    solved deals (a deal over budget for one of them is left out for all), scaled to the
    solved weight."""
    from ..search.api import guaranteed_score

    sums: dict[int, float] = dict.fromkeys(cands, 0.0)
    score_weight = 0.0
    for w, children in tally.solved:
        if lim.expired() and score_weight:
            break
        budget()
        try:
            got = {j: guaranteed_score(eng, children[j]) for j in cands}
        except OutOfTime:
            continue
        score_weight += w
        for j, sc in got.items():
            sums[j] += w * (sc if sc is not None else 0)
    if not score_weight:
        return {}
    return {j: v * tally.weight / score_weight for j, v in sums.items()}


def score_plays(
    view: Position,
    *,
    seed: int = 0,
    samples: int = SAMPLES,
    node_limit: int | None = NODE_LIMIT,
    limits: Limits | None = None,
    playouts: int = 0,
) -> list[Scored]:
    """Every legal play of the seat to play, solved exactly on deals of the unseen cards
    consistent with ``view`` (all of them, weighted, when there are at most ``samples``;
    otherwise ``samples`` seeded draws). A deal whose search hits ``node_limit`` or the time
    limit is left out for every play. ``playouts`` > 0 also plays the round on from each play
    that many times per deal with the policy in every seat (``Scored.follow``). Sorted best
    first (:meth:`Scored.key`)."""
    from ..search.native import NativeEngine

    pos = view.settle()
    seat = pos.to_play
    if seat is None:
        raise PositionError("the round is over: there is no play to choose", rule="E1")
    plays = pos.legal_plays()
    deals = _deals_of(pos, samples, seed)
    lim = Limits.of(limits)
    eng = NativeEngine.for_position(pos, seat)

    def budget() -> None:
        eng.set_budget(node_limit, lim.seconds(0.001))

    # pass 1: can S still guarantee avoiding its paradox after each play, deal by deal; if
    # not, can it at least still avoid it when the others let it (the cooperative question)
    tally = _Tally(len(plays))
    for deal, w in deals:
        if lim.expired() and tally.solved:
            break
        budget()
        try:
            _solve_deal(eng, deal, w, plays, tally, playouts, seed)
        except OutOfTime:
            continue
    avoids = [tally.avoids(j) for j in range(len(plays))]
    top = max(avoids, default=(0.0, 0.0))
    # pass 2: the best score S can guarantee, for the plays that avoid it most (only they can
    # be chosen)
    cands = [j for j, a in enumerate(avoids) if a == top]
    means = _guaranteed_means(eng, tally, cands, budget, lim) if len(cands) > 1 else {}
    pol = _policy_values(pos, seed, deals[0][0])
    out = [
        Scored(
            p,
            avoids[j][0],
            avoids[j][1],
            means.get(j),
            tally.weight,
            pol[p],
            tally.clear[j],
            tally.follow[j],
            tally.follow_score[j],
        )
        for j, p in enumerate(plays)
    ]
    return sorted(out, key=lambda r: (tuple(-x for x in r.key()), r.play))


def sim_state(sim: Sim, ctx: Ctx) -> State:
    """The search core's packed state of a playout state (every hand known) for the asking
    seat of ``ctx``: the same fields :func:`..search.state.from_position` reads from a
    :class:`Position` (tested against it)."""
    from ..search.state import board_masks

    occ, mine = board_masks(sim.board, ctx.seat)
    hands = perms = tot = 0
    for p in range(sim.players):
        h = sum(ctx.unit[k] * c for k, c in enumerate(sim.hands[p]) if k and c)
        hands |= h << (p * ctx.hb)
        tot += h
        perms |= sim.perms[p] << (4 * p)
    led = wval = wseat = -1
    if sim.trick:
        led, wval, wseat = sim.trick[0][1], sim.win_val, sim.win_seat
    left = 0 if sim.paradox is not None else sim.total_tricks - sim.completed  # X3
    return (occ, mine, hands, perms, tot, sim.leader, len(sim.trick), led, wval, wseat,
            sim.tricks[ctx.seat], left)  # fmt: skip


# before the horizon, each rollout asks at the first trick start of the exact horizon whether S
# can still guarantee avoiding its paradox there (every hand known, X1, the others against it);
# a rollout where it cannot counts HORIZON_RISK points less (the policy in the other seats
# rarely finishes such a squeeze; a real opponent often does: measured in the peer arena,
# docs/player.md "catbox's player and the arena")
HORIZON_RISK = 2.0
PROBE_NODES: int | None = 20_000  # per probe; a probe over it counts as no answer


def _rolled_out(
    sim0: Sim,
    play: Play,
    rng: random.Random,
    seat: int,
    probe: NativeEngine | None = None,
    horizon: int = 0,
    starts: list[int] | None = None,
) -> tuple[Sim, bool | None, int | None]:
    """A copy of ``sim0`` after ``play``, played to the end of the round by the policy in
    every seat (the rollouts before the horizon and the endgame's playouts), with: whether
    ``seat`` could still guarantee avoiding its paradox at the first trick start with
    ``horizon`` tricks left (asked of ``probe``; None: not reached, no probe, or over its
    node budget), and its score (Sc1-Sc3) as the round stood at the start of the last trick
    (None: not reached, or :data:`CUT_SHARE` off); with :data:`.policy.HAZARD` on at the
    player count, its score at every later trick start in ``starts`` (else left empty)."""
    sim = sim0.copy()
    sim.play(play.number, int(play.colour))
    safe: bool | None = None
    cut: int | None = None
    asked = False
    wanted = starts if hazard_at(sim.players) else None  # the trick starts, where credited
    while not sim.over:
        if not sim.trick:
            left = sim.total_tricks - sim.completed
            if wanted is not None:
                wanted.append(sim.score(seat) or 0)
            if probe is not None and not asked and left <= horizon:
                asked = True
                st = sim_state(sim, probe.ctx)
                probe.set_budget(PROBE_NODES, None)
                try:
                    safe = probe.win(st, 0, left)
                except OutOfTime:
                    safe = None
            if left == 1 and CUT_SHARE:  # off: no score to take at the last trick
                cut = sim.score(seat) or 0
        sim.play(*choose(sim, rng))
    return sim, safe, cut


# a playout's value for S can mix its final score with, at CUT_SHARE, its score as the round
# stood at the start of the last trick: another seat's paradox often ends the round there (X3;
# the peer's bots cause one in a quarter of their seat-rounds), and a trick S counts on winning
# last is then never won. Off: at 0.5 it caused more paradoxes of S's own in the peer arena
# (docs/player.md, "catbox's player and the arena")
CUT_SHARE = 0.0


def _value(sim: Sim, seat: int, cut: int | None, starts: list[int] | None = None) -> float:
    """S's score at the end of a playout, mixed with ``cut`` (:func:`_rolled_out`) at
    :data:`CUT_SHARE`, then with S's score at each later trick start (``starts``) at
    :data:`.policy.HAZARD` per trick, unless S caused the paradox."""
    final = sim.score(seat) or 0
    value = final if cut is None else (1 - CUT_SHARE) * final + CUT_SHARE * cut
    return hazard_value(sim, seat, value, starts or (), hazard_at(sim.players))


# before the exact horizon (level 1 and up): flat Monte Carlo over sampled deals, the policy's
# best few plays each played on to the end of the round by the policy in every seat
ROLLOUT_DEALS = 24  # sampled deals per decision (level 1); level k uses k times as many
ROLLOUT_TOP = 5  # the policy's best plays that are rolled out


def rollout_plays(
    view: Position,
    *,
    seed: int = 0,
    deals: int = ROLLOUT_DEALS,
    top: int = ROLLOUT_TOP,
    relative: bool = False,
    risk: float | None = None,
) -> list[tuple[Play, float, float]]:
    """The policy's ``top`` best plays of the seat to play, each played on ``deals`` sampled
    deals of the unseen cards consistent with ``view`` and then to the end of the round by the
    policy in every seat (the same deals and random streams for every play: the differences
    are paired). A rollout in which S can no longer guarantee avoiding its paradox at the first
    trick start of the exact horizon counts ``risk`` points less (default
    :data:`HORIZON_RISK`; 0: no probe). Returns (play, S's mean value, the policy's value),
    best first."""
    from ..search import native
    from ..search.native import NativeEngine

    pos = view.settle()
    seat = pos.to_play
    if seat is None:
        raise PositionError("the round is over: there is no play to choose", rule="E1")
    rng = _rng(seed, pos)
    space = DealSpace.of(pos)
    sims = [Sim.of(space.sample(random.Random(rng.random()))) for _ in range(deals)]
    ranked = sorted(values(sims[0], _rng(seed, pos)), reverse=True)
    cands = ranked[:top]
    streams = [rng.random() for _ in range(deals)]
    if risk is None:
        risk = HORIZON_RISK
    probe: NativeEngine | None = None
    if risk and native.available():
        probe = NativeEngine.for_position(pos, seat)
    horizon = HORIZON[pos.players]
    out = []
    for pv, (num, c) in cands:
        play = Play(num, Colour(c))
        total = 0.0
        for sim0, r in zip(sims, streams, strict=True):
            starts: list[int] = []
            sim, safe, cut = _rolled_out(sim0, play, random.Random(r), seat, probe, horizon, starts)
            total += _value(sim, seat, cut, starts) - (risk if safe is False else 0.0)
            if relative:
                total -= sum(sim.score(o) or 0 for o in range(pos.players) if o != seat) / (
                    pos.players - 1
                )
        out.append((play, total / deals, pv))
    return sorted(out, key=lambda r: (-r[1], -r[2], r[0]))


# in the exact endgame: the plays within this share of the deals of the safest one (S's own
# paradox avoidance guaranteed) are ranked by S's mean score when the policy plays the round on
# in every seat (ENDGAME_PLAYOUTS per deal), before the exact keys
AVOID_TOLERANCE = 0.1
ENDGAME_PLAYOUTS = 1


def endgame_ranked(
    rows: list[Scored], tolerance: float = AVOID_TOLERANCE, risk: float = 0.0
) -> list[Scored]:
    """:func:`score_plays`' rows (solved with ``playouts``) in the player's order: first the
    plays whose guaranteed paradox avoidance is within ``tolerance`` (a share of the deals) of
    the best, by the mean score of S when the round is played on by the policy
    (``follow_score``) less ``risk`` points per share of the deals on which S cannot guarantee
    avoiding its paradox, then :meth:`Scored.key`; then the others by :meth:`Scored.key`."""
    top = rows[0].avoids / rows[0].weight
    tier = [r for r in rows if r.avoids / r.weight >= top - tolerance - 1e-9]
    rest = [r for r in rows if r not in tier]

    def value(r: Scored) -> float:
        return (r.follow_score - risk * (r.weight - r.avoids)) / r.weight

    ranked = sorted(tier, key=lambda r: (-value(r), tuple(-x for x in r.key())))
    return ranked + rest


def endgame_choice(
    rows: list[Scored], tolerance: float = AVOID_TOLERANCE, risk: float = 0.0
) -> Play:
    """The player's play among :func:`score_plays`' rows: the first of :func:`endgame_ranked`."""
    return endgame_ranked(rows, tolerance, risk)[0].play
