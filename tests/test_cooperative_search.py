"""The cooperative search (``coop.CoopSearch``) obeys the rules engine step by step, as
test_search_state.py checks the packed state: at every state of random playouts its moves are
exactly the legal plays of ``Position`` (L1-L3, X1), every child state is the encoding of the
position ``Position.play`` gives (P1, F2, W1, W3, E1) and a won trick is counted for the seat.

Unknown hands are dealt lazily by the search: a *draw* plays one card of the unknown pool, a
*commit* fixes the whole rest of a hand (the red lead of L3b, which depends on every card held),
a *stuck* move deals dead cards (X1 for some deal). Each is checked against ``Position`` with the
hand the move implies: a drawn card is legal for the unknown hand; a committed hand, written into
the position, makes the red lead legal; the dead cards leave no legal play; and every hand of
the unknown pool that allows a red lead (or no play at all) is offered.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from itertools import combinations_with_replacement

import pytest

from catbox.solver.board import EMPTY
from catbox.solver.cards import Colour, Play
from catbox.solver.coop import CoopSearch, Move, State
from catbox.solver.deal import deal_round, random_position
from catbox.solver.position import Position

PLAY, DRAW, COMMIT, STUCK = 0, 1, 2, 3


def encode(pos: Position, lazy: bool) -> State:
    """The search state of ``pos``, written independently of ``CoopSearch``: filled colours per
    number, known hands, undetermined cards per seat, the pool (when any hand started unknown),
    permissions, leader, the trick in progress and tricks left."""
    n = pos.max_number
    fc = [0] * (n + 1)
    for i, owner in enumerate(pos.board):
        if owner != EMPTY:
            fc[i % n + 1] |= 1 << (i // n)
    pool = pos.unknown_pool()
    return (
        tuple(fc),
        tuple(s.hand if s.hand is not None else () for s in pos.seats),
        tuple(0 if s.hand is not None else s.hand_size for s in pos.seats),
        tuple(pool[k] for k in range(n + 1)) if lazy else (),
        tuple(s.colours for s in pos.seats),
        pos.leader,
        tuple(
            (w, p.number, int(p.colour)) for w, p in zip(pos.trick_seats(), pos.trick, strict=True)
        ),
        pos.tricks_left,
    )


def with_hand(pos: Position, seat: int, hand: tuple[int, ...]) -> Position:
    """``pos`` with the unknown hand of ``seat`` now known to be ``hand``."""
    seats = list(pos.seats)
    assert seats[seat].hand is None and len(hand) == seats[seat].hand_size
    seats[seat] = replace(seats[seat], hand=tuple(sorted(hand)))
    return replace(pos, seats=tuple(seats))


def hands_from(pool: Counter[int], size: int) -> set[tuple[int, ...]]:
    """Every hand of ``size`` cards the pool can deal."""
    cards = sorted(n for n in pool if pool[n] > 0)
    return {
        h
        for h in combinations_with_replacement(cards, size)
        if all(h.count(n) <= pool[n] for n in set(h))
    }


def check_state(
    search: CoopSearch, st: State, pos: Position, seen: Counter[str]
) -> list[tuple[Move, State, Position]]:
    """Compare the moves of ``st`` with the rules of ``pos``; return (move, child, position
    after) for every move that continues the round."""
    lazy = search.root[3] != ()
    assert st == encode(pos, lazy)
    seat = pos.to_play
    assert seat is not None and pos.paradox is None
    moves = search.expand(st)
    hand = pos.seats[seat].hand
    out = []
    if hand is not None:  # a known hand: exactly the legal plays, or X1
        legal = pos.legal_plays()
        plays = sorted(Play(n, Colour(c)) for (k, _, n, c, _), *_ in moves if k != STUCK)
        assert plays == legal
        assert all(k in (PLAY, COMMIT) and w == seat for (k, w, *_), *_ in moves if k != STUCK)
        assert [m for m, *_ in moves if m[0] == STUCK] == (
            [] if legal else [(STUCK, seat, 0, 0, ())]
        )
        seen["play"] += bool(legal)
        seen["stuck"] += not legal
    else:
        pool = pos.unknown_pool()
        size = pos.seats[seat].hand_size
        leading_red_gated = not pos.trick and not pos.red_broken
        draws = {Play(n, Colour(c)) for (k, _, n, c, _), *_ in moves if k == DRAW}
        expect = set()
        for n in sorted(pool):
            if pool[n] == 0:
                continue
            for c in Colour:
                if c == Colour.R and leading_red_gated:
                    continue  # a red lead is a commit: it depends on the whole hand
                try:
                    pos.check_play(Play(n, c))
                except ValueError:
                    continue
                expect.add(Play(n, c))
        assert draws == expect
        seen["draw"] += bool(draws)
        # commits: exactly the hands that allow a red lead (L3b), with each red lead they allow
        commits = {(ms, Play(n, Colour(c))) for (k, _, n, c, ms), *_ in moves if k == COMMIT}
        want_commits = set()
        stuck_hands = set()
        for h in hands_from(pool, size):
            legal = with_hand(pos, seat, h).legal_plays()
            if not legal:
                stuck_hands.add(h)
            if leading_red_gated:
                want_commits |= {(h, p) for p in legal if p.colour == Colour.R}
        assert commits == want_commits
        seen["commit"] += bool(commits)
        stuck = [m for m, *_ in moves if m[0] == STUCK]
        assert len(stuck) == (1 if stuck_hands else 0)
        if stuck:  # one dead hand suffices (X1 for that deal)
            assert stuck[0][4] in stuck_hands
            seen["stuck-deal"] += 1
    for move, child, gain, term in moves:
        kind, who, number, colour, ms = move
        if kind == STUCK:
            assert term == (int(who != search.seat), False) and child is None
            continue
        base = with_hand(pos, who, ms) if kind == COMMIT else pos
        after = base.play(Play(number, Colour(colour)))
        completed = after.completed_tricks > pos.completed_tricks
        won = completed and after.seats[search.seat].tricks > pos.seats[search.seat].tricks
        assert gain == int(won)
        if term is not None:  # E1: the last trick is complete
            assert term == (1, True) and child is None
            assert after.finished and after.paradox is None
            continue
        assert child == encode(replace(after, paradox=None), lazy)
        out.append((move, child, after))
    return out


def walk(pos: Position, seat: int, rng: random.Random, seen: Counter[str]) -> None:
    """A random playout through the search's own moves, checked at every state."""
    search = CoopSearch(pos, seat)
    st: State = search.root
    pos = pos.settle()
    while not pos.finished:
        nxt = check_state(search, st, pos, seen)
        if not nxt:
            break
        seen["states"] += 1
        _, st, pos = rng.choice(nxt)
    if pos.paradox is not None:  # the search sees it as a state whose only move is X1
        moves = search.expand(st)
        assert [m[0] for m, *_ in moves] == [STUCK] and moves[0][0][1] == pos.paradox
        seen["stuck"] += 1


def red_unbroken(players: int, seed: int, tricks_left: int) -> Position | None:
    """A position with red never declared yet (L3 still gates red leads)."""
    pos = deal_round(players, seed).position
    rng = random.Random(seed)
    while pos.tricks_left > tricks_left and not pos.finished:
        plays = pos.legal_plays()
        pos = pos.play(rng.choice([p for p in plays if p.colour != Colour.R] or plays))
    return None if pos.finished or pos.red_broken else pos


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_moves_match_the_rules_engine(players: int) -> None:
    """Known hands and one or two unknown hands (lazy deals), mid-trick too."""
    seen: Counter[str] = Counter()
    for seed in range(25):
        tricks_left = 1 + seed % 4
        pos = random_position(players, 40 + seed, tricks_left, mid_trick=seed % players)
        rng = random.Random(seed)
        walk(pos, seed % players, rng, seen)
        walk(pos.hide([(seed + 1) % players]), seed % players, rng, seen)
        if players >= 3 and tricks_left <= 2:
            walk(pos.hide([1, 2]), 0, rng, seen)
    assert min(seen[k] for k in ("play", "draw", "stuck", "states")) > 0, seen
    assert seen["states"] > 100, seen


def test_lazy_red_leads_and_dead_deals() -> None:
    """Red still unbroken: the commits of L3b and the stuck deals of X1 for unknown hands."""
    seen: Counter[str] = Counter()
    for seed in range(60):
        players = 3 + seed % 3
        pos = red_unbroken(players, 200 + seed, 2 + seed % 2)
        if pos is None:
            continue
        rng = random.Random(seed)
        for hidden in range(players):
            walk(pos.hide([hidden]), hidden, rng, seen)
    assert seen["commit"] > 0 and seen["stuck-deal"] > 0 and seen["stuck"] > 0, seen


def test_search_engines_avoid_question_agrees_with_the_cooperative_search() -> None:
    """The game-tree engines keep a twin of one cooperative question on their packed state
    (``avoid_possible``: some continuation without S's paradox, used for the best score when
    S's prediction is unknown). Both engines' answers agree with ``possible.paradox_possible``
    (the cooperative search, matching or CP-SAT, whichever it picks)."""
    from catbox.solver.deal import random_position
    from catbox.solver.possible import paradox_possible
    from catbox.solver.search.engine import Engine
    from catbox.solver.search.native import NativeEngine

    answers = set()
    for players in (2, 3, 4, 5):
        for seed in range(12):
            pos = random_position(players, 7100 + seed, 2 + seed % 2, mid_trick=seed % players)
            for seat in range(players):
                want = paradox_possible(pos, seat).possible
                assert want is not None
                for eng in (Engine.for_position(pos, seat), NativeEngine.for_position(pos, seat)):
                    assert eng.avoid_possible(eng.state_of(pos)) == want, (players, seed, seat)
                answers.add(want)
    assert answers == {True, False}  # both kinds of answer were compared
