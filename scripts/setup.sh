#!/usr/bin/env bash
# Make this machine ready to run tdd-sandbox: a Docker engine, the package, the images.
# Idempotent: each step is skipped when already done. Needs root for the engine steps on a
# machine without Docker (it installs Debian's docker.io and debootstrap).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m» %s\033[0m\n' "$*" >&2; }
engine_up() { docker info >/dev/null 2>&1; }

# docker-compose (Debian's, v1) only validates compose.yaml in the tests; chromium renders
# the bench's report.html in a test and in scripts/report_screenshot.py.
missing=""
for tool in dockerd debootstrap docker-compose chromium; do
  command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
if [ -n "$missing" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  packages=""
  case "$missing" in *dockerd*) engine_up || packages="docker.io" ;; esac
  case "$missing" in *debootstrap*) packages="$packages debootstrap" ;; esac
  case "$missing" in *docker-compose*) packages="$packages docker-compose" ;; esac
  case "$missing" in *chromium*) packages="$packages chromium" ;; esac
  if [ -n "$packages" ]; then
    say "installing$packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086 # a list of package names
    apt-get install -y -qq $packages >/dev/null
  fi
fi

# runsc (gVisor), the second sandbox runtime (`sandbox.runtime: runsc`), from Debian 13:
# Debian 12's (2022) fails statx, so `ls -l`, `stat` and the Go guard's scripts fail in it.
# On Debian 12 the trixie archive is added pinned to runsc alone (priority 1 for the rest:
# nothing else ever comes from it).
runsc_current() {
  local version
  version=$(runsc --version 2>/dev/null | sed -n 's/^runsc version .*[^0-9]\([0-9]\{8\}\).*/\1/p')
  [ -n "$version" ] && [ "$version" -ge 20240729 ]
}
if ! runsc_current && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  say "installing runsc (gVisor) from Debian 13"
  # shellcheck disable=SC1091 # the machine's own release file
  . /etc/os-release
  if [ "${VERSION_CODENAME:-}" = bookworm ]; then
    cat >/etc/apt/sources.list.d/tdd-sandbox-trixie.sources <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    printf 'Package: *\nPin: release n=trixie\nPin-Priority: 1\n\nPackage: runsc\nPin: release n=trixie\nPin-Priority: 500\n' \
      >/etc/apt/preferences.d/tdd-sandbox-trixie
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq runsc >/dev/null
fi

# Register runsc with the engine this script runs (never with one DOCKER_HOST names: that
# engine's owner registers it). --network=none: gVisor sets up no network stack at all, on
# top of the container's own `network_mode: none`.
register_runsc() {
  [ -z "${DOCKER_HOST:-}" ] && [ "$(id -u)" = 0 ] && command -v runsc >/dev/null 2>&1 || return 0
  mkdir -p /etc/docker
  python3 - "$(command -v runsc)" <<'PY' || return 0
import json, pathlib, sys
path = pathlib.Path("/etc/docker/daemon.json")
config = json.loads(path.read_text() or "{}") if path.exists() else {}
wanted = {"path": sys.argv[1], "runtimeArgs": ["--network=none"]}
if config.get("runtimes", {}).get("runsc") == wanted:
    sys.exit(1)  # already registered: nothing to reload
config.setdefault("runtimes", {})["runsc"] = wanted
path.write_text(json.dumps(config, indent=2) + "\n")
PY
  say "registered runsc (gVisor) in /etc/docker/daemon.json"
  # A running engine takes new runtimes on SIGHUP, without a restart.
  if pid=$(pidof dockerd); then kill -HUP $pid; sleep 1; fi
}
register_runsc

if ! engine_up; then
  if [ -n "${DOCKER_HOST:-}" ]; then
    echo "DOCKER_HOST=$DOCKER_HOST does not answer: start that engine first" >&2
    exit 3
  fi
  command -v dockerd >/dev/null 2>&1 || { echo "no Docker engine and none installable here" >&2; exit 3; }
  say "starting dockerd (log: /var/log/tdd-sandbox-dockerd.log)"
  nohup dockerd >/var/log/tdd-sandbox-dockerd.log 2>&1 &
  for _ in $(seq 60); do engine_up && break; sleep 1; done
  engine_up || { echo "dockerd did not come up; see /var/log/tdd-sandbox-dockerd.log" >&2; exit 3; }
fi

say "installing tdd-sandbox with its dev extras"
python3 -m pip install -q --disable-pip-version-check -e '.[dev]'

# Each language image builds on the Debian release its Dockerfile names (debian:<release>-slim);
# where no registry answers, on a base made with debootstrap instead (the tool picks whichever
# the engine has). `images bootstrap` makes only the bases still missing.
missing_base=0
for release in $(sed -n 's/^ARG BASE_IMAGE=debian:\([a-z]*\)-slim$/\1/p' images/*/Dockerfile | sort -u); do
  docker image inspect "debian:$release-slim" >/dev/null 2>&1 && continue
  docker image inspect "tdd-sandbox/base:$release" >/dev/null 2>&1 && continue
  timeout 60 docker pull -q "debian:$release-slim" >/dev/null 2>&1 || missing_base=1
done
if [ "$missing_base" = 1 ]; then
  say "no registry: bootstrapping the missing base images with debootstrap"
  tdd-sandbox images bootstrap
fi

say "building the sandbox images (reused when unchanged)"
tdd-sandbox images build
