"""Render a bench's report.html in headless Chromium and save what a person would see.

    python scripts/report_screenshot.py BENCH_OUT [--width 1280] [--height 2400]

Writes BENCH_OUT/report.png. `scripts/setup.sh` installs Debian's `chromium`. The page is
self-contained and Chromium runs with networking pointed nowhere, so rendering fetches
nothing.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def find_browser() -> str:
    """The first headless-capable Chromium on PATH.

    Raises:
        FileNotFoundError: none is installed.
    """
    for name in BROWSERS:
        if found := shutil.which(name):
            return found
    raise FileNotFoundError("no Chromium on PATH: run `bash scripts/setup.sh` (apt chromium)")


def headless(page: Path, *args: str, width: int = 1280, height: int = 2400) -> str:
    """Run headless Chromium on `page` with `args` (`--screenshot=F`, `--dump-dom`);
    returns what it printed."""
    with tempfile.TemporaryDirectory(prefix="tdd-report-") as profile:
        command = [
            find_browser(), "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-dev-shm-usage", "--hide-scrollbars", "--no-first-run",
            "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
            f"--user-data-dir={profile}", f"--window-size={width},{height}",
            *args, page.resolve().as_uri(),
        ]  # fmt: skip
        done = subprocess.run(command, check=True, capture_output=True, text=True, timeout=120)
    return done.stdout


def screenshot(page: Path, png: Path, *, width: int = 1280, height: int = 2400) -> Path:
    """Render `page` to `png` at `width` x `height` CSS pixels."""
    headless(page, f"--screenshot={png}", width=width, height=height)
    return png


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="a bench --out folder holding report.html")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=2400)
    args = parser.parse_args()
    page = args.out / "report.html"
    if not page.is_file():
        print(f"{page} does not exist: pass a bench --out folder", file=sys.stderr)
        return 2
    png = screenshot(page, args.out / "report.png", width=args.width, height=args.height)
    print(png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
