"""One question over many inputs (``catbox batch``): items with stable ids, one JSON row each,
written as they are answered to a JSONL file that a later run resumes.

**Items.** :func:`expand` turns the command's inputs into :class:`Item` s, in a fixed order:
a file is one item (id: the path as given, or as found under a folder or by a glob, sorted); a
``.txt``/``.jsonl`` file is one item per non-empty line (id ``path:LINE``; a line is a
``cbx1:`` position string, a JSON string holding one, a JSON object with a ``line`` key — what
``catbox show --json`` prints — or a whole position/record/puzzle document); a ``cbx1:``
argument is one item (id ``cbx1:`` + the first 12 hex digits of its SHA-256); a generated deal
is ``deal:<players>p:<seed>`` (:func:`deal_items`). A missing file is an item too: its row is
an error.

**Rows.** Each row is the command's ``--json`` document (built by :mod:`.shapes`, as the CLI
builds it) with ``id``, ``index`` (place in the input), ``players``, ``status`` (the answer's
``proven``/``estimate``/``unknown``, or ``error``), ``error`` (``kind``, ``message``,
``rule``, ``where``; null when the row has an answer) and ``seconds``. Every field but
``seconds`` depends only on the item and the options — not on the number of workers, their
order or what a worker solved before (each item starts with empty search tables) — as long as
no wall-clock limit cut an answer short. Work budgets (``nodes`` for the game-tree search,
``work`` for CP-SAT) cut answers the same way on every run.

**Resume.** :func:`prepare` reads an existing output: a torn last line (a killed run) is cut,
finished ids are skipped, and a run with another task or other options is refused (the
``.meta.json`` beside the output records them). Items with the same content are solved once.

>>> opts = Options("score")
>>> item = Item("cbx1:x", 0, "line", "cbx1:2A:5/5/2N2/2N1N:122334455.RBYG.0.-.1,"
...     "111223445.RBYG.0.-.2:A")
>>> row = run_job(Job(opts, item.kind, item.source, item.text))
>>> row.doc["finished"], row.players, row.error
(False, 2, None)
"""

from __future__ import annotations

import glob as globmod
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from .answers import PROVEN, Status
from .errors import CatboxError, FileError, FormatError, PositionError, SolverBug
from .limits import Limits
from .pool import imap, process_pool, stop

if TYPE_CHECKING:
    from .search.session import Session

__all__ = [
    "DOCUMENT_SUFFIXES",
    "LINE_SUFFIXES",
    "TASKS",
    "Item",
    "Job",
    "Options",
    "Outcome",
    "Plan",
    "Summary",
    "deal_items",
    "default_workers",
    "expand",
    "meta_path",
    "prepare",
    "read_output",
    "run",
    "run_job",
    "summarize",
]

META_FORMAT = "catbox-batch/1"
#: task -> what an item must be
TASKS: dict[str, str] = {
    "paradox": "position",
    "tricks": "position",
    "analyze": "position",
    "advise": "position",
    "score": "position",
    "start": "position at round start",
    "review": "record",
    "solve": "puzzle",
}
LINE_SUFFIXES = (".txt", ".jsonl")
#: Short items travel to a worker in chunks of about this many seconds of work (pool.imap).
CHUNK_SECONDS = 0.2
DOCUMENT_SUFFIXES = (".toml", ".json")
ItemKind = Literal["file", "line", "deal", "missing"]


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

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Item:
    """One input: ``source`` is a path (``file``), a line's text (``line``), ``players:seed``
    (``deal``) or the argument that named nothing (``missing``); ``text`` a file's content."""

    id: str
    index: int
    kind: ItemKind
    source: str
    text: str | None = None

    @property
    def digest(self) -> str:
        """The content digest: items with equal digests get the same answer (solved once)."""
        body = self.text if self.kind == "file" else f"{self.kind}:{self.source}"
        return hashlib.sha256((body or "").encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Job:
    """What a worker gets: everything it needs, nothing of the parent's state (it pickles to
    a process pool or a cluster)."""

    options: Options
    kind: ItemKind
    source: str
    text: str | None


@dataclass(frozen=True, slots=True)
class Outcome:
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


# ---------------------------------------------------------------------- inputs
def _line_items(path: str, text: str, start: int) -> list[Item]:
    out: list[Item] = []
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line and not line.startswith("#"):
            out.append(Item(f"{path}:{no}", start + len(out), "line", line))
    return out


def _file_items(path: str, start: int) -> list[Item]:
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return [Item(path, start, "file", path, None)]  # the worker reports the error
    if path.endswith(LINE_SUFFIXES):
        return _line_items(path, text, start)
    return [Item(path, start, "file", path, text)]


def _paths(arg: str) -> list[str] | None:
    """The files an argument names (a folder: its documents and line files, recursively; a
    glob: its matches), sorted; None when it names nothing."""
    p = Path(arg)
    if p.is_dir():
        found = [
            str(f)
            for f in p.rglob("*")
            if f.is_file() and f.suffix in DOCUMENT_SUFFIXES + LINE_SUFFIXES
        ]
        return sorted(found)
    if p.is_file():
        return [arg]
    if any(ch in arg for ch in "*?["):
        return sorted(f for f in globmod.glob(arg, recursive=True) if Path(f).is_file()) or None
    return None


def expand(inputs: Iterable[str]) -> list[Item]:
    """The items of the command's inputs, in order (see the module docstring); an id seen
    twice (the same file named twice) is one item."""
    from .formats.line import looks_like_line

    items: list[Item] = []
    seen: set[str] = set()

    def add(new: list[Item]) -> None:
        for it in new:
            if it.id not in seen:
                seen.add(it.id)
                items.append(Item(it.id, len(items), it.kind, it.source, it.text))

    for arg in inputs:
        if looks_like_line(arg) and not Path(arg).exists():
            digest = hashlib.sha256(arg.encode()).hexdigest()[:12]
            add([Item(f"cbx1:{digest}", 0, "line", arg)])
            continue
        paths = _paths(arg)
        if paths is None:
            add([Item(arg, 0, "missing", arg)])
            continue
        for path in paths:
            add(_file_items(path, 0))
    return items


def deal_items(players: int, count: int, seed: int, start: int = 0) -> list[Item]:
    """``count`` fresh deals, seeds ``seed`` .. ``seed+count-1``: deal S is the round that
    ``catbox new --players P --seed S`` deals (:func:`.deal.deal_round`: the shuffle, each
    seat's set-aside card (S2) and, at 3-5 players, each seat's prediction (S3) all drawn at
    random by the seed; the round start is A)."""
    if not 2 <= players <= 5:
        raise FormatError(f"{players} players: a deal needs 2 to 5", where="players")
    if count < 1:
        raise FormatError("the deal count must be at least 1", where="count")
    return [
        Item(f"deal:{players}p:{s}", start + k, "deal", f"{players}:{s}")
        for k, s in enumerate(range(seed, seed + count))
    ]


# ---------------------------------------------------------------------- one item
def _document(job: Job) -> Any:
    from . import formats

    if job.kind == "missing":
        raise FileError("no such file or folder, and not a position string").located(
            job.source, final=True
        )
    if job.kind == "deal":
        from .deal import deal_round

        players, seed = map(int, job.source.split(":"))
        return deal_round(players, seed, predictions=True).position
    if job.kind == "line":
        text = job.source
        if text.startswith(("{", '"')):
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as e:
                raise FormatError(f"bad JSON: {e.msg}", rule="syntax") from None
            if isinstance(obj, dict) and "format" not in obj and isinstance(obj.get("line"), str):
                obj = obj["line"]
            if isinstance(obj, dict):
                return formats.from_json_obj(obj)
            if not isinstance(obj, str):
                raise FormatError("expected a position string or a JSON object", rule="syntax")
            text = obj
        return formats.position_from_line(text)
    if Path(job.source).is_file() or job.text is None:
        return formats.load(job.source)  # a puzzle may name a position file beside it
    return _loads(job)  # a worker that does not see the file (a cluster): its text


def _loads(job: Job) -> Any:
    from . import formats

    assert job.text is not None
    return formats.loads(job.text, formats.syntax_of(job.source, job.text), name=job.source)


def _position(doc: Any, at: int | None) -> Any:
    from .puzzle import Puzzle
    from .record import Record

    if isinstance(doc, Record):
        if at is not None and not 0 <= at <= len(doc.moves):
            raise PositionError(f"the record has {len(doc.moves)} moves, not {at}", where="at")
        return doc.position(at)
    if isinstance(doc, Puzzle):
        return doc.position
    return doc


def _seat(pos: Any, seat: str | None) -> int:
    from .cards import seat_from_letter

    if seat is not None:
        return seat_from_letter(seat, pos.players)
    if pos.to_play is None:
        raise PositionError("the round is over: name a seat", where="seat")
    return int(pos.to_play)


def _players(doc: Any) -> int | None:
    from .puzzle import Puzzle
    from .record import Record

    if isinstance(doc, Record):
        return doc.players
    if isinstance(doc, Puzzle):
        return doc.position.players
    players = getattr(doc, "players", None)
    return players if isinstance(players, int) else None


def _answer(opts: Options, source: Any, session: Session) -> tuple[dict[str, Any], Status]:
    """The task's document and status (the same library calls and shapes as the command)."""
    from . import shapes
    from .analysis import merge_status

    lim = opts.limits()
    ask: dict[str, Any] = {"limits": lim, "session": session}
    task = opts.task
    if task == "review":
        from .record import Record
        from .review import review

        if not isinstance(source, Record):
            raise FormatError("review needs a round record", rule="format")
        seat = None if opts.seat is None else _seat(source.position(0), opts.seat)
        depth = opts.depth or (3 if source.players == 5 else 4)
        r = review(source, seat, depth=depth, **ask)
        return shapes.review_json(r), merge_status(*(p.status for p in r.plays))
    if task == "solve":
        from .puzzle import Puzzle
        from .solve import solve

        if not isinstance(source, Puzzle):
            raise FormatError("solve needs a puzzle", rule="format")
        sol = solve(source, **ask)
        return shapes.solution_json(sol), sol.status
    pos = _position(source, opts.at)
    if task == "score":
        from .scoring import round_score

        return shapes.round_json(round_score(pos)), PROVEN
    if task == "start":
        return _start(opts, pos, ask)
    seat = _seat(pos, opts.seat)
    if task == "paradox":
        from .analysis import paradox_report

        doc = shapes.paradox_json(paradox_report(pos, seat, **ask))
    elif task == "tricks":
        from .analysis import tricks_report

        doc = shapes.tricks_json(tricks_report(pos, seat, **ask))
    elif task == "analyze":
        from .analysis import analyze

        if pos.to_play is None:
            raise PositionError("the round is over: there is no play to analyse", rule="E1")
        rows = analyze(pos, **ask)
        st = merge_status(*(m.status for m in rows)) if rows else PROVEN
        return shapes.analyze_json(pos, rows, st), st
    else:
        from .estimates.advise import DEFAULT_SAMPLES, advise

        a = advise(
            pos,
            seat,
            method=opts.method,
            samples=opts.samples or DEFAULT_SAMPLES,
            seed=opts.seed,
            **ask,
        )
        return shapes.advice_json(a), a.status
    return doc, doc["status"]


def _start(opts: Options, pos: Any, ask: dict[str, Any]) -> tuple[dict[str, Any], Status]:
    """The round-start advisor for the seat ``opts.seat`` (default: the round start): its
    dealt hand is its hand and its set-aside card, the predictions before it those known."""
    from . import shapes
    from .estimates.start import DEFAULT_START_SAMPLES, advise_start

    if pos.completed_tricks or pos.trick:
        raise PositionError("the start advisor needs a position at the round start")
    seat = pos.round_start if opts.seat is None else _seat(pos, opts.seat)
    s = pos.seats[seat]
    if s.hand is None or s.set_aside is None:
        raise PositionError("the start advisor needs the seat's hand and set-aside card")
    order = (seat - pos.round_start) % pos.players
    before = tuple(
        p
        for k in range(order)
        if (p := pos.seats[(pos.round_start + k) % pos.players].prediction) is not None
    )
    if len(before) < order:
        raise PositionError("the start advisor needs the predictions made before the seat's")
    r = advise_start(
        pos.players,
        (*s.hand, s.set_aside),
        order=order,
        before=before,
        samples=opts.samples or DEFAULT_START_SAMPLES,
        seed=opts.seed,
        **ask,
    )
    return shapes.advice_json(r), "estimate"


def run_job(job: Job) -> Outcome:
    """Answer one item (in a worker): never raises for the item's sake — bad input becomes an
    error outcome, and so does a bug (kind ``internal``), so one item never stops a batch."""
    from .search.session import Session

    t0 = time.perf_counter()
    players = None
    try:
        doc = _document(job)
        players = _players(doc)
        # a session of its own: every item starts from empty tables, so no row depends on
        # what its worker answered before (node counts, answers cut by a budget)
        answer, status = _answer(job.options, doc, Session())
        return Outcome(answer, status, None, players, time.perf_counter() - t0)
    except CatboxError as e:
        error: dict[str, Any] = e.to_json()
    except SolverBug as e:
        error = e.to_json()
    except Exception as e:  # a bug: reported on its row, the batch goes on
        error = {"kind": "internal", "message": f"{type(e).__name__}: {e}", "rule": None}
        error["where"] = None
    return Outcome(None, "error", error, players, time.perf_counter() - t0)


# ---------------------------------------------------------------------- output
def meta_path(out: Path) -> Path:
    """``OUT.jsonl`` -> ``OUT.meta.json`` (any other name: ``OUT.meta.json`` beside it)."""
    name = out.name[: -len(".jsonl")] if out.name.endswith(".jsonl") else out.name
    return out.with_name(name + ".meta.json")


def input_digest(items: list[Item]) -> str:
    h = hashlib.sha256()
    for it in items:
        h.update(f"{it.id}\0{it.digest}\n".encode())
    return h.hexdigest()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("catbox")
    except PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True, slots=True)
class Plan:
    """What a run will do: the output file, the items still to answer, and how many rows the
    output already holds (a resumed run)."""

    out: Path
    items: list[Item]
    todo: list[Item]
    kept: int
    cut: bool  # a torn last line was cut


def _read_rows(out: Path) -> tuple[set[str], int, bool]:
    """Finished ids of an existing output; cuts a torn last line (the file is truncated after
    its last complete row)."""
    data = out.read_bytes()
    end = data.rfind(b"\n") + 1
    cut = end < len(data)
    if cut:
        with out.open("r+b") as f:
            f.truncate(end)
    ids: set[str] = set()
    for no, line in enumerate(data[:end].splitlines(), 1):
        try:
            row = json.loads(line)
            ids.add(str(row["id"]))
        except (ValueError, KeyError, TypeError):
            raise FormatError(
                "not a row of a batch output (refusing to resume over it)", where=f"{out}:{no}"
            ) from None
    return ids, len(ids), cut


def prepare(
    out: Path, items: list[Item], opts: Options, inputs: list[str], extra: dict[str, Any]
) -> Plan:
    """Check (or write) ``.meta.json`` beside ``out`` and list what is left to do.

    Raises:
        FileError: ``out`` exists but is not a batch output (code ``batch-not-output``), or
            was made with another task or other options (code ``batch-options``).
    """
    meta_file = meta_path(out)
    options = opts.to_json() | extra
    meta = {
        "format": META_FORMAT,
        "catbox": _version(),
        "task": opts.task,
        "options": options,
        "inputs": inputs,
        "items": len(items),
        "input_digest": input_digest(items),
    }
    done: set[str] = set()
    kept, cut = 0, False
    if out.exists():
        try:
            old = json.loads(meta_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise FileError(
                f"exists and has no readable {meta_file.name}: not a batch output to resume",
                where=str(out),
                code="batch-not-output",
            ) from None
        if old.get("format") != META_FORMAT or old.get("task") != opts.task:
            raise FileError(
                f"was made by task {old.get('task')!r}, not {opts.task!r}",
                where=str(out),
                code="batch-options",
            )
        if old.get("options") != options:
            diff = sorted(
                k
                for k in set(options) | set(old.get("options") or {})
                if options.get(k) != (old.get("options") or {}).get(k)
            )
            raise FileError(
                "was made with other options (" + ", ".join(diff) + "): resuming would mix "
                "answers to two questions",
                where=str(out),
                code="batch-options",
            )
        done, kept, cut = _read_rows(out)
    tmp = meta_file.with_name(meta_file.name + ".tmp")
    tmp.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, meta_file)
    todo = [it for it in items if it.id not in done]
    return Plan(out, items, todo, kept, cut)


def read_output(out: Path) -> list[dict[str, Any]]:
    """Every complete row of a batch output (a torn last line is left out)."""
    rows = []
    with out.open(encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            if not line.endswith("\n"):
                break
            try:
                rows.append(json.loads(line))
            except ValueError:
                raise FormatError("not a JSON row", rule="syntax", where=f"{out}:{no}") from None
    return rows


def default_workers() -> int:
    """Worker processes by default: the cores, fewer when the memory available cannot hold one
    search-table cap (:func:`.search.native.table_bytes`) per worker."""
    from .pool import default_workers as cores
    from .search.native import table_bytes

    n = cores()
    try:
        free = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return n
    return max(1, min(n, free // max(1, table_bytes())))


@dataclass
class Summary:
    """Counts of one run (rows written now; ``kept`` from an earlier run)."""

    written: int = 0
    kept: int = 0
    by_status: dict[str, int] = field(default_factory=dict)

    @property
    def errors(self) -> int:
        return self.by_status.get("error", 0)


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
    jobs = [Job(opts, it.kind, it.source, it.text) for it in firsts]
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
DIED = {
    "kind": "internal",
    "message": "the worker process died while answering this item (a bug in catbox: please "
    "report it with this item)",
    "rule": None,
    "where": None,
}


def _answers(
    jobs: list[Job], executor: Executor | None, window: int, ordered: bool
) -> Iterator[tuple[int, Outcome]]:
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
                    run_job,
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


def _alone(job: Job, owned: list[Executor]) -> Outcome:
    """``run_job(job)`` in a pool of one process (the last of ``owned`` when it is one, else a
    new one): the error row :data:`DIED` when that process dies."""
    if getattr(owned[-1], "_max_workers", 0) != 1:
        owned.append(process_pool(1))
    try:
        return owned[-1].submit(run_job, job).result()
    except BrokenProcessPool:
        owned.append(process_pool(1))
        return Outcome(None, "error", dict(DIED), None, 0.0)


def estimated_cost(opts: Options, item: Item) -> int:
    """A rough size of an item's work, to start the hardest first when rows may be written as
    they finish (``run(ordered=False)``): the cards still to play (the game tree grows with
    them; a review or a record at its end counts every move to review), or 0 when the item
    cannot be read (its error row is cheap). Never changes a row, only when it is computed.
    With rows in input order the items keep that order, so that a finished row never waits
    behind an unfinished earlier one (a killed run then loses only the rows in flight)."""
    from .record import Record

    try:
        doc = _document(Job(opts, item.kind, item.source, item.text))
        if isinstance(doc, Record) and opts.task == "review":
            return len(doc.moves)
        pos = _position(doc, opts.at)
    except CatboxError:
        return 0
    return sum(s.hand_size if s.hand is None else len(s.hand) for s in pos.seats)


def _drain_any(waiting: dict[int, dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for i in sorted(waiting):
        yield waiting.pop(i)


# ---------------------------------------------------------------------- stats
#: Row fields that are not answers (never summarised as yes/no or numbers).
ROW_FIELDS = ("id", "index", "players", "status", "error")
MAX_VALUES = 8  # a text field with more distinct values (a line, a reason) is not counted


@dataclass(frozen=True, slots=True)
class Share:
    """A yes/no field: ``yes`` of ``n`` rows that answer it, with a Wilson 95% interval."""

    name: str
    yes: int
    n: int
    ci95: tuple[float, float]


@dataclass(frozen=True, slots=True)
class Spread:
    """A number field over ``n`` rows: mean, min, quartiles, max."""

    name: str
    n: int
    mean: float
    quartiles: tuple[float, float, float, float, float]  # min, q1, median, q3, max


@dataclass(frozen=True, slots=True)
class Group:
    """The rows of one player count (``players`` None: every row)."""

    players: int | None
    rows: int
    by_status: dict[str, int]
    shares: tuple[Share, ...]
    numbers: tuple[Spread, ...]
    values: dict[str, dict[str, int]]  # text fields with few distinct values: their counts


def _quantile(sorted_values: list[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default)."""
    pos = q * (len(sorted_values) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def _group(players: int | None, rows: list[dict[str, Any]]) -> Group:
    from .estimates.stats import wilson

    status: dict[str, int] = {}
    flags: dict[str, list[bool]] = {}
    numbers: dict[str, list[float]] = {}
    texts: dict[str, dict[str, int]] = {}
    for r in rows:
        status[str(r.get("status"))] = status.get(str(r.get("status")), 0) + 1
        for k, v in r.items():
            if k in ROW_FIELDS or v is None:
                continue
            if isinstance(v, bool):
                flags.setdefault(k, []).append(v)
            elif isinstance(v, int | float):
                numbers.setdefault(k, []).append(float(v))
            elif isinstance(v, str):
                counts = texts.setdefault(k, {})
                counts[v] = counts.get(v, 0) + 1
    shares = tuple(
        Share(k, sum(v), len(v), wilson(sum(v), len(v))) for k, v in sorted(flags.items())
    )
    spreads = []
    for k, v in sorted(numbers.items()):
        v.sort()
        qs = tuple(_quantile(v, q) for q in (0.0, 0.25, 0.5, 0.75, 1.0))
        spreads.append(Spread(k, len(v), sum(v) / len(v), qs))  # type: ignore[arg-type]
    values = {
        k: dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))
        for k, c in sorted(texts.items())
        if len(c) <= MAX_VALUES
    }
    return Group(players, len(rows), dict(sorted(status.items())), shares, tuple(spreads), values)


def summarize(rows: list[dict[str, Any]]) -> list[Group]:
    """The aggregates of ``catbox stats``: every row, then one group per player count. A
    yes/no field (a JSON boolean at the top of a row) is a share with its Wilson 95% interval
    over the rows that answer it (null: not counted); a number field is its distribution; a
    text field with at most :data:`MAX_VALUES` distinct values (a status, a seat) its counts."""
    by_players: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        p = r.get("players")
        if isinstance(p, int):
            by_players.setdefault(p, []).append(r)
    return [_group(None, rows)] + [_group(p, rs) for p, rs in sorted(by_players.items())]
