"""The "possible" questions (issue #3): cross-checks against the exhaustive reference, between
the engines, hand-built positions, unknown hands and determinism."""

from __future__ import annotations

from functools import cache

import pytest

from catbox.solver import EMPTY, Colour, Play, Position, Seat, cell_index
from catbox.solver.answers import Witness
from catbox.solver.cards import colours_from_str
from catbox.solver.coop import CoopSearch
from catbox.solver.deal import random_position
from catbox.solver.errors import PositionError
from catbox.solver.limits import Limits
from catbox.solver.matching import hall_violation
from catbox.solver.possible import paradox_possible, tricks_possible
from tests.reference import possible as reference


def _small_positions() -> list[tuple[Position, int]]:
    """Small random positions (2-5 players, 1-3 tricks left, some mid-trick, some with one or
    two hidden hands kept small), each with an asking seat whose hand is known."""
    out: list[tuple[Position, int]] = []
    for players in (2, 3, 4, 5):
        for seed in range(50):
            tl = 1 + seed % 3
            if tl == 3 and players >= 4 and seed % 9:
                tl = 2  # keep the reference fast: few 3-trick positions at 4-5 players
            mid = seed % players
            hide: tuple[int, ...] = ()
            if seed % 4 == 1 and tl <= 2:
                hide = ((seed + 1) % players,)
            elif seed % 4 == 3 and tl == 1 and players >= 3:
                hide = ((seed + 1) % players, (seed + 2) % players)
            try:
                pos = random_position(players, seed, tl, mid_trick=mid, hide=hide)
            except PositionError:
                continue
            seats = [s for s in range(players) if pos.seats[s].hand is not None]
            out.append((pos, seats[seed % len(seats)]))
    return out


SMALL = _small_positions()


def _check_claims(pos: Position, seat: int, method: str) -> tuple[bool, bool, tuple[int, ...]]:
    a = paradox_possible(pos, seat, method=method)  # type: ignore[arg-type]
    t = tricks_possible(pos, seat, method=method)  # type: ignore[arg-type]
    assert a.status == "proven" and t.status == "proven" and not t.undecided
    assert a.possible is not None and a.round_possible is not None
    if a.possible:
        assert a.witness is not None
        assert a.witness.verify(pos).paradox != seat
    if a.round_possible:
        assert a.round_witness is not None
        assert a.round_witness.verify(pos).paradox is None
        assert a.possible
    assert sorted(t.witnesses) == list(t.possible)
    for k, w in t.witnesses.items():
        end = w.verify(pos)
        assert end.paradox != seat and end.seats[seat].tricks == k
    assert bool(t.possible) == a.possible
    return a.possible, a.round_possible, t.possible


@cache
def _reference(case: int) -> tuple[bool, bool, tuple[int, ...]]:
    pos, seat = SMALL[case]
    ref = reference(pos, seat)
    return ref.avoid, ref.round, tuple(sorted(ref.tricks))


@pytest.mark.parametrize("method", ["search", "cp-sat", "auto"])
@pytest.mark.parametrize("case", range(len(SMALL)))
def test_matches_reference(case: int, method: str) -> None:
    """possible, round_possible and the trick set agree exactly with the exhaustive reference,
    for each engine forced explicitly and for the automatic choice."""
    pos, seat = SMALL[case]
    assert _check_claims(pos, seat, method) == _reference(case)


def _medium_positions() -> list[tuple[Position, int]]:
    out = []
    for players in (3, 4, 5):
        for seed in range(6):
            hide = (1,) if seed % 3 == 2 else ()
            tl = 2 if players == 5 else 3
            pos = random_position(players, 100 + seed, tl, mid_trick=seed % 2, hide=hide)
            out.append((pos, 0))
    return out


@pytest.mark.parametrize("case", range(18))
def test_engines_agree(case: int) -> None:
    """Search and CP-SAT agree on positions too big for the reference."""
    pos, seat = _medium_positions()[case]
    assert _check_claims(pos, seat, "search") == _check_claims(pos, seat, "cp-sat")


def test_fast_legality_matches_rules() -> None:
    """The search's bitmask encoding of L1-L3 gives exactly Position.legal_plays()."""
    seen: set[str] = set()  # which rules the sample exercised
    for players in (2, 3, 4, 5):
        for seed in range(40):
            tl = 1 + seed % 7
            pos = random_position(players, seed, tl, mid_trick=seed % players)
            search = CoopSearch(pos, 0)
            moves = search.expand(search.root)
            got = sorted(Play(n, Colour(c)) for (kind, _, n, c, _), *_ in moves if kind != 3)
            assert got == pos.legal_plays()
            seen |= {rule for _, rule in pos.explain() if rule is not None}
            seen |= {"lead" if not pos.trick else "follow", "stuck" if not got else "moves"}
    assert seen >= {"L1", "L2", "L3", "lead", "follow", "moves"}, seen


# --------------------------------------------------------------------------- hand-built

ROWS = "RBYG"


def _build(
    board: dict[str, str],
    hands: list[tuple[int, ...] | None],
    *,
    tricks: list[int],
    leader: int,
    colours: list[str] | None = None,
    set_aside: list[int | None] | None = None,
) -> Position:
    """A 3-player position in its last trick from board rows ("A", "B", "C" or ".")."""
    cells = [EMPTY] * 24
    for row, text in board.items():
        for i, ch in enumerate(text.replace(" ", "")):
            if ch != ".":
                cells[cell_index(Colour[row], i + 1, 6)] = "ABC".index(ch)
    seats = tuple(
        Seat(
            hand=h,
            hand_size=2,
            colours=colours_from_str(colours[i]) if colours else 0b1111,
            tricks=tricks[i],
            set_aside=set_aside[i] if set_aside else None,
        )
        for i, h in enumerate(hands)
    )
    pos = Position(players=3, board=tuple(cells), seats=seats, leader=leader)
    pos.validate()
    return pos


# empty cells 1B, 2B, 3B; 21 tokens, 7 per seat
CERTAIN = {"R": "ABCABC", "B": "...ABC", "Y": "ABCABC", "G": "ABCABC"}


def test_paradox_certain() -> None:
    """A must lead 1B; B holds 4 and 6, whose cells are all filled: B is stuck (X1)."""
    pos = _build(CERTAIN, [(1, 5), (4, 6), (2, 3)], tricks=[3, 2, 2], leader=0)
    for method in ("search", "cp-sat"):
        b = paradox_possible(pos, 1, method=method)
        assert (b.possible, b.round_possible, b.status) == (False, False, "proven")
        assert b.reason is not None and "4, 6" in b.reason
        a = paradox_possible(pos, 0, method=method)
        assert (a.possible, a.round_possible) == (True, False)
        assert a.witness is not None and a.witness.verify(pos).paradox == 1
        assert tricks_possible(pos, 1, method=method).possible == ()
        assert tricks_possible(pos, 2, method=method).possible == (2,)
    assert hall_violation(pos, 1) == ((4, 6), 0)
    assert paradox_possible(pos, 1).method in ("search", "matching")


# empty cells 1B, 1Y, 2Y
ONE_ORDER = {"R": "ABCABC", "B": ".BCABC", "Y": "..AABC", "G": "ABCABC"}


def test_avoidable_by_one_order_only() -> None:
    """B holds a 1 but only red and blue: A must lead 1Y so that B can play 1B."""
    pos = _build(
        ONE_ORDER,
        [(1, 6), (1, 5), (2, 4)],
        tricks=[3, 2, 2],
        leader=0,
        colours=["RBYG", "RB", "RBYG"],
    )
    for method in ("search", "cp-sat"):
        b = paradox_possible(pos, 1, method=method)
        assert b.possible and b.round_possible and b.witness is not None
        assert [str(p) for p in b.witness.line] == ["1Y", "1B", "2Y"]
        bad = pos.play(Play(1, Colour.B))
        after = paradox_possible(bad, 1, method=method)
        assert after.possible is False and after.method in ("trivial", method)
        t = tricks_possible(pos, 0, method=method)
        assert t.possible == (3,)  # A wins no trick either way
        # C wins the trick with 2Y (W1), or keeps 2 when A leads 1B and B is stuck (X1)
        c = tricks_possible(pos, 2, method=method)
        assert c.possible == (2, 3) and c.witnesses[2].verify(pos).paradox == 1


def test_unknown_hand_flips_with_the_deal() -> None:
    """B's hand is unknown. With the set-aside cards unknown some deal gives B a 2 or 3 for
    2B/3B; once A and C are known to have set aside a 2 and a 3, no deal can."""
    hands: list[tuple[int, ...] | None] = [(1, 5), None, (2, 3)]
    open_deal = _build(CERTAIN, hands, tricks=[3, 2, 2], leader=0)
    no_deal = _build(CERTAIN, hands, tricks=[3, 2, 2], leader=0, set_aside=[2, None, 3])
    for method in ("search", "cp-sat"):
        yes = paradox_possible(open_deal, 0, method=method)
        assert yes.round_possible and yes.round_witness is not None
        dealt = yes.round_witness.hands[1]
        assert dealt is not None and len(dealt) == 2 and {2, 3} & set(dealt)
        no = paradox_possible(no_deal, 0, method=method)
        assert (no.possible, no.round_possible) == (True, False)
        assert no.witness is not None and no.witness.verify(no_deal).paradox == 1
        assert tricks_possible(no_deal, 2, method=method).possible == (2,)
        assert tricks_possible(open_deal, 2, method=method).possible == (2, 3)


def test_finished_position_is_trivial() -> None:
    pos = _build(CERTAIN, [(1, 5), (4, 6), (2, 3)], tricks=[3, 2, 2], leader=0)
    end = pos.play(Play(1, Colour.B))
    assert end.paradox == 1
    ans = paradox_possible(end, 0)
    assert (ans.possible, ans.round_possible, ans.method) == (True, False, "trivial")
    assert ans.witness == Witness.of(end, [])
    assert tricks_possible(end, 0).possible == (3,)
    assert tricks_possible(end, 1).possible == ()


def test_determinism() -> None:
    """Same input and options: the same answers and the same lines."""
    for method, tl in (("cp-sat", 5), ("search", 3)):
        pos = random_position(4, 11, tl)
        runs = [
            (
                paradox_possible(pos, 1, method=method),  # type: ignore[arg-type]
                tricks_possible(pos, 1, method=method),  # type: ignore[arg-type]
            )
            for _ in range(2)
        ]
        a, b = runs
        assert a[0].witness == b[0].witness and a[0].round_witness == b[0].round_witness
        assert a[1].possible == b[1].possible and a[1].witnesses == b[1].witnesses
    hidden = random_position(3, 5, 4, hide=(1, 2))
    x = tricks_possible(hidden, 0, limits=Limits(workers=2))
    y = tricks_possible(hidden, 0, limits=Limits(workers=2))
    assert x == y
