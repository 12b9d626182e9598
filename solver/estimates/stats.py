"""Estimates with 95% intervals (analysis.md: ``{"value", "ci95", "samples"}``).

Proportions use the Wilson score interval; means use Student's t (normal beyond 30 samples).
A weighted exact answer (every consistent deal enumerated and solved) has a zero-width interval.

>>> e = proportion(45, 50)
>>> e.value, e.samples, e.ci95[0] < 0.9 < e.ci95[1]
(0.9, 50, True)
>>> m = mean([1.0, 2.0, 3.0])
>>> m.value, round(m.ci95[0], 3), round(m.ci95[1], 3)
(2.0, -0.484, 4.484)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt

__all__ = ["Estimate", "exact", "mean", "proportion", "wilson"]

Z95 = 1.959963984540054
# two-sided 95% Student t quantiles for 1..30 degrees of freedom
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Estimate:
    """A value with its 95% interval over ``samples`` samples; ``exact`` when every consistent
    deal was weighed and solved (then the interval is the value itself)."""

    value: float
    ci95: tuple[float, float]
    samples: int
    exact: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "value": round(self.value, 4),
            "ci95": [_finite(self.ci95[0]), _finite(self.ci95[1])],
            "samples": self.samples,
        }

    def separated_from(self, other: Estimate) -> bool:
        """The two intervals do not overlap."""
        return self.ci95[0] > other.ci95[1] or other.ci95[0] > self.ci95[1]


def _finite(x: float) -> float | None:
    """JSON has no infinity: an unbounded end (one sample) is null."""
    return round(x, 4) if abs(x) != float("inf") else None


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def proportion(successes: float, n: int) -> Estimate:
    return Estimate(successes / n if n else 0.0, wilson(successes, n), n)


def mean(values: Sequence[float]) -> Estimate:
    n = len(values)
    if n == 0:
        return Estimate(0.0, (float("-inf"), float("inf")), 0)
    m = sum(values) / n
    if n == 1:
        return Estimate(m, (float("-inf"), float("inf")), 1)
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    q = _T95[n - 2] if n - 1 <= len(_T95) else Z95
    half = q * sqrt(var / n)
    return Estimate(m, (m - half, m + half), n)


def exact(values: Sequence[float], weights: Sequence[int]) -> Estimate:
    """The weighted mean over every consistent deal: exact, zero-width interval."""
    total = sum(weights)
    v = sum(x * w for x, w in zip(values, weights, strict=True)) / total
    return Estimate(v, (v, v), len(values), exact=True)
