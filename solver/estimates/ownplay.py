"""The player's own trick count beside the policy's: a measured table that turns the round
start's policy playouts into estimates for the seat played by catbox's player (S3; the
prediction, docs/player.md "Trick timing").

The round start's playouts (:mod:`.opening`) play every seat, the asking one too, by the
policy; the player (:func:`.decision.choose_play`: rollouts, then exact endgames) plays that
seat at the table and wins more tricks than the policy does: predictions ranked on the policy's
tricks fall short of the player's (it went over its prediction far more often than short). This
table is how many more, measured: in bench/arena.py's duplicate arena (the player in one seat,
the policy in the others, against the policy in every seat on the same deal; the same set-aside
card and prediction, the fixed rule's), for every seat-round where neither seat caused the
paradox, the player's tricks minus the policy's, counted by how the policy's seat ended:
``short`` of its prediction, ``cut`` short by another seat's paradox (X3), ``hit`` or ``over``.

Used by ``opening_for_prediction(own=True)`` (not by ``choose_prediction``: it balanced the
player's misses against the policy but lost points against another program's bots,
docs/player.md "Trick timing"). A playout of a candidate prediction is then scored as the
player's expected score: the policy's trick count moved by each measured difference (within 0
and the round's tricks), the bonus (Sc2, Sc3: the seat's largest group on the playout's board)
where the moved count meets the prediction, weighted by the table's shares. A playout where
the seat caused the paradox keeps its own score (Sc1): the table has no rows of it.

>>> own = own_play(4)
>>> own is not None and abs(sum(s for _, s in own.shift("hit")) - 1.0) < 1e-9
True
"""

from __future__ import annotations

from dataclasses import dataclass

from .policy import Sim

__all__ = ["OUTCOMES", "OWN_PLAY_COUNTS", "OwnPlay", "outcome", "own_play"]

# how the policy's seat ended its round, without causing the paradox
OUTCOMES = ("short", "cut", "hit", "over")

# players -> the policy seat's outcome -> (the player's tricks minus the policy's) -> seat-rounds.
# Made by bench/arena.py at the player of 490f0fa against the policy, duplicate, one seat at a
# time, the fixed rule's set-aside card and prediction in every seat:
#   arena.py --players 4 --baselines policy --no-selfplay --deals 40 --seed 1000
# (deals 1000-1039: none of the deals the trick-timing table is measured on), counting the
# rows' ``tricks - tricks_base`` where neither seat caused the paradox, by the reference seat's
# ``miss_base`` (None: a hit). Measured at 4 players only: elsewhere the playouts keep the
# policy's own score (at 3 players the same run, deals 1000-1059, shows the same pattern, the
# player +1.4 tricks where the policy fell short, +0.3 where it hit; not yet tried in the arena).
OWN_PLAY_COUNTS: dict[int, dict[str, dict[int, int]]] = {
    4: {  # 128 of the 160 seat-rounds of deals 1000-1039 (neither seat caused the paradox)
        "short": {1: 8, 2: 2, 3: 1},  # mean +1.36
        "cut": {1: 19, 2: 11, 3: 3},  # mean +1.52
        "hit": {-1: 3, 0: 33, 1: 15, 2: 9, 3: 1},  # mean +0.54
        "over": {-2: 3, -1: 11, 0: 7, 2: 1, 3: 1},  # mean -0.52
    },
}


def outcome(tricks: int, prediction: int, cut: bool) -> str:
    """How a seat that did not cause the paradox ended against its ``prediction`` (``cut``:
    another seat's paradox ended the round, X3)."""
    if tricks == prediction:
        return "hit"
    if tricks > prediction:
        return "over"
    return "cut" if cut else "short"


@dataclass(frozen=True, slots=True)
class OwnPlay:
    """The measured differences at one player count: for each outcome of the policy's seat,
    (the player's tricks minus the policy's, share) pairs, the shares summing to 1."""

    players: int
    shifts: tuple[tuple[str, tuple[tuple[int, float], ...]], ...]

    def shift(self, out: str) -> tuple[tuple[int, float], ...]:
        """The (difference, share) pairs after the policy's seat ended ``out``."""
        for name, pairs in self.shifts:
            if name == out:
                return pairs
        return ((0, 1.0),)

    def score(self, sim: Sim, seat: int) -> float:
        """``seat``'s expected score (Sc1-Sc3) in the finished playout ``sim`` had the player
        played it: the policy's tricks moved by the table's differences."""
        t = sim.tricks[seat]
        pred = sim.preds[seat] if sim.players > 2 else None
        if sim.paradox == seat or pred is None:
            return float(sim.score(seat) or 0)
        group: int | None = None  # the largest group (Sc3), counted once where a hit needs it
        total = 0.0
        for d, share in self.shift(outcome(t, pred, sim.paradox is not None)):
            u = min(max(t + d, 0), sim.total_tricks)
            bonus = 0
            if u == pred:
                group = sim.largest_group(seat) if group is None else group
                bonus = group
            total += share * (u + bonus)
        return total


def own_play(players: int) -> OwnPlay | None:
    """The table at ``players`` (None where none was measured: 2 players, no prediction).

    Raises:
        ValueError: a table row without seat-rounds (a broken table, not a user mistake).
    """
    counts = OWN_PLAY_COUNTS.get(players)
    if not counts:
        return None
    shifts = []
    for out in OUTCOMES:
        row = counts.get(out, {})
        n = sum(row.values())
        if not n:
            raise ValueError(f"own-play table at {players} players: no rows for {out!r}")
        shifts.append((out, tuple((d, k / n) for d, k in sorted(row.items()))))
    return OwnPlay(players, tuple(shifts))
