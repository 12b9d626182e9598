"""Benchmark of issue #9: analyze and review anywhere in the round, and the --time-limit promise.

Figures (fixed seeds; medians and maxima):

- ``analyze`` at the first play of a full deal (``catbox new`` seeds 0..9), every hand known:
  the in-process time until every row's possible trick counts and paradox avoidance are proven
  (``rows_possible``, all rows), and the whole ``catbox analyze --json --time-limit T`` process
  (T = 5 s at 4 players, 10 s at 5) with the number of rows whose possible columns it proved;
- the possible trick set at the full 4-player deal (``tricks_possible``, the seeds of
  bench_possible.py: ``random_position(4, 1000 + s, 8)``, seat A);
- ``catbox review`` of ``puzzles/records/four-player-round.toml`` with the default limits:
  wall time and plays with a verdict;
- ``--time-limit T`` overshoot of every command (analyze, paradox, tricks, review, solve) on
  hard positions, whole process (target: within T + 2 s).

    .venv/bin/python bench/bench_analyze.py --quick
    .venv/bin/python bench/bench_analyze.py --seeds 10
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from catbox.solver import formats  # noqa: E402
from catbox.solver.deal import deal_round, random_position  # noqa: E402
from catbox.solver.limits import Limits  # noqa: E402
from catbox.solver.possible import colour_classes, rows_possible, tricks_possible  # noqa: E402
from catbox.solver.puzzle import Goal, Puzzle  # noqa: E402

EXE = str(Path(sys.executable).with_name("catbox"))
ENV = {**os.environ, "CATBOX_NO_PROGRESS": "1"}
CAP = 60.0  # in-process cap of one table's possible columns (a 5-player tail runs for minutes)


def _cli(*args: str) -> tuple[float, Any]:
    t = time.perf_counter()
    res = subprocess.run([EXE, *args], capture_output=True, text=True, env=ENV, check=False)
    dt = time.perf_counter() - t
    try:
        out = json.loads(res.stdout)
    except json.JSONDecodeError:
        out = {"error": res.stderr.strip()[-300:]}
    return dt, out


def _stats(xs: list[float]) -> str:
    if not xs:
        return "—"
    return f"median {statistics.median(xs):6.2f} s   max {max(xs):6.2f} s"


def bench_analyze(players: int, seeds: int, limit: float, tmp: Path) -> dict[str, Any]:
    inproc: list[float] = []
    unproven: list[int] = []
    whole: list[float] = []
    proven_rows = 0
    rows_total = 0
    for s in range(seeds):
        pos = deal_round(players, s).position
        plays = pos.legal_plays()
        reps = [c[0] for c in colour_classes(pos, plays)]
        t = time.perf_counter()
        rows = rows_possible(pos, reps, limits=Limits(CAP))
        inproc.append(time.perf_counter() - t)
        open_rows = sum(1 for r in rows.values() if r.status != "proven")
        unproven.append(open_rows)
        path = tmp / f"deal{players}_{s}.toml"
        formats.save(pos, path, force=True)
        dt, out = _cli("analyze", str(path), "--json", "--time-limit", str(limit))
        whole.append(dt)
        moves = out.get("moves", [])
        rows_total += len(moves)
        proven_rows += sum(
            1
            for m in moves
            if m["possible"] is not None and m["avoids_paradox"]["possible"] is not None
        )
        print(
            f"  {players}p seed {s}: possible columns {inproc[-1]:5.2f} s in-process "
            f"({open_rows} rows open at the {CAP:g} s cap); "
            f"analyze --time-limit {limit:g}: {dt:5.2f} s, "
            f"{proven_rows}/{rows_total} rows proven so far",
            flush=True,
        )
    return {
        "players": players,
        "seeds": seeds,
        "possible_columns_s": inproc,
        "rows_open_at_cap": unproven,
        "whole_process_s": whole,
        "time_limit": limit,
        "rows_possible_proven": proven_rows,
        "rows": rows_total,
    }


def bench_trick_set(seeds: int) -> dict[str, Any]:
    times = []
    for s in range(seeds):
        pos = random_position(4, 1000 + s, 8)
        t = time.perf_counter()
        r = tricks_possible(pos, 0, limits=Limits(120))
        times.append(time.perf_counter() - t)
        print(
            f"  4p full-deal trick set seed {1000 + s}: {times[-1]:5.2f} s {r.status}", flush=True
        )
    return {"seeds": seeds, "times_s": times}


def bench_review(runs: int) -> dict[str, Any]:
    times = []
    judged = []
    rec = ROOT / "puzzles" / "records" / "four-player-round.toml"
    for _ in range(runs):
        dt, out = _cli("review", str(rec), "--json")
        times.append(dt)
        judged.append(sum(1 for p in out.get("plays", []) if p["analysed"]))
        print(f"  review four-player-round: {dt:5.2f} s, {judged[-1]}/32 plays judged", flush=True)
    return {"times_s": times, "judged": judged}


def bench_limits(limit: float, tmp: Path) -> dict[str, Any]:
    full5 = random_position(5, 1, 7)
    hidden5 = full5.hide(range(5))
    seat = full5.to_play or 0
    others5 = full5.hide([i for i in range(5) if i != seat])
    full4 = deal_round(4, 3).position
    paths = {}
    for name, pos in (("hidden5", hidden5), ("others5", others5), ("full4", full4)):
        paths[name] = tmp / f"{name}.toml"
        formats.save(pos, paths[name], force=True)
    puzzle = Puzzle(
        "bench",
        5,
        "a full deal, guaranteed best score",
        full4,
        Goal(full4.to_play or 0, "max-score", None, "guaranteed"),
        None,
    )
    pz = tmp / "puzzle.toml"
    formats.save(puzzle, pz, force=True)
    rec = ROOT / "puzzles" / "records" / "four-player-round.toml"
    cases = [
        ("paradox", str(paths["hidden5"])),
        ("tricks", str(paths["hidden5"])),
        ("analyze", str(paths["others5"])),
        ("paradox", str(paths["full4"])),
        ("tricks", str(paths["full4"])),
        ("analyze", str(paths["full4"])),
        ("review", str(rec)),
        ("solve", str(pz)),
    ]
    out = []
    for cmd, path in cases:
        dt, res = _cli(cmd, path, "--json", "--time-limit", str(limit))
        status = res.get("status", "error" if "error" in res else "-")
        out.append({"command": cmd, "input": Path(path).name, "wall_s": dt, "status": status})
        print(
            f"  {cmd:8} {Path(path).name:28} --time-limit {limit:g}: {dt:5.2f} s "
            f"(overshoot {dt - limit:+5.2f} s) [{status}]",
            flush=True,
        )
    return {"time_limit": limit, "runs": out}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="few seeds, for a smoke run")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--overshoot-limit", type=float, default=3.0, help="T of the overshoot runs")
    args, _ = ap.parse_known_args()
    seeds = 2 if args.quick else args.seeds
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        print("analyze at the first play of a full deal, every hand known")
        results["analyze4"] = bench_analyze(4, seeds, 5.0, tmp)
        results["analyze5"] = bench_analyze(5, seeds, 10.0, tmp)
        print("possible trick set at the full 4-player deal")
        results["trick_set4"] = bench_trick_set(seeds)
        print("review of the 4-player record (default limits)")
        results["review4"] = bench_review(1 if args.quick else 2)
        print("--time-limit overshoot, whole process")
        results["limits"] = bench_limits(args.overshoot_limit, tmp)
    a4, a5 = results["analyze4"], results["analyze5"]
    print("\n=== issue #9 figures")
    print(f"analyze 4p possible columns (in-process): {_stats(a4['possible_columns_s'])}")
    print(
        f"   tables with open rows at the {CAP:g} s cap: {sum(map(bool, a4['rows_open_at_cap']))}"
    )
    print(f"analyze 4p whole process (--time-limit 5): {_stats(a4['whole_process_s'])}")
    print(f"   rows with possible columns proven: {a4['rows_possible_proven']}/{a4['rows']}")
    print(f"analyze 5p possible columns (in-process): {_stats(a5['possible_columns_s'])}")
    print(
        f"   tables with open rows at the {CAP:g} s cap: {sum(map(bool, a5['rows_open_at_cap']))}"
    )
    print(f"analyze 5p whole process (--time-limit 10): {_stats(a5['whole_process_s'])}")
    print(f"   rows with possible columns proven: {a5['rows_possible_proven']}/{a5['rows']}")
    print(f"4p full-deal trick set: {_stats(results['trick_set4']['times_s'])}")
    rv = results["review4"]
    print(f"review 4p record: {_stats(rv['times_s'])}; judged {min(rv['judged'])}/32")
    worst = max(r["wall_s"] - args.overshoot_limit for r in results["limits"]["runs"])
    print(f"--time-limit {args.overshoot_limit:g}: worst overshoot {worst:+.2f} s (target <= +2 s)")
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "analyze.json").write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
