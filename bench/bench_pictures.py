"""Benchmark of issue #14: pictures and the HTML review.

Figures (fixed seeds; medians and maxima):

- ``svg.board`` of one position (every bundled position and seeded random positions at 2-5
  players, from the deal to the last trick): median and maximum milliseconds (target <= 5 ms);
- ``catbox review --html`` of ``puzzles/records/four-player-round.toml``: the time the page
  adds on top of the review (``report.review_page`` from the review document; target <= 1 s),
  its weight (target <= 300 KB) and the addresses a browser could fetch from it (target: none).

    .venv/bin/python bench/bench_pictures.py --quick
    .venv/bin/python bench/bench_pictures.py
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from catbox.solver import formats  # noqa: E402
from catbox.solver.deal import random_position  # noqa: E402
from catbox.solver.limits import Limits  # noqa: E402
from catbox.solver.position import Position  # noqa: E402
from catbox.solver.record import Record  # noqa: E402
from catbox.solver.report import external_references, review_page  # noqa: E402
from catbox.solver.review import review  # noqa: E402
from catbox.solver.shapes import review_json  # noqa: E402
from catbox.solver.svg import board  # noqa: E402

RESULTS = ROOT / "bench" / "results"


def positions(seeds: int) -> list[Position]:
    out = []
    for path in sorted((ROOT / "puzzles" / "positions").glob("*.toml")):
        obj = formats.load(path)
        assert isinstance(obj, Position)
        out.append(obj)
    for players in (2, 3, 4, 5):
        for seed in range(seeds):
            for tricks_left in (8, 4, 1):
                if players == 5 and tricks_left == 8:
                    continue
                out.append(random_position(players, seed, tricks_left))
    return out


def svg_times(seeds: int, repeat: int) -> dict[str, Any]:
    times = []
    for pos in positions(seeds):
        board(pos)  # warm
        best = []
        for _ in range(repeat):
            t = time.perf_counter()
            board(pos)
            best.append(time.perf_counter() - t)
        times.append(statistics.median(best) * 1000)
    med, worst = statistics.median(times), max(times)
    print(
        f"svg.board of one position: median {med:.2f} ms, max {worst:.2f} ms over "
        f"{len(times)} positions (target <= 5 ms): {'met' if worst <= 5 else 'MISSED'}"
    )
    return {"positions": len(times), "median_ms": med, "max_ms": worst}


def page_cost(time_limit: float, repeat: int) -> dict[str, Any]:
    rec = formats.load(ROOT / "puzzles" / "records" / "four-player-round.toml")
    assert isinstance(rec, Record)
    t = time.perf_counter()
    doc = review_json(review(rec, limits=Limits(time_limit)))
    review_s = time.perf_counter() - t
    times = []
    page = ""
    for _ in range(repeat):
        t = time.perf_counter()
        page = review_page(rec, doc, view="full", title="Review of four-player-round")
        times.append(time.perf_counter() - t)
    size = len(page.encode())
    refs = external_references(page)
    med, worst = statistics.median(times), max(times)
    ok_time = "met" if worst <= 1 else "MISSED"
    print(
        f"review --html, 4-player record ({len(rec.moves)} plays; the review itself "
        f"{review_s:.1f} s with --time-limit {time_limit:g}): page adds median "
        f"{med * 1000:.0f} ms, max {worst * 1000:.0f} ms (target <= 1 s): {ok_time}; "
        f"{size / 1000:.1f} KB (target <= 300 KB): {'met' if size <= 300_000 else 'MISSED'}; "
        f"external addresses: {len(refs)} (target 0)"
    )
    return {
        "review_s": review_s,
        "page_median_s": med,
        "page_max_s": worst,
        "bytes": size,
        "external": refs,
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args, _ = ap.parse_known_args()
    res = {
        "svg": svg_times(2 if args.quick else 10, 5 if args.quick else 20),
        "review_page": page_cost(20 if args.quick else 120, 3 if args.quick else 10),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "pictures.json").write_text(json.dumps(res, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
