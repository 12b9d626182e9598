"""The arena: catbox's player (solver/player.py) against its previous version and two baselines,
on the same deals in every seating (issue #18).

Every round is dealt from a fixed seed; every seat sets aside a copy of the number it holds most
of and predicts from its hand's strength (one fixed rule for all, the round-start advisor's
model of the other seats), and the round start rotates with the seed. Contestants:

* ``player`` — :func:`catbox.solver.player.choose_play` at its default level (rollouts over
  sampled deals before the exact horizon, exact endgames from it), seeing only its own hand
  (``Position.hide``);
* ``rollouts`` — the previous player: the same without the horizon probe in its rollouts
  (``rollout_plays(risk=0)``);
* ``endgame`` — the player before it: the policy before the horizon, exact endgames ranked by
  ``Scored.key`` (S's own guaranteed paradox avoidance first) from it; ``exact-first`` and
  ``tier0`` are the player with that ranking / with no tolerance on the avoidance;
* ``policy`` — catbox's playing policy alone (the player at level 0; the player before that);
* ``random`` — a uniformly random legal play; ``follow`` — the led colour when it can.

Duplicate play: for each deal the baseline plays every seat once (the reference round), then for
each seat r the contestant takes seat r alone; the difference of seat r's score between the two
rounds, averaged over the seats, is the gain per seat-round of putting the contestant in one
seat (paired on the same cards, the same others and the same random streams). Reported with 95%
intervals: that difference, the paradoxes caused by the swapped seat vs the same seat in the
reference round, prediction hits (3-5 players; at 2 players 4 tricks or fewer, Sc2). Self-play:
every seat the contestant vs every seat the baseline, paradoxes per seat-round, paired.

Endgame speed: the player's decision time by tricks left and player count (median, max), the
measurement behind ``player.HORIZON``; and the policy's decisions per second.

    .venv/bin/python bench/arena.py --quick          # a smoke run
    .venv/bin/python bench/arena.py --deals 200 --players 4 --out /tmp/arena4.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_estimates import doomed  # noqa: E402
from catbox.solver.cards import COPIES, Colour, Play, variant  # noqa: E402
from catbox.solver.estimates.decision import choose_play  # noqa: E402
from catbox.solver.estimates.opening import (  # noqa: E402
    choose_aside,
    choose_prediction,
    deal_world,
    most_held,
    most_held_numbers,
    opening_for_prediction,
    outcomes,
    strength_prediction,
)
from catbox.solver.estimates.player import (  # noqa: E402
    ENDGAME_PLAYOUTS,
    HORIZON,
    Scored,
    endgame_choice,
    rollout_plays,
    score_plays,
)
from catbox.solver.estimates.policy import POLICIES, Sim  # noqa: E402
from catbox.solver.estimates.start import advise_start  # noqa: E402
from catbox.solver.estimates.stats import Estimate, mean, proportion  # noqa: E402
from catbox.solver.position import Position  # noqa: E402
from catbox.solver.scoring import GameResult, game_result, seat_score  # noqa: E402

RESULTS = ROOT / "bench" / "results"

# an agent: (the whole position, the arena's seed for this round) -> a play of the seat to play
Agent = Callable[[Position, int], Play]


def _view(pos: Position) -> Position:
    seat = pos.to_play
    return pos.hide([s for s in range(pos.players) if s != seat])


def _sim_agent(name: str) -> Agent:
    pol = POLICIES[name]

    def agent(pos: Position, seed: int) -> Play:
        rng = random.Random(f"arena/{name}/{seed}/{pos.completed_tricks}/{len(pos.trick)}")
        num, c = pol(Sim.of(pos), rng)  # these policies read the public state and own hand
        return Play(num, Colour(c))

    return agent


def _player_agent(level: int | None = None) -> Agent:
    def agent(pos: Position, seed: int) -> Play:
        if level is None:
            return choose_play(_view(pos), seed=seed)
        return choose_play(_view(pos), seed=seed, level=level)

    return agent


# ranking variants of the player, tried in self-play (``--selfplay``): the order of the keys
# after S's own paradox (``Scored`` fields, each a share of the solved deals' weight)
def _ranked_agent(
    order: tuple[str, ...], playouts: int = 0, horizon: dict[int, int] | None = None
) -> Agent:
    hor = horizon or HORIZON

    def agent(pos: Position, seed: int) -> Play:
        view = _view(pos).settle()
        plays = view.legal_plays()
        if len(plays) == 1 or view.tricks_left > hor[view.players]:
            return choose_play(view, seed=seed, level=0)
        rows = score_plays(view, seed=seed, playouts=playouts)
        if not rows or not rows[0].weight:
            return choose_play(view, seed=seed, level=0)

        def key(r: Scored) -> tuple[float, ...]:
            w = r.weight
            got = {
                "avoids": r.avoids / w,
                "avoids4": round(4 * r.avoids / w) / 4,  # coarse: near-ties go to the next key
                "possible": r.possible / w,
                "clear": r.clear / w,
                "score": r.score / w if r.score is not None else float("-inf"),
                "policy": r.policy,
                "follow": r.follow / w,
                "follow_score": r.follow_score / w,
                "sum": (r.avoids + r.follow) / w,
                "sure": float(r.avoids >= w - 1e-9),  # guaranteed on every solved deal
            }
            return tuple(got[k] for k in order)

        return min(rows, key=lambda r: (tuple(-x for x in key(r)), r.play)).play

    return agent


def _endgame_agent() -> Agent:
    """The previous player: the policy before the exact horizon, exact endgames from it."""

    def agent(pos: Position, seed: int) -> Play:
        view = _view(pos).settle()
        if view.tricks_left > HORIZON[view.players] or len(view.legal_plays()) == 1:
            return choose_play(view, seed=seed, level=0)
        rows = score_plays(view, seed=seed)  # its ranking: Scored.key, no playouts
        return rows[0].play if rows and rows[0].weight else choose_play(view, seed=seed, level=0)

    return agent


def _exact_first_agent(tolerance: float | None = None, risk: float = 0.0) -> Agent:
    """The player, rollouts before the horizon, with another endgame ranking: ``tolerance``
    None is the previous one (Scored.key: S's own paradox avoidance first, the score it can
    guarantee fourth); else ``endgame_choice`` with that tolerance."""

    def agent(pos: Position, seed: int) -> Play:
        view = _view(pos).settle()
        if view.tricks_left > HORIZON[view.players] or len(view.legal_plays()) == 1:
            return choose_play(view, seed=seed)
        if tolerance is None:
            rows = score_plays(view, seed=seed)
            ok = bool(rows and rows[0].weight)
            return rows[0].play if ok else choose_play(view, seed=seed, level=0)
        rows = score_plays(view, seed=seed, playouts=ENDGAME_PLAYOUTS)
        if not rows or not rows[0].weight:
            return choose_play(view, seed=seed, level=0)
        return endgame_choice(rows, tolerance, risk)

    return agent


def _rollout_agent(**kw: object) -> Agent:
    """The player with other settings of its rollouts before the horizon (``rollout_plays``)."""

    def agent(pos: Position, seed: int) -> Play:
        view = _view(pos).settle()
        if view.tricks_left > HORIZON[view.players] and len(view.legal_plays()) > 1:
            return rollout_plays(view, seed=seed, **kw)[0][0]  # type: ignore[arg-type]
        return choose_play(view, seed=seed)

    return agent


KEY = ("avoids", "possible", "clear", "score", "policy")  # the player's own order
AGENTS: dict[str, Agent] = {
    "player": _player_agent(),
    "rollouts": _rollout_agent(risk=0.0),
    "risk-4": _rollout_agent(risk=4.0),
    "policy": _sim_agent("catbox"),
    "endgame": _endgame_agent(),
    "roll-rel": _rollout_agent(relative=True),
    "exact-first": _exact_first_agent(),
    "tier0": _exact_first_agent(tolerance=0.0),
    "tier3-risk2": _exact_first_agent(tolerance=0.3, risk=2.0),
    "tier10-risk3": _exact_first_agent(tolerance=1.0, risk=3.0),
    "roll-48": _rollout_agent(deals=48),
    "roll-top8": _rollout_agent(top=8),
    "random": _sim_agent("random"),
    "follow": _sim_agent("follow"),
    "clear-first": _ranked_agent(("clear", "avoids", "possible", "score", "policy")),
    "avoid-clear": _ranked_agent(("avoids", "clear", "possible", "score", "policy")),
    "pol-third": _ranked_agent(
        ("avoids", "possible", "follow", "clear", "score", "policy"), playouts=1
    ),
    "coarse-pol": _ranked_agent(
        ("avoids4", "follow", "avoids", "possible", "clear", "score", "policy"), playouts=1
    ),
    "pol-first": _ranked_agent(
        ("follow", "avoids", "possible", "clear", "score", "policy"), playouts=1
    ),
    "clear-pol": _ranked_agent(
        ("clear", "follow", "avoids", "possible", "score", "policy"), playouts=2
    ),
    "pol2-first": _ranked_agent(
        ("follow", "avoids", "possible", "clear", "score", "policy"), playouts=3
    ),
    "sum": _ranked_agent(("sum", "avoids", "possible", "clear", "score", "policy"), playouts=2),
    "h-1": _ranked_agent(KEY, horizon={p: h - 1 for p, h in HORIZON.items()}),
    "h-2": _ranked_agent(KEY, horizon={p: h - 2 for p, h in HORIZON.items()}),
    "sure-clear": _ranked_agent(("sure", "clear", "avoids", "possible", "score", "policy")),
    "coarse-clear": _ranked_agent(("avoids4", "clear", "avoids", "possible", "score", "policy")),
}


def dealt_hands(players: int, seed: int) -> tuple[list[list[int]], tuple[int, ...], random.Random]:
    """The dealt hands (before the set-aside) of the round of ``seed``, the 2-player revealed
    cards, and the stream the fixed rule goes on with."""
    v = variant(players)
    rng = random.Random(f"arena-deal/{players}/{seed}")
    deck = [n for n in v.numbers for _ in range(COPIES)]
    rng.shuffle(deck)
    dealt = [sorted(deck[i * v.dealt : (i + 1) * v.dealt]) for i in range(players)]
    revealed = tuple(sorted(deck[players * v.dealt :][:3])) if players == 2 else ()
    return dealt, revealed, rng


def deal(
    players: int,
    seed: int,
    chosen: dict[int, tuple[int, int | None]] | None = None,
    round_start: int | None = None,
) -> Position:
    """A round dealt from ``seed`` with the fixed set-aside and prediction rule; ``chosen``
    overrides it for some seats: seat -> (set-aside card, prediction). The round start is
    ``round_start`` (default: the seed modulo the players)."""
    v = variant(players)
    dealt, revealed, rng = dealt_hands(players, seed)
    asides, hands, preds = [], [], []
    for s, h in enumerate(dealt):
        a = most_held(h, rng)
        rest = list(h)
        rest.remove(a)
        pred = strength_prediction(rest, players) if v.predictions else None
        if chosen and s in chosen:
            a, pred = chosen[s]
            rest = list(h)
            rest.remove(a)
        asides.append(a)
        hands.append(tuple(rest))
        preds.append(pred)
    return Position.start(
        players,
        list(hands),
        round_start=seed % players if round_start is None else round_start,
        predictions=list(preds),
        set_aside=list(asides),
        revealed=revealed,
    ).settle()


@dataclass
class Tally:
    """One seat swapped per round against the reference round: the paired score differences
    (per deal, averaged over the seats), paradoxes caused and predictions hit on both sides."""

    diffs: list[float] = field(default_factory=list)
    per: list[float] = field(default_factory=list)
    # paradoxes caused by the swapped seat minus the same seat in the reference round, per deal
    # (averaged over the seats): the paired form of ``para`` - ``para_base``
    para_diffs: list[float] = field(default_factory=list)
    para_per: list[float] = field(default_factory=list)
    para: int = 0
    para_base: int = 0
    hit: int = 0
    hit_base: int = 0
    # trick timing (3-5 players): the swapped seat's / the reference seat's misses without
    # causing the paradox, short of the prediction or over it; "cut": short in a round that
    # another seat's paradox ended early (X3)
    timing: dict[str, int] = field(default_factory=dict)
    # one row per seat-round (deal index, seat, both scores, paradox caused, miss): for pairing
    # two contestants' runs on the same deals (--rows)
    rows: list[dict[str, object]] = field(default_factory=list)

    def add(self, out: Outcome, ref: Outcome, r: int) -> None:
        self.rows.append(
            {
                "deal": len(self.diffs),
                "seat": r,
                "score": out.scores[r],
                "score_base": ref.scores[r],
                "paradox": out.paradox == r,
                "paradox_base": ref.paradox == r,
                "miss": out.miss[r] if out.miss else None,
                "miss_base": ref.miss[r] if ref.miss else None,
                "tricks": out.tricks[r] if out.tricks else None,
                "tricks_base": ref.tricks[r] if ref.tricks else None,
                "prediction": out.preds[r] if out.preds else None,
                "prediction_base": ref.preds[r] if ref.preds else None,
            }
        )
        self.per.append(out.scores[r] - ref.scores[r])
        self.para_per.append(float(out.paradox == r) - float(ref.paradox == r))
        self.para += out.paradox == r
        self.para_base += ref.paradox == r
        self.hit += out.hits[r]
        self.hit_base += ref.hits[r]
        for side, o in (("its", out), ("base", ref)):
            m = o.miss[r] if o.miss else None
            if m is not None:
                key = f"{side}_{m}"
                self.timing[key] = self.timing.get(key, 0) + 1

    def end_deal(self) -> None:
        self.diffs.append(sum(self.per) / len(self.per))
        self.para_diffs.append(sum(self.para_per) / len(self.para_per))
        self.per, self.para_per = [], []

    def summary(self, n: int) -> dict[str, object]:
        return {
            "score_diff": mean(self.diffs),
            "paradox": proportion(self.para, n),
            "paradox_base": proportion(self.para_base, n),
            "paradox_diff": mean(self.para_diffs),
            "hit": proportion(self.hit, n),
            "hit_base": proportion(self.hit_base, n),
            "timing": dict(sorted(self.timing.items())),
        }


# a round-start rule: (dealt hand, players, order, predictions before, seed, the fixed rule's
# (set-aside, prediction) in that seat) -> (set-aside card, prediction)
Choice = tuple[int, int | None]
StartRule = Callable[[tuple[int, ...], int, int, tuple[int, ...], int, Choice], Choice]


def _player_rule(hand: tuple[int, ...], players: int, order: int, before: tuple[int, ...],
                 seed: int, ref: Choice) -> Choice:  # fmt: skip
    """catbox's player: ``choose_aside``, then ``choose_prediction`` knowing ``before``."""
    a = choose_aside(hand, players=players, order=order, seed=seed)
    if players == 2:
        return a, None
    return a, choose_prediction(hand, a, players=players, order=order, before=before, seed=seed)


def _prediction_rule(hand: tuple[int, ...], players: int, order: int, before: tuple[int, ...],
                     seed: int, ref: Choice) -> Choice:  # fmt: skip
    """The fixed rule's set-aside card, the player's ``choose_prediction``."""
    if players == 2:
        return ref
    pred = choose_prediction(hand, ref[0], players=players, order=order, before=before, seed=seed)
    return ref[0], pred


def _prediction_policy_rule(hand: tuple[int, ...], players: int, order: int,
                            before: tuple[int, ...], seed: int, ref: Choice) -> Choice:  # fmt: skip
    """The fixed rule's set-aside card, the prediction ranked on the policy's play of the seat
    (``choose_prediction`` before the own-play table, ``opening_for_prediction(own=False)``)."""
    if players == 2:
        return ref
    o = opening_for_prediction(
        hand, ref[0], players=players, order=order, before=before, seed=seed, own=False
    )
    return ref[0], o.rows[0].prediction


def _prediction_own_rule(hand: tuple[int, ...], players: int, order: int,
                         before: tuple[int, ...], seed: int, ref: Choice) -> Choice:  # fmt: skip
    """The fixed rule's set-aside card, the prediction ranked for the player's own play
    (``opening_for_prediction(own=True)``: the policy's tricks moved by the own-play table)."""
    if players == 2:
        return ref
    o = opening_for_prediction(
        hand, ref[0], players=players, order=order, before=before, seed=seed, own=True
    )
    return ref[0], o.rows[0].prediction


def _advisor_rule(samples: int) -> StartRule:
    """The round-start advisor's best (``advise --hand``) over ``samples`` playouts a
    candidate, set-aside and prediction at once, the predictions before known (S3)."""

    def rule(hand: tuple[int, ...], players: int, order: int, before: tuple[int, ...],
             seed: int, ref: Choice) -> Choice:  # fmt: skip
        adv = advise_start(players, hand, order=order, before=before, samples=samples, seed=seed)
        return adv.candidates[0].set_aside, adv.candidates[0].prediction

    return rule


START_RULES: dict[str, StartRule] = {
    "player": _player_rule,
    "prediction": _prediction_rule,
    "prediction-policy": _prediction_policy_rule,
    "prediction-own": _prediction_own_rule,
    "advisor64": _advisor_rule(64),
    "advisor100": _advisor_rule(100),
}


@dataclass
class StartTally:
    """One round-start rule in one seat at a time against the fixed rule: paired tallies, how
    often it chose as the rule does, CPU seconds per seat (both decisions)."""

    tally: Tally = field(default_factory=Tally)
    same: int = 0
    cpu: list[float] = field(default_factory=list)
    # the seat's score difference (mean over the playings) where the rule chose otherwise
    differ: list[float] = field(default_factory=list)


def play_seeds(seed: int, plays: int) -> list[int]:
    """The arena seeds of ``plays`` playings of one deal (the first is the deal's own)."""
    return [seed] + [seed * 1000 + k for k in range(1, plays)]


def start_duel(
    players: int,
    deals: int,
    seed0: int,
    rules: list[str],
    play: str,
    progress: int = 0,
    plays: int = 1,
) -> dict[str, dict[str, object]]:
    """Round-start rules against the fixed rule: for each deal and seat r, seat r sets aside
    and predicts by the rule (the predictions before it known, S3), every other seat by the
    fixed rule; the round is played out by ``play`` in every seat, against the same deal with
    the fixed rule at seat r. Paired difference of seat r's score, per seat-round. Each round
    is played ``plays`` times with other seeds of the playing agents (the decisions are the
    costly part; the playings average out the play's own noise), paired seed by seed."""
    agent = AGENTS[play]
    tallies = {name: StartTally() for name in rules}
    t0 = time.perf_counter()
    for d in range(deals):
        seed = seed0 + d
        ref_start = deal(players, seed)
        seeds = play_seeds(seed, plays)
        refs = [play_round(ref_start, [agent] * players, k) for k in seeds]
        dealt = dealt_hands(players, seed)[0]
        for r in range(players):
            order = (r - ref_start.round_start) % players
            before = tuple(
                ref_start.seats[(ref_start.round_start + k) % players].prediction or 0
                for k in range(order)
            )
            mine = (ref_start.seats[r].set_aside or 0, ref_start.seats[r].prediction)
            for name, st in tallies.items():
                t = time.process_time()
                choice = START_RULES[name](
                    tuple(dealt[r]), players, order, before if players > 2 else (), seed, mine
                )
                st.cpu.append(time.process_time() - t)
                if choice == mine:
                    st.same += 1
                    outs = refs
                else:
                    start = deal(players, seed, {r: choice})
                    outs = [play_round(start, [agent] * players, k) for k in seeds]
                    st.differ.append(
                        sum(o.scores[r] - f.scores[r] for o, f in zip(outs, refs, strict=True))
                        / len(seeds)
                    )
                for out, ref in zip(outs, refs, strict=True):
                    st.tally.add(out, ref, r)
        for st in tallies.values():
            st.tally.end_deal()
        if progress and (d + 1) % progress == 0 and d + 1 < deals:
            print(f"    ... {players}p after {d + 1} deals:", flush=True)
            for row in _start_rows(tallies, players, d + 1, plays, play, t0).values():
                print_start(row)
    return _start_rows(tallies, players, deals, plays, play, t0)


def _start_rows(
    tallies: dict[str, StartTally], players: int, deals: int, plays: int, play: str, t0: float
) -> dict[str, dict[str, object]]:
    n = deals * players * plays
    return {
        name: {
            "players": players,
            "deals": deals,
            "plays": plays,
            "rule": name,
            "play": play,
            **st.tally.summary(n),
            "same_choice": st.same / (deals * players),
            "differ_diff": mean(st.differ) if len(st.differ) > 1 else None,
            "differ_seats": len(st.differ),
            "cpu_median": statistics.median(st.cpu),
            "cpu_max": max(st.cpu),
            "seconds": time.perf_counter() - t0,
        }
        for name, st in tallies.items()
    }


def print_start(r: dict[str, object]) -> None:
    sd = r["score_diff"]
    assert isinstance(sd, Estimate)
    print(
        f"  {r['players']}p  {r['rule']:>10} vs the fixed rule  {r['deals']:>4} deals "
        f"(play: {r['play']}, {r['plays']} playings each): score diff/seat-round {fmt(sd)}; "
        f"paradox {rate(r['paradox'])} vs "  # type: ignore[arg-type]
        f"{rate(r['paradox_base'])}; hits {rate(r['hit'])} vs {rate(r['hit_base'])}; "  # type: ignore[arg-type]
        f"same choice as the rule {100 * float(r['same_choice']):.0f}%; CPU per seat "  # type: ignore[arg-type]
        f"{float(r['cpu_median']):.2f} s median ({float(r['cpu_max']):.2f} max)",  # type: ignore[arg-type]
        flush=True,
    )
    dd = r.get("differ_diff")
    if isinstance(dd, Estimate):
        print(f"      where it chose otherwise ({r['differ_seats']} seat-rounds): {fmt(dd)}")
    print_timing(r)


def start_ceiling(players: int, deals: int, seed0: int, worlds: int) -> dict[str, Estimate]:
    """How much a round-start rule can win over the fixed rule when every seat plays the
    policy (the round-start table's setting), measured on the model the player's playouts use
    (:func:`deal_world`): for every seat of ``deals`` arena deals, every (set-aside card,
    prediction) is played on ``worlds`` worlds (set A, what a rule sees) and on ``worlds``
    other worlds (set B, the judge); a rule picks on A and is scored on B against the fixed
    rule's choice, paired (the same worlds and streams). ``best on B`` picks on B itself: an
    upper bound, biased up by the pick. Returns the mean gain per seat-round of each."""
    v = variant(players)
    gains: dict[str, list[float]] = {}
    for d in range(deals):
        seed = seed0 + d
        ref = deal(players, seed)
        dealt = dealt_hands(players, seed)[0]
        for r in range(players):
            order = (r - ref.round_start) % players
            before = tuple(
                ref.seats[(ref.round_start + k) % players].prediction or 0 for k in range(order)
            )
            fixed = (ref.seats[r].set_aside or 0, ref.seats[r].prediction)
            hand = tuple(sorted(dealt[r]))
            cands: list[Choice] = [(a, p) for a in sorted(set(hand)) for p in v.predictions]
            sums = {"A": dict.fromkeys(cands, 0.0), "B": dict.fromkeys(cands, 0.0)}
            for side, sd in (("A", 1), ("B", 2)):
                for i in range(worlds):
                    w = deal_world(players, hand, order, sd, i, before)
                    got = outcomes(w, order, cands, before)  # the model's score, not the value
                    for c, (_, _, sc) in zip(cands, got, strict=True):
                        sums[side][c] += sc
            tied = set(most_held_numbers(hand))
            picks = {
                "the fixed card, the best prediction on A": [c for c in cands if c[0] == fixed[0]],
                "a most-held card and prediction, the best on A": [
                    c for c in cands if c[0] in tied
                ],
                "any card and prediction, the best on A": cands,
            }
            for name, pool in picks.items():
                pick = max(pool, key=lambda c: sums["A"][c])
                gains.setdefault(name, []).append((sums["B"][pick] - sums["B"][fixed]) / worlds)
            top = max(sums["B"].values())
            gains.setdefault("best on B (upper bound)", []).append(
                (top - sums["B"][fixed]) / worlds
            )
    return {k: mean(g) for k, g in gains.items()}


def game_rounds(
    players: int, seeds: list[int], agent: Agent, seat: int | None, rule: str
) -> list[list[int]]:
    """One whole game's round scores (Sc4: ``players`` rounds, round r dealt from ``seeds[r]``
    and started by seat r, the start passing left): ``seat`` (None: no seat) sets aside and
    predicts by ``rule`` in every round, the other seats by the fixed rule; ``agent`` plays."""
    rounds = []
    for r, sd in enumerate(seeds):
        start = deal(players, sd, round_start=r)
        if seat is not None:
            order = (seat - r) % players
            before = tuple(start.seats[(r + k) % players].prediction or 0 for k in range(order))
            mine = (start.seats[seat].set_aside or 0, start.seats[seat].prediction)
            hand = tuple(dealt_hands(players, sd)[0][seat])
            choice = START_RULES[rule](hand, players, order, before, sd, mine)
            if choice != mine:
                start = deal(players, sd, {seat: choice}, round_start=r)
        rounds.append(play_round(start, [agent] * players, sd).scores)
    return rounds


def game_win(res: GameResult, seat: int) -> float:
    """``seat``'s share of the game's win (Sc4: a win shared by k seats counts 1/k)."""
    return 1 / len(res.winners) if seat in res.winners else 0.0


def start_speed(players: int, hands: int, seed0: int) -> dict[str, tuple[float, float]]:
    """CPU seconds per round-start decision of the player (median, max) over ``hands`` dealt
    hands, each seat place in turn: ``choose_aside``, then ``choose_prediction``."""
    times: dict[str, list[float]] = {"aside": [], "prediction": []}
    for h in range(hands):
        seed = seed0 + h
        hand = tuple(dealt_hands(players, seed)[0][0])
        order = h % players
        t = time.process_time()
        a = choose_aside(hand, players=players, order=order, seed=seed)
        times["aside"].append(time.process_time() - t)
        if players > 2:
            before = tuple(variant(players).predictions[k % 2] for k in range(order))
            t = time.process_time()
            choose_prediction(hand, a, players=players, order=order, before=before, seed=seed)
            times["prediction"].append(time.process_time() - t)
    return {k: (statistics.median(v), max(v)) for k, v in times.items() if v}


def game_duel(
    players: int, games: int, seed0: int, rule: str, play: str = "policy", progress: int = 0
) -> dict[str, object]:
    """Whole games: the round-start ``rule`` in one seat at a time for a whole game, the fixed
    rule in the others, every seat playing ``play``; against the same game (the same deals)
    with the fixed rule in that seat too. Per game, averaged over the seats: the paired
    difference of that seat's win (Sc4; a shared win counts 1/k) and of its total."""
    agent = AGENTS[play]
    win_d: list[float] = []
    tot_d: list[float] = []
    wins = wins_base = 0.0
    totals: list[float] = []
    totals_base: list[float] = []
    t0 = time.perf_counter()
    for g in range(games):
        seeds = [(seed0 + g) * 16 + r for r in range(players)]
        ref = game_result(game_rounds(players, seeds, agent, None, rule))
        per_w, per_t = [], []
        for c in range(players):
            res = game_result(game_rounds(players, seeds, agent, c, rule))
            w, wb = game_win(res, c), game_win(ref, c)
            per_w.append(w - wb)
            per_t.append(float(res.totals[c] - ref.totals[c]))
            wins, wins_base = wins + w, wins_base + wb
            totals.append(res.totals[c])
            totals_base.append(ref.totals[c])
        win_d.append(sum(per_w) / players)
        tot_d.append(sum(per_t) / players)
        if progress and (g + 1) % progress == 0 and g + 1 < games:
            print(
                f"    ... {players}p {g + 1} games: win share diff {fmt(mean(win_d))}", flush=True
            )
    n = games * players
    return {
        "players": players,
        "games": games,
        "rule": rule,
        "play": play,
        "win_share": proportion(wins, n),
        "win_share_base": proportion(wins_base, n),
        "win_diff": mean(win_d),
        "total_diff": mean(tot_d),
        "mean_total": mean(totals),
        "mean_total_base": mean(totals_base),
        "seconds": time.perf_counter() - t0,
    }


def print_game(r: dict[str, object]) -> None:
    e = {k: v for k, v in r.items() if isinstance(v, Estimate)}
    print(
        f"  {r['players']}p  {r['rule']:>10} in one seat vs the fixed rule, {r['games']} games "
        f"(play: {r['play']}): win share {rate(e['win_share'])} vs {rate(e['win_share_base'])} "
        f"(1/{r['players']} = {100 / int(r['players']):.0f}%; paired diff "  # type: ignore[call-overload]
        f"{fmt(e['win_diff'], pct=True)} points); mean total {fmt(e['mean_total'])} vs "
        f"{fmt(e['mean_total_base'])} (paired diff {fmt(e['total_diff'])})",
        flush=True,
    )


@dataclass
class Outcome:
    scores: list[int]
    paradox: int | None
    hits: list[bool]
    times: dict[int, list[float]] = field(default_factory=dict)  # tricks left -> decision times
    # per seat, a miss of its prediction without causing the paradox: "short", "cut" (short in a
    # round another seat's paradox ended, X3) or "over"; None otherwise (and at 2 players)
    miss: list[str | None] = field(default_factory=list)
    tricks: list[int] = field(default_factory=list)  # per seat, tricks won
    preds: list[int | None] = field(default_factory=list)  # per seat, the prediction


def miss_of(pos: Position, s: int) -> str | None:
    """How seat ``s`` missed its prediction in the finished ``pos`` without causing the
    paradox (Outcome.miss)."""
    pred = pos.seats[s].prediction
    if pos.players == 2 or pred is None or pos.paradox == s:
        return None
    t = pos.seats[s].tricks
    if t == pred:
        return None
    if t > pred:
        return "over"
    return "cut" if pos.paradox is not None else "short"


def play_round(
    start: Position, agents: list[Agent], seed: int, timed: int | None = None
) -> Outcome:
    pos = start
    times: dict[int, list[float]] = {}
    while not pos.finished:
        seat = pos.to_play
        assert seat is not None
        t = time.process_time()  # CPU seconds: the machine may be shared
        play = agents[seat](pos, seed)
        if seat == timed:
            times.setdefault(pos.tricks_left, []).append(time.process_time() - t)
        pos = pos.play(play)
    scores, hits = [], []
    for s in range(pos.players):
        sc = seat_score(pos, s)
        assert sc is not None
        scores.append(sc)
        t = pos.seats[s].tricks
        ok = t <= 4 if pos.players == 2 else t == pos.seats[s].prediction
        hits.append(ok and pos.paradox != s)
    return Outcome(
        scores,
        pos.paradox,
        hits,
        times,
        [miss_of(pos, s) for s in range(pos.players)],
        [seat.tricks for seat in pos.seats],
        [seat.prediction for seat in pos.seats],
    )


def fmt(e: Estimate, pct: bool = False) -> str:
    k = 100.0 if pct else 1.0
    lo, hi = e.ci95
    return f"{k * e.value:+6.2f} [{k * lo:+6.2f}, {k * hi:+6.2f}]"


def rate(e: Estimate) -> str:
    lo, hi = e.ci95
    return f"{100 * e.value:5.1f}% [{100 * lo:4.1f}, {100 * hi:4.1f}]"


def duel(
    players: int,
    name: str,
    base: str,
    deals: int,
    seed0: int,
    progress: int = 0,
    self_play: bool = True,
    pred_shift: int = 0,
    pred_rule: str | None = None,
) -> dict[str, object]:
    """Duplicate rounds: ``name`` in one seat at a time against ``base`` everywhere else (and,
    with ``self_play``, ``name`` in every seat against ``base`` in every seat). ``pred_shift``
    moves the contestant's seat's prediction by that many allowed values (clamped; the
    reference round keeps the fixed rule's): the contestant's play with another prediction.
    ``pred_rule`` (a round-start rule of :data:`START_RULES`) makes the contestant's seat's
    set-aside card and prediction, the predictions before it known (S3); the reference round
    keeps the fixed rule's."""
    a, b = AGENTS[name], AGENTS[base]
    tally = Tally()
    self_d: list[float] = []  # self-play: paradox rounds, contestant minus baseline, per seat
    self_open: list[float] = []  # the same over the deals the cards do not doom (I1/I2)
    times: dict[int, list[float]] = {}
    t0 = time.perf_counter()
    for d in range(deals):
        seed = seed0 + d
        start = deal(players, seed)
        ref = play_round(start, [b] * players, seed)
        for r in range(players):
            seats = [b] * players
            seats[r] = a
            start_r = start
            if pred_shift and players > 2:
                allowed = variant(players).predictions
                k = allowed.index(start.seats[r].prediction or allowed[0]) + pred_shift
                shifted = allowed[max(0, min(len(allowed) - 1, k))]
                start_r = deal(players, seed, {r: (start.seats[r].set_aside or 0, shifted)})
            elif pred_rule and players > 2:
                start_r = deal(players, seed, {r: _rule_choice(pred_rule, start, seed, r)})
            out = play_round(start_r, seats, seed, timed=r)
            for k, v in out.times.items():
                times.setdefault(k, []).extend(v)
            tally.add(out, ref, r)
        tally.end_deal()
        if self_play:
            mine = play_round(start, [a] * players, seed)
            self_d.append(((mine.paradox is not None) - (ref.paradox is not None)) / players)
            if not doomed(Sim.of(start)):
                self_open.append(self_d[-1])
        if progress and (d + 1) % progress == 0 and d + 1 < deals:
            print(
                f"    ... {d + 1} deals: score diff {fmt(mean(tally.diffs))}, paradox diff "
                f"{fmt(mean(tally.para_diffs), pct=True)}, self-play paradox diff "
                f"{fmt(mean(self_d), pct=True) if self_d else '-'}",
                file=sys.stderr,
                flush=True,
            )
    n = deals * players
    res = {
        "players": players,
        "contestant": name,
        "baseline": base,
        "deals": deals,
        **tally.summary(n),
        "self_paradox_diff": mean(self_d) if self_d else None,
        "self_paradox_diff_open": mean(self_open) if self_open else None,
        "open_deals": len(self_open),
        "seconds": time.perf_counter() - t0,
        "times": {k: (statistics.median(v), max(v), len(v)) for k, v in sorted(times.items())},
        "rows": tally.rows,
    }
    return res


def _rule_choice(rule: str, start: Position, seed: int, r: int) -> Choice:
    """Seat ``r``'s (set-aside card, prediction) by the round-start ``rule`` in the round
    ``start`` of ``seed`` (the fixed rule's), the predictions before it known (S3)."""
    players = start.players
    order = (r - start.round_start) % players
    before = tuple(
        start.seats[(start.round_start + k) % players].prediction or 0 for k in range(order)
    )
    mine = (start.seats[r].set_aside or 0, start.seats[r].prediction)
    hand = tuple(dealt_hands(players, seed)[0][r])
    return START_RULES[rule](hand, players, order, before, seed, mine)


def selfplay(players: int, names: list[str], base: str, deals: int, seed0: int) -> None:
    """Every seat ``name`` vs every seat ``base``, on the same deals: paradoxes per 100
    seat-rounds (contestant minus baseline, paired) and the mean seat score."""
    b = AGENTS[base]
    rows: dict[str, list[float]] = {n: [] for n in names}
    scores: dict[str, list[float]] = {n: [] for n in names}
    t0 = time.perf_counter()
    for d in range(deals):
        seed = seed0 + d
        start = deal(players, seed)
        ref = play_round(start, [b] * players, seed)
        for n in names:
            out = play_round(start, [AGENTS[n]] * players, seed)
            rows[n].append(((out.paradox is not None) - (ref.paradox is not None)) / players)
            scores[n].append((sum(out.scores) - sum(ref.scores)) / players)
        if (d + 1) % 10 == 0 and d + 1 < deals:
            done = ", ".join(f"{n} {fmt(mean(rows[n]), pct=True)}" for n in names)
            print(f"    ... {d + 1} deals: {done}", file=sys.stderr, flush=True)
    for n in names:
        print(
            f"  {players}p self-play {n:>12} vs {base:<7} {deals:>5} deals: paradox diff per 100 "
            f"seat-rounds {fmt(mean(rows[n]), pct=True)}; mean seat score diff "
            f"{fmt(mean(scores[n]))}  ({time.perf_counter() - t0:.0f} s)",
            flush=True,
        )


def print_duel(r: dict[str, object]) -> None:
    sd = r["score_diff"]
    assert isinstance(sd, Estimate)
    cells = [
        f"{r['players']:>2}p {r['contestant']:>7} vs {r['baseline']:<7} {r['deals']:>5}",
        fmt(sd),
        rate(r["paradox"]),  # type: ignore[arg-type]
        rate(r["paradox_base"]),  # type: ignore[arg-type]
        fmt(r["paradox_diff"], pct=True),  # type: ignore[arg-type]
        rate(r["hit"]),  # type: ignore[arg-type]
        rate(r["hit_base"]),  # type: ignore[arg-type]
    ]
    for k in ("self_paradox_diff", "self_paradox_diff_open"):
        e = r[k]
        cells.append(f"{fmt(e, pct=True) if isinstance(e, Estimate) else '-':>24}")
    print("  ".join(cells), flush=True)
    print_timing(r)


def print_timing(r: dict[str, object]) -> None:
    """The misses without an own paradox: short / cut short by another's paradox / over."""
    t = r["timing"]
    assert isinstance(t, dict)
    if t:
        sides = [
            f"{side} {t.get(f'{side}_short', 0)} short + {t.get(f'{side}_cut', 0)} cut short / "
            f"{t.get(f'{side}_over', 0)} over"
            for side in ("its", "base")
        ]
        print(f"      trick timing, misses without causing the paradox: {'; '.join(sides)}")


HEADER = (
    f"{'match':>29}  {'score diff/seat-round':>24}  {'its paradox':>20}  {'base paradox':>20}"
    f"  {'paradox diff %, paired':>24}  {'its hits':>20}  {'base hits':>20}"
    f"  {'self-play paradox diff %':>24}"
    f"  {'the same, deals not doomed':>26}"
)


def endgame_speed(players: int, positions: int) -> dict[int, tuple[float, float]]:
    """The player's decision time by tricks left (its own seat 0, the policy elsewhere)."""
    agents = [AGENTS["player"]] + [AGENTS["policy"]] * (players - 1)
    times: dict[int, list[float]] = {}
    for d in range(positions):
        out = play_round(deal(players, 90_000 + d), agents, d, timed=0)
        for k, v in out.times.items():
            times.setdefault(k, []).extend(v)
    return {k: (statistics.median(v), max(v)) for k, v in sorted(times.items())}


def policy_speed(players: int, rounds: int) -> float:
    pol = POLICIES["catbox"]
    sims = [Sim.of(deal(players, 80_000 + r)) for r in range(rounds)]
    plays = 0
    t = time.process_time()
    for r, s in enumerate(sims):
        rng = random.Random(r)
        while not s.over:
            s.play(*pol(s, rng))
            plays += 1
    return plays / (time.process_time() - t)


def to_json(x: object) -> object:
    if isinstance(x, Estimate):
        return x.to_json()
    if isinstance(x, dict):
        return {str(k): to_json(v) for k, v in x.items()}
    return x


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--deals", type=int, default=None)
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5])
    ap.add_argument("--contestant", default="player")
    ap.add_argument(
        "--baselines", nargs="*", default=["rollouts", "endgame", "policy", "follow", "random"]
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--speed", type=int, default=None, help="rounds for the endgame speed table")
    ap.add_argument("--out", type=Path, default=RESULTS / "arena.json")
    ap.add_argument("--progress", type=int, default=0, help="report every this many deals")
    ap.add_argument("--selfplay", nargs="*", default=None, help="self-play only, these agents")
    ap.add_argument(
        "--no-selfplay", action="store_true", help="the duplicate duels without the self-play round"
    )
    ap.add_argument(
        "--pred-shift", type=int, default=0, help="the contestant's prediction moved this much"
    )
    ap.add_argument(
        "--pred-rule", default=None, help="the contestant's round-start rule (of --start-rules')"
    )
    ap.add_argument("--start", type=int, default=None, help="deals for the round-start table")
    ap.add_argument(
        "--start-rules", nargs="*", default=["player"], help=f"of {', '.join(START_RULES)}"
    )
    ap.add_argument(
        "--start-only", action="store_true", help="only the round-start tables (no games)"
    )
    ap.add_argument(
        "--start-ceiling", type=int, default=0, help="deals for the round-start ceiling (only)"
    )
    ap.add_argument("--ceiling-worlds", type=int, default=150, help="worlds per set, ceiling")
    ap.add_argument("--start-plays", type=int, default=1, help="playings of each start deal")
    ap.add_argument("--games", type=int, default=None, help="whole games for the games table")
    ap.add_argument("--game-rule", default="player", help="the round-start rule in whole games")
    args, _ = ap.parse_known_args()
    deals = args.deals or (6 if args.quick else 100)
    start_deals = args.start if args.start is not None else (2 if args.quick else 20)
    if args.start_ceiling:
        print("\nRound-start ceiling: gain per seat-round over the fixed rule, judged on set B")
        for p in args.players:
            got = start_ceiling(
                p, args.start_ceiling, 9_000_000 * p + args.seed, args.ceiling_worlds
            )
            for name, e in got.items():
                print(f"  {p}p  {name:>48}: {fmt(e)} ({e.samples} seat-rounds)", flush=True)
        return 0
    if args.selfplay:
        for p in args.players:
            selfplay(p, args.selfplay, "policy", deals, 1_000_000 * p + args.seed)
        return 0
    speed_rounds = args.speed if args.speed is not None else (2 if args.quick else 10)
    res: dict[str, object] = {}
    if args.start_only:
        speed_rounds, args.baselines = 0, []
    if speed_rounds:
        print("\nPlayer's decision time by tricks left (median / max CPU seconds), and the horizon")
        for p in args.players:
            sp = endgame_speed(p, speed_rounds)
            row = "  ".join(f"{k}: {m:.3f}/{x:.3f}" for k, (m, x) in sp.items())
            print(f"  {p}p (exact from {HORIZON[p]} left)  {row}", flush=True)
            res[f"speed/{p}"] = sp
            res[f"policy_per_s/{p}"] = policy_speed(p, 20)
            print(f"      policy decisions per second: {res[f'policy_per_s/{p}']:.0f}")
    print(f"\nArena: {deals} deals per match (duplicate, every seating), seed {args.seed}")
    print(HEADER)
    for p in args.players:
        for base in args.baselines:
            seed0 = 1_000_000 * p + args.seed
            r = duel(
                p,
                args.contestant,
                base,
                deals,
                seed0,
                args.progress,
                not args.no_selfplay,
                args.pred_shift,
                args.pred_rule,
            )
            print_duel(r)
            res[f"{p}/{args.contestant}-{base}"] = r
    if start_deals:
        print(
            "\nRound start: each rule in one seat at a time vs the fixed rule (most-held number, "
            "prediction from hand strength), the others by the fixed rule; every seat then "
            "plays the policy"
        )
        for p in args.players:
            seed0 = 3_000_000 * p + args.seed
            rows = start_duel(
                p, start_deals, seed0, args.start_rules, "policy", args.progress, args.start_plays
            )
            for name, r in rows.items():
                print_start(r)
                res[f"{p}/start/{name}"] = r
    if start_deals:
        print("\nThe player's round-start decisions, CPU seconds (median / max)")
        for p in args.players:
            ssp = start_speed(p, 2 if args.quick else 10, 7_000_000 * p + args.seed)
            row = "  ".join(f"{k} {m:.2f} / {x:.2f}" for k, (m, x) in ssp.items())
            print(f"  {p}p  {row}", flush=True)
            res[f"{p}/start_speed"] = ssp
    games = args.games if args.games is not None else (1 if args.quick else 4)
    if args.start_only and args.games is None:
        games = 0  # --start-only: no games unless asked for
    if games:
        print(
            f"\nWhole games (Sc4: N rounds, the start passing left): the round-start rule "
            f"{args.game_rule!r} in one seat for a whole game, the fixed rule in the others, "
            "every seat playing the policy; paired with the same games under the fixed rule"
        )
        for p in args.players:
            r = game_duel(p, games, 5_000_000 * p + args.seed, args.game_rule, "policy", 5)
            print_game(r)
            res[f"{p}/games/{args.game_rule}"] = r
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(to_json(res), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
