"""Run every benchmark (``make bench``): the possible-question solvers (CP-SAT and fast paths)
and the forced-outcome search, the served board, plus CLI start-up time. Each prints a table
and writes JSON under bench/results/. Pass --quick for a smoke run; other options go to both
scripts."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def startup(runs: int = 15) -> None:
    """Median wall time of `catbox --help` in a fresh process (target: <= 0.3 s)."""
    exe = Path(sys.executable).with_name("catbox")
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([str(exe), "--help"], check=True, capture_output=True)
        times.append(time.perf_counter() - t)
    print(
        f"\ncatbox --help: median {statistics.median(times):.3f} s, "
        f"min {min(times):.3f} s over {runs} runs"
    )


def main() -> int:
    args = sys.argv[1:]
    status = 0
    for script in (
        "bench_possible.py",
        "bench_search.py",
        "bench_native.py",
        "bench_analyze.py",
        "bench_estimates.py",
        "bench_pictures.py",
        "bench_serve.py",
        "bench_puzzles.py",
        "bench_batch.py",
    ):
        path = HERE / script
        if not path.exists():
            print(f"(skipping {script}: not present)")
            continue
        print(f"\n=== {script} {' '.join(args)}", flush=True)
        status |= subprocess.run([sys.executable, str(path), *args], check=False).returncode
    startup(5 if "--quick" in args else 15)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
