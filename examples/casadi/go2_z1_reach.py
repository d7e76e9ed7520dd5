"""A multiple-shooting trajectory optimisation with casadi.Opti and IPOPT on
Go2+Z1 (free-flyer, nq = 25, nv = 24) standing on its four feet, through both
CasADi routes of docs/casadi.md.

The robot stands on four point contacts (FL_foot, FR_foot, RL_foot, RR_foot)
and moves the gripper (frame gripper_link) to a target 12 cm ahead, 8 cm to
the side and 10 cm up, reached at the middle of the horizon, and back, while
the base stays balanced: N knots of h = 0.05 s (N = 20 by default: 1 s), the
stance step as the dynamics constraint,

    (a, λ) = contact_dynamics(q, v, [0₆; u], 0),  v⁺ = v + h a,  q⁺ = integrate(q, h v⁺),

the 18 joint torques u within the URDF's effort limits, the joints within
their position limits, and each foot's force λ = (fx, fy, fz) (world axes)
in the μ = 0.6 friction pyramid (|fx|, |fy| ≤ μ fz). The cost: the gripper's
distance to the target at the middle knot and to its start at the last
(weighted), plus h Σ (1e-3 |u - u_g|² + 0.1 |v⁺|²) and the base's 7 entries'
distance to the standing pose; the last knot at rest. Initial guess: the
standing pose with its gravity-compensating torques u_g (from rnea and the
contact Jacobian: the forces of least norm that carry the robot).

The stance step's contact_dynamics comes from:

- the symbolic route (`rbdgen generate --casadi`): rbdgen's traced graph as a
  casadi.Function on SX; CasADi differentiates it and evaluates everything in
  its virtual machine;
- the compiled route (`rbdgen generate --casadi-external --crate`): rbdgen's
  generated Rust in a shared library, `jac_contact_dynamics` from
  `contact_dynamics_derivatives` (the base's 7 entries of q by automatic
  differentiation of the traced graph).

`integrate` and the gripper's `frame_placement` (small) are the symbolic
module's in both. Both solve the same problem from the same start with a
limited-memory Hessian; the script prints the iterations, the time per
iteration of each and the largest difference between the two solutions, and
plots the gripper, the base and the feet's normal forces (`--plot FILE`).

    python examples/casadi/go2_z1_reach.py [--knots 20] [--plot target/go2_z1_reach.png]

It runs the CLI (`$RBDGEN`, else target/release/rbdgen, else `cargo run
--release -p rbdgen-cli --`) and cargo (the crate builds in
target/casadi-external). Needs casadi (3.8.2), numpy, matplotlib for the plot.
"""

import argparse
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import casadi as ca
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "target" / "casadi-example"
TARGET = ROOT / "target" / "casadi-external"
MODEL = "models/go2_z1.urdf"
FEET = ["FL_foot", "FR_foot", "RL_foot", "RR_foot"]
CONTACTS = ",".join(f"{foot}:point" for foot in FEET)
GRIPPER = "gripper_link"
MU = 0.6
H = 0.05


def rbdgen(*args):
    if os.environ.get("RBDGEN"):
        command = [os.environ["RBDGEN"]]
    elif (ROOT / "target" / "release" / "rbdgen").exists():
        command = [str(ROOT / "target" / "release" / "rbdgen")]
    else:
        command = ["cargo", "run", "--quiet", "--release", "-p", "rbdgen-cli", "--"]
    subprocess.run(command + list(args), cwd=ROOT, check=True)


def routes():
    """(the symbolic module, the external contact_dynamics)."""
    OUT.mkdir(parents=True, exist_ok=True)
    common = [MODEL, "--floating-base", "--contacts", CONTACTS, "--quiet"]
    rbdgen("generate", *common, "--functions",
           "contact_dynamics,integrate,frame_placement,rnea,contact_jacobian",
           "--frames", GRIPPER, "--casadi", "go2_z1_reach_casadi",
           "-o", str(OUT / "go2_z1_reach_casadi.py"))
    rbdgen("generate", *common, "--functions", "contact_dynamics",
           "--casadi-external", "go2_z1_reach_external",
           "--crate", str(OUT / "go2_z1_reach_external"))
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=OUT / "go2_z1_reach_external",
                   check=True, env={**os.environ, "CARGO_TARGET_DIR": str(TARGET)})
    spec = importlib.util.spec_from_file_location("go2_z1_reach_casadi",
                                                  OUT / "go2_z1_reach_casadi.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    external = ca.external("contact_dynamics",
                           str(TARGET / "release" / "libgo2_z1_reach_external.so"))
    return module, external


def standing(rb):
    """The standing pose, its gravity-compensating joint torques and feet's forces."""
    q0 = np.array(rb.NEUTRAL, dtype=float).flatten()
    q0[2] = 0.3
    for leg in range(4):
        q0[7 + 3 * leg: 10 + 3 * leg] = [0.0, 0.8, -1.5]
    q0[19:25] = [0.0, 0.6, -0.7, 0.1, 0.0, 0.0]
    g = rb.rnea_function(q0, np.zeros(rb.NV), np.zeros(rb.NV)).full().flatten()
    jc = rb.contact_jacobian_function(q0).full()
    # J_cᵀ λ carries the base's rows of g (least-norm λ), the joints the rest.
    lam = np.linalg.lstsq(jc[:, :6].T, g[:6], rcond=None)[0]
    u = g[6:] - jc[:, 6:].T @ lam
    return q0, u, lam


def solve(rb, contact_dynamics, knots, label):
    """The reach with `contact_dynamics` as the stance step: (q, v, u, λ, gripper
    positions, iterations, seconds per iteration, seconds in the functions per
    iteration)."""
    n = knots
    q0, u0, lam0 = standing(rb)
    integrate = rb.integrate_function
    gripper = rb.function("frame_placement", GRIPPER)
    p0 = gripper(q0).full()[:3, 3]
    target = p0 + np.array([0.12, 0.08, 0.10])
    effort = np.array([23.7, 23.7, 45.43] * 4 + [30.0, 60.0, 30.0, 30.0, 30.0, 30.0])
    lower = np.array([-1.0472, -1.5708, -2.7227] * 2 + [-1.0472, -0.5236, -2.7227] * 2
                     + [-2.618, 0.0, -2.8798, -1.5184, -1.3439, -2.7925])
    upper = np.array([1.0472, 3.4907, -0.83776] * 2 + [1.0472, 4.5379, -0.83776] * 2
                     + [2.618, 2.967, 0.0, 1.5184, 1.3439, 2.7925])

    opti = ca.Opti()
    q = opti.variable(rb.NQ, n + 1)
    v = opti.variable(rb.NV, n + 1)
    u = opti.variable(rb.NV - 6, n)
    lam = []
    cost = 0
    for k in range(n):
        tau = ca.vertcat(ca.MX.zeros(6), u[:, k])
        a, lam_k = contact_dynamics(q[:, k], v[:, k], tau, 0.0)
        v_next = v[:, k] + H * a
        opti.subject_to(v[:, k + 1] == v_next)
        opti.subject_to(q[:, k + 1] == integrate(q[:, k], H * v_next))
        opti.subject_to(opti.bounded(-effort, u[:, k], effort))
        for foot in range(4):
            fx, fy, fz = lam_k[3 * foot], lam_k[3 * foot + 1], lam_k[3 * foot + 2]
            opti.subject_to(opti.bounded(-MU * fz, fx, MU * fz))
            opti.subject_to(opti.bounded(-MU * fz, fy, MU * fz))
        lam.append(lam_k)
        cost += H * (1e-2 * ca.sumsqr(u[:, k] - u0) + ca.sumsqr(v_next))
        cost += H * 1e2 * ca.sumsqr(q[:7, k + 1] - q0[:7])
    opti.subject_to(gripper(q[:, n // 2])[:3, 3] == target)
    opti.subject_to(gripper(q[:, n])[:3, 3] == p0)
    opti.subject_to(opti.bounded(lower, q[7:, :], upper))
    opti.subject_to(q[:, 0] == q0)
    opti.subject_to(v[:, 0] == 0)
    opti.subject_to(v[:, n] == 0)
    opti.minimize(cost)
    for k in range(n + 1):
        opti.set_initial(q[:, k], q0)
    for k in range(n):
        opti.set_initial(u[:, k], u0)
    opti.solver("ipopt", {"print_time": False, "record_time": True},
                {"hessian_approximation": "limited-memory", "print_level": 0,
                 "tol": 1e-6, "acceptable_iter": 0, "max_iter": 1000})
    sol = opti.solve()
    stats = opti.stats()
    iterations = max(stats["iter_count"], 1)
    seconds = stats["t_wall_total"]
    functions = sum(t for key, t in stats.items() if key.startswith("t_wall_nlp_"))
    print(f"{label}: {stats['return_status']}, {iterations} iterations, {seconds:.3f} s "
          f"({1e3 * seconds / iterations:.2f} ms per iteration, of which "
          f"{1e3 * functions / iterations:.2f} ms in the problem's functions), "
          f"cost {float(sol.value(cost)):.6f}")
    qs = sol.value(q)
    grip = np.array([gripper(qs[:, k]).full()[:3, 3] for k in range(n + 1)])
    forces = np.array([sol.value(l) for l in lam])
    print(f"  gripper at the middle knot {np.round(grip[n // 2], 4)} (target {np.round(target, 4)}), "
          f"at the end {1e3 * np.linalg.norm(grip[n] - p0):.2f} mm from its start; "
          f"base moved at most {1e3 * np.abs(qs[:3] - q0[:3, None]).max():.2f} mm; "
          f"smallest normal force {forces[:, 2::3].min():.2f} N")
    return (qs, sol.value(v), sol.value(u), forces, grip, target,
            iterations, seconds / iterations, functions / iterations)


def plot(path, symbolic, compiled, knots):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = H * np.arange(knots + 1)
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
    grip, target = symbolic[4], symbolic[5]
    for i, axis in enumerate("xyz"):
        axes[0].plot(t, grip[:, i] - grip[0, i], label=f"gripper {axis}")
        axes[0].plot(t, compiled[4][:, i] - compiled[4][0, i], "k:", linewidth=1)
        axes[0].plot(t[knots // 2], target[i] - grip[0, i], "x", color=f"C{i}")
    axes[0].set_title("gripper - start (x: target)")
    axes[0].set_ylabel("m")
    q = symbolic[0]
    for i, axis in enumerate("xyz"):
        axes[1].plot(t, 1e3 * (q[i] - q[i, 0]), label=f"base {axis}")
        axes[1].plot(t, 1e3 * (compiled[0][i] - compiled[0][i, 0]), "k:", linewidth=1)
    axes[1].set_title("base position - start")
    axes[1].set_ylabel("mm")
    for foot in range(4):
        axes[2].step(t[:-1], symbolic[3][:, 3 * foot + 2], where="post", label=FEET[foot])
        axes[2].step(t[:-1], compiled[3][:, 3 * foot + 2], "k:", where="post", linewidth=1)
    axes[2].set_title("feet's normal forces")
    axes[2].set_ylabel("N")
    for ax in axes:
        ax.set_xlabel("t (s)")
        ax.legend(fontsize=7)
    fig.suptitle("Go2+Z1 reach: symbolic route (colours), compiled route (dotted)")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    print(f"wrote {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--knots", type=int, default=20, help="the horizon's knots (of 0.05 s)")
    parser.add_argument("--plot", type=Path, help="write the plot to this file")
    args = parser.parse_args()
    rb, external = routes()
    symbolic = solve(rb, rb.contact_dynamics_function, args.knots,
                     "symbolic route (SX, CasADi's machine)")
    compiled = solve(rb, external, args.knots,
                     "compiled route (external contact_dynamics, jac_contact_dynamics)")
    # Each quantity's largest difference, relative to its largest entry (to 1
    # for q and v): the forces are tens of newtons.
    gaps = [float(np.abs(a - b).max() / max(1.0, np.abs(a).max()))
            for a, b in zip(symbolic[:4], compiled[:4])]
    gap = max(gaps)
    print("largest difference between the two solutions: "
          + ", ".join(f"{name} {g:.1e}" for name, g in zip(("q", "v", "u", "λ"), gaps))
          + " (u and λ relative to their largest entry)")
    print(f"time per iteration, symbolic / compiled: {symbolic[7] / compiled[7]:.2f}x "
          f"(in the problem's functions: {symbolic[8] / compiled[8]:.2f}x)")
    if args.plot:
        plot(args.plot, symbolic, compiled, args.knots)
    return 0 if gap < 1e-3 else 1


if __name__ == "__main__":
    sys.exit(main())
