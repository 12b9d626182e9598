"""What a page holds and shows, for the page tests: the data a self-contained page embeds, and
its board read back (tests/pictures.py) next to the picture solver/svg.py draws for the same
position."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from catbox.solver.cards import Play
from catbox.solver.record import Record
from catbox.solver.svg import board

from .pictures import SHOWN_JS, shown_in_svg

if TYPE_CHECKING:
    from playwright.sync_api import Page


def embedded(page: str) -> dict[str, Any]:
    """The JSON document a page embeds (``<script id="catbox-data">``)."""
    m = re.search(r'<script type="application/json" id="catbox-data">(.*?)</script>', page, re.S)
    assert m is not None
    doc = json.loads(m.group(1))
    assert isinstance(doc, dict)
    return doc


def expected(rec: Record, doc: dict[str, Any], ply: int) -> dict[str, Any]:
    """What the board must show after ``ply`` plays: solver/svg.py's picture of the record's
    position there, with the last play framed and the better play, if any, as a candidate."""
    last = rec.moves[ply - 1] if ply else None
    verdict = next((p for p in doc["plays"] if p["move"] == ply), None)
    better = [Play.parse(verdict["better"])] if verdict and verdict["better"] else []
    return shown_in_svg(board(rec.position(ply), last=last, candidates=better))


def shown(page: Page) -> dict[str, Any]:
    """The board a live page shows, read as :func:`shown_in_svg` reads a picture."""
    result = page.evaluate(SHOWN_JS)
    assert isinstance(result, dict)
    return result


def ply_of(page: Page) -> int:
    """The number of plays of the position a page shows (its ``body[data-ply]``)."""
    return int(page.get_attribute("body", "data-ply") or "-1")
