"""Go's acceptance driver, host side: generates a `main` package that imports the model's
module (its code files only, under a go.mod of the tool's) and performs one case per process."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from tdd_sandbox.languages.driving import DRIVER_DIR, FramedDriver, Prepared, render_calls
from tdd_sandbox.languages.framing import RESULTS, case_script
from tdd_sandbox.languages.go.reader import GO_DIRECTIVE, module_path
from tdd_sandbox.languages.literal import LiteralSyntax
from tdd_sandbox.vocabulary.cases import CallMap, Case

_TEMPLATE = Path(__file__).with_name("driver.go")
_MODULE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._~/-]{0,127}")
_PACKAGE = re.compile(r"^package\s+(\w+)", re.MULTILINE)
_SHARED_FILE = "tdd_track_shared.go"
"""Where the functions the track's tests give the package go (`CallMap.package_source`)."""

# Built in a copy under /tmp, where the driver becomes the module's package `tdd_acceptance`;
# one process per case, each under `timeout`, its output capped, so a case that hangs or
# floods fails alone.
_SCRIPT = case_script(
    "[ -d /tmp/go-cache ] || cp -R /opt/go-cache /tmp/go-cache || exit 3\n"
    "mkdir -p /tmp/module && cp -R /work/. /tmp/module/ && cd /tmp/module || exit 3\n"
    "mkdir -p tdd_acceptance && mv .tdd/acceptance/driver.go tdd_acceptance/main.go || exit 3",
    "go build -o /tmp/tdd-acceptance/driver ./tdd_acceptance",
    "/tmp/tdd-acceptance/driver",
)


class GoDriver(FramedDriver):
    """Builds the model's module with a generated driver program, then runs it once per case."""

    source = _TEMPLATE

    def prepare(
        self, files: Mapping[str, bytes], cases: Sequence[Case], calls: CallMap, nonce: str
    ) -> Prepared:
        """The model's non-test `.go` files, a go.mod of the tool's and the generated driver."""
        module = module_path(files)
        if not _MODULE.fullmatch(module):
            module = "kata"
        answers = render_calls(calls, cases, GO_LITERALS.render, lambda call: f"capture({call})")
        arms = "\n".join(f"\tcase {i}:\n\t\treturn {answer}" for i, answer in enumerate(answers))
        source = self.source.read_text()
        # The track's helpers the calls need (`tables`), their imports less the driver's own.
        setup = "".join(
            line
            for line in calls.setup.splitlines(keepends=True)
            if not (line.startswith("import ") and f"\t{line[7:].strip()}\n" in source)
        )
        source = source.replace("${MODULE}", module).replace("/*CASES*/", arms)
        source = source.replace("/*SETUP*/", setup)
        shipped = {
            path: data
            for path, data in files.items()
            if path.endswith(".go")
            and not path.endswith("_test.go")
            and not path.startswith(("tdd_acceptance/", ".tdd/"))
        }
        if calls.package_source and (package := _package(shipped)):
            shipped[_SHARED_FILE] = f"package {package}\n\n{calls.package_source}\n".encode()
        shipped["go.mod"] = f"module {module}\n\n{GO_DIRECTIVE}\n".encode()
        shipped[f"{DRIVER_DIR}/driver.go"] = source.encode()
        limit = f"{calls.timeout_s:g}"
        command = ("sh", "-c", _SCRIPT, "acceptance", nonce, str(len(cases)), limit)
        return Prepared(shipped, command, RESULTS)


def _package(files: Mapping[str, bytes]) -> str:
    """The package the code at the module's root declares ("" where none does)."""
    for path, data in sorted(files.items()):
        if "/" not in path and (found := _PACKAGE.search(data.decode("utf-8", "replace"))):
            return found[1]
    return ""


GO_LITERALS = LiteralSyntax(
    language="Go",
    null="nil",
    # JSON's escapes (\", \\, \n, \uXXXX for control characters) are Go's too.
    string=lambda text: json.dumps(text, ensure_ascii=False),
    sequence=lambda kind, items: f"[]{kind}{{{items}}}",
    kinds=("bool", "int", "float64", "string"),
    nested=lambda kind: "[]" + kind,
    empty="nil",
)
"""Go's spelling: a list of one kind is a slice of it (`[]int{...}`), an empty one `nil`."""
