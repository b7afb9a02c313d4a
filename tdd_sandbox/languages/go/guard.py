"""The guarded `go test` run: sentinel tests beside every package's tests, and the packages
announced behind the nonce, so a test binary cannot forge or suppress results unseen."""

from __future__ import annotations

import re

SENTINEL_PREFIX = "TestTddCheck"
SENTINEL = re.compile(SENTINEL_PREFIX + "[0-9a-f]{6}")

# The image holds the standard library compiled once (/opt/go-cache); the go command needs
# its cache writable, so the first go command of a container copies it to the tmpfs.
WARM = "[ -d /tmp/go-cache ] || cp -R /opt/go-cache /tmp/go-cache || exit 3\n"

# The guarded test gate. The go command (not the test binary) turns what a test binary prints
# into JSON events, escaping it as output, so a line on stdout that starts with the nonce's
# frame can only come from this shell. On a copy of the module it adds to every package with
# tests a file of two sentinel tests (one must pass, one must fail), announcing each package,
# then runs the tests. The file joins the package's internal tests (`leap`, not `leap_test`) and
# is named to sort first, because go test runs tests in file order and a panic ends the binary:
# a red test that panics must not read as sentinels suppressed. A build failure exits 2: the
# run never got to its tests.
GUARD = (
    WARM
    + r"""
n=$1; sentinels=$2; out=/tmp/tdd-guard-$n
rm -rf /tmp/module "$out" && mkdir -p /tmp/module "$out" && cp -R /work/. /tmp/module/ || exit 3
cd /tmp/module || exit 3
module=$(sed -n 's/^module[[:space:]]\{1,\}"\{0,1\}\([^"[:space:]]*\).*/\1/p' go.mod | head -n 1)
find . \( -name '.?*' -o -name '_*' -o -name testdata -o -name vendor \) -prune \
  -o -type f -name '*_test.go' -print | sed 's|/[^/]*$||' | sort -u > "$out/dirs"
while read -r dir; do
  first=$(ls "$dir"/*_test.go | head -n 1)
  package=$(sed -n 's/^package[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$first" \
    | head -n 1)
  [ -n "$package" ] || continue
  printf 'package %s\n%s' "${package%_test}" "$sentinels" > "$dir/00_tdd_guard_${n}_test.go"
  case $dir in .) path=$module ;; *) path=$module/${dir#./} ;; esac
  printf '@@%s package %s\n' "$n" "$path"
done < "$out/dirs"
go test -json -count=1 -vet=off ./... > "$out/events"; status=$?
cat "$out/events"
grep -q '"Action":"build-fail"' "$out/events" && status=2
printf '\n@@%s end\n' "$n"
exit $status
"""
)


def sentinel_names(nonce: str) -> tuple[str, str]:
    """The passing and the failing sentinel test's names for `nonce`."""
    return SENTINEL_PREFIX + nonce[:6], SENTINEL_PREFIX + nonce[6:12]


def sentinel_tests(nonce: str) -> str:
    """The sentinel file after its package clause: one test must pass, one must fail."""
    passing, failing = sentinel_names(nonce)
    a, b = int(nonce[:4], 16), int(nonce[4:8], 16)
    return (
        '\nimport "testing"\n\n'
        f"func {passing}(t *testing.T) {{\n\tif {a}+{b} != {a + b} {{\n\t\tt.Fatal(1)\n\t}}\n}}\n\n"
        f"func {failing}(t *testing.T) {{\n\tif {a}*{b} == {a * b} {{\n\t\tt.Fatal(2)\n\t}}\n}}\n"
    )
