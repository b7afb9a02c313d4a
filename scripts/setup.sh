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
for release in $(sed -n 's/^ARG BASE_IMAGE=debian:\([a-z]*\)-slim$/\1/p' tdd_sandbox/languages/*/image/Dockerfile | sort -u); do
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
