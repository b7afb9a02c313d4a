"""Re-record the demo transcripts shipped in katas/fizzbuzz/demo/.

A scripted model (tests/helpers) completes FizzBuzz through the real sandbox while `--record`
keeps every exchange; `tdd-sandbox run ... --replay` then repeats the run with no endpoint.

Usage: python scripts/record_demo.py [LANGUAGE...]   (default: every language)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tdd_sandbox.engine.session import run_kata  # noqa: E402
from tdd_sandbox.settings import load_settings  # noqa: E402
from tests.helpers.fake_llm import FakeLLM  # noqa: E402
from tests.helpers.katas import STEPS, fizzbuzz_script  # noqa: E402

ROLES = ("tester", "implementer", "refactorer")


def main(languages: list[str]) -> None:
    """Record one transcript per language."""
    for language in languages or sorted(STEPS):
        with FakeLLM(fizzbuzz_script(language, prefix="scripted-")) as fake:
            settings = load_settings(
                overrides={
                    "language": language,
                    "llm": {"base_url": fake.base_url},
                    "roles": {role: {"model": f"custom:scripted-{role}"} for role in ROLES},
                }
            )
            target = ROOT / "katas" / "fizzbuzz" / "demo" / f"{language}.jsonl"
            with tempfile.TemporaryDirectory() as scratch:
                summary = run_kata(
                    ROOT / "katas" / "fizzbuzz" / "kata.md",
                    settings,
                    repo_dir=Path(scratch) / "kata",
                    record=target,
                )
            print(f"{language}: {summary.status}, {len(summary.commits)} commits -> {target}")


if __name__ == "__main__":
    main(sys.argv[1:])
