"""A whole round from the deal (formats.md, ``catbox-record/1``) and its replay.

>>> from .deal import deal_round
>>> d = deal_round(3, seed=2)
>>> rec = Record.from_deal(d)
>>> pos = rec.position()
>>> rec = rec.with_moves([pos.legal_plays()[0]])
>>> rec.position().seats[0].hand_size
8
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from .cards import COPIES, Play, seat_letter, variant
from .deal import Deal
from .errors import CatboxError, IllegalPlayError, PositionError
from .position import Position

__all__ = ["Record"]


@dataclass(frozen=True, slots=True)
class Record:
    """A whole round from the deal (docs/formats.md, ``catbox-record/1``): the dealt hands,
    set-aside cards and predictions (each may leave seats unknown) and the moves in order.
    :meth:`start` is the position before the first move and :meth:`positions` replays the
    moves through the rules, stopping at the first illegal one with its index and rule.
    ``declared_paradox`` names the seat whose paradox ended the round after the last move
    when its hand is unknown (its cards cannot show it); replay checks it (X1, I5)."""

    players: int
    deal: tuple[tuple[int, ...] | None, ...]  # dealt hands before setting aside, sorted
    set_aside: tuple[int | None, ...]
    predictions: tuple[int | None, ...]
    moves: tuple[Play, ...] = ()
    round_start: int = 0
    revealed: tuple[int, ...] = ()
    names: tuple[str, ...] = field(default=())
    # the seat whose declared paradox ended the round when its cards are unknown (X1)
    declared_paradox: int | None = None

    @classmethod
    def from_deal(cls, d: Deal) -> Record:
        return cls(
            players=d.players,
            deal=d.dealt,
            set_aside=d.set_aside,
            predictions=d.predictions,
            round_start=d.round_start,
            revealed=d.revealed,
        )

    def with_moves(self, moves: Sequence[Play]) -> Record:
        return replace(self, moves=tuple(moves))

    # ------------------------------------------------------------------ checks
    def validate(self) -> None:
        """The deal's consistency checks (S1-S4, 2P1).

        Raises:
            FormatError: players is not 2 to 5.
            PositionError: the first inconsistency of the deal, with its key and rule.
        """
        v = variant(self.players)
        p = self.players
        for key, seq in (
            ("deal", self.deal),
            ("set_aside", self.set_aside),
            ("predictions", self.predictions),
        ):
            if len(seq) != p:
                raise PositionError(f"{key} must list {p} seats", where=key)
        if self.names and (len(self.names) != p or len(set(self.names)) != p):
            raise PositionError(f"names must be {p} different names", where="names")
        if not 0 <= self.round_start < p:
            raise PositionError("round_start out of range", where="round_start")
        if self.declared_paradox is not None and not 0 <= self.declared_paradox < p:
            raise PositionError("paradox: seat out of range", rule="X1", where="paradox")
        counts: Counter[int] = Counter(self.revealed)
        for i in range(p):
            dealt, aside = self.deal[i], self.set_aside[i]
            letter = seat_letter(i)
            for c in (*(dealt or ()), *((aside,) if aside is not None and dealt is None else ())):
                if not 1 <= c <= v.max_number:
                    raise PositionError(
                        f"card {c} out of range 1..{v.max_number}",
                        rule="B1",
                        where=f"deal.{letter}",
                    )
            if dealt is not None:
                if len(dealt) != v.dealt:
                    raise PositionError(
                        f"{letter} was dealt {len(dealt)} cards; {v.dealt} at {p} players",
                        rule="S1",
                        where=f"deal.{letter}",
                    )
                counts.update(dealt)
                if aside is not None and aside not in dealt:
                    raise PositionError(
                        f"{letter} set aside {aside}, which was not dealt to them",
                        rule="S2",
                        where=f"set_aside.{letter}",
                    )
            elif aside is not None:
                counts[aside] += 1
            pred = self.predictions[i]
            if pred is not None and pred not in v.predictions:
                raise PositionError(
                    f"prediction {pred} not allowed at {p} players",
                    rule="S3",
                    where=f"predictions.{letter}",
                )
        for number, k in sorted(counts.items()):
            if k > COPIES:
                raise PositionError(
                    f"{k} copies of {number} dealt; the deck has {COPIES}", rule="S1", where="deal"
                )
        if p == 2 and len(self.revealed) != 3:
            raise PositionError(
                "2 players reveal exactly 3 undealt cards", rule="2P1", where="revealed"
            )
        if p != 2 and self.revealed:
            raise PositionError(
                "revealed cards exist only at 2 players", rule="2P1", where="revealed"
            )
        if p > 2 and all(d is not None for d in self.deal) and sum(counts.values()) != v.deck_size:
            raise PositionError(
                "the deal must use the whole deck at 3-5 players", rule="S1", where="deal"
            )

    # ------------------------------------------------------------------ replay
    def start(self) -> Position:
        """The position before the first move.

        Raises:
            PositionError: the first inconsistency of the deal, with its key and rule.
        """
        self.validate()
        hands: list[tuple[int, ...] | None] = []
        for dealt, aside in zip(self.deal, self.set_aside, strict=True):
            if dealt is None or aside is None:
                hands.append(None)
            else:
                rest = list(dealt)
                rest.remove(aside)
                hands.append(tuple(rest))
        return Position.start(
            self.players,
            hands,
            round_start=self.round_start,
            predictions=list(self.predictions),
            set_aside=list(self.set_aside),
            revealed=self.revealed,
            names=self.names,
        ).settle()

    def positions(self, upto: int | None = None) -> Iterator[Position]:
        """The start position, then the position after each move (up to ``upto`` moves).
        Stops at the first illegal move with an error giving its index (1-based), the seat,
        the play and the rule.

        The position after the last move carries the declared paradox, if any.

        Raises:
            IllegalPlayError: at the first illegal move (``where`` is ``moves[k]``), or a
                declared paradox the rules refuse (``where`` is ``paradox``).
        """
        moves = self.moves if upto is None else self.moves[:upto]
        last = len(moves) == len(self.moves)
        pos = self.start()
        yield self._declared(pos) if last and not moves else pos  # I5: never before a move
        # seats whose deal is known but not their set-aside card: check plays against the deal
        remaining = {
            i: Counter(d)
            for i, (d, a) in enumerate(zip(self.deal, self.set_aside, strict=True))
            if d is not None and a is None
        }
        for k, move in enumerate(moves, start=1):
            seat = pos.to_play
            who = seat_letter(seat) if seat is not None else "nobody"
            where = f"moves[{k}]"
            try:
                if seat in remaining:
                    if remaining[seat][move.number] == 0:
                        raise IllegalPlayError(f"{who} was not dealt another {move.number}")
                    remaining[seat][move.number] -= 1
                pos = pos.play(move)
            except CatboxError as e:
                raise IllegalPlayError(
                    f"move {k} ({who} plays {move}) is illegal: {e.message}",
                    rule=e.rule,
                    where=where,
                ) from None
            yield self._declared(pos) if last and k == len(moves) else pos

    def _declared(self, pos: Position) -> Position:
        """``pos`` (after the last move) with the declared paradox applied (X1, I5)."""
        seat = self.declared_paradox
        if seat is None:
            return pos
        if pos.paradox is not None:
            if pos.paradox == seat:
                return pos
            raise IllegalPlayError(
                f"paradox: {seat_letter(pos.paradox)} caused the paradox, not {seat_letter(seat)}",
                rule="X1",
                where="paradox",
            )
        if pos.to_play != seat:
            due = "nobody (the round is over)" if pos.to_play is None else seat_letter(pos.to_play)
            raise IllegalPlayError(
                f"paradox: {seat_letter(seat)} is not the seat to play after the last move; "
                f"{due} is",
                rule="X1",
                where="paradox",
            )
        try:
            return pos.declare_paradox()
        except CatboxError as e:
            raise IllegalPlayError(f"paradox: {e.message}", rule=e.rule, where="paradox") from None

    def position(self, upto: int | None = None) -> Position:
        """The position after ``upto`` moves (default: all of them).

        Raises:
            PositionError: ``upto`` is not 0 to the number of moves.
            IllegalPlayError: as :meth:`positions`.
        """
        if upto is not None and not 0 <= upto <= len(self.moves):
            raise PositionError(
                f"no position after {upto} moves: the record has {len(self.moves)}", where="moves"
            )
        *_, last = self.positions(upto)
        return last

    def _repr_svg_(self) -> str:
        """The position after the last move as an SVG picture, that move framed."""
        from .svg import record

        return record(self)
