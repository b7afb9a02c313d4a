"""The case runs a driver's script makes, one process per case, and how their framed
reports are read back: `@@<nonce> <index> <json>` a case, or `@@<nonce> build-failed` and
the build's output."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from tdd_sandbox.vocabulary.cases import Case, Observed

_COMPILER_ERROR = re.compile(r"error|\S+:\d+:\d+: |\S+:\d+: error: ")
_RUSTC_WHERE = re.compile(r"^\s*--> (\S+:\d+:\d+)\s*$")
_RUSTC_CODE = re.compile(r"^\s*\d+ \| (.*\S.*)$")
RESULTS = "/tmp/tdd-acceptance/out"
"""Where a compiled language's driver script collects every case's framed line."""

# The shell that a compiled language's driver script shares, run as
# `sh -c SCRIPT acceptance <nonce> <cases> <seconds per case>`: its build, whose failure is
# reported behind the nonce with its output (a long one as its start and its end: the first
# error, which a second try hears, is at the start, and a log's end says why where no line
# reads as an error), and one process per case, each under `timeout`, its output capped, so
# a case that hangs or floods fails alone. A case killed at its limit that reported nothing
# is reported so (`TIMED_OUT`): a second try hears why.
_BUILD = r"""if ! {build} > /tmp/tdd-acceptance/build.log 2>&1; then
  printf '@@%s build-failed\n' "$n" > "$out"
  if [ "$(wc -c < /tmp/tdd-acceptance/build.log)" -le 8000 ]; then
    cat /tmp/tdd-acceptance/build.log >> "$out"
  else
    head -c 6000 /tmp/tdd-acceptance/build.log >> "$out"
    printf '\n[...]\n' >> "$out"
    tail -c 2000 /tmp/tdd-acceptance/build.log >> "$out"
  fi
  exit 0
fi
"""
TIMED_OUT = r"""  if [ "$(cat /tmp/tdd-acceptance/rc)" = 137 ] && ! grep -q "^@@$n $i " "$out"; then
    printf '\n@@%s %s {"failure": "timed out after %ss"}\n' "$n" "$i" "$limit" >> "$out"
  fi
"""
"""After a case's `{ timeout -s KILL ...; echo $? > /tmp/tdd-acceptance/rc; }`: a case the
limit killed (status 137) before it reported fails as timed out, not as a crash."""
_CASES = (
    r"""i=0
while [ "$i" -lt "$count" ]; do
  { timeout -s KILL "$limit" {run} "$i" "$n" 2>/dev/null; echo $? > /tmp/tdd-acceptance/rc; } |
    head -c 1000000 >> "$out"
"""
    + TIMED_OUT
    + r"""  i=$((i + 1))
done
"""
)


def observed_from(report: Any) -> Observed:
    """One case's report (a driver's JSON) as an `Observed`; anything malformed is a failure."""
    if not isinstance(report, dict):
        return Observed(failure="a malformed report")
    if "failure" in report:
        return Observed(failure=str(report["failure"])[:300])
    if "error" in report:
        kinds = report.get("error_kinds")
        return Observed(
            error=str(report["error"]),
            error_type=str(report.get("error_type", "")),
            error_kinds=tuple(map(str, kinds)) if isinstance(kinds, list) else (),
        )
    if set(report) == {"value"}:
        return Observed(value=report["value"])
    return Observed(failure="a malformed report")


def read_framed(
    data: bytes | None, nonce: str, cases: Sequence[Case]
) -> tuple[dict[str, Observed], str]:
    """What a compiled language's driver reported: one `@@<nonce> <index> <json>` line per
    case, each from its own process, or `@@<nonce> build-failed` and the build's output.
    Conflicting lines for one case make it a failure."""
    text = (data or b"").decode("utf-8", "replace")
    if text.startswith(f"@@{nonce} build-failed"):
        return {}, "did not compile: " + first_error(text.splitlines()[1:])
    seen: dict[int, Any] = {}
    conflicting: set[int] = set()
    for match in re.finditer(rf"^@@{re.escape(nonce)} (\d+) (.*)$", text, re.MULTILINE):
        index = int(match.group(1))
        try:
            report = json.loads(match.group(2))
        except ValueError:
            report = {"failure": "an unreadable report"}
        if index in seen and seen[index] != report:
            conflicting.add(index)
        seen[index] = report
    observed = {}
    for index, case in enumerate(cases):
        if index in conflicting:
            observed[case.id] = Observed(failure="conflicting reports for one case")
        elif index in seen:
            observed[case.id] = observed_from(seen[index])
        else:
            observed[case.id] = Observed(failure="crashed: it ended without reporting")
    return observed, ""


def first_error(log: list[str]) -> str:
    """The first error of a build's `log`, where it is and the code there, which a second
    try is told: go's `./kata.go:3:9: undefined: x` and javac's `X.java:51: error: ...` say
    where on their line, rustc's `error[E0425]: ...` on the next (`--> src/lib.rs:3:9`);
    rustc and gcc show the code as `30 |   code`, javac as the line above a caret. The
    log's end where no error is found."""
    at = next((i for i, line in enumerate(log) if _COMPILER_ERROR.match(line)), None)
    if at is None:
        return "\n".join(log)[-300:].strip()
    error, after = log[at], log[at + 1 : at + 6]
    if after and (where := _RUSTC_WHERE.match(after[0])):
        error = f"{where.group(1)}: {error}"
    code = next((m.group(1).strip() for m in map(_RUSTC_CODE.match, after) if m), "")
    if not code and len(after) > 1 and after[1].strip().startswith("^"):
        code = after[0].strip()
    return error + (f" (`{code}`)" if code else "")


def case_script(setup: str, build: str | None, run: str) -> str:
    """A driver script: `setup` (shell, run first), `build` (a command whose failure ends the
    run as `build-failed`) and `run` (the command each case's index and the nonce are passed
    to)."""
    head = f"n=$1; count=$2; limit=$3; out={RESULTS}\nmkdir -p /tmp/tdd-acceptance || exit 3\n"
    built = _BUILD.format(build=build) if build else ""
    return head + setup.strip("\n") + "\n" + built + _CASES.replace("{run}", run)
