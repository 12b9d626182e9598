"""One test per rule of rules.md, named after its id (rules engine: solver/rules.py and the
move logic of solver/position.py)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from catbox.solver import Colour, IllegalPlayError, Play, deal_round, variant
from catbox.solver.board import EMPTY, cell_index, empty_board, with_owner
from catbox.solver.rules import after_follow, is_red_broken, legal_plays, trick_winner, why_illegal

from .games import F2_RED_4P, FULL_2P, L3B_3P, PARADOX_3P, position, record

R, B, Y, G = Colour.R, Colour.B, Colour.Y, Colour.G


def P(text: str) -> Play:
    return Play.parse(text)


def board_with(players: int, *cells: tuple[str, int]) -> tuple[int, ...]:
    """A board with the given (play, owner) tokens."""
    n = variant(players).max_number
    b = empty_board(players)
    for play, owner in cells:
        p = P(play)
        b = with_owner(b, cell_index(p.colour, p.number, n), owner)
    return b


# ------------------------------------------------------------------ §2 the board
def test_B1_rows_are_colours_and_columns_numbers() -> None:
    assert len(empty_board(4)) == 4 * 8
    assert cell_index(R, 1, 8) == 0 and cell_index(G, 8, 8) == 31
    assert cell_index(B, 3, 8) == 8 + 2


def test_B2_red_is_trump() -> None:
    assert trick_winner([P("8B"), P("1R"), P("7B")]) == 1
    assert trick_winner([P("2R"), P("8B"), P("5R")]) == 2


def test_B3_numbers_not_in_the_deck_do_not_exist() -> None:
    pos = deal_round(4, seed=1).position  # the 9s are covered at 4 players
    with pytest.raises(IllegalPlayError) as e:
        pos.play(P("9B"))
    assert e.value.rule == "B1"
    pos2 = deal_round(2, seed=1).position  # and the 6s at 2 players
    assert pos2.max_number == 5
    assert (
        why_illegal(P("6B"), (6,), pos2.board, 5, 0b1111, leading=True, red_is_broken=False) == "B1"
    )


def test_B4_adjacency_is_orthogonal_without_wrap() -> None:
    from catbox.solver.board import largest_group

    diag = board_with(4, ("1R", 0), ("2B", 0))
    assert largest_group(diag, 0, 4) == 1
    line = board_with(4, ("1R", 0), ("2R", 0), ("2B", 0), ("2Y", 0))
    assert largest_group(line, 0, 4) == 4
    wrap = board_with(4, ("8R", 0), ("1B", 0))  # end of the red row is not next to blue 1
    assert largest_group(wrap, 0, 4) == 1
    broken = board_with(4, ("1R", 0), ("2R", 1), ("3R", 0))  # another seat's token breaks it
    assert largest_group(broken, 0, 4) == 1


def test_B5_layout_is_data_and_only_changes_groups() -> None:
    from catbox.solver.board import Layout, largest_group

    b = board_with(3, ("1R", 0), ("3R", 0))
    swapped = Layout(
        "swap-2-3",
        tuple((c, n, c, {2: 2, 3: 1}.get(n, n - 1)) for c in range(4) for n in range(1, 7)),
    )
    assert largest_group(b, 0, 3) == 1
    assert largest_group(b, 0, 3, swapped) == 2  # 1R and 3R now sit side by side
    assert legal_plays((2,), b, 6, 0b1111, leading=True, red_is_broken=True)  # legality unchanged


# ------------------------------------------------------------------ §3 preparation
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_S1_deal_evenly(players: int) -> None:
    v = variant(players)
    d = deal_round(players, seed=3)
    assert all(len(h) == v.dealt for h in d.dealt)
    dealt = sum(len(h) for h in d.dealt)
    assert dealt + len(d.revealed) + len(d.hidden) == v.deck_size
    assert len(d.revealed) + len(d.hidden) == v.undealt


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_S2_one_card_set_aside(players: int) -> None:
    d = deal_round(players, seed=4)
    for dealt, aside, seat in zip(d.dealt, d.set_aside, d.position.seats, strict=True):
        assert aside in dealt
        assert seat.hand is not None and len(seat.hand) == variant(players).hand_start
        assert sorted((*seat.hand, aside)) == sorted(dealt)


def test_S3_predictions_allowed_values() -> None:
    assert variant(3).predictions == (1, 3, 4)
    assert variant(4).predictions == variant(5).predictions == (1, 2, 3)
    assert variant(2).predictions == ()
    for seed in range(20):
        d = deal_round(3, seed, predictions=True)
        assert all(p in (1, 3, 4) for p in d.predictions)
    assert deal_round(2, 1, predictions=True).predictions == (None, None)


def test_S4_every_seat_starts_with_all_permissions() -> None:
    assert all(s.colours == 0b1111 for s in deal_round(5, 2).position.seats)


# ------------------------------------------------------------------ §4 playing a card
def test_L1_cell_must_be_empty() -> None:
    b = board_with(3, ("4B", 1))
    assert why_illegal(P("4B"), (4,), b, 6, 0b1111, leading=False, red_is_broken=False) == "L1"
    assert P("4B") not in legal_plays((4,), b, 6, 0b1111, leading=False, red_is_broken=False)


def test_L2_permission_must_be_held() -> None:
    b = empty_board(3)
    no_blue = 0b1111 & ~B.bit
    assert why_illegal(P("4B"), (4,), b, 6, no_blue, leading=False, red_is_broken=False) == "L2"
    assert legal_plays((4,), b, 6, no_blue, leading=False, red_is_broken=False) == [
        P("4R"),
        P("4Y"),
        P("4G"),
    ]


def test_L3_leader_may_not_lead_red_before_it_is_broken() -> None:
    b = empty_board(4)
    assert not is_red_broken(b, 8)
    assert why_illegal(P("5R"), (5,), b, 8, 0b1111, leading=True, red_is_broken=False) == "L3"
    assert why_illegal(P("5R"), (5,), b, 8, 0b1111, leading=False, red_is_broken=False) is None
    broken = board_with(4, ("1R", 2))
    assert is_red_broken(broken, 8)
    assert why_illegal(P("5R"), (5,), broken, 8, 0b1111, leading=True, red_is_broken=True) is None


def test_L3b_leader_with_only_red_options_may_lead_red() -> None:
    pos = position(*L3B_3P)
    assert not pos.trick and not pos.red_broken
    plays = pos.legal_plays()
    assert plays and all(p.colour == R for p in plays)  # X1: L3 alone never causes a paradox
    after = pos.play(plays[0])
    assert after.red_broken and after.led == R


def test_L4_leader_never_loses_a_permission_by_leading() -> None:
    pos = deal_round(4, seed=5).position
    lead = pos.legal_plays()[-1]
    after = pos.play(lead)
    assert after.seats[pos.to_play or 0].colours == 0b1111
    assert after.led == lead.colour


def test_F1_following_the_led_colour_is_not_compulsory() -> None:
    pos = deal_round(3, seed=6).position
    pos = pos.play(pos.legal_plays()[0])
    led = pos.led
    assert led is not None
    assert any(p.colour != led for p in pos.legal_plays())


def test_F2_follower_off_the_led_colour_loses_it() -> None:
    assert after_follow(0b1111, B, Y) == 0b1111 & ~B.bit
    assert after_follow(0b1111, B, B) == 0b1111
    assert after_follow(0b1111 & ~B.bit, B, Y) == 0b1111 & ~B.bit  # already lost: nothing happens
    pos = deal_round(3, seed=6).position
    pos = pos.play(P("1B")) if P("1B") in pos.legal_plays() else pos.play(pos.legal_plays()[0])
    led = pos.led
    assert led is not None
    off = next(p for p in pos.legal_plays() if p.colour != led)
    seat = pos.to_play
    assert seat is not None
    assert not pos.play(off).seats[seat].colours & led.bit


def test_F2_applies_when_red_is_led() -> None:
    pos = position(*F2_RED_4P)
    assert pos.led == R and pos.seats[1].colours & R.bit
    after = pos.play(P("8Y"))
    assert not after.seats[1].colours & R.bit
    assert after.seats[1].colours & Y.bit


def test_P1_token_goes_on_its_cell() -> None:
    pos = deal_round(5, seed=7).position
    p = pos.legal_plays()[0]
    after = pos.play(p)
    assert after.board[cell_index(p.colour, p.number, 9)] == pos.to_play


# ------------------------------------------------------------------ §5 winning a trick
def test_W1_highest_red_wins_else_highest_of_led_colour() -> None:
    assert trick_winner([P("5B"), P("7B"), P("2R"), P("8G")]) == 2
    assert trick_winner([P("5B"), P("7B"), P("8G")]) == 1  # other colours never win
    assert trick_winner([P("3Y"), P("1R"), P("2R")]) == 2
    assert trick_winner([P("3R"), P("8B"), P("1R")]) == 0  # red led


def test_W2_no_ties_cells_are_used_once() -> None:
    pos = position(*F2_RED_4P)
    assert pos.to_play == 1 and 4 in (pos.seats[1].hand or ())
    with pytest.raises(IllegalPlayError) as e:
        pos.play(P("4R"))  # B holds a 4, but 4R is already on the board
    assert e.value.rule == "L1"
    # so no trick of any round has two equal plays: its winner is unique
    tricks = 0
    for players in (2, 3, 4, 5):
        for seed in range(10):
            pos = deal_round(players, seed).position
            rng = random.Random(seed)
            while not pos.finished:
                play = rng.choice(pos.legal_plays())
                trick = (*pos.trick, play)
                pos = pos.play(play)
                if len(trick) == players:
                    tricks += 1
                    assert len(set(trick)) == players
                    best = trick[trick_winner(trick)]
                    assert sum(p == best for p in trick) == 1
    assert tricks > 200


def test_W3_winner_scores_and_leads_next() -> None:
    pos = position(*F2_RED_4P).play(P("8Y"))  # B follows; C completes the trick
    before = [s.tricks for s in pos.seats]
    last = pos.legal_plays()[0]
    done = pos.play(last)
    plays = (*pos.trick, last)
    winner = (pos.leader + trick_winner(plays)) % 4
    assert done.trick == () and done.leader == winner
    assert [s.tricks for s in done.seats] == [t + (i == winner) for i, t in enumerate(before)]
    assert record(*F2_RED_4P).start().leader == 0  # the round start player leads trick 1


# ------------------------------------------------------------------ §6 paradox and the end
def test_E1_last_card_is_never_played() -> None:
    pos = position(*FULL_2P)
    assert pos.finished and pos.paradox is None
    assert all(s.hand_size == 1 and s.hand is not None and len(s.hand) == 1 for s in pos.seats)
    with pytest.raises(IllegalPlayError) as e:
        pos.play(P(f"{pos.seats[0].hand[0]}G"))  # type: ignore[index]
    assert e.value.rule == "E1"


def test_X1_paradox_when_due_to_play_with_no_legal_play() -> None:
    pos = position(*PARADOX_3P)
    assert pos.paradox == 2 and pos.finished and pos.to_play is None
    probe = replace(pos, paradox=None)
    assert probe.legal_plays() == []


def test_X2_a_paradox_is_never_chosen() -> None:
    pos = position(*L3B_3P)  # only red options, yet a legal play exists: no paradox
    assert pos.paradox is None and pos.legal_plays()


def test_X3_paradox_stops_at_once_nobody_wins_and_tokens_stay() -> None:
    pos = position(*PARADOX_3P)
    assert len(pos.trick) == 2  # the unfinished trick stays as it was
    assert pos.completed_tricks == 5 == sum(s.tricks for s in pos.seats)
    for seat, play in zip(pos.trick_seats(), pos.trick, strict=True):
        assert pos.board[cell_index(play.colour, play.number, 6)] == seat
    with pytest.raises(IllegalPlayError) as e:
        pos.play(P("1G"))
    assert e.value.rule == "X3"


def test_no_card_outside_the_hand() -> None:
    pos = deal_round(3, seed=1).position
    missing = next(n for n in range(1, 7) if n not in (pos.seats[0].hand or ()))
    with pytest.raises(IllegalPlayError, match=r"no \d+ in hand"):
        pos.play(Play(missing, B))


def test_rules_engine_matches_explain() -> None:
    """explain() and legal_plays() agree: legal exactly when no rule forbids it."""
    pos = position(*F2_RED_4P)
    table = pos.explain()
    assert [p for p, r in table if r is None] == pos.legal_plays()
    assert {r for _, r in table} <= {None, "L1", "L2", "L3"}
    assert all(pos.board[cell_index(p.colour, p.number, 8)] != EMPTY for p, r in table if r == "L1")


def test_L3_encodings_agree_on_random_playouts() -> None:
    """rules.py states L1-L3 twice: ``why_illegal`` (one play: which rule forbids it) and
    ``legal_plays`` (every play at once, L3 as a red_ok flag). They agree on every (card,
    colour) of every position of random rounds at every player count, leading and following,
    and under every permission mask and red-broken flag (so L3(b), red with nothing else, is
    met often)."""
    met = {"L1": 0, "L2": 0, "L3": 0, "L3b": 0}
    for players in (2, 3, 4, 5):
        n = variant(players).max_number
        for seed in range(12):
            pos = deal_round(players, seed).position
            rng = random.Random(1000 * players + seed)
            while not pos.finished:
                seat = pos.to_play
                assert seat is not None
                hand = pos.seats[seat].hand
                assert hand is not None
                for mask in range(16):
                    for leading in (True, False):
                        for broken in (True, False):
                            kw = {"leading": leading, "red_is_broken": broken}
                            legal = legal_plays(hand, pos.board, n, mask, **kw)
                            assert legal == sorted(legal)
                            for number in sorted(set(hand)):
                                for c in Colour:
                                    p = Play(number, c)
                                    rule = why_illegal(p, hand, pos.board, n, mask, **kw)
                                    assert (rule is None) == (p in legal), (p, rule, legal)
                                    if rule is not None:
                                        met[rule] += 1
                                    elif c == R and leading and not broken:
                                        met["L3b"] += 1
                pos = pos.play(rng.choice(pos.legal_plays()))
    assert min(met.values()) > 100, met
