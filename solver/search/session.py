"""Who owns the search engines: a :class:`Session` holds the game-tree engines of one thread
(or one process) and the tables they keep, and every question runs in one.

An engine (its transposition tables and the answers it has combined) is mutable and the
compiled core releases the GIL while it searches, so two threads must never search in one
engine at once. A session belongs to one thread at a time; give each thread (or each worker
process) its own:

* **the command line** never names a session: every question then uses the calling thread's
  default session (:meth:`Session.default`), so consecutive questions on the same root share one
  table, as they always did;
* **the batch runner** (:mod:`..batch`) gives every item a ``Session()`` of its own, in
  whichever worker process or thread answers it: no row then depends on what that worker
  answered before (node counts, answers cut by a node budget), so rows are the same for any
  number of workers; the worker keeps its process, its imports and the compiled core;
* **a web server** runs long questions in worker processes, each owning its sessions; request
  threads never search, and never share a session.

Every question of the library takes ``session=None`` (the thread's default) and
``limits=None`` (no limit) as keyword arguments, the same way: :func:`.api.forced`,
:func:`.api.can_force`, :func:`.api.main_line`, :func:`.api.best_score_line`,
:func:`.api.analyze_moves`, the reports of :mod:`catbox.solver.analysis`, ``solve``,
``review`` and the estimates. A session is cheap to make and holds memory only through its
engines; :meth:`Session.clear` drops them.

>>> from ..deal import random_position
>>> from .api import forced
>>> pos = random_position(3, seed=2, tricks_left=2)
>>> mine = Session()
>>> forced(pos, pos.to_play, session=mine) == forced(pos, pos.to_play, session=Session())
True
>>> mine.engine_count
1
"""

from __future__ import annotations

import os
import threading
import warnings
from typing import TYPE_CHECKING, Literal, TypeAlias

from ..position import Position
from . import native
from .engine import Engine
from .native import NativeEngine
from .state import State

if TYPE_CHECKING:
    from .partial import Partial

__all__ = ["AnyEngine", "EngineKind", "Session", "default_engine"]

EngineKind = Literal["native", "python"]
AnyEngine: TypeAlias = Engine | NativeEngine
EngineKey = tuple[str, int, int, int | None]

_warned = False


def default_engine() -> EngineKind:
    """The engine used when a call names none: the compiled core (``native``) unless the
    environment variable ``CATBOX_ENGINE=python`` selects the pure-Python reference. If the
    compiled core is not built, this warns (once) and falls back to ``python``; the test suite
    fails in that case (tests/test_search_native.py), so CI never passes on the fallback."""
    global _warned
    if os.environ.get("CATBOX_ENGINE", "native") == "python":
        return "python"
    if native.available():
        return "native"
    if not _warned:
        _warned = True
        warnings.warn(
            "catbox: the compiled search core is not built (" + str(native.IMPORT_ERROR) + "); "
            "using the slow Python engine. Rebuild with `make setup`.",
            RuntimeWarning,
            stacklevel=3,
        )
    return "python"


def _new_engine(pos: Position, seat: int, kind: EngineKind) -> AnyEngine:
    if kind == "native":
        return NativeEngine.for_position(pos, seat)
    return Engine.for_position(pos, seat)


_LOCAL = threading.local()


class Session:
    """The engines of one thread or process: one engine (with its tables) per engine kind,
    player count, asking seat and that seat's prediction, at most ``max_engines`` of them
    (the oldest goes first), and the root answers :func:`.api.analyze_moves` combined from
    its rows (read back by :func:`.api.forced`).

    A session is bound to the first thread that searches in it; using it from another thread
    raises ``RuntimeError`` (a bug in the caller, never a race inside an engine). It cannot be
    pickled: a worker process makes its own.
    """

    def __init__(self, *, max_engines: int = 8, max_entries: int = 3_000_000) -> None:
        self.max_engines = max_engines
        # the Python engine's dict tables are dropped past this many entries (the native
        # tables keep themselves under their memory cap by replacement)
        self.max_entries = max_entries
        self._engines: dict[EngineKey, AnyEngine] = {}
        self._answers: dict[EngineKey, dict[State, Partial]] = {}
        self._owner: int | None = None

    @staticmethod
    def of(session: Session | None) -> Session:
        """``session``, or the calling thread's default for None."""
        return Session.default() if session is None else session

    @classmethod
    def default(cls) -> Session:
        """The calling thread's default session (made on first use): what every question uses
        when it is given none, so code that never names a session stays thread-safe."""
        s: Session | None = getattr(_LOCAL, "session", None)
        if s is None:
            s = _LOCAL.session = cls()
        return s

    @property
    def engine_count(self) -> int:
        """The number of engines kept."""
        return len(self._engines)

    @property
    def nodes(self) -> int:
        """Nodes searched by the engines kept now (a measure for benchmarks)."""
        return sum(e.nodes for e in self._engines.values())

    def __getstate__(self) -> object:
        raise TypeError("a Session belongs to one process: make a new one in the worker")

    def clear(self) -> None:
        """Forget every engine, table and remembered answer."""
        self._engines.clear()
        self._answers.clear()

    def _check_thread(self) -> None:
        me = threading.get_ident()
        if self._owner is None:
            self._owner = me
        elif self._owner != me:
            raise RuntimeError(
                "a Session belongs to one thread: give every thread its own Session()"
            )

    def engine(
        self, pos: Position, seat: int, *, fresh: bool = False, kind: EngineKind | None = None
    ) -> tuple[AnyEngine, dict[State, Partial] | None]:
        """An engine for ``seat`` at ``pos`` and the store of its combined root answers.
        ``fresh``: a new engine with empty tables, kept nowhere (a node limit then gives the
        same answer on every run), and no store (None)."""
        self._check_thread()
        kind = kind or default_engine()
        if fresh:
            return _new_engine(pos, seat, kind), None
        key: EngineKey = (kind, pos.players, seat, pos.seats[seat].prediction)
        eng = self._engines.get(key)
        if eng is None or (kind == "python" and eng.size() > self.max_entries):
            if eng is None and len(self._engines) >= self.max_engines:
                oldest = next(iter(self._engines))
                del self._engines[oldest]
                self._answers.pop(oldest, None)
            eng = self._engines[key] = _new_engine(pos, seat, kind)
            self._answers[key] = {}
        return eng, self._answers[key]
