"""TypeScript: Prettier, ESLint with typescript-eslint, `tsc --strict` and `node --test`,
which runs `.ts` files itself (type stripping): no build step, no transform of the tool's,
and so the code that runs is the code the model wrote, less its types. Why Node's runner and
not Jest with a transform: the guard, the sealed test files and the reporter are Node's
already, and a Jest process costs a test gate seconds that `node --test` does not."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import PurePosixPath

from tdd_sandbox.languages.javascript.calls import derive_javascript_calls
from tdd_sandbox.languages.javascript.driver import JavaScriptDriver
from tdd_sandbox.languages.javascript.flavour import TYPESCRIPT_FLAVOUR, NodeFlavour
from tdd_sandbox.languages.javascript.plugin import JavaScript
from tdd_sandbox.languages.typescript.policy import check_typescript
from tdd_sandbox.vocabulary.cases import CallMap, Case
from tdd_sandbox.vocabulary.violation import Violation

_DECLARATIONS = re.compile(r"\.d\.[cm]?ts$")


class TypeScriptDriver(JavaScriptDriver):
    """JavaScript's driver, its cases' processes run with TypeScript's flags."""

    flavour = TYPESCRIPT_FLAVOUR


class TypeScript(JavaScript):
    """The TypeScript plug-in: an ES module package, tests in `test/*.test.ts`."""

    driver_class = TypeScriptDriver
    flavour: NodeFlavour = TYPESCRIPT_FLAVOUR
    name = "typescript"
    title = "TypeScript"
    image_folder = "javascript"  # one Node image: TypeScript needs nothing JavaScript lacks
    collects = (
        "a test('name', ...) or it('name', ...) call with a literal name, inside describe() "
        "blocks or not, in a *.test.ts file (outside node_modules)"
    )
    prompt_note = (
        'TypeScript run by Node.js 24 itself, ES modules ("type": "module"), no packages. '
        "The code is kata.ts at the root (export what the tests import); tests are "
        'test/*.test.ts files using `import { test } from "node:test"`, `import assert from '
        '"node:assert/strict"` and `import { ... } from "../kata.ts"` (with its .ts). A '
        "type-only import says `import type`. Code must pass Prettier (defaults), ESLint "
        "(recommended rules, typescript-eslint's too) and `tsc --noEmit --strict`."
    )

    def check_source(
        self, path: str, text: str, *, is_test: bool, tree: Mapping[str, bytes]
    ) -> list[Violation]:
        """The pack's static policy (`policy.py`): JavaScript's, and the compiler's hatches."""
        del tree  # code imports its own files only
        return check_typescript(path, text, is_test=is_test)

    def derive_calls(
        self, cases: Sequence[Case], stub: Mapping[str, bytes], tests: Mapping[str, bytes]
    ) -> CallMap | str:
        """JavaScript's, on the stub's TypeScript modules, their parameters' types read past."""
        return derive_javascript_calls(cases, stub, tests, self.flavour.suffixes)

    def track_example(self, path: str, data: bytes) -> tuple[bytes, str]:
        """The track's code as it is: TypeScript's track writes ES modules."""
        return data, ""

    def detect(self, paths: Iterable[str]) -> bool:
        """A package.json at the root, and a tsconfig.json or TypeScript source beside it."""
        listed = set(paths)
        if "package.json" not in listed:
            return False
        return "tsconfig.json" in listed or any(
            p.endswith(self.source_suffixes)
            and not _DECLARATIONS.search(p)
            and "node_modules" not in PurePosixPath(p).parts
            for p in listed
        )


TYPESCRIPT = TypeScript()  # the plug-in the registry (`languages.registry`) holds
