"""The command line on game records (``catbox-game/1``): ``game``, ``replay``, ``score``,
``show --at R:N`` and ``review``, and the declared paradox of a round record."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from catbox.cli.output import EXIT_FORMAT, EXIT_ILLEGAL, EXIT_IO, EXIT_POSITION
from catbox.solver import Game, formats
from catbox.solver.selfplay import play_game
from catbox.solver.shapes import COSTLIEST, game_review_json, game_score_json

from .clirun import run, run_json
from .games import PARADOX_3P, played_game, record


@pytest.fixture(scope="module")
def game3(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("game") / "g3.toml"
    formats.save(played_game(3, seed=21), path)
    return path


def as_dict(doc: object) -> dict[str, Any]:
    assert isinstance(doc, dict)
    return doc


def test_catbox_game_is_deterministic_and_never_overwrites(tmp_path: Path) -> None:
    a, b = tmp_path / "a.toml", tmp_path / "b.json"
    args = ("game", "-p", "2", "--seed", "4", "--level", "0", "--names", "Al,Bo")
    code, _, err = run(*args, "-o", a)
    assert code == 0, err
    assert run(*args, "-o", b)[0] == 0
    g = formats.load_game(a)
    assert g == formats.load_game(b) == play_game(2, seed=4, level=0, names=("Al", "Bo"))
    assert g.complete and g.names == ("Al", "Bo")
    before = a.read_text()
    code, _, err = run("game", "-p", "2", "--seed", "5", "--level", "0", "-o", a)
    assert code == EXIT_IO and "exists" in err and a.read_text() == before
    assert run("game", "-p", "2", "--seed", "5", "--level", "0", "-o", a, "--force")[0] == 0
    doc = run_json("game", "-p", "2", "--seed", "5", "--level", "0")
    assert formats.from_json_obj(as_dict(doc)) == formats.load_game(a) != g
    code, _, err = run("game", "-p", "3", "--seed", "1", "--names", "Al,Bo")
    assert code == EXIT_FORMAT and "--names" in err


def test_score_game_is_the_score_of_its_rounds(game3: Path, tmp_path: Path) -> None:
    g = formats.load_game(game3)
    paths = []
    for k, rec in enumerate(g.rounds):
        paths.append(tmp_path / f"r{k}.toml")
        formats.save(rec, paths[-1])
    doc = run_json("score", game3)
    assert doc == run_json("score", *paths) == game_score_json(g)
    doc = as_dict(doc)
    assert doc["game"]["complete"] is True and len(doc["rounds"]) == 3
    totals = doc["game"]["totals"]
    assert totals == {x: sum(r["seats"][x]["score"] for r in doc["rounds"]) for x in "ABC"}
    code, out, _ = run("score", game3)
    assert code == 0 and "round 3" in out and "winner" in out


def test_replay_game_and_an_illegal_move_in_round_3(game3: Path, tmp_path: Path) -> None:
    g = formats.load_game(game3)
    doc = as_dict(run_json("replay", game3))
    assert [r["moves"] for r in doc["rounds"]] == [len(r.moves) for r in g.rounds]
    one = as_dict(run_json("replay", game3, "--at", "2:7"))
    assert one["at"] == 7 and one["line"] == formats.position_to_line(g.rounds[1].position(7))
    moves = list(g.rounds[2].moves)
    before = g.rounds[2].position(4)
    wrong = next(p for p, rule in before.explain() if rule == "L1")  # a taken cell
    bad_moves = [*moves[:4], wrong, *moves[5:]]
    bad = tmp_path / "bad.toml"
    bad.write_text(
        game3.read_text().replace(" ".join(map(str, moves)), " ".join(map(str, bad_moves)))
    )
    code, _, err = run("replay", bad)
    assert code == EXIT_ILLEGAL
    seat = "ABC"[before.to_play or 0]
    assert "rounds[3].moves[5]" in err and f"{seat} plays {wrong}" in err and "rule L1" in err


def test_show_game_at_round_and_move(game3: Path, tmp_path: Path) -> None:
    g = formats.load_game(game3)
    rec = tmp_path / "r2.toml"
    formats.save(g.rounds[1], rec)
    assert run_json("show", game3, "--at", "2:5") == run_json("show", rec, "--at", "5")
    end = as_dict(run_json("show", game3, "--at", "3:end"))
    assert end["line"] == formats.position_to_line(g.rounds[2].position())
    code, _, err = run("show", game3)
    assert code == EXIT_FORMAT and "--at R:N" in err
    assert run("show", game3, "--at", "4:1")[0] == EXIT_POSITION
    assert run("show", game3, "--at", "2:99")[0] == EXIT_POSITION
    assert run("show", rec, "--at", "2:5")[0] == EXIT_FORMAT
    assert run("show", rec, "--at", "x")[0] == EXIT_FORMAT


def test_review_game_json_has_every_round_and_the_summary(tmp_path: Path) -> None:
    g = play_game(2, seed=6, level=0)
    path = tmp_path / "g.toml"
    formats.save(g, path)
    doc = as_dict(run_json("review", path, "--depth", "1", "--time-limit", "4"))
    assert len(doc["rounds"]) == 2
    for rd, rec in zip(doc["rounds"], g.rounds, strict=True):
        assert [p["move"] for p in rd["plays"]] == list(range(1, len(rec.moves) + 1))
        assert [p["play"] for p in rd["plays"]] == [str(m) for m in rec.moves]
    summary = doc["game"]
    scores = game_score_json(g)
    assert summary["totals"] == scores["game"]["totals"]
    assert summary["winners"] == scores["game"]["winners"]
    for x in "AB":
        assert summary["seats"][x]["scores"] == [r["seats"][x]["score"] for r in scores["rounds"]]
        assert summary["seats"][x]["paradoxes"] == sum(r["paradox"] == x for r in scores["rounds"])
    graded = {
        (r + 1, p["move"]): p["grade"]
        for r, rd in enumerate(doc["rounds"])
        for p in rd["plays"]
        if p["grade"] in ("?!", "?", "??")
    }
    assert {(c["round"], c["move"]) for c in summary["costliest"]} <= set(graded)
    assert len(summary["costliest"]) == min(COSTLIEST, len(graded))


def test_the_costliest_plays_rank_by_grade_then_score_given_up() -> None:
    g = played_game(3, seed=22, rounds=2)
    rounds: list[dict[str, Any]] = [
        {"view": "player", "seat": "A", "plays": [
            {"move": 1, "play": "1B", "grade": "", "score_change": -0.1, "better": None},
            {"move": 4, "play": "2B", "grade": "?", "score_change": -0.5, "better": "3B"},
            {"move": 7, "play": "3Y", "grade": "?", "score_change": -2.0, "better": "4Y"},
        ]},
        {"plays": [
            {"move": 2, "seat": "B", "play": "5G", "grade": "??", "marks": ["paradox certain"]},
            {"move": 3, "seat": "C", "play": "6G", "grade": "!", "marks": []},
            {"move": 5, "seat": "A", "play": "1R", "grade": "?!", "marks": ["lost 1"]},
        ]},
    ]  # fmt: skip
    costliest = game_review_json(g, rounds)["game"]["costliest"]
    assert [(c["round"], c["move"], c["seat"]) for c in costliest] == [
        (2, 2, "B"),
        (1, 7, "A"),
        (1, 4, "A"),
        (2, 5, "A"),
        (1, 1, "A"),
    ]


def test_declared_paradox_record_scores_and_replays(tmp_path: Path) -> None:
    rec = record(*PARADOX_3P)
    deal, aside = list(rec.deal), list(rec.set_aside)
    deal[2] = aside[2] = None
    hidden = replace(rec, deal=tuple(deal), set_aside=tuple(aside))
    path = tmp_path / "hidden.toml"
    formats.save(replace(hidden, declared_paradox=2), path)
    assert 'paradox = "C"' in path.read_text()
    full = tmp_path / "full.toml"
    formats.save(rec, full)
    assert run_json("score", path) == run_json("score", full)
    score = as_dict(run_json("score", path))
    assert score["paradox"] == "C" and score["finished"] is True
    assert as_dict(run_json("replay", path))["paradox"] == "C"
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(path.read_text().replace('paradox = "C"', 'paradox = "B"'))
    code, _, err = run("score", wrong)
    assert code == EXIT_ILLEGAL and "X1" in err and "paradox" in err


def test_a_game_in_json_replays_like_its_toml(game3: Path, tmp_path: Path) -> None:
    g = formats.load_game(game3)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(formats.to_json_obj(g)))
    assert run_json("score", path) == run_json("score", game3)
    assert isinstance(formats.load(path), Game)


def test_batch_scores_and_reviews_games(game3: Path, tmp_path: Path) -> None:
    g = formats.load_game(game3)
    rec = tmp_path / "r1.toml"
    formats.save(g.rounds[0], rec)
    out = tmp_path / "score.jsonl"
    code, _, err = run("batch", "score", game3, rec, "-o", out, "-w", "1")
    assert code == 0, err
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == [str(game3), str(rec)]
    assert {k: rows[0][k] for k in ("rounds", "game")} == game_score_json(g)
    assert rows[0]["players"] == 3 and rows[0]["status"] == "proven"
    assert rows[1]["paradox"] == as_dict(run_json("score", rec))["paradox"]
    out = tmp_path / "paradox.jsonl"
    assert run("batch", "paradox", game3, "-o", out, "-w", "1")[0] == 1  # an error row
    [row] = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert "score and review take games" in row["error"]["message"]
    small = tmp_path / "g2.toml"
    formats.save(play_game(2, seed=6, level=0), small)
    out = tmp_path / "review.jsonl"
    args = ("--depth", "1", "--time-limit", "4", "-w", "1")
    assert run("batch", "review", small, "-o", out, *args)[0] == 0
    [row] = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(row["rounds"]) == 2 and row["game"]["totals"] is not None
    assert [len(r["plays"]) for r in row["rounds"]] == [16, 16]
