"""The README is a front page and the rest of the documentation is in docs/: every relative
link names a file that exists, every page is in the site's navigation, and the site builds."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _relative_links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    return [
        link.split("#")[0]
        for link in _LINK.findall(text)
        if not re.match(r"[a-z]+:", link) and not link.startswith("#")
    ]


def test_every_relative_link_names_a_file_that_exists() -> None:
    broken = [
        f"{page.relative_to(ROOT)}: {link}"
        for page in PAGES
        for link in _relative_links(page)
        if not (page.parent / link).exists()
    ]
    assert broken == []


def test_the_readme_is_a_front_page() -> None:
    # It was 75 KB, and a newcomer could not find the settings or what the commands mean.
    assert len((ROOT / "README.md").read_bytes()) <= 15_000
    linked = set(_relative_links(ROOT / "README.md"))
    assert {f"docs/{page.name}" for page in PAGES[1:] if page.name != "index.md"} <= linked


def test_every_page_is_in_the_navigation_and_the_site_builds(tmp_path: Path) -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    listed = {page for entry in config["nav"] for page in entry.values()}
    assert listed == {page.name for page in PAGES[1:]}
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-2000:]
