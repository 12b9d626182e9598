"""SVG pictures of a position, standard library only (python-chess's ``chess.svg`` is the model).

:func:`board` draws the research board (rows red, blue, yellow, green by numbers; seat tokens
by letter, neutral tokens as ``N``), the trick in progress, and one row per seat: its hand (or,
when hidden, its hand size as face-down cards), its colour permissions (a lost colour is struck
through), tricks, prediction and set-aside card. Nothing is told by colour alone: tokens carry
their seat letter, rows and permissions their colour letter.

The output is deterministic and scriptable: every cell is a ``<g class="cell">`` with
``data-cell`` (``"5R"``) and, when filled, ``data-owner`` (the seat letter, or ``N`` for a
neutral token). The picture is a fixed skeleton (every cell, hand slot, permission and trick
slot is always present) whose changing parts are classes, ``data-`` attributes and texts, all
computed from :func:`board_state`; ``solver/assets/board.js`` applies the same state to the same
skeleton in a browser, so a page can redraw a position without a new picture.

>>> from .deal import deal_round
>>> pos = deal_round(4, seed=7).position
>>> svg = board(pos.play(pos.legal_plays()[0]), size=300)
>>> 'data-cell="2B" data-owner="A"' in svg, svg.count('class="cell '), svg.startswith("<svg")
(True, 32, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from .board import EMPTY, NEUTRAL, cell_index
from .cards import Colour, Play, colours_to_str, seat_letter
from .position import Position

if TYPE_CHECKING:
    from .puzzle import Puzzle
    from .record import Record

__all__ = [
    "DEFAULT_COLORS",
    "Svg",
    "board",
    "board_state",
    "cell_name",
    "puzzle",
    "record",
    "status_text",
]


class Svg(str):
    """An SVG document (a ``str``) that notebooks display as a picture."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        return str(self)


#: Palette keys accepted by ``colors=``: row colours (``red`` … for filled cells, ``red pale``
#: … for empty ones), tokens, text and the highlights. Chosen for contrast: black letters on
#: white tokens, dark labels on pale fills.
DEFAULT_COLORS: dict[str, str] = {
    "red": "#c8453c",
    "red pale": "#f6d5d2",
    "blue": "#3a6db3",
    "blue pale": "#d6e2f3",
    "yellow": "#d9a800",
    "yellow pale": "#f8edc0",
    "green": "#3b8a4e",
    "green pale": "#d3eadb",
    "token": "#ffffff",
    "neutral": "#6e6e6e",
    "ink": "#1d1d1d",
    "muted": "#6b6b6b",
    "background": "#ffffff",
    "last": "#111111",
    "candidate": "#7b2fbe",
    "line": "#7b2fbe",
    "card": "#fdfdf8",
}

CELL = 44  # board cell side
LABEL = 72  # the row-label column
HAND_X = 96  # where the hand starts in a seat row, after "▶ A Name"
CARD_W, CARD_H, CARD_GAP = 20, 26, 3
PERM = 19  # a permission box
SEAT_ROW = 34
INFO_W = 215  # room for "tricks 2 · predicted 4 · aside 2"
_WORDS = {c: c.word for c in Colour}


def cell_name(index: int, max_number: int) -> str:
    """``"5R"``: the number then the colour letter of a board cell (like a play)."""
    colour, col = divmod(index, max_number)
    return f"{col + 1}{Colour(colour).name}"


def _owner_letter(owner: int) -> str:
    if owner == EMPTY:
        return ""
    return "N" if owner == NEUTRAL else seat_letter(owner)


def status_text(pos: Position) -> str:
    """One line: the trick, who led, who is to play, whether red is broken (or the result)."""
    if pos.paradox is not None:
        text = (
            f"Paradox! {seat_letter(pos.paradox)} had no legal play in trick "
            f"{pos.completed_tricks + 1} (X1); the round is over."
        )
    elif pos.finished:
        text = f"Round over: all {pos.variant.tricks} tricks played (E1)."
    else:
        assert pos.to_play is not None
        text = (
            f"Trick {pos.completed_tricks + 1} of {pos.variant.tricks}, led by "
            f"{seat_letter(pos.leader)}; {seat_letter(pos.to_play)} to play."
        )
    text += " Red is broken." if pos.red_broken else " Red is not broken."
    if pos.revealed:
        text += f" Revealed: {' '.join(map(str, pos.revealed))}."
    return text


def _seat_text(pos: Position, seat: int) -> str:
    s = pos.seats[seat]
    parts = [f"tricks {s.tricks}"]
    if s.prediction is not None:
        parts.append(f"predicted {s.prediction}")
    if s.set_aside is not None:
        parts.append(f"aside {s.set_aside}")
    return " · ".join(parts)


def board_state(pos: Position) -> dict[str, Any]:
    """Everything the picture shows that changes from one position to the next, as JSON-able
    data: ``cells`` (one character per cell in board order: a seat letter, ``N`` or ``.``),
    ``trick`` (``[seat letter, play]`` pairs), per seat its ``hand`` (None: hidden), ``size``,
    ``colours``, ``mark`` (``▶`` to play, ``✗`` paradox) and ``text``, and the ``status`` line.
    The browser's ``board.js`` draws exactly this onto the skeleton :func:`board` makes."""
    trick_seats = pos.trick_seats()
    return {
        "cells": "".join(_owner_letter(o) or "." for o in pos.board),
        "trick": [[seat_letter(s), str(p)] for s, p in zip(trick_seats, pos.trick, strict=True)],
        "seats": [
            {
                "hand": list(s.hand) if s.hand is not None else None,
                "size": s.hand_size,
                "colours": colours_to_str(s.colours),
                "mark": "✗" if pos.paradox == i else "▶" if pos.to_play == i else "",
                "text": _seat_text(pos, i),
            }
            for i, s in enumerate(pos.seats)
        ],
        "status": status_text(pos),
    }


def _attr(value: str) -> str:
    return escape(value, {'"': "&quot;"})


def _style(colors: Mapping[str, str]) -> str:
    c = colors
    rows = "".join(
        f".{col.name} .bg{{fill:{c[w + ' pale']}}}"
        f".{col.name}[data-owner] .bg,.play.{col.name} .bg,.perm.{col.name} .bg{{fill:{c[w]}}}"
        for col, w in _WORDS.items()
    )
    return (
        rows + f"text{{font-family:DejaVu Sans,Verdana,Arial,sans-serif;fill:{c['ink']}}}"
        ".cell .bg{stroke:#fff;stroke-width:2}"
        f".tok circle{{fill:{c['token']};stroke:{c['ink']};stroke-width:1.5}}"
        ".tok text,.card text,.perm text,.play text{text-anchor:middle;dominant-baseline:central}"
        ".tok text{font-size:17px;font-weight:bold}"
        ".cell:not([data-owner]) .tok{display:none}"
        f".cell[data-owner=N] .tok circle{{fill:{c['neutral']};stroke:{c['neutral']}}}"
        f".cell[data-owner=N] .tok text{{fill:#fff}}"
        ".cell.trick .tok circle{stroke-width:3.5;stroke-dasharray:4 2}"
        ".frame{fill:none;stroke:none}"
        f".cell.last .frame{{stroke:{c['last']};stroke-width:3.5}}"
        f".cell.cand .frame{{stroke:{c['candidate']};stroke-width:3;stroke-dasharray:6 3}}"
        f".step{{font-size:11px;font-weight:bold;fill:{c['line']}}}"
        ".mark{font-size:12px;font-weight:bold;text-anchor:end}"
        ".mark,.step{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}"
        ".head{font-size:13px;text-anchor:middle}.rowname{font-size:14px;font-weight:bold}"
        f".card rect{{fill:{c['card']};stroke:{c['muted']}}}.card text{{font-size:12px}}"
        f".card.hidden rect{{fill:{c['muted']}}}.card.hidden text{{fill:#fff}}"
        ".card.none{display:none}"
        f".perm .bg{{stroke:{c['ink']};stroke-width:1}}"
        ".perm text{font-size:11px;font-weight:bold;fill:#fff}"
        f".perm.Y text{{fill:{c['ink']}}}"  # dark on yellow: white would be too faint
        f".perm.lost .bg{{fill:#fff}}.perm.lost text{{fill:{c['muted']}}}"
        f".perm .strike{{stroke:{c['ink']};stroke-width:1.5;display:none}}"
        ".perm.lost .strike{display:inline}"
        ".who{font-size:15px;font-weight:bold}.turn{font-size:14px;font-weight:bold}"
        ".info,.status{font-size:13px}"
        ".play.none{display:none}.play .bg{stroke:#fff}"
        ".play text{font-size:13px;font-weight:bold;fill:#fff}"
        f".play.Y text{{fill:{c['ink']}}}"
    )


def board(
    pos: Position,
    *,
    size: int | None = None,
    colors: Mapping[str, str] | None = None,
    view: int | None = None,
    last: Play | None = None,
    candidates: Iterable[Play] = (),
    line: Sequence[Play] = (),
    marks: Mapping[Play | str, str] | None = None,
    title: str | None = None,
    subtitle: str | None = None,
    seats: bool = True,
) -> Svg:
    """The position as an SVG picture.

    Args:
        pos: the position to draw.
        size: the picture's width in pixels (default: its natural width, about 520).
        colors: palette overrides, keys of :data:`DEFAULT_COLORS` (``{"red": "#f00"}``).
        view: draw the position as this seat sees it: other hands as face-down cards.
        last: a play to frame (the last play).
        candidates: plays to frame with a dashed line (candidate plays).
        line: a witness line; each play's cell gets its step number 1, 2, ...
        marks: a short text written into cells, keyed by play or cell name (``"5R"``).
        title: a caption above the board.
        subtitle: a second, smaller caption line (a puzzle's goal).
        seats: draw the seat rows (hands, permissions, tricks) under the board.
    """
    palette = {**DEFAULT_COLORS, **(colors or {})}
    if view is not None:
        pos = pos.hide(i for i in range(pos.players) if i != view)
    state = board_state(pos)
    n = pos.max_number
    hand_slots = pos.variant.hand_start
    perm_x = HAND_X + hand_slots * (CARD_W + CARD_GAP) + 8
    info_x = perm_x + 4 * (PERM + 2) + 8
    width = max(info_x + INFO_W, LABEL + n * CELL + 8)
    top = (26 if title else 0) + (20 if subtitle else 0)
    board_top = top + 22
    trick_top = board_top + 4 * CELL + 14
    seats_top = trick_top + 62
    height = seats_top + (pos.players * SEAT_ROW + 6 if seats else 0)
    shown = size or width
    scale = f' width="{shown}" height="{round(shown * height / width)}"'
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="catbox-board" viewBox="0 0 {width} '
        f'{height}"{scale} data-players="{pos.players}" data-numbers="{n}" role="img">',
        f"<title>{escape(title or 'Cat in the Box position')} — {escape(state['status'])}</title>",
        f"<style>{_style(palette)}</style>",
        f'<rect width="{width}" height="{height}" fill="{palette["background"]}"/>',
    ]
    if title:
        out.append(
            f'<text x="8" y="19" style="font-size:16px;font-weight:bold">{escape(title)}</text>'
        )
    if subtitle:
        out.append(
            f'<text class="info" x="8" y="{top - 6}" style="font-style:italic">'
            f"{escape(subtitle)}</text>"
        )
    out += _cells(pos, state, board_top, candidates, line, marks, last)
    out += _trick(pos, state, trick_top)
    if seats:
        out += _seat_rows(pos, state, seats_top, perm_x, info_x)
    out.append("</svg>")
    return Svg("".join(out))


def _cells(
    pos: Position,
    state: dict[str, Any],
    board_top: int,
    candidates: Iterable[Play],
    line: Sequence[Play],
    marks: Mapping[Play | str, str] | None,
    last: Play | None,
) -> list[str]:
    """The board: the number heads, the row names and every cell with its marks."""
    out: list[str] = []
    n = pos.max_number
    for number in range(1, n + 1):
        x = LABEL + (number - 1) * CELL + CELL // 2
        out.append(f'<text class="head" x="{x}" y="{board_top - 7}">{number}</text>')
    in_trick = {cell_index(p.colour, p.number, n) for p in pos.trick}
    cand = {cell_index(p.colour, p.number, n) for p in candidates}
    steps: dict[int, list[int]] = {}
    for k, p in enumerate(line, start=1):
        steps.setdefault(cell_index(p.colour, p.number, n), []).append(k)
    written: dict[int, str] = {}
    for key, text in (marks or {}).items():
        play = key if isinstance(key, Play) else Play.parse(key)
        written[cell_index(play.colour, play.number, n)] = text
    last_idx = cell_index(last.colour, last.number, n) if last is not None else None
    for colour in Colour:
        y = board_top + int(colour) * CELL
        out.append(
            f'<text class="rowname" x="8" y="{y + CELL // 2 + 5}">{colour.word.capitalize()}</text>'
        )
        for number in range(1, n + 1):
            idx = cell_index(colour, number, n)
            owner = state["cells"][idx]
            classes = ["cell", colour.name]
            classes += ["trick"] if idx in in_trick else []
            classes += ["last"] if idx == last_idx else []
            classes += ["cand"] if idx in cand else []
            owner_attr = f' data-owner="{owner}"' if owner != "." else ""
            step = ",".join(map(str, steps.get(idx, ())))
            x = LABEL + (number - 1) * CELL
            out.append(
                f'<g class="{" ".join(classes)}" data-cell="{number}{colour.name}"{owner_attr} '
                f'transform="translate({x},{y})">'
                f'<rect class="bg" width="{CELL}" height="{CELL}"/>'
                f'<g class="tok"><circle cx="22" cy="22" r="14"/>'
                f'<text x="22" y="23">{owner if owner != "." else ""}</text></g>'
                f'<rect class="frame" x="3" y="3" width="{CELL - 6}" height="{CELL - 6}" rx="3"/>'
                f'<text class="step" x="4" y="12">{step}</text>'
                f'<text class="mark" x="{CELL - 3}" y="{CELL - 4}">'
                f"{escape(written.get(idx, ''))}</text></g>"
            )
    return out


def _trick(pos: Position, state: dict[str, Any], trick_top: int) -> list[str]:
    """The status line and the trick in progress."""
    out: list[str] = []
    out.append(f'<text class="status" x="8" y="{trick_top + 4}">{escape(state["status"])}</text>')
    out.append(f'<text class="info" x="8" y="{trick_top + 36}">Trick:</text>')
    for k in range(pos.players - 1):
        x = LABEL + k * 52
        if k < len(state["trick"]):
            who, text = state["trick"][k]
            cls = f"play {text[-1]}"
        else:
            who, text, cls = "", "", "play none"
        out.append(
            f'<g class="{cls}" data-slot="{k}" transform="translate({x},{trick_top + 14})">'
            '<rect class="bg" width="48" height="36" rx="4"/>'
            f'<text class="by" x="24" y="10" style="font-size:10px">{who}</text>'
            f'<text class="num" x="24" y="25">{text}</text></g>'
        )
    return out


def _seat_rows(
    pos: Position, state: dict[str, Any], seats_top: int, perm_x: int, info_x: int
) -> list[str]:
    """One row per seat: its hand (face down when unknown), permissions, tricks."""
    out: list[str] = []
    hand_slots = pos.variant.hand_start
    for i, seat_state in enumerate(state["seats"]):
        y = seats_top + i * SEAT_ROW
        letter = seat_letter(i)
        name = pos.seat_names[i]
        label = letter if name == letter else f"{letter} {name[:6]}"
        out.append(
            f'<g class="seat" data-seat="{letter}" transform="translate(0,{y})">'
            f'<text class="turn" x="6" y="20">{seat_state["mark"]}</text>'
            f'<text class="who" x="22" y="20">{_attr(label)}</text>'
        )
        hand = seat_state["hand"]
        for k in range(hand_slots):
            if k >= seat_state["size"]:
                cls, text = "card none", ""
            elif hand is None:
                cls, text = "card hidden", "?"
            else:
                cls, text = "card", str(hand[k])
            out.append(
                f'<g class="{cls}" data-slot="{k}" '
                f'transform="translate({HAND_X + k * (CARD_W + CARD_GAP)},4)">'
                f'<rect width="{CARD_W}" height="{CARD_H}" rx="3"/>'
                f'<text x="{CARD_W // 2}" y="{CARD_H // 2 + 1}">{text}</text></g>'
            )
        for c in Colour:
            held = c.name in seat_state["colours"]
            out.append(
                f'<g class="perm {c.name} {"held" if held else "lost"}" data-colour="{c.name}" '
                f'transform="translate({perm_x + int(c) * (PERM + 2)},8)">'
                f'<rect class="bg" width="{PERM}" height="{PERM}" rx="2"/>'
                f'<text x="{PERM // 2}" y="{PERM // 2 + 1}">{c.name}</text>'
                f'<line class="strike" x1="1" y1="{PERM - 1}" x2="{PERM - 1}" y2="1"/></g>'
            )
        out.append(
            f'<text class="info" x="{info_x}" y="22">{escape(seat_state["text"])}</text></g>'
        )
    return out


def puzzle(pz: Puzzle, **options: Any) -> Svg:
    """A puzzle's position titled with its name and goal (``options`` as :func:`board`)."""
    caption = f"{pz.title} ({'★' * pz.difficulty})"
    return board(
        pz.position, **({"title": caption, "subtitle": "Goal: " + pz.goal.describe()} | options)
    )


def record(rec: Record, at: int | None = None, **options: Any) -> Svg:
    """The position of a round record after ``at`` moves (default: all), the last move framed
    (``options`` as :func:`board`).

    Raises:
        PositionError: ``at`` is not 0 to the number of moves.
        IllegalPlayError: the record has an illegal move before ``at``.
    """
    k = len(rec.moves) if at is None else at
    last = rec.moves[k - 1] if 0 < k <= len(rec.moves) else None
    return board(rec.position(at), **({"last": last} | options))
