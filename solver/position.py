"""A snapshot of one round: everything the rules need to go on (formats.md, ``catbox-position/1``).

Positions are immutable and hashable; :meth:`Position.play` returns a new one. A hand may be
unknown (``hand is None``, only its size is known). Whose turn it is, the led colour and whether
red is broken are derived, never stored.

>>> from .deal import deal_round
>>> pos = deal_round(4, seed=7).position
>>> pos.to_play, pos.led, pos.red_broken
(0, None, False)
>>> after = pos.play(pos.legal_plays()[0])
>>> after.to_play, str(after.trick[0]), after.seats[0].hand_size
(1, '2B', 8)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from .board import EMPTY, NEUTRAL, Board, cell_index, empty_board
from .cards import (
    ALL_COLOURS,
    COPIES,
    SEAT_LETTERS,
    Colour,
    Play,
    Variant,
    colours_to_str,
    seat_letter,
    variant,
)
from .errors import IllegalPlayError, PositionError
from .rules import RULE_TEXT, after_follow, is_red_broken, legal_plays, trick_winner, why_illegal

__all__ = ["Position", "Seat", "neutral_cells"]


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's round state. ``hand`` is sorted, or None when unknown."""

    hand: tuple[int, ...] | None = None
    hand_size: int = 0
    colours: int = ALL_COLOURS
    tricks: int = 0
    prediction: int | None = None
    set_aside: int | None = None


def neutral_cells(revealed: tuple[int, ...], max_number: int) -> frozenset[int]:
    """Cells covered by neutral tokens for the revealed cards (2P2): first copy of a number on
    green, a second also on yellow, a third also on blue; never red."""
    cells = set()
    for number, k in Counter(revealed).items():
        for colour in (Colour.G, Colour.Y, Colour.B)[:k]:
            cells.add(cell_index(colour, number, max_number))
    return frozenset(cells)


@dataclass(frozen=True, slots=True)
class Position:
    """One moment of a round (docs/formats.md, ``catbox-position/1``): the board, every seat,
    the trick in progress, and a paradox if one has happened. The rules live here and in
    :mod:`.rules`: :meth:`legal_plays` (L1-L3), :meth:`play` (P1, F2, W1, W3, X1), and
    :meth:`validate` (every consistency rule a reader checks). Frozen: :meth:`play` returns a
    new position; :meth:`settle` records a paradox as soon as it is certain. Whose turn it is,
    the led colour and whether red is broken are derived, never stored."""

    players: int
    board: Board
    seats: tuple[Seat, ...]
    leader: int  # who leads (or led) the current trick
    trick: tuple[Play, ...] = ()  # the trick in progress, from the leader
    round_start: int = 0
    revealed: tuple[int, ...] = ()  # 2 players: the three revealed undealt cards (2P1), sorted
    paradox: int | None = None  # the seat that caused a paradox (X1); the round is over
    names: tuple[str, ...] = field(default=())

    # ----------------------------------------------------------------- derived facts
    @property
    def variant(self) -> Variant:
        return variant(self.players)

    @property
    def max_number(self) -> int:
        return self.variant.max_number

    @property
    def completed_tricks(self) -> int:
        return sum(s.tricks for s in self.seats)

    @property
    def tricks_left(self) -> int:
        """Tricks not yet completed (the current one included)."""
        return 0 if self.finished else self.variant.tricks - self.completed_tricks

    @property
    def finished(self) -> bool:
        """The trick phase is over: a paradox (X3) or every trick played (E1)."""
        return self.paradox is not None or self.completed_tricks >= self.variant.tricks

    @property
    def to_play(self) -> int | None:
        """The seat due to play, or None once the round is over."""
        if self.finished:
            return None
        return (self.leader + len(self.trick)) % self.players

    @property
    def led(self) -> Colour | None:
        return self.trick[0].colour if self.trick else None

    @property
    def red_broken(self) -> bool:
        return is_red_broken(self.board, self.max_number)

    @property
    def seat_names(self) -> tuple[str, ...]:
        return self.names or tuple(SEAT_LETTERS[: self.players])

    def trick_seats(self) -> list[int]:
        return [(self.leader + i) % self.players for i in range(len(self.trick))]

    def cards_played(self, seat: int) -> int:
        in_trick = seat in self.trick_seats()
        return self.completed_tricks + (1 if in_trick else 0)

    @property
    def all_hands_known(self) -> bool:
        return all(s.hand is not None for s in self.seats)

    # ----------------------------------------------------------------- cards
    def deck(self) -> Counter[int]:
        return Counter(dict.fromkeys(self.variant.numbers, COPIES))

    def board_numbers(self) -> Counter[int]:
        """Numbers of the player tokens on the board (neutral tokens are the revealed cards)."""
        n = self.max_number
        return Counter(i % n + 1 for i, o in enumerate(self.board) if 0 <= o < self.players)

    def known_cards(self, seats: range | list[int] | None = None) -> Counter[int]:
        """Known hands and set-aside cards of ``seats`` (default all), plus board and revealed."""
        total = self.board_numbers() + Counter(self.revealed)
        for i in seats if seats is not None else range(self.players):
            s = self.seats[i]
            total.update(s.hand or ())
            if s.set_aside is not None:
                total[s.set_aside] += 1
        return total

    def unseen_by(self, seat: int) -> Counter[int]:
        """Cards seat cannot see: deck - own hand - own set-aside - board - revealed (I6)."""
        return self.deck() - self.known_cards([seat])

    def unknown_pool(self) -> Counter[int]:
        """Cards not accounted for by anything the position knows: what unknown hands (and
        unknown set-aside or hidden cards) are drawn from."""
        return self.deck() - self.known_cards()

    def hide(self, seats: Iterable[int]) -> Position:
        """The same position with the hands and set-aside cards of ``seats`` unknown (what
        another seat sees, or a record of one's own online game)."""
        new = list(self.seats)
        for i in seats:
            new[i] = replace(new[i], hand=None, set_aside=None)
        return replace(self, seats=tuple(new))

    # ----------------------------------------------------------------- moves
    def _hand_of_player_to_move(self) -> tuple[int, tuple[int, ...]]:
        seat = self.to_play
        if seat is None:
            raise IllegalPlayError(
                "the round is over", rule="X3" if self.paradox is not None else "E1"
            )
        hand = self.seats[seat].hand
        if hand is None:
            raise PositionError(f"seat {seat_letter(seat)}'s hand is unknown")
        return seat, hand

    def legal_plays(self) -> list[Play]:
        """Legal plays of the seat to play (L1-L3), sorted. Empty means a paradox (X1).

        Raises:
            IllegalPlayError: the round is over (E1, X3).
            PositionError: the hand to play is unknown.
        """
        seat, hand = self._hand_of_player_to_move()
        return legal_plays(
            hand,
            self.board,
            self.max_number,
            self.seats[seat].colours,
            leading=not self.trick,
            red_is_broken=self.red_broken,
        )

    def explain(self) -> list[tuple[Play, str | None]]:
        """Every (card, colour) of the hand to play with the rule forbidding it, or None.

        Raises:
            IllegalPlayError: the round is over (E1, X3).
            PositionError: the hand to play is unknown.
        """
        seat, hand = self._hand_of_player_to_move()
        out = []
        for n in sorted(set(hand)):
            for c in Colour:
                p = Play(n, c)
                rule = why_illegal(
                    p,
                    hand,
                    self.board,
                    self.max_number,
                    self.seats[seat].colours,
                    leading=not self.trick,
                    red_is_broken=self.red_broken,
                )
                out.append((p, rule))
        return out

    def check_play(self, play: Play) -> None:
        """Raise IllegalPlayError naming the rule if ``play`` cannot be made now.

        Raises:
            IllegalPlayError: naming the rule (L1-L3, B1, S1, E1, X3).
        """
        seat = self.to_play
        if seat is None:
            over = "X3" if self.paradox is not None else "E1"
            raise IllegalPlayError(f"the round is over; {play} cannot be played", rule=over)
        who = seat_letter(seat)
        s = self.seats[seat]
        if not 1 <= play.number <= self.max_number:
            raise IllegalPlayError(
                f"{play}: numbers run 1..{self.max_number} at {self.players} players", rule="B1"
            )
        if s.hand is not None and play.number not in s.hand:
            raise IllegalPlayError(f"{who} has no {play.number} in hand to play {play}")
        if s.hand is None:
            seen = self.known_cards()[play.number]
            if seen >= COPIES:
                raise IllegalPlayError(
                    f"{who} cannot hold a {play.number}: all {COPIES} copies are accounted for",
                    rule="S1",
                )
        hand = s.hand if s.hand is not None else (play.number,)
        rule = why_illegal(
            play,
            hand,
            self.board,
            self.max_number,
            s.colours,
            leading=not self.trick,
            red_is_broken=self.red_broken,
        )
        if rule is not None:
            raise IllegalPlayError(f"{who} cannot play {play}: {RULE_TEXT[rule]}", rule=rule)

    def play(self, play: Play) -> Position:
        """The position after the seat to play makes ``play`` (checked: raises
        IllegalPlayError). Completes the trick (W1, W3) and records a paradox of the next seat
        when its hand is known and has no legal play (X1).

        Raises:
            IllegalPlayError: naming the rule (L1-L3, B1, S1, E1, X3).
        """
        self.check_play(play)
        return self._apply(play).settle()

    def _apply(self, play: Play) -> Position:
        seat = self.to_play
        assert seat is not None
        s = self.seats[seat]
        if s.hand is not None:
            hand_list = list(s.hand)
            hand_list.remove(play.number)
            hand: tuple[int, ...] | None = tuple(hand_list)
        else:
            hand = None
        colours = s.colours
        if self.trick:  # F2 (followers only; L4: the leader keeps every permission)
            colours = after_follow(colours, self.trick[0].colour, play.colour)
        seats = list(self.seats)
        seats[seat] = replace(s, hand=hand, hand_size=s.hand_size - 1, colours=colours)
        board = list(self.board)
        board[cell_index(play.colour, play.number, self.max_number)] = seat  # P1
        trick = (*self.trick, play)
        leader = self.leader
        if len(trick) == self.players:  # W1, W3
            winner = (self.leader + trick_winner(trick)) % self.players
            seats[winner] = replace(seats[winner], tricks=seats[winner].tricks + 1)
            leader, trick = winner, ()
        return replace(self, board=tuple(board), seats=tuple(seats), leader=leader, trick=trick)

    def settle(self) -> Position:
        """Record a paradox (X1) if the seat to play has a known hand and no legal play."""
        seat = self.to_play
        if seat is None or self.seats[seat].hand is None:
            return self
        return self if self.legal_plays() else replace(self, paradox=seat)

    def declare_paradox(self) -> Position:
        """The position after the seat to play declares its paradox (X1, X3): a seat whose
        hand is unknown (a record of a real game, where its cards are hidden), or whose known
        hand has no legal play. The round is over.

        Raises:
            IllegalPlayError: the round is over (E1, X3), it is the first trick (I5), or the
                seat's known hand has a legal play (X1, X2).
        """
        seat = self.to_play
        if seat is None:
            over = "X3" if self.paradox is not None else "E1"
            raise IllegalPlayError("the round is over; no paradox can be declared", rule=over)
        who = seat_letter(seat)
        if self.completed_tricks == 0:
            raise IllegalPlayError(
                f"{who} cannot declare a paradox: no paradox is possible in trick 1", rule="I5"
            )
        plays = self.legal_plays() if self.seats[seat].hand is not None else []
        if plays:
            shown = " ".join(map(str, plays))
            raise IllegalPlayError(
                f"{who} cannot declare a paradox: it has legal plays ({shown})", rule="X1"
            )
        return replace(self, paradox=seat)

    def line(self, plays: list[Play]) -> Iterator[Position]:
        """Positions after each play of ``plays`` in turn (checked).

        Raises:
            IllegalPlayError: at the first illegal play.
        """
        pos = self
        for p in plays:
            pos = pos.play(p)
            yield pos

    # ----------------------------------------------------------------- consistency
    def validate(self) -> None:
        """Every consistency check of formats.md; raises PositionError naming key and rule.

        Raises:
            PositionError: the first inconsistency, with its key (``where``) and rule.
        """
        v = variant(self.players)
        n = v.max_number
        p = self.players
        if len(self.seats) != p:
            raise PositionError(f"{len(self.seats)} seats for {p} players", where="seat")
        if self.names and (len(self.names) != p or len(set(self.names)) != p):
            raise PositionError(f"names must be {p} different names", where="names")
        if len(self.board) != 4 * n:
            raise PositionError(f"the board must have 4 rows of {n} cells", where="board")
        if not 0 <= self.round_start < p or not 0 <= self.leader < p:
            raise PositionError("seat out of range", where="trick.leader")
        for i, o in enumerate(self.board):
            if not (o == EMPTY or 0 <= o < p or (o == NEUTRAL and p == 2)):
                raise PositionError(f"bad owner in cell {i}", where="board")
        for i, s in enumerate(self.seats):
            key = f"seat.{seat_letter(i)}"
            cards = list(s.hand or ()) + ([s.set_aside] if s.set_aside is not None else [])
            for c in cards:
                if not 1 <= c <= n:
                    raise PositionError(
                        f"card {c} out of range 1..{n} at {p} players", rule="B1", where=key
                    )
            if s.colours & ~ALL_COLOURS:
                raise PositionError("bad colour mask", where=f"{key}.colors")
            if s.prediction is not None and s.prediction not in v.predictions:
                allowed = ", ".join(map(str, v.predictions)) or "none"
                raise PositionError(
                    f"prediction {s.prediction} not allowed at {p} players (allowed: {allowed})",
                    rule="S3",
                    where=f"{key}.prediction",
                )
        for c in self.revealed:
            if not 1 <= c <= n:
                raise PositionError(f"revealed card {c} out of range", rule="B1", where="revealed")
        self._validate_neutral()
        counts = self.known_cards()
        for number, k in sorted(counts.items()):
            if k > COPIES:
                raise PositionError(
                    f"{k} copies of {number} across hands, set-aside cards, board and revealed "
                    f"cards; the deck has {COPIES}",
                    rule="S1",
                )
        self._validate_counts()
        self._validate_trick()
        self._validate_paradox()

    def _validate_neutral(self) -> None:
        n = self.max_number
        neutral = frozenset(i for i, o in enumerate(self.board) if o == NEUTRAL)
        if self.players != 2:
            if self.revealed:
                raise PositionError(
                    "revealed cards exist only at 2 players", rule="2P1", where="revealed"
                )
            return
        if len(self.revealed) != 3:
            raise PositionError(
                f"2 players reveal exactly 3 undealt cards, not {len(self.revealed)}",
                rule="2P1",
                where="revealed",
            )
        if neutral != neutral_cells(self.revealed, n):
            raise PositionError(
                "neutral tokens on the board do not match the revealed cards "
                f"{list(self.revealed)} (one N on green per revealed number, a second copy also "
                "on yellow, a third also on blue)",
                rule="2P2",
                where="board",
            )

    def _validate_counts(self) -> None:
        v = self.variant
        completed = self.completed_tricks
        if completed > v.tricks:
            raise PositionError(
                f"{completed} tricks won in all; a round has {v.tricks}", rule="E1", where="tricks"
            )
        if len(self.trick) >= self.players:
            raise PositionError(
                "a trick in progress has fewer plays than players", where="trick.plays"
            )
        if completed == v.tricks and self.trick:
            raise PositionError(
                "every trick is played; no trick can be in progress", rule="E1", where="trick.plays"
            )
        owned = Counter(o for o in self.board if 0 <= o < self.players)
        for i, s in enumerate(self.seats):
            key = f"seat.{seat_letter(i)}"
            played = self.cards_played(i)
            if owned[i] != played:
                raise PositionError(
                    f"{seat_letter(i)} has {owned[i]} tokens on the board but has played "
                    f"{played} cards ({completed} completed tricks"
                    + (" plus the current trick)" if played > completed else ")"),
                    rule="P1",
                    where="board",
                )
            if s.hand_size != v.hand_start - played:
                raise PositionError(
                    f"hand size {s.hand_size}, but {v.hand_start} - {played} played = "
                    f"{v.hand_start - played}",
                    rule="S2",
                    where=f"{key}.hand",
                )
            if s.hand is not None and len(s.hand) != s.hand_size:
                raise PositionError(
                    f"hand has {len(s.hand)} cards, expected {s.hand_size}", where=f"{key}.hand"
                )

    def _validate_trick(self) -> None:
        n = self.max_number
        if self.completed_tricks == 0 and self.leader != self.round_start:
            raise PositionError(
                f"trick 1 is led by the round start player {seat_letter(self.round_start)}",
                rule="W3",
                where="trick.leader",
            )
        if self.completed_tricks > 0 and self.seats[self.leader].tricks == 0:
            raise PositionError(
                f"{seat_letter(self.leader)} leads but won no trick; the winner of the previous "
                "trick leads the next",
                rule="W3",
                where="trick.leader",
            )
        if not self.trick:
            return
        led = self.trick[0].colour
        trick_cells = set()
        for k, (seat, p) in enumerate(zip(self.trick_seats(), self.trick, strict=True)):
            where = f"trick.plays[{k}]"
            if not 1 <= p.number <= n:
                raise PositionError(f"{p}: number out of range", rule="B1", where=where)
            idx = cell_index(p.colour, p.number, n)
            trick_cells.add(idx)
            if self.board[idx] != seat:
                raise PositionError(
                    f"{p} was played by {seat_letter(seat)} but the board does not show "
                    f"{seat_letter(seat)} on that cell",
                    rule="P1",
                    where=where,
                )
            colours = self.seats[seat].colours
            if not colours & p.colour.bit:
                raise PositionError(
                    f"{seat_letter(seat)} declared {p.colour.word} in this trick, so still holds "
                    f"that permission, but colors = {colours_to_str(colours)!r}",
                    rule="L2",
                    where=where,
                )
            if k > 0 and p.colour != led and colours & led.bit:
                raise PositionError(
                    f"{seat_letter(seat)} declared {p.colour.word} on a {led.word} lead and so "
                    f"lost {led.word}, but still holds it",
                    rule="F2",
                    where=where,
                )
        lead = self.trick[0]
        hand = self.seats[self.leader].hand
        if lead.colour == Colour.R and hand is not None:
            before = tuple(EMPTY if i in trick_cells else o for i, o in enumerate(self.board))
            rule = why_illegal(
                lead,
                (*hand, lead.number),
                before,
                n,
                self.seats[self.leader].colours,
                leading=True,
                red_is_broken=is_red_broken(before, n),
            )
            if rule == "L3":
                raise PositionError(
                    f"{seat_letter(self.leader)} led red before red was broken while holding a "
                    "card that could be declared blue, yellow or green",
                    rule="L3",
                    where="trick.plays[0]",
                )

    def _validate_paradox(self) -> None:
        if self.paradox is None:
            return
        seat = self.paradox
        due = (self.leader + len(self.trick)) % self.players
        if not 0 <= seat < self.players or seat != due:
            raise PositionError(
                f"the paradox must be caused by the seat due to play ({seat_letter(due)})",
                rule="X1",
                where="paradox",
            )
        if self.completed_tricks >= self.variant.tricks:
            raise PositionError(
                "every trick was played; there was no paradox", rule="E1", where="paradox"
            )
        if self.completed_tricks == 0:
            raise PositionError("no paradox is possible in trick 1", rule="I5", where="paradox")
        probe = replace(self, paradox=None)
        if probe.seats[seat].hand is not None and probe.legal_plays():
            plays = " ".join(map(str, probe.legal_plays()))
            raise PositionError(
                f"{seat_letter(seat)} still has legal plays ({plays}), so no paradox",
                rule="X1",
                where="paradox",
            )

    def _repr_svg_(self) -> str:
        """The board as an SVG picture (notebooks show it; :func:`.svg.board` has options)."""
        from .svg import board

        return board(self)

    # ----------------------------------------------------------------- construction
    @classmethod
    def start(
        cls,
        players: int,
        hands: list[tuple[int, ...] | None],
        *,
        round_start: int = 0,
        predictions: list[int | None] | None = None,
        set_aside: list[int | None] | None = None,
        revealed: tuple[int, ...] = (),
        names: tuple[str, ...] = (),
    ) -> Position:
        """The position before the first play of a round (S1-S4, 2P1-2P2).

        Raises:
            FormatError: a bad player count.
            PositionError: hands, predictions or revealed cards that break S1-S4, 2P1-2P2.
        """
        v = variant(players)
        board = list(empty_board(players))
        for idx in neutral_cells(tuple(revealed), v.max_number):
            board[idx] = NEUTRAL
        seats = tuple(
            Seat(
                hand=tuple(sorted(h)) if h is not None else None,
                hand_size=v.hand_start,
                prediction=(predictions or [None] * players)[i],
                set_aside=(set_aside or [None] * players)[i],
            )
            for i, h in enumerate(hands)
        )
        pos = cls(
            players=players,
            board=tuple(board),
            seats=seats,
            leader=round_start,
            round_start=round_start,
            revealed=tuple(sorted(revealed)),
            names=names,
        )
        pos.validate()
        return pos
