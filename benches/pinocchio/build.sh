#!/usr/bin/env bash
# Build the Pinocchio benchmark harness (benches/pinocchio/harness.cpp) against
# the headers and libraries of PyPI's pin 4.1.0 wheel, and print the path of
# the binary. Next to it, harness.flags records the compiler and the code
# generation flags (-O3 -march=native), which scripts/bench prints.
#
# The Python environment is <repo>/.venv, made or completed by
# scripts/setup-python.sh --cxx (pin 4.1.0 plus cmeel-eigen 3.4.1 and
# cmeel-urdfdom-headers 3.0.0, which the wheel lacks); set RBDGEN_VENV to use
# another venv that already has all of them.
#
# Compiling takes a few CPU-minutes, so the binary is cached in
# target/pinocchio-bench/ and rebuilt only when the source, the flags (which
# name the wheel's location) or the compiler change.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SRC="$ROOT/benches/pinocchio/harness.cpp"
OUT_DIR="$ROOT/target/pinocchio-bench"
BIN="$OUT_DIR/harness"
CXX="${CXX:-g++}"

if [ -n "${RBDGEN_VENV:-}" ]; then
    PY="$RBDGEN_VENV/bin/python"
else
    "$ROOT/scripts/setup-python.sh" --cxx >&2
    PY="$ROOT/.venv/bin/python"
fi
PREFIX="$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/cmeel.prefix"
for need in include/pinocchio include/eigen3 include/urdfdom_headers lib/libpinocchio_default.so; do
    [ -e "$PREFIX/$need" ] || {
        echo "build.sh: $PREFIX/$need missing (run scripts/setup-python.sh --cxx)" >&2
        exit 1
    }
done

# Code generation: what scripts/bench prints beside rbdgen's flags.
OPT_FLAGS=(-std=c++17 -O3 -march=native -DNDEBUG)
CXXFLAGS=(
    "${OPT_FLAGS[@]}"
    # The wheel's libraries are built for baseline x86-64: keep Eigen's
    # alignment assumptions compatible with them under -march=native.
    -DEIGEN_MAX_ALIGN_BYTES=16 -DEIGEN_MALLOC_ALREADY_ALIGNED=1
    -DBOOST_MPL_LIMIT_LIST_SIZE=30 -DBOOST_MPL_LIMIT_VECTOR_SIZE=30
    -DBOOST_MPL_CFG_NO_PREPROCESSED_HEADERS -DBOOST_FUSION_INVOKE_MAX_ARITY=12
    -DPINOCCHIO_WITH_URDFDOM -DPINOCCHIO_URDFDOM_HEADERS_MAJOR_VERSION=3
    -DPINOCCHIO_URDFDOM_HEADERS_MINOR_VERSION=0 -DPINOCCHIO_URDFDOM_HEADERS_PATCH_VERSION=0
    -I"$PREFIX/include" -I"$PREFIX/include/eigen3"
    -I"$PREFIX/include/urdfdom_headers" -I"$PREFIX/include/urdfdom"
)
LDFLAGS=(
    -L"$PREFIX/lib" -Wl,-rpath,"$PREFIX/lib"
    -lpinocchio_parsers -lpinocchio_default -lboost_filesystem -lboost_serialization
    -lurdfdom_model
)

# The binary is current when the source, the flags, the wheel and the compiler are.
STAMP="$( (cat "$SRC"; printf '%s\n' "${CXXFLAGS[@]}" "${LDFLAGS[@]}") | sha256sum | cut -d' ' -f1)"
STAMP="$STAMP $("$CXX" --version | head -1)"
write_flags() {
    local march
    march="$("$CXX" -march=native -Q --help=target 2>/dev/null | awk '$1 == "-march=" && !m {m = $2} END {print m}')"
    echo "$("$CXX" --version | head -1) ${OPT_FLAGS[*]} (native: ${march:-unknown})" >"$BIN.flags"
}
if [ -x "$BIN" ] && [ -f "$BIN.stamp" ] && [ "$(cat "$BIN.stamp")" = "$STAMP" ]; then
    write_flags
    echo "$BIN"
    exit 0
fi

mkdir -p "$OUT_DIR"
LOG="$OUT_DIR/build.log"
echo "build.sh: compiling $SRC (a few minutes; log in $LOG)" >&2
start=$(date +%s)
# Pinocchio's and Eigen's headers warn a lot under GCC 12: keep that in the log.
if ! "$CXX" "${CXXFLAGS[@]}" "$SRC" -o "$BIN.tmp" "${LDFLAGS[@]}" >"$LOG" 2>&1; then
    grep -E "error" "$LOG" | head -20 >&2
    echo "build.sh: compilation failed, see $LOG" >&2
    exit 1
fi
mv "$BIN.tmp" "$BIN"
echo "$STAMP" >"$BIN.stamp"
write_flags
echo "build.sh: built $BIN in $(($(date +%s) - start)) s" >&2
echo "$BIN"
