//! The table's entries of the whole-body dynamics: inverse and forward dynamics (with and
//! without external forces), the inertia matrix and its inverse, the energies, the torque
//! regressor and the derivative of forward dynamics with respect to the external forces.
//!
//! One function per entry, in table order, given its name by the list (`rt` is the runtime).

use rbdgen_runtime as rt;
use rbdgen_runtime::Scalar;

use super::{wrenches, Dim, Output, Spec};

pub(super) fn rnea<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("a", Dim::Nv)],
        per_frame: false,
        output: Output::Vector(Dim::Nv),
        doc: &[
            "Inverse dynamics `tau = M(q) a + C(q, v) v + g(q)` by the recursive Newton-Euler",
            "algorithm (Featherstone 2008 §5.3; Pinocchio's `rnea`).",
            "",
            "`q: [NQ]`, `v: [NV]`, `a: [NV]`; returns `tau: [NV]` (N·m, N; a free-flyer's",
            "entries are the base wrench in the base frame). `rnea(q, v, 0)` is `nonLinearEffects`.",
        ],
        evaluate: |m, d, x, _| Ok(rt::rnea(m, d, &x[0], &x[1], &x[2])?.to_vec()),
    }
}

pub(super) fn crba<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq)],
        per_frame: false,
        output: Output::Matrix(Dim::Nv, Dim::Nv),
        doc: &[
            "The joint-space inertia matrix `M(q)` by the composite rigid-body algorithm",
            "(Featherstone 2008 §6.2; Pinocchio's `crba`, which fills only the upper",
            "triangle: this is the full symmetric matrix).",
            "",
            "`q: [NQ]`; returns `M: [NV x NV]` (kg, kg·m, kg·m²).",
        ],
        evaluate: |m, d, x, _| Ok(rt::crba(m, d, &x[0])?.to_vec()),
    }
}

pub(super) fn aba<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("tau", Dim::Nv)],
        per_frame: false,
        output: Output::Vector(Dim::Nv),
        doc: &[
            "Forward dynamics `a = M(q)⁻¹ (tau - C(q, v) v - g(q))` by the articulated-body",
            "algorithm (Featherstone 2008 §7.3; Pinocchio's `aba`).",
            "",
            "`q: [NQ]`, `v: [NV]`, `tau: [NV]`; returns `a: [NV]`. `rnea(q, v, aba(q, v, tau)) = tau`.",
        ],
        evaluate: |m, d, x, _| Ok(rt::aba(m, d, &x[0], &x[1], &x[2])?.to_vec()),
    }
}

pub(super) fn nonlinear_effects<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv)],
        per_frame: false,
        output: Output::Vector(Dim::Nv),
        doc: &[
            "The nonlinear effects `h(q, v) = C(q, v) v + g(q)` by RNEA at zero acceleration",
            "(Featherstone 2008 §5.3; Pinocchio's `nonLinearEffects`).",
            "",
            "`q: [NQ]`, `v: [NV]`; returns `h: [NV]` (N·m, N). `nonlinear_effects(q, v) == rnea(q, v, 0)`.",
        ],
        evaluate: |m, d, x, _| Ok(rt::nonlinear_effects(m, d, &x[0], &x[1])?.to_vec()),
    }
}

pub(super) fn generalized_gravity<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq)],
        per_frame: false,
        output: Output::Vector(Dim::Nv),
        doc: &[
            "The generalized gravity `g(q)` by RNEA at zero velocity and acceleration",
            "(Featherstone 2008 §5.3; Pinocchio's `computeGeneralizedGravity`).",
            "",
            "`q: [NQ]`; returns `g: [NV]` (N·m, N). `generalized_gravity(q) == rnea(q, 0, 0)`.",
        ],
        evaluate: |m, d, x, _| Ok(rt::generalized_gravity(m, d, &x[0])?.to_vec()),
    }
}

pub(super) fn minverse<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq)],
        per_frame: false,
        output: Output::Matrix(Dim::Nv, Dim::Nv),
        doc: &[
            "The inverse joint-space inertia matrix `M(q)⁻¹` (Pinocchio's `computeMinverse`,",
            "full and symmetric), from CRBA and the tree-sparse factorisation `M = Lᵀ D L`",
            "(Featherstone 2008 §6.5): `M⁻¹ = L⁻¹ D⁻¹ L⁻ᵀ`, no dense inversion.",
            "",
            "`q: [NQ]`; returns `M⁻¹: [NV x NV]`. `aba(q, v, tau) = minverse(q) (tau - nonlinear_effects(q, v))`.",
        ],
        evaluate: |m, d, x, _| Ok(rt::minverse(m, d, &x[0])?.to_vec()),
    }
}

pub(super) fn kinetic_energy<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv)],
        per_frame: false,
        output: Output::Scalar,
        doc: &[
            "The kinetic energy `T = ½ Σ v_iᵀ I_i v_i = ½ vᵀ M(q) v` (Featherstone 2008 §2.15;",
            "Pinocchio's `computeKineticEnergy`).",
            "",
            "`q: [NQ]`, `v: [NV]`; returns T (J).",
        ],
        evaluate: |m, d, x, _| Ok(vec![rt::kinetic_energy(m, d, &x[0], &x[1])?]),
    }
}

pub(super) fn potential_energy<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq)],
        per_frame: false,
        output: Output::Scalar,
        doc: &[
            "The potential energy of gravity `V = -Σ m_i gᵀ c_i` of the moving bodies, zero at",
            "the world origin (Pinocchio's `computePotentialEnergy`).",
            "",
            "`q: [NQ]`; returns V (J).",
        ],
        evaluate: |m, d, x, _| Ok(vec![rt::potential_energy(m, d, &x[0])?]),
    }
}

pub(super) fn rnea_fext<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[
            ("q", Dim::Nq),
            ("v", Dim::Nv),
            ("a", Dim::Nv),
            ("fext", Dim::Wrenches),
        ],
        per_frame: false,
        output: Output::Vector(Dim::Nv),
        doc: &[
            "Inverse dynamics with external forces, `tau = M(q) a + C(q, v) v + g(q) - Σ J_iᵀ fext_i`,",
            "by RNEA (Featherstone 2008 §5.3; Pinocchio's `rnea(model, data, q, v, a, fext)`).",
            "",
            "`q: [NQ]`, `v: [NV]`, `a: [NV]`; `fext[i]`: the wrench `[linear; angular]` (N, N·m) on",
            "the body of joint id i in that joint's frame, `fext[0]` (the universe) ignored, as",
            "Pinocchio's. Returns `tau: [NV]`.",
        ],
        evaluate: |m, d, x, _| {
            Ok(rt::rnea_fext(m, d, &x[0], &x[1], &x[2], &wrenches(m, &x[3])?)?.to_vec())
        },
    }
}

pub(super) fn aba_fext<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[
            ("q", Dim::Nq),
            ("v", Dim::Nv),
            ("tau", Dim::Nv),
            ("fext", Dim::Wrenches),
        ],
        per_frame: false,
        output: Output::Vector(Dim::Nv),
        doc: &[
            "Forward dynamics with external forces, `a = M(q)⁻¹ (tau - h(q, v) + Σ J_iᵀ fext_i)`,",
            "by the articulated-body algorithm (Featherstone 2008 §7.3; Pinocchio's",
            "`aba(model, data, q, v, tau, fext)`).",
            "",
            "`q: [NQ]`, `v: [NV]`, `tau: [NV]`; `fext[i]`: the wrench `[linear; angular]` (N, N·m) on",
            "the body of joint id i in that joint's frame, `fext[0]` (the universe) ignored. Returns",
            "`a: [NV]`. `rnea_fext(q, v, aba_fext(q, v, tau, fext), fext) = tau`.",
        ],
        evaluate: |m, d, x, _| Ok(rt::aba_fext(m, d, &x[0], &x[1], &x[2], &wrenches(m, &x[3])?)?.to_vec()),
    }
}

pub(super) fn aba_dfext<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq)],
        per_frame: false,
        output: Output::Matrix(Dim::Nv, Dim::Wrenches),
        doc: &[
            "The derivative of forward dynamics with respect to the external forces,",
            "`∂a/∂fext_i = M(q)⁻¹ J_iᵀ` with `J_i` joint i's LOCAL Jacobian (the runtime's",
            "`aba_dfext`): `aba_fext` is affine in `fext`, so a force model `fext(q, v, u)` chains in",
            "as `∂a/∂x += aba_dfext(q) ∂fext/∂x`.",
            "",
            "`q: [NQ]`; returns `[NV x 6 NJOINTS]`: columns `6 i .. 6 i + 6` for the wrench",
            "`[linear; angular]` on joint i's body in its frame, zero for the universe (i = 0).",
        ],
        evaluate: |m, d, x, _| rt::aba_dfext(m, d, &x[0]),
    }
}

pub(super) fn joint_torque_regressor<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("a", Dim::Nv)],
        per_frame: false,
        output: Output::Matrix(Dim::Nv, Dim::Regressor),
        doc: &[
            "The joint torque regressor `Y(q, v, a)`: `rnea(q, v, a) = Y π + armature ⊙ a` for `π` the",
            "inertial parameters of every joint's body in its frame, 10 per joint id 1.. in order,",
            "`[m, m c_x, m c_y, m c_z, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz]`, `I` about the joint",
            "frame's origin (Pinocchio's `computeJointTorqueRegressor`, `toDynamicParameters`).",
            "",
            "`q: [NQ]`, `v: [NV]`, `a: [NV]`; returns `Y: [NV x 10 (NJOINTS - 1)]`.",
        ],
        evaluate: |m, d, x, _| rt::joint_torque_regressor(m, d, &x[0], &x[1], &x[2]),
    }
}
