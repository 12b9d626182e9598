"""Real rounds found by seeded random playouts, frozen as (players, deal seed, moves), used as
hand-checked fixtures for the tricky rules. Each deal is ``deal_round(players, seed,
predictions=True)``."""

from __future__ import annotations

import random
from collections.abc import Callable

from catbox.solver import Game, Play, Position, Record, deal_round
from catbox.solver.player import choose_play


def record(players: int, seed: int, moves: str) -> Record:
    rec = Record.from_deal(deal_round(players, seed, predictions=True))
    return rec.with_moves([Play.parse(m) for m in moves.split()])


def position(players: int, seed: int, moves: str) -> Position:
    return record(players, seed, moves).position()


# 3 players: the leader holds only cards whose blue/yellow/green cells are gone: L3(b).
L3B_3P = (3, 2045, "6G 2Y 4Y 1B 6Y 2B 1Y 3Y 5Y")
# 4 players: red is led and a follower declares yellow: it loses red (F2 applies to red too).
F2_RED_4P = (4, 0, "6B 5B 1B 5R 6G 7Y 5Y 4Y 7R 4R")  # next: 8Y by D off a red lead
# 3 players: a paradox in the middle of trick 6.
PARADOX_3P = (3, 2, "1Y 2Y 1B 4G 2R 4B 3R 6R 4R 1R 6G 2B 5R 5G 6B 4Y 5Y")
# 2 players: a full paradox-free round in which one seat takes more than 4 tricks.
FULL_2P = (2, 14, "1Y 3R 2B 4Y 2G 3Y 1B 4R 2Y 3G 5R 4B 2R 1G 1R 3B")


def playout(players: int, seed: int, start: int = 0, *, predictions: bool = True) -> Record:
    """A finished round from a seeded deal (random predictions unless ``predictions`` is
    False) with any start seat, played by random legal plays (a paradox may end it early)."""
    rng = random.Random(seed)
    rec = _dealt(players, seed, start, predictions=predictions)
    return _played_on(rec, lambda pos: rng.choice(pos.legal_plays()))


def played_round(players: int, seed: int, start: int, upto: int | None = None) -> Record:
    """A round dealt from ``seed`` with random predictions, played out by the policy alone
    (every hand known), stopped after ``upto`` moves if given."""
    rec = _dealt(players, seed, start)
    return _played_on(rec, lambda pos: choose_play(pos, seed=seed, level=0), upto)


def played_game(players: int, seed: int, rounds: int | None = None, first: int = 0) -> Game:
    """A whole game of ``rounds`` (one per seat if None) rounds of :func:`played_round`, the
    first started by ``first``."""
    n = players if rounds is None else rounds
    recs = tuple(played_round(players, seed * 10 + r, (first + r) % players) for r in range(n))
    return Game(players=players, rounds=recs, first_start=first)


def _dealt(players: int, seed: int, start: int, *, predictions: bool = True) -> Record:
    return Record.from_deal(deal_round(players, seed, round_start=start, predictions=predictions))


def _played_on(rec: Record, choose: Callable[[Position], Play], upto: int | None = None) -> Record:
    """``rec`` played on from its deal by ``choose`` until the round is over (or ``upto``
    moves)."""
    pos = rec.start()
    moves: list[Play] = []
    while not pos.finished and (upto is None or len(moves) < upto):
        play = choose(pos)
        moves.append(play)
        pos = pos.play(play)
    return rec.with_moves(moves)
