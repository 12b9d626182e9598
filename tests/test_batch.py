"""catbox batch and stats (solver/batch.py, solver/pool.py): inputs and ids, rows equal to the
commands' --json documents, the same rows for any number of workers and in any order, resume
(torn lines, finished ids, other options refused), duplicates solved once, error rows, stats."""

from __future__ import annotations

import json
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from catbox.solver import batch as b
from catbox.solver import formats
from catbox.solver.batch import one as batch_one
from catbox.solver.deal import random_position
from catbox.solver.errors import FileError, FormatError
from catbox.solver.estimates.stats import wilson
from catbox.solver.formats import position_to_line
from catbox.solver.limits import Limits
from catbox.solver.pool import imap, process_pool, run_samples

from .clirun import run, run_json
from .games import PARADOX_3P, record

RECORDS = Path(__file__).parent.parent / "puzzles" / "records"


def lines_file(tmp_path: Path, n: int = 8, players: int = 3, tricks_left: int = 2) -> Path:
    f = tmp_path / "positions.txt"
    body = [position_to_line(random_position(players, s, tricks_left)) for s in range(n)]
    f.write_text("# seeded positions\n" + "\n".join(body) + "\n\n", encoding="utf-8")
    return f


def rows_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def without_seconds(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


def batch_run(
    tmp_path: Path, name: str, inputs: list[str], opts: b.Options, **kw: Any
) -> list[dict[str, Any]]:
    out = tmp_path / name
    items = b.expand(inputs)
    plan = b.prepare(out, items, opts, inputs, {})
    b.run(plan, opts, **kw)
    return rows_of(out)


# ---------------------------------------------------------------------- pool
def test_imap_keeps_input_order_and_bounds_the_work_in_flight() -> None:
    live, most = [0], [0]
    lock = threading.Lock()

    def slow(x: int) -> int:
        with lock:
            live[0] += 1
            most[0] = max(most[0], live[0])
        time.sleep(0.002 * (x % 3))
        with lock:
            live[0] -= 1
        return x * x

    with ThreadPoolExecutor(4) as ex:
        got = list(imap(slow, range(30), executor=ex, window=3))
        unordered = list(imap(slow, range(30), executor=ex, window=3, ordered=False))
    assert got == [(i, i * i) for i in range(30)]
    assert sorted(unordered) == got
    assert most[0] <= 3


def test_imap_stops_at_the_deadline_keeping_the_first_and_cancels_the_rest() -> None:
    seen: list[int] = []
    got = list(imap(seen.append, range(5), limits=Limits(time_limit=0.0).start()))
    assert [i for i, _ in got] == [0] and seen == [0]
    with ThreadPoolExecutor(1) as ex:
        it = imap(lambda x: x, range(100), executor=ex, window=4)
        assert next(it) == (0, 0)
        it.close()  # the caller stops: nothing else is left queued


def _square(x: int) -> int:
    return x * x


def test_run_samples_same_results_in_a_process_pool_and_in_process() -> None:
    jobs = list(range(12))
    assert run_samples(_square, jobs, workers=2, limits=Limits(), progress=None) == (
        [x * x for x in jobs],
        False,
    )
    assert run_samples(_square, jobs, workers=1, limits=Limits(), progress=None)[0] == [
        x * x for x in jobs
    ]


# ---------------------------------------------------------------------- inputs
def test_expand_files_folders_globs_lines_and_missing(tmp_path: Path) -> None:
    f = lines_file(tmp_path, n=3)
    jsonl = tmp_path / "more.jsonl"
    line = position_to_line(random_position(2, 1, 2))
    jsonl.write_text(
        line + "\n" + json.dumps({"line": line}) + "\n" + "{bad json\n",
        encoding="utf-8",
    )
    items = b.expand([str(tmp_path), str(RECORDS / "*.toml"), line, "nowhere.toml", str(f)])
    ids = [it.id for it in items]
    assert ids[:3] == [f"{tmp_path}/more.jsonl:{k}" for k in (1, 2, 3)]
    assert ids[3:6] == [f"{f}:{k}" for k in (2, 3, 4)]  # line 1 is a comment
    assert ids[6:10] == sorted(str(p) for p in RECORDS.glob("*.toml"))
    assert ids[10].startswith("cbx1:") and len(ids[10]) == 5 + 12
    assert ids[11] == "nowhere.toml"
    assert len(ids) == 12  # the file named twice is one item
    assert [it.index for it in items] == list(range(12))
    # content digests: the same text in two places is one job
    assert items[0].digest == items[10].digest != items[1].digest


def test_rows_are_the_commands_json_documents(tmp_path: Path) -> None:
    pos_line = position_to_line(random_position(3, 4, 2))
    rec = str(tmp_path / "paradox.toml")
    formats.save(record(*PARADOX_3P), rec)  # (review's equality: too slow for a test)
    for task, arg in (("paradox", pos_line), ("tricks", pos_line), ("analyze", pos_line)):
        [row] = batch_run(tmp_path, f"{task}.jsonl", [arg], b.Options(task))
        doc = run_json(task, arg)
        assert isinstance(doc, dict)
        assert {k: v for k, v in row.items() if k in doc} == doc
        assert row["status"] == doc["status"] and row["error"] is None
        assert row["players"] == 3 and row["id"].startswith("cbx1:")
    [row] = batch_run(tmp_path, "review.jsonl", [pos_line], b.Options("review"))
    assert row["error"]["message"] == "review needs a round record or a game"
    [row] = batch_run(tmp_path, "score.jsonl", [rec], b.Options("score"))
    assert {k: row[k] for k in ("finished", "paradox")} == {"finished": True, "paradox": "C"}


def test_bad_inputs_become_error_rows_and_the_batch_goes_on(tmp_path: Path) -> None:
    good = position_to_line(random_position(3, 1, 2))
    rows = batch_run(tmp_path, "e.jsonl", [good, "cbx1:broken", "nowhere.toml"], b.Options("solve"))
    assert [r["status"] for r in rows] == ["error"] * 3  # solve needs puzzles
    assert rows[0]["error"]["message"] == "solve needs a puzzle"
    rows = batch_run(
        tmp_path, "f.jsonl", [good, "cbx1:broken", "nowhere.toml"], b.Options("tricks")
    )
    assert [r["status"] for r in rows] == ["proven", "error", "error"]
    assert [r["error"]["kind"] for r in rows[1:]] == ["format", "file"]
    assert rows[2]["error"]["where"] == "nowhere.toml" and rows[1]["players"] is None


# ---------------------------------------------------------------------- determinism
@pytest.mark.slow
def test_pool_and_sequential_give_identical_rows(tmp_path: Path) -> None:
    f = tmp_path / "mixed.txt"  # 2 and 4 tricks left: the budget cuts the deeper ones
    lines = [position_to_line(random_position(3, s, 2 + 2 * (s % 2))) for s in range(8)]
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    opts = b.Options("tricks", nodes=100)  # a work budget cuts some answers, reproducibly
    one = batch_run(tmp_path, "one.jsonl", [str(f)], opts)
    with process_pool(2) as ex:
        two = batch_run(tmp_path, "two.jsonl", [str(f)], opts, executor=ex, window=3)
        loose = batch_run(tmp_path, "loose.jsonl", [str(f)], opts, executor=ex, ordered=False)
    assert without_seconds(one) == without_seconds(two)
    assert sorted(without_seconds(loose), key=lambda r: r["index"]) == without_seconds(one)
    assert {r["status"] for r in one} == {"proven", "unknown"}
    assert [r["index"] for r in one] == list(range(8))


_RUN_JOB = b.run_job


def _dies_on(job: b.ItemJob) -> b.ItemResult:
    """run_job, except that the worker process dies (as on a crash of the compiled core) on
    the items whose text names the seed-3 position. Module level: it pickles by name, and the
    pool's forked workers see the patched batch module."""
    if job.source.endswith(_MARK):
        os._exit(70)
    return _RUN_JOB(job)


_MARK = position_to_line(random_position(3, 3, 2))[-12:]


@pytest.mark.parametrize("ordered", [True, False])
def test_a_worker_process_that_dies_costs_its_row_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ordered: bool
) -> None:
    """A worker that dies breaks the whole process pool: the run goes on in new pools, the
    item that killed it gets an error row (found by running the suspects one at a time), and
    every other row is the row of a run without the crash."""
    f = str(lines_file(tmp_path, n=12, players=3, tricks_left=2))
    opts = b.Options("paradox")
    want = batch_run(tmp_path, "want.jsonl", [f], opts)
    monkeypatch.setattr(batch_one, "run_job", _dies_on)
    with process_pool(2) as ex:
        got = batch_run(tmp_path, "got.jsonl", [f], opts, executor=ex, ordered=ordered)
    got.sort(key=lambda r: r["index"])
    assert [r["index"] for r in got] == list(range(12))
    died = [r for r in got if r["status"] == "error"]
    assert [r["index"] for r in died] == [3]
    assert died[0]["error"]["kind"] == "internal" and "process died" in died[0]["error"]["message"]
    assert without_seconds([r for r in got if r["index"] != 3]) == without_seconds(
        [r for r in want if r["index"] != 3]
    )


def test_unordered_runs_start_the_hardest_items_first(tmp_path: Path) -> None:
    """``--unordered`` writes rows as they finish and starts the items with the most cards
    still to play first; unreadable items are cheap and go last. The rows do not change."""
    small = [position_to_line(random_position(3, s, 1)) for s in range(2)]
    big = position_to_line(random_position(3, 9, 3))
    f = tmp_path / "mixed.txt"
    f.write_text("\n".join([small[0], "cbx1:nonsense", big, small[1]]) + "\n", encoding="utf-8")
    opts = b.Options("paradox")
    items = b.expand([str(f)])
    costs = [b.estimated_cost(opts, it) for it in items]
    assert costs[1] == 0 and costs[2] > max(costs[0], costs[3]) > 0
    loose = batch_run(tmp_path, "loose.jsonl", [str(f)], opts, ordered=False)
    assert [r["index"] for r in loose] == [2, 0, 3, 1]  # in this process: in the order started
    ordered = batch_run(tmp_path, "ordered.jsonl", [str(f)], opts)
    assert sorted(without_seconds(loose), key=lambda r: r["index"]) == without_seconds(ordered)


def test_duplicates_are_solved_once(tmp_path: Path) -> None:
    line = position_to_line(random_position(3, 2, 3))
    f = tmp_path / "dups.txt"
    f.write_text(f"{line}\n{line}\n", encoding="utf-8")
    rows = batch_run(tmp_path, "d.jsonl", [str(f)], b.Options("tricks"))
    assert [r["id"] for r in rows] == [f"{f}:1", f"{f}:2"]
    assert rows[0]["seconds"] == rows[1]["seconds"]  # one answer, given to both
    assert without_seconds(rows)[0] | {"id": "", "index": 0} == without_seconds(rows)[1] | {
        "id": "",
        "index": 0,
    }


# ---------------------------------------------------------------------- resume
def test_resume_cuts_a_torn_line_and_skips_finished_ids(tmp_path: Path) -> None:
    f = str(lines_file(tmp_path, n=6))
    opts = b.Options("tricks")
    full = batch_run(tmp_path, "full.jsonl", [f], opts)
    out = tmp_path / "part.jsonl"
    items = b.expand([f])
    b.prepare(out, items, opts, [f], {})
    text = (tmp_path / "full.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    out.write_text("".join(text[:3]) + text[3][:25], encoding="utf-8")  # killed mid-row
    plan = b.prepare(out, items, opts, [f], {})
    assert plan.cut and plan.kept == 3 and [it.index for it in plan.todo] == [3, 4, 5]
    b.run(plan, opts)
    assert without_seconds(rows_of(out)) == without_seconds(full)
    again = b.prepare(out, items, opts, [f], {})
    assert again.todo == [] and not again.cut


def test_resume_with_other_options_or_over_a_foreign_file_is_refused(tmp_path: Path) -> None:
    f = str(lines_file(tmp_path, n=2))
    batch_run(tmp_path, "o.jsonl", [f], b.Options("tricks"))
    items = b.expand([f])
    with pytest.raises(FileError, match="other options \\(nodes\\)") as e:
        b.prepare(tmp_path / "o.jsonl", items, b.Options("tricks", nodes=5), [f], {})
    assert e.value.code == "batch-options"
    with pytest.raises(FileError, match="task 'tricks', not 'paradox'"):
        b.prepare(tmp_path / "o.jsonl", items, b.Options("paradox"), [f], {})
    foreign = tmp_path / "notes.jsonl"
    foreign.write_text("my notes\n", encoding="utf-8")
    with pytest.raises(FileError, match="not a batch output"):
        b.prepare(foreign, items, b.Options("tricks"), [f], {})
    assert foreign.read_text(encoding="utf-8") == "my notes\n"  # never overwritten
    with pytest.raises(FormatError, match="unknown task"):
        b.Options("dance")


# ---------------------------------------------------------------------- command line
def test_cli_batch_exit_code_summary_resume_and_stats(tmp_path: Path) -> None:
    f = lines_file(tmp_path, n=4)
    out = tmp_path / "cli.jsonl"
    code, _, err = run("batch", "paradox", f, "cbx1:broken", "-o", out, "-w", "1")
    assert code == 1
    assert "5 rows answered" in err and "1 failed (first: cbx1:" in err
    rows = rows_of(out)
    assert len(rows) == 5 and rows[-1]["status"] == "error"
    meta = json.loads((tmp_path / "cli.meta.json").read_text(encoding="utf-8"))
    assert meta["task"] == "paradox" and meta["items"] == 5
    assert meta["input_digest"] == b.input_digest(b.expand([str(f), "cbx1:broken"]))
    code, _, err = run("batch", "paradox", f, "cbx1:broken", "-o", out)
    assert code == 1 and "0 rows answered" in err and "5 kept" in err
    code, _, err = run("batch", "paradox", f, "-o", out, "--nodes", "9")
    assert code == 6 and "other options (nodes)" in err
    stats = run_json("stats", out)
    assert isinstance(stats, dict)
    every = stats["all"]
    assert every["rows"] == 5 and every["status"] == {"error": 1, "proven": 4}
    possible = every["shares"]["possible"]
    yes = sum(1 for r in rows if r.get("possible"))
    lo, hi = wilson(yes, 4)
    assert possible == {"yes": yes, "n": 4, "share": yes / 4, "ci95": [round(lo, 4), round(hi, 4)]}
    assert stats["by_players"]["3"]["rows"] == 4
    assert every["numbers"]["seconds"]["n"] == 5
    assert every["values"]["possible_status"] == {"proven": 4}
    assert "line" not in every["values"]  # one value per row: not a category
    code, text, _ = run("stats", out)
    assert code == 0 and "possible" in text and "Wilson" in text


def test_cli_batch_generated_deals(tmp_path: Path) -> None:
    out = tmp_path / "deals.jsonl"
    code, _, err = run(
        "batch", "score", "--deal", "4", "--count", "3", "--seed", "7", "-o", out, "-w", "1"
    )
    assert code == 0, err
    rows = rows_of(out)
    assert [r["id"] for r in rows] == ["deal:4p:7", "deal:4p:8", "deal:4p:9"]
    new = run_json("new", "--players", "4", "--seed", "8")
    assert isinstance(new, dict)
    preds = {k: s["prediction"] for k, s in new["seat"].items()}
    assert {k: s["prediction"] for k, s in rows[1]["seats"].items()} == preds
    assert rows[1]["players"] == 4 and not rows[1]["finished"]
