"""What a language pack provides (the `Language` Protocol), and the defaults most share.

A pack is one folder of `tdd_sandbox/languages/`: its plug-in (this Protocol), its source
reader, its static policy, its acceptance driver (host side and sandbox source) and its image.
"""

from __future__ import annotations

import inspect
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Protocol

from tdd_sandbox.languages.driving import CodeFiles, Driver
from tdd_sandbox.languages.perturbing import Expectations, Perturbed, perturb_expected
from tdd_sandbox.languages.readout import SentinelReports, without_frames
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.vocabulary.cases import CallMap, Case
from tdd_sandbox.vocabulary.results import Evidence, Gate, GateKind, TestOutcome
from tdd_sandbox.vocabulary.violation import Violation


class Language(Protocol):
    """A language pack: one folder of `tdd_sandbox/languages/`, registered in its `__init__`."""

    name: str
    """Registry key; also the name of its image (`tdd-sandbox/<name>`)."""
    title: str
    """The language's name as people write it (`C++`): how a kata's text names it."""
    results_path: str | None
    """File the test gate writes machine-readable results to, read after it runs."""
    collects: str
    """What counts as a test, as the runner collects it: told to a tester whose new test
    was not found."""
    prompt_note: str
    """What every prompt says about the language: toolchain, layout, the gates code meets."""
    source_suffixes: tuple[str, ...]
    """How the names of the language's code files end."""
    project_files: tuple[str, ...]
    """Files an Exercism exercise's stub carries beside its code (its manifest)."""
    example_files: tuple[tuple[str, str], ...]
    """A track's files for its example alone, and where each goes in the reference (Rust's
    `.meta/Cargo-example.toml` is the example's manifest, naming the crates it uses)."""
    readers_apart: frozenset[GateKind]
    """The gates that only read the code (format, lint, typecheck) and cost more than a
    second container (about 0.2 s of the engine's CPU to start and remove): a lint that
    compiles the code. A check that runs one of them runs the readers in a sandbox of their
    own, beside the build and the tests (`execution.steps.split_lanes`)."""
    driver: Driver
    """The host side of the pack's acceptance driver: it ships the code, the driver's source
    and the cases' inputs to a sandbox, and reads back what each case did."""

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

    def gates(self) -> tuple[Gate, ...]:
        """The default gate commands, in running order."""
        ...

    expectations: Expectations
    """How the language's tokens read (and an assertion's expected side is written): for the
    probe (`perturb`) and for mutants of a reference (`grading.mutants`)."""

    def perturb(self, text: str, lines: Collection[int] | None, rng: random.Random) -> Perturbed:
        """A test file's `text` with the expected value of each assertion on `lines` (None:
        anywhere) changed, for the probe that catches code answering from the tests' text
        (`languages.perturbing`)."""
        ...

    def format_command(self, path: str) -> tuple[str, ...] | None:
        """A command printing `path` formatted to stdout, leaving the file alone (None: the
        language has no formatter, or not for this file)."""
        ...

    def is_test_path(self, path: str) -> bool:
        """Whether `path` (relative, POSIX) holds tests."""
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

    def is_runner_config(self, path: str) -> bool:
        """Whether `path` configures how tests are found or run."""
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

    def expected_tests(self, files: Mapping[str, bytes]) -> frozenset[str]:
        """Test ids found by reading the test files (nothing is run)."""
        ...

    def suggest_paths(self, files: Mapping[str, bytes], slug: str) -> tuple[str, list[str]]:
        """Where the next test and the code under test most likely go: the kata's test file
        and the source files its tests import (small models need the path spelled out)."""
        ...

    def defines_tests(self, path: str, text: str) -> bool:
        """Whether a (non-test) file defines tests: the sign of a test copied into code."""
        ...

    def test_mistake(self, files: Mapping[str, bytes], outcome: TestOutcome) -> str | None:
        """Feedback when a new test fails through its own fault, so that no implementation
        could make it pass (a name its module never imports), else None."""
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

    def track_test(self, path: str, data: bytes) -> tuple[str, bytes]:
        """Where an Exercism track's test file goes in a kata repository, and what it holds
        there: a spec in another runner's dialect (Jest's) becomes one this pack runs."""
        ...

    def hidden_test(self, path: str, data: bytes) -> bytes:
        """A hidden acceptance test file as the judge runs it (every test enabled)."""
        ...

    def track_project(self, path: str, data: bytes) -> tuple[bytes, str]:
        """A track's project file (one of `project_files`) as the image's toolchain builds
        it, and a line saying what changed and why ("" when nothing did)."""
        ...

    def readable(self, stdout: str) -> str:
        """What the test command printed, as a person (or the next prompt) reads it: without
        the guard's frames or a machine format the runner was asked for."""
        ...

    def derive_calls(
        self, cases: Sequence[Case], stub: Mapping[str, bytes], tests: Mapping[str, bytes]
    ) -> CallMap | str:
        """How an imported exercise's canonical `cases` are performed in this language, read
        off its track's `stub` and `tests` (a data suite, proved with the reference before it
        judges anyone), or why they cannot be."""
        ...


class Defaults(ABC):
    """What most plug-ins share: inherit it and override what differs (as pre-commit's
    `lang_base` does), so a language module holds only its own facts."""

    name: str
    source_suffixes: tuple[str, ...]
    results_path: str | None = None
    project_files: tuple[str, ...] = ()
    example_files: tuple[tuple[str, str], ...] = ()
    readers_apart: frozenset[GateKind] = frozenset()
    seals_tests: bool = False
    """Whether the tests are unreadable while the guarded test gate runs (`sealed_tests`)."""
    driver_class: Callable[[CodeFiles], Driver]
    """The pack's acceptance driver class, built bound to the plug-in as `driver`."""
    shell_gates: tuple[tuple[GateKind, str], ...] = ()
    """The gates as (kind, shell script) pairs, in running order, for `gates()`."""
    sentinel_reports: SentinelReports | None = None
    """Where the runner's output reports the guard's sentinels, for `readable`."""

    expectations: Expectations
    """How the language writes an assertion's expected side, for `perturb`."""

    def __init__(self) -> None:
        self.driver: Driver = self.driver_class(self)

    def perturb(self, text: str, lines: Collection[int] | None, rng: random.Random) -> Perturbed:
        """The expected values `expectations` finds on `lines`, changed."""
        return perturb_expected(text, self.expectations, lines, rng)

    def gates(self) -> tuple[Gate, ...]:
        """Each of `shell_gates`, run by `sh -c`."""
        return tuple(Gate(kind, ("sh", "-c", script)) for kind, script in self.shell_gates)

    @cached_property  # read once per pack, not on every ask
    def sample(self) -> tuple[str, str]:
        """The file of `sample/` beside the plug-in's module that is not a test."""
        return self._sample("sample", tests=False)

    @cached_property
    def test_sample(self) -> tuple[str, str]:
        """The test file of `test_sample/` beside the plug-in's module (the folder holds the
        code it tests as well)."""
        return self._sample("test_sample", tests=True)

    def _sample(self, name: str, *, tests: bool) -> tuple[str, str]:
        # A pack made from another (a subclass elsewhere) shows the other's, unless it has one.
        folders = (Path(inspect.getfile(cls)).parent / name for cls in type(self).__mro__)
        folder = next(f for f in folders if f.is_dir())
        paths = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
        code = [p for p in paths if p.endswith(self.source_suffixes)]
        path = next(p for p in code if self.is_test_path(p) == tests)
        return path, (folder / path).read_text(encoding="utf-8")

    @property
    def image(self) -> Path:
        """`image/` beside the module that defines the plug-in: a pack carries its image."""
        return Path(inspect.getfile(type(self))).parent / "image"

    def read_source(self, data: bytes) -> str:
        """UTF-8, as most compilers read their source (undecodable bytes as U+FFFD, which no
        compiler takes for code)."""
        return data.decode("utf-8", "replace")

    @abstractmethod
    def check_source(
        self, path: str, text: str, *, is_test: bool, tree: Mapping[str, bytes]
    ) -> list[Violation]:
        """The pack's static policy (see `Language.check_source`): no default, so a pack
        without one cannot be made."""

    @abstractmethod
    def scaffold(self) -> dict[str, str]:
        """The files of an empty kata repo."""

    @abstractmethod
    def is_test_path(self, path: str) -> bool:
        """Whether `path` (relative, POSIX) holds tests."""

    @abstractmethod
    def is_runner_config(self, path: str) -> bool:
        """Whether `path` configures how tests are found or run."""

    def sealed_tests(self, paths: Iterable[str]) -> list[str]:
        """Where `seals_tests`: the test files in the language's source suffixes (the data
        files tests read stay readable)."""
        if not self.seals_tests:
            return []
        return sorted(p for p in paths if self.is_test_path(p) and p.endswith(self.source_suffixes))

    def sealed_input(self, files: Mapping[str, bytes], sealed: Sequence[str]) -> bytes | None:
        """Nothing: a sealing language runs what its build built, unless it says otherwise."""
        del files, sealed
        return None

    def scaffold_under(self, files: Mapping[str, str]) -> dict[str, str]:
        """All of the scaffold: a kata's files replace only the ones they name."""
        del files  # every file of the scaffold fits beside any kata's
        return self.scaffold()

    def track_test(self, path: str, data: bytes) -> tuple[str, bytes]:
        """A track's test file goes where the track has it, as it is."""
        return path, data

    def hidden_test(self, path: str, data: bytes) -> bytes:
        """A hidden test file runs as it is written."""
        return data

    def track_project(self, path: str, data: bytes) -> tuple[bytes, str]:
        """A track's project file is the kata's as it is."""
        del path
        return data, ""

    def derive_calls(
        self, cases: Sequence[Case], stub: Mapping[str, bytes], tests: Mapping[str, bytes]
    ) -> CallMap | str:
        """No rule: the track's tests judge the kata."""
        del cases, stub, tests
        return f"no rule derives {self.name} calls from its track's tests yet"

    def readable(self, stdout: str) -> str:
        """The output without the guard's frames (`@@<nonce> ...` lines, for the judge) or
        its sentinels' reports (`readout`)."""
        text = without_frames(stdout)
        return self.sentinel_reports.strip(text) if self.sentinel_reports else text
