"""The task registry: every question a front door runs for a user, declared once.

A :class:`Task` says what it needs (a position, a position at the round start, a record or a
puzzle), how it runs (``run``: the library call, with ``limits`` and ``session``, the task's
options in an :class:`Ask`) and which document and status it returns (``shape``: the JSON of
:mod:`.shapes`, the same as ``--json``, and the answer's :data:`.answers.Status`). ``catbox
batch`` runs any task of :data:`TASKS` offered to ``batch``; the served board's worker runs
those offered to ``board`` (``analyze-rows`` sends each row as it is proven, ``advise-view``
asks from the seat's own view with progress, ``play`` is catbox's play); the command line's
``--json`` documents come from the same shapes.

A new task: write its question in the library, its document in :mod:`.shapes`, then one
:class:`Task` here. A new front door asks :func:`answer`.

>>> from .formats import position_from_line
>>> pos = position_from_line("cbx1:2A:5/5/2N2/2N1N:122334455.RBYG.0.-.1,111223445.RBYG.0.-.2:A")
>>> doc, status = answer("score", pos, Ask())
>>> doc["finished"], status
(False, 'proven')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from .answers import PROVEN, Status
from .errors import FormatError, PositionError
from .limits import Limits

if TYPE_CHECKING:
    from .position import Position
    from .search.session import Session

__all__ = ["TASKS", "Answer", "Ask", "Needs", "Send", "Task", "answer", "position_of", "seat_of"]

#: What a task's input must be.
Needs = Literal["position", "position at round start", "record", "puzzle"]
#: A task's document and its status.
Answer = tuple[dict[str, Any], Status]
#: How a task reports while it runs: ``send("row", row)``, ``send("progress", {...})``.
Send = Callable[[str, Any], None]
Front = Literal["batch", "board"]


@dataclass(frozen=True, slots=True)
class Ask:
    """A task's options (None: the task's default). ``seat`` a seat letter (default: the seat
    to play; ``start``: the round start); ``at`` moves of a record to replay (default all);
    ``depth`` for ``review``; ``method``, ``samples`` and ``seed`` for the samplers (``seed``
    also for CP-SAT); ``level`` catbox's player's budget (``play``)."""

    seat: str | None = None
    at: int | None = None
    depth: int | None = None
    method: str = "auto"
    samples: int | None = None
    seed: int = 0
    level: int | None = None


@dataclass(frozen=True, slots=True)
class Task:
    """One question: ``needs`` its input, ``run(source, ask, limits, session, send)`` its
    answer (``limits`` already started), ``fronts`` the front doors that offer it."""

    name: str
    needs: Needs
    run: Callable[[Any, Ask, Limits, Session | None, Send | None], Answer]
    fronts: frozenset[Front]


def answer(
    task: str,
    source: Any,
    ask: Ask,
    *,
    limits: Limits | None = None,
    session: Session | None = None,
    send: Send | None = None,
) -> Answer:
    """The document and status of ``task`` for ``source`` (a position, record or puzzle, as
    :func:`.formats.load` reads it).

    Raises:
        FormatError: an unknown task, or a source of the wrong kind.
        CatboxError: any user mistake the question itself finds.
    """
    t = TASKS.get(task)
    if t is None:
        raise FormatError(f"unknown task {task!r}: one of {', '.join(TASKS)}", where="task")
    return t.run(source, ask, Limits.of(limits).start(), session, send)


# ---------------------------------------------------------------------- inputs
def position_of(source: Any, at: int | None = None) -> Position:
    """The position a task asks about: a record's after ``at`` moves (default all), a puzzle's,
    or the position itself (a game has many: only ``score`` and ``review`` take one).

    Raises:
        FormatError: a game.
        PositionError: ``at`` is not 0 to the record's moves.
    """
    from .game import Game
    from .puzzle import Puzzle
    from .record import Record

    if isinstance(source, Game):
        raise FormatError(
            "a game record (catbox-game/1): score and review take games", rule="format"
        )

    if isinstance(source, Record):
        if at is not None and not 0 <= at <= len(source.moves):
            raise PositionError(f"the record has {len(source.moves)} moves, not {at}", where="at")
        return source.position(at)
    if isinstance(source, Puzzle):
        return source.position
    return source  # type: ignore[no-any-return]


def seat_of(pos: Position, seat: str | None) -> int:
    """The asked seat: the letter's, else the seat to play."""
    from .cards import seat_from_letter

    if seat is not None:
        return seat_from_letter(seat, pos.players)
    if pos.to_play is None:
        raise PositionError("the round is over: name a seat", where="seat")
    return int(pos.to_play)


# ---------------------------------------------------------------------- the tasks
def _paradox(src: Any, ask: Ask, lim: Limits, ses: Session | None, send: Send | None) -> Answer:
    from .analysis import paradox_report
    from .shapes import paradox_json

    pos = position_of(src, ask.at)
    r = paradox_report(pos, seat_of(pos, ask.seat), limits=lim, session=ses)
    return paradox_json(r), r.status


def _tricks(src: Any, ask: Ask, lim: Limits, ses: Session | None, send: Send | None) -> Answer:
    from .analysis import tricks_report
    from .shapes import tricks_json

    pos = position_of(src, ask.at)
    r = tricks_report(pos, seat_of(pos, ask.seat), limits=lim, session=ses)
    return tricks_json(r), r.status


def _analyze(src: Any, ask: Ask, lim: Limits, ses: Session | None, send: Send | None) -> Answer:
    from .analysis import analyze
    from .answers import merge_status
    from .shapes import analyze_json

    pos = position_of(src, ask.at)
    if pos.to_play is None:
        raise PositionError("the round is over: there is no play to analyse", rule="E1")
    rows = analyze(pos, limits=lim, session=ses)
    status = merge_status(*(m.status for m in rows)) if rows else PROVEN
    return analyze_json(pos, rows, status), status


def _analyze_rows(
    src: Any, ask: Ask, lim: Limits, ses: Session | None, send: Send | None
) -> Answer:
    """``analyze`` a row per legal play, each sent as it is done (the time limit shared out
    over the plays still to analyse): the board's live table."""
    from .analysis import analyze_play, seat_to_analyse
    from .answers import merge_status
    from .shapes import analyze_json, row_json

    pos = position_of(src, ask.at).settle()
    seat_to_analyse(pos)
    plays = pos.legal_plays()
    rows = []
    if send:
        send("progress", {"done": 0, "total": len(plays), "stage": "analyze"})
    for i, play in enumerate(plays):
        row = analyze_play(pos, play, limits=lim.share(1.0 / (len(plays) - i)), session=ses)
        rows.append(row)
        if send:
            send("row", row_json(row))
            send("progress", {"done": i + 1, "total": len(plays), "stage": "analyze"})
    status = merge_status(*(r.status for r in rows)) if rows else PROVEN
    return analyze_json(pos, rows, status), status


def _advise(src: Any, ask: Ask, lim: Limits, ses: Session | None, send: Send | None) -> Answer:
    from .estimates.advise import DEFAULT_SAMPLES, advise
    from .shapes import advice_json

    pos = position_of(src, ask.at)
    a = advise(
        pos,
        seat_of(pos, ask.seat),
        method=ask.method,
        samples=ask.samples or DEFAULT_SAMPLES,
        seed=ask.seed,
        limits=lim,
        session=ses,
    )
    return advice_json(a), a.status


def _advise_view(src: Any, ask: Ask, lim: Limits, ses: Session | None, send: Send | None) -> Answer:
    """``advise`` for the seat (default: the seat to play) seeing only its own hand, with
    progress over the samples: the board's advice."""
    from .estimates.advise import DEFAULT_SAMPLES, advise
    from .shapes import advice_json

    pos = position_of(src, ask.at).settle()
    if pos.to_play is None:
        raise PositionError("the round is over: there is no play to advise", rule="E1")
    seat = seat_of(pos, ask.seat)
    view = pos.hide(s for s in range(pos.players) if s != seat)

    def tick(k: int, n: int) -> None:
        if send:
            send("progress", {"done": k, "total": n, "stage": "samples"})

    a = advise(
        view,
        seat,
        samples=ask.samples or DEFAULT_SAMPLES,
        seed=ask.seed,
        limits=lim,
        session=ses,
        progress=tick,
    )
    return advice_json(a), a.status


def _play(src: Any, ask: Ask, lim: Limits, ses: Session | None, send: Send | None) -> Answer:
    """catbox's play for the seat to play, from what that seat can see (a decision, not a
    claim: its status is ``estimate``)."""
    from .player import DEFAULT_LEVEL, choose_play
    from .shapes import play_json

    pos = position_of(src, ask.at).settle()
    seat = pos.to_play
    view = pos if seat is None else pos.hide(s for s in range(pos.players) if s != seat)
    level = DEFAULT_LEVEL if ask.level is None else ask.level
    return play_json(choose_play(view, seed=ask.seed, level=level)), "estimate"


def _score(src: Any, ask: Ask, lim: Limits, ses: Session | None, send: Send | None) -> Answer:
    from .game import Game
    from .scoring import round_score
    from .shapes import game_score_json, round_json

    if isinstance(src, Game):  # a whole game: the rounds, totals and winners (Sc4)
        return game_score_json(src), PROVEN

    return round_json(round_score(position_of(src, ask.at))), PROVEN


def _start(src: Any, ask: Ask, lim: Limits, ses: Session | None, send: Send | None) -> Answer:
    """The round-start advisor for the seat ``ask.seat`` (default: the round start): its
    dealt hand is its hand and its set-aside card, the predictions before it those known."""
    from .estimates.start import DEFAULT_START_SAMPLES, advise_start
    from .shapes import advice_json

    pos = position_of(src, ask.at)
    if pos.completed_tricks or pos.trick:
        raise PositionError("the start advisor needs a position at the round start")
    seat = pos.round_start if ask.seat is None else seat_of(pos, ask.seat)
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
        samples=ask.samples or DEFAULT_START_SAMPLES,
        seed=ask.seed,
        limits=lim,
        session=ses,
    )
    return advice_json(r), "estimate"


def _review(src: Any, ask: Ask, lim: Limits, ses: Session | None, send: Send | None) -> Answer:
    from .answers import merge_status
    from .game import Game
    from .record import Record
    from .review import review
    from .shapes import game_review_json, review_json

    if isinstance(src, Game):  # every round, each a share of the time left, then the summary
        docs, statuses = [], []
        for k, rec in enumerate(src.rounds):
            part = lim.share(1 / (len(src.rounds) - k))
            doc, status = _review(rec, ask, part, ses, send)
            docs.append(doc)
            statuses.append(status)
        return game_review_json(src, docs), merge_status(*statuses)
    if not isinstance(src, Record):
        raise FormatError("review needs a round record or a game", rule="format")
    seat = None if ask.seat is None else seat_of(src.position(0), ask.seat)
    depth = ask.depth or (3 if src.players == 5 else 4)
    r = review(src, seat, depth=depth, limits=lim, session=ses)
    return review_json(r), merge_status(*(p.status for p in r.plays))


def _solve(src: Any, ask: Ask, lim: Limits, ses: Session | None, send: Send | None) -> Answer:
    from .puzzle import Puzzle
    from .shapes import solution_json
    from .solve import solve

    if not isinstance(src, Puzzle):
        raise FormatError("solve needs a puzzle", rule="format")
    sol = solve(src, limits=lim, session=ses)
    return solution_json(sol), sol.status


_BATCH: frozenset[Front] = frozenset({"batch"})
_BOARD: frozenset[Front] = frozenset({"board"})

#: Every task, by name, in the order the command line lists them.
TASKS: dict[str, Task] = {
    t.name: t
    for t in (
        Task("paradox", "position", _paradox, _BATCH),
        Task("tricks", "position", _tricks, _BATCH),
        Task("analyze", "position", _analyze, _BATCH),
        Task("advise", "position", _advise, _BATCH),
        Task("score", "position", _score, _BATCH),
        Task("start", "position at round start", _start, _BATCH),
        Task("review", "record", _review, _BATCH),
        Task("solve", "puzzle", _solve, _BATCH),
        Task("analyze-rows", "position", _analyze_rows, _BOARD),
        Task("advise-view", "position", _advise_view, _BOARD),
        Task("play", "position", _play, _BOARD),
    )
}
