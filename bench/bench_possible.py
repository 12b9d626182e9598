"""Benchmark of the "possible" questions (issue #3): in-process solve times per query.

Positions come from ``random_position`` with fixed seeds: 3, 4 and 5 players at 8/6/4/2 tricks
left (7/6/4/2 at 5 players), all hands known or every hand but the asking seat's hidden. For each
query (paradox: possible + round_possible in one call; the trick set) it prints the median and max
time and the number of ``unknown`` answers, writes JSON to ``bench/results/possible.json`` and,
where the exhaustive reference (tests/reference.py) finishes within a budget, the time ratio.

    .venv/bin/python bench/bench_possible.py --quick
    .venv/bin/python bench/bench_possible.py --seeds 10 --time-limit 60
"""

from __future__ import annotations

import argparse
import json
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from catbox.solver.deal import random_position  # noqa: E402
from catbox.solver.limits import Limits  # noqa: E402
from catbox.solver.possible import paradox_possible, tricks_possible  # noqa: E402
from tests.reference import possible as reference  # noqa: E402


class _Budget(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Budget


def _reference_time(pos: Any, seat: int, budget: float) -> float | None:
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, budget)
    t0 = time.perf_counter()
    try:
        reference(pos, seat)
        return time.perf_counter() - t0
    except (_Budget, RecursionError):
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _stats(xs: list[float]) -> dict[str, float]:
    if not xs:
        return {"median": float("nan"), "p95": float("nan"), "max": float("nan")}
    s = sorted(xs)
    return {
        "median": statistics.median(s),
        "p95": s[min(len(s) - 1, round(0.95 * (len(s) - 1)))],
        "max": s[-1],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="few seeds, for a smoke run")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--reference-budget", type=float, default=5.0)
    args = ap.parse_args()
    seeds = 2 if args.quick else args.seeds
    # warm up the lazy imports (ortools) so the first row is not charged for them
    paradox_possible(random_position(4, 0, 8), 0, method="cp-sat")
    rows: list[dict[str, Any]] = []
    header = (
        f"{'pl':>2} {'left':>4} {'hands':>6} | {'paradox med':>11} {'p95':>6} {'max':>6} {'unk':>3}"
        f" | {'tricks med':>10} {'p95':>6} {'max':>6} {'unk':>3} | {'methods':<22} | ref ratio"
    )
    print(header)
    print("-" * len(header))
    for players in (3, 4, 5):
        lefts = (7, 6, 4, 2) if players == 5 else (8, 6, 4, 2)
        for left in lefts:
            for hidden in (False, True):
                para_t: list[float] = []
                trick_t: list[float] = []
                unk_p = unk_t = 0
                methods: dict[str, int] = {}
                ratios: list[float] = []
                for seed in range(seeds):
                    hide = tuple(range(1, players)) if hidden else ()
                    pos = random_position(players, 1000 + seed, left, hide=hide)
                    t0 = time.perf_counter()
                    a = paradox_possible(pos, 0, limits=Limits(args.time_limit))
                    t1 = time.perf_counter()
                    t = tricks_possible(pos, 0, limits=Limits(args.time_limit))
                    t2 = time.perf_counter()
                    para_t.append(t1 - t0)
                    trick_t.append(t2 - t1)
                    unk_p += a.status == "unknown"
                    unk_t += t.status == "unknown"
                    for m in (a.method, t.method):
                        methods[m] = methods.get(m, 0) + 1
                    if left <= 2 and not hidden:
                        ref = _reference_time(pos, 0, args.reference_budget)
                        if ref is not None:
                            ratios.append(ref / max(t2 - t0, 1e-6))
                ps, ts = _stats(para_t), _stats(trick_t)
                ratio = f"{statistics.median(ratios):.1f}x ({len(ratios)})" if ratios else "-"
                meth = ",".join(f"{k}:{v}" for k, v in sorted(methods.items()))
                print(
                    f"{players:>2} {left:>4} {'hidden' if hidden else 'known':>6} | "
                    f"{ps['median']:>11.3f} {ps['p95']:>6.3f} {ps['max']:>6.3f} {unk_p:>3}"
                    f" | {ts['median']:>10.3f} {ts['p95']:>6.3f} {ts['max']:>6.3f} {unk_t:>3}"
                    f" | {meth:<22} | {ratio}",
                    flush=True,
                )
                rows.append(
                    {
                        "players": players,
                        "tricks_left": left,
                        "hands": "hidden" if hidden else "known",
                        "seeds": seeds,
                        "paradox": {**ps, "unknown": unk_p},
                        "tricks": {**ts, "unknown": unk_t},
                        "methods": methods,
                        "reference_ratio_median": statistics.median(ratios) if ratios else None,
                    }
                )
    out = ROOT / "bench" / "results" / "possible.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"time_limit": args.time_limit, "rows": rows}, indent=2))
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
