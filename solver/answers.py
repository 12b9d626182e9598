"""What every solver answer shares: an honest status and witness lines that are replayed through
the rules engine before anyone sees them (analysis.md, "Honesty of answers").

>>> from .deal import random_position
>>> pos = random_position(3, seed=4, tricks_left=1)
>>> w = Witness.of(pos, _greedy_line(pos))
>>> w.verify(pos).finished
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from .cards import Play, seat_letter
from .errors import CatboxError, SolverBug
from .position import Position

__all__ = ["ESTIMATE", "PROVEN", "UNKNOWN", "Status", "Witness", "fill_hands", "merge_status"]

#: Every answer's status (analysis.md): proven (settled exactly), estimate (over sampled deals,
#: with its error bound) or unknown (a limit stopped it; proven bounds go with it).
Status = Literal["proven", "estimate", "unknown"]
PROVEN: Status = "proven"
ESTIMATE: Status = "estimate"
UNKNOWN: Status = "unknown"


def merge_status(*statuses: Status) -> Status:
    """The status of an answer made of parts: unknown wins, then estimate."""
    if any(s == UNKNOWN for s in statuses):
        return UNKNOWN
    if any(s == ESTIMATE for s in statuses):
        return ESTIMATE
    return PROVEN


def fill_hands(pos: Position, hands: tuple[tuple[int, ...] | None, ...]) -> Position:
    """``pos`` with the unknown hands replaced by ``hands`` (a solver's chosen deal). Known
    hands must be given unchanged (or as None)."""
    seats = list(pos.seats)
    for i, (s, h) in enumerate(zip(pos.seats, hands, strict=True)):
        if h is None:
            continue
        h = tuple(sorted(h))
        if s.hand is not None and s.hand != h:
            raise SolverBug(f"solver changed the known hand of {seat_letter(i)}")
        if len(h) != s.hand_size:
            raise SolverBug(f"solver gave {seat_letter(i)} {len(h)} cards, not {s.hand_size}")
        seats[i] = replace(s, hand=h)
    filled = replace(pos, seats=tuple(seats))
    pool = pos.unknown_pool()
    for number, k in (filled.known_cards() - pos.known_cards()).items():
        if k > pool[number]:
            raise SolverBug(f"solver dealt {k} unknown copies of {number}; {pool[number]} unseen")
    return filled.settle()


@dataclass(frozen=True, slots=True)
class Witness:
    """A continuation: the hands it assumes for unknown seats (None where known) and its plays."""

    hands: tuple[tuple[int, ...] | None, ...]
    line: tuple[Play, ...]

    @classmethod
    def of(cls, pos: Position, line: list[Play] | tuple[Play, ...]) -> Witness:
        return cls(tuple(None for _ in pos.seats), tuple(line))

    @property
    def assumes_deal(self) -> bool:
        return any(h is not None for h in self.hands)

    def verify(self, pos: Position, *, complete: bool = True) -> Position:
        """Replay through the rules engine; returns the final position. A line that fails is a
        solver bug (SolverBug), never an answer. With ``complete`` the line must reach the end
        of the round."""
        try:
            p = fill_hands(pos, self.hands) if self.assumes_deal else pos.settle()
            for play in self.line:
                p = p.play(play)
        except SolverBug:
            raise
        except CatboxError as e:
            raise SolverBug(f"witness line fails the rules engine: {e}") from e
        if complete and not p.finished:
            raise SolverBug("witness line stops before the end of the round")
        return p


def _greedy_line(pos: Position) -> list[Play]:
    """First legal play each time (doctest helper)."""
    line: list[Play] = []
    while not pos.finished:
        m = pos.legal_plays()[0]
        line.append(m)
        pos = pos.play(m)
    return line
