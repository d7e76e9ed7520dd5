"""The Python module of `rbdgen generate --python` against Pinocchio's Python
bindings (`pin` 4.1.0), on random states of Go2+Z1 with a free-flyer.

scripts/python-bindings generates the module (`go2_z1`, with rnea, aba,
generalized_gravity, frame_jacobian_local_world_aligned of `gripper_link` and
aba_derivatives, rnea_jacobian), builds it with maturin, installs it in .venv and runs this
file; .ci/run runs that script.
"""

import pathlib

import numpy as np
import pinocchio as pin
import pytest

import go2_z1

ROOT = pathlib.Path(__file__).resolve().parents[2]
MODEL = pin.buildModelFromUrdf(str(ROOT / "models" / "go2_z1.urdf"), pin.JointModelFreeFlyer())
DATA = MODEL.createData()
RNG = np.random.default_rng(31)
TOL = 1e-9


def random_states(n):
    """n random (q, v, a) with joint angles in [-pi, pi], a unit quaternion."""
    lower = np.full(MODEL.nq, -np.pi)
    upper = np.full(MODEL.nq, np.pi)
    lower[:3], upper[:3] = -1.0, 1.0
    out = []
    for _ in range(n):
        q = pin.randomConfiguration(MODEL, lower, upper)
        v = RNG.uniform(-1.0, 1.0, MODEL.nv)
        a = RNG.uniform(-1.0, 1.0, MODEL.nv)
        out.append((q, v, a))
    return out


def close(got, want):
    np.testing.assert_allclose(got, want, rtol=TOL, atol=TOL)


def full(upper):
    """The symmetric matrix of an upper triangle (Pinocchio fills only that)."""
    return np.triu(upper) + np.triu(upper, 1).T


def test_sizes_and_names():
    assert go2_z1.NQ == MODEL.nq and go2_z1.NV == MODEL.nv
    assert go2_z1.NJOINTS == MODEL.njoints
    assert list(go2_z1.JOINT_NAMES) == list(MODEL.names)[1:]
    assert go2_z1.FRAMES == ["gripper_link"]
    close(go2_z1.NEUTRAL, pin.neutral(MODEL))


def test_functions_against_pinocchio():
    fid = MODEL.getFrameId("gripper_link")
    for q, v, a in random_states(20):
        tau = pin.rnea(MODEL, DATA, q, v, a)
        close(go2_z1.rnea(q, v, a), tau)
        close(go2_z1.aba(q, v, tau), a)
        close(go2_z1.generalized_gravity(q), pin.computeGeneralizedGravity(MODEL, DATA, q))
        jac = pin.computeFrameJacobian(MODEL, DATA, q, fid, pin.LOCAL_WORLD_ALIGNED)
        close(go2_z1.frame_jacobian_local_world_aligned(q, "gripper_link"), jac)
        ddq_dq, ddq_dv, minv = pin.computeABADerivatives(MODEL, DATA, q, v, tau)
        got = go2_z1.aba_derivatives(q, v, tau)
        assert isinstance(got, tuple) and len(got) == 3
        assert all(x.shape == (MODEL.nv, MODEL.nv) for x in got)
        close(got[0], ddq_dq)
        close(got[1], ddq_dv)
        close(got[2], full(minv))
        # The Jacobian by automatic differentiation (one block per argument,
        # q's in the tangent space) against Pinocchio's analytical derivatives.
        dtau_dq, dtau_dv, dtau_da = pin.computeRNEADerivatives(MODEL, DATA, q, v, a)
        jac_q, jac_v, jac_a = go2_z1.rnea_jacobian(q, v, a)
        close(jac_q, dtau_dq)
        close(jac_v, dtau_dv)
        close(jac_a, full(dtau_da))


def test_batches_equal_single_calls():
    states = random_states(11)  # not a multiple of the lanes: a scalar tail
    q = np.array([s[0] for s in states])
    v = np.array([s[1] for s in states])
    a = np.array([s[2] for s in states])
    tau = go2_z1.rnea_batch(q, v, a)
    assert tau.shape == (11, MODEL.nv)
    ddq = go2_z1.aba_derivatives_batch(q, v, tau)
    assert [x.shape for x in ddq] == [(11, MODEL.nv, MODEL.nv)] * 3
    jac = go2_z1.frame_jacobian_local_world_aligned_batch(q, "gripper_link")
    assert jac.shape == (11, 6, MODEL.nv)
    for k in range(11):
        close(tau[k], go2_z1.rnea(q[k], v[k], a[k]))
        for part, single in zip(ddq, go2_z1.aba_derivatives(q[k], v[k], tau[k])):
            close(part[k], single)
        close(jac[k], go2_z1.frame_jacobian_local_world_aligned(q[k], "gripper_link"))
    empty = go2_z1.generalized_gravity_batch(np.zeros((0, MODEL.nq)))
    assert empty.shape == (0, MODEL.nv)


def test_inputs_converted_or_refused():
    q, v, a = random_states(1)[0]
    want = go2_z1.rnea(q, v, a)
    # Lists and non-contiguous views are read as arrays.
    close(go2_z1.rnea(list(q), list(v), list(a)), want)
    wide = np.zeros((MODEL.nq, 2))
    wide[:, 0] = q
    close(go2_z1.rnea(wide[:, 0], v, a), want)
    with pytest.raises(ValueError, match=r"q: expected an array of shape \(%d,\), got shape \(%d,\)" % (MODEL.nq, MODEL.nv)):
        go2_z1.rnea(v, v, a)
    with pytest.raises(ValueError, match=r"a: expected"):
        go2_z1.rnea(q, v, a[:-1])
    # A batch's shapes are (n, ...); the other arguments say the first's n.
    with pytest.raises(ValueError, match=r"v: expected an array of shape \(n, %d\) with n = 3 as `q` has, got shape \(2, %d\)" % (MODEL.nv, MODEL.nv)):
        go2_z1.rnea_batch(np.tile(q, (3, 1)), np.tile(v, (2, 1)), np.tile(a, (3, 1)))
    with pytest.raises(ValueError, match=r"q: expected an array of shape \(n, %d\) \(n states\), got shape \(%d,\)" % (MODEL.nq, MODEL.nq)):
        go2_z1.rnea_batch(q, v, a)
    with pytest.raises(ValueError, match=r"a: expected an array of shape \(n, %d\) with n = 1" % MODEL.nv):
        go2_z1.rnea_batch(q[None], v[None], a)
    with pytest.raises(ValueError, match="frame: unknown link `nowhere`"):
        go2_z1.frame_jacobian_local_world_aligned(q, "nowhere")


def test_non_float_inputs_as_docs_python_md_says():
    # numpy's conversion to float64 decides, its message with a note naming
    # the argument: ValueError for a string that is not a number or a ragged
    # list, TypeError for an object that is not a number.
    with pytest.raises(ValueError, match="could not convert string to float"):
        go2_z1.generalized_gravity("abc")
    with pytest.raises(ValueError, match="could not convert string to float"):
        go2_z1.generalized_gravity(["x"] * MODEL.nq)
    with pytest.raises(ValueError, match="inhomogeneous"):
        go2_z1.generalized_gravity([[1.0], [1.0, 2.0]])
    with pytest.raises(TypeError) as raised:
        go2_z1.generalized_gravity({})
    assert raised.value.__notes__ == ["while processing 'q'"]
    with pytest.raises(TypeError):
        go2_z1.generalized_gravity([1j] * MODEL.nq)
    # A number's string is that number; None and a scalar are 0-d arrays,
    # refused for their shape.
    q = np.array(go2_z1.NEUTRAL)
    close(go2_z1.generalized_gravity([str(float(x)) for x in q]), go2_z1.generalized_gravity(q))
    for x in [None, 1.0]:
        with pytest.raises(ValueError, match=r"q: expected an array of shape \(%d,\), got shape \(\)" % MODEL.nq):
            go2_z1.generalized_gravity(x)


def test_docstrings_from_the_rust_docs():
    assert "Featherstone 2008" in go2_z1.rnea.__doc__
    assert "computeABADerivatives" in go2_z1.aba_derivatives.__doc__
    assert "q: array of shape (n, NQ)" in go2_z1.rnea_batch.__doc__
    assert "GIL released" in go2_z1.rnea_batch.__doc__
