//! The table's entries of the configuration space: `integrate`, `difference` and their
//! Jacobians with respect to each argument (Pinocchio's `ARG0` / `ARG1`).
//!
//! One function per entry, in table order, given its name by the list (`rt` is the runtime).

use rbdgen_runtime as rt;
use rbdgen_runtime::{ArgumentPosition, Scalar};

use super::{Dim, Output, Spec};

pub(super) fn integrate<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv)],
        per_frame: false,
        output: Output::Vector(Dim::Nq),
        doc: &[
            "The configuration `q ⊕ v` reached from `q` along `v` in unit time (Pinocchio's",
            "`integrate`): `q + v` for revolute and prismatic joints, the rotation of",
            "`[cos, sin]` for continuous joints, `M(q) exp6(v)` for a free-flyer (SE(3), its",
            "quaternion renormalised to first order as Pinocchio's).",
            "",
            "`q: [NQ]`, `v: [NV]`; returns `[NQ]`. `integrate(q, difference(q, q1)) = q1`.",
        ],
        evaluate: |m, _, x, _| rt::integrate(m, &x[0], &x[1]),
    }
}

pub(super) fn difference<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q0", Dim::Nq), ("q1", Dim::Nq)],
        per_frame: false,
        output: Output::Vector(Dim::Nv),
        doc: &[
            "The tangent vector `q1 ⊖ q0` that moves `q0` to `q1` (Pinocchio's `difference`):",
            "`q1 - q0`, the angle in (-π, π] for continuous joints, `log6(M(q0)⁻¹ M(q1))` for",
            "a free-flyer.",
            "",
            "`q0, q1: [NQ]`; returns `[NV]`.",
        ],
        evaluate: |m, _, x, _| rt::difference(m, &x[0], &x[1]),
    }
}

pub(super) fn d_integrate_dq<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv)],
        per_frame: false,
        output: Output::Matrix(Dim::Nv, Dim::Nv),
        doc: &[
            "The Jacobian of `integrate(q, v)` with respect to `q` in the tangent space",
            "(Pinocchio's `dIntegrate(model, q, v, ARG0)`; the runtime's",
            "`d_integrate(model, q, v, ArgumentPosition::Arg0)`): block diagonal, `1` per",
            "1-dof joint, `Ad(exp6(v))⁻¹` for a free-flyer.",
            "",
            "`q: [NQ]`, `v: [NV]`; returns `[NV x NV]`.",
        ],
        evaluate: |m, _, x, _| rt::d_integrate(m, &x[0], &x[1], ArgumentPosition::Arg0),
    }
}

pub(super) fn d_integrate_dv<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv)],
        per_frame: false,
        output: Output::Matrix(Dim::Nv, Dim::Nv),
        doc: &[
            "The Jacobian of `integrate(q, v)` with respect to `v` in the tangent space",
            "(Pinocchio's `dIntegrate(model, q, v, ARG1)`; the runtime's",
            "`d_integrate(model, q, v, ArgumentPosition::Arg1)`): block diagonal, `1` per",
            "1-dof joint, `Jexp6(v)` for a free-flyer.",
            "",
            "`q: [NQ]`, `v: [NV]`; returns `[NV x NV]`.",
        ],
        evaluate: |m, _, x, _| rt::d_integrate(m, &x[0], &x[1], ArgumentPosition::Arg1),
    }
}

pub(super) fn d_difference_dq0<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q0", Dim::Nq), ("q1", Dim::Nq)],
        per_frame: false,
        output: Output::Matrix(Dim::Nv, Dim::Nv),
        doc: &[
            "The Jacobian of `difference(q0, q1)` with respect to `q0` in the tangent space",
            "(Pinocchio's `dDifference(model, q0, q1, ARG0)`; the runtime's",
            "`d_difference(model, q0, q1, ArgumentPosition::Arg0)`): block diagonal, `-1` per",
            "1-dof joint, `-Jlog6(M) Ad(M)⁻¹` for a free-flyer, `M = M(q0)⁻¹ M(q1)`.",
            "",
            "`q0, q1: [NQ]`; returns `[NV x NV]`.",
        ],
        evaluate: |m, _, x, _| rt::d_difference(m, &x[0], &x[1], ArgumentPosition::Arg0),
    }
}

pub(super) fn d_difference_dq1<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q0", Dim::Nq), ("q1", Dim::Nq)],
        per_frame: false,
        output: Output::Matrix(Dim::Nv, Dim::Nv),
        doc: &[
            "The Jacobian of `difference(q0, q1)` with respect to `q1` in the tangent space",
            "(Pinocchio's `dDifference(model, q0, q1, ARG1)`; the runtime's",
            "`d_difference(model, q0, q1, ArgumentPosition::Arg1)`): block diagonal, `1` per",
            "1-dof joint, `Jlog6(M(q0)⁻¹ M(q1))` for a free-flyer.",
            "",
            "`q0, q1: [NQ]`; returns `[NV x NV]`.",
        ],
        evaluate: |m, _, x, _| rt::d_difference(m, &x[0], &x[1], ArgumentPosition::Arg1),
    }
}
