"""The rows of ``analyze`` under a limit are searched in rounds (search/families.py
``rows_in_rounds``, ``RowRounds``): every row gets its first probes before any row is dug to
the end, so a node limit that cuts the table leaves every row with a proven score interval
(analysis.md, "Partial answers"), narrower than the static one (Sc1-Sc3); the answers a node
budget cuts are the same on every run and for every thread count; a time limit with threads
gives the unlimited answers when it does not run out."""

from __future__ import annotations

import pytest

from catbox.solver.analysis import _with_settled
from catbox.solver.deal import random_position
from catbox.solver.forcing import ForcedReport, score_bounds
from catbox.solver.limits import Limits
from catbox.solver.search import Session, analyze_moves, families
from catbox.solver.search.native import NativeEngine
from catbox.solver.search.partial import Partial
from catbox.solver.search.session import AnyEngine
from catbox.solver.search.state import State

# (players, tricks left, seed, node limit): positions whose table the limit cuts (a row or
# more unknown) after every row had its first round. Searched row after row (the order before
# the rounds) the same limits left 2 of 8, 5 of 10 and 4 of 7 rows without a probe.
CUT = [(3, 6, 701, 600_000), (5, 4, 700, 600_000), (3, 6, 707, 600_000)]


@pytest.mark.parametrize(("players", "left", "seed", "cut"), CUT)
def test_a_node_limit_leaves_every_row_a_proven_score_interval(
    players: int, left: int, seed: int, cut: int
) -> None:
    """Sc1-Sc3: every row cut by the node limit shows an interval that holds its exact score
    (computed without a limit) and is narrower than the static one: each had probes."""
    pos = random_position(players, seed, left)
    seat = pos.to_play
    assert seat is not None
    full = {r.play: r for r in analyze_moves(pos, session=Session())}
    rows = analyze_moves(pos, limits=Limits(node_limit=cut), session=Session())
    assert any(r.status == "unknown" for r in rows)  # the limit did cut the table
    narrower = 0
    for r in rows:
        v = full[r.play].best_score
        assert v is not None
        if r.status == "proven":
            assert r == full[r.play]
            continue
        if r.best_score is not None:  # its score settled, a later family cut
            assert r.best_score == v
            continue
        assert r.score_bounds is not None, r  # its probes proved an interval
        lo, hi = r.score_bounds
        assert lo <= v <= hi, (r, v)
        after = pos.play(r.play)
        unknown = ForcedReport(
            seat, None, None, None, None, None, "unknown", 0, 1, True, None,
            {"best_score": score_bounds(after, seat, None) or [-99, 99]},
        )  # fmt: skip
        shown = _with_settled(unknown, r, after, seat).bounds["best_score"]
        static = score_bounds(after, seat, r.guaranteed)
        assert static is not None
        assert static[0] <= shown[0] <= v <= shown[1] <= static[1]
        narrower += shown != static
    assert narrower == sum(r.status == "unknown" and r.best_score is None for r in rows)


def test_every_row_has_a_round_before_any_row_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    """The budgets each row's families are asked with: a row's second round (a budget
    ROUND_GROWTH times the first) comes only after every row had its first; paradox
    avoidance, which the rest of a row needs, goes to its end (the limit's remainder)."""
    pos = random_position(3, 702, 6)
    budgets: list[int | None] = []
    asked: list[tuple[int, families.Family, int | None]] = []  # row's state, family, budget
    set_budget = NativeEngine.set_budget
    ask = families.ask_family

    def spy_budget(self: NativeEngine, nodes: int | None, seconds: float | None) -> None:
        budgets.append(nodes)
        set_budget(self, nodes, seconds)

    def spy_ask(
        eng: AnyEngine, st: State, out: Partial, family: families.Family
    ) -> tuple[Partial, bool]:
        asked.append((hash(st), family, budgets[-1]))
        return ask(eng, st, out, family)

    monkeypatch.setattr(NativeEngine, "set_budget", spy_budget)
    monkeypatch.setattr(families, "ask_family", spy_ask)
    rows = analyze_moves(pos, limits=Limits(node_limit=1_000_000), session=Session())
    monkeypatch.undo()
    first, second = families.round_budget(0), families.round_budget(1)
    assert first is not None and second is not None
    assert all(b is not None and b > first for _, f, b in asked if f is families.ask_safe)
    rounds = [(st, b) for st, f, b in asked if f is not families.ask_safe]
    assert len({st for st, b in rounds if b == first}) == len(rows)  # every row's first round
    later = next(i for i, (_, b) in enumerate(rounds) if b == second)
    assert {st for st, _ in rounds[:later]} == {st for st, _ in rounds}  # before any second


@pytest.mark.parametrize(("players", "left", "seed"), [(3, 6, 701), (4, 5, 701)])
def test_a_node_budget_cuts_the_same_answers_every_run_and_thread_count(
    players: int, left: int, seed: int
) -> None:
    pos = random_position(players, seed, left)
    for cut in (100_000, 300_000):
        runs = [
            analyze_moves(pos, limits=Limits(node_limit=cut, threads=t), session=Session())
            for t in (1, 1, 2)
        ]
        assert runs[0] == runs[1] == runs[2]
        assert any(r.status == "unknown" for r in runs[0])


@pytest.mark.parametrize(("players", "left", "seed"), [(3, 4, 711), (4, 4, 3), (5, 3, 702)])
def test_a_time_limit_with_threads_that_does_not_run_out_gives_the_unlimited_rows(
    players: int, left: int, seed: int
) -> None:
    """The rounds shared between two threads (RowRounds, racing the last rows) end with every
    row proven, as the unlimited search in one thread."""
    pos = random_position(players, seed, left)
    full = analyze_moves(pos, session=Session())
    assert analyze_moves(pos, limits=Limits(600.0, threads=2), session=Session()) == full
    assert analyze_moves(pos, limits=Limits(600.0), session=Session()) == full


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_first_probe_from_the_top_holds_the_exact_score(players: int) -> None:
    """ask_top's interval (Sc1-Sc3) holds the exact best score, in the paradox regime and out
    of it, on both engines, at trick starts and mid-trick; it is narrower than the range it
    starts from on every position."""
    from catbox.solver.search import forced

    checked = 0
    for seed in range(6):
        for left, mid in ((2, 0), (3, 0), (3, 1)):
            pos = random_position(players, 300 + seed, left, mid_trick=mid)
            seat = pos.to_play
            assert seat is not None
            v = forced(pos, seat, session=Session()).best_score
            for kind in ("native", "python"):
                eng, _ = Session().engine(pos, seat, fresh=True, kind=kind)
                st = eng.state_of(pos)
                got = list(families.ask_top(eng, st, Partial()))
                if not got:  # the score depends on S's unknown prediction
                    assert v is None
                    continue
                bounds = got[-1].score_bounds
                assert bounds is not None and v is not None
                assert bounds[0] <= v <= bounds[1], (seed, left, mid, kind, bounds, v)
                assert bounds[1] < families._score_range(eng, st)[1]
                checked += 1
    assert checked >= 20
