"""``catbox replay``: replay a round record, trick by trick, to any move."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from catbox.solver.cards import Play, seat_letter
from catbox.solver.errors import FormatError
from catbox.solver.shapes import replay_json

from .options import AtOpt, ForceOpt, JsonOpt, OutOpt, RecordArg
from .output import command, emit_json, out
from .render import play_text, position_view, print_line
from .sources import load_record, write_output

if TYPE_CHECKING:
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


@command
def replay(
    record: RecordArg,
    at: AtOpt = None,
    out_path: OutOpt = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Replay RECORD through the rules; show the tricks and the position after --at N moves.
    Stops at the first illegal move, naming its index, seat, play and rule."""
    from catbox.solver import formats

    rec = load_record(record)
    if at is not None and at > len(rec.moves):
        raise FormatError(f"--at {at}: the record has {len(rec.moves)} moves", where="--at")
    positions = list(rec.positions(at))
    pos = positions[-1]
    tricks = tricks_of(positions, rec.moves)
    if out_path is not None:
        write_output(pos, out_path, force=force, inputs=[record])
    line = formats.position_to_line(pos)
    if json_out:
        emit_json(replay_json(len(rec.moves), positions, tricks))
        return
    for n, trick in enumerate(tricks, start=1):
        text = Text(f"trick {n}: ", style="bold")
        for p in trick["plays"]:
            text.append(f"{p['seat']} ")
            text.append_text(play_text(Play.parse(p["play"])))
            text.append("  ")
        text.append(f"→ {trick['winner']}", style="bold")
        out().print(text)
    out().print(Text(f"after {len(positions) - 1} of {len(rec.moves)} moves:", style="bold"))
    out().print(position_view(pos))
    print_line(line)
    if out_path is not None:
        out().print(f"wrote {out_path}")
