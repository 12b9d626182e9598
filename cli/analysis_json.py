"""JSON shapes of analysis answers (analysis.md); more keys may be added, none renamed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from catbox.solver.cards import Play, seat_letter

if TYPE_CHECKING:
    from catbox.solver.analysis import ForcedReport, ParadoxReport, TricksReport
    from catbox.solver.answers import Witness


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
        "status": r.overall_status,
        "deal": deal_json(r.witness),
        "round_line": plays(r.round_witness.line) if r.round_witness else None,
        "round_deal": deal_json(r.round_witness),
        "guaranteed_line": plays(r.strategy_line),
        "possible_status": r.status,
        "guaranteed_status": r.forced.guaranteed_status,
        "forced": forced_json(r.forced),
    } | ({"bounds": {}} if r.overall_status == "unknown" else {})


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
