#!/usr/bin/env bash
# The project's checks: set the machine up, then lint, type-check and run every test,
# Docker tests included (in CI they fail rather than skip when Docker is missing).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "» ruff check" >&2 && ruff check .
echo "» ruff format --check" >&2 && ruff format --check .
echo "» mypy --strict" >&2 && mypy
echo "» pytest" >&2
exec python3 -m pytest "$@"
