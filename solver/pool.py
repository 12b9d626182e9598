"""Running one function over many jobs on any :class:`concurrent.futures.Executor`.

:func:`imap` is the one job runner of the library: the advisors' sampled deals
(``estimates/advise.py``, ``estimates/start.py``) and the batch runner (:mod:`.batch`) use it.
It takes any executor — a :func:`process_pool` on one machine, or a Dask cluster's
``Client.get_executor()`` that a front door creates (the library never imports dask) — or
none, to run in this process. What it promises:

* results come in input order (``ordered=True``, the default) or as they finish, each with the
  index of its job, so an answer built from them does not depend on the number of workers;
* at most ``window`` jobs are in flight (submitted and not yet handed back), so a long input
  never piles up in memory or in a cluster's scheduler;
* the deadline of ``limits`` (a :class:`.limits.Limits`) stops taking results once it has passed
  (always keeping the first); :func:`imap` cancels the jobs not started when it stops, for whatever
  reason (the deadline, the caller's ``break``, Ctrl-C).

Each job is limited by what it carries (a :class:`.limits.Limits` per item); a job that raises
re-raises here, in the caller: jobs that must not stop the run catch their own errors.

>>> list(imap(abs, [-3, 1, -2]))
[(0, 3), (1, 1), (2, 2)]
>>> from concurrent.futures import ThreadPoolExecutor
>>> with ThreadPoolExecutor(2) as ex:
...     [v for _, v in imap(abs, range(-5, 0), executor=ex, window=3)]
[5, 4, 3, 2, 1]
"""

from __future__ import annotations

import os
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable, Sized
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from itertools import islice
from typing import TypeVar

from .limits import Limits, now

__all__ = ["default_workers", "imap", "process_pool", "run_samples", "stop"]

MAX_CHUNK = 256  # jobs in one chunk at most (chunk_seconds)
J = TypeVar("J")
T = TypeVar("T")


def default_workers() -> int:
    """The cores this process may use (its CPU affinity where the OS tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _ignore_sigint() -> None:
    # Ctrl-C reaches the whole process group: the parent stops the run, and the workers are
    # stopped by it (stop()), never half-way through printing a traceback of their own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes for :func:`imap`. Each process lives for the whole run,
    so what it loads once (the compiled core, CP-SAT) serves every job it is given; Ctrl-C is
    left to the parent (see :func:`stop`)."""
    return ProcessPoolExecutor(max_workers=max(1, workers), initializer=_ignore_sigint)


def stop(executor: Executor) -> None:
    """Stop an executor now: cancel every job not started and, for a process pool, end the
    worker processes (their jobs in flight are lost; a resumable caller redoes them)."""
    procs = dict(getattr(executor, "_processes", None) or {})  # a ProcessPoolExecutor's workers
    for p in procs.values():  # (shutdown forgets them)
        if p.is_alive():
            p.terminate()
    executor.shutdown(wait=False, cancel_futures=True)


def _run_chunk(fn: Callable[[J], T], jobs: list[J]) -> tuple[list[T], float]:
    t = now()
    values = [fn(j) for j in jobs]
    return values, now() - t


def imap(
    fn: Callable[[J], T],
    jobs: Iterable[J],
    *,
    executor: Executor | None = None,
    window: int = 0,
    ordered: bool = True,
    chunk: int = 1,
    chunk_seconds: float | None = None,
    limits: Limits | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Generator[tuple[int, T], None, None]:
    """``(index, fn(job))`` for every job: in this process without an ``executor``, else on it
    with at most ``window`` chunks of ``chunk`` jobs in flight (default: 4 per worker when the
    executor says how many it has, else 8). With ``chunk_seconds`` the chunk size adapts, from
    ``chunk``, so that a chunk takes about that long in its worker (short jobs travel together,
    long ones alone: the cost of a round trip stays small beside the work). ``fn`` and the jobs
    must pickle for a process pool or a cluster. ``progress(done, total)`` after each job
    (``total`` 0 when ``jobs`` has no length)."""
    total = len(jobs) if isinstance(jobs, Sized) else 0
    done = 0
    deadline = Limits.of(limits).deadline

    def late() -> bool:
        return deadline is not None and done > 0 and now() > deadline

    if executor is None:
        for i, job in enumerate(jobs):
            if late():
                return
            value = fn(job)
            done += 1
            if progress:
                progress(done, total)
            yield i, value
        return
    size = [max(1, chunk)]
    if window <= 0:
        workers = getattr(executor, "_max_workers", 0)
        window = 4 * workers if workers else 8
    source = enumerate(jobs)
    pending: deque[tuple[int, Future[tuple[list[T], float]]]] = deque()

    def submit() -> bool:
        part = list(islice(source, size[0]))
        if not part:
            return False
        pending.append((part[0][0], executor.submit(_run_chunk, fn, [j for _, j in part])))
        return True

    try:
        while len(pending) < window and submit():
            pass
        while pending:
            if late():
                return
            if ordered:
                first, fut = pending.popleft()
            else:
                finished, _ = wait([f for _, f in pending], return_when=FIRST_COMPLETED)
                k = next(k for k, (_, f) in enumerate(pending) if f in finished)
                first, fut = pending[k]
                del pending[k]
            values, seconds = fut.result()
            if chunk_seconds is not None and values:
                per_job = max(seconds / len(values), 1e-6)
                size[0] = max(1, min(MAX_CHUNK, int(chunk_seconds / per_job)))
            for offset, value in enumerate(values):
                if late():
                    return
                done += 1
                if progress:
                    progress(done, total)
                yield first + offset, value
            submit()
    finally:
        for _, f in pending:
            f.cancel()


def run_samples(
    fn: Callable[[J], T],
    jobs: list[J],
    *,
    workers: int,
    limits: Limits,
    progress: Callable[[int, int], None] | None,
) -> tuple[list[T], bool]:
    """``fn`` over ``jobs`` in order, in a :func:`process_pool` when ``workers > 1`` (and there
    are at least 4 jobs); results keep the job order, so they do not depend on the number of
    workers. Stops taking results once the deadline of ``limits`` passes (always keeping the
    first), and says so (the second value)."""
    limits = limits.start()
    if workers <= 1 or len(jobs) < 4:
        results = [v for _, v in imap(fn, jobs, limits=limits, progress=progress)]
        return results, len(results) < len(jobs)
    with process_pool(workers) as pool:
        chunk = max(1, min(16, len(jobs) // (workers * 8)))
        it = imap(fn, jobs, executor=pool, chunk=chunk, limits=limits, progress=progress, window=0)
        results = [v for _, v in it]
    return results, len(results) < len(jobs)
