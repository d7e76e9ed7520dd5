"""Where the linearisation's time goes: the 16 knots of one MPC tick of the
trot (the MPC run for 1.2 s first, so the knots cross both diagonals),
linearised in a hot loop (best of `--rounds` rounds of `--reps` calls) by

- `RbdgenLinearizer`: one batch call of `contact_step_linearization_forces_masked`;
- the scalar function in a Python loop over the knots;
- Pinocchio: `constraintDynamics` + `computeConstraintDynamicsDerivatives`
  alone per knot, and the whole `PinocchioLinearizer` (with the step's A and
  B assembled with `dIntegrate`).

    python examples/go2_trot/bench_linearisation.py [--rounds 5] [--reps 200]

Set RAYON_NUM_THREADS=1 for one thread (the batch splits across rayon's pool).
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mpc as wbmpc  # noqa: E402
import run  # noqa: E402


def best(fn, rounds, reps):
    fn()
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        times.append((time.perf_counter() - t0) / reps)
    return 1e6 * min(times)


def knots():
    """The knots of the MPC's tick at t = 1.2 s of the trot."""
    captured = {}
    original = wbmpc.RbdgenLinearizer.__call__

    def capture(self, qs, vs, us, active, h):
        captured["args"] = (qs.copy(), vs.copy(), us.copy(), active.copy(), h)
        return original(self, qs, vs, us, active, h)

    wbmpc.RbdgenLinearizer.__call__ = capture
    try:
        run.run("trot", duration=1.2, compare=False, quiet=True)
    finally:
        wbmpc.RbdgenLinearizer.__call__ = original
    return captured["args"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--reps", type=int, default=200)
    args = parser.parse_args(argv)
    import go2_mpc as dyn
    import pinocchio as pin

    qs, vs, us, active, h = knots()
    n = len(qs)
    hs, damp = np.full(n, h), np.zeros(n)
    taus = np.concatenate([np.zeros((n, 6)), us], axis=1)
    pin_model = pin.buildModelFromMJCF(str(run.go2plant.derive_controller_mjcf(
        run.go2plant.ROOT / "target" / "go2_trot" / "go2_feet.xml")))
    pin_lin = wbmpc.PinocchioLinearizer(pin_model)
    rb_lin = wbmpc.RbdgenLinearizer(dyn)
    prox = pin_lin.prox

    def pin_solve_only():
        for k in range(n):
            _, (data, models, datas) = pin_lin._mode(active[k, ::3])
            tau = taus[k]
            pin.constraintDynamics(pin_model, data, qs[k], vs[k], tau, models, datas, prox)
            pin.computeConstraintDynamicsDerivatives(pin_model, data, models, datas, prox)

    def scalar_loop():
        for k in range(n):
            dyn.contact_step_linearization_forces_masked(qs[k], vs[k], us[k], h, active[k], 0.0)

    r, p = args.rounds, args.reps
    rows = [
        ("rbdgen: contact_step_linearization_forces_masked_batch",
         best(lambda: dyn.contact_step_linearization_forces_masked_batch(qs, vs, us, hs, active, damp), r, p)),
        ("rbdgen: the whole RbdgenLinearizer", best(lambda: rb_lin(qs, vs, us, active, h), r, p)),
        ("rbdgen: the scalar function in a Python loop", best(scalar_loop, r, p)),
        ("Pinocchio: constraintDynamics + derivatives, Python loop", best(pin_solve_only, r, max(p // 4, 1))),
        ("Pinocchio: the whole PinocchioLinearizer", best(lambda: pin_lin(qs, vs, us, active, h), r, max(p // 4, 1))),
    ]
    print(f"{n} knots (masks {sorted({tuple(int(x) for x in a[::3]) for a in active})}), best of {r} rounds, µs per tick:")
    for name, us_ in rows:
        print(f"  {name:58s} {us_:9.1f}  ({us_ / n:6.1f} per knot)")
    print(f"Pinocchio's whole linearisation / rbdgen's: {rows[4][1] / rows[1][1]:.1f}x; "
          f"Pinocchio's solve and derivatives alone / rbdgen's batch call alone: "
          f"{rows[3][1] / rows[0][1]:.1f}x")


if __name__ == "__main__":
    main()
