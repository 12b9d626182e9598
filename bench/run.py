"""Run every benchmark (``make bench``): the possible-question solvers (CP-SAT and fast paths)
and the forced-outcome search, the served board, plus CLI start-up time. Each prints a table
and writes JSON under bench/results/. Pass --quick for a smoke run; other options go to both
scripts. ``--only NAME [--only NAME ...]`` runs just those scripts (``arena``, ``peer_arena``,
``bench_search`` ...). The peer arena runs under ``CATBOX_PEER_PYTHON`` when set (the peer's own
Python, with open_spiel) and skips cleanly unless ``CATBOX_PEER`` names its checkout; with
``CATBOX_PEER_ROWS`` naming a folder it adds its deals to the rows there and prints its tables
over all of them."""

from __future__ import annotations

import os
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
    args: list[str] = []
    only: set[str] = set()
    argv = iter(sys.argv[1:])
    for a in argv:
        if a == "--only":
            only.add(next(argv, "").removesuffix(".py"))
        elif a.startswith("--only="):
            only.add(a.split("=", 1)[1].removesuffix(".py"))
        else:
            args.append(a)
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
        "bench_game.py",  # catbox game --players 4 and a game's review page
        "arena.py",  # catbox's player against its previous version and the baselines
        "peer_arena.py",  # the peer's bots; skips unless CATBOX_PEER names a checkout
    ):
        if only and script.removesuffix(".py") not in only:
            continue
        path = HERE / script
        if not path.exists():
            print(f"(skipping {script}: not present)")
            continue
        print(f"\n=== {script} {' '.join(args)}", flush=True)
        python = sys.executable
        if script == "peer_arena.py":
            python = os.environ.get("CATBOX_PEER_PYTHON") or python
        status |= subprocess.run([python, str(path), *args], check=False).returncode
    if not only:
        startup(5 if "--quick" in args else 15)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
