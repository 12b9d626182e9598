"""The HTML review page (solver/report.py) without a browser: self-contained (no address to
fetch), its embedded data is the review document and the record's positions, and
``catbox review --html`` writes it for full records and for records showing one seat's cards.
The page in a real browser: tests/test_review_page.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from catbox.solver import formats
from catbox.solver.limits import Limits
from catbox.solver.record import Record
from catbox.solver.report import external_references, plot_svg, review_document, review_page
from catbox.solver.review import GRADES, review
from catbox.solver.shapes import review_json
from catbox.solver.svg import board_state

from .clirun import run
from .fixtures import own_cards_record
from .pages import embedded

ROOT = Path(__file__).resolve().parents[1]


def bundled_record(name: str) -> Record:
    rec = formats.load(ROOT / "puzzles" / "records" / f"{name}.toml")
    assert isinstance(rec, Record)
    return rec


@pytest.fixture(scope="module")
def paradox3() -> tuple[Record, dict[str, Any]]:
    rec = bundled_record("three-player-paradox")
    return rec, review_json(review(rec, depth=3, limits=Limits(60, workers=1), from_move=9))


def test_the_page_needs_no_network(paradox3: tuple[Record, dict[str, Any]]) -> None:
    rec, doc = paradox3
    page = review_page(rec, doc, view="full", title="a <test> & title")
    assert external_references(page) == [] and "http" not in page
    assert external_references('<img src="x.png">') and external_references("url(//cdn.x/y)")
    assert page.count('<svg class="catbox-board"') == 1  # drawn once, redrawn by board.js
    assert page.count('<svg class="plot"') == 1
    assert "a &lt;test&gt; &amp; title" in page
    assert "{{" not in page  # every part of the template filled


def test_embedded_data_is_the_review_and_every_position(
    paradox3: tuple[Record, dict[str, Any]],
) -> None:
    rec, doc = paradox3
    data = embedded(review_page(rec, doc, view="full"))
    assert data["review"] == json.loads(json.dumps(doc))
    positions = list(rec.positions())
    assert data["states"] == [board_state(p) for p in positions]
    assert [m["play"] for m in data["moves"]] == [str(p) for p in rec.moves]
    assert [m["seat"] for m in data["moves"]] == ["ABC"[p.to_play or 0] for p in positions[:-1]]
    assert data["grades"] == GRADES and data["result"] == "paradox"


def test_grades_follow_the_marks(paradox3: tuple[Record, dict[str, Any]]) -> None:
    _, doc = paradox3
    for p in doc["plays"]:
        assert p["grade"] in ("", "!", "?!", "?", "??")
        assert bool(p["marks"]) == (p["grade"] not in ("", "!"))
        if any("paradox certain" in m or "paradox avoidance" in m for m in p["marks"]):
            assert p["grade"] == "??"
    assert any(p["grade"] for p in doc["plays"])  # the round ends in a paradox: someone erred


def test_the_plot_draws_each_reachable_count(paradox3: tuple[Record, dict[str, Any]]) -> None:
    rec, doc = paradox3
    data = review_document(rec, doc, view="full")
    plot = plot_svg(data)
    dots = sum(len(p["possible_after"] or []) for p in doc["plays"])
    assert plot.count('class="dot') == dots
    assert plot.count('class="cursor"') == 1


def test_a_four_player_page_stays_small() -> None:
    """A full 4-player record with every play judged (the review document's size does not
    depend on the verdicts much: one entry per play) weighs far under 300 KB."""
    rec = bundled_record("four-player-round")
    fake = {
        "depth": 4,
        "plays": [
            {
                "move": k + 1,
                "seat": "ABCD"[k % 4],
                "play": str(m),
                "analysed": True,
                "status": "proven",
                "possible_before": [0, 1, 2, 3, 4, 5, 6, 7, 8],
                "possible_after": [0, 1, 2, 3, 4, 5, 6, 7],
                "round_possible_after": True,
                "before": None,
                "after": None,
                "marks": ["lost trick count 8"],
                "grade": "?!",
                "better": "1R",
            }
            for k, m in enumerate(rec.moves)
        ],
        "turning_points": [],
        "summary": {},
    }
    page = review_page(rec, fake, view="full")
    assert len(page.encode()) < 300_000
    assert external_references(page) == []


def test_cli_writes_the_page_and_refuses_to_overwrite(tmp_path: Path) -> None:
    src = ROOT / "puzzles/records/two-player-round.toml"
    out = tmp_path / "review.html"
    code, _, err = run("review", src, "--html", out, "--time-limit", "3", "--workers", "1")
    assert code == 0, err
    data = embedded(out.read_text(encoding="utf-8"))
    assert len(data["states"]) == len(bundled_record("two-player-round").moves) + 1
    assert data["view"] == "full" and len(data["review"]["plays"]) == len(data["moves"])
    code, _, err = run("review", src, "--html", out)  # checked before the long review
    assert code != 0 and "exists" in err
    code, _, err = run("review", src, "--html", src, "--force")
    assert code != 0 and "input" in err


def test_cli_page_of_a_record_showing_only_the_reviewers_cards(tmp_path: Path) -> None:
    rec, mine = own_cards_record(5)
    path = tmp_path / "mine.toml"
    formats.save(rec, path)
    out = tmp_path / "mine.html"
    code, _, err = run("review", path, "--seat", "A", "--html", out, "--time-limit", "4")
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    data = embedded(page)
    assert data["view"] == "player" and data["seat"] == "A"
    assert [p["move"] for p in data["review"]["plays"]] == mine
    assert all(s["seats"][1]["hand"] is None for s in data["states"])  # B's hand stays hidden
    assert external_references(page) == []
    assert "avoiding a paradox" in page  # the plot of the player's view
