#!/usr/bin/env bash
# Create the Python environment used to build the robot models and the
# Pinocchio reference values: a venv at <repo>/.venv with Pinocchio 4.1.0,
# example-robot-data 6.0.0, numpy and mpmath (50-digit values of the Lie-group
# edge cases, scripts/make_lie_reference.py). Idempotent: does nothing when the venv
# already provides them all.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"

if [ ! -x "$PY" ]; then
    python3 -m venv "$VENV"
fi

have_packages() {
    "$PY" - <<'PY' 2>/dev/null
import importlib.metadata as md
import mpmath  # noqa: F401
import numpy  # noqa: F401
import pinocchio
assert pinocchio.__version__ == "4.1.0", pinocchio.__version__
assert md.version("example-robot-data") == "6.0.0"
PY
}

if ! have_packages; then
    "$PY" -m pip install --upgrade pip
    "$PY" -m pip install numpy mpmath "pin==4.1.0" "example-robot-data==6.0.0"
    have_packages || { echo "setup-python.sh: packages still not importable" >&2; exit 1; }
fi
echo "Python environment ready: $PY"
