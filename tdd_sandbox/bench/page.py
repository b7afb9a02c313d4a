"""report.html: one self-contained page (no file or network beside it) with every table of
leaderboard.md and the charts."""

from __future__ import annotations

import base64
import html

from tdd_sandbox.bench.charts import CHART_TITLES
from tdd_sandbox.bench.tables import Table, html_table
from tdd_sandbox.vocabulary.printable import escape_controls

_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em 1em;color:#222}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.6em}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-size:0.85em}
th,td{border:1px solid #ccc;padding:3px 6px}
td{white-space:nowrap}
td.name{white-space:normal;overflow-wrap:anywhere;min-width:8em;max-width:22em}
th{background:#f3f3f3;vertical-align:bottom;font-weight:600}
.num{text-align:right;font-variant-numeric:tabular-nums}
figure{margin:1.2em 0}img{max-width:100%;height:auto;border:1px solid #eee}
figcaption,.note{color:#555;font-size:0.9em}
"""


def html_page(tables: list[Table], images: dict[str, bytes], *, jobs: int, notes: list[str]) -> str:
    """The page: a heading, every table, the charts inlined, and notes (such as a chart
    left out and why)."""
    figures = "".join(
        f'<figure><img alt="{html.escape(CHART_TITLES[key])}" '
        f'src="data:image/png;base64,{base64.b64encode(data).decode()}">'
        f"<figcaption>{html.escape(CHART_TITLES[key])}</figcaption></figure>"
        for key, data in images.items()
    )
    remarks = "".join(f"<p class='note'>{html.escape(escape_controls(note))}</p>" for note in notes)
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>tdd-sandbox bench</title><style>{_STYLE}</style></head><body>"
        f"<h1>tdd-sandbox bench</h1><p class='note'>{jobs} jobs. Acceptance is the share of "
        "the hidden acceptance cases a job's final code passes; jobs lost to infrastructure "
        "or interrupted are not scored.</p>"
        + "".join(html_table(table) for table in tables)
        + f"<h2>Charts</h2>{figures}{remarks}</body></html>\n"
    )
