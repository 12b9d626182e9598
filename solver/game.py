"""A whole game (docs/formats.md, ``catbox-game/1``): as many rounds as players, the round
start passing one seat left each round, totals and the tie-break (Sc4).

>>> from .deal import deal_round
>>> g = Game(players=3, rounds=(Record.from_deal(deal_round(3, seed=1)),))
>>> g.round_start(1), g.complete
(1, False)
>>> g.validate()
>>> Game(players=3, rounds=(Record.from_deal(deal_round(3, seed=1, round_start=2)),)).validate()
Traceback (most recent call last):
...
catbox.solver.errors.PositionError: rounds[1].round_start: round 1 starts with A, not C: the \
round start player passes one seat left each round [rule Sc4]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .cards import seat_letter, variant
from .deal import Deal, deal_round
from .errors import CatboxError, PositionError
from .record import Record
from .scoring import GameResult, RoundScore, game_result, round_score

if TYPE_CHECKING:
    from .position import Position

__all__ = ["Game", "next_round", "round_seed"]


def round_where(r: int) -> str:
    """The location of round ``r`` (0-based) in errors: ``rounds[1]`` is the first round."""
    return f"rounds[{r + 1}]"


@dataclass(frozen=True, slots=True)
class Game:
    """A whole game: the round records in order (at most ``players`` of them, Sc4), the seat
    names and the round start seat of round 1. Round ``r`` (0-based) starts with seat
    ``(first_start + r) % players``. :meth:`validate` checks everything and names the round
    (``where="rounds[3].moves[5]"``: the fifth move of the third round)."""

    players: int
    rounds: tuple[Record, ...] = ()
    names: tuple[str, ...] = ()
    first_start: int = 0

    def round_start(self, r: int) -> int:
        """The round start seat of round ``r`` (0-based): it passes one seat left (Sc4)."""
        return (self.first_start + r) % self.players

    def with_round(self, record: Record) -> Game:
        """The game with ``record`` as its next round (not checked: see :meth:`validate`)."""
        return replace(self, rounds=(*self.rounds, record))

    def finals(self) -> tuple[Position, ...]:
        """The position after the last move of every round (replayed through the rules).

        Raises:
            PositionError, IllegalPlayError: as :meth:`validate`.
        """
        out = []
        for r, rec in enumerate(self.rounds):
            try:
                out.append(rec.position())
            except CatboxError as e:
                raise e.located(round_where(r), sep=".") from None
        return tuple(out)

    @property
    def complete(self) -> bool:
        """Every round is played (Sc4) and over (E1, X3)."""
        return len(self.rounds) == self.players and all(p.finished for p in self.finals())

    def validate(self) -> None:
        """Every check of a game: players, names, the round count (Sc4), each round's seats,
        round start (Sc4), deal and moves (replayed through the rules), and every round but the
        last one finished before the next began.

        Raises:
            FormatError: players is not 2 to 5.
            PositionError, IllegalPlayError: the first mistake, ``where`` naming the round.
        """
        p = self.players
        try:
            variant(p)
        except CatboxError as e:
            raise e.located("players") from None
        if self.names and (len(self.names) != p or len(set(self.names)) != p):
            raise PositionError(f"names must be {p} different names", where="names")
        if not 0 <= self.first_start < p:
            raise PositionError("first_start: seat out of range", where="first_start")
        if len(self.rounds) > p:
            raise PositionError(
                f"a game at {p} players has {p} rounds, not {len(self.rounds)}",
                rule="Sc4",
                where="rounds",
            )
        for r, rec in enumerate(self.rounds):
            self._check_round(r, rec)
        finals = self.finals()
        for r, pos in enumerate(finals[:-1]):
            if not pos.finished:
                raise PositionError(
                    f"round {r + 1} is not over, but round {r + 2} follows it",
                    rule="Sc4",
                    where=round_where(r),
                )

    def check_round_start(self, r: int, start: int) -> None:
        """Raise unless ``start`` is round ``r``'s round start seat (0-based ``r``, Sc4).

        Raises:
            PositionError: the start seat did not pass one seat left (Sc4).
        """
        want = self.round_start(r)
        if start != want:
            raise PositionError(
                f"round {r + 1} starts with {seat_letter(want)}, not {seat_letter(start)}: "
                "the round start player passes one seat left each round",
                rule="Sc4",
                where=f"{round_where(r)}.round_start",
            )

    def _check_round(self, r: int, rec: Record) -> None:
        where = round_where(r)
        if rec.players != self.players:
            raise PositionError(
                f"round {r + 1} is for {rec.players} players; the game has {self.players}",
                rule="Sc4",
                where=f"{where}.players",
            )
        self.check_round_start(r, rec.round_start)
        if rec.names and self.names and rec.names != self.names:
            raise PositionError(
                f"round {r + 1} names the seats {list(rec.names)}, the game {list(self.names)}",
                where=f"{where}.names",
            )

    def scores(self) -> tuple[RoundScore, ...]:
        """Each round's scores (Sc1-Sc3; provisional for a round still running).

        Raises:
            PositionError, IllegalPlayError: a round that does not replay (``where`` names it).
        """
        return tuple(round_score(pos) for pos in self.finals())

    def result(self) -> GameResult:
        """Totals, and the winners by the Sc4 tie-break, over the rounds so far.

        Raises:
            PositionError: no rounds (Sc4), or a score depends on an unknown prediction (Sc2).
        """
        rows = []
        for r, sc in enumerate(self.scores()):
            if any(s.score is None for s in sc.seats):
                raise PositionError(
                    f"a score of round {r + 1} depends on an unknown prediction",
                    rule="Sc2",
                    where=round_where(r),
                )
            rows.append([s.score or 0 for s in sc.seats])
        try:
            return game_result(rows)
        except CatboxError as e:
            raise e.located("rounds") from None


def round_seed(seed: int, r: int) -> int:
    """The deal seed of round ``r`` (0-based) of the game of ``seed``: one deal per round,
    different rounds and games never share one (r < 5)."""
    return seed * 5 + r


def next_round(game: Game, *, seed: int) -> Deal:
    """The deal of the game's next round (its start seat passed left, Sc4), from the game's
    ``seed`` (the deal's own set-aside cards are placeholders: each seat chooses its own).

    Raises:
        PositionError: the game already has all its rounds (Sc4).
    """
    r = len(game.rounds)
    if r >= game.players:
        raise PositionError(
            f"the game is over: {game.players} rounds at {game.players} players",
            rule="Sc4",
            where="rounds",
        )
    return deal_round(game.players, round_seed(seed, r), round_start=game.round_start(r))
