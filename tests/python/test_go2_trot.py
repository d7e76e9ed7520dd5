"""Two seconds of examples/go2_trot's walk, headless: Menagerie's Go2 in MuJoCo
under the whole-body MPC on the generated module `go2_mpc`, standing 0.5 s,
then trotting forward (0.4 m/s from 1.0 s) from an initial heading of 2 rad,
so that the world and base axes differ from the start (scripts/go2-trot
--build-only builds the module; scripts/python-bindings does, before running
this directory). Fails when the robot falls (base below 0.15 m, or a body
other than a foot on the floor): each conversion of plant.py left out
(quaternion order, the linear velocity's axes, the actuator order, the
joint damping) makes it fall within the two seconds. Also checks that it
walks where it is told and that rbdgen's linearisation matches Pinocchio's
on the run's own knots. No timing is asserted."""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples" / "go2_trot"))

import run  # noqa: E402  (first: it sets the thread counts before numpy loads)
import numpy as np  # noqa: E402


def test_two_seconds_of_trot_without_a_fall():
    log, summary = run.run("walk", duration=2.0, compare=True, quiet=True, heading=2.0)
    assert not summary["fell"], summary["text"]
    assert log["t"][-1] > 1.99, summary["text"]
    late = log["t"] > 1.2
    # The gait ran: every foot was in the air at some point, and down at another.
    forces = log["forces"][late]
    assert np.all(forces.min(axis=0) < 1.0) and np.all(forces.max(axis=0) > 20.0), forces.max(axis=0)
    # Forward in the base frame at about the command (0.4 m/s), not sideways.
    vx, vy = log["v"][late, 0].mean(), log["v"][late, 1].mean()
    assert 0.25 < vx < 0.55 and abs(vy) < 0.1, (vx, vy)
    # rbdgen's A, B, λ and ∂λ on the MPC's knots against Pinocchio's.
    assert summary["compare_error"] < 1e-6, summary["text"]
