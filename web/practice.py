"""Practice: catbox plays the other seats, whole games against it, and puzzles played out.

Every decision here runs in a worker process (web/worker.py), never in a request thread; the
jobs at the end (:data:`JOBS`) are the worker's entry points for them.

- :func:`bot_play`: catbox's play for the seat to play, from that seat's view only
  (:func:`catbox.solver.player.choose_play`).
- :func:`start_decision`: a catbox seat's set-aside card (S2) or prediction (S3) from its own
  dealt hand (:func:`~catbox.solver.player.choose_aside`, :func:`~catbox.solver.player.
  choose_prediction`); :func:`start_advice`: the round-start advisor's ranking of every
  (set-aside card, prediction) for a hand (:func:`catbox.solver.estimates.start.advise_start`).
- :func:`play_reasons`: why catbox's player makes its play: the ranked candidates with the
  estimates it chose by, computed the way :func:`~catbox.solver.player.choose_play` computes
  them at that level (policy values, rollouts, or exact endgames over sampled deals).
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

import random
from collections.abc import Callable, Sequence
from typing import Any

from catbox.solver import formats
from catbox.solver.cards import Colour, Play, seat_letter, variant
from catbox.solver.errors import FormatError, PositionError
from catbox.solver.estimates.player import (
    DEFAULT_LEVEL,
    ENDGAME_PLAYOUTS,
    HORIZON,
    ROLLOUT_DEALS,
    SAMPLES,
    endgame_choice,
    rollout_plays,
    score_plays,
)
from catbox.solver.limits import Limits
from catbox.solver.player import choose_aside, choose_play, choose_prediction
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


def typical_before(players: int, order: int) -> tuple[int, ...]:
    """The predictions assumed for the seats before ``order`` while the set-aside card is
    chosen (S2 comes before S3: they are not known yet): the middle allowed value, as the
    player assumes them."""
    allowed = variant(players).predictions
    return tuple(allowed[len(allowed) // 2] for _ in range(order)) if allowed else ()


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
    """Why catbox's player makes its play in ``pos`` (from the seat to play's view): the
    candidates it ranks, best first, with the estimates it ranks them by, and the one it
    chooses. The same computation as :func:`choose_play` at ``level``, so ``play`` equals it
    (a single legal play is made without one)."""
    view = own_view(pos.settle())
    seat = view.to_play
    if seat is None:
        raise PositionError("the round is over: there is no play to choose", rule="E1")
    if view.seats[seat].hand is None:
        raise PositionError(f"{seat_letter(seat)}'s hand must be known to choose its play")
    legal = view.legal_plays()
    out: dict[str, Any] = {"seat": seat_letter(seat), "level": level, "candidates": []}
    if len(legal) == 1:
        return out | {"method": "only", "play": str(legal[0]), "note": "the only legal play"}
    endgame = level >= 1 and view.tricks_left <= HORIZON[view.players]
    if endgame:
        rows = score_plays(view, seed=seed, samples=level * SAMPLES, playouts=ENDGAME_PLAYOUTS)
        if rows and rows[0].weight:
            chosen = endgame_choice(rows)
            out["candidates"] = [
                {
                    "play": str(r.play),
                    "avoid_paradox": r.avoids / r.weight,
                    "possible": r.possible / r.weight,
                    "score": r.follow_score / r.weight,
                }
                for r in rows
            ]
            note = f"exact endgames on {len(rows) and rows[0].weight:g} sampled deals"
            return out | {"method": "endgame", "play": str(chosen), "note": note}
    if level >= 1 and not endgame:
        deals = level * ROLLOUT_DEALS
        ranked = rollout_plays(view, seed=seed, deals=deals)
        out["candidates"] = [
            {"play": str(p), "score": score, "policy": pv} for p, score, pv in ranked
        ]
        note = f"each play rolled out on {deals} sampled deals by the policy"
        return out | {"method": "rollouts", "play": str(ranked[0][0]), "note": note}
    return out | _policy_reasons(view, seed)


def _policy_reasons(view: Position, seed: int) -> dict[str, Any]:
    """The policy's value of every legal play (level 0: the policy alone chooses)."""
    from catbox.solver.estimates.deals import DealSpace
    from catbox.solver.estimates.policy import Sim, values

    rng = random.Random(f"catbox-board-reasons/{seed}")
    filled = DealSpace.of(view).sample(random.Random(rng.random()))
    chosen = choose_play(view, seed=seed, level=0)
    # the values carry the policy's seeded tie-break: plays equal to two decimals are ties,
    # broken by its own random stream (the chosen one first)
    ranked = sorted(
        ((Play(n, Colour(c)), round(v, 2)) for v, (n, c) in values(Sim.of(filled), rng)),
        key=lambda r: (-r[1], r[0] != chosen, r[0]),
    )
    return {
        "method": "policy",
        "play": str(chosen),
        "candidates": [{"play": str(p), "policy": v} for p, v in ranked],
        "note": "the playing policy's value of each play (its own cards and the public state;"
        " equal values are ties, broken at random)",
    }


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


def start_decision_job(params: dict[str, Any], send: Send) -> dict[str, Any]:
    aside = params.get("set_aside")
    return start_decision(
        _ints(params, "hand"),
        players=int(params["players"]),
        order=int(params["order"]),
        before=_ints(params, "before"),
        aside=None if aside is None else int(aside),
        seed=int(params.get("seed") or 0),
    )


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
