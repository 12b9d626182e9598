"""The cooperative cap on a seat's trick count from the red cells (solver/matching.py
``trick_cap``; W1, L1, L2, P1, X3, E1): a proof, so wherever it fires the exhaustive search
agrees (no reachable count above it), at 2-5 players, trick starts and mid-trick, with 2 and 3
tricks left (2 at 5 players); a cap that forgets a red card S could win with must fail somewhere."""

from __future__ import annotations

import pytest

from catbox.solver import matching
from catbox.solver.deal import random_position
from catbox.solver.position import Position
from catbox.solver.possible import tricks_possible


def _cases(players: int) -> list[Position]:
    return [
        random_position(players, 500 + seed, left, mid_trick=mid)
        for seed in range(8)
        for left in ((2, 3) if players < 5 else (2,))  # 5p / 3: minutes of exhaustive search
        for mid in range(players)
    ]


def _check(pos: Position) -> tuple[int, int]:
    """(positions and seats where the cap fires, of them where it is exact); asserts it holds."""
    fired = exact = 0
    for seat in range(pos.players):
        cap = matching.trick_cap(pos, seat)
        assert cap is not None
        t = tricks_possible(pos, seat, method="search")
        assert t.status == "proven"
        top = pos.seats[seat].tricks + pos.tricks_left
        assert all(k <= cap for k in t.possible), (pos, seat, cap, t.possible)
        if cap < top:
            fired += 1
            exact += bool(t.possible) and max(t.possible) == cap
    return fired, exact


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_trick_cap_holds_wherever_it_fires(players: int) -> None:
    fired = exact = 0
    for pos in _cases(players):
        f, e = _check(pos)
        fired, exact = fired + f, exact + e
    assert fired >= 1 and exact >= 1, (fired, exact)  # it does fire, and closes some sets


def test_a_cap_that_forgets_a_red_card_able_to_win_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mutant forgets S's highest red card (W1: it could win a trick): some position's
    cap then falls below a reachable count."""
    cells = matching.red_cells

    def forget(pos: Position, seat: int) -> tuple[frozenset[int], frozenset[int]] | None:
        got = cells(pos, seat)
        if got is None or not got[0]:
            return got
        return got[0] - {max(got[0])}, got[1]

    monkeypatch.setattr(matching, "red_cells", forget)
    with pytest.raises(AssertionError):
        for players in (2, 3, 4, 5):
            for pos in _cases(players):
                _check(pos)


def test_the_cap_needs_the_seats_hand() -> None:
    pos = random_position(4, 3, 3, hide=[1])
    assert matching.trick_cap(pos, 1) is None
    assert matching.trick_cap(pos, 0) is not None
