"""The peer arena's pure parts (bench/peer_arena.py): the seatings of a deal, the mapping of
the peer's predictions onto the rules' allowed values (S3), and the tables read back from the
rows a run appends (one JSON object per deal or per game), so runs over deal ranges can be
split, resumed and summed. Nothing here needs the peer or numpy.

A **round row** is ``{"mode": "round", "players", "bot", "deal", "seatings": [...]}``, each
seating ``{"mine": [catbox's seats], "start", "scores", "paradox", "hits", "miss", "asides",
"preds", "mapped": [[seat, the bot's prediction, the one played], ...], "times": [[side, kind,
CPU seconds], ...]}`` (side ``"catbox"`` or ``"peer"``, kind ``"aside"``, ``"prediction"`` or the
tricks left at a play). A **game row** is ``{"mode": "game", "players", "bot", "game",
"seatings": [{"mine", "rounds": [scores of round 1, ...], "paradoxes": [...], "hits": [...]}]}``.
A row played by an experiment says so: ``"catbox": {"start_rule": "fixed", "hazard": 0.1}``.
"""

from __future__ import annotations

import gzip
import json
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from catbox.solver.estimates.stats import Estimate, mean, proportion
from catbox.solver.scoring import game_result

Row = dict[str, Any]


def read_rows(path: Path) -> list[Row]:
    """The rows a run appended to ``path`` (``.jsonl``, or ``.jsonl.gz`` as the stored rows in
    bench/peer-rows are kept); an absent file holds none."""
    if not path.exists():
        return []
    text = gzip.decompress(path.read_bytes()).decode() if path.suffix == ".gz" else path.read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def seatings(players: int, seats: int) -> list[tuple[int, ...]]:
    """catbox's seats in every distinct rotation of ``seats`` seats spread evenly round the
    table: 4 players, 2 seats: (A, C) and (B, D); 3 players, 1 seat: A, B and C in turn; 5
    players, 2 seats: (A, C), (B, D), (C, E), (A, D), (B, E). Over the rotations every seat is
    catbox's equally often."""
    if not 1 <= seats < players:
        raise ValueError(f"catbox needs 1 to {players - 1} seats of {players}")
    pattern = [round(i * players / seats) for i in range(seats)]
    out: list[tuple[int, ...]] = []
    for r in range(players):
        s = tuple(sorted((p + r) % players for p in pattern))
        if s not in out:
            out.append(s)
    return out


def nearest_legal(chosen: int, allowed: Sequence[int]) -> int:
    """The allowed prediction (S3) nearest the peer's ``chosen`` one (it offers 1-4 at every
    count); a tie goes to the lower, as the peer's own ``shared_prediction_action`` breaks it
    when its legal set is narrowed (3 players: 2 -> 1; 4 and 5 players: 4 -> 3)."""
    if not allowed:
        raise ValueError("no prediction is allowed (2 players, S3)")
    return min(sorted(allowed), key=lambda a: (abs(a - chosen), a))


def _avg(xs: Iterable[float]) -> float:
    v = list(xs)
    return sum(v) / len(v)


def round_table(rows: Sequence[Row]) -> dict[str, Any]:
    """The single-round table over ``rows``: per deal, catbox's mean seat score minus the
    peer's, averaged over the seatings (the paired difference per seat-round) with its 95%
    interval over the deals; paradoxes caused per seat-round on each side (Wilson) and their
    paired difference per deal (catbox's rate minus the peer's); hits likewise; the trick
    timing of each side's misses; the peer's predictions moved to an allowed value; the CPU
    seconds per decision (median, max) by side and kind; the seatings by who caused the
    paradox (a catbox seat, a peer seat, none) with the paired difference in them."""
    diffs: list[float] = []
    para_d: list[float] = []
    hit_d: list[float] = []
    n = {"catbox": 0, "peer": 0}
    para = {"catbox": 0, "peer": 0}
    hits = {"catbox": 0, "peer": 0}
    timing: Counter[str] = Counter()
    mapped: Counter[str] = Counter()
    preds = 0
    times: dict[str, list[float]] = {}
    by_cause: dict[str, list[float]] = {"catbox": [], "peer": [], "none": []}
    by_pred: dict[str, Counter[tuple[int, str]]] = {"catbox": Counter(), "peer": Counter()}
    for row in rows:
        per, pp, hh = [], [], []
        for s in row["seatings"]:
            players = len(s["scores"])
            sides = {"catbox": list(s["mine"])}
            sides["peer"] = [i for i in range(players) if i not in sides["catbox"]]
            sc = s["scores"]
            per.append(_avg(sc[i] for i in sides["catbox"]) - _avg(sc[i] for i in sides["peer"]))
            cause = next((k for k, v in sides.items() if s["paradox"] in v), "none")
            by_cause[cause].append(per[-1])
            rate = {}
            hit = {}
            for side, seats in sides.items():
                caused = int(s["paradox"] in seats)
                got = sum(bool(s["hits"][i]) for i in seats)
                n[side] += len(seats)
                para[side] += caused
                hits[side] += got
                rate[side] = caused / len(seats)
                hit[side] = got / len(seats)
                for i in seats:
                    m = s["miss"][i] if s.get("miss") else None
                    if m:
                        timing[f"{side}_{m}"] += 1
                    if s.get("preds"):
                        out = "caused" if s["paradox"] == i else m or "hit"
                        by_pred[side][s["preds"][i], out] += 1
                        by_pred[side][s["preds"][i], "score"] += sc[i]
            pp.append(rate["catbox"] - rate["peer"])
            hh.append(hit["catbox"] - hit["peer"])
            preds += len(sides["peer"])
            for _seat, chose, played in s.get("mapped", ()):
                mapped[f"{chose}->{played}"] += 1
            for side, kind, sec in s.get("times", ()):
                times.setdefault(f"{side}/{kind}", []).append(sec)
        diffs.append(_avg(per))
        para_d.append(_avg(pp))
        hit_d.append(_avg(hh))
    return {
        "deals": len(rows),
        "score_diff": mean(diffs),
        "paradox_catbox": proportion(para["catbox"], n["catbox"]),
        "paradox_peer": proportion(para["peer"], n["peer"]),
        "paradox_diff": mean(para_d),
        "hits_catbox": proportion(hits["catbox"], n["catbox"]),
        "hits_peer": proportion(hits["peer"], n["peer"]),
        "hits_diff": mean(hit_d),
        "timing": dict(sorted(timing.items())),
        "peer_predictions": preds,
        "mapped": dict(sorted(mapped.items())),
        "times": {k: (statistics.median(v), max(v), len(v)) for k, v in sorted(times.items())},
        "by_cause": {k: (len(v), _avg(v) if v else 0.0) for k, v in by_cause.items()},
        "by_prediction": {side: _by_prediction(c) for side, c in by_pred.items()},
    }


OUTCOMES = ("hit", "short", "cut", "over", "caused")


def _by_prediction(c: Counter[tuple[int, str]]) -> dict[int, dict[str, float]]:
    """Per prediction: the seat-rounds, how each ended (``OUTCOMES``: hit; missed short, cut
    short by another seat's paradox or over; caused the paradox) and the mean score."""
    out: dict[int, dict[str, float]] = {}
    for pred in sorted({p for p, _ in c}):
        n = sum(c[pred, o] for o in OUTCOMES)
        row: dict[str, float] = {"seats": n, **{o: c[pred, o] for o in OUTCOMES}}
        row["score"] = c[pred, "score"] / n if n else 0.0
        out[pred] = row
    return out


def _one_game(row: Row) -> dict[str, Any]:
    """One game row's figures over its seatings: catbox's share of the win (Sc4: the sum of its
    seats' shares, a win shared by k seats counting 1/k each), its mean seat total less the
    peer's, each side's mean totals (one per seating) and seat-rounds and paradoxes caused."""
    sh, td = [], []
    tot: dict[str, list[float]] = {"catbox": [], "peer": []}
    n = {"catbox": 0, "peer": 0}
    para = {"catbox": 0, "peer": 0}
    for s in row["seatings"]:
        res = game_result(s["rounds"])
        players = len(res.totals)
        mine = list(s["mine"])
        theirs = [i for i in range(players) if i not in mine]
        sh.append(sum(1 / len(res.winners) for i in res.winners if i in mine))
        c = _avg(res.totals[i] for i in mine)
        p = _avg(res.totals[i] for i in theirs)
        td.append(c - p)
        tot["catbox"].append(c)
        tot["peer"].append(p)
        for side, seats in (("catbox", mine), ("peer", theirs)):
            n[side] += len(seats) * len(s["rounds"])
            para[side] += sum(x in seats for x in s.get("paradoxes", ()))
    return {"share": _avg(sh), "total_diff": _avg(td), "totals": tot, "n": n, "paradoxes": para}


def game_table(rows: Sequence[Row]) -> dict[str, Any]:
    """The whole-game table over ``rows``: per game, catbox's share of the win
    (:func:`_one_game`) averaged over the seatings, with its 95% interval over the games;
    catbox's mean seat total minus the peer's, paired per game; the mean total of each side;
    paradoxes caused per seat-round."""
    games = [_one_game(row) for row in rows]
    n = {side: sum(g["n"][side] for g in games) for side in ("catbox", "peer")}
    para = {side: sum(g["paradoxes"][side] for g in games) for side in ("catbox", "peer")}
    return {
        "games": len(rows),
        "win_share": _within_unit(mean([g["share"] for g in games])),
        "total_diff": mean([g["total_diff"] for g in games]),
        "total_catbox": mean([t for g in games for t in g["totals"]["catbox"]]),
        "total_peer": mean([t for g in games for t in g["totals"]["peer"]]),
        "paradox_catbox": proportion(para["catbox"], n["catbox"]),
        "paradox_peer": proportion(para["peer"], n["peer"]),
    }


def versus_games(a: Sequence[Row], b: Sequence[Row]) -> dict[str, Any]:
    """Two runs of one game table (as :func:`versus_table`), paired on the games both hold: per
    game, ``a``'s win share less ``b``'s, its total difference (catbox less the peer) less
    ``b``'s, and catbox's paradoxes caused per seat-round likewise, each with its 95% interval
    over the games (``common``: those games, in order)."""
    wanted = {r["game"] for r in a}
    per_b = {r["game"]: _one_game(r) for r in b if r["game"] in wanted}
    mine = sorted((r for r in a if r["game"] in per_b), key=lambda r: int(r["game"]))
    if not mine:
        return {"games": 0}
    common = [r["game"] for r in mine]

    def rate(g: dict[str, Any]) -> float:
        return float(g["paradoxes"]["catbox"] / g["n"]["catbox"])

    pairs = [(_one_game(r), per_b[r["game"]]) for r in mine]
    return {
        "games": len(common),
        "common": common,
        "share": mean([x["share"] - y["share"] for x, y in pairs]),
        "total": mean([x["total_diff"] - y["total_diff"] for x, y in pairs]),
        "paradox": mean([rate(x) - rate(y) for x, y in pairs]),
    }


def versus_table(a: Sequence[Row], b: Sequence[Row]) -> dict[str, Any]:
    """Two runs of one round table, two versions of catbox (``a`` and ``b``) against the same
    bot, paired on the deals both hold: per deal, ``a``'s score difference per seat-round
    (catbox less the peer, as :func:`round_table`) less ``b``'s, and catbox's paradoxes
    caused and hits per seat-round likewise, each with its 95% interval over the deals
    (``common``: those deals, in order)."""
    wanted = {r["deal"] for r in a}
    per_b = {r["deal"]: round_table([r]) for r in b if r["deal"] in wanted}
    common: list[int] = []
    score: list[float] = []
    para: list[float] = []
    hits: list[float] = []
    for r in a:
        if r["deal"] not in per_b:
            continue
        common.append(r["deal"])
        ta, tb = round_table([r]), per_b[r["deal"]]
        score.append(ta["score_diff"].value - tb["score_diff"].value)
        para.append(ta["paradox_catbox"].value - tb["paradox_catbox"].value)
        hits.append(ta["hits_catbox"].value - tb["hits_catbox"].value)
    if not score:
        return {"deals": 0}
    return {
        "deals": len(score),
        "common": sorted(common),
        "score": mean(score),
        "paradox": mean(para),
        "hits": mean(hits),
    }


VERSUS_HEAD = (
    "| rows | deals in common | paired score difference per seat-round, these rows less the"
    " rows paired with them | catbox's paradoxes caused, paired per 100 seat-rounds | catbox's"
    " hits, paired per 100 seat-rounds |\n|---|---|---|---|---|"
)


GAMES_VERSUS_HEAD = (
    "| rows | games in common | catbox's win share, paired per game, these rows less the rows"
    " paired with them | mean total, catbox less the peer, paired per game, likewise |"
    " catbox's paradoxes caused, paired per 100 seat-rounds |\n|---|---|---|---|---|"
)


def versus_line(name: str, a: Sequence[Row], b: Sequence[Row]) -> str:
    """One line of bench/README.md's tables of experiments: the rows ``a`` (one file,
    ``name``) paired with the player's rows ``b`` of the same table (:func:`versus_table`, or
    for games :func:`versus_games` under :data:`GAMES_VERSUS_HEAD`)."""
    if a and a[0]["mode"] == "game":
        g = versus_games(a, b)
        return (
            f"| `{name}` | {g['games']} ({_span(g['common'])}) | {fmt(g['share'], True)} | "
            f"{fmt(g['total'])} | {fmt(g['paradox'], True)} |"
        )
    t = versus_table(a, b)
    return (
        f"| `{name}` | {t['deals']} ({_span(t['common'])}) | {fmt(t['score'])} | "
        f"{fmt(t['paradox'], True)} | {fmt(t['hits'], True)} |"
    )


def print_versus(label: str, t: dict[str, Any]) -> None:
    if not t["deals"]:
        print(f"{label}: no deal in common")
        return
    print(
        f"{label}: {t['deals']} deals in common; paired score difference per seat-round "
        f"{fmt(t['score'])}; catbox's paradoxes caused {fmt(t['paradox'], True)} per 100 "
        f"seat-rounds; hits {fmt(t['hits'], True)} per 100"
    )


def print_games_versus(label: str, t: dict[str, Any]) -> None:
    if not t["games"]:
        print(f"{label}: no game in common")
        return
    print(
        f"{label}: {t['games']} games in common; catbox's win share {fmt(t['share'], True)}% "
        f"paired per game; mean total difference {fmt(t['total'])}; catbox's paradoxes caused "
        f"{fmt(t['paradox'], True)} per 100 seat-rounds"
    )


def _within_unit(e: Estimate) -> Estimate:
    """A share's interval cut to [0, 1]: the t interval over few games can reach past either end,
    where no share lies."""
    lo, hi = e.ci95
    return Estimate(e.value, (max(lo, 0.0), min(hi, 1.0)), e.samples, e.exact)


def fmt(e: Estimate, pct: bool = False, sign: bool = True) -> str:
    k = 100.0 if pct else 1.0
    f = "+.1f" if pct and sign else ".1f" if pct else "+.2f" if sign else ".2f"
    return f"{k * e.value:{f}} [{k * e.ci95[0]:{f}}, {k * e.ci95[1]:{f}}]"


def print_round(label: str, t: dict[str, Any]) -> None:
    print(
        f"{label}: {t['deals']} deals; score diff/seat-round {fmt(t['score_diff'])}; "
        f"paradoxes caused {fmt(t['paradox_catbox'], True, False)}% vs "
        f"{fmt(t['paradox_peer'], True, False)}% (paired, per 100 seat-rounds: "
        f"{fmt(t['paradox_diff'], True)}); hits {100 * t['hits_catbox'].value:.1f}% vs "
        f"{100 * t['hits_peer'].value:.1f}%"
    )
    seated = sum(c for c, _ in t["by_cause"].values()) or 1
    causes = "; ".join(
        f"{k} {100 * c / seated:.0f}% ({d:+.2f})" for k, (c, d) in t["by_cause"].items()
    )
    print("  where the points come from (rounds by who caused the paradox: share, score diff "
          f"per seat-round there): {causes}")  # fmt: skip
    mapped = ", ".join(f"{k} x{v}" for k, v in t["mapped"].items()) or "none"
    print(f"  the peer's predictions moved to an allowed value: {mapped} "
          f"(of {t['peer_predictions']})")  # fmt: skip
    for side, preds in t["by_prediction"].items():
        if preds:
            print(f"  {side} by prediction (seat-rounds: hit, short, cut short, over, caused; "
                  "mean score): " + "; ".join(
                      f"{p}: {r['seats']:.0f} ({', '.join(f'{r[o]:.0f}' for o in OUTCOMES)}; "
                      f"{r['score']:.2f})" for p, r in preds.items()))  # fmt: skip
    if t["timing"]:
        print("  misses without causing the paradox: "
              + ", ".join(f"{k} {v}" for k, v in t["timing"].items()))  # fmt: skip
    if t["times"]:
        print("  CPU s per decision (median / max / n): " + "; ".join(
            f"{k} {m:.2f}/{x:.2f}/{c}" for k, (m, x, c) in _time_rows(t["times"])))  # fmt: skip


def _time_rows(times: dict[str, tuple[float, float, int]]) -> list[tuple[str, Any]]:
    """Decision times in reading order: each side's round start, then plays by tricks left
    (most first)."""

    def key(item: tuple[str, Any]) -> tuple[int, int]:
        side, kind = item[0].split("/")
        return side != "catbox", -({"aside": 100, "prediction": 99}.get(kind) or int(kind))

    return sorted(times.items(), key=key)


def print_game(label: str, t: dict[str, Any]) -> None:
    print(
        f"{label}: {t['games']} games; catbox's win share {fmt(t['win_share'], True, False)}% "
        f"(2 of 4 seats: 50% is level); mean total {t['total_catbox'].value:.2f} vs "
        f"{t['total_peer'].value:.2f} (paired {fmt(t['total_diff'])}); paradoxes caused "
        f"{fmt(t['paradox_catbox'], True, False)}% vs {fmt(t['paradox_peer'], True, False)}%"
    )


def _span(keys: Sequence[int]) -> str:
    """Deal (or game) numbers as ranges: 0-54, 200-236."""
    out: list[str] = []
    for k in sorted(keys):
        if out and int(out[-1].rsplit("-", 1)[-1]) == k - 1:
            out[-1] = f"{out[-1].split('-')[0]}-{k}"
        else:
            out.append(str(k))
    return ", ".join(out)


def _timing(t: dict[str, Any], side: str) -> str:
    m = t["timing"]
    return f"{m.get(side + '_short', 0)} + {m.get(side + '_cut', 0)} / {m.get(side + '_over', 0)}"


ROUND_HEAD = (
    "| rows | deals | paired score difference per seat-round | paradoxes caused, catbox vs the"
    " peer (paired, per 100 seat-rounds) | hits, catbox vs the peer | misses without causing the"
    " paradox, catbox; the peer: short + cut short / over |\n|---|---|---|---|---|---|"
)
GAME_HEAD = (
    "| rows | games | catbox's win share (2 of 4 seats: 50% is level) | mean total, catbox vs the"
    " peer (paired per seat and game) | paradoxes caused, catbox vs the peer |\n"
    "|---|---|---|---|---|"
)


def markdown_row(name: str, rows: Sequence[Row]) -> str:
    """One line of bench/README.md's table of the stored rows: the table over ``rows`` (one
    file, ``name``), every figure as ``--tables`` prints it."""
    if rows and rows[0]["mode"] == "game":
        g = game_table(rows)
        return (
            f"| `{name}` | {g['games']} ({_span([r['game'] for r in rows])}) | "
            f"{fmt(g['win_share'], True, False)}% | {g['total_catbox'].value:.2f} vs "
            f"{g['total_peer'].value:.2f} ({fmt(g['total_diff'])}) | "
            f"{100 * g['paradox_catbox'].value:.1f}% vs {100 * g['paradox_peer'].value:.1f}% |"
        )
    t = round_table(rows)
    return (
        f"| `{name}` | {t['deals']} ({_span([r['deal'] for r in rows])}) | "
        f"{fmt(t['score_diff'])} | "
        f"{100 * t['paradox_catbox'].value:.1f}% vs {100 * t['paradox_peer'].value:.1f}% "
        f"({fmt(t['paradox_diff'], True)}) | {100 * t['hits_catbox'].value:.1f}% vs "
        f"{100 * t['hits_peer'].value:.1f}% | {_timing(t, 'catbox')}; {_timing(t, 'peer')} |"
    )
