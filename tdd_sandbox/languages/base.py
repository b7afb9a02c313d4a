"""What a language pack provides (the `Language` Protocol: every part of `parts.py`), and
the defaults most share.

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

from tdd_sandbox.languages.driving import CodeFiles, Driver, rename_inputs
from tdd_sandbox.languages.findings import at_line_start
from tdd_sandbox.languages.parts import Layout, Policy, Runner, Track
from tdd_sandbox.languages.perturbing import Expectations, Perturbed, perturb_expected
from tdd_sandbox.languages.readout import SentinelReports, without_frames
from tdd_sandbox.languages.renaming import Naming, Renamed, rename_tests
from tdd_sandbox.vocabulary.cases import CallMap, Case
from tdd_sandbox.vocabulary.results import Gate, GateKind
from tdd_sandbox.vocabulary.violation import Violation

SHIPPED_IMAGES = Path(__file__).parents[1] / "images" / "definitions"
"""Where an installed wheel holds the project's `images/` folder (setup.py copies it there)."""
CHECKOUT_IMAGES = Path(__file__).parents[2] / "images"
"""The top-level `images/` folder of a checkout: one sub-folder per image the project builds."""
TOOL_IMAGE = "tool"
"""The one folder of `images/` that is no language's: the tool's own image (compose.yaml)."""


def image_root() -> Path:
    """The folder of the project's image definitions: the copy an installed wheel ships,
    else the checkout's `images/`."""
    return SHIPPED_IMAGES if SHIPPED_IMAGES.is_dir() else CHECKOUT_IMAGES


class Language(Layout, Runner, Policy, Track, Protocol):
    """A language pack: one folder of `tdd_sandbox/languages/`, registered in its `__init__`;
    every part of `parts.PARTS`."""


class RunnerDefaults(ABC):
    """What most packs' runners share (the `Runner` part): a pack's own runner inherits it
    and overrides what differs."""

    source_suffixes: tuple[str, ...]
    results_path: str | None = None
    readers_apart: frozenset[GateKind] = frozenset()
    build_reads_only: bool = False
    seals_tests: bool = False
    """Whether the tests are unreadable while the guarded test gate runs (`sealed_tests`)."""
    shell_gates: tuple[tuple[GateKind, str], ...] = ()
    """The gates as (kind, shell script) pairs, in running order, for `gates()`."""
    sentinel_reports: SentinelReports | None = None
    """Where the runner's output reports the guard's sentinels, for `readable`."""
    preload: tuple[str, ...] = ()

    @abstractmethod
    def is_test_path(self, path: str) -> bool:
        """Whether `path` (relative, POSIX) holds tests (the layout's; the runner seals
        them)."""

    def gates(self) -> tuple[Gate, ...]:
        """Each of `shell_gates`, run by `sh -c`."""
        return tuple(Gate(kind, ("sh", "-c", script)) for kind, script in self.shell_gates)

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

    def misplaced_import(self, setup: str, test: str) -> str | None:
        """None: the scaffold fixes where the code lives (a crate, a package, a class)."""
        del setup, test
        return None

    def lint_faults(self, output: str, tests: Collection[str]) -> list[str]:
        """Findings written `path:line:col: message` in a test file (ruff, gcc, javac)."""
        return at_line_start(output, tests)

    def toolchain_note(self, output: str) -> str:
        """Nothing: only a pack that can tell a too-old toolchain from a mistake says so."""
        del output
        return ""

    def readable(self, stdout: str) -> str:
        """The output without the guard's frames (`@@<nonce> ...` lines, for the judge) or
        its sentinels' reports (`readout`)."""
        text = without_frames(stdout)
        return self.sentinel_reports.strip(text) if self.sentinel_reports else text


class Defaults(RunnerDefaults):
    """What most plug-ins share: inherit it and override what differs (as pre-commit's
    `lang_base` does), so a language module holds only its own facts."""

    name: str
    source_suffixes: tuple[str, ...]
    project_files: tuple[str, ...] = ()
    example_files: tuple[tuple[str, str], ...] = ()
    driver_class: Callable[[CodeFiles], Driver]
    """The pack's acceptance driver class, built bound to the plug-in as `driver`."""

    expectations: Expectations
    """How the language writes an assertion's expected side, for `perturb`."""

    def __init__(self) -> None:
        self.driver: Driver = self.driver_class(self)

    naming: Naming
    """Where the language writes a test's name, for `rename_tests`."""

    def perturb(self, text: str, lines: Collection[int] | None, rng: random.Random) -> Perturbed:
        """The expected values `expectations` finds on `lines`, changed."""
        return perturb_expected(text, self.expectations, lines, rng)

    def rename_tests(
        self,
        text: str,
        names: Collection[str],
        rng: random.Random,
        given: dict[str, str] | None = None,
    ) -> Renamed:
        """The tests of `names` that `naming` finds, under neutral names."""
        return rename_tests(text, self.naming, self.expectations.tokenize, names, rng, given)

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

    image_folder: str | None = None
    """The pack's folder of `images/` (None: the pack's name)."""

    @property
    def image(self) -> Path:
        """The pack's folder of the project's images (`image_root`)."""
        return image_root() / (self.image_folder or self.name)

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
    def is_runner_config(self, path: str) -> bool:
        """Whether `path` configures how tests are found or run."""

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

    def shown_test(self, path: str, data: bytes) -> bytes:
        """A test file is shown as it runs."""
        del path
        return data

    def track_project(self, path: str, data: bytes) -> tuple[bytes, str]:
        """A track's project file is the kata's as it is."""
        del path
        return data, ""

    def track_example(self, path: str, data: bytes) -> tuple[bytes, str]:
        """A track's example is the kata's reference as it is."""
        del path
        return data, ""

    listed: tuple[str, str] | None = None
    """How the language opens and closes a list of values written in place (Rust's `vec![`
    and `]`), for `paired`; None where it has no such list for any answer."""

    def paired(self, call: str, halves: Sequence[Mapping[str, str]]) -> str | None:
        """The call once per half, its `${input}`s renamed, in the language's `listed`."""
        if self.listed is None:
            return None
        opened, closed = self.listed
        return f"{opened}{', '.join(rename_inputs(call, half) for half in halves)}{closed}"

    def derive_calls(
        self, cases: Sequence[Case], stub: Mapping[str, bytes], tests: Mapping[str, bytes]
    ) -> CallMap | str:
        """No rule: the track's tests judge the kata."""
        del cases, stub, tests
        return f"no rule derives {self.name} calls from its track's tests yet"

    def transcribe_tests(self, cases: Sequence[Case], tests: Mapping[str, bytes]) -> CallMap | str:
        """The track's own tests of `cases` as data, where the derived calls do not prove:
        each case's test run as written, what it asserts kept on the host
        (`CallMap.transcripts`). No rule here: the track's tests judge the kata."""
        del cases, tests
        return f"no rule transcribes {self.name}'s tests yet"
