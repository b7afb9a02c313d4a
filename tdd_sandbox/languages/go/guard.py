"""The guarded `go test` run: sentinel tests beside every package's tests, and the packages
announced behind the nonce, so a test binary cannot forge or suppress results unseen."""

from __future__ import annotations

import re

SENTINEL_PREFIX = "TestTddCheck"
SENTINEL = re.compile(SENTINEL_PREFIX + "[0-9a-f]{6}")

# The image holds the standard library compiled once (/opt/go-cache); the go command needs
# its cache writable, so the first go command of a container copies it to the tmpfs.
WARM = "[ -d /tmp/go-cache ] || cp -R /opt/go-cache /tmp/go-cache || exit 3\n"

# The guarded build and test gates. The go command's test2json (not the test binary) turns what
# a test binary prints into JSON events, escaping it as output, so a line on stdout that
# starts with the nonce's frame can only come from this shell. On a copy of the module the
# build adds to every package with tests a file of two sentinel tests (one must pass, one must
# fail). The file joins the package's internal tests (`leap`, not `leap_test`) and is named to
# sort first, because go test runs tests in file order and a panic ends the binary: a red test
# that panics must not read as sentinels suppressed.
PREPARE = r"""
n=$1; sentinels=$2; out=/tmp/tdd-guard-$n
if [ ! -f "$out/packages" ]; then
  rm -rf /tmp/module "$out" && mkdir -p /tmp/module "$out/bin" && cp -R /work/. /tmp/module/ \
    || exit 3
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
    printf '%s %s\n' "$dir" "$path" >> "$out/packages"
  done < "$out/dirs"
  touch "$out/packages"
fi
cd /tmp/module || exit 3
"""
# The build compiles each package's test binary, then deletes every test source of the copy,
# so the binaries run with nothing of the tests' text left to read (the snapshot's own are
# sealed before the test gate).
GUARDED_BUILD = (
    WARM
    + PREPARE
    + r"""
go build -o /dev/null ./... || exit 1
i=0
while read -r dir path; do
  i=$((i + 1))
  go test -c -vet=off -o "$out/bin/$i.test" "$dir" || exit 1
done < "$out/packages"
find /tmp/module -type f -name '*_test.go' -delete || exit 3
: > "$out/built"
"""
)
# The test gate announces each package behind the nonce, then runs the binaries the build
# made, each in its package's folder as go test would, into test2json; with no build
# before it, it runs go test itself. A build failure exits 2: the run never got to its tests.
GUARD = (
    WARM
    + PREPARE
    + r"""
while read -r dir path; do printf '@@%s package %s\n' "$n" "$path"; done < "$out/packages"
if [ -f "$out/built" ]; then
  status=0; i=0
  while read -r dir path; do
    i=$((i + 1))
    # Streamed as it comes, so a flood meets the output cap rather than filling the tmpfs.
    # test2json reads the binary's output from a pipe, so the exit code is the binary's own
    # (run by test2json, any failure exits 1).
    { (cd "$dir" && exec "$out/bin/$i.test" -test.v=test2json -test.count=1 \
        -test.paniconexit0 -test.timeout=10m0s 2>&1)
      echo $? > "$out/rc"; } | go tool test2json -t -p "$path" | tee "$out/one"
    rc=$(cat "$out/rc")
    [ "$rc" = 0 ] || status=1
    # A binary that died has no end event of its package; the go command adds one. A
    # panic exits 2 and a signal 128 and over; any other exit before the testing package's
    # end is one the code chose.
    if ! grep -q "\"Action\":\"[a-z]*\",\"Package\":\"$path\",\"Elapsed\"" "$out/one"; then
      printf '{"Action":"fail","Package":"%s","Elapsed":0}\n' "$path"
      [ "$rc" = 2 ] || [ "$rc" -ge 128 ] || printf '\n@@%s cut %s %s\n' "$n" "$path" "$rc"
    fi
  done < "$out/packages"
else
  go test -json -count=1 -vet=off ./... > "$out/events"; status=$?
  cat "$out/events"
  grep -q '"Action":"build-fail"' "$out/events" && status=2
fi
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
