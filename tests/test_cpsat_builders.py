"""The CP-SAT model (solver/cpsat/model.py), one constraint family at a time.

A wrong "no" from CP-SAT has no certificate, so every builder is checked on both sides: a line
the rules engine plays (``Position.play``) is accepted by the model with every variable
``x[s, t, n, c]`` fixed to that line, and a line breaking exactly one rule (made with the
unchecked ``Position._apply``) is rejected. Where the model still stands without the builder,
the same violating line is accepted once that builder alone is switched off: the builder is what
enforces the rule.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest

from catbox.solver.cards import Colour, Play
from catbox.solver.cpsat import model as cpsat_model
from catbox.solver.cpsat.model import Mode, RoundModel, build
from catbox.solver.deal import deal_round, random_position
from catbox.solver.position import Position
from catbox.solver.rules import why_illegal

Key = tuple[int, int, int, int]  # (seat, trick from now, number, colour)
Line = list[tuple[Position, Play]]  # each play with the position it is made from


def keys(start: Position, line: Line) -> set[Key]:
    out = set()
    for before, play in line:
        seat = before.to_play
        assert seat is not None
        t = before.completed_tricks - start.completed_tricks
        out.add((seat, t, play.number, int(play.colour)))
    return out


def accepts(rm: RoundModel, chosen: set[Key]) -> bool:
    """Is the model feasible with its plays fixed to ``chosen``? (A play without a variable is
    rejected by construction.)"""
    from ortools.sat.python import cp_model

    if not chosen <= rm.x.keys():
        return False
    for k, v in rm.x.items():
        rm.model.add(v == int(k in chosen))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    status = solver.solve(rm.model)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE), status
    return bool(status != cp_model.INFEASIBLE)


def model(start: Position, seat: int, mode: Mode, monkeypatch: pytest.MonkeyPatch | None = None,
          without: tuple[str, ...] = ()) -> RoundModel:  # fmt: skip
    for name in without:
        assert monkeypatch is not None and hasattr(cpsat_model, name)
        monkeypatch.setattr(cpsat_model, name, lambda rm: None)
    rm = build(start, seat, mode)
    if monkeypatch is not None:
        monkeypatch.undo()
    return rm


def play_out(pos: Position, rng: random.Random, line: Line | None = None) -> tuple[Line, Position]:
    """Random legal plays to the end of the round."""
    line = [] if line is None else line
    while not pos.finished:
        play = rng.choice(pos.legal_plays())
        line.append((pos, play))
        pos = pos.play(play)
    return line, pos


def query_for(end: Position) -> tuple[int, Mode]:
    """A query the line answers yes: no paradox at all, or not by some other seat."""
    if end.paradox is None:
        return 0, "round"
    return (end.paradox + 1) % end.players, "avoid"


def starts(count: int, *, hide: bool = False) -> Iterator[tuple[Position, Position, random.Random]]:
    """Small running positions at every player count, mid-trick too: (the position with every
    hand known, the position the model is built from: one hand unknown with ``hide``)."""
    for k in range(count):
        players = 2 + k % 4
        tricks_left = 1 + k % 3
        full = random_position(players, 100 + k, tricks_left, mid_trick=k % players)
        start = full.hide([(k + 1) % players]) if hide else full
        yield full, start, random.Random(k)


# --------------------------------------------------------------------------- accepted


@pytest.mark.parametrize("hide", [False, True])
def test_every_real_line_is_accepted(hide: bool) -> None:
    """All builders together accept every line the rules engine plays (with an unknown hand:
    the model deals it), answer the query the line answers, and count its tricks (W1, W3)."""
    from ortools.sat.python import cp_model

    paradoxes = 0
    for full, start, rng in starts(24, hide=hide):
        line, end = play_out(full, rng)  # the true deal: one the model may choose
        chosen = keys(start, line)
        seat, mode = query_for(end)
        assert accepts(build(start, seat, mode), chosen)
        if end.paradox is not None:
            paradoxes += 1
            assert not accepts(build(start, end.paradox, "avoid"), chosen)  # X1: it was it
            assert not accepts(build(start, seat, "round"), chosen)
        rm = build(start, seat, "tricks")
        for k, v in rm.x.items():
            rm.model.add(v == int(k in chosen))
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        if end.paradox == seat:
            continue
        assert solver.solve(rm.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        assert solver.value(rm.tricks) == end.seats[seat].tricks
    assert paradoxes > 0


# --------------------------------------------------------------------------- rejected


def violating(
    count: int, pick: Callable[[Position, Position], Play | None], *, lead_red: bool = False
) -> Iterator[tuple[Position, Line, Position]]:
    """Lines that break one rule once: from each start, walk a random legal line and at the first
    position where ``pick(start, pos)`` offers a play, make it unchecked, then go on legally."""
    found = 0
    for k in range(count * 20):
        if lead_red:
            start = _red_unbroken_start(k)
            if start is None:
                continue
        else:
            start = random_position(2 + k % 4, 300 + k, 2 + k % 2, mid_trick=k % (2 + k % 4))
        rng = random.Random(k)
        pos, line = start, []
        while not pos.finished:
            bad = pick(start, pos)
            if bad is not None:
                line.append((pos, bad))
                seat = pos.to_play
                assert seat is not None
                hand = pos.seats[seat].hand or ()
                nxt = (with_card(pos, seat, bad.number) if bad.number not in hand else pos)._apply(
                    bad
                )
                if nxt.to_play is None or nxt.seats[nxt.to_play].hand is None:
                    break
                line, end = play_out(nxt.settle(), rng, line)
                yield start, line, end
                found += 1
                break
            play = rng.choice(pos.legal_plays())
            line.append((pos, play))
            pos = pos.play(play)
        if found == count:
            return
    raise AssertionError(f"only {found} violating lines found")


def _red_unbroken_start(k: int) -> Position | None:
    """A position two or three tricks from the end with red still unbroken (L3a not met)."""
    players = 3 + k % 3
    pos = deal_round(players, 500 + k).position
    rng = random.Random(k)
    target = 2 + k % 2
    while pos.tricks_left > target:
        plays = pos.legal_plays()
        if not plays:
            return None
        non_red = [p for p in plays if p.colour != Colour.R]
        pos = pos.play(rng.choice(non_red or plays))
    return None if pos.red_broken or pos.finished else pos


def _leading_red(start: Position, pos: Position) -> Play | None:
    """L3: the leader declares red before red is broken while it could declare another colour."""
    seat = pos.to_play
    if seat is None or pos.trick or pos.red_broken:
        return None
    hand, colours = pos.seats[seat].hand, pos.seats[seat].colours
    if hand is None or not colours & Colour.R.bit:
        return None
    for n in sorted(set(hand)):
        p = Play(n, Colour.R)
        rule = why_illegal(p, hand, pos.board, pos.max_number, colours,
                           leading=True, red_is_broken=False)  # fmt: skip
        if rule == "L3":
            return p
    return None


def _filled_in_line(start: Position, pos: Position) -> Play | None:
    """L1: a card into a cell the line itself filled (its variable exists: empty at the start)."""
    seat = pos.to_play
    hand = pos.seats[seat].hand if seat is not None else None
    if hand is None or seat is None:
        return None
    for n in sorted(set(hand)):
        for c in Colour:
            i = int(c) * pos.max_number + n - 1
            held = pos.seats[seat].colours & start.seats[seat].colours & c.bit
            if held and start.board[i] == -1 and pos.board[i] != -1:
                return Play(n, c)
    return None


def _lost_permission(start: Position, pos: Position) -> Play | None:
    """L2 after F2: a colour the seat held at the start and lost during the line (it followed
    off that colour), declared into an empty cell."""
    seat = pos.to_play
    hand = pos.seats[seat].hand if seat is not None else None
    if hand is None or seat is None:
        return None
    lost = start.seats[seat].colours & ~pos.seats[seat].colours
    for n in sorted(set(hand)):
        for c in Colour:
            if lost & c.bit and pos.board[int(c) * pos.max_number + n - 1] == -1:
                return Play(n, c)
    return None


def _no_such_card(start: Position, pos: Position) -> Play | None:
    """A card the seat does not hold, into an empty cell of a colour it holds."""
    seat = pos.to_play
    hand = pos.seats[seat].hand if seat is not None else None
    if hand is None or seat is None or pos.completed_tricks == start.completed_tricks:
        return None
    for n in range(1, pos.max_number + 1):
        for c in Colour:
            i = int(c) * pos.max_number + n - 1
            if n not in hand and pos.board[i] == -1 and pos.seats[seat].colours & c.bit:
                return Play(n, c)
    return None


def with_card(pos: Position, seat: int, number: int) -> Position:
    """``pos`` with one more copy of ``number`` in the seat's hand (a world the rules forbid:
    the unchecked plays below may then use it)."""
    s = pos.seats[seat]
    assert s.hand is not None
    seats = list(pos.seats)
    seats[seat] = replace(s, hand=tuple(sorted((*s.hand, number))), hand_size=s.hand_size + 1)
    return replace(pos, seats=tuple(seats))


def test_cards_reject_a_cell_filled_twice() -> None:
    """_add_cards, L1: each cell once (an at-most-one over the plays into it)."""
    for start, line, end in violating(6, _filled_in_line):
        seat, mode = query_for(end)
        assert not accepts(build(start, seat, mode), keys(start, line))


def test_cards_reject_a_card_not_in_hand() -> None:
    """_add_cards: a seat plays only the copies it holds."""
    for start, line, end in violating(6, _no_such_card):
        seat, mode = query_for(end)
        assert not accepts(build(start, seat, mode), keys(start, line))


def test_permissions_reject_a_colour_lost_by_F2(monkeypatch: pytest.MonkeyPatch) -> None:
    """_add_permissions, L2 and F2: a colour lost by following off it stays lost."""
    for start, line, end in violating(6, _lost_permission):
        seat, mode = query_for(end)
        assert not accepts(build(start, seat, mode), keys(start, line))


def test_red_rule_rejects_an_early_red_lead(monkeypatch: pytest.MonkeyPatch) -> None:
    """_add_red_rule, L3: no red lead before red is broken while another colour is possible;
    without the builder the same line is accepted."""
    for start, line, end in violating(5, _leading_red, lead_red=True):
        seat, mode = query_for(end)
        chosen = keys(start, line)
        assert not accepts(build(start, seat, mode), chosen)
        assert accepts(model(start, seat, mode, monkeypatch, ("_add_red_rule",)), chosen)


def _free_winners(rm: RoundModel) -> None:
    """In place of _add_winners: the trick winners, unconstrained."""
    for t in range(rm.tricks_left):
        for s in range(rm.pos.players):
            rm.win[s, t] = rm.model.new_bool_var(f"win_{s}_{t}")


def test_winners_fix_the_trick_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """_add_winners, W1 and W3: with the plays of a real line fixed, the seat's trick count is
    the one the rules engine counts, and no other; with free winners another count is
    accepted."""
    checked = 0
    for _, start, rng in starts(40):
        line, end = play_out(start, rng)
        seat, _ = query_for(end)
        if end.paradox is not None or start.tricks_left < 2:
            continue
        chosen = keys(start, line)
        real = end.seats[seat].tricks
        for winners in (None, _free_winners):
            if winners is not None:
                monkeypatch.setattr(cpsat_model, "_add_winners", winners)
            rm = build(start, seat, "tricks")
            monkeypatch.undo()
            rm.model.add(rm.tricks != real)
            assert accepts(rm, chosen) == (winners is not None)
        checked += 1
    assert checked >= 6


def test_turns_reject_a_skipped_seat() -> None:
    """_add_turns: slots are played as a prefix in seat order; a line with a seat's play taken
    out of the middle of a trick is rejected."""
    checked = 0
    for _, start, rng in starts(16):
        line, end = play_out(start, rng)
        middle = [i for i, (b, _) in enumerate(line[:-1]) if b.trick and i + 1 < len(line)]
        if not middle:
            continue
        i = middle[0]
        cut = line[:i] + line[i + 1 :]
        seat, mode = query_for(end)
        assert not accepts(build(start, seat, "avoid" if mode == "avoid" else "round"),
                           keys(start, cut))  # fmt: skip
        checked += 1
    assert checked >= 8


def test_paradox_rejects_a_line_that_stops_while_a_play_is_legal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """_add_paradox, X1-X3: the round stops only at a seat with no legal play. A real line cut
    short (the next seat could play) is rejected; without the paradox and query builders (which
    need each other) it is accepted."""
    checked = 0
    for _, start, rng in starts(16):
        line, _ = play_out(start, rng)
        if len(line) < 2:
            continue
        cut = line[: len(line) // 2]
        stopped = cut[-1][0].play(cut[-1][1])
        assert stopped.to_play is not None and stopped.legal_plays()
        seat = (stopped.to_play + 1) % start.players
        chosen = keys(start, cut)
        assert not accepts(build(start, seat, "avoid"), chosen)
        without = ("_add_paradox", "_add_query")
        assert accepts(model(start, seat, "avoid", monkeypatch, without), chosen)
        checked += 1
    assert checked >= 8


def test_deals_reject_more_copies_than_are_unseen() -> None:
    """_add_deals: the unknown hands share the unseen cards. Two unknown hands that between them
    play two copies of a number of which one copy is unseen are rejected; a card none of whose
    copies is unseen has no play variable at all."""
    checked = 0
    for k in range(80):
        players = 3 + k % 3
        full = random_position(players, 900 + k, 3)
        b, c = (full.to_play or 0), ((full.to_play or 0) + 1) % players
        start = full.hide([b, c])
        pool = start.unknown_pool()
        for n in [n for n in sorted(pool) if pool[n] == 1]:
            lacking = [s for s in (b, c) if n not in (full.seats[s].hand or ())]
            if len(lacking) != 1:
                continue
            world = with_card(full, lacking[0], n)
            rng = random.Random(k)
            pos, line = world, []
            while not pos.finished:
                plays = pos.legal_plays()
                mine = [p for p in plays if p.number == n and pos.to_play in (b, c)]
                play = rng.choice(mine or plays)
                line.append((pos, play))
                pos = pos._apply(play).settle()
            chosen = keys(start, line)
            if {(s, n) for s, _, m, _ in chosen if m == n} != {(b, n), (c, n)}:
                continue
            other = next(s for s in range(players) if s not in (b, c))
            assert not accepts(build(start, other, "avoid"), chosen)
            checked += 1
            break
    assert checked >= 3
    # every copy seen: no variable for it
    full = random_position(4, 901, 2)
    seat = full.to_play
    assert seat is not None
    start = full.hide([seat])
    rm = build(start, (seat + 1) % 4, "avoid")
    pool = start.unknown_pool()
    assert all(pool[n] > 0 for s, _, n, _ in rm.x if s == seat)
    assert any(pool[n] == 0 for n in range(1, start.max_number + 1))
