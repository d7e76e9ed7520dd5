"""Go2 in MuJoCo under the whole-body MPC of mpc.py: the scenarios.

    python examples/go2_trot/run.py stand|trot|walk [--out DIR] [--duration S]
        [--lineariser rbdgen|pinocchio] [--no-compare]

- stand: 5 s on four feet, pushed sideways four times (50 N for 0.1 s on the
  base, MuJoCo's xfrc_applied), alternately to the left and to the right;
- trot: trot in place for 10 s (after 0.5 s standing);
- walk: trot forward at 0.4 m/s for 10 s, then turn on the spot at 0.5 rad/s
  for 5 s (commands ramped over 0.5 s).

Each run prints in words whether the robot fell (base below 0.15 m, or a
body other than a foot touching the floor), the mean velocity error, the
largest base tilt, the time per MPC tick (linearisation, QP, the rest)
against the tick period, and the same linearisation through Pinocchio in the
same run (`--no-compare` skips it); and writes DIR/go2_SCENARIO.png.
The batch calls and numpy's BLAS run on one thread unless RAYON_NUM_THREADS
and OPENBLAS_NUM_THREADS say otherwise.
The generated module `go2_mpc` must be installed (scripts/go2-trot builds it).
"""

import argparse
import os
import sys
import time
from pathlib import Path

# One thread for the batch calls and for numpy's BLAS unless told otherwise
# (set before numpy loads): 16 knots are too few to split (two rayon threads
# took 1.25 ms per tick against 0.48 ms for one, in the loop, on this
# project's 2 shared cores), and OpenBLAS's threads on the condensing's
# products made the rest of a tick 55.7 ms instead of 10.2 ms while another
# build held the cores.
for _var in ("RAYON_NUM_THREADS", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mpc as wbmpc  # noqa: E402
import plant as go2plant  # noqa: E402

TICK = 0.02  # s, the MPC's period and knot step
KP, KD = 25.0, 1.0  # the joint feedback between ticks (N·m/rad, N·m·s/rad)
FALL_HEIGHT = 0.15


def ramp(t, t0, t1):
    return float(np.clip((t - t0) / (t1 - t0), 0.0, 1.0))


SCENARIOS = {
    # name: (duration, trot, command(t) -> (vx, vy, wz), pushes [(start, force)])
    "stand": (5.0, False, lambda t: (0.0, 0.0, 0.0),
              [(1.0, (0, 50, 0)), (2.0, (0, -50, 0)), (3.0, (0, 50, 0)), (4.0, (0, -50, 0))]),
    "trot": (10.0, True, lambda t: (0.0, 0.0, 0.0), []),
    "walk": (15.0, True,
             lambda t: (0.4 * ramp(t, 0.5, 1.0) * (1 - ramp(t, 10.0, 10.5)), 0.0, 0.5 * ramp(t, 10.0, 10.5)),
             []),
}


def make_controller(plant, lineariser="rbdgen", compare=True, pin_model_path=None):
    import go2_mpc

    pin_lin = None
    if lineariser == "pinocchio" or compare:
        import pinocchio as pin

        path = pin_model_path or go2plant.derive_controller_mjcf(
            go2plant.ROOT / "target" / "go2_trot" / "go2_feet.xml")
        pin_lin = wbmpc.PinocchioLinearizer(pin.buildModelFromMJCF(str(path)))
    rb_lin = wbmpc.RbdgenLinearizer(go2_mpc)
    main, other = (rb_lin, pin_lin) if lineariser == "rbdgen" else (pin_lin, rb_lin if compare else None)
    return main, other, go2_mpc


def run(scenario, duration=None, lineariser="rbdgen", compare=True, quiet=False, verbose=False,
        heading=0.0):
    """Runs a scenario from the initial yaw `heading` (rad); returns its log
    (a dict of arrays) and summary."""
    total, trot, command, pushes = SCENARIOS[scenario]
    total = duration if duration is not None else total
    plant = go2plant.Plant(heading)
    main, other, dyn = make_controller(plant, lineariser, compare)
    gait = wbmpc.Gait(trot=trot)
    ctrl = wbmpc.WholeBodyMPC(dyn, main, plant.torque_limit, gait, dt=TICK,
                              home=go2plant.HOME_JOINTS, compare=other)
    substeps = int(round(TICK / plant.dt))
    q, v = plant.state()
    ctrl.reset(q, v)
    for _ in range(10):  # converge the first trajectory before the clock starts
        ctrl.t_tick = None
        ctrl.tick(0.0, q, v, command(0.0))
    ctrl.timings.clear()
    ctrl.qp_cold_solves = ctrl.qp_failures = 0

    log = {k: [] for k in ("t", "v", "cmd", "height", "tilt", "forces", "down", "push")}
    fell, why = False, ""
    wall0 = time.perf_counter()
    for tick in range(int(round(total / TICK))):
        t = plant.time
        q, v = plant.state()
        timing = ctrl.tick(t, q, v, command(t))
        if verbose:
            print(f"t={t:.2f} z={q[2]:.3f} tilt={np.degrees(go2plant.tilt(q[3:7])):.1f} "
                  f"v={np.round(v[:3], 2)} qp={ctrl.qp_status} it={ctrl.qp_iterations} "
                  f"tick={1e3 * sum(timing[k] for k in ('linearisation', 'qp', 'rest')):.1f} ms "
                  f"down={ctrl.down_now.astype(int)} u0={np.round(ctrl.us[0], 1)}", flush=True)
        for _ in range(substeps):
            ts = plant.time
            push = next((f for (t0, f) in pushes if t0 <= ts < t0 + 0.1), (0, 0, 0))
            plant.push(push)
            q, v = plant.state()
            q_des, v_des, tau_ff = ctrl.joint_targets(ts)
            tau = tau_ff + KP * (q_des - q[7:]) + KD * (v_des - v[6:]) + plant.passive_compensation(v[6:])
            plant.set_torques(tau)
            plant.step()
            log["t"].append(ts)
            log["v"].append(np.concatenate([v[:2], v[5:6]]))
            log["cmd"].append(command(ts))
            log["height"].append(q[2])
            log["tilt"].append(go2plant.tilt(q[3:7]))
            log["forces"].append(plant.foot_normal_forces())
            log["down"].append(gait.contact(ts))
            log["push"].append(push[1])
            touching = plant.body_on_floor()
            if q[2] < FALL_HEIGHT or touching:
                fell = True
                why = (f"the base came down to {q[2]:.3f} m" if q[2] < FALL_HEIGHT
                       else f"{touching} touched the floor")
                break
        if fell:
            break
    wall = time.perf_counter() - wall0
    log = {k: np.array(x) for k, x in log.items()}
    log["timings"] = ctrl.timings
    summary = summarise(scenario, log, fell, why, ctrl, main, other, wall)
    if not quiet:
        print(summary["text"])
    return log, summary


def summarise(scenario, log, fell, why, ctrl, main, other, wall):
    t = log["t"]
    err = log["v"] - log["cmd"]
    lin_err = float(np.mean(np.linalg.norm(err[:, :2], axis=1)))
    yaw_err = float(np.mean(np.abs(err[:, 2])))
    tilt_max = float(np.degrees(np.max(log["tilt"])))
    tm = ctrl.timings
    mean = {k: 1e3 * float(np.mean([x[k] for x in tm])) for k in ("linearisation", "qp", "rest", "compare")}
    worst = 1e3 * float(np.max([x["linearisation"] + x["qp"] + x["rest"] for x in tm]))
    tick_ms = mean["linearisation"] + mean["qp"] + mean["rest"]
    lines = [f"Scenario {scenario}: {t[-1]:.2f} s simulated, {len(tm)} MPC ticks of {1e3 * TICK:.0f} ms "
             f"({ctrl.N} knots, horizon {ctrl.N * ctrl.dt:.2f} s), linearised by {main.name}."]
    lines.append(f"The robot fell at t = {t[-1]:.2f} s: {why}." if fell else
                 f"The robot did not fall (lowest base height {np.min(log['height']):.3f} m, "
                 f"only the feet touched the floor).")
    lines.append(f"Mean velocity error: {lin_err:.3f} m/s in the horizontal plane (base frame), "
                 f"{yaw_err:.3f} rad/s in yaw rate.")
    lines.append(f"Largest base tilt: {tilt_max:.1f} degrees.")
    lines.append(f"Time per MPC tick, mean: {tick_ms:.2f} ms = linearisation {mean['linearisation']:.2f} ms "
                 f"+ QP {mean['qp']:.2f} ms + the rest {mean['rest']:.2f} ms, against a period of "
                 f"{1e3 * TICK:.0f} ms ({'within' if tick_ms < 1e3 * TICK else 'over'} it: "
                 f"{1e3 * TICK / tick_ms:.2f}x real time); the slowest tick {worst:.2f} ms.")
    lines.append(f"QP: {ctrl.qp_cold_solves} of {len(tm)} ticks solved again from a cold start, "
                 f"{ctrl.qp_failures} left unsolved (the last trajectory kept).")
    if other is not None:
        ratio = mean["compare"] / mean["linearisation"]
        if main.name != "rbdgen":
            ratio = 1 / ratio
        lines.append(f"The same linearisation through {other.name}: {mean['compare']:.2f} ms per tick; "
                     f"rbdgen is {ratio:.1f}x as fast as Pinocchio; largest relative difference of "
                     f"A, B, λ and its derivatives between the two: {ctrl.compare_error:.1e}.")
    lines.append(f"Wall-clock time of the run: {wall:.1f} s (with the plant and the logging).")
    return dict(text="\n".join(lines), fell=fell, velocity_error=lin_err, yaw_rate_error=yaw_err,
                tilt_deg=tilt_max, tick_ms=tick_ms, mean_ms=mean,
                compare_error=ctrl.compare_error if other is not None else None)


def plot(scenario, log, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = log["t"]
    fig, axes = plt.subplots(7, 1, figsize=(10, 14), sharex=True,
                             gridspec_kw=dict(height_ratios=[2, 2, 1, 1, 1, 1, 2]))
    ax = axes[0]
    for i, (name, unit) in enumerate([("vx", "m/s"), ("vy", "m/s"), ("wz", "rad/s")]):
        line, = ax.plot(t, log["v"][:, i], lw=0.8, label=f"{name} ({unit})")
        ax.plot(t, log["cmd"][:, i], "--", color=line.get_color(), lw=1.2)
    ax.set_ylabel("base velocity\n(dashed: command)")
    ax.legend(loc="upper right", fontsize=8, ncol=3)
    ax = axes[1]
    ax.plot(t, log["height"], color="k", lw=0.9, label="height (m)")
    ax.set_ylabel("base height (m)")
    ax2 = ax.twinx()
    ax2.plot(t, np.degrees(log["tilt"]), color="tab:red", lw=0.8)
    ax2.set_ylabel("tilt (deg)", color="tab:red")
    if np.any(log["push"] != 0):
        pushed = log["push"] != 0
        ax.fill_between(t, 0, 1, where=pushed, transform=ax.get_xaxis_transform(), color="orange",
                        alpha=0.3, label="push (50 N)")
    ax.legend(loc="lower right", fontsize=8)
    for leg in range(4):
        ax = axes[2 + leg]
        ax.fill_between(t, 0, 1, where=log["down"][:, leg], transform=ax.get_xaxis_transform(),
                        color="tab:green", alpha=0.25, lw=0)
        ax.plot(t, log["forces"][:, leg], lw=0.7, color="tab:blue")
        ax.set_ylabel(f"{go2plant.FEET[leg]} (N)")
    axes[2].set_title("normal force per foot (shaded: scheduled down)", fontsize=9)
    ax = axes[6]
    tm = log["timings"]
    tt = np.arange(len(tm)) * TICK
    lin = 1e3 * np.array([x["linearisation"] for x in tm])
    qp = 1e3 * np.array([x["qp"] for x in tm])
    rest = 1e3 * np.array([x["rest"] for x in tm])
    ax.stackplot(tt, lin, qp, rest, labels=["linearisation (rbdgen)", "QP (ProxQP)", "rest"], alpha=0.8)
    comp = 1e3 * np.array([x["compare"] for x in tm])
    if np.any(comp > 0):
        ax.plot(tt, comp, color="k", lw=0.6, label="linearisation (Pinocchio, not used)")
    ax.axhline(1e3 * TICK, color="r", ls="--", lw=1, label="tick period")
    ax.set_ylabel("time per tick (ms)")
    ax.set_xlabel("simulated time (s)")
    ax.legend(loc="upper right", fontsize=7, ncol=2)
    fig.suptitle(f"Go2 in MuJoCo, whole-body MPC on rbdgen: {scenario}")
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=72)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--out", default=str(go2plant.ROOT / "target" / "plots"))
    parser.add_argument("--duration", type=float, default=None)
    parser.add_argument("--lineariser", choices=["rbdgen", "pinocchio"], default="rbdgen")
    parser.add_argument("--no-compare", action="store_true", help="skip the Pinocchio linearisation")
    parser.add_argument("--verbose", action="store_true", help="print every tick")
    parser.add_argument("--heading", type=float, default=0.0, help="the base's initial yaw (rad)")
    args = parser.parse_args(argv)
    log, summary = run(args.scenario, args.duration, args.lineariser, not args.no_compare,
                       verbose=args.verbose, heading=args.heading)
    path = Path(args.out) / f"go2_{args.scenario}.png"
    plot(args.scenario, log, path)
    print(f"Plot: {path}")
    return 1 if summary["fell"] else 0


if __name__ == "__main__":
    sys.exit(main())
