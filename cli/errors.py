"""What the command line adds to the library's errors: hints in its own words (options and
commands), option names for the library's parameter names, and the last-resort handler that
turns an unexpected exception into exit code 70 and one line on stderr.

The library never names a command-line option; an error that a front end may want to explain
carries a ``code``, and :data:`HINTS` says what to do about it here.

>>> from catbox.solver.errors import FileError
>>> str(with_hint(FileError("the file exists", where="out.toml", code="file-exists")))
'out.toml: the file exists; use --force to overwrite it'
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable, Mapping

from catbox.solver.errors import CatboxError

#: Hints by :attr:`CatboxError.code`, appended to the message.
HINTS: dict[str, str] = {
    "file-exists": "use --force to overwrite it",
    "record-not-position": "use `catbox replay RECORD --at N` for the position after N moves",
    "game-not-position": "use `catbox show GAME --at R:N` for round R after N moves",
    "batch-options": "give another --out, or delete it and its .meta.json to start again",
    "batch-not-output": "give another --out",
    "needs-known-hands": "use `catbox paradox` or `catbox tricks` for positions with unknown hands",
}

#: Exit code for an unexpected exception (BSD's EX_SOFTWARE), as for a SolverBug.
EXIT_INTERNAL = 70
#: Set to 1 for the full traceback of an unexpected exception.
TRACEBACK_ENV = "CATBOX_TRACEBACK"


def with_hint(e: CatboxError) -> CatboxError:
    """``e`` with the command line's hint for its code added to the message (once)."""
    hint = HINTS.get(e.code or "")
    if hint and not e.message.endswith(hint):
        e.message = f"{e.message}; {hint}"
        e.args = (e.message,)
    return e


def as_options(e: CatboxError, names: Mapping[str, str]) -> CatboxError:
    """Name the option for a library parameter: ``where="tricks_left"`` -> ``--tricks-left``."""
    if e.where is not None and e.where in names:
        e.located(names[e.where], replace=True)
    return e


def run(app: Callable[[], object]) -> None:
    """Run the Typer app; an exception that escapes it (a bug) exits 70 with one line on
    stderr, or re-raises with its traceback when ``CATBOX_TRACEBACK=1``."""
    try:
        app()
    except Exception as e:  # the last resort: whatever a command did not handle
        if os.environ.get(TRACEBACK_ENV, "") not in ("", "0"):
            traceback.print_exc()
        else:
            text = " ".join(str(e).split()) or "(no message)"
            sys.stderr.write(
                f"internal error: {type(e).__name__}: {text} "
                f"(a bug; {TRACEBACK_ENV}=1 shows the traceback)\n"
            )
        sys.exit(EXIT_INTERNAL)
