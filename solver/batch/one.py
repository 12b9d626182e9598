"""One batch item: the run's options, what a worker gets for an item (:class:`ItemJob`) and
what it sends back (:class:`ItemResult`), and :func:`run_job`, which answers it through the
task registry (:mod:`..tasks`) — the same library calls and shapes as the command."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

from ..errors import CatboxError, FormatError, bug_json
from ..limits import Limits
from ..tasks import TASKS as REGISTRY
from ..tasks import Ask, answer
from .items import Item, ItemKind, players_of, read_item

__all__ = ["TASKS", "ItemJob", "ItemResult", "Options", "run_job"]

#: The tasks a batch runs: task -> what an item must be.
TASKS: dict[str, str] = {n: t.needs for n, t in REGISTRY.items() if "batch" in t.fronts}


@dataclass(frozen=True, slots=True)
class Options:
    """The task and every option that changes a row (part of the resume check). ``seat``: a
    seat letter (default: the seat to play; ``start``: the round start); ``at``: moves of a
    record to replay (default all); ``time_limit`` seconds, ``nodes`` (search nodes of each
    game-tree search) and ``work`` (deterministic seconds of each CP-SAT solve) per item;
    ``depth`` for ``review``; ``method``/``samples`` for ``advise`` and ``start``; ``seed``
    for CP-SAT and the samplers."""

    task: str
    seat: str | None = None
    at: int | None = None
    time_limit: float | None = None
    nodes: int | None = None
    work: float | None = None
    seed: int = 0
    depth: int | None = None
    method: str = "auto"
    samples: int | None = None

    def __post_init__(self) -> None:
        if self.task not in TASKS:
            raise FormatError(
                f"unknown task {self.task!r}: one of {', '.join(TASKS)}", where="task"
            )

    def limits(self) -> Limits:
        """One item's limits, clock started (one CP-SAT worker: the processes are the
        parallelism, and one worker is deterministic)."""
        return Limits(
            self.time_limit,
            node_limit=self.nodes,
            work_limit=self.work,
            workers=1,
            seed=self.seed,
        ).start()

    def ask(self) -> Ask:
        """The task's own options."""
        return Ask(self.seat, self.at, self.depth, self.method, self.samples, self.seed)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class ItemJob:
    """What a worker gets: everything it needs, nothing of the parent's state (it pickles to
    a process pool or a cluster)."""

    options: Options
    kind: ItemKind
    source: str
    text: str | None


@dataclass(frozen=True, slots=True)
class ItemResult:
    """A worker's answer for one job: the document or the error, the player count, seconds."""

    doc: dict[str, Any] | None
    status: str
    error: dict[str, Any] | None
    players: int | None
    seconds: float

    def row(self, item: Item) -> dict[str, Any]:
        head: dict[str, Any] = {"id": item.id, "index": item.index, "players": self.players}
        tail = {"status": self.status, "error": self.error, "seconds": round(self.seconds, 4)}
        return head | (self.doc or {}) | tail


def run_job(job: ItemJob) -> ItemResult:
    """Answer one item (in a worker): never raises for the item's sake — bad input becomes an
    error result, and so does a bug (kind ``internal``), so one item never stops a batch."""
    from ..search.session import Session

    t0 = time.perf_counter()
    players = None
    try:
        doc = read_item(job.kind, job.source, job.text)
        players = players_of(doc)
        # a session of its own: every item starts from empty tables, so no row depends on
        # what its worker answered before (node counts, answers cut by a budget)
        opts = job.options
        got, status = answer(opts.task, doc, opts.ask(), limits=opts.limits(), session=Session())
        return ItemResult(got, status, None, players, time.perf_counter() - t0)
    except CatboxError as e:
        error: dict[str, Any] = e.to_json()
    except Exception as e:  # a bug (SolverBug or any other): reported on its row, the batch goes on
        error = bug_json(e)
    return ItemResult(None, "error", error, players, time.perf_counter() - t0)
