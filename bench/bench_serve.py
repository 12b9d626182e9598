"""Benchmark of the served board (``catbox serve``, issue #14), against a real server process:

- **click to redrawn board**: in headless Chromium (the system's ``/usr/bin/chromium`` through
  Playwright, as the browser tests), a round dealt from a fixed seed played by clicking cells;
  the page's own measure from the click to the new picture in place (``catboxRedrawMs``),
  and the server's ``/api/play`` alone over HTTP (target: <= 100 ms);
- **first proven analysis row** of a 4-player position with 4 tricks left
  (``random_position(4, seed, 4)``, every hand known): from posting the ``analyze`` job to the
  first row in its snapshot, polled every 10 ms, with a warm worker (target: <= 2 s); the page
  adds up to one poll interval (120 ms); and the whole table;
- **1,000 mixed requests** (valid, malformed, oversized, wrong Host; tests/webserver.py's
  ``mixed_request``, fixed seed): status codes, 5xx count, time, and the server still answering.

    .venv/bin/python bench/bench_serve.py --quick
    .venv/bin/python bench/bench_serve.py --seeds 10
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
sys.path.insert(0, str(ROOT))

from catbox.solver import formats  # noqa: E402
from catbox.solver.deal import deal_round, random_position  # noqa: E402
from tests.webserver import Served, mixed_request  # noqa: E402


def _stats(xs: list[float]) -> str:
    return f"median {statistics.median(xs):7.1f} ms, max {max(xs):7.1f} ms (n={len(xs)})"


def _summary(xs: list[float] | None) -> dict[str, float] | None:
    if not xs:
        return None
    return {"median_ms": statistics.median(xs), "max_ms": max(xs), "n": len(xs)}


def redraw_browser(server: Served, plays: int) -> list[float] | None:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    chromium = Path("/usr/bin/chromium")
    if not chromium.is_file():
        return None
    out: list[float] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(chromium), args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.goto(server.url)
        page.wait_for_selector("#board svg")
        for k in range(1, plays + 1):
            legal = page.evaluate("S.view.moves ? S.view.moves.legal : []")
            if not legal:
                break
            page.click(f'#board [data-cell="{legal[0]}"]')
            page.wait_for_function(f"document.body.dataset.ply === '{k}'")
            out.append(float(page.evaluate("window.catboxRedrawMs")))
        browser.close()
    return out


def redraw_http(server: Served, plays: int) -> list[float]:
    pos = deal_round(4, 2, predictions=True).position
    out = []
    for _ in range(plays):
        if pos.to_play is None:
            break
        p = pos.legal_plays()[0]
        t = time.perf_counter()
        status, _ = server.call(
            "POST", "/api/play", {"position": formats.position_to_line(pos), "play": str(p)}
        )
        out.append(1000 * (time.perf_counter() - t))
        assert status == 200
        pos = pos.play(p)
    return out


def first_rows(server: Served, seeds: int) -> tuple[list[float], list[float]]:
    firsts, wholes = [], []
    for seed in range(seeds):
        line = formats.position_to_line(random_position(4, seed, 4))
        t = time.perf_counter()
        _, snap = server.call("POST", "/api/jobs", {"kind": "analyze", "position": line})
        first = None
        while True:
            _, s = server.call("GET", f"/api/jobs/{snap['id']}")
            if first is None and s["row_count"]:
                first = 1000 * (time.perf_counter() - t)
            if s["state"] not in ("queued", "running"):
                break
            time.sleep(0.01)
        assert s["state"] == "done" and first is not None, s
        firsts.append(first)
        wholes.append(1000 * (time.perf_counter() - t))
    return firsts, wholes


def robustness(server: Served, n: int) -> dict[str, object]:
    rng = random.Random(2026)
    lines = [
        formats.position_to_line(random_position(p, s, t))
        for p in (2, 3, 4, 5)
        for s, t in ((1, 1), (2, 3))
    ]
    codes: Counter[int] = Counter()
    wrong = 0
    t = time.perf_counter()
    for _ in range(n):
        method, path, body, headers, valid = mixed_request(rng, lines)
        status, doc = server.call(method, path, body, headers)
        codes[status] += 1
        ok = status == 200 if valid else 400 <= status < 500 and bool(doc["error"]["message"])
        wrong += not ok
    elapsed = time.perf_counter() - t
    alive = server.call("GET", "/api/health")[0] == 200
    fives = sum(k for c, k in codes.items() if c >= 500)
    print(
        f"{n} mixed requests in {elapsed:.1f} s: status codes {dict(sorted(codes.items()))}; "
        f"5xx: {fives}; answered other than expected: {wrong}; server still answers: {alive}"
    )
    return {
        "requests": n,
        "seconds": elapsed,
        "status_codes": {str(c): k for c, k in sorted(codes.items())},
        "5xx": fives,
        "unexpected": wrong,
        "alive": alive,
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seeds", type=int, default=10)
    args = ap.parse_args()
    seeds = 3 if args.quick else args.seeds
    plays = 8 if args.quick else 24
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "round.toml"
        formats.save(deal_round(4, 2, predictions=True).position, path)
        server = Served(str(path))
        try:
            time.sleep(3)  # the workers warm up (the page would be opening meanwhile)
            print("served board (catbox serve), 2 workers")
            page = redraw_browser(server, plays)
            if page:
                print(f"click to redrawn board, in Chromium:  {_stats(page)}  (target <= 100 ms)")
            else:
                print("click to redrawn board, in Chromium:  skipped (no browser or playwright)")
            http = redraw_http(server, plays)
            print(f"POST /api/play alone (HTTP):         {_stats(http)}")
            time.sleep(2)  # workers replaced after the page's cancelled analyses warm up
            firsts, wholes = first_rows(server, seeds)
            print(f"first proven row, 4p, 4 tricks left: {_stats(firsts)}  (target <= 2000 ms)")
            print(f"whole analyze table, same positions: {_stats(wholes)}")
            res = {
                "redraw_browser": _summary(page),
                "play_http": _summary(http),
                "first_row": _summary(firsts),
                "whole_table": _summary(wholes),
                "mixed_requests": robustness(server, 1000),
            }
            RESULTS.mkdir(exist_ok=True)
            (RESULTS / "serve.json").write_text(json.dumps(res, indent=2))
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
