"""Positions shared by several test modules (a plain helper module: test modules never import
each other)."""

from __future__ import annotations

from dataclasses import replace

from catbox.solver.cards import Play
from catbox.solver.deal import deal_round, random_position
from catbox.solver.position import Position
from catbox.solver.record import Record


def hidden(players: int, seed: int, tricks_left: int, mid: int = 0) -> Position:
    """A random running position in which only the seat to play knows its hand."""
    pos = random_position(players, seed=seed, tricks_left=tricks_left, mid_trick=mid)
    assert pos.to_play is not None
    return pos.hide([i for i in range(players) if i != pos.to_play])


def own_cards_record(moves: int) -> tuple[Record, list[int]]:
    """A 3-player record (``deal_round(3, seed=2)``, the first legal play each time, ``moves``
    plays) that shows only A's cards, as one's own online game would; and A's move numbers."""
    rec = Record.from_deal(deal_round(3, seed=2, predictions=True))
    pos = rec.start()
    plays: list[Play] = []
    mine: list[int] = []
    while not pos.finished and len(plays) < moves:
        if pos.to_play == 0:
            mine.append(len(plays) + 1)
        plays.append(pos.legal_plays()[0])
        pos = pos.play(plays[-1])
    hidden_rec = replace(
        rec.with_moves(plays),
        deal=(rec.deal[0], None, None),
        set_aside=(rec.set_aside[0], None, None),
    )
    return hidden_rec, mine
