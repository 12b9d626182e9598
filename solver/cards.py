"""Cards, colours, plays and the per-player-count table (rules.md §1).

>>> Play.parse("7r")
Play(number=7, colour=<Colour.R: 0>)
>>> str(Play(3, Colour.G))
'3G'
>>> [str(p) for p in sorted(Play.parse(s) for s in ["5G", "5R", "2Y"])]
['2Y', '5R', '5G']
>>> variant(4).tricks, variant(5).hand_start, variant(2).max_number
(8, 8, 5)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from .errors import FormatError

__all__ = [
    "ALL_COLOURS",
    "COPIES",
    "SEAT_LETTERS",
    "Colour",
    "Play",
    "Variant",
    "colours_from_str",
    "colours_to_str",
    "seat_from_letter",
    "seat_letter",
    "variant",
]

COPIES = 5  # five copies of each number (rules.md §1)
SEAT_LETTERS = "ABCDE"


class Colour(IntEnum):
    """The four research colours; R (red) is trump (B2). The order R, B, Y, G is the board's
    row order (B1) and the sort order of plays (analysis.md, JSON output)."""

    R = 0
    B = 1
    Y = 2
    G = 3

    @property
    def bit(self) -> int:
        return 1 << int(self)

    @property
    def word(self) -> str:
        return ("red", "blue", "yellow", "green")[self]

    @classmethod
    def parse(cls, text: str) -> Colour:
        """``"r"`` -> ``Colour.R``.

        Raises:
            FormatError: not a colour letter.
        """
        letter = text.strip().upper() if isinstance(text, str) else ""
        if len(letter) != 1 or letter not in "RBYG":  # "".index / "RB" would match R
            raise FormatError(f"unknown colour {text!r} (expected one of R, B, Y, G)")
        return cls[letter]


ALL_COLOURS = 0b1111  # a permission mask holding all four colours (S4)

_PLAY_RE = re.compile(r"^\s*(\d+)\s*([RrBbYyGg])\s*$")


@dataclass(frozen=True, slots=True, order=True)
class Play:
    """A card number with a declared colour, written like ``7R`` (rules.md §4)."""

    number: int
    colour: Colour

    def __str__(self) -> str:
        return f"{self.number}{self.colour.name}"

    @classmethod
    def parse(cls, text: str) -> Play:
        """``"7r"`` -> ``Play(7, Colour.R)``.

        Raises:
            FormatError: not a number then a colour letter.
        """
        m = _PLAY_RE.match(text) if isinstance(text, str) else None
        if m is None:
            raise FormatError(f"bad play {text!r}: expected a number then a colour, like 7R")
        return cls(int(m.group(1)), Colour.parse(m.group(2)))


def colours_to_str(mask: int) -> str:
    """``0b1011`` -> ``"RBG"`` (permissions in R, B, Y, G order)."""
    return "".join(c.name for c in Colour if mask & c.bit)


def colours_from_str(text: str) -> int:
    """``"rbg"`` -> mask; rejects unknown letters and repeats.



    Raises:


        FormatError: an unknown or repeated colour letter.


    """
    mask = 0
    for ch in text.replace(" ", ""):
        c = Colour.parse(ch)
        if mask & c.bit:
            raise FormatError(f"colour {c.name} repeated in {text!r}")
        mask |= c.bit
    return mask


def seat_letter(seat: int) -> str:
    return SEAT_LETTERS[seat]


def seat_from_letter(text: str, players: int) -> int:
    """``"b"`` -> 1.

    Raises:
        FormatError: no such seat at this player count.
    """
    t = text.strip().upper() if isinstance(text, str) else ""
    if len(t) != 1 or t not in SEAT_LETTERS[:players]:
        raise FormatError(
            f"unknown seat {text!r}: seats are {', '.join(SEAT_LETTERS[:players])} "
            f"at {players} players"
        )
    return SEAT_LETTERS.index(t)


@dataclass(frozen=True, slots=True)
class Variant:
    """One column of the per-count table (rules.md §1)."""

    players: int
    max_number: int  # card numbers 1..max_number, COPIES each
    dealt: int  # cards dealt to each player (S1)
    hand_start: int  # hand when play starts, after setting one aside (S2)
    tricks: int  # tricks in a full round (E1)
    undealt: int  # 2 players: 5 (2P1)
    predictions: tuple[int, ...]  # allowed predictions (S3); empty at 2 players
    rounds: int  # rounds in a game (Sc4)
    empty_after: int  # cells left empty after a paradox-free round (I2, I3)

    @property
    def deck_size(self) -> int:
        return self.max_number * COPIES

    @property
    def numbers(self) -> range:
        return range(1, self.max_number + 1)


VARIANTS: dict[int, Variant] = {
    2: Variant(2, 5, 10, 9, 8, 5, (), 2, 1),
    3: Variant(3, 6, 10, 9, 8, 0, (1, 3, 4), 3, 0),
    4: Variant(4, 8, 10, 9, 8, 0, (1, 2, 3), 4, 0),
    5: Variant(5, 9, 9, 8, 7, 0, (1, 2, 3), 5, 1),
}


def variant(players: int) -> Variant:
    """The rules' table for a player count (rules.md §1).

    Raises:
        FormatError: players is not 2 to 5.
    """
    try:
        return VARIANTS[players]
    except (KeyError, TypeError):
        raise FormatError(f"players must be 2, 3, 4 or 5, not {players!r}") from None
