"""Whole games as documents (``catbox-game/1``).

The top holds ``players``, ``names`` and ``first_start`` (the round start seat of round 1, a
letter); ``rounds`` is a list of round tables (TOML ``[[rounds]]``), each a ``catbox-record/1``
table without ``format``, ``players`` and ``names`` (the game's). Every round's ``round_start``
is written, so a reader can check that it passes one seat left (Sc4); a round may leave it out
(then it is the one Sc4 gives). Reading checks the whole game (``Game.validate``): an error
names the round, 1-based, as ``rounds[3].moves[5]``.

>>> from ..game import Game
>>> from ..deal import deal_round
>>> from ..record import Record
>>> g = Game(players=2, rounds=(Record.from_deal(deal_round(2, seed=4)),))
>>> doc = game_to_obj(g)
>>> doc["first_start"], doc["rounds"][0]["round_start"], sorted(doc["rounds"][0]["deal"])
('A', 'A', ['A', 'B'])
>>> game_from_obj(doc) == g
True
>>> print(game_to_toml(g).splitlines()[4])
[[rounds]]
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..cards import seat_letter
from ..errors import CatboxError, FormatError
from ..game import Game, round_where
from .common import (
    as_seat,
    as_str_list,
    check_keys,
    get,
    read_players,
    toml_dumps,
    toml_key_lines,
)
from .record import RECORD_KEYS, record_from_obj, record_to_obj

__all__ = ["GAME_FORMAT", "game_from_obj", "game_line", "game_to_obj", "game_to_toml"]

GAME_FORMAT = "catbox-game/1"
GAME_KEYS = ("format", "players", "names", "first_start", "rounds")
ROUND_KEYS = tuple(k for k in RECORD_KEYS if k not in ("format", "players", "names"))


def game_from_obj(d: Mapping[str, Any]) -> Game:
    """Build a game and check it (every round replayed)."""
    check_keys(d, GAME_KEYS, "")
    players = read_players(d)
    names_v = get(d, "names")
    names = tuple(as_str_list(names_v, "names")) if names_v is not None else ()
    fs_v = get(d, "first_start")
    first = as_seat(fs_v, players, "first_start") if fs_v is not None else 0
    game = Game(players=players, names=names, first_start=first)
    game.validate()  # names and seats before the rounds use them
    rounds_v = get(d, "rounds")
    if rounds_v is None:
        rounds_v = []
    if not isinstance(rounds_v, list) or not all(isinstance(t, dict) for t in rounds_v):
        raise FormatError("rounds must be a list of round tables ([[rounds]])", where="rounds")
    for r, table in enumerate(rounds_v):
        where = round_where(r)
        rs_v = get(table, "round_start")
        if rs_v is not None:  # before the replay, which a wrong start would break first
            game.check_round_start(r, as_seat(rs_v, players, f"{where}.round_start"))
        try:
            check_keys(table, ROUND_KEYS, "")
            sub: dict[str, Any] = {
                "players": players,
                "round_start": seat_letter(game.round_start(r)),
                **table,
            }
            if names:
                sub["names"] = list(names)
            rec = record_from_obj(sub)
        except CatboxError as e:
            raise e.located(where, sep=".") from None
        game = game.with_round(rec)
        if len(game.rounds) > players:
            break  # validate names the extra round
    game.validate()
    return game


def game_to_obj(game: Game) -> dict[str, Any]:
    """The document table of a game (same keys in TOML and JSON)."""
    d: dict[str, Any] = {"format": GAME_FORMAT, "players": game.players}
    if game.names:
        d["names"] = list(game.names)
    d["first_start"] = seat_letter(game.first_start)
    rounds = []
    for rec in game.rounds:
        body = record_to_obj(replace(rec, names=()))
        del body["format"], body["players"]
        rounds.append({"round_start": seat_letter(rec.round_start), **body})
    d["rounds"] = rounds
    return d


def game_to_toml(game: Game) -> str:
    """A game as TOML: the top keys, then one ``[[rounds]]`` table per round."""
    doc = game_to_obj(game)
    rounds = doc.pop("rounds")
    parts = [toml_dumps(doc)]
    for body in rounds:
        text = toml_dumps({"rounds": body}).lstrip("\n")
        parts.append("\n" + text.replace("[rounds]\n", "[[rounds]]\n", 1))
    return "".join(parts)


_ROUND_HEADER_RE = re.compile(r"^\s*\[\[\s*rounds\s*\]\]\s*(?:#.*)?$")
_ROUND_WHERE_RE = re.compile(r"^rounds\[(\d+)\](?:\.(.*))?$")


def game_line(text: str, where: str) -> int | None:
    """The TOML line of ``where`` (``rounds[3].moves[5]``: in the third ``[[rounds]]``
    table), or None; best effort, as ``common.toml_key_lines``."""
    m = _ROUND_WHERE_RE.match(where)
    if m is None:
        return None
    lines = text.splitlines()
    headers = [i for i, line in enumerate(lines) if _ROUND_HEADER_RE.match(line)]
    r = int(m.group(1))
    if not 1 <= r <= len(headers):
        return None
    start = headers[r - 1]
    end = headers[r] if r < len(headers) else len(lines)
    found = toml_key_lines("\n".join(lines[start:end]).replace("[[rounds]]", "[rounds]", 1))
    parts = ["rounds", *re.sub(r"\[\d+\]", "", m.group(2) or "").lower().split(".")]
    parts = [p for p in parts if p]
    while parts:
        line = found.get(".".join(parts))
        if line is not None:
            return start + line
        parts.pop()
    return None
