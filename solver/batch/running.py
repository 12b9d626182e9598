"""Running a batch: the items left to answer, on a process pool, a Dask cluster's executor or
in this process, each row written as soon as it may be (input order, or as they finish), the
items with the same content solved once, and a worker process that dies costing the row of
the item that killed it only (:func:`_answers`)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..errors import CatboxError, internal_error
from ..pool import imap, process_pool, stop
from ..tasks import position_of
from . import one
from .items import Item, read_item
from .one import ItemJob, ItemResult, Options
from .output import Plan, Summary

__all__ = ["CHUNK_SECONDS", "DIED", "default_workers", "estimated_cost", "run"]

#: Short items travel to a worker in chunks of about this many seconds of work (pool.imap).
CHUNK_SECONDS = 0.2


def default_workers() -> int:
    """Worker processes by default: the cores, fewer when the memory available cannot hold one
    search-table cap (:func:`.search.native.table_bytes`) per worker."""
    from ..pool import default_workers as cores
    from ..search.native import table_bytes

    n = cores()
    try:
        free = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return n
    return max(1, min(n, free // max(1, table_bytes())))


def run(
    plan: Plan,
    opts: Options,
    *,
    executor: Executor | None = None,
    ordered: bool = True,
    window: int = 0,
    on_row: Callable[[dict[str, Any]], None] | None = None,
) -> Summary:
    """Answer ``plan.todo`` (on ``executor``; None: in this process) and append each row to
    ``plan.out`` as soon as it may be written (input order unless ``ordered`` is False), flushed
    row by row: a killed run loses only the rows in flight. Items with the same content are
    solved once. Returns the counts; a KeyboardInterrupt stops it between rows."""
    summary = Summary(kept=plan.kept)
    groups: dict[str, list[Item]] = {}
    for it in plan.todo:
        groups.setdefault(it.digest, []).append(it)
    firsts = [g[0] for g in groups.values()]
    if not ordered:  # rows are written as they finish: the long poles go first (DDS)
        firsts.sort(key=lambda it: -estimated_cost(opts, it))
    jobs = [ItemJob(opts, it.kind, it.source, it.text) for it in firsts]
    waiting: dict[int, dict[str, Any]] = {}
    order = iter(sorted(it.index for it in plan.todo))
    next_index = next(order, None)
    with plan.out.open("a", encoding="utf-8") as f:

        def write(row: dict[str, Any]) -> None:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
            f.flush()
            summary.written += 1
            summary.by_status[row["status"]] = summary.by_status.get(row["status"], 0) + 1
            if on_row:
                on_row(row)

        for k, outcome in _answers(jobs, executor, window, ordered):
            for it in groups[firsts[k].digest]:
                waiting[it.index] = outcome.row(it)
            if not ordered:
                for row in _drain_any(waiting):
                    write(row)
                continue
            while next_index is not None and next_index in waiting:
                write(waiting.pop(next_index))
                next_index = next(order, None)
    return summary


#: The row of an item whose worker process died while answering it (a crash of the compiled
#: core, the memory killer): a bug, reported on its row like any other, and the run goes on.
DIED = internal_error(
    "the worker process died while answering this item (a bug in catbox: please report it "
    "with this item)"
)


def _answers(
    jobs: list[ItemJob], executor: Executor | None, window: int, ordered: bool
) -> Iterator[tuple[int, ItemResult]]:
    """``(k, run_job(jobs[k]))`` for every job, in any order, on ``executor`` (see :func:`imap`),
    surviving a worker process that dies. A process pool whose worker died is broken for every
    job in flight, and which job killed it is not known: the jobs left go on in a new pool of
    the same size with one job per chunk, so that at most ``window`` are in flight; if a worker
    dies again, those in flight (the first ``window`` jobs left, in the order they were
    submitted) are answered one at a time in a pool of one process, where a death names its
    job, which gets an error row (:data:`DIED`); then the rest go on as at first."""
    left = dict.fromkeys(range(len(jobs)))  # the jobs not answered yet, in submission order
    ex, owned, chunked = executor, list[Executor](), True
    try:
        while left:
            todo = list(left)
            try:
                answers = imap(
                    one.run_job,
                    [jobs[i] for i in todo],
                    executor=ex,
                    window=window,
                    ordered=ordered,
                    chunk_seconds=CHUNK_SECONDS if chunked else None,
                )
                for k, outcome in answers:
                    del left[todo[k]]
                    yield todo[k], outcome
            except BrokenProcessPool:
                workers = getattr(ex, "_max_workers", 1)
                ex = process_pool(workers)
                owned.append(ex)
                if chunked:
                    chunked = False
                    continue
                for i in list(left)[: window if window > 0 else 4 * workers]:
                    del left[i]
                    yield i, _alone(jobs[i], owned)
                chunked = True
    finally:
        for p in owned:
            stop(p)


def _alone(job: ItemJob, owned: list[Executor]) -> ItemResult:
    """``run_job(job)`` in a pool of one process (the last of ``owned`` when it is one, else a
    new one): the error row :data:`DIED` when that process dies."""
    if getattr(owned[-1], "_max_workers", 0) != 1:
        owned.append(process_pool(1))
    try:
        return owned[-1].submit(one.run_job, job).result()
    except BrokenProcessPool:
        owned.append(process_pool(1))
        return ItemResult(None, "error", dict(DIED), None, 0.0)


def estimated_cost(opts: Options, item: Item) -> int:
    """A rough size of an item's work, to start the hardest first when rows may be written as
    they finish (``run(ordered=False)``): the cards still to play (the game tree grows with
    them; a review or a record at its end counts every move to review), or 0 when the item
    cannot be read (its error row is cheap). Never changes a row, only when it is computed.
    With rows in input order the items keep that order, so that a finished row never waits
    behind an unfinished earlier one (a killed run then loses only the rows in flight)."""
    from ..record import Record

    try:
        doc = read_item(item.kind, item.source, item.text)
        if isinstance(doc, Record) and opts.task == "review":
            return len(doc.moves)
        pos = position_of(doc, opts.at)
    except CatboxError:
        return 0
    return sum(s.hand_size if s.hand is None else len(s.hand) for s in pos.seats)


def _drain_any(waiting: dict[int, dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for i in sorted(waiting):
        yield waiting.pop(i)
