"""Benchmark of the compiled search core (a script, not a test).

1. Speed: the same forced questions on the same positions with the Python engine and the
   native core (fresh tables, each capped at a node budget for the Python engine so the run
   stays short): nodes/s of each and the ratio (target >= 50x), the native core running the
   Python engine's algorithm (its own static bounds, score bounds and df-pn off; their nodes/s
   with them beside it); and the time of the native core to answer the question completely.
2. Horizon: for 3, 4 and 5 players and tricks left from 3 up to the full round (8 / 8 / 7), on
   fixed seeds at trick boundaries with every hand known: the share of positions whose
   ``analyze_moves`` rows are all proven within the time limit (60 s per position; the
   issue's target), with median and max time, searched as ``catbox analyze`` does by
   default: one thread per core (``--threads``); beside it, the rows and then the root's
   ``forced`` answers (at least / at most, which no row shows) all proven within the same
   limit (until stop 25 the only column). A player count stops at the first tricks-left
   count where no position's rows are proven (every bigger one is harder).
3. ``can_force(avoid-paradox)`` (``catbox paradox``, guaranteed) from the round start at 3, 4
   and 5 players: proven count, median and max time, median CPU time (targets: median <= 5 s
   at 3 and 4 players, <= 20 s at 5), with 1 thread and with the default (one per core).
   Split (``--only split``): the 4-player question searched whole and play by play (each play
   on empty tables, as ``can_force`` does with threads), nodes and CPU seconds of each.
   Initial numbers (``--only init``): the same question at 4 players (seeds 800-806) and 5
   (seed 801) with the other seats' df-pn nodes started at 1 and from S's open cells
   (search.h pn_other), nodes and CPU seconds in the same run.
4. Proof numbers: the same yes/no questions (avoid a paradox; at least one more trick) from
   deep roots by alpha-beta (win) and by df-pn (pn.cpp), fresh tables each: nodes, seconds and
   how many were answered within the limit. (The speed part runs alpha-beta on both engines, so
   its ratio compares one algorithm.)

5. Score bounds (search.h SCORE_*): the score rows (para, value) of fixed analyze tables with
   the score bounds off and on, fresh tables per row: nodes and seconds, answers equal.
6. Possible trick set at a full 4-player deal (tricks_possible): proven count, median, max.
7. Threads: ``analyze_moves`` on horizon positions (3/4/5 players, 6/5/4 tricks left) with 1
   and 2 threads (``Limits.threads``), fresh sessions, in the same run: wall time, process CPU
   time, and the busiest thread's CPU time (what the wall time would be on two free cores);
   the ratios 1 thread / 2 threads, answers equal. The root's questions (``--only root``):
   ``forced`` at the root one step past the horizon (3p / 7, 4p / 6, 5p / 5) with 1 and 2
   threads, fresh sessions, same run: wall time, answers equal.
8. Search switches (search.h SEARCH_*: normalised table keys, equivalent numbers,
   rank-normalised keys): every analyze answer of fixed positions and the paradox question
   from the round start, each switch alone and none: nodes, CPU seconds, answers equal.
   Crowded doom bound (``--only crowd``, not in the full run): bounds.h crowded_trick off
   and on, every analyze answer past the horizon and the 4- and 5-player round start, nodes
   and CPU seconds in the same run. Refutation order
   (``--only refuters``): df-pn's other-seat plays by their refutations per tricks left
   (search.h pn_refuters) off and on, the 4- and 5-player round start, the same way.
   Partition search (``--only partition``, not in the full run): search.h SEARCH_PART (and
   SEARCH_PART_EVERY) against the default keys on every analyze answer of the horizon positions
   (as analyze asks them and by alpha-beta alone) and the 4-player round start, nodes and CPU
   seconds in the same run.
9. Where the time goes (``--only where``): one step past the horizon (3p / 7, 4p / 6,
   5p / 5 tricks left), the nodes of each question family of the first analyze rows under a
   node cap per question: paradox avoidance, the trick answers, the score; and where those
   nodes went by tricks left, S to play or the others, df-pn's share, the static answers.
10. One engine for every row (``--only share``): the questions of every analyze row of
   5p / 5 seed 700 on a fresh engine each and on one engine in analyze's order (nodes per
   question), and every analyze answer on one engine against a fresh engine per row (rows
   proven within a node cap, nodes, CPU seconds) on the horizon positions and one step past.
11. The paradox part when S loses the current trick (``--only lost``): bounds.h
   BOUND_LOST_TRICK off and on, every analyze answer of 3p / 7, 5p / 5 and 4p / 6 positions
   (one thread, a fresh session each): nodes, CPU seconds, answers equal.
   The history aged before each question (``--only age``, not in the full run): search.h
   hist_age off and on, every analyze answer past the horizon and on it, the same way.
12. The proof's size (``--only proof``): the first analyze row in the score's paradox regime
   of positions on and one step past the horizon (3p / 6-7, 4p / 5-6, 5p / 4-5): the nodes of
   its score's deciding probe ("S keeps to at most j more tricks before its paradox", the yes
   for the exact j) on a fresh engine, then the proof that engine's tables hold
   (``NativeEngine.proof_size``): inner nodes (each state and goal once) by tricks left and
   static leaves. What a perfect move order could save is at most the searched nodes over the
   proof's; what one more trick costs is the proof's growth.
14. The census (``--only census``, not in the full run): a sample of each fixed probe's
   proof's inner (state, goal) nodes by tricks left (``proof_census``: 3p / 7, 4p / 6,
   5p / 5), each labelled with its exact least paradox part, the gap (tricks left - pk) and
   S's place in the trick; the coverage of a candidate static rule by gap and place, and its
   claims refuted by the exact search (must be 0).
15. S's sure losers over two tricks (``--only losers``): bounds.h BOUND_LOST_TWO off, on, and
   on with each of its parts that are off (LOST_PLAYS, LOST_OVERTAKEN): the fixed probes'
   deciding probe on a fresh engine (nodes, CPU seconds, the proof's inner nodes by tricks
   left), then every analyze answer past the horizon off and on (answers equal).
16. Monotone subsumption and simulation (``--only subsume``): search.h SEARCH_MONO (win's
   facts matched by inclusion of the other seats' resources, cxx/subsume.h) and SEARCH_SIM
   (S's play that proved the last S node at its depth first), each on a fresh engine, off
   and on: the fixed probes and 3p / 8 seed 700 row 0 (nodes, CPU seconds, the proof's inner
   nodes by tricks left), the table's coverage by tricks left, alpha-beta's answers it would
   contradict and df-pn's claims searched afresh (both must be 0).
17. S's sure losers by a safe strategy (``--only safe``, not in the full run): bounds.h
   BOUND_SAFE_TWO off and on: every row's "at most b" yes (b the fewest count S can force)
   and "at most b - 1" no of positions whose rows avoid S's paradox (AT_MOST_CASES; fresh
   engine each: nodes, CPU seconds, the yes's proof by tricks left), a census of the yes
   proofs (coverage by gap and place, claims refuted: must be 0), the fixed paradox probes
   with 3p / 8 seed 700 row 0, and every analyze answer past the horizon off and on (answers
   equal).
13. Targets: the horizon table of the issue's targets, each marked met or missed from the
   parts that ran (a part not run is "not run").

    .venv/bin/python bench/bench_native.py [--quick] [--seeds N] [--time-limit S]
        [--only speed|horizon|start|split|init|pn|score|possible|threads|root|core|partition|
                crowd|refuters|where|share|lost|age|proof|census|
                losers|subsume|safe]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from math import inf
from pathlib import Path
from typing import Any

from catbox.solver.cards import variant
from catbox.solver.deal import random_position
from catbox.solver.limits import Limits, OutOfTime
from catbox.solver.pool import default_workers
from catbox.solver.possible import tricks_possible
from catbox.solver.search import (
    Session,
    Target,
    analyze_moves,
    can_force,
    clear_cache,
    families,
    forced,
    native,
)
from catbox.solver.search import threads as search_threads
from catbox.solver.search.partial import Partial

SCORE_DEFAULT = 32 | 64 | 8  # search.h SCORE_TRICKS | SCORE_PARA | SCORE_EVERY (the defaults)


def speed(seeds: int, py_nodes: int, repeats: int = 3) -> list[dict[str, Any]]:
    print("\n== nodes/s, Python engine vs native core (same positions, questions and algorithm)")
    print(f"(each engine {repeats}x, interleaved; rates per CPU second of this process, the")
    print(" median of the repeats; the wall-clock ratio beside it moves with the machine's load;")
    print(" 'own n/s': the native core with its own bounds, which the Python engine lacks)")
    saved, search = dict(native.PN_FROM), native.SEARCH
    native.PN_FROM.update(dict.fromkeys(saved, 99))  # one algorithm on both sides:
    native.SEARCH = 0  # alpha-beta with the Python engine's table keys
    try:
        return _speed(seeds, py_nodes, repeats)
    finally:
        native.PN_FROM.update(saved)
        native.SEARCH = search


def _switch(core: Any, switches: dict[str, int]) -> None:
    """The core's switches set by name: ``bounds=31`` calls ``core.set_bounds(31)``."""
    for name, value in switches.items():
        getattr(core, f"set_{name}")(value)


@contextmanager
def _new_engines(**switches: int) -> Iterator[None]:
    """New native engines get the core's switches (_switch) as they are made."""
    init = native.NativeEngine.__init__

    def switched(self: native.NativeEngine, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        _switch(self.core, switches)

    setattr(native.NativeEngine, "__init__", switched)  # noqa: B010 (a method replaced)
    try:
        yield
    finally:
        setattr(native.NativeEngine, "__init__", init)  # noqa: B010


def _python_algorithm() -> AbstractContextManager[None]:
    """New native engines run the Python engine's algorithm: none of the core's own static
    bounds (bounds.h; the Python engine has never_stuck only, which the core keeps at 0), the
    plain score caps (search.h SCORE_* 0) and the paradox part by alpha-beta (para_pn 0).
    Measured on small proven forced questions (3p / 4-5, 4p / 3, 5p / 3 tricks left, seeds
    900-902): the core then searches 0.9-2.1x the Python engine's nodes; with its own bounds
    0.1-0.7x (so its nodes/s is of another algorithm)."""
    return _new_engines(bounds=0, score_bounds=0, para_pn=0)


def _timed_forced(pos: Any, seat: int, limit: int, kind: str) -> dict[str, Any]:
    """One capped forced question from fresh tables: nodes, wall and CPU seconds, rates."""
    clear_cache()
    t, c = time.perf_counter(), time.process_time()
    f = forced(pos, seat, limits=Limits(node_limit=limit), engine=kind)  # type: ignore[arg-type]
    dt, dc = time.perf_counter() - t, max(1e-9, time.process_time() - c)
    return {"nodes": f.nodes, "s": dt, "cpu": dc, "rate": f.nodes / dc, "wall_rate": f.nodes / dt}


def _speed(seeds: int, py_nodes: int, repeats: int) -> list[dict[str, Any]]:
    head = f"{'pl':>2} {'left':>4} {'py nodes':>9} {'py n/s':>9} {'nat nodes':>10} {'nat n/s':>10}"
    print(head + f" {'ratio':>6} {'wall':>6} {'own n/s':>10} {'own':>5} {'native full s':>13}")
    rows = []
    for players, left in ((3, 6), (4, 5), (5, 4)):
        for seed in range(seeds):
            pos = random_position(players, 900 + seed, left)
            seat = pos.to_play
            assert seat is not None
            res: dict[str, Any] = {"players": players, "tricks_left": left, "seed": 900 + seed}
            runs: dict[str, list[dict[str, Any]]] = {"python": [], "native": [], "own": []}
            for _ in range(repeats):  # interleaved: the engines see the same load
                runs["python"].append(_timed_forced(pos, seat, py_nodes, "python"))
                with _python_algorithm():
                    runs["native"].append(_timed_forced(pos, seat, 50 * py_nodes, "native"))
                runs["own"].append(_timed_forced(pos, seat, 50 * py_nodes, "native"))
            for kind, rs in runs.items():
                res[kind] = {
                    "nodes": rs[0]["nodes"],
                    "rate": statistics.median(r["rate"] for r in rs),
                    "wall_rate": statistics.median(r["wall_rate"] for r in rs),
                    "cpu": [r["cpu"] for r in rs],
                    "s": [r["s"] for r in rs],
                }
            clear_cache()
            t = time.perf_counter()
            full = forced(pos, seat, limits=Limits(30), engine="native")
            res["native_full_s"] = time.perf_counter() - t
            res["native_full_status"] = full.status
            res["ratio"] = res["native"]["rate"] / res["python"]["rate"]
            res["wall_ratio"] = res["native"]["wall_rate"] / res["python"]["wall_rate"]
            res["own_ratio"] = res["own"]["rate"] / res["python"]["rate"]
            rows.append(res)
            py, nat = res["python"], res["native"]
            print(
                f"{players:>2} {left:>4} {py['nodes']:>9} {py['rate']:>9.0f} {nat['nodes']:>10} "
                f"{nat['rate']:>10.0f} {res['ratio']:>5.0f}x {res['wall_ratio']:>5.0f}x "
                f"{res['own']['rate']:>10.0f} {res['own_ratio']:>4.0f}x "
                f"{res['native_full_s']:>12.2f}"
                + ("" if full.status == "proven" else " (unknown)"),
                flush=True,
            )
    ratio = statistics.median(r["ratio"] for r in rows)
    wall = statistics.median(r["wall_ratio"] for r in rows)
    own = statistics.median(r["own_ratio"] for r in rows)
    print(f"median ratio native/python nodes per CPU second: {ratio:.0f}x (target >= 50x);"
          f" wall clock {wall:.0f}x; the core with its own bounds {own:.0f}x")  # fmt: skip
    return rows


def horizon(seeds: int, limit: float, first: int, threads: int) -> list[dict[str, Any]]:
    print(f"\n== horizon: every analyze row proven within {limit:.0f} s (the target); then the")
    print("root's forced answers (at least / at most too) with the rest of the limit")
    print(f"({threads} threads: the command's default, one per core)")
    print(f"{'pl':>2} {'left':>4} {'rows':>7} {'median s':>9} {'max s':>7}"
          f"  {'+ root':>7} {'median s':>9} {'max s':>7}")  # fmt: skip
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
                table = analyze_moves(pos, limits=Limits(limit, threads=threads))
                dt = time.perf_counter() - t
                ok = all(r.status == "proven" for r in table)
                f = forced(pos, seat, limits=Limits(max(0.01, limit - dt), threads=threads))
                both = time.perf_counter() - t
                results.append({"players": players, "tricks_left": left, "seed": 700 + seed,
                                "threads": threads, "s": dt, "proven": ok, "root_s": both,
                                "root_proven": ok and f.status == "proven"})  # fmt: skip
            rows.extend(results)
            n_ok = sum(r["proven"] for r in results)
            n_root = sum(r["root_proven"] for r in results)
            times = [float(str(r["s"])) for r in results]
            both_t = [float(str(r["root_s"])) for r in results]
            print(
                f"{players:>2} {left:>4} {n_ok:>3}/{len(results):<3} "
                f"{statistics.median(times):>9.2f} {max(times):>7.2f}"
                f"  {n_root:>3}/{len(results):<3} "
                f"{statistics.median(both_t):>9.2f} {max(both_t):>7.2f}",
                flush=True,
            )
            if n_ok == 0:
                if left < full:
                    print(f"{players:>2} {left + 1}..{full}: not run (none proven at {left})")
                break
    return rows


class _ThreadCpu:
    """The CPU seconds of each thread sharing out can_force's plays (search api._Split.work),
    for the busiest thread's time: what the wall time would be on free cores."""

    def __init__(self) -> None:
        self.cpu: list[float] = []
        self.lock = threading.Lock()

    def __enter__(self) -> _ThreadCpu:
        work = self.work = search_threads.Split.work

        def timed(split: Any) -> None:
            t = time.thread_time()
            try:
                work(split)
            finally:
                with self.lock:
                    self.cpu.append(time.thread_time() - t)

        search_threads.Split.work = timed  # type: ignore[method-assign, assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        search_threads.Split.work = self.work  # type: ignore[method-assign]


def _round_start(players: int, seed: int) -> tuple[Any, int]:
    """A dealt round at its first play (every hand known) and the seat to play."""
    pos = random_position(players, seed, variant(players).tricks)
    assert pos.to_play is not None
    return pos, pos.to_play


def round_start(seeds: int, limit: float, threads: tuple[int, ...]) -> list[dict[str, Any]]:
    print(f"\n== can_force(avoid-paradox) from the round start ({limit:.0f} s limit)")
    print("(targets: median <= 5 s at 3 and 4 players, <= 20 s at 5; the last thread count is")
    print(
        " the command's default, one per core; threads > 1 share out the plays, see --only split)"
    )
    print("(CPU: the process's CPU seconds; busiest: the busiest thread's CPU seconds, what the")
    print(" wall time is on free cores)")
    head = f"{'pl':>2} {'thr':>3} {'proven':>7} {'median s':>9} {'max s':>7} {'median CPU':>10}"
    print(head + f" {'busiest':>8}  answers")
    rows = []
    for players in (3, 4, 5):
        for th in threads:
            results = []
            for seed in range(seeds):
                pos, seat = _round_start(players, 800 + seed)
                clear_cache()
                with _ThreadCpu() as split:
                    t, c, me = time.perf_counter(), time.process_time(), time.thread_time()
                    lim = Limits(limit, threads=th)
                    ok, status = can_force(pos, seat, Target("avoid-paradox"), limits=lim)
                    wall, cpu = time.perf_counter() - t, time.process_time() - c
                    mine = time.thread_time() - me  # the calling thread (the whole search)
                results.append({"players": players, "threads": th, "seed": 800 + seed,
                                "answer": ok, "status": status, "s": wall, "cpu": cpu,
                                "busiest": max([mine, *split.cpu])})  # fmt: skip
            rows.extend(results)
            times = [float(str(r["s"])) for r in results]
            med = statistics.median
            cpu_m = med(float(str(r["cpu"])) for r in results)
            busy = med(float(str(r["busiest"])) for r in results)
            n_ok = sum(r["status"] == "proven" for r in results)
            print(
                f"{players:>2} {th:>3} {n_ok:>3}/{len(results):<3} {med(times):>9.2f} "
                f"{max(times):>7.2f} {cpu_m:>10.2f} {busy:>8.2f}  {[r['answer'] for r in results]}",
                flush=True,
            )
    return rows


def split_nodes(quick: bool) -> list[dict[str, Any]]:
    """The round start's paradox question at 4 players searched whole (one engine) and play by
    play (each play of the seat to play on empty tables, as can_force does with threads > 1):
    nodes and CPU seconds of each, and the largest play (what two threads wait for at least)."""
    print("\n== one search of the node vs one search per play (4p round start, avoid a paradox)")
    print(
        f"{'seed':>4} {'whole M':>8} {'s':>6} {'per play M':>10} {'s':>6} {'largest M':>9}  answers"
    )
    rows = []
    for seed in range(800, 803 if quick else 807):
        pos, seat = _round_start(4, seed)
        eng = native.NativeEngine.for_position(pos, seat)
        st = eng.state_of(pos)
        c = time.process_time()
        whole = eng.win(st, 0, st[11])
        row: dict[str, Any] = {"seed": seed, "whole": eng.nodes, "whole_s": time.process_time() - c}
        kids, answers = [], []
        c = time.process_time()
        for _, ch in families.distinct_children(eng, st):
            one = native.NativeEngine.for_position(pos, seat)
            answers.append(one.win(ch, 0, ch[11]))
            kids.append(one.nodes)
        row.update(plays=kids, per_play=sum(kids), per_play_s=time.process_time() - c)
        assert any(answers) == whole
        rows.append(row)
        print(f"{seed:>4} {row['whole'] / 1e6:>8.1f} {row['whole_s']:>6.1f} "
              f"{row['per_play'] / 1e6:>10.1f} {row['per_play_s']:>6.1f} {max(kids) / 1e6:>9.1f}"
              f"  {whole}", flush=True)  # fmt: skip
    med = statistics.median
    print(f"median: whole {med(r['whole'] for r in rows) / 1e6:.1f} M, per play "
          f"{med(r['per_play'] for r in rows) / 1e6:.1f} M, largest play "
          f"{med(max(r['plays']) for r in rows) / 1e6:.1f} M")  # fmt: skip
    return rows


def initial_numbers(quick: bool) -> list[dict[str, Any]]:
    """df-pn's initial disproof numbers of the other seats' nodes (search.h pn_other; 0 is
    the plain start at 1, native.PN_OTHER the default) from the 4- and 5-player round start,
    both in the same run: nodes and CPU seconds (60 M-node cap), answers equal."""
    cases = [(4, s) for s in range(800, 803 if quick else 807)] + [(5, 801)]
    return _start_ab("df-pn initial numbers from the round start", cases, {"pn_other": 0},
                     {"pn_other": native.PN_OTHER[4]})  # fmt: skip


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


def _score_rows(cases: list[tuple[int, int, int]], mask: int, cap: int) -> dict[str, Any]:
    """The score question (para or value) of every analyze row of the cases, a fresh engine
    per row with the score bounds ``mask``: nodes, seconds, answers."""
    tot: dict[str, Any] = {"para": 0, "value": 0, "s": 0.0, "unknown": 0, "answers": []}
    for players, left, seed in cases:
        pos = random_position(players, seed, left)
        seat = pos.to_play
        assert seat is not None
        root = native.NativeEngine.for_position(pos, seat)
        for _idx, ch in root.children(root.state_of(pos)):
            eng = native.NativeEngine.for_position(pos, seat)
            eng.core.set_score_bounds(mask)
            eng.set_budget(cap, None)
            try:
                g = eng.win(ch, 0, ch[11])
                at_least = ch[10] + families.most_more(eng, ch, ch[11]) if g else None
            except OutOfTime:
                tot["unknown"] += 1
                tot["answers"].append(None)
                continue
            kind = "value" if g else "para"
            n0, t0 = eng.nodes, time.perf_counter()
            try:
                v = families.score_value(eng, ch, at_least)
            except OutOfTime:
                v = None
                tot["unknown"] += 1
            tot[kind] += eng.nodes - n0
            tot["s"] += time.perf_counter() - t0
            tot["answers"].append(v)
    return tot


def score_bounds(quick: bool) -> list[dict[str, Any]]:
    print("\n== score rows (para, value) with the score bounds off / on (fresh tables per row)")
    cases = [(3, 4, s) for s in (700, 701, 702)] + [(4, 4, s) for s in (700, 701, 702)]
    if not quick:
        cases += [(5, 4, 700), (5, 4, 701), (3, 5, 700), (4, 5, 701)]
    cap = 40_000_000
    print(f"{'bounds':>7} {'para Mnodes':>11} {'value Mnodes':>12} {'s':>7} {'unknown':>7}")
    rows = []
    base: list[Any] | None = None
    for name, mask in (("off", 0), ("on", SCORE_DEFAULT)):
        r = _score_rows(cases, mask, cap)
        same = "" if base is None else ("  answers equal" if r["answers"] == base else "  DIFFER")
        base = base or r["answers"]
        print(f"{name:>7} {r['para'] / 1e6:>11.2f} {r['value'] / 1e6:>12.2f} {r['s']:>7.1f} "
              f"{r['unknown']:>7}{same}", flush=True)  # fmt: skip
        rows.append({"bounds": name, **r})
    return rows


def _core_case(players: int, left: int, seed: int, mask: int, cap: int) -> dict[str, Any]:
    """Every analyze answer of every row of one position (one engine, as analyze_moves runs
    them) with the search switches ``mask``: nodes, seconds, answers (None past ``cap``)."""
    pos = random_position(players, seed, left)
    seat = pos.to_play
    assert seat is not None
    saved = native.SEARCH
    native.SEARCH = mask
    try:
        eng = native.NativeEngine.for_position(pos, seat)
    finally:
        native.SEARCH = saved
    eng.set_budget(cap, None)
    answers: list[Any] = []
    t, cpu = time.perf_counter(), time.process_time()
    try:
        for _idx, ch in eng.children(eng.state_of(pos)):
            out, _status = families.ask_all(eng, ch)
            answers.append(out)
    except OutOfTime:
        answers.append(None)
    return {"nodes": eng.nodes, "s": time.perf_counter() - t, "cpu": time.process_time() - cpu,
            "answers": answers}  # fmt: skip


def _core_start(players: int, seed: int, mask: int, limit: float) -> dict[str, Any]:
    """can_force(avoid-paradox) from the round start with the search switches ``mask``."""
    pos, seat = _round_start(players, seed)
    saved = native.SEARCH
    native.SEARCH = mask
    try:
        clear_cache()
        t = time.perf_counter()
        ok, status = can_force(pos, seat, Target("avoid-paradox"), limits=Limits(limit))
    finally:
        native.SEARCH = saved
    return {"nodes": None, "s": time.perf_counter() - t, "answers": [ok, status]}


# search.h SEARCH_*: none; normalised keys in every table (the default); in the alpha-beta
# tables only; equivalent numbers searched once; rank-normalised keys (ptable.h) at trick
# starts, and at every node; partition search (partition.h) at trick starts, and at every node
SEARCH_MASKS = (("none", 0), ("norm", 5), ("norm-ab", 1), ("equiv", 2), ("rank", 13),
                ("rank-all", 29), ("part", 37), ("part-all", 101))  # fmt: skip
SEARCH_PART, SEARCH_PART_EVERY = 32, 64  # search.h


def core_switches(quick: bool) -> list[dict[str, Any]]:
    """The search switches (search.h SEARCH_*) each alone, both and none, on every analyze
    answer of fixed positions (3p/6, 4p/5, 5p/4 tricks left) and on the paradox question from
    the round start: nodes, seconds, answers equal."""
    print("\n== search switches (normalised keys, equivalent numbers): analyze answers per row")
    cases = [(3, 6, 700), (3, 6, 701), (4, 5, 700), (4, 5, 701), (5, 4, 700), (5, 4, 701)]
    if not quick:
        cases += [(3, 6, 702), (4, 5, 702), (5, 4, 702)]
    cap = 150_000_000
    print(f"{'pl':>2} {'left':>4} {'seed':>4} " + " ".join(
        f"{n + ' Mn':>9} {n + ' cpu':>7}" for n, _ in SEARCH_MASKS))  # fmt: skip
    rows = []
    for players, left, seed in cases:
        res: dict[str, Any] = {"players": players, "tricks_left": left, "seed": seed}
        for name, mask in SEARCH_MASKS:
            res[name] = _core_case(players, left, seed, mask, cap)
        same = all(res[n]["answers"] == res["none"]["answers"] for n, _ in SEARCH_MASKS)
        res["equal"] = same
        rows.append(res)
        print(f"{players:>2} {left:>4} {seed:>4} " + " ".join(
            f"{res[n]['nodes'] / 1e6:>9.2f} {res[n]['cpu']:>7.2f}" for n, _ in SEARCH_MASKS)
            + ("" if same else "  DIFFER"), flush=True)  # fmt: skip
    for name, _ in SEARCH_MASKS:
        nodes = sum(r[name]["nodes"] for r in rows)
        secs = sum(r[name]["s"] for r in rows)
        cpu = sum(r[name]["cpu"] for r in rows)
        print(f"{name:>8}: {nodes / 1e6:8.1f} M nodes, {cpu:7.1f} s CPU, {secs:7.1f} s in all")
    print("\n   paradox guaranteed from the round start (60 s limit)")
    for players, seeds in ((4, (800, 801, 802)), (5, (800,))):
        for seed in seeds[: 2 if quick else 3]:
            res = {"players": players, "start": True, "seed": seed}
            for name, mask in SEARCH_MASKS:
                res[name] = _core_start(players, seed, mask, 60.0)
            rows.append(res)
            print(f"{players:>2} start {seed:>4} " + " ".join(
                f"{n}: {res[n]['s']:.1f} s {res[n]['answers'][1]}" for n, _ in SEARCH_MASKS),
                flush=True)  # fmt: skip
    return rows


def _analyzed(players: int, left: int, seed: int) -> dict[str, Any]:
    """analyze_moves of one position on one thread and a fresh session: nodes, CPU seconds,
    rows proven and the answers."""
    pos = random_position(players, seed, left)
    clear_cache()
    session = Session()
    cpu = time.process_time()
    rows = analyze_moves(pos, limits=Limits(threads=1), session=session)
    cpu = time.process_time() - cpu
    answers = [(str(r.play), r.guaranteed, r.forceable, r.best_score) for r in rows]
    proven = sum(r.status == "proven" for r in rows)
    return {"nodes": session.nodes, "cpu": cpu, "proven": proven, "answers": answers}


def _analyze_ab(title: str, off: dict[str, int], on: dict[str, int],
                cases: list[tuple[int, int, int]]) -> list[dict[str, Any]]:  # fmt: skip
    """Every analyze answer of ``cases`` (players, tricks left, seed; one thread, a fresh
    session per position, the order of the two alternated) with the core's switches ``off``
    and ``on`` (as _new_engines takes them): nodes and CPU seconds in the same run, answers
    equal."""
    print(f"\n== {title}: analyze")
    print(f"{'pl':>2} {'left':>4} {'seed':>4} {'off Mn':>8} {'off cpu':>8} {'on Mn':>8}"
          f" {'on cpu':>8} {'proven':>7}")  # fmt: skip
    rows = []
    for i, (players, left, seed) in enumerate(cases):
        res: dict[str, Any] = {"players": players, "tricks_left": left, "seed": seed}
        for name in ("off", "on") if i % 2 == 0 else ("on", "off"):
            with _new_engines(**(on if name == "on" else off)):
                res[name] = _analyzed(players, left, seed)
        res["equal"] = res["on"]["answers"] == res["off"]["answers"]
        rows.append(res)
        o, n = res["off"], res["on"]
        print(f"{players:>2} {left:>4} {seed:>4} {o['nodes'] / 1e6:>8.1f} {o['cpu']:>8.1f}"
              f" {n['nodes'] / 1e6:>8.1f} {n['cpu']:>8.1f} {n['proven']:>3}/{len(n['answers'])}"
              + ("" if res["equal"] else "  DIFFER"), flush=True)  # fmt: skip
    for name in ("off", "on"):
        nodes = sum(r[name]["nodes"] for r in rows)
        cpu = sum(r[name]["cpu"] for r in rows)
        print(f"{name:>4}: {nodes / 1e6:8.1f} M nodes, {cpu:7.1f} s CPU")
    return rows


# positions one step past the horizon where the score's paradox regime takes the time
PAST_HORIZON = [(3, 7, 700), (3, 7, 701), (3, 7, 702), (5, 5, 702), (4, 6, 700), (4, 6, 701)]


def lost_trick(quick: bool) -> list[dict[str, Any]]:
    """BOUND_LOST_TRICK off and on, the other bounds at their defaults (_analyze_ab), on
    positions past the horizon."""
    cases = [(3, 7, 702), (5, 5, 701)] if quick else PAST_HORIZON
    title = "the paradox part when S loses the current trick (BOUND_LOST_TRICK)"
    off = {"bounds": BOUNDS_DEFAULT & ~BOUND_LOST_TRICK}
    return _analyze_ab(title, off, {"bounds": BOUNDS_DEFAULT}, cases)


HIST_AGE = 1  # search.h Options.hist_age measured (the default is 0: off)


def history_age(quick: bool) -> list[dict[str, Any]]:
    """The move-ordering history aged before each question of solve (search.h hist_age,
    off by default) off and on (_analyze_ab): every analyze answer past the horizon and on
    it."""
    cases = [(5, 5, 702), (4, 5, 700)] if quick else [
        *PAST_HORIZON, (4, 6, 702), (5, 5, 700),
        *((p, left, s) for p, left in ((3, 6), (4, 5), (5, 4)) for s in (700, 701))]  # fmt: skip
    title = f"the history aged before each question (hist_age {HIST_AGE})"
    return _analyze_ab(title, {"hist_age": 0}, {"hist_age": HIST_AGE}, cases)


def partition(quick: bool) -> list[dict[str, Any]]:
    """Partition search (search.h SEARCH_PART, partition.h) against the default keys: every
    analyze answer of the horizon positions (3p/6, 4p/5, 5p/4 seeds 700-702; one engine per
    position, as --only core), as analyze asks them (df-pn from deep roots) and by alpha-beta
    alone (win's table is where the partition is), with sorted keys at trick starts (part) and
    at every node (every), the settings' order rotated per position; then the paradox
    question from the 4p round start (seeds 800-802, df-pn with win below 3 tricks left):
    nodes and CPU seconds in the same run, answers equal."""
    cases = [(p, left, s) for p, left in ((3, 6), (4, 5), (5, 4)) for s in (700, 701, 702)]
    if quick:
        cases = [c for c in cases if c[2] < 702]
    cap = 150_000_000
    norm = native.SEARCH
    masks = (("keys", norm), ("part", norm | SEARCH_PART),
             ("every", norm | SEARCH_PART | SEARCH_PART_EVERY))  # fmt: skip
    rows: list[dict[str, Any]] = []
    for mode in ("analyze", "alpha-beta"):
        print(f"\n== partition search vs the default keys: analyze answers per row ({mode})")
        print(f"{'pl':>2} {'left':>4} {'seed':>4} " + " ".join(
            f"{n + ' Mn':>9} {n + ' cpu':>9}" for n, _ in masks))  # fmt: skip
        saved = dict(native.PN_FROM)
        if mode == "alpha-beta":
            native.PN_FROM.update(dict.fromkeys(saved, 99))
        try:
            for i, (players, left, seed) in enumerate(cases):
                res: dict[str, Any] = {"mode": mode, "players": players, "tricks_left": left,
                                       "seed": seed}  # fmt: skip
                for name, mask in masks[i % 3 :] + masks[: i % 3]:  # the order rotated
                    res[name] = _core_case(players, left, seed, mask, cap)
                res["equal"] = all(res[n]["answers"] == res["keys"]["answers"] for n, _ in masks)
                rows.append(res)
                cells = " ".join(f"{res[n]['nodes'] / 1e6:>9.2f} {res[n]['cpu']:>9.2f}"
                                 for n, _ in masks)  # fmt: skip
                print(f"{players:>2} {left:>4} {seed:>4} {cells}"
                      + ("" if res["equal"] else "  DIFFER"), flush=True)  # fmt: skip
        finally:
            native.PN_FROM.update(saved)
        for name, _ in masks:
            rs = [r[name] for r in rows if r["mode"] == mode]
            print(f"{name:>5}: {sum(r['nodes'] for r in rs) / 1e6:8.2f} M nodes, "
                  f"{sum(r['cpu'] for r in rs):7.2f} s CPU")  # fmt: skip
    starts = [(4, s) for s in (800, 801, 802)]
    for name, mask in masks[1:]:
        rows += _start_ab(f"partition search ({name}), the paradox question from the 4p round "
                          "start", starts, {"search": norm}, {"search": mask})  # fmt: skip
    return rows


def possible_set(seeds: int, limit: float) -> list[dict[str, Any]]:
    print(f"\n== possible trick set at a full 4-player deal ({limit:.0f} s limit)")
    rows: list[dict[str, Any]] = []
    for seed in range(seeds):
        pos, seat = _round_start(4, 800 + seed)
        t, c = time.perf_counter(), time.process_time()
        r = tricks_possible(pos, seat, limits=Limits(limit))
        rows.append({"seed": 800 + seed, "status": r.status, "s": time.perf_counter() - t,
                     "cpu": time.process_time() - c, "undecided": list(r.undecided)})  # fmt: skip
    times = [float(r["s"]) for r in rows]
    cpu = [float(r["cpu"]) for r in rows]
    n_ok = sum(r["status"] == "proven" for r in rows)
    worst = max(rows, key=lambda r: float(r["s"]))
    print(f"proven {n_ok}/{len(rows)}, median {statistics.median(times):.2f} s, "
          f"max {max(times):.2f} s (seed {worst['seed']}); CPU median "
          f"{statistics.median(cpu):.2f} s, max {max(cpu):.2f} s "
          "(target 30/30 at 30 seeds, max <= 10 s)")  # fmt: skip
    return rows


def _timed_rows(pos: Any, threads: int) -> tuple[Any, float, float, float]:
    """``analyze_moves`` with ``threads`` threads and a fresh session: rows, wall seconds,
    process CPU seconds and the busiest thread's CPU seconds (its rows' searches)."""
    per: dict[int, float] = {}
    ask = families.ask_family

    def timed(eng: Any, st: Any, out: Any, family: Any) -> Any:
        c = time.thread_time()
        try:
            return ask(eng, st, out, family)
        finally:
            me = threading.get_ident()
            per[me] = per.get(me, 0.0) + time.thread_time() - c

    families.ask_family = timed
    try:
        t, c = time.perf_counter(), time.process_time()
        rows = analyze_moves(pos, limits=Limits(threads=threads), session=Session())
        wall, cpu = time.perf_counter() - t, time.process_time() - c
    finally:
        families.ask_family = ask
    return rows, wall, cpu, max(per.values(), default=0.0)


def threads_ratio(seeds: int) -> list[dict[str, Any]]:
    print("\n== analyze_moves with 1 and 2 threads (same run, fresh sessions, no limit)")
    print(f"{'pl':>2} {'left':>4} {'seed':>4} {'1t wall':>8} {'2t wall':>8} {'1t cpu':>7} "
          f"{'2t cpu':>7} {'2t busiest':>10}  answers")  # fmt: skip
    rows = []
    for players, left in ((3, 6), (4, 5), (5, 4)):
        for seed in range(700, 700 + seeds):
            pos = random_position(players, seed, left)
            r1, w1, c1, b1 = _timed_rows(pos, 1)
            r2, w2, c2, b2 = _timed_rows(pos, 2)
            res = {"players": players, "tricks_left": left, "seed": seed, "wall": (w1, w2),
                   "cpu": (c1, c2), "busiest": (b1, b2), "same": r1 == r2}  # fmt: skip
            rows.append(res)
            print(f"{players:>2} {left:>4} {seed:>4} {w1:>8.2f} {w2:>8.2f} {c1:>7.2f} {c2:>7.2f} "
                  f"{b2:>10.2f}  {'equal' if r1 == r2 else 'DIFFER'}", flush=True)  # fmt: skip
    w = [sum(r["wall"][i] for r in rows) for i in (0, 1)]
    c = [sum(r["cpu"][i] for r in rows) for i in (0, 1)]
    b2 = sum(r["busiest"][1] for r in rows)
    print(f"total: wall {w[0]:.1f} s -> {w[1]:.1f} s ({w[0] / w[1]:.2f}x); CPU {c[0]:.1f} s -> "
          f"{c[1]:.1f} s; busiest thread {b2:.1f} s (CPU 1 thread / busiest: {c[0] / b2:.2f}x, "
          "the ratio on two free cores)")  # fmt: skip
    return rows


def root_threads(seeds: int, limit: float) -> list[dict[str, Any]]:
    """``forced`` at the root (what ``catbox tricks`` asks) with 1 and 2 threads, one step
    past the horizon (3p / 7, 4p / 6, 5p / 5), fresh sessions, same run: with threads its yes/no
    questions are shared out (api._SharedRoot) and the paradox regime score's thresholds
    asked in parallel (api._Thresholds)."""
    print(f"\n== forced at the root, 1 and 2 threads ({limit:.0f} s limit, fresh sessions)")
    print(f"{'pl':>2} {'left':>4} {'seed':>4} {'1t wall':>8} {'2t wall':>8}  {'score':>5}  answers")
    rows: list[dict[str, Any]] = []
    for players, left in ((3, 7), (4, 6), (5, 5)):
        for seed in range(700, 700 + seeds):
            pos = random_position(players, seed, left).settle()
            seat = pos.to_play
            assert seat is not None
            got, wall = [], []
            for threads in (1, 2):
                clear_cache()
                t = time.perf_counter()
                f = forced(pos, seat, limits=Limits(limit, threads=threads))
                wall.append(time.perf_counter() - t)
                got.append(dataclasses.replace(f, nodes=0))
            same = got[0] == got[1]
            rows.append({"players": players, "tricks_left": left, "seed": seed, "wall": wall,
                         "status": [g.status for g in got], "same": same})  # fmt: skip
            verdict = "equal" if same else "DIFFER"
            print(f"{players:>2} {left:>4} {seed:>4} {wall[0]:>8.2f} {wall[1]:>8.2f}  "
                  f"{got[0].best_score!s:>5}  {verdict}", flush=True)  # fmt: skip
    w: list[list[float]] = [[r["wall"][i] for r in rows] for i in (0, 1)]
    print(f"total: wall {sum(w[0]):.1f} s -> {sum(w[1]):.1f} s ({sum(w[0]) / sum(w[1]):.2f}x); "
          f"median {statistics.median(w[0]):.2f} -> {statistics.median(w[1]):.2f} s, max "
          f"{max(w[0]):.2f} -> {max(w[1]):.2f} s")  # fmt: skip
    return rows


# search.h Options.bounds' default: BOUND_SAFE | DOOMED | TRICKS | STOPPERS | CROWD | PARA_END |
# DUCK | SAFE_DUCK | BEATEN | LOST_TRICK (15 until the paradox part's and the at-most goals'
# bounds; CROWD since stop 23)
BOUND_CROWD = 16  # bounds.h crowded_trick
BOUND_LOST_TRICK = 512  # bounds.h s_loses_trick, lost_cap
BOUND_LOST_TWO = 1024  # bounds.h s_losers: S's sure losers over two tricks
BOUNDS_DEFAULT = (
    1 | 2 | 4 | 8 | BOUND_CROWD | 32 | 64 | 128 | 256 | BOUND_LOST_TRICK | BOUND_LOST_TWO
)


def _start_with(players: int, seed: int, cap: int, **switches: int) -> dict[str, Any]:
    """``avoid-paradox`` from the round start on one native engine (df-pn after the
    alpha-beta probe, as can_force asks it with one thread) with the core's switches
    (_switch): answer (None past ``cap`` nodes), nodes, CPU seconds."""
    pos, seat = _round_start(players, seed)
    eng = native.NativeEngine.for_position(pos, seat)
    _switch(eng.core, switches)
    st = eng.state_of(pos)
    eng.set_budget(cap, None)
    c = time.process_time()
    try:
        ans: bool | None = eng.win(st, 0, st[11])
    except OutOfTime:
        ans = None
    return {"answer": ans, "nodes": eng.nodes, "cpu": time.process_time() - c}


def _start_ab(title: str, cases: list[tuple[int, int]], off: dict[str, int],
              on: dict[str, int]) -> list[dict[str, Any]]:  # fmt: skip
    """The round-start question with two switch settings, alternating in the same run."""
    cap = 60_000_000
    print(f"\n== {title} ({cap // 10**6} M-node cap)")
    print(f"{'pl':>2} {'seed':>4} {'off Mn':>7} {'off cpu':>7} {'on Mn':>7} {'on cpu':>7}  answer")
    rows = []
    for players, seed in cases:
        res: dict[str, Any] = {"players": players, "seed": seed}
        res["off"] = _start_with(players, seed, cap, **off)
        res["on"] = _start_with(players, seed, cap, **on)
        a, b = res["off"]["answer"], res["on"]["answer"]
        res["equal"] = a is None or b is None or a == b
        rows.append(res)

        def cell(r: dict[str, Any]) -> str:
            mn = f"{r['nodes'] / 1e6:.1f}" if r["answer"] is not None else f">{cap // 10**6}"
            return f"{mn:>7} {r['cpu']:>7.1f}"

        print(f"{players:>2} {seed:>4} {cell(res['off'])} {cell(res['on'])}  {a} / {b}"
              + ("" if res["equal"] else "  DIFFER"), flush=True)  # fmt: skip
    for side in ("off", "on"):
        done = [r[side] for r in rows if r[side]["answer"] is not None]
        nodes = [r[side]["nodes"] for r in rows]  # an unknown counts the cap
        print(f"{side:>3}: {len(done)}/{len(rows)} answered, median "
              f"{statistics.median(nodes) / 1e6:.1f} M nodes, median CPU "
              f"{statistics.median(r[side]['cpu'] for r in rows):.1f} s")  # fmt: skip
    return rows


def crowd_bound(quick: bool) -> list[dict[str, Any]]:
    """The crowded doom bound (bounds.h crowded_trick, BOUND_CROWD) off and on: every analyze
    answer past the horizon (_analyze_ab) and the paradox question from the 4- and 5-player
    round start (seeds 800-806 and 800-801), nodes and CPU seconds in the same run, answers
    equal."""
    cases = [(4, 6, 700)] if quick else [*PAST_HORIZON, (4, 6, 702), (5, 5, 700)]
    off = {"bounds": BOUNDS_DEFAULT & ~BOUND_CROWD}
    on = {"bounds": BOUNDS_DEFAULT}  # BOUND_CROWD is in the default mask
    rows = _analyze_ab("crowded doom bound (BOUND_CROWD)", off, on, cases)
    starts = [(4, s) for s in range(800, 803 if quick else 807)] + [(5, 800), (5, 801)]
    return rows + _start_ab("crowded doom bound, round start", starts, off, on)


def refuters(quick: bool) -> list[dict[str, Any]]:
    """df-pn's other-seat plays ordered by their refutations per tricks left (search.h
    pn_refuters, on from 7 tricks left at 4-5 players) off and on: the round start at 4
    players (seeds 800-806; held out 807-812 unless quick) and 5 (800-801), nodes and CPU
    seconds, answers equal."""
    cases = [(4, s) for s in range(800, 803 if quick else 813)] + [(5, 800), (5, 801)]
    return _start_ab("refutation order from the round start", cases, {"pn_refuters": 0},
                     {"pn_refuters": 7})  # fmt: skip


class _FreshGoals:
    """Stands in for an engine in analyze's question families (``families.ask_family``): every
    question they ask (win, exact_para, exact_value, avoid_possible) is answered on a fresh
    engine under ``cap`` nodes and recorded with its nodes, so the same goals can be replayed
    on one engine."""

    native = True

    def __init__(self, pos: Any, seat: int, cap: int) -> None:
        self.pos, self.seat, self.cap = pos, seat, cap
        probe = native.NativeEngine.for_position(pos, seat)
        self.ctx, self.players, self.prediction = probe.ctx, probe.players, probe.prediction
        self.para_guess = 0
        self.goals: list[tuple[str, tuple[Any, ...], Any, int]] = []

    def _ask(self, name: str, *args: Any) -> Any:
        eng = native.NativeEngine.for_position(self.pos, self.seat)
        eng.set_budget(self.cap, None)
        try:
            res = getattr(eng, name)(*args)
        except OutOfTime:
            res = None
        self.goals.append((name, args, res, eng.nodes))
        if res is None:
            raise OutOfTime("cut")
        return res

    def win(self, st: Any, lo: int, hi: int, pk: int = -1) -> bool:
        return bool(self._ask("win", st, lo, hi, pk))

    def exact_para(self, st: Any, guess: int, on_bound: Any = None) -> int:
        return int(self._ask("exact_para", st, guess))

    def exact_value(self, st: Any, guess: int | None = None, on_bound: Any = None) -> int:
        return int(self._ask("exact_value", st, guess))

    def avoid_possible(self, st: Any) -> bool:
        return bool(self._ask("avoid_possible", st))


def _goals_fresh_shared(players: int, seed: int, left: int, cap: int) -> dict[str, Any]:
    """The questions of every analyze row of one position, in analyze's order (family by
    family, api.FAMILIES; the MTD(f) guesses carried from row to row as analyze does), each
    on a fresh engine and then all on one engine: nodes per question, both ways. (A row's
    later families are asked even after a cap cut one of its questions.)"""
    pos = random_position(players, seed, left)
    seat = pos.to_play
    assert seat is not None
    fresh = _FreshGoals(pos, seat, cap)
    one = native.NativeEngine.for_position(pos, seat)
    goals = []
    kids = list(one.children(one.state_of(pos)))
    outs = [Partial() for _ in kids]
    order = [(f, row) for f in families.FAMILIES for row in range(len(kids))]
    for family, row in order:  # analyze's order: each family for every row in turn
        start = len(fresh.goals)
        outs[row], _done = families.ask_family(fresh, kids[row][1], outs[row], family)  # type: ignore[arg-type]
        for name, args, res, n_fresh in fresh.goals[start:]:
            one.set_budget(cap, None)
            n0 = one.nodes
            try:
                res2 = getattr(one, name)(*args)
            except OutOfTime:
                res2 = None
            assert res is None or res2 is None or res == res2, (row, name, args[1:])
            goals.append({"row": row, "goal": [name, *args[1:]], "answer": res,
                          "fresh": n_fresh, "shared": one.nodes - n0})  # fmt: skip
    return {"players": players, "seed": seed, "tricks_left": left, "goals": goals}


def _rows_one_engine(players: int, seed: int, left: int, cap: int, per_row: bool) -> dict[str, Any]:
    """Every analyze answer of one position (a mirrored play searched once) on one engine in
    analyze's order or (``per_row``) on a fresh engine per row, ``cap`` nodes per family of
    a row: rows proven, nodes, CPU seconds and the answers."""
    pos = random_position(players, seed, left)
    seat = pos.to_play
    assert seat is not None
    eng = native.NativeEngine.for_position(pos, seat)
    todo = [ch for _, ch in families.distinct_children(eng, eng.state_of(pos))]
    engines = [native.NativeEngine.for_position(pos, seat) if per_row else eng for _ in todo]
    outs = [Partial() for _ in todo]
    cut = [False] * len(todo)
    nodes, cpu = 0, time.process_time()
    # analyze's order on one engine (each family for every row in turn, api.FAMILIES); per
    # row, the same families row by row; a cap of `cap` nodes per family of a row
    order = [(f, r) for f in families.FAMILIES for r in range(len(todo))]
    if per_row:
        order.sort(key=lambda fr: fr[1])
    for family, r in order:
        if cut[r]:
            continue
        e = engines[r]
        e.set_budget(cap, None)
        n0 = e.nodes
        outs[r], done = families.ask_family(e, todo[r], outs[r], family)
        nodes += e.nodes - n0
        cut[r] = not done
    rows = [["unknown" if c else "proven", repr(o)] for o, c in zip(outs, cut, strict=True)]
    return {"rows": len(rows), "proven": cut.count(False), "nodes": nodes,
            "cpu": time.process_time() - cpu, "answers": rows}  # fmt: skip


def share(quick: bool) -> list[dict[str, Any]]:
    """One engine for every row of an analyze table (what analyze_moves does: its tables,
    proof numbers and move-ordering history serve every row) against fresh engines.
    1. The questions of every row of 5p / 5 seed 700, each on a fresh engine and all on one
       engine in analyze's order: nodes per question, the ones one engine costs far more.
    2. Every analyze answer on one engine and on a fresh engine per row, node cap per family
       of a row, on the horizon positions (3p / 6, 4p / 5, 5p / 4) and one step past (3p / 7,
       4p / 6, 5p / 5), seeds 700-702: rows proven, nodes, CPU seconds, answers equal where
       proven."""
    cap = 10_000_000 if quick else 40_000_000
    out: list[dict[str, Any]] = []
    print(f"\n== one engine for every row vs fresh engines ({cap / 1e6:.0f} M-node cap)")
    print("   5p / 5 seed 700, each question of each row (M nodes; fresh engine, one engine)")
    g = _goals_fresh_shared(5, 700, 5, cap)
    out.append(g)
    for q in g["goals"]:
        if max(q["fresh"], q["shared"]) < 100_000:
            continue
        far = "  <- one engine" if q["shared"] > 3 * q["fresh"] + 200_000 else ""
        print(f"   row {q['row']:>2} {' '.join(map(str, q['goal'])):<22} {q['answer']!s:>5} "
              f"{q['fresh'] / 1e6:>7.2f} {q['shared'] / 1e6:>7.2f}{far}")  # fmt: skip
    total = [sum(q[k] for q in g["goals"]) / 1e6 for k in ("fresh", "shared")]
    print(f"   all questions: fresh engines {total[0]:.1f} M, one engine {total[1]:.1f} M")
    print(f"\n{'pl':>2} {'left':>4} {'seed':>4} {'one: proven':>12} {'M nodes':>8} {'cpu s':>6}"
          f" {'per row: proven':>16} {'M nodes':>8} {'cpu s':>6}")  # fmt: skip
    seeds = (700,) if quick else (700, 701, 702)
    for players, left in ((3, 6), (4, 5), (5, 4), (3, 7), (4, 6), (5, 5)):
        if quick and (players, left) in ((3, 7), (4, 6)):
            continue
        for seed in seeds:
            one = _rows_one_engine(players, seed, left, cap, per_row=False)
            per = _rows_one_engine(players, seed, left, cap, per_row=True)
            for (s1, a1), (s2, a2) in zip(one["answers"], per["answers"], strict=True):
                assert s1 != "proven" or s2 != "proven" or a1 == a2, (players, left, seed)
            out.append({"players": players, "tricks_left": left, "seed": seed, "one": one,
                        "per_row": per})  # fmt: skip
            cells = [f"{r['proven']:>4}/{r['rows']:<3} {r['nodes'] / 1e6:>8.1f} {r['cpu']:>6.1f}"
                     for r in (one, per)]  # fmt: skip
            print(f"{players:>2} {left:>4} {seed:>4} {cells[0]:>21} {cells[1]:>28}", flush=True)
    return out


def where_time(quick: bool) -> list[dict[str, Any]]:
    """Where an analyze table's time goes one step past the horizon (3p / 7, 4p / 6 and 5p / 5
    tricks left, seed 700): the rows of the seat to play on one engine (as analyze searches
    them), each question under its own node cap, nodes per question family (paradox
    avoidance, the trick answers, the score) and how many rows each cap cut; then the engine's
    nodes by tricks left (cxx/search.h Profile): which depths and which side cost."""
    cap, rows = (5_000_000, 2) if quick else (20_000_000, 4)
    print(f"\n== where the time goes past the horizon ({rows} rows each, {cap / 1e6:.0f} M-node cap"
          " per question; M nodes, rows cut)")  # fmt: skip
    print(f"{'pl':>2} {'left':>4} {'guaranteed':>11} {'tricks':>11} {'score':>11}  score values")
    out = []
    profiles = []
    for players, left in ((3, 7), (4, 6), (5, 5)):
        pos = random_position(players, 700, left)
        seat = pos.to_play
        assert seat is not None
        eng, _ = Session().engine(pos, seat, fresh=True)
        nodes = {"guaranteed": 0, "tricks": 0, "score": 0}
        cut = dict.fromkeys(nodes, 0)
        values: list[int | str | None] = []
        for _, ch in list(eng.children(eng.state_of(pos)))[:rows]:
            g: Any = None
            for family in nodes:
                if family == "tricks" and not g:
                    continue
                eng.set_budget(cap, None)
                n0 = eng.nodes
                try:
                    if family == "guaranteed":
                        g = eng.win(ch, 0, ch[11])
                    elif family == "tricks":
                        most = families.most_more(eng, ch, ch[11])
                        fewest = families.fewest_more(eng, ch, ch[11])
                        for k in range(fewest, most + 1):
                            eng.win(ch, k, k)
                    else:
                        values.append(families.score_value(eng, ch))
                except OutOfTime:
                    cut[family] += 1
                    if family == "score":
                        values.append("cut")
                    if family == "guaranteed":
                        break
                finally:
                    nodes[family] += eng.nodes - n0
        assert isinstance(eng, native.NativeEngine)  # the compiled core: .ci/run fails without it
        profile = eng.core.profile()
        row = {"players": players, "tricks_left": left, "nodes": nodes, "cut": cut,
               "values": values, "profile": profile}  # fmt: skip
        out.append(row)
        cells = " ".join(f"{nodes[f] / 1e6:>7.1f} {cut[f]:>3}" for f in nodes)
        print(f"{players:>2} {left:>4} {cells}  {values}", flush=True)
        profiles.append((players, left, profile))
    print(
        "\n   by tricks left (M nodes; S: S to play, O: the others; pn: df-pn children"
        " evaluated + nodes expanded; static: win goals the static bounds answered yes / no)"
    )
    print(f"{'pl':>2} {'left':>4} {'at':>4} {'S':>7} {'O':>7} {'S pn':>7} {'O pn':>7}"
          f" {'yes':>7} {'no':>7}")  # fmt: skip
    for players, left, profile in profiles:
        by: dict[int, list[float]] = {}
        for at, s_to_play, win, ev, mid, score, yes, no in profile:
            b = by.setdefault(at, [0.0] * 6)
            b[0 if s_to_play else 1] += (win + ev + mid + score) / 1e6
            b[2 if s_to_play else 3] += (ev + mid) / 1e6
            b[4] += yes / 1e6
            b[5] += no / 1e6
        for at in sorted(by, reverse=True):
            print(f"{players:>2} {left:>4} {at:>4} " + " ".join(f"{x:>7.2f}" for x in by[at]))
    return out


def _deciding_probe(players: int, left: int, seed: int, cap: int) -> dict[str, Any]:
    """The first analyze row in the score's paradox regime of a random position and its
    deciding probe ("S's paradox after at most j more tricks, or none", the yes at the exact
    j) searched on a fresh engine: row, j, the probe engine, the row's state, its nodes and CPU
    seconds; {} when no row is in that regime. Raises OutOfTime past ``cap`` nodes."""
    pos = random_position(players, seed, left)
    seat = pos.to_play
    assert seat is not None
    eng, _ = Session().engine(pos, seat, fresh=True)
    assert isinstance(eng, native.NativeEngine)  # the compiled core
    for i, (_, ch) in enumerate(eng.children(eng.state_of(pos))):
        eng.set_budget(cap, None)
        if not eng.win(ch, 0, ch[11]):
            eng.set_budget(cap, None)
            j = -eng.exact_para(ch, 0)
            probe, _ = Session().engine(pos, seat, fresh=True)
            assert isinstance(probe, native.NativeEngine)
            probe.set_budget(cap, None)
            c0 = time.process_time()
            assert probe.win(ch, 0, ch[11], j)
            cpu = time.process_time() - c0
            return {"row": i, "j": j, "probe": probe, "state": ch, "searched": probe.nodes,
                    "cpu": cpu, "seat": seat, "pos": pos}  # fmt: skip
    return {}


def proof_size(seeds: int, cap: int) -> list[dict[str, Any]]:
    """The proof of the score's deciding probe against the nodes searched for it (part 12)."""
    print(f"\n== the proof's size: the first paradox-regime row's deciding probe (\"at most j more"
          f" tricks\") on a fresh engine, {cap / 1e6:.0f} M-node cap per question")  # fmt: skip
    print(f"{'pl':>2} {'left':>4} {'seed':>4} {'row':>4} {'j':>2} {'searched':>10} {'CPU s':>6}"
          f" {'inner':>9} {'leaves':>9} {'ratio':>6}  inner by tricks left")  # fmt: skip
    out = []
    for players, left in ((3, 6), (3, 7), (4, 5), (4, 6), (5, 4), (5, 5)):
        for seed in range(700, 700 + seeds):
            row: dict[str, Any] = {"players": players, "tricks_left": left, "seed": seed}
            try:
                d = _deciding_probe(players, left, seed, cap)
                if d:
                    ch, j = d["state"], d["j"]
                    size = d["probe"].proof_size(ch, 0, ch[11], j)
                    assert size is not None
                    row.update(row=d["row"], j=j, searched=d["searched"], cpu=d["cpu"],
                               inner=size[0], leaves=size[1], by_left=size[2])  # fmt: skip
            except OutOfTime:
                row["cut"] = True
            out.append(row)
            if "inner" in row:
                by = " ".join(str(n) for n in reversed(row["by_left"]) if n)
                ratio = row["searched"] / (row["inner"] + row["leaves"])
                print(f"{players:>2} {left:>4} {seed:>4} {row['row']:>4} {row['j']:>2}"
                      f" {row['searched']:>10} {row['cpu']:>6.2f} {row['inner']:>9}"
                      f" {row['leaves']:>9} {ratio:>6.1f}  {by}", flush=True)  # fmt: skip
            else:
                note = "cut by the cap" if row.get("cut") else "no row in the paradox regime"
                print(f"{players:>2} {left:>4} {seed:>4}  {note}", flush=True)
    return out


# the fixed probes of the proofs' work: one step past the horizon at each player count
CENSUS_CASES = ((3, 7), (4, 6), (5, 5))


def _place(players: int, seat: int, fs: tuple[int, ...]) -> str:
    """S's place in the trick of a native state: leads it, to play (following), waits (to
    play later in it) or done (has played in it)."""
    leader, cnt = fs[3], fs[4]
    order = (seat - leader) % players
    if order < cnt:
        return "done"
    if order == cnt:
        return "lead" if cnt == 0 else "to play"
    return "waits"


def _exact_pk(core: Any, fs: tuple[int, ...], lo: int, hi: int, pk: int, cap: int) -> int | None:
    """The least paradox part k (-1: none) with win(fs, lo, hi, k) a yes, given that pk's is
    (a census node is in a proof); None when a search passes ``cap`` nodes."""
    k = pk
    try:
        while k >= 0:
            core.set_budget(cap, -1.0)
            if not core.solve(fs, lo, hi, k - 1):
                return k
            k -= 1
    except OutOfTime:
        return None
    return -1


def _census_nodes(players: int, seed: int, d: dict[str, Any], per_level: int,
                  cap: int) -> list[dict[str, Any]]:  # fmt: skip
    """The sampled inner nodes of a deciding probe's proof, labelled: tricks left, S's place,
    the goal's gap (tricks left - pk), the exact least paradox part, the candidate rules'
    answers (lost_tricks: j and cap; with the mutants) and whether a rule's claim holds."""
    probe, ch, j = d["probe"], d["state"], d["j"]
    core = probe.core
    nodes = core.proof_census(native.flat(probe.ctx, ch), 0, ch[11], j, per_level)
    assert nodes is not None
    out = []
    for fs, lo, hi, pk in nodes:
        left = fs[9]
        r: dict[str, Any] = {"left": left, "place": _place(players, d["seat"], fs), "lo": lo,
                             "hi": hi, "pk": pk, "gap": left - pk if pk >= 0 else None}  # fmt: skip
        r["exact_pk"] = _exact_pk(core, fs, lo, hi, pk, cap)
        jr, cr = core.lost_tricks(fs)
        r["lost"] = (jr, cr)
        r["mutants"] = (core.lost_tricks(fs, 1), core.lost_tricks(fs, 2))
        ub = core.static_bounds(fs)[0]
        r["ub"] = ub
        if jr:
            core.set_budget(cap, -1.0)
            try:  # the rule's whole claim: at most ub - j tricks, paradox after at most cr
                r["claim"] = core.solve(fs, 0, max(ub - jr, 0), cr)
            except OutOfTime:
                r["claim"] = None
        out.append(r)
    return out


def _print_settled(
    rows: list[dict[str, Any]],
    gaps: Iterable[int],
    places: Iterable[str],
    covers: Callable[[dict[str, Any]], bool],
) -> None:
    """A census's sampled nodes settled by the rule, by gap and by place (losers, safe)."""
    for what, keys, fmt in (("gap", gaps, "gap {}"), ("place", places, "{}")):
        print(f"  settled by {what}: " + ", ".join(
            f"{fmt.format(k)} {sum(1 for r in rows if r[what] == k and covers(r))}"
            f"/{sum(1 for r in rows if r[what] == k)}" for k in keys))  # fmt: skip


def _census_print(rows: list[dict[str, Any]]) -> None:
    """Coverage tables of the census: nodes by tricks left and gap, by tricks left and S's
    place; the nodes S's sure losers (bounds.h s_losers with BOUND_LOST_TWO) would settle, and
    the claims the exact search refutes (must be 0; the mutants' must not)."""

    def covers(r: dict[str, Any]) -> bool:
        jr, cr = r["lost"]
        ok = jr > 0 and r["lo"] == 0 and r["pk"] >= cr >= 0 and r["hi"] >= r["ub"] - jr
        return bool(ok)

    places = ("lead", "to play", "waits", "done")
    lefts = sorted({r["left"] for r in rows}, reverse=True)
    gaps = sorted({r["gap"] for r in rows if r["gap"] is not None})
    print(f"{'left':>4} {'nodes':>6} | " + " ".join(f"gap{g:>2}" for g in gaps) + " no-pk |"
          " " + " ".join(f"{p[:5]:>5}" for p in places) + " | losers settle: all (2 tricks)"
          " | wrong / mutants' wrong")  # fmt: skip
    for left in lefts:
        at = [r for r in rows if r["left"] == left]
        by_gap = " ".join(f"{sum(1 for r in at if r['gap'] == g):>5}" for g in gaps)
        nopk = sum(1 for r in at if r["gap"] is None)
        by_place = " ".join(f"{sum(1 for r in at if r['place'] == p):>5}" for p in places)
        cov = [r for r in at if covers(r)]
        two = sum(1 for r in cov if r["lost"][0] == 2)
        wrong = sum(1 for r in at if r["lost"][0] and r.get("claim") is False)
        mut = sum(1 for r in at for m in r["mutants"]
                  if m[0] and r["exact_pk"] is not None and m[1] < r["exact_pk"])  # fmt: skip
        print(
            f"{left:>4} {len(at):>6} | {by_gap} {nopk:>5} | {by_place} |"
            f" {len(cov):>5} {100 * len(cov) / len(at):5.1f} % ({two:>4}) | {wrong} / {mut}"
        )
    _print_settled(rows, gaps, places, covers)
    slack = [r["pk"] - r["exact_pk"] for r in rows if r["exact_pk"] is not None and r["pk"] >= 0]
    if slack:
        print("  goal's pk above the exact least: " + ", ".join(
            f"{k}: {slack.count(k)}" for k in sorted(set(slack))))  # fmt: skip


def census(seeds: int, per_level: int, cap: int) -> list[dict[str, Any]]:
    """The census of the fixed probes' proofs (part 14): a sample of inner nodes by tricks
    left, labelled with exact answers, and what candidate static rules would settle."""
    print(f"\n== the census: {per_level} inner nodes per tricks left of each deciding probe's"
          f" proof (3p / 7, 4p / 6, 5p / 5; 100 M-node cap), labelled by exact searches"
          f" ({cap / 1e6:.0f} M-node cap each)")  # fmt: skip
    out = []
    for players, left in CENSUS_CASES:
        rows: list[dict[str, Any]] = []
        for seed in range(700, 700 + seeds):
            c0 = time.process_time()
            try:
                d = _deciding_probe(players, left, seed, 100_000_000)
            except OutOfTime:
                print(f"{players}p / {left} seed {seed}: cut by the cap")
                continue
            if not d:
                print(f"{players}p / {left} seed {seed}: no row in the paradox regime")
                continue
            got = _census_nodes(players, seed, d, per_level, cap)
            for r in got:
                r.update(players=players, tricks_left=left, seed=seed)
            rows += got
            print(f"{players}p / {left} seed {seed} row {d['row']} j {d['j']}: {len(got)} nodes"
                  f" sampled, {time.process_time() - c0:.1f} s CPU", flush=True)  # fmt: skip
        if rows:
            print(f"-- {players} players, {left} tricks left")
            _census_print(rows)
        out += rows
    return out


BOUND_LOST_PLAYS = 2048  # bounds.h s_plays_two (a part of s_losers, off)
BOUND_LOST_OVERTAKEN = 4096  # bounds.h s_overtaken (a part of s_losers, off)


def _probe_or_say(players: int, left: int, seed: int, cap: int) -> dict[str, Any] | None:
    """_deciding_probe of one case, or None after a line saying why there is none (cut by
    the cap, or no row in the paradox regime)."""
    try:
        d = _deciding_probe(players, left, seed, cap)
    except OutOfTime:
        print(f"{players:>2} {left:>4} {seed:>4}  cut by the cap")
        return None
    if not d:
        print(f"{players:>2} {left:>4} {seed:>4}  no row in the paradox regime")
        return None
    return d


def _probe_under(d: dict[str, Any], mask: int, cap: int) -> dict[str, Any]:
    """The deciding probe of _deciding_probe searched again on a fresh engine with the bounds
    ``mask``: nodes, CPU seconds (this thread's), its proof's size."""
    r = _fresh_probe(d, cap, lambda core: core.set_bounds(mask))
    del r["core"]
    return r


def _fresh_probe(
    d: dict[str, Any], cap: int, setup: Any, read: Any = lambda core: {}
) -> dict[str, Any]:
    """The deciding probe on a fresh engine after ``setup(core)`` (the switches): nodes, CPU
    seconds of this thread, the proof's inner nodes and leaves, by tricks left, with what
    ``read(core)`` returns before the proof's walk and ``core`` for reading after it."""
    probe, _ = Session().engine(d["pos"], d["seat"], fresh=True)
    assert isinstance(probe, native.NativeEngine)
    setup(probe.core)
    probe.set_budget(cap, None)
    ch, j = d["state"], d["j"]
    c0 = time.process_time()
    assert probe.win(ch, 0, ch[11], j)
    cpu = time.process_time() - c0
    nodes, before = probe.nodes, read(probe.core)
    size = probe.proof_size(ch, 0, ch[11], j)
    assert size is not None
    return {"nodes": nodes, "cpu": cpu, "inner": size[0], "leaves": size[1],
            "by_left": size[2], "core": probe.core, **before}  # fmt: skip


def losers(seeds: int, quick: bool) -> dict[str, Any]:
    """BOUND_LOST_TWO off and on, and on with each of its parts (part 15): the fixed probes'
    deciding probe (3p / 7, 4p / 6, 5p / 5) searched with each on a fresh engine (nodes, CPU
    seconds, the proof's inner nodes by tricks left), then every analyze answer past the
    horizon off and on (_analyze_ab)."""
    cap = 100_000_000
    off_mask = BOUNDS_DEFAULT & ~BOUND_LOST_TWO
    masks = {"off": off_mask, "on": BOUNDS_DEFAULT,
             "+plays": BOUNDS_DEFAULT | BOUND_LOST_PLAYS,
             "+overtaken": BOUNDS_DEFAULT | BOUND_LOST_OVERTAKEN}  # fmt: skip
    print(
        "\n== S's sure losers over two tricks (BOUND_LOST_TWO): the deciding probe, fresh"
        " engine each, CPU seconds of this thread (M nodes / CPU s / proof's inner nodes)"
    )
    print(f"{'pl':>2} {'left':>4} {'seed':>4}  " + "  ".join(f"{m:>24}" for m in masks)
          + "  inner by tricks left off / on")  # fmt: skip
    probes: list[dict[str, Any]] = []
    for players, left in CENSUS_CASES:
        for seed in range(700, 700 + seeds):
            d = _probe_or_say(players, left, seed, cap)
            if d is None:
                continue
            got = {name: _probe_under(d, m, cap) for name, m in masks.items()}
            probes.append({"players": players, "tricks_left": left, "seed": seed, **got})
            off, on = got["off"], got["on"]
            by = " ".join(f"{a}/{b}" for a, b in zip(reversed(off["by_left"]),
                          reversed(on["by_left"]), strict=True) if a or b)  # fmt: skip
            cells = "  ".join(f"{g['nodes'] / 1e6:>8.2f} {g['cpu']:>6.2f} {g['inner']:>8}"
                              for g in got.values())  # fmt: skip
            print(f"{players:>2} {left:>4} {seed:>4}  {cells}  {by}", flush=True)
    for name in masks:
        nodes = sum(p[name]["nodes"] for p in probes)
        cpu = sum(p[name]["cpu"] for p in probes)
        inner = sum(p[name]["inner"] for p in probes)
        rate = nodes / 1e6 / max(cpu, 1e-9)
        print(f"{name:>10}: {nodes / 1e6:8.2f} M nodes, {cpu:7.2f} s CPU ({rate:5.2f} M"
              f" nodes/s), {inner / 1e6:8.3f} M inner nodes")  # fmt: skip
    cases = [(3, 7, 702), (5, 5, 701)] if quick else PAST_HORIZON
    title = "S's sure losers over two tricks (BOUND_LOST_TWO)"
    rows = _analyze_ab(title, {"bounds": off_mask}, {"bounds": BOUNDS_DEFAULT}, cases)
    return {"probes": probes, "analyze": rows}


BOUND_SAFE_TWO = 8192  # bounds.h s_safe_losers: S's sure losers by a safe strategy


# positions with rows that avoid S's paradox, where "at most" goals get a yes (the fixed
# paradox probes' positions have none: every row of 3p / 7 seeds 700-702 and 5p / 5 seeds
# 700-711 is in the paradox regime)
AT_MOST_CASES = [(3, 6, 704), (3, 7, 703), (4, 5, 700), (4, 6, 701), (5, 4, 700), (5, 4, 705)]


def _at_most_probes(players: int, left: int, seed: int, cap: int) -> list[dict[str, Any]]:
    """The "at most b more tricks" yes of every row of a position that avoids S's paradox, b
    the fewest count S can force (families.fewest_more over every count, as ``forced`` asks
    it; below the tricks left), searched on one engine with the default bounds: row, b, the
    row's state and the position; a row a search of more than ``cap`` nodes cuts is left out
    (said)."""
    pos = random_position(players, seed, left)
    seat = pos.to_play
    assert seat is not None
    eng, _ = Session().engine(pos, seat, fresh=True)
    assert isinstance(eng, native.NativeEngine)
    out = []
    for i, (_, ch) in enumerate(eng.children(eng.state_of(pos))):
        try:
            eng.set_budget(cap, None)
            if not eng.win(ch, 0, ch[11]):
                continue
            b = families.fewest_more(eng, ch, ch[11])
        except OutOfTime:
            print(f"{players:>2} {left:>4} {seed:>4} {i:>3}  cut by the cap")
            continue
        if b < ch[11]:
            out.append({"row": i, "b": b, "state": ch, "pos": pos, "seat": seat})
    return out


def _at_most_under(d: dict[str, Any], mask: int, cap: int, hi: int | None = None) -> dict[str, Any]:
    """One row's "at most b" probe (or ``hi``) on a fresh engine with the bounds ``mask``: the
    answer, nodes, CPU seconds of this thread, and for a yes the proof's inner nodes by tricks
    left."""
    probe, _ = Session().engine(d["pos"], d["seat"], fresh=True)
    assert isinstance(probe, native.NativeEngine)
    probe.core.set_bounds(mask)
    probe.set_budget(cap, None)
    hi = d["b"] if hi is None else hi
    c0 = time.process_time()
    yes = probe.win(d["state"], 0, hi)
    cpu = time.process_time() - c0
    r: dict[str, Any] = {"yes": yes, "nodes": probe.nodes, "cpu": cpu, "inner": 0, "by_left": ()}
    probe.set_budget(None, None)  # the proof's walk and the census search on
    if yes:
        size = probe.proof_size(d["state"], 0, hi)
        assert size is not None
        r.update(inner=size[0], leaves=size[1], by_left=size[2])
    r["probe"] = probe
    return r


def _safe_census_nodes(players: int, d: dict[str, Any], per_level: int,
                       cap: int) -> list[dict[str, Any]]:  # fmt: skip
    """The sampled inner nodes of an "at most b" yes's proof (searched with the rule off),
    labelled: tricks left, S's place, the gap (round_end's ub - hi: the tricks S must lose
    beyond its static cap), the exact least hi, what s_safe_losers claims (j) and whether the
    search refutes the claim (and the mutant's that forgets the permissions the losers cost)."""
    probe = d["off"]["probe"]
    core = probe.core
    nodes = core.proof_census(native.flat(probe.ctx, d["state"]), 0, d["b"], -1, per_level)
    assert nodes is not None
    out = []
    for fs, lo, hi, pk in nodes:
        ub = core.static_bounds(fs)[0]
        r: dict[str, Any] = {"left": fs[9], "place": _place(players, d["seat"], fs), "lo": lo,
                             "hi": hi, "pk": pk, "ub": ub, "gap": ub - hi}  # fmt: skip
        j = core.safe_lost_tricks(fs)
        r["j"], r["mutant"] = j, core.safe_lost_tricks(fs, 4)  # SAFE_TWO_NO_DROP
        for name, jj in (("claim", j), ("mutant_claim", r["mutant"])):
            if jj:
                core.set_budget(cap, -1.0)
                try:  # the whole claim: no paradox and at most ub - j more tricks
                    r[name] = core.solve(fs, 0, max(ub - jj, 0), -1)
                except OutOfTime:
                    r[name] = None
        out.append(r)
    return out


def _safe_census_print(rows: list[dict[str, Any]]) -> None:
    """Coverage of s_safe_losers on the sampled "at most" nodes: by tricks left, gap and
    place; the claims refuted (must be 0) and the mutant's."""
    places = ("lead", "to play", "waits", "done")
    gaps = sorted({r["gap"] for r in rows})

    def covers(r: dict[str, Any]) -> bool:
        return bool(r["lo"] == 0 and 0 < r["gap"] <= r["j"])

    print(f"{'left':>4} {'nodes':>6} | " + " ".join(f"gap{g:>2}" for g in gaps) + " | "
          + " ".join(f"{p[:5]:>5}" for p in places) + " | settle (j=2) | wrong / mutant's"
          " wrong")  # fmt: skip
    for left in sorted({r["left"] for r in rows}, reverse=True):
        at = [r for r in rows if r["left"] == left]
        by_gap = " ".join(f"{sum(1 for r in at if r['gap'] == g):>5}" for g in gaps)
        by_place = " ".join(f"{sum(1 for r in at if r['place'] == p):>5}" for p in places)
        cov = [r for r in at if covers(r)]
        two = sum(1 for r in cov if r["gap"] == 2)
        wrong = sum(1 for r in at if r.get("claim") is False)
        mut = sum(1 for r in at if r.get("mutant_claim") is False)
        print(f"{left:>4} {len(at):>6} | {by_gap} | {by_place} | {len(cov):>4}"
              f" {100 * len(cov) / len(at):5.1f} % ({two}) | {wrong} / {mut}")  # fmt: skip
    _print_settled(rows, gaps, places, covers)
    fired = [r for r in rows if r["j"]]
    print(f"  fired (any gap): {len(fired)} (j = 2: {sum(r['j'] == 2 for r in fired)}),"
          f" claims searched {sum('claim' in r for r in rows)}, refuted"
          f" {sum(r.get('claim') is False for r in rows)}")  # fmt: skip


def _sum_line(name: str, got: list[dict[str, Any]]) -> None:
    nodes = sum(g["nodes"] for g in got)
    cpu = sum(g["cpu"] for g in got)
    inner = sum(g["inner"] for g in got)
    print(f"{name:>5}: {nodes / 1e6:8.2f} M nodes, {cpu:7.2f} s CPU, {inner / 1e6:7.3f} M inner")


def _at_most_case(
    case: tuple[int, int, int], masks: tuple[int, int], cap: int, per_level: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One position of AT_MOST_CASES: each row's "at most b" yes and "at most b - 1" no with
    the bounds off and on (printed), and the census of the row with the largest proof."""
    players, left, seed = case
    records, at_case = [], []
    for d in _at_most_probes(players, left, seed, cap):
        try:
            d["off"], d["on"] = (_at_most_under(d, m, cap) for m in masks)
            if d["b"] > 0:
                d["off_no"], d["on_no"] = (_at_most_under(d, m, cap, d["b"] - 1) for m in masks)
        except OutOfTime:
            print(f"{players:>2} {left:>4} {seed:>4} {d['row']:>3}  cut by the cap")
            continue
        assert d["off"]["yes"] and d["on"]["yes"]
        assert "off_no" not in d or not (d["off_no"]["yes"] or d["on_no"]["yes"])
        o, n = d["off"], d["on"]
        by = " ".join(f"{a}/{b}" for a, b in zip(reversed(o["by_left"]), reversed(n["by_left"]),
                                                 strict=True) if a or b)  # fmt: skip
        no = "  ".join(f"{g['nodes'] / 1e6:>9.3f} {g['cpu']:>6.2f}"
                       for g in (d.get("off_no"), d.get("on_no")) if g)  # fmt: skip
        print(f"{players:>2} {left:>4} {seed:>4} {d['row']:>3} {d['b']:>2} "
              + "  ".join(f"{g['nodes'] / 1e6:>9.3f} {g['cpu']:>6.2f} {g['inner']:>8}"
                          for g in (o, n)) + f"  {no:>34}  {by}", flush=True)  # fmt: skip
        at_case.append(d)
        rec = {"players": players, "tricks_left": left, "seed": seed, "row": d["row"], "b": d["b"]}
        for k in ("off", "on", "off_no", "on_no"):
            if k in d:
                rec[k] = {x: y for x, y in d[k].items() if x != "probe"}
        records.append(rec)
    census_rows: list[dict[str, Any]] = []
    if at_case and per_level:  # the census: the row with the largest proof
        d = max(at_case, key=lambda x: x["off"]["inner"])
        census_rows = _safe_census_nodes(players, d, per_level, 20_000_000)
        for r in census_rows:
            r.update(players=players, tricks_left=left, seed=seed, row=d["row"])
    return records, census_rows


def safe_losers(quick: bool, per_level: int) -> dict[str, Any]:
    """BOUND_SAFE_TWO off and on (part 17, first half): every row's "at most b" yes and "at
    most b - 1" no of AT_MOST_CASES (fresh engine each: nodes, CPU seconds, the yes's proof by
    tricks left) and the census of the yes proofs (safe_probes: the rest)."""
    cap = 50_000_000
    off_mask, on_mask = BOUNDS_DEFAULT & ~BOUND_SAFE_TWO, BOUNDS_DEFAULT | BOUND_SAFE_TWO
    print(
        "\n== S's sure losers by a safe strategy (BOUND_SAFE_TWO): every row's \"at most b\""
        ' yes and "at most b - 1" no, fresh engine each (M nodes / CPU s / proof\'s inner)'
    )
    print(f"{'pl':>2} {'left':>4} {'seed':>4} {'row':>3} {'b':>2} {'off: yes':>25} {'on: yes':>25}"
          f" {'off: no':>16} {'on: no':>16}  inner by tricks left off / on")  # fmt: skip
    rows: list[dict[str, Any]] = []
    census_rows: list[dict[str, Any]] = []
    for case in AT_MOST_CASES[:2] if quick else AT_MOST_CASES:
        got, sample = _at_most_case(case, (off_mask, on_mask), cap, per_level)
        rows += got
        census_rows += sample
    for name in ("off", "on"):
        _sum_line(name + " yes", [r[name] for r in rows])
        _sum_line(name + " no", [r[name + "_no"] for r in rows if name + "_no" in r])
    if census_rows:
        print('\n-- the census of the "at most" proofs (rule off), the largest row per position')
        for players, left, seed in AT_MOST_CASES:
            at = [r for r in census_rows if (r["players"], r["tricks_left"], r["seed"]) ==
                  (players, left, seed)]  # fmt: skip
            if at:
                print(f"-- {players} players, {left} tricks left, seed {seed}, row {at[0]['row']}")
                _safe_census_print(at)
    return {"at_most": rows, "census": census_rows}


def safe_probes(seeds: int, quick: bool) -> dict[str, Any]:
    """BOUND_SAFE_TWO off and on (part 17, second half): the fixed paradox probes with 3p / 8
    seed 700 row 0's (fresh engine each), and every analyze answer past the horizon and of
    AT_MOST_CASES (_analyze_ab)."""
    off_mask, on_mask = BOUNDS_DEFAULT & ~BOUND_SAFE_TWO, BOUNDS_DEFAULT | BOUND_SAFE_TWO
    probes: list[dict[str, Any]] = []
    print("\n-- the fixed paradox probes off / on (M nodes, CPU s, inner)")
    cases = [(p, left, s) for p, left in CENSUS_CASES for s in range(700, 700 + seeds)]
    for players, left, seed in cases + ([] if quick else [(3, 8, 700)]):
        fixed = _probe_or_say(players, left, seed, 1_000_000_000)
        if fixed is None:
            continue
        pair = {name: _probe_under(fixed, m, 1_000_000_000) for name, m in
                (("off", off_mask), ("on", on_mask))}  # fmt: skip
        probes.append({"players": players, "tricks_left": left, "seed": seed, **pair})
        print(f"{players:>2} {left:>4} {seed:>4}  " + "  ".join(
            f"{g['nodes'] / 1e6:>8.2f} {g['cpu']:>6.2f} {g['inner']:>9}" for g in pair.values())
            + "  " + " ".join(f"{a}/{b}" for a, b in zip(reversed(pair["off"]["by_left"]),
                              reversed(pair["on"]["by_left"]), strict=True) if a or b),
            flush=True)  # fmt: skip
    more = [c for c in AT_MOST_CASES if c not in PAST_HORIZON]
    cases_ab = [(3, 7, 702), (5, 5, 701)] if quick else PAST_HORIZON + more
    title = "S's sure losers by a safe strategy (BOUND_SAFE_TWO)"
    ab = _analyze_ab(title, {"bounds": off_mask}, {"bounds": on_mask}, cases_ab)
    return {"probes": probes, "analyze": ab}


SEARCH_NORMAL = 5  # search.h SEARCH_NORM | SEARCH_PN_NORM (the default)
SEARCH_MONO = 128  # subsume.h: win's facts matched by inclusion of the other seats' resources
SEARCH_MONO_CHECK = 512  # the subsumption table filled and counted, never used
SEARCH_SIM = 1024  # S's play that proved the last S node at its depth tried first
SUBSUME_MASKS = {"off": SEARCH_NORMAL, "mono": SEARCH_NORMAL | SEARCH_MONO,
                 "sim": SEARCH_NORMAL | SEARCH_SIM}  # fmt: skip


def _probe_search(d: dict[str, Any], search: int, cap: int, keep: int = 0) -> dict[str, Any]:
    """The deciding probe of _deciding_probe searched again on a fresh engine with the search
    switches ``search``: nodes, CPU seconds (this thread's), the proof's size (with
    SEARCH_MONO the walk's nodes a walked node's yes subsumes are leaves, ``subsumed``), and
    what the subsumption table answered (search.h MonoStats; ``keep`` df-pn claims kept)."""

    def setup(core: Any) -> None:
        core.set_search(search)
        core.set_mono_keep(keep)

    r = _fresh_probe(d, cap, setup, lambda core: {"mono": core.mono_stats()})
    r["subsumed"] = r.pop("core").mono_stats()["walk_subsumed"]
    return r


def _claims_hold(d: dict[str, Any], claims: list[Any], cap: int) -> tuple[int, int, int]:
    """df-pn's subsumption claims (SEARCH_MONO_CHECK) against a fresh search without the
    table: (held, refuted, cut by the cap)."""
    held = wrong = cut = 0
    for fs, lo, hi, pk, res in claims:
        eng, _ = Session().engine(d["pos"], d["seat"], fresh=True)
        assert isinstance(eng, native.NativeEngine)
        eng.core.set_budget(cap, -1.0)
        try:
            ok = eng.core.solve(fs, lo, hi, pk) == bool(res)
        except OutOfTime:
            cut += 1
            continue
        held += ok
        wrong += not ok
    return held, wrong, cut


def _coverage(m: dict[str, Any]) -> str:
    """The subsumption table's answers per goal asked, by tricks left (8 .. 2)."""
    return " ".join(f"{left}:{100 * m['hits'][left] / m['asked'][left]:.1f}%"
                    for left in range(8, 1, -1) if m["asked"][left])  # fmt: skip


def subsume(seeds: int, quick: bool) -> dict[str, Any]:
    """Monotone subsumption and simulation (part 16): the fixed probes' deciding probe on a
    fresh engine with SEARCH_MONO off / on and SEARCH_SIM on (nodes, CPU seconds, the proof's
    inner nodes), the table's coverage and wrong answers with SEARCH_MONO_CHECK (alpha-beta's
    answers against the search there, df-pn's claims searched afresh), and 3p / 8 seed 700
    row 0 (not with --quick)."""
    cap = 100_000_000
    print("\n== monotone subsumption (SEARCH_MONO) and simulation (SEARCH_SIM): the deciding"
          " probe, fresh engine each, CPU seconds of this thread (M nodes / CPU s / proof's"
          " inner nodes)")  # fmt: skip
    print(f"{'pl':>2} {'left':>4} {'seed':>4}  " + "  ".join(f"{m:>24}" for m in SUBSUME_MASKS)
          + "  inner by tricks left off / mono")  # fmt: skip
    probes: list[dict[str, Any]] = []
    cases = [(p, left, seed) for p, left in CENSUS_CASES for seed in range(700, 700 + seeds)]
    if not quick:
        cases.append((3, 8, 700))
    for players, left, seed in cases:
        d = _probe_or_say(players, left, seed, 1_000_000_000 if left == 8 else cap)
        if d is None:
            continue
        big = 1_000_000_000 if left == 8 else cap
        got = {name: _probe_search(d, m, big) for name, m in SUBSUME_MASKS.items()}
        check = _probe_search(d, SEARCH_NORMAL | SEARCH_MONO | SEARCH_MONO_CHECK, big, 40)
        m = check["mono"]
        claims = _claims_hold(d, m["claims"], 5_000_000)
        row = {"players": players, "tricks_left": left, "seed": seed, "row": d["row"],
               "j": d["j"], **got, "check": check, "claims": claims}  # fmt: skip
        probes.append(row)
        off, on = got["off"], got["mono"]
        by = " ".join(f"{a}/{b}" for a, b in zip(reversed(off["by_left"]),
                      reversed(on["by_left"]), strict=True) if a or b)  # fmt: skip
        cells = "  ".join(f"{g['nodes'] / 1e6:>8.2f} {g['cpu']:>6.2f} {g['inner']:>8}"
                          for g in got.values())  # fmt: skip
        print(f"{players:>2} {left:>4} {seed:>4}  {cells}  {by}", flush=True)
        print(f"      coverage (answers / goals asked, check run): {_coverage(m)};"
              f" yes {m['yes']} no {m['no']}; alpha-beta wrong {m['wrong']} of {m['checked']};"
              f" df-pn claims held / wrong / cut {claims[0]} / {claims[1]} / {claims[2]};"
              f" the proof with subsumed leaves: {check['inner']} inner"
              f" ({check['subsumed']} subsumed) against {off['inner']}", flush=True)  # fmt: skip
    fixed = [p for p in probes if p["tricks_left"] != 8]
    for name in SUBSUME_MASKS:
        nodes = sum(p[name]["nodes"] for p in fixed)
        cpu = sum(p[name]["cpu"] for p in fixed)
        inner = sum(p[name]["inner"] for p in fixed)
        print(f"{name:>6} (the {len(fixed)} fixed probes): {nodes / 1e6:8.2f} M nodes,"
              f" {cpu:7.2f} s CPU, {inner / 1e6:8.3f} M inner nodes")  # fmt: skip
    return {"probes": probes}


def _verdict(ok: bool | None) -> str:
    return "not run" if ok is None else "met" if ok else "missed"


def targets(out: dict[str, Any]) -> None:
    """The issue's targets, each met / missed / not run, from the parts that ran."""
    print("\n== targets")
    lines: list[tuple[str, str, bool | None]] = []
    hz = out.get("horizon")
    for players, left in ((3, 8), (4, 7), (5, 6)):
        name = f"every analyze row proven, {players}p / {left} tricks left, median <= 10 s"
        if hz is None:
            lines.append((name, "", None))
            continue
        rs = [r for r in hz if r["players"] == players and r["tricks_left"] == left]
        if not rs:
            best = max((r["tricks_left"] for r in hz if r["players"] == players and r["proven"]),
                       default=0)  # fmt: skip
            lines.append((name, f"not reached (all proven up to {best} at best)", False))
            continue
        med = statistics.median(float(r["s"]) for r in rs)
        n_ok = sum(bool(r["proven"]) for r in rs)
        th = rs[0].get("threads", 1)
        got = f"{n_ok}/{len(rs)}, median {med:.1f} s ({th} threads)"
        lines.append((name, got, n_ok == len(rs) and med <= 10))
    rs4 = [r for r in hz or [] if r["players"] == 4 and r["tricks_left"] == 8]
    n4 = sum(bool(r["proven"]) and float(r["s"]) <= 60 for r in rs4)
    lines.append(("full 4p deal, every analyze row proven within 60 s on >= half the seeds",
                  f"{n4}/{len(rs4)}" if rs4 else "" if hz is None else "not reached",
                  None if hz is None else bool(rs4) and 2 * n4 >= len(rs4)))  # fmt: skip
    st = out.get("round_start")
    for players, goal in ((3, 5.0), (4, 5.0), (5, 20.0)):
        name = f"paradox guaranteed from the round start, {players}p, median <= {goal:.0f} s"
        rs = [r for r in st or [] if r["players"] == players]
        if not rs:
            lines.append((name, "", None))
            continue
        th = max(r.get("threads", 1) for r in rs)  # the command's default: one per core
        rs = [r for r in rs if r.get("threads", 1) == th]
        # an unknown answer counts as slower than any proven one (its time is unbounded)
        med = statistics.median(float(r["s"]) if r["status"] == "proven" else inf for r in rs)
        n_ok = sum(r["status"] == "proven" for r in rs)
        busy = statistics.median(
            float(r.get("busiest", r["s"])) if r["status"] == "proven" else inf for r in rs
        )
        got = f"{n_ok}/{len(rs)} proven, median {med:.1f} s ({th} threads; busiest {busy:.1f} s)"
        lines.append((name, got, med <= goal))
    sp = out.get("speed")
    if sp:
        ratio = statistics.median(float(r["ratio"]) for r in sp)
        wall = statistics.median(float(r.get("wall_ratio", r["ratio"])) for r in sp)
        got = f"median {ratio:.0f}x per CPU second ({wall:.0f}x wall)"
        lines.append(("native vs Python nodes/s >= 50x", got, ratio >= 50))
    else:
        lines.append(("native vs Python nodes/s >= 50x", "", None))
    th = out.get("threads")
    if th:
        w = [sum(float(r["wall"][i]) for r in th) for i in (0, 1)]
        c1 = sum(float(r["cpu"][0]) for r in th)
        b2 = sum(float(r["busiest"][1]) for r in th)
        same = all(r["same"] for r in th)
        got = f"{w[0] / w[1]:.2f}x wall, {c1 / b2:.2f}x CPU / busiest thread"
        got += "" if same else ", answers DIFFER"
        lines.append(("two threads >= 1.5x one (wall, same run)", got, same and w[0] >= 1.5 * w[1]))
    else:
        lines.append(("two threads >= 1.5x one (wall, same run)", "", None))
    ps = out.get("possible")
    if ps:
        n_ok = sum(r["status"] == "proven" for r in ps)
        mx = max(float(r["s"]) for r in ps)
        lines.append(("possible trick set, full 4p deal, 30/30 seeds, max <= 10 s",
                      f"{n_ok}/{len(ps)} proven, max {mx:.1f} s",
                      n_ok == len(ps) >= 30 and mx <= 10))  # fmt: skip
    else:
        lines.append(("possible trick set, full 4p deal, 30/30 seeds, max <= 10 s", "", None))
    width = max(len(n) for n, _, _ in lines)
    for name, got, ok in lines:
        print(f"{name:<{width}}  {_verdict(ok):>7}  {got}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 seeds, 10 s limit")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=60.0, help="per position (s)")
    ap.add_argument("--py-nodes", type=int, default=300_000, help="Python engine node budget")
    ap.add_argument(
        "--only",
        choices=(
            "speed",
            "horizon",
            "start",
            "split",
            "init",
            "pn",
            "score",
            "possible",
            "threads",
            "root",
            "core",
            "partition",
            "crowd",
            "refuters",
            "where",
            "share",
            "lost",
            "age",
            "proof",
            "census",
            "losers",
            "subsume",
            "safe",
        ),
        help="run one part of the benchmark",
    )
    args, _ = ap.parse_known_args()
    seeds = 2 if args.quick else args.seeds
    limit = 10.0 if args.quick else args.time_limit
    out: dict[str, Any] = {"args": vars(args)}
    if args.only in (None, "speed"):
        out["speed"] = speed(seeds, 100_000 if args.quick else args.py_nodes)
    if args.only in (None, "horizon"):
        out["horizon"] = horizon(seeds, limit, 4 if args.quick else 3, default_workers())
    if args.only in (None, "start"):
        out["round_start"] = round_start(seeds, limit, (1, default_workers()))
    if args.only in (None, "split"):
        out["split"] = split_nodes(args.quick)
    if args.only in (None, "init"):
        out["initial_numbers"] = initial_numbers(args.quick)
    if args.only in (None, "pn"):
        out["proof_numbers"] = proof_numbers(seeds, 30.0 if not args.quick else limit)
    if args.only in (None, "score"):
        out["score"] = score_bounds(args.quick)
    if args.only in (None, "core"):
        out["core"] = core_switches(args.quick)
    if args.only == "partition":  # a switch that is off (search.h SEARCH_PART): not in the full run
        out["partition"] = partition(args.quick)
    if args.only == "crowd":  # measured when it went on (stop 23): not in the full run
        out["crowd"] = crowd_bound(args.quick)
    if args.only in (None, "refuters"):
        out["refuters"] = refuters(args.quick)
    if args.only in (None, "where"):
        out["where"] = where_time(args.quick)
    if args.only in (None, "share"):
        out["share"] = share(args.quick)
    if args.only in (None, "lost"):
        out["lost_trick"] = lost_trick(args.quick)
    if args.only == "age":  # a switch that is off (search.h hist_age): not in the full run
        out["history_age"] = history_age(args.quick)
    if args.only in (None, "proof"):
        out["proof"] = proof_size(seeds, 10_000_000 if args.quick else 100_000_000)
    if args.only == "census":  # a measurement for the rules' design: not in the full run
        out["census"] = census(seeds, 40 if args.quick else 60, 20_000_000)
    if args.only in (None, "losers"):
        out["losers"] = losers(seeds, args.quick)
    if args.only in (None, "subsume"):
        out["subsume"] = subsume(seeds, args.quick)
    if args.only == "safe":  # a switch measured alone: not in the full run
        out["safe"] = safe_losers(args.quick, 0 if args.quick else 60)
        out["safe"].update(safe_probes(seeds, args.quick))
    if args.only in (None, "possible"):
        out["possible"] = possible_set(10 if args.quick else 30, 10.0 if args.quick else 60.0)
    if args.only in (None, "threads"):
        out["threads"] = threads_ratio(seeds)
    if args.only in (None, "root"):
        out["root"] = root_threads(seeds, 120.0)
    targets(out)
    path = Path(__file__).parent / "results" / f"native{'-' + args.only if args.only else ''}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1, default=str))
    print(f"\nwrote {path}")


if __name__ == "__main__":
    main()
