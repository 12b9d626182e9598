"""``catbox solve``: answer a puzzle's goal, show the line, check the stated answer."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer
from rich.text import Text

from catbox.solver.cards import seat_letter
from catbox.solver.limits import Limits
from catbox.solver.shapes import solution_json

from .options import JsonOpt, PuzzleArg, SeedOpt, TimeLimitOpt, WorkersOpt
from .output import EXIT_MISMATCH, command, emit_json, out, progress
from .render import line_text, puzzle_view, yes_no
from .sources import find_puzzle

if TYPE_CHECKING:
    from catbox.solver.puzzle import Puzzle
    from catbox.solver.solve import Solution


@command
def solve(
    puzzle: PuzzleArg,
    time_limit: TimeLimitOpt = 60.0,
    workers: WorkersOpt = 0,
    seed: SeedOpt = 0,
    json_out: JsonOpt = False,
) -> None:
    """Solve a puzzle: the answer, the line (a full line for possible goals; the first play and
    the best defence for guaranteed ones) and whether it matches the puzzle's stated answer.
    Exit code 1 when it does not."""
    from catbox.solver.solve import solve as solve_puzzle

    pz = find_puzzle(puzzle)
    with progress(f"solving {pz.title!r}…", not json_out):
        lim = Limits(time_limit, workers=workers, seed=seed).start_with_process()
        sol = solve_puzzle(pz, limits=lim)
    if json_out:
        emit_json(solution_json(sol))
    else:
        show_solution(pz, sol)
    if sol.matches_answer is False:
        raise typer.Exit(EXIT_MISMATCH)


def show_solution(pz: Puzzle, sol: Solution) -> None:
    from catbox.solver.answers import fill_hands

    o = out()
    o.print(puzzle_view(pz))
    head = Text("Answer: ", style="bold").append_text(yes_no(sol.solvable))
    if sol.value is not None:
        head.append(f"  (score {sol.value})", style="bold")
    head.append(f"  [{sol.status}]", style="dim")
    o.print(head)
    if sol.line is not None:
        start = pz.position
        if sol.witness is not None and sol.witness.assumes_deal:
            start = fill_hands(start, sol.witness.hands)
            o.print(
                Text("  assuming the unknown hands are: ", style="dim").append(
                    ", ".join(
                        f"{seat_letter(i)} {' '.join(map(str, h))}"
                        for i, h in enumerate(sol.witness.hands)
                        if h is not None
                    )
                )
            )
        label = "Line: " if pz.goal.mode == "possible" else "Main line (best defence): "
        o.print(Text(label, style="bold").append_text(line_text(start, sol.line)))
    keys_view(sol)
    cooked = " — but the puzzle is cooked (more than one key)" if sol.cooked else ""
    if sol.matches_answer is None:
        o.print(
            Text(
                "No stated answer to compare with."
                if pz.answer is None
                else "Stated answer not checked (the solve was not proven).",
                style="dim",
            )
        )
    elif sol.matches_answer:
        o.print(
            Text(
                f"✓ matches the puzzle's stated answer{cooked}",
                style="bold yellow" if cooked else "bold green",
            )
        )
    else:
        o.print(Text("✗ differs from the puzzle's stated answer", style="bold red"))
    if sol.note:
        o.print(Text(f"  note: {sol.note}", style="yellow"))


def keys_view(sol: Solution) -> None:
    """Every key, the verdict (sound / cooked) and the duals along the checked line."""
    o = out()
    if sol.keys is None:
        return
    if not sol.keys:
        o.print(Text("Keys: none (no first play meets the goal)", style="dim"))
        return
    text = Text("Keys: ", style="bold").append(" ".join(map(str, sorted(sol.keys))), style="bold")
    if sol.cooked:
        text.append(f"  cooked: {len(sol.keys)} first plays work", style="bold red")
    else:
        text.append("  sound: one key", style="green")
    o.print(text)
    line = sol.checked_line or ()
    for d in sol.duals:
        alts = " ".join(map(str, sorted(d.plays)))
        o.print(
            Text(
                f"  dual at play {d.at + 1} of the line ({line[d.at]}): "
                f"any of {alts} keeps the goal",
                style="yellow",
            )
        )
