"""The board's practice API as plain functions (:mod:`.api`'s other half): whole games against
catbox, the round-start decisions, catbox's reasons and puzzles played out (:mod:`.practice`
solves them in workers). The game travels as {"players", "names"?, "first_start"?, "rounds":
[catbox-record/1 JSON objects]}: the page keeps it, the server keeps nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from catbox.solver import formats
from catbox.solver.cards import seat_letter, variant
from catbox.solver.errors import FormatError
from catbox.solver.game import Game, next_round
from catbox.solver.puzzle import Puzzle
from catbox.solver.record import Record
from catbox.solver.shapes import game_score_json

from .api import (
    MAX_NAME,
    check_keys,
    document_json,
    int_field,
    number_field,
    position_field,
    seat_field,
    str_field,
)
from .errors import ApiError

__all__ = [
    "PRACTICE_JOBS",
    "game_begin",
    "game_deal",
    "game_export",
    "game_score",
    "practice_job",
    "puzzle_list",
    "puzzle_open",
]


def _int_list(req: dict[str, Any], key: str, most: int) -> list[int]:
    value = req.get(key, [])
    if (
        not isinstance(value, list)
        or len(value) > most
        or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 99 for x in value)
    ):
        raise ApiError(400, f"field {key!r} must be a list of at most {most} card numbers")
    return list(value)


def _object(req: dict[str, Any], key: str) -> dict[str, Any]:
    value = req.get(key)
    if not isinstance(value, dict):
        raise ApiError(400, f"field {key!r} must be a JSON object")
    return value


def _players(req: dict[str, Any]) -> int:
    players = int_field(req, "players", 2, 5, None)
    if players is None:
        raise ApiError(400, "missing field 'players'")
    return players


def _start_params(req: dict[str, Any], level: int) -> dict[str, Any]:
    players = _players(req)
    order = int_field(req, "order", 0, 4, None)
    if order is None:
        raise ApiError(400, "missing field 'order'")
    return {
        "players": players,
        "hand": _int_list(req, "hand", 10),
        "order": order,
        "before": _int_list(req, "before", 4) if "before" in req else None,
        "set_aside": int_field(req, "set_aside", 1, 99, None),
        "samples": int_field(req, "samples", 2, 2000, 200),
        "time_limit": number_field(req, "time_limit", 0.1, 60.0, 20.0),
    }


def _reasons_params(req: dict[str, Any], level: int) -> dict[str, Any]:
    pos = position_field(req)
    if pos.to_play is None or pos.seats[pos.to_play].hand is None:
        raise FormatError("no play to explain: the round is over or the hand is unknown")
    return {
        "position": formats.position_to_line(pos),
        "level": int_field(req, "level", 0, 5, level),
    }


def _puzzle_params(req: dict[str, Any], level: int) -> dict[str, Any]:
    line = formats.position_to_line(position_field(req))
    puzzle = _object(req, "puzzle")
    if not isinstance(formats.from_json_obj(puzzle), Puzzle):
        raise FormatError("expected a puzzle (catbox-puzzle/1)", where="puzzle")
    return {"position": line, "puzzle": puzzle}


def _generate_params(req: dict[str, Any], level: int) -> dict[str, Any]:
    lvl = str_field(req, "level", required=False, limit=10)
    if lvl not in ("", "easy", "medium", "hard"):
        raise ApiError(400, "field 'level' must be easy, medium or hard")
    return {"players": _players(req), "level": lvl or None, "time_limit": 100.0}


def _review_params(req: dict[str, Any], level: int) -> dict[str, Any]:
    rounds = req.get("rounds")
    if not isinstance(rounds, list) or not 0 < len(rounds) <= 5:
        raise ApiError(400, "field 'rounds' must list 1 to 5 round records")
    players = 2
    for i, r in enumerate(rounds):
        rec = formats.from_json_obj(r) if isinstance(r, dict) else None
        if not isinstance(rec, Record):
            raise FormatError("expected a round record (catbox-record/1)", where=f"rounds[{i}]")
        rec.position()  # replayed: every move checked
        players = rec.players
    return {
        "rounds": rounds,
        "seat": seat_letter(seat_field(req, "seat", players) or 0),
        "samples": int_field(req, "samples", 2, 400, 60),
        "time_limit": 240.0,
    }


#: The practice jobs: the longest each may run (seconds), its fields besides ``kind`` and
#: ``seed``, and the reader that checks them.
PRACTICE_JOBS: dict[str, tuple[float, set[str], Callable[[dict[str, Any], int], dict[str, Any]]]]
PRACTICE_JOBS = {
    "start-decision": (120.0, {"players", "hand", "order", "before", "set_aside"}, _start_params),
    "start-advice": (
        60.0,
        {"players", "hand", "order", "before", "samples", "time_limit"},
        _start_params,
    ),
    "start-reasons": (120.0, {"players", "hand", "order", "before", "set_aside"}, _start_params),
    "reasons": (120.0, {"position", "names", "level"}, _reasons_params),
    "puzzle-turn": (120.0, {"position", "names", "puzzle"}, _puzzle_params),
    "puzzle-reply": (120.0, {"position", "names", "puzzle"}, _puzzle_params),
    "puzzle-generate": (120.0, {"players", "level"}, _generate_params),
    "game-review": (300.0, {"rounds", "seat", "samples"}, _review_params),
}


def practice_job(req: dict[str, Any], level: int) -> tuple[str, dict[str, Any], float]:
    """``POST /api/practice/jobs``: ``{"kind", "seed"?, ...}`` checked here (a 4xx at once),
    solved in a worker (web/practice.py :data:`~.practice.JOBS`): ``start-decision``
    ``{"players", "hand", "order", "before"?, "set_aside"?}`` (catbox's set-aside card, or
    with ``set_aside`` its prediction); ``start-advice`` ``{"players", "hand", "order",
    "before"?, "samples"?, "time_limit"?}`` (the advisor's ranking; no ``before``: not yet
    predicted); ``start-reasons`` (the fields of ``start-decision``: the rankings behind
    catbox's set-aside card and prediction); ``reasons`` ``{"position", "level"?}`` (why
    catbox plays what it plays);
    ``puzzle-turn`` / ``puzzle-reply`` ``{"puzzle", "position"}`` (the plays that keep the
    goal; catbox's defence); ``puzzle-generate`` ``{"players", "level"?}``; ``game-review``
    ``{"rounds", "seat", "samples"?}`` (each round's review page from the seat's own view).
    Returns the job's kind, its parameters and its time limit."""
    kind = req.get("kind")
    if not isinstance(kind, str) or kind not in PRACTICE_JOBS:
        raise ApiError(400, f"field 'kind' must be one of {sorted(PRACTICE_JOBS)}")
    limit, fields, read = PRACTICE_JOBS[kind]
    check_keys(req, fields | {"kind", "seed"})
    params = read(req, level)
    params["seed"] = int_field(req, "seed", 0, 2**31 - 1, 0)
    return kind, params, limit


def _names(req: dict[str, Any], players: int) -> tuple[str, ...]:
    names = req.get("names") or []
    if not isinstance(names, list) or not all(
        isinstance(n, str) and 0 < len(n) <= MAX_NAME for n in names
    ):
        raise ApiError(400, f"field 'names' must be a list of seat names (1-{MAX_NAME} characters)")
    if names and len(names) != players:
        raise ApiError(400, f"give one name per seat ({players}), not {len(names)}")
    return tuple(names)


def game_begin(req: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/game/begin``: ``{"players", "deal", "set_aside", "predictions"?, "start",
    "revealed"?, "names"?}`` (every seat's dealt hand, set-aside card and prediction, in seat
    order; ``start`` the round start seat's letter): the round ready to play, as
    :func:`document_json` gives a record (its deal checked, S1-S4)."""
    check_keys(req, {"players", "deal", "set_aside", "predictions", "start", "revealed", "names"})
    players = int_field(req, "players", 2, 5, None)
    if players is None:
        raise ApiError(400, "missing field 'players'")
    deal_ = req.get("deal")
    if not isinstance(deal_, list) or len(deal_) != players:
        raise ApiError(400, f"field 'deal' must list {players} dealt hands")
    hands = tuple(tuple(sorted(_int_list({"h": h}, "h", 10))) for h in deal_)
    aside = _int_list(req, "set_aside", 5)
    preds = _int_list(req, "predictions", 5) if players > 2 else []
    if len(aside) != players or (players > 2 and len(preds) != players):
        raise ApiError(400, f"give one set-aside card and one prediction per seat ({players})")
    start = seat_field(req, "start", players)
    rec = Record(
        players=players,
        deal=hands,
        set_aside=tuple(aside),
        predictions=tuple(preds) if preds else (None,) * players,
        round_start=start or 0,
        revealed=tuple(sorted(_int_list(req, "revealed", 3))),
        names=_names(req, players),
    )
    rec.start()  # the deal's checks (S1-S4, 2P1)
    out = document_json(rec)
    out["record"] = formats.to_json_obj(rec)
    return out


def _game(req: dict[str, Any]) -> Game:
    """The game of the request (``catbox.solver.game.Game``), every round replayed."""
    obj = _object(req, "game")
    check_keys(obj, {"players", "names", "first_start", "rounds"})
    players = int_field(obj, "players", 2, 5, None)
    if players is None:
        raise ApiError(400, "missing field 'game.players'")
    rounds = obj.get("rounds", [])
    if not isinstance(rounds, list) or len(rounds) > players:
        raise ApiError(400, f"field 'game.rounds' must list at most {players} round records")
    records = []
    for i, r in enumerate(rounds):
        rec = formats.from_json_obj(r) if isinstance(r, dict) else None
        if not isinstance(rec, Record):
            raise FormatError("expected a round record (catbox-record/1)", where=f"rounds[{i}]")
        records.append(rec)
    first = seat_field(obj, "first_start", players) or 0
    game = Game(
        players=players, rounds=tuple(records), names=_names(obj, players), first_start=first
    )
    game.validate()
    return game


def game_deal(req: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/game/deal``: ``{"game", "seed"}``: the deal of the game's next round (the
    start passed left, Sc4): every seat's dealt hand, the round start seat, the 2-player
    revealed cards."""
    check_keys(req, {"game", "seed"})
    game = _game(req)
    seed = int_field(req, "seed", 0, 2**63 - 1, 0)
    assert seed is not None
    d = next_round(game, seed=seed)
    return {
        "round": len(game.rounds),
        "start": seat_letter(d.round_start),
        "deal": [list(h) for h in d.dealt],
        "revealed": list(d.revealed),
        "predictions_allowed": list(variant(game.players).predictions),
    }


def game_score(req: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/game/score``: ``{"game"}``: per-round scores, totals and winners (Sc4),
    the shape of ``catbox score GAME --json``."""
    check_keys(req, {"game"})
    out: dict[str, Any] = game_score_json(_game(req))
    return out


def game_export(req: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/game/export``: ``{"game", "syntax"?}``: the game record's text
    (``catbox-game/1``), every round replayed and checked."""
    check_keys(req, {"game", "syntax"})
    syntax = str_field(req, "syntax", required=False, limit=4) or "toml"
    if syntax not in ("toml", "json"):
        raise ApiError(400, "field 'syntax' must be 'toml' or 'json'")
    text = formats.dumps(_game(req), "json" if syntax == "json" else "toml")
    return {"filename": f"catbox-game.{syntax}", "text": text}


def puzzle_list() -> dict[str, Any]:
    """``GET /api/puzzles``: the bundled collection: name, title, difficulty, players, goal,
    and whether it can be played out here (every hand known)."""
    from importlib import resources

    rows = []
    for f in sorted(resources.files("catbox.puzzles").iterdir(), key=lambda f: f.name):
        if not f.name.endswith(".toml"):
            continue
        doc = formats.loads(f.read_text(encoding="utf-8"), "toml", name=f.name)
        if not isinstance(doc, Puzzle):
            continue
        rows.append(
            {
                "name": f.name.removesuffix(".toml"),
                "title": doc.title,
                "difficulty": doc.difficulty,
                "players": doc.position.players,
                "goal": doc.goal.describe(),
                "playable": doc.position.all_hands_known,
            }
        )
    rows.sort(key=lambda r: (r["difficulty"] or 0, r["title"]))
    return {"puzzles": rows}


def puzzle_open(req: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/puzzles/open``: ``{"name"}`` (a bundled puzzle) or ``{"text"}`` (a pasted
    one): :func:`document_json` plus the puzzle itself (``puzzle``, its JSON object, sent back
    with the practice jobs) and whether it can be played out (``playable``)."""
    from importlib import resources

    check_keys(req, {"name", "text"})
    name = str_field(req, "name", required=False, limit=80)
    if name:
        if not name.replace("-", "").isalnum():
            raise ApiError(400, "field 'name' must be a bundled puzzle's name")
        f = resources.files("catbox.puzzles").joinpath(f"{name}.toml")
        if not f.is_file():
            raise ApiError(404, f"no bundled puzzle {name!r}")
        doc = formats.loads(f.read_text(encoding="utf-8"), "toml", name=f"{name}.toml")
    else:
        text = str_field(req, "text")
        doc = formats.loads(text, formats.syntax_of("", text), name="pasted text")
    if not isinstance(doc, Puzzle):
        raise FormatError("expected a puzzle (catbox-puzzle/1)", where=name or "text")
    out = document_json(doc)
    out["playable"] = doc.position.all_hands_known
    out["goal_seat"] = seat_letter(doc.goal.seat)
    out["goal_mode"] = doc.goal.mode
    return out
