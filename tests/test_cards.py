"""Cards, colours, plays and the per-count table (solver/cards.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catbox.solver import Colour, FormatError, Play, variant
from catbox.solver.cards import colours_from_str, colours_to_str, seat_from_letter


@given(st.integers(1, 9), st.sampled_from(list(Colour)), st.booleans())
def test_play_round_trip(number: int, colour: Colour, lower: bool) -> None:
    p = Play(number, colour)
    text = str(p).lower() if lower else str(p)
    assert Play.parse(text) == p and str(Play.parse(text)) == f"{number}{colour.name}"


@given(st.text(max_size=6))
def test_play_parse_raises_only_format_errors(text: str) -> None:
    try:
        p = Play.parse(text)
    except FormatError:
        return
    assert str(p) == text.strip().upper().replace(" ", "")


@pytest.mark.parametrize("bad", ["", "R", "7", "7RB", "7X", "R7", "7 RR"])
def test_bad_plays(bad: str) -> None:
    with pytest.raises(FormatError):
        Play.parse(bad)


@given(st.integers(0, 15))
def test_colour_masks_round_trip(mask: int) -> None:
    assert colours_from_str(colours_to_str(mask)) == mask


def test_colour_strings() -> None:
    assert colours_to_str(0b1011) == "RBG"
    assert colours_from_str("gbr") == 0b1011
    for bad in ("RR", "X", "RBX"):
        with pytest.raises(FormatError):
            colours_from_str(bad)


def test_plays_sort_by_number_then_R_B_Y_G() -> None:
    plays = [Play.parse(s) for s in ["5G", "2Y", "5R", "5B", "2R"]]
    assert [str(p) for p in sorted(plays)] == ["2R", "2Y", "5R", "5B", "5G"]


def test_per_count_table() -> None:
    rows = {p: variant(p) for p in (2, 3, 4, 5)}
    assert [rows[p].max_number for p in rows] == [5, 6, 8, 9]
    assert [rows[p].hand_start for p in rows] == [9, 9, 9, 8]
    assert [rows[p].tricks for p in rows] == [8, 8, 8, 7]
    assert [rows[p].rounds for p in rows] == [2, 3, 4, 5]
    for p, v in rows.items():  # usable cells = plays of a full round + cells left empty
        usable = 4 * v.max_number - (3 if p == 2 else 0)
        assert usable == p * v.tricks + v.empty_after
        assert p * v.dealt + v.undealt == v.deck_size
    with pytest.raises(FormatError):
        variant(6)


def test_seat_letters() -> None:
    assert seat_from_letter("c", 3) == 2
    with pytest.raises(FormatError):
        seat_from_letter("D", 3)
