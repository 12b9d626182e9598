"""A real ``catbox serve`` in a subprocess for the board's tests: a plain helper module (no
fixtures here; test modules wrap :class:`Served` in their own).

The server picks a free port (``--port 0``) and prints its URL, which :class:`Served` reads;
:meth:`Served.call` sends one HTTP request with any method, headers and body (``http.client``:
a wrong ``Host`` header or an oversized body is sent exactly as given)."""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from catbox.solver import formats

CATBOX = str(Path(sys.executable).with_name("catbox"))


class Served:
    """``catbox serve --no-open --port 0 [ARGS]`` running until :meth:`stop`."""

    def __init__(self, *args: str, workers: int = 2):
        env = {**os.environ, "COLUMNS": "200"}
        self.proc = subprocess.Popen(
            [CATBOX, "serve", "--no-open", "--port", "0", "--workers", str(workers), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            start_new_session=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if m is None:
            self.stop()
            raise RuntimeError(f"catbox serve did not start: {line!r} {self.stderr()}")
        self.port = int(m.group(1))
        self.url = f"http://127.0.0.1:{self.port}/"

    def call(
        self,
        method: str,
        path: str,
        body: bytes | str | dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 30.0,
    ) -> tuple[int, Any]:
        """Status and decoded JSON body (None if not JSON) of one request."""
        hdrs = {"Host": f"127.0.0.1:{self.port}"}
        if isinstance(body, dict):
            body = json.dumps(body)
            hdrs["Content-Type"] = "application/json"
        hdrs.update(headers or {})
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            data = body.encode() if isinstance(body, str) else body
            if data is not None and "Content-Length" not in hdrs:
                hdrs["Content-Length"] = str(len(data))
            for k, v in hdrs.items():
                conn.putheader(k, v)
            conn.endheaders(data)
            res = conn.getresponse()
            raw = res.read()
        finally:
            conn.close()
        try:
            return res.status, json.loads(raw)
        except ValueError:
            return res.status, None

    def wait_job(self, job_id: str, timeout: float = 60.0) -> dict[str, Any]:
        """Poll a job until it ends; its last snapshot (every row)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            status, snap = self.call("GET", f"/api/jobs/{job_id}")
            assert status == 200, snap
            if snap["state"] not in ("queued", "running"):
                return dict(snap)
            time.sleep(0.05)
        raise AssertionError(f"job {job_id} still running after {timeout} s")

    def stderr(self) -> str:
        return self.proc.stderr.read() if self.proc.stderr and self.proc.poll() is not None else ""

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        """Ctrl-C, as a user stops it; then make sure."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


def mixed_request(
    rng: random.Random, lines: list[str]
) -> tuple[str, str, Any, dict[str, str], bool]:
    """One request of the robustness run over the position strings ``lines``: (method, path,
    body, headers, whether it is valid). Bad ones: mangled positions, illegal or malformed
    plays, not JSON, oversized bodies, a wrong Host, unknown fields, pages, jobs and methods."""
    line = rng.choice(lines)
    pos = formats.position_from_line(line)
    legal = [str(p) for p in pos.legal_plays()] if pos.to_play is not None else []
    kind = rng.randrange(14)
    body: Any
    if kind == 0:
        return "GET", "/api/health", None, {}, True
    if kind == 1:
        return "POST", "/api/view", {"position": line}, {}, True
    if kind == 2 and legal:
        return "POST", "/api/play", {"position": line, "play": rng.choice(legal)}, {}, True
    if kind == 3:
        return (
            "POST",
            "/api/deal",
            {"players": rng.randint(2, 5), "seed": rng.randrange(99)},
            {},
            True,
        )
    if kind == 4:
        return "POST", "/api/load", {"text": line}, {}, True
    if kind == 5:  # a mangled position string
        cut = rng.randrange(len(line))
        bad = line[:cut] + rng.choice("#%!") + line[cut:]  # never in a position string
        return "POST", "/api/view", {"position": bad}, {}, False
    if kind == 6:  # an illegal or malformed play
        return (
            "POST",
            "/api/play",
            {"position": line, "play": rng.choice(["0B", "", "5Q", "R5", "12R", "99G"])},
            {},
            False,
        )
    if kind == 7:  # not JSON, or JSON of the wrong shape
        body = rng.choice(
            ['{"position": ', "[1, 2]", "null", '"text"', '{"position": 5}', '{"players": "four"}']
        )
        return (
            "POST",
            rng.choice(["/api/view", "/api/deal", "/api/load", "/api/jobs"]),
            body,
            {"Content-Type": "application/json"},
            False,
        )
    if kind == 8:  # oversized
        return "POST", "/api/load", {"text": "y" * rng.randint(70_000, 400_000)}, {}, False
    if kind == 9:  # wrong Host
        return (
            "GET",
            "/api/health",
            None,
            {"Host": rng.choice(["evil.example", "127.0.0.2", "localhost.evil:80", ""])},
            False,
        )
    if kind == 10:  # unknown fields, wrong types, out of range
        body = rng.choice(
            [
                {"players": 7},
                {"players": 4, "seed": -1},
                {"players": True},
                {"players": 4, "colour": "R"},
            ]
        )
        return "POST", "/api/deal", body, {}, False
    if kind == 11:  # unknown job, unknown page, wrong method
        return (
            *rng.choice(
                [
                    ("GET", "/api/jobs/nope"),
                    ("DELETE", "/api/jobs/j0"),
                    ("GET", "/api/nothing"),
                    ("PUT", "/api/view"),
                ]
            ),
            None,
            {},
            False,
        )
    if kind == 12:  # bad jobs
        body = rng.choice(
            [
                {"kind": "analyze", "position": line, "time_limit": 10_000},
                {"kind": "play"},
                {"kind": "advise", "position": line, "samples": 0},
            ]
        )
        return "POST", "/api/jobs", body, {}, False
    return (
        "POST",
        "/api/export",
        {
            "what": rng.choice(["record", "position", "both"]),
            "record": {"format": "catbox-record/1"},
        },
        {},
        False,
    )
