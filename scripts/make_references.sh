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

# Whole-body control quantities (--wbc): armature drawn from the seed, contact
# sets, per-frame Jdot and drifts, dhg, the regressor; and the MPC derivatives
# (--mpc: frame velocity and acceleration derivatives, centroidal, contact and
# impulse dynamics derivatives), checked against central differences on the
# first state of each file; in tests/reference/wbc/.
# wbc URDF fixed|floating STATES SEED NAME [make_reference.py options...]
wbc() {
    local urdf="$1" base="$2" states="$3" seed="$4" name="$5" flag=()
    shift 5
    [ "$base" = floating ] && flag=(--floating-base)
    "$PY" scripts/make_reference.py "$urdf" "${flag[@]}" --states "$states" --seed "$seed" \
        --wbc --mpc --armature-seed "$seed" "$@" --out "$OUT/wbc/$name.json"
    echo "$OUT/wbc/$name.json"
}
FEET=FL_foot:point,FR_foot:point,RL_foot:point,RR_foot:point
wbc models/go2_z1.urdf floating 4 2001 go2_z1_floating --contacts "$FEET"
# Mixed point and 6d contacts; the per-frame keys only for the contact frames,
# the trunk and the gripper (the file above has them for every frame).
wbc models/go2_z1.urdf floating 4 2002 go2_z1_floating_gripper \
    --contacts "$FEET,gripper_link:6d" --frames base,FL_foot,FR_foot,RL_foot,RR_foot,gripper_link
wbc models/go2.urdf floating 3 2003 go2_floating --contacts "$FEET"
# z1.urdf has no gripper_link (go2_z1.urdf adds it below gripperMover): the
# last link, gripperMover, is the 6d contact.
wbc models/z1.urdf fixed 3 2004 z1_fixed --contacts gripperMover:6d
wbc models/double_pendulum_continuous.urdf fixed 3 2005 double_pendulum_continuous_fixed

# Free-flyers below a link named `world`: the floating base matters there too.
for urdf in tests/urdf/world_root.urdf tests/urdf/floating_joint.urdf; do
    seed="$(basename "$urdf" .urdf | cksum | cut -d' ' -f1)"
    ref "$urdf" floating 5 "$seed"
done

# Free-flyer quaternions and continuous joints off the unit sphere/circle.
"$PY" scripts/make_nonunit_reference.py --out "$OUT/nonunit/nonunit_q.json"
echo "$OUT/nonunit/nonunit_q.json"

# Mimic joints (buildModelFromUrdf(.., mimic=True)), in tests/reference/mimic/:
# Panda's fingers, and a chain of mimics whose composed equivalent Pinocchio
# loads (it refuses a mimic of a mimic).
mkdir -p "$OUT/mimic"
"$PY" scripts/make_mimic_reference.py models/panda.urdf --states 3 --seed 11 \
    --out "$OUT/mimic/panda_fixed.json"
"$PY" scripts/make_mimic_reference.py tests/urdf/mimic/chain_flat.urdf \
    --model-urdf tests/urdf/mimic/chain.urdf --states 3 --seed 12 --out "$OUT/mimic/chain_fixed.json"
"$PY" scripts/make_mimic_reference.py tests/urdf/mimic/chain_flat.urdf --floating-base \
    --model-urdf tests/urdf/mimic/chain.urdf --states 3 --seed 13 --out "$OUT/mimic/chain_floating.json"
echo "$OUT/mimic/"
