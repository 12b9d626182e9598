"""Benchmark of whole games: ``catbox game`` and a game's review page.

Figures (fixed seeds):

- ``catbox game --players 4 --seed S`` at the default level, the whole process: wall seconds and
  CPU seconds (the machine may be shared: CPU seconds are the steadier figure; target: the
  whole game, 4 rounds, in <= 60 s);
- where that time goes: the share of the round-start decisions (``choose_aside`` and
  ``choose_prediction``, the round-start advisor's playouts) and of the plays (``choose_play``),
  from a profiled run in this process (the profiler slows both alike);
- ``catbox review GAME --html`` of that game: the page's weight (target <= 600 KB for a 4-round
  4-player game) and the addresses a browser could fetch from it (target: none).

    .venv/bin/python bench/bench_game.py --quick
    .venv/bin/python bench/bench_game.py                 # seeds 1-10
    .venv/bin/python bench/bench_game.py --seeds 31-40   # fresh seeds
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from catbox.solver.report import external_references  # noqa: E402
from catbox.solver.selfplay import play_game  # noqa: E402

RESULTS = ROOT / "bench" / "results"
CATBOX = Path(sys.executable).with_name("catbox")


def children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run(args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of ``catbox ARGS`` in a fresh process."""
    cpu, t = children_cpu(), time.perf_counter()
    subprocess.run([str(CATBOX), *args], check=True, capture_output=True)
    return time.perf_counter() - t, children_cpu() - cpu


def game_times(seeds: list[int], folder: Path) -> list[dict[str, Any]]:
    rows = []
    for seed in seeds:
        path = folder / f"game-{seed}.toml"
        wall, cpu = run(["game", "--players", "4", "--seed", str(seed), "-o", str(path)])
        rows.append({"seed": seed, "wall_s": round(wall, 2), "cpu_s": round(cpu, 2)})
        print(
            f"catbox game --players 4 --seed {seed}: {wall:.1f} s wall, {cpu:.1f} s CPU "
            f"(target <= 60 s): {'met' if cpu <= 60 else 'MISSED'}"
        )
    walls, cpus = [r["wall_s"] for r in rows], [r["cpu_s"] for r in rows]
    print(
        f"{len(rows)} games: wall median {statistics.median(walls):.1f} s, max {max(walls):.1f} s;"
        f" CPU median {statistics.median(cpus):.1f} s, max {max(cpus):.1f} s"
    )
    return rows


def seed_list(text: str) -> list[int]:
    """``"31-40"`` or ``"1,5,9"``: the seeds to play."""
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += range(int(a), int(b or a) + 1)
    return out


def split(seed: int) -> dict[str, float]:
    """The shares of the round-start decisions and of the plays (a profiled run)."""
    prof = cProfile.Profile()
    prof.enable()
    play_game(4, seed=seed)
    prof.disable()
    stats = pstats.Stats(prof)
    cum: dict[str, float] = {}
    parts = {"choose_aside": "start", "choose_prediction": "start", "choose_play": "plays"}
    for (file, _, name), row in stats.stats.items():  # type: ignore[attr-defined]
        if "solver" not in file:
            continue
        if name in parts:  # each defined once (catbox.solver.player re-exports them)
            cum[parts[name]] = cum.get(parts[name], 0.0) + row[3]
        elif file.endswith("selfplay.py") and name == "play_game":
            cum["total"] = row[3]
    total = cum.get("total") or 1.0
    out = {k: round(cum.get(k, 0.0) / total, 3) for k in ("start", "plays")}
    print(
        f"where the time goes (profiled, seed {seed}): round-start decisions "
        f"{100 * out['start']:.0f}%, plays {100 * out['plays']:.0f}%"
    )
    return out


def page_weight(game: Path, time_limit: int) -> dict[str, Any]:
    html = game.with_suffix(".html")
    wall, cpu = run(["review", str(game), "--html", str(html), "--time-limit", str(time_limit)])
    page = html.read_text(encoding="utf-8")
    size = len(page.encode())
    fetch = external_references(page)
    print(
        f"catbox review GAME --html: {size / 1024:.0f} KB (target <= 600 KB): "
        f"{'met' if size <= 600 * 1024 else 'MISSED'}; addresses to fetch: {len(fetch)}; "
        f"review {wall:.0f} s wall, {cpu:.0f} s CPU"
    )
    return {"bytes": size, "fetchable": len(fetch), "review_wall_s": round(wall, 1)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seeds", type=seed_list, default=None, help="e.g. 31-40 (default 1-10)")
    args, _ = ap.parse_known_args()
    seeds = args.seeds or ([1] if args.quick else list(range(1, 11)))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        games = game_times(seeds, folder)
        shares = split(seeds[0])
        page = page_weight(folder / f"game-{seeds[0]}.toml", 30 if args.quick else 120)
    RESULTS.mkdir(parents=True, exist_ok=True)
    doc = {"games": games, "shares": shares, "page": page, "quick": args.quick}
    (RESULTS / "game.json").write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
