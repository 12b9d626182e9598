"""Solves in worker processes, never in the server's request threads.

A :class:`Pool` keeps a few long-lived worker processes (:func:`.worker.main`), each with its
search engines warm between jobs. A job is posted, polled for the rows proven so far, and
cancelled when the user moves on: a queued job is dropped, a running one has its process
killed and replaced. A job nobody has polled for :data:`LEASE` seconds (a tab closed without
its cancel reaching the server, a dropped connection) is cancelled the same way, so an abandoned
search never holds a core for long. A job that overruns its time limit (plus a grace period), or
whose process dies, ends in an error; the server goes on.

Processes start through a fork server (where there is one; spawn elsewhere) that has already
imported the solver and CP-SAT, so a replacement is ready in a fraction of a second. Each
worker slot is driven by one supervising thread that only moves messages; the solving is in
the processes.
"""

from __future__ import annotations

import itertools
import multiprocessing
import queue
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from .errors import ApiError, internal_error

__all__ = ["GRACE", "LEASE", "MAX_ACTIVE", "Job", "Pool"]

#: Seconds a job may overrun its time limit before its process is killed.
GRACE = 10.0
#: Seconds a job lives without being polled: past it, the job is abandoned and cancelled. The
#: pages poll every 0.1 s; a hidden tab's timers may be slowed to once a minute, so twice that.
LEASE = 120.0
#: Jobs queued or running at once; more is refused (429) until some end or are cancelled.
MAX_ACTIVE = 8
#: Finished jobs kept for polling; the oldest are forgotten first.
KEEP_FINISHED = 64

ACTIVE = ("queued", "running")


@dataclass
class Job:
    """One job and what it has reported so far (guarded by its pool's lock)."""

    id: str
    kind: str
    params: dict[str, Any]
    time_limit: float
    state: str = "queued"  # queued, running, done, error, cancelled
    rows: list[Any] = field(default_factory=list)
    progress: dict[str, Any] | None = None
    result: Any = None
    error: dict[str, Any] | None = None
    created: float = field(default_factory=time.monotonic)
    started: float | None = None
    finished: float | None = None
    cancel: bool = False
    seen: float = field(default_factory=time.monotonic)  # when it was last submitted or polled

    def snapshot(self, since: int = 0) -> dict[str, Any]:
        """The job as the API shows it: rows from index ``since`` on."""
        end = self.finished or time.monotonic()
        return {
            "id": self.id,
            "kind": self.kind,
            "state": self.state,
            "cancelling": self.cancel and self.state == "running",
            "rows": self.rows[since:],
            "row_count": len(self.rows),
            "progress": self.progress,
            "result": self.result,
            "error": self.error,
            "elapsed": round(end - (self.started or end), 3),
        }


def _context() -> Any:
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["catbox.web.worker"])
        return ctx
    return multiprocessing.get_context("spawn")


class _Slot:
    """One worker process and the thread that feeds it jobs from the pool's queue."""

    def __init__(self, pool: Pool, index: int):
        self.pool = pool
        self.index = index
        self.proc: Any = None
        self.conn: Connection | None = None
        self.thread = threading.Thread(target=self.run, name=f"catbox-slot-{index}", daemon=True)

    def start_process(self) -> None:
        from .worker import main

        parent, child = self.pool.ctx.Pipe()
        proc = self.pool.ctx.Process(
            target=main, args=(child,), name=f"catbox-worker-{self.index}", daemon=True
        )
        proc.start()
        child.close()
        self.proc, self.conn = proc, parent

    def stop_process(self) -> None:
        if self.conn is not None:
            self.conn.close()
        if self.proc is not None:
            if self.proc.is_alive():
                self.proc.kill()
            self.proc.join(5)
        self.proc = self.conn = None

    def run(self) -> None:
        if not self.pool.closing:
            self.start_process()  # warm before the first job, off the server's start-up path
        while True:
            job = self.pool.queue.get()
            if job is None:
                break
            with self.pool.lock:
                if job.cancel or self.pool.abandoned(job):
                    self.pool.finish(job, "cancelled")
                    continue
                job.state, job.started = "running", time.monotonic()
            try:
                self.serve(job)
            except Exception as e:  # the supervisor must survive whatever the worker does
                self.stop_process()
                with self.pool.lock:
                    self.pool.finish(job, "error", error=internal_error(f"worker failure: {e!r}"))
        self.stop_process()

    def serve(self, job: Job) -> None:
        if self.proc is None or not self.proc.is_alive():
            self.stop_process()
            self.start_process()
        assert self.conn is not None
        self.conn.send((job.kind, job.params))
        deadline = (job.started or time.monotonic()) + job.time_limit + GRACE
        while True:
            with self.pool.lock:
                if self.pool.abandoned(job):
                    job.cancel = True
            if job.cancel or time.monotonic() > deadline or self.pool.closing:
                overran = not job.cancel and not self.pool.closing
                self.stop_process()  # the search is abandoned: kill it, start afresh
                self.start_process_quietly()
                with self.pool.lock:
                    if overran:
                        msg = f"the search ran past its time limit of {job.time_limit:g} s"
                        self.pool.finish(job, "error", error=internal_error(msg, kind="time"))
                    else:
                        self.pool.finish(job, "cancelled")
                return
            try:
                if not self.conn.poll(0.02):
                    continue
                tag, payload = self.conn.recv()
            except (EOFError, OSError):
                code = self.proc.exitcode if self.proc is not None else None
                self.stop_process()
                with self.pool.lock:
                    msg = f"the worker process stopped unexpectedly (exit code {code})"
                    self.pool.finish(job, "error", error=internal_error(msg))
                return
            with self.pool.lock:
                if tag == "row":
                    job.rows.append(payload)
                elif tag == "progress":
                    job.progress = payload
                elif tag == "done":
                    self.pool.finish(job, "done", result=payload)
                    return
                else:
                    self.pool.finish(job, "error", error=payload)
                    return

    def start_process_quietly(self) -> None:
        if not self.pool.closing:
            self.start_process()


class Pool:
    """``workers`` worker processes and their jobs. Thread-safe; :meth:`close` ends them."""

    def __init__(self, workers: int = 2, *, lease: float = LEASE):
        self.ctx = _context()
        self.lease = lease
        self.lock = threading.Lock()
        self.queue: queue.Queue[Job | None] = queue.Queue()
        self.jobs: dict[str, Job] = {}
        self.closing = False
        self._ids = itertools.count(1)
        self.slots = [_Slot(self, i) for i in range(max(1, workers))]

    def start(self) -> None:
        """Start the slots' threads; each starts its worker process (the server answers
        meanwhile; a job posted early waits for its worker)."""
        for s in self.slots:
            s.thread.start()

    def close(self) -> None:
        """Cancel every job and end the workers."""
        with self.lock:
            self.closing = True
            for job in self.jobs.values():
                job.cancel = True
        for _ in self.slots:
            self.queue.put(None)
        for s in self.slots:
            if s.thread.is_alive():
                s.thread.join(10)
            else:
                s.stop_process()

    def submit(self, kind: str, params: dict[str, Any], time_limit: float) -> dict[str, Any]:
        """Queue a job; its first snapshot.

        Raises:
            ApiError: 429 when :data:`MAX_ACTIVE` jobs are queued or running already.
        """
        with self.lock:
            if self.closing:
                raise ApiError(503, "the server is shutting down")
            active = sum(1 for j in self.jobs.values() if j.state in ACTIVE)
            if active >= MAX_ACTIVE:
                raise ApiError(
                    429,
                    f"{active} analyses are queued or running already; cancel one first",
                    kind="busy",
                )
            job = Job(f"j{next(self._ids)}", kind, params, time_limit)
            self.jobs[job.id] = job
            self._forget_old()
            snap = job.snapshot()
        self.queue.put(job)
        return snap

    def get(self, job_id: str, since: int = 0) -> dict[str, Any]:
        """A job's snapshot, rows from ``since`` on. A poll: it renews the job's lease.

        Raises:
            ApiError: 404 for an unknown (or forgotten) job.
        """
        with self.lock:
            job = self._job(job_id)
            job.seen = time.monotonic()
            return job.snapshot(since)

    def cancel(self, job_id: str) -> dict[str, Any]:
        """Cancel a job (a queued one never starts; a running one's process is replaced).

        Raises:
            ApiError: 404 for an unknown (or forgotten) job.
        """
        with self.lock:
            job = self._job(job_id)
            if job.state in ACTIVE:
                job.cancel = True
                if job.state == "queued":
                    self.finish(job, "cancelled")
            return job.snapshot()

    def abandoned(self, job: Job) -> bool:
        """Whether ``job`` has gone unpolled past the lease (the caller holds the lock)."""
        return time.monotonic() - job.seen > self.lease

    def _job(self, job_id: str) -> Job:
        job = self.jobs.get(job_id)
        if job is None:
            raise ApiError(404, f"no job {job_id!r} (finished jobs are kept for a while only)")
        return job

    def finish(self, job: Job, state: str, *, result: Any = None, error: Any = None) -> None:
        """End ``job`` (the caller holds the lock); a job ends once."""
        if job.state not in ACTIVE:
            return
        job.state, job.result, job.error = state, result, error
        job.finished = time.monotonic()

    def _forget_old(self) -> None:
        done = [j for j in self.jobs.values() if j.state not in ACTIVE]
        for j in done[: max(0, len(done) - KEEP_FINISHED)]:
            del self.jobs[j.id]
