"""catbox's player against the bots of the public OpenSpiel Cat in the Box game
(github.com/cschubiner/quantum_-cat_openspiel), 4 players, played in that game's engine.

Nothing of the peer's is part of catbox: pass its checkout with ``--peer PATH`` (or the
environment variable ``CATBOX_PEER``) and run this script with a Python that has
``open_spiel==1.5`` from PyPI and catbox importable (a separate virtualenv; never a catbox
dependency). Without them the script says so and exits 0.

How the match is held (issue #18):

* The deals, the set-aside cards and the predictions are catbox's arena rule (bench/arena.py:
  the most-held number set aside, the prediction from the hand's strength, one rule for all),
  written into the peer's state after its deal; the peer's start player leads trick 1.
* Every play is made in both engines; catbox's rules engine (``Position``) is the referee and
  the legal plays of both are asserted equal at every step. Two differences of the peer's game
  are bridged: its red counts as broken only after an off-lead red play, while the rules break
  it once any token is on the red row (L3a), so its flag is set when a token is; and its
  predictions 1..4 are clamped to the rules' set (1..3 at 4 players) — here they are catbox's.
* Each deal is played twice: catbox at seats A and C, the peer at B and D, then swapped. The
  score difference per seat-round is catbox's mean seat score minus the peer's, averaged over
  both seatings, with a 95% interval over the deals; paradoxes caused and prediction hits per
  side (Wilson intervals).
* Peer bots: ``heuristic_safe14`` (its default heuristic), ``ismcts`` (its ISMCTS with the
  trick-following evaluator, ``--sims`` simulations, default 100).

    CATBOX_PEER=/tmp/peer /tmp/peer-venv/bin/python bench/peer_arena.py --bot heuristic_safe14
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import sys
import time
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.arena import AGENTS, deal  # noqa: E402
from catbox.solver.cards import Colour, Play  # noqa: E402
from catbox.solver.estimates.stats import mean, proportion  # noqa: E402
from catbox.solver.position import Position  # noqa: E402
from catbox.solver.scoring import seat_score  # noqa: E402

PLAYERS = 4
PARADOX_ACTION = 999


def load_peer(path: Path) -> tuple[Any, Any, Any, Any]:
    """(pyspiel, the peer's game module, its bot module, its MCTS module)."""
    pyspiel: Any = importlib.import_module("pyspiel")
    pyspiel.GameParameter = lambda v: v  # the one-line stub its game module needs
    if "tqdm" not in sys.modules:  # imported by its MCTS script for progress bars only
        stub = types.ModuleType("tqdm")
        stub.tqdm = lambda x, **_: x  # type: ignore[attr-defined]
        sys.modules["tqdm"] = stub
    games = importlib.import_module("open_spiel.python.games")
    name = "open_spiel.python.games.quantum_cat"
    spec = importlib.util.spec_from_file_location(
        name, path / "open_spiel" / "python" / "games" / "quantum_cat.py"
    )
    assert spec is not None and spec.loader is not None
    game_mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = game_mod
    spec.loader.exec_module(game_mod)
    setattr(games, "quantum_cat", game_mod)  # noqa: B010 (the peer's import path)
    sys.path.append(str(path))
    return (
        pyspiel,
        game_mod,
        importlib.import_module("quantum_cat_ai"),
        importlib.import_module("mcts_quantum_cat"),
    )


def action_of(play: Play, n: int) -> int:
    return int(play.colour) * n + play.number - 1


def play_of(action: int, n: int) -> Play:
    return Play(action % n + 1, Colour(action // n))


def peer_state(game: Any, pos: Position, np: Any) -> Any:
    """The peer's state after its deal, discards and predictions, holding ``pos``'s cards."""
    st = game.new_initial_state()
    n = pos.max_number
    for s, seat in enumerate(pos.seats):
        hand = np.zeros(n, dtype=int)
        for c in seat.hand or ():
            hand[c - 1] += 1
        st._hands[s] = hand
        st._discarded_cards[s] = seat.set_aside
        st._has_discarded[s] = True
        st._predictions[s] = seat.prediction
    st._cards_dealt = st._total_cards
    st._phase = 3
    st._start_player = pos.leader
    st._current_player = pos.leader
    return st


def make_bot(name: str, seed: int, peer: tuple[Any, Any, Any, Any], sims: int) -> Any:
    pyspiel, _, ai, mcts = peer
    np = importlib.import_module("numpy")
    if name == "ismcts":
        ism = importlib.import_module("open_spiel.python.algorithms.ismcts")
        game = pyspiel.load_game("python_quantum_cat", {"players": PLAYERS})
        ev = mcts.TrickFollowingEvaluator(n_rollouts=2, random_state=np.random.RandomState(seed))
        bot = ism.ISMCTSBot(
            game=game,
            evaluator=ev,
            uct_c=2.0,
            max_simulations=sims,
            max_world_samples=ism.UNLIMITED_NUM_WORLD_SAMPLES,
            random_state=np.random.RandomState(seed),
            final_policy_type=ism.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            use_observation_string=False,
            allow_inconsistent_action_sets=False,
            child_selection_policy=ism.ChildSelectionPolicy.PUCT,
        )
        return lambda state, player: bot.step(state)
    hb = ai.make_bot(name, seed=seed)
    return lambda state, player: hb.step(state, player)


def play_match(
    peer: tuple[Any, Any, Any, Any], bot_name: str, contestant: str, seed: int, sims: int
) -> list[tuple[list[int], int | None, list[bool], tuple[int, ...]]]:
    """Both seatings of one deal: (scores, paradox seat, hits, catbox's seats) each."""
    pyspiel = peer[0]
    np = importlib.import_module("numpy")
    game = pyspiel.load_game("python_quantum_cat", {"players": PLAYERS})
    start = deal(PLAYERS, seed)
    start = Position.start(
        PLAYERS,
        [s.hand for s in start.seats],
        round_start=0,  # the peer's start player leads trick 1
        predictions=[s.prediction for s in start.seats],
        set_aside=[s.set_aside for s in start.seats],
    ).settle()
    n = start.max_number
    agent = AGENTS[contestant]
    out: list[tuple[list[int], int | None, list[bool], tuple[int, ...]]] = []
    for mine in ((0, 2), (1, 3)):
        np.random.seed(seed)  # the peer's sampler draws from numpy's global stream
        bot = make_bot(bot_name, seed, peer, sims)
        st = peer_state(game, start, np)
        pos = start
        while not pos.finished:
            p = pos.to_play
            assert p is not None and st.current_player() == p
            ours = sorted(action_of(x, n) for x in pos.legal_plays())
            assert sorted(st.legal_actions(p)) == ours, (pos, st)
            play = agent(pos, seed) if p in mine else play_of(int(bot(st, p)), n)
            st.apply_action(action_of(play, n))
            if (st._board_ownership[0] >= 0).any():
                st._trump_broken = True  # L3a: red is broken once a token is on its row
            pos = pos.play(play)
        if pos.paradox is not None and not st.is_terminal():
            assert st.legal_actions(pos.paradox) == [PARADOX_ACTION]
            st.apply_action(PARADOX_ACTION)
        assert st.is_terminal()
        scores = [seat_score(pos, s) or 0 for s in range(PLAYERS)]
        assert [round(x) for x in st.returns()] == scores, (st.returns(), scores)
        hits = [
            pos.paradox != s and pos.seats[s].tricks == pos.seats[s].prediction
            for s in range(PLAYERS)
        ]
        out.append((scores, pos.paradox, hits, mine))
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--peer", type=Path, default=os.environ.get("CATBOX_PEER"))
    ap.add_argument("--bot", default="heuristic_safe14")
    ap.add_argument("--contestant", default="player", choices=sorted(AGENTS))
    ap.add_argument("--deals", type=int, default=None, help="default 100 (2 with --quick)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sims", type=int, default=100)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--rows", type=Path, default=None, help="append one JSON line per deal")
    ap.add_argument("--every", type=int, default=10, help="print (and write) every this many deals")
    args, _ = ap.parse_known_args()
    args.deals = args.deals or (2 if args.quick else 100)
    if not args.peer or not Path(args.peer).is_dir():
        print("peer arena skipped: pass --peer PATH (or CATBOX_PEER) to a checkout of the peer")
        return 0
    try:
        peer = load_peer(Path(args.peer))
    except Exception as exc:  # an absent or broken peer is a skip, never a failure
        print(f"peer arena skipped: cannot load the peer ({type(exc).__name__}: {exc})")
        return 0
    diffs: list[float] = []
    para = {"catbox": 0, "peer": 0}
    hits = {"catbox": 0, "peer": 0}
    t0 = time.perf_counter()
    for d in range(args.deals):
        per = []
        rounds = play_match(peer, args.bot, args.contestant, 5_000_000 + args.seed + d, args.sims)
        for scores, paradox, hit, mine in rounds:
            theirs = [s for s in range(PLAYERS) if s not in mine]
            per.append(
                sum(scores[s] for s in mine) / len(mine)
                - sum(scores[s] for s in theirs) / len(theirs)
            )
            para["catbox"] += paradox in mine
            para["peer"] += paradox in theirs
            hits["catbox"] += sum(hit[s] for s in mine)
            hits["peer"] += sum(hit[s] for s in theirs)
        diffs.append(sum(per) / len(per))
        if args.rows:
            with args.rows.open("a") as f:
                f.write(json.dumps({"deal": args.seed + d, "diff": diffs[-1], "rounds": rounds}))
                f.write("\n")
        if (d + 1) % args.every == 0 or d + 1 == args.deals:
            k = d + 1
            seats = 2 * 2 * k  # seat-rounds per side
            e = mean(diffs)
            pc, pp = proportion(para["catbox"], seats), proportion(para["peer"], seats)
            hc, hp = proportion(hits["catbox"], seats), proportion(hits["peer"], seats)
            print(
                f"{args.contestant} vs {args.bot}: {k} deals, score diff/seat-round "
                f"{e.value:+.3f} [{e.ci95[0]:+.3f}, {e.ci95[1]:+.3f}]; paradox caused "
                f"{100 * pc.value:.1f}% vs {100 * pp.value:.1f}%; hits {100 * hc.value:.1f}% vs "
                f"{100 * hp.value:.1f}%  ({time.perf_counter() - t0:.0f} s)",
                flush=True,
            )
            if args.out:
                args.out.write_text(
                    json.dumps(
                        {
                            "bot": args.bot,
                            "contestant": args.contestant,
                            "deals": k,
                            "score_diff": e.to_json(),
                            "paradox_catbox": pc.to_json(),
                            "paradox_peer": pp.to_json(),
                            "hits_catbox": hc.to_json(),
                            "hits_peer": hp.to_json(),
                        },
                        indent=2,
                    )
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
