"""Gravity torques of Go2+Z1's arm over a sweep of its shoulder, from the
Python module that `rbdgen generate --python` writes (docs/python.md).

One batch call computes `generalized_gravity` for every configuration of the
sweep (lanes and threads, the GIL released); a plot with matplotlib shows the
arm's six torques against the shoulder angle.

    python examples/python/gravity_sweep.py --out target/gravity_sweep.png
"""

import argparse
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import go2_z1  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", default="target/gravity_sweep.png", help="the PNG to write (its directory is made)"
    )
    args = parser.parse_args()

    arm = [go2_z1.JOINT_NAMES.index(f"joint{k}") for k in range(1, 7)]
    # Joint id i (JOINT_NAMES[i - 1]) has q entry 7 + (i - 2) and v entry
    # 6 + (i - 2) here: a free-flyer, then one revolute entry per joint.
    shoulder = 7 + arm[1] - 1
    angles = np.linspace(0.0, 2.8, 200)
    q = np.tile(go2_z1.NEUTRAL, (len(angles), 1))
    q[:, shoulder] = angles
    g = go2_z1.generalized_gravity_batch(q)

    fig, ax = plt.subplots(figsize=(7, 4))
    for k, joint in enumerate(arm):
        ax.plot(angles, g[:, 6 + joint - 1], label=go2_z1.JOINT_NAMES[joint])
    ax.set_xlabel("joint2 (shoulder) angle [rad]")
    ax.set_ylabel("gravity torque [N·m]")
    ax.set_title("Go2+Z1 arm: generalized_gravity over a shoulder sweep")
    ax.legend(ncol=3, fontsize="small")
    fig.tight_layout()
    pathlib.Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}: {len(angles)} states in one batch call")


if __name__ == "__main__":
    main()
