"""Helpers shared by the search tests: states along random playouts, the walks the bounds tests
question, answers under bounds masks, small enumerations of what S can force."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from typing import Any

from catbox.solver import Position
from catbox.solver.deal import random_position
from catbox.solver.search import forced
from catbox.solver.search.engine import Engine
from catbox.solver.search.native import NativeEngine, flat
from catbox.solver.search.state import Ctx, State, apply, cells, legal_mask, to_play

from .reference import forced_answers

ALL_BOUNDS = 15  # search.h Options.bounds: BOUND_SAFE | DOOMED | TRICKS | STOPPERS


def playout_states(eng: NativeEngine | Engine, st: State, rng: random.Random) -> list[State]:
    """The states along a random playout from ``st`` (every state before the round ends)."""
    out = []
    while st[11] > 0:
        lm = legal_mask(eng.ctx, st)
        if not lm:
            break
        out.append(st)
        st = apply(eng.ctx, st, rng.choice(cells(lm)))
    return out


def states_along(players: int, seed: int, left: int, rng: random.Random) -> list[State]:
    """States along a random playout from a random position (permissions get lost, F2)."""
    pos = random_position(players, seed, left, mid_trick=seed % players)
    py = Engine.for_position(pos, 0)
    return playout_states(py, py.state_of(pos), rng)


def walks(
    players: int, first: int, seeds: int, rng: random.Random, most: int = 4
) -> Iterator[tuple[int, int, NativeEngine, NativeEngine, State]]:
    """The states of ``states_along`` for the seeds first .. first + seeds - 1 (2, 3, 4, 2, ...
    tricks left, up to ``most``; trick starts and mid-trick), a random seat per state: (seed,
    seat, an engine for the seat with the default bounds, one without bounds, state). A seat's
    engines serve every state of its playout (their tables hold across the questions)."""
    for seed in range(first, first + seeds):
        left = 2 + (seed - first) % (most - 1)
        pos = random_position(players, seed, left, mid_trick=(seed - first) % players)
        engines: dict[int, tuple[NativeEngine, NativeEngine]] = {}
        for st in states_along(players, seed, left, rng):
            seat = rng.randrange(players)
            if seat not in engines:
                off = NativeEngine.for_position(pos, seat)
                off.core.set_bounds(0)
                engines[seat] = NativeEngine.for_position(pos, seat), off
            yield seed, seat, *engines[seat], st


def s_played(ctx: Ctx, seat: int, st: State) -> bool:
    return bool(st[6]) and (seat - st[5]) % ctx.players < st[6]


def wins_none(ctx: Ctx, seat: int, root: State, k: int) -> bool:
    """S can force that it wins none of the next ``k`` tricks (the current one counted; a
    paradox of anyone ends the round first, X3): S's plays chosen, every other seat's
    enumerated."""

    @cache
    def none(st: State) -> bool:
        if st[10] > root[10]:
            return False  # S won one of them
        if st[11] <= root[11] - k:
            return True
        lm = legal_mask(ctx, st)
        if not lm:
            return True  # X1, X3: the round ends, S wins nothing more
        kids = (none(apply(ctx, st, i)) for i in cells(lm))
        return any(kids) if to_play(ctx, st) == seat else all(kids)

    return none(root)


def answers_by_mask(pos: Position, seat: int, left: int, masks: tuple[int, ...]) -> list[Any]:
    """For each bounds mask, on a fresh engine for ``seat``: the answers to every trick goal
    (lo, hi, pk with ``left`` tricks left) with every paradox part, the exact para and the
    exact score."""
    goals = [(lo, hi, pk) for lo in range(left + 1) for hi in range(lo, left + 1)
             for pk in range(-1, left + 1)]  # fmt: skip
    got = []
    for mask in masks:
        nat = NativeEngine.for_position(pos, seat)
        nat.core.set_bounds(mask)
        fs = flat(nat.ctx, nat.state_of(pos))
        got.append(([nat.core.win(fs, lo, hi, pk) for lo, hi, pk in goals],
                    nat.core.exact_para(fs, 0), nat.core.exact_value(fs, 0)))  # fmt: skip
    return got


def switch_keeps_answers(
    players: int, first: int, masks: tuple[int, ...], every_seat: bool = True
) -> None:
    """answers_by_mask equal under every mask: 10 positions from seed ``first`` (2-4 tricks
    left, 2-3 at 5 players; trick starts and mid-trick), every seat as S (or one per seed)."""
    for seed in range(10):
        left = 2 + seed % (3 if players < 5 else 2)
        pos = random_position(players, first + seed, left, mid_trick=seed % players)
        for seat in range(players) if every_seat else (seed % players,):
            got = answers_by_mask(pos, seat, left, masks)
            assert all(g == got[0] for g in got), (seed, seat)


def hand_word(*numbers: int) -> int:
    """A native hand word: 3 bits per number (cxx/core.h)."""
    return sum(1 << (3 * (k - 1)) for k in numbers)


def built_3p(empty: list[tuple[int, int]]) -> tuple[int, NativeEngine, NativeEngine]:
    """A built 3-player board of 6 numbers: the occupied-cell word with every cell filled but
    ``empty`` ((colour, number) pairs), and two engines for it, the defaults and every bound
    off (the search without bounds)."""
    n = 6
    occ = (1 << (4 * n)) - 1
    for c, k in empty:
        occ &= ~(1 << (c * n + k - 1))
    pos = random_position(3, 700, 3)
    nat = NativeEngine.for_position(pos, 0)
    off = NativeEngine.for_position(pos, 0)
    off.core.set_bounds(0)
    return occ, nat, off


def assert_forced_matches_reference(pos: Position) -> None:
    """The native core's forced answers equal the exhaustive rules-engine solver's, every seat."""
    for seat in range(pos.players):
        ref = forced_answers(pos, seat)
        f = forced(pos, seat, engine="native")
        got = (f.guaranteed, frozenset(f.forceable or ()), f.at_least, f.at_most)
        assert got == (ref.guaranteed, ref.forceable, ref.at_least, ref.at_most)
        assert f.best_score == ref.best_score
