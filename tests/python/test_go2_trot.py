"""Two seconds of examples/go2_trot's trot in place, headless: Menagerie's Go2
in MuJoCo under the whole-body MPC on the generated module `go2_mpc`
(scripts/go2-trot --build-only builds it; scripts/python-bindings does, before
running this directory). Fails when the robot falls (base below 0.15 m, or a
body other than a foot on the floor), and checks the linearisation through
rbdgen against Pinocchio's on the run's own knots. No timing is asserted."""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples" / "go2_trot"))

import run  # noqa: E402  (first: it sets the thread counts before numpy loads)
import numpy as np  # noqa: E402


def test_two_seconds_of_trot_without_a_fall():
    log, summary = run.run("trot", duration=2.0, compare=True, quiet=True)
    assert not summary["fell"], summary["text"]
    assert log["t"][-1] > 1.99, summary["text"]
    # The gait did run: every foot was in the air at some point, and down at another.
    forces = log["forces"][log["t"] > 1.0]
    assert np.all(forces.min(axis=0) < 1.0) and np.all(forces.max(axis=0) > 20.0), forces.max(axis=0)
    # rbdgen's A, B, λ and ∂λ on the MPC's knots against Pinocchio's.
    assert summary["compare_error"] < 1e-6, summary["text"]
