#!/usr/bin/env python3
"""Write tests/urdf/long/long_chain.urdf: a serial chain of N revolute joints.

    python3 scripts/make_long_chain.py [N]   # N = 60 by default

Axes, joint offsets and link inertias vary along the chain so that nothing
folds away. At N = 60, the generated `kinetic_energy` and the last link's
`frame_jacobian_local` are longer than one block and are emitted in parts
(tests/generated_parts.rs, which checks them against the runtime). The file
sits in a folder of its own so that scripts/make_references.sh, which writes a
Pinocchio reference for each tests/urdf/*.urdf, leaves it out.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AXES = ["1 0 0", "0 1 0", "0 0 1", "0.6 0 0.8", "0 0.8 -0.6"]


def chain(n):
    out = [
        '<?xml version="1.0"?>',
        f"<!-- A serial chain of {n} revolute joints, written by scripts/make_long_chain.py {n}. -->",
        '<robot name="long_chain">',
    ]
    for i in range(n + 1):
        m = 1.0 + 0.37 * ((i * 7) % 5)
        cx, cy = 0.01 * ((i % 3) - 1), 0.02 * ((i % 4) - 1.5)
        ixx, iyy, izz = 0.01 + 0.001 * (i % 5), 0.012 + 0.001 * (i % 3), 0.008 + 0.001 * (i % 4)
        out += [
            f'  <link name="link{i}">',
            "    <inertial>",
            f'      <origin xyz="{cx:g} {cy:g} 0.05" rpy="{0.1 * (i % 3):g} 0 {0.2 * (i % 2):g}"/>',
            f'      <mass value="{m:g}"/>',
            f'      <inertia ixx="{ixx:g}" ixy="0.0001" ixz="0" iyy="{iyy:g}" iyz="0.0002" izz="{izz:g}"/>',
            "    </inertial>",
            "  </link>",
        ]
    for i in range(1, n + 1):
        out += [
            f'  <joint name="joint{i}" type="revolute">',
            f'    <origin xyz="0.01 0 0.1" rpy="{0.05 * (i % 4):g} {-0.03 * (i % 3):g} 0"/>',
            f'    <parent link="link{i - 1}"/>',
            f'    <child link="link{i}"/>',
            f'    <axis xyz="{AXES[i % len(AXES)]}"/>',
            '    <limit lower="-3" upper="3" effort="10" velocity="1"/>',
            "  </joint>",
        ]
    out.append("</robot>")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    with open(os.path.join(ROOT, "tests", "urdf", "long", "long_chain.urdf"), "w") as f:
        f.write(chain(n))
