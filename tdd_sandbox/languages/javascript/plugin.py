"""JavaScript: Prettier, ESLint, `tsc --checkJs` and `node --test`; results from the image's
own reporter, which runs in the runner's process, not in a test file's."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import PurePosixPath

from tdd_sandbox.languages.base import Defaults
from tdd_sandbox.languages.javascript.calls import derive_javascript_calls
from tdd_sandbox.languages.javascript.commonjs import as_es_module
from tdd_sandbox.languages.javascript.driver import JavaScriptDriver
from tdd_sandbox.languages.javascript.policy import check_javascript
from tdd_sandbox.languages.javascript.reader import JS_LITERALS
from tdd_sandbox.languages.javascript.runner import JavaScriptRunner
from tdd_sandbox.languages.javascript.track import from_spec, is_spec, shown
from tdd_sandbox.languages.javascript.transcripts import derive_javascript_transcripts
from tdd_sandbox.languages.lexing import blank
from tdd_sandbox.languages.perturbing import Expectations
from tdd_sandbox.languages.renaming import Naming
from tdd_sandbox.languages.tokens import lexer
from tdd_sandbox.vocabulary.cases import CallMap, Case
from tdd_sandbox.vocabulary.violation import Violation

_RUNNER_CONFIG = re.compile(
    r"(^|/)(package(-lock)?\.json|npm-shrinkwrap\.json|\.npmrc|\.nvmrc|\.node-version|"
    r"tsconfig(\.\w+)?\.json|jsconfig\.json|\.prettier(rc|ignore)(\.\w+)?|prettier\.config\.\w+|"
    r"\.eslintrc(\.\w+)?|eslint\.config\.\w+|\.eslintignore|\.editorconfig|"
    r"\.babelrc(\.\w+)?|babel\.config\.\w+|jest\.config\.\w+)$"
)

_PACKAGE = '{\n  "name": "kata",\n  "private": true,\n  "type": "module"\n}\n'
_SCAFFOLD_CODE = "// The kata.\nexport {};\n"
_SCAFFOLD_TEST = """\
// Only proves the toolchain runs; the kata's tests live beside it.
import { test } from "node:test";

test("scaffold", () => {});
"""


class JavaScript(JavaScriptRunner, Defaults):
    """The JavaScript plug-in: an ES module package, tests in `test/*.test.js`."""

    driver_class = JavaScriptDriver

    def check_source(
        self, path: str, text: str, *, is_test: bool, tree: Mapping[str, bytes]
    ) -> list[Violation]:
        """The pack's static policy (`policy.py`)."""
        del tree  # code imports its own files only
        return check_javascript(path, text, is_test=is_test)

    name = "javascript"
    listed = ("[", "]")
    title = "JavaScript"
    expectations = Expectations(
        lexer(JS_LITERALS),
        equal_calls=frozenset({
            "equal", "strictEqual", "deepEqual", "deepStrictEqual", "toBe", "toEqual",
            "toStrictEqual",
        }),
        constant_words=frozenset({"null", "undefined"}),
        chars=False,
    )  # fmt: skip
    naming = Naming(
        named_by=frozenset({"test", "it", "describe", "skip", "only", "todo", "xtest", "xit",
                            "xdescribe", "fit", "fdescribe"}),
    )  # fmt: skip
    project_files: tuple[str, ...] = ()
    """None: a track's package.json is Jest's and Babel's, and the scaffold's (an ES module
    package, which the track's code is) takes its place."""
    prompt_note = (
        'JavaScript on Node.js 24, ES modules ("type": "module"), no packages. The code is '
        "kata.js at the root (export what the tests import); tests are test/*.test.js files "
        'using `import { test } from "node:test"`, `import assert from "node:assert/strict"` '
        'and `import { ... } from "../kata.js"`. Code must pass Prettier (defaults), ESLint '
        "(recommended rules) and the TypeScript compiler's check of JavaScript."
    )

    def derive_calls(
        self, cases: Sequence[Case], stub: Mapping[str, bytes], tests: Mapping[str, bytes]
    ) -> CallMap | str:
        """The stub's exported functions perform the properties (`calls.py`)."""
        return derive_javascript_calls(cases, stub, tests)

    def transcribe_tests(self, cases: Sequence[Case], tests: Mapping[str, bytes]) -> CallMap | str:
        """Each case's Jest test, what it expects held on the host (`transcripts.py`)."""
        return derive_javascript_transcripts(cases, tests)

    def track_test(self, path: str, data: bytes) -> tuple[str, bytes]:
        """A Jest spec becomes a `node --test` file under test/ (`track.py`)."""
        if not is_spec(path, self.flavour):
            return path, data
        target, text = from_spec(path, data.decode("utf-8", "replace"), self.flavour)
        return target, text.encode()

    def track_example(self, path: str, data: bytes) -> tuple[bytes, str]:
        """An example written as CommonJS is read as the ES module the package is
        (`commonjs.py`)."""
        converted = as_es_module(data.decode("utf-8", "replace")) if path.endswith(".js") else None
        if converted is None:
            return data, ""
        return converted.encode(), (
            f"the reference's {path} is CommonJS (module.exports, require): read as the ES "
            "module the kata's package is"
        )

    def is_test_path(self, path: str) -> bool:
        """`*.test.js` files and anything under a `test/` folder (their helpers)."""
        return bool(self.flavour.test_file.search(path)) or "test" in PurePosixPath(path).parts[:-1]

    def is_runner_config(self, path: str) -> bool:
        """The package and lock files, and any Node, TypeScript, Prettier, ESLint, Babel or
        Jest config."""
        return bool(_RUNNER_CONFIG.search(path)) or "node_modules" in PurePosixPath(path).parts

    def scaffold(self) -> dict[str, str]:
        """An ES module package `kata`, an empty `kata.js` (`kata.ts`: the flavour's first
        suffix) and one toolchain test."""
        suffix = self.flavour.suffixes[0]
        return {
            "package.json": _PACKAGE,
            f"kata{suffix}": _SCAFFOLD_CODE,
            f"test/scaffold.test{suffix}": _SCAFFOLD_TEST,
        }

    def scaffold_under(self, files: Mapping[str, str]) -> dict[str, str]:
        """Beside a kata's own code at the root (an Exercism stub's `leap.js`) the empty
        `kata.js` gives way: a model asked for both wrote both. The package and the
        toolchain test stay."""
        scaffold = self.scaffold()
        if any(self._is_root_code(path) for path in files):
            del scaffold[f"kata{self.flavour.suffixes[0]}"]
        return scaffold

    def _is_root_code(self, path: str) -> bool:
        return (
            "/" not in path
            and path.endswith(self.flavour.suffixes)
            and not (self.is_test_path(path) or self.is_runner_config(path))
        )

    def shown_test(self, path: str, data: bytes) -> bytes:
        """A spec made a `node --test` file, without its import of the image's module of
        Jest's globals (`track.shown`)."""
        del path
        return shown(data.decode("utf-8", "replace")).encode()

    def detect(self, paths: Iterable[str]) -> bool:
        """A package.json at the root."""
        return "package.json" in set(paths)

    def suggest_paths(self, files: Mapping[str, bytes], slug: str) -> tuple[str, list[str]]:
        """The kata's test file (or `test/<slug>.test.js`) and the root's code files."""
        scaffold, found = set(self.scaffold()), self.flavour.test_file
        suffix = self.flavour.suffixes[0]
        tests = sorted(p for p in files if found.search(p) and p not in scaffold)
        code = [p for p in sorted(files) if self._is_root_code(p)] or [f"kata{suffix}"]
        return (tests[0] if tests else f"test/{slug}.test{suffix}"), code

    def defines_tests(self, path: str, text: str) -> bool:
        """A code file that imports the test runner."""
        code = blank(text, re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL))
        return re.search(r"['\"]node:test['\"]", code) is not None


JAVASCRIPT = JavaScript()  # the plug-in the registry (`languages.registry`) holds
