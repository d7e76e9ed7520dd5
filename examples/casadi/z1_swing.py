"""A multiple-shooting trajectory optimisation with casadi.Opti and IPOPT on the
Z1 arm (fixed base, 7 dofs), through both CasADi routes of docs/casadi.md.

The arm swings from rest at q_start to rest at q_goal in T = 1 s, N = 25 steps
of semi-implicit Euler (v+ = v + h aba(q, v, tau), q+ = q + h v+), minimising
h sum (|tau|^2 + |v+|^2) (the velocities' term keeps the light wrist and
gripper from swinging between their limits) under the URDF's torque limits (30 N m, 60 N m for the shoulder)
and its joint limits. The forward dynamics `aba` comes from:

- the symbolic route (`rbdgen generate --casadi`): rbdgen's traced graph as a
  casadi.Function on SX; CasADi differentiates it and evaluates everything in
  its virtual machine;
- the compiled route (`rbdgen generate --casadi-external --crate`): rbdgen's
  generated Rust in a shared library, `jac_aba` from `aba_derivatives`.

Both solve the same problem from the same start with a limited-memory Hessian
(the external function has first derivatives only); the script prints the
iterations, the time per iteration of each and the largest difference between
the two solutions, and plots the joint angles (`--plot FILE`).

    python examples/casadi/z1_swing.py [--plot target/z1_swing.png]

It runs the CLI (`$RBDGEN`, else target/release/rbdgen, else `cargo run
--release -p rbdgen-cli --`) and cargo (the crate builds in
target/casadi-external, about 10 s cold). Needs casadi (3.8.2: the venv of
scripts/setup-python.sh --bindings), numpy, and matplotlib for the plot.
"""

import argparse
import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import casadi as ca
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "target" / "casadi-example"
TARGET = ROOT / "target" / "casadi-external"
MODEL = "models/z1.urdf"


def rbdgen(*args):
    if os.environ.get("RBDGEN"):
        command = [os.environ["RBDGEN"]]
    elif (ROOT / "target" / "release" / "rbdgen").exists():
        command = [str(ROOT / "target" / "release" / "rbdgen")]
    else:
        command = ["cargo", "run", "--quiet", "--release", "-p", "rbdgen-cli", "--"]
    subprocess.run(command + list(args), cwd=ROOT, check=True)


def routes():
    """(the symbolic module, the external aba)."""
    OUT.mkdir(parents=True, exist_ok=True)
    rbdgen("generate", MODEL, "--functions", "aba", "--casadi", "z1_swing_casadi",
           "-o", str(OUT / "z1_swing_casadi.py"), "--quiet")
    rbdgen("generate", MODEL, "--functions", "aba", "--casadi-external", "z1_swing_external",
           "--crate", str(OUT / "z1_swing_external"), "--quiet")
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=OUT / "z1_swing_external",
                   check=True, env={**os.environ, "CARGO_TARGET_DIR": str(TARGET)})
    spec = importlib.util.spec_from_file_location("z1_swing_casadi", OUT / "z1_swing_casadi.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    external = ca.external("aba", str(TARGET / "release" / "libz1_swing_external.so"))
    return module, external


def solve(aba, nv, label):
    """The swing with `aba` as the dynamics: (q, v, tau, iterations, seconds per iteration)."""
    n, duration = 25, 1.0
    h = duration / n
    q_start = np.array([0.0, 0.3, -0.3, 0.0, 0.0, 0.0, -0.5])
    q_goal = np.array([1.2, 1.5, -1.2, 0.6, -0.4, 0.8, -0.5])
    effort = np.array([30.0, 60.0, 30.0, 30.0, 30.0, 30.0, 30.0])
    lower = np.array([-2.61, 0.0, -2.87, -1.51, -1.34, -2.79, -1.57])
    upper = np.array([2.61, 2.96, 0.0, 1.51, 1.34, 2.79, 0.0])
    opti = ca.Opti()
    q = opti.variable(nv, n + 1)
    v = opti.variable(nv, n + 1)
    tau = opti.variable(nv, n)
    cost = 0
    for k in range(n):
        v_next = v[:, k] + h * aba(q[:, k], v[:, k], tau[:, k])
        opti.subject_to(v[:, k + 1] == v_next)
        opti.subject_to(q[:, k + 1] == q[:, k] + h * v_next)
        opti.subject_to(opti.bounded(-effort, tau[:, k], effort))
        cost += h * (ca.sumsqr(tau[:, k]) + ca.sumsqr(v_next))
    opti.subject_to(opti.bounded(lower, q, upper))
    opti.subject_to(q[:, 0] == q_start)
    opti.subject_to(v[:, 0] == 0)
    opti.subject_to(q[:, n] == q_goal)
    opti.subject_to(v[:, n] == 0)
    opti.minimize(cost)
    for k in range(n + 1):
        opti.set_initial(q[:, k], q_start + (q_goal - q_start) * k / n)
    opti.solver("ipopt", {"print_time": False, "record_time": True},
                {"hessian_approximation": "limited-memory", "print_level": 0,
                 "tol": 1e-8, "acceptable_iter": 0, "max_iter": 3000})
    sol = opti.solve()
    stats = opti.stats()
    iterations = max(stats["iter_count"], 1)
    seconds = stats["t_wall_total"]
    # The time in the problem's functions and their derivatives (the dynamics).
    functions = sum(t for key, t in stats.items() if key.startswith("t_wall_nlp_"))
    print(f"{label}: {stats['return_status']}, {iterations} iterations, {seconds:.3f} s "
          f"({1e3 * seconds / iterations:.2f} ms per iteration, of which "
          f"{1e3 * functions / iterations:.2f} ms in the problem's functions), "
          f"cost {float(sol.value(cost)):.6f}")
    return sol.value(q), sol.value(v), sol.value(tau), iterations, seconds / iterations


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plot", type=Path, help="write the joint angles' plot to this file")
    args = parser.parse_args()
    module, external = routes()
    symbolic = solve(module.aba_function, module.NV, "symbolic route (SX, CasADi's machine)")
    compiled = solve(external, module.NV, "compiled route (external aba, jac_aba)")
    gap = max(float(np.abs(a - b).max()) for a, b in zip(symbolic[:3], compiled[:3]))
    print(f"largest difference between the two solutions: {gap:.2e}")
    print(f"time per iteration, symbolic / compiled: {symbolic[4] / compiled[4]:.2f}x")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        t = np.linspace(0.0, 1.0, symbolic[0].shape[1])
        fig, ax = plt.subplots(figsize=(6, 3.5))
        for j in range(module.NV):
            ax.plot(t, symbolic[0][j], label=f"q{j}")
            ax.plot(t, compiled[0][j], "k:", linewidth=1)
        ax.set_xlabel("t (s)")
        ax.set_ylabel("joint angle (rad)")
        ax.set_title("Z1 swing: symbolic route (colours), compiled route (dotted)")
        ax.legend(ncol=4, fontsize=7, loc="lower right")
        fig.tight_layout()
        args.plot.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(args.plot, dpi=100)
        print(f"wrote {args.plot}")
    return 0 if gap < 1e-3 else 1


if __name__ == "__main__":
    sys.exit(main())
