"""A real ``catbox serve`` in a subprocess for the board's tests: a plain helper module (no
fixtures here; test modules wrap :class:`Served` in their own).

The server picks a free port (``--port 0``) and prints its URL, which :class:`Served` reads;
:meth:`Served.call` sends one HTTP request with any method, headers and body (``http.client``:
a wrong ``Host`` header or an oversized body is sent exactly as given)."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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
