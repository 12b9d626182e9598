"""Benchmark of ``catbox batch`` (issue #19), whole processes as a user runs them, ratios measured
in the same run:

1. Scaling: ``analyze`` of seeded 4-player positions with 4 tricks left (default 200), 1 worker,
   2 workers, and a 2-worker Dask LocalCluster (``--address``). Targets: 2 workers >= 1.8x the
   throughput of 1; Dask within 10% of the pool. Every run's rows are checked equal (but for
   ``seconds``).
2. Per-item overhead: ``score`` of 10,000 finished rounds (seeded random legal playouts), 1 and
   2 workers. Target: >= 100 rounds/s per worker.
3. Research: ``paradox`` on 1,000 fresh 4-player deals (``--deal 4 --count 1000``, a node budget
   per search so every row is reproducible), 2 workers. Target: <= 300 s with ``possible`` and
   ``round_possible`` proven in every row; prints the share of deals whose round can end with
   nobody in a paradox, with its Wilson 95% interval.
4. Faults: 20 runs killed with SIGKILL (the batch and its workers) at a seeded random moment,
   then resumed. Target: 0 rows lost, 0 duplicated, rows equal to an uninterrupted run.

    .venv/bin/python bench/bench_batch.py --quick
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from catbox.solver.deal import deal_round, random_position  # noqa: E402
from catbox.solver.estimates.stats import wilson  # noqa: E402
from catbox.solver.formats import position_to_line  # noqa: E402

RESULTS = ROOT / "bench" / "results"
BIN = Path(sys.executable).parent
ENV = os.environ | {"CATBOX_NO_PROGRESS": "1"}


CPU: dict[Path, float] = {}  # CPU seconds of each batch run (the process and its pool)


def batch(args: list[str], out: Path) -> float:
    """Wall seconds of one ``catbox batch`` process writing ``out`` from scratch (its CPU
    seconds, workers of a process pool included, go to :data:`CPU`)."""
    for p in (out, out.with_name(out.stem + ".meta.json")):
        p.unlink(missing_ok=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run([str(BIN / "catbox"), "batch", *args, "-o", str(out)], env=ENV)
    if done.returncode not in (0, 1):
        raise SystemExit(f"catbox batch failed ({done.returncode})")
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU[out] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall


def rows(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def answers(out: Path) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows(out)]


def finished_round(players: int, seed: int) -> str:
    """A finished round: a seeded deal played by random legal plays to its end (the last trick,
    or a paradox)."""
    rng = random.Random(seed)
    pos = deal_round(players, seed, predictions=True).position
    while pos.to_play is not None:
        pos = pos.play(rng.choice(pos.legal_plays()))
    return position_to_line(pos)


def scaling(tmp: Path, n: int, results: dict[str, Any]) -> None:
    from distributed import LocalCluster

    f = tmp / "positions.txt"
    f.write_text("\n".join(position_to_line(random_position(4, s, 4)) for s in range(n)) + "\n")
    base = ["analyze", str(f), "--time-limit", "0"]
    t1 = batch([*base, "-w", "1"], tmp / "w1.jsonl")
    t2 = batch([*base, "-w", "2"], tmp / "w2.jsonl")
    with LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        td = batch([*base, "--address", cluster.scheduler_address], tmp / "dask.jsonl")
    same = answers(tmp / "w1.jsonl") == answers(tmp / "w2.jsonl") == answers(tmp / "dask.jsonl")
    speedup, dask = t1 / t2, t2 / td
    print(f"\n1. analyze, {n} positions (4 players, 4 tricks left), whole process")
    print(f"   1 worker   {t1:7.1f} s   {n / t1:6.2f} positions/s")
    print(
        f"   2 workers  {t2:7.1f} s   {n / t2:6.2f} positions/s   {speedup:.2f}x  (target >= 1.8x)"
    )
    print(f"   Dask 2     {td:7.1f} s   {n / td:6.2f} positions/s   {dask:.2f} of the pool")
    print("              (target >= 0.90)")
    c1, c2 = CPU[tmp / "w1.jsonl"], CPU[tmp / "w2.jsonl"]
    print(f"   CPU seconds: 1 worker {c1:.1f}, 2 workers {c2:.1f} (ratio {c2 / c1:.2f})")
    print(f"   machine load average while measured: {os.getloadavg()[0]:.1f} on 2 cores")
    print(f"   rows identical across the three runs (but seconds): {same}")
    results["scaling"] = {
        "positions": n,
        "seconds": {"1": t1, "2": t2, "dask2": td},
        "speedup": speedup,
        "dask_vs_pool": dask,
        "cpu_seconds": {"1": c1, "2": c2},
        "identical": same,
    }


def overhead(tmp: Path, n: int, results: dict[str, Any]) -> None:
    f = tmp / "rounds.txt"
    t = time.perf_counter()
    f.write_text("\n".join(finished_round(2 + s % 4, s) for s in range(n)) + "\n")
    made = time.perf_counter() - t
    t1 = batch(["score", str(f), "-w", "1"], tmp / "s1.jsonl")
    t2 = batch(["score", str(f), "-w", "2"], tmp / "s2.jsonl")
    ok = all(r["status"] == "proven" and r["finished"] for r in rows(tmp / "s2.jsonl"))
    same = answers(tmp / "s1.jsonl") == answers(tmp / "s2.jsonl")
    print(f"\n2. score, {n} finished rounds (2-5 players; made in {made:.0f} s), whole process")
    for w, s in ((1, t1), (2, t2)):
        print(f"   {w} worker{'s' if w > 1 else ' '} {s:7.1f} s   {n / s / w:7.0f} rounds/s/worker")
    print("   (target >= 100 rounds/s per worker)")
    print(f"   every row finished and proven: {ok}; identical for 1 and 2 workers: {same}")
    results["overhead"] = {
        "rounds": n,
        "seconds": {"1": t1, "2": t2},
        "per_worker_rate": {"1": n / t1, "2": n / t2 / 2},
        "identical": same,
    }


def research(tmp: Path, n: int, nodes: int, results: dict[str, Any]) -> None:
    out = tmp / "deals.jsonl"
    args = ["paradox", "--deal", "4", "--count", str(n), "--seed", "1"]
    t = batch([*args, "--nodes", str(nodes), "--time-limit", "0", "-w", "2"], out)
    got = rows(out)
    proven = sum(1 for r in got if r.get("possible_status") == "proven")
    yes = sum(1 for r in got if r.get("round_possible") is True)
    lo, hi = wilson(yes, n)
    g = sum(1 for r in got if r.get("guaranteed_status") == "proven")
    print(f"\n3. paradox, {n} fresh 4-player deals, --nodes {nodes}, 2 workers")
    print(f"   {t:.1f} s (target <= 300 s); possible and round_possible proven: {proven}/{n}")
    print(
        f"   a round with no paradox at all is possible: {yes}/{n} = {100 * yes / n:.1f}% "
        f"[{100 * lo:.1f}, {100 * hi:.1f}] (Wilson 95%)"
    )
    print(f"   guaranteed (the seat to play, alone against the others) proven in {g}/{n}")
    results["research"] = {
        "deals": n,
        "nodes": nodes,
        "seconds": t,
        "possible_proven": proven,
        "round_possible": yes,
        "ci95": [lo, hi],
        "guaranteed_proven": g,
    }


def faults(tmp: Path, runs: int, results: dict[str, Any]) -> None:
    f = tmp / "small.txt"
    f.write_text("\n".join(position_to_line(random_position(3, s, 3)) for s in range(120)) + "\n")
    cmd = ["paradox", str(f), "--time-limit", "0", "-w", "2"]
    t_ref = batch(cmd, tmp / "ref.jsonl")
    want = answers(tmp / "ref.jsonl")
    rng = random.Random(19)
    lost = dup = differ = mid = 0
    for k in range(runs):
        out = tmp / f"kill{k}.jsonl"
        full = [str(BIN / "catbox"), "batch", *cmd, "-o", str(out)]
        proc = subprocess.Popen(full, env=ENV, start_new_session=True, stderr=subprocess.DEVNULL)
        while proc.poll() is None and not (out.exists() and out.stat().st_size):
            time.sleep(0.01)  # the first row is out: the run is under way
        time.sleep(rng.uniform(0.0, 0.8 * t_ref))
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # the batch and its workers, as a crash
        proc.wait()
        kept = out.read_bytes().count(b"\n") if out.exists() else 0
        mid += 0 < kept < len(want)
        subprocess.run(full, env=ENV, check=True, capture_output=True)
        got = answers(out)
        ids = [r["id"] for r in got]
        lost += len({r["id"] for r in want} - set(ids))
        dup += len(ids) - len(set(ids))
        differ += got != want
    print(f"\n4. {runs} runs killed with SIGKILL at a random moment, then resumed")
    print(f"   killed mid-run (some rows written, not all): {mid}/{runs}")
    print(f"   rows lost: {lost}, duplicated: {dup}; runs whose rows differ from an")
    print(f"   uninterrupted run: {differ}  (target 0 / 0)")
    results["faults"] = {"runs": runs, "mid_run": mid, "lost": lost, "duplicated": dup}
    results["faults"]["differ"] = differ


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=10_000)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--nodes", type=int, default=2_000)
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--only", choices=("scaling", "overhead", "research", "faults"))
    a = ap.parse_args()
    if a.quick:
        a.positions, a.rounds, a.deals, a.kills = 8, 500, 40, 3
    print(
        f"catbox batch benchmark on {os.cpu_count()} cores (a shared machine: absolute rates vary"
    )
    print("with its load; the ratios are measured in the same run)")
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if a.only in (None, "scaling"):
            scaling(tmp, a.positions, results)
        if a.only in (None, "overhead"):
            overhead(tmp, a.rounds, results)
        if a.only in (None, "research"):
            research(tmp, a.deals, a.nodes, results)
        if a.only in (None, "faults"):
            faults(tmp, a.kills, results)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "batch.json").write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
