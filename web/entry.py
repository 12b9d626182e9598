"""The board's entry mode (``/#enter``): a round entered as it is played at a table, from one
seat's view. The round is a round record (``catbox-record/1``) whose only known hand is the
entering seat's (dealt hand and set-aside card) with every seat's prediction; each play is
appended and the record replayed by the library (:meth:`catbox.solver.record.Record.positions`),
so every rule is decided in one place:

- the entering seat's plays must be legal for its hand (L1-L3);
- another seat's play is accepted when the rules allow it from what is public
  (:meth:`catbox.solver.position.Position.check_play` on an unknown hand): the cell is empty
  (L1), the seat has not lost that colour (L2), red is not led before it is broken unless the
  card itself offers no other colour (L3: with the seat's other cards unseen, only the played
  card's own open blue, yellow or green cell proves L3(b) false), and a copy of that number is
  still unaccounted for by the entering seat's hand and set-aside card and the cards already
  played (S1);
- the round ends by itself when the entering seat has no legal play (X1), and by a declared
  paradox of the seat to play when its cards are unknown (``Record.declared_paradox``, the
  record's ``paradox`` key; the replay refuses it in the first trick, I5, or for a seat that is
  not to play).

The page keeps nothing but the record's JSON and the entering seat; each request sends them
back (the server keeps no state).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from catbox.solver import formats
from catbox.solver.cards import Play, seat_from_letter, seat_letter, variant
from catbox.solver.errors import FormatError, IllegalPlayError, PositionError
from catbox.solver.game import Game
from catbox.solver.record import Record
from catbox.solver.scoring import round_score
from catbox.solver.shapes import game_score_json, round_json

from .api import MAX_NAME, check_keys, move_json, str_field, view_json
from .errors import ApiError

__all__ = ["entry_game", "entry_json", "entry_start", "entry_step", "parse_numbers"]


def parse_numbers(text: str, where: str) -> list[int]:
    """Whole numbers separated by spaces or commas (``"1 1 2 3"``).

    Raises:
        FormatError: a word that is not a whole number (``where`` names the field).
    """
    out = []
    for word in text.replace(",", " ").split():
        if not word.isdigit() or len(word) > 2:
            raise FormatError(f"{word!r} is not a card number", where=where)
        out.append(int(word))
    return out


def _letter(req: dict[str, Any], key: str, players: int) -> int:
    text = str_field(req, key, limit=1).strip().upper()
    if not text:
        raise ApiError(400, f"field {key!r} must be a seat letter")
    return seat_from_letter(text, players)


def _names(req: dict[str, Any], players: int) -> tuple[str, ...]:
    value = req.get("names") or []
    if isinstance(value, str):
        value = [n.strip() for n in value.split(",") if n.strip()]
    if not isinstance(value, list) or not all(
        isinstance(n, str) and 0 < len(n) <= MAX_NAME for n in value
    ):
        raise ApiError(400, f"field 'names' must be seat names (1-{MAX_NAME} characters)")
    if value and len(value) != players:
        raise PositionError(f"names must name all {players} seats", where="names")
    return tuple(value)


def entry_start(req: dict[str, Any]) -> dict[str, Any]:
    """``{"players", "seat", "hand", "aside", "predictions", "start", "names"?}`` (the form's
    fields as typed: numbers in text; at 2 players ``revealed``, the three revealed undealt
    cards, instead of ``predictions``): the round record to enter plays into, checked by the
    record's reader (S1 dealt cards, S2 the set-aside card was dealt, S3 the predictions,
    2P1 the revealed cards)."""
    check_keys(
        req, {"players", "seat", "hand", "aside", "predictions", "revealed", "start", "names"}
    )
    players_text = str(req.get("players", "")).strip()
    if players_text not in ("2", "3", "4", "5"):
        raise ApiError(400, "field 'players' must be 2, 3, 4 or 5")
    players = int(players_text)
    seat = _letter(req, "seat", players)
    start = _letter(req, "start", players)
    hand = parse_numbers(str_field(req, "hand", limit=200), "hand")
    aside = parse_numbers(str(req.get("aside", "")), "aside")
    if len(aside) != 1:
        raise FormatError("give the one card you set aside", where="aside")
    preds, revealed = _predictions_or_revealed(req, players)
    if len(hand) != variant(players).dealt:
        raise PositionError(
            f"your hand as dealt has {variant(players).dealt} cards at {players} players, "
            f"not {len(hand)}",
            rule="S1",
            where="hand",
        )
    record = Record(
        players=players,
        deal=tuple(tuple(sorted(hand)) if i == seat else None for i in range(players)),
        set_aside=tuple(aside[0] if i == seat else None for i in range(players)),
        predictions=preds,
        round_start=start,
        revealed=revealed,
        names=_names(req, players),
    )
    return entry_json(record, seat)


def _predictions_or_revealed(
    req: dict[str, Any], players: int
) -> tuple[tuple[int | None, ...], tuple[int, ...]]:
    """Every seat's prediction at 3-5 players (S3); at 2 players none, and the three revealed
    undealt cards (2P1) instead.

    Raises:
        PositionError: the wrong count of predictions (S3) or of revealed cards (2P1), or
            predictions at 2 players (S3).
    """
    if players == 2:
        if str(req.get("predictions", "")).strip():
            raise PositionError("there are no predictions at 2 players", rule="S3")
        revealed = parse_numbers(str_field(req, "revealed", limit=40), "revealed")
        if len(revealed) != 3:
            raise PositionError(
                "give the 3 revealed undealt cards (2 players)", rule="2P1", where="revealed"
            )
        return (None, None), tuple(sorted(revealed))
    if str(req.get("revealed", "")).strip():
        raise PositionError("revealed cards exist only at 2 players", rule="2P1")
    preds = parse_numbers(str_field(req, "predictions", limit=200), "predictions")
    if len(preds) != players:
        raise PositionError(
            f"give {players} predictions, one per seat in seat order (A first)",
            rule="S3",
            where="predictions",
        )
    return tuple(preds), ()


def entry_step(req: dict[str, Any]) -> dict[str, Any]:
    """``{"record", "seat", "play"?, "paradox"?}``: the round after the seat to play makes
    ``play`` (refused with the rule or count that forbids it), or after the seat to play's
    declared paradox (``"paradox": true``; only a seat whose cards are unknown can declare one:
    the entering seat's own paradox ends the round by itself)."""
    check_keys(req, {"record", "seat", "play", "paradox"})
    obj = req.get("record")
    if not isinstance(obj, dict):
        raise ApiError(400, "field 'record' must be a round record (a JSON object)")
    record = formats.from_json_obj(obj)
    if not isinstance(record, Record):
        raise FormatError("expected a round record (catbox-record/1)", where="record")
    seat = _letter(req, "seat", record.players)
    if record.deal[seat] is None or record.set_aside[seat] is None:
        raise PositionError(
            f"the record does not hold seat {seat_letter(seat)}'s hand", where="seat"
        )
    text = str_field(req, "play", required=False, limit=4)
    if text:
        record = record.with_moves((*record.moves, Play.parse(text)))
    declared = req.get("paradox", False)
    if not isinstance(declared, bool):
        raise ApiError(400, "field 'paradox' must be true or false")
    if declared:  # the seat to play's paradox, checked by the record's replay (X1, I5)
        record = replace(record, declared_paradox=record.position().to_play)
        if record.declared_paradox is None:
            raise IllegalPlayError("the round is over: no paradox to declare", rule="E1")
    return entry_json(record, seat)


def entry_json(record: Record, seat: int) -> dict[str, Any]:
    """The entry's state after the record's moves: the record (JSON), the position (one line,
    and the board's view of it from ``seat``), the moves with who made them, whose turn it is
    (the entering seat's own, or a hidden seat's), and the score once the round is over."""
    positions = list(record.positions())  # every move replayed: the first illegal one refused
    pos = positions[-1]  # with the declared paradox, if any (the round is over; Sc1)
    last = record.moves[-1] if record.moves else None
    out = view_json(pos, seat, last, [])
    to_play = pos.to_play
    out["record"] = formats.to_json_obj(record)
    out["seat"] = seat_letter(seat)
    out["line"] = formats.position_to_line(pos)
    out["lines"] = [formats.position_to_line(p) for p in positions]
    out["moves_made"] = [
        move_json(a, m, b)
        for a, m, b in zip(positions[:-1], record.moves, positions[1:], strict=True)
    ]
    out["turn"] = seat_letter(to_play) if to_play is not None else None
    out["mine"] = to_play == seat
    out["over"] = to_play is None
    declared = record.declared_paradox
    out["declared"] = seat_letter(declared) if declared is not None else None
    out["score"] = round_json(round_score(pos)) if pos.finished else None
    out["names"] = list(record.names)
    return out


def entry_game(req: dict[str, Any]) -> dict[str, Any]:
    """``{"rounds": [record, …]}``: the game of the rounds entered so far, in
    order (``catbox-game/1``: the start passes left, at most as many rounds as players, Sc4),
    checked by the game's reader: the game's table, its scores as ``catbox score GAME --json``
    gives them (totals and winners with the Sc4 tie-break) and the next round's start seat
    (None once the game is complete)."""
    check_keys(req, {"rounds"})
    rounds = req.get("rounds")
    if not isinstance(rounds, list) or not rounds or not all(isinstance(r, dict) for r in rounds):
        raise ApiError(400, "field 'rounds' must be a list of round records (JSON objects)")
    if len(rounds) > 5:
        raise ApiError(413, "a game has at most 5 rounds")
    records = []
    for r, obj in enumerate(rounds):
        rec = formats.from_json_obj(obj)
        if not isinstance(rec, Record):
            raise FormatError("expected a round record (catbox-record/1)", where=f"rounds[{r + 1}]")
        records.append(rec)
    first = records[0]
    game = Game(
        players=first.players,
        rounds=tuple(records),
        names=first.names,
        first_start=first.round_start,
    )
    game.validate()
    done = game.complete or not game.finals()[-1].finished
    return {
        "game": formats.to_json_obj(game),
        "score": game_score_json(game),
        "round": len(records),
        "next_start": None if done else seat_letter(game.round_start(len(records))),
    }
