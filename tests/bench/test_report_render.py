"""report.html as a person sees it: rendered in headless Chromium, a dozen models with long
names, every table within a 1280-pixel window, every chart drawn."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tdd_sandbox.bench.report import write_reports

pytestmark = pytest.mark.browser
SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "report_screenshot.py"
PROBE = """<script>
const wide = [...document.querySelectorAll('table')].filter(
  t => t.getBoundingClientRect().right > window.innerWidth).length;
const broken = [...document.images].filter(i => !i.complete || i.naturalWidth === 0).length;
const count = document.images.length;
document.body.setAttribute('data-probe', `wide=${wide} broken=${broken} images=${count}`);
</script></body>"""


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("report_screenshot", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _results() -> list[dict[str, Any]]:
    results = []
    for index in range(12):
        model = f"provider-{index}/a-long-model-name-{index}-instruct" if index % 3 else f"m{index}"
        for kata in ("fizzbuzz", "roman-numerals", "string-calculator"):
            for language in ("python", "rust"):
                results.append({
                    "id": f"{model}__{kata}__{language}__r0", "model": model, "kata": kata,
                    "language": language, "repeat": 0, "status": "completed",
                    "acceptance_pass_rate": ((index * 7 + len(kata)) % 11) / 10,
                    "edit_format": "whole", "cycles": 3, "green_commits": 2, "red_events": 3,
                    "overshoot_events": 0, "tamper_events": index % 4 == 0,
                    "tamper_by_kind": {"policy": 1} if index % 4 == 0 else {},
                    "wall_time_s": 20.0 + index, "model_time_s": 10.0, "gate_time_s": 5.0,
                    "tokens": {"tester": 1000}, "cost": {}, "rejected_attempts": 1,
                    "rejections_by_kind": {"no_new_test": 1},
                })  # fmt: skip
    return results


@pytest.fixture(scope="module")
def browser() -> ModuleType:
    script = _script()
    if not any(shutil.which(name) for name in script.BROWSERS):
        if os.environ.get("CI"):
            pytest.fail("CI must render the report: scripts/setup.sh installs chromium")
        pytest.skip("no Chromium here: bash scripts/setup.sh installs it")
    return script


def test_the_page_fits_the_window_and_every_chart_is_drawn(
    tmp_path: Path, browser: ModuleType
) -> None:
    write_reports(tmp_path, _results())
    page = tmp_path / "report.html"
    probed = tmp_path / "probed.html"
    probed.write_text(page.read_text().replace("</body>", PROBE))
    dom = browser.headless(probed, "--dump-dom", width=1280, height=900)
    found = re.search(r'data-probe="([^"]*)"', dom)
    assert found is not None, dom[-500:]
    assert found.group(1) == "wide=0 broken=0 images=2"  # pass rate and time; no cost chart


def test_the_screenshot_shows_the_page(tmp_path: Path, browser: ModuleType) -> None:
    write_reports(tmp_path, _results())
    png = browser.screenshot(tmp_path / "report.html", tmp_path / "shot.png", height=3000)
    from matplotlib import image  # here, not at the top: every worker collects this module

    pixels = image.imread(png)
    assert pixels.shape[:2] == (3000, 1280)
    inked = (pixels[..., :3].mean(axis=2) < 0.9).mean()
    assert inked > 0.03  # tables, bars and text, not a blank or error page
