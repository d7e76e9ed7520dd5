"""Timings of the Python module of `rbdgen generate --python` (Go2+Z1, built
by scripts/python-bindings) against Pinocchio's Python bindings: the batch of
1,000 `aba_derivatives` against a Python loop over
`pin.computeABADerivatives`, and one call from Python. Best of several rounds
(the machine is shared). Run by scripts/bench-bindings; not a test.
"""

import pathlib
import time

import numpy as np
import pinocchio as pin

import go2_z1

ROOT = pathlib.Path(__file__).resolve().parents[1]
MODEL = pin.buildModelFromUrdf(str(ROOT / "models" / "go2_z1.urdf"), pin.JointModelFreeFlyer())
DATA = MODEL.createData()
N = 1000


def best(f, rounds):
    """The shortest of `rounds` timings of f(), in seconds."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    lower = np.full(MODEL.nq, -np.pi)
    upper = np.full(MODEL.nq, np.pi)
    lower[:3], upper[:3] = -1.0, 1.0
    rng = np.random.default_rng(0)
    q = np.array([pin.randomConfiguration(MODEL, lower, upper) for _ in range(N)])
    v = rng.uniform(-1, 1, (N, MODEL.nv))
    tau = rng.uniform(-10, 10, (N, MODEL.nv))

    def pin_loop():
        for k in range(N):
            pin.computeABADerivatives(MODEL, DATA, q[k], v[k], tau[k])

    def rbdgen_loop():
        for k in range(N):
            go2_z1.aba_derivatives(q[k], v[k], tau[k])

    def rbdgen_batch():
        go2_z1.aba_derivatives_batch(q, v, tau)

    rbdgen_batch()  # the thread pool starts here
    t_pin = best(pin_loop, 5)
    t_loop = best(rbdgen_loop, 5)
    t_batch = best(rbdgen_batch, 20)
    q0, v0, tau0 = q[0], v[0], tau[0]
    calls = 2000
    t_single = best(lambda: [go2_z1.aba_derivatives(q0, v0, tau0) for _ in range(calls)], 5) / calls
    t_pin_single = (
        best(lambda: [pin.computeABADerivatives(MODEL, DATA, q0, v0, tau0) for _ in range(calls)], 5)
        / calls
    )
    t_gravity = best(lambda: [go2_z1.generalized_gravity(q0) for _ in range(calls)], 5) / calls
    print(f"states: {N}, lanes: {go2_z1.L}")
    print(f"python loop over pin.computeABADerivatives: {t_pin * 1e3:.2f} ms")
    print(f"python loop over go2_z1.aba_derivatives:    {t_loop * 1e3:.2f} ms")
    print(f"go2_z1.aba_derivatives_batch:               {t_batch * 1e3:.2f} ms")
    print(f"speed-up of the batch over the pin loop:    {t_pin / t_batch:.1f}x")
    print(f"one go2_z1.aba_derivatives call from Python: {t_single * 1e9:.0f} ns")
    print(f"one pin.computeABADerivatives call:          {t_pin_single * 1e9:.0f} ns")
    print(f"one go2_z1.generalized_gravity call:         {t_gravity * 1e9:.0f} ns")


if __name__ == "__main__":
    main()
