"""``catbox advise``: which play (or, with ``--hand``, which set-aside card and prediction) is
best for a seat that knows only its own cards — estimates over the hidden hands."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from catbox.solver.cards import seat_letter
from catbox.solver.errors import CatboxError, FormatError
from catbox.solver.estimates.policy import credit_note
from catbox.solver.limits import Limits
from catbox.solver.player import MAX_LEVEL
from catbox.solver.shapes import (
    advice_json,
    aside_choice_json,
    opening_json,
    play_decision_json,
)

from .errors import as_options
from .options import (
    AtOpt,
    HandPlayersOpt,
    JsonOpt,
    ProcessesOpt,
    SampleSeedOpt,
    SampleTimeLimitOpt,
    SeatOpt,
)
from .output import Ticker, command, emit_json, out
from .render import play_text
from .sources import load_position, seat_arg

if TYPE_CHECKING:
    from catbox.solver.estimates.advise import Advice
    from catbox.solver.estimates.decision import PlayDecision
    from catbox.solver.estimates.opening import Opening
    from catbox.solver.estimates.start import StartAdvice
    from catbox.solver.estimates.stats import Estimate
    from catbox.solver.position import Position

PIMC_CAVEAT = (
    "pimc solves each sampled deal with every hand open: optimistic, as S cannot see the "
    "other hands at the table."
)

MethodOpt = Annotated[
    str,
    typer.Option(
        "--method",
        help="pimc (solve each sampled deal exactly), playouts (play the round out with "
        "catbox's policy) or auto (pimc up to 4/3/3/2 tricks left at 2/3/4/5 players, "
        "else playouts).",
    ),
]
SamplesOpt = Annotated[
    int | None,
    typer.Option(
        "--samples",
        "-n",
        min=1,
        help="Sampled deals (default 200; 800 with --hand).",
        show_default=False,
    ),
]
LevelOpt = Annotated[
    int,
    typer.Option(
        "--level",
        min=0,
        max=MAX_LEVEL,
        help="How the seats play in playouts: 0 catbox's policy (fast); 1-5 catbox's player "
        "(exact endgames over 20 x LEVEL sampled deals per decision in the last tricks: "
        "stronger opponents, slower). Not with --hand.",
    ),
]


def parse_cards(text: str) -> tuple[int, ...]:
    """``"1 1 2 5"`` or ``"1,1,2,5"`` -> cards."""
    parts = text.replace(",", " ").split()
    try:
        return tuple(int(p) for p in parts)
    except ValueError:
        raise FormatError(f"bad card list {text!r}: expected numbers like 1,1,2,5") from None


def est_text(e: Estimate | None, percent: bool) -> str:
    if e is None:
        return "—"
    lo, hi = e.ci95
    if percent:
        if e.exact:
            return f"{100 * e.value:.1f}%"
        return f"{100 * e.value:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
    if e.exact:
        return f"{e.value:.2f}"
    return f"{e.value:.2f} [{lo:.2f}, {hi:.2f}]"


#: Library parameter names -> option names, for errors (cli/errors.as_options).
_OPTION_NAMES = {"seat": "--seat", "samples": "--samples", "order": "--order", "before": "--before"}


@command
def advise(
    position: Annotated[
        str | None,
        typer.Argument(
            metavar="[POSITION]",
            help="A position, record or puzzle (not with --hand).",
            show_default=False,
        ),
    ] = None,
    seat: SeatOpt = None,
    at: AtOpt = None,
    hand: Annotated[
        str | None,
        typer.Option(
            "--hand",
            help="Round start: the seat's dealt cards (10, or 9 at 5 players), e.g. 1,2,2,5,...",
            show_default=False,
        ),
    ] = None,
    players: HandPlayersOpt = None,
    order: Annotated[
        int,
        typer.Option(
            "--order",
            min=0,
            max=4,
            help="With --hand: the seat's place after the round start (0: it starts).",
        ),
    ] = 0,
    before: Annotated[
        str,
        typer.Option("--before", help="With --hand: predictions already made, in order, e.g. 2,1."),
    ] = "",
    method: MethodOpt = "auto",
    samples: SamplesOpt = None,
    seed: SampleSeedOpt = 0,
    workers: ProcessesOpt = 1,
    time_limit: SampleTimeLimitOpt = None,
    level: LevelOpt = 0,
    player: Annotated[
        bool,
        typer.Option(
            "--player",
            help="Show catbox's player's own decision and its reasons instead: the candidates "
            "it weighed, ranked, with the estimates it ranked them by (the play at --level, "
            "default 1; with --hand the set-aside card, then the prediction after --before).",
        ),
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Rank SEAT's plays by its estimated chance of avoiding a paradox, then its expected score,
    over the deals of the cards it cannot see. With [bold]--hand[/]: rank every set-aside card
    and prediction for a dealt hand by estimated round score."""
    ticker = Ticker(not json_out)

    def tick(k: int, n: int) -> None:
        ticker(f"sample {k}/{n}")

    if hand is not None:
        if position is not None:
            raise FormatError("give either a POSITION or --hand, not both", where="--hand")
        if players is None:
            raise FormatError("--hand needs --players", where="--players")
        if level:
            raise FormatError("--level applies to a position's plays, not --hand", where="--level")
        if player:
            _player_start(players, parse_cards(hand), order, parse_cards(before), seed, time_limit,
                          json_out)  # fmt: skip
            return
        from catbox.solver.estimates.start import DEFAULT_START_SAMPLES, advise_start

        try:
            r = advise_start(
                players,
                parse_cards(hand),
                order=order,
                before=parse_cards(before),
                samples=samples or DEFAULT_START_SAMPLES,
                seed=seed,
                workers=workers,
                limits=Limits(time_limit),
                progress=tick,
            )
        except CatboxError as e:
            raise as_options(e, _OPTION_NAMES) from None
        if json_out:
            emit_json(advice_json(r))
        else:
            _print_start(r)
        return
    if position is None:
        raise FormatError("give a POSITION (or --hand for a dealt hand)", where="POSITION")
    from catbox.solver.estimates.advise import DEFAULT_SAMPLES
    from catbox.solver.estimates.advise import advise as run

    pos = load_position(position, at)
    s = seat_arg(pos, seat)
    if player:
        _player_play(pos, s, seed, time_limit, level or 1, json_out)
        return
    try:
        a = run(
            pos,
            s,
            method=method,
            samples=samples or DEFAULT_SAMPLES,
            seed=seed,
            workers=workers,
            limits=Limits(time_limit),
            progress=tick,
            level=level,
        )
    except CatboxError as e:
        raise as_options(e, _OPTION_NAMES) from None
    if json_out:
        emit_json(advice_json(a))
        return
    print_advice(a)


def method_note(a: Advice) -> Text:
    what = (
        f"every consistent deal ({a.samples}) solved exactly"
        if a.status == "proven"
        else f"{a.samples} sampled deals"
        if a.method == "pimc"
        else f"{a.samples} playouts (each a sampled deal of the unseen cards, then "
        + ("the policy)" if not a.level else f"catbox's player at level {a.level})")
    )
    t = Text(f"  method {a.method}, {what} [{a.status}]", style="dim")
    if a.stopped:
        t.append(" — stopped by the time limit", style="yellow")
    return t


def print_advice(a: Advice) -> None:
    o = out()
    o.print(Text(f"Advice for {seat_letter(a.seat)}", style="bold"), Text(f"  [{a.status}]"))
    o.print(method_note(a))
    t = Table(header_style="bold", box=None)
    for col in ("play", "avoids paradox (95% CI)", "score (95% CI)"):
        t.add_column(col)
    if a.method == "playouts":
        t.add_column("tricks (most likely)")
    for m in a.moves:
        row: list[Text | str] = [
            play_text(m.play),
            est_text(m.avoid_paradox, True),
            est_text(m.score, False),
        ]
        if a.method == "playouts" and m.tricks:
            k = max(m.tricks, key=lambda x: (m.tricks[x] if m.tricks else 0, -x))
            row.append(f"{k} ({100 * m.tricks[k]:.0f}%)")
        t.add_row(*row)
    o.print(t)
    if a.best is not None:
        o.print(Text("best: ", style="bold").append_text(play_text(a.best)))
    if any(m.score is None for m in a.moves):
        o.print(Text("  score unknown: the seat's prediction is not in the position", style="dim"))
    if a.fallbacks:
        o.print(
            Text(
                f"  {a.fallbacks} (deal, play) pairs hit the search budget and were played out "
                "by the policy instead",
                style="yellow",
            )
        )
    if a.method == "pimc":
        o.print(Text("  note: " + PIMC_CAVEAT, style="yellow"))


def _print_start(r: StartAdvice) -> None:
    o = out()
    o.print(
        Text(
            f"Round start at {r.players} players, place {r.order} after the round start: "
            f"hand {' '.join(map(str, r.hand))}",
            style="bold",
        )
    )
    o.print(Text(f"  method playouts, {r.samples} sampled deals [estimate]", style="dim"))
    t = Table(header_style="bold", box=None)
    t.add_column("set aside")
    if r.players > 2:
        t.add_column("predict")
    t.add_column("round score (95% CI)")
    t.add_column("avoids paradox")
    for c in r.candidates:
        row = [str(c.set_aside)]
        if r.players > 2:
            row.append(str(c.prediction))
        row += [est_text(c.score, False), est_text(c.avoid_paradox, True)]
        t.add_row(*row)
    o.print(t)
    if r.candidates:
        b, w = r.candidates[0], r.candidates[-1]
        sep = "clearly" if b.score.separated_from(w.score) else "not clearly (more --samples)"
        o.print(
            Text("best: ", style="bold").append(
                f"set aside {b.set_aside}"
                + (f", predict {b.prediction}" if b.prediction is not None else "")
                + f" — {sep} better than the worst"
            )
        )


def _player_play(
    pos: Position, seat: int, seed: int, time_limit: float | None, level: int, json_out: bool
) -> None:
    """``advise POSITION --player``: the player's play from the seat's own view, with its
    reasons."""
    from catbox.solver.estimates.decision import decide

    if pos.settle().to_play != seat:
        raise FormatError(f"{seat_letter(seat)} is not to play: the player decides plays of the "
                          "seat to play", where="--seat")  # fmt: skip
    view = pos.hide([o for o in range(pos.players) if o != seat])
    try:
        d = decide(view, seed=seed, limits=Limits(time_limit), level=level)
    except CatboxError as e:
        raise as_options(e, _OPTION_NAMES) from None
    if json_out:
        emit_json(play_decision_json(d))
        return
    _print_decision(d)


METHOD_TEXT = {
    "forced": "the only legal play",
    "policy": "catbox's policy alone (its value of each play)",
    "rollouts": "rollouts: the policy's best plays, each played on {deals:g} sampled deals by the "
    "policy in every seat (value: the seat's mean round score)",
    "endgame": "exact endgames on {deals:g} sampled deals (avoids: the share on which the seat "
    "can still guarantee avoiding its paradox; value: its mean round score played on by the "
    "policy; guaranteed: the mean score it can guarantee)",
}


def _print_decision(d: PlayDecision) -> None:
    o = out()
    o.print(
        Text(f"catbox's player for {seat_letter(d.seat)} (level {d.level}): ", style="bold")
        .append_text(play_text(d.play))
    )  # fmt: skip
    o.print(Text("  " + METHOD_TEXT[d.method].format(deals=d.deals) + " [estimate]", style="dim"))
    if d.hazard:  # rollouts and endgame only: the policy's values carry none
        o.print(Text("  the value is " + credit_note(d.hazard), style="dim"))
    t = Table(header_style="bold", box=None)
    for col in ("play", "value", "policy", "avoids", "guaranteed"):
        t.add_column(col)
    for c in d.candidates:
        t.add_row(
            play_text(c.play),
            f"{c.value:.2f}",
            f"{c.policy:.2f}",
            "—" if c.avoids is None else f"{100 * c.avoids:.0f}%",
            "—" if c.guaranteed is None else f"{c.guaranteed:.2f}",
        )
    o.print(t)


def _player_start(
    players: int,
    hand: tuple[int, ...],
    order: int,
    before: tuple[int, ...],
    seed: int,
    time_limit: float | None,
    json_out: bool,
) -> None:
    """``advise --hand --player``: the player's set-aside card (the predictions before it
    assumed, S2 comes first), then its prediction with that card and ``before`` (S3)."""
    from catbox.solver.estimates.opening import aside_choice, opening_for_prediction

    try:
        aside = aside_choice(
            hand, players=players, order=order, seed=seed, limits=Limits(time_limit)
        )
        pred = None
        if players > 2:
            pred = opening_for_prediction(hand, aside.aside, players=players,
                                          order=order, before=before, seed=seed,
                                          limits=Limits(time_limit))  # fmt: skip
    except CatboxError as e:
        raise as_options(e, _OPTION_NAMES) from None
    if json_out:
        emit_json({"set_aside": aside_choice_json(aside),
                   "prediction": opening_json(pred) if pred else None})  # fmt: skip
        return
    _print_opening(aside.opening, "set-aside card (S2), ranked")
    if aside.check is None:
        note = f"chosen: {aside.aside}, a copy of the number the hand holds most of"
    else:
        note = (
            f"chosen: {aside.aside} — the ranking's best against the best most-held card "
            f"({aside.usual[0]}) on {aside.worlds} fresh worlds: {aside.check:+.2f} per round"
        )
    out().print(Text("  " + note, style="bold"))
    if pred is not None:
        _print_opening(pred, "prediction (S3)")


def _print_opening(op: Opening, what: str) -> None:
    o = out()
    b = op.rows[0]
    best = f"set aside {b.set_aside}" + (
        f", predict {b.prediction}" if b.prediction is not None else ""
    )
    o.print(Text(f"catbox's player, {what}: ", style="bold").append(best))
    o.print(
        Text(
            f"  {op.playouts} playouts by successive halving (the predictions before: "
            f"{', '.join(map(str, op.before)) or 'none'}) [estimate]"
            + (" — stopped by the time limit" if op.stopped else ""),
            style="dim",
        )
    )
    if op.hazard:
        o.print(Text("  ranked by " + credit_note(op.hazard), style="dim"))
    t = Table(header_style="bold", box=None)
    cols = ("set aside", "predict", "round score (95% CI)", "avoids paradox", "left in")
    for col in cols[:3] + (("ranked by",) if op.hazard else ()) + cols[3:]:
        t.add_column(col)
    for r in op.rows:
        t.add_row(
            str(r.set_aside),
            "—" if r.prediction is None else str(r.prediction),
            est_text(r.score, False),
            *((f"{r.value.value:.2f}",) if op.hazard else ()),
            f"{100 * r.avoid_paradox:.0f}%",
            "—" if r.dropped is None else f"round {r.dropped + 1}",
        )
    o.print(t)
