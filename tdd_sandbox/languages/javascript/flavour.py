"""What tells one language on Node.js from another: JavaScript and TypeScript share the
runner, the guard, the reporter and the image, and differ in the files they name, the flags
Node runs them with and how the compiler checks them. Each pack declares its flavour once;
every shell command of its gates is made from it here."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

# V8 refuses to make code from text in every process that runs model code (a test gate's
# test files included: `node --test` hands its flags on), however the code reached `eval` or
# the Function constructor: `"".constructor.constructor(...)`, a key built at run time (#24).
# What the static policy reads is one defence; this one the engine enforces.
NO_CODE_FROM_TEXT = "--disallow-code-generation-from-strings"

REPORTER = "/opt/js/tdd-reporter.mjs"
"""The image's reporter: one JSON line per test that ended (see the image's folder)."""

RESULTS = "/tmp/tdd-node-results.jsonl"
"""Where the image's reporter writes one JSON line per test."""

# The tool's formatting rules alone: no config, ignore file or inline directive of the
# repo's takes part.
PRETTIER = "prettier --no-config --no-editorconfig --ignore-path /dev/null"

_TYPE_ROOTS = "--types node --typeRoots /opt/js/node_modules/@types"

# `--cache-location`: with its cache off ESLint still deletes the cache file, in /work by
# default, and ignores only "no such file"; gVisor answers "permission denied" for a file in
# a folder the user cannot write, as it may.
LINT = (
    "exec eslint --config /opt/js/eslint.config.mjs --no-inline-config "
    "--max-warnings 0 --no-warn-ignored --cache-location /tmp/eslintcache .\n"
)
"""ESLint with the image's configuration alone, the same for every flavour: the configuration
names each flavour's files."""


@dataclass(frozen=True)
class NodeFlavour:
    """One language on Node.js: its source suffixes (the first is the one the scaffold
    writes), the flags each process that runs its code gets, and the compiler's check."""

    suffixes: tuple[str, ...]
    node_flags: tuple[str, ...]
    """Beside `--disallow-code-generation-from-strings`, for every process that runs code."""
    checked: tuple[str, ...]
    """The suffixes of the files `tsc` checks."""
    module: str
    """The suffix of an ES module in the flavour (the acceptance driver's: it holds lines of
    the track's tests)."""
    track_spec: str
    """A pattern of the path of an Exercism track's test file, its suffix as group 1."""
    tsc_flags: str
    """How `tsc --noEmit` checks them (after the flags every flavour shares)."""

    @cached_property
    def test_file(self) -> re.Pattern[str]:
        """A test file's path: `*.test<suffix>`."""
        return re.compile(r"\.test(?:" + "|".join(re.escape(s) for s in self.suffixes) + ")$")

    @cached_property
    def spec(self) -> re.Pattern[str]:
        """A track's test file (`track_spec`)."""
        return re.compile(self.track_spec)

    @property
    def node(self) -> str:
        """Node and the flags of every process that runs the flavour's code."""
        return " ".join(("node", NO_CODE_FROM_TEXT, *self.node_flags))

    def _find(self, pattern: str, suffixes: tuple[str, ...] = ()) -> str:
        names = " -o ".join(f"-name '{pattern}{s}'" for s in suffixes or self.suffixes)
        return (
            "find . \\( -name node_modules -o -name '.?*' \\) -prune -o -type f "
            f"\\( {names} \\) -print | sort"
        )

    @cached_property
    def find_tests(self) -> str:
        """The shell's list of the test files: outside node_modules and hidden folders. The
        shell names them to the runner, so the files run are the files announced."""
        return self._find("*.test")

    @cached_property
    def test(self) -> str:
        """The test gate as a user runs it: `node --test` over the test files."""
        run = (
            f"{self.node} --test --test-reporter={REPORTER} "
            f"--test-reporter-destination={RESULTS} --test-reporter=spec "
            "--test-reporter-destination=stdout"
        )
        return f'files=$({self.find_tests})\n[ -n "$files" ] || exit 0\nexec {run} $files\n'

    @cached_property
    def format(self) -> str:
        """Prettier's check over every source file."""
        globs = " ".join(f"'**/*{suffix}'" for suffix in self.suffixes)
        return f"exec {PRETTIER} --check --log-level warn --no-error-on-unmatched-pattern {globs}\n"

    @cached_property
    def typecheck(self) -> str:
        """`tsc --noEmit` over the sources (declaration files of the kata's included)."""
        return (
            f"files=$({self._find('*', self.checked)})\n"
            '[ -n "$files" ] || exit 0\n'
            "exec tsc --noEmit --pretty false --skipLibCheck --module nodenext "
            f"--target es2022 {_TYPE_ROOTS} {self.tsc_flags} $files\n"
        )


JAVASCRIPT_FLAVOUR = NodeFlavour(
    suffixes=(".js", ".mjs", ".cjs"),
    node_flags=(),
    checked=(".js", ".mjs"),
    module=".mjs",
    track_spec=r"\.spec(\.[cm]?js)$",  # Jest's `*.spec.js`, anywhere in the exercise
    tsc_flags="--allowJs --checkJs",
)

TYPESCRIPT_FLAVOUR = NodeFlavour(
    suffixes=(".ts", ".mts", ".cts"),
    # Node strips the types itself; the transform also runs what is more than a type (an
    # enum, a namespace, a constructor's parameter properties), which the track's code uses.
    node_flags=("--experimental-transform-types", "--disable-warning=ExperimentalWarning"),
    checked=(".ts", ".mts", ".cts"),
    module=".mts",
    track_spec=r"\.test(\.[cm]?ts)$",  # Jest's `*.test.ts`
    tsc_flags="--strict --allowImportingTsExtensions --verbatimModuleSyntax",
)
