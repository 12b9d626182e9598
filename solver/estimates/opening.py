"""catbox's player at the round start: the card to set aside (S2) and the prediction (S3),
ranked by the seat's mean round score over playouts from sampled deals, with the samples spent
where the ranking is still open (successive halving, by quarters).

A sample (a *world*) deals the cards the seat cannot see to the other seats the way the
round-start advisor does (:mod:`.start`: the others set aside a copy of the number they hold
most of, the seats after the asking one predict from their hand's strength, the seats before
it predicted ``before``); each candidate (set-aside card, prediction) is played out by
catbox's policy on the same worlds with the same random streams, so the differences between
candidates are paired. The advisor gives every candidate the same number of worlds; here the
budget (a count of playouts, :data:`BUDGET`) goes in equal rounds: every candidate still in
the race gets the same new worlds, then all but the best quarter leave (:data:`CUT`), until one
is left. The near-ties at the top get many worlds, the clear losers few: for the same work the
choice is far less noisy (measured in bench/arena.py's round-start table).

>>> o = rank_openings(4, (1, 1, 2, 3, 3, 3, 5, 6, 7, 8), order=0, budget=120)
>>> best = o.rows[0]
>>> best.set_aside in (1, 2, 3, 5, 6, 7, 8), best.prediction in (1, 2, 3)
(True, True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..cards import COPIES, variant
from ..errors import PositionError
from ..limits import Limits
from ..position import Position
from .deals import sample_rng
from .ownplay import OwnPlay, own_play
from .policy import Sim, hazard_at, hazard_value, playout
from .stats import Estimate, mean

__all__ = [
    "BUDGET",
    "AsideChoice",
    "Opening",
    "OpeningRow",
    "World",
    "aside_candidates",
    "aside_choice",
    "check_start",
    "choose_aside",
    "choose_prediction",
    "deal_world",
    "most_held_numbers",
    "opening_for_aside",
    "opening_for_prediction",
    "outcomes",
    "rank_openings",
]


def check_start(players: int, hand: tuple[int, ...], order: int, before: tuple[int, ...]) -> None:
    """A seat's round-start question is well put: its dealt hand (S1, B1), its place in
    order and the predictions made before it (S3).

    Raises:
        PositionError: the first thing wrong, with its rule.
    """
    v = variant(players)
    if len(hand) != v.dealt:
        raise PositionError(
            f"a dealt hand has {v.dealt} cards at {players} players, not {len(hand)}", rule="S1"
        )
    for c, k in Counter(hand).items():
        if not 1 <= c <= v.max_number:
            raise PositionError(f"card {c}: numbers run 1..{v.max_number}", rule="B1")
        if k > COPIES:
            raise PositionError(f"{k} copies of {c}: there are only {COPIES}", rule="S1")
    if not 0 <= order < players:
        raise PositionError(f"order must be 0..{players - 1}", where="order")
    if players == 2 and before:
        raise PositionError("there are no predictions at 2 players", rule="S3")
    if players > 2 and len(before) != order:
        raise PositionError(
            f"seat {order} in order after the round start: give the {order} predictions "
            f"made before it, not {len(before)}",
            rule="S3",
            where="before",
        )
    for p in before:
        if p not in v.predictions:
            raise PositionError(
                f"prediction {p} is not allowed at {players} players ({v.predictions})", rule="S3"
            )


# playouts per round-start decision, per player count (each a policy playout of the round):
# about half a second of one core at the round start (bench/arena.py's round-start table)
BUDGET = {2: 900, 3: 800, 4: 600, 5: 450}


@dataclass(frozen=True, slots=True)
class World:
    """One sampled deal around the asking seat (place ``order`` from the round start, seat
    ``order`` of a round started by seat 0): every dealt hand (the asking seat's is its own),
    the 2-player revealed cards, the other seats' set-aside cards (0 for the asking seat),
    the fixed rule's prediction of every seat (None at 2 players; the playouts use those of
    the seats after the asking one) and the playouts' stream."""

    dealt: tuple[tuple[int, ...], ...]
    revealed: tuple[int, ...]
    asides: tuple[int, ...]
    preds_after: tuple[int | None, ...]
    play_seed: float


def most_held(hand: Sequence[int], rng: random.Random) -> int:
    """The fixed rule's set-aside card: a copy of the number the hand holds most of (ties by
    ``rng``)."""
    counts = Counter(hand)
    most = max(counts.values())
    return rng.choice(sorted(n for n, k in counts.items() if k == most))


def strength_prediction(hand: Sequence[int], players: int) -> int:
    """The fixed rule's prediction (3-5 players): the allowed value nearest the hand's share
    of the tricks, scaled by its mean number against the deck's."""
    v = variant(players)
    mean_deck = (v.max_number + 1) / 2
    guess = v.tricks / players * (sum(hand) / len(hand)) / mean_deck
    return min(v.predictions, key=lambda p: (abs(p - guess), p))


def fixed_prediction(dealt: Sequence[int], aside: int, players: int) -> int:
    """The fixed rule's prediction of a seat that set ``aside`` aside from its ``dealt`` hand:
    :func:`strength_prediction` of the hand it plays."""
    return strength_prediction(_less(dealt, aside), players)


def _less(hand: Sequence[int], card: int) -> list[int]:
    """``hand`` without one copy of ``card`` (the whole hand when it holds none: the asking
    seat's placeholder 0)."""
    rest = list(hand)
    if card in rest:
        rest.remove(card)
    return rest


# a world is redrawn (up to this many times) until the fixed rule, in every seat before the asking
# one, makes the prediction that seat made (``before``: public, I6); the last draw is kept
MATCH_TRIES = 32


def deal_world(
    players: int,
    hand: tuple[int, ...],
    order: int,
    seed: int,
    index: int,
    before: Sequence[int] = (),
) -> World:
    """World ``index`` under ``seed`` (the stream of :func:`.deals.sample_rng`), redrawn on
    sub-streams of it (at most :data:`MATCH_TRIES` draws) until the seats before the asking
    one would have predicted ``before`` by the fixed rule: a strong hand before the seat
    predicted more tricks, and the worlds agree with it."""
    w = _draw_world(players, hand, order, sample_rng(seed, index))
    for k in range(1, MATCH_TRIES if before else 0):
        if all(w.preds_after[s] == p for s, p in enumerate(before)):
            break
        w = _draw_world(players, hand, order, random.Random(f"catbox-world/{seed}/{index}/{k}"))
    return w


def _draw_world(players: int, hand: tuple[int, ...], order: int, rng: random.Random) -> World:
    v = variant(players)
    rest = Counter(dict.fromkeys(v.numbers, COPIES)) - Counter(hand)
    cards = sorted(rest.elements())
    rng.shuffle(cards)
    dealt: list[tuple[int, ...]] = []
    at = 0
    for seat in range(players):
        if seat == order:
            dealt.append(tuple(hand))
        else:
            dealt.append(tuple(cards[at : at + v.dealt]))
            at += v.dealt
    revealed = tuple(sorted(cards[at : at + 3])) if players == 2 else ()
    asides = tuple(most_held(h, rng) if s != order else 0 for s, h in enumerate(dealt))
    # the fixed rule predicts from the hand it plays (the dealt hand less its set-aside card)
    preds = tuple(
        fixed_prediction(h, a, players) if players > 2 else None
        for h, a in zip(dealt, asides, strict=True)
    )
    return World(tuple(dealt), revealed, asides, preds, rng.random())


def _base(world: World, order: int, aside: int) -> Sim:
    """The round of ``world`` with the asking seat setting ``aside`` aside. Every seat's
    set-aside card is in the playout state, as at the table: the policy reads its own (the card
    it plans to keep, the copies it cannot see), never another seat's."""
    hands: list[tuple[int, ...] | None] = []
    asides: list[int | None] = []
    for s, h in enumerate(world.dealt):
        rest = list(h)
        card = aside if s == order else world.asides[s]
        rest.remove(card)
        asides.append(card)
        hands.append(tuple(rest))
    pos = Position.start(
        len(hands), hands, round_start=0, revealed=world.revealed, set_aside=asides
    )
    return Sim.of(pos)


def _played(
    world: World,
    order: int,
    cands: Sequence[tuple[int, int | None]],
    before: Sequence[int],
    hazard: float,
) -> Iterator[tuple[Sim, list[int]]]:
    """Every candidate (set-aside card, prediction) played out on ``world`` by the policy in
    every seat, in order: the finished rounds, each with the asking seat's score at every
    trick start after the first (with ``hazard`` on; else empty)."""
    players = len(world.dealt)
    bases: dict[int, Sim] = {}
    for aside, pred in cands:
        if aside not in bases:
            bases[aside] = _base(world, order, aside)
        sim = bases[aside].copy()
        if players > 2:
            sim.preds = [
                before[s] if s < order else pred if s == order else world.preds_after[s]
                for s in range(players)
            ]
        starts: list[int] = []
        playout(sim, random.Random(world.play_seed), starts=(order, starts) if hazard else None)
        yield sim, starts


def outcomes(
    world: World,
    order: int,
    cands: Sequence[tuple[int, int | None]],
    before: Sequence[int],
    own: OwnPlay | None = None,
    *,
    hazard: float | None = None,
) -> list[tuple[float, bool, float]]:
    """Every candidate (set-aside card, prediction) played out on ``world``: the value the
    player ranks it by (its score with, at ``hazard`` per trick, its score at each later trick
    start credited, :func:`.policy.hazard_value`; default the player count's
    :data:`.policy.HAZARD`), whether the asking seat avoided causing the paradox, and its score
    (Sc1-Sc3; with ``own``, its expected score for the player's own play: the policy's tricks
    moved by the measured table, :mod:`.ownplay`)."""
    h = hazard_at(len(world.dealt)) if hazard is None else hazard
    out = []
    for sim, starts in _played(world, order, cands, before, h):
        score = float(sim.score(order) or 0) if own is None else own.score(sim, order)
        out.append((hazard_value(sim, order, score, starts, h), sim.paradox != order, score))
    return out


@dataclass(frozen=True, slots=True)
class OpeningRow:
    """One candidate: its mean score over the worlds it was played on (``score.samples`` of
    them), the share of them on which it avoided causing the paradox, the round of the
    halving it left in (None: it was still in the race at the end) and the mean value it was
    ranked by (:func:`outcomes`: the score itself when :data:`.policy.HAZARD` is off)."""

    set_aside: int
    prediction: int | None
    score: Estimate
    avoid_paradox: float
    dropped: int | None
    value: Estimate


@dataclass(frozen=True, slots=True)
class Opening:
    """The ranked candidates (best first: the last ones in the race by mean value, then the
    others by the round they left in, later first), the playouts spent, whether a time limit
    stopped the halving early, and the question (players, the seat's place from the round
    start, its dealt hand, the predictions before it) and the credit per trick for an early end
    the rows' values carry (:data:`.policy.HAZARD`)."""

    rows: tuple[OpeningRow, ...]
    playouts: int
    stopped: bool
    players: int = 0
    order: int = 0
    hand: tuple[int, ...] = ()
    before: tuple[int, ...] = ()  # the predictions before the seat, as assumed or known
    hazard: float = 0.0


# each round keeps the best 1/CUT of the candidates still in the race: a quarter leaves the
# first round enough worlds per candidate at the round start's 15-24 candidates (a half gave it
# 5 at 4 players, where one playout's score varies by several points)
CUT = 4


def _kept(n: int) -> int:
    return (n + CUT - 1) // CUT


def _rounds(n: int) -> int:
    r = 0
    while n > 1:
        n = _kept(n)
        r += 1
    return max(r, 1)


def rank_openings(
    players: int,
    hand: tuple[int, ...],
    *,
    order: int,
    before: Sequence[int] = (),
    asides: Sequence[int] | None = None,
    seed: int = 0,
    budget: int | None = None,
    limits: Limits | None = None,
    own: OwnPlay | None = None,
) -> Opening:
    """Every candidate (a set-aside card from ``asides``, default every number in the dealt
    ``hand``; every allowed prediction) ranked by successive halving over at most ``budget``
    playouts (default :data:`BUDGET`); with ``own``, the asking seat's scores are the player's
    own play's (:func:`outcomes`). The inputs are the caller's to check (:mod:`.start`'s
    ``check_start``). Deterministic for a seed unless a time limit cuts it."""
    v = variant(players)
    lim = Limits.of(limits)
    total = BUDGET[players] if budget is None else budget
    cands = [(a, p) for a in sorted(set(asides or hand)) for p in (v.predictions or (None,))]
    rows: dict[tuple[int, int | None], list[tuple[float, bool, float]]] = {c: [] for c in cands}
    dropped: dict[tuple[int, int | None], int] = {}
    alive = list(cands)
    rounds = _rounds(len(cands))
    spent = index = 0
    stopped = False
    for r in range(rounds):
        worlds = max(1, total // rounds // len(alive))
        for _ in range(worlds):
            if lim.expired() and spent:
                stopped = True
                break
            world = deal_world(players, hand, order, seed, index, before)
            index += 1
            for c, got in zip(alive, outcomes(world, order, alive, before, own), strict=True):
                rows[c].append(got)
            spent += len(alive)
        alive.sort(key=lambda c: _key(c, rows[c]))
        if stopped or len(alive) == 1:
            break
        keep = _kept(len(alive))
        for c in alive[keep:]:
            dropped[c] = r
        alive = alive[:keep]
    ranked = sorted(cands, key=lambda c: (-dropped.get(c, rounds), _key(c, rows[c])))
    out = tuple(
        OpeningRow(
            a,
            p,
            mean([s for _, _, s in rows[(a, p)]]),
            sum(ok for _, ok, _ in rows[(a, p)]) / max(1, len(rows[(a, p)])),
            dropped.get((a, p)),
            mean([v for v, _, _ in rows[(a, p)]]),
        )
        for a, p in ranked
    )
    hazard = hazard_at(players)
    return Opening(out, spent, stopped, players, order, tuple(hand), tuple(before), hazard)


def _key(c: tuple[int, int | None], got: list[tuple[float, bool, float]]) -> tuple[float, ...]:
    """Best first: the mean value, then paradox avoidance, then the smaller card/prediction."""
    n = max(1, len(got))
    return (-sum(v for v, _, _ in got) / n, -sum(ok for _, ok, _ in got) / n, c[0], c[1] or 0)


# ---------------------------------------------------------------- the player's entry points
def typical_before(players: int, order: int) -> tuple[int, ...]:
    """Predictions assumed for the seats before ``order`` when the set-aside card is chosen
    (S2 comes before S3: they are not known yet): the middle of the allowed values."""
    allowed = variant(players).predictions
    return tuple(allowed[len(allowed) // 2] for _ in range(order)) if allowed else ()


def opening_for_aside(
    hand: Sequence[int],
    *,
    players: int,
    order: int,
    seed: int = 0,
    limits: Limits | None = None,
    budget: int | None = None,
    asides: Sequence[int] | None = None,
) -> Opening:
    """The ranking behind :func:`choose_aside`: every (set-aside card of ``asides``, default
    every number of the hand; prediction), the predictions before the seat assumed
    :func:`typical_before`."""

    before = typical_before(players, order)
    dealt = tuple(sorted(hand))
    check_start(players, dealt, order, before)
    return rank_openings(
        players,
        dealt,
        order=order,
        before=before,
        asides=asides,
        seed=seed,
        budget=budget,
        limits=limits,
    )


def opening_for_prediction(
    hand: Sequence[int],
    aside: int,
    *,
    players: int,
    order: int,
    before: Sequence[int] = (),
    seed: int = 0,
    limits: Limits | None = None,
    budget: int | None = None,
    own: bool = False,
) -> Opening:
    """The ranking behind :func:`choose_prediction`: every allowed prediction with ``aside``
    set aside, the predictions ``before`` known, on the policy's play of the round; with
    ``own`` the estimates are for the player's own play instead (:mod:`.ownplay`'s table,
    measured against the policy: it balanced the player's misses there but lost points
    against another program's bots, so it is not the default; docs/player.md)."""

    if players == 2:
        raise PositionError("there are no predictions at 2 players", rule="S3")
    dealt = tuple(sorted(hand))
    check_start(players, dealt, order, tuple(before))
    if aside not in dealt:
        raise PositionError(f"{aside} was not dealt: it cannot be set aside", rule="S2")
    return rank_openings(
        players,
        dealt,
        order=order,
        before=tuple(before),
        asides=(aside,),
        seed=seed,
        budget=budget,
        limits=limits,
        own=own_play(players) if own else None,
    )


def most_held_numbers(hand: Sequence[int]) -> tuple[int, ...]:
    """The numbers ``hand`` holds the most copies of, ascending."""
    counts = Counter(hand)
    most = max(counts.values())
    return tuple(sorted(n for n, k in counts.items() if k == most))


@dataclass(frozen=True, slots=True)
class AsideChoice:
    """:func:`choose_aside`'s decision: the ranking it was made from (``opening``: every
    (card, prediction) for the candidate numbers), the card chosen, the best candidate
    (``usual``) and two fields kept for the documents' shape: ``check`` (always None: no
    check of another card is made) and ``worlds`` (0)."""

    opening: Opening
    aside: int
    usual: tuple[int, int | None]
    check: float | None
    worlds: int


# per player count, the set-aside candidates: every number of the hand (True) or the numbers it
# holds most of (False), ranked over ASIDE_BUDGET playouts (default BUDGET). At 5 players the
# model says the card is the lever (bench/arena.py's round-start ceiling: +0.43 against +0.22
# per seat-round with every card ranked); measured in the arenas (docs/player.md, "Five
# players")
ASIDE_EVERY = {2: False, 3: False, 4: False, 5: False}
ASIDE_BUDGET = {5: 800}


def aside_candidates(hand: Sequence[int], *, players: int, order: int) -> tuple[int, ...]:
    """The numbers :func:`choose_aside` chooses among: those the hand holds most of (every
    number of the hand where :data:`ASIDE_EVERY` says so), ascending.

    Raises:
        PositionError: the hand or the order is not one of ``players`` (S1, B1).
    """
    check_start(players, tuple(sorted(hand)), order, typical_before(players, order))
    return tuple(sorted(set(hand))) if ASIDE_EVERY[players] else most_held_numbers(tuple(hand))


def aside_choice(
    hand: Sequence[int],
    *,
    players: int,
    order: int,
    seed: int = 0,
    limits: Limits | None = None,
    candidates: Sequence[int] | None = None,
) -> AsideChoice:
    """The decision of :func:`choose_aside` with its reasons (:class:`AsideChoice`): the
    ``candidates`` (default :func:`aside_candidates`) ranked with every prediction over
    :data:`ASIDE_BUDGET` (default :data:`BUDGET`) playouts when there are several; with one,
    its predictions are ranked over a third of :data:`BUDGET` (the reasons only: the card is
    already decided)."""
    tied = (
        aside_candidates(hand, players=players, order=order)
        if candidates is None
        else tuple(candidates)
    )
    total = ASIDE_BUDGET.get(players, BUDGET[players]) if len(tied) > 1 else BUDGET[players] // 3
    opening = opening_for_aside(
        hand, players=players, order=order, seed=seed, limits=limits, budget=total, asides=tied
    )
    best = opening.rows[0]
    return AsideChoice(opening, best.set_aside, (best.set_aside, best.prediction), None, 0)


def choose_aside(
    hand: Sequence[int],
    *,
    players: int,
    order: int,
    seed: int = 0,
    limits: Limits | None = None,
) -> int:
    """The card to set aside (S2) from the dealt ``hand``; ``order`` is the seat's place
    counting from the round start player (0 for it). From the seat's own cards only, the same
    for the same hand, order and seed (unless a time limit in ``limits`` cuts the search).
    A copy of the number the hand holds most of (each number has 4 cells and 5 copies, so a
    crowded number is the usual paradox risk); when several numbers tie, the one whose best
    (card, prediction) scores most by :func:`rank_openings` over :data:`ASIDE_BUDGET` playouts
    (default :data:`BUDGET`), the predictions before the seat assumed in the middle of the
    allowed values (they are made after the set-aside, S3). Where :data:`ASIDE_EVERY` says so,
    every card of the hand is ranked instead; at 3 and 4 players that won no points in
    bench/arena.py's round-start measurements (docs/player.md).

    Raises:
        PositionError: the hand or the order is not one of ``players`` (S1, B1).
    """
    tied = aside_candidates(hand, players=players, order=order)
    if len(tied) == 1:
        return tied[0]
    return aside_choice(
        hand, players=players, order=order, seed=seed, limits=limits, candidates=tied
    ).aside


def choose_prediction(
    hand: Sequence[int],
    aside: int,
    *,
    players: int,
    order: int,
    before: Sequence[int] = (),
    seed: int = 0,
    limits: Limits | None = None,
) -> int:
    """The prediction (S3) of the seat holding the dealt ``hand`` that set ``aside`` aside,
    knowing the predictions ``before`` it in order (the round start player's first): the best
    of the allowed values by :func:`rank_openings` over :data:`BUDGET` playouts
    (:func:`opening_for_prediction`, the ranking shown as its reasons).

    Raises:
        PositionError: 2 players (no prediction, S3), ``aside`` not in the hand (S2), or the
            hand, order or predictions before are not of ``players`` (S1, S3).
    """
    opening = opening_for_prediction(
        hand, aside, players=players, order=order, before=before, seed=seed, limits=limits
    )
    best = opening.rows[0].prediction
    assert best is not None
    return best
