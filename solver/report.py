"""The HTML review: one self-contained page for a reviewed round (``catbox review --html``).

The page opens with no network: its CSS, JavaScript and pictures are inline and its data is
embedded as JSON (:func:`review_document`: the review document of :mod:`.shapes`, plus the
board's state after every play, :func:`.svg.board_state`). The board is drawn once by
:func:`.svg.board` and redrawn by ``assets/board.js`` from those states, so the page stays small
(about 100 KB for a 4-player round). It steps through the round (arrow keys, Home/End, a click
on a play; ``#ply=N`` opens the position after N plays), shows each play's mark with the
thresholds stated on the page, jumps to the next mistake, lists the turning points and the
per-seat summary, and plots the round: the reachable final trick counts of every seat (a full
review) or the reviewed seat's estimated chance of avoiding a paradox (a player's-view review).

>>> from .deal import deal_round
>>> from .record import Record
>>> rec = Record.from_deal(deal_round(3, seed=2))
>>> page = review_page(rec, {"plays": [], "turning_points": [], "summary": {}}, view="full")
>>> page.startswith("<!DOCTYPE html>"), "http" in page
(True, False)
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any, Literal

from .cards import seat_letter
from .estimates.review import PLAYER_GRADES
from .game import Game
from .position import Position
from .record import Record
from .review import GRADES
from .svg import board, board_state

__all__ = [
    "external_references",
    "game_review_document",
    "game_review_page",
    "plot_svg",
    "review_document",
    "review_page",
]

PAGE_FORMAT = "catbox-review-page/1"
PLOT_W, PLOT_STRIP, PLOT_LEFT = 560, 64, 34


def _asset(name: str) -> str:
    return (resources.files(__package__) / "assets" / name).read_text(encoding="utf-8")


def review_document(
    record: Record,
    review: dict[str, Any],
    *,
    view: Literal["full", "player"],
    seat: int | None = None,
    title: str = "",
) -> dict[str, Any]:
    """The data of the page: the review document (``shapes.review_json`` or
    ``shapes.player_review_json``) and, per ply, the mover, the play and the board's state.

    Raises:
        PositionError: the record's deal is inconsistent.
        IllegalPlayError: the record has an illegal move.
    """
    positions = list(record.positions())
    moves = []
    for k, move in enumerate(record.moves):
        before = positions[k]
        mover = before.to_play
        moves.append(
            {
                "ply": k + 1,
                "seat": seat_letter(mover) if mover is not None else None,
                "play": str(move),
                "trick": before.completed_tricks + 1,
            }
        )
    end = positions[-1]
    return {
        "format": PAGE_FORMAT,
        "title": title,
        "players": record.players,
        "names": list(positions[0].seat_names),
        "predictions": list(record.predictions),
        "view": view,
        "seat": seat_letter(seat) if seat is not None else None,
        "moves": moves,
        "states": [board_state(p) for p in positions],
        "review": review,
        "grades": GRADES if view == "full" else PLAYER_GRADES,
        "result": "paradox" if end.paradox is not None else "end" if end.finished else "open",
    }


def _line(x1: float, y1: float, x2: float, y2: float, cls: str) -> str:
    return f'<line class="{cls}" x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}"/>'


def plot_svg(doc: dict[str, Any]) -> str:
    """A small plot over the round. Full review: one strip per seat, the final trick counts still
    reachable after each of its plays (dots; a ring on its prediction). Player's view: the
    reviewed seat's estimated chance of avoiding a paradox after each of its plays (the 95%
    interval as a bar; a hollow circle for the best play's chance). A cursor marks the ply."""
    n = len(doc["moves"])
    step = (PLOT_W - PLOT_LEFT - 10) / max(n, 1)

    def x(ply: int) -> float:
        return round(PLOT_LEFT + ply * step, 1)

    out: list[str] = []
    plays = doc["review"].get("plays", [])
    if doc["view"] == "full":
        seats = [s for s in range(doc["players"]) if doc["seat"] in (None, seat_letter(s))]
        tricks = max(
            [3]
            + [max(p["possible_before"] or [0]) for p in plays]
            + [p for p in doc["predictions"] if p is not None]
        )
        height = len(seats) * PLOT_STRIP + 22
        for row, s in enumerate(seats):
            top = 6 + row * PLOT_STRIP
            scale = (PLOT_STRIP - 14) / tricks

            def y(count: int, top: int = top, scale: float = scale) -> float:
                return round(top + PLOT_STRIP - 10 - count * scale, 1)

            letter = seat_letter(s)
            out.append(f'<text class="lab" x="4" y="{y(tricks / 2) + 4:g}">{letter}</text>')
            out.append(_line(PLOT_LEFT, y(0), PLOT_W - 6, y(0), "axis"))
            out.append(f'<text class="tick" x="{PLOT_LEFT - 4}" y="{y(0) + 3:g}">0</text>')
            out.append(
                f'<text class="tick" x="{PLOT_LEFT - 4}" y="{y(tricks) + 3:g}">{tricks}</text>'
            )
            pred = doc["predictions"][s]
            if pred is not None:
                out.append(_line(PLOT_LEFT, y(pred), PLOT_W - 6, y(pred), "pred"))
            for p in plays:
                if p["seat"] != letter or p["possible_after"] is None:
                    continue
                px = x(p["move"])
                for c in p["possible_after"]:
                    cls = "dot hit" if c == pred else "dot"
                    out.append(f'<circle class="{cls}" cx="{px:g}" cy="{y(c):g}" r="2.6"/>')
                if not p["possible_after"]:
                    out.append(f'<text class="x" x="{px:g}" y="{y(0) - 2:g}">✗</text>')
        caption = "final trick counts still reachable after each play (ring: the prediction)"
    else:
        height = 150
        top, bottom = 10, height - 24

        def yp(v: float) -> float:
            return round(bottom - v * (bottom - top), 1)

        for v in (0, 0.5, 1):
            out.append(_line(PLOT_LEFT, yp(v), PLOT_W - 6, yp(v), "axis" if v == 0 else "grid"))
            out.append(
                f'<text class="tick" x="{PLOT_LEFT - 4}" y="{yp(v) + 3:g}">{int(v * 100)}%</text>'
            )
        for p in plays:
            px = x(p["move"])
            made, best = p["made"]["avoid_paradox"], p["best"]["avoid_paradox"]
            lo, hi = made["ci95"]
            if lo is not None and hi is not None:
                out.append(_line(px, yp(lo), px, yp(hi), "ci"))
            out.append(f'<circle class="best" cx="{px:g}" cy="{yp(best["value"]):g}" r="4"/>')
            grade = " marked" if p.get("grade") else ""
            out.append(f'<circle class="dot{grade}" cx="{px:g}" cy="{yp(made["value"]):g}" r="3"/>')
        caption = (
            f"{doc['seat']}'s estimated chance of avoiding a paradox after each of its plays "
            "(bar: 95% interval; ring: the best play)"
        )
    out.append(
        f'<line class="cursor" x1="{x(0):g}" y1="0" x2="{x(0):g}" y2="{height - 16}"/>'
        f'<text class="cap" x="{PLOT_LEFT}" y="{height - 4}">{caption}</text>'
    )
    return (
        f'<svg class="plot" viewBox="0 0 {PLOT_W} {height}" width="{PLOT_W}" height="{height}" '
        f'data-x0="{PLOT_LEFT}" data-step="{step:.4f}" role="img" aria-label="{caption}">'
        + "".join(out)
        + "</svg>"
    )


_FETCHABLE = re.compile(
    r"\b(?:src|href|action|srcset|poster|data)\s*=|url\(|@import|\b[a-z][a-z0-9+.-]*://"
    r"|//[a-z0-9-]+\.[a-z]",
    re.IGNORECASE,
)


def external_references(page: str) -> list[str]:
    """Anything in ``page`` a browser could fetch: ``src``/``href``-like attributes, CSS
    ``url()`` and ``@import``, and any absolute address at all (the review page needs none, not
    even the SVG namespace). The review page's promise is that this list is empty."""
    return _FETCHABLE.findall(page)


def _json_for_script(obj: Any) -> str:
    """JSON that can sit inside a <script> element (no ``</``, no ``<!--``)."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def review_page(
    record: Record,
    review: dict[str, Any],
    *,
    view: Literal["full", "player"],
    seat: int | None = None,
    title: str = "",
) -> str:
    """The self-contained HTML page of a reviewed round (see the module's docstring).

    Raises:
        PositionError: the record's deal is inconsistent.
        IllegalPlayError: the record has an illegal move.
    """
    doc = review_document(record, review, view=view, seat=seat, title=title)
    heading = title or f"Review of a {record.players}-player round"
    return _page(record.start(), heading, plot_svg(doc), doc, "")


def game_review_document(
    game: Game, review: dict[str, Any], *, seat: int | None = None, title: str = ""
) -> dict[str, Any]:
    """The data of a game's page: every round's :func:`review_document` (with its plot) and
    the game's summary (``shapes.game_review_json``'s ``game``).

    Raises:
        PositionError, IllegalPlayError: a round that does not replay.
    """
    rounds = []
    for rec, doc in zip(game.rounds, review["rounds"], strict=True):
        view: Literal["full", "player"] = "player" if doc.get("view") == "player" else "full"
        one = review_document(rec, doc, view=view, seat=seat, title=title)
        one["round_start"] = seat_letter(rec.round_start)
        one["plot"] = plot_svg(one)
        rounds.append(one)
    return {"format": PAGE_FORMAT, "title": title, "game": review["game"], "rounds": rounds}


def game_review_page(
    game: Game, review: dict[str, Any], *, seat: int | None = None, title: str = ""
) -> str:
    """One self-contained page for a reviewed game: a round selector over every round's review
    (``#round=R&ply=N`` opens round R after N plays) and the game's summary.

    Raises:
        PositionError: the game has no rounds.
        IllegalPlayError: a round that does not replay.
    """
    from .errors import PositionError

    if not game.rounds:
        raise PositionError("a game needs at least one round to review", rule="Sc4")
    doc = game_review_document(game, review, seat=seat, title=title)
    heading = title or f"Review of a {game.players}-player game"
    selector = (
        '<nav id="rounds" aria-label="rounds">'
        + "".join(
            f'<button type="button" data-round="{r}">Round {r}</button>'
            for r in range(1, len(game.rounds) + 1)
        )
        + '</nav><section id="game" aria-label="the game"><h2>The game</h2>'
        '<table id="totals"></table><h3>Costliest plays</h3><ol id="costliest"></ol></section>'
    )
    return _page(game.rounds[0].start(), heading, "", doc, selector)


def _page(start: Position, heading: str, plot: str, doc: dict[str, Any], rounds: str) -> str:
    from html import escape

    picture = board(start).replace(' xmlns="http://www.w3.org/2000/svg"', "", 1)
    parts = {
        "title": escape(heading),
        "style": _asset("review.css"),
        "rounds": rounds,
        "board": picture,
        "plot": plot,
        "data": _json_for_script(doc),
        "board_js": _asset("board.js"),
        "review_parts_js": _asset("review_parts.js"),
        "review_js": _asset("review.js"),
    }
    page = _asset("review.html")
    for key, value in parts.items():
        page = page.replace("{{" + key + "}}", value)
    return page
