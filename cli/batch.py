"""``catbox batch``: one question over many positions, records, puzzles or generated deals, on a
process pool or a Dask cluster; JSONL rows in input order, resumable (solver/batch.py)."""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from catbox.solver.errors import FormatError

from .output import EXIT_MISMATCH, command, err, progress_shown

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from catbox.solver.batch import Summary

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports it


@contextmanager
def _executor(workers: int, address: str | None) -> Iterator[tuple[Executor | None, int]]:
    """The executor and how many jobs to keep in flight: this process (1 worker), a process
    pool, or the Dask scheduler at ``address`` (dask is imported here only)."""
    from catbox.solver import pool

    if address:
        try:
            from distributed import Client
        except ImportError:
            raise FormatError(
                "--address needs Dask: pip install 'catbox[dask]'", where="--address"
            ) from None
        client = Client(address, timeout="20s")  # type: ignore[no-untyped-call]
        try:
            try:
                client.wait_for_workers(1, timeout=60)
            except TimeoutError:
                raise FormatError(
                    "no Dask worker joined the scheduler in 60 s", where="--address"
                ) from None
            # each thread of a worker answers in its own default Session (search tables
            # belong to one thread); one thread per worker process is the fastest setup
            threads = client.nthreads()  # type: ignore[no-untyped-call]
            ex = client.get_executor(pure=False)  # type: ignore[no-untyped-call]
            yield ex, 2 * max(1, sum(threads.values()))
        finally:
            client.close()  # type: ignore[no-untyped-call]
        return
    if workers <= 1:
        yield None, 0
        return
    ex = pool.process_pool(workers)
    try:
        yield ex, 4 * workers
    except BaseException:
        pool.stop(ex)
        raise
    ex.shutdown(wait=True)


def _default_workers() -> int:
    from catbox.solver.batch import default_workers

    return default_workers()


class _Progress:
    """Items done, rate and ETA on stderr (rich); silent off a terminal."""

    def __init__(self, total: int, done: int) -> None:
        self.live = progress_shown(True)
        self.errors = 0
        if not self.live:
            return
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.bar = Progress(
            TextColumn("[bold]batch[/]"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[errors]}"),
            console=err(),
            transient=True,
        )
        self.task = self.bar.add_task("batch", total=total, completed=done, rate="", errors="")
        self.start = time.monotonic()
        self.new = 0
        self.bar.start()

    def row(self, row: dict[str, Any]) -> None:
        if row["status"] == "error":
            self.errors += 1
        if not self.live:
            return
        self.new += 1
        rate = self.new / max(1e-9, time.monotonic() - self.start)
        errors = f"[red]{self.errors} failed[/]" if self.errors else ""
        self.bar.update(self.task, advance=1, rate=f"{rate:.1f}/s", errors=errors)

    def close(self) -> None:
        if self.live:
            self.bar.stop()


def _summary_line(s: Summary, rows: list[dict[str, Any]], out: Path, seconds: float) -> str:
    counts = Counter(str(r.get("status")) for r in rows)
    text = ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "no rows"
    kept = f", {s.kept} kept from an earlier run" if s.kept else ""
    return f"batch: {s.written} rows answered in {seconds:.1f} s{kept}; {out}: {text}"


@command
def batch(
    task: Annotated[
        str,
        typer.Argument(
            metavar="TASK",
            help="The question: paradox, tricks, analyze, advise, score, start (the round-start "
            "advisor: set-aside card and prediction), review (records) or solve (puzzles).",
            show_default=False,
        ),
    ],
    inputs: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[INPUT]...",
            help="Files, folders (their .toml/.json/.txt/.jsonl files), globs, text or JSONL "
            "files of cbx1: lines (one item a line), or cbx1: strings.",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="The JSONL output (one row per item; OUT.meta.json beside it). An existing "
            "output of the same command is resumed.",
            dir_okay=False,
        ),
    ] = Path("batch.jsonl"),
    deal: Annotated[
        int | None,
        typer.Option(
            "--deal",
            min=2,
            max=5,
            metavar="PLAYERS",
            help="Also answer --count fresh deals for this many players (seeds --seed, "
            "--seed+1, ...; each seat's set-aside card drawn by the seed, predictions unknown).",
            show_default=False,
        ),
    ] = None,
    count: Annotated[int, typer.Option("--count", min=1, help="How many deals.")] = 100,
    seed: Annotated[
        int,
        typer.Option("--seed", help="The batch's seed: deals, CP-SAT and sampling."),
    ] = 0,
    seat: Annotated[
        str | None,
        typer.Option(
            "--seat",
            "-s",
            help="The seat asked about, A-E (default: the seat to play; start: the round start).",
            show_default=False,
        ),
    ] = None,
    at: Annotated[
        int | None,
        typer.Option(
            "--at",
            min=0,
            help="Records: the position after N moves (default: after all).",
            show_default=False,
        ),
    ] = None,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit",
            min=0.0,
            help="Wall-clock seconds per item (0: none); what is not proven by then is "
            "'unknown' — and may differ from run to run: use --nodes and --work for "
            "reproducible cuts.",
        ),
    ] = 60.0,
    nodes: Annotated[
        int | None,
        typer.Option(
            "--nodes",
            min=1,
            help="Work budget: search nodes for each game-tree search of an item; answers cut "
            "by it are the same on every run.",
            show_default=False,
        ),
    ] = None,
    work: Annotated[
        float | None,
        typer.Option(
            "--work",
            min=0.01,
            help="Work budget: CP-SAT deterministic seconds for each solve of an item; answers "
            "cut by it are the same on every run.",
            show_default=False,
        ),
    ] = None,
    depth: Annotated[
        int | None,
        typer.Option(
            "--depth", min=1, max=8, help="review: as `catbox review --depth`.", show_default=False
        ),
    ] = None,
    method: Annotated[
        str, typer.Option("--method", help="advise: pimc, playouts or auto.")
    ] = "auto",
    samples: Annotated[
        int | None,
        typer.Option(
            "--samples", "-n", min=1, help="advise/start: sampled deals.", show_default=False
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            "-w",
            min=1,
            help="Worker processes (default: the cores, fewer when the search tables' memory "
            "cap says so). Rows never depend on it.",
            show_default=False,
        ),
    ] = None,
    address: Annotated[
        str | None,
        typer.Option(
            "--address",
            envvar="DASK_SCHEDULER_ADDRESS",
            help="Run on a Dask scheduler, e.g. tcp://HOST:8786 (pip install 'catbox[dask]').",
            show_default=False,
        ),
    ] = None,
    unordered: Annotated[
        bool,
        typer.Option(
            "--unordered",
            help="Write rows as they finish, not in input order; the largest items start first.",
        ),
    ] = False,
) -> None:
    """Answer TASK for every INPUT (and --deal generated deals): one JSON row per item in OUT
    (the command's --json document plus id, index, players, status, error, seconds). Run it
    again to resume after a crash or Ctrl-C. Exit code 1 when any row failed."""
    from catbox.solver import batch as b

    opts = b.Options(
        task,
        seat=seat,
        at=at,
        time_limit=time_limit or None,
        nodes=nodes,
        work=work,
        seed=seed,
        depth=depth,
        method=method,
        samples=samples,
    )
    items = b.expand(inputs or [])
    extra: dict[str, Any] = {}
    if deal is not None:
        items += b.deal_items(deal, count, seed, start=len(items))
        extra = {"deal": {"players": deal, "count": count, "seed": seed}}
    if not items:
        raise FormatError("no input: give files, folders, globs, cbx1: strings or --deal")
    plan = b.prepare(out, items, opts, list(inputs or []), extra)
    if plan.cut:
        err().print(f"batch: cut a torn last line of {out} (a killed run)", highlight=False)
    n = workers or _default_workers()
    progress = _Progress(len(items), plan.kept)
    t0 = time.monotonic()
    summary: Summary | None = None
    try:
        with _executor(n, address) as (ex, window):
            summary = b.run(
                plan, opts, executor=ex, ordered=not unordered, window=window, on_row=progress.row
            )
    except KeyboardInterrupt:
        progress.close()
        sys.stderr.write(
            f"batch: interrupted; {out} keeps every row written — run the same command to resume\n"
        )
        raise typer.Exit(EXIT_INTERRUPTED) from None
    finally:
        progress.close()
    assert summary is not None
    rows = b.read_output(out)
    failed = [r for r in rows if r.get("status") == "error"]
    line = _summary_line(summary, rows, out, time.monotonic() - t0)
    if failed:
        e = failed[0].get("error") or {}
        sys.stderr.write(
            f"{line}; {len(failed)} failed (first: {failed[0]['id']}: {e.get('message')})\n"
        )
        raise typer.Exit(EXIT_MISMATCH)
    sys.stderr.write(line + "\n")
