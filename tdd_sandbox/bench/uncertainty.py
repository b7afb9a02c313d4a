"""How sure a figure is: intervals that stay inside their scale, at small samples too.

One method for every rate a report shows ("Adding Error Bars to Evals", Miller 2024, asks for
clustered errors and paired differences; Wilson's score interval keeps them inside the scale,
where the normal interval of a mean gave `38% ± 489%` from two jobs):

- The unit is the exercise. Its repeats, and its cases, are not independent draws: a model that
  fails one case of an exercise tends to fail its neighbours. So a figure is the mean of one
  value in [0, 1] per exercise (its share of cases passed, or of jobs solved).
- The interval is Wilson's at the *effective* sample size (Kish's design effect): the number of
  independent trials that the spread of the per-exercise values is worth, from the number of
  exercises up to the trials behind them, shrunk for a spread estimated from few exercises
  (Korn and Graubard). With one job per exercise and a pass/fail value that is exactly
  Wilson's interval for a rate of jobs.
- A paired difference of two models on the same exercises is one value in [-1, 1] per exercise,
  shifted onto [0, 1] and given the same interval: it never leaves [-100%, 100%].
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""
Z_POWER = 0.8416212335729143
"""The normal quantile of 80% power, the usual target of a study's size."""
# Two-sided 95% Student t quantiles by degrees of freedom; past 30 the normal's.
_T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]  # fmt: skip


def t95(freedom: int) -> float:
    """The two-sided 95% quantile of Student's t with `freedom` degrees of freedom."""
    return _T95[freedom - 1] if 1 <= freedom <= len(_T95) else Z95


@dataclass(frozen=True)
class Estimate:
    """A mean over exercises and its 95% interval, all on the mean's own scale."""

    mean: float
    low: float
    high: float
    exercises: int
    effective: float
    """The independent trials the data are worth (Kish): between `exercises` and the trials,
    before the adjustment for a spread known from few exercises."""

    def holds(self, value: float) -> bool:
        """Whether `value` lies inside the interval."""
        return self.low <= value <= self.high


def wilson(share: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a `share` observed over `trials` (which may be an effective,
    fractional count): always inside [0, 1], and right at small samples where the normal
    interval is not.

    Raises:
        ValueError: no trials, or a share outside [0, 1].
    """
    if trials <= 0 or not 0.0 <= share <= 1.0:
        raise ValueError(f"a share of {share} over {trials} trials has no interval")
    z2 = z * z
    centre = (share + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(share * (1 - share) / trials + z2 / (4 * trials**2))
    return max(0.0, centre - half), min(1.0, centre + half)


def estimate(values: Sequence[float], trials: int) -> Estimate | None:
    """The mean of one value in [0, 1] per exercise, with its interval; `trials` is how many
    pass/fail trials stand behind all the values (cases, or jobs), the most the data can be
    worth. None with no exercise.

    Raises:
        ValueError: a value outside [0, 1], or fewer trials than exercises.
    """
    if not values:
        return None
    if any(not 0.0 <= v <= 1.0 for v in values) or trials < len(values):
        raise ValueError(f"{len(values)} values in [0, 1] over {trials} trials, they are not")
    exercises = len(values)
    mean = statistics.fmean(values)
    # The variance of the mean with the exercises as independent units. No n-1: with pass/fail
    # values it is the binomial p(1-p)/n, so that one job per exercise gives Wilson exactly.
    spread = sum((v - mean) ** 2 for v in values) / exercises**2
    # All passed or all failed: nothing tells it from every exercise being all-or-none, one
    # pass/fail draw each, whose spread is the binomial's, known from the mean.
    pass_fail = trials == exercises and all(v in (0.0, 1.0) for v in values)
    binomial = pass_fail or mean in (0.0, 1.0)
    if exercises == 1:
        effective = 1.0  # how one exercise differs from the next is not known from one
    elif mean * (1 - mean) >= spread * trials:
        # Every exercise alike (or near enough): as sure as its trials allow.
        effective = float(exercises) if binomial else float(trials)
    else:
        effective = mean * (1 - mean) / spread
    effective = min(max(effective, float(exercises)), float(trials))
    shrunk = effective
    if exercises > 1 and not binomial:
        # The spread was estimated from the exercises alone: as sure as Student's t with that
        # many degrees of freedom allows (Korn and Graubard's adjustment; without it, eight
        # exercises held the truth 91% of the time, not 95%). Binomial data need none.
        shrunk *= (Z95 / t95(exercises - 1)) ** 2
    low, high = wilson(mean, shrunk)
    return Estimate(mean, low, high, exercises, effective)


@dataclass(frozen=True)
class Difference:
    """One model's mean less another's over the exercises both ran, with its 95% interval."""

    mean: float
    low: float
    high: float
    exercises: int
    needed: int | None
    """About how many exercises would tell the two apart at this difference (80% power);
    None where no difference was seen."""

    @property
    def told_apart(self) -> bool:
        """Whether the interval leaves out 0: only then is one model ahead of the other."""
        return self.low > 0 or self.high < 0


def difference(first: Sequence[float], second: Sequence[float], trials: int) -> Difference | None:
    """The paired difference `first - second`, the i-th value of each from the same exercise;
    `trials` as in `estimate`, for the pairs. None with no shared exercise.

    Raises:
        ValueError: the two are not paired (of different lengths).
    """
    if len(first) != len(second):
        raise ValueError(f"{len(first)} values paired with {len(second)}")
    gaps = [a - b for a, b in zip(first, second, strict=True)]
    shifted = estimate([(gap + 1) / 2 for gap in gaps], trials)
    if shifted is None:
        return None
    mean = statistics.fmean(gaps)
    # The spread of one exercise's gap that the interval stands on, back on the gap's scale
    # (twice the shifted one): the power figure then agrees with the interval it predicts.
    spread = 2 * math.sqrt(shifted.mean * (1 - shifted.mean) * len(gaps) / shifted.effective)
    return Difference(
        mean, 2 * shifted.low - 1, 2 * shifted.high - 1, len(gaps), exercises_needed(mean, spread)
    )


def exercises_needed(gap: float, spread: float) -> int | None:
    """About how many exercises a paired comparison needs to tell a mean `gap` from none,
    95% two-sided at 80% power, where one exercise's gap has standard deviation `spread`:
    the least n with n >= ((t(n-1) + z_power) * spread / gap)^2, Student's t as the interval
    takes it at n exercises. None where the gap is 0 or too small for any bench (over a
    million exercises)."""
    if gap == 0 or (Z95 + Z_POWER) * spread / abs(gap) > 1000:
        return None
    # t is at least z, so the normal answer is where to start; past 30 degrees of freedom
    # t is z, and the normal answer stands.
    needed = max(2, math.ceil(((Z95 + Z_POWER) * spread / gap) ** 2))
    while needed <= len(_T95) and needed < ((t95(needed - 1) + Z_POWER) * spread / gap) ** 2:
        needed += 1
    return needed
