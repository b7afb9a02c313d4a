"""The guarded `cargo test` run: sentinel tests in every integration test file, and each
test binary's own log framed behind the nonce, so a binary cannot forge its results unseen."""

from __future__ import annotations

import re

from tdd_sandbox.languages.readout import SentinelReports

# The guarded test gate. It works on a copy of the crate (the snapshot is read-only) with a
# pair of sentinel tests appended to every integration test file, builds the test binaries
# once, then runs each itself with its own `--logfile`: libtest writes that file as each test
# ends, apart from stdout, and the shell (not the binary) frames it for the host behind the
# nonce. A binary that prints forged result lines, or exits early, leaves a log that
# disagrees with them.
PREPARE = r"""
n=$1; sentinels=$2; out=/tmp/tdd-guard-$n
if [ ! -f "/tmp/crate/.tdd-guard-$n" ]; then
  mkdir -p "$out" /tmp/crate && cp -R /work/. /tmp/crate/ || exit 3
  for f in /tmp/crate/tests/*.rs; do [ -f "$f" ] && printf '%s' "$sentinels" >> "$f"; done
  : > "/tmp/crate/.tdd-guard-$n"
fi
cd /tmp/crate || exit 3
set -- --all-targets
if [ -f src/lib.rs ] && ls tests/*.rs > /dev/null 2>&1 \
    && ! grep -qsE 'autotests|^[[:space:]]*\[lib\]' Cargo.toml \
    && ! find . -path ./tests -prune -o -path ./target -prune -o -name '*.rs' -print0 \
      | xargs -0r grep -lsE 'test|include' | grep -q .; then
  set -- --lib --bins --examples --test '*'
fi
"""
# `PREPARE` leaves the targets to build as its arguments. A test harness of the crate's own
# sources (src/lib.rs's and each binary's) costs a fifth of a build's CPU, and almost always
# holds no test: it is built only where a source outside tests/ could define one or pull one
# in (its text holds "test" or "include" anywhere), where the manifest names its own library
# or turns the test files' targets off, or where there is no src/lib.rs or no test file.
# Else the targets are the library, binaries, examples and the test files, and the test run
# builds and runs the test files alone.
# Lint and build run on that same copy: cargo may write a lock file there (a crate without
# one, or with one this cargo would regenerate, cannot build in the read-only snapshot), and
# the test gate after them compiles nothing again.
GUARDED_BUILD = PREPARE + 'exec cargo --offline --color=never build "$@"\n'
GUARDED_LINT = PREPARE + 'exec cargo --offline --color=never clippy "$@" -- -D warnings\n'
GUARD = (
    PREPARE
    + r"""
[ "$1" = --all-targets ] && set -- || set -- --test '*'
if ! cargo --offline --color=never test --no-run --message-format=json-render-diagnostics "$@" \
    > "$out/build.json" 2> "$out/build.err"; then
  cat "$out/build.err"; exit 101
fi
# The copy's tests are built: the sources they were built from go before any of them runs
# (the originals in the snapshot are sealed by then), so no test binary can read its answers
# off them. The compiler's dep-info beside each binary names those; what it does not name
# stays (data files, a crate the tests build to see it fail). No dep-info: every source goes.
rm -f tests/*.rs
for exe in $(sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' "$out/build.json"); do
  if [ ! -f "$exe.d" ]; then find tests -type f -name '*.rs' -delete; continue; fi
  sed -e '1!d' -e 's/^[^:]*: //' -e 's/\\ /\x1f/g' "$exe.d" | tr ' ' '\n' | tr '\037' ' ' \
    | sed 's#^/tmp/crate/##' | grep '^tests/' | while IFS= read -r f; do rm -f -- "$f"; done
done
sed -n 's/.*"src_path":"\([^"]*\)".*"executable":"\([^"]*\)".*/\1 \2/p' "$out/build.json" \
  > "$out/binaries"
status=0
while read -r src exe; do
  rel=${src#/tmp/crate/}
  printf '     Running %s (%s)\n' "$rel" "$exe"
  "$exe" --logfile "$out/log" 2>&1; rc=$?
  [ "$rc" -ne 0 ] && status=$rc
  printf '\n@@%s log %s ' "$n" "$rel"; base64 -w0 < "$out/log" 2>/dev/null; printf ' end\n'
  rm -f "$out/log"
done < "$out/binaries"
printf '\n@@%s end\n' "$n"
exit $status
"""
)


def sentinel_names(nonce: str) -> tuple[str, str]:
    """The passing and the failing sentinel test's names for `nonce`."""
    return f"tdd_check_{nonce[:6]}", f"tdd_check_{nonce[6:12]}"


def sentinel_tests(nonce: str) -> str:
    """Two tests appended to every integration test file: one must pass, one must fail."""
    passing, failing = sentinel_names(nonce)
    a, b = int(nonce[:4], 16), int(nonce[4:8], 16)
    return (
        f"\n\n#[test]\nfn {passing}() {{\n    assert_eq!({a}_u64 + {b}_u64, {a + b}_u64);\n}}\n"
        f"\n#[test]\nfn {failing}() {{\n    assert_eq!({a}_u64 * {b}_u64, {a * b + 1}_u64);\n}}\n"
    )


CARGO_SENTINELS = SentinelReports(
    opens=re.compile(r"^---- tdd_check_[0-9a-f]{6} stdout ----"),
    closes=re.compile(r"^(?:test |---- |failures:|test result:)"),
    lone=re.compile(r"^(?:test tdd_check_[0-9a-f]{6} |    tdd_check_[0-9a-f]{6}$)"),
)
"""Where `cargo test` reports the sentinels (`sentinel_names`): a line of the run, a
failure's output, a line of the failures' list."""
