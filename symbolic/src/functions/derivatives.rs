//! The table's entries of the analytical derivatives without contacts: RNEA and ABA (with and
//! without external forces), a step's linearization, a link frame's velocity and
//! acceleration.
//!
//! One function per entry, in table order, given its name by the list (`rt` is the runtime).

use rbdgen_runtime as rt;
use rbdgen_runtime::{ReferenceFrame, Scalar};

use super::{wrenches, Dim, Output, Spec};

pub(super) fn rnea_derivatives<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("a", Dim::Nv)],
        per_frame: false,
        output: THREE_SQUARE,
        doc: &[
            "The derivatives of inverse dynamics `tau = rnea(q, v, a)`: `(dtau_dq, dtau_dv,",
            "dtau_da)`, each `[NV x NV]`, `dtau_dq` in the tangent space (perturbation",
            "`integrate(q, δ)`) and `dtau_da = M(q)`. Matches Pinocchio's",
            "`computeRNEADerivatives`; the runtime's analytical `rnea_derivatives`, traced.",
            "",
            "`q: [NQ]`, `v: [NV]`, `a: [NV]`.",
        ],
        evaluate: |m, d, x, _| {
            let j = rt::rnea_derivatives(m, d, &x[0], &x[1], &x[2])?;
            Ok([j.d_dq, j.d_dv, j.d_du].concat())
        },
    }
}

pub(super) fn aba_derivatives<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("tau", Dim::Nv)],
        per_frame: false,
        output: THREE_SQUARE,
        doc: &[
            "The derivatives of forward dynamics `a = aba(q, v, tau)`: `(ddq_dq, ddq_dv,",
            "ddq_dtau)`, each `[NV x NV]`, `ddq_dq` in the tangent space (perturbation",
            "`integrate(q, δ)`) and `ddq_dtau = M(q)⁻¹`. Matches Pinocchio's",
            "`computeABADerivatives`; the runtime's `aba_derivatives` (`-M⁻¹ ∂τ`), traced.",
            "",
            "`q: [NQ]`, `v: [NV]`, `tau: [NV]`.",
        ],
        evaluate: |m, d, x, _| {
            let j = rt::aba_derivatives(m, d, &x[0], &x[1], &x[2])?;
            Ok([j.d_dq, j.d_dv, j.d_du].concat())
        },
    }
}

pub(super) fn rnea_derivatives_fext<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[
            ("q", Dim::Nq),
            ("v", Dim::Nv),
            ("a", Dim::Nv),
            ("fext", Dim::Wrenches),
        ],
        per_frame: false,
        output: THREE_SQUARE,
        doc: &[
            "The derivatives of inverse dynamics with external forces held fixed,",
            "`tau = rnea_fext(q, v, a, fext)`: `(dtau_dq, dtau_dv, dtau_da)`, each `[NV x NV]`,",
            "`dtau_dq` in the tangent space (perturbation `integrate(q, δ)`, each `fext[i]`",
            "fixed in its joint's frame) and `dtau_da = M(q)`. Matches Pinocchio's",
            "`computeRNEADerivatives(model, data, q, v, a, fext)`; the runtime's analytical",
            "`rnea_derivatives_fext`, traced.",
            "",
            "`q: [NQ]`, `v: [NV]`, `a: [NV]`; `fext[i]`: the wrench `[linear; angular]` (N, N·m)",
            "on the body of joint id i in that joint's frame, `fext[0]` (the universe) ignored.",
        ],
        evaluate: |m, d, x, _| {
            let j = rt::rnea_derivatives_fext(m, d, &x[0], &x[1], &x[2], &wrenches(m, &x[3])?)?;
            Ok([j.d_dq, j.d_dv, j.d_du].concat())
        },
    }
}

pub(super) fn step_linearization<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("u", Dim::Nu), ("h", Dim::Scalar)],
        per_frame: false,
        output: Output::Tuple(&[
            Output::Vector(Dim::Nq),
            Output::Vector(Dim::Nv),
            Output::Matrix(Dim::TwoNv, Dim::TwoNv),
            Output::Matrix(Dim::TwoNv, Dim::Nu),
        ]),
        doc: &[
            "One step of semi-implicit Euler and its linearization (the runtime's",
            "`step_linearization`): `a = aba(q, v, S u)`, `v⁺ = v + h a`, `q⁺ = integrate(q, h v⁺)`,",
            "with `S` the actuation of `ACTUATED_DOFS`; `A`, `B` such that `δx⁺ ≈ A δx + B δu` for",
            "`δx = (δq, δv)`, `δq` in the tangent space (`q ⊕ δq`) and `δq⁺ = difference(q⁺, ·)`.",
            "By the chain rule on the ABA derivatives (`computeABADerivatives`) and",
            "`dIntegrate`: `A = [[Dq + h² Dv ∂a/∂q, h Dv (I + h ∂a/∂v)], [h ∂a/∂q, I + h ∂a/∂v]]`,",
            "`B = [[h² Dv M⁻¹ S], [h M⁻¹ S]]`, `Dq, Dv = dIntegrate(q, h v⁺, ARG0 / ARG1)`.",
            "",
            "`q: [NQ]`, `v: [NV]`, `u: [NU]` (N·m, N), `h` (s); returns `(q⁺: [NQ], v⁺: [NV],",
            "A: [2NV x 2NV], B: [2NV x NU])`.",
        ],
        evaluate: |m, d, x, _| {
            let (q_next, v_next, a, b) =
                rt::step_linearization(m, d, &x[0], &x[1], &x[2], x[3][0])?;
            Ok([q_next, v_next, a, b].concat())
        },
    }
}

pub(super) fn aba_derivatives_fext<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[
            ("q", Dim::Nq),
            ("v", Dim::Nv),
            ("tau", Dim::Nv),
            ("fext", Dim::Wrenches),
        ],
        per_frame: false,
        output: THREE_SQUARE,
        doc: &[
            "The derivatives of forward dynamics with external forces held fixed in their joints'",
            "frames, `a = aba_fext(q, v, tau, fext)`: `(ddq_dq, ddq_dv, ddq_dtau)`, each `[NV x NV]`,",
            "`ddq_dq` in the tangent space, `ddq_dtau = M(q)⁻¹`. Matches Pinocchio's",
            "`computeABADerivatives(model, data, q, v, tau, fext)`; the runtime's",
            "`aba_derivatives_fext`, traced.",
            "",
            "`q: [NQ]`, `v: [NV]`, `tau: [NV]`, `fext: [[6]; NJOINTS]` as in `aba_fext`.",
        ],
        evaluate: |m, d, x, _| {
            let j = rt::aba_derivatives_fext(m, d, &x[0], &x[1], &x[2], &wrenches(m, &x[3])?)?;
            Ok([j.d_dq, j.d_dv, j.d_du].concat())
        },
    }
}

pub(super) fn frame_velocity_derivatives_local<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv)],
        per_frame: true,
        output: TWO_SIX,
        doc: &[
            "The derivatives `(dv_dq, dv_dv)` of a link frame's spatial velocity in its own axes",
            "(`getFrameVelocity(.., LOCAL)`; Pinocchio's `computeForwardKinematicsDerivatives` +",
            "`getFrameVelocityDerivatives(.., LOCAL)`), `dv_dq` in the tangent space, analytically from",
            "one forward pass of the kinematic derivatives. `dv_dv` is `frame_jacobian_local`.",
            "",
            "`q: [NQ]`, `v: [NV]`; returns two `[6 x NV]`, rows `[linear; angular]`.",
        ],
        evaluate: |m, d, x, frame| {
            let f = frame.expect("per-frame function");
            let (dq, dv) = rt::frame_velocity_derivatives(m, d, &x[0], &x[1], f, ReferenceFrame::Local)?;
            Ok([dq, dv].concat())
        },
    }
}

pub(super) fn frame_velocity_derivatives_local_world_aligned<S: Scalar>(
    name: &'static str,
) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv)],
        per_frame: true,
        output: TWO_SIX,
        doc: &[
            "The derivatives `(dv_dq, dv_dv)` of a link frame's velocity in LOCAL_WORLD_ALIGNED (the",
            "velocity of its origin and its angular velocity, world axes), `dv_dq` in the tangent",
            "space with the origin moving with `q`: the exact derivative, where Pinocchio 4.1.0's",
            "`getFrameVelocityDerivatives(.., LOCAL_WORLD_ALIGNED)` leaves out `[ω × ∂p/∂q; 0]`.",
            "`dv_dv` is `frame_jacobian_local_world_aligned`.",
            "",
            "`q: [NQ]`, `v: [NV]`; returns two `[6 x NV]`, rows `[linear; angular]`.",
        ],
        evaluate: |m, d, x, frame| {
            let f = frame.expect("per-frame function");
            let (dq, dv) = rt::frame_velocity_derivatives(m, d, &x[0], &x[1], f, ReferenceFrame::LocalWorldAligned)?;
            Ok([dq, dv].concat())
        },
    }
}

pub(super) fn frame_acceleration_derivatives_local<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("a", Dim::Nv)],
        per_frame: true,
        output: THREE_SIX,
        doc: &[
            "The derivatives `(da_dq, da_dv, da_da)` of a link frame's spatial (not classical)",
            "acceleration in its own axes (`getFrameAcceleration(.., LOCAL)` after",
            "`forwardKinematics(q, v, a)`; Pinocchio's `getFrameAccelerationDerivatives(.., LOCAL)`),",
            "`da_dq` in the tangent space. `da_da` is `frame_jacobian_local`.",
            "",
            "`q: [NQ]`, `v: [NV]`, `a: [NV]`; returns three `[6 x NV]`, rows `[linear; angular]`.",
        ],
        evaluate: |m, d, x, frame| {
            let f = frame.expect("per-frame function");
            let (dq, dv, da) = rt::frame_acceleration_derivatives(m, d, &x[0], &x[1], &x[2], f, ReferenceFrame::Local)?;
            Ok([dq, dv, da].concat())
        },
    }
}

pub(super) fn frame_acceleration_derivatives_local_world_aligned<S: Scalar>(
    name: &'static str,
) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("a", Dim::Nv)],
        per_frame: true,
        output: THREE_SIX,
        doc: &[
            "The derivatives `(da_dq, da_dv, da_da)` of a link frame's spatial acceleration rotated",
            "into world axes (`getFrameAcceleration(.., LOCAL_WORLD_ALIGNED)`), `da_dq` in the tangent",
            "space with the frame's axes moving with `q`: the exact derivative, where Pinocchio",
            "4.1.0's `getFrameAccelerationDerivatives` leaves out `[α × ∂p/∂q; 0]`. `da_da` is",
            "`frame_jacobian_local_world_aligned`.",
            "",
            "`q: [NQ]`, `v: [NV]`, `a: [NV]`; returns three `[6 x NV]`, rows `[linear; angular]`.",
        ],
        evaluate: |m, d, x, frame| {
            let f = frame.expect("per-frame function");
            let (dq, dv, da) = rt::frame_acceleration_derivatives(m, d, &x[0], &x[1], &x[2], f, ReferenceFrame::LocalWorldAligned)?;
            Ok([dq, dv, da].concat())
        },
    }
}

/// Two `[6 x NV]` matrices.
const TWO_SIX: Output = Output::Tuple(&[
    Output::Matrix(Dim::Fixed(6), Dim::Nv),
    Output::Matrix(Dim::Fixed(6), Dim::Nv),
]);

/// Three `[6 x NV]` matrices.
const THREE_SIX: Output = Output::Tuple(&[
    Output::Matrix(Dim::Fixed(6), Dim::Nv),
    Output::Matrix(Dim::Fixed(6), Dim::Nv),
    Output::Matrix(Dim::Fixed(6), Dim::Nv),
]);

/// Three `[NV x NV]` matrices.
const THREE_SQUARE: Output = Output::Tuple(&[
    Output::Matrix(Dim::Nv, Dim::Nv),
    Output::Matrix(Dim::Nv, Dim::Nv),
    Output::Matrix(Dim::Nv, Dim::Nv),
]);
