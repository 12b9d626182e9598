"""``catbox serve``: the analysis board in the browser, served from this machine."""

from __future__ import annotations

from typing import Annotated

import typer

from catbox.solver.player import DEFAULT_LEVEL, MAX_LEVEL

from .output import command, out
from .sources import load_document


@command
def serve(
    source: Annotated[
        str | None,
        typer.Argument(
            metavar="POS|RECORD|PUZZLE",
            help="Open this position, record or puzzle (a file, a bundled puzzle's name or a "
            "one-line position string); default: a newly dealt round.",
            show_default=False,
        ),
    ] = None,
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, help="TCP port (0: any free port).")
    ] = 8765,
    host: Annotated[
        str,
        typer.Option(
            "--host",
            help="Address to listen on. The board answers only requests addressed to this "
            "machine by name (localhost, 127.0.0.1) or to this address.",
        ),
    ] = "127.0.0.1",
    no_open: Annotated[
        bool, typer.Option("--no-open", help="Do not open the browser; just print the URL.")
    ] = False,
    workers: Annotated[
        int,
        typer.Option(
            "--workers", min=1, max=8, help="Worker processes for analyses and catbox's plays."
        ),
    ] = 2,
    level: Annotated[
        int,
        typer.Option(
            "--level",
            min=0,
            max=MAX_LEVEL,
            help="How well catbox plays the other seats: 0 its policy (instant); 1-5 its "
            "player, exact endgames over 20 x LEVEL sampled deals per decision (slower).",
        ),
    ] = DEFAULT_LEVEL,
) -> None:
    """Open a local analysis board in the browser: load or paste a position, record or puzzle,
    or deal a new round; click a card, then a colour; undo, redo, jump to any move; live
    analysis of the shown position; let catbox play the other seats; download the position or
    the record so far. Stop it with Ctrl-C."""
    from catbox.web.server import serve as run

    doc = load_document(source) if source is not None else None
    run(
        doc,
        host=host,
        port=port,
        open_browser=not no_open,
        workers=workers,
        level=level,
        announce=lambda text: out().print(text, highlight=False),
    )
