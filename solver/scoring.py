"""Round scores (Sc1-Sc3) and game totals with tie-breaks (Sc4).

>>> game_result([[3, 5, 1], [4, 2, 6], [2, 2, 1]]).winners  # 9, 9, 8: tie on total, final 2-2
(0, 1)
>>> game_result([[3, 5, 1], [4, 2, 6], [2, 3, 2]]).winners
(1,)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .board import ASCENDING, Layout, largest_group
from .errors import PositionError
from .position import Position
from .rules import trick_winner

__all__ = [
    "GameResult",
    "RoundScore",
    "SeatScore",
    "game_result",
    "lowest_score",
    "lowest_score_at",
    "round_score",
    "seat_score",
]

TWO_PLAYER_BONUS_MAX = 4  # Sc2: at 2 players the bonus needs 4 or fewer tricks


@dataclass(frozen=True, slots=True)
class SeatScore:
    tricks: int
    prediction: int | None
    largest_group: int
    eligible: bool | None  # None: unknown (3-5 players, prediction not known)
    bonus: int | None
    score: int | None
    caused_paradox: bool


@dataclass(frozen=True, slots=True)
class RoundScore:
    finished: bool  # False: provisional scores of a running round
    paradox: int | None
    seats: tuple[SeatScore, ...]


def bonus_eligible(pos: Position, seat: int) -> bool | None:
    """Sc2: 3-5 players, tricks equal the prediction; 2 players, 4 tricks or fewer; never for
    the seat that caused the paradox. None when the prediction is unknown."""
    s = pos.seats[seat]
    if pos.paradox == seat:
        return False
    if pos.players == 2:
        return s.tricks <= TWO_PLAYER_BONUS_MAX
    if s.prediction is None:
        return None
    return s.tricks == s.prediction


def seat_score(pos: Position, seat: int, layout: Layout = ASCENDING) -> int | None:
    """A seat's round score (Sc1-Sc3) as the position stands; None if it depends on an
    unknown prediction."""
    s = pos.seats[seat]
    base = -s.tricks if pos.paradox == seat else s.tricks  # Sc1
    eligible = bonus_eligible(pos, seat)
    if eligible is None:
        return None
    return base + (largest_group(pos.board, seat, pos.players, layout) if eligible else 0)


def lowest_score(tricks: int, left: int, beaten: bool = False) -> int:
    """The lowest round score a seat can still end with, holding ``tricks`` with ``left``
    tricks left (the current one counted): -(tricks + left - 1), or -(tricks + left - 2) when
    it is ``beaten`` (it has played in the current trick and another seat's play wins it so
    far); never lower (Sc1).

    Proof. The score is negative only when the seat causes the paradox (Sc1; a bonus never
    subtracts, Sc3). A paradox happens at the seat's turn in some trick of the round, at the
    latest in the last one played (E1): trick T, counted from the current one as 0, with
    T <= left - 1. That trick is unfinished and counts for nobody (X3), so the seat won at
    most the tricks 0..T-1 by then: at most left - 1 more. A beaten seat cannot win the
    current trick any more (W1: a later play only displaces the winner) and its turn in it is
    past, so T >= 1 and it won at most the tricks 1..T-1: at most left - 2 more."""
    return -(tricks + max(left - (2 if beaten else 1), 0))


def lowest_score_at(pos: Position, seat: int) -> int:
    """:func:`lowest_score` of ``seat`` at ``pos``."""
    beaten = False
    if pos.trick:
        order = (seat - pos.leader) % pos.players  # the seat's place in the trick (0: leads)
        beaten = order < len(pos.trick) and trick_winner(pos.trick) != order
    return lowest_score(pos.seats[seat].tricks, pos.tricks_left, beaten)


def round_score(pos: Position, layout: Layout = ASCENDING) -> RoundScore:
    seats = []
    for i, s in enumerate(pos.seats):
        group = largest_group(pos.board, i, pos.players, layout)
        eligible = bonus_eligible(pos, i)
        bonus = None if eligible is None else (group if eligible else 0)
        seats.append(
            SeatScore(
                tricks=s.tricks,
                prediction=s.prediction,
                largest_group=group,
                eligible=eligible,
                bonus=bonus,
                score=seat_score(pos, i, layout),
                caused_paradox=pos.paradox == i,
            )
        )
    return RoundScore(pos.finished, pos.paradox, tuple(seats))


@dataclass(frozen=True, slots=True)
class GameResult:
    totals: tuple[int, ...]
    final_round: tuple[int, ...]
    winners: tuple[int, ...]  # more than one: the win is shared (Sc4)
    rounds: int


def game_result(rounds: Sequence[Sequence[int]]) -> GameResult:
    """Totals over rounds; the highest total wins, a tie goes to the higher score in the final
    round, still tied the win is shared (Sc4).

    Raises:
        PositionError: no rounds, or rounds of different seats (Sc4).
    """
    if not rounds:
        raise PositionError("a game needs at least one round", rule="Sc4")
    players = len(rounds[0])
    if any(len(r) != players for r in rounds):
        raise PositionError("every round must score the same seats", rule="Sc4")
    if len(rounds) > players:
        raise PositionError(
            f"a game at {players} players lasts {players} rounds, not {len(rounds)}", rule="Sc4"
        )
    totals = tuple(sum(r[i] for r in rounds) for i in range(players))
    final = tuple(rounds[-1])
    best = max(totals)
    tied = [i for i in range(players) if totals[i] == best]
    best_final = max(final[i] for i in tied)
    winners = tuple(i for i in tied if final[i] == best_final)
    return GameResult(totals, final, winners, len(rounds))
