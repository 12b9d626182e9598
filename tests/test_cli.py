"""The command line through Typer's CliRunner: exit codes, JSON shapes, errors on stderr."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catbox.cli.output import EXIT_FORMAT, EXIT_ILLEGAL, EXIT_IO, EXIT_POSITION
from catbox.solver import Play, formats

from .clirun import run, run_json
from .games import F2_RED_4P, PARADOX_3P, position, record


@pytest.fixture
def pos4(tmp_path: Path) -> Path:
    path = tmp_path / "pos4.toml"
    formats.save(position(*F2_RED_4P), path)
    return path


@pytest.fixture
def paradox3(tmp_path: Path) -> Path:
    path = tmp_path / "paradox3.json"
    formats.save(position(*PARADOX_3P), path)
    return path


@pytest.fixture
def record4(tmp_path: Path) -> Path:
    path = tmp_path / "rec4.toml"
    formats.save(record(*F2_RED_4P), path)
    return path


def test_every_command_has_help() -> None:
    code, out, _ = run("--help")
    assert code == 0
    for name in (
        "show",
        "moves",
        "play",
        "score",
        "replay",
        "new",
        "paradox",
        "tricks",
        "analyze",
        "solve",
        "review",
        "puzzles",
        "serve",
    ):
        assert name in out
        assert run(name, "--help")[0] == 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_new_then_show_moves_play_score(tmp_path: Path, players: int) -> None:
    path = tmp_path / f"new{players}.toml"
    code, _out, _ = run("new", "--players", players, "--seed", 7, "-o", path)
    assert code == 0 and path.exists()
    shown = run_json("show", path)
    assert isinstance(shown, dict)
    assert shown["to_play"] == "A" and shown["red_broken"] is False
    assert shown["line"].startswith("cbx1:")
    mv = run_json("moves", path)
    assert isinstance(mv, dict)
    assert set(mv) >= {"to_play", "led", "red_broken", "legal", "illegal"}
    assert mv["legal"] and all(i["rule"] == "L3" for i in mv["illegal"] if i["play"][-1] == "R")
    first = mv["legal"][0]
    after = run_json("play", path, first)
    assert isinstance(after, dict) and after["to_play"] == "B"
    # the one-line string works wherever a position does
    assert run_json("moves", after["line"])["to_play"] == "B"  # type: ignore[index]
    sc = run_json("score", path)
    assert (
        isinstance(sc, dict)
        and sc["finished"] is False
        and set(sc["seats"]) == set("ABCDE"[:players])
    )


def test_new_is_deterministic_and_prints_toml() -> None:
    a = run("new", "-p", "3", "--seed", "5")
    b = run("new", "-p", "3", "--seed", "5")
    assert a == b and a[1].startswith('format = "catbox-position/1"')
    rec = run("new", "-p", "3", "--seed", "5", "--record")
    assert rec[1].startswith('format = "catbox-record/1"')


def test_moves_explain_names_rules(pos4: Path) -> None:
    """Every (card, colour) of the hand to play is listed: legal, or with the rule against it
    (rules engine: Position.explain), in text and in JSON."""
    pos = formats.load_position(str(pos4))
    table = pos.explain()
    legal = [str(p) for p, rule in table if rule is None]
    illegal = {str(p): rule for p, rule in table if rule is not None}
    assert legal == [str(p) for p in pos.legal_plays()] and {"L1", "L2"} <= set(illegal.values())
    code, out, _ = run("moves", pos4, "--explain")
    assert code == 0
    first, header, *rows = out.splitlines()
    assert first.split(": ", 1)[1].split() == legal
    assert header.split() == ["play", "rule", "why"]
    assert {row.split()[0]: row.split()[1] for row in rows} == illegal
    doc = run_json("moves", pos4, "--explain")
    assert isinstance(doc, dict) and doc["legal"] == legal
    assert {e["play"]: e["rule"] for e in doc["illegal"]} == illegal


def test_illegal_play_exit_code_and_one_line(pos4: Path) -> None:
    code, out, err = run("play", pos4, "4R")  # taken cell
    assert code == EXIT_ILLEGAL
    assert err.count("\n") == 1 and "L1" in err and out == ""
    code, out, _ = run("play", pos4, "4R", "--json")
    assert code == EXIT_ILLEGAL
    e = json.loads(out)["error"]
    assert e["kind"] == "illegal-play" and e["rule"] == "L1" and "play 1" in e["where"]


def test_play_never_overwrites(pos4: Path, tmp_path: Path) -> None:
    before = pos4.read_text()
    legal = run_json("moves", pos4)["legal"][0]  # type: ignore[index]
    code, _, err = run("play", pos4, legal, "-o", pos4, "--force")
    assert code == EXIT_IO and "input" in err
    other = tmp_path / "out.toml"
    other.write_text("keep me")
    code, _, err = run("play", pos4, legal, "-o", other)
    assert code == EXIT_IO and "--force" in err and other.read_text() == "keep me"
    assert run("play", pos4, legal, "-o", other, "--force")[0] == 0
    assert formats.load(other) == formats.load_position(str(pos4)).play(Play.parse(legal))
    assert pos4.read_text() == before


def test_score_paradox_round(paradox3: Path) -> None:
    sc = run_json("score", paradox3)
    assert isinstance(sc, dict)
    assert sc["finished"] is True and sc["paradox"] == "C"
    assert sc["seats"]["C"]["score"] == -1 and sc["seats"]["C"]["bonus"] == 0
    assert sc["seats"]["B"] == {
        "tricks": 1,
        "prediction": 1,
        "largest_group": 4,
        "bonus": 4,
        "score": 5,
    }


def test_score_game_totals(tmp_path: Path) -> None:
    paths = []
    for k in range(3):
        p = tmp_path / f"r{k}.toml"
        code, _, _ = run("new", "-p", "3", "--seed", k, "--start", "ABC"[k], "-o", p)
        assert code == 0
        paths.append(p)
    game = run_json("score", *paths)
    assert isinstance(game, dict) and len(game["rounds"]) == 3
    assert game["game"]["complete"] is False
    wrong = run("score", paths[1], paths[0])
    assert wrong[0] == EXIT_POSITION and "Sc4" in wrong[2]


def test_replay_at_and_illegal_record(record4: Path, tmp_path: Path) -> None:
    rep = run_json("replay", record4, "--at", "4")
    assert isinstance(rep, dict) and rep["at"] == 4 and len(rep["tricks"]) == 1
    assert rep["tricks"][0]["winner"] in "ABCD"
    full = run_json("replay", record4)
    assert isinstance(full, dict) and full["at"] == full["moves"] == len(record(*F2_RED_4P).moves)
    bad = tmp_path / "bad.toml"
    text = record4.read_text()
    moves = record(*F2_RED_4P).moves
    bad.write_text(
        text.replace(" ".join(map(str, moves)), " ".join(map(str, [*moves[:3], moves[0]])))
    )
    code, _, err = run("replay", bad)
    assert code == EXIT_ILLEGAL and "moves[4]" in err and "L1" in err


def test_malformed_and_impossible_files(tmp_path: Path, pos4: Path) -> None:
    junk = tmp_path / "junk.toml"
    junk.write_text("format = \n[[[")
    code, _, err = run("show", junk)
    assert code == EXIT_FORMAT and "line" in err
    impossible = tmp_path / "impossible.toml"
    impossible.write_text(pos4.read_text().replace("prediction = 3", "prediction = 7", 1))
    code, _, err = run("show", impossible)
    assert code == EXIT_POSITION and "S3" in err
    assert run("show", "cbx1:garbage")[0] == EXIT_FORMAT
    code, _, err = run("show", tmp_path / "missing.toml")
    assert code == EXIT_IO and "no such file" in err


def test_bad_seat_is_a_clear_error(pos4: Path) -> None:
    code, _, err = run("paradox", pos4, "--seat", "E")
    assert code == EXIT_FORMAT and "seat" in err


def test_show_prints_the_whole_line_unwrapped(tmp_path: Path) -> None:
    path = tmp_path / "five.toml"
    assert run("new", "-p", "5", "--seed", "3", "-o", path)[0] == 0
    code, out, _ = run("show", path)
    last = out.rstrip("\n").splitlines()[-1]
    assert code == 0 and len(last) > 80
    assert formats.load_position(last) == formats.load_position(str(path))


def test_serve_reports_bad_input_and_a_busy_port_before_serving(tmp_path: Path) -> None:
    import socket

    code, _, err = run("serve", "--no-open", str(tmp_path / "missing.toml"))
    assert code == EXIT_IO and "no such file" in err
    code, _, err = run("serve", "--no-open", "cbx1:4A:nonsense")
    assert code == EXIT_FORMAT and "position string" in err
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        code, _, err = run("serve", "--no-open", "--port", port, "the-red-herring")
    assert code == EXIT_IO and f"cannot listen on 127.0.0.1:{port}" in err
