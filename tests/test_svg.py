"""SVG pictures (solver/svg.py): golden files, and every cell's data attributes against the
position it draws. Regenerate the golden files after a deliberate change of the picture with
``CATBOX_UPDATE_GOLDEN=1 pytest tests/test_svg.py``."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from catbox.solver import formats
from catbox.solver.board import EMPTY, NEUTRAL, cell_index
from catbox.solver.cards import Colour, Play, seat_letter
from catbox.solver.position import Position
from catbox.solver.puzzle import Puzzle
from catbox.solver.record import Record
from catbox.solver.svg import Svg, board, board_state, puzzle, record

from .clirun import run

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).resolve().parent / "golden"
NS = {"s": "http://www.w3.org/2000/svg"}


def bundled(path: str) -> formats.Document:
    return formats.load(ROOT / "puzzles" / path)


def _position(path: str) -> Position:
    obj = bundled(path)
    assert isinstance(obj, Position)
    return obj


def _record(path: str) -> Record:
    obj = bundled(path)
    assert isinstance(obj, Record)
    return obj


def _puzzle(path: str) -> Puzzle:
    obj = bundled(path)
    assert isinstance(obj, Puzzle)
    return obj


def cells(svg: str) -> dict[str, str | None]:
    """data-cell -> data-owner (None: empty) of every cell in the picture."""
    tree = ET.fromstring(svg)
    out: dict[str, str | None] = {}
    for g in tree.iter("{http://www.w3.org/2000/svg}g"):
        if "data-cell" in g.attrib:
            assert "cell" in g.attrib["class"].split()
            out[g.attrib["data-cell"]] = g.attrib.get("data-owner")
    return out


def expected_cells(pos: Position) -> dict[str, str | None]:
    n = pos.max_number
    out: dict[str, str | None] = {}
    for colour in Colour:
        for number in range(1, n + 1):
            o = pos.board[cell_index(colour, number, n)]
            owner = None if o == EMPTY else "N" if o == NEUTRAL else seat_letter(o)
            out[f"{number}{colour.name}"] = owner
    return out


def golden_cases() -> dict[str, Svg]:
    rec = _record("records/four-player-round.toml")
    mid = _position("positions/three-player-midtrick.toml")
    return {
        "three-player-midtrick": board(mid),
        "four-player-hidden-hands": board(_position("positions/four-player-hidden-hands.toml")),
        "two-player-start": board(_position("positions/two-player-start.toml")),
        "four-player-round-at-14": record(rec, 14),
        "highlights": board(
            mid,
            last=Play(5, Colour.B),
            candidates=[Play(6, Colour.B), Play(2, Colour.G)],
            line=[Play(6, Colour.B), Play(6, Colour.Y)],
            marks={"6B": "3", Play(2, Colour.G): "?!"},
            size=400,
        ),
        "puzzle-the-red-herring": puzzle(_puzzle("the-red-herring.toml")),
    }


@pytest.mark.parametrize("name", sorted(golden_cases()))
def test_svg_matches_its_golden_file(name: str) -> None:
    svg = golden_cases()[name]
    path = GOLDEN / f"{name}.svg"
    if os.environ.get("CATBOX_UPDATE_GOLDEN"):
        path.write_text(svg + "\n", encoding="utf-8")
    assert svg + "\n" == path.read_text(encoding="utf-8")
    ET.fromstring(svg)  # well-formed XML


@pytest.mark.parametrize(
    "path",
    [
        "positions/three-player-midtrick.toml",
        "positions/four-player-hidden-hands.toml",
        "positions/two-player-start.toml",
        "positions/five-player-endgame.toml",
        "positions/three-player-paradox.toml",
    ],
)
def test_every_cell_carries_its_name_and_owner(path: str) -> None:
    pos = _position(path)
    assert cells(board(pos)) == expected_cells(pos)


def test_cells_follow_a_record_play_by_play() -> None:
    rec = _record("records/three-player-paradox.toml")
    for k, pos in enumerate(rec.positions()):
        got = cells(record(rec, k))
        assert got == expected_cells(pos)
        if k:
            assert f'class="cell {rec.moves[k - 1].colour.name}' in record(rec, k)


def test_neutral_tokens_are_drawn_as_N_on_their_cells() -> None:
    pos = _position("positions/two-player-start.toml")
    neutral = {c for c, o in cells(board(pos)).items() if o == "N"}
    assert neutral and all(not c.endswith("R") for c in neutral)  # never on red (2P2)
    assert len(neutral) == sum(1 for o in pos.board if o == NEUTRAL)


def seat_groups(svg: str) -> dict[str, ET.Element]:
    tree = ET.fromstring(svg)
    return {
        g.attrib["data-seat"]: g
        for g in tree.iter("{http://www.w3.org/2000/svg}g")
        if "data-seat" in g.attrib
    }


def classes_of(group: ET.Element, kind: str) -> list[list[str]]:
    return [
        g.attrib["class"].split()
        for g in group.iter("{http://www.w3.org/2000/svg}g")
        if g.attrib.get("class", "").split()[:1] == [kind]
    ]


def test_hands_permissions_and_tricks_of_every_seat() -> None:
    pos = _position("positions/three-player-midtrick.toml")
    seats = seat_groups(board(pos))
    assert sorted(seats) == ["A", "B", "C"]
    a = seats["A"]
    texts = ["".join(t.itertext()) for t in a.iter("{http://www.w3.org/2000/svg}text")]
    shown = [
        "".join(g.itertext())
        for g in a.iter("{http://www.w3.org/2000/svg}g")
        if g.attrib["class"] == "card"
    ]
    assert shown == ["2", "2", "5", "6"]  # A's hand
    assert "tricks 2 · predicted 4 · aside 2" in texts
    perms = {c[1]: c[2] for c in classes_of(a, "perm")}
    assert perms == {"R": "held", "B": "held", "Y": "lost", "G": "held"}  # colors = "RBG"
    assert "▶" in "".join(seats["B"].itertext())  # B is to play after A's lead


def test_a_seats_view_hides_the_other_hands_as_face_down_cards() -> None:
    pos = _position("positions/three-player-midtrick.toml")
    seats = seat_groups(board(pos, view=1))
    for letter, seat in seats.items():
        kinds = [c for c in classes_of(seat, "card") if "none" not in c]
        size = pos.seats["ABC".index(letter)].hand_size
        assert len(kinds) == size
        assert all(("hidden" in c) == (letter != "B") for c in kinds)


def test_highlights_frame_cells_and_write_marks() -> None:
    pos = _position("positions/three-player-midtrick.toml")
    svg = board(
        pos,
        last=Play(5, Colour.B),
        candidates=[Play(6, Colour.B)],
        line=[Play(6, Colour.B), Play(6, Colour.Y), Play(6, Colour.B)],
        marks={"1Y": "+2"},
    )
    tree = ET.fromstring(svg)
    by_cell = {
        g.attrib["data-cell"]: g
        for g in tree.iter("{http://www.w3.org/2000/svg}g")
        if "data-cell" in g.attrib
    }
    assert "last" in by_cell["5B"].attrib["class"].split()
    assert "trick" in by_cell["5B"].attrib["class"].split()  # the trick in progress
    assert "cand" in by_cell["6B"].attrib["class"].split()
    step = {t.attrib.get("class"): "".join(t.itertext()) for t in by_cell["6B"].iter()}
    assert step["step"] == "1,3" and step["mark"] == ""
    mark = {t.attrib.get("class"): "".join(t.itertext()) for t in by_cell["1Y"].iter()}
    assert mark["mark"] == "+2"


def test_output_is_deterministic_scaled_and_escaped() -> None:
    pos = _position("positions/three-player-midtrick.toml")
    assert board(pos) == board(pos)
    small = ET.fromstring(board(pos, size=250))
    assert small.attrib["width"] == "250"
    tricky = board(pos, title='<b>"x" & y</b>', colors={"red": "#ff0000"})
    assert ET.fromstring(tricky).find("s:title", NS) is not None
    assert "#ff0000" in tricky and "<b>" not in tricky


def test_state_is_json_shaped_and_matches_the_picture() -> None:
    pos = _position("positions/four-player-hidden-hands.toml")
    state = board_state(pos)
    assert len(state["cells"]) == 4 * pos.max_number
    assert [s["hand"] is None for s in state["seats"]] == [s.hand is None for s in pos.seats]
    assert {
        c: (o if o != "." else None)
        for c, o in zip(expected_cells(pos), state["cells"], strict=True)
    } == cells(board(pos))


def test_notebooks_show_positions_puzzles_and_records() -> None:
    pos = _position("positions/three-player-midtrick.toml")
    pz = _puzzle("the-red-herring.toml")
    rec = _record("records/four-player-round.toml")
    assert pos._repr_svg_() == board(pos)
    assert pz.title in pz._repr_svg_()
    assert cells(rec._repr_svg_()) == expected_cells(rec.position())
    assert Svg("<svg/>")._repr_html_() == "<svg/>"


def test_cli_show_and_puzzles_show_write_svg(tmp_path: Path) -> None:
    src = ROOT / "puzzles/positions/three-player-midtrick.toml"
    out = tmp_path / "mid.svg"
    code, _, err = run("show", src, "--svg", out)
    assert code == 0, err
    assert cells(out.read_text()) == expected_cells(
        _position("positions/three-player-midtrick.toml")
    )
    code, _, err = run("show", src, "--svg", out)  # never over an existing file
    assert code != 0 and "exists" in err
    assert run("show", src, "--svg", out, "--force")[0] == 0
    code, _, err = run("show", src, "--svg", src, "--force")  # never over the input
    assert code != 0 and "input" in err
    code, text, _ = run("puzzles", "show", "the-red-herring", "--svg", "-")
    assert code == 0 and text.startswith("<svg") and "The Red Herring" in text
    rec = ROOT / "puzzles/records/four-player-round.toml"
    code, text, _ = run("show", rec, "--at", "5", "--svg", "-")
    assert code == 0
    assert cells(text) == expected_cells(_record("records/four-player-round.toml").position(5))


def test_the_readme_picture_is_what_catbox_draws() -> None:
    """docs/img/the-red-herring.svg is `catbox puzzles show the-red-herring --svg FILE`."""
    drawn = (ROOT / "docs" / "img" / "the-red-herring.svg").read_text(encoding="utf-8")
    assert drawn == puzzle(_puzzle("the-red-herring.toml"))
    assert "docs/img/the-red-herring.svg" in (ROOT / "README.md").read_text(encoding="utf-8")
