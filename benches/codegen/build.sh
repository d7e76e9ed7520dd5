#!/usr/bin/env bash
# Build the code-generator benchmark (benches/codegen/: main.cpp, cppadcg.cpp,
# casadi.cpp) against PyPI's pin 4.1.0 wheel, cmeel-cppad, cmeel-cppadcodegen
# and casadi, and print the path of the binary. Next to it, codegen-bench.flags
# records the compiler and the flags of the harness itself.
#
# The Python environment is <repo>/.venv (scripts/bench-codegen installs the
# packages; set RBDGEN_VENV to use another venv that has them). The binary is
# cached in target/codegen-bench/: an object is recompiled only when its
# source, the shared headers, the flags (which name the wheels' location) or
# the compiler change. The C that the binary generates at run time, and the
# libraries compiled from it, go where its --work-dir says
# (scripts/bench-codegen: target/codegen-bench/generated/).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SRC_DIR="$ROOT/benches/codegen"
SOURCES=(main.cpp cppadcg.cpp casadi.cpp)
OUT_DIR="$ROOT/target/codegen-bench"
BIN="$OUT_DIR/codegen-bench"
CXX="${CXX:-g++}"

PY="${RBDGEN_VENV:-$ROOT/.venv}/bin/python"
PURELIB="$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
PREFIX="$PURELIB/cmeel.prefix"
CASADI="$PURELIB/casadi"
for need in "$PREFIX/include/pinocchio/codegen/cppadcg-algo.hpp" "$PREFIX/include/cppad/cg.hpp" \
    "$PREFIX/include/eigen3" "$PREFIX/lib/libpinocchio_default.so" "$PREFIX/lib/libcppad_lib.so" \
    "$CASADI/include/casadi/casadi.hpp" "$CASADI/libcasadi.so"; do
    [ -e "$need" ] || {
        echo "build.sh: $need missing (run scripts/bench-codegen, which installs the packages)" >&2
        exit 1
    }
done

# As benches/pinocchio/build.sh: the harness's own code (Pinocchio's double
# algorithms, the timing loop) is compiled like Pinocchio's harness.
OPT_FLAGS=(-std=c++17 -O3 -march=native -DNDEBUG)
CXXFLAGS=(
    "${OPT_FLAGS[@]}"
    -DEIGEN_MAX_ALIGN_BYTES=16 -DEIGEN_MALLOC_ALREADY_ALIGNED=1
    -DBOOST_MPL_LIMIT_LIST_SIZE=30 -DBOOST_MPL_LIMIT_VECTOR_SIZE=30
    -DBOOST_MPL_CFG_NO_PREPROCESSED_HEADERS -DBOOST_FUSION_INVOKE_MAX_ARITY=12
    -DPINOCCHIO_WITH_URDFDOM -DPINOCCHIO_URDFDOM_HEADERS_MAJOR_VERSION=3
    -DPINOCCHIO_URDFDOM_HEADERS_MINOR_VERSION=0 -DPINOCCHIO_URDFDOM_HEADERS_PATCH_VERSION=0
    -I"$PREFIX/include" -I"$PREFIX/include/eigen3"
    -I"$PREFIX/include/urdfdom_headers" -I"$PREFIX/include/urdfdom"
    -I"$CASADI/include"
)
LDFLAGS=(
    -L"$PREFIX/lib" -Wl,-rpath,"$PREFIX/lib" -L"$CASADI" -Wl,-rpath,"$CASADI"
    -lpinocchio_parsers -lpinocchio_default -lboost_filesystem -lboost_serialization
    -lurdfdom_model -lcppad_lib -lcasadi -ldl
)

# cppadcg.cpp without -march=native: with AVX and EIGEN_MAX_ALIGN_BYTES=16,
# Eigen 3.4.1's 6x6 inverse on CppAD::AD<CppAD::cg::CG<double>> (ABA's free
# flyer) crashes in gemm_pack_rhs while taping. What that file compiles is
# the taping and the call into the generated library; the generated C, which
# is what the benchmark times, gets -march=native (scripts/bench-codegen).
flags_for() {
    local f
    for f in "${CXXFLAGS[@]}"; do
        [ "$1" = cppadcg.cpp ] && [ "$f" = -march=native ] && continue
        printf '%s\n' "$f"
    done
}

# An object is current when its source, the shared headers, the flags and the
# compiler are; the binary when its objects and the link flags are.
COMPILER="$("$CXX" --version | head -1)"
object_stamp() {
    (cat "$SRC_DIR/$1" "$SRC_DIR/common.hpp" "$SRC_DIR/generators.hpp"
     flags_for "$1"; echo "$COMPILER") | sha256sum | cut -d' ' -f1
}
STAMP="$( (for s in "${SOURCES[@]}"; do object_stamp "$s"; done
           printf '%s\n' "${LDFLAGS[@]}") | sha256sum | cut -d' ' -f1)"
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
start=$(date +%s)
# The stale objects in parallel (each takes minutes: Pinocchio's templates on
# double, on CppAD's code-generation scalar and on casadi::SX).
pids=()
stale=()
for s in "${SOURCES[@]}"; do
    obj="$OUT_DIR/${s%.cpp}.o"
    stamp="$(object_stamp "$s")"
    if [ -f "$obj" ] && [ "$(cat "$obj.stamp" 2>/dev/null)" = "$stamp" ]; then
        continue
    fi
    echo "build.sh: compiling $s (several minutes; log in ${obj%.o}.log)" >&2
    mapfile -t flags < <(flags_for "$s")
    ( "$CXX" "${flags[@]}" -c "$SRC_DIR/$s" -o "$obj" >"${obj%.o}.log" 2>&1 &&
      echo "$stamp" >"$obj.stamp" ) &
    pids+=($!)
    stale+=("$s")
done
failed=0
for i in "${!pids[@]}"; do
    if ! wait "${pids[$i]}"; then
        s="${stale[$i]}"
        grep -E "error" "$OUT_DIR/${s%.cpp}.log" | head -20 >&2
        echo "build.sh: compiling $s failed, see $OUT_DIR/${s%.cpp}.log" >&2
        failed=1
    fi
done
[ "$failed" = 0 ] || exit 1
"$CXX" "$OUT_DIR"/main.o "$OUT_DIR"/cppadcg.o "$OUT_DIR"/casadi.o -o "$BIN.tmp" "${LDFLAGS[@]}"
mv "$BIN.tmp" "$BIN"
echo "$STAMP" >"$BIN.stamp"
write_flags
echo "build.sh: built $BIN in $(($(date +%s) - start)) s" >&2
echo "$BIN"
