"""The one-line position string: what FEN is to chess.

Everything a position file holds except names and comments, on one line with no spaces and no
shell-special characters, so it can be pasted into chat or a command line unquoted. Six fields
separated by ``:`` (the sixth only after a paradox)::

    cbx1 : <players><round start> : <board> : <seat>,<seat>,... : <leader><plays> [: X<seat>]

- ``cbx1`` — the tag and version; it tells a position string apart from a file name.
- ``4A`` — the player count and the round start player.
- board — the four rows red/blue/yellow/green separated by ``/``, one symbol per number 1..N:
  a seat letter, ``N`` (neutral, 2 players) or ``.`` empty; as in FEN a digit k stands for k
  empty cells (the writer always uses digits; the reader takes either).
- seats, A first, separated by ``,``; each is ``hand.colors.tricks.prediction.set_aside``:
  hand is its cards as digits (``1337``) or ``X4`` for an unknown hand of 4 cards; colors are
  the permissions still held (``RBYG``; ``-`` for none); ``-`` is an unknown prediction or
  set-aside card. The reader lets the last two fields be left off (unknown).
- trick — the leader of the trick in progress and its plays so far: ``C5B7B``.
- ``XD`` — only after a paradox: the seat that caused it (rule X1).

At 2 players the revealed cards are read off the ``N`` tokens (rule 2P2). Hand sizes follow from
the hands. Output is upper case; lower case is accepted. Reading checks the position exactly
like a position file.

A new 3-player round (predictions not yet known):

>>> from ..deal import deal_round
>>> from ..deal import random_position
>>> pos = deal_round(3, seed=1).position
>>> position_to_line(pos)
'cbx1:3A:6/6/6/6:223345566.RBYG.0.-.1,223344556.RBYG.0.-.1,111234456.RBYG.0.-.6:A'
>>> position_from_line(position_to_line(pos)) == pos
True

Three players in the middle of a trick (B led 6R, C played 5R); seat A's hand and set-aside
card are unknown:

>>> pos = random_position(3, seed=5, tricks_left=2, mid_trick=2, hide=[0])
>>> position_to_line(pos)
'cbx1:3A:2A1CB/ABCCAB/BCABC1/CACBBA:X3.RBG.2.4.-,14.RBYG.2.4.3,46.RBYG.2.4.1:B6R5R'
>>> position_from_line(position_to_line(pos)) == pos
True

Two players; lower case is fine, and the revealed cards (here 3, 3, 5) come from the N tokens:

>>> pos = position_from_line(
...     "cbx1:2b:5/5/2n2/2n1n:122334455.rbyg.0.-.1,111223445.rbyg.0.-.2:b")
>>> pos.revealed, pos.round_start, pos.seats[0].hand_size
((3, 3, 5), 1, 9)
>>> position_from_line("cbx1:4A:8/8/8:X9.RBYG.0,X9.RBYG.0,X9.RBYG.0,X9.RBYG.0:A")
Traceback (most recent call last):
...
catbox.solver.errors.FormatError: position string: board: 3 rows, expected 4 \
(red/blue/yellow/green)
"""

from __future__ import annotations

import re

from ..cards import (
    SEAT_LETTERS,
    Colour,
    Play,
    colours_from_str,
    colours_to_str,
    seat_letter,
    variant,
)
from ..errors import CatboxError, FormatError
from ..position import Position, Seat
from .common import checked_position
from .position import board_row_symbols, parse_board_row, revealed_from_board

__all__ = ["LINE_TAG", "looks_like_line", "position_from_line", "position_to_line"]

LINE_TAG = "cbx1"
_HEAD_RE = re.compile(r"^([2-5])([A-E])$")
_HAND_RE = re.compile(r"^(?:X(\d+)|(\d*))$")
_COLOURS_RE = re.compile(r"^(?:-|[RBYG]*)$")
_TRICK_RE = re.compile(r"^([A-E])((?:\d[RBYG])*)$")
_PARADOX_RE = re.compile(r"^X([A-E])$")


def looks_like_line(text: str) -> bool:
    """Whether ``text`` is meant as a position string (starts with the tag ``cbx`` and a
    version, then ``:``), rather than a file name."""
    return re.match(r"^\s*cbx\d+:", text, re.IGNORECASE) is not None


def _err(message: str, field: str, rule: str | None = None) -> FormatError:
    return FormatError(message, rule=rule, where=f"position string: {field}")


def _row_to_text(symbols: list[str]) -> str:
    out, run = [], 0
    for s in symbols:
        if s == ".":
            run += 1
            continue
        if run:
            out.append(str(run))
            run = 0
        out.append(s)
    if run:
        out.append(str(run))
    return "".join(out)


def _opt(value: int | None) -> str:
    return "-" if value is None else str(value)


def position_to_line(pos: Position) -> str:
    """The one-line string of a position (names are dropped)."""
    n = pos.max_number
    head = f"{pos.players}{seat_letter(pos.round_start)}"
    board = "/".join(_row_to_text(board_row_symbols(pos.board, c, n)) for c in Colour)
    seats = []
    for s in pos.seats:
        hand = f"X{s.hand_size}" if s.hand is None else "".join(map(str, s.hand))
        colours = colours_to_str(s.colours) or "-"
        seats.append(f"{hand}.{colours}.{s.tricks}.{_opt(s.prediction)}.{_opt(s.set_aside)}")
    trick = seat_letter(pos.leader) + "".join(map(str, pos.trick))
    fields = [LINE_TAG, head, board, ",".join(seats), trick]
    if pos.paradox is not None:
        fields.append(f"X{seat_letter(pos.paradox)}")
    return ":".join(fields)


def _number(text: str, field: str, what: str) -> int | None:
    if text == "-":
        return None
    if not text.isascii() or not text.isdigit():
        raise _err(f"{what} {text!r}: expected a number or '-'", field)
    return int(text)


def _line_tag(fields: list[str]) -> None:
    tag = fields[0]
    if tag != LINE_TAG.upper():
        m = re.fullmatch(r"CBX(\d+)", tag)
        if m and int(m.group(1)) > 1:
            raise _err(
                f"position string version {m.group(1)} is newer than this catbox reads "
                f"({LINE_TAG})",
                "tag",
                "format",
            )
        raise _err(f"a position string starts with {LINE_TAG}:, not {tag[:10]!r}", "tag")
    if len(fields) not in (5, 6):
        raise _err(
            f"{len(fields)} fields; expected 5 (tag:players:board:seats:trick) or 6 "
            "(…:X<seat> after a paradox)",
            "fields",
        )


def _line_head(text: str) -> tuple[int, int]:
    """The player count and the round start seat (``4A``)."""
    m = _HEAD_RE.match(text)
    if not m:
        raise _err(
            f"{text!r}: expected the player count 2-5 and the round start seat, like 4A",
            "players",
            "players",
        )
    players = int(m.group(1))
    letters = SEAT_LETTERS[:players]
    if m.group(2) not in letters:
        raise _err(f"no seat {m.group(2)} at {players} players", "players", "seats")
    return players, letters.index(m.group(2))


def _line_board(text: str, players: int) -> list[int]:
    rows = text.split("/")
    if len(rows) != 4:
        raise _err(f"{len(rows)} rows, expected 4 (red/blue/yellow/green)", "board")
    board: list[int] = []
    for colour, row in zip(Colour, rows, strict=True):
        expanded = re.sub(r"\d", lambda d: "." * int(d.group()), row)
        try:
            board.extend(parse_board_row(expanded, colour, players))
        except CatboxError as e:
            raise e.located(f"position string: board.{colour.word}") from None
    return board


def _line_seat(text: str, field: str) -> Seat:
    """One seat: ``hand.colors.tricks[.prediction[.set_aside]]``."""
    parts = text.split(".")
    if not 3 <= len(parts) <= 5:
        raise _err(f"{text!r}: expected hand.colors.tricks[.prediction[.set_aside]]", field)
    parts += ["-"] * (5 - len(parts))
    hm = _HAND_RE.match(parts[0])
    if not hm:
        raise _err(f"hand {parts[0]!r}: expected digits, or X and a hand size", field)
    hand = None if hm.group(1) is not None else tuple(sorted(int(c) for c in hm.group(2)))
    size = int(hm.group(1)) if hm.group(1) is not None else len(hand or ())
    if not _COLOURS_RE.match(parts[1]):
        raise _err(f"colors {parts[1]!r}: expected letters from RBYG, or -", field)
    try:
        colours = colours_from_str(parts[1]) if parts[1] != "-" else 0
    except CatboxError as e:
        raise e.located(f"position string: {field}") from None
    tricks = _number(parts[2], field, "tricks")
    if tricks is None:
        raise _err("tricks cannot be unknown", field)
    return Seat(
        hand=hand,
        hand_size=size,
        colours=colours,
        tricks=tricks,
        prediction=_number(parts[3], field, "prediction"),
        set_aside=_number(parts[4], field, "set_aside"),
    )


def _line_trick(text: str, letters: str) -> tuple[int, tuple[Play, ...]]:
    tm = _TRICK_RE.match(text)
    if not tm:
        raise _err(
            f"{text!r}: expected the leader's letter and the plays so far, like C5B7B", "trick"
        )
    if tm.group(1) not in letters:
        raise _err(f"no seat {tm.group(1)} at {len(letters)} players", "trick", "seats")
    plays = tuple(Play.parse(p) for p in re.findall(r"\d[RBYG]", tm.group(2)))
    return letters.index(tm.group(1)), plays


def position_from_line(text: str) -> Position:
    """Read (and check, like a position file) a one-line position string.

    Raises:
        FormatError: not a position string, or a bad field.
        PositionError: a position that cannot arise.
    """
    if not isinstance(text, str):
        raise _err(f"expected text, not {type(text).__name__}", "tag")
    fields = text.strip().upper().split(":")
    _line_tag(fields)
    players, round_start = _line_head(fields[1])
    letters = SEAT_LETTERS[:players]
    board = _line_board(fields[2], players)
    revealed: tuple[int, ...] = ()
    if players == 2:
        try:
            revealed = revealed_from_board(board, variant(players).max_number)
        except CatboxError as e:
            raise e.located("position string: board") from None
    seat_texts = fields[3].split(",")
    if len(seat_texts) != players:
        raise _err(f"{len(seat_texts)} seats, expected {players}", "seats", "seats")
    seats = tuple(_line_seat(t, f"seat.{x}") for x, t in zip(letters, seat_texts, strict=True))
    leader, plays = _line_trick(fields[4], letters)
    paradox = None
    if len(fields) == 6:
        pm = _PARADOX_RE.match(fields[5])
        if not pm or pm.group(1) not in letters:
            raise _err(f"{fields[5]!r}: expected X and the seat that caused it", "paradox")
        paradox = letters.index(pm.group(1))
    pos = Position(
        players=players,
        board=tuple(board),
        seats=seats,
        leader=leader,
        trick=plays,
        round_start=round_start,
        revealed=revealed,
        paradox=paradox,
    )
    return checked_position(pos, "position string")
