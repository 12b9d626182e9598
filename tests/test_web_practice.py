"""Practice on the served board (web/practice.py and its endpoints) against a real ``catbox
serve``: catbox's round-start decisions and the advisor's ranking equal the library's, catbox's
reasons name the play it makes, a bundled puzzle opens with its goal, the plays that keep the
goal are the library's keys and catbox defends; bad input is a 4xx with one message."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from catbox.solver import formats
from catbox.solver.cards import Play, variant
from catbox.solver.deal import deal_round, random_position
from catbox.solver.estimates.opening import aside_choice
from catbox.solver.game import Game, next_round
from catbox.solver.player import choose_aside, choose_prediction
from catbox.solver.puzzle import Puzzle
from catbox.solver.record import Record
from catbox.solver.shapes import aside_choice_json, game_score_json
from catbox.solver.solve import goal_reached, solve
from catbox.web.practice import bot_play, play_reasons, start_advice

from .webserver import Served

# the quick lane leaves these out (tests/conftest.py): each needs a real server process
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server() -> Iterator[Served]:
    s = Served()
    yield s
    s.stop()


def ok(s: Served, path: str, body: dict[str, Any]) -> Any:
    status, doc = s.call("POST", path, body)
    assert status in (200, 202), doc
    return doc


def job(s: Served, body: dict[str, Any]) -> Any:
    snap = ok(s, "/api/practice/jobs", body)
    done = s.wait_job(snap["id"], timeout=120)
    assert done["state"] == "done", done
    return done["result"]


def test_S2_S3_catbox_round_start_decisions_are_the_players(server: Served) -> None:
    d = deal_round(4, 11)
    hand = list(d.dealt[1])
    got = job(server, {"kind": "start-decision", "players": 4, "hand": hand, "order": 1, "seed": 3})
    aside = choose_aside(hand, players=4, order=1, seed=3)
    assert got == {"set_aside": aside}
    got = job(
        server,
        {
            "kind": "start-decision",
            "players": 4,
            "hand": hand,
            "order": 1,
            "before": [2],
            "set_aside": aside,
            "seed": 3,
        },
    )
    pred = choose_prediction(hand, aside, players=4, order=1, before=(2,), seed=3)
    assert got == {"set_aside": aside, "prediction": pred}
    # and the reasons: the rankings the player chose by, its choices first
    why = job(
        server,
        {
            "kind": "start-reasons",
            "players": 4,
            "hand": hand,
            "order": 1,
            "before": [2],
            "set_aside": aside,
            "seed": 3,
        },
    )
    first = aside_choice(hand, players=4, order=1, seed=3)
    assert why["aside"] == json.loads(json.dumps(aside_choice_json(first)))
    assert why["aside"]["chosen"] == aside
    assert why["prediction"]["candidates"][0]["prediction"] == pred


def test_the_advisor_ranks_every_set_aside_and_prediction(server: Served) -> None:
    hand = list(deal_round(3, 4).dealt[0])
    body = {"kind": "start-advice", "players": 3, "hand": hand, "order": 0, "samples": 40}
    got = job(server, body)
    want = start_advice(hand, players=3, order=0, samples=40)
    assert got["candidates"] == json.loads(json.dumps(want["candidates"]))
    assert got["before_assumed"] is True
    assert {c["set_aside"] for c in got["candidates"]} == set(hand)


def test_catbox_reasons_rank_the_play_it_makes(server: Served) -> None:
    for pos, level in (
        (deal_round(4, 5, predictions=True).position, 1),
        (random_position(3, 2, 3), 1),
    ):
        line = formats.position_to_line(pos)
        got = job(server, {"kind": "reasons", "position": line, "seed": 2, "level": level})
        assert got["play"] == str(bot_play(pos, seed=2, level=level))
        assert got == json.loads(json.dumps(play_reasons(pos, seed=2, level=level)))
        if got["method"] != "forced":
            assert {c["play"] for c in got["candidates"]} <= {str(p) for p in pos.legal_plays()}


def test_the_collection_lists_and_opens_puzzles_with_their_goal(server: Served) -> None:
    status, doc = server.call("GET", "/api/puzzles")
    assert status == 200
    names = {p["name"]: p for p in doc["puzzles"]}
    herring = names["the-red-herring"]
    assert herring["goal"] == "B makes exactly 5 tricks (guaranteed)" and herring["playable"]
    got = ok(server, "/api/puzzles/open", {"name": "the-red-herring"})
    assert got["kind"] == "puzzle" and got["goal_seat"] == "B" and got["goal_mode"] == "guaranteed"
    assert isinstance(formats.from_json_obj(got["puzzle"]), Puzzle)
    status, err = server.call("POST", "/api/puzzles/open", {"name": "../etc/passwd"})
    assert status == 400 and "bundled" in err["error"]["message"]
    status, err = server.call("POST", "/api/puzzles/open", {"name": "no-such-puzzle"})
    assert status == 404


def test_a_puzzle_played_keeps_or_loses_its_goal_against_catbox_defence(server: Served) -> None:
    doc = ok(server, "/api/puzzles/open", {"name": "the-red-herring"})
    puzzle = formats.from_json_obj(doc["puzzle"])
    assert isinstance(puzzle, Puzzle)
    first = job(
        server,
        {"kind": "puzzle-turn", "puzzle": doc["puzzle"], "position": doc["plies"][0]},
    )
    assert first["solvable"] and first["keeping"] == [str(k) for k in solve(puzzle).keys or ()]
    for opening, reached in (("2G", True), ("4R", False)):
        pos = puzzle.position.play(Play.parse(opening))
        while not pos.finished:
            body = {"puzzle": doc["puzzle"], "position": formats.position_to_line(pos)}
            if pos.to_play == puzzle.goal.seat:
                turn = job(server, {"kind": "puzzle-turn"} | body)
                assert turn["solvable"] is reached
                play = (turn["keeping"] or [str(pos.legal_plays()[0])])[0]
            else:
                play = job(server, {"kind": "puzzle-reply"} | body)["play"]
            pos = pos.play(Play.parse(play))
        assert goal_reached(puzzle.goal, pos) is reached


LINE = formats.position_to_line(random_position(3, 1, 2))


def test_practice_job_input_is_checked_at_once(server: Served) -> None:
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"kind": "nope"}, 400, "kind"),
        ({"kind": "start-decision", "hand": [1, 2]}, 400, "players"),
        ({"kind": "start-decision", "players": 4, "hand": "1 2", "order": 0}, 400, "hand"),
        ({"kind": "start-advice", "players": 4, "hand": [1], "order": 9}, 400, "order"),
        ({"kind": "reasons", "position": "cbx1:"}, 422, ""),
        ({"kind": "puzzle-turn", "position": "cbx1:x", "puzzle": {}}, 422, ""),
        ({"kind": "puzzle-generate", "players": 3, "level": "extreme"}, 400, "level"),
        ({"kind": "reasons", "position": LINE, "extra": 1}, 400, "extra"),
    ]
    for body, status, word in cases:
        got, doc = server.call("POST", "/api/practice/jobs", body)
        assert got == status, (body, doc)
        assert word in doc["error"]["message"]
    # a dealt hand of the wrong size is the library's S1, reported by the job
    snap = ok(
        server,
        "/api/practice/jobs",
        {"kind": "start-decision", "players": 4, "hand": [1, 2, 3], "order": 0},
    )
    done = server.wait_job(snap["id"])
    assert done["state"] == "error" and "S1" in done["error"]["message"]


# ---------------------------------------------------------------------------- whole games
def _played(players: int, seed: int, game: Game) -> Record:
    """The next round of ``game`` played by catbox's policy in every seat, the deal's own
    set-aside cards and predictions standing in for the seats' choices."""
    d = next_round(game, seed=seed)
    preds = tuple(sorted(variant(players).predictions)[:1] * players) if players > 2 else None
    rec = Record(
        players=players,
        deal=d.dealt,
        set_aside=d.set_aside,
        predictions=preds or (None,) * players,
        round_start=d.round_start,
        revealed=d.revealed,
    )
    pos = rec.start()
    moves: list[Play] = []
    while not pos.finished:
        move = bot_play(pos, seed=len(moves), level=0)
        moves.append(move)
        pos = pos.play(move)
    return rec.with_moves(moves)


def test_Sc4_a_game_is_dealt_scored_and_exported_as_the_library_does(server: Served) -> None:
    players, seed = 3, 9
    game = Game(players=players)
    obj: dict[str, Any] = {"players": players, "first_start": "A", "rounds": []}
    for r in range(players):
        got = ok(server, "/api/game/deal", {"game": obj, "seed": seed})
        d = next_round(game, seed=seed)
        assert got["round"] == r and got["start"] == "ABC"[r]  # the start passes left
        assert got["deal"] == [list(h) for h in d.dealt]
        assert got["predictions_allowed"] == list(variant(players).predictions)
        rec = _played(players, seed, game)
        began = ok(
            server,
            "/api/game/begin",
            {
                "players": players,
                "deal": got["deal"],
                "set_aside": list(rec.set_aside),
                "predictions": list(rec.predictions),
                "start": got["start"],
            },
        )
        assert formats.from_json_obj(began["record"]) == rec.with_moves(())
        game = game.with_round(rec)
        obj["rounds"].append(formats.to_json_obj(rec))
    assert ok(server, "/api/game/score", {"game": obj}) == json.loads(
        json.dumps(game_score_json(game))
    )
    text = ok(server, "/api/game/export", {"game": obj, "syntax": "json"})["text"]
    assert formats.loads(text, "json") == game
    status, err = server.call("POST", "/api/game/deal", {"game": obj, "seed": seed})
    assert status == 422 and "Sc4" in err["error"]["message"]  # every round is played
    review = job(server, {"kind": "game-review", "rounds": obj["rounds"][:1], "seat": "B"})
    assert len(review["pages"]) == 1 and "<html" in review["pages"][0].lower()


def test_a_broken_game_is_refused_naming_its_round(server: Served) -> None:
    game = Game(players=3)
    first = _played(3, 4, game)
    second = _played(3, 4, game.with_round(first))
    # Sc4: A starts round 1 and B round 2, not the other way round
    obj = {"players": 3, "rounds": [formats.to_json_obj(second), formats.to_json_obj(first)]}
    status, err = server.call("POST", "/api/game/score", {"game": obj})
    assert (
        status == 422 and "Sc4" in err["error"]["message"] and "rounds[" in err["error"]["message"]
    )
    status, err = server.call("POST", "/api/game/score", {"game": {"players": 3, "rounds": [1]}})
    assert status == 422 and "rounds[0]" in err["error"]["message"], err
    status, err = server.call("POST", "/api/game/begin", {"players": 3, "deal": [[1]]})
    assert status == 400, err
