"""The worker pool of the served board (web/jobs.py) in-process: a worker that dies mid-search
is reported as an error and replaced, a cancelled search is stopped, a search nobody polls any
more is cancelled, and the pool refuses more than its share of jobs."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest

from catbox.solver import formats
from catbox.solver.deal import deal_round, random_position
from catbox.web.errors import ApiError
from catbox.web.jobs import MAX_ACTIVE, Pool

# the quick lane leaves these out (tests/conftest.py): each needs worker processes
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def pool() -> Iterator[Pool]:
    p = Pool(1)
    p.start()
    yield p
    p.close()


def wait(pool: Pool, job_id: str, states: tuple[str, ...], timeout: float = 60.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        snap = pool.get(job_id)
        if snap["state"] in states:
            return snap
        time.sleep(0.02)
    raise AssertionError(f"{job_id} not in {states}: {pool.get(job_id)}")


LONG = {"position": formats.position_to_line(deal_round(5, 3).position), "time_limit": 600.0}
QUICK = {"position": formats.position_to_line(random_position(3, 1, 1)), "time_limit": 60.0}


def test_a_worker_that_dies_is_an_error_and_is_replaced(pool: Pool) -> None:
    job = pool.submit("analyze", LONG, 600.0)
    wait(pool, job["id"], ("running",))
    time.sleep(0.3)
    proc = pool.slots[0].proc
    assert proc is not None
    os.kill(proc.pid, signal.SIGKILL)  # as if the search crashed
    snap = wait(pool, job["id"], ("error",))
    assert "stopped unexpectedly" in snap["error"]["message"]
    after = pool.submit("analyze", QUICK, 60.0)
    done = wait(pool, after["id"], ("done", "error"))
    assert done["state"] == "done" and done["result"]["status"] == "proven"


def test_cancel_stops_a_running_search_and_drops_a_queued_one(pool: Pool) -> None:
    running = pool.submit("analyze", LONG, 600.0)
    queued = pool.submit("analyze", QUICK, 60.0)
    wait(pool, running["id"], ("running",))
    pid = pool.slots[0].proc.pid if pool.slots[0].proc is not None else None
    assert pool.cancel(queued["id"])["state"] == "cancelled"
    assert pool.cancel(running["id"])["cancelling"]
    assert wait(pool, running["id"], ("cancelled",))["state"] == "cancelled"
    with pytest.raises(OSError):  # the abandoned search's process is gone
        for _ in range(100):
            os.kill(pid or 0, 0)
            time.sleep(0.05)
    assert pool.get(queued["id"])["state"] == "cancelled"


def test_the_pool_refuses_more_jobs_than_it_keeps_active(pool: Pool) -> None:
    ids = [pool.submit("analyze", LONG, 600.0)["id"] for _ in range(MAX_ACTIVE)]
    with pytest.raises(ApiError) as e:
        pool.submit("analyze", QUICK, 60.0)
    assert e.value.status == 429 and "cancel one" in e.value.message
    for i in ids:
        pool.cancel(i)
    for i in ids:
        wait(pool, i, ("cancelled",))
    with pytest.raises(ApiError) as missing:
        pool.get("j0")
    assert missing.value.status == 404


def test_a_job_nobody_polls_is_abandoned_and_its_process_replaced() -> None:
    p = Pool(1, lease=1.0)
    p.start()
    try:
        running = p.submit("analyze", LONG, 600.0)
        queued = p.submit("analyze", LONG, 600.0)
        wait(p, running["id"], ("running",))
        pid = p.slots[0].proc.pid if p.slots[0].proc is not None else None
        time.sleep(0.5)
        with p.lock:  # polled within its lease: still running
            assert p.jobs[running["id"]].state == "running"
        end = time.monotonic() + 30.0
        while time.monotonic() < end:  # no poll from here on: read the jobs directly
            with p.lock:
                states = (p.jobs[running["id"]].state, p.jobs[queued["id"]].state)
            if states == ("cancelled", "cancelled"):
                break
            time.sleep(0.05)
        assert states == ("cancelled", "cancelled")  # the queued one never started either
        with pytest.raises(OSError):  # the abandoned search's process is gone
            for _ in range(100):
                os.kill(pid or 0, 0)
                time.sleep(0.05)
        after = p.submit("analyze", QUICK, 60.0)  # a polled job is served as ever
        done = wait(p, after["id"], ("done", "error"))
        assert done["state"] == "done" and done["result"]["status"] == "proven"
    finally:
        p.close()
