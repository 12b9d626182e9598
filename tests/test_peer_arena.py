"""The peer arena's pure parts (bench/peer_tables.py, bench/peer_arena.py's row store) against
worked examples, without the peer: the seatings of a deal, the peer's predictions moved to the
allowed values (S3), the paired statistics of single rounds and whole games (Sc4), and runs
split over deal ranges read back as one table."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bench.peer_arena import _variant, next_deal, stored
from bench.peer_tables import (
    game_table,
    markdown_row,
    nearest_legal,
    read_rows,
    round_table,
    seatings,
    versus_games,
    versus_line,
    versus_table,
)
from catbox.solver.cards import variant

ROOT = Path(__file__).resolve().parent.parent
STORED = sorted((ROOT / "bench" / "peer-rows").glob("*.jsonl.gz"))


def test_seatings_rotate_catbox_round_the_table() -> None:
    assert seatings(4, 2) == [(0, 2), (1, 3)]
    assert seatings(3, 1) == [(0,), (1,), (2,)]
    assert seatings(3, 2) == [(0, 2), (0, 1), (1, 2)]
    five = seatings(5, 2)
    assert len(five) == 5 and all(len(s) == 2 for s in five)
    # every seat is catbox's equally often over the rotations
    assert Counter(x for s in five for x in s) == {0: 2, 1: 2, 2: 2, 3: 2, 4: 2}
    for bad in (0, 4):
        with pytest.raises(ValueError):
            seatings(4, bad)


def test_the_peers_predictions_move_to_the_nearest_allowed_value_S3() -> None:
    """The peer offers 1-4 at every count; the rules allow 1, 3, 4 at 3 players and 1, 2, 3 at
    4 and 5 (S3). A tie goes to the lower value, as the peer's own bidding breaks it."""
    three, four, five = (variant(n).predictions for n in (3, 4, 5))
    assert [nearest_legal(c, three) for c in (1, 2, 3, 4)] == [1, 1, 3, 4]
    assert [nearest_legal(c, four) for c in (1, 2, 3, 4)] == [1, 2, 3, 3]
    assert [nearest_legal(c, five) for c in (1, 2, 3, 4)] == [1, 2, 3, 3]
    with pytest.raises(ValueError):
        nearest_legal(2, variant(2).predictions)


def seating(mine: list[int], scores: list[int], paradox: int | None = None,
            hits: list[bool] | None = None, **kw: Any) -> dict[str, Any]:  # fmt: skip
    return {"mine": mine, "scores": scores, "paradox": paradox,
            "hits": hits or [False] * len(scores), **kw}  # fmt: skip


def test_round_table_pairs_the_seatings_of_each_deal() -> None:
    """Two deals at 4 players, catbox at A, C then B, D. Deal 1: (5 + 3) / 2 - (1 + 2) / 2 =
    +2.5, then (-1 + 0) / 2 - (2 + 4) / 2 = -3.5 (catbox's B caused the paradox): -0.5 per
    seat-round. Deal 2: +1 and +3: +2.0. Mean +0.75; the sample standard deviation of (-0.5,
    2.0) is 1.7678, so the interval is 0.75 +- 12.706 * 1.7678 / sqrt(2) = 0.75 +- 15.88."""
    rows = [
        {"seatings": [
            seating([0, 2], [5, 1, 3, 2], hits=[True, False, True, False],
                    miss=[None, "short", None, "over"], mapped=[[1, 4, 3]],
                    times=[["catbox", "aside", 0.5], ["peer", "aside", 0.0]]),
            seating([1, 3], [2, -1, 4, 0], paradox=1, miss=[None, None, "cut", "short"]),
        ]},
        {"seatings": [
            seating([0, 2], [3, 2, 2, 1], hits=[False, True, False, False]),
            seating([1, 3], [0, 4, 1, 3], paradox=0,
                    times=[["catbox", "aside", 1.5], ["catbox", 3, 0.1]]),
        ]},
    ]  # fmt: skip
    t = round_table(rows)
    d = t["score_diff"]
    assert t["deals"] == 2 and d.value == pytest.approx(0.75)
    assert d.ci95[0] == pytest.approx(0.75 - 15.882, abs=1e-2)
    assert d.ci95[1] == pytest.approx(0.75 + 15.882, abs=1e-2)
    # paradoxes: catbox's B in deal 1 (1 of its 8 seat-rounds), the peer's A in deal 2 (1 of 8)
    assert t["paradox_catbox"].value == t["paradox_peer"].value == pytest.approx(1 / 8)
    # paired per deal: deal 1 (0 - 0, 1/2 - 0) -> +0.25; deal 2 (0 - 0, 0 - 1/2) -> -0.25
    assert t["paradox_diff"].value == pytest.approx(0.0)
    assert t["paradox_diff"].ci95[1] > 0.25
    # hits: catbox A, C in deal 1; the peer's B in deal 2 and none else
    assert t["hits_catbox"].value == pytest.approx(2 / 8)
    assert t["hits_peer"].value == pytest.approx(1 / 8)
    # misses: the peer's B short and D over (deal 1, A C); the peer's C cut, catbox's D short
    assert t["timing"] == {"catbox_short": 1, "peer_cut": 1, "peer_over": 1, "peer_short": 1}
    assert t["mapped"] == {"4->3": 1} and t["peer_predictions"] == 8
    assert t["times"]["catbox/aside"] == (1.0, 1.5, 2)
    assert t["times"]["catbox/3"] == (0.1, 0.1, 1)
    # where the points come from: catbox's B caused deal 1's second paradox (-3.5), the peer's
    # A deal 2's (+3.0); no paradox in the two A, C seatings (+2.5, +1.0)
    assert t["by_cause"] == {"catbox": (1, -3.5), "peer": (1, 3.0), "none": (2, 1.75)}


def test_round_table_splits_each_sides_seat_rounds_by_prediction() -> None:
    """One deal, catbox at A, C then B, D, predictions 1, 2, 2, 3 in both seatings. First: A
    hit (score 5), B short (1), C over (3), D caused the paradox (-2). Second: A cut short (0),
    B hit (4), C hit (4), D over (2). Each seat-round counts for the side that sat there: A's
    hit and C's over for catbox first, B's and D's then; the rest for the peer."""
    preds = [1, 2, 2, 3]
    rows = [{"seatings": [
        seating([0, 2], [5, 1, 3, -2], paradox=3, hits=[True, False, False, False],
                miss=[None, "short", "over", None], preds=preds),
        seating([1, 3], [0, 4, 4, 2], hits=[False, True, True, False],
                miss=["cut", None, None, "over"], preds=preds),
    ]}]  # fmt: skip
    got = round_table(rows)["by_prediction"]
    # catbox: A (1) hit 5; C (2) over 3; then B (2) hit 4; D (3) over 2
    assert got["catbox"] == {
        1: {"seats": 1, "hit": 1, "short": 0, "cut": 0, "over": 0, "caused": 0, "score": 5.0},
        2: {"seats": 2, "hit": 1, "short": 0, "cut": 0, "over": 1, "caused": 0, "score": 3.5},
        3: {"seats": 1, "hit": 0, "short": 0, "cut": 0, "over": 1, "caused": 0, "score": 2.0},
    }
    # the peer: B (2) short 1; D (3) caused -2; then A (1) cut 0; C (2) hit 4
    assert got["peer"] == {
        1: {"seats": 1, "hit": 0, "short": 0, "cut": 1, "over": 0, "caused": 0, "score": 0.0},
        2: {"seats": 2, "hit": 1, "short": 1, "cut": 0, "over": 0, "caused": 0, "score": 2.5},
        3: {"seats": 1, "hit": 0, "short": 0, "cut": 0, "over": 0, "caused": 1, "score": -2.0},
    }


def test_versus_table_pairs_two_versions_on_the_deals_both_hold() -> None:
    """Version a against version b, the same bot, 4 players, catbox at A, C then B, D. Deal 0:
    a's score difference per seat-round (4 - 2 and 2 - 2, each side's mean) is +1.0, b's
    (2 - 2, 0 - 2) -1.0: +2.0. Deal 1: a +2.0 (3 - 1, 3 - 1), b +1.0: +1.0. Deal 2 only in a:
    left out. Mean +1.5, interval 1.5 +- 12.706 * 0.7071 / sqrt(2) = 1.5 +- 6.35. catbox's
    paradoxes per seat-round: b's C caused one in deal 0 (1 of 4: -25 per 100 for a), none in
    deal 1: -12.5 on the mean; hits: a's A and C in deal 1 (2 of 4), b's none: +25 on the mean."""

    def row(deal: int, first: list[int], second: list[int], paradox: int | None = None,
            hits: list[bool] | None = None) -> dict[str, Any]:  # fmt: skip
        return {"deal": deal, "seatings": [seating([0, 2], first, paradox, hits),
                                           seating([1, 3], second)]}  # fmt: skip

    a = [row(0, [4, 2, 4, 2], [2, 2, 2, 2]), row(1, [3, 1, 3, 1], [1, 3, 1, 3],
         hits=[True, False, True, False]), row(2, [9, 0, 9, 0], [0, 9, 0, 9])]  # fmt: skip
    b = [row(0, [2, 2, -2, 2], [2, 2, 2, 2], paradox=2), row(1, [2, 1, 2, 1], [1, 2, 1, 2])]
    t = versus_table(a, b)
    assert t["deals"] == 2
    assert t["score"].value == pytest.approx(1.5)
    assert t["score"].ci95[1] == pytest.approx(1.5 + 6.353, abs=1e-2)
    assert t["paradox"].value == pytest.approx(-0.125)
    assert t["hits"].value == pytest.approx(0.25)
    assert versus_table(a, [])["deals"] == 0


def test_an_experiments_rows_say_what_played_them() -> None:
    """Rows of the player as it is carry no note; an experiment's carry its settings, so they
    are never taken for the player's."""

    def ns(**kw: object) -> argparse.Namespace:
        return argparse.Namespace(**{"start_rule": "player", "hazard": None, **kw})

    assert _variant(ns()) == {}
    assert _variant(ns(start_rule="fixed")) == {"catbox": {"start_rule": "fixed"}}
    assert _variant(ns(hazard=0.1)) == {"catbox": {"hazard": 0.1}}


def test_round_table_with_one_catbox_seat_weighs_each_side_per_seat() -> None:
    """3 players, catbox in one seat at a time: its seat's score minus the mean of the other
    two. Seat A 4 vs (1 + 3) / 2 = 2: +2; seat B 0 vs 2.5: -2.5; seat C 6 vs 0: +6. The deal:
    +5.5 / 3 per seat-round; catbox's paradoxes: 1 of 3 seat-rounds, the peer's 0 of 6."""
    rows = [{"seatings": [
        seating([0], [4, 1, 3]),
        seating([1], [2, 0, 3], paradox=1),
        seating([2], [1, -1, 6], hits=[False, False, True]),
    ]}]  # fmt: skip
    t = round_table(rows)
    assert t["score_diff"].value == pytest.approx(5.5 / 3)
    assert t["paradox_catbox"].value == pytest.approx(1 / 3)
    assert t["paradox_peer"].value == pytest.approx(0.0)
    assert t["paradox_diff"].value == pytest.approx(1 / 3)
    assert t["hits_catbox"].value == pytest.approx(1 / 3)


def test_game_table_win_share_and_totals_Sc4() -> None:
    """Game 1, catbox at A, C: totals (10, 8, 7, 9) -> A wins: share 1. Catbox at B, D: totals
    (9, 9, 5, 4), tied on total, A and B tied in the last round too (3, 3): shared, catbox's
    share 1/2. Game share 0.75, totals paired: (8.5 - 8.5, 6.5 - 7) / 2 = -0.25. Game 2: the
    peer wins both seatings: 0. Mean share 0.375."""
    g1 = {"seatings": [
        {"mine": [0, 2], "rounds": [[7, 5, 4, 6], [3, 3, 3, 3]], "paradoxes": [None, 1]},
        {"mine": [1, 3], "rounds": [[6, 6, 4, 2], [3, 3, 1, 2]], "paradoxes": [3, None]},
    ]}  # fmt: skip
    g2 = {"seatings": [
        {"mine": [0, 2], "rounds": [[1, 5, 1, 2], [0, 2, 0, 1]]},
        {"mine": [1, 3], "rounds": [[5, 1, 2, 1], [2, 0, 1, 0]]},
    ]}  # fmt: skip
    t = game_table([g1, g2])
    assert t["games"] == 2
    assert t["win_share"].value == pytest.approx(0.375)
    # two games, shares 0.75 and 0: the t interval (about -4.4, +5.1) is cut to [0, 1]
    assert t["win_share"].ci95 == (0.0, 1.0)
    first = game_table([g1])
    assert first["win_share"].value == pytest.approx(0.75)
    assert first["total_diff"].value == pytest.approx(-0.25)
    assert first["total_catbox"].value == pytest.approx((8.5 + 6.5) / 2)
    # paradoxes per seat-round: the peer's B (seating 1, round 2), catbox's D (seating 2)
    assert first["paradox_catbox"].value == first["paradox_peer"].value == pytest.approx(1 / 8)


def test_versus_games_pairs_two_versions_game_by_game() -> None:
    """Version a against version b, one seating each (catbox at A, C). Game 0: a's totals
    (6, 2, 4, 3): A wins, share 1, total difference 5 - 2.5 = +2.5; b's (2, 6, 4, 3): B wins,
    share 0, difference 3 - 4.5 = -1.5; paired +1 and +4.0. Game 1: a's (1, 4, 1, 2) share 0,
    -2.0, C's paradox in round 2 (1 of catbox's 4 seat-rounds); b's (4, 1, 3, 2) share 1,
    +2.0: paired -1, -4.0, +0.25 paradoxes. Game 2 only in a: left out. Means: share 0, total
    0, paradoxes +0.125 per seat-round; the share's interval 0 +- 12.706 * 1.4142 / sqrt(2)."""

    def game(k: int, first: list[int], second: list[int], paradoxes: list[Any]) -> dict[str, Any]:
        return {"mode": "game", "game": k, "seatings": [
            {"mine": [0, 2], "rounds": [first, second], "paradoxes": paradoxes}]}  # fmt: skip

    a = [game(0, [3, 1, 2, 2], [3, 1, 2, 1], [None, None]),
         game(1, [1, 2, 1, 1], [0, 2, 0, 1], [None, 2]),
         game(2, [9, 0, 0, 0], [0, 0, 0, 0], [None, None])]  # fmt: skip
    b = [game(0, [1, 3, 2, 2], [1, 3, 2, 1], [None, None]),
         game(1, [2, 1, 2, 1], [2, 0, 1, 1], [None, None])]  # fmt: skip
    t = versus_games(a, b)
    assert t["games"] == 2 and t["common"] == [0, 1]
    assert t["share"].value == pytest.approx(0.0)
    assert t["share"].ci95[1] == pytest.approx(12.706, abs=1e-2)
    assert t["total"].value == pytest.approx(0.0)
    assert t["paradox"].value == pytest.approx(0.125)
    assert versus_games(a, [])["games"] == 0
    line = versus_line("g", a, b)
    assert line.startswith("| `g` | 2 (0-1) | +0.0 [")


def test_rows_split_over_deal_ranges_read_back_as_one_table(tmp_path: Path) -> None:
    """Two runs over deal ranges (one file each, overlapping on deal 1) and other tables'
    rows: the store keeps one row per deal of the asked table."""

    def row(d: int, diff: int, bot: str = "heuristic_safe14", players: int = 4) -> str:
        s = [seating([0, 2], [diff, 0, diff, 0]), seating([1, 3], [0, diff, 0, diff])]
        return json.dumps({"mode": "round", "players": players, "bot": bot, "deal": d,
                           "seatings": s})  # fmt: skip

    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("\n".join([row(0, 1), row(1, 2), row(0, 5, bot="ismcts2/500")]) + "\n")
    b.write_text("\n".join([row(1, 2), row(2, 3), row(2, 9, players=3)]) + "\n")
    rows = stored([a, b, tmp_path / "absent.jsonl"], "round", 4, "heuristic_safe14")
    assert [r["deal"] for r in rows] == [0, 1, 2]
    assert round_table(rows)["score_diff"].value == pytest.approx(2.0)
    assert len(stored([a, b], "round", None, None)) == 5
    assert next_deal(a, "round", 4, "heuristic_safe14") == 2
    assert next_deal(a, "round", 4, "ismcts2") == 1
    assert next_deal(b, "round", 3, "heuristic_safe14") == 3
    assert next_deal(b, "game", 4, "heuristic_safe14") == 0
    assert next_deal(tmp_path / "absent.jsonl", "round", 4, "heuristic_safe14") == 0


def test_the_stored_rows_are_every_table_the_benchmark_publishes() -> None:
    names = {p.name.split(".")[0] for p in STORED}
    assert {f"round-{n}p-heuristic_safe14" for n in (3, 4, 5)} <= names
    assert {"round-4p-ismcts2", "game-4p-heuristic_safe14"} <= names


@pytest.mark.parametrize("path", STORED, ids=lambda p: p.name)
def test_the_published_figures_are_the_stored_rows_figures(path: Path) -> None:
    """bench/README.md's table of the peer arena holds, for every file of stored rows, the
    line ``peer_arena.py --tables bench/peer-rows/*.gz --markdown`` computes from them: each
    figure published is the rows' own, and the rows are one table, each deal (or game) once."""
    rows = read_rows(path)
    assert len({(r["mode"], r["players"], r["bot"]) for r in rows}) == 1
    keys: list[int] = [r["deal"] if "deal" in r else r["game"] for r in rows]
    assert keys == sorted(set(keys))
    line = markdown_row(path.name.split(".")[0], rows)
    assert line in (ROOT / "bench" / "README.md").read_text(encoding="utf-8").splitlines()


PEER_ROWS = ROOT / "bench" / "peer-rows"
FRESH = sorted(PEER_ROWS.glob("fresh/*.jsonl.gz"))


@pytest.mark.parametrize("path", FRESH, ids=lambda p: p.name)
def test_the_fresh_deals_are_after_their_tables_deals_and_published(path: Path) -> None:
    """bench/peer-rows/fresh holds rows of a table's own kind on deals after the ones the table
    was read on, played by the player as it is; bench/README.md holds their line
    (``--tables bench/peer-rows/fresh/*.gz --markdown``)."""
    rows = read_rows(path)
    table = read_rows(PEER_ROWS / path.name)
    assert {(r["mode"], r["players"], r["bot"]) for r in rows} == {
        (r["mode"], r["players"], r["bot"]) for r in table
    }
    assert all("catbox" not in r for r in rows)
    deals = [r["deal"] for r in rows]
    assert deals == sorted(set(deals)) and deals[0] > max(r["deal"] for r in table)
    line = markdown_row(path.name.split(".")[0], rows)
    assert line in (ROOT / "bench" / "README.md").read_text(encoding="utf-8").splitlines()


# an experiment is kept beside the player it was played against: the player's rows in a folder,
# its experiments in that folder's experiments/ (bench/peer-rows: the player as it is;
# bench/peer-rows/previous: the player before its last change, for the experiments played then)
EXPERIMENTS = sorted(PEER_ROWS.glob("experiments/*.jsonl.gz")) + sorted(
    PEER_ROWS.glob("previous/experiments/*.jsonl.gz")
)
PREVIOUS = sorted(PEER_ROWS.glob("previous/*.jsonl.gz"))


@pytest.mark.parametrize("path", EXPERIMENTS, ids=lambda p: p.name)
def test_the_experiments_figures_are_their_stored_rows_paired_with_the_players(path: Path) -> None:
    """bench/README.md's tables of experiments hold, for every file of an experiment's rows,
    the line ``--tables DIR/experiments/*.gz --against DIR/*.gz --markdown`` computes (DIR:
    the folder of the player it was played against): its rows paired deal by deal with that
    player's stored rows of the same table, and the line of its own table against the peer
    (``--tables DIR/experiments/*.gz --markdown``). Every row says which experiment played it
    (never the player as it is), each deal once."""
    rows = read_rows(path)
    assert rows and rows[0].get("catbox") and all(r["catbox"] == rows[0]["catbox"] for r in rows)
    mode = rows[0]["mode"]
    deals = [r["deal" if mode == "round" else "game"] for r in rows]
    assert deals == sorted(set(deals))
    players, bot = rows[0]["players"], rows[0]["bot"]
    theirs = read_rows(path.parent.parent / f"{mode}-{players}p-{bot.split('/')[0]}.jsonl.gz")
    assert theirs
    name = path.name.split(".")[0]
    lines = (ROOT / "bench" / "README.md").read_text(encoding="utf-8").splitlines()
    assert versus_line(name, rows, theirs) in lines
    assert markdown_row(name, rows) in lines


@pytest.mark.parametrize("path", PREVIOUS, ids=lambda p: p.name)
def test_the_player_is_paired_with_its_previous_version_on_every_table_it_changed(
    path: Path,
) -> None:
    """bench/peer-rows/previous holds the previous player's rows of each table the last change
    played again (each marked with what it lacked), and bench/README.md holds their own line
    (``--tables bench/peer-rows/previous/*.gz --markdown``) and the player's rows paired with
    them (``--tables bench/peer-rows/*.gz --against bench/peer-rows/previous/*.gz --markdown``),
    every deal of theirs played by the player too."""
    old = read_rows(path)
    assert old and old[0].get("catbox") and all(r["catbox"] == old[0]["catbox"] for r in old)
    now = read_rows(PEER_ROWS / path.name)
    assert now and all("catbox" not in r for r in now)
    key = "deal" if now[0]["mode"] == "round" else "game"
    assert {r[key] for r in old} <= {r[key] for r in now}
    name = path.name.split(".")[0]
    lines = (ROOT / "bench" / "README.md").read_text(encoding="utf-8").splitlines()
    assert versus_line(name, now, old) in lines
    assert markdown_row(name, old) in lines
