"""What a suite of tests catches: its runs on a kata's reference, on mutants of it that the
kata's own suite tells apart (bugs), and on equivalent mutants (the same code, other text).

Nothing about a run may tell a test which kind of code it faces. The reference's repeat runs
and the equivalent mutants sit at random places among the mutants, so an order the tests
could count on (the reference first, as it was: a tmpfs's inode numbers told early runs from
later ones) says nothing; and a test that fails on an equivalent mutant has read the code's
text (a digest of the source kills every mutant), so it scores nothing, as a wrong test does.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tdd_sandbox.acceptance.scorer import score_kata
from tdd_sandbox.acceptance.testfiles import run_test_files
from tdd_sandbox.execution.base import Checker
from tdd_sandbox.grading.acceptance import AcceptanceReport, CaseStatus
from tdd_sandbox.grading.mutants import TIMEOUT_S, Mutant, equivalent_mutants, make_mutants
from tdd_sandbox.katas.kata import load_kata
from tdd_sandbox.languages.base import Language
from tdd_sandbox.repo.scaffolding import starting_files

REFERENCE_RUNS = 2
"""Runs of the tests on the reference: an outcome that changes between them is luck."""


def kill_mutants(
    checker: Checker,
    language: Language,
    kata_dir: Path,
    tests: dict[str, bytes],
    on_reference: AcceptanceReport | None = None,
    *,
    against_luck: bool = False,
) -> dict[str, Any]:
    """The mutation figures of `tests` on the kata's reference (`on_reference`: its first
    run, when done already), its mutants and its equivalent mutants. `against_luck` (test
    mode, where the tests are what is scored): the tests run twice on the reference and a
    kill must repeat; the loop's final suite, whose figures stand beside its acceptance
    score, is run once on each.

    Raises:
        SandboxUnavailable: the sandbox failed.
    """
    started = time.monotonic()
    reference = reference_files(language, kata_dir)
    allow = load_kata(kata_dir / "kata.md").allowed_rules(language.name)

    def failing(files: dict[str, bytes], timeout_s: float | None = TIMEOUT_S) -> set[str]:
        ran = run_test_files(checker, language, files, tests, allow, timeout_s=timeout_s)
        return {r.id for r in ran.results if r.status is not CaseStatus.PASSED}

    own = kata_dir / "reference" / language.name
    code = sorted(
        p for p in reference if (own / p).is_file() and p.endswith(language.source_suffixes)
    )
    runs = [on_reference] if on_reference is not None else []
    asked = bool(runs) or bool(language.expected_tests(tests))
    checks: list[tuple[str, Mutant | None]] = [("mutant", m) for m in make_mutants(
        language, reference, code
    )]  # fmt: skip
    if asked:
        checks += [("reference", None)] * ((REFERENCE_RUNS if against_luck else 1) - len(runs))
        checks += [("equivalent", m) for m in equivalent_mutants(language, reference, code)]
    random.SystemRandom().shuffle(checks)  # an order no seed in the code's reach foretells
    kills: dict[str, set[str]] = {}
    reading: set[str] = set()
    for kind, mutant in checks:
        if mutant is None:
            runs.append(
                run_test_files(checker, language, reference, tests, allow)
            )  # fmt: skip
            continue
        hidden = score_kata(checker, language, mutant.files, kata_dir, timeout_s=TIMEOUT_S)
        if kind == "equivalent":
            if hidden.rate == 1.0 and not hidden.problem:  # the kata's own suite agrees
                reading |= failing(dict(mutant.files))
            continue
        if hidden.problem or hidden.rate == 1.0:
            continue  # stillborn (or hung), or equivalent: the kata's own suite cannot tell
        # A bug no test was written for is counted all the same: a suite of none kills none.
        run = functools.partial(failing, dict(mutant.files))
        kills[mutant.describe()] = _repeated(run, twice=against_luck) if asked else set()
    sound, flaky, wrong = sorted_tests(runs)
    written = len(sound) + len(flaky) + len(wrong)
    sound -= reading  # it read the code's text: it scores nothing, as a wrong test
    killed = [name for name, failed in kills.items() if failed & sound]
    counted = len(kills)
    score = len(killed) / counted * len(sound) / written if counted and written else 0.0
    return {
        "tests_written": written,
        "wrong_tests": len(wrong),
        "flaky_tests": len(flaky),
        "reading_tests": len(reading),
        "mutants": sum(kind == "mutant" for kind, _ in checks),
        "mutants_counted": counted,
        "mutants_killed": len(killed),
        "killed": sorted(killed),
        "mutation_score": round(score, 4) if counted else None,
        "mutation_s": round(time.monotonic() - started, 3),
    }


def _repeated(run: Callable[[], set[str]], *, twice: bool) -> set[str]:
    """The tests that failed in `run`, and, `twice`, in a second run too (against luck)."""
    failed = run()
    return failed & run() if twice and failed else failed


def sorted_tests(
    runs: list[AcceptanceReport],
) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The tests of `runs` (one run's report each) as sound (passed in every run), flaky
    (passed in some) and wrong (passed in none)."""
    passed = [{r.id for r in run.results if r.status is CaseStatus.PASSED} for run in runs]
    every = {r.id for run in runs for r in run.results}
    sound = frozenset(set.intersection(*passed)) if passed else frozenset[str]()
    lucky = frozenset(set.union(*passed)) - sound if passed else frozenset[str]()
    return sound, lucky, frozenset(every - sound - lucky)


def reference_files(language: Language, kata_dir: Path) -> dict[str, bytes]:
    """The kata's reference in `language`, over its starting files."""
    files = starting_files(language, kata_dir, overlay="reference")
    return {path: text.encode() for path, text in files.items()}
