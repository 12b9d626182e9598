"""Round records as documents (``catbox-record/1``).

``moves`` is one string of plays separated by spaces (a list of play strings is accepted too).
``[deal]``, ``[set_aside]`` and ``[predictions]`` are tables by seat letter and may be partial.
Since TOML puts every key after a ``[table]`` header into that table, a ``moves`` key written at
the end of the file (as in the formats.md example) lands in ``[predictions]`` or another seat
table; the reader accepts it there too, but not in two places. The writer puts it at the top.
``paradox`` (a seat letter, at the top) names the seat whose declared paradox ended the round
when its cards are unknown (``Record.declared_paradox``).

Reading checks the record (``Record.validate``) and replays every move, so an illegal move is
reported with its index, seat, play and rule, and the line of ``moves``.

>>> from ..deal import deal_round
>>> rec = Record.from_deal(deal_round(3, seed=2))
>>> rec = rec.with_moves(rec.position().legal_plays()[:1])
>>> doc = record_to_obj(rec)
>>> doc["moves"], doc["deal"]["A"]
('1B', [1, 1, 1, 2, 3, 4, 4, 4, 5, 6])
>>> record_from_obj(doc) == rec
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import SEAT_LETTERS, seat_letter
from ..errors import CatboxError, FormatError
from ..record import Record
from .common import (
    as_int,
    as_int_list,
    as_seat,
    as_str_list,
    check_keys,
    get,
    get_table,
    read_players,
    seat_of_key,
)
from .position import parse_plays

__all__ = ["RECORD_FORMAT", "record_from_obj", "record_to_obj"]

RECORD_FORMAT = "catbox-record/1"
RECORD_KEYS = (
    "format",
    "players",
    "names",
    "round_start",
    "revealed",
    "moves",
    "paradox",
    "deal",
    "set_aside",
    "predictions",
)
_SEAT_TABLES = ("deal", "set_aside", "predictions")


def _by_seat(d: Mapping[str, Any], name: str, players: int) -> dict[int, object]:
    table = get_table(d, name, "")
    out: dict[int, object] = {}
    if table is None:
        return out
    for key, value in table.items():
        if key == "moves":
            continue
        seat = seat_of_key(key, players, f"{name}.{key}")
        if seat in out:
            raise FormatError(
                f"seat {SEAT_LETTERS[seat]} given twice", rule="seats", where=f"{name}.{key}"
            )
        if value is not None:
            out[seat] = value
    return out


def record_from_obj(d: Mapping[str, Any]) -> Record:
    """Build a record, check it and replay its moves."""
    check_keys(d, RECORD_KEYS, "")
    players = read_players(d)
    names_v = get(d, "names")
    names = tuple(as_str_list(names_v, "names")) if names_v is not None else ()
    rs_v = get(d, "round_start")
    round_start = as_seat(rs_v, players, "round_start") if rs_v is not None else 0
    par_v = get(d, "paradox")
    declared = as_seat(par_v, players, "paradox") if par_v is not None else None
    rev_v = get(d, "revealed")
    revealed = tuple(sorted(as_int_list(rev_v, "revealed"))) if rev_v is not None else ()

    # moves: at the top, or swallowed by one of the seat tables
    places: list[tuple[object, str]] = []
    if get(d, "moves") is not None:
        places.append((d["moves"], "moves"))
    for name in _SEAT_TABLES:
        table = get_table(d, name, "")
        if table is not None and get(table, "moves") is not None:
            places.append((table["moves"], f"{name}.moves"))
    if len(places) > 1:
        raise FormatError(
            f"moves given twice ({places[0][1]} and {places[1][1]})", where=places[1][1]
        )
    moves = parse_plays(*places[0]) if places else ()

    deal_v = _by_seat(d, "deal", players)
    aside_v = _by_seat(d, "set_aside", players)
    pred_v = _by_seat(d, "predictions", players)
    deal: list[tuple[int, ...] | None] = []
    aside: list[int | None] = []
    preds: list[int | None] = []
    for i in range(players):
        x = seat_letter(i)
        deal.append(tuple(sorted(as_int_list(deal_v[i], f"deal.{x}"))) if i in deal_v else None)
        aside.append(as_int(aside_v[i], f"set_aside.{x}") if i in aside_v else None)
        preds.append(as_int(pred_v[i], f"predictions.{x}") if i in pred_v else None)
    rec = Record(
        players=players,
        deal=tuple(deal),
        set_aside=tuple(aside),
        predictions=tuple(preds),
        moves=moves,
        round_start=round_start,
        revealed=revealed,
        names=names,
        declared_paradox=declared,
    )
    rec.validate()
    try:
        for _ in rec.positions():  # replay: the first illegal move raises IllegalPlayError
            pass
    except CatboxError as e:
        if places and e.where and e.where.startswith("moves["):
            e.located(places[0][1] + e.where[len("moves") :], replace=True)
        raise
    return rec


def record_to_obj(rec: Record) -> dict[str, Any]:
    """The document table of a record (same keys in TOML and JSON)."""
    d: dict[str, Any] = {"format": RECORD_FORMAT, "players": rec.players}
    if rec.names:
        d["names"] = list(rec.names)
    if rec.round_start != 0:
        d["round_start"] = seat_letter(rec.round_start)
    if rec.players == 2 or rec.revealed:
        d["revealed"] = list(rec.revealed)
    d["moves"] = " ".join(str(m) for m in rec.moves)
    if rec.declared_paradox is not None:
        d["paradox"] = seat_letter(rec.declared_paradox)
    deal = {seat_letter(i): list(h) for i, h in enumerate(rec.deal) if h is not None}
    aside = {seat_letter(i): a for i, a in enumerate(rec.set_aside) if a is not None}
    preds = {seat_letter(i): p for i, p in enumerate(rec.predictions) if p is not None}
    for name, table in (("deal", deal), ("set_aside", aside), ("predictions", preds)):
        if table:
            d[name] = table
    return d
