"""What runs inside a worker process: one job at a time, its messages sent back on a pipe.

A job is ``(kind, params)``; while it runs it may send ``("row", row)`` and
``("progress", {...})``, and it ends with ``("done", document)`` or ``("error", error)``. The
process lives on between jobs, so the search engines' tables (``solver.search``) stay warm; the
server kills it when a job is abandoned (:mod:`.jobs`).

Every search in a worker uses the process's own engines (the main thread's default
:class:`catbox.solver.search.Session`), kept from one job to the next.

The board's questions are the library's registry's board tasks (:mod:`catbox.solver.tasks`,
declared once for batch and the board), answered in the command line's ``--json`` shapes:
``analyze`` rows one by one, then the whole table (``analyze-rows``); ``advise`` for a seat that
cannot see every hand (``advise-view``); ``play``: catbox's play for the seat to play
(``play``). ``review`` (an entered round's review page) and the practice's jobs
(:mod:`.practice`) are the board's own.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

# imported here, not in the jobs: workers fork from a server that preloaded this module, so
# they start with the solver and CP-SAT (2 s to import) in memory
from ortools.sat.python import cp_model  # noqa: F401

from catbox.solver.analysis import analyze_play
from catbox.solver.cards import seat_from_letter, seat_letter
from catbox.solver.deal import random_position
from catbox.solver.errors import CatboxError
from catbox.solver.formats import from_json_obj, position_from_line
from catbox.solver.limits import Limits
from catbox.solver.player import DEFAULT_LEVEL
from catbox.solver.record import Record
from catbox.solver.shapes import player_review_json
from catbox.solver.tasks import Ask, answer

from .errors import bug_json, error_json
from .practice import JOBS as PRACTICE_JOBS

Send = Callable[[str, Any], None]
#: How much lower a worker's scheduling priority is than the server's (Unix ``nice``).
NICE = 10


def _answer(task: str, params: dict[str, Any], ask: Ask, send: Send) -> dict[str, Any]:
    """The document of a board task of the library's registry (:mod:`catbox.solver.tasks`)
    for the job's position, within the job's time limit."""
    pos = position_from_line(params["position"])
    doc, _ = answer(task, pos, ask, limits=Limits(params.get("time_limit")), send=send)
    return doc


def analyze_job(params: dict[str, Any], send: Send) -> dict[str, Any]:
    """The ``analyze`` table of the position, a row per legal play as each is done; the time
    limit is shared out over the plays still to analyse (task ``analyze-rows``)."""
    return _answer("analyze-rows", params, Ask(), send)


def advise_job(params: dict[str, Any], send: Send) -> dict[str, Any]:
    """``advise`` for ``seat`` (default: the seat to play) seeing only its own hand (task
    ``advise-view``)."""
    ask = Ask(
        seat=params.get("seat"),
        samples=int(params.get("samples") or 200),
        seed=int(params.get("seed") or 0),
    )
    return _answer("advise-view", params, ask, send)


def play_job(params: dict[str, Any], send: Send) -> dict[str, Any]:
    """catbox's play for the seat to play, from what that seat can see (task ``play``: the
    practice's :func:`.practice.bot_play`)."""
    ask = Ask(seed=int(params.get("seed") or 0), level=int(params.get("level", DEFAULT_LEVEL)))
    return _answer("play", params, ask, send)


def review_job(params: dict[str, Any], send: Send) -> dict[str, Any]:
    """An entered round's review from the entering seat's view (``review RECORD --seat S``):
    the page (``report.review_page``) and a one-line summary."""
    from catbox.solver.estimates.review import review_player
    from catbox.solver.report import review_page

    record = from_json_obj(params["record"])
    assert isinstance(record, Record)  # checked by the server before it queued the job
    seat = seat_from_letter(params["seat"], record.players)

    def tick(k: int, n: int) -> None:
        send("progress", {"done": k, "total": n, "stage": "review"})

    pr = review_player(
        record, seat, samples=100, limits=Limits(params.get("time_limit")), progress=tick
    )
    doc = player_review_json(pr, seat)
    title = f"Review of {seat_letter(seat)}'s plays, a {record.players}-player round"
    page = review_page(record, doc, view="player", seat=seat, title=title)
    marked = [f"{p['play']} {p['grade']}" for p in doc["plays"] if p["grade"]]
    summary = f"{len(doc['plays'])} of your plays reviewed; marked: {', '.join(marked) or 'none'}."
    return {"html": page, "summary": summary}


JOBS: dict[str, Callable[[dict[str, Any], Send], dict[str, Any]]] = {
    "analyze": analyze_job,
    "advise": advise_job,
    "play": play_job,
    "review": review_job,
    **PRACTICE_JOBS,
}


def warm_up() -> None:
    """One small analysis, so that the first real one does not pay for CP-SAT's and the
    search's first use (measured: the first row of a 4-player position with 4 tricks left
    comes in 0.2-0.6 s warm, 2-5 s cold)."""
    pos = random_position(4, 1, 4)
    analyze_play(pos, pos.legal_plays()[0], limits=Limits(5.0))


def main(conn: Connection) -> None:
    """The worker's loop: run each job received on ``conn`` and report on it; return when the
    server closes the pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    if hasattr(os, "nice"):  # the server and the browser first: clicks stay quick while solving
        os.nice(NICE)
    warm_up()

    def send(tag: str, payload: Any) -> None:
        conn.send((tag, payload))

    while True:
        try:
            kind, params = conn.recv()
        except (EOFError, OSError):
            return
        try:
            send("done", JOBS[kind](params, send))
        except CatboxError as e:
            send("error", error_json(e))
        except Exception as e:  # a bug: reported as one, and the worker goes on
            send("error", bug_json(e))
