"""File formats (formats.md): round trips in TOML, JSON and the one-line string, the lenient
reading rules, and hand-written bad files that must fail on the exact key and rule."""

from __future__ import annotations

import inspect
import random
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catbox.solver import formats
from catbox.solver.cards import Play, variant
from catbox.solver.deal import deal_round, random_position
from catbox.solver.errors import (
    CatboxError,
    FileError,
    FormatError,
    IllegalPlayError,
    PositionError,
)
from catbox.solver.formats import (
    dumps,
    load,
    load_position,
    load_record,
    loads,
    position_from_line,
    position_to_line,
    save,
    to_json_obj,
)
from catbox.solver.formats.common import toml_dumps
from catbox.solver.position import Position
from catbox.solver.record import Record

from .documents import POS2, POS3, POS4, line_no
from .games import playout

SYNTAXES = ("toml", "json")


def full_round(players: int) -> Position:
    """A round played to the end without a paradox (all tricks played)."""
    for seed in range(200):
        pos = random_position(players, seed, 1)
        rng = random.Random(seed)
        while not pos.finished:
            pos = pos.play(rng.choice(pos.legal_plays()))
        if pos.paradox is None:
            return pos
    raise AssertionError("no paradox-free round found")


def file_round_trip(obj: Any, syntax: str) -> Any:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / f"x.{syntax}"
        save(obj, path)
        return load(path)


def assert_round_trips(pos: Position) -> None:
    for syntax in SYNTAXES:
        assert file_round_trip(pos, syntax) == pos
    assert position_from_line(position_to_line(pos)) == replace(pos, names=())


def error_of(text: str, syntax: str = "toml", name: str = "pos.toml") -> CatboxError:
    with pytest.raises(CatboxError) as e:
        loads(text, syntax, name=name)  # type: ignore[arg-type]
    return e.value


def error_of_doc(doc: dict[str, Any]) -> CatboxError:
    return error_of(toml_dumps(doc))


# ---------------------------------------------------------------------------- round trips


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 5),
    seed=st.integers(0, 10**6),
    data=st.data(),
)
def test_random_positions_round_trip(players: int, seed: int, data: st.DataObject) -> None:
    tricks = variant(players).tricks
    tricks_left = data.draw(st.integers(1, tricks), label="tricks_left")
    mid = data.draw(st.integers(0, players - 1), label="mid_trick")
    hide = data.draw(st.sets(st.integers(0, players - 1)), label="hide")
    pos = random_position(players, seed, tricks_left, mid_trick=mid, hide=hide)
    assert_round_trips(pos)
    named = replace(pos, names=tuple(f"Player {i} «ü»" for i in range(players)))
    for syntax in SYNTAXES:
        assert loads(dumps(named, syntax), syntax) == named  # type: ignore[arg-type]


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 10**6), rs=st.integers(0, 4))
def test_deal_starts_round_trip(players: int, seed: int, rs: int) -> None:
    pos = deal_round(players, seed, round_start=rs % players, predictions=seed % 2 == 0).position
    assert_round_trips(pos)


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 10**6), hide=st.sets(st.integers(0, 4)))
def test_finished_and_paradox_positions_round_trip(players: int, seed: int, hide: set[int]) -> None:
    pos = playout(players, seed).position()
    assert pos.finished
    assert_round_trips(pos)
    assert_round_trips(pos.hide([i for i in hide if i < players]))


def test_paradox_positions_exist_among_playouts() -> None:
    paradoxes = [
        pos for seed in range(40) if (pos := playout(3, seed).position()).paradox is not None
    ]
    assert paradoxes, "expected some random playouts to end in a paradox"
    for pos in paradoxes[:5]:
        assert_round_trips(pos)
        assert position_to_line(pos).endswith(f":X{'ABCDE'[pos.paradox or 0]}")


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 10**6), data=st.data())
def test_records_round_trip(players: int, seed: int, data: st.DataObject) -> None:
    rec = playout(players, seed, predictions=seed % 3 != 0)
    upto = data.draw(st.integers(0, len(rec.moves)), label="moves")
    rec = rec.with_moves(rec.moves[:upto])
    hidden = data.draw(st.sets(st.integers(0, players - 1)), label="hidden")
    aside_only = data.draw(st.sets(st.integers(0, players - 1)), label="aside unknown")
    deal = tuple(None if i in hidden else h for i, h in enumerate(rec.deal))
    aside = tuple(
        None if i in hidden or i in aside_only else a for i, a in enumerate(rec.set_aside)
    )
    if data.draw(st.booleans(), label="names"):
        rec = replace(rec, names=tuple(["Ann", "Ben", "Cy", "Dee", "Eve"][:players]))
    rec = replace(rec, deal=deal, set_aside=aside)
    for syntax in SYNTAXES:
        back = file_round_trip(rec, syntax)
        assert back == rec
        assert back.position() == rec.position()


def test_position_file_layout_matches_formats_md() -> None:
    pos = loads(POS4)
    assert isinstance(pos, Position)
    assert dumps(pos, "toml") == POS4
    assert to_json_obj(pos)["trick"] == {"leader": "C", "plays": ["1R"]}
    assert to_json_obj(pos)["seat"]["B"] == {
        "hand": [4, 4, 7],
        "colors": "RG",
        "tricks": 1,
        "prediction": 3,
        "set_aside": 8,
    }
    assert loads(dumps(pos, "json"), "json") == pos


# ---------------------------------------------------------------------------- lenient reading


def test_lower_case_and_optional_keys() -> None:
    pos = loads(POS4)
    text = POS4.replace('"C D C A . B B C"', '"cdca.bbc"').replace('["1R"]', '"1r"')
    text = text.replace('colors = "RG"', 'colors = "rg"').replace('leader = "C"', 'leader = "c"')
    assert loads(text) == pos
    # hand_size given explicitly (and equal) is fine
    assert loads(POS4.replace("hand = [5, 5]", "hand = [5, 5]\nhand_size = 2")) == pos


def test_hand_size_derived_for_unknown_hands() -> None:
    text = POS4.replace("hand = [4, 4, 7]\n", "").replace("set_aside = 8\n", "")
    pos = loads(text)
    assert isinstance(pos, Position)
    assert pos.seats[1].hand is None and pos.seats[1].hand_size == 3
    # C has played in the current trick: one card fewer
    text = POS4.replace("hand = [5, 5]\n", "")
    pos = loads(text)
    assert isinstance(pos, Position)
    assert pos.seats[2].hand_size == 2


def test_two_player_revealed_derived_from_neutral_tokens() -> None:
    full = loads(POS2)
    assert loads(POS2.replace("revealed = [4, 5, 5]\n", "")) == full
    # the formats.md example has revealed after [trick]; accept it there too
    moved = POS2.replace("revealed = [4, 5, 5]\n", "") + "revealed = [5, 4, 5]\n"
    assert loads(moved) == full


def test_neutral_tokens_must_follow_green_yellow_blue() -> None:
    # 5 keeps its yellow N but loses its green one
    text = POS2.replace("revealed = [4, 5, 5]\n", "").replace(
        'green  = "A A B N N"', 'green  = "A A B N ."'
    )
    err = error_of(text)
    assert err.rule == "2P2" and (err.where or "").startswith("pos.toml: board")


def test_trick_may_be_omitted_before_the_first_play_and_after_the_round() -> None:
    start = deal_round(4, 11, round_start=2).position
    doc = to_json_obj(start)
    del doc["trick"]
    assert loads(toml_dumps(doc)) == start
    over = full_round(4)
    doc = to_json_obj(over)
    del doc["trick"]
    back = loads(toml_dumps(doc))
    assert isinstance(back, Position) and back.finished
    assert replace(back, leader=over.leader) == over
    # but not while the round is running and cards have been played
    doc = to_json_obj(loads(POS3))
    del doc["trick"]
    err = error_of_doc(doc)
    assert err.rule == "W3" and (err.where or "").startswith("pos.toml: trick")


def test_board_may_be_omitted_before_any_play() -> None:
    start = deal_round(2, 3).position
    doc = to_json_obj(start)
    del doc["board"]
    assert loads(toml_dumps(doc)) == start


def test_json_null_means_absent() -> None:
    doc = to_json_obj(loads(POS4))
    doc["seat"]["A"]["colors"] = None
    doc["names"] = None
    import json

    assert loads(json.dumps(doc), "json") == loads(POS4)


def test_position_string_accepts_lower_case_and_rejects_garbage() -> None:
    pos = loads(POS4)
    assert isinstance(pos, Position)
    line = position_to_line(pos)
    assert line == line.upper().replace("CBX1", "cbx1")
    assert position_from_line(line.lower()) == pos
    assert load_position(line) == pos
    fields = line.split(":")
    for bad, field in [
        ("cbx2:" + line[5:], "tag"),
        ("cbx1:6A" + line[7:], "players"),
        (line.replace("/", "|", 1), "board"),
        (line.replace("RBYG", "RBYQ", 1), "seat.A"),
        (line + ":XZ", "paradox"),
        (line.rsplit(":", 1)[0] + ":C1R1", "trick"),
        (":".join(f if i != 3 else f.rsplit(",", 1)[0] for i, f in enumerate(fields)), "seats"),
        (line.rsplit(":", 1)[0], "fields"),
    ]:
        with pytest.raises(FormatError) as e:
            position_from_line(bad)
        assert e.value.where == f"position string: {field}", (bad, e.value)


def test_position_string_checks_the_position() -> None:
    line = position_to_line(loads(POS3))  # type: ignore[arg-type]
    bad = line.replace(".4.", ".2.", 1)  # prediction 2 at 3 players
    with pytest.raises(PositionError) as e:
        position_from_line(bad)
    assert e.value.rule == "S3" and e.value.where == "position string: seat.A.prediction"


# ---------------------------------------------------------------------------- bad files


def test_unknown_format_kind() -> None:
    err = error_of(POS4.replace("catbox-position/1", "catbox-match/1"))
    assert isinstance(err, FormatError) and err.rule == "format"
    assert err.where == "pos.toml: format (line 1)"
    assert "catbox-position/1" in err.message and "catbox-puzzle/1" in err.message


def test_newer_version() -> None:
    err = error_of(POS4.replace("catbox-position/1", "catbox-position/2"))
    assert err.rule == "format" and "newer version" in err.message
    err = error_of(to_json_text(POS4).replace("catbox-position/1", "catbox-record/2"), "json")
    assert err.rule == "format" and err.where == "pos.toml: format"


def to_json_text(toml_text: str) -> str:
    return dumps(loads(toml_text), "json")


def test_missing_format() -> None:
    err = error_of(POS4.replace('format = "catbox-position/1"\n', ""))
    assert err.rule == "format"


def test_players_6() -> None:
    err = error_of(POS4.replace("players = 4", "players = 6"))
    assert isinstance(err, FormatError)
    assert err.where == "pos.toml: players (line 2)"


def test_board_row_with_wrong_length() -> None:
    err = error_of(POS4.replace('"C D C A . B B C"', '"C D C A . B B"'))
    assert err.rule == "B1"
    assert err.where == f"pos.toml: board.red (line {line_no(POS4, 'red    =')})"


def test_symbol_e_at_4_players() -> None:
    err = error_of(POS4.replace('"A . D . . C . ."', '"A . D . . C . E"'))
    assert err.rule == "seats" and "no seat E" in err.message
    assert err.where == f"pos.toml: board.yellow (line {line_no(POS4, 'yellow =')})"


def test_neutral_token_at_3_players() -> None:
    err = error_of(POS3.replace('green  = "B C C B B ."', 'green  = "B C C B B N"'))
    assert err.rule == "2P2"
    assert err.where == f"pos.toml: board.green (line {line_no(POS3, 'green  =')})"


def test_six_copies_of_a_number() -> None:
    # three 4s in A's hand, two in B's, and two 4s on the board
    err = error_of(POS4.replace("hand = [4, 6, 8]", "hand = [4, 4, 4]"))
    assert isinstance(err, PositionError) and err.rule == "S1"
    assert "7 copies of 4" in err.message


def test_tokens_do_not_match_cards_played() -> None:
    # A's 4 moved from the hand to yellow 4: six tokens, but only five cards played
    text = POS4.replace("hand = [4, 6, 8]", "hand = [6, 8]")
    err = error_of(text.replace('"A . D . . C . ."', '"A . D A . C . ."'))
    assert isinstance(err, PositionError) and err.rule == "P1"
    assert err.where is not None and err.where.startswith("pos.toml: board")


def test_hand_size_mismatch() -> None:
    err = error_of(POS4.replace("hand = [4, 6, 8]", "hand = [6, 8]"))
    assert err.rule == "S2"
    assert err.where == f"pos.toml: seat.A.hand (line {line_no(POS4, 'hand = [4, 6, 8]')})"
    err = error_of(POS4.replace("hand = [4, 6, 8]", "hand_size = 4"))
    assert err.rule == "S2" and (err.where or "").startswith("pos.toml: seat.A.hand")
    err = error_of(POS4.replace("hand = [5, 5]", "hand = [5, 5]\nhand_size = 3"))
    assert err.rule == "S2"


def test_prediction_2_at_3_players() -> None:
    text = POS3.replace("prediction = 3", "prediction = 2")
    err = error_of(text)
    assert isinstance(err, PositionError) and err.rule == "S3"
    assert err.where == f"pos.toml: seat.C.prediction (line {line_no(text, 'prediction = 2')})"


def test_trick_play_not_on_the_board_under_that_seat() -> None:
    # C led 1R, but the board shows A on red 1 (and C on red 4, so the counts still agree)
    err = error_of(POS4.replace('"C D C A . B B C"', '"A D C C . B B C"'))
    assert isinstance(err, PositionError) and err.rule == "P1"
    assert err.where == f"pos.toml: trick.plays[0] (line {line_no(POS4, 'plays = ')})"


def find_off_colour_follow() -> tuple[Position, int]:
    for seed in range(200):
        pos = random_position(4, seed, 3, mid_trick=2)
        if pos.trick[1].colour != pos.trick[0].colour:
            return pos, (pos.leader + 1) % 4
    raise AssertionError("no off-colour follow found")


def test_follower_off_colour_still_holding_the_led_colour() -> None:
    pos, follower = find_off_colour_follow()
    doc = to_json_obj(pos)
    letter = "ABCD"[follower]
    doc["seat"][letter]["colors"] = "RBYG"
    err = error_of_doc(doc)
    assert isinstance(err, PositionError) and err.rule == "F2"
    assert err.where is not None and err.where.startswith("pos.toml: trick.plays[1] (line ")


def test_red_led_before_broken_with_a_non_red_option() -> None:
    start = deal_round(4, 21).position
    doc = to_json_obj(start)
    hand = doc["seat"]["A"]["hand"]
    card = hand.pop(0)
    red = list(doc["board"]["red"].replace(" ", ""))
    red[card - 1] = "A"
    doc["board"]["red"] = " ".join(red)
    doc["trick"] = {"leader": "A", "plays": [f"{card}R"]}
    err = error_of_doc(doc)
    assert isinstance(err, PositionError) and err.rule == "L3"
    assert err.where is not None and "trick.plays[0]" in err.where
    # the same lead in blue is fine
    doc["board"]["red"] = " ".join("." * 8)
    blue = list(doc["board"]["blue"].replace(" ", ""))
    blue[card - 1] = "A"
    doc["board"]["blue"] = " ".join(blue)
    doc["trick"]["plays"] = [f"{card}B"]
    assert loads(toml_dumps(doc)).trick == (Play.parse(f"{card}B"),)  # type: ignore[union-attr]


def test_two_player_neutral_tokens_not_matching_revealed() -> None:
    err = error_of(POS2.replace("revealed = [4, 5, 5]", "revealed = [4, 4, 5]"))
    assert isinstance(err, PositionError) and err.rule == "2P2"
    assert err.where is not None and err.where.startswith("pos.toml: board")


def test_paradox_claimed_for_a_seat_with_a_legal_play() -> None:
    text = POS3.replace("players = 3", 'players = 3\nparadox = "B"')
    err = error_of(text)
    assert isinstance(err, PositionError) and err.rule == "X1"
    assert err.where == "pos.toml: paradox (line 3)"


def test_toml_syntax_error_reports_the_line() -> None:
    text = POS4.replace("tricks = 1", "tricks = = 1")
    err = error_of(text)
    assert isinstance(err, FormatError) and "TOML syntax error" in err.message
    assert f"(line {line_no(text, 'tricks = = 1')}, column" in (err.where or "")


def test_json_syntax_error_reports_the_line() -> None:
    text = to_json_text(POS4).replace('"players": 4,', '"players": 4')
    err = error_of(text, "json", "pos.json")
    assert isinstance(err, FormatError) and "JSON syntax error" in err.message
    assert err.where is not None and err.where.startswith("pos.json (line 4, column")


def test_unknown_key_colour_is_named() -> None:
    text = POS4.replace('colors = "RG"', 'colour = "RG"')
    err = error_of(text)
    assert isinstance(err, FormatError)
    assert err.where == f"pos.toml: seat.B.colour (line {line_no(text, 'colour =')})"
    assert "'colour'" in err.message and "did you mean 'colors'" in err.message


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ("hand = [4, 6, 8]", 'hand = "4,6,8"', "seat.A.hand"),
        ("hand = [4, 6, 8]", 'hand = [4, "6", 8]', "seat.A.hand[1]"),
        ("tricks = 1", "tricks = true", "seat.B.tricks"),
        ("tricks = 1", "tricks = 1.0", "seat.B.tricks"),
        ('colors = "RG"', "colors = 3", "seat.B.colors"),
        ('colors = "RG"', 'colors = "RX"', "seat.B.colors"),
        ('leader = "C"', "leader = 2", "trick.leader"),
        ('plays = ["1R"]', 'plays = ["1Q"]', "trick.plays[0]"),
        ("players = 4", 'players = "4"', "players"),
        ("[seat.D]", "[seat.F]", "seat.F"),
        ('red    = "C D C A . B B C"', "red = [1]", "board.red"),
        ('red    = "C D C A . B B C"', 'red = "C D C A . B B C"\npurple = "."', "board.purple"),
    ],
)
def test_wrong_types_and_values_are_format_errors(old: str, new: str, key: str) -> None:
    assert old in POS4
    err = error_of(POS4.replace(old, new))
    assert isinstance(err, FormatError), err
    assert err.where is not None and err.where.startswith(f"pos.toml: {key}"), err.where


def test_seat_table_missing() -> None:
    text = POS4[: POS4.index("[seat.D]")] + POS4[POS4.index("[trick]") :]
    err = error_of(text)
    assert err.rule == "seats" and "[seat.D]" in err.message


def test_record_replay_with_an_illegal_move(tmp_path: Path) -> None:
    # find a deal where B holds the number A leads, then let B play A's cell (L1)
    for seed in range(100):
        rec = Record.from_deal(deal_round(4, seed))
        first = rec.start().legal_plays()[0]
        start_b = rec.start().play(first)
        hand_b = start_b.seats[1].hand or ()
        if first.number in hand_b:
            break
    else:
        raise AssertionError("no suitable deal")
    bad = rec.with_moves([first, first])
    path = tmp_path / "game.toml"
    save(bad.with_moves([first]), path)
    text = path.read_text().replace(f'moves = "{first}"', f'moves = "{first} {first}"')
    path.write_text(text)
    with pytest.raises(IllegalPlayError) as e:
        load_record(path)
    err = e.value
    assert err.rule == "L1"
    assert err.where == f"{path}: moves[2] (line {line_no(text, 'moves =')})"
    assert "move 2" in err.message and f"B plays {first}" in err.message


def test_record_moves_in_the_last_table_and_as_a_list() -> None:
    rec = playout(4, 3)
    rec = rec.with_moves(rec.moves[:6])
    doc = to_json_obj(rec)
    moves = doc.pop("moves")
    text = toml_dumps(doc) + f'moves = "{moves}"\n'  # lands in [predictions]
    assert loads(text) == rec
    doc["moves"] = moves.split()
    assert loads(toml_dumps(doc)) == rec


def test_record_errors_name_the_key() -> None:
    rec = playout(3, 4)
    doc = to_json_obj(rec)
    doc["predictions"]["A"] = 2
    err = error_of_doc(doc)
    assert err.rule == "S3" and err.where is not None
    assert err.where.startswith("pos.toml: predictions.A (line")
    doc = to_json_obj(rec)
    doc["deal"]["A"] = doc["deal"]["A"][:-1]
    err = error_of_doc(doc)
    assert err.rule == "S1" and "deal.A" in (err.where or "")


def test_load_position_from_record_points_to_replay(tmp_path: Path) -> None:
    rec = playout(3, 4)
    path = tmp_path / "r.toml"
    save(rec, path)
    with pytest.raises(FormatError) as e:
        load_position(str(path))
    assert e.value.code == "record-not-position" and e.value.where == str(path)
    assert "catbox" not in e.value.message  # the CLI adds the hint in its own words


def test_load_position_missing_file_and_not_a_string() -> None:
    with pytest.raises(FileError) as e:
        load_position("no-such-position.toml")
    assert e.value.where == "no-such-position.toml"
    with pytest.raises(FormatError):
        load_position("not a position")


# ---------------------------------------------------------------------------- saving


def test_save_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    pos = loads(POS4)
    other = loads(POS3)
    assert isinstance(pos, Position) and isinstance(other, Position)
    path = tmp_path / "p.toml"
    save(pos, path)
    before = path.read_bytes()
    with pytest.raises(FileError) as e:
        save(other, path)
    assert e.value.where == str(path) and e.value.code == "file-exists"
    assert path.read_bytes() == before
    save(other, path, force=True)
    assert load(path) == other
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.toml"]  # no temp files left


def test_save_syntax_by_extension_and_sniffing(tmp_path: Path) -> None:
    pos = loads(POS4)
    assert isinstance(pos, Position)
    save(pos, tmp_path / "p.json")
    assert (tmp_path / "p.json").read_text().startswith("{")
    (tmp_path / "p.txt").write_text(dumps(pos, "json"))
    assert load(tmp_path / "p.txt") == pos
    (tmp_path / "q.txt").write_text(dumps(pos, "toml"))
    assert load(tmp_path / "q.txt") == pos


def test_save_into_missing_directory_is_a_file_error(tmp_path: Path) -> None:
    target = tmp_path / "nope" / "p.toml"
    with pytest.raises(FileError) as e:
        save(loads(POS4), target)
    assert e.value.kind == "file" and e.value.where == str(target)
    assert e.value.message.startswith("cannot write")
    assert not isinstance(e.value, FormatError)  # siblings: a file error is not a format error
    assert list(tmp_path.iterdir()) == []


def test_public_api_names() -> None:
    names = [
        "load",
        "load_position",
        "load_record",
        "load_puzzle",
        "dumps",
        "to_json_obj",
        "save",
        "position_to_line",
        "position_from_line",
    ]
    assert set(names) <= set(formats.__all__)
    for name in formats.__all__:  # every exported name exists, and every function says what
        obj = getattr(formats, name)  # it does
        assert not inspect.isfunction(obj) or (obj.__doc__ or "").strip(), name
