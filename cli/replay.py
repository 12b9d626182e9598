"""``catbox replay``: replay a round record or a game, trick by trick, to any move."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from catbox.solver.cards import Play, seat_letter
from catbox.solver.errors import FormatError
from catbox.solver.shapes import game_replay_json, replay_json

from .options import AtOpt, ForceOpt, JsonOpt, OutOpt, RecordArg
from .output import command, emit_json, out
from .render import play_text, position_view, print_line
from .sources import game_round, load_record_or_game, parse_at, write_output

if TYPE_CHECKING:
    from catbox.solver.game import Game
    from catbox.solver.position import Position


def tricks_of(positions: list[Position], moves: tuple[Play, ...]) -> list[dict[str, Any]]:
    """Completed tricks of a replay: who played what, and who won (W1)."""
    tricks: list[dict[str, Any]] = []
    current: list[dict[str, str]] = []
    for k, move in enumerate(moves[: len(positions) - 1]):
        seat = positions[k].to_play
        assert seat is not None
        current.append({"seat": seat_letter(seat), "play": str(move)})
        after = positions[k + 1]
        if len(current) == after.players and not after.trick:
            tricks.append({"plays": current, "winner": seat_letter(after.leader)})
            current = []
    return tricks


def _print_tricks(tricks: list[dict[str, Any]]) -> None:
    for n, trick in enumerate(tricks, start=1):
        text = Text(f"trick {n}: ", style="bold")
        for p in trick["plays"]:
            text.append(f"{p['seat']} ")
            text.append_text(play_text(Play.parse(p["play"])))
            text.append("  ")
        text.append(f"→ {trick['winner']}", style="bold")
        out().print(text)


@command
def replay(
    record: RecordArg,
    at: AtOpt = None,
    out_path: OutOpt = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Replay RECORD (a round, or every round of a game) through the rules; show the tricks and
    the position after --at N moves (a game: --at R:N, round R). Stops at the first illegal
    move, naming its round, index, seat, play and rule."""
    from catbox.solver import formats
    from catbox.solver.game import Game

    doc = load_record_or_game(record)
    r, n = parse_at(at)
    if isinstance(doc, Game):
        if r is None and at is not None:
            raise FormatError("a game takes --at R:N (round R, after N moves)", where="--at")
        if r is None:
            if out_path is not None:
                raise FormatError("-o needs --at R:N for a game", where="-o")
            _replay_game(doc, json_out)
            return
        rec = game_round(doc, r)
    else:
        if r is not None:
            raise FormatError("--at R:N applies to game records only", where="--at")
        rec = doc
    if n is not None and n > len(rec.moves):
        raise FormatError(f"--at {at}: the record has {len(rec.moves)} moves", where="--at")
    positions = list(rec.positions(n))
    pos = positions[-1]
    tricks = tricks_of(positions, rec.moves)
    if out_path is not None:
        write_output(pos, out_path, force=force, inputs=[record])
    line = formats.position_to_line(pos)
    if json_out:
        emit_json(replay_json(len(rec.moves), positions, tricks))
        return
    if r is not None:
        out().print(Text(f"round {r}", style="bold"))
    _print_tricks(tricks)
    out().print(Text(f"after {len(positions) - 1} of {len(rec.moves)} moves:", style="bold"))
    out().print(position_view(pos))
    print_line(line)
    if out_path is not None:
        out().print(f"wrote {out_path}")


def _replay_game(game: Game, json_out: bool) -> None:
    """Every round of a game (already replayed by the reader): its tricks and how it ended."""
    docs = []
    for r, rec in enumerate(game.rounds, start=1):
        positions = list(rec.positions())
        tricks = tricks_of(positions, rec.moves)
        docs.append(replay_json(len(rec.moves), positions, tricks))
        if json_out:
            continue
        pos = positions[-1]
        start = seat_letter(rec.round_start)
        out().print(Text(f"round {r} (round start {start}), {len(rec.moves)} moves", style="bold"))
        _print_tricks(tricks)
        if pos.paradox is not None:
            ended = f"a paradox by {seat_letter(pos.paradox)}"
        elif pos.finished:
            ended = "every trick played"
        else:
            ended = f"still running: {seat_letter(pos.to_play or 0)} to play"
        out().print(Text(f"round {r}: {ended}", style="bold"))
    if json_out:
        emit_json(game_replay_json(docs))
