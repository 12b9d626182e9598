"""The board's JSON API as plain functions: a request document in, a response document out.

The HTTP layer (:mod:`.app`) only reads bodies and maps errors; everything here is testable
without a server. Positions travel as one-line position strings (``cbx1:…``,
:func:`catbox.solver.formats.position_to_line`), read with
:func:`~catbox.solver.formats.position_from_line` only: nothing a request says is ever opened
as a file. Documents are the command line's ``--json`` shapes (:mod:`catbox.solver.shapes`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from catbox.solver import formats, svg
from catbox.solver.cards import Colour, Play, seat_from_letter, seat_letter
from catbox.solver.deal import deal_round
from catbox.solver.errors import FormatError
from catbox.solver.game import Game
from catbox.solver.position import Position
from catbox.solver.puzzle import Puzzle
from catbox.solver.record import Record
from catbox.solver.rules import RULE_TEXT
from catbox.solver.scoring import round_score
from catbox.solver.shapes import moves_json, position_json, round_json

from .errors import ApiError

__all__ = [
    "MAX_TEXT",
    "check_keys",
    "deal",
    "document_json",
    "edit",
    "export",
    "int_field",
    "load_text",
    "number_field",
    "play",
    "position_field",
    "seat_field",
    "str_field",
    "view",
    "view_json",
]

#: The longest document or position string accepted in a paste (characters).
MAX_TEXT = 64 * 1024
#: The most moves a request may list (a round has at most 40).
MAX_MOVES = 60
#: The longest seat name a request may give (characters).
MAX_NAME = 40


# ---------------------------------------------------------------------------- fields
def check_keys(req: dict[str, Any], allowed: set[str]) -> None:
    extra = sorted(set(req) - allowed)
    if extra:
        raise ApiError(400, f"unknown field {extra[0]!r}; this request takes {sorted(allowed)}")


def str_field(
    req: dict[str, Any], key: str, *, required: bool = True, limit: int = MAX_TEXT
) -> str:
    value = req.get(key)
    if value is None:
        if required:
            raise ApiError(400, f"missing field {key!r}")
        return ""
    if not isinstance(value, str):
        raise ApiError(400, f"field {key!r} must be a string")
    if len(value) > limit:
        raise ApiError(413, f"field {key!r} is too long ({len(value)} characters; at most {limit})")
    return value


def int_field(req: dict[str, Any], key: str, lo: int, hi: int, default: int | None) -> int | None:
    value = req.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, f"field {key!r} must be a whole number")
    if not lo <= value <= hi:
        raise ApiError(400, f"field {key!r} must be {lo} to {hi}, not {value}")
    return value


def number_field(req: dict[str, Any], key: str, lo: float, hi: float, default: float) -> float:
    value = req.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ApiError(400, f"field {key!r} must be a number")
    if not lo <= value <= hi:
        raise ApiError(400, f"field {key!r} must be {lo:g} to {hi:g}, not {value}")
    return float(value)


def position_field(req: dict[str, Any], key: str = "position") -> Position:
    """A position from a one-line position string (a catbox error names what is wrong), with
    the seat names of the request's ``names`` when it has them (the one-line form has none)."""
    text = str_field(req, key, limit=1024).strip()
    pos = formats.position_from_line(text).settle()
    names = req.get("names")
    if names is None:
        return pos
    if not isinstance(names, list) or not all(
        isinstance(n, str) and 0 < len(n) <= MAX_NAME for n in names
    ):
        raise ApiError(400, f"field 'names' must be a list of seat names (1-{MAX_NAME} characters)")
    named = replace(pos, names=tuple(names))
    named.validate()  # one name per seat, all different
    return named


def seat_field(req: dict[str, Any], key: str, players: int) -> int | None:
    text = str_field(req, key, required=False, limit=1)
    return seat_from_letter(text, players) if text else None


def _moves(req: dict[str, Any]) -> list[Play]:
    value = req.get("moves", [])
    if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
        raise ApiError(400, "field 'moves' must be a list of plays like \"5R\"")
    if len(value) > MAX_MOVES:
        raise ApiError(413, f"at most {MAX_MOVES} moves")
    return [Play.parse(m) for m in value]


# ---------------------------------------------------------------------------- documents
def move_json(before: Position, play: Play, after: Position) -> dict[str, Any]:
    """One entry of the move list: the play, who made it, and whether it ended a trick (then
    who won it: the next leader, W1)."""
    assert before.to_play is not None
    ended = not after.trick and after.completed_tricks > before.completed_tricks
    return {
        "play": str(play),
        "by": seat_letter(before.to_play),
        "ends_trick": ended,
        "winner": seat_letter(after.leader) if ended else None,
    }


def document_json(doc: formats.Document) -> dict[str, Any]:
    """What the board needs of a loaded document: its kind, the positions to step through
    (one-line strings, the start first) with the moves between them (:func:`move_json`), the
    seat letters and the seat names when it has any (sent back with each ``view``, ``play`` and
    ``export``: the one-line positions drop them), and for a record the deal without moves
    (what :func:`export` extends)."""
    if isinstance(doc, Record):
        positions = list(doc.positions())
        return {
            "kind": "record",
            "title": f"Round record, {doc.players} players, {len(doc.moves)} moves",
            "description": "",
            "plies": [formats.position_to_line(p) for p in positions],
            "moves": [
                move_json(a, m, b)
                for a, m, b in zip(positions[:-1], doc.moves, positions[1:], strict=True)
            ],
            "record": formats.to_json_obj(doc.with_moves(())),
            "goal": None,
            "seats": [seat_letter(i) for i in range(doc.players)],
            "names": list(positions[0].names),
        }
    if isinstance(doc, Puzzle):
        return {
            "kind": "puzzle",
            "title": doc.title,
            "description": doc.description.strip(),
            "plies": [formats.position_to_line(doc.position.settle())],
            "moves": [],
            "record": None,
            "goal": doc.goal.describe(),
            "seats": [seat_letter(i) for i in range(doc.position.players)],
            "names": list(doc.position.names),
            # played out as a puzzle (the goal seat against catbox): sent back with its jobs
            "puzzle": formats.to_json_obj(doc),
        }
    if isinstance(doc, Game):
        raise FormatError("a game record (catbox-game/1): open one of its rounds", rule="format")
    return {
        "kind": "position",
        "title": f"Position, {doc.players} players",
        "description": "",
        "plies": [formats.position_to_line(doc.settle())],
        "moves": [],
        "record": None,
        "goal": None,
        "seats": [seat_letter(i) for i in range(doc.players)],
        "names": list(doc.names),
    }


def load_text(req: dict[str, Any]) -> dict[str, Any]:
    """``{"text"}``: a pasted position, record or puzzle (TOML or JSON), or a position string.
    A puzzle that names a position file is refused (the board opens no file)."""
    check_keys(req, {"text"})
    text = str_field(req, "text").strip()
    if not text:
        raise ApiError(400, "nothing to load: paste a position, a record, a puzzle or a cbx1: line")
    if formats.looks_like_line(text):
        return document_json(formats.position_from_line(text))
    return document_json(formats.loads(text, formats.syntax_of("", text), name="pasted text"))


def deal(req: dict[str, Any]) -> dict[str, Any]:
    """``{"players", "seed"}``: a new round, dealt from the seed (random set-aside cards and
    predictions, as ``catbox new`` deals them)."""
    check_keys(req, {"players", "seed"})
    players = int_field(req, "players", 2, 5, 4)
    seed = int_field(req, "seed", 0, 2**63 - 1, 0)
    assert players is not None and seed is not None
    d = deal_round(players, seed, predictions=True)
    out = document_json(Record.from_deal(d))
    out["title"] = f"New round, {players} players (seed {seed})"
    return out


def view(req: dict[str, Any]) -> dict[str, Any]:
    """``{"position", "view"?, "last"?, "best"?}``: what the board shows of a position: the
    ``show --json`` document, the picture and its ``state`` (``svg.board`` and
    ``svg.board_state``; from ``view``'s seat when given: the other hands as sizes), the seat
    to play's hand and ``moves --json`` (legal plays, and every other card and colour with the
    rule that forbids it), the score once the round is over."""
    check_keys(req, {"position", "names", "view", "last", "best"})
    pos = position_field(req)
    seat = seat_field(req, "view", pos.players)
    last = str_field(req, "last", required=False, limit=4)
    best = req.get("best", [])
    if not isinstance(best, list) or len(best) > 40 or not all(isinstance(b, str) for b in best):
        raise ApiError(400, "field 'best' must be a list of plays like \"5R\"")
    return view_json(pos, seat, Play.parse(last) if last else None, [Play.parse(b) for b in best])


def view_json(
    pos: Position, seat: int | None, last: Play | None, best: list[Play]
) -> dict[str, Any]:
    out = position_json(pos)
    to_play = pos.to_play
    hand = pos.seats[to_play].hand if to_play is not None else None
    shown = pos if seat is None else pos.hide(s for s in range(pos.players) if s != seat)
    out["svg"] = str(svg.board(shown, last=last, candidates=best))
    out["state"] = svg.board_state(shown) | {"players": pos.players}
    out["last"] = str(last) if last is not None else None
    out["status_text"] = svg.status_text(pos)
    out["hand"] = list(hand) if hand is not None else None
    out["moves"] = None
    if to_play is not None and hand is not None:
        ex = pos.explain()
        legal = [p for p, r in ex if r is None]
        out["moves"] = moves_json(pos, legal, [(p, r) for p, r in ex if r is not None])
        for no in out["moves"]["illegal"]:  # the page shows the library's words for the rule
            no["text"] = RULE_TEXT.get(no["rule"], "")
    out["score"] = round_json(round_score(pos)) if pos.finished else None
    out["all_hands_known"] = pos.all_hands_known
    return out


def play(req: dict[str, Any]) -> dict[str, Any]:
    """``{"position", "play", "view"?}``: the view after the seat to play makes ``play``, or
    the rule it breaks (an illegal-play error: L1-L3, or the round is over)."""
    check_keys(req, {"position", "names", "play", "view"})
    pos = position_field(req)
    seat = seat_field(req, "view", pos.players)
    p = Play.parse(str_field(req, "play", limit=4))
    after = pos.play(p)
    out = view_json(after, seat, p, [])
    out["move"] = move_json(pos, p, after)
    return out


def edit(req: dict[str, Any]) -> dict[str, Any]:
    """The editor's draft, ``{"position": {...}}``: a ``catbox-position/1`` document table as
    JSON, read by the position reader (every check of ``Position.validate``; a 422 names the
    key and the rule); or ``{"line": "cbx1:…"}``, a position shown elsewhere; or ``{"blank":
    players}``, a start position to draw a draft on. The answer: the board's view of it, its
    one-line form and its table as the writer normalises it (what the editor goes on from)."""
    check_keys(req, {"position", "line", "blank"})
    obj = req.get("position")
    if "blank" in req:  # an empty board to tap on while the draft is not a position yet
        players = int_field(req, "blank", 2, 5, 4)
        assert players is not None
        revealed = (1, 2, 3) if players == 2 else ()
        pos = Position.start(players, [None] * players, revealed=revealed)
    elif "line" in req:  # the editor opened on a position shown elsewhere
        pos = position_field(req, "line")
    elif isinstance(obj, dict):
        read = formats.from_json_obj({"format": "catbox-position/1", **obj})
        if not isinstance(read, Position):
            raise FormatError("expected a position (catbox-position/1)", where="position")
        pos = read
    else:
        raise ApiError(400, "field 'position' must be a position document (a JSON object)")
    out = view_json(pos, None, None, [])
    out["line"] = formats.position_to_line(pos)
    out["table"] = formats.to_json_obj(pos)
    if "blank" in req:  # the empty draft to start from: no token, every hand hidden
        row = " ".join(["."] * pos.max_number)
        out["table"] = {
            "players": pos.players,
            "board": {c.word: row for c in Colour},
            "seat": {seat_letter(i): {} for i in range(pos.players)},
            "trick": {"leader": "A", "plays": []},
        }
    return out


def export(req: dict[str, Any]) -> dict[str, Any]:
    """``{"what": "record"|"position"|"game", "syntax"?, "record"?, "moves"?, "position"?,
    "game"?}``: the text of a file to download: the record built so far (the deal plus
    ``moves``, replayed and checked), the position shown, or a game (``catbox-game/1``, every
    round checked); ``syntax``: toml, json, or cbx1 (a position's one-line
    form)."""
    check_keys(req, {"what", "syntax", "record", "moves", "position", "names", "game"})
    what = str_field(req, "what", limit=10)
    syntax = str_field(req, "syntax", required=False, limit=4) or "toml"
    if syntax not in ("toml", "json", "cbx1"):
        raise ApiError(400, "field 'syntax' must be 'toml', 'json' or 'cbx1'")
    doc: formats.Document
    if what == "record":
        obj = req.get("record")
        if not isinstance(obj, dict):
            raise ApiError(400, "field 'record' must be a record document (a JSON object)")
        base = formats.from_json_obj(obj)
        if not isinstance(base, Record):
            raise FormatError("expected a round record (catbox-record/1)", where="record")
        doc = base.with_moves(_moves(req))
        doc.position()  # replay: every move checked
    elif what == "position":
        doc = position_field(req)
    elif what == "game":
        obj = req.get("game")
        game = formats.from_json_obj(obj) if isinstance(obj, dict) else None
        if not isinstance(game, Game):
            raise FormatError("expected a game record (catbox-game/1)", where="game")
        game.validate()  # every round replayed, the start passing left (Sc4)
        doc = game
    else:
        raise ApiError(400, "field 'what' must be 'record', 'position' or 'game'")
    if syntax == "cbx1":  # a position's one-line form
        if not isinstance(doc, Position):
            raise ApiError(400, "only a position has a one-line (cbx1) form")
        return {"filename": f"catbox-{what}.txt", "text": formats.position_to_line(doc) + "\n"}
    return {
        "filename": f"catbox-{what}.{syntax}",
        "text": formats.dumps(doc, "json" if syntax == "json" else "toml"),
    }
