"""Reading an SVG board back (solver/svg.py's skeleton): what a page or a picture shows, in one
comparable shape, from Python's picture (:func:`shown_in_svg`) or from a live page
(:data:`SHOWN_JS`, for ``page.evaluate``). Shared by the picture and the browser tests."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

SVG = "{http://www.w3.org/2000/svg}"

#: The same reading as :func:`shown_in_svg`, in the browser, of the page's first board.
SHOWN_JS = """() => {
  const svg = document.querySelector('svg.catbox-board');
  const q = (sel) => Array.from(svg.querySelectorAll(sel));
  const txt = (g, sel) => g.querySelector(sel).textContent;
  return {
    cells: q('g.cell').map(g => [g.getAttribute('data-cell'), g.getAttribute('data-owner'),
      g.getAttribute('class').split(' ').sort().join(' '), txt(g, '.tok text'),
      txt(g, 'text.step'), txt(g, 'text.mark')]),
    cards: q('g.card').map(g => [g.getAttribute('class'), txt(g, 'text')]),
    perms: q('g.perm').map(g => g.getAttribute('class')),
    plays: q('g.play').map(g => [g.getAttribute('class'), txt(g, 'text.by'), txt(g, 'text.num')]),
    seats: q('g.seat').map(g => [txt(g, 'text.turn'), txt(g, 'text.info')]),
    status: svg.querySelector('text.status').textContent,
  };
}"""


def _text(g: ET.Element, cls: str | None = None) -> str:
    for e in g.iter(f"{SVG}text"):
        if cls is None or e.attrib.get("class") == cls:
            return "".join(e.itertext())
    raise AssertionError(f"no text {cls!r}")


def _groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.attrib.get("class", "").split()[:1] == [cls]]


def shown_in_svg(svg: str) -> dict[str, Any]:
    """Every changing part of a board picture: cells (name, owner, classes, token, step, mark),
    hand cards, permissions, trick slots, seat marks and texts, the status line."""
    root = ET.fromstring(svg)
    cells = []
    for g in _groups(root, "cell"):
        tok = next(e for e in g.iter(f"{SVG}g") if e.attrib.get("class") == "tok")
        cells.append(
            [
                g.attrib["data-cell"],
                g.attrib.get("data-owner"),
                " ".join(sorted(g.attrib["class"].split())),
                _text(tok),
                _text(g, "step"),
                _text(g, "mark"),
            ]
        )
    status = next(e for e in root.iter(f"{SVG}text") if e.attrib.get("class") == "status")
    return {
        "cells": cells,
        "cards": [[g.attrib["class"], _text(g)] for g in _groups(root, "card")],
        "perms": [g.attrib["class"] for g in _groups(root, "perm")],
        "plays": [
            [g.attrib["class"], _text(g, "by"), _text(g, "num")] for g in _groups(root, "play")
        ],
        "seats": [[_text(g, "turn"), _text(g, "info")] for g in _groups(root, "seat")],
        "status": "".join(status.itertext()),
    }
