"""Benchmark of the compiled search core (a script, not a test).

1. Speed: the same forced questions on the same positions with the Python engine and the
   native core (fresh tables, each capped at a node budget for the Python engine so the run
   stays short): nodes/s of each and the ratio (target >= 50x); and the time of the native core
   to answer the question completely.
2. Horizon: for 3, 4 and 5 players and tricks left from 3 up to the full round (8 / 8 / 7), on
   fixed seeds at trick boundaries with every hand known: the share of positions whose
   ``analyze_moves`` rows and the root's ``forced`` answers are all proven within the time
   limit (60 s per position), with median and max time. A player count stops at the first
   tricks-left count where no position is proven (every bigger one is harder).
3. ``can_force(avoid-paradox)`` (``catbox paradox``, guaranteed) from the round start at 3 and
   4 players: median and max time (target median <= 10 s).
4. Proof numbers: the same yes/no questions (avoid a paradox; at least one more trick) from
   deep roots by alpha-beta (win) and by df-pn (pn.cpp), fresh tables each: nodes, seconds and
   how many were answered within the limit. (The speed part runs alpha-beta on both engines, so
   its ratio compares one algorithm.)

    .venv/bin/python bench/bench_native.py [--quick] [--seeds N] [--time-limit S]
        [--only speed|horizon|start|pn]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from catbox.solver.cards import variant
from catbox.solver.deal import random_position
from catbox.solver.limits import Limits, OutOfTime
from catbox.solver.search import Target, analyze_moves, can_force, clear_cache, forced, native


def speed(seeds: int, py_nodes: int) -> list[dict[str, Any]]:
    print("\n== nodes/s, Python engine vs native core (same positions, same questions, alpha-beta)")
    saved = dict(native.PN_FROM)
    native.PN_FROM.update(dict.fromkeys(saved, 99))  # one algorithm on both sides
    try:
        return _speed(seeds, py_nodes)
    finally:
        native.PN_FROM.update(saved)


def _speed(seeds: int, py_nodes: int) -> list[dict[str, Any]]:
    head = f"{'pl':>2} {'left':>4} {'py nodes':>9} {'py n/s':>9} {'nat nodes':>10} {'nat n/s':>10}"
    print(head + f" {'ratio':>6} {'native full s':>13}")
    rows = []
    for players, left in ((3, 6), (4, 5), (5, 4)):
        for seed in range(seeds):
            pos = random_position(players, 900 + seed, left)
            seat = pos.to_play
            assert seat is not None
            res: dict[str, Any] = {"players": players, "tricks_left": left, "seed": 900 + seed}
            for kind, limit in (("python", py_nodes), ("native", 50 * py_nodes)):
                clear_cache()
                t = time.perf_counter()
                f = forced(pos, seat, limits=Limits(node_limit=limit), engine=kind)  # type: ignore[arg-type]
                dt = time.perf_counter() - t
                res[kind] = {"nodes": f.nodes, "s": dt, "rate": f.nodes / dt}
            clear_cache()
            t = time.perf_counter()
            full = forced(pos, seat, limits=Limits(30), engine="native")
            res["native_full_s"] = time.perf_counter() - t
            res["native_full_status"] = full.status
            res["ratio"] = res["native"]["rate"] / res["python"]["rate"]
            rows.append(res)
            py, nat = res["python"], res["native"]
            print(
                f"{players:>2} {left:>4} {py['nodes']:>9} {py['rate']:>9.0f} {nat['nodes']:>10} "
                f"{nat['rate']:>10.0f} {res['ratio']:>5.0f}x {res['native_full_s']:>12.2f}"
                + ("" if full.status == "proven" else " (unknown)"),
                flush=True,
            )
    ratio = statistics.median(r["ratio"] for r in rows)
    print(f"median ratio native/python nodes/s: {ratio:.0f}x (target >= 50x)")
    return rows


def horizon(seeds: int, limit: float, first: int) -> list[dict[str, Any]]:
    print(f"\n== horizon: analyze rows + forced at the root all proven within {limit:.0f} s")
    print(f"{'pl':>2} {'left':>4} {'proven':>7} {'median s':>9} {'max s':>7}")
    rows = []
    for players in (3, 4, 5):
        full = variant(players).tricks
        for left in range(first, full + 1):
            results = []
            for seed in range(seeds):
                pos = random_position(players, 700 + seed, left)
                seat = pos.to_play
                assert seat is not None
                clear_cache()
                t = time.perf_counter()
                table = analyze_moves(pos, limits=Limits(limit))
                rest = max(0.01, limit - (time.perf_counter() - t))
                f = forced(pos, seat, limits=Limits(rest))
                dt = time.perf_counter() - t
                ok = f.status == "proven" and all(r.status == "proven" for r in table)
                results.append({"players": players, "tricks_left": left, "seed": 700 + seed,
                                "s": dt, "proven": ok})  # fmt: skip
            rows.extend(results)
            n_ok = sum(r["proven"] for r in results)
            times = [float(str(r["s"])) for r in results]
            print(
                f"{players:>2} {left:>4} {n_ok:>3}/{len(results):<3} "
                f"{statistics.median(times):>9.2f} {max(times):>7.2f}",
                flush=True,
            )
            if n_ok == 0:
                if left < full:
                    print(f"{players:>2} {left + 1}..{full}: not run (none proven at {left})")
                break
    return rows


def round_start(seeds: int, limit: float) -> list[dict[str, Any]]:
    print(f"\n== can_force(avoid-paradox) from the round start ({limit:.0f} s limit)")
    print(f"{'pl':>2} {'proven':>7} {'median s':>9} {'max s':>7}  answers")
    rows = []
    for players in (3, 4):
        results = []
        for seed in range(seeds):
            pos = random_position(players, 800 + seed, variant(players).tricks)
            seat = pos.to_play
            assert seat is not None
            clear_cache()
            t = time.perf_counter()
            ok, status = can_force(pos, seat, Target("avoid-paradox"), limits=Limits(limit))
            results.append({"players": players, "seed": 800 + seed, "answer": ok,
                            "status": status, "s": time.perf_counter() - t})  # fmt: skip
        rows.extend(results)
        times = [float(str(r["s"])) for r in results]
        n_ok = sum(r["status"] == "proven" for r in results)
        print(
            f"{players:>2} {n_ok:>3}/{len(results):<3} {statistics.median(times):>9.2f} "
            f"{max(times):>7.2f}  {[r['answer'] for r in results]}",
            flush=True,
        )
    return rows


def proof_numbers(seeds: int, limit: float) -> list[dict[str, Any]]:
    print(f"\n== alpha-beta vs df-pn on yes/no roots (fresh tables, {limit:.0f} s limit each)")
    print(f"{'pl':>2} {'left':>4} {'goal':>8} {'seed':>4} {'ab':>5} {'ab Mnodes':>9} {'ab s':>6}"
          f" {'pn':>5} {'pn Mnodes':>9} {'pn s':>6}")  # fmt: skip
    rows = []
    for players, left in ((3, 6), (3, 7), (3, 8), (4, 5), (4, 6), (4, 8), (5, 4), (5, 5)):
        for seed in range(seeds):
            pos = random_position(players, (800 if left == 8 else 700) + seed, left)
            seat = pos.to_play
            assert seat is not None
            for goal, lo in (("avoid", 0), ("at-least", 1)):
                res: dict[str, Any] = {"players": players, "tricks_left": left, "seed": seed,
                                       "goal": goal}  # fmt: skip
                for kind in ("ab", "pn"):
                    eng = native.NativeEngine.for_position(pos, seat)
                    st = eng.state_of(pos)
                    fs = native.flat(eng.ctx, st)
                    eng.core.configure(True, 2, False, False, 1 if kind == "pn" else 0)
                    eng.set_budget(None, limit)
                    t = time.perf_counter()
                    try:
                        answer: bool | None = eng.core.solve(fs, lo, left)
                    except OutOfTime:
                        answer = None
                    res[kind] = {"answer": answer, "nodes": eng.nodes, "s": time.perf_counter() - t}
                    del eng
                rows.append(res)
                ab, pn = res["ab"], res["pn"]
                print(
                    f"{players:>2} {left:>4} {goal:>8} {seed:>4} {ab['answer']!s:>5} "
                    f"{ab['nodes'] / 1e6:>9.1f} {ab['s']:>6.1f} {pn['answer']!s:>5} "
                    f"{pn['nodes'] / 1e6:>9.1f} {pn['s']:>6.1f}",
                    flush=True,
                )
    for kind in ("ab", "pn"):
        done = [r[kind] for r in rows if r[kind]["answer"] is not None]
        print(f"{kind}: answered {len(done)}/{len(rows)}, median s over all "
              f"{statistics.median(r[kind]['s'] for r in rows):.2f}")  # fmt: skip
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 seeds, 10 s limit")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=60.0, help="per position (s)")
    ap.add_argument("--py-nodes", type=int, default=300_000, help="Python engine node budget")
    ap.add_argument(
        "--only",
        choices=("speed", "horizon", "start", "pn"),
        help="run one part of the benchmark",
    )
    args, _ = ap.parse_known_args()
    seeds = 2 if args.quick else args.seeds
    limit = 10.0 if args.quick else args.time_limit
    out: dict[str, Any] = {"args": vars(args)}
    if args.only in (None, "speed"):
        out["speed"] = speed(seeds, 100_000 if args.quick else args.py_nodes)
    if args.only in (None, "horizon"):
        out["horizon"] = horizon(seeds, limit, 4 if args.quick else 3)
    if args.only in (None, "start"):
        out["round_start"] = round_start(seeds, limit)
    if args.only in (None, "pn"):
        out["proof_numbers"] = proof_numbers(seeds, 30.0 if not args.quick else limit)
    path = Path(__file__).parent / "results" / f"native{'-' + args.only if args.only else ''}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1, default=str))
    print(f"\nwrote {path}")


if __name__ == "__main__":
    main()
