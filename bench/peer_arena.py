"""catbox's whole player against the bots of the public OpenSpiel Cat in the Box game
(github.com/cschubiner/quantum_-cat_openspiel) at 3, 4 and 5 players, played in that game's
engine, every seat making its own round-start decisions.

Nothing of the peer's is part of catbox: pass its checkout with ``--peer PATH`` (or the
environment variable ``CATBOX_PEER``) and run this script with a Python that has
``open_spiel==1.5`` from PyPI and catbox importable (a separate virtualenv; never a catbox
dependency). Without them the script says so and exits 0.

How a round is held:

* The cards are dealt from a seed (bench/arena.py's ``dealt_hands``) and written into the
  peer's state after its deal, the peer's player 0 being the round start player (S3: the
  set-aside and the predictions go round from it; the peer's player p is catbox's seat
  ``start + p``).
* Every seat decides its own set-aside card and prediction in the peer's phases, in turn from
  the round start player: catbox's seats with ``choose_aside`` / ``choose_prediction`` (knowing
  the predictions before them); the peer's heuristic bots with their own discard rule and the
  peer's shared bidding rule, its ISMCTS by its own search. The peer offers predictions 1-4
  at every count; the rules allow 1, 3, 4 at 3 players and 1, 2, 3 at 4 and 5 (S3): a bot's
  choice outside them is moved to the nearest allowed one (a tie to the lower,
  ``peer_tables.nearest_legal``), played so in both engines and counted in the table.
* Every play is made in both engines; catbox's rules engine (``Position``) is the referee and
  the legal plays of both are asserted equal at every step, and the scores at the end. Its red
  counts as broken only after an off-lead red play, while the rules break it once any token is
  on the red row (L3a), so its flag is set when a token is.
* Single rounds (``--mode round``): every deal is played in every seating of catbox's seats
  (``--seats``; default 2 of 4, 1 of 3, 1 of 5: ``peer_tables.seatings``); the table
  (``peer_tables.round_table``) gives the paired difference per seat-round with its 95%
  interval, paradoxes caused, hits, trick timing, the mapped predictions and CPU seconds per
  decision. Whole games (``--mode game``, 4 players): 4 rounds, the start passing left (Sc4),
  catbox at A and C then at B and D, totals and the winner by ``scoring.game_result``.
* Peer bots: ``heuristic_safe14`` (its default heuristic), ``ismcts`` (ISMCTS with the
  trick-following evaluator), ``ismcts2`` (with the adjacency-aware ``TrickFollowingEvaluatorV2``
  of the peer's play-against-humans scripts), ``--sims`` simulations (default 500).

    CATBOX_PEER=/tmp/peer /tmp/peer-venv/bin/python bench/peer_arena.py --players 3 \\
        --deals 50 --seed 0 --rows /tmp/peer-3p.jsonl
    ... bench/peer_arena.py --tables /tmp/peer-3p.jsonl   # the table over every stored row
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import random
import sys
import time
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.arena import AGENTS, dealt_hands, miss_of  # noqa: E402
from bench.peer_tables import (  # noqa: E402
    GAME_HEAD,
    GAMES_VERSUS_HEAD,
    ROUND_HEAD,
    VERSUS_HEAD,
    game_table,
    markdown_row,
    nearest_legal,
    print_game,
    print_games_versus,
    print_round,
    print_versus,
    read_rows,
    round_table,
    seatings,
    versus_games,
    versus_line,
    versus_table,
)
from catbox.solver.cards import Colour, Play, variant  # noqa: E402
from catbox.solver.estimates.opening import fixed_prediction, most_held  # noqa: E402
from catbox.solver.player import choose_aside, choose_prediction  # noqa: E402
from catbox.solver.position import Position  # noqa: E402
from catbox.solver.scoring import seat_score  # noqa: E402

PARADOX_ACTION = 999
PREDICT_OFFSET = 100
DEAL_BASE = 5_000_000  # round deals: DEAL_BASE + deal (the 4-player deals of earlier runs)
GAME_BASE = 7_000_000  # game g, round r: GAME_BASE + 10 * g + r
SEATS = {3: 1, 4: 2, 5: 1}  # catbox's seats per round by default
Peer = tuple[Any, Any, Any, Any]
Bot = Callable[[Any, int], int]


def load_peer(path: Path) -> Peer:
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


def dealt_state(game: Any, dealt: Sequence[Sequence[int]], start: int, np: Any) -> Any:
    """The peer's state after its deal (phase 1, the set-aside), its player p holding the
    dealt hand of catbox's seat ``start + p``."""
    st = game.new_initial_state()
    players = len(dealt)
    for p in range(players):
        hand = np.zeros(st._num_card_types, dtype=int)
        for c in dealt[(start + p) % players]:
            hand[c - 1] += 1
        st._hands[p] = hand
    st._cards_dealt = st._total_cards
    st._phase = 1
    st._current_player = 0
    return st


def make_bot(name: str, seed: int, peer: Peer, sims: int, players: int) -> Bot:
    pyspiel, _, ai, mcts = peer
    np = importlib.import_module("numpy")
    if name in ("ismcts", "ismcts2"):
        ism = importlib.import_module("open_spiel.python.algorithms.ismcts")
        game = pyspiel.load_game("python_quantum_cat", {"players": players})
        ev_class = mcts.TrickFollowingEvaluator
        if name == "ismcts2":  # its adjacency-aware evaluator, as its scripts against humans
            ev_class = mcts.TrickFollowingEvaluatorV2
        ev = ev_class(n_rollouts=2, random_state=np.random.RandomState(seed))
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
        return lambda state, player: int(bot.step(state))
    hb = ai.make_bot(name, seed=seed)
    return lambda state, player: int(hb.step(state, player))


def _took(times: list[list[Any]], side: str, kind: str | int, t0: float) -> None:
    """Record the CPU seconds (the machine is shared) since ``t0`` of one decision."""
    times.append([side, kind, round(time.process_time() - t0, 4)])


# ``--start-rule fixed``: catbox's seats open each round by the shared fixed rule (a copy of the
# most-held number set aside, the prediction from the hand's strength) instead of the player's
# choose_aside / choose_prediction, to measure what the player's own round start wins at a real
# table (paired with the player's rows by ``--tables ... --against``)
FIXED_START = False


def round_start(
    st: Any, dealt: Sequence[tuple[int, ...]], start: int, mine: Sequence[int], bot: Bot,
    seed: int, times: list[list[Any]],
) -> tuple[list[int], list[int], list[list[int]]]:  # fmt: skip
    """Every seat's set-aside card and prediction, made in the peer's phases 1 and 2 in turn
    from the round start player: (set-aside cards, predictions, mapped predictions) by seat."""
    players = len(dealt)
    allowed = variant(players).predictions
    asides = [0] * players
    preds = [0] * players
    mapped: list[list[int]] = []
    while st._phase == 1:
        p = st.current_player()
        seat = (start + p) % players
        t0 = time.process_time()
        if seat in mine and FIXED_START:
            action = most_held(dealt[seat], random.Random(f"fixed/{seed}/{seat}")) - 1
        elif seat in mine:
            action = choose_aside(dealt[seat], players=players, order=p, seed=seed) - 1
        else:
            action = bot(st, p)
        _took(times, "catbox" if seat in mine else "peer", "aside", t0)
        assert action in st.legal_actions(p)
        asides[seat] = action + 1
        st.apply_action(action)
    while st._phase == 2:
        p = st.current_player()
        seat = (start + p) % players
        before = tuple(preds[(start + k) % players] for k in range(p))
        t0 = time.process_time()
        if seat in mine and FIXED_START:
            pred = fixed_prediction(dealt[seat], asides[seat], players)
            _took(times, "catbox", "prediction", t0)
        elif seat in mine:
            pred = choose_prediction(dealt[seat], asides[seat], players=players, order=p,
                                     before=before, seed=seed)  # fmt: skip
            _took(times, "catbox", "prediction", t0)
        else:
            chose = bot(st, p) - PREDICT_OFFSET
            _took(times, "peer", "prediction", t0)
            pred = nearest_legal(chose, allowed)
            if pred != chose:
                mapped.append([seat, chose, pred])
        assert pred in allowed
        preds[seat] = pred
        st.apply_action(PREDICT_OFFSET + pred)
    assert st._phase == 3 and st.current_player() == 0
    return asides, preds, mapped


def play_round(
    peer: Peer, players: int, dealt: Sequence[tuple[int, ...]], start: int,
    mine: Sequence[int], bot_name: str, seed: int, sims: int, contestant: str = "player",
) -> dict[str, Any]:  # fmt: skip
    """One round of the dealt hands, started by seat ``start``, catbox in the seats ``mine``
    and the peer's bot in the others, every seat deciding its own round start: the seating's
    row (``peer_tables``)."""
    pyspiel = peer[0]
    np = importlib.import_module("numpy")
    np.random.seed(seed)  # the peer's sampler draws from numpy's global stream
    game = pyspiel.load_game("python_quantum_cat", {"players": players})
    bot = make_bot(bot_name, seed, peer, sims, players)
    times: list[list[Any]] = []
    st = dealt_state(game, dealt, start, np)
    asides, preds, mapped = round_start(st, dealt, start, mine, bot, seed, times)
    hands = []
    for s in range(players):
        rest = list(dealt[s])
        rest.remove(asides[s])
        hands.append(tuple(rest))
    pos = Position.start(
        players, list(hands), round_start=start, predictions=list(preds), set_aside=list(asides)
    ).settle()
    n = pos.max_number
    agent = AGENTS[contestant]
    while not pos.finished:
        seat = pos.to_play
        assert seat is not None
        p = (seat - start) % players
        assert st.current_player() == p
        ours = sorted(action_of(x, n) for x in pos.legal_plays())
        assert sorted(st.legal_actions(p)) == ours, (pos, st)
        t0 = time.process_time()
        play = agent(pos, seed) if seat in mine else play_of(bot(st, p), n)
        _took(times, "catbox" if seat in mine else "peer", pos.tricks_left, t0)
        st.apply_action(action_of(play, n))
        if (st._board_ownership[0] >= 0).any():
            st._trump_broken = True  # L3a: red is broken once a token is on its row
        pos = pos.play(play)
    if pos.paradox is not None and not st.is_terminal():
        p = (pos.paradox - start) % players
        assert st.legal_actions(p) == [PARADOX_ACTION]
        st.apply_action(PARADOX_ACTION)
    assert st.is_terminal()
    scores = [seat_score(pos, s) or 0 for s in range(players)]
    theirs = st.returns()
    assert [round(theirs[(s - start) % players]) for s in range(players)] == scores
    hits = [pos.paradox != s and pos.seats[s].tricks == pos.seats[s].prediction
            for s in range(players)]  # fmt: skip
    return {
        "mine": list(mine),
        "start": start,
        "scores": scores,
        "paradox": pos.paradox,
        "hits": hits,
        "miss": [miss_of(pos, s) for s in range(players)],
        "asides": asides,
        "preds": preds,
        "mapped": mapped,
        "times": times,
    }


def play_deal(peer: Peer, args: argparse.Namespace, d: int) -> dict[str, Any]:
    """Every seating of deal ``d``: its round row."""
    seed = DEAL_BASE + d
    dealt = [tuple(h) for h in dealt_hands(args.players, seed)[0]]
    rows = [
        play_round(peer, args.players, dealt, 0, mine, args.bot, seed, args.sims, args.contestant)
        for mine in seatings(args.players, args.seats)
    ]
    return {"mode": "round", "players": args.players, "bot": _bot_key(args), "deal": d,
            "seatings": rows, **_variant(args)}  # fmt: skip


def _variant(args: argparse.Namespace) -> dict[str, Any]:
    """A row's note of an experiment's settings (``--start-rule fixed``, ``--hazard``); none for
    the player as it is."""
    got: dict[str, Any] = {}
    if getattr(args, "start_rule", "player") != "player":
        got["start_rule"] = args.start_rule
    if getattr(args, "hazard", None) is not None:
        got["hazard"] = args.hazard
    return {"catbox": got} if got else {}


def play_game(peer: Peer, args: argparse.Namespace, g: int) -> dict[str, Any]:
    """Game ``g`` in both seatings (catbox at A and C, then at B and D): its game row."""
    players = args.players
    out = []
    for mine in seatings(players, args.seats):
        rounds, paradoxes, hits = [], [], []
        for r in range(players):  # Sc4: as many rounds as players, the start passing left
            seed = GAME_BASE + 10 * g + r
            dealt = [tuple(h) for h in dealt_hands(players, seed)[0]]
            row = play_round(peer, players, dealt, r % players, mine, args.bot, seed, args.sims,
                             args.contestant)  # fmt: skip
            rounds.append(row["scores"])
            paradoxes.append(row["paradox"])
            hits.append(row["hits"])
        out.append({"mine": list(mine), "rounds": rounds, "paradoxes": paradoxes, "hits": hits})
    return {"mode": "game", "players": players, "bot": _bot_key(args), "game": g,
            "seatings": out, **_variant(args)}  # fmt: skip


def _bot_key(args: argparse.Namespace) -> str:
    base = args.bot if args.bot.startswith("heuristic") else f"{args.bot}/{args.sims}"
    return base if args.contestant == "player" else f"{base}/vs-{args.contestant}"


def stored(paths: Sequence[Path], mode: str, players: int | None, bot: str | None) -> list[Any]:
    """The rows in ``paths`` of one table, the last row of each deal (or game) kept."""
    return _one_table([r for path in paths for r in read_rows(path)], mode, players, bot)


def _one_table(every: Sequence[Any], mode: str, players: int | None, bot: str | None) -> list[Any]:
    """The rows of one table among ``every`` (in the order read), the last of each deal kept."""
    rows: dict[tuple[Any, ...], Any] = {}
    for r in every:
        if r.get("mode") != mode or (players and r["players"] != players):
            continue
        if bot and r["bot"] != bot:
            continue
        rows[(r["players"], r["bot"], r.get("deal", r.get("game")))] = r
    return [rows[k] for k in sorted(rows)]


def next_deal(path: Path, mode: str, players: int, bot: str) -> int:
    """The deal (or game) after the last one ``path`` holds for a table: where a run resumes."""
    done = [r.get("deal", r.get("game", -1)) for r in stored([path], mode, players, None)
            if r["bot"].split("/")[0] == bot]  # fmt: skip
    return 1 + max(done, default=-1)


def print_markdown(paths: Sequence[Path]) -> None:
    """bench/README.md's tables of stored rows, a line per file (``--tables ... --markdown``)."""
    files = [(p.name.split(".")[0], read_rows(p)) for p in paths]
    for mode, head in (("round", ROUND_HEAD), ("game", GAME_HEAD)):
        lines = [markdown_row(n, rs) for n, rs in files if rs and rs[0]["mode"] == mode]
        if lines:
            print(head, *lines, "", sep="\n")


def print_tables(paths: Sequence[Path]) -> None:
    """Every table the rows in ``paths`` hold."""
    by_note: dict[str, list[Any]] = {}  # the player's rows apart from each experiment's
    for path in paths:
        for r in read_rows(path):
            by_note.setdefault(json.dumps(r.get("catbox"), sort_keys=True), []).append(r)
    for note, these in sorted(by_note.items()):
        tag = "" if note == "null" else f" (experiment: {note})"
        for mode, players, bot in sorted({(r["mode"], r["players"], r["bot"]) for r in these}):
            rows = _one_table(these, mode, players, bot)
            if mode == "round":
                print_round(f"{players}p single rounds vs {bot}{tag}", round_table(rows))
            else:
                print_game(f"{players}p whole games vs {bot}{tag}", game_table(rows))


def print_against(paths: Sequence[Path], others: Sequence[Path], markdown: bool = False) -> None:
    """Every table of ``paths`` paired deal by deal (game by game) with the same table in
    ``others`` (another version of catbox against the same bot: ``--tables A --against B``);
    with ``markdown``, a line per file of ``paths`` (bench/README.md's experiments), the round
    tables' lines under one head and the games' under another."""
    base = [r for path in others for r in read_rows(path)]
    if markdown:
        files = [(path, read_rows(path)) for path in paths]
        for mode, head in (("round", VERSUS_HEAD), ("game", GAMES_VERSUS_HEAD)):
            lines = []
            for path, rows in files:
                if rows and rows[0]["mode"] == mode:
                    theirs = _one_table(base, mode, rows[0]["players"], rows[0]["bot"])
                    if theirs:  # a table the others do not hold has no line
                        lines.append(versus_line(path.name.split(".")[0], rows, theirs))
            if lines:
                print(head, *lines, "", sep="\n")
        return
    every = [r for path in paths for r in read_rows(path)]
    for mode, players, bot in sorted({(r["mode"], r["players"], r["bot"]) for r in every}):
        rows, theirs = (_one_table(rs, mode, players, bot) for rs in (every, base))
        if mode == "round":
            print_versus(f"{players}p single rounds vs {bot}, these rows less the others",
                         versus_table(rows, theirs))  # fmt: skip
        else:
            print_games_versus(f"{players}p whole games vs {bot}, these rows less the others",
                               versus_games(rows, theirs))  # fmt: skip


SUITE = (  # the tables ``make bench`` prints: (mode, players, bot, deals, deals with --quick)
    ("round", 3, "heuristic_safe14", 2, 1),
    ("round", 4, "heuristic_safe14", 2, 1),
    ("round", 5, "heuristic_safe14", 2, 1),
    ("game", 4, "heuristic_safe14", 1, 1),
    ("round", 4, "ismcts2", 1, 1),
)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--peer", type=Path, default=os.environ.get("CATBOX_PEER") or None)
    ap.add_argument("--bot", default=None, help="default heuristic_safe14")
    ap.add_argument("--contestant", default="player", choices=sorted(AGENTS))
    ap.add_argument("--players", type=int, default=None, help="3, 4 or 5")
    ap.add_argument("--seats", type=int, default=None, help="catbox's seats per round")
    ap.add_argument("--mode", choices=("round", "game"), default=None,
                    help="without --mode, --players or --bot: every table of SUITE")  # fmt: skip
    ap.add_argument("--deals", type=int, default=None, help="deals or games")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seed", type=int, default=0, help="the first deal (or game)")
    ap.add_argument("--sims", type=int, default=500)
    ap.add_argument("--rows", type=Path, default=None, help="append one JSON line per deal")
    ap.add_argument("--rows-dir", type=Path, default=os.environ.get("CATBOX_PEER_ROWS"),
                    help="the suite's rows, a file per table; tables over them all")  # fmt: skip
    ap.add_argument("--tables", type=Path, nargs="*", default=None,
                    help="print the tables of these row files, play nothing")  # fmt: skip
    ap.add_argument(
        "--against",
        type=Path,
        nargs="*",
        default=None,
        help="with --tables: another version's rows, paired deal by deal",
    )
    ap.add_argument("--markdown", action="store_true",
                    help="with --tables: a markdown line per file (bench/README.md)")  # fmt: skip
    ap.add_argument("--every", type=int, default=10, help="print every this many deals")
    ap.add_argument(
        "--hazard",
        type=float,
        default=None,
        help="catbox's playouts credit a cut-short round at this share per trick",
    )
    ap.add_argument("--start-rule", choices=("player", "fixed"), default="player",
                    help="catbox's seats' set-aside and prediction")  # fmt: skip
    args, _ = ap.parse_known_args()
    if args.start_rule == "fixed":
        global FIXED_START
        FIXED_START = True
    if args.hazard is not None:  # an experiment: the round start's and the plays' playouts
        from catbox.solver.estimates import policy

        policy.HAZARD.update(dict.fromkeys(range(2, 6), args.hazard))
    if args.tables is not None and args.against is not None:
        print_against(args.tables, args.against, args.markdown)
        return 0
    if args.tables is not None:
        (print_markdown if args.markdown else print_tables)(args.tables)
        return 0
    if not args.peer or not Path(args.peer).is_dir():
        print("peer arena skipped: pass --peer PATH (or CATBOX_PEER) to a checkout of the peer")
        return 0
    try:
        peer = load_peer(Path(args.peer))
    except Exception as exc:  # an absent or broken peer is a skip, never a failure
        print(f"peer arena skipped: cannot load the peer ({type(exc).__name__}: {exc})")
        return 0
    if args.mode or args.players or args.bot:
        mode = args.mode or "round"
        players = args.players or 4
        run(peer, _with(args, mode=mode, players=players, bot=args.bot or "heuristic_safe14"))
        return 0
    files = []
    for mode, players, bot, deals, quick in SUITE:
        one = _with(args, mode=mode, players=players, bot=bot, deals=args.deals or (
            quick if args.quick else deals))  # fmt: skip
        if args.rows_dir:
            args.rows_dir.mkdir(parents=True, exist_ok=True)
            one.rows = args.rows_dir / f"{mode}-{players}p-{bot}.jsonl"
            files.append(one.rows)
            one.seed = next_deal(one.rows, mode, players, bot)
        run(peer, one)
    if files:
        print(f"\nover every row in {args.rows_dir}:")
        print_tables(files)
    return 0


def _with(args: argparse.Namespace, **kw: Any) -> argparse.Namespace:
    return argparse.Namespace(**{**vars(args), **kw})


def run(peer: Peer, args: argparse.Namespace) -> None:
    """Play ``args.deals`` deals (or games) from ``args.seed``, printing the table as it
    grows and appending the rows to ``args.rows``."""
    if args.players not in SEATS:
        raise SystemExit("the peer arena plays 3, 4 or 5 players")
    args.seats = args.seats or SEATS[args.players]
    deals = args.deals or (1 if args.quick else 2)
    game = args.mode == "game"
    rows: list[Any] = []
    t0 = time.perf_counter()
    label = f"{args.players}p {'whole games' if game else 'single rounds'} vs {_bot_key(args)}"
    for d in range(args.seed, args.seed + deals):
        row = play_game(peer, args, d) if game else play_deal(peer, args, d)
        rows.append(row)
        if args.rows:
            with args.rows.open("a") as f:
                f.write(json.dumps(row) + "\n")
        if len(rows) % args.every == 0 or d + 1 == args.seed + deals:
            print(f"({time.perf_counter() - t0:.0f} s)", end=" ")
            if game:
                print_game(label, game_table(rows))
            else:
                print_round(label, round_table(rows))
            sys.stdout.flush()


if __name__ == "__main__":
    raise SystemExit(main())
