"""Hand-checked documents and helpers shared by the format tests (a plain helper module, not
a test module: test modules never import each other)."""

from __future__ import annotations

from catbox.solver import formats
from catbox.solver.cards import Play
from catbox.solver.puzzle import Goal, Puzzle, PuzzleAnswer

# random_position(4, seed=3, tricks_left=2, mid_trick=1): C has led 1R.
POS4 = """\
format = "catbox-position/1"
players = 4

[board]
red    = "C D C A . B B C"
blue   = "B C A . C A D D"
yellow = "A . D . . C . ."
green  = "A C B B A D B D"

[seat.A]
hand = [4, 6, 8]
prediction = 3
set_aside = 7

[seat.B]
hand = [4, 4, 7]
colors = "RG"
tricks = 1
prediction = 3
set_aside = 8

[seat.C]
hand = [5, 5]
colors = "RBY"
tricks = 3
prediction = 3
set_aside = 5

[seat.D]
hand = [1, 2, 2]
tricks = 2
prediction = 1
set_aside = 3

[trick]
leader = "C"
plays = ["1R"]
"""

# random_position(3, seed=1, tricks_left=2): B to lead trick 7.
POS3 = """\
format = "catbox-position/1"
players = 3

[board]
red    = "A . C . A B"
blue   = "C A . . A B"
yellow = "C B . A C A"
green  = "B C C B B ."

[seat.A]
hand = [1, 4, 5]
colors = "RBY"
tricks = 2
prediction = 4
set_aside = 2

[seat.B]
hand = [4, 6, 6]
colors = "RBG"
tricks = 2
prediction = 4
set_aside = 2

[seat.C]
hand = [3, 3, 3]
tricks = 2
prediction = 3
set_aside = 4

[trick]
leader = "B"
plays = []
"""

# random_position(2, seed=2, tricks_left=3, mid_trick=1): revealed 4, 5, 5.
POS2 = """\
format = "catbox-position/1"
players = 2
revealed = [4, 5, 5]

[board]
red    = ". . . A ."
blue   = "B B A . A"
yellow = "A B . B N"
green  = "A A B N N"

[seat.A]
hand = [3, 3, 3]
colors = "RBG"
tricks = 3
set_aside = 4

[seat.B]
hand = [1, 2, 2, 5]
colors = "RBY"
tricks = 2
set_aside = 5

[trick]
leader = "A"
plays = ["3B"]
"""


def line_no(text: str, fragment: str) -> int:
    """The line (1-based) of the first line of ``text`` holding ``fragment``."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


#: The Red Herring as first published: 2G and 4B both keep "exactly 5" (a cook).
COOKED = "cbx1:2A:B4/AAB1B/BA1AN/A1BNN:3355.RBYG.1.-.2,2244.RBG.4.-.4:B"


def cooked_puzzle() -> Puzzle:
    """The Red Herring as first published (:data:`COOKED`), its answer 2G: a cooked puzzle."""
    pos = formats.position_from_line(COOKED)
    goal = Goal(1, "make-exactly", 5, "guaranteed")
    return Puzzle("The Red Herring", 4, "", pos, goal, PuzzleAnswer(True, (Play.parse("2G"),)))
