#!/usr/bin/env bash
# Regenerate every committed Pinocchio reference in tests/reference/ as
# <robot>_<fixed|floating>.json. Seeds are fixed, so a rerun is byte-identical.
#
#   scripts/setup-python.sh && scripts/make_references.sh
#   PY=/path/to/python scripts/make_references.sh    # another Python with Pinocchio
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# The Python with Pinocchio: $PY if set, else the repository's .venv.
PY="${PY:-$ROOT/.venv/bin/python}"
OUT=tests/reference
mkdir -p "$OUT"

# ref URDF fixed|floating STATES SEED
ref() {
    local urdf="$1" base="$2" states="$3" seed="$4"
    local robot flag=()
    robot="$(basename "$urdf" .urdf)"
    [ "$base" = floating ] && flag=(--floating-base)
    "$PY" scripts/make_reference.py "$urdf" "${flag[@]}" \
        --states "$states" --seed "$seed" --out "$OUT/${robot}_${base}.json"
    echo "$OUT/${robot}_${base}.json"
}

ref models/go2.urdf floating 5 1001
ref models/z1.urdf fixed 5 1002
ref models/go2_z1.urdf floating 10 1003
ref models/double_pendulum_continuous.urdf fixed 5 1004
ref models/panda.urdf fixed 5 1005

# The seed of each test URDF comes from its file name (CRC of the name), so
# adding a file does not change the other references.
for urdf in tests/urdf/*.urdf; do
    seed="$(basename "$urdf" | cksum | cut -d' ' -f1)"
    ref "$urdf" fixed 5 "$seed"
done

# Lie-group operations at their branch points (zero, series thresholds, π),
# with 50-digit values where Pinocchio loses digits.
"$PY" scripts/make_lie_reference.py --out "$OUT/lie_group/edge_cases.json"
echo "$OUT/lie_group/edge_cases.json"

# Free-flyers below a link named `world`: the floating base matters there too.
for urdf in tests/urdf/world_root.urdf tests/urdf/floating_joint.urdf; do
    seed="$(basename "$urdf" .urdf | cksum | cut -d' ' -f1)"
    ref "$urdf" floating 5 "$seed"
done

# Free-flyer quaternions and continuous joints off the unit sphere/circle.
"$PY" scripts/make_nonunit_reference.py --out "$OUT/nonunit/nonunit_q.json"
echo "$OUT/nonunit/nonunit_q.json"
