"""The bench's charts as drawn: everything written around a plot inside the picture, the
values beside the bars clear of every bar and interval, whatever the names' length."""

from __future__ import annotations

from typing import Any

import pytest

from tdd_sandbox.bench.charts import figures


def _models(count: int, long_names: bool) -> list[dict[str, Any]]:
    models = []
    for index in range(count):
        rate = (index * 7 % 11) / 10
        name = f"provider-{index}/a-long-model-name-{index}-instruct" if long_names else f"m{index}"
        models.append({
            "model": name, "rank": index + 1, "acceptance_pass_rate": rate,
            "acceptance_pass_rate_low": max(0.0, rate - 0.2),
            "acceptance_pass_rate_high": min(1.0, rate + 0.2),
            "cost_total": 0.01 * (index + 1), "wall_time_mean_s": 10.0 + index,
        })  # fmt: skip
    return models


@pytest.mark.parametrize(("count", "long_names"), [(1, False), (12, True)])
def test_what_a_chart_writes_lies_inside_it_and_clear_of_the_plot(
    count: int, long_names: bool
) -> None:
    drawn = figures(_models(count, long_names))
    assert set(drawn) == {"pass_rate", "cost_vs_pass_rate", "time_vs_pass_rate"}
    for key, figure in drawn.items():
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        axes = figure.axes[0]
        drawn_at = figure.get_tightbbox(renderer)  # inches, of what was drawn
        width, height = figure.get_size_inches()
        assert drawn_at.x0 >= 0, key
        assert drawn_at.y0 >= 0, key
        assert drawn_at.x1 <= width, key
        assert drawn_at.y1 <= height, key
        legend = axes.get_legend()
        if legend is not None:
            assert legend.get_window_extent(renderer).y1 < axes.bbox.y0, key  # under the plot
        for value in axes.texts:  # beside the bars, right of the plot
            assert value.get_window_extent(renderer).x0 > axes.bbox.x1, key
