"""Benchmark of issue #15: the puzzle collection holds up, and the generator keeps pace.

Figures (fixed seeds; medians and maxima):

- ``catbox puzzles check`` over the whole bundled collection: the whole process, wall time
  (target: <= 60 s on 2 cores), and the number of unsound puzzles (target: 0);
- an independent check of every key: for each puzzle with every hand known, the keys found
  again by another solver than the check's (the native search core): the readable Python
  engine for guaranteed goals, the exhaustive reference (``tests/reference.py``) for small
  positions of either mode; cooked puzzles found (target: 0) and the median legal plays at
  the key (target: >= 5);
- the generator at 3-4 players with 3-4 tricks left (seeds 0..S-1 each): seconds per sound
  puzzle, and sound puzzles per minute (target: >= 1).

    .venv/bin/python bench/bench_puzzles.py --quick
    .venv/bin/python bench/bench_puzzles.py --seeds 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from catbox.solver import formats  # noqa: E402
from catbox.solver.goals import FORCED_KIND  # noqa: E402
from catbox.solver.limits import Limits  # noqa: E402
from catbox.solver.position import Position  # noqa: E402
from catbox.solver.puzzle import Goal, Puzzle  # noqa: E402
from catbox.solver.puzzlegen import generate  # noqa: E402
from catbox.solver.scoring import seat_score  # noqa: E402
from catbox.solver.search import Target, can_force, clear_cache, forced  # noqa: E402
from catbox.solver.solve import goal_reached  # noqa: E402

EXE = str(Path(sys.executable).with_name("catbox"))
ENV = {**os.environ, "CATBOX_NO_PROGRESS": "1"}
RESULTS = ROOT / "bench" / "results"
#: Plays left up to which the exhaustive reference re-checks a puzzle's keys.
REFERENCE_PLAYS = 10


def _stats(xs: list[float]) -> str:
    if not xs:
        return "—"
    return f"median {statistics.median(xs):.2f} s, max {max(xs):.2f} s (n={len(xs)})"


def bench_check() -> dict[str, Any]:
    """The whole ``catbox puzzles check --json`` process over the collection."""
    t = time.perf_counter()
    res = subprocess.run(
        [EXE, "puzzles", "check", "--json"], capture_output=True, text=True, env=ENV, check=False
    )
    wall = time.perf_counter() - t
    doc = json.loads(res.stdout)
    rows = doc["puzzles"]
    return {
        "wall_s": wall,
        "exit_code": res.returncode,
        "puzzles": len(rows),
        "unsound": doc["unsound"],
        "per_puzzle_s": [r["seconds"] for r in rows],
        "keys": {r["name"]: r["keys"] for r in rows},
        "legal": {r["name"]: len(r["legal"]) for r in rows},
    }


def _python_keeps(child: Position, goal: Goal, value: int | None) -> bool | None:
    """The goal kept after a first play, by the readable Python engine (guaranteed goals)."""
    s = goal.seat
    if child.finished:
        if goal.kind == "max-score":
            return seat_score(child, s) == value
        return goal_reached(goal, child)
    if goal.kind == "max-score":
        f = forced(child, s, engine="python", limits=Limits(120))
        return None if f.status != "proven" else f.best_score == value
    target = Target(FORCED_KIND[goal.kind], goal.target)
    ok, st = can_force(child, s, target, engine="python", limits=Limits(120))
    return None if st != "proven" else ok


def _reference_keeps(child: Position, goal: Goal, value: int | None) -> bool:
    from tests import reference

    s = goal.seat

    def ends_ok(p: Position) -> bool:
        return goal_reached(goal, p)

    if goal.mode == "possible":
        if goal.kind == "max-score":
            return value in reference.possible(child, s).scores
        return any(ends_ok(e) for e in reference.terminals(child))
    if goal.kind == "max-score":
        return reference.best_score(child, s) == value
    return reference.forced(child, s, ends_ok)


def bench_independent(keys: dict[str, list[str] | None]) -> dict[str, Any]:
    """Every key found again by a second solver; cooked = more than one key there."""
    rows = []
    for path in sorted((ROOT / "puzzles").glob("*.toml")):
        pz = formats.load(path)
        assert isinstance(pz, Puzzle)
        pos, goal = pz.position, pz.goal
        if not pos.all_hands_known:
            continue
        value = pz.answer.value if pz.answer is not None else None
        plays_left = pos.tricks_left * pos.players - len(pos.trick)
        use_ref = plays_left <= REFERENCE_PLAYS
        if goal.mode == "possible" and not use_ref:
            continue
        t = time.perf_counter()
        found: list[str] = []
        unknown = False
        for m in pos.legal_plays():
            child = pos.play(m)
            ok = (
                _reference_keeps(child, goal, value)
                if use_ref
                else _python_keeps(child, goal, value)
            )
            if ok is None:
                unknown = True
            elif ok:
                found.append(str(m))
        clear_cache()
        rows.append(
            {
                "name": path.stem,
                "mode": goal.mode,
                "solver": "reference" if use_ref else "python engine",
                "keys": sorted(found),
                "check_keys": keys.get(path.stem),
                "unknown": unknown,
                "seconds": time.perf_counter() - t,
            }
        )
        print(
            f"  {path.stem:32s} {rows[-1]['solver']:14s} keys {' '.join(found) or 'none':10s}"
            f" {rows[-1]['seconds']:.2f} s",
            flush=True,
        )
    return {"rows": rows}


def bench_generator(seeds: int) -> dict[str, Any]:
    runs = []
    for players in (3, 4):
        for left in (3, 4):
            for seed in range(seeds):
                t = time.perf_counter()
                try:
                    g = generate(players, seed, tricks_left=left)
                    ok = g.check.sound
                except Exception as e:  # a seed with no puzzle counts as time spent
                    ok = False
                    print(f"  {players}p {left} left seed {seed}: {e}")
                dt = time.perf_counter() - t
                runs.append(
                    {"players": players, "tricks_left": left, "seed": seed, "ok": ok, "s": dt}
                )
                print(
                    f"  {players}p {left} left seed {seed}: {'sound' if ok else 'none'} {dt:.1f} s"
                )
    return {"runs": runs}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="few seeds, for a smoke run")
    ap.add_argument("--seeds", type=int, default=5)
    args, _ = ap.parse_known_args()
    seeds = 1 if args.quick else args.seeds
    results: dict[str, Any] = {}
    print("catbox puzzles check over the collection (whole process)")
    results["check"] = chk = bench_check()
    print("independent keys (Python engine / exhaustive reference)")
    results["independent"] = ind = bench_independent(chk["keys"])
    print("generator, 3-4 players, 3-4 tricks left")
    results["generator"] = gen = bench_generator(seeds)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "puzzles.json").write_text(json.dumps(results, indent=1))

    cooked = [r["name"] for r in ind["rows"] if len(r["keys"]) > 1]
    differ = [r["name"] for r in ind["rows"] if not r["unknown"] and r["keys"] != r["check_keys"]]
    unknown = [r["name"] for r in ind["rows"] if r["unknown"]]
    guaranteed = [r for r in ind["rows"] if r["mode"] == "guaranteed"]
    legal = list(chk["legal"].values())
    ok_runs = [r for r in gen["runs"] if r["ok"]]
    total = sum(r["s"] for r in gen["runs"])
    rate = 60.0 * len(ok_runs) / total if total else 0.0
    print("\n=== issue #15 figures")
    print(
        f"puzzles check over {chk['puzzles']} puzzles: {chk['wall_s']:.1f} s whole process "
        f"(target <= 60 s), exit {chk['exit_code']}, unsound {len(chk['unsound'])} "
        f"{chk['unsound'] or ''}"
    )
    print(f"   per puzzle: {_stats(chk['per_puzzle_s'])}")
    print(
        f"independent keys: {len(ind['rows'])} puzzles ({len(guaranteed)} guaranteed), "
        f"cooked {len(cooked)} {cooked or ''} (target 0), keys differing from the check "
        f"{len(differ)} {differ or ''}, unsettled {len(unknown)}"
    )
    print(
        f"legal plays at the key: median {statistics.median(legal):g} (target >= 5), "
        f">= 5 in {sum(n >= 5 for n in legal)}/{len(legal)}"
    )
    print(
        f"generator 3-4p, 3-4 tricks left: {len(ok_runs)}/{len(gen['runs'])} seeds gave a sound "
        f"puzzle; {_stats([r['s'] for r in gen['runs']])} per seed; "
        f"{rate:.1f} sound puzzles per minute (target >= 1)"
    )
    return 0 if not chk["unsound"] and not cooked and not differ else 1


if __name__ == "__main__":
    raise SystemExit(main())
