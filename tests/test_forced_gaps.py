"""No silent gaps (analysis.md, "Partial answers"): when a limit stops the forced search, the
best score is either proven exactly or ``unknown`` with a proven interval that holds the true
score, through the question-by-question fallback too; a report is never ``proven`` with the
score missing (unless it depends on an unknown prediction)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from catbox.solver.deal import random_position
from catbox.solver.forcing import (
    ForcedReport,
    bounds_met,
    forced_report,
    no_avoidance_report,
    score_bounds,
    set_bounds,
)
from catbox.solver.limits import Limits
from catbox.solver.search import Session, clear_cache, forced


def _cases() -> list[tuple[int, int]]:
    return [(seed, left) for seed in range(12) for left in (2, 3)]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_score_bounds_hold_the_exact_score(players: int) -> None:
    """score_bounds from each settled fact (nothing, paradox avoidance, at least k) holds the
    exact best score of the full search."""
    checked = 0
    for seed, left in _cases():
        pos = random_position(players, 300 + seed, left)
        seat = pos.to_play
        assert seat is not None
        for s in {seat, (seat + 1) % players}:
            exact = forced(pos, s)
            assert exact.status == "proven"
            if exact.best_score is None:
                continue
            for g, al in (
                (None, None),
                (exact.guaranteed, None),
                (exact.guaranteed, exact.at_least),
            ):
                b = score_bounds(pos, s, g, al)
                assert b is not None
                assert b[0] <= exact.best_score <= b[1], (players, seed, left, s, g, al, b)
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("players", [3, 4])
def test_a_node_limit_gives_the_score_or_its_bounds(players: int) -> None:
    """With a node limit below the whole forced search the fallback answers one question at a
    time: its score is the exact one or unknown with an interval around it, and its status is
    proven only when every value is there. (16 seeds: the static bounds answer more of the
    searches of 10 within the cuts since BOUND_LOST_TRICK: 3 players then fell back twice.)"""
    fallbacks = bounded = 0
    for seed in range(16):
        pos = random_position(players, 500 + seed, 4)
        seat = pos.to_play
        assert seat is not None
        clear_cache()
        exact = forced(pos, seat)
        if exact.best_score is None or exact.nodes < 2000:
            continue
        for cut in (3, 10):
            clear_cache()
            r = forced_report(pos, seat, limits=Limits(node_limit=exact.nodes // cut))
            if r.status == "proven":
                assert r.best_score == exact.best_score
                assert r.guaranteed == exact.guaranteed
                continue
            fallbacks += 1
            if r.best_score is not None:
                assert r.best_score == exact.best_score
            else:
                lo, hi = r.bounds["best_score"]
                assert lo <= exact.best_score <= hi
                bounded += 1
            if r.guaranteed is not None:
                assert r.guaranteed == exact.guaranteed
    assert fallbacks >= 3 and bounded >= 3


def test_no_avoidance_report_searches_the_score_or_bounds_it() -> None:
    """S cannot avoid its paradox: with time the score is searched exactly, without any it is
    unknown with an interval around it (-(tricks + left - 1) .. -tricks), never missing."""
    seen = 0
    for seed in range(40):
        pos = random_position(4, 600 + seed, 3)
        seat = pos.to_play
        assert seat is not None
        exact = forced(pos, seat)
        if exact.guaranteed is not False or exact.best_score is None:
            continue
        seen += 1
        r = no_avoidance_report(pos, seat, 1, True, 0, Limits(None).start())
        assert (r.status, r.best_score, r.forceable) == ("proven", exact.best_score, ())
        r = no_avoidance_report(pos, seat, 1, True, 0, Limits(0.0).start())
        assert r.status == "unknown" and r.best_score is None
        lo, hi = r.bounds["best_score"]
        assert lo <= exact.best_score <= hi == -pos.seats[seat].tricks
    assert seen >= 3


def test_a_score_whose_bounds_meet_is_proven(monkeypatch: pytest.MonkeyPatch) -> None:
    """S cannot avoid its paradox and the score's probes proved its value, but the limit cut
    the line that follows them (or the bounds met another way): the score is proven, not
    "unknown" with a one-point interval."""
    import catbox.solver.search as search

    for seed in range(40):
        pos = random_position(4, 600 + seed, 3)
        seat = pos.to_play
        assert seat is not None
        exact = forced(pos, seat)
        if exact.guaranteed is False and exact.best_score is not None:
            break
    else:
        raise AssertionError("no position without paradox avoidance")
    v = exact.best_score
    # a proven interval passed in, no time left to search: it decides alone
    r = no_avoidance_report(pos, seat, 1, True, 0, Limits(0.0).start(), proven=[v, v])
    assert (r.status, r.best_score, r.bounds) == ("proven", v, {})
    r = no_avoidance_report(pos, seat, 1, True, 0, Limits(0.0).start(), proven=[v - 1, v])
    assert (r.status, r.best_score, r.bounds) == ("unknown", None, {"best_score": [v - 1, v]})

    def cut(*args: object, on_bound: Callable[[int, int], None], **kw: object) -> tuple[None, None]:
        on_bound(v - 1, v + 1)
        on_bound(v, v)  # the last probe settles it; then the line is cut
        return None, None

    monkeypatch.setattr(search, "best_score_line", cut)
    r = no_avoidance_report(pos, seat, 1, True, 0, Limits(None).start())
    assert (r.status, r.best_score) == ("proven", v)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bounds_that_meet_are_answers(players: int) -> None:
    """forced.bounds_met: a report whose every bound is pinned to the exact answer (a point
    interval, a set whose in and out cover every count) reads as the exact report, proven;
    one bound left open keeps it unknown with the rest read; sampled deals are left alone."""
    seen = {True: 0, False: 0}
    for seed in range(8):
        pos = random_position(players, 900 + seed, 3)
        seat = pos.to_play
        assert seat is not None
        ex = forced(pos, seat)
        now = pos.seats[seat].tricks
        every = set(range(now, now + pos.tricks_left + 1))
        assert ex.forceable is not None
        b: dict[str, object] = {"forceable": set_bounds(set(ex.forceable), every)}
        if ex.best_score is not None:
            b["best_score"] = [ex.best_score, ex.best_score]
        if ex.guaranteed:
            b["at_least"], b["at_most"] = [ex.at_least] * 2, [ex.at_most] * 2
        fr = ForcedReport(
            seat,
            ex.guaranteed,
            None,
            None,
            None,
            None,
            "unknown",
            0,
            1,
            True,
            None,
            b,
        )
        got = bounds_met(fr, pos)
        assert (got.status, got.bounds) == ("proven", {})
        assert (got.forceable, got.at_least, got.at_most, got.best_score) == (
            ex.forceable, ex.at_least, ex.at_most, ex.best_score
        )  # fmt: skip
        seen[bool(ex.guaranteed)] += 1
        # the guaranteed answer not settled: the rest is read, the report stays unknown
        got = bounds_met(replace(fr, guaranteed=None), pos)
        assert (got.status, got.forceable, got.best_score) == (
            "unknown",
            ex.forceable,
            ex.best_score,
        )
        # one count undecided: forceable stays a bound
        k = max(every - set(ex.forceable))
        f_open = set_bounds(set(ex.forceable), every - {k})
        got = bounds_met(replace(fr, bounds={**b, "forceable": f_open}), pos)
        assert (got.status, got.forceable, got.bounds) == ("unknown", None, {"forceable": f_open})
        if ex.guaranteed:  # at least / at most open: a row of the table is proven all the same
            rest = {k: v for k, v in b.items() if k not in ("at_least", "at_most")}
            assert bounds_met(replace(fr, bounds=rest), pos).status == "unknown"
            assert bounds_met(replace(fr, bounds=rest), pos, extremes=False).status == "proven"
            wide = {**rest, "at_least": [now, now + pos.tricks_left]}  # open, and not shown
            assert bounds_met(replace(fr, bounds=wide), pos).status == "unknown"
            row = bounds_met(replace(fr, bounds=wide), pos, extremes=False)
            assert (row.status, row.bounds, row.forceable) == ("proven", {}, ex.forceable)
        for deals, exact in ((2, True), (1, False)):  # over several or sampled deals: as given
            other = replace(fr, deals=deals, exact_deals=exact)
            assert bounds_met(other, pos) == other
    assert players == 2 or min(seen.values()) >= 1, seen


def _collect(into: list[tuple[int, int]]) -> Callable[[int, int], None]:
    def tell(lo: int, hi: int) -> None:
        into.append((lo, hi))

    return tell


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_cut_score_search_keeps_the_bounds_its_probes_proved(players: int) -> None:
    """Every MTD(f) probe of the score's search proves a bound (api.best_score_line's
    ``on_bound``): each interval it reports holds the exact score, they only narrow, the last
    one of a finished search is the score itself, and a search cut by a node limit leaves one
    narrower than the static bounds -- what the reports show (forced._score_exactly) -- in
    both regimes (S can or cannot avoid its paradox)."""
    from catbox.solver.search import best_score_line

    narrower = {True: 0, False: 0}
    for seed in range(12):
        pos = random_position(players, 700 + seed, 3 if players == 5 else 4)
        seat = pos.to_play
        assert seat is not None
        clear_cache()
        exact = forced(pos, seat)
        v = exact.best_score
        if v is None:
            continue
        static = score_bounds(pos, seat, None)
        for cut in (10, 30, 100, 300, 3000, None):
            clear_cache()
            seen: list[tuple[int, int]] = []
            got, _ = best_score_line(
                pos,
                seat,
                limits=Limits(node_limit=cut),
                on_bound=_collect(seen),
            )
            for (lo0, hi0), (lo, hi) in zip([(-99, 99), *seen], seen, strict=False):
                assert lo0 <= lo <= v <= hi <= hi0, (seed, cut, seen, v)
            if got is not None:
                assert got == v and seen[-1] == (v, v)
                break
            if seen and static is not None and (seen[-1][0] > static[0] or seen[-1][1] < static[1]):
                narrower[bool(exact.guaranteed)] += 1
    # (at 2 players the static bounds know the bonus; at 5 with 3 tricks left S avoids its
    # paradox on all twelve deals)
    assert (players == 5 or narrower[False] >= 1) and (players == 2 or narrower[True] >= 1)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_an_analyze_row_cut_in_its_score_keeps_the_interval_its_probes_proved(
    players: int,
) -> None:
    """A row of analyze_moves whose score a node limit cuts keeps the interval its probes
    proved (MoveRow.score_bounds): it holds the row's exact score, and analysis shows the row
    within it and the row's static bounds (_with_settled), narrower than the static bounds
    alone on some rows."""
    from catbox.solver.analysis import _with_settled
    from catbox.solver.search import analyze_moves

    kept = 0
    for seed in range(700, 706 if players < 5 else 703):
        pos = random_position(players, seed, 6 if players == 3 else 5 if players == 4 else 4)
        seat = pos.to_play
        assert seat is not None
        full = {r.play: r for r in analyze_moves(pos, session=Session())}
        for cut in (20_000, 60_000, 200_000):
            for r in analyze_moves(pos, limits=Limits(node_limit=cut), session=Session()):
                if r.score_bounds is None:
                    continue
                v = full[r.play].best_score
                assert v is not None and r.best_score is None and r.status == "unknown"
                lo, hi = r.score_bounds
                assert lo <= v <= hi, (seed, cut, r)
                after = pos.play(r.play)
                static = score_bounds(after, seat, r.guaranteed)
                assert static is not None
                unknown = ForcedReport(
                    seat, None, None, None, None, None, "unknown", 0, 1, True, None,
                    {"best_score": score_bounds(after, seat, None) or [-99, 99]},
                )  # fmt: skip
                shown = _with_settled(unknown, r, after, seat).bounds["best_score"]
                assert max(lo, static[0]) <= shown[0] <= v <= shown[1] <= min(hi, static[1])
                kept += shown != static  # the probes proved what the static bounds do not
    assert kept >= 3
