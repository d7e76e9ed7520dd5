#!/usr/bin/env bash
# Create the Python environment used to build the robot models and the
# Pinocchio reference values: a venv at <repo>/.venv with Pinocchio 4.1.0,
# example-robot-data 6.0.0, numpy and mpmath (50-digit values of the Lie-group
# edge cases, scripts/make_lie_reference.py). Idempotent: does nothing when the venv
# already provides them all.
#
# With --cxx, also install the headers that the `pin` wheel does not ship but
# its C++ API needs (cmeel-eigen 3.4.1, cmeel-urdfdom-headers 3.0.0), for the
# Pinocchio C++ benchmark harness in benches/pinocchio/. With --mujoco, also
# MuJoCo 4.0.0, the second reference of scripts/conformance-mjcf. With
# --bindings, also maturin 1.16.0, pytest 9.2.0 and matplotlib 3.11.2, which
# build, test and plot the Python module of `rbdgen generate --python`
# (scripts/python-bindings), and casadi 3.8.2, which tests/python/test_casadi.py
# runs the CasADi export (`rbdgen generate --casadi`) on.
set -euo pipefail

CXX_HEADERS=0
MUJOCO=0
BINDINGS=0
for arg in "$@"; do
    case "$arg" in
        --cxx) CXX_HEADERS=1 ;;
        --mujoco) MUJOCO=1 ;;
        --bindings) BINDINGS=1 ;;
        *) echo "usage: $0 [--cxx] [--mujoco] [--bindings]" >&2; exit 2 ;;
    esac
done

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

have_cxx_headers() {
    "$PY" - <<'PY' 2>/dev/null
import importlib.metadata as md
assert md.version("cmeel-eigen") == "3.4.1"
assert md.version("cmeel-urdfdom-headers") == "3.0.0"
PY
}

have_mujoco() {
    "$PY" - <<'PY' 2>/dev/null
import mujoco
assert mujoco.__version__ == "4.0.0", mujoco.__version__
PY
}

if [ "$MUJOCO" = 1 ] && ! have_mujoco; then
    "$PY" -m pip install "mujoco==4.0.0"
    have_mujoco || { echo "setup-python.sh: mujoco still not importable" >&2; exit 1; }
fi

if [ "$CXX_HEADERS" = 1 ] && ! have_cxx_headers; then
    "$PY" -m pip install "cmeel-eigen==3.4.1" "cmeel-urdfdom-headers==3.0.0"
    have_cxx_headers || { echo "setup-python.sh: C++ headers still missing" >&2; exit 1; }
fi
have_bindings() {
    "$PY" - <<'PY' 2>/dev/null
import importlib.metadata as md
assert md.version("maturin") == "1.16.0"
assert md.version("pytest") == "9.2.0"
assert md.version("matplotlib") == "3.11.2"
assert md.version("casadi") == "3.8.2"
PY
}

if [ "$BINDINGS" = 1 ] && ! have_bindings; then
    "$PY" -m pip install "maturin==1.16.0" "pytest==9.2.0" "matplotlib==3.11.2" "casadi==3.8.2"
    have_bindings || { echo "setup-python.sh: maturin, pytest, matplotlib or casadi still missing" >&2; exit 1; }
fi
echo "Python environment ready: $PY"
