"""Intervals inside their scale and right at small samples; paired differences; power."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tdd_sandbox.bench.metrics import mean_ci
from tdd_sandbox.bench.uncertainty import difference, estimate, exercises_needed, wilson


@pytest.mark.parametrize(
    ("share", "trials", "low", "high"),
    [(0.5, 2, 0.0945, 0.9055), (0.0, 10, 0.0, 0.2775), (0.8, 10, 0.4902, 0.9433)],
)
def test_wilson_gives_the_published_intervals(
    share: float, trials: int, low: float, high: float
) -> None:
    assert wilson(share, trials) == pytest.approx((low, high), abs=5e-5)


def test_two_jobs_no_longer_give_an_interval_wider_than_the_scale() -> None:
    # The board published `38% ± 489%` from two jobs: the normal interval of a mean.
    mean, half = mean_ci([0.0, 0.77])
    assert mean is not None
    assert half is not None
    assert mean + half > 1.0
    assert mean - half < 0.0
    found = estimate([0.0, 0.77], trials=2)
    assert found is not None
    assert 0.0 <= found.low < found.mean < found.high <= 1.0


def test_one_job_per_exercise_is_wilson_for_a_rate_of_jobs() -> None:
    found = estimate([1.0] * 7 + [0.0] * 5, trials=12)
    assert found is not None
    assert (found.low, found.high) == pytest.approx(wilson(7 / 12, 12))
    assert found.effective == 12


def test_cases_of_one_exercise_count_as_one_draw_when_they_move_together() -> None:
    # Ten exercises of ten cases: five passed whole and five failed whole is worth ten
    # draws, not a hundred; the same 50 cases spread evenly over every exercise is worth more.
    all_or_none = estimate([1.0] * 5 + [0.0] * 5, trials=100)
    spread = estimate([0.4, 0.6] * 5, trials=100)
    assert all_or_none is not None
    assert spread is not None
    assert all_or_none.effective <= 10
    assert all_or_none.high - all_or_none.low >= wilson(0.5, 10)[1] - wilson(0.5, 10)[0]
    assert spread.effective > 50
    assert spread.high - spread.low < all_or_none.high - all_or_none.low


def test_all_failed_is_as_sure_as_its_exercises_not_its_cases() -> None:
    found = estimate([0.0] * 4, trials=400)
    assert found is not None
    assert found.low == 0.0
    assert found.high >= wilson(0.0, 4)[1]


def test_the_clustered_interval_covers_the_truth_at_small_samples() -> None:
    # Four and eight exercises of ten cases, each exercise's own rate drawn around 30%: the
    # interval holds the true mean at least 95% of the time, as small samples need (without
    # the t adjustment: 86% and 91%).
    draw = random.Random(74)
    rounds = 1000
    for exercises in (4, 8):
        held = 0
        for _ in range(rounds):
            shares = []
            for _ in range(exercises):
                rate = draw.betavariate(1.5, 3.5)  # mean 0.3, exercises unlike each other
                shares.append(sum(draw.random() < rate for _ in range(10)) / 10)
            found = estimate(shares, trials=10 * exercises)
            assert found is not None
            held += found.holds(0.3)
        assert held / rounds >= 0.94, exercises


@given(
    st.lists(st.floats(0.0, 1.0), min_size=1, max_size=30),
    st.integers(0, 500),
)
def test_every_interval_stays_inside_the_scale(values: list[float], extra: int) -> None:
    found = estimate(values, trials=len(values) + extra)
    assert found is not None
    assert 0.0 <= found.low <= found.mean + 1e-12
    assert found.mean - 1e-12 <= found.high <= 1.0


@given(st.lists(st.tuples(st.floats(0.0, 1.0), st.floats(0.0, 1.0)), min_size=1, max_size=30))
def test_every_difference_stays_inside_its_scale(pairs: list[tuple[float, float]]) -> None:
    first, second = [a for a, _ in pairs], [b for _, b in pairs]
    found = difference(first, second, trials=10 * len(pairs))
    assert found is not None
    assert -1.0 <= found.low <= found.mean + 1e-12
    assert found.mean - 1e-12 <= found.high <= 1.0


def test_a_consistent_gap_is_told_apart_and_a_coin_flip_is_not() -> None:
    better = [0.9, 0.8, 1.0, 0.7, 0.9, 0.6, 0.8, 1.0]
    worse = [0.3, 0.5, 0.4, 0.1, 0.6, 0.2, 0.3, 0.5]
    found = difference(better, worse, trials=80)
    assert found is not None
    assert found.told_apart
    assert found.low > 0
    flipped = difference([1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], trials=4)
    assert flipped is not None
    assert not flipped.told_apart
    assert flipped.low < 0 < flipped.high


def test_identical_models_are_not_told_apart_even_at_zero_and_at_full_marks() -> None:
    for value in (0.0, 1.0, 0.5):
        found = difference([value] * 6, [value] * 6, trials=60)
        assert found is not None
        assert found.mean == 0
        assert not found.told_apart
        assert found.needed is None


def test_unpaired_values_are_refused() -> None:
    with pytest.raises(ValueError, match="paired"):
        difference([0.1, 0.2], [0.3], trials=3)


def test_exercises_needed_follows_the_power_formula() -> None:
    # A gap of 0.1 with a spread of 0.3: ((1.96 + 0.84) * 3)^2 = 70.6.
    assert exercises_needed(0.1, 0.3) == 71
    assert exercises_needed(-0.1, 0.3) == 71
    assert exercises_needed(0.0, 0.3) is None
    assert exercises_needed(0.5, 0.0) == 2
    # Few exercises: t, not z. A gap of 0.5 with a spread of 0.3 is 2.8 by the normal
    # formula; at 3 exercises t(2) = 4.30 asks for 8.1, at 4 t(3) = 3.18 for 5.4, at 5
    # t(4) = 2.78 for 4.5: five.
    assert exercises_needed(0.5, 0.3) == 5


def test_the_exercises_needed_agree_with_the_interval() -> None:
    # A gap that the interval leaves as noise at eight exercises asks for more than eight;
    # one that it tells apart asks for at most as many as it had.
    noisy = difference([0.6, 0.2, 0.9, 0.1] * 2, [0.5, 0.4, 0.6, 0.1] * 2, trials=80)
    assert noisy is not None
    assert not noisy.told_apart
    assert noisy.needed is not None
    assert noisy.needed > 8
    clear = difference([0.9, 0.8, 1.0, 0.7] * 2, [0.3, 0.5, 0.4, 0.1] * 2, trials=80)
    assert clear is not None
    assert clear.told_apart
    assert clear.needed is not None
    assert clear.needed <= 8
