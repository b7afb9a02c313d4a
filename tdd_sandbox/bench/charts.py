"""The bench's charts (PNG), drawn to be read at a glance: one horizontal bar per model with
its confidence interval and value written on it; scatter plots whose points are told apart by
a legend rather than labels that pile up; no chart of a figure nobody recorded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHART_TITLES = {
    "pass_rate": "Acceptance by model (mean over exercises, 95% interval)",
    "cost_vs_pass_rate": "Cost against pass rate",
    "time_vs_pass_rate": "Wall time against pass rate",
}
SCATTERS = {
    "cost_vs_pass_rate": ("cost_total", "total cost"),
    "time_vs_pass_rate": ("wall_time_mean_s", "mean wall time per job (s)"),
}
MARKERS = "osD^v<>Ph*X"


def clear_charts(folder: Path) -> None:
    """Remove the charts in `folder`, which a report that draws none (or fewer) must not
    leave from an earlier one."""
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*.png"):
        stale.unlink()


def charts(models: list[dict[str, Any]], folder: Path) -> dict[str, bytes]:
    """The charts worth drawing for `models` (in rank order) as PNG bytes, also written to
    `folder`. A scatter whose x figure is zero for every model (cost where no endpoint has a
    price) is left out: an axis of nothing misleads."""
    clear_charts(folder)
    made: dict[str, bytes] = {}
    if not models:
        return made
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    figures = {"pass_rate": _bars(plt, models)}
    for key, (field, label) in SCATTERS.items():
        if any(float(m.get(field) or 0.0) > 0 for m in models):
            figures[key] = _scatter(plt, models, field, label)
    for key, figure in figures.items():
        figure.axes[0].set_title(CHART_TITLES[key], loc="left", fontsize=11)
        figure.tight_layout()
        path = folder / f"{key}.png"
        figure.savefig(path, format="png", metadata={"Software": None})
        plt.close(figure)
        made[key] = path.read_bytes()
    return made


def _bars(plt: Any, models: list[dict[str, Any]]) -> Any:
    names = [m["model"] for m in models]
    rates = [(m["acceptance_pass_rate"] or 0.0) * 100 for m in models]
    # The interval is Wilson's, not symmetric about the rate: drawn from its own ends.
    lows = [(m.get("acceptance_pass_rate_low") or 0.0) * 100 for m in models]
    highs = [(m.get("acceptance_pass_rate_high") or 0.0) * 100 for m in models]
    errors = [
        [max(0.0, rate - low) for rate, low in zip(rates, lows, strict=True)],
        [max(0.0, high - rate) for rate, high in zip(rates, highs, strict=True)],
    ]
    figure, axes = plt.subplots(figsize=(8, 1.2 + 0.45 * len(models)), dpi=100)
    positions = list(range(len(models)))
    axes.barh(positions, rates, xerr=errors, capsize=4, color="#4c72b0", height=0.6)
    for y, rate, low, high, model in zip(positions, rates, lows, highs, models, strict=True):
        shown = (
            "-" if model["acceptance_pass_rate"] is None
            else f"{rate:.0f}% ({low:.0f}-{high:.0f}%), rank {model['rank']}"
        )  # fmt: skip
        axes.text(max(rate, high) + 1.5, y, shown, va="center", fontsize=9)
    axes.set_yticks(positions, names)
    axes.invert_yaxis()  # rank 1 on top
    axes.set_xlim(0, 135)
    axes.set_xticks(range(0, 101, 20))
    axes.set_xlabel("acceptance pass rate (%)")
    axes.grid(axis="x", alpha=0.3)
    return figure


def _scatter(plt: Any, models: list[dict[str, Any]], field: str, label: str) -> Any:
    columns = 3 if max(len(m["model"]) for m in models) <= 24 else 2
    legend_rows = -(-len(models) // columns)
    figure, axes = plt.subplots(figsize=(9, 4.5 + 0.25 * legend_rows), dpi=100)
    colours = plt.get_cmap("tab10")
    for index, model in enumerate(models):
        axes.scatter(
            float(model.get(field) or 0.0), (model["acceptance_pass_rate"] or 0.0) * 100,
            s=60, marker=MARKERS[index % len(MARKERS)], color=colours(index % 10),
            label=model["model"], alpha=0.85,
        )  # fmt: skip
    axes.set_ylim(-5, 105)
    axes.set_xlabel(label)
    axes.set_ylabel("acceptance pass rate (%)")
    axes.grid(alpha=0.3)
    # A legend under the plot names every point, however close the points lie, and leaves
    # the plot its full width whatever the names' length.
    axes.legend(
        loc="upper center", bbox_to_anchor=(0.5, -0.14), ncols=columns, fontsize=8,
        frameon=False,
    )  # fmt: skip
    return figure
