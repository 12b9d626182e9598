"""``catbox advise`` and ``catbox review --seat`` from the player's view through the CLI: JSON
shapes of analysis.md ("The player's questions"), labelled estimates, errors with exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from catbox.cli.main import app
from catbox.cli.output import EXIT_FORMAT, EXIT_POSITION
from catbox.solver import formats
from catbox.solver.deal import deal_round
from catbox.solver.estimates.policy import hazard_at
from tests.fixtures import hidden, own_cards_record

runner = CliRunner()


def run(*args: str | Path) -> tuple[int, str, str]:
    res = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in res.stdout + res.stderr
    return res.exit_code, res.stdout, res.stderr


def test_advise_json_shape() -> None:
    pos = hidden(4, 4, 5)
    line = formats.position_to_line(pos)
    code, out, _ = run("advise", line, "--samples", "20", "--json")
    assert code == 0, out
    j = json.loads(out)
    assert j["seat"] == "ABCD"[pos.to_play or 0] and j["method"] == "playouts"
    assert j["samples"] == 20 and j["status"] == "estimate"
    assert j["best"] == j["moves"][0]["play"]
    for m in j["moves"]:
        est = m["avoid_paradox"]
        assert set(est) == {"value", "ci95", "samples"} and est["samples"] == 20
        assert est["ci95"][0] <= est["value"] <= est["ci95"][1]
    keys = [(m["avoid_paradox"]["value"], m["score"]["value"]) for m in j["moves"]]
    assert keys == sorted(keys, reverse=True)


def test_advise_exact_and_caveat() -> None:
    pos = hidden(3, 4, 2)
    line = formats.position_to_line(pos)
    code, out, _ = run("advise", line, "--method", "pimc", "--json")
    assert code == 0 and json.loads(out)["status"] == "proven"
    code, out, _ = run("advise", line)
    assert code == 0 and "optimistic" in out and "pimc" in out


def test_advise_round_start() -> None:
    hand = ",".join(map(str, deal_round(4, 2).dealt[0]))
    code, out, _ = run("advise", "--hand", hand, "-p", "4", "--samples", "10", "--json")
    assert code == 0, out
    j = json.loads(out)
    assert j["candidates"] and j["best"] == j["candidates"][0] and j["samples"] == 10
    code, out, _ = run("advise", "--hand", hand, "-p", "4", "--samples", "10")
    assert code == 0 and "set aside" in out
    code, _, err = run("advise", "--hand", hand, "-p", "4", "--order", "1")
    assert (code == EXIT_POSITION and "S3" in err) or "prediction" in err
    assert run("advise", "--hand", "1,x", "-p", "4")[0] == EXIT_FORMAT
    assert run("advise")[0] == EXIT_FORMAT


def test_advise_wrong_seat() -> None:
    pos = hidden(3, 1, 3)
    line = formats.position_to_line(pos)
    other = "ABC"[((pos.to_play or 0) + 1) % 3]
    code, _, err = run("advise", line, "--seat", other)
    assert code == EXIT_POSITION and "not to play" in err


def test_review_from_the_players_view(tmp_path: Path) -> None:
    rec, _ = own_cards_record(4)
    path = tmp_path / "mine.toml"
    formats.save(rec, path)
    code, out, _ = run("review", path, "--seat", "A", "--json")
    assert code == 0, out
    j = json.loads(out)
    assert j["view"] == "player" and j["plays"]
    assert all(p["made"]["avoid_paradox"]["samples"] > 0 for p in j["plays"])
    code, out, _ = run("review", path, "--seat", "A")
    assert code == 0 and "judged" in out and "not analysed" not in out


def test_advise_level_models_the_seats_by_the_player() -> None:
    """--level (the budget knob): the playouts' seats are catbox's player at that level; the
    answer is the library's advise(level=...) and the text says which model played."""
    from catbox.solver.estimates.advise import advise

    pos = hidden(3, 4, 3)
    line = formats.position_to_line(pos)
    seat = pos.to_play or 0
    args = ("advise", line, "--method", "playouts", "--samples", "4")
    code, out, _ = run(*args, "--level", "1", "--json")
    assert code == 0, out
    lib = advise(pos, seat, method="playouts", samples=4, level=1)
    assert json.loads(out) == json.loads(json.dumps(lib.to_json()))
    code, out, _ = run(*args, "--level", "1")
    assert code == 0 and "catbox's player at level 1" in " ".join(out.split())
    code, out, _ = run(*args)
    assert code == 0 and "then the policy" in " ".join(out.split())
    assert run(*args, "--level", "9")[0] != 0
    hand = ",".join(map(str, deal_round(4, 2).dealt[0]))
    code, _, err = run("advise", "--hand", hand, "-p", "4", "--level", "1")
    assert code == EXIT_FORMAT and "--level" in err


def test_advise_player_shows_the_players_play_and_its_reasons() -> None:
    """``--player``: the play catbox's player makes from the seat's own view (the same as
    ``choose_play``), first among the ranked candidates it weighed."""
    from catbox.solver import choose_play
    from catbox.solver.deal import random_position

    pos = random_position(3, seed=2, tricks_left=2)
    seat = pos.to_play
    assert seat is not None
    code, out, _ = run("advise", formats.position_to_line(pos), "--player", "--json")
    assert code == 0, out
    j = json.loads(out)
    view = pos.hide([s for s in range(3) if s != seat])
    assert j["seat"] == "ABC"[seat] and j["method"] == "endgame" and j["level"] == 1
    assert j["play"] == j["candidates"][0]["play"] == str(choose_play(view))
    assert {c["play"] for c in j["candidates"]} == {str(p) for p in pos.legal_plays()}
    assert all(0.0 <= c["avoids"] <= 1.0 for c in j["candidates"])
    code, text, _ = run("advise", formats.position_to_line(pos), "--player")
    assert code == 0 and "catbox's player for" in text and "exact endgames" in text


def test_advise_hand_player_ranks_the_set_aside_then_the_prediction() -> None:
    from catbox.solver import choose_aside, choose_prediction

    hand = deal_round(3, 4).dealt[1]
    cards = ",".join(map(str, hand))
    code, out, _ = run(
        "advise", "--hand", cards, "-p", "3", "--order", "1", "--before", "4", "--player", "--json"
    )
    assert code == 0, out
    j = json.loads(out)
    aside = choose_aside(hand, players=3, order=1)
    assert j["set_aside"]["chosen"] == aside
    pred = j["prediction"]
    assert pred["predictions_before"] == [4]
    assert [c["set_aside"] for c in pred["candidates"]] == [aside] * 3  # S3: 1, 3 or 4
    best = choose_prediction(hand, aside, players=3, order=1, before=(4,))
    assert pred["best"]["prediction"] == best
    assert pred["playouts"] <= 800 and pred["status"] == "estimate"
    # ranked by the value (the score with early ends credited where HAZARD is on), shown beside
    assert pred["hazard"] == hazard_at(3)
    assert [c["value"]["value"] for c in pred["candidates"][:1]] == [pred["best"]["value"]["value"]]
    code, text, _ = run(
        "advise", "--hand", cards, "-p", "3", "--order", "1", "--before", "4", "--player"
    )
    assert code == 0
    said = "ranked by the round score with, at 0.1 per trick" in " ".join(text.split())
    assert said == (hazard_at(3) == 0.1)
