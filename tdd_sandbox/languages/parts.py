"""The parts of a language pack, each a small Protocol named for who uses it: a `Layout`
(scaffolding and paths), a `Runner` (the gates and their output), a `Policy` (what the judge
reads in code) and a `Track` (Exercism's files and the acceptance driver).

A caller that needs one part asks for that part; `base.Language` is all four, the registry
checks a pack against each (`registry.missing_parts`), and `base.Defaults` holds what most
packs share.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Protocol

from tdd_sandbox.languages.driving import Driver
from tdd_sandbox.languages.perturbing import Expectations, Perturbed
from tdd_sandbox.languages.renaming import Renamed
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.vocabulary.cases import CallMap, Case
from tdd_sandbox.vocabulary.results import Evidence, Gate, GateKind, TestOutcome
from tdd_sandbox.vocabulary.violation import Violation


class Layout(Protocol):
    """Where a language keeps things, for scaffolding a kata and for telling its paths apart:
    its names, its files, its worked samples and its image."""

    name: str
    """Registry key; also the name of its image (`tdd-sandbox/<name>`)."""
    title: str
    """The language's name as people write it (`C++`): how a kata's text names it."""
    prompt_note: str
    """What every prompt says about the language: toolchain, layout, the gates code meets."""
    source_suffixes: tuple[str, ...]
    """How the names of the language's code files end."""

    @property
    def sample(self) -> tuple[str, str]:
        """A tiny finished file in the language, `twice(n)` that doubles a number: its path
        and code. The edit formats show it as a worked answer: a hole to fill
        (`<all of f.py>`) was copied back by a small model on 6 of 12 imported exercises
        (issue #44)."""
        ...

    @property
    def test_sample(self) -> tuple[str, str]:
        """One test of `count_vowels(word)`, its path and code: the tester's worked answer.
        Not a test of `sample`: the 0.5B coder pasted `twice`'s numbers into its own tests
        (`fizzbuzz(2) == "4"`) and wrote a test the kata contradicts on all 4 bundled
        Python katas; with this one, which takes a word and counts, on 2 of 4."""
        ...

    @property
    def image(self) -> Path:
        """The folder holding the pack's sandbox image: its Dockerfile and build context."""
        ...

    def scaffold(self) -> dict[str, str]:
        """The files of an empty kata repo."""
        ...

    def scaffold_under(self, files: Mapping[str, str]) -> dict[str, str]:
        """The scaffold as a kata's own starting `files` (an Exercism stub) are laid over it:
        what of it still fits beside them."""
        ...

    def detect(self, paths: Iterable[str]) -> bool:
        """Whether a repo holding `paths` is in this language."""
        ...

    def is_test_path(self, path: str) -> bool:
        """Whether `path` (relative, POSIX) holds tests."""
        ...

    def is_runner_config(self, path: str) -> bool:
        """Whether `path` configures how tests are found or run."""
        ...

    def suggest_paths(self, files: Mapping[str, bytes], slug: str) -> tuple[str, list[str]]:
        """Where the next test and the code under test most likely go: the kata's test file
        and the source files its tests import (small models need the path spelled out)."""
        ...


class Runner(Protocol):
    """How the gates run and are read (`execution`): the commands, the guard around the test
    command, and what the runner reports."""

    results_path: str | None
    """File the test gate writes machine-readable results to, read after it runs."""
    collects: str
    """What counts as a test, as the runner collects it: told to a tester whose new test
    was not found."""
    preload: tuple[str, ...]
    """The modules a warm interpreter imports once per container for the runner's
    `python3 -I -B -c` commands (`sandbox/zygote.py`); empty: none is started."""
    readers_apart: frozenset[GateKind]
    """The gates that only read the code (format, lint, typecheck) and cost more than a
    second container (about 0.2 s of the engine's CPU to start and remove): a lint that
    compiles the code. A check that runs one of them runs the readers in a sandbox of their
    own, beside the build and the tests (`execution.steps.split_lanes`)."""
    build_reads_only: bool
    """Whether the build gate only reads the code (a syntax check) and makes nothing the
    tests run: it is then one of the readers, and may run beside the tests."""

    def gates(self) -> tuple[Gate, ...]:
        """The default gate commands, in running order."""
        ...

    def format_command(self, path: str) -> tuple[str, ...] | None:
        """A command printing `path` formatted to stdout, leaving the file alone (None: the
        language has no formatter, or not for this file)."""
        ...

    def guard(self, command: tuple[str, ...], nonce: str) -> tuple[str, ...] | None:
        """`command` as it runs under the language's guard (the test command with sentinels
        and an independent results channel keyed by `nonce`; a gate before it may prepare
        that), or None to run it as it is (other gates, configured overrides)."""
        ...

    def evidence(self, result: ExecResult, nonce: str) -> Evidence:
        """What the guard's channel said about a guarded run."""
        ...

    def parse_results(self, result: ExecResult, report: bytes | None) -> list[TestOutcome]:
        """Per-test outcomes from the test gate's output and results file.

        Never raises on malformed input: what cannot be understood becomes an ERROR outcome.
        """
        ...

    def toolchain_note(self, output: str) -> str:
        """What a failed build's `output` says of the image's toolchain being older than the
        code needs, naming the image's version (`""` when it says nothing of the kind)."""
        ...

    def readable(self, stdout: str) -> str:
        """What the test command printed, as a person (or the next prompt) reads it: without
        the guard's frames or a machine format the runner was asked for."""
        ...

    def sealed_tests(self, paths: Iterable[str]) -> list[str]:
        """The test sources among `paths` to make unreadable while the guarded test gate
        runs, so the code under test cannot read its answers off them, whatever route it
        takes. The test gate then runs what the build gate built, or loads the tests from
        `sealed_input`. Empty where the language does neither."""
        ...

    def sealed_input(self, files: Mapping[str, bytes], sealed: Sequence[str]) -> bytes | None:
        """What the guarded test gate reads on its standard input while `sealed` are
        unreadable: the tests themselves, for a runner that loads them as it runs them.
        None where it runs what the build built (the build then goes first)."""
        ...

    def expected_tests(self, files: Mapping[str, bytes]) -> frozenset[str]:
        """Test ids found by reading the test files (nothing is run)."""
        ...

    def test_mistake(self, files: Mapping[str, bytes], outcome: TestOutcome) -> str | None:
        """Feedback when a new test fails through its own fault, so that no implementation
        could make it pass (a name its module never imports), else None."""
        ...

    def misplaced_import(self, setup: str, test: str) -> str | None:
        """Feedback when a new test (its text) imports one of the kata's names from another
        place than the kata's acceptance suite does (its `setup`): the code would be built
        where the suite never looks. None where the language fixes where code lives."""
        ...

    def lint_faults(self, output: str, tests: Collection[str]) -> list[str]:
        """The lint gate's findings (its `output`) that lie in `tests` and that no
        implementation can clear, as `languages.findings` reads them: a RED test that fails
        its own lint can never turn green."""
        ...


class Policy(Protocol):
    """What the judge reads in code before and around running it (`grading`): the source as the
    compiler reads it, what it may use, and its expected values changed for the probe."""

    expectations: Expectations
    """How the language's tokens read (and an assertion's expected side is written): for the
    probe (`perturb`) and for mutants of a reference (`grading.mutants`)."""

    def read_source(self, data: bytes) -> str:
        """A code file's text as the compiler reads its bytes (its encoding rules)."""
        ...

    def check_source(
        self, path: str, text: str, *, is_test: bool, tree: Mapping[str, bytes]
    ) -> list[Violation]:
        """The pack's static policy: what `text` (one code file, from `read_source`) uses of
        the means of forging a verdict, or of anything outside its allow-list. Test files
        (`is_test`) may use the runner's own. `tree` is the repository the file belongs to,
        where the kata's own modules are found."""
        ...

    def defines_tests(self, path: str, text: str) -> bool:
        """Whether a (non-test) file defines tests: the sign of a test copied into code."""
        ...

    def perturb(self, text: str, lines: Collection[int] | None, rng: random.Random) -> Perturbed:
        """A test file's `text` with the expected value of each assertion on `lines` (None:
        anywhere) changed, for the probe that catches code answering from the tests' text
        (`languages.perturbing`)."""
        ...

    def rename_tests(
        self,
        text: str,
        names: Collection[str],
        rng: random.Random,
        given: dict[str, str] | None = None,
    ) -> Renamed:
        """A test file's `text` with each test of `names` declared under a neutral name, for
        the probe that catches code answering from its caller's name
        (`languages.renaming`); `given` keeps a name's neutral name across files."""
        ...


class Track(Protocol):
    """How an Exercism track and a kata's cases meet the language (`katas`, `acceptance`): the
    track's files as the image builds them, and the acceptance driver."""

    project_files: tuple[str, ...]
    """Files an Exercism exercise's stub carries beside its code (its manifest)."""
    example_files: tuple[tuple[str, str], ...]
    """A track's files for its example alone, and where each goes in the reference (Rust's
    `.meta/Cargo-example.toml` is the example's manifest, naming the crates it uses)."""
    driver: Driver
    """The host side of the pack's acceptance driver: it ships the code, the driver's source
    and the cases' inputs to a sandbox, and reads back what each case did."""

    def track_test(self, path: str, data: bytes) -> tuple[str, bytes]:
        """Where an Exercism track's test file goes in a kata repository, and what it holds
        there: a spec in another runner's dialect (Jest's) becomes one this pack runs."""
        ...

    def hidden_test(self, path: str, data: bytes) -> bytes:
        """A hidden acceptance test file as the judge runs it (every test enabled)."""
        ...

    def shown_test(self, path: str, data: bytes) -> bytes:
        """A kata's test file (as the judge runs it) as a model is shown it: without what
        only the harness needs (an import of the image's own module)."""
        ...

    def track_project(self, path: str, data: bytes) -> tuple[bytes, str]:
        """A track's project file (one of `project_files`) as the image's toolchain builds
        it, and a line saying what changed and why ("" when nothing did)."""
        ...

    def track_example(self, path: str, data: bytes) -> tuple[bytes, str]:
        """A track's example code file as the kata's reference, and a line saying what
        changed and why ("" when nothing did): written for another module system, it is
        read as the one the kata's package is."""
        ...

    def paired(self, call: str, halves: Sequence[Mapping[str, str]]) -> str | None:
        """`call` made once per half, each of its inputs renamed as the half says, the
        answers one list (`pairing`: forth's `evaluateBoth`); None where the pack cannot."""
        ...

    def derive_calls(
        self, cases: Sequence[Case], stub: Mapping[str, bytes], tests: Mapping[str, bytes]
    ) -> CallMap | str:
        """How an imported exercise's canonical `cases` are performed in this language, read
        off its track's `stub` and `tests` (a data suite, proved with the reference before it
        judges anyone), or why they cannot be."""
        ...

    def transcribe_tests(self, cases: Sequence[Case], tests: Mapping[str, bytes]) -> CallMap | str:
        """The track's own `tests` of `cases` as data, where no derived call performs them:
        each case's test run as written in the sandbox, what it asserts kept on the host
        (`CallMap.transcripts`); or why they cannot be."""
        ...


PARTS: tuple[type, ...] = (Layout, Runner, Policy, Track)
"""Every part a pack must have, in the order the registry names what is missing."""
