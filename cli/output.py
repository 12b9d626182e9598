"""The one output layer: rich for people, JSON for programs, one-line errors on stderr.

Exit codes (documented in the README):

====  ==========================================================================
0     success (an answer was printed, whatever its status)
1     ``catbox solve``: the solver's answer differs from the puzzle's stated answer
2     usage error (unknown option, missing argument)
3     format error: a file or string that cannot be read
4     position error: a well-formed position that cannot arise, or a question it cannot answer
5     illegal play (rules L1-L3, or the round is over)
6     file system error (missing file, refusing to overwrite, unreadable)
70    internal error: a solver line failed the rules engine, or an unexpected exception
      (a bug, never shown as an answer; see cli/errors.py)
====  ==========================================================================
"""

from __future__ import annotations

import functools
import inspect
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console

from catbox.solver.errors import (
    CatboxError,
    FileError,
    FormatError,
    IllegalPlayError,
    PositionError,
    SolverBug,
)

from .errors import with_hint

EXIT_OK = 0
EXIT_MISMATCH = 1
EXIT_USAGE = 2
EXIT_FORMAT = 3
EXIT_POSITION = 4
EXIT_ILLEGAL = 5
EXIT_IO = 6
EXIT_INTERNAL = 70

P = ParamSpec("P")
R = TypeVar("R")

_stdout: Console | None = None
_stderr: Console | None = None


def out() -> Console:
    global _stdout
    if _stdout is None:
        _stdout = Console(highlight=False, soft_wrap=False)
    return _stdout


def err() -> Console:
    global _stderr
    if _stderr is None:
        _stderr = Console(stderr=True, highlight=False)
    return _stderr


def emit_json(obj: Any) -> None:
    """Print one JSON document on stdout (plain, never styled)."""
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def exit_code(e: BaseException) -> int:
    if isinstance(e, SolverBug):
        return EXIT_INTERNAL
    if isinstance(e, IllegalPlayError):
        return EXIT_ILLEGAL
    if isinstance(e, PositionError):
        return EXIT_POSITION
    if isinstance(e, FileError):
        return EXIT_IO
    if isinstance(e, FormatError):
        return EXIT_FORMAT
    if isinstance(e, OSError):
        return EXIT_IO
    return EXIT_FORMAT


def _as_catbox(e: BaseException) -> CatboxError:
    if isinstance(e, CatboxError):
        return e
    if isinstance(e, OSError):
        where = str(e.filename) if getattr(e, "filename", None) else None
        error = CatboxError(e.strerror or str(e), where=where)
        error.kind = "io"
        return error
    if isinstance(e, SolverBug):
        bug = CatboxError(e.message)
        bug.kind = e.kind
        return bug
    return CatboxError(str(e))


def report_error(e: BaseException, json_mode: bool) -> int:
    """Print the error (JSON object on stdout, or one line on stderr); return the exit code."""
    code = exit_code(e)
    c = with_hint(_as_catbox(e))
    if json_mode:
        emit_json({"error": c.to_json()})
    else:
        label = "internal error" if code == EXIT_INTERNAL else "error"
        from rich.markup import escape

        err().print(f"[bold red]{label}:[/] {escape(str(c))}", highlight=False, soft_wrap=True)
    return code


def reflow(doc: str | None) -> str | None:
    """A docstring as help text that wraps at any width: each paragraph (blank-line separated)
    on one line, so the terminal, not the source file, decides where lines break."""
    if doc is None:
        return None
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs)


def command(fn: Callable[P, R]) -> Callable[P, R]:
    """Wrap a command body: catbox and file errors become one line (or a JSON error object)
    and a documented exit code; never a traceback for user mistakes. Its docstring becomes
    help text that wraps cleanly (:func:`reflow`)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        json_mode = bool(kwargs.get("json_out", False))
        try:
            return fn(*args, **kwargs)
        except (CatboxError, SolverBug, OSError) as e:
            raise typer.Exit(report_error(e, json_mode)) from None

    wrapper.__doc__ = reflow(fn.__doc__)
    return wrapper


def progress_shown(enabled: bool = True) -> bool:
    """Whether progress goes to stderr: asked for (not with ``--json``), stderr is a terminal
    and ``CATBOX_NO_PROGRESS`` is unset."""
    return enabled and err().is_terminal and not os.environ.get("CATBOX_NO_PROGRESS")


class Ticker:
    """The one progress line on stderr for counted work: ``tick("sample 3/200")`` rewrites it
    in place (``\\r``); silent unless :func:`progress_shown`."""

    def __init__(self, enabled: bool = True) -> None:
        self.live = progress_shown(enabled)

    def __call__(self, text: str) -> None:
        if self.live:
            err().print(f"  {text}…   ", end="\r")


@contextmanager
def progress(message: str, enabled: bool = True) -> Iterator[None]:
    """A spinner on stderr while a long solve runs (see :func:`progress_shown`)."""
    if progress_shown(enabled):
        with err().status(message, spinner="dots"):
            yield
    else:
        yield
