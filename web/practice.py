"""Practice: catbox plays the other seats, whole games against it, and puzzles played out.

Every decision here runs in a worker process (web/worker.py), never in a request thread; the
jobs at the end (:data:`JOBS`) are the worker's entry points for them.

- :func:`bot_play`: catbox's play for the seat to play, from that seat's view only
  (:func:`catbox.solver.player.choose_play`).
- :func:`start_decision`: a catbox seat's set-aside card (S2) or prediction (S3) from its own
  dealt hand (:func:`~catbox.solver.player.choose_aside`, :func:`~catbox.solver.player.
  choose_prediction`); :func:`start_advice`: the round-start advisor's ranking of every
  (set-aside card, prediction) for a hand (:func:`catbox.solver.estimates.start.advise_start`).
- :func:`play_reasons` and :func:`start_reasons`: why catbox's player makes its play, sets its
  card aside and predicts: the ranked candidates with the estimates it chose by (the library's
  own decisions with their reasons, ``advise --player``).
- :func:`puzzle_turn` and :func:`puzzle_reply`: a puzzle played out. At the goal seat's turn,
  which plays keep the goal (:func:`catbox.solver.solve.keeping_plays`); at another seat's
  turn, catbox's reply: the best defence for a guaranteed goal (a play after which the goal
  seat can no longer force it, or the lowest score it can still make sure of), the best help
  for a possible one.

>>> from catbox.solver.deal import deal_round
>>> pos = deal_round(4, seed=7, predictions=True).position
>>> play = bot_play(pos, seed=1)
>>> play in pos.legal_plays(), bot_play(pos, seed=1) == play
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from catbox.solver import formats
from catbox.solver.cards import Play, seat_letter
from catbox.solver.errors import FormatError, PositionError
from catbox.solver.limits import Limits
from catbox.solver.player import DEFAULT_LEVEL, choose_aside, choose_play, choose_prediction
from catbox.solver.position import Position
from catbox.solver.puzzle import Goal, Puzzle
from catbox.solver.scoring import seat_score
from catbox.solver.solve import goal_reached, keeping_plays, solve_goal

__all__ = [
    "JOBS",
    "bot_play",
    "play_reasons",
    "puzzle_reply",
    "puzzle_turn",
    "start_advice",
    "start_decision",
]

Send = Callable[[str, Any], None]


def own_view(pos: Position) -> Position:
    """``pos`` as its seat to play sees it (every other hand by size only)."""
    seat = pos.to_play
    return pos if seat is None else pos.hide(s for s in range(pos.players) if s != seat)


def bot_play(pos: Position, seed: int = 0, level: int = DEFAULT_LEVEL) -> Play:
    """catbox's play for the seat to play of ``pos``, from that seat's view; the same
    position, seed and level give the same play (``level``: :func:`choose_play`'s budget,
    0 the policy alone).

    Raises:
        PositionError: the round is over, or the hand of the seat to play is unknown.
    """
    return choose_play(own_view(pos.settle()), seed=seed, level=level)


# ---------------------------------------------------------------- the round's opening decisions
def start_decision(
    hand: Sequence[int],
    *,
    players: int,
    order: int,
    before: Sequence[int] = (),
    aside: int | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """One catbox seat's round-start decision from its own dealt ``hand``: without ``aside``
    the card it sets aside (S2, made before any prediction is known); with it, its prediction
    (S3, knowing the predictions ``before`` it in order from the round start seat)."""
    if aside is None:
        return {"set_aside": choose_aside(hand, players=players, order=order, seed=seed)}
    pred = choose_prediction(
        hand, aside, players=players, order=order, before=tuple(before), seed=seed
    )
    return {"set_aside": aside, "prediction": pred}


def start_advice(
    hand: Sequence[int],
    *,
    players: int,
    order: int,
    before: Sequence[int] | None = None,
    samples: int = 200,
    seed: int = 0,
    limits: Limits | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """The round-start advisor's ranking for ``hand`` (``advise --hand --json``): every
    (set-aside card, prediction) by estimated round score. ``before`` None: the predictions
    are not made yet (the set-aside choice), the typical ones are assumed and said so."""
    from catbox.solver.estimates.opening import typical_before
    from catbox.solver.estimates.start import advise_start

    assumed = before is None
    known = typical_before(players, order) if before is None else tuple(before)
    advice = advise_start(
        players,
        tuple(hand),
        order=order,
        before=known,
        samples=samples,
        seed=seed,
        limits=limits,
        progress=progress,
    )
    out = advice.to_json()
    out["before_assumed"] = assumed
    return out


# ---------------------------------------------------------------- why this play
def play_reasons(pos: Position, *, seed: int = 0, level: int = DEFAULT_LEVEL) -> dict[str, Any]:
    """Why catbox's player makes its play in ``pos`` (from the seat to play's view): its
    decision with the candidates it ranked and the estimates it ranked them by
    (:func:`catbox.solver.estimates.decision.decide`, ``advise --player --json``); its play
    is :func:`bot_play`'s for the same seed and level."""
    from catbox.solver.estimates.decision import decide
    from catbox.solver.shapes import play_decision_json

    out: dict[str, Any] = play_decision_json(decide(own_view(pos.settle()), seed=seed, level=level))
    return out


def start_reasons(
    hand: Sequence[int],
    *,
    players: int,
    order: int,
    before: Sequence[int] = (),
    aside: int | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """Why a catbox seat set aside and predicted what it did: the rankings its player chose
    by (``advise --hand --player --json``): ``aside``, the set-aside decision with its reasons
    (:func:`~catbox.solver.estimates.opening.aside_choice`: a copy of the most-held number,
    with every (tied card, prediction) ranked when numbers tie, typical predictions assumed
    before the seat), and with ``aside`` given at 3-5 players
    ``prediction``, the predictions of that set-aside card knowing the ones ``before`` it."""
    from catbox.solver.estimates.opening import aside_choice, opening_for_prediction
    from catbox.solver.shapes import aside_choice_json, opening_json

    first = aside_choice(hand, players=players, order=order, seed=seed)
    out: dict[str, Any] = {"aside": aside_choice_json(first), "prediction": None}
    if aside is not None and players > 2:
        second = opening_for_prediction(
            hand, aside, players=players, order=order, before=tuple(before), seed=seed
        )
        out["prediction"] = opening_json(second)
    return out


# ---------------------------------------------------------------- puzzles played out
def _outcome(child: Position, goal: Goal) -> tuple[bool | None, int | None]:
    """(the goal still holds, the score) after a play: solved from ``child``."""
    if child.finished:
        if goal.kind == "max-score":
            return True, seat_score(child, goal.seat)
        return goal_reached(goal, child), None
    sol = solve_goal(child, goal)
    return sol.solvable, sol.value


def puzzle_turn(pos: Position, goal: Goal) -> dict[str, Any]:
    """At the goal seat's turn: does the goal still hold here (``solvable``; ``value`` for a
    max-score goal) and which plays keep it (``keeping``; every play that keeps the value).
    Once the round is over: whether the goal was reached (``reached``; for max-score the
    seat's ``score``, to compare with the value at the start)."""
    pos = pos.settle()
    if pos.finished:
        reached, score = _outcome(pos, goal)
        return {"finished": True, "reached": reached, "score": score}
    if pos.to_play != goal.seat:
        raise PositionError("the goal's seat is not the seat to play", where="goal.seat")
    sol = solve_goal(pos, goal)
    keeping: tuple[Play, ...] | None = ()
    if sol.solvable:
        keeping = keeping_plays(pos, goal, sol.value)
    return {
        "solvable": sol.solvable,
        "value": sol.value,
        "keeping": None if keeping is None else [str(p) for p in keeping],
        "line": [str(p) for p in sol.line] if sol.line else None,
        "status": sol.status,
        "finished": False,
    }


def _goodness(goal: Goal, ok: bool | None, value: int | None) -> int:
    if goal.kind == "max-score":
        return value if value is not None else -99
    return 1 if ok else 0


def puzzle_reply(pos: Position, goal: Goal) -> dict[str, Any]:
    """catbox's play for a seat other than the goal's: for a guaranteed goal the best defence
    (a play after which the goal seat can no longer force its goal; for max-score the lowest
    score it can still make sure of), for a possible goal the best help (a play after which
    the goal is still possible; the highest score). Ties: the first legal play."""
    pos = pos.settle()
    if pos.to_play is None or pos.to_play == goal.seat:
        raise PositionError("catbox replies only for the seats other than the goal's")
    helps = goal.mode == "possible"
    rows = []
    for play in pos.legal_plays():
        ok, value = _outcome(pos.play(play), goal)
        good = _goodness(goal, ok, value)
        rows.append((play, good if helps else -good, ok))
    play, _, ok = max(rows, key=lambda r: r[1])
    return {"play": str(play), "goal_holds": ok}


# ---------------------------------------------------------------- the worker's jobs
def _ints(params: dict[str, Any], key: str) -> tuple[int, ...]:
    return tuple(int(x) for x in params.get(key) or ())


def _start_args(params: dict[str, Any]) -> dict[str, Any]:
    """A round-start job's question: the seat's dealt hand, its place in order, the
    predictions before it, its set-aside card (once chosen) and the seed."""
    aside = params.get("set_aside")
    return {
        "hand": _ints(params, "hand"),
        "players": int(params["players"]),
        "order": int(params["order"]),
        "before": _ints(params, "before"),
        "aside": None if aside is None else int(aside),
        "seed": int(params.get("seed") or 0),
    }


def start_decision_job(params: dict[str, Any], send: Send) -> dict[str, Any]:
    return start_decision(**_start_args(params))


def start_advice_job(params: dict[str, Any], send: Send) -> dict[str, Any]:
    def tick(k: int, n: int) -> None:
        send("progress", {"done": k, "total": n, "stage": "samples"})

    before = params.get("before")
    return start_advice(
        _ints(params, "hand"),
        players=int(params["players"]),
        order=int(params["order"]),
        before=None if before is None else tuple(int(x) for x in before),
        samples=int(params.get("samples") or 200),
        seed=int(params.get("seed") or 0),
        limits=Limits(params.get("time_limit")),
        progress=tick,
    )


def start_reasons_job(params: dict[str, Any], send: Send) -> dict[str, Any]:
    return start_reasons(**_start_args(params))


def reasons_job(params: dict[str, Any], send: Send) -> dict[str, Any]:
    pos = formats.position_from_line(params["position"])
    return play_reasons(pos, seed=int(params.get("seed") or 0), level=int(params["level"]))


def _puzzle(params: dict[str, Any]) -> tuple[Position, Goal]:
    doc = formats.from_json_obj(params["puzzle"])
    if not isinstance(doc, Puzzle):
        raise FormatError("expected a puzzle (catbox-puzzle/1)", where="puzzle")
    return formats.position_from_line(params["position"]), doc.goal


def puzzle_turn_job(params: dict[str, Any], send: Send) -> dict[str, Any]:
    return puzzle_turn(*_puzzle(params))


def puzzle_reply_job(params: dict[str, Any], send: Send) -> dict[str, Any]:
    return puzzle_reply(*_puzzle(params))


def puzzle_generate_job(params: dict[str, Any], send: Send) -> dict[str, Any]:
    """A new puzzle from the generator (``catbox puzzles generate``), as TOML text."""
    from catbox.solver.puzzlegen import generate

    got = generate(
        int(params["players"]),
        int(params.get("seed") or 0),
        level=params.get("level") or None,
        limits=Limits(params.get("time_limit")),
    )
    return {"text": formats.dumps(got.puzzle, "toml"), "seed": got.seed}


JOBS: dict[str, Callable[[dict[str, Any], Send], dict[str, Any]]] = {
    "start-decision": start_decision_job,
    "start-advice": start_advice_job,
    "start-reasons": start_reasons_job,
    "reasons": reasons_job,
    "puzzle-turn": puzzle_turn_job,
    "puzzle-reply": puzzle_reply_job,
    "puzzle-generate": puzzle_generate_job,
}


def round_review_pages(
    records: Sequence[Any], seat: int, *, samples: int = 60, limits: Limits | None = None
) -> list[str]:
    """The review page of every round of a game from ``seat``'s own view (``catbox review
    RECORD --seat S --html``: its plays judged with estimates over the hidden hands)."""
    from catbox.solver.estimates.review import review_player
    from catbox.solver.report import review_page
    from catbox.solver.shapes import player_review_json

    lim = Limits.of(limits).start()
    pages = []
    for i, rec in enumerate(records):
        r = review_player(rec, seat, samples=samples, limits=lim.share(1.0 / (len(records) - i)))
        doc = player_review_json(r, seat)
        title = f"Round {i + 1} of the game, {seat_letter(seat)}'s plays"
        pages.append(review_page(rec, doc, view="player", seat=seat, title=title))
    return pages


def game_review_job(params: dict[str, Any], send: Send) -> dict[str, Any]:
    from catbox.solver.cards import seat_from_letter
    from catbox.solver.record import Record

    records = []
    for i, obj in enumerate(params["rounds"]):
        rec = formats.from_json_obj(obj)
        if not isinstance(rec, Record):
            raise FormatError("expected a round record (catbox-record/1)", where=f"rounds[{i}]")
        records.append(rec)
    seat = seat_from_letter(str(params["seat"]), records[0].players if records else 2)
    pages = round_review_pages(
        records,
        seat,
        samples=int(params.get("samples") or 60),
        limits=Limits(params.get("time_limit")),
    )
    return {"pages": pages}


JOBS["game-review"] = game_review_job
