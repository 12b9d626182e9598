"""Benchmark of catbox.solver.search (a script, not a test).

For 3, 4 and 5 players at 2..6 tricks left (fixed seeds, some positions mid-trick): in-process
time of ``analyze_moves`` (the table for the seat to play) and of ``forced`` for that seat
(together: "analysis"), node counts, and the node count of a plain memoised minimax on the same
positions (tests/reference.py style: every position reached is counted, cached or not; one
minimax of the score over the packed state, capped). Prints a table and writes
bench/results/search.json.

    .venv/bin/python bench/bench_search.py [--quick] [--seeds N] [--max-tricks-left K]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from catbox.solver.deal import random_position
from catbox.solver.limits import Limits
from catbox.solver.search import Session, analyze_moves, clear_cache, forced
from catbox.solver.search.engine import Engine
from catbox.solver.search.state import State, apply, cells, legal_mask

sys.setrecursionlimit(10_000)


class _Cap(Exception):
    pass


def plain_minimax_nodes(pos: object, seat: int, cap: int) -> int | None:
    """Nodes of a plain memoised minimax of S's score (no pruning, no bounds), counted like
    the search: every call. None if more than ``cap``."""
    eng = Engine.for_position(pos, seat)  # type: ignore[arg-type]
    ctx = eng.ctx
    memo: dict[State, int] = {}
    count = 0

    def value(st: State) -> int:
        nonlocal count
        count += 1
        if count > cap:
            raise _Cap
        got = memo.get(st)
        if got is not None:
            return got
        if st[11] == 0:
            v = eng.terminal_score(st, False)
        else:
            lm = legal_mask(ctx, st)
            p = (st[5] + st[6]) % ctx.players
            if not lm:
                v = eng.terminal_score(st, p == seat)
            else:
                vals = [value(apply(ctx, st, i)) for i in cells(lm)]
                v = max(vals) if p == seat else min(vals)
        memo[st] = v
        return v

    try:
        value(eng.state_of(pos))  # type: ignore[arg-type]
    except _Cap:
        return None
    return count


def engine_nodes() -> int:
    return Session.default().nodes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 seeds, at most 4 tricks left")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--max-tricks-left", type=int, default=6)
    ap.add_argument("--time-limit", type=float, default=30.0, help="per call (s)")
    ap.add_argument("--ref-cap", type=int, default=1_000_000, help="plain minimax node cap")
    args = ap.parse_args()
    seeds = 2 if args.quick else args.seeds
    max_left = min(args.max_tricks_left, 4) if args.quick else args.max_tricks_left
    rows = []
    header = (
        f"{'pl':>2} {'left':>4} {'n':>2} {'unk':>3} {'forced med':>10} {'max':>7} "
        f"{'analysis med':>12} {'max':>7} {'nodes(forced)':>13} {'nodes(analysis)':>15} "
        f"{'plain minimax':>13} {'ratio':>6}"
    )
    print(header)
    print("-" * len(header))
    for players in (3, 4, 5):
        for left in range(2, max_left + 1):
            results: list[dict[str, Any]] = []
            for seed in range(seeds):
                mid = seed % players if seed % 2 else 0
                pos = random_position(players, 500 + seed, left, mid_trick=mid)
                seat = pos.to_play
                assert seat is not None
                clear_cache()
                t0 = time.perf_counter()
                table = analyze_moves(pos, limits=Limits(args.time_limit))
                t1 = time.perf_counter()
                nodes_table = engine_nodes()
                f = forced(pos, seat, limits=Limits(args.time_limit))
                t2 = time.perf_counter()
                clear_cache()
                t3 = time.perf_counter()
                alone = forced(pos, seat, limits=Limits(args.time_limit))
                t4 = time.perf_counter()
                unknown = f.status != "proven" or any(r.status != "proven" for r in table)
                ref = (
                    plain_minimax_nodes(pos, seat, args.ref_cap)
                    if alone.status == "proven"
                    else None
                )
                results.append(
                    {
                        "players": players,
                        "tricks_left": left,
                        "seed": 500 + seed,
                        "mid_trick": mid,
                        "forced_s": t4 - t3,
                        "analysis_s": t2 - t0,
                        "table_s": t1 - t0,
                        "forced_nodes": alone.nodes,
                        "analysis_nodes": nodes_table + f.nodes,
                        "plain_minimax_nodes": ref,
                        "unknown": unknown or alone.status != "proven",
                    }
                )
            rows.extend(results)
            fm = statistics.median(r["forced_s"] for r in results)
            fx = max(r["forced_s"] for r in results)
            am = statistics.median(r["analysis_s"] for r in results)
            ax = max(r["analysis_s"] for r in results)
            fn = statistics.median(r["forced_nodes"] for r in results)
            an = statistics.median(r["analysis_nodes"] for r in results)
            refs = [r["plain_minimax_nodes"] for r in results]
            known = [x for x in refs if x is not None]
            capped = len(refs) - len(known)
            ref_txt = (
                f">{args.ref_cap}" if capped == len(refs) else f"{statistics.median(known):.0f}"
            ) + ("*" if 0 < capped < len(refs) else "")
            ratios = [
                (r["plain_minimax_nodes"] or args.ref_cap) / max(1, r["forced_nodes"])
                for r in results
            ]
            ratio = statistics.median(ratios)
            unk = sum(1 for r in results if r["unknown"])
            print(
                f"{players:>2} {left:>4} {len(results):>2} {unk:>3} {fm:>10.3f} {fx:>7.2f} "
                f"{am:>12.3f} {ax:>7.2f} {fn:>13.0f} {an:>15.0f} {ref_txt:>13} "
                f"{(ratio):>5.0f}x" + (" (>=)" if capped else ""),
                flush=True,
            )
    out = Path(__file__).parent / "results" / "search.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"rows": rows, "args": vars(args)}, indent=1))
    print(f"\nwrote {out}")


if __name__ == "__main__":
    main()
