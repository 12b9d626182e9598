"""Whole games with catbox in every seat (Sc4): each seat decides from its own view only — its
set-aside card and prediction (:func:`.player.choose_aside`, :func:`.player.choose_prediction`),
then every play (:func:`.player.choose_play` on the seat's view) — round after round, each
dealt by :func:`.game.next_round`. Deterministic for a seed: ``catbox game`` and the board's
practice use it, and research can play thousands of games.

It sits above the player (which it seats) and the game record (which it fills), so both stay
below it: nothing imports upward.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .deal import Deal
from .game import Game, next_round
from .player import DEFAULT_LEVEL, choose_aside, choose_play, choose_prediction
from .record import Record

if TYPE_CHECKING:
    from .limits import Limits

__all__ = ["play_game", "play_round"]


def _opening(
    d: Deal, *, seed: int, limits: Limits | None
) -> tuple[tuple[int, ...], tuple[int | None, ...]]:
    """Every seat's set-aside card and prediction, from its own dealt hand, in turn order."""
    p = d.players
    order = [(d.round_start + k) % p for k in range(p)]
    aside = [0] * p
    preds: list[int | None] = [None] * p
    before: list[int] = []
    for k, seat in enumerate(order):
        hand = d.dealt[seat]
        aside[seat] = choose_aside(hand, players=p, order=k, seed=seed, limits=limits)
        if p > 2:
            pred = choose_prediction(
                hand, aside[seat], players=p, order=k, before=before, seed=seed, limits=limits
            )
            preds[seat] = pred
            before.append(pred)
    return tuple(aside), tuple(preds)


def play_round(
    d: Deal,
    *,
    seed: int,
    level: int | None = None,
    limits: Limits | None = None,
    names: Sequence[str] = (),
) -> Record:
    """One round of ``d`` with catbox in every seat, each deciding from its own view only:
    its set-aside card and prediction, then every play (``player.choose_play`` on the seat's
    view: the other hands and set-aside cards hidden)."""
    aside, preds = _opening(d, seed=seed, limits=limits)
    rec = Record(
        players=d.players,
        deal=d.dealt,
        set_aside=aside,
        predictions=preds,
        round_start=d.round_start,
        revealed=d.revealed,
        names=tuple(names),
    )
    pos = rec.start()
    moves = []
    while not pos.finished:
        seat = pos.to_play
        assert seat is not None
        view = pos.hide(j for j in range(d.players) if j != seat)
        lvl = DEFAULT_LEVEL if level is None else level
        play = choose_play(view, seed=seed, limits=limits, level=lvl)
        pos = pos.play(play)
        moves.append(play)
    return rec.with_moves(moves)


def play_game(
    players: int,
    *,
    seed: int,
    level: int | None = None,
    limits: Limits | None = None,
    names: Sequence[str] = (),
    progress: Callable[[int, int], None] | None = None,
) -> Game:
    """A whole game with catbox in every seat (:func:`play_round` for each round, dealt by
    :func:`next_round`); deterministic for a seed. ``level`` is ``choose_play``'s (None: its
    ``DEFAULT_LEVEL``).
    ``progress(r, n)`` is called as round ``r`` of ``n`` begins.

    Raises:
        FormatError: players is not 2 to 5.
        PositionError: names that are not ``players`` different names.
    """
    game = Game(players=players, names=tuple(names))
    game.validate()
    for r in range(players):
        if progress is not None:
            progress(r + 1, players)
        d = next_round(game, seed=seed)
        game = game.with_round(play_round(d, seed=d.seed, level=level, limits=limits, names=names))
    return game
