"""catbox batch under faults and on Dask, with real processes: a batch killed with SIGKILL (or
stopped by Ctrl-C) at a random moment and run again has every row exactly once, equal to an
uninterrupted run; a Dask
LocalCluster gives the process pool's rows; a real ``dask scheduler`` with two ``dask worker``
processes on 127.0.0.1 (free ports) finishes a batch, rows unchanged, after one worker is
killed in the middle of its tasks."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from catbox.solver import batch as b
from catbox.solver.deal import random_position
from catbox.solver.formats import position_to_line

pytestmark = pytest.mark.slow  # real processes: a scheduler, workers, killed batches

BIN = Path(sys.executable).parent
OPTS = b.Options("paradox", time_limit=None)


def lines(tmp_path: Path, n: int, tricks_left: int = 3) -> Path:
    f = tmp_path / "positions.txt"
    body = [position_to_line(random_position(3, s, tricks_left)) for s in range(n)]
    f.write_text("\n".join(body) + "\n", encoding="utf-8")
    return f


def rows_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def answers(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


def reference(tmp_path: Path, f: Path) -> list[dict[str, Any]]:
    """The rows of an uninterrupted run in this process."""
    out = tmp_path / "reference.jsonl"
    b.run(b.prepare(out, b.expand([str(f)]), OPTS, [str(f)], {}), OPTS)
    return answers(rows_of(out))


def wait_rows(out: Path, at_least: int, proc: subprocess.Popen[bytes], timeout: float) -> int:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        n = out.read_bytes().count(b"\n") if out.exists() else 0
        if n >= at_least or proc.poll() is not None:
            return n
        time.sleep(0.02)
    raise AssertionError(f"no {at_least} rows in {timeout} s")


def batch_cmd(f: Path, out: Path) -> list[str]:
    return [str(BIN / "catbox"), "batch", "paradox", str(f), "-o", str(out), "--time-limit", "0"]


def test_kill_9_at_a_random_moment_loses_nothing_and_repeats_nothing(tmp_path: Path) -> None:
    f = lines(tmp_path, 96)
    want = reference(tmp_path, f)
    rng = random.Random(19)
    env = os.environ | {"CATBOX_NO_PROGRESS": "1"}
    for run, sig in enumerate((signal.SIGKILL, signal.SIGINT)):
        out = tmp_path / f"killed{run}.jsonl"
        cmd = [*batch_cmd(f, out), "-w", "2"]
        # rows are written in input order, so a slow row holds back the ones after it and they
        # land together: a kill aimed at the first half can still come after the last row. Such
        # a try tests nothing and is made again at another moment (a few tries at most).
        for _ in range(5):
            out.unlink(missing_ok=True)
            proc = subprocess.Popen(cmd, env=env, start_new_session=True, stderr=subprocess.PIPE)
            # a random moment measured in rows written (a quiet machine finishes the rest in
            # well under a second, a loaded one takes minutes), then a random instant after it
            wait_rows(out, rng.randint(1, len(want) // 2), proc, timeout=120)
            time.sleep(rng.uniform(0.0, 0.05))
            # SIGKILL to the batch and its workers, as a crash would; SIGINT as Ctrl-C does
            os.killpg(proc.pid, sig)
            _, err = proc.communicate(timeout=60)  # no worker is left holding its stderr
            before = out.read_bytes().count(b"\n")
            if before < len(want):
                break
        assert before < len(want), "every kill came after the end: nothing tested"
        if sig == signal.SIGINT:
            assert proc.returncode == 130 and b"interrupted" in err and b"Traceback" not in err
        done = subprocess.run(cmd, env=env, capture_output=True, timeout=300)
        assert done.returncode == 0, done.stderr
        assert answers(rows_of(out)) == want  # in input order, each id once
        assert f"{before} kept".encode() in done.stderr


@contextmanager
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    try:
        yield started
    finally:
        for p in started:
            if p.poll() is None:
                p.kill()
            p.wait()
            for stream in (p.stdout, p.stderr):
                if stream:
                    stream.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port}")


def test_dask_local_cluster_gives_the_pool_rows(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    f = lines(tmp_path, 12)
    want = reference(tmp_path, f)
    out = tmp_path / "dask.jsonl"
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            host="127.0.0.1",
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        plan = b.prepare(out, b.expand([str(f)]), OPTS, [str(f)], {})
        b.run(plan, OPTS, executor=client.get_executor(pure=False), window=4)
    assert answers(rows_of(out)) == want


def test_dask_scheduler_and_workers_survive_a_worker_killed_mid_task(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    f = lines(tmp_path, 40, tricks_left=4)
    want = reference(tmp_path, f)
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = subprocess.DEVNULL
    with processes() as started:
        cmd = [str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port)]
        started.append(subprocess.Popen([*cmd, "--no-dashboard"], stdout=quiet, stderr=quiet))
        wait_port(port, timeout=60)
        for k in range(2):
            cmd = [str(BIN / "dask"), "worker", address, "--nthreads", "1", "--no-nanny"]
            cmd += ["--no-dashboard", "--host", "127.0.0.1", "--name", f"w{k}"]
            started.append(subprocess.Popen(cmd, stdout=quiet, stderr=quiet))
        out = tmp_path / "cluster.jsonl"
        env = os.environ | {"CATBOX_NO_PROGRESS": "1", "DASK_SCHEDULER_ADDRESS": address}
        batch = subprocess.Popen(batch_cmd(f, out), env=env, stderr=subprocess.PIPE)
        started.append(batch)
        before = wait_rows(out, 3, batch, timeout=180)
        started[1].send_signal(signal.SIGKILL)  # worker w0, with tasks in hand
        _, err = batch.communicate(timeout=300)
        assert batch.returncode == 0, err
        assert before < len(want), "the worker was killed after the end: nothing tested"
        assert answers(rows_of(out)) == want
