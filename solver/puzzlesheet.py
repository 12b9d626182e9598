"""A printable puzzle sheet: one self-contained HTML page (``catbox puzzles sheet``).

Each puzzle gets its diagram (the SVG board of :mod:`.svg`, drawn inline), its story and its
goal; the answers come at the end, on their own page: the answer (yes / no, the score for
``max-score``), every key and the checked line (:mod:`.solve`), seat by seat. The page has no
script and loads nothing: no network address appears in it, styles are inline, and the print
style keeps each puzzle on one page side.

>>> from .formats import load_puzzle
>>> from pathlib import Path
>>> pz = load_puzzle(Path(__file__).parent.parent / "puzzles" / "the-red-herring.toml")
>>> html = sheet([pz])
>>> html.startswith("<!DOCTYPE html>"), "data-cell=" in html, "2G" in html, "http" in html
(True, True, True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from .cards import Play, seat_letter
from .limits import Limits
from .position import Position
from .puzzle import Puzzle
from .solve import Solution, solve

if TYPE_CHECKING:
    from .search import Session

__all__ = ["answer_text", "line_text", "sheet"]

_CSS = """
body { font-family: Georgia, 'Times New Roman', serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
p.intro { color: #555; margin-top: 0; }
.puzzles { display: flex; flex-wrap: wrap; gap: 1.2em; }
.puzzle { width: 30em; box-sizing: border-box; border: 1px solid #bbb; border-radius: 6px;
  padding: 0.8em;
  break-inside: avoid; page-break-inside: avoid; }
.puzzle h2 { font-size: 1.1em; margin: 0 0 0.3em 0; }
.puzzle .level { color: #777; font-weight: normal; font-size: 0.9em; }
.puzzle svg { width: 100%; height: auto; }
.story { font-style: italic; margin: 0.4em 0; }
.goal { font-weight: bold; margin: 0.4em 0 0 0; }
.answers { break-before: page; page-break-before: always; }
.answers h2 { font-size: 1.3em; }
.answers li { margin-bottom: 0.5em; }
.line { font-family: 'DejaVu Sans Mono', monospace; font-size: 0.9em; }
@media print { body { margin: 0.5cm; } .puzzles { gap: 0.4cm; } .puzzle { width: 48%; } }
"""


def _inline(svg: str) -> str:
    """An SVG picture for inline use in HTML5, which puts ``<svg>`` in its namespace itself
    (so the page carries no address at all, not even the namespace's)."""
    return svg.replace(' xmlns="http://www.w3.org/2000/svg"', "", 1)


def line_text(pos: Position, line: Sequence[Play]) -> str:
    """A line as text, each play with its seat letter, tricks separated by ``|``."""
    parts: list[str] = []
    p = pos
    for k, play in enumerate(line):
        if k and not p.trick:
            parts.append("|")
        seat = p.to_play
        parts.append(f"{seat_letter(seat) if seat is not None else '?'}:{play}")
        p = p.play(play)
    if p.paradox is not None:
        parts.append(f"→ paradox by {seat_letter(p.paradox)}")
    return " ".join(parts)


def answer_text(pz: Puzzle, sol: Solution) -> str:
    """The answer in words: yes / no (and the score), with the key."""
    if sol.solvable is None:
        return "not settled by the solver"
    if pz.goal.kind == "max-score":
        head = f"{sol.value}" if sol.value is not None else "no score can be guaranteed"
    else:
        head = "yes" if sol.solvable else "no"
    if sol.keys:
        head += f" — key {' '.join(map(str, sorted(sol.keys)))}"
        if len(sol.keys) > 1:
            head += " (cooked: more than one key)"
    return head


def sheet(
    puzzles: Sequence[Puzzle],
    *,
    title: str = "Cat in the Box puzzles",
    limits: Limits | None = None,
    session: Session | None = None,
) -> str:
    """The HTML page for ``puzzles`` (in order): diagrams with stories and goals, then every
    answer proven by the solver (within ``limits``, for the whole page)."""
    from .svg import board

    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        '<p class="intro">Find the one play that works — or show that none does. '
        "Red is trump; the answers are at the end.</p>",
        '<div class="puzzles">',
    ]
    for i, pz in enumerate(puzzles, 1):
        level = "★" * pz.difficulty
        svg = board(pz.position)
        out += [
            f'<section class="puzzle" id="p{i}">',
            f'<h2>{i}. {escape(pz.title)} <span class="level">{level}</span></h2>',
            _inline(svg),
            f'<p class="story">{escape(pz.description)}</p>',
            f'<p class="goal">Goal: {escape(pz.goal.describe())}</p>',
            "</section>",
        ]
    out += ["</div>", '<section class="answers"><h2>Answers</h2><ol>']
    lim = Limits.of(limits).start()
    for pz in puzzles:
        sol = solve(pz, limits=lim, session=session)
        line = sol.checked_line or sol.line
        out.append(f"<li><b>{escape(pz.title)}</b>: {escape(answer_text(pz, sol))}")
        if line and pz.position.all_hands_known:
            label = "line" if pz.goal.mode == "possible" else "line with best defence"
            text = line_text(pz.position, line)
            out.append(f'<br><span class="line">{label}: {escape(text)}</span>')
        out.append("</li>")
    out += ["</ol></section>", "</body></html>"]
    return "\n".join(out) + "\n"
