"""Every JSON document catbox emits, built in one place (the shapes of docs/analysis.md and
docs/formats.md); more keys may be added, none renamed. A library contract: the command line's
``--json``, the HTML review, the served board and the batch runner all emit these documents.

Two kinds of shape are assembled elsewhere and only forwarded: files
(``solver.formats.to_json_obj``, the one serialiser of positions, records and puzzles) and the
estimate reports (``Advice``/``StartAdvice``/``PlayReview.to_json`` in ``solver/estimates``:
frozen value objects whose nested estimates serialise themselves)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import Play, seat_letter
from .estimates.policy import credit_note

if TYPE_CHECKING:
    from .analysis import MoveReport, ParadoxReport, TricksReport
    from .answers import Witness
    from .batch.stats import Group
    from .estimates.advise import Advice
    from .estimates.decision import PlayDecision
    from .estimates.opening import AsideChoice, Opening
    from .estimates.review import PlayerReview
    from .estimates.start import StartAdvice
    from .forcing import ForcedReport
    from .game import Game
    from .position import Position
    from .puzzle import Goal, Puzzle
    from .puzzlecheck import PuzzleCheck
    from .review import Review
    from .scoring import GameResult, RoundScore
    from .solve import Solution


def plays(line: tuple[Play, ...] | list[Play] | None) -> list[str] | None:
    return None if line is None else [str(p) for p in line]


def deal_json(w: Witness | None) -> dict[str, list[int]] | None:
    if w is None or not w.assumes_deal:
        return None
    return {seat_letter(i): list(h) for i, h in enumerate(w.hands) if h is not None}


def forced_json(f: ForcedReport) -> dict[str, Any]:
    out: dict[str, Any] = {"status": f.status, "deals": f.deals, "nodes": f.nodes}
    if f.status == "estimate":
        out["sampled_deals"] = f.deals
        out["failure_rate_upper_95"] = f.failure_bound
    return out


def forced_answers(f: ForcedReport | None) -> dict[str, Any] | None:
    """The forced answers of analysis.md for one seat, or None when not analysed."""
    if f is None:
        return None
    out: dict[str, Any] = {
        "guaranteed": f.guaranteed,
        "forceable": list(f.forceable) if f.forceable is not None else None,
        "at_least": f.at_least,
        "at_most": f.at_most,
        "best_score": f.best_score,
        "status": f.status,
    }
    if f.status == "unknown":
        out["bounds"] = f.bounds
    return out


def paradox_json(r: ParadoxReport) -> dict[str, Any]:
    return {
        "seat": seat_letter(r.seat),
        "possible": r.possible,
        "guaranteed": r.guaranteed,
        "round_possible": r.round_possible,
        "line": plays(r.witness.line) if r.witness else None,
        "reason": r.reason,
        "status": r.status,
        "deal": deal_json(r.witness),
        "round_line": plays(r.round_witness.line) if r.round_witness else None,
        "round_deal": deal_json(r.round_witness),
        "guaranteed_line": plays(r.strategy_line),
        "possible_status": r.possible_status,
        "guaranteed_status": r.forced.guaranteed_status,
        "forced": forced_json(r.forced),
    } | ({"bounds": {}} if r.status == "unknown" else {})


def tricks_json(r: TricksReport) -> dict[str, Any]:
    f = r.forced
    out: dict[str, Any] = {
        "seat": seat_letter(r.seat),
        "possible": list(r.possible) if r.possible_status != "unknown" else None,
        "forceable": list(f.forceable) if f.forceable is not None else None,
        "at_least": f.at_least,
        "at_most": f.at_most,
        "status": r.status,
        "best_score": f.best_score,
        "guaranteed": f.guaranteed,
        "undecided": list(r.undecided),
        "lines": {str(k): plays(w.line) for k, w in sorted(r.witnesses.items())},
        "deals": {str(k): deal_json(w) for k, w in sorted(r.witnesses.items()) if w.assumes_deal},
        "possible_status": r.possible_status,
        "forced": forced_json(f),
    }
    if r.status == "unknown":
        out["bounds"] = r.bounds
    return out


def row_json(r: MoveReport) -> dict[str, Any]:
    out: dict[str, Any] = {
        "play": str(r.play),
        "possible": list(r.possible) if r.possible is not None else None,
        "forceable": list(r.forceable) if r.forceable is not None else None,
        "avoids_paradox": {"possible": r.avoid_possible, "guaranteed": r.avoid_guaranteed},
        "best_score": r.best_score,
        "status": r.status,
    }
    if r.status == "unknown":
        out["bounds"] = r.bounds
    if not r.exact_deals:
        out["sampled_deals"] = r.deals
    if r.same_as is not None:
        out["same_as"] = str(r.same_as)
    return out


def analyze_json(pos: Position, rows: list[MoveReport], status: str) -> dict[str, Any]:
    """``analyze --json``; ``best``: the plays to highlight (``analysis.best_rows``)."""
    from .analysis import best_rows

    assert pos.to_play is not None
    return {
        "to_play": seat_letter(pos.to_play),
        "moves": [row_json(r) for r in rows],
        "status": status,
        "best": [str(rows[i].play) for i in best_rows(rows)],
    }


def review_json(r: Review) -> dict[str, Any]:
    return {
        "depth": r.depth,
        "plays": [
            {
                "move": p.move,
                "seat": seat_letter(p.seat),
                "play": str(p.play),
                "analysed": p.analysed,
                "status": p.status,
                "possible_before": list(p.possible_before)
                if p.possible_before is not None
                else None,
                "possible_after": list(p.possible_after) if p.possible_after is not None else None,
                "round_possible_after": p.round_possible_after,
                "before": forced_answers(p.before),
                "after": forced_answers(p.after),
                "marks": list(p.marks),
                "grade": p.grade,
                "better": str(p.better) if p.better else None,
            }
            for p in r.plays
        ],
        "turning_points": [
            {"seat": seat_letter(t.seat) if t.seat >= 0 else None, "move": t.move, "text": t.text}
            for t in r.turning_points
        ],
        "summary": {
            seat_letter(s.seat): {
                "plays": s.plays,
                "judged": s.judged,
                "gave_up": list(s.gave_up),
            }
            for s in r.summary
        },
    }


def player_review_json(r: PlayerReview, seat: int) -> dict[str, Any]:
    return {"seat": seat_letter(seat), "view": "player", "plays": [p.to_json() for p in r.plays]}


def advice_json(a: Advice | StartAdvice) -> dict[str, Any]:
    return a.to_json()


def play_decision_json(d: PlayDecision) -> dict[str, Any]:
    """catbox's player's play with its reasons (``advise --player``): the ranked candidates
    and the estimates it ranked them by (docs/player.md)."""

    def num(x: float | None) -> float | None:
        return None if x is None else round(x, 4)

    return {
        "seat": seat_letter(d.seat),
        "play": str(d.play),
        "method": d.method,
        "level": d.level,
        "deals": num(d.deals),
        "candidates": [
            {
                "play": str(c.play),
                "value": num(c.value),
                "policy": num(c.policy),
                "avoids": num(c.avoids),
                "guaranteed": num(c.guaranteed),
            }
            for c in d.candidates
        ],
        "hazard": d.hazard,
        "value_note": credit_note(d.hazard),
        "status": "estimate" if d.method != "forced" else "proven",
    }


def opening_json(o: Opening) -> dict[str, Any]:
    """catbox's player's round-start ranking (``advise --hand --player``): every candidate
    (set-aside card, prediction) with its mean score over the playouts it got and the mean
    value it was ranked by (its score, with early ends by another seat's paradox credited:
    docs/player.md), best first."""
    rows = [
        {
            "set_aside": r.set_aside,
            "prediction": r.prediction,
            "score": r.score.to_json(),
            "value": r.value.to_json(),
            "avoid_paradox": round(r.avoid_paradox, 4),
            "dropped_in_round": r.dropped,
        }
        for r in o.rows
    ]
    return {
        "players": o.players,
        "order": o.order,
        "hand": list(o.hand),
        "predictions_before": list(o.before),
        "method": "successive halving over playouts",
        "playouts": o.playouts,
        "hazard": o.hazard,
        "value_note": credit_note(o.hazard),
        "candidates": rows,
        "best": rows[0] if rows else None,
        "status": "estimate",
        "stopped_by_time_limit": o.stopped,
    }


def aside_choice_json(c: AsideChoice) -> dict[str, Any]:
    """catbox's player's set-aside card with its reasons: the ranking (:func:`opening_json`),
    the card chosen, the best candidate setting aside a most-held number, and the check of the
    ranking's winner against it on fresh worlds (null when the winner is one)."""
    return {
        **opening_json(c.opening),
        "chosen": c.aside,
        "usual": {"set_aside": c.usual[0], "prediction": c.usual[1]},
        "check": None if c.check is None else {"score_diff": round(c.check, 4), "worlds": c.worlds},
    }


def round_json(sc: RoundScore) -> dict[str, Any]:
    return {
        "finished": sc.finished,
        "paradox": seat_letter(sc.paradox) if sc.paradox is not None else None,
        "seats": {
            seat_letter(i): {
                "tricks": s.tricks,
                "prediction": s.prediction,
                "largest_group": s.largest_group,
                "bonus": s.bonus,
                "score": s.score,
            }
            for i, s in enumerate(sc.seats)
        },
    }


def game_json(scores: list[RoundScore], game: GameResult, complete: bool) -> dict[str, Any]:
    return {
        "rounds": [round_json(sc) for sc in scores],
        "game": {
            "totals": {seat_letter(i): t for i, t in enumerate(game.totals)},
            "winners": [seat_letter(i) for i in game.winners],
            "complete": complete,
        },
    }


def game_score_json(game: Game) -> dict[str, Any]:
    """``catbox score GAME``: the same document as ``catbox score R1 R2 ...`` (Sc4)."""
    return game_json(list(game.scores()), game.result(), game.complete)


_GRADE_RANK = {"?!": 1, "?": 2, "??": 3}
COSTLIEST = 5  # the costliest plays a game review lists


def _cost(play: dict[str, Any]) -> tuple[int, float]:
    """How much a reviewed play cost: its grade first, then the score it gave up (the
    player's-view review's estimate; 0 when not estimated)."""
    change = play.get("score_change")
    return _GRADE_RANK.get(play.get("grade") or "", 0), -change if change is not None else 0.0


def game_review_json(game: Game, rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """``catbox review GAME --json``: the review document of every round (:func:`review_json`,
    or :func:`player_review_json` for a seat's own view) and the game's summary: totals and
    winners (None while a score depends on an unknown prediction), per seat its round scores,
    tricks, predictions and paradoxes caused, and the costliest plays of the game (by grade,
    then by the score given up)."""
    from .errors import CatboxError

    scores = game.scores()
    try:
        res = game.result()
        totals: dict[str, int] | None = {seat_letter(i): t for i, t in enumerate(res.totals)}
        winners: list[str] | None = [seat_letter(i) for i in res.winners]
    except CatboxError:
        totals = winners = None
    seats = {
        seat_letter(i): {
            "total": totals[seat_letter(i)] if totals is not None else None,
            "scores": [sc.seats[i].score for sc in scores],
            "tricks": [sc.seats[i].tricks for sc in scores],
            "predictions": [sc.seats[i].prediction for sc in scores],
            "paradoxes": sum(1 for sc in scores if sc.paradox == i),
        }
        for i in range(game.players)
    }
    plays = []
    for r, doc in enumerate(rounds, start=1):
        for p in doc.get("plays", []):
            seat = p.get("seat", doc.get("seat"))
            entry = {"round": r, "move": p["move"], "seat": seat, "play": p["play"]}
            entry |= {k: p[k] for k in ("grade", "marks", "score_change", "better") if k in p}
            if _cost(p) > (0, 0.0):
                plays.append(entry)
    plays.sort(key=lambda e: (_cost(e), -e["round"], -e["move"]), reverse=True)
    return {
        "rounds": rounds,
        "game": {
            "players": game.players,
            "names": list(game.names),
            "complete": game.complete,
            "totals": totals,
            "winners": winners,
            "seats": seats,
            "costliest": plays[:COSTLIEST],
        },
    }


def goal_json(goal: Goal) -> dict[str, Any]:
    return {
        "seat": seat_letter(goal.seat),
        "kind": goal.kind,
        "target": goal.target,
        "mode": goal.mode,
    }


def solution_json(sol: Solution) -> dict[str, Any]:
    return {
        "goal": goal_json(sol.goal),
        "solvable": sol.solvable,
        "value": sol.value,
        "line": plays(sol.line),
        "matches_answer": sol.matches_answer,
        "status": sol.status,
        "deal": deal_json(sol.witness),
        "note": sol.note,
        "keys": plays(sorted(sol.keys)) if sol.keys is not None else None,
        "sound": sol.sound,
        "cooked": sol.cooked,
        "checked_line": plays(sol.checked_line),
        "duals": [{"at": d.at, "plays": plays(sorted(d.plays))} for d in sol.duals],
    }


def puzzle_list_json(rows: list[tuple[str, Puzzle]]) -> list[dict[str, Any]]:
    return [
        {
            "name": n,
            "title": p.title,
            "difficulty": p.difficulty,
            "players": p.position.players,
            "goal": goal_json(p.goal),
        }
        for n, p in rows
    ]


def puzzle_json(p: Puzzle, answer: bool) -> dict[str, Any]:
    from . import formats

    obj = formats.to_json_obj(p)
    if not answer:
        obj.pop("answer", None)
    return obj


def derived(pos: Position) -> dict[str, Any]:
    """What the rules derive from a position (formats.md: derived, never stored)."""
    return {
        "to_play": seat_letter(pos.to_play) if pos.to_play is not None else None,
        "led": pos.led.name if pos.led is not None else None,
        "red_broken": pos.red_broken,
        "finished": pos.finished,
        "paradox": seat_letter(pos.paradox) if pos.paradox is not None else None,
        "tricks_left": pos.tricks_left,
    }


def position_json(pos: Position) -> dict[str, Any]:
    """A position as ``show``/``play`` print it: derived facts, the one-line string, the file."""
    from . import formats

    return {
        **derived(pos),
        "line": formats.position_to_line(pos),
        "position": formats.to_json_obj(pos),
    }


def replay_json(
    rec_moves: int, positions: list[Position], tricks: list[dict[str, Any]]
) -> dict[str, Any]:
    return {"moves": rec_moves, "at": len(positions) - 1, "tricks": tricks} | position_json(
        positions[-1]
    )


def game_replay_json(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """``catbox replay GAME --json``: one :func:`replay_json` document per round."""
    return {"rounds": rounds}


def moves_json(pos: Position, legal: list[Play], illegal: list[tuple[Play, str]]) -> dict[str, Any]:
    assert pos.to_play is not None
    return {
        "to_play": seat_letter(pos.to_play),
        "led": pos.led.name if pos.led is not None else None,
        "red_broken": pos.red_broken,
        "legal": [str(p) for p in legal],
        "illegal": [{"play": str(p), "rule": r} for p, r in illegal],
    }


def puzzle_check_json(name: str, c: PuzzleCheck) -> dict[str, Any]:
    """One puzzle's check (``catbox puzzles check --json``): the verdict, every key, the grade
    with its reasons, and each problem (``error`` ones make the puzzle unsound)."""
    g = c.grade
    return {
        "name": name,
        "title": c.puzzle.title,
        "sound": c.sound,
        "solution": solution_json(c.solution),
        "legal": plays(c.legal),
        "keys": plays(sorted(c.keys)) if c.keys is not None else None,
        "natural": str(c.natural) if c.natural is not None else None,
        "plausible_failing": plays(c.plausible_failing),
        "effort_nodes": c.effort,
        "grade": None
        if g is None
        else {
            "difficulty": g.difficulty,
            "level": g.level,
            "reasons": [{"reason": r, "points": p} for r, p in g.reasons],
        },
        "stated_difficulty": c.puzzle.difficulty,
        "problems": [
            {"severity": p.severity, "code": p.code, "message": p.message} for p in c.problems
        ],
        "seconds": round(c.seconds, 3),
    }


def play_json(play: Play) -> dict[str, Any]:
    """catbox's play for the seat to play (the board's ``play`` job)."""
    return {"play": str(play)}


def puzzle_checks_json(rows: list[tuple[str, PuzzleCheck]]) -> dict[str, Any]:
    """``catbox puzzles check --json``: every puzzle's check and the totals."""
    return {
        "puzzles": [puzzle_check_json(n, c) for n, c in rows],
        "checked": len(rows),
        "unsound": [n for n, c in rows if not c.sound],
    }


def batch_stats_json(groups: list[Group]) -> dict[str, Any]:
    """``catbox stats --json``: the first group is every row, then one per player count."""

    def one(g: Group) -> dict[str, Any]:
        return {
            "players": g.players,
            "rows": g.rows,
            "status": g.by_status,
            "shares": {
                s.name: {
                    "yes": s.yes,
                    "n": s.n,
                    "share": round(s.yes / s.n, 4) if s.n else None,
                    "ci95": [round(s.ci95[0], 4), round(s.ci95[1], 4)],
                }
                for s in g.shares
            },
            "numbers": {
                n.name: {
                    "n": n.n,
                    "mean": round(n.mean, 4),
                    "min": n.quartiles[0],
                    "q1": n.quartiles[1],
                    "median": n.quartiles[2],
                    "q3": n.quartiles[3],
                    "max": n.quartiles[4],
                }
                for n in g.numbers
            },
            "values": g.values,
        }

    return {"all": one(groups[0]), "by_players": {str(g.players): one(g) for g in groups[1:]}}
