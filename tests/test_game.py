"""Whole games (Sc4, ``catbox-game/1``): the record, its checks naming the round, totals and the
tie-break, the file format, and ``play_game``."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catbox.solver import (
    Game,
    IllegalPlayError,
    PositionError,
    deal_round,
    formats,
    variant,
)
from catbox.solver.game import next_round, round_seed
from catbox.solver.player import choose_aside
from catbox.solver.scoring import round_score
from catbox.solver.selfplay import play_game

from .games import played_game, played_round
from .reference import terminals

# ---------------------------------------------------------------- the checks, naming the round


def test_a_whole_game_is_valid_and_complete() -> None:
    g = played_game(4, seed=1)
    g.validate()
    assert g.complete and [g.round_start(r) for r in range(4)] == [0, 1, 2, 3]
    assert not replace(g, rounds=g.rounds[:3]).complete


def test_Sc4_a_round_with_the_wrong_start_seat_is_named() -> None:
    g = played_game(3, seed=2)
    wrong = played_round(3, 99, start=0)  # round 2 must start with B
    bad = replace(g, rounds=(g.rounds[0], wrong, g.rounds[2]))
    with pytest.raises(PositionError) as e:
        bad.validate()
    assert e.value.rule == "Sc4" and e.value.where == "rounds[2].round_start"
    assert "starts with B, not A" in e.value.message


def test_Sc4_a_game_has_as_many_rounds_as_players() -> None:
    g = played_game(3, seed=3)
    extra = g.with_round(played_round(3, 98, start=0))
    with pytest.raises(PositionError) as e:
        extra.validate()
    assert e.value.rule == "Sc4" and e.value.where == "rounds"
    assert "3 rounds, not 4" in e.value.message
    with pytest.raises(PositionError, match="at least one round"):
        Game(players=3).result()


def test_an_illegal_move_in_round_3_names_the_round_the_move_and_the_rule() -> None:
    g = played_game(4, seed=4)
    rec = g.rounds[2]
    moves = list(rec.moves)
    moves[5] = moves[0]  # the first play's cell is taken by now (L1)
    bad = replace(g, rounds=(*g.rounds[:2], rec.with_moves(moves), g.rounds[3]))
    with pytest.raises(IllegalPlayError) as e:
        bad.validate()
    assert e.value.where == "rounds[3].moves[6]" and e.value.rule == "L1"
    assert f"plays {moves[0]}" in e.value.message


def test_Sc4_a_round_must_be_over_before_the_next_begins() -> None:
    g = played_game(3, seed=5)
    short = g.rounds[0].with_moves(g.rounds[0].moves[:7])
    with pytest.raises(PositionError) as e:
        replace(g, rounds=(short, *g.rounds[1:])).validate()
    assert e.value.where == "rounds[1]" and "not over" in e.value.message
    replace(g, rounds=(g.rounds[0], g.rounds[1].with_moves(g.rounds[1].moves[:7]))).validate()


def test_every_round_has_the_games_players_and_names() -> None:
    g = played_game(3, seed=6)
    four = played_round(4, 6, start=1)
    with pytest.raises(PositionError) as e:
        replace(g, rounds=(g.rounds[0], four)).validate()
    assert e.value.where == "rounds[2].players" and e.value.rule == "Sc4"
    named = replace(g, names=("Al", "Bo", "Cy"))
    other = replace(g.rounds[1], names=("Al", "Bo", "Di"))
    with pytest.raises(PositionError) as e:
        replace(named, rounds=(g.rounds[0], other)).validate()
    assert e.value.where == "rounds[2].names"


# ---------------------------------------------------------------- totals and the tie-break (Sc4)


def test_Sc4_totals_and_winner_of_a_worked_game() -> None:
    g = played_game(3, seed=7)
    rows = [[s.score for s in sc.seats] for sc in g.scores()]
    # the three rounds, each checked by hand against tricks, prediction and largest group
    assert rows == WORKED_3P_ROWS
    res = g.result()
    assert res.totals == tuple(map(sum, zip(*WORKED_3P_ROWS, strict=True)))
    assert res.winners == WORKED_3P_WINNERS


def test_Sc4_a_tie_on_totals_goes_to_the_final_round_then_is_shared() -> None:
    g = played_game(2, seed=TIED_2P_SEED)
    rows = [[s.score or 0 for s in sc.seats] for sc in g.scores()]
    res = g.result()
    assert res.totals[0] == res.totals[1]
    assert rows[-1][0] != rows[-1][1]
    assert res.winners == ((0,) if rows[-1][0] > rows[-1][1] else (1,))


def test_a_score_on_an_unknown_prediction_is_refused_with_the_round() -> None:
    g = played_game(3, seed=8)
    rec = g.rounds[1]
    hidden = replace(rec, predictions=(rec.predictions[0], None, rec.predictions[2]))
    assert round_score(hidden.position()).seats[1].score is None
    with pytest.raises(PositionError) as e:
        replace(g, rounds=(g.rounds[0], hidden, g.rounds[2])).result()
    assert e.value.rule == "Sc2" and e.value.where == "rounds[2]"


# ---------------------------------------------------------------- the format


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 5),
    seed=st.integers(0, 10_000),
    rounds=st.integers(0, 5),
    first=st.integers(0, 4),
    cut=st.integers(0, 40),
    named=st.booleans(),
)
def test_games_round_trip_in_toml_and_json(
    players: int, seed: int, rounds: int, first: int, cut: int, named: bool
) -> None:
    rounds, first = min(rounds, players), first % players
    g = played_game(players, seed, rounds, first)
    if g.rounds:  # the last round may still be running
        last = g.rounds[-1]
        g = replace(g, rounds=(*g.rounds[:-1], last.with_moves(last.moves[:cut])))
    if named:
        names = tuple(f"P{i}" for i in range(players))
        g = replace(g, names=names, rounds=tuple(replace(r, names=names) for r in g.rounds))
    g.validate()
    text = formats.dumps(g, "toml")
    assert formats.loads(text) == g
    assert formats.loads(formats.dumps(g, "json"), "json") == g
    assert formats.from_json_obj(formats.to_json_obj(g)) == g


def test_a_game_file_locates_an_illegal_move_at_its_round_and_line(tmp_path: object) -> None:
    g = played_game(3, seed=9)
    text = formats.dumps(g, "toml")
    moves3 = " ".join(map(str, g.rounds[2].moves))
    bad_moves = " ".join(map(str, (*g.rounds[2].moves[:3], g.rounds[2].moves[0])))
    text = text.replace(f'moves = "{moves3}"', f'moves = "{bad_moves}"')
    with pytest.raises(IllegalPlayError) as e:
        formats.loads(text, name="g.toml")
    line = text.splitlines().index(f'moves = "{bad_moves}"') + 1
    assert e.value.where == f"g.toml: rounds[3].moves[4] (line {line})"
    assert e.value.rule == "L1"


def test_a_game_file_with_a_wrong_start_or_too_many_rounds() -> None:
    g = played_game(3, seed=10)
    text = formats.dumps(g, "toml")
    wrong = text.replace('round_start = "B"', 'round_start = "C"')
    with pytest.raises(PositionError) as e:
        formats.loads(wrong, name="g.toml")
    assert e.value.rule == "Sc4" and e.value.where is not None
    assert e.value.where.startswith("g.toml: rounds[2].round_start (line ")
    doc = formats.to_json_obj(g)
    doc["rounds"].append(doc["rounds"][0])
    with pytest.raises(PositionError) as e:
        formats.from_json_obj(doc)
    assert e.value.rule == "Sc4" and e.value.where == "rounds"
    doc["rounds"] = [{k: v for k, v in doc["rounds"][0].items() if k != "round_start"}]
    assert formats.from_json_obj(doc) == replace(g, rounds=g.rounds[:1])


def test_load_game_and_load_record_refuse_each_other(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    g = played_game(2, seed=11)
    formats.save(g, tmp_path / "g.toml")
    formats.save(g.rounds[0], tmp_path / "r.toml")
    assert formats.load_game(tmp_path / "g.toml") == g
    with pytest.raises(Exception, match="expected a round record"):
        formats.load_record(tmp_path / "g.toml")
    with pytest.raises(Exception, match="expected a game"):
        formats.load_game(tmp_path / "r.toml")


def test_a_declared_paradox_round_in_a_game() -> None:
    g = played_game(3, seed=12)
    k, rec = next((k, r) for k, r in enumerate(g.rounds) if r.position().paradox is not None)
    seat = rec.position().paradox
    assert seat is not None
    deal, aside = list(rec.deal), list(rec.set_aside)
    deal[seat] = aside[seat] = None
    hidden = replace(rec, deal=tuple(deal), set_aside=tuple(aside), declared_paradox=seat)
    hg = replace(g, rounds=(*g.rounds[:k], hidden, *g.rounds[k + 1 :]))
    hg.validate()
    assert hg.result() == g.result() and hg.complete
    assert formats.loads(formats.dumps(hg)) == hg


# ---------------------------------------------------------------- play_game


def test_play_game_is_deterministic_and_every_round_is_legal() -> None:
    g = play_game(2, seed=3, level=0, names=("Al", "Bo"))
    assert g == play_game(2, seed=3, level=0, names=("Al", "Bo"))
    assert g != play_game(2, seed=4, level=0, names=("Al", "Bo"))
    g.validate()
    assert g.complete and g.names == ("Al", "Bo")
    for r, rec in enumerate(g.rounds):
        assert rec.round_start == r % 2
        assert rec.deal == next_round(replace(g, rounds=g.rounds[:r]), seed=3).dealt
        assert rec.deal == deal_round(2, round_seed(3, r)).dealt
        positions = list(rec.positions())
        for pos, move in zip(positions, rec.moves, strict=False):
            assert move in pos.legal_plays()
        # the reference engine: the last trick's plays lead to this very ending
        back = max(len(rec.moves) - 2, 0)
        assert positions[-1] in set(terminals(positions[back]))
    with pytest.raises(PositionError) as e:
        next_round(g, seed=3)
    assert e.value.rule == "Sc4"


def test_play_game_at_3_players_predicts_from_each_seats_own_hand() -> None:
    g = play_game(3, seed=1, level=0)
    g.validate()
    assert g.complete
    for rec in g.rounds:
        assert all(p in variant(3).predictions for p in rec.predictions)
        assert all(a in d for a, d in zip(rec.set_aside, rec.deal, strict=True) if d and a)
    first = g.rounds[1]  # B starts; C decides second, knowing B's prediction only
    c_hand = first.deal[2]
    assert c_hand is not None
    seed = round_seed(1, 1)
    assert first.set_aside[2] == choose_aside(c_hand, players=3, order=1, seed=seed)


# played_game(3, seed=7), seat by seat (tricks, prediction, largest group) -> score:
# round 1 (A starts): A (3, 3, 2) -> 3 + 2 = 5; B (1, 3, 3) -> 1; C (4, 1, 2) -> 4
# round 2 (B starts, B's paradox): A (2, 3, 2) -> 2; B (1, 1, 2) -> -1 (Sc1); C (4, 4, 2) -> 6
# round 3 (C starts, B's paradox): A (2, 3, 2) -> 2; B (2, 3, 3) -> -2; C (3, 1, 2) -> 3
WORKED_3P_ROWS: list[list[int | None]] = [[5, 1, 4], [2, -1, 6], [2, -2, 3]]
WORKED_3P_WINNERS = (2,)  # totals 9, -2, 13
# played_game(2, seed=1): rounds [5, 7] and [7, 5], totals 12-12, A wins the final round 7-5
TIED_2P_SEED = 1
