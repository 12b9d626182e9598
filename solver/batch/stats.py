"""``catbox stats``: the aggregates of a batch output's rows — every row, then one group per
player count — below :mod:`..shapes`, which writes them as JSON."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["MAX_VALUES", "ROW_FIELDS", "Group", "Share", "Spread", "summarize"]

#: Row fields that are not answers (never summarised as yes/no or numbers).
ROW_FIELDS = ("id", "index", "players", "status", "error")
MAX_VALUES = 8  # a text field with more distinct values (a line, a reason) is not counted


@dataclass(frozen=True, slots=True)
class Share:
    """A yes/no field: ``yes`` of ``n`` rows that answer it, with a Wilson 95% interval."""

    name: str
    yes: int
    n: int
    ci95: tuple[float, float]


@dataclass(frozen=True, slots=True)
class Spread:
    """A number field over ``n`` rows: mean, min, quartiles, max."""

    name: str
    n: int
    mean: float
    quartiles: tuple[float, float, float, float, float]  # min, q1, median, q3, max


@dataclass(frozen=True, slots=True)
class Group:
    """The rows of one player count (``players`` None: every row)."""

    players: int | None
    rows: int
    by_status: dict[str, int]
    shares: tuple[Share, ...]
    numbers: tuple[Spread, ...]
    values: dict[str, dict[str, int]]  # text fields with few distinct values: their counts


def _quantile(sorted_values: list[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default)."""
    pos = q * (len(sorted_values) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def _group(players: int | None, rows: list[dict[str, Any]]) -> Group:
    from ..estimates.stats import wilson

    status: dict[str, int] = {}
    flags: dict[str, list[bool]] = {}
    numbers: dict[str, list[float]] = {}
    texts: dict[str, dict[str, int]] = {}
    for r in rows:
        status[str(r.get("status"))] = status.get(str(r.get("status")), 0) + 1
        for k, v in r.items():
            if k in ROW_FIELDS or v is None:
                continue
            if isinstance(v, bool):
                flags.setdefault(k, []).append(v)
            elif isinstance(v, int | float):
                numbers.setdefault(k, []).append(float(v))
            elif isinstance(v, str):
                counts = texts.setdefault(k, {})
                counts[v] = counts.get(v, 0) + 1
    shares = tuple(
        Share(k, sum(v), len(v), wilson(sum(v), len(v))) for k, v in sorted(flags.items())
    )
    spreads = []
    for k, v in sorted(numbers.items()):
        v.sort()
        qs = tuple(_quantile(v, q) for q in (0.0, 0.25, 0.5, 0.75, 1.0))
        spreads.append(Spread(k, len(v), sum(v) / len(v), qs))  # type: ignore[arg-type]
    values = {
        k: dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))
        for k, c in sorted(texts.items())
        if len(c) <= MAX_VALUES
    }
    return Group(players, len(rows), dict(sorted(status.items())), shares, tuple(spreads), values)


def summarize(rows: list[dict[str, Any]]) -> list[Group]:
    """The aggregates of ``catbox stats``: every row, then one group per player count. A
    yes/no field (a JSON boolean at the top of a row) is a share with its Wilson 95% interval
    over the rows that answer it (null: not counted); a number field is its distribution; a
    text field with at most :data:`MAX_VALUES` distinct values (a status, a seat) its counts."""
    by_players: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        p = r.get("players")
        if isinstance(p, int):
            by_players.setdefault(p, []).append(r)
    return [_group(None, rows)] + [_group(p, rs) for p, rs in sorted(by_players.items())]
