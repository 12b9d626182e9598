"""Human output: the coloured research board, the seats and the trick in progress."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from catbox.solver.board import EMPTY, NEUTRAL, cell_index
from catbox.solver.cards import Colour, Play, seat_letter

from .output import out

if TYPE_CHECKING:
    from catbox.solver.position import Position
    from catbox.solver.puzzle import Puzzle

# Row colours (B1): red, blue, yellow, green; text colour chosen for contrast.
ROW_STYLE = {
    Colour.R: ("white", "red3"),
    Colour.B: ("white", "dodger_blue3"),
    Colour.Y: ("black", "gold1"),
    Colour.G: ("white", "green4"),
}
INK = {Colour.R: "red3", Colour.B: "dodger_blue2", Colour.Y: "gold1", Colour.G: "green3"}


def play_text(play: Play) -> Text:
    return Text(str(play), style=f"bold {INK[play.colour]}")


def plays_text(plays: Iterable[Play], sep: str = " ") -> Text:
    t = Text()
    for i, p in enumerate(plays):
        if i:
            t.append(sep)
        t.append_text(play_text(p))
    return t


def colours_text(mask: int) -> Text:
    t = Text()
    for c in Colour:
        t.append(c.name if mask & c.bit else "·", style=f"bold {INK[c]}" if mask & c.bit else "dim")
    return t


def board_table(pos: Position) -> Table:
    n = pos.max_number
    in_trick = {cell_index(p.colour, p.number, n) for p in pos.trick}
    t = Table(box=None, show_header=True, pad_edge=False, padding=(0, 1), header_style="bold")
    t.add_column("")
    for number in range(1, n + 1):
        t.add_column(str(number), justify="center", min_width=3)
    for colour in Colour:
        fg, bg = ROW_STYLE[colour]
        cells: list[RenderableType] = [Text(colour.word, style=f"bold {INK[colour]}")]
        for number in range(1, n + 1):
            idx = cell_index(colour, number, n)
            owner = pos.board[idx]
            if owner == EMPTY:
                cells.append(Text(" · ", style=f"{fg} on {bg} dim"))
            elif owner == NEUTRAL:
                cells.append(Text(" N ", style="black on grey62"))
            else:
                style = f"bold {fg} on {bg}" + (" reverse" if idx in in_trick else "")
                cells.append(Text(f" {seat_letter(owner)} ", style=style))
        t.add_row(*cells)
    return t


def seats_table(pos: Position) -> Table:
    t = Table(box=None, header_style="bold", pad_edge=False)
    for col in ("", "seat", "hand", "colours", "tricks", "prediction", "set aside"):
        t.add_column(col)
    to_play = pos.to_play
    for i, s in enumerate(pos.seats):
        name = pos.seat_names[i]
        label = seat_letter(i) + (f" {name}" if name != seat_letter(i) else "")
        hand = (
            Text(" ".join(map(str, s.hand)) or "—")
            if s.hand is not None
            else Text(f"? × {s.hand_size}", style="dim")
        )
        marker = Text("▶", style="bold magenta") if i == to_play else Text(" ")
        if pos.paradox == i:
            marker = Text("✗", style="bold red")
        pred = "—" if s.prediction is None else str(s.prediction)
        aside = "—" if s.set_aside is None else str(s.set_aside)
        t.add_row(marker, label, hand, colours_text(s.colours), str(s.tricks), pred, aside)
    return t


def status_text(pos: Position) -> Text:
    t = Text()
    trick_no = pos.completed_tricks + 1
    if pos.paradox is not None:
        t.append(f"Paradox! {seat_letter(pos.paradox)} had no legal play", style="bold red")
        t.append(f" in trick {trick_no} (X1); the round is over.")
    elif pos.finished:
        t.append(f"Round over: all {pos.variant.tricks} tricks played (E1).", style="bold")
    else:
        t.append(f"Trick {trick_no} of {pos.variant.tricks}", style="bold")
        t.append(f", led by {seat_letter(pos.leader)}")
        if pos.trick:
            t.append(": ")
            t.append_text(plays_text(pos.trick))
        assert pos.to_play is not None
        t.append(" — ")
        t.append(f"{seat_letter(pos.to_play)} to play", style="bold magenta")
    t.append(". Red is ")
    t.append("broken" if pos.red_broken else "not broken", style="bold red3")
    t.append(".")
    if pos.revealed:
        t.append(f" Revealed: {' '.join(map(str, pos.revealed))}.")
    return t


def position_view(pos: Position) -> Group:
    parts: list[RenderableType] = [
        board_table(pos),
        Text(""),
        seats_table(pos),
        Text(""),
        status_text(pos),
    ]
    return Group(*parts)


def puzzle_view(pz: Puzzle) -> Group:
    """A puzzle's title, difficulty, story, position and goal."""
    parts: list[RenderableType] = [
        Text.assemble((pz.title, "bold underline"), f"  {'★' * pz.difficulty}"),
    ]
    if pz.description:
        parts.append(Text(pz.description, style="italic"))
    parts += [Text(""), position_view(pz.position), Text("")]
    parts.append(Text("Goal: ", style="bold").append(pz.goal.describe()))
    return Group(*parts)


def print_line(line: str) -> None:
    """The one-line position string, never wrapped, so that it can be copied whole."""
    out().print(Text(line, style="dim"), soft_wrap=True)


def line_text(pos: Position, line: Sequence[Play], hands: Sequence[object] | None = None) -> Text:
    """A line of plays grouped by trick, each play labelled with its seat: ``C 5B D 7B │ …``.
    ``pos`` must be the position the line starts from (with any assumed hands filled in)."""
    t = Text()
    p = pos
    for k, play in enumerate(line):
        seat = p.to_play
        if k and not p.trick:
            t.append(" │ ", style="dim")
        elif k:
            t.append(" ")
        t.append(f"{seat_letter(seat) if seat is not None else '?'}:", style="dim")
        t.append_text(play_text(play))
        p = p.play(play)
    if p.paradox is not None:
        t.append(f"  → paradox by {seat_letter(p.paradox)}", style="bold red")
    elif p.finished:
        t.append("  → end of round", style="dim")
    return t


def yes_no(value: bool | None) -> Text:
    if value is None:
        return Text("unknown", style="bold yellow")
    return Text("yes", style="bold green") if value else Text("no", style="bold red")


def counts_text(values: Sequence[int] | None) -> Text:
    if values is None:
        return Text("unknown", style="yellow")
    if not values:
        return Text("none", style="red")
    return Text(" ".join(map(str, values)), style="bold")
