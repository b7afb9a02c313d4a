"""The bench's charts (PNG), drawn to be read at a glance: one horizontal bar per model with
its confidence interval, its value written beside the plot; scatter plots whose points are
told apart by a legend rather than labels that pile up; no chart of a figure nobody
recorded."""

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
PAD_IN = 0.1
"""The blank edge left around what a chart writes outside its plot (inches)."""
GAP_PT = 6
"""Between the plot's right edge and the values written beside the bars (points)."""


def clear_charts(folder: Path) -> None:
    """Remove the charts in `folder`, which a report that draws none (or fewer) must not
    leave from an earlier one."""
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*.png"):
        stale.unlink()


def charts(models: list[dict[str, Any]], folder: Path) -> dict[str, bytes]:
    """The charts worth drawing for `models` (in rank order) as PNG bytes, also written to
    `folder`."""
    clear_charts(folder)
    made: dict[str, bytes] = {}
    for key, figure in figures(models).items():
        path = folder / f"{key}.png"
        figure.savefig(path, format="png", metadata={"Software": None})
        _pyplot().close(figure)
        made[key] = path.read_bytes()
    return made


def figures(models: list[dict[str, Any]]) -> dict[str, Any]:
    """The charts worth drawing for `models` (in rank order), titled and laid out, each a
    matplotlib figure. A scatter whose x figure is zero for every model (cost where no
    endpoint has a price) is left out: an axis of nothing misleads."""
    if not models:
        return {}
    plt = _pyplot()
    drawn = {"pass_rate": _bars(plt, models)}
    for key, (field, label) in SCATTERS.items():
        if any(float(m.get(field) or 0.0) > 0 for m in models):
            drawn[key] = _scatter(plt, models, field, label)
    for key, figure in drawn.items():
        _fit(figure, CHART_TITLES[key])
    return drawn


def _pyplot() -> Any:
    # Imported on first use: matplotlib takes half a second to load, and only reports draw.
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    return pyplot


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
        # In a column right of the plot, where no bar or interval can run into it.
        axes.annotate(
            shown, (1, y), xycoords=axes.get_yaxis_transform(), xytext=(GAP_PT, 0),
            textcoords="offset points", va="center", fontsize=9,
        )  # fmt: skip
    axes.set_yticks(positions, names)
    axes.invert_yaxis()  # rank 1 on top
    axes.set_xlim(0, 100)
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
        loc="lower center", bbox_to_anchor=(0.5, PAD_IN / figure.get_figheight()),
        bbox_transform=figure.transFigure, ncols=columns, fontsize=8, frameon=False,
    )  # fmt: skip
    return figure


def _fit(figure: Any, title: str) -> None:
    """Title the plot and set its margins to hold what is written around it: tick labels,
    axis labels, title, legend and the values beside the bars, each measured alone.
    (`tight_layout` measures every artist of the figure and took a quarter of a chart's
    drawing time.)"""
    axes = figure.axes[0]
    heading = axes.set_title(title, loc="left", fontsize=11)
    renderer = figure.canvas.get_renderer()
    dpi = float(figure.dpi)

    def inches(artists: list[Any], side: int) -> float:
        """The widest (side 0) or tallest (side 1) of `artists` with any text, in inches."""
        shown = [a for a in artists if a.get_visible() and a.get_text()]
        extents = [a.get_window_extent(renderer).size[side] for a in shown]
        return float(max(extents, default=0.0)) / dpi

    tick = (axes.yaxis.get_tick_padding() + axes.yaxis.majorTicks[0].get_pad()) / 72
    label = axes.xaxis.labelpad / 72
    left = inches(axes.get_yticklabels(), 0) + tick + inches([axes.yaxis.label], 0) + label
    bottom = inches(axes.get_xticklabels(), 1) + tick + inches([axes.xaxis.label], 1) + label
    legend = axes.get_legend()
    if legend is not None:
        bottom += legend.get_window_extent(renderer).height / dpi + PAD_IN
    top = inches([heading], 1) + axes.titleOffsetTrans.get_matrix()[1, 2] / dpi
    right = inches(axes.texts, 0) + GAP_PT / 72 if axes.texts else 0.0
    width, height = figure.get_size_inches()
    figure.subplots_adjust(
        left=(left + PAD_IN) / width, right=1 - (right + PAD_IN) / width,
        bottom=(bottom + PAD_IN) / height, top=1 - (top + PAD_IN) / height,
    )  # fmt: skip
