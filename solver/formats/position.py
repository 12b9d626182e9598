"""Positions as documents (``catbox-position/1``): reading a TOML/JSON table into a checked
:class:`~catbox.solver.position.Position` and writing one back.

Reading is lenient but never ambiguous (formats.md):

- ``hand_size`` may be omitted: it is ``len(hand)`` for a known hand, else the starting hand
  minus the cards the seat has played;
- at 2 players ``revealed`` may be omitted: it is read off the ``N`` tokens (k tokens on number
  n mean k revealed copies of n, placed green, then yellow, then blue: rule 2P2);
- ``[board]`` may be omitted when no token is on it (2 players: the ``N`` tokens of
  ``revealed`` are placed for you);
- ``[trick]`` may be omitted when no card has been played (the round start player leads), after a
  paradox (the seat that caused it was due to lead), or when every trick is played (the leader is
  then the first seat from the round start player that won a trick);
- ``revealed`` and ``paradox`` are also accepted inside ``[trick]`` (where the commented lines of
  the formats.md example would put them), but not in both places.

>>> from ..deal import random_position
>>> pos = random_position(4, seed=3, tricks_left=2, mid_trick=1)
>>> doc = position_to_obj(pos)
>>> doc["board"]["red"], doc["trick"]
('C D C A . B B C', {'leader': 'C', 'plays': ['1R']})
>>> position_from_obj(doc) == pos
True
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..board import EMPTY, NEUTRAL, cell_index
from ..cards import (
    ALL_COLOURS,
    SEAT_LETTERS,
    Colour,
    Play,
    colours_from_str,
    colours_to_str,
    seat_letter,
    variant,
)
from ..errors import CatboxError, FormatError
from ..position import Position, Seat, neutral_cells
from .common import (
    as_int,
    as_int_list,
    as_seat,
    as_str,
    as_str_list,
    check_keys,
    checked_position,
    get,
    get_table,
    read_players,
    seat_of_key,
    sub,
)

__all__ = [
    "POSITION_FORMAT",
    "ROW_NAMES",
    "board_row_symbols",
    "parse_board_row",
    "parse_plays",
    "position_from_obj",
    "position_to_obj",
    "revealed_from_board",
]

POSITION_FORMAT = "catbox-position/1"
ROW_NAMES = ("red", "blue", "yellow", "green")  # B1: top to bottom, the order of Colour
POSITION_KEYS = (
    "format",
    "players",
    "names",
    "round_start",
    "revealed",
    "paradox",
    "board",
    "seat",
    "trick",
)
SEAT_KEYS = ("hand", "hand_size", "colors", "tricks", "prediction", "set_aside")
TRICK_KEYS = ("leader", "plays", "revealed", "paradox")
_COLOURS_RE = re.compile(r"^[RBYGrbyg ]*$")


# ---------------------------------------------------------------------------- pieces


def parse_board_row(text: str, colour: Colour, players: int) -> list[int]:
    """One board row: a symbol per number 1..N (``.`` empty, a seat letter, ``N`` neutral at
    2 players); spaces are ignored, lower case accepted. Errors carry no ``where``.

    >>> parse_board_row("a . n . .", Colour.G, 2)
    [0, -1, 5, -1, -1]
    >>> parse_board_row(". . E .", Colour.B, 4)
    Traceback (most recent call last):
    ...
    catbox.solver.errors.FormatError: blue row: 4 symbols, expected 8 (one per number 1..8) \
[rule B1]
    """
    n = variant(players).max_number
    symbols = text.replace(" ", "").upper()
    if len(symbols) != n:
        raise FormatError(
            f"{colour.word} row: {len(symbols)} symbols, expected {n} (one per number 1..{n})",
            rule="B1",
        )
    row = []
    for i, ch in enumerate(symbols, start=1):
        if ch == ".":
            row.append(EMPTY)
        elif ch == "N":
            if players != 2:
                raise FormatError(
                    f"{colour.word} {i}: neutral tokens (N) exist only at 2 players", rule="2P2"
                )
            if colour == Colour.R:
                raise FormatError(f"red {i}: neutral tokens never touch red", rule="2P2")
            row.append(NEUTRAL)
        elif ch in SEAT_LETTERS[:players]:
            row.append(SEAT_LETTERS.index(ch))
        elif ch in SEAT_LETTERS:
            raise FormatError(
                f"{colour.word} {i}: no seat {ch} at {players} players "
                f"(seats {', '.join(SEAT_LETTERS[:players])})",
                rule="seats",
            )
        else:
            raise FormatError(
                f"{colour.word} {i}: unknown symbol {ch!r} (expected '.', a seat letter"
                + (" or N)" if players == 2 else ")")
            )
    return row


def board_row_symbols(board: tuple[int, ...], colour: Colour, max_number: int) -> list[str]:
    row = board[int(colour) * max_number : (int(colour) + 1) * max_number]
    return ["." if o == EMPTY else "N" if o == NEUTRAL else seat_letter(o) for o in row]


def revealed_from_board(board: list[int] | tuple[int, ...], max_number: int) -> tuple[int, ...]:
    """The revealed cards implied by the neutral tokens (2P2): k tokens on number n are k
    copies of n, covering green, then yellow, then blue."""
    out: list[int] = []
    order = (Colour.G, Colour.Y, Colour.B)
    for number in range(1, max_number + 1):
        covered = {c for c in Colour if board[cell_index(c, number, max_number)] == NEUTRAL}
        k = len(covered)
        if covered != set(order[:k]):
            raise FormatError(
                f"neutral tokens on number {number} must cover green, then yellow, then blue "
                f"(one per revealed copy), not {''.join(c.name for c in Colour if c in covered)}",
                rule="2P2",
            )
        out.extend([number] * k)
    return tuple(out)


def parse_plays(value: object, key: str) -> tuple[Play, ...]:
    """A list of play strings, or one string of plays separated by spaces."""
    items = value.split() if isinstance(value, str) else as_str_list(value, key)
    out = []
    for i, text in enumerate(items):
        try:
            out.append(Play.parse(text))
        except CatboxError as e:
            raise e.located(f"{key}[{i}]") from None
    return tuple(out)


# ---------------------------------------------------------------------------- reading


def _seat_tables(d: Mapping[str, Any], players: int, prefix: str) -> list[dict[str, Any]]:
    seats_t = get_table(d, "seat", prefix)
    key = sub(prefix, "seat")
    letters = SEAT_LETTERS[:players]
    if seats_t is None:
        raise FormatError(
            f"missing the seat tables ([seat.A] … [seat.{letters[-1]}])", rule="seats", where=key
        )
    by_letter: dict[str, dict[str, Any]] = {}
    for name in seats_t:
        letter = letters[seat_of_key(name, players, f"{key}.{name}")]
        if letter in by_letter:
            raise FormatError(f"seat {letter} given twice", rule="seats", where=f"{key}.{name}")
        table = get_table(seats_t, name, key)
        by_letter[letter] = table if table is not None else {}
    missing = [x for x in letters if x not in by_letter]
    if missing:
        raise FormatError(
            f"missing seat table(s) {', '.join(f'[seat.{x}]' for x in missing)} "
            f"(every seat A..{letters[-1]} needs one, even if empty)",
            rule="seats",
            where=key,
        )
    return [by_letter[x] for x in letters]


@dataclass(frozen=True, slots=True)
class _SeatPart:
    """One ``[seat.X]`` table as read (the hand size may still be implied)."""

    hand: tuple[int, ...] | None
    size: int | None
    colours: int
    tricks: int
    prediction: int | None
    set_aside: int | None

    def implied_size(self, unplayed: int) -> int:
        """``hand_size``, else the known hand's size, else the cards not yet played."""
        if self.size is not None:
            return self.size
        return len(self.hand) if self.hand is not None else max(0, unplayed)


def _read_extras(
    d: Mapping[str, Any], trick_t: Mapping[str, Any] | None, prefix: str
) -> dict[str, tuple[object, str]]:
    """``revealed`` and ``paradox``, which may sit at the top or inside ``[trick]`` (not
    both), with their key paths."""
    tkey = sub(prefix, "trick")
    extra: dict[str, tuple[object, str]] = {}
    for name in ("revealed", "paradox"):
        top, inner = get(d, name), get(trick_t, name) if trick_t is not None else None
        if top is not None and inner is not None:
            raise FormatError(
                f"{name} given twice (top level and in [trick])", where=sub(prefix, name)
            )
        if top is not None:
            extra[name] = (top, sub(prefix, name))
        elif inner is not None:
            extra[name] = (inner, f"{tkey}.{name}")
    return extra


def _read_board(board_t: Mapping[str, Any] | None, players: int, prefix: str) -> list[int]:
    """The ``[board]`` rows (B1), all empty when the table is left out."""
    n = variant(players).max_number
    board = [EMPTY] * (4 * n)
    if board_t is None:
        return board
    bkey = sub(prefix, "board")
    check_keys(board_t, ROW_NAMES, bkey)
    for colour, row_name in zip(Colour, ROW_NAMES, strict=True):
        rkey = f"{bkey}.{row_name}"
        text = get(board_t, row_name)
        if text is None:
            raise FormatError(f"missing board row {row_name}", rule="B1", where=rkey)
        try:
            row = parse_board_row(as_str(text, rkey), colour, players)
        except CatboxError as e:
            raise e.located(rkey) from None
        board[int(colour) * n : (int(colour) + 1) * n] = row
    return board


def _read_revealed(
    extra: dict[str, tuple[object, str]],
    board: list[int],
    board_given: bool,
    players: int,
    prefix: str,
) -> tuple[int, ...]:
    """The revealed cards (2P1): given, or read off the ``N`` tokens (2P2); without a board
    at 2 players their ``N`` tokens are placed on ``board``."""
    n = variant(players).max_number
    if "revealed" in extra:
        value, key = extra["revealed"]
        revealed = tuple(sorted(as_int_list(value, key)))
    elif players == 2:
        try:
            revealed = revealed_from_board(board, n)
        except CatboxError as e:
            raise e.located(sub(prefix, "board")) from None
        if not board_given and not revealed:
            raise FormatError(
                "at 2 players give revealed (the three revealed cards) or the board's N tokens",
                rule="2P1",
                where=sub(prefix, "revealed"),
            )
    else:
        revealed = ()
    if not board_given and players == 2:
        for idx in neutral_cells(revealed, n):
            if 0 <= idx < len(board):
                board[idx] = NEUTRAL
    return revealed


def _read_colours(value: object, key: str) -> int:
    text = as_str(value, key)
    if not _COLOURS_RE.match(text):
        raise FormatError(
            f"colors {text!r}: use the letters R, B, Y, G (the permissions still held)", where=key
        )
    try:
        return colours_from_str(text)
    except CatboxError as e:
        raise e.located(key) from None


def _read_seat(t: Mapping[str, Any], skey: str) -> _SeatPart:
    check_keys(t, SEAT_KEYS, skey)
    hand_v, size_v = get(t, "hand"), get(t, "hand_size")
    colors_v, tricks_v = get(t, "colors"), get(t, "tricks")
    pred_v, aside_v = get(t, "prediction"), get(t, "set_aside")
    tricks = 0 if tricks_v is None else as_int(tricks_v, f"{skey}.tricks")
    if tricks < 0:
        raise FormatError(f"tricks {tricks} is negative", where=f"{skey}.tricks")
    return _SeatPart(
        hand=None if hand_v is None else tuple(sorted(as_int_list(hand_v, f"{skey}.hand"))),
        size=None if size_v is None else as_int(size_v, f"{skey}.hand_size"),
        colours=ALL_COLOURS if colors_v is None else _read_colours(colors_v, f"{skey}.colors"),
        tricks=tricks,
        prediction=None if pred_v is None else as_int(pred_v, f"{skey}.prediction"),
        set_aside=None if aside_v is None else as_int(aside_v, f"{skey}.set_aside"),
    )


def _read_trick(
    trick_t: Mapping[str, Any] | None,
    players: int,
    round_start: int,
    seats: list[_SeatPart],
    board: list[int],
    paradox: int | None,
    prefix: str,
) -> tuple[int, tuple[Play, ...]]:
    """The leader and plays of the trick in progress; without ``[trick]`` the leader follows
    from the round so far (module docstring)."""
    tkey = sub(prefix, "trick")
    completed = sum(p.tricks for p in seats)
    if trick_t is not None:
        leader_v, plays_v = get(trick_t, "leader"), get(trick_t, "plays")
        plays = () if plays_v is None else parse_plays(plays_v, f"{tkey}.plays")
        if leader_v is not None:
            return as_seat(leader_v, players, f"{tkey}.leader"), plays
        if completed == 0:
            return round_start, plays
        raise FormatError(
            "missing trick.leader (who leads the trick in progress)",
            rule="W3",
            where=f"{tkey}.leader",
        )
    if completed == 0 and not any(0 <= o < players for o in board):
        return round_start, ()
    if paradox is not None:
        return paradox, ()
    if completed >= variant(players).tricks:
        order = [(round_start + i) % players for i in range(players)]
        return next((s for s in order if seats[s].tricks), round_start), ()
    raise FormatError(
        "missing [trick]: once cards have been played, give trick.leader (and the plays "
        "of the trick in progress, if any)",
        rule="W3",
        where=tkey,
    )


def position_from_obj(d: Mapping[str, Any], prefix: str = "") -> Position:
    """Build, check (``Position.validate``) and settle a position from its document table.
    ``prefix`` is the key path of the table (``position`` inside a puzzle). The ``format`` key
    is allowed but checked by the caller."""
    check_keys(d, POSITION_KEYS, prefix)
    players = read_players(d, prefix)
    hand_start = variant(players).hand_start
    names_v, rs_v = get(d, "names"), get(d, "round_start")
    names = tuple(as_str_list(names_v, sub(prefix, "names"))) if names_v is not None else ()
    round_start = 0 if rs_v is None else as_seat(rs_v, players, sub(prefix, "round_start"))
    trick_t = get_table(d, "trick", prefix)
    if trick_t is not None:
        check_keys(trick_t, TRICK_KEYS, sub(prefix, "trick"))
    extra = _read_extras(d, trick_t, prefix)
    paradox = None
    if "paradox" in extra:
        value, key = extra["paradox"]
        paradox = as_seat(value, players, key)
    board_t = get_table(d, "board", prefix)
    board = _read_board(board_t, players, prefix)
    revealed = _read_revealed(extra, board, board_t is not None, players, prefix)
    tables = _seat_tables(d, players, prefix)
    letters = SEAT_LETTERS[:players]
    parts = [
        _read_seat(t, f"{sub(prefix, 'seat')}.{x}") for x, t in zip(letters, tables, strict=True)
    ]
    leader, plays = _read_trick(trick_t, players, round_start, parts, board, paradox, prefix)
    completed = sum(p.tricks for p in parts)
    in_trick = Counter((leader + i) % players for i in range(len(plays)))
    seats = [
        Seat(
            hand=p.hand,
            hand_size=p.implied_size(hand_start - completed - in_trick[i]),
            colours=p.colours,
            tricks=p.tricks,
            prediction=p.prediction,
            set_aside=p.set_aside,
        )
        for i, p in enumerate(parts)
    ]
    pos = Position(
        players=players,
        board=tuple(board),
        seats=tuple(seats),
        leader=leader,
        trick=plays,
        round_start=round_start,
        revealed=revealed,
        paradox=paradox,
        names=names,
    )
    return checked_position(pos, prefix, sep=".")


# ---------------------------------------------------------------------------- writing


def position_to_obj(pos: Position, *, with_format: bool = True) -> dict[str, Any]:
    """The document table of a position (same keys in TOML and JSON); defaults are left out
    only where the reader restores them exactly."""
    d: dict[str, Any] = {}
    if with_format:
        d["format"] = POSITION_FORMAT
    d["players"] = pos.players
    if pos.names:
        d["names"] = list(pos.names)
    if pos.round_start != 0:
        d["round_start"] = seat_letter(pos.round_start)
    if pos.players == 2 or pos.revealed:
        d["revealed"] = list(pos.revealed)
    if pos.paradox is not None:
        d["paradox"] = seat_letter(pos.paradox)
    n = pos.max_number
    d["board"] = {
        name: " ".join(board_row_symbols(pos.board, colour, n))
        for colour, name in zip(Colour, ROW_NAMES, strict=True)
    }
    seats: dict[str, Any] = {}
    for i, s in enumerate(pos.seats):
        t: dict[str, Any] = {}
        if s.hand is not None:
            t["hand"] = list(s.hand)
        if s.hand is None or s.hand_size != len(s.hand):
            t["hand_size"] = s.hand_size
        if s.colours != ALL_COLOURS:
            t["colors"] = colours_to_str(s.colours)
        if s.tricks:
            t["tricks"] = s.tricks
        if s.prediction is not None:
            t["prediction"] = s.prediction
        if s.set_aside is not None:
            t["set_aside"] = s.set_aside
        seats[seat_letter(i)] = t
    d["seat"] = seats
    d["trick"] = {"leader": seat_letter(pos.leader), "plays": [str(p) for p in pos.trick]}
    return d
