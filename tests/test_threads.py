"""Threads searching the rows of a table (``Limits.threads``, ``catbox analyze --threads``):
no answer depends on the thread count. The same ``analyze`` JSON for 1 and 2 threads on
positions of 2-5 players, at trick boundaries and mid-trick; the rows a node limit cuts are
the same for any thread count (a node limit keeps one thread, in order); the second thread
searches with an engine of its own (engines are never shared between threads)."""

from __future__ import annotations

import threading

import pytest

from catbox.solver.analysis import analyze
from catbox.solver.deal import random_position
from catbox.solver.formats import position_to_line
from catbox.solver.limits import Limits
from catbox.solver.position import Position
from catbox.solver.search import Session, analyze_moves
from catbox.solver.search import api as search_api
from catbox.solver.search.session import AnyEngine
from catbox.solver.search.state import State
from catbox.solver.shapes import analyze_json

from .clirun import run

CASES = [  # (players, tricks left, plays made in the current trick)
    (2, 3, 0),
    (3, 4, 0),
    (3, 3, 2),
    (4, 3, 0),
    (4, 3, 1),
    (5, 2, 3),
]


def _json(pos: Position, threads: int) -> object:
    rows = analyze(pos, limits=Limits(threads=threads), session=Session())
    return analyze_json(pos, rows, "proven")


@pytest.mark.parametrize(("players", "left", "mid"), CASES)
def test_analyze_json_is_the_same_for_one_and_two_threads(
    players: int, left: int, mid: int
) -> None:
    pos = random_position(players, 40 + players + left, left, mid_trick=mid)
    one = _json(pos, 1)
    assert _json(pos, 2) == one
    assert _json(pos, 3) == one


def test_cli_analyze_prints_the_same_json_for_threads_1_and_2() -> None:
    line = position_to_line(random_position(3, 7, 4))
    outs = [run("analyze", line, "--json", "--threads", n) for n in (1, 2)]
    assert outs[0][0] == 0 and outs[0][1] == outs[1][1]
    assert run("analyze", line, "--threads", "-1")[0] == 2  # a usage error, not a crash


def test_a_node_limit_cuts_the_same_rows_whatever_the_threads() -> None:
    pos = random_position(4, 3, 4)
    cut = [analyze_moves(pos, limits=Limits(node_limit=20_000, threads=t)) for t in (1, 2)]
    assert cut[0] == cut[1]
    assert any(r.status == "unknown" for r in cut[0])  # the limit did cut rows
    full = analyze_moves(pos, session=Session())
    for a, b in zip(cut[0], full, strict=True):  # a cut row is unknown, never wrong
        assert a.status == "unknown" or a == b


def test_the_second_thread_searches_rows_with_an_engine_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pos = random_position(3, 11, 4)
    seen: dict[int, set[int]] = {}
    answers = search_api._answers

    def spy(eng: AnyEngine, st: State) -> object:
        seen.setdefault(threading.get_ident(), set()).add(id(eng))
        return answers(eng, st)

    monkeypatch.setattr(search_api, "_answers", spy)
    main = Session()
    rows = analyze_moves(pos, limits=Limits(threads=2), session=main)
    engines = [e for ids in seen.values() for e in ids]
    monkeypatch.undo()
    assert rows == analyze_moves(pos, session=Session())
    assert len(engines) == len(set(engines)) == len(seen)  # one engine per thread, never shared
    assert main.engine_count == 1  # the helper's engine is not kept in the caller's session


def test_an_error_in_any_thread_reaches_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    pos = random_position(3, 11, 3)
    calls: list[int] = []
    answers = search_api._answers

    def second_fails(eng: AnyEngine, st: State) -> object:
        calls.append(threading.get_ident())
        if len(calls) > 1:
            raise RuntimeError("a bug in a row")
        return answers(eng, st)

    monkeypatch.setattr(search_api, "_answers", second_fails)
    with pytest.raises(RuntimeError, match="a bug in a row"):
        analyze_moves(pos, limits=Limits(threads=2), session=Session())
